/* procura-sensitivity.h: what moves the cost per accepted output, and what-if scenarios
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "procura-cost.h"

G_BEGIN_DECLS

/* One input moved down and up, everything else held (the replicas too, so that the
 * utilisation row shows utilisation alone). A tornado chart draws these. */
typedef struct {
  char   *input;         /* "utilization", "acceptance_rate", "price", "retry_rate", "labor" */
  char   *label;         /* "Utilisation", ... (for display) */
  double  base_value;
  double  low_value;
  double  high_value;
  double  base_cost;     /* cost per accepted output at the base */
  double  cost_low;      /* ... with the input at low_value */
  double  cost_high;     /* ... at high_value */
} ProcuraSensitivity;

void procura_sensitivity_free (ProcuraSensitivity *s);

/* Moves each input by ± @relative (e.g. 0.1 for ±10 %) of its value; an input whose
 * value is 0 moves by an absolute step instead (rates 0.01, labor 10 h); rates are
 * kept in their range. Utilisation moves through the average demand with the replicas
 * fixed. Price moves every price of the candidate (GPU-hour and API tokens).
 * Returns ProcuraSensitivity* (free func set), empty when the base is invalid. */
GPtrArray *procura_sensitivity_run (const ProcuraCostInputs *in,
                                    double                   relative);

/* The seed's last mistake: planning only for today. */
typedef struct {
  char              *id;          /* "context-x2", "larger-model", "traffic-x3" */
  char              *title;
  char              *assumption;  /* how the scenario changes the inputs */
  gboolean           estimate;    /* TRUE when it rests on a scaling assumption, not a measurement */
  double             capacity_factor;
  double             demand_factor;
  ProcuraCostResult *result;      /* NULL when it cannot be costed (see note) */
  char              *note;
} ProcuraWhatIf;

void procura_what_if_free (ProcuraWhatIf *w);

/* Three scenarios: traffic x3 (demand and peak x3, replicas resized: exact), context x2
 * (GPU: capacity per replica x0.5, the KV cache bounding concurrent sequences;
 * API: input tokens x2), a larger model (twice the parameters; GPU: twice the GPUs
 * per replica to hold the weights, the capacity per replica unchanged, decoding being
 * memory-bandwidth bound; API: not estimated, the price of a larger model is unknown).
 * capacity_factor is per replica. */
GPtrArray *procura_what_if_run (const ProcuraCostInputs *in);

G_END_DECLS
