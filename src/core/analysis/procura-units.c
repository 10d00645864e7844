/* procura-units.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "procura-units.h"

char *
procura_units_number (double      v,
                      int         decimals,
                      const char *unit)
{
  g_autofree char *num = NULL;

  if (isnan (v))
    return g_strdup ("—");
  num = decimals < 0 ? g_strdup_printf ("%.4g", v) : g_strdup_printf ("%.*f", decimals, v);
  return unit != NULL ? g_strdup_printf ("%s %s", num, unit) : g_steal_pointer (&num);
}

/* "12,345.67": two decimals, thousands grouped with commas. */
static char *
group_thousands (double v)
{
  g_autofree char *plain = g_strdup_printf ("%.2f", fabs (v));
  const char *dot = strchr (plain, '.');
  GString *out = g_string_new (v < 0 ? "-" : "");
  gsize int_len;

  if (dot == NULL)   /* inf: a received project may hold any REAL */
    {
      g_string_append (out, "∞");
      return g_string_free (out, FALSE);
    }
  int_len = dot - plain;
  for (gsize i = 0; i < int_len; i++)
    {
      if (i > 0 && (int_len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, plain[i]);
    }
  g_string_append (out, dot);
  return g_string_free (out, FALSE);
}

const char *
procura_units_currency_symbol (const char *currency)
{
  static const struct { const char *code; const char *symbol; } symbols[] = {
    { "USD", "$" }, { "EUR", "€" }, { "GBP", "£" }, { "JPY", "¥" }, { "INR", "₹" },
    { "KRW", "₩" },
  };

  if (currency == NULL || *currency == '\0')
    return "$";
  for (gsize i = 0; i < G_N_ELEMENTS (symbols); i++)
    if (g_ascii_strcasecmp (currency, symbols[i].code) == 0)
      return symbols[i].symbol;
  return NULL;
}

/* "€12.3", "-€12.3", "12.3 CHF" */
static char *
with_currency (const char *num,
               gboolean    negative,
               const char *currency)
{
  const char *symbol = procura_units_currency_symbol (currency);

  if (symbol != NULL)
    return g_strdup_printf ("%s%s%s", negative ? "-" : "", symbol, num);
  return g_strdup_printf ("%s%s %s", negative ? "-" : "", num, currency);
}

char *
procura_units_money (double      v,
                     const char *currency)
{
  g_autofree char *num = NULL;

  if (isnan (v))
    return g_strdup ("—");
  num = group_thousands (fabs (v));
  return with_currency (num, v < 0, currency);
}

char *
procura_units_cost_per_output (double      v,
                               const char *currency)
{
  g_autofree char *num = NULL;

  if (isnan (v))
    return g_strdup ("—");
  if (isinf (v))
    return g_strdup ("∞");
  num = g_strdup_printf ("%.4g", fabs (v));
  return with_currency (num, v < 0, currency);
}

double
procura_units_scale (double unit_factor)
{
  return unit_factor >= 1e6 ? 1e6 : unit_factor >= 1e3 ? 1e3 : 1;
}

/* The success units Procura names itself (procura_success_unit_default() and the
 * analysis' fallbacks), one and many, so that a translation can decline them; a unit
 * the user typed is shown as typed, with an "s" for many. */
static const struct
{
  const char *one;
  const char *many;
} known_units[] = {
  /* TRANSLATORS: a success unit; it follows "per" (German: "pro akzeptierter Antwort") */
  { N_("accepted output"), N_("accepted outputs") },
  { N_("accepted response"), N_("accepted responses") },
  { N_("accepted record"), N_("accepted records") },
  { N_("accepted task"), N_("accepted tasks") },
  { N_("accepted image"), N_("accepted images") },
  { N_("accepted clip"), N_("accepted clips") },
  { N_("completed training run at the target evaluation"),
    N_("completed training runs at the target evaluation") },
  { N_("accepted fine-tuned checkpoint"), N_("accepted fine-tuned checkpoints") },
  { N_("completed evaluation suite"), N_("completed evaluation suites") },
  { N_("accepted token"), N_("accepted tokens") },
};

char *
procura_units_per_label (double      unit_factor,
                         const char *unit_label)
{
  const char *unit = unit_label != NULL && *unit_label != '\0' ? unit_label : "accepted output";
  double scale = procura_units_scale (unit_factor);
  g_autofree char *many = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (known_units); i++)
    if (g_str_equal (known_units[i].one, unit))
      {
        unit = _(known_units[i].one);
        many = g_strdup (_(known_units[i].many));
        break;
      }
  if (many == NULL)
    many = g_strconcat (unit, "s", NULL);
  if (scale >= 1e6)
    /* TRANSLATORS: %s is a success unit, many of them */
    return g_strdup_printf (_("per 1M %s"), many);
  if (scale >= 1e3)
    /* TRANSLATORS: %s is a success unit, many of them */
    return g_strdup_printf (_("per 1,000 %s"), many);
  /* TRANSLATORS: %s is a success unit, one of them */
  return g_strdup_printf (_("per %s"), unit);
}

const char *
procura_units_label (const char *unit_label)
{
  for (guint i = 0; unit_label != NULL && i < G_N_ELEMENTS (known_units); i++)
    if (g_str_equal (known_units[i].one, unit_label))
      return _(known_units[i].one);
  return unit_label;
}

char *
procura_units_cost_scaled (double      cost_per_output,
                           double      unit_factor,
                           const char *currency)
{
  double scale = procura_units_scale (unit_factor);
  double v = cost_per_output * scale;
  g_autofree char *num = NULL;

  if (isnan (v))
    return g_strdup ("—");
  if (isinf (v))
    return g_strdup ("∞");
  /* two decimals read best from 1 up; smaller figures keep three significant digits */
  if (fabs (v) >= 1)
    num = group_thousands (fabs (v));
  else
    num = g_strdup_printf ("%.3g", fabs (v));
  return with_currency (num, v < 0, currency);
}

char *
procura_units_cost_with_unit (double      cost_per_output,
                              double      unit_factor,
                              const char *unit_label,
                              const char *currency)
{
  g_autofree char *cost = procura_units_cost_scaled (cost_per_output, unit_factor, currency);
  g_autofree char *per = procura_units_per_label (unit_factor, unit_label);

  return g_strdup_printf ("%s %s", cost, per);
}

char *
procura_units_percent (double fraction,
                       int    decimals)
{
  if (isnan (fraction))
    return g_strdup ("—");
  return g_strdup_printf ("%.*f %%", MAX (decimals, 0), fraction * 100);
}

char *
procura_units_count (double v)
{
  g_autofree char *grouped = NULL;
  char *dot;

  if (isnan (v))
    return g_strdup ("—");
  grouped = group_thousands (round (v));
  dot = strchr (grouped, '.');
  if (dot != NULL)
    *dot = '\0';   /* a whole count: no decimals */
  return g_strdup (grouped);
}

char *
procura_units_tokens (double tokens)
{
  if (isnan (tokens))
    return g_strdup ("—");
  if (fabs (tokens) >= 1e6)
    return g_strdup_printf (_("%.3g M tokens"), tokens / 1e6);
  if (fabs (tokens) >= 1e4)
    return g_strdup_printf (_("%.3g k tokens"), tokens / 1e3);
  return g_strdup_printf (_("%.0f tokens"), tokens);
}

char *
procura_units_gib (double bytes)
{
  if (isnan (bytes))
    return g_strdup ("—");
  return g_strdup_printf (_("%.1f GiB"), bytes / (1024.0 * 1024.0 * 1024.0));
}

char *
procura_units_req_per_s (double rps)
{
  if (isnan (rps))
    return g_strdup ("—");
  return g_strdup_printf (_("%.3g req/s"), rps);
}
