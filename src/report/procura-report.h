/* procura-report.h: the decision record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One project gives one document (procura_report_build) that is written as PDF,
 * Markdown (with every figure beside it as SVG and PNG) or CSV (the finance table,
 * and the per-candidate metrics beside it). A project with missing parts gives a
 * report that says what is missing instead of failing.
 */
#pragma once

#include "procura-figures.h"
#include "procura-report-doc.h"

G_BEGIN_DECLS

typedef enum {
  PROCURA_REPORT_PDF,
  PROCURA_REPORT_MARKDOWN,
  PROCURA_REPORT_CSV,
} ProcuraReportFormat;

/* Guesses the format from @path's extension (.pdf, .md/.markdown, .csv). */
gboolean          procura_report_format_from_path (const char          *path,
                                                   ProcuraReportFormat *format);
ProcuraReportDoc *procura_report_build            (ProcuraProject *project);
/* Writes the report for @project to @path. For Markdown, the figures are written beside
 * it as NAME-FIGURE.svg and .png; for CSV, the finance table goes to @path and the
 * per-candidate metrics to NAME-metrics.csv beside it. */
gboolean          procura_report_write            (ProcuraProject      *project,
                                                   const char          *path,
                                                   ProcuraReportFormat  format,
                                                   GError             **error);

/* The same with a "Changes since …" section after the title page: what changed from
 * @since (the project of the last review, read from @since_file, which names it in the
 * heading) to @project, and its consequences (see procura-diff.h). With @since NULL
 * these are procura_report_build() and procura_report_write(). For CSV, the changes go
 * to NAME-changes.csv beside @path. */
ProcuraReportDoc *procura_report_build_since      (ProcuraProject *project,
                                                   ProcuraProject *since,
                                                   const char     *since_file);
gboolean          procura_report_write_since      (ProcuraProject      *project,
                                                   ProcuraProject      *since,
                                                   const char          *since_file,
                                                   const char          *path,
                                                   ProcuraReportFormat  format,
                                                   GError             **error);
/* As procura_report_write_since(), refusing (G_IO_ERROR_EXISTS, before anything is
 * written) when any file the report would write — the output, a Markdown report's
 * figures, a CSV report's -changes.csv and -metrics.csv — is one of @keep
 * (NULL-terminated; the project, the --since project, any open file): same device and
 * inode, whatever the name. Every file is replaced whole (src/common's atomic writer). */
gboolean          procura_report_write_full       (ProcuraProject      *project,
                                                   ProcuraProject      *since,
                                                   const char          *since_file,
                                                   const char          *path,
                                                   ProcuraReportFormat  format,
                                                   const char * const  *keep,
                                                   GError             **error);

G_END_DECLS
