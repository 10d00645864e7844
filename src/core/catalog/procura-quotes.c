/* procura-quotes.c: Procura's quote file, staleness
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-gpu-catalog.h"
#include "procura-import-private.h"
#include "procura-json.h"
#include "procura-quotes.h"
#include "procura-util.h"
#include "procura-json-out.h"

/* ------------------------------------------------------------------------- */
/* Staleness                                                                  */

static gboolean valid_date (const char *s);

int
procura_quote_age_days (const ProcuraQuote *q)
{
  int age;

  if (q == NULL || q->seen_date == NULL || !valid_date (q->seen_date))
    return -1;
  age = procura_days_since (q->seen_date);
  return age < 0 ? 0 : age;   /* a date in the future counts as today */
}

gboolean
procura_price_date_is_stale (const char *seen_date,
                             double      stale_days)
{
  if (isnan (stale_days) || stale_days <= 0)
    stale_days = PROCURA_DEFAULT_STALE_DAYS;
  /* an undated or unreadable price cannot be trusted as current */
  if (seen_date == NULL || !valid_date (seen_date))
    return TRUE;
  return procura_days_since (seen_date) > stale_days;
}

gboolean
procura_quote_is_stale (const ProcuraQuote *q,
                        double              stale_days)
{
  if (q == NULL)
    return TRUE;
  return procura_price_date_is_stale (q->seen_date, stale_days);
}

/* ------------------------------------------------------------------------- */
/* Validation helpers: every error names the file and the key path            */

/* No price, fee, term or limit is larger: refusing them also keeps every number
 * within what json-glib writes back correctly (it mangles 1e+20 into "1e+20.0") */
#define PROCURA_QUOTE_MAX_NUMBER 1e12

typedef struct {
  const char *file;
  GError    **error;
  gboolean    failed;
} Ctx;

static void G_GNUC_PRINTF (3, 4)
schema_error (Ctx        *c,
              const char *path,
              const char *format,
              ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  if (c->failed)
    return;
  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (c->error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
               "%s: %s: %s", c->file, path, msg);
  c->failed = TRUE;
}

static JsonNode *
member (JsonObject *o,
        const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  return (n == NULL || JSON_NODE_HOLDS_NULL (n)) ? NULL : n;
}

static gboolean
is_number_node (JsonNode *n)
{
  GType t;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return FALSE;
  t = json_node_get_value_type (n);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

/* Reads a number ≥ @min into @out; absent keeps @out. */
static void
get_number (Ctx        *c,
            JsonObject *o,
            const char *prefix,
            const char *key,
            double      min,
            gboolean    required,
            double     *out)
{
  JsonNode *n = member (o, key);
  g_autofree char *path = g_strdup_printf ("%s.%s", prefix, key);
  double v;

  if (n == NULL)
    {
      if (required)
        schema_error (c, path, _("missing (expected a number ≥ %g)"), min);
      return;
    }
  if (!is_number_node (n))
    {
      schema_error (c, path, _("expected a number ≥ %g"), min);
      return;
    }
  v = json_node_get_double (n);
  if (!isfinite (v) || v < min)
    {
      schema_error (c, path, _("expected a number ≥ %g, got %g"), min, v);
      return;
    }
  if (v > PROCURA_QUOTE_MAX_NUMBER)
    {
      schema_error (c, path, _("expected a number ≤ %g, got %g (implausibly large)"), PROCURA_QUOTE_MAX_NUMBER, v);
      return;
    }
  *out = v;
}

static const char *
get_string (Ctx        *c,
            JsonObject *o,
            const char *prefix,
            const char *key,
            gboolean    required)
{
  JsonNode *n = member (o, key);
  g_autofree char *path = g_strdup_printf ("%s.%s", prefix, key);

  if (n == NULL)
    {
      if (required)
        schema_error (c, path, _("missing (expected a non-empty string)"));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING ||
      *json_node_get_string (n) == '\0')
    {
      schema_error (c, path, _("expected a non-empty string"));
      return NULL;
    }
  return json_node_get_string (n);
}

static gboolean
valid_date (const char *s)
{
  int y, m, d;
  char tail;

  if (strlen (s) != 10 || s[4] != '-' || s[7] != '-')
    return FALSE;
  if (sscanf (s, "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3)
    return FALSE;
  return y >= 1900 && g_date_valid_dmy ((GDateDay) d, (GDateMonth) m, (GDateYear) y);
}

static gboolean
valid_currency (const char *s)
{
  return strlen (s) == 3 && g_ascii_isupper (s[0]) && g_ascii_isupper (s[1]) && g_ascii_isupper (s[2]);
}

static const char * const gpu_keys[] = {
  "kind", "provider", "sku", "gpu", "gpu_count", "price_per_hour", "currency", "pricing_model",
  "term_months", "min_commitment", "region", "seen", "source", "extras", "notes", NULL
};
static const char * const api_keys[] = {
  "kind", "provider", "model", "input_per_mtok", "cached_input_per_mtok", "output_per_mtok",
  "rate_limit_rpm", "rate_limit_tpm", "currency", "region", "seen", "source", "notes", NULL
};
static const char * const extras_keys[] = {
  "storage_per_gb_month", "egress_per_gb", "support_pct", "setup_fee", NULL
};

static void
check_keys (Ctx                *c,
            JsonObject         *o,
            const char         *prefix,
            const char * const *allowed)
{
  GList *names = json_object_get_members (o);

  for (GList *l = names; l != NULL && !c->failed; l = l->next)
    {
      const char *k = l->data;

      if (g_str_has_prefix (k, "x-") || g_strv_contains (allowed, k))
        continue;
      {
        g_autofree char *path = g_strdup_printf ("%s.%s", prefix, k);
        g_autofree char *list = g_strjoinv (", ", (char **) allowed);
        schema_error (c, path, _("unknown key (expected one of %s, or a key starting with \"x-\")"), list);
      }
    }
  g_list_free (names);
}

static ProcuraQuote *
read_quote (Ctx        *c,
            JsonNode   *node,
            guint       index,
            GPtrArray  *warnings)
{
  g_autofree char *prefix = g_strdup_printf ("quotes[%u]", index);
  g_autoptr(ProcuraQuote) q = procura_quote_new ();
  JsonObject *o;
  const char *kind, *s;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      schema_error (c, prefix, _("expected an object"));
      return NULL;
    }
  o = json_node_get_object (node);
  kind = get_string (c, o, prefix, "kind", FALSE);
  if (kind == NULL)
    kind = "gpu";
  if (!g_str_equal (kind, "gpu") && !g_str_equal (kind, "api"))
    {
      g_autofree char *path = g_strdup_printf ("%s.kind", prefix);
      schema_error (c, path, _("expected \"gpu\" or \"api\", got \"%s\""), kind);
      return NULL;
    }
  q->kind = g_str_equal (kind, "api") ? PROCURA_QUOTE_API : PROCURA_QUOTE_GPU;
  check_keys (c, o, prefix, q->kind == PROCURA_QUOTE_API ? api_keys : gpu_keys);

  q->provider = g_strdup (get_string (c, o, prefix, "provider", TRUE));
  s = get_string (c, o, prefix, "seen", TRUE);
  if (s != NULL && !valid_date (s))
    {
      g_autofree char *path = g_strdup_printf ("%s.seen", prefix);
      schema_error (c, path, _("expected a date YYYY-MM-DD, got \"%s\""), s);
    }
  else if (s != NULL && procura_days_since (s) < 0)
    {
      /* a price cannot have been seen on a day that has not come: a typo, or a quote
       * that is not valid yet; either way it must not rank candidates today */
      g_autofree char *path = g_strdup_printf ("%s.seen", prefix);
      g_autofree char *today = procura_now_iso8601 ();
      const char *who = get_string (c, o, prefix, "provider", FALSE);
      if (who != NULL)
        schema_error (c, path, _("the quote from %s is dated %s, in the future (today is %.10s UTC): "
                                 "expected the day the price was seen"), who, s, today);
      else
        schema_error (c, path, _("the quote is dated %s, in the future (today is %.10s UTC): "
                                 "expected the day the price was seen"), s, today);
    }
  q->seen_date = g_strdup (s);
  if ((s = get_string (c, o, prefix, "currency", FALSE)) != NULL)
    {
      if (!valid_currency (s))
        {
          g_autofree char *path = g_strdup_printf ("%s.currency", prefix);
          schema_error (c, path, _("expected an ISO 4217 code such as \"USD\", got \"%s\""), s);
        }
      g_free (q->currency);
      q->currency = g_strdup (s);
    }
  q->region = g_strdup (get_string (c, o, prefix, "region", FALSE));
  q->source = g_strdup (get_string (c, o, prefix, "source", FALSE));
  q->notes = g_strdup (get_string (c, o, prefix, "notes", FALSE));

  if (q->kind == PROCURA_QUOTE_API)
    {
      q->gpu_count = 0;
      q->api_model = g_strdup (get_string (c, o, prefix, "model", TRUE));
      get_number (c, o, prefix, "input_per_mtok", 0, TRUE, &q->price_input_per_mtok);
      get_number (c, o, prefix, "cached_input_per_mtok", 0, FALSE, &q->price_cached_per_mtok);
      get_number (c, o, prefix, "output_per_mtok", 0, TRUE, &q->price_output_per_mtok);
      get_number (c, o, prefix, "rate_limit_rpm", 0, FALSE, &q->rate_limit_rpm);
      get_number (c, o, prefix, "rate_limit_tpm", 0, FALSE, &q->rate_limit_tpm);
      q->pricing_model = g_strdup ("on-demand");
    }
  else
    {
      double count = NAN;
      const ProcuraGpuSpec *spec;

      q->sku = g_strdup (get_string (c, o, prefix, "sku", FALSE));
      q->gpu_name = g_strdup (get_string (c, o, prefix, "gpu", TRUE));
      get_number (c, o, prefix, "gpu_count", 1, TRUE, &count);
      if (!isnan (count))
        {
          if (count != floor (count) || count > 100000)
            {
              g_autofree char *path = g_strdup_printf ("%s.gpu_count", prefix);
              schema_error (c, path, _("expected a whole number of GPUs from 1 to 100000, got %g"), count);
            }
          else
            q->gpu_count = (int) count;
        }
      get_number (c, o, prefix, "price_per_hour", 0, TRUE, &q->price_per_hour);
      s = get_string (c, o, prefix, "pricing_model", FALSE);
      if (s == NULL)
        s = "on-demand";
      if (!g_str_equal (s, "on-demand") && !g_str_equal (s, "spot") &&
          !g_str_equal (s, "reserved") && !g_str_equal (s, "committed"))
        {
          g_autofree char *path = g_strdup_printf ("%s.pricing_model", prefix);
          schema_error (c, path, _("expected \"on-demand\", \"spot\", \"reserved\" or \"committed\", got \"%s\""), s);
        }
      q->pricing_model = g_strdup (s);
      get_number (c, o, prefix, "term_months", 0, FALSE, &q->term_months);
      get_number (c, o, prefix, "min_commitment", 0, FALSE, &q->min_commitment);
      if (!c->failed && (g_str_equal (s, "reserved") || g_str_equal (s, "committed")) &&
          (isnan (q->term_months) || q->term_months <= 0))
        {
          g_autofree char *path = g_strdup_printf ("%s.term_months", prefix);
          schema_error (c, path, _("missing (a %s price needs its term in months, a number > 0)"), s);
        }
      if (member (o, "extras") != NULL)
        {
          JsonNode *en = member (o, "extras");
          g_autofree char *ep = g_strdup_printf ("%s.extras", prefix);

          if (!JSON_NODE_HOLDS_OBJECT (en))
            schema_error (c, ep, _("expected an object"));
          else
            {
              JsonObject *e = json_node_get_object (en);
              check_keys (c, e, ep, extras_keys);
              get_number (c, e, ep, "storage_per_gb_month", 0, FALSE, &q->storage_per_gb_month);
              get_number (c, e, ep, "egress_per_gb", 0, FALSE, &q->egress_per_gb);
              get_number (c, e, ep, "support_pct", 0, FALSE, &q->support_pct);
              get_number (c, e, ep, "setup_fee", 0, FALSE, &q->setup_fee);
              if (!c->failed && q->support_pct > 100)
                {
                  g_autofree char *path = g_strdup_printf ("%s.support_pct", ep);
                  schema_error (c, path, _("expected a percentage 0..100, got %g"), q->support_pct);
                }
            }
        }
      if (!c->failed)
        {
          spec = procura_gpu_catalog_lookup_provider (q->provider, q->gpu_name, NAN);
          if (spec != NULL)
            q->gpu_id = g_strdup (spec->id);
          else
            g_ptr_array_add (warnings,
                             g_strdup_printf (_("%s: %s.gpu: \"%s\" is not in the GPU catalog "
                                                "(memory fit and specs are unavailable for it)"),
                                              c->file, prefix, q->gpu_name));
        }
    }
  if (c->failed)
    return NULL;
  return g_steal_pointer (&q);
}

static int
quote_json_sniff (const char *data,
                  gsize       len)
{
  gsize n = MIN (len, 4096);

  if (procura_sniff_has (data, n, "\"procura_quotes\""))
    return 100;
  return 0;
}

static gboolean
quote_json_parse (const char          *name,
                  const char          *data,
                  gsize                len,
                  ProcuraImportResult *result,
                  GCancellable        *cancellable,
                  GError             **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) quotes = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_quote_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  Ctx c = { name != NULL ? name : "(quotes)", error, FALSE };
  JsonNode *version, *qn;
  JsonObject *top;
  JsonArray *arr;
  guint stale = 0;
  int oldest = -1;

  /* the strict front door: bounded depth, "FILE:LINE:COL: ..." messages */
  root = procura_json_parse (c.file, data, len, 0, PROCURA_JSON_STRICT, error);
  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      schema_error (&c, "(top level)", _("expected an object with \"procura_quotes\" and \"quotes\""));
      return FALSE;
    }
  top = json_node_get_object (root);
  version = member (top, "procura_quotes");
  if (version == NULL || !is_number_node (version) || json_node_get_double (version) != 1)
    {
      schema_error (&c, "procura_quotes", _("expected the format version 1"));
      return FALSE;
    }
  {
    static const char * const top_keys[] = { "procura_quotes", "quotes", "title", "notes", NULL };
    check_keys (&c, top, "(top level)", top_keys);
    if (c.failed)
      return FALSE;
  }
  qn = member (top, "quotes");
  if (qn == NULL || !JSON_NODE_HOLDS_ARRAY (qn))
    {
      schema_error (&c, "quotes", _("expected an array of quotes"));
      return FALSE;
    }
  arr = json_node_get_array (qn);
  for (guint i = 0; i < json_array_get_length (arr); i++)
    {
      ProcuraQuote *q;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      q = read_quote (&c, json_array_get_element (arr, i), i, warnings);
      if (q == NULL)
        return FALSE;
      if (procura_quote_is_stale (q, PROCURA_DEFAULT_STALE_DAYS))
        {
          stale++;
          oldest = MAX (oldest, procura_quote_age_days (q));
        }
      g_ptr_array_add (quotes, q);
    }
  if (stale > 0)
    g_ptr_array_add (warnings,
                     g_strdup_printf (_("%s: %u of %u prices are older than %g days (the oldest %d days): "
                                        "they are flagged as stale wherever they are used"),
                                      c.file, stale, quotes->len, PROCURA_DEFAULT_STALE_DAYS, oldest));
  /* all or nothing: only now move into the result */
  result->format_version = g_strdup ("1");
  for (guint i = 0; i < quotes->len; i++)
    g_ptr_array_add (result->quotes, g_ptr_array_steal_index (quotes, i--));
  for (guint i = 0; i < warnings->len; i++)
    g_ptr_array_add (result->warnings, g_ptr_array_steal_index (warnings, i--));
  return TRUE;
}

const ProcuraImporter procura_importer_quote_json = {
  .id = "quote-json",
  .description = "Procura quote file (JSON)",
  .sniff = quote_json_sniff,
  .parse = quote_json_parse,
};

/* ------------------------------------------------------------------------- */
/* Writing                                                                    */

static void
add_number (JsonBuilder *b,
            const char  *key,
            double       v)
{
  if (isnan (v))
    return;
  json_builder_set_member_name (b, key);
  if (v == floor (v) && fabs (v) < 1e15)
    json_builder_add_int_value (b, (gint64) v);
  else
    json_builder_add_double_value (b, v);
}

static void
add_string (JsonBuilder *b,
            const char  *key,
            const char  *v)
{
  if (v == NULL)
    return;
  json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, v);
}

char *
procura_quotes_to_json (const ProcuraQuote * const *quotes,
                        gsize                       n)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "procura_quotes");
  json_builder_add_int_value (b, PROCURA_QUOTES_FORMAT_VERSION);
  json_builder_set_member_name (b, "quotes");
  json_builder_begin_array (b);
  for (gsize i = 0; i < n; i++)
    {
      const ProcuraQuote *q = quotes[i];

      json_builder_begin_object (b);
      add_string (b, "kind", q->kind == PROCURA_QUOTE_API ? "api" : "gpu");
      add_string (b, "provider", q->provider);
      if (q->kind == PROCURA_QUOTE_API)
        {
          add_string (b, "model", q->api_model);
          add_number (b, "input_per_mtok", q->price_input_per_mtok);
          add_number (b, "cached_input_per_mtok", q->price_cached_per_mtok);
          add_number (b, "output_per_mtok", q->price_output_per_mtok);
          add_number (b, "rate_limit_rpm", q->rate_limit_rpm);
          add_number (b, "rate_limit_tpm", q->rate_limit_tpm);
        }
      else
        {
          add_string (b, "sku", q->sku);
          add_string (b, "gpu", q->gpu_name);
          add_number (b, "gpu_count", q->gpu_count);
          add_number (b, "price_per_hour", q->price_per_hour);
          add_string (b, "pricing_model", q->pricing_model);
          add_number (b, "term_months", q->term_months);
          add_number (b, "min_commitment", q->min_commitment);
          if (!isnan (q->storage_per_gb_month) || !isnan (q->egress_per_gb) ||
              !isnan (q->support_pct) || !isnan (q->setup_fee))
            {
              json_builder_set_member_name (b, "extras");
              json_builder_begin_object (b);
              add_number (b, "storage_per_gb_month", q->storage_per_gb_month);
              add_number (b, "egress_per_gb", q->egress_per_gb);
              add_number (b, "support_pct", q->support_pct);
              add_number (b, "setup_fee", q->setup_fee);
              json_builder_end_object (b);
            }
        }
      add_string (b, "currency", q->currency);
      add_string (b, "region", q->region);
      add_string (b, "seen", q->seen_date);
      add_string (b, "source", q->source);
      add_string (b, "notes", q->notes);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return procura_json_to_data (root, TRUE);
}
