/* procura-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_MALLOPT
# include <malloc.h>
#endif
#include <unistd.h>
#ifdef HAVE_MADVISE
# include <sys/mman.h>
#endif

#include "procura-util.h"

char *
procura_sha256_hex (const void *data,
                    gsize       len)
{
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, len);
}

static GDateTime *
now_utc (void)
{
  const char *epoch = g_getenv ("SOURCE_DATE_EPOCH");

  if (epoch != NULL && *epoch != '\0')
    {
      char *end = NULL;
      gint64 t = g_ascii_strtoll (epoch, &end, 10);
      if (end != NULL && *end == '\0')
        return g_date_time_new_from_unix_utc (t);
    }
  return g_date_time_new_now_utc ();
}

char *
procura_now_iso8601 (void)
{
  g_autoptr (GDateTime) now = now_utc ();
  return g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
}

int
procura_days_since (const char *iso_date)
{
  g_autoptr (GDateTime) now = now_utc ();
  g_autoptr (GDateTime) then = NULL;
  int y, m, d;

  if (iso_date == NULL || sscanf (iso_date, "%4d-%2d-%2d", &y, &m, &d) != 3)
    return -1;
  then = g_date_time_new_utc (y, m, d, 0, 0, 0);
  if (then == NULL)
    return -1;
  return (int) (g_date_time_difference (now, then) / G_TIME_SPAN_DAY);
}

char *
procura_find_helper (const char *beside,
                     const char *name)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  char *path;

  if (self != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self);

      path = g_build_filename (dir, beside, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return path;
      g_free (path);
    }
  path = g_build_filename (PKGLIBEXECDIR, name, NULL);
  if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    return path;
  g_free (path);
  return NULL;
}

#define HUGE_PAGE ((uintptr_t) 2 << 20)

gpointer
procura_memory_try_alloc_large (gsize size)
{
#if defined (HAVE_POSIX_MEMALIGN) && defined (HAVE_MADVISE) && defined (MADV_HUGEPAGE)
  if (size >= HUGE_PAGE / 2 && size <= G_MAXSIZE - HUGE_PAGE)
    {
      /* whole huge pages: a block only 2 MiB long, or not aligned, holds none */
      gsize rounded = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
      void *mem = NULL;

      if (posix_memalign (&mem, HUGE_PAGE, rounded) == 0)
        {
          (void) madvise (mem, rounded, MADV_HUGEPAGE);
          return mem;
        }
    }
#endif
  return malloc (MAX (size, 1));
}

gpointer
procura_memory_alloc_large (gsize size)
{
  gpointer mem = procura_memory_try_alloc_large (size);

  if (mem == NULL)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
  return mem;
}

gpointer
procura_memory_grow (gpointer mem,
                     gsize    used,
                     gsize    size)
{
  gpointer grown;

  if (size < HUGE_PAGE / 2)
    return g_realloc (mem, size);
  /* A new block, copied into: realloc() would move a large block's pages to another
   * address, which splits its huge pages (the new address is rarely 2 MiB-aligned like
   * the old one) and leaves every page to be mapped again on its next touch. */
  grown = procura_memory_alloc_large (size);
  if (used > 0)
    memcpy (grown, mem, MIN (used, size));
  g_free (mem);
  return grown;
}

#if defined (HAVE_MALLOPT) && defined (HAVE_MADVISE) && defined (MADV_HUGEPAGE) \
    && !PROCURA_WITH_ASAN
# define HEAP_ON_HUGE_PAGES 1
/* How much of the heap, from its top at the start, is put on huge pages: more than a
 * 5.5 MB import allocates there; a 30 MiB reserve put the 55 MB import's sparsely used
 * heap on more 2 MiB pages (peak 77 instead of 55 MiB, bench/import) */
# define HEAP_RESERVE ((gsize) 16 << 20)

static gboolean heap_advised;
/* Never freed nor written: the part of the heap below the reserve's first 2 MiB boundary
 * (address space only; a global, so that leak checkers see it reachable). Volatile: the
 * pointer is never read, and without it the compiler drops the store and the malloc()
 * with it, so that the command's first allocations land below the advised range. */
static void *volatile heap_plug;

/* The next HEAP_RESERVE bytes of the heap on huge pages. Every 4 KiB page a process
 * writes first costs a page fault, 11 µs on the benchmark's virtual machine (a 2 MiB
 * huge page: 125 µs, bench/import/README.md), and a command touches thousands of fresh
 * heap pages (SQLite's page cache, the quantile summaries, a sample BLOB's record). */
static void
heap_on_huge_pages (void)
{
  void *block;
  uintptr_t lo, hi;

  /* A block the heap must grow for (the mapping threshold raised for it): neither the
   * kernel nor malloc maps or writes its pages, so none is a small page yet */
  mallopt (M_MMAP_THRESHOLD, (int) (HEAP_RESERVE + (4 << 20)));
  block = malloc (HEAP_RESERVE);
  mallopt (M_MMAP_THRESHOLD, 4 << 20);
  if (block == NULL)
    return;
  lo = ((uintptr_t) block + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  hi = ((uintptr_t) block + HEAP_RESERVE) & ~(HUGE_PAGE - 1);
  heap_advised = hi > lo && madvise ((void *) lo, hi - lo, MADV_HUGEPAGE) == 0;
  /* Freed, the block joins the heap's free top; its part below the first boundary is
   * taken, so that what the command allocates next starts there: the plug's chunk ends
   * short of the boundary by more than the 16 bytes of header malloc writes after it.
   * (Were malloc to place these elsewhere, nothing is lost but the advice.) */
  free (block);
  if (heap_advised && lo - (uintptr_t) block > 64)
    heap_plug = malloc (lo - (uintptr_t) block - 48);
}
#endif

void
procura_memory_tune_for_batch (void)
{
#ifdef HAVE_MALLOPT
  /* Blocks from 4 MiB on are mapped on their own and unmapped when freed; smaller ones
   * come from the heap, which is not trimmed, so that the next allocation finds them
   * already faulted in. */
  mallopt (M_MMAP_THRESHOLD, 4 << 20);
  mallopt (M_TRIM_THRESHOLD, 256 << 20);
  /* One heap for every thread: a thread's own arena is fresh memory of small pages (the
   * project's open beside the parse faulted some 500 of them in, one per 4 KiB of
   * SQLite's page cache), where the main heap's next megabytes are on huge pages */
# ifdef M_ARENA_MAX
  mallopt (M_ARENA_MAX, 1);
# endif
#endif
#ifdef HEAP_ON_HUGE_PAGES
  if (!heap_advised)
    heap_on_huge_pages ();
#endif
}

gboolean
procura_memory_heap_on_huge_pages (void)
{
#ifdef HEAP_ON_HUGE_PAGES
  return heap_advised;
#else
  return FALSE;
#endif
}
