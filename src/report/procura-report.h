/* procura-report.h: the decision record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "procura-figures.h"

G_BEGIN_DECLS

G_END_DECLS
