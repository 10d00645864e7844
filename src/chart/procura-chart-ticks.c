/* procura-chart-ticks.c: nice ticks, number and unit formatting, decimation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "procura-chart.h"
#include "procura-chart-private.h"

/* ------------------------------------------------------------------------- */
/* Ticks                                                                      */

static double
nice_step (double raw)
{
  static const double mantissas[] = { 1.0, 2.0, 2.5, 5.0, 10.0 };
  double e, base, f;

  if (!(raw > 0) || !isfinite (raw))
    return 1.0;
  e = floor (log10 (raw));
  base = pow (10.0, e);
  f = raw / base;
  for (guint i = 0; i < G_N_ELEMENTS (mantissas); i++)
    if (f <= mantissas[i] * (1 + 1e-9))
      return mantissas[i] * base;
  return 10.0 * base;
}

static void
ticks_add (ProcuraTicks *ticks,
           double        value,
           gboolean      major)
{
  if (ticks->n >= PROCURA_CHART_MAX_TICKS)
    return;
  ticks->value[ticks->n] = value;
  ticks->major[ticks->n] = major;
  ticks->n++;
}

static void
ticks_linear (double        min,
              double        max,
              int           target,
              gboolean      expand,
              ProcuraTicks *ticks)
{
  double step = nice_step ((max - min) / MAX (target, 1));
  double first, eps;

  /* Never more ticks than fit in the table */
  while ((max - min) / step > PROCURA_CHART_MAX_TICKS - 2)
    step = nice_step (step * 2.01);
  eps = step * 1e-9;

  if (expand)
    {
      ticks->lo = floor (min / step + 1e-9) * step;
      ticks->hi = ceil (max / step - 1e-9) * step;
      if (ticks->hi <= ticks->lo)
        ticks->hi = ticks->lo + step;
    }
  else
    {
      ticks->lo = min;
      ticks->hi = max;
    }
  ticks->step = step;
  first = ceil (ticks->lo / step - 1e-9) * step;
  for (guint i = 0; ; i++)
    {
      double v = first + i * step;

      if (v > ticks->hi + eps || ticks->n >= PROCURA_CHART_MAX_TICKS)
        break;
      if (fabs (v) < eps)
        v = 0.0;
      ticks_add (ticks, v, TRUE);
    }
}

static void
ticks_log (double        min,
           double        max,
           int           target,
           gboolean      expand,
           ProcuraTicks *ticks)
{
  double decades, per_decade;
  int e0, e1, every = 1;
  gboolean label_125, minors;

  if (expand)
    {
      /* widen to 1, 2 or 5 x 10^k: whole decades would waste most of a short range */
      static const double steps[] = { 1, 2, 5, 10 };
      double e = floor (log10 (min) + 1e-9), base = pow (10.0, e);

      ticks->lo = base;
      for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
        if (steps[i] * base <= min * (1 + 1e-9))
          ticks->lo = steps[i] * base;
      e = floor (log10 (max) - 1e-9);
      base = pow (10.0, e);
      ticks->hi = 10 * base;
      for (guint i = G_N_ELEMENTS (steps); i > 0; i--)
        if (steps[i - 1] * base >= max * (1 - 1e-9))
          ticks->hi = steps[i - 1] * base;
      if (ticks->hi <= ticks->lo)
        ticks->hi = ticks->lo * 10.0;
    }
  else
    {
      ticks->lo = min;
      ticks->hi = max;
    }
  ticks->step = 0;

  decades = log10 (ticks->hi / ticks->lo);
  per_decade = MAX (target, 1) / MAX (decades, 1e-9);
  label_125 = per_decade >= 2.5;
  minors = decades <= 6;
  if (per_decade < 1)
    every = (int) ceil (1.0 / per_decade);

  e0 = (int) floor (log10 (ticks->lo) + 1e-9);
  e1 = (int) ceil (log10 (ticks->hi) - 1e-9);

  for (int e = e0; e <= e1; e++)
    {
      double base = pow (10.0, e);

      for (int m = 1; m <= 9; m++)
        {
          double v = m * base;
          gboolean major;

          if (v < ticks->lo * (1 - 1e-9) || v > ticks->hi * (1 + 1e-9))
            continue;
          if (m == 1)
            major = ((e % every) + every) % every == 0;
          else
            major = label_125 && (m == 2 || m == 5);
          if (!major && !minors)
            continue;
          ticks_add (ticks, v, major);
        }
    }

  /* Less than a decade shown without expanding and fewer than two labels: linear
   * ticks placed on the log axis read better than one lonely label. */
  if (!expand)
    {
      guint labelled = 0;

      for (guint i = 0; i < ticks->n; i++)
        labelled += ticks->major[i];
      if (labelled < 2)
        {
          ProcuraTicks lin = { 0 };

          ticks_linear (min, max, MIN (target, 5), FALSE, &lin);
          ticks->n = 0;
          for (guint i = 0; i < lin.n; i++)
            if (lin.value[i] > 0)
              ticks_add (ticks, lin.value[i], TRUE);
          ticks->step = lin.step;
        }
    }
}

gboolean
procura_chart_ticks (double             min,
                     double             max,
                     int                target,
                     ProcuraChartScale  scale,
                     gboolean           expand,
                     ProcuraTicks      *ticks)
{
  gboolean ok = TRUE;

  memset (ticks, 0, sizeof *ticks);
  target = CLAMP (target, 2, 40);

  if (!isfinite (min) && !isfinite (max))
    {
      ok = FALSE;
      if (scale == PROCURA_SCALE_LOG)
        min = 1, max = 10;
      else
        min = 0, max = 1;
    }
  else if (!isfinite (min))
    min = max;
  else if (!isfinite (max))
    max = min;
  if (min > max)
    {
      double t = min;
      min = max;
      max = t;
    }

  if (scale == PROCURA_SCALE_LOG)
    {
      if (!(max > 0))
        min = 1, max = 10;
      else if (!(min > 0))
        min = max / 1000.0;
      if (max / min < 1 + 1e-9)
        {
          min = min / 2;
          max = max * 2;
        }
      ticks_log (min, max, target, expand, ticks);
      return ok;
    }

  if (max - min <= fabs (max) * 1e-12 || max == min)
    {
      double d = fabs (min) * 0.1;

      if (d == 0)
        {
          min = 0;
          max = 1;
        }
      else
        {
          min -= d;
          max += d;
        }
    }
  ticks_linear (min, max, target, expand, ticks);
  return ok;
}

/* ------------------------------------------------------------------------- */
/* Formatting                                                                 */

typedef struct {
  double      factor;     /* display = value / factor */
  const char *before;     /* "$" */
  const char *after;      /* " ms", " k tok/s", "%" */
  gboolean    si_letter;  /* the suffix carries an SI prefix letter, dropped for zero */
  const char *plain;      /* the suffix for zero when si_letter */
} UnitScale;

static void
si_scale (double      magnitude,
          const char *unit,      /* "" or " tok/s" */
          gboolean    spaced,    /* "12 k tok/s" rather than "12k" */
          UnitScale  *s,
          char        buffer[64])
{
  static const struct { double f; const char *p; } prefixes[] = {
    { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
  };

  s->factor = 1.0;
  s->si_letter = FALSE;
  s->after = unit;
  s->plain = unit;
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (magnitude >= prefixes[i].f * (1 - 1e-9))
      {
        s->factor = prefixes[i].f;
        g_snprintf (buffer, 64, "%s%s%s", spaced ? " " : "", prefixes[i].p,
                    unit[0] == ' ' ? unit : unit);
        s->after = buffer;
        s->si_letter = TRUE;
        break;
      }
}

static void
unit_scale (ProcuraChartUnit  unit,
            double            magnitude,
            UnitScale        *s,
            char              buffer[64])
{
  memset (s, 0, sizeof *s);
  s->factor = 1.0;
  s->before = "";
  s->after = "";
  s->plain = "";

  switch (unit)
    {
    case PROCURA_UNIT_MS:
    case PROCURA_UNIT_S:
      {
        double to_s = unit == PROCURA_UNIT_MS ? 1e-3 : 1.0;
        double secs = magnitude * to_s;

        if (secs >= 1.0 * (1 - 1e-9))
          s->factor = 1.0 / to_s, s->after = " s";
        else if (secs >= 1e-3 * (1 - 1e-9) || secs == 0)
          s->factor = 1e-3 / to_s, s->after = " ms";
        else
          s->factor = 1e-6 / to_s, s->after = " µs";
        s->plain = s->after;
      }
      break;
    case PROCURA_UNIT_TOKENS_PER_S:
      si_scale (magnitude, " tok/s", TRUE, s, buffer);
      if (s->si_letter)
        {
          s->after = buffer;
          s->plain = " tok/s";
        }
      break;
    case PROCURA_UNIT_REQ_PER_S:
      si_scale (magnitude, " req/s", TRUE, s, buffer);
      s->plain = " req/s";
      break;
    case PROCURA_UNIT_TOKENS:
      si_scale (magnitude, " tok", TRUE, s, buffer);
      s->plain = " tok";
      break;
    case PROCURA_UNIT_DOLLARS:
      s->before = "$";
      si_scale (magnitude, "", FALSE, s, buffer);
      s->plain = "";
      break;
    case PROCURA_UNIT_GIB:
      if (magnitude >= 1024 * (1 - 1e-9))
        s->factor = 1024, s->after = " TiB";
      else
        s->after = " GiB";
      s->plain = s->after;
      break;
    case PROCURA_UNIT_BYTES:
      {
        static const char *names[] = { " B", " KiB", " MiB", " GiB", " TiB", " PiB" };
        guint i = 0;
        double f = 1.0;

        while (i + 1 < G_N_ELEMENTS (names) && magnitude >= f * 1024 * (1 - 1e-9))
          {
            f *= 1024;
            i++;
          }
        s->factor = f;
        s->after = names[i];
        s->plain = s->after;
      }
      break;
    case PROCURA_UNIT_PERCENT:
      s->factor = 0.01;
      s->after = "%";
      s->plain = "%";
      break;
    case PROCURA_UNIT_COUNT:
    case PROCURA_UNIT_NONE:
    default:
      si_scale (magnitude, "", FALSE, s, buffer);
      s->plain = "";
      break;
    }
}

static char *
compose (double           value,
         const UnitScale *s,
         int              decimals)
{
  double d = value / s->factor;
  char number[64];
  const char *sign = "";
  gboolean zero;

  decimals = CLAMP (decimals, 0, 12);
  g_snprintf (number, sizeof number, "%.*f", decimals, fabs (d));
  /* "-0.00" is zero */
  zero = strspn (number, "0.,") == strlen (number);
  if (zero)
    g_strlcpy (number, "0", sizeof number);
  if (d < 0 && !zero)
    sign = "−";
  return g_strdup_printf ("%s%s%s%s", sign, s->before, number,
                          zero && s->si_letter ? s->plain : s->after);
}

static void
strip_zeros (char *number)
{
  char *dot = strchr (number, '.');
  char *end;

  if (dot == NULL)
    dot = strchr (number, ',');
  if (dot == NULL)
    return;
  end = number + strlen (number) - 1;
  while (end > dot && *end == '0')
    *end-- = '\0';
  if (end == dot)
    *end = '\0';
}

char *
procura_chart_format_value (double           value,
                            ProcuraChartUnit unit)
{
  UnitScale s;
  char buffer[64];
  char number[64];
  const char *sign = "";
  double d;
  int decimals;

  if (isnan (value))
    return g_strdup ("—");
  if (isinf (value))
    return g_strdup (value > 0 ? "∞" : "−∞");

  /* token counts (contexts: 8192, 32768) read best whole */
  if (unit == PROCURA_UNIT_TOKENS && fabs (value) < 100000 && value == floor (value))
    return g_strdup_printf ("%s%.0f tok", value < 0 ? "−" : "", fabs (value));

  unit_scale (unit, fabs (value), &s, buffer);
  d = fabs (value) / s.factor;
  if (d == 0)
    decimals = 0;
  else
    decimals = CLAMP (2 - (int) floor (log10 (d) + 1e-12), 0, 9);
  g_snprintf (number, sizeof number, "%.*f", decimals, d);
  /* 999.7 rounds to "1000": rescale once so it reads "1 s", not "1000 ms" */
  if (d > 0 && g_ascii_strtod (number, NULL) >= 1000 && unit != PROCURA_UNIT_PERCENT
      && unit != PROCURA_UNIT_GIB)
    {
      double rounded = g_ascii_strtod (number, NULL) * s.factor;
      UnitScale s2;
      char buffer2[64];

      unit_scale (unit, rounded, &s2, buffer2);
      if (s2.factor != s.factor)
        {
          s = s2;
          memcpy (buffer, buffer2, sizeof buffer);
          if (s.after == buffer2)
            s.after = buffer;
          d = rounded / s.factor;
          decimals = CLAMP (2 - (int) floor (log10 (d) + 1e-12), 0, 9);
          g_snprintf (number, sizeof number, "%.*f", decimals, d);
        }
    }
  strip_zeros (number);
  if (value < 0 && strspn (number, "0.,") != strlen (number))
    sign = "−";
  return g_strdup_printf ("%s%s%s%s", sign, s.before, number,
                          d == 0 && s.si_letter ? s.plain : s.after);
}

static int
decimals_for_step (double step)
{
  step = fabs (step);
  if (!(step > 0) || !isfinite (step))
    return 0;
  for (int d = 0; d <= 9; d++)
    {
      double scaled = step * pow (10.0, d);

      if (fabs (scaled - round (scaled)) <= 1e-6 * scaled)
        return d;
    }
  return 9;
}

char *
procura_chart_format_tick (double              value,
                           ProcuraChartUnit    unit,
                           const ProcuraTicks *ticks)
{
  UnitScale s;
  char buffer[64];
  double magnitude;

  if (ticks == NULL || ticks->step == 0)
    {
      /* log ticks of token counts: round thousands read "2 k tok", "100 k tok" all along
       * the axis (a lone value such as a context of 8192 stays whole elsewhere) */
      if (unit == PROCURA_UNIT_TOKENS && fabs (value) >= 1000 && fmod (fabs (value), 1000) == 0)
        {
          g_autofree char *scaled = NULL;
          gboolean mega = fabs (value) >= 1e6 && fmod (fabs (value), 1e6) == 0;

          scaled = procura_chart_format_value (value / (mega ? 1e6 : 1e3), PROCURA_UNIT_NONE);
          return g_strdup_printf ("%s %s tok", scaled, mega ? "M" : "k");
        }
      /* log ticks: each on its own, trailing zeros dropped */
      return procura_chart_format_value (value, unit);
    }

  magnitude = MAX (fabs (ticks->lo), fabs (ticks->hi));
  for (guint i = 0; i < ticks->n; i++)
    magnitude = MAX (magnitude, fabs (ticks->value[i]));
  /* Pick the prefix from the largest tick actually labelled */
  if (ticks->n > 0)
    {
      magnitude = 0;
      for (guint i = 0; i < ticks->n; i++)
        magnitude = MAX (magnitude, fabs (ticks->value[i]));
    }
  unit_scale (unit, magnitude, &s, buffer);
  return compose (value, &s, decimals_for_step (ticks->step / s.factor));
}

/* ------------------------------------------------------------------------- */
/* Decimation                                                                 */

static inline gboolean
column_of (double  x,
           double  t0,
           double  span,
           double  t1,
           guint   columns,
           gboolean x_log,
           guint  *column)
{
  double t, c;

  if (x_log)
    {
      if (!(x > 0))
        return FALSE;
      t = log10 (x);
    }
  else
    t = x;
  if (!(t >= t0 && t <= t1))
    return FALSE;
  c = floor ((t - t0) / span * columns);
  if (c >= columns)
    c = columns - 1;
  if (c < 0)
    c = 0;
  *column = (guint) c;
  return TRUE;
}

/* First index in [lo, hi) whose column is >= c (or whose x is past the range), for
 * ascending x. Points before the range count as column -1. */
static gsize
first_at_or_after (const double *x,
                   gsize         lo,
                   gsize         hi,
                   guint         c,
                   double        t0,
                   double        span,
                   double        t1,
                   guint         columns,
                   gboolean      x_log)
{
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      double xv = x ? x[mid] : (double) mid;
      double t;
      gboolean before;

      if (x_log)
        t = xv > 0 ? log10 (xv) : -INFINITY;
      else
        t = xv;
      if (t < t0)
        before = TRUE;
      else if (t > t1)
        before = FALSE;
      else
        {
          double cc = floor ((t - t0) / span * columns);
          if (cc >= columns)
            cc = columns - 1;
          before = cc < c;
        }
      if (before)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
column_from_range (const double  *y,
                   gsize          a,
                   gsize          b,
                   ProcuraColumn *col)
{
  double mn0 = INFINITY, mn1 = INFINITY, mn2 = INFINITY, mn3 = INFINITY;
  double mx0 = -INFINITY, mx1 = -INFINITY, mx2 = -INFINITY, mx3 = -INFINITY;
  gsize i = a, count = 0;
  gsize first = b, last = b;

  for (gsize j = a; j < b; j++)
    if (!isnan (y[j]))
      {
        first = j;
        break;
      }
  if (first == b)
    return;
  for (gsize j = b; j > first; j--)
    if (!isnan (y[j - 1]))
      {
        last = j - 1;
        break;
      }

#ifdef __SSE2__
  /* Eight doubles a step in four independent chains: min/max at memory speed.
   * minpd/maxpd return the second operand when either is NaN, so a NaN never wins;
   * a NaN compares unequal to itself, so it is not counted. */
  {
    __m128d vmn0 = _mm_set1_pd (INFINITY), vmn1 = vmn0, vmn2 = vmn0, vmn3 = vmn0;
    __m128d vmx0 = _mm_set1_pd (-INFINITY), vmx1 = vmx0, vmx2 = vmx0, vmx3 = vmx0;
    __m128i vcount = _mm_setzero_si128 ();
    double lanes[2];
    gint64 counts[2];

    for (; i + 8 <= b; i += 8)
      {
        __m128d v0 = _mm_loadu_pd (y + i), v1 = _mm_loadu_pd (y + i + 2);
        __m128d v2 = _mm_loadu_pd (y + i + 4), v3 = _mm_loadu_pd (y + i + 6);

        vmn0 = _mm_min_pd (v0, vmn0);
        vmn1 = _mm_min_pd (v1, vmn1);
        vmn2 = _mm_min_pd (v2, vmn2);
        vmn3 = _mm_min_pd (v3, vmn3);
        vmx0 = _mm_max_pd (v0, vmx0);
        vmx1 = _mm_max_pd (v1, vmx1);
        vmx2 = _mm_max_pd (v2, vmx2);
        vmx3 = _mm_max_pd (v3, vmx3);
        vcount = _mm_sub_epi64 (vcount, _mm_castpd_si128 (_mm_cmpeq_pd (v0, v0)));
        vcount = _mm_sub_epi64 (vcount, _mm_castpd_si128 (_mm_cmpeq_pd (v1, v1)));
        vcount = _mm_sub_epi64 (vcount, _mm_castpd_si128 (_mm_cmpeq_pd (v2, v2)));
        vcount = _mm_sub_epi64 (vcount, _mm_castpd_si128 (_mm_cmpeq_pd (v3, v3)));
      }
    vmn0 = _mm_min_pd (_mm_min_pd (vmn0, vmn1), _mm_min_pd (vmn2, vmn3));
    vmx0 = _mm_max_pd (_mm_max_pd (vmx0, vmx1), _mm_max_pd (vmx2, vmx3));
    _mm_storeu_pd (lanes, vmn0);
    mn0 = MIN (lanes[0], lanes[1]);
    _mm_storeu_pd (lanes, vmx0);
    mx0 = MAX (lanes[0], lanes[1]);
    _mm_storeu_si128 ((__m128i *) counts, vcount);
    count += (gsize) (counts[0] + counts[1]);
  }
#endif
  /* Four independent chains; NaN compares false and so never wins. */
  for (; i + 4 <= b; i += 4)
    {
      double v0 = y[i], v1 = y[i + 1], v2 = y[i + 2], v3 = y[i + 3];
      mn0 = v0 < mn0 ? v0 : mn0;
      mn1 = v1 < mn1 ? v1 : mn1;
      mn2 = v2 < mn2 ? v2 : mn2;
      mn3 = v3 < mn3 ? v3 : mn3;
      mx0 = v0 > mx0 ? v0 : mx0;
      mx1 = v1 > mx1 ? v1 : mx1;
      mx2 = v2 > mx2 ? v2 : mx2;
      mx3 = v3 > mx3 ? v3 : mx3;
      count += (v0 == v0) + (v1 == v1) + (v2 == v2) + (v3 == v3);
    }
  for (; i < b; i++)
    {
      double v = y[i];
      mn0 = v < mn0 ? v : mn0;
      mx0 = v > mx0 ? v : mx0;
      count += v == v;
    }
  col->min = MIN (MIN (mn0, mn1), MIN (mn2, mn3));
  col->max = MAX (MAX (mx0, mx1), MAX (mx2, mx3));
  col->first = y[first];
  col->last = y[last];
  col->count = count;
}

void
procura_chart_decimate_full (const double  *x,
                             const double  *y,
                             gsize          n,
                             double         x0,
                             double         x1,
                             gboolean       x_log,
                             guint          columns,
                             int            sorted_hint,
                             ProcuraColumn *out)
{
  double t0, t1, span;
  gboolean sorted;

  for (guint c = 0; c < columns; c++)
    {
      out[c].min = out[c].max = out[c].first = out[c].last = NAN;
      out[c].count = 0;
    }
  if (columns == 0 || n == 0 || y == NULL)
    return;
  if (x_log)
    {
      if (!(x0 > 0) || !(x1 > 0))
        return;
      t0 = log10 (x0);
      t1 = log10 (x1);
    }
  else
    {
      t0 = x0;
      t1 = x1;
    }
  if (!(t1 > t0))
    {
      /* a zero-width range: everything exactly at x0 goes to column 0 */
      if (t1 != t0)
        return;
      span = 0;
    }
  else
    span = t1 - t0;

  if (sorted_hint >= 0)
    sorted = sorted_hint;
  else
    {
      sorted = TRUE;
      if (x != NULL)
        for (gsize i = 1; i < n; i++)
          if (!(x[i] >= x[i - 1]))
            {
              sorted = FALSE;
              break;
            }
    }

  if (sorted && span > 0)
    {
      gsize start = first_at_or_after (x, 0, n, 0, t0, span, t1, columns, x_log);

      for (guint c = 0; c < columns && start < n; c++)
        {
          gsize end = first_at_or_after (x, start, n, c + 1, t0, span, t1, columns, x_log);

          if (c == columns - 1)
            {
              /* the last column holds x1 itself: stop at the first x past t1 */
              gsize lo = start, hi = n;
              while (lo < hi)
                {
                  gsize mid = lo + (hi - lo) / 2;
                  double xv = x ? x[mid] : (double) mid;
                  double t = x_log ? (xv > 0 ? log10 (xv) : -INFINITY) : xv;
                  if (t <= t1)
                    lo = mid + 1;
                  else
                    hi = mid;
                }
              end = lo;
            }
          if (end > start)
            column_from_range (y, start, end, &out[c]);
          start = end;
        }
    }
  else
    {
      for (gsize i = 0; i < n; i++)
        {
          double v = y[i];
          guint c;
          ProcuraColumn *col;

          if (isnan (v))
            continue;
          if (span > 0)
            {
              if (!column_of (x ? x[i] : (double) i, t0, span, t1, columns, x_log, &c))
                continue;
            }
          else
            {
              double xv = x ? x[i] : (double) i;
              if ((x_log ? log10 (xv) : xv) != t0)
                continue;
              c = 0;
            }
          col = &out[c];
          if (col->count == 0)
            {
              col->min = col->max = col->first = v;
            }
          else
            {
              if (v < col->min)
                col->min = v;
              if (v > col->max)
                col->max = v;
            }
          col->last = v;
          col->count++;
        }
    }
}

void
procura_chart_decimate (const double  *x,
                        const double  *y,
                        gsize          n,
                        double         x0,
                        double         x1,
                        gboolean       x_log,
                        guint          columns,
                        ProcuraColumn *out)
{
  procura_chart_decimate_full (x, y, n, x0, x1, x_log, columns, -1, out);
}
