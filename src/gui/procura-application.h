/* procura-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PROCURA_TYPE_APPLICATION (procura_application_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraApplication, procura_application, PROCURA, APPLICATION, AdwApplication)

ProcuraApplication *procura_application_new (void);
int                 procura_application_run (int argc, char **argv);
/* The app's settings, or NULL when the schema is not installed (uninstalled dev runs). */
GSettings          *procura_application_get_settings (ProcuraApplication *self);

G_END_DECLS
