/* procura-json-number.c: a strict JSON number to the nearest double, fast and exact
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The per-request arrays of a vLLM result hold tens of millions of numbers printed the
 * way Python prints a double (up to 17 significant digits). The decimal is read into
 * a 64-bit integer mantissa M and a power of ten E, then:
 *
 * - up to 15 digits and |E| <= 22: M and 10^|E| are exact doubles, so one IEEE
 *   multiplication or division rounds once, exactly (Clinger's fast path);
 * - up to 19 digits and -27 <= E < 0: one 64x128-bit product with a truncated 5^-|E|,
 *   exact unless the truncation could carry into the rounding bit (see reciprocal());
 * - up to 18 digits and |E| <= 27, where long double has a 64-bit mantissa (x87): M and
 *   10^|E| are exact there, the one operation rounds to 64 bits, and rounding that to
 *   53 bits is exact unless the 64-bit result lies exactly halfway between two doubles
 *   (then the true value may be on either side of it): that case is detected and left
 *   to the slow path;
 * - everything else: g_ascii_strtod on a copy of the token (correctly rounded).
 *
 * tests/import/test-json-number.c compares it with g_ascii_strtod over millions of
 * random and edge-case strings.
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "procura-json-stream.h"

static const double pow10_d[23] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

#if LDBL_MANT_DIG == 64
static const long double pow10_l[28] = {
  1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
  1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L,
  1e26L, 1e27L,
};

/* M * 10^e10 (|e10| <= 27, M < 2^63) rounded once to 64 bits, then to a double; FALSE
 * when that second rounding could differ from rounding the exact value: when the 11
 * bits the double drops are exactly 1000 0000 000, halfway between two doubles. */
static gboolean
extended (guint64  mant,
          int      e10,
          double  *out)
{
  union {
    long double l;
    guint64     significand;   /* x87: the low 8 bytes, integer bit included */
  } u;

  u.l = (long double) (gint64) mant;
  u.l = e10 < 0 ? u.l / pow10_l[-e10] : u.l * pow10_l[e10];
  if ((u.significand & 0x7FF) == 0x400)
    return FALSE;
  *out = (double) u.l;
  return TRUE;
}
#endif

/* Eight ASCII digits at @p, or -1: each byte checked to be '0'..'9', then pairs,
 * quads and the eight combined in three multiply-adds (little-endian byte order). */
static inline gint64
eight_digits (const char *p)
{
  guint64 v;

  memcpy (&v, p, 8);
#if G_BYTE_ORDER == G_BIG_ENDIAN
  v = GUINT64_SWAP_LE_BE (v);
#endif
  if ((v & G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0)) != G_GUINT64_CONSTANT (0x3030303030303030)
      || ((v + G_GUINT64_CONSTANT (0x0606060606060606)) & G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0))
         != G_GUINT64_CONSTANT (0x3030303030303030))
    return -1;
  v -= G_GUINT64_CONSTANT (0x3030303030303030);
  /* byte 2k := 10 * digit 2k + digit 2k+1 */
  v = (v * 10 + (v >> 8)) & G_GUINT64_CONSTANT (0x00FF00FF00FF00FF);
  /* 16-bit lane 2k := 100 * pair 2k + pair 2k+1 */
  v = (v * 100 + (v >> 16)) & G_GUINT64_CONSTANT (0x0000FFFF0000FFFF);
  /* 10000 * first quad + second quad */
  return (gint64) ((v * 10000 + (v >> 32)) & G_GUINT64_CONSTANT (0xFFFFFFFF));
}

#ifdef __SIZEOF_INT128__
/* M * 10^-k (1 <= k <= 27, M < 2^64) by one 64x128-bit product with 5^-k, kept as
 * T_k = floor(2^s_k / 5^k) with its top bit set. T_k is short of 2^s_k / 5^k by less
 * than 1, so the exact product X lies in [P, P + 2^64) for P = (M << lz) * T_k: the
 * bits of P from 2^64 up are X's unless adding up to 2^64 could carry through them,
 * that is unless they are all ones below the rounding bit. Then (and only then) the
 * caller takes the slow path. Anything else rounds exactly: X is never P itself
 * (2^s/5^k is no integer), so a set rounding bit means above halfway. */
__extension__ typedef unsigned __int128 u128;

typedef struct {
  guint64 hi, lo;
  int     s;
} Recip;

static Recip recip[28];

static gpointer
recip_init (gpointer unused)
{
  guint64 d = 1;

  for (int k = 1; k < 28; k++)
    {
      u128 q = 0;
      guint64 rem = 1;
      int bits = 0;

      d *= 5;
      for (guint64 t = d; t != 0; t >>= 1)
        bits++;
      recip[k].s = 127 + bits;
      /* long division of 2^s by d, one quotient bit a step (rem < d < 2^63) */
      for (int i = 0; i < recip[k].s; i++)
        {
          rem <<= 1;
          q <<= 1;
          if (rem >= d)
            {
              rem -= d;
              q |= 1;
            }
        }
      recip[k].hi = (guint64) (q >> 64);
      recip[k].lo = (guint64) q;
    }
  return NULL;
}

static gboolean
reciprocal (guint64  mant,
            int      k,
            double  *out)
{
  static GOnce once = G_ONCE_INIT;
  u128 lo, hi, mid;
  guint64 p1, p2, m, below, mask;
  int lz, t, e;
  union {
    double  d;
    guint64 u;
  } v;

  g_once (&once, recip_init, NULL);
  lz = __builtin_clzll (mant);
  m = mant << lz;
  lo = (u128) m * recip[k].lo;
  hi = (u128) m * recip[k].hi;
  mid = (lo >> 64) + (guint64) hi;
  p1 = (guint64) mid;
  p2 = (guint64) (hi >> 64) + (guint64) (mid >> 64);
  t = (p2 >> 63) ? 63 : 62;            /* P's top bit, within p2 */
  mask = (G_GUINT64_CONSTANT (1) << (t - 53)) - 1;
  below = p2 & mask;
  if (below == mask && p1 == G_MAXUINT64)
    return FALSE;
  m = (p2 >> (t - 52)) + ((p2 >> (t - 53)) & 1);
  e = 128 + t - 52 - recip[k].s - lz - k;
  if (m == (G_GUINT64_CONSTANT (1) << 53))
    {
      m >>= 1;
      e++;
    }
  v.u = ((guint64) (e + 52 + 1023) << 52) | (m & ((G_GUINT64_CONSTANT (1) << 52) - 1));
  *out = v.d;
  return TRUE;
}
#endif

gsize
procura_json_number_scan (const char *p,
                          const char *end,
                          double     *out,
                          gboolean   *is_int)
{
  const char *s = p;
  gboolean neg = FALSE, frac = FALSE, expo = FALSE;
  guint64 mant = 0;
  int nd = 0, frac_digits = 0, exp = 0, e10;
  gboolean exp_neg = FALSE;

  if (p < end && *p == '-')
    {
      neg = TRUE;
      p++;
    }
  if (p >= end)
    return 0;
  if (*p == '0')
    p++;
  else if (*p >= '1' && *p <= '9')
    {
      while (p < end && *p >= '0' && *p <= '9')
        {
          if (nd < 19)
            mant = mant * 10 + (guint64) (*p - '0');
          nd++;
          p++;
        }
    }
  else
    return 0;
  if (p < end && *p == '.')
    {
      frac = TRUE;
      p++;
      if (p >= end || *p < '0' || *p > '9')
        return 0;
      if (mant == 0)
        while (p < end && *p == '0')
          {
            frac_digits++;   /* leading zeros: not significant */
            p++;
          }
      while (nd + 8 <= 19 && end - p >= 8)
        {
          gint64 eight = eight_digits (p);

          if (eight < 0)
            break;
          mant = mant * 100000000 + (guint64) eight;
          nd += 8;
          frac_digits += 8;
          p += 8;
        }
      while (p < end && *p >= '0' && *p <= '9')
        {
          if (mant == 0 && *p == '0')
            ;   /* a leading zero: not significant */
          else
            {
              if (nd < 19)
                mant = mant * 10 + (guint64) (*p - '0');
              nd++;
            }
          frac_digits++;
          p++;
        }
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      expo = TRUE;
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        {
          exp_neg = *p == '-';
          p++;
        }
      if (p >= end || *p < '0' || *p > '9')
        return 0;
      while (p < end && *p >= '0' && *p <= '9')
        {
          if (exp < 100000)
            exp = exp * 10 + (*p - '0');
          p++;
        }
    }
  if (is_int != NULL)
    *is_int = !frac && !expo;

  e10 = (exp_neg ? -exp : exp) - frac_digits;
  if (mant == 0 && nd == 0)
    {
      *out = neg ? -0.0 : 0.0;
      return (gsize) (p - s);
    }
  if (nd <= 15 && e10 >= -22 && e10 <= 22)
    {
      double d = (double) mant;

      d = e10 < 0 ? d / pow10_d[-e10] : d * pow10_d[e10];
      *out = neg ? -d : d;
      return (gsize) (p - s);
    }
#ifdef __SIZEOF_INT128__
  if (nd <= 19 && e10 >= -27 && e10 < 0)
    {
      double d;

      if (reciprocal (mant, -e10, &d))
        {
          *out = neg ? -d : d;
          return (gsize) (p - s);
        }
    }
#endif
#if LDBL_MANT_DIG == 64
  if (nd <= 18 && e10 >= -27 && e10 <= 27)
    {
      double d;

      if (extended (mant, e10, &d))
        {
          *out = neg ? -d : d;
          return (gsize) (p - s);
        }
    }
#endif
  {
    char small[64];
    gsize n = (gsize) (p - s);
    g_autofree char *big = NULL;
    char *copy = small;

    if (n >= sizeof small)
      copy = big = g_malloc (n + 1);
    memcpy (copy, s, n);
    copy[n] = '\0';
    *out = g_ascii_strtod (copy, NULL);
  }
  return (gsize) (p - s);
}
