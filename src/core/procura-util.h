/* procura-util.h: small shared helpers of the core
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Lower-case hex SHA-256 of a buffer. */
char  *procura_sha256_hex   (const void *data,
                             gsize       len);
/* Current UTC time as ISO 8601 ("2026-11-30T06:12:00Z"). Honours SOURCE_DATE_EPOCH
 * so that reports and tests can be reproducible. */
char  *procura_now_iso8601  (void);
/* Days between an ISO date (YYYY-MM-DD…) and today; -1 when unparsable. */
int    procura_days_since   (const char *iso_date);
/* A helper program of Procura's: @beside (a path relative to the running binary's folder:
 * the build tree) when executable there, else @name in PKGLIBEXECDIR when executable
 * there, else NULL. */
char  *procura_find_helper  (const char *beside,
                             const char *name);

/* A block for a large array (a run's samples, their working copies, SQLite's record of a
 * sample BLOB), freed with g_free(): from 1 MiB on, whole 2 MiB-aligned pages the kernel
 * is asked to back with huge pages (MADV_HUGEPAGE): one page fault per 2 MiB instead of
 * 512, where a fault per 4 KiB costs more than the work on a sample (bench/import: 20 MB
 * of fresh samples ~50 ms of faults on a virtual machine, ~2 ms with huge pages); below
 * 1 MiB, or without such advice, malloc(). */
gpointer procura_memory_alloc_large (gsize size);
/* The same, NULL when the memory is not there (for allocators that report it). */
gpointer procura_memory_try_alloc_large (gsize size);
/* Grows a block from malloc() to @size bytes, of which the first @used are kept, like
 * g_realloc(); from 1 MiB on into a new procura_memory_alloc_large() block, never by
 * moving the old one's pages. */
gpointer procura_memory_grow (gpointer mem,
                              gsize    used,
                              gsize    size);
/* For a process that does one batch of work and exits (the command line): freed blocks
 * below 4 MiB are kept in the heap for the next allocation instead of being returned
 * to the system and faulted in again, and the heap's next 16 MiB are advised onto huge
 * pages (address space only until written, then 2 MiB at a time). Never for the app,
 * which lives for hours. */
void   procura_memory_tune_for_batch (void);
/* Whether procura_memory_tune_for_batch() put the heap's next blocks on huge pages (only
 * where malloc, madvise and MADV_HUGEPAGE are there, never under AddressSanitizer,
 * whose allocator is not the heap) */
gboolean procura_memory_heap_on_huge_pages (void);

/* 1 in a build with AddressSanitizer (GCC says so with a macro, clang with a feature) */
#if defined (__SANITIZE_ADDRESS__)
# define PROCURA_WITH_ASAN 1
#elif defined (__has_feature)
# if __has_feature (address_sanitizer)
#  define PROCURA_WITH_ASAN 1
# endif
#endif
#ifndef PROCURA_WITH_ASAN
# define PROCURA_WITH_ASAN 0
#endif

G_END_DECLS
