/* procura-chart-theme.c: the GNOME palette on light, dark and high-contrast backgrounds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "procura-chart.h"

#define RGB(hex) { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0, ((hex) & 0xff) / 255.0, 1.0 }

#define FONT "Cantarell, DejaVu Sans, Noto Sans, sans-serif"

/* Order matters: neighbours differ in hue and in lightness, so that the first series
 * stay apart for the common colour-vision deficiencies (blue / orange first), and every
 * series also gets its own dash and marker. Any two colours of a palette stay at least
 * 10 CIELAB units apart as seen with deuteranopia and protanopia (Machado et al. 2009);
 * tests/chart/test-chart-colours.c checks it, and that text has 4.5:1 contrast. */
static const ProcuraChartTheme light_theme = {
  .foreground = RGB (0x241f31),
  .background = RGB (0xffffff),
  .grid = { 0x24 / 255.0, 0x1f / 255.0, 0x31 / 255.0, 0.12 },
  .accent = RGB (0x1c71d8),
  .warning = RGB (0xc01c28),
  .palette = {
    RGB (0x1c71d8),   /* blue 4 */
    RGB (0xe66100),   /* orange 5 */
    RGB (0x813d9c),   /* purple 4 */
    RGB (0x26a269),   /* green 5 */
    RGB (0xc01c28),   /* red 4 */
    RGB (0x986a44),   /* brown 3 */
    RGB (0xe5a50a),   /* yellow 5 */
    RGB (0x5e5c64),   /* dark 2 */
    RGB (0x1f8a9c),   /* teal (libadwaita accent, darkened) */
    RGB (0xc2457f),   /* pink (libadwaita accent, darkened) */
  },
  .n_palette = 10,
  .font_family = FONT,
  .font_size = 13,
  .line_width = 2.0,
  .high_contrast = FALSE,
  .draw_background = TRUE,
};

static const ProcuraChartTheme dark_theme = {
  .foreground = RGB (0xffffff),
  .background = RGB (0x242424),
  .grid = { 1, 1, 1, 0.14 },
  .accent = RGB (0x78aeed),
  .warning = RGB (0xff7b63),
  .palette = {
    RGB (0x62a0ea),   /* blue 2 */
    RGB (0xffa348),   /* orange 2 */
    RGB (0xc061cb),   /* purple 2 */
    RGB (0x57e389),   /* green 2 */
    RGB (0xf66151),   /* red 2 */
    RGB (0xcdab8f),   /* brown 1 */
    RGB (0xf8e45c),   /* yellow 2 */
    RGB (0xc0bfbc),   /* light 4 */
    RGB (0x4fc3d6),   /* teal, lightened */
    RGB (0xdd7799),   /* pink, lightened (apart from light 4 for deuteranopes) */
  },
  .n_palette = 10,
  .font_family = FONT,
  .font_size = 13,
  .line_width = 2.0,
  .high_contrast = FALSE,
  .draw_background = TRUE,
};

static const ProcuraChartTheme high_contrast_theme = {
  .foreground = RGB (0x000000),
  .background = RGB (0xffffff),
  .grid = { 0, 0, 0, 0.30 },
  .accent = RGB (0x1a5fb4),
  .warning = RGB (0xa51d2d),
  .palette = {
    RGB (0x1a5fb4),   /* blue 5 */
    RGB (0xc64600),   /* orange 6 */
    RGB (0x613583),   /* purple 5 */
    RGB (0x26a269),   /* green 5 */
    RGB (0xa51d2d),   /* red 5 */
    RGB (0x5e5c64),   /* dark 2 (brown merged with red for protanopes) */
    RGB (0x1f8a9c),   /* teal (yellow merged with orange for deuteranopes) */
    RGB (0x000000),
    RGB (0x0b6e4f),   /* deep green */
    RGB (0xc2457f),   /* pink (libadwaita accent, darkened) */
  },
  .n_palette = 10,
  .font_family = FONT,
  .font_size = 13,
  .line_width = 2.5,
  .high_contrast = TRUE,
  .draw_background = TRUE,
};

const ProcuraChartTheme *
procura_chart_theme_light (void)
{
  return &light_theme;
}

const ProcuraChartTheme *
procura_chart_theme_dark (void)
{
  return &dark_theme;
}

const ProcuraChartTheme *
procura_chart_theme_high_contrast (void)
{
  return &high_contrast_theme;
}

const ProcuraChartTheme *
procura_chart_theme_by_name (const char *name)
{
  if (name == NULL || g_str_equal (name, "light"))
    return &light_theme;
  if (g_str_equal (name, "dark"))
    return &dark_theme;
  if (g_str_equal (name, "high-contrast") || g_str_equal (name, "hc"))
    return &high_contrast_theme;
  return NULL;
}

static int
hex_digit (char c)
{
  return g_ascii_xdigit_value (c);
}

gboolean
procura_chart_color_parse (const char        *spec,
                           ProcuraChartColor *color)
{
  gsize len;
  int v[8];

  if (spec == NULL || spec[0] != '#')
    return FALSE;
  spec++;
  len = strlen (spec);
  if (len != 6 && len != 8)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if ((v[i] = hex_digit (spec[i])) < 0)
      return FALSE;
  color->r = (v[0] * 16 + v[1]) / 255.0;
  color->g = (v[2] * 16 + v[3]) / 255.0;
  color->b = (v[4] * 16 + v[5]) / 255.0;
  color->a = len == 8 ? (v[6] * 16 + v[7]) / 255.0 : 1.0;
  return TRUE;
}
