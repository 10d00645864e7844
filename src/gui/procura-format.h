/* procura-format.h: numbers and names as the GUI shows them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plain helpers, no GObject type. Unknown values (NAN, -1, NULL) show as an em dash.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char       *procura_format_number   (double      value,
                                     int         digits);
/* In the project's currency, thousands grouped: "€12,345.67", "12,345.67 CHF"
 * (procura_units_money). */
char       *procura_format_money    (double      value,
                                     const char *currency);
/* Four significant figures: "€0.001234" */
char       *procura_format_cost_per_output (double      value,
                                            const char *currency);
char       *procura_format_ms       (double      value_ms);
char       *procura_format_count    (gint64      value);
/* "on-demand" → "On-demand": a human label for the well-known identifiers the model
 * stores (workload types, SLO metrics, ops tests, checklist sections…); unknown ids
 * come back as they are. */
const char *procura_format_id       (const char *id);

G_END_DECLS
