/* procura-model-catalog.h: model shapes from the catalog or from config.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model catalog is data/catalog/models.json compiled into a GResource, loaded
 * lazily on first use. Each entry holds the config.json facts of one model family
 * (base and instruct variants share one shape), its Hugging Face ids and its source.
 */
#pragma once

#include <glib.h>

#include "procura-model.h"
#include "procura-import.h"

G_BEGIN_DECLS

/* By Hugging Face id ("meta-llama/Llama-3.1-8B-Instruct") or the part after the
 * slash ("Llama-3.1-8B", "llama-3.1-8b-instruct"), case-insensitive, base and
 * instruct variants alike. Returns a copy (free with procura_model_shape_free) or
 * NULL when unknown; its id is the catalog entry's id ("meta-llama/Llama-3.1-8B" for
 * "Llama-3.1-8B-Instruct") and published_params the publisher's total. */
ProcuraModelShape  *procura_model_catalog_lookup (const char *id_or_name);
/* Every catalog shape (new array of copies, free with g_ptr_array_unref). */
GPtrArray          *procura_model_catalog_all    (void);
/* The Hugging Face ids one catalog entry answers to (NULL-terminated, owned by the
 * catalog), NULL when @id_or_name is unknown. */
const char * const *procura_model_catalog_aliases (const char *id_or_name);
/* Source URL of the catalog entry, NULL when unknown. */
const char         *procura_model_catalog_source (const char *id_or_name);

/* Reads a Hugging Face config.json: dense, MoE (Mixtral num_local_experts, Qwen-MoE
 * num_experts/moe_intermediate_size, DeepSeek n_routed_experts/n_shared_experts/
 * first_k_dense_replace), MLA (kv_lora_rank, q_lora_rank, qk_*_head_dim, v_head_dim),
 * sliding windows (sliding_window, gemma-2 alternation, gemma-3
 * sliding_window_pattern, layer_types), quantization_config (fp8, mxfp4, awq/gptq
 * with bits and group_size) and text_config nesting. @name is the model id to store
 * (may be NULL: then "_name_or_path" or the architecture). Errors are
 * PROCURA_IMPORT_ERROR_SYNTAX / _SCHEMA naming the key. */
ProcuraModelShape  *procura_model_shape_from_config_json (const char  *name,
                                                          const char  *json,
                                                          gsize        len,
                                                          GError     **error);

/* procura_model_shape_from_config_json() of the file at @path, read as the importers
 * read (a FIFO or a device refused before a byte is read, the size bounded). */
ProcuraModelShape  *procura_model_shape_load_config_json  (const char  *path,
                                                          GError     **error);

/* Parameter count computed from the shape: embeddings, attention (incl. MLA
 * projections and biases where the architecture has them), MLP or experts (incl.
 * shared experts and routers), norms, and lm_head unless tied. Total parameters,
 * not active ones. */
double              procura_model_shape_param_count        (const ProcuraModelShape *m);
/* Parameters used per token (MoE: only experts_per_token routed experts). */
double              procura_model_shape_active_param_count (const ProcuraModelShape *m);

/* Importer for Hugging Face config.json files ("hf-config"). */
extern const ProcuraImporter procura_importer_hf_config;

G_END_DECLS
