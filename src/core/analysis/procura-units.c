/* procura-units.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

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

char *
procura_units_money (double      v,
                     const char *currency)
{
  g_autofree char *num = NULL;

  if (isnan (v))
    return g_strdup ("—");
  num = group_thousands (v);
  if (currency == NULL || g_str_equal (currency, "USD"))
    return v < 0 ? g_strdup_printf ("-$%s", num + 1) : g_strdup_printf ("$%s", num);
  return g_strdup_printf ("%s %s", num, currency);
}

char *
procura_units_cost_per_output (double      v,
                               const char *currency)
{
  if (isnan (v))
    return g_strdup ("—");
  if (currency == NULL || g_str_equal (currency, "USD"))
    return g_strdup_printf ("$%.4g", v);
  return g_strdup_printf ("%.4g %s", v, currency);
}
