/* procura-quotes.h: price quotes: Procura's quote file, SkyPilot and gpuhunt catalogs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The quote file format is documented in docs/quotes.md and described by
 * data/schemas/quote.schema.json. Each importer fills ProcuraImportResult.quotes
 * with one ProcuraQuote per instance offer that has a GPU (CPU-only rows are
 * skipped), with gpu_id set from the GPU catalog when the name is known, and
 * adds warnings for suspicious data (e.g. GPU memory that is the host's RAM).
 */
#pragma once

#include <glib.h>

#include "procura-import.h"
#include "procura-model.h"
#include "procura-model-catalog.h" /* procura_importer_hf_config */

G_BEGIN_DECLS

#define PROCURA_QUOTES_FORMAT_VERSION 1
#define PROCURA_DEFAULT_STALE_DAYS 30.0

extern const ProcuraImporter procura_importer_quote_json;    /* "quote-json" */
extern const ProcuraImporter procura_importer_skypilot_csv;  /* "skypilot-vms-csv" */
extern const ProcuraImporter procura_importer_gpuhunt_csv;   /* "gpuhunt-csv" */

/* Days since the quote's seen_date (today in UTC), -1 when unknown or unparsable. */
int      procura_quote_age_days (const ProcuraQuote *q);
/* TRUE when the quote is older than @stale_days (NAN or <= 0 → the default 30)
 * or has no date at all (an undated price cannot be trusted as current). */
gboolean procura_quote_is_stale (const ProcuraQuote *q,
                                 double              stale_days);
/* Same for a bare YYYY-MM-DD date (candidates' price_date). */
gboolean procura_price_date_is_stale (const char *seen_date,
                                      double      stale_days);

/* Writes quotes as a Procura quote file (the inverse of the quote-json importer). */
char    *procura_quotes_to_json (const ProcuraQuote * const *quotes,
                                 gsize                       n);

G_END_DECLS
