/* procura-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-report.h"

/* PLACEHOLDER until the decision-record issue lands. */
const char * const procura_report_formats[] = { "pdf", "md", "csv", NULL };
