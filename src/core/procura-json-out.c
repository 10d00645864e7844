/* procura-json-out.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-json-out.h"

void
procura_json_add_number (JsonBuilder *b,
                         const char  *member,
                         double       v)
{
  json_builder_set_member_name (b, member);
  if (isfinite (v))
    json_builder_add_double_value (b, v);
  else
    json_builder_add_null_value (b);
}

void
procura_json_add_string (JsonBuilder *b,
                         const char  *member,
                         const char  *v)
{
  json_builder_set_member_name (b, member);
  if (v != NULL)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

void
procura_json_add_count (JsonBuilder *b,
                        const char  *member,
                        gint64       v)
{
  json_builder_set_member_name (b, member);
  if (v >= 0)
    json_builder_add_int_value (b, v);
  else
    json_builder_add_null_value (b);
}

/* json-glib 1.6 writes a double with "%.17g" and appends ".0" when the text has no
 * '.', so 1e20 comes out as "1e+20.0", which is not JSON. Outside strings, a number
 * whose exponent is followed by ".0" loses that ".0". */
void
procura_json_fix_numbers (char *text)
{
  gboolean in_string = FALSE;
  char *w = text;

  for (const char *r = text; *r != '\0'; )
    {
      if (in_string)
        {
          if (*r == '\\' && r[1] != '\0')
            {
              *w++ = *r++;
              *w++ = *r++;
              continue;
            }
          if (*r == '"')
            in_string = FALSE;
          *w++ = *r++;
          continue;
        }
      if (*r == '"')
        {
          in_string = TRUE;
          *w++ = *r++;
          continue;
        }
      if (*r == '-' || g_ascii_isdigit (*r))
        {
          const char *start = r;
          const char *e = NULL;

          while (*r == '-' || *r == '+' || *r == '.' || *r == 'e' || *r == 'E' || g_ascii_isdigit (*r))
            {
              if ((*r == 'e' || *r == 'E') && e == NULL)
                e = r;
              r++;
            }
          /* copy the token, dropping a '.' (and its digits) after the exponent */
          for (const char *t = start; t < r; t++)
            {
              if (e != NULL && t > e && *t == '.')
                break;
              *w++ = *t;
            }
          continue;
        }
      *w++ = *r++;
    }
  *w = '\0';
}

char *
procura_json_to_data (JsonNode *root,
                      gboolean  pretty)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  char *text;

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, pretty);
  text = json_generator_to_data (generator, NULL);
  procura_json_fix_numbers (text);
  return text;
}
