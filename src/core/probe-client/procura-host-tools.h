/* procura-host-tools.h: run the host's ssh, kubectl, sbatch… also from inside a Flatpak
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Inside a Flatpak sandbox the app has no network permission and no cluster tools of
 * its own: it runs the host's tools through `flatpak-spawn --host` (the manifest grants
 * the org.freedesktop.Flatpak talk-name). Outside a sandbox the tools run as they are.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* TRUE inside a Flatpak sandbox (/.flatpak-info exists). Tests override the detection
 * with PROCURA_TEST_FLATPAK=1 or =0. */
gboolean procura_host_is_flatpak   (void);

/* @argv as it must be spawned: unchanged outside a Flatpak; inside one,
 * `flatpak-spawn --host [--env=NAME=VALUE…] ARGV…` with @environ (NAME=VALUE, may be
 * NULL) passed as --env (the host command does not inherit the sandbox's variables). */
GStrv    procura_host_wrap_argv    (const char * const *argv,
                                    const char * const *environ);

/* Whether @tool can be run: in PATH outside a Flatpak; on the host's PATH inside one
 * (asked through flatpak-spawn). The error says which tool is missing and where, in a
 * sentence for people. A @tool with a slash is checked as a path outside a Flatpak. */
gboolean procura_host_check_tool   (const char          *tool,
                                    GError             **error);

G_END_DECLS
