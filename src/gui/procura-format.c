/* procura-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "procura-format.h"

char *
procura_format_number (double value,
                       int    digits)
{
  if (isnan (value))
    return g_strdup ("—");
  if (isinf (value))
    return g_strdup ("∞");
  return g_strdup_printf ("%.*f", digits, value);
}

char *
procura_format_ms (double value_ms)
{
  if (isnan (value_ms))
    return g_strdup ("—");
  if (value_ms >= 1000)
    /* Translators: a duration in seconds */
    return g_strdup_printf (_("%.2f s"), value_ms / 1000);
  /* Translators: a duration in milliseconds */
  return g_strdup_printf (_("%.1f ms"), value_ms);
}

char *
procura_format_count (gint64 value)
{
  if (value < 0)
    return g_strdup ("—");
  return g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

const char *
procura_format_id (const char *id)
{
  static const struct { const char *id; const char *label; } labels[] = {
    { "online-inference", N_("Online inference") },
    { "batch-inference", N_("Batch inference") },
    { "embeddings", N_("Embeddings") },
    { "code-agents", N_("Code agents") },
    { "image-generation", N_("Image generation") },
    { "video-generation", N_("Video generation") },
    { "training", N_("Training") },
    { "fine-tuning", N_("Fine-tuning") },
    { "evaluation", N_("Evaluation") },
    { "ttft", N_("Time to first token") },
    { "tpot", N_("Time per output token") },
    { "itl", N_("Inter-token latency") },
    { "e2e", N_("End-to-end latency") },
    { "always-on", N_("Always on") },
    { "business-hours", N_("Business hours") },
    { "batch-window", N_("Batch window") },
    { "bursty", N_("Bursty") },
    { "kill-worker", N_("Kill a worker") },
    { "drain-node", N_("Drain a node") },
    { "restart-stack", N_("Restart the stack") },
    { "bad-deploy", N_("A bad deploy") },
    { "cold-start", N_("Cold start and model load") },
    { "checkpoint-recovery", N_("Checkpoint recovery") },
    { "pass", N_("Passed") },
    { "fail", N_("Failed") },
    { "not-run", N_("Not run") },
    { "hardware", N_("Hardware and topology") },
    { "software", N_("Software stack") },
    { "commercial", N_("Commercial model") },
    { "security", N_("Security and governance") },
    { "yes", N_("Yes") },
    { "no", N_("No") },
    { "partial", N_("Partly") },
    { "unknown", N_("Unknown") },
    { "on-demand", N_("On demand") },
    { "spot", N_("Spot") },
    { "reserved", N_("Reserved") },
    { "committed", N_("Committed use") },
  };

  if (id == NULL)
    return "—";
  for (gsize i = 0; i < G_N_ELEMENTS (labels); i++)
    if (g_str_equal (labels[i].id, id))
      return _(labels[i].label);
  return id;
}

const char *
procura_format_metric (const char *metric)
{
  if (g_strcmp0 (metric, "ttft") == 0)
    return _("TTFT");
  if (g_strcmp0 (metric, "tpot") == 0)
    return _("TPOT");
  if (g_strcmp0 (metric, "tpot_incl_first") == 0)
    return _("TPOT incl. first token");
  if (g_strcmp0 (metric, "itl") == 0)
    return _("ITL");
  if (g_strcmp0 (metric, "e2e") == 0)
    return _("End-to-end");
  return metric;
}
