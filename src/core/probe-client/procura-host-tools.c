/* procura-host-tools.c: run the host's cluster tools, also from inside a Flatpak
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-host-tools.h"

gboolean
procura_host_is_flatpak (void)
{
  const char *test = g_getenv ("PROCURA_TEST_FLATPAK");

  if (test != NULL && *test != '\0')
    return g_str_equal (test, "1");
  return g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);
}

GStrv
procura_host_wrap_argv (const char * const *argv,
                        const char * const *environ)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  guint i;

  if (procura_host_is_flatpak ())
    {
      g_ptr_array_add (out, g_strdup ("flatpak-spawn"));
      g_ptr_array_add (out, g_strdup ("--host"));
      for (i = 0; environ != NULL && environ[i] != NULL; i++)
        if (strchr (environ[i], '=') != NULL)
          g_ptr_array_add (out, g_strdup_printf ("--env=%s", environ[i]));
    }
  for (i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (out, g_strdup (argv[i]));
  g_ptr_array_add (out, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

gboolean
procura_host_check_tool (const char  *tool,
                         GError     **error)
{
  if (procura_host_is_flatpak ())
    {
      const char *argv[] = { "flatpak-spawn", "--host", "sh", "-c", "command -v \"$1\" >/dev/null",
                             "sh", tool, NULL };
      g_autoptr(GError) local = NULL;
      int status = 0;

      if (!g_spawn_sync (NULL, (char **) argv, NULL,
                         G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                         NULL, NULL, NULL, NULL, &status, &local))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("Procura runs in a Flatpak and needs flatpak-spawn to run the host's %s, "
                         "but it could not be started: %s"), tool, local->message);
          return FALSE;
        }
      if (!g_spawn_check_wait_status (status, NULL))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("%s is not installed on the host system (Procura runs in a Flatpak and "
                         "uses the host's %s): install it there"), tool, tool);
          return FALSE;
        }
      return TRUE;
    }
  if (strchr (tool, '/') != NULL)
    {
      if (g_file_test (tool, G_FILE_TEST_IS_EXECUTABLE))
        return TRUE;
    }
  else
    {
      g_autofree char *found = g_find_program_in_path (tool);

      if (found != NULL)
        return TRUE;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               _("%s was not found (it is not in PATH): install it to probe through it"), tool);
  return FALSE;
}
