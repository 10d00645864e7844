/* procura-candidate-section.c: one expander of a candidate whose rows are built when it
 * is first expanded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-candidate-section"

#include "config.h"

#include "procura-candidate-section.h"

struct _ProcuraCandidateSection
{
  AdwExpanderRow               parent_instance;

  char                        *kind;
  gint64                       candidate_id;
  ProcuraCandidateSectionFill  fill;
  gpointer                     fill_data;
  gboolean                     filled;
  GHashTable                  *expanded;   /* "kind:id" keys of the open sections */
};

G_DEFINE_FINAL_TYPE (ProcuraCandidateSection, procura_candidate_section, ADW_TYPE_EXPANDER_ROW)

static char *
section_key (ProcuraCandidateSection *self)
{
  return g_strdup_printf ("%s:%lld", self->kind != NULL ? self->kind : "", (long long) self->candidate_id);
}

static void
expanded_cb (ProcuraCandidateSection *self,
             GParamSpec              *pspec,
             gpointer                 data)
{
  gboolean open = adw_expander_row_get_expanded (ADW_EXPANDER_ROW (self));

  if (self->expanded != NULL)
    {
      if (open)
        g_hash_table_add (self->expanded, section_key (self));
      else
        {
          g_autofree char *key = section_key (self);
          g_hash_table_remove (self->expanded, key);
        }
    }
  if (open && !self->filled && self->fill != NULL)
    {
      self->filled = TRUE;
      self->fill (self, self->fill_data);
    }
}

GtkWidget *
procura_candidate_section_new (void)
{
  return g_object_new (PROCURA_TYPE_CANDIDATE_SECTION, NULL);
}

void
procura_candidate_section_setup (ProcuraCandidateSection     *self,
                                 const char                  *kind,
                                 gint64                       candidate_id,
                                 ProcuraCandidateSectionFill  fill,
                                 gpointer                     user_data)
{
  g_return_if_fail (PROCURA_IS_CANDIDATE_SECTION (self));
  g_free (self->kind);
  self->kind = g_strdup (kind);
  self->candidate_id = candidate_id;
  self->fill = fill;
  self->fill_data = user_data;
  /* Already open: fill now. */
  if (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (self)))
    expanded_cb (self, NULL, NULL);
}

void
procura_candidate_section_remember (ProcuraCandidateSection *self,
                                    GHashTable              *expanded)
{
  g_autofree char *key = NULL;

  g_return_if_fail (PROCURA_IS_CANDIDATE_SECTION (self));
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  key = section_key (self);
  /* Set before the table is kept: opening it here must not write it back. */
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (self), expanded != NULL && g_hash_table_contains (expanded, key));
  self->expanded = expanded != NULL ? g_hash_table_ref (expanded) : NULL;
}

gint64
procura_candidate_section_get_candidate_id (ProcuraCandidateSection *self)
{
  g_return_val_if_fail (PROCURA_IS_CANDIDATE_SECTION (self), 0);
  return self->candidate_id;
}

const char *
procura_candidate_section_get_kind (ProcuraCandidateSection *self)
{
  g_return_val_if_fail (PROCURA_IS_CANDIDATE_SECTION (self), NULL);
  return self->kind;
}

gboolean
procura_candidate_section_is_filled (ProcuraCandidateSection *self)
{
  g_return_val_if_fail (PROCURA_IS_CANDIDATE_SECTION (self), FALSE);
  return self->filled;
}

static void
procura_candidate_section_finalize (GObject *object)
{
  ProcuraCandidateSection *self = PROCURA_CANDIDATE_SECTION (object);

  g_clear_pointer (&self->kind, g_free);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  G_OBJECT_CLASS (procura_candidate_section_parent_class)->finalize (object);
}

static void
procura_candidate_section_class_init (ProcuraCandidateSectionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = procura_candidate_section_finalize;
}

static void
procura_candidate_section_init (ProcuraCandidateSection *self)
{
  g_signal_connect (self, "notify::expanded", G_CALLBACK (expanded_cb), NULL);
}
