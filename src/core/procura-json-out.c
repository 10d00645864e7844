/* procura-json-out.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

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
