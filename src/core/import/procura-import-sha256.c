/* procura-import-sha256.c: SHA-256 of a whole imported file, fast
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GLib's SHA-256 runs at about 100-300 MB/s: on a 550 MB benchmark file that alone
 * is seconds. With the x86 SHA extensions (checked at run time) the compression
 * function runs in hardware; everywhere else this is procura_sha256_hex(). The result
 * is the same lower-case hex string (a test compares the two).
 */
#include "config.h"

#include <string.h>

#include "procura-import-private.h"
#include "procura-util.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

static const guint32 K256[64] __attribute__ ((aligned (16))) = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

__attribute__ ((target ("sha,sse4.1,ssse3")))
static void
compress_ni (guint32      state[8],
             const guint8 *data,
             gsize         blocks)
{
  const __m128i mask = _mm_set_epi64x (0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i state0, state1, tmp, msg, w[4], abef, cdgh;

  tmp = _mm_loadu_si128 ((const __m128i *) &state[0]);
  state1 = _mm_loadu_si128 ((const __m128i *) &state[4]);
  tmp = _mm_shuffle_epi32 (tmp, 0xB1);            /* CDAB */
  state1 = _mm_shuffle_epi32 (state1, 0x1B);      /* EFGH */
  state0 = _mm_alignr_epi8 (tmp, state1, 8);      /* ABEF */
  state1 = _mm_blend_epi16 (state1, tmp, 0xF0);   /* CDGH */

  while (blocks-- > 0)
    {
      abef = state0;
      cdgh = state1;
#if defined(__clang__)
#pragma unroll
#else
#pragma GCC unroll 16
#endif
      for (int g = 0; g < 16; g++)
        {
          if (g < 4)
            w[g] = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) (data + 16 * g)), mask);
          msg = _mm_add_epi32 (w[g & 3], _mm_load_si128 ((const __m128i *) &K256[4 * g]));
          state1 = _mm_sha256rnds2_epu32 (state1, state0, msg);
          if (g >= 3 && g < 15)
            {
              tmp = _mm_alignr_epi8 (w[g & 3], w[(g + 3) & 3], 4);
              w[(g + 1) & 3] = _mm_sha256msg2_epu32 (_mm_add_epi32 (w[(g + 1) & 3], tmp), w[g & 3]);
            }
          msg = _mm_shuffle_epi32 (msg, 0x0E);
          state0 = _mm_sha256rnds2_epu32 (state0, state1, msg);
          if (g >= 1 && g < 13)
            w[(g + 3) & 3] = _mm_sha256msg1_epu32 (w[(g + 3) & 3], w[g & 3]);
        }
      state0 = _mm_add_epi32 (state0, abef);
      state1 = _mm_add_epi32 (state1, cdgh);
      data += 64;
    }

  tmp = _mm_shuffle_epi32 (state0, 0x1B);         /* FEBA */
  state1 = _mm_shuffle_epi32 (state1, 0xB1);      /* DCHG */
  state0 = _mm_blend_epi16 (tmp, state1, 0xF0);   /* DCBA */
  state1 = _mm_alignr_epi8 (state1, tmp, 8);      /* ABEF */
  _mm_storeu_si128 ((__m128i *) &state[0], state0);
  _mm_storeu_si128 ((__m128i *) &state[4], state1);
}

static gboolean
have_sha_ni (void)
{
  unsigned int a, b, c, d;

  if (!__get_cpuid (1, &a, &b, &c, &d) || !(c & (1u << 19)) || !(c & (1u << 9)))
    return FALSE;   /* SSE4.1, SSSE3 */
  if (!__get_cpuid_count (7, 0, &a, &b, &c, &d))
    return FALSE;
  return (b & (1u << 29)) != 0;  /* SHA */
}

static char *
sha256_ni_hex (const guint8 *data,
               gsize         len)
{
  guint32 state[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
  guint8 tail[128];
  gsize full = len / 64, rest = len % 64, tail_blocks;
  guint64 bits = (guint64) len * 8;
  char *hex = g_malloc (65);

  compress_ni (state, data, full);
  memset (tail, 0, sizeof tail);
  if (rest > 0)
    memcpy (tail, data + full * 64, rest);
  tail[rest] = 0x80;
  tail_blocks = rest + 1 + 8 <= 64 ? 1 : 2;
  for (int i = 0; i < 8; i++)
    tail[tail_blocks * 64 - 1 - i] = (guint8) (bits >> (8 * i));
  compress_ni (state, tail, tail_blocks);
  for (int i = 0; i < 8; i++)
    g_snprintf (hex + 8 * i, 9, "%08x", state[i]);
  return hex;
}
#endif

static gboolean
use_ni (void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static int ni = -1;

  if (ni < 0)
    ni = have_sha_ni () && g_getenv ("PROCURA_NO_SHA_NI") == NULL;
  return ni;
#else
  return FALSE;
#endif
}

char *
procura_import_sha256_hex (const void *data,
                           gsize       len)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (use_ni ())
    return sha256_ni_hex (data, len);
#endif
  return procura_sha256_hex (data, len);
}

void
procura_import_sha256_begin (ProcuraSha256Stream *s)
{
  static const guint32 init[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

  memset (s, 0, sizeof *s);
  memcpy (s->state, init, sizeof init);
  if (!use_ni ())
    s->checksum = g_checksum_new (G_CHECKSUM_SHA256);
}

void
procura_import_sha256_update (ProcuraSha256Stream *s,
                              const void          *data,
                              gsize                len)
{
  const guint8 *p = data;

  if (s->checksum != NULL)
    {
      while (len > 0)
        {
          gsize n = MIN (len, (gsize) G_MAXSSIZE);
          g_checksum_update (s->checksum, p, (gssize) n);
          p += n;
          len -= n;
        }
      return;
    }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  s->total += len;
  if (s->buf_len > 0)
    {
      gsize n = MIN (len, 64 - s->buf_len);

      memcpy (s->buf + s->buf_len, p, n);
      s->buf_len += n;
      p += n;
      len -= n;
      if (s->buf_len < 64)
        return;
      compress_ni (s->state, s->buf, 1);
      s->buf_len = 0;
    }
  compress_ni (s->state, p, len / 64);
  p += len / 64 * 64;
  len %= 64;
  memcpy (s->buf, p, len);
  s->buf_len = len;
#endif
}

char *
procura_import_sha256_end (ProcuraSha256Stream *s)
{
  char *hex;

  if (s->checksum != NULL)
    {
      hex = g_strdup (g_checksum_get_string (s->checksum));
      g_clear_pointer (&s->checksum, g_checksum_free);
      return hex;
    }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  {
    guint8 tail[128];
    gsize tail_blocks = s->buf_len + 1 + 8 <= 64 ? 1 : 2;
    guint64 bits = s->total * 8;

    memset (tail, 0, sizeof tail);
    memcpy (tail, s->buf, s->buf_len);
    tail[s->buf_len] = 0x80;
    for (int i = 0; i < 8; i++)
      tail[tail_blocks * 64 - 1 - i] = (guint8) (bits >> (8 * i));
    compress_ni (s->state, tail, tail_blocks);
    hex = g_malloc (65);
    for (int i = 0; i < 8; i++)
      g_snprintf (hex + 8 * i, 9, "%08x", s->state[i]);
    return hex;
  }
#else
  g_assert_not_reached ();
  return NULL;
#endif
}
