/* procura-format.h: numbers and names as the GUI shows them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plain helpers, no GObject type. Unknown values (NAN, -1, NULL) show as an em dash.
 * Money and costs per output: the core's procura-units.h, the one format of the app,
 * the charts, the CLI and the report.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char       *procura_format_number   (double      value,
                                     int         digits);
char       *procura_format_ms       (double      value_ms);
char       *procura_format_count    (gint64      value);
/* "on-demand" → "On-demand": a human label for the well-known identifiers the model
 * stores (workload types, SLO metrics, ops tests, checklist sections…); unknown ids
 * come back as they are. */
const char *procura_format_id       (const char *id);
/* "ttft" → "TTFT": the short name of a per-request metric, as run details and their
 * charts title it; unknown metrics come back as they are. */
const char *procura_format_metric   (const char *metric);

G_END_DECLS
