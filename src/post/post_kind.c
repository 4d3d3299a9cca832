/* WindowPoSt and WinningPoSt as proof kinds (czk/post_kind.h): the
 * FallbackPoSt partition circuit's sizes, synthesis and public inputs over a
 * vanilla proof, the shapes and v28 parameter names, and verification. One
 * job is one partition. The parallel plan and the shape for src/kinds'
 * generic code (witness sources, PCE, setup) are pce_post.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/post_kind.h"
#include "czk/post_vanilla.h"
#include "kinds/pce_kind.h"
#include "post/post_internal.h"

/* ---- circuit ------------------------------------------------------------------ */

static czk_status post_sizes(czk_cs_sizes *out, const czk_post_vanilla *v, uint32_t k, czk_post_kind want)
{
    if (v->shape.kind != want)
        return czk_error(CZK_ERR_INVALID_ARG, "%s job: the vanilla proof is a %s proof", czk_post_kind_name(want),
                         czk_post_kind_name(v->shape.kind));
    if (k != 0) return czk_error(CZK_ERR_INVALID_ARG, "partition %u of a PoSt job (it proves one, 0)", k);
    return czk__post_shape_ops.sizes(out, &v->shape);
}

static czk_status window_sizes(czk_cs_sizes *out, const void *data, uint32_t k)
{
    return post_sizes(out, data, k, CZK_POST_WINDOW);
}

static czk_status winning_sizes(czk_cs_sizes *out, const void *data, uint32_t k)
{
    return post_sizes(out, data, k, CZK_POST_WINNING);
}

static czk_status post_synth(czk_cs *cs, const void *data, uint32_t k)
{
    const czk_post_vanilla *v = data;
    if (k != 0) return czk_error(CZK_ERR_INVALID_ARG, "partition %u of a PoSt job (it proves one, 0)", k);
    return czk_post_synthesize(cs, &v->shape, v);
}

czk_status czk_post_public_derive(czk_fr *out, size_t n, const czk_post_public *pub)
{
    const czk_post_shape *s = &pub->shape;
    size_t want = czk_post_public_input_count(s);
    if (n != want)
        return czk_error(CZK_ERR_INVALID_ARG, "the verifying key has %zu public inputs, this %s circuit %zu", n + 1,
                         czk_post_kind_name(s->kind), want + 1);
    uint32_t per = czk_post_vanilla_sectors(s);
    if (pub->n == 0 || pub->n > per)
        return czk_error(CZK_ERR_INVALID_ARG, "%s public inputs: %u sectors, a partition holds 1 to %u",
                         czk_post_kind_name(s->kind), pub->n, per);
    uint32_t c = s->sector_challenges;
    uint64_t *leaves = malloc((size_t)pub->n * c * sizeof *leaves);
    if (!leaves) return czk_error(CZK_ERR_NOMEM, "PoSt public inputs");
    for (uint32_t i = 0; i < pub->n; i++)
        for (uint32_t j = 0; j < c; j++) {
            uint64_t ci = czk_post_challenge_index(s->api, (uint64_t)pub->partition * per + i, c, j);
            leaves[(size_t)i * c + j] = czk_post_leaf_challenge(pub->randomness, pub->sector_ids[i], ci, s->tree.nodes);
        }
    czk_status st = czk_post_public_inputs(out, s, pub->comm_r, pub->n, leaves);
    free(leaves);
    return st;
}

/* pub of v; *ids and *comm_r are allocated here (the caller frees both). */
static czk_status public_of(czk_post_public *pub, uint64_t **ids, czk_fr **comm_r, const czk_post_vanilla *v)
{
    memset(pub, 0, sizeof *pub);
    pub->shape = v->shape;
    memcpy(pub->randomness, v->randomness, 32);
    pub->partition = v->partition;
    pub->n = v->n;
    *ids = malloc((v->n ? v->n : 1) * sizeof **ids);
    *comm_r = malloc((v->n ? v->n : 1) * sizeof **comm_r);
    if (!*ids || !*comm_r) return czk_error(CZK_ERR_NOMEM, "PoSt public inputs");
    for (uint32_t i = 0; i < v->n; i++) {
        (*ids)[i] = v->proofs[i].sector_id;
        (*comm_r)[i] = v->proofs[i].comm_r;
    }
    pub->sector_ids = *ids;
    pub->comm_r = *comm_r;
    return CZK_OK;
}

czk_status czk_post_vanilla_public_inputs(czk_fr *out, size_t n, const czk_post_vanilla *v)
{
    czk_post_public pub;
    uint64_t *ids = NULL;
    czk_fr *comm_r = NULL;
    czk_status st = public_of(&pub, &ids, &comm_r, v);
    if (st == CZK_OK) st = czk_post_public_derive(out, n, &pub);
    free(ids);
    free(comm_r);
    return st;
}

static czk_status post_inputs(czk_fr *out, size_t n, const void *data, uint32_t k)
{
    if (k != 0) return czk_error(CZK_ERR_INVALID_ARG, "partition %u of a PoSt job (it proves one, 0)", k);
    return czk_post_vanilla_public_inputs(out, n, data);
}

static const czk_engine_circuit window_circuit = {"window-post", window_sizes, post_synth, post_inputs};
static const czk_engine_circuit winning_circuit = {"winning-post", winning_sizes, post_synth, post_inputs};

static uint32_t post_partitions(const void *data)
{
    (void)data;
    return 1;
}

/* ---- shapes ------------------------------------------------------------------------ */

static czk_status shape_resolve(void **out, const czk_shape_spec *a, czk_post_kind k)
{
    const char *kind = czk_post_kind_name(k);
    *out = NULL;
    if (a->layers || a->partitions)
        return czk_error(CZK_ERR_INVALID_ARG, "--layers and --partitions are PoRep options; %s takes --sectors and "
                         "--challenges", kind);
    const int custom_tree = a->nodes || a->tree[0];
    if (a->sector_size && custom_tree)
        return czk_error(CZK_ERR_INVALID_ARG, "give either --sector-size or --nodes and --tree, not both");
    if (!a->sector_size && !custom_tree)
        return czk_error(CZK_ERR_INVALID_ARG, "%s needs --sector-size S (or --nodes N --tree B[,S[,T]])", kind);
    if (custom_tree && (!a->nodes || !a->tree[0] || !a->sectors || !a->challenges))
        return czk_error(CZK_ERR_INVALID_ARG, "a custom %s shape needs --nodes, --tree, --sectors and --challenges",
                         kind);
    czk_post_shape *s = malloc(sizeof *s);
    if (!s) return czk_error(CZK_ERR_NOMEM, "a PoSt shape");
    czk_status st;
    if (a->sector_size) {
        st = czk_post_shape_of(s, k, a->sector_size);
        /* --sectors / --challenges shorten a production shape (tests) */
        if (st == CZK_OK && (a->sectors || a->challenges))
            st = czk_post_shape_custom(s, k, s->tree.nodes, s->tree.base_arity, s->tree.sub_arity, s->tree.top_arity,
                                       a->sectors ? a->sectors : s->sectors,
                                       a->challenges ? a->challenges : s->challenges);
    } else {
        st = czk_post_shape_custom(s, k, a->nodes, a->tree[0], a->tree[1], a->tree[2], a->sectors, a->challenges);
    }
    if (st != CZK_OK) {
        free(s);
        return st;
    }
    *out = s;
    return CZK_OK;
}

static czk_status window_shape_resolve(void **out, const czk_shape_spec *a)
{
    return shape_resolve(out, a, CZK_POST_WINDOW);
}

static czk_status winning_shape_resolve(void **out, const czk_shape_spec *a)
{
    return shape_resolve(out, a, CZK_POST_WINNING);
}

static const void *post_shape_of(const void *data) { return &((const czk_post_vanilla *)data)->shape; }

static void post_shape_name(char *out, size_t cap, const void *shape)
{
    const czk_post_shape *s = shape;
    const char *kind = s->kind == CZK_POST_WINNING ? "winning-post" : "window-post";
    if (s->tree.proof == CZK_FC_PROOF_CUSTOM)
        snprintf(out, cap, "%s (custom)", kind);
    else
        snprintf(out, cap, "%s %lluB", kind, (unsigned long long)(s->tree.nodes * 32));
}

static czk_status post_param_path(char *out, size_t cap, const char *dir, const void *shape, const char *ext)
{
    return czk_post_param_path(out, cap, dir, shape, ext);
}

/* ---- generation (czk demo, benchmarks) ---------------------------------------------- */

/* A consistent partition 0: a production shape as czk gen-post writes it
 * (every sector of a WindowPoSt partition; WinningPoSt's one of a set of
 * one); a custom shape with the leaves its randomness challenges. */
static czk_status post_generate(void **out, const void *shape, uint64_t seed)
{
    const czk_post_shape *s = shape;
    *out = NULL;
    czk_post_vanilla *v = calloc(1, sizeof *v);
    if (!v) return czk_error(CZK_ERR_NOMEM, "vanilla proofs");
    czk_status st;
    if (s->tree.proof != CZK_FC_PROOF_CUSTOM) {
        czk_post_json m;
        const uint32_t n = s->kind == CZK_POST_WINNING ? 1 : s->sectors;
        st = czk_post_gen(v, &m, s, n, s->kind == CZK_POST_WINNING ? 1 : n, seed);
        if (st == CZK_OK) czk_post_json_free(&m);
    } else {
        st = czk_post_gen_vanilla(v, s, seed, NULL);
        const uint32_t n = v->n, c = s->sector_challenges;
        uint64_t *leaves = st == CZK_OK ? malloc((size_t)n * c * sizeof *leaves) : NULL;
        if (st == CZK_OK && !leaves) st = czk_error(CZK_ERR_NOMEM, "challenged leaves");
        for (uint32_t i = 0; st == CZK_OK && i < n; i++)
            for (uint32_t j = 0; j < c; j++) leaves[(size_t)i * c + j] = czk_post_vanilla_challenge(v, i, j);
        czk_post_vanilla_free(v);
        if (st == CZK_OK) st = czk_post_gen_vanilla(v, s, seed, leaves);
        free(leaves);
    }
    if (st == CZK_OK) st = czk_post_vanilla_check(v);
    if (st != CZK_OK) {
        czk__post_free(v);
        return st;
    }
    *out = v;
    return CZK_OK;
}

#define POST_KIND_SHAPE_OPS                                                                                     \
    .plan = &czk__post_plan, .shape_ops = &czk__post_shape_ops, .shape_of = post_shape_of,                     \
    .shape_name = post_shape_name, .param_path = post_param_path, .free_data = czk__post_free,                 \
    .sector_size = czk__post_sector_size,                                                                       \
    .free_public = czk__post_free_public, .public_shape = czk__post_public_shape,                              \
    .public_partitions = czk__post_public_partitions, .public_name = czk__post_public_name,                    \
    .public_inputs = czk__post_public_inputs, .pick_flag = "--post", .input_flag = "--vanilla",             \
    .takes_partition = 0, .generate = post_generate

const czk_proof_kind czk_kind_window_post = {
    .name = "window-post",
    .summary = "WindowPoSt: one FallbackPoSt partition of a vanilla proof",
    .title = "WindowPoSt",
    .circuit = &window_circuit,
    .partitions = post_partitions,
    .shape_resolve = window_shape_resolve,
    .wire_kind = 3,
    .circuit_prefix = "wpost",
    .decode = czk__window_decode,
    .read = czk__window_read,
    .read_public = czk__window_read_public,
    .pick_value = "window",
    POST_KIND_SHAPE_OPS,
};

const czk_proof_kind czk_kind_winning_post = {
    .name = "winning-post",
    .summary = "WinningPoSt: the FallbackPoSt proof of a vanilla proof",
    .title = "WinningPoSt",
    .circuit = &winning_circuit,
    .partitions = post_partitions,
    .shape_resolve = winning_shape_resolve,
    .wire_kind = 4,
    .circuit_prefix = "winning",
    .decode = czk__winning_decode,
    .read = czk__winning_read,
    .read_public = czk__winning_read_public,
    .pick_value = "winning",
    POST_KIND_SHAPE_OPS,
};

const czk_proof_kind *czk_post_proof_kind(czk_post_kind k)
{
    return k == CZK_POST_WINNING ? &czk_kind_winning_post : &czk_kind_window_post;
}

/* ---- verification ------------------------------------------------------------------ */

czk_status czk_post_verify_public(const czk_groth16_vk *vk, const czk_post_public *pub,
                                  const czk_groth16_proof *proof)
{
    size_t n = czk_post_public_input_count(&pub->shape);
    if (vk->n_ic != n + 1)
        return czk_error(CZK_ERR_INVALID_ARG, "the verifying key has %zu public inputs, this %s circuit %zu",
                         vk->n_ic, czk_post_kind_name(pub->shape.kind), n + 1);
    czk_fr *inputs = malloc(n * sizeof *inputs);
    if (!inputs) return czk_error(CZK_ERR_NOMEM, "PoSt public inputs");
    czk_status s = czk_post_public_derive(inputs, n, pub);
    czk_groth16_pvk pvk;
    if (s == CZK_OK) s = czk_groth16_pvk_prepare(&pvk, vk);
    if (s == CZK_OK) s = czk_groth16_verify(&pvk, proof, inputs, n);
    free(inputs);
    return s;
}

czk_status czk_post_verify(const czk_groth16_vk *vk, const czk_post_vanilla *v, const czk_groth16_proof *proof)
{
    czk_post_public pub;
    uint64_t *ids = NULL;
    czk_fr *comm_r = NULL;
    czk_status st = public_of(&pub, &ids, &comm_r, v);
    if (st == CZK_OK) st = czk_post_verify_public(vk, &pub, proof);
    free(ids);
    free(comm_r);
    return st;
}
