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
/* "$12,345.67" for USD (or no currency), "12,345.67 EUR" otherwise. */
char *procura_units_money           (double      value,
                                     const char *currency);
/* Costs per output are small: four significant figures, "$0.001234" or "0.001234 EUR". */
char *procura_units_cost_per_output (double      value,
                                     const char *currency);

G_END_DECLS
