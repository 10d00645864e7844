/* procura-store-quotes.c: quotes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-json.h"
#include "procura-json-out.h"
#include "procura-store-private.h"
#include "procura-util.h"

/* ------------------------------------------------------------------------- */
/* Quotes                                                                     */

#define QUOTE_COLUMNS \
  "provenance_id, kind, provider, sku, gpu_name, gpu_id, gpu_count, price_per_hour, currency," \
  " pricing_model, term_months, min_commitment, region, seen_date, source, storage_per_gb_month," \
  " egress_per_gb, support_pct, setup_fee, notes, api_model, price_input_per_mtok," \
  " price_cached_per_mtok, price_output_per_mtok, rate_limit_rpm, rate_limit_tpm"
#define QUOTE_VALUES \
  ":provenance_id, :kind, :provider, :sku, :gpu_name, :gpu_id, :gpu_count, :price_per_hour," \
  " :currency, :pricing_model, :term_months, :min_commitment, :region, :seen_date, :source," \
  " :storage_per_gb_month, :egress_per_gb, :support_pct, :setup_fee, :notes, :api_model," \
  " :price_input_per_mtok, :price_cached_per_mtok, :price_output_per_mtok, :rate_limit_rpm," \
  " :rate_limit_tpm"

static void
bind_quote (sqlite3_stmt        *stmt,
            const ProcuraQuote  *q,
            gint64               provenance_id)
{
  bind_id (stmt, "provenance_id", provenance_id);
  bind_int (stmt, "kind", q->kind);
  bind_text (stmt, "provider", q->provider);
  bind_text (stmt, "sku", q->sku);
  bind_text (stmt, "gpu_name", q->gpu_name);
  bind_text (stmt, "gpu_id", q->gpu_id);
  bind_int (stmt, "gpu_count", q->gpu_count);
  bind_double (stmt, "price_per_hour", q->price_per_hour);
  bind_text (stmt, "currency", q->currency);
  bind_text (stmt, "pricing_model", q->pricing_model);
  bind_double (stmt, "term_months", q->term_months);
  bind_double (stmt, "min_commitment", q->min_commitment);
  bind_text (stmt, "region", q->region);
  bind_text (stmt, "seen_date", q->seen_date);
  bind_text (stmt, "source", q->source);
  bind_double (stmt, "storage_per_gb_month", q->storage_per_gb_month);
  bind_double (stmt, "egress_per_gb", q->egress_per_gb);
  bind_double (stmt, "support_pct", q->support_pct);
  bind_double (stmt, "setup_fee", q->setup_fee);
  bind_text (stmt, "notes", q->notes);
  bind_text (stmt, "api_model", q->api_model);
  bind_double (stmt, "price_input_per_mtok", q->price_input_per_mtok);
  bind_double (stmt, "price_cached_per_mtok", q->price_cached_per_mtok);
  bind_double (stmt, "price_output_per_mtok", q->price_output_per_mtok);
  bind_double (stmt, "rate_limit_rpm", q->rate_limit_rpm);
  bind_double (stmt, "rate_limit_tpm", q->rate_limit_tpm);
}

static gboolean
validate_quote (ProcuraStore        *store,
                const ProcuraQuote  *q,
                GError             **error)
{
  if (q->kind != PROCURA_QUOTE_GPU && q->kind != PROCURA_QUOTE_API)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   _("%s: quote: unknown kind %d"), store->path, (int) q->kind);
      return FALSE;
    }
  return TRUE;
}

gint64
insert_quote (ProcuraStore        *store,
              const ProcuraQuote  *q,
              gint64               provenance_id,
              GError             **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (!validate_quote (store, q, error))
    return 0;
  stmt = store_prepare (store, "INSERT INTO quotes (" QUOTE_COLUMNS ") VALUES (" QUOTE_VALUES ")", error);
  if (stmt == NULL)
    return 0;
  bind_quote (stmt, q, provenance_id);
  if (!step_done (store, stmt, error, _("cannot add the quote")))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

static gboolean
check_provenance (ProcuraStore  *store,
                  gint64         id,
                  GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (id <= 0)
    return TRUE;
  stmt = store_prepare (store, "SELECT 1 FROM provenance WHERE id = :id", error);
  if (stmt == NULL)
    return FALSE;
  bind_int (stmt, "id", id);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    return TRUE;
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
               _("%s: no provenance record with id %lld"), store->path, (long long) id);
  return FALSE;
}

gint64
procura_store_add_quote (ProcuraStore        *store,
                         const ProcuraQuote  *quote,
                         GError             **error)
{
  gint64 id = 0;

  g_return_val_if_fail (store != NULL && quote != NULL, 0);
  if (!store_begin (store, error))
    return 0;
  if (check_provenance (store, quote->provenance_id, error))
    id = insert_quote (store, quote, quote->provenance_id, error);
  if (!store_finish (store, id > 0, error))
    return 0;
  return id;
}

gboolean
check_changed_one (ProcuraStore  *store,
                   const char    *what,
                   gint64         id,
                   GError       **error)
{
  if (sqlite3_changes (store->db) == 1)
    return TRUE;
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
               _("%s: no %s with id %lld"), store->path, what, (long long) id);
  return FALSE;
}

gboolean
procura_store_update_quote (ProcuraStore        *store,
                            const ProcuraQuote  *q,
                            GError             **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gboolean ok;

  g_return_val_if_fail (store != NULL && q != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  ok = validate_quote (store, q, error) && check_provenance (store, q->provenance_id, error);
  if (ok)
    ok = (stmt = store_prepare (store, "UPDATE quotes SET (" QUOTE_COLUMNS ") = (" QUOTE_VALUES ") WHERE id = :id",
                                error)) != NULL;
  if (ok)
    {
      bind_quote (stmt, q, q->provenance_id);
      bind_int (stmt, "id", q->id);
      ok = step_done (store, stmt, error, _("cannot save the quote"))
           && check_changed_one (store, "quote", q->id, error);
    }
  return store_finish (store, ok, error);
}

gboolean
store_delete_row (ProcuraStore  *store,
                  const char    *table,
                  const char    *what,
                  gint64         id,
                  GError       **error)
{
  g_autofree char *sql = g_strdup_printf ("DELETE FROM %s WHERE id = :id", table);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gboolean ok;

  if (!store_begin (store, error))
    return FALSE;
  ok = (stmt = store_prepare (store, sql, error)) != NULL;
  if (ok)
    {
      bind_int (stmt, "id", id);
      ok = step_done (store, stmt, error, _("cannot delete"))
           && check_changed_one (store, what, id, error);
    }
  return store_finish (store, ok, error);
}

gboolean
procura_store_delete_quote (ProcuraStore  *store,
                            gint64         quote_id,
                            GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  return store_delete_row (store, "quotes", "quote", quote_id, error);
}
