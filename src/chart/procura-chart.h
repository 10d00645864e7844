/* procura-chart.h: charts from plain series onto any cairo_t
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A ProcuraChart is a spec: a title, two axes, series of plain doubles, annotations
 * and a legend. procura_chart_draw() lays it out into a ProcuraChartLayout the caller
 * owns and draws it onto any cairo_t (a widget snapshot, an image, SVG or PDF
 * surface) with a theme the caller gives.
 * Text goes through Pango, so the same chart looks the same on every surface.
 *
 * Never includes GTK or a core header: charts take plain series.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* ------------------------------------------------------------------------- */
/* Units, scales, ticks and number formatting                                 */

typedef enum {
  PROCURA_UNIT_NONE = 0,      /* plain number, SI prefixes: "12k" */
  PROCURA_UNIT_MS,            /* value in milliseconds: "250 ms", "1.5 s" */
  PROCURA_UNIT_S,             /* value in seconds */
  PROCURA_UNIT_TOKENS_PER_S,  /* "12 k tok/s" */
  PROCURA_UNIT_REQ_PER_S,     /* "21.3 req/s" */
  PROCURA_UNIT_DOLLARS,       /* "$0.37", "$14.6k" */
  PROCURA_UNIT_GIB,           /* value in GiB: "79.2 GiB" */
  PROCURA_UNIT_BYTES,         /* value in bytes, binary prefixes: "512 MiB" */
  PROCURA_UNIT_PERCENT,       /* value is a fraction: 0.42 -> "42%" */
  PROCURA_UNIT_COUNT,         /* a count, SI prefixes: "1.2 M" */
  PROCURA_UNIT_TOKENS,        /* a token count: "32 k tok" */
} ProcuraChartUnit;

typedef enum {
  PROCURA_SCALE_LINEAR = 0,
  PROCURA_SCALE_LOG,
} ProcuraChartScale;

#define PROCURA_CHART_MAX_TICKS 128

typedef struct {
  double   lo, hi;          /* the axis range the ticks were made for (nice-expanded when auto) */
  double   step;            /* linear: the major step; log: 0 */
  guint    n;
  double   value[PROCURA_CHART_MAX_TICKS];
  gboolean major[PROCURA_CHART_MAX_TICKS]; /* major ticks get a label and a grid line */
} ProcuraTicks;

/* Nice ticks for data in [min, max] with about @target major ticks.
 * Linear: steps of 1, 2, 2.5 or 5 x 10^k; when @expand, lo and hi are widened to
 * multiples of the step, otherwise they stay at min and max and only the ticks inside
 * are listed. Log: decades, with 2 and 5 labelled (and 3..9 minor) when few decades
 * span the range; values <= 0 are not allowed on a log axis (min is clamped).
 * Non-finite bounds are ignored; min == max gets a small range around the value;
 * with no finite bound at all the range is [0, 1]. Returns FALSE only for that case. */
gboolean procura_chart_ticks (double             min,
                              double             max,
                              int                target,
                              ProcuraChartScale  scale,
                              gboolean           expand,
                              ProcuraTicks      *ticks);

/* Formats one value on its own: 3 significant digits, the prefix and unit chosen from
 * the value ("21.3 req/s", "$0.367", "79.2 GiB", "1.5 s"). Free with g_free(). */
char *procura_chart_format_value (double           value,
                                  ProcuraChartUnit unit);

/* Formats a tick label: prefix chosen from the largest magnitude of the ticks, decimals
 * from the step, so that all labels of an axis agree ("0 ms", "250 ms", "500 ms"). */
char *procura_chart_format_tick  (double              value,
                                  ProcuraChartUnit    unit,
                                  const ProcuraTicks *ticks);

/* ------------------------------------------------------------------------- */
/* Decimation                                                                 */

typedef struct {
  double min, max;      /* of the y values falling in the column */
  double first, last;   /* y of the first and last of them, in array order */
  gsize  count;         /* 0: an empty column (min/max/first/last are NAN) */
} ProcuraColumn;

/* Puts every point (x[i], y[i]) with a finite y and x in [x0, x1] into one of @columns
 * equal columns over [x0, x1] (x1 falls in the last column) and keeps the exact min, max,
 * first and last y of each. @x may be NULL: x[i] = i. When @x_log, columns are equal in
 * log10(x) (points with x <= 0 are dropped). Ascending x is detected and then only the
 * y values are read. */
void procura_chart_decimate (const double  *x,
                             const double  *y,
                             gsize          n,
                             double         x0,
                             double         x1,
                             gboolean       x_log,
                             guint          columns,
                             ProcuraColumn *out);

/* ------------------------------------------------------------------------- */
/* Themes                                                                     */

typedef struct {
  double r, g, b, a;
} ProcuraChartColor;

#define PROCURA_CHART_PALETTE_SIZE 10

typedef struct {
  ProcuraChartColor foreground;  /* text, axes */
  ProcuraChartColor background;  /* filled first when draw_background */
  ProcuraChartColor grid;        /* grid lines */
  ProcuraChartColor accent;      /* target lines, highlights */
  ProcuraChartColor warning;     /* "misses the target" */
  ProcuraChartColor palette[PROCURA_CHART_PALETTE_SIZE];
  guint             n_palette;
  const char       *font_family; /* e.g. "Cantarell, DejaVu Sans, sans-serif" */
  double            font_size;   /* px of body text */
  double            line_width;  /* px of series lines */
  gboolean          high_contrast;
  gboolean          draw_background;
} ProcuraChartTheme;

/* The GNOME palette on a light, dark or high-contrast background. Static, never free. */
const ProcuraChartTheme *procura_chart_theme_light         (void);
const ProcuraChartTheme *procura_chart_theme_dark          (void);
const ProcuraChartTheme *procura_chart_theme_high_contrast (void);
/* NULL for an unknown name; knows "light", "dark", "high-contrast". */
const ProcuraChartTheme *procura_chart_theme_by_name       (const char *name);

/* Parses "#rrggbb" or "#rrggbbaa". */
gboolean procura_chart_color_parse (const char        *spec,
                                    ProcuraChartColor *color);

/* ------------------------------------------------------------------------- */
/* The chart spec                                                             */

typedef enum {
  PROCURA_SERIES_LINE = 0,
  PROCURA_SERIES_STEP,        /* post-step: y[i] holds from x[i] to x[i+1] */
  PROCURA_SERIES_SCATTER,
  PROCURA_SERIES_BAND,        /* filled between y_low and y_high (y, when given, drawn as a line) */
  PROCURA_SERIES_ERRORBAR,    /* y with whiskers from y_low to y_high */
  PROCURA_SERIES_BAR,         /* one value per category; several BAR series are grouped */
  PROCURA_SERIES_STACKED_BAR, /* one value per category; STACKED_BAR series stack */
  PROCURA_SERIES_BOX,         /* per category: box y_low..y_high, median y */
  PROCURA_SERIES_AREA,        /* filled from 0 to y */
} ProcuraSeriesKind;

typedef enum {
  PROCURA_DASH_AUTO = -1,
  PROCURA_DASH_SOLID = 0,
  PROCURA_DASH_DASHED,
  PROCURA_DASH_DOTTED,
  PROCURA_DASH_DASH_DOT,
  PROCURA_DASH_LONG_DASH,
  PROCURA_N_DASHES
} ProcuraDash;

typedef enum {
  PROCURA_MARKER_AUTO = -1,
  PROCURA_MARKER_NONE = 0,
  PROCURA_MARKER_CIRCLE,
  PROCURA_MARKER_SQUARE,
  PROCURA_MARKER_TRIANGLE,
  PROCURA_MARKER_DIAMOND,
  PROCURA_MARKER_CROSS,
  PROCURA_MARKER_PLUS,
  PROCURA_N_MARKERS
} ProcuraMarker;

typedef enum {
  PROCURA_LEGEND_NONE = 0,
  PROCURA_LEGEND_BOTTOM,      /* below the plot, flowing in rows (the default) */
  PROCURA_LEGEND_RIGHT,       /* right of the plot, one entry per line */
  PROCURA_LEGEND_TOP_LEFT,    /* inside the plot */
  PROCURA_LEGEND_TOP_RIGHT,
  PROCURA_LEGEND_BOTTOM_LEFT,
  PROCURA_LEGEND_BOTTOM_RIGHT,
} ProcuraLegendPosition;

typedef enum {
  PROCURA_ORIENTATION_VERTICAL = 0,   /* bars grow upwards, categories along x */
  PROCURA_ORIENTATION_HORIZONTAL,     /* bars grow rightwards, categories down the y side */
} ProcuraOrientation;

typedef enum {
  PROCURA_AXIS_X = 0,
  PROCURA_AXIS_Y = 1,
} ProcuraAxisId;

typedef struct _ProcuraChart       ProcuraChart;
typedef struct _ProcuraChartSeries ProcuraChartSeries;

ProcuraChart *procura_chart_new   (void);
ProcuraChart *procura_chart_ref   (ProcuraChart *chart);
void          procura_chart_unref (ProcuraChart *chart);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraChart, procura_chart_unref)

void procura_chart_set_title    (ProcuraChart *chart, const char *title);
void procura_chart_set_subtitle (ProcuraChart *chart, const char *subtitle);
const char *procura_chart_get_title (const ProcuraChart *chart);
const char *procura_chart_get_subtitle (const ProcuraChart *chart);
/* A message drawn centred in the plot ("No benchmark runs yet"); a chart without
 * drawable data shows it (or "No data") instead of empty axes. */
void procura_chart_set_message  (ProcuraChart *chart, const char *message);
/* Says what the chart shows in the summary, e.g. "cost per accepted response". */
void procura_chart_set_description (ProcuraChart *chart, const char *description);

/* Axes. For bar charts the X axis names the categories and the Y axis holds the values,
 * whatever the orientation. min/max NAN = automatic. */
/* The currency money axes are written in (PROCURA_UNIT_DOLLARS): @symbol before the
 * figure ("€1.2k"), or, when @symbol is NULL, @code after it ("1.2k CHF"). Both NULL:
 * "$". The caller picks them (the chart knows no currencies). */
void procura_chart_set_currency   (ProcuraChart      *chart,
                                   const char        *symbol,
                                   const char        *code);
/* A money figure as the chart writes it, in its currency: "€0.97". Free with g_free(). */
char *procura_chart_format_money  (const ProcuraChart *chart,
                                   double              value);
void procura_chart_set_axis       (ProcuraChart      *chart,
                                   ProcuraAxisId      axis,
                                   const char        *label,
                                   ProcuraChartUnit   unit,
                                   ProcuraChartScale  scale);
void procura_chart_set_axis_range (ProcuraChart *chart,
                                   ProcuraAxisId axis,
                                   double        min,
                                   double        max);
/* Automatic ranges of this axis reach zero (default: FALSE; bar values always do). */
void procura_chart_set_axis_include_zero (ProcuraChart *chart,
                                          ProcuraAxisId axis,
                                          gboolean      include_zero);

void procura_chart_set_legend      (ProcuraChart *chart, ProcuraLegendPosition position);
void procura_chart_set_orientation (ProcuraChart *chart, ProcuraOrientation orientation);
/* Category labels for bar and box series (copied). */
void procura_chart_set_categories  (ProcuraChart       *chart,
                                    const char * const *labels,
                                    guint               n);
/* Strikes a category out (label struck through, bars faded) and says why. */
void procura_chart_set_category_struck_out (ProcuraChart *chart,
                                            guint         category,
                                            const char   *reason);
/* Labels each bar (or stack) with its total. */
void procura_chart_set_bar_totals  (ProcuraChart *chart, gboolean totals);
/* BAR series share one slot per category instead of standing side by side (tornado). */
void procura_chart_set_bars_overlap (ProcuraChart *chart, gboolean overlap);

/* Adds a series; the arrays are copied (x may be NULL: 0, 1, 2, ...; for bar and box
 * series x is ignored and y has one value per category). NAN y breaks a line. */
ProcuraChartSeries *procura_chart_add_series (ProcuraChart      *chart,
                                              ProcuraSeriesKind  kind,
                                              const char        *name,
                                              const double      *x,
                                              const double      *y,
                                              gsize              n);
/* As above but takes ownership of g_malloc'ed arrays (for large series). */
ProcuraChartSeries *procura_chart_add_series_take (ProcuraChart      *chart,
                                                   ProcuraSeriesKind  kind,
                                                   const char        *name,
                                                   double            *x,
                                                   double            *y,
                                                   gsize              n);
/* Low and high values (bands, error bars, boxes, floating bars); copied. */
void procura_chart_series_set_range     (ProcuraChartSeries *series,
                                         const double       *y_low,
                                         const double       *y_high);
/* Colour index into the theme palette (-1: by series order). Series that share an index
 * across figures share a colour, and (when AUTO) a dash and a marker. */
void procura_chart_series_set_color     (ProcuraChartSeries *series, int color_index);
void procura_chart_series_set_dash      (ProcuraChartSeries *series, ProcuraDash dash);
void procura_chart_series_set_marker    (ProcuraChartSeries *series, ProcuraMarker marker);
/* Drawn faded, struck through in the legend, with the reason ("misses 800 ms"). */
void procura_chart_series_set_struck_out (ProcuraChartSeries *series,
                                          gboolean            struck_out,
                                          const char         *reason);
/* An estimate: lines dashed, bars hatched, "(estimate)" in the legend. */
void procura_chart_series_set_estimate  (ProcuraChartSeries *series, gboolean estimate);
/* Leaves the series out of the legend (helper series such as a band's twin). */
void procura_chart_series_set_in_legend (ProcuraChartSeries *series, gboolean in_legend);
/* A line whose segments are straight in data space: on a log axis each is drawn as the
 * curve of linear interpolation between its two points, so that a value read off the
 * data by linear interpolation lies on the drawn line. Default FALSE (straight on screen). */
void procura_chart_series_set_data_space (ProcuraChartSeries *series, gboolean data_space);
/* The unit of the values in the data table and summary (defaults to the axis unit). */
guint       procura_chart_get_n_series   (const ProcuraChart *chart);
/* TRUE when series @index has an entry in the legend (and so can be toggled). */
gboolean    procura_chart_series_get_in_legend (const ProcuraChart *chart,
                                                guint               index);
const char *procura_chart_series_get_name (const ProcuraChart *chart, guint index);
gsize       procura_chart_series_get_n_points (const ProcuraChart *chart, guint index);
gboolean    procura_chart_series_get_point    (const ProcuraChart *chart,
                                               guint               series,
                                               gsize               index,
                                               double             *x,
                                               double             *y);

/* The y that the drawn line (or step) of series @series has at @x, following the axes'
 * scales (or data space, see procura_chart_series_set_data_space); FALSE when @x is
 * outside the series or it is not a line. */
gboolean    procura_chart_series_value_at (const ProcuraChart *chart,
                                           guint               series,
                                           double              x,
                                           double             *y);

/* Annotations, all in data coordinates. */
/* A threshold across the plot at y (target lines). */
void procura_chart_add_hline   (ProcuraChart *chart, double y, const char *label);
/* A vertical line at x. */
void procura_chart_add_vline   (ProcuraChart *chart, double x, const char *label);
/* A ringed point with a label beside it (crossing points, capacity at target). */
void procura_chart_add_marker  (ProcuraChart *chart, double x, double y, const char *label);
/* The markers in the order they were added (tests, tooltips): how many, and the @i-th's
 * position and label (NULL when it has none). */
guint procura_chart_get_n_markers (const ProcuraChart *chart);
void  procura_chart_get_marker    (const ProcuraChart *chart,
                                   guint               i,
                                   double             *x,
                                   double             *y,
                                   const char        **label);
/* A plain text label beside (x, y), placed clear of other labels (direct labels). */
void procura_chart_add_label   (ProcuraChart *chart, double x, double y, const char *text);
/* A text box with a leader line to (x, y). */
void procura_chart_add_callout (ProcuraChart *chart, double x, double y, const char *text);
/* A shaded region; NAN bounds reach the edge of the plot. */
void procura_chart_add_shaded  (ProcuraChart *chart,
                                double        x0,
                                double        x1,
                                double        y0,
                                double        y1,
                                const char   *label);

/* ------------------------------------------------------------------------- */
/* Drawing, layout, lookup                                                    */

/* Where a chart's parts went in one draw: the plot rectangle, the scales, every text
 * box, and the caches of that size. The spec never keeps a draw; each place that draws
 * a chart (a view on screen, a slide, an export) owns its layout, so the hover of one
 * view never uses the geometry of another. */
typedef struct _ProcuraChartLayout ProcuraChartLayout;

ProcuraChartLayout *procura_chart_layout_new  (void);
void                procura_chart_layout_free (ProcuraChartLayout *layout);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraChartLayout, procura_chart_layout_free)

/* Legend toggles, kept by the view (the layout), never in the spec: a page's card and
 * a slide showing the same spec each hide their own series. The series called @name
 * (a legend entry; and the helper series of its colour that are not in the legend, such
 * as its band) is not drawn nor found by the point lookup or the keyboard steps with
 * this layout; its legend entry stays, dimmed. The axes keep their range so the chart
 * does not jump. Kept by name across draws, so the choice survives a rebuilt spec
 * (a new target or demand). A NULL layout (an export) hides nothing. */
void     procura_chart_layout_set_series_hidden (ProcuraChartLayout       *layout,
                                                 const char               *name,
                                                 gboolean                  hidden);
gboolean procura_chart_layout_get_series_hidden (const ProcuraChartLayout *layout,
                                                 const char               *name);
/* Makes @dest hide what @src hides (for an export of what a view shows). */
void     procura_chart_layout_copy_hidden       (ProcuraChartLayout       *dest,
                                                 const ProcuraChartLayout *src);

/* An area of the drawing the chart leaves free of text, such as the buttons a card
 * lays over the chart's top-right corner (in the draw's user space; x or y negative:
 * measured from the right or bottom edge). Kept across draws; width 0 clears it. */
void procura_chart_layout_set_reserved (ProcuraChartLayout *layout,
                                        double              x,
                                        double              y,
                                        double              width,
                                        double              height);

typedef struct {
  double x, y, width, height;   /* the plot area, in the draw's user space */
  double x_lo, x_hi, y_lo, y_hi;/* the data range the plot area shows */
  gboolean x_log, y_log;
  gboolean valid;               /* FALSE before the first draw */
} ProcuraChartPlot;

/* The plot of the layout's last draw (valid FALSE before one). */
ProcuraChartPlot procura_chart_layout_get_plot (const ProcuraChartLayout *layout);

typedef enum {
  PROCURA_CHART_TEXT_TITLE = 0,
  PROCURA_CHART_TEXT_SUBTITLE,
  PROCURA_CHART_TEXT_MESSAGE,
  PROCURA_CHART_TEXT_AXIS_TITLE,
  PROCURA_CHART_TEXT_TICK,
  PROCURA_CHART_TEXT_CATEGORY,
  PROCURA_CHART_TEXT_BAR_LABEL,
  PROCURA_CHART_TEXT_ANNOTATION,
  PROCURA_CHART_TEXT_NOTE_NUMBER,  /* the number of a label dropped to the notes */
  PROCURA_CHART_TEXT_LEGEND,
  PROCURA_CHART_TEXT_NOTE,         /* a dropped label, numbered, under the legend */
} ProcuraChartTextKind;

typedef struct {
  ProcuraChartTextKind kind;
  double               x, y, width, height; /* the box the text covers (with its halo) */
  const char          *text;                /* the whole text, also when it was ellipsized */
  gboolean             truncated;           /* drawn ellipsized */
  double               opacity;             /* of the theme's foreground it is drawn in */
} ProcuraChartTextBox;

/* Every text box of the last draw, in drawing order. */
guint                      procura_chart_layout_get_n_texts (const ProcuraChartLayout *layout);
const ProcuraChartTextBox *procura_chart_layout_get_text    (const ProcuraChartLayout *layout,
                                                             guint                     i);
/* The whole text of an ellipsized text box under (px, py), for a tooltip; NULL when
 * there is none. */
const char *procura_chart_layout_truncated_text_at (const ProcuraChartLayout *layout,
                                                    double                    px,
                                                    double                    py);

/* Draws the chart in the rectangle (0, 0, width, height) of @cr's user space and
 * records where everything went in @layout (may be NULL). */
void procura_chart_draw (ProcuraChart            *chart,
                         ProcuraChartLayout      *layout,
                         cairo_t                 *cr,
                         double                   width,
                         double                   height,
                         const ProcuraChartTheme *theme);

/* Data to pixel and back with a layout; FALSE before it was drawn. */
gboolean procura_chart_data_to_pixel (const ProcuraChartLayout *layout,
                                      double x, double y,
                                      double *px, double *py);
gboolean procura_chart_pixel_to_data (const ProcuraChartLayout *layout,
                                      double px, double py,
                                      double *x, double *y);

/* The data point nearest to pixel (px, py) within @max_distance pixels, over the
 * point-like series (line, step, scatter, error bar; bar and box by category), with
 * the geometry of @layout. FALSE when none is close enough, or when @layout was not
 * last drawn with @chart. */
gboolean procura_chart_nearest_point (const ProcuraChart       *chart,
                                      const ProcuraChartLayout *layout,
                                      double                    px,
                                      double                    py,
                                      double                    max_distance,
                                      guint                    *series,
                                      gsize                    *index);
/* Keyboard navigation: moves (series, index) by @delta points within the series
 * (clamped) or, with @delta_series, to the same x in the next/previous series,
 * skipping the series @layout hides (NULL: none hidden). FALSE when the chart has no
 * points. */
gboolean procura_chart_step_point (const ProcuraChart       *chart,
                                   const ProcuraChartLayout *layout,
                                   guint                    *series,
                                   gsize                    *index,
                                   int                       delta,
                                   int                       delta_series);
/* "H100 ×2: 21.3 req/s, 812 ms" for a tooltip. Free with g_free(). */
char *procura_chart_describe_point (const ProcuraChart *chart,
                                    guint               series,
                                    gsize               index);

/* One sentence for assistive technology: the kind, the axes with their ranges, the
 * series count and names, and the key annotations. Free with g_free(). */
char *procura_chart_summary (const ProcuraChart *chart);

/* The data as a table of strings: a header row, then one row per point (at most
 * @max_rows_per_series per series, evenly strided, 0 = all). Each row is a
 * NULL-terminated GStrv; free the array with g_ptr_array_unref(). */
GPtrArray *procura_chart_table (const ProcuraChart *chart,
                                gsize               max_rows_per_series);

/* ------------------------------------------------------------------------- */
/* Output                                                                     */

#define PROCURA_CHART_ERROR (procura_chart_error_quark ())
typedef enum {
  PROCURA_CHART_ERROR_WRITE,   /* the file could not be written */
  PROCURA_CHART_ERROR_SIZE,    /* a size or scale out of range */
  PROCURA_CHART_ERROR_FORMAT,  /* an unknown file extension */
} ProcuraChartError;
GQuark procura_chart_error_quark (void);

/* A PNG of width x height logical pixels at @scale device pixels per pixel. */
gboolean procura_chart_write_png (ProcuraChart            *chart,
                                  const char              *path,
                                  double                   width,
                                  double                   height,
                                  double                   scale,
                                  const ProcuraChartTheme *theme,
                                  GError                 **error);
/* PNG files written by a worker thread while the caller draws the next chart: _add
 * draws @chart (as procura_chart_write_png() would) and hands the pixels over to be
 * encoded and written to @path; _finish waits for every file and returns the first
 * failure (each file is written whole or not at all, as by procura_chart_write_png()).
 * _free waits too. */
typedef struct _ProcuraChartPngQueue ProcuraChartPngQueue;
ProcuraChartPngQueue *procura_chart_png_queue_new    (void);
gboolean              procura_chart_png_queue_add    (ProcuraChartPngQueue    *queue,
                                                      ProcuraChart            *chart,
                                                      const char              *path,
                                                      double                   width,
                                                      double                   height,
                                                      double                   scale,
                                                      const ProcuraChartTheme *theme,
                                                      GError                 **error);
gboolean              procura_chart_png_queue_finish (ProcuraChartPngQueue    *queue,
                                                      GError                 **error);
void                  procura_chart_png_queue_free   (ProcuraChartPngQueue    *queue);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraChartPngQueue, procura_chart_png_queue_free)
/* SVG and PDF sizes are in points. */
gboolean procura_chart_write_svg (ProcuraChart            *chart,
                                  const char              *path,
                                  double                   width,
                                  double                   height,
                                  const ProcuraChartTheme *theme,
                                  GError                 **error);
gboolean procura_chart_write_pdf (ProcuraChart            *chart,
                                  const char              *path,
                                  double                   width,
                                  double                   height,
                                  const ProcuraChartTheme *theme,
                                  GError                 **error);
/* One chart per page. */
gboolean procura_chart_write_pdf_pages (ProcuraChart * const  *charts,
                                        guint                  n_charts,
                                        const char            *path,
                                        double                 width,
                                        double                 height,
                                        const ProcuraChartTheme *theme,
                                        GError               **error);
/* Picks PNG (scale 1), SVG or PDF from the file name's extension. */
gboolean procura_chart_write_file (ProcuraChart            *chart,
                                   const char              *path,
                                   double                   width,
                                   double                   height,
                                   const ProcuraChartTheme *theme,
                                   GError                 **error);
/* The same, drawing what the view whose layout is @shown shows: the series it hides
 * are left out (NULL: everything). @shown itself is not changed. */
gboolean procura_chart_write_file_as_shown (ProcuraChart             *chart,
                                            const ProcuraChartLayout *shown,
                                            const char               *path,
                                            double                    width,
                                            double                    height,
                                            const ProcuraChartTheme  *theme,
                                            GError                  **error);

G_END_DECLS
