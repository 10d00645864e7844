/* procura-units.h: numbers with their units as the decision record shows them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the report, `procura diff` and the diff in the app, so that one figure reads
 * the same everywhere. Unknown values (NAN) come back as an em dash.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @decimals < 0: four significant figures (%.4g). @unit may be NULL. */
char *procura_units_number          (double      value,
                                     int         decimals,
                                     const char *unit);
/* The sign written before an amount in @currency ("$", "€", "£", ...), or NULL when
 * the ISO code is written after it. NULL @currency is USD. */
const char *procura_units_currency_symbol (const char *currency);
/* "$12,345.67", "€12,345.67" or "12,345.67 CHF": two decimals, thousands grouped. */
char *procura_units_money           (double      value,
                                     const char *currency);
/* Costs per output are small: four significant figures, "$0.001234", "€0.001234". */
char *procura_units_cost_per_output (double      value,
                                     const char *currency);

/* A whole count with its thousands grouped: "2,000,000". */
char *procura_units_count (double v);

/* The scale a project's costs per output are shown at, chosen once per project from
 * the analysis' unit_factor: 1, 1e3 or 1e6. */
double procura_units_scale          (double      unit_factor);
/* "per 1,000 accepted responses", "per 1M tokens", "per accepted clip". */
char *procura_units_per_label       (double      unit_factor,
                                     const char *unit_label);
/* A success unit as the user reads it: translated when Procura named it, else as typed. */
const char *procura_units_label     (const char *unit_label);
/* A cost per output at the project's scale, money only: "€0.97". */
char *procura_units_cost_scaled     (double      cost_per_output,
                                     double      unit_factor,
                                     const char *currency);
/* The same with its unit: "€0.97 per 1,000 accepted responses". */
char *procura_units_cost_with_unit  (double      cost_per_output,
                                     double      unit_factor,
                                     const char *unit_label,
                                     const char *currency);
/* A fraction as a percentage: 0.199 -> "19.9 %" with one decimal. */
char *procura_units_percent         (double      fraction,
                                     int         decimals);
/* "812 tokens", "32.8 k tokens", "1.5 M tokens". */
char *procura_units_tokens          (double      tokens);
/* Bytes as GiB, one decimal: "79.2 GiB". */
char *procura_units_gib             (double      bytes);
/* "12.3 req/s" */
char *procura_units_req_per_s       (double      rps);

G_END_DECLS
