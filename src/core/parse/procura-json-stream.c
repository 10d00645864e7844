/* procura-json-stream.c: the bulk reader over a file read in bounded chunks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A hand-written strict JSON reader for the one shape the bulk reader takes (see
 * procura-json-stream.h). It mirrors procura-json-bulk.cc member for member: the same
 * array rules (numbers and nulls, strings, or lists of numbers and nulls; any mix is
 * refused), the same nodes for the other members (int64 or double numbers, strings
 * without NUL, nesting up to 64), duplicate arrays kept in order. Any doubt is a NULL
 * return, never a different answer.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "procura-json-stream.h"
#include "procura-util.h"

/* The read buffers; a token is at most TOKEN_MAX bytes (numbers, literals). The reader
 * fills them in turn, so that a chunk handed to the chunk function stays unchanged while
 * the next PROCURA_JSON_CHUNKS_KEPT - 1 are read (procura-json-stream.h). */
#define CHUNK (1024 * 1024)
#define TOKEN_MAX 64
#define RING PROCURA_JSON_CHUNKS_KEPT
#define NODE_DEPTH 64
#define SKIP_DEPTH 256

typedef struct _Lane Lane;

typedef struct {
  int                  fd;
  gsize                left;       /* bytes of the file not read yet */
  char                *bufs[RING];
  guint                next;       /* the buffer the next refill reads into */
  char                *buf;
  const char          *p;
  const char          *end;
  gboolean             eof;
  gboolean             bad;        /* an I/O error, a cancel, or bytes beyond @size */
  ProcuraJsonChunkFunc chunk_func;
  gpointer             user_data;
  GCancellable        *cancellable;
  Lane                *lane;       /* the second reader of a list of lists, or NULL */
} Reader;

static void lane_drop (Reader *r);

/* Keeps [p, end) and reads more after it. FALSE at the end of the file (or on error). */
static gboolean
refill (Reader *r)
{
  gsize keep = (gsize) (r->end - r->p);
  gssize n;

  if (r->eof || r->bad)
    return FALSE;
  /* the lane reads the current buffer: it is done (and its work dropped) first */
  lane_drop (r);
  if (g_cancellable_is_cancelled (r->cancellable))
    {
      r->bad = TRUE;
      return FALSE;
    }
  /* the unread rest goes in front of the next buffer; this one stays as it is */
  r->buf = r->bufs[r->next];
  r->next = (r->next + 1) % RING;
  memmove (r->buf, r->p, keep);
  r->p = r->buf;
  r->end = r->buf + keep;
  if (r->left == 0)
    {
      char extra;

      /* the file must end where fstat said: one byte more means it grew */
      do
        n = read (r->fd, &extra, 1);
      while (n < 0 && errno == EINTR);
      if (n != 0)
        r->bad = TRUE;
      r->eof = TRUE;
      return FALSE;
    }
  do
    n = read (r->fd, r->buf + keep, MIN (r->left, (gsize) CHUNK - keep));
  while (n < 0 && errno == EINTR);
  if (n <= 0)
    {
      r->bad = TRUE;  /* an error, or the file shrank */
      return FALSE;
    }
  if (r->chunk_func != NULL)
    r->chunk_func (r->buf + keep, (gsize) n, r->user_data);
  r->left -= (gsize) n;
  r->end += n;
  return TRUE;
}

/* At least @k bytes at p unless the file ends first. */
static inline void
ensure (Reader *r,
        gsize   k)
{
  while ((gsize) (r->end - r->p) < k && refill (r))
    ;
}

/* The next byte after white space, not consumed; 0 at the end. */
static inline char
peek (Reader *r)
{
  for (;;)
    {
      while (r->p < r->end)
        {
          char c = *r->p;
          if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            return c;
          r->p++;
        }
      if (!refill (r))
        return 0;
    }
}

static inline gboolean
expect (Reader *r,
        char    c)
{
  if (peek (r) != c)
    return FALSE;
  r->p++;
  return TRUE;
}

/* Length of the valid UTF-8 sequence at @s (@avail bytes there), or 0 */
static gsize
utf8_len (const guchar *s,
          gsize         avail)
{
  guchar c = s[0];
  gsize n;
  gunichar min, u;

  if (c < 0xC2 || c >= 0xF5)
    return 0;
  if (c < 0xE0)
    {
      n = 2;
      u = c & 0x1F;
      min = 0x80;
    }
  else if (c < 0xF0)
    {
      n = 3;
      u = c & 0x0F;
      min = 0x800;
    }
  else
    {
      n = 4;
      u = c & 0x07;
      min = 0x10000;
    }
  if (avail < n)
    return 0;
  for (gsize i = 1; i < n; i++)
    {
      if ((s[i] & 0xC0) != 0x80)
        return 0;
      u = (u << 6) | (s[i] & 0x3F);
    }
  if (u < min || u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF))
    return 0;
  return n;
}

static int
hex4 (const char *s)
{
  int v = 0;

  for (int i = 0; i < 4; i++)
    {
      char c = s[i];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= c - '0';
      else if (c >= 'a' && c <= 'f')
        v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        v |= c - 'A' + 10;
      else
        return -1;
    }
  return v;
}

/* A string (p at its opening quote). With @out, its unescaped text is appended there;
 * *empty says it had no characters. */
static gboolean
read_string (Reader   *r,
             GString  *out,
             gboolean *empty)
{
  gboolean any = FALSE;

  r->p++;
  for (;;)
    {
      const char *run = r->p;

      /* plain ASCII runs in one go */
      while (r->p < r->end && (guchar) *r->p >= 0x20 && (guchar) *r->p < 0x80
             && *r->p != '"' && *r->p != '\\')
        r->p++;
      if (r->p > run)
        {
          any = TRUE;
          if (out != NULL)
            g_string_append_len (out, run, r->p - run);
        }
      if (r->p == r->end)
        {
          if (!refill (r))
            return FALSE;
          continue;
        }
      if (*r->p == '"')
        {
          r->p++;
          if (empty != NULL)
            *empty = !any;
          return TRUE;
        }
      any = TRUE;
      ensure (r, 12);
      if (*r->p == '\\')
        {
          gunichar u;
          char c;

          if (r->end - r->p < 2)
            return FALSE;
          c = r->p[1];
          r->p += 2;
          switch (c)
            {
            case '"': u = '"'; break;
            case '\\': u = '\\'; break;
            case '/': u = '/'; break;
            case 'b': u = '\b'; break;
            case 'f': u = '\f'; break;
            case 'n': u = '\n'; break;
            case 'r': u = '\r'; break;
            case 't': u = '\t'; break;
            case 'u':
              {
                int h;

                if (r->end - r->p < 4 || (h = hex4 (r->p)) < 0)
                  return FALSE;
                r->p += 4;
                u = (gunichar) h;
                if (u >= 0xDC00 && u <= 0xDFFF)
                  return FALSE;
                if (u >= 0xD800 && u <= 0xDBFF)
                  {
                    int lo;

                    if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u'
                        || (lo = hex4 (r->p + 2)) < 0xDC00 || lo > 0xDFFF)
                      return FALSE;
                    r->p += 6;
                    u = 0x10000 + ((u - 0xD800) << 10) + ((gunichar) lo - 0xDC00);
                  }
                break;
              }
            default:
              return FALSE;
            }
          if (out != NULL)
            g_string_append_unichar (out, u);
        }
      else if ((guchar) *r->p < 0x20)
        return FALSE;
      else
        {
          gsize n = utf8_len ((const guchar *) r->p, (gsize) (r->end - r->p));

          if (n == 0)
            return FALSE;
          if (out != NULL)
            g_string_append_len (out, r->p, (gssize) n);
          r->p += n;
        }
    }
}

/* A number at p: its value, and whether it was written as an integer. */
static gboolean
read_number (Reader   *r,
             double   *d,
             gboolean *is_int,
             const char **text,
             gsize    *text_len)
{
  gsize n;

  ensure (r, TOKEN_MAX);
  n = procura_json_number_scan (r->p, r->end, d, is_int);
  /* a number that runs to the end of the buffer may go on beyond it */
  if (n == 0 || (r->p + n == r->end && !r->eof))
    return FALSE;
  if (!isfinite (*d))
    return FALSE;
  if (text != NULL)
    {
      *text = r->p;
      *text_len = n;
    }
  r->p += n;
  return TRUE;
}

/* A bulk number: a number or null (NAN); strtod's underflow to 0 is refused. */
static inline gboolean
read_bulk_number (Reader *r,
                  double *d)
{
  const char *text;
  gsize len;

  if (r->p < r->end && *r->p == 'n')
    {
      ensure (r, 4);
      if (r->end - r->p < 4 || memcmp (r->p, "null", 4) != 0)
        return FALSE;
      r->p += 4;
      *d = NAN;
      return TRUE;
    }
  if (!read_number (r, d, NULL, &text, &len))
    return FALSE;
  if (*d == 0)
    for (gsize i = 0; i < len && text[i] != 'e' && text[i] != 'E'; i++)
      if (text[i] >= '1' && text[i] <= '9')
        return FALSE;
  return TRUE;
}

static gboolean
read_literal (Reader     *r,
              const char *word)
{
  gsize n = strlen (word);

  ensure (r, n);
  if ((gsize) (r->end - r->p) < n || memcmp (r->p, word, n) != 0)
    return FALSE;
  r->p += n;
  return TRUE;
}

/* A number member or node: int64 when written as an integer, else a double. */
static JsonNode *
number_node (Reader *r)
{
  const char *text;
  gsize len;
  double d;
  gboolean is_int;

  if (!read_number (r, &d, &is_int, &text, &len))
    return NULL;
  if (d == 0)
    {
      /* "-0" and underflow to zero are left to the usual path */
      if (text[0] == '-')
        return NULL;
      for (gsize i = 0; i < len && text[i] != 'e' && text[i] != 'E'; i++)
        if (text[i] >= '1' && text[i] <= '9')
          return NULL;
    }
  if (is_int)
    {
      gint64 v = 0;
      gboolean neg = text[0] == '-';

      /* up to 18 digits always fit; longer integers are left to the usual path */
      if (len - (neg ? 1 : 0) > 18)
        return NULL;
      for (gsize i = neg ? 1 : 0; i < len; i++)
        v = v * 10 + (text[i] - '0');
      return json_node_init_int (json_node_alloc (), neg ? -v : v);
    }
  return json_node_init_double (json_node_alloc (), d);
}

static JsonNode *read_node (Reader *r,
                            int     depth);

static JsonNode *
string_node (Reader *r)
{
  g_autoptr (GString) s = g_string_new (NULL);

  if (!read_string (r, s, NULL) || memchr (s->str, 0, s->len) != NULL)
    return NULL;
  return json_node_init_string (json_node_alloc (), s->str);
}

/* A key and its colon (p at the opening quote); NULL when it holds a NUL. */
static char *
read_key (Reader *r)
{
  GString *k = g_string_new (NULL);

  if (peek (r) != '"' || !read_string (r, k, NULL) || memchr (k->str, 0, k->len) != NULL
      || !expect (r, ':'))
    {
      g_string_free (k, TRUE);
      return NULL;
    }
  return g_string_free (k, FALSE);
}

static JsonNode *
read_node (Reader *r,
           int     depth)
{
  char c = peek (r);

  if (depth > NODE_DEPTH)
    return NULL;
  switch (c)
    {
    case '"':
      return string_node (r);
    case 't':
      return read_literal (r, "true") ? json_node_init_boolean (json_node_alloc (), TRUE) : NULL;
    case 'f':
      return read_literal (r, "false") ? json_node_init_boolean (json_node_alloc (), FALSE) : NULL;
    case 'n':
      return read_literal (r, "null") ? json_node_init_null (json_node_alloc ()) : NULL;
    case '{':
      {
        g_autoptr (JsonObject) o = json_object_new ();

        r->p++;
        if (peek (r) == '}')
          r->p++;
        else
          for (;;)
            {
              g_autofree char *key = read_key (r);
              JsonNode *child;

              if (key == NULL || (child = read_node (r, depth + 1)) == NULL)
                return NULL;
              json_object_set_member (o, key, child);
              c = peek (r);
              r->p++;
              if (c == '}')
                break;
              if (c != ',')
                return NULL;
            }
        return json_node_init_object (json_node_alloc (), o);
      }
    case '[':
      {
        g_autoptr (JsonArray) a = json_array_new ();

        r->p++;
        if (peek (r) == ']')
          r->p++;
        else
          for (;;)
            {
              JsonNode *child = read_node (r, depth + 1);

              if (child == NULL)
                return NULL;
              json_array_add_element (a, child);
              c = peek (r);
              r->p++;
              if (c == ']')
                break;
              if (c != ',')
                return NULL;
            }
        return json_node_init_array (json_node_alloc (), a);
      }
    default:
      if (c == '-' || (c >= '0' && c <= '9'))
        return number_node (r);
      return NULL;
    }
}

/* Any value, checked and dropped. */
static gboolean
skip_value (Reader *r,
            int     depth)
{
  char c = peek (r);
  double d;

  if (depth > SKIP_DEPTH)
    return FALSE;
  switch (c)
    {
    case '"':
      return read_string (r, NULL, NULL);
    case 't':
      return read_literal (r, "true");
    case 'f':
      return read_literal (r, "false");
    case 'n':
      return read_literal (r, "null");
    case '{':
    case '[':
      {
        char close = c == '{' ? '}' : ']';

        r->p++;
        if (peek (r) == close)
          {
            r->p++;
            return TRUE;
          }
        for (;;)
          {
            char next;

            if (c == '{')
              {
                g_autofree char *key = read_key (r);
                if (key == NULL)
                  return FALSE;
              }
            if (!skip_value (r, depth + 1))
              return FALSE;
            next = peek (r);
            r->p++;
            if (next == close)
              return TRUE;
            if (next != ',')
              return FALSE;
          }
      }
    default:
      return (c == '-' || (c >= '0' && c <= '9')) && read_number (r, &d, NULL, NULL, NULL);
    }
}

/* The next capacity of an array of @cap numbers that is full. Doubling, until the array
 * reaches 1 MiB: from there on the rest of the file bounds it (every further number takes
 * two bytes at least, "0,"), and it is given that bound at once, as address space only:
 * its pages are touched (and zeroed) as the numbers come, never copied into a larger
 * block again (at 55 MB the doublings zeroed three times the 20 MB of inter-token gaps).
 * Where the system refuses so large a block, doubling goes on. */
static double *
grow_numbers (Reader *r,
              double *values,
              gsize  *cap)
{
  gsize next = *cap ? *cap * 2 : 256;
  gsize bound = *cap + (r->left + (gsize) (r->end - r->p)) / 2 + 1;
  double *grown;

  if (next * sizeof (double) >= (1 << 20) && bound > next && bound <= G_MAXSIZE / sizeof (double))
    {
      grown = procura_memory_try_alloc_large (bound * sizeof (double));
      if (grown != NULL)
        {
          if (*cap > 0)
            memcpy (grown, values, *cap * sizeof (double));
          g_free (values);
          *cap = bound;
          return grown;
        }
    }
  grown = procura_memory_grow (values, *cap * sizeof (double), next * sizeof (double));
  *cap = next;
  return grown;
}

#define GROW(arr, size, cap, type)                                   \
  G_STMT_START {                                                     \
    G_STATIC_ASSERT (sizeof (type) == sizeof (double));              \
    if ((size) == (cap))                                             \
      (arr) = grow_numbers (r, (arr), &(cap));                       \
  } G_STMT_END

static void
bulk_array_free (ProcuraBulkArray *a)
{
  g_free (a->name);
  g_free (a->values);
  g_free (a->row_sum);
  g_free (a->row_len);
  g_free (a);
}

/* ---- the lane: a second reader for the rest of a buffered list of lists ----
 *
 * Nearly all of a big result is one list of lists of numbers (the inter-token gaps), and
 * reading its numbers is most of an import's parse. While the reader works through the
 * first part of a buffer of such a list, a second thread reads the rest: it starts at
 * the first '[' past a cut (half way at first, then moved a little each time towards the
 * side that finished later) and takes that to open an inner list, reading inner
 * lists ("[n, n, ...]", separated by commas) for as long as the text is nothing else.
 * That guess is checked, never trusted: its work is kept only when the reader itself,
 * still inside the same list of lists, arrives at that very '[' to open its next inner
 * list. Then everything the lane read is what the reader would have read there (the
 * grammar of an inner list has no other reading), and the reader goes on where the lane
 * stopped: after the last inner list it read whole, before its separator. Anything the
 * lane is unsure of (a number that may run on past the buffer, a token longer than
 * TOKEN_MAX, a number the reader refuses, other syntax) simply ends its run there, and
 * the reader reads on from that point itself, with its usual checks and refusals.
 * The values, row sums and row lengths come out bit for bit as one reader's would. */
#define LANE_MIN (64 * 1024)   /* bytes a lane's half must have, at least */

static guint lanes_kept, lanes_dropped;   /* for the tests */

void
procura_json_stream_get_lane_counts (guint *kept,
                                     guint *dropped)
{
  *kept = g_atomic_int_get (&lanes_kept);
  *dropped = g_atomic_int_get (&lanes_dropped);
}

struct _Lane {
  GThread    *thread;
  GMutex      lock;
  GCond       cond;
  gboolean    queued;    /* a job waits for the thread */
  gboolean    busy;      /* the reader has handed a job out and not yet taken it back */
  gboolean    running;   /* the thread is on a job */
  gboolean    quit;
  double      share;     /* of the buffer ahead, the part given to the lane */
  /* the job: [s, end) of the reader's current buffer, s at a '[' */
  const char *s;
  const char *end;
  /* what it read: whole inner lists up to q (q == s: none) */
  const char *q;
  double     *values;
  gsize       n, cap;
  double     *row_sum;
  guint32    *row_len;
  gsize       rows, rows_cap;
};

static inline const char *
lane_space (const char *p,
            const char *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  return p;
}

/* One value of an inner list at @p, as read_bulk_number() reads it; NULL where the
 * lane stops (the reader decides there). */
static inline const char *
lane_number (const char *p,
             const char *end,
             double     *d)
{
  gsize n;

  if (p < end && *p == 'n')
    {
      if (end - p < 5 || memcmp (p, "null", 4) != 0)
        return NULL;
      *d = NAN;
      return p + 4;
    }
  n = procura_json_number_scan (p, end, d, NULL);
  /* one that runs to the end of the buffer may go on past it; a long one is left to
   * the reader, which reads tokens of up to TOKEN_MAX bytes with more data at hand */
  if (n == 0 || n >= (gsize) (end - p) || n >= TOKEN_MAX || !isfinite (*d))
    return NULL;
  if (*d == 0)
    for (gsize i = 0; i < n && p[i] != 'e' && p[i] != 'E'; i++)
      if (p[i] >= '1' && p[i] <= '9')
        return NULL;   /* underflow to zero: refused by the reader */
  return p + n;
}

static void
lane_run (Lane *l)
{
  const char *p = l->s, *end = l->end;

  l->q = l->s;
  l->n = 0;
  l->rows = 0;
  while (p < end && *p == '[')
    {
      gsize first = l->n;
      double sum = 0;
      guint32 count = 0;

      p = lane_space (p + 1, end);
      if (p < end && *p == ']')
        p++;
      else
        for (;;)
          {
            double d;

            if ((p = lane_number (p, end, &d)) == NULL)
              goto stop;
            if (l->n == l->cap)
              {
                l->cap = l->cap ? l->cap * 2 : 16384;
                l->values = g_renew (double, l->values, l->cap);
              }
            l->values[l->n++] = d;
            sum += d;
            count++;
            p = lane_space (p, end);
            if (p >= end)
              goto stop;
            if (*p == ']')
              {
                p++;
                break;
              }
            if (*p != ',')
              goto stop;
            p = lane_space (p + 1, end);
          }
      if (l->rows == l->rows_cap)
        {
          l->rows_cap = l->rows_cap ? l->rows_cap * 2 : 1024;
          l->row_sum = g_renew (double, l->row_sum, l->rows_cap);
          l->row_len = g_renew (guint32, l->row_len, l->rows_cap);
        }
      l->row_sum[l->rows] = sum;
      l->row_len[l->rows] = count;
      l->rows++;
      l->q = p;
      /* the separator and the next inner list, or the end of the lane's run */
      p = lane_space (p, end);
      if (p >= end || *p != ',')
        break;
      p = lane_space (p + 1, end);
      continue;
stop:
      l->n = first;   /* the unfinished inner list is the reader's */
      break;
    }
}

static gpointer
lane_thread (gpointer data)
{
  Lane *l = data;

  g_mutex_lock (&l->lock);
  for (;;)
    {
      while (!l->queued && !l->quit)
        g_cond_wait (&l->cond, &l->lock);
      if (l->quit)
        break;
      l->queued = FALSE;
      l->running = TRUE;
      g_mutex_unlock (&l->lock);
      lane_run (l);
      g_mutex_lock (&l->lock);
      l->running = FALSE;
      g_cond_broadcast (&l->cond);
    }
  g_mutex_unlock (&l->lock);
  return NULL;
}

/* Waits until the lane's job is done (its results then belong to the reader). */
static gboolean
lane_wait (Lane *l)
{
  gboolean late;

  g_mutex_lock (&l->lock);
  late = l->queued || l->running;
  while (l->queued || l->running)
    g_cond_wait (&l->cond, &l->lock);
  g_mutex_unlock (&l->lock);
  l->busy = FALSE;
  return late;
}

static void
lane_drop (Reader *r)
{
  if (r->lane != NULL && r->lane->busy)
    {
      lane_wait (r->lane);
      g_atomic_int_inc (&lanes_dropped);
    }
}

/* At an inner list's '[' with the rest of a big buffer ahead: hand its second half to
 * the lane. */
static void
lane_start (Reader *r)
{
  Lane *l = r->lane;
  const char *mid, *s;

  if (r->end - r->p < 2 * LANE_MIN)
    return;
  mid = r->end - (gsize) ((double) (r->end - r->p) * (l != NULL ? l->share : 0.5));
  s = memchr (mid, '[', (gsize) (r->end - mid));
  if (s == NULL || r->end - s < LANE_MIN / 2)
    return;
  if (l == NULL)
    {
      l = r->lane = g_new0 (Lane, 1);
      l->share = 0.5;
      g_mutex_init (&l->lock);
      g_cond_init (&l->cond);
      l->thread = g_thread_try_new ("procura-json", lane_thread, l, NULL);
      if (l->thread == NULL)
        return;   /* the reader reads on alone */
    }
  if (l->thread == NULL)
    return;
  g_mutex_lock (&l->lock);
  l->s = s;
  l->end = r->end;
  l->queued = TRUE;
  l->busy = TRUE;
  g_cond_broadcast (&l->cond);
  g_mutex_unlock (&l->lock);
}

static void
lane_free (Lane *l)
{
  if (l == NULL)
    return;
  if (l->thread != NULL)
    {
      g_mutex_lock (&l->lock);
      l->quit = TRUE;
      g_cond_broadcast (&l->cond);
      g_mutex_unlock (&l->lock);
      g_thread_join (l->thread);
    }
  g_mutex_clear (&l->lock);
  g_cond_clear (&l->cond);
  g_free (l->values);
  g_free (l->row_sum);
  g_free (l->row_len);
  g_free (l);
}

/* An array of numbers (and nulls), of strings, or of lists of numbers (and nulls). */
static ProcuraBulkArray *
read_bulk_array (Reader     *r,
                 const char *name)
{
  ProcuraBulkArray *a = g_new0 (ProcuraBulkArray, 1);
  gsize cap = 0, rows_cap = 0;
  gboolean numbers = FALSE;
  char c;

  a->name = g_strdup (name);
  r->p++;
  if (peek (r) == ']')
    {
      r->p++;
      goto done;
    }
  for (;;)
    {
      c = peek (r);
      if (c == '[')
        {
          double sum = 0;
          guint32 count = 0;

          if (numbers || a->strings)
            goto fail;
          a->nested = TRUE;
          if (r->lane != NULL && r->lane->busy && r->p >= r->lane->s)
            {
              Lane *l = r->lane;

              /* balance the two halves: a lane still at work gets less next time,
               * one that is done already gets more */
              if (lane_wait (l))
                l->share = MAX (0.2, l->share - 0.02);
              else
                l->share = MIN (0.8, l->share + 0.02);
              if (r->p == l->s && l->rows > 0)
                {
                  /* the lane's guess held: its inner lists are this list's next ones */
                  while (a->n + l->n > cap)
                    a->values = grow_numbers (r, a->values, &cap);
                  if (l->n > 0)
                    memcpy (a->values + a->n, l->values, l->n * sizeof (double));
                  a->n += l->n;
                  if (a->rows + l->rows > rows_cap)
                    {
                      rows_cap = MAX (rows_cap ? rows_cap * 2 : 256, a->rows + l->rows);
                      a->row_sum = g_renew (double, a->row_sum, rows_cap);
                      a->row_len = g_renew (guint32, a->row_len, rows_cap);
                    }
                  memcpy (a->row_sum + a->rows, l->row_sum, l->rows * sizeof (double));
                  memcpy (a->row_len + a->rows, l->row_len, l->rows * sizeof (guint32));
                  a->rows += l->rows;
                  r->p = l->q;
                  g_atomic_int_inc (&lanes_kept);
                  goto next;
                }
              g_atomic_int_inc (&lanes_dropped);
            }
          else if (r->lane == NULL || !r->lane->busy)
            lane_start (r);
          r->p++;
          if (peek (r) == ']')
            r->p++;
          else
            for (;;)
              {
                double d;

                peek (r);
                if (!read_bulk_number (r, &d))
                  goto fail;
                GROW (a->values, a->n, cap, double);
                a->values[a->n++] = d;
                sum += d;
                count++;
                /* the common case: a comma right after the number */
                if (r->p < r->end && *r->p == ',')
                  {
                    r->p++;
                    continue;
                  }
                c = peek (r);
                r->p++;
                if (c == ']')
                  break;
                if (c != ',')
                  goto fail;
              }
          if (a->rows == rows_cap)
            {
              rows_cap = rows_cap ? rows_cap * 2 : 256;
              a->row_sum = g_renew (double, a->row_sum, rows_cap);
              a->row_len = g_renew (guint32, a->row_len, rows_cap);
            }
          a->row_sum[a->rows] = sum;
          a->row_len[a->rows] = count;
          a->rows++;
        }
      else if (c == '"')
        {
          gboolean empty;

          if (a->nested || numbers || !read_string (r, NULL, &empty))
            goto fail;
          a->strings = TRUE;
          GROW (a->values, a->n, cap, double);
          a->values[a->n++] = empty ? 0.0 : 1.0;
        }
      else
        {
          double d;

          if (a->nested || a->strings || !read_bulk_number (r, &d))
            goto fail;
          numbers = TRUE;
          GROW (a->values, a->n, cap, double);
          a->values[a->n++] = d;
        }
next:
      c = peek (r);
      r->p++;
      if (c == ']')
        break;
      if (c != ',')
        goto fail;
    }
done:
  lane_drop (r);   /* a guess past the end of this list */
  if (a->values == NULL)
    a->values = g_new (double, 1);
  if (a->nested && a->row_sum == NULL)
    {
      a->row_sum = g_new (double, 1);
      a->row_len = g_new (guint32, 1);
    }
  return a;

fail:
  lane_drop (r);
  bulk_array_free (a);
  return NULL;
}

static gboolean
in_list (const char * const *list,
         const char         *key)
{
  for (; list != NULL && *list != NULL; list++)
    if (g_str_equal (key, *list))
      return TRUE;
  return FALSE;
}

static gboolean
read_doc (Reader             *r,
          ProcuraBulkDoc     *doc,
          const char * const *skip)
{
  if (!expect (r, '{'))
    return FALSE;
  if (peek (r) == '}')
    r->p++;
  else
    for (;;)
      {
        g_autofree char *key = read_key (r);
        char c;

        if (key == NULL)
          return FALSE;
        c = peek (r);
        if (c == '[')
          {
            ProcuraBulkArray *a;

            if (in_list (skip, key))
              {
                if (!skip_value (r, 1))
                  return FALSE;
              }
            else if ((a = read_bulk_array (r, key)) == NULL)
              return FALSE;
            else
              g_ptr_array_add (doc->arrays, a);
          }
        else
          {
            JsonNode *node = read_node (r, 1);

            if (node == NULL)
              return FALSE;
            json_object_set_member (doc->members, key, node);
          }
        c = peek (r);
        r->p++;
        if (c == '}')
          break;
        if (c != ',')
          return FALSE;
      }
  /* nothing may follow the object */
  return peek (r) == 0 && r->eof && !r->bad;
}

ProcuraBulkDoc *
procura_json_bulk_parse_fd (int                  fd,
                            gsize                size,
                            const char * const  *skip,
                            ProcuraJsonChunkFunc chunk_func,
                            gpointer             user_data,
                            GCancellable        *cancellable)
{
  Reader r = { 0 };
  ProcuraBulkDoc *doc = procura_json_bulk_doc_new ();
  gboolean ok;

  r.fd = fd;
  r.left = size;
  /* one block for the three (on huge pages: two page faults instead of 770) */
  r.bufs[0] = procura_memory_alloc_large (RING * (CHUNK + TOKEN_MAX));
  for (guint i = 1; i < RING; i++)
    r.bufs[i] = r.bufs[i - 1] + CHUNK + TOKEN_MAX;
  r.buf = r.bufs[0];
  r.p = r.end = r.buf;
  r.chunk_func = chunk_func;
  r.user_data = user_data;
  r.cancellable = cancellable;
  ok = read_doc (&r, doc, skip) && !r.bad;
  lane_free (r.lane);
  if (chunk_func != NULL)
    chunk_func (NULL, 0, user_data);   /* the buffers go: be done with every chunk */
  g_free (r.bufs[0]);
  if (!ok)
    {
      procura_json_bulk_doc_free (doc);
      return NULL;
    }
  return doc;
}
