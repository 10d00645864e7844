/* procura-recommend.h: rent, reserve, buy, or the API (the situation table)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "procura-model.h"

G_BEGIN_DECLS

typedef enum {
  PROCURA_CHOICE_UNDECIDED = 0,  /* not enough to go on: the reasons say what is missing */
  PROCURA_CHOICE_API,            /* pay per token */
  PROCURA_CHOICE_RENT,           /* on-demand (or spot) GPUs */
  PROCURA_CHOICE_RESERVE,        /* reserved / committed GPUs */
  PROCURA_CHOICE_BUY,            /* own hardware */
  PROCURA_CHOICE_HYBRID,         /* GPUs for the base load, the API for the overflow */
} ProcuraChoice;

/* "undecided", "api", "rent", "reserve", "buy", "hybrid" */
const char *procura_choice_name (ProcuraChoice c);
/* The choice as the user reads it, translated: "Rent GPUs". */
const char *procura_choice_label (ProcuraChoice c);

typedef struct {
  ProcuraChoice  choice;
  gint64         candidate_id;   /* the candidate it rests on, 0 none */
  char          *candidate_name;
  GPtrArray     *reasons;        /* char*: one sentence each, with the figures */
} ProcuraRecommendation;

void procura_recommendation_free (ProcuraRecommendation *r);

struct _ProcuraAnalysis;

/* The situation table:
 *   no costed candidate                                     -> undecided
 *   the cheapest per accepted output is the API             -> api
 *   the cheapest is the hybrid                              -> hybrid (its base GPUs
 *     on their reserved term when costed at a reserved price, else rented first)
 *   a GPU candidate is cheapest, and
 *     the duty cycle steady (always-on), utilisation >= 0.6, the candidate's purchase
 *     inputs all given (capex, depreciation years, power, hosting) and either the
 *     operating boundary on-prem / sovereign / air-gapped or owning cheaper per
 *     GPU-hour than the price                               -> buy (never without them)
 *     the duty cycle steady, peak <= 1.5 x average and utilisation >= 0.6
 *                                                           -> reserve
 *     otherwise (bursty, business hours, batch windows, low utilisation,
 *     or demand that is not known to last)                  -> rent
 * Each step adds its reason with the figures behind it. */
ProcuraRecommendation *procura_recommend (const ProcuraProject          *project,
                                          const struct _ProcuraAnalysis *analysis);

G_END_DECLS
