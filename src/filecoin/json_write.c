/* C1 writer: the JSON serde_json writes for SealCommitPhase1Output (compact,
 * field order of the Rust structs), optionally inside lotus-bench's envelope;
 * written to a temporary file and renamed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "czk/filecoin.h"
#include "filecoin/internal.h"

typedef struct sbuf {
    char *p;
    size_t len, cap;
    int oom;
} sbuf;

static void sb_reserve(sbuf *b, size_t extra)
{
    if (b->oom || b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->len + extra + 1) cap *= 2;
    char *np = realloc(b->p, cap);
    if (!np) {
        b->oom = 1;
        return;
    }
    b->p = np;
    b->cap = cap;
}

static void sb_put(sbuf *b, const char *s)
{
    size_t n = strlen(s);
    sb_reserve(b, n);
    if (b->oom) return;
    memcpy(b->p + b->len, s, n + 1);
    b->len += n;
}

static void sb_u64(sbuf *b, uint64_t v)
{
    char t[24];
    int n = 0;
    do {
        t[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sb_reserve(b, (size_t)n);
    if (b->oom) return;
    while (n) b->p[b->len++] = t[--n];
    b->p[b->len] = 0;
}

static void sb_bytes32(sbuf *b, const uint8_t v[32])
{
    sb_reserve(b, 32 * 4 + 2);
    if (b->oom) return;
    char *o = b->p + b->len;
    *o++ = '[';
    for (int i = 0; i < 32; i++) {
        unsigned x = v[i];
        if (i) *o++ = ',';
        if (x >= 100) *o++ = (char)('0' + x / 100);
        if (x >= 10) *o++ = (char)('0' + x / 10 % 10);
        *o++ = (char)('0' + x % 10);
    }
    *o++ = ']';
    *o = 0;
    b->len = (size_t)(o - b->p);
}

static void sb_fr(sbuf *b, const czk_fr *v)
{
    uint8_t t[32];
    czk_fr_to_bytes(t, v);
    sb_bytes32(b, t);
}

static void sb_fr_array(sbuf *b, const czk_fr *v, size_t n)
{
    sb_put(b, "[");
    for (size_t i = 0; i < n; i++) {
        if (i) sb_put(b, ",");
        sb_fr(b, &v[i]);
    }
    sb_put(b, "]");
}

static void put_path(sbuf *b, const czk_fc_shape *s, int is_tree_d, const czk_fc_merkle *m, uint32_t first,
                     uint32_t n, const czk_fr **sib)
{
    sb_put(b, "{\"path\":[");
    for (uint32_t l = first; l < first + n; l++) {
        uint32_t ar = czk__fc_arity(s, is_tree_d, l);
        if (l != first) sb_put(b, ",");
        sb_put(b, "{\"hashes\":");
        sb_fr_array(b, *sib, ar - 1);
        *sib += ar - 1;
        sb_put(b, ",\"index\":");
        sb_u64(b, czk__fc_level_digit(s, is_tree_d, m->index, l));
        sb_put(b, "}");
    }
    sb_put(b, "]}");
}

static void put_merkle(sbuf *b, const czk_fc_shape *s, int is_tree_d, const czk_fc_merkle *m)
{
    const czk_fr *sib = m->siblings;
    if (is_tree_d || !s->sub_arity) {
        sb_put(b, "{\"data\":{\"Single\":{\"root\":");
        sb_fr(b, &m->root);
        sb_put(b, ",\"leaf\":");
        sb_fr(b, &m->leaf);
        sb_put(b, ",\"path\":");
        put_path(b, s, is_tree_d, m, 0, czk__fc_levels(s, is_tree_d), &sib);
    } else {
        sb_put(b, s->top_arity ? "{\"data\":{\"Top\":{\"base_proof\":" : "{\"data\":{\"Sub\":{\"base_proof\":");
        put_path(b, s, 0, m, 0, s->base_height, &sib);
        sb_put(b, ",\"sub_proof\":");
        put_path(b, s, 0, m, s->base_height, 1, &sib);
        if (s->top_arity) {
            sb_put(b, ",\"top_proof\":");
            put_path(b, s, 0, m, s->base_height + 1, 1, &sib);
        }
        sb_put(b, ",\"root\":");
        sb_fr(b, &m->root);
        sb_put(b, ",\"leaf\":");
        sb_fr(b, &m->leaf);
    }
    sb_put(b, "}}}");
}

static void put_column(sbuf *b, const czk_fc_shape *s, const czk_fc_column_proof *c)
{
    sb_put(b, "{\"column\":{\"index\":");
    sb_u64(b, c->index);
    sb_put(b, ",\"rows\":");
    sb_fr_array(b, c->rows, s->layers);
    sb_put(b, ",\"_h\":null},\"inclusion_proof\":");
    put_merkle(b, s, 0, &c->proof);
    sb_put(b, "}");
}

static void put_labeling(sbuf *b, const czk_fc_labeling_proof *lp)
{
    sb_put(b, "{\"parents\":");
    sb_fr_array(b, lp->parents, CZK_FC_LABEL_PARENTS);
    sb_put(b, ",\"layer_index\":");
    sb_u64(b, lp->layer_index);
    sb_put(b, ",\"node\":");
    sb_u64(b, lp->node);
    sb_put(b, "}");
}

static void put_challenge(sbuf *b, const czk_fc_shape *s, const czk_fc_challenge_proof *p)
{
    sb_put(b, "{\"comm_d_proofs\":");
    put_merkle(b, s, 1, &p->comm_d);
    sb_put(b, ",\"comm_r_last_proof\":");
    put_merkle(b, s, 0, &p->comm_r_last);
    sb_put(b, ",\"replica_column_proofs\":{\"c_x\":");
    put_column(b, s, &p->c_x);
    sb_put(b, ",\"drg_parents\":[");
    for (int i = 0; i < CZK_FC_DRG_DEGREE; i++) {
        if (i) sb_put(b, ",");
        put_column(b, s, &p->drg[i]);
    }
    sb_put(b, "],\"exp_parents\":[");
    for (int i = 0; i < CZK_FC_EXP_DEGREE; i++) {
        if (i) sb_put(b, ",");
        put_column(b, s, &p->exp[i]);
    }
    sb_put(b, "]},\"labeling_proofs\":[");
    for (uint32_t l = 0; l < s->layers; l++) {
        if (l) sb_put(b, ",");
        put_labeling(b, &p->labeling[l]);
    }
    sb_put(b, "],\"encoding_proof\":");
    put_labeling(b, &p->encoding);
    sb_put(b, "}");
}

czk_status czk_fc_c1_to_json(char **out, size_t *len, const czk_fc_c1 *c)
{
    const czk_fc_shape *s = &c->shape;
    sbuf b = {0};
    sb_put(&b, "{\"registered_proof\":\"");
    sb_put(&b, czk_fc_proof_name(s->proof));
    sb_put(&b, "\",");
    if (s->proof == CZK_FC_PROOF_CUSTOM) {
        sb_put(&b, "\"czk_shape\":{\"nodes\":");
        sb_u64(&b, s->nodes);
        sb_put(&b, ",\"layers\":");
        sb_u64(&b, s->layers);
        sb_put(&b, ",\"partitions\":");
        sb_u64(&b, s->partitions);
        sb_put(&b, ",\"challenges\":");
        sb_u64(&b, s->challenges);
        sb_put(&b, ",\"tree\":[");
        sb_u64(&b, s->base_arity);
        if (s->sub_arity) {
            sb_put(&b, ",");
            sb_u64(&b, s->sub_arity);
        }
        if (s->top_arity) {
            sb_put(&b, ",");
            sb_u64(&b, s->top_arity);
        }
        sb_put(&b, "]},");
    }
    sb_put(&b, "\"vanilla_proofs\":{\"");
    sb_put(&b, czk_fc_proof_vanilla_key(s->proof));
    sb_put(&b, "\":[");
    for (uint32_t k = 0; k < s->partitions; k++) {
        sb_put(&b, k ? ",[" : "[");
        for (uint32_t i = 0; i < s->challenges; i++) {
            if (i) sb_put(&b, ",");
            put_challenge(&b, s, czk_fc_c1_proof(c, k, i));
        }
        sb_put(&b, "]");
    }
    sb_put(&b, "]},\"comm_r\":");
    sb_fr(&b, &c->comm_r);
    sb_put(&b, ",\"comm_d\":");
    sb_fr(&b, &c->comm_d);
    sb_put(&b, ",\"replica_id\":");
    sb_fr(&b, &c->replica_id);
    sb_put(&b, ",\"seed\":");
    sb_bytes32(&b, c->seed);
    sb_put(&b, ",\"ticket\":");
    sb_bytes32(&b, c->ticket);
    sb_put(&b, "}");
    if (b.oom) {
        free(b.p);
        return czk_error(CZK_ERR_NOMEM, "c1 JSON: out of memory at %zu bytes", b.len);
    }
    *out = b.p;
    *len = b.len;
    return CZK_OK;
}

czk_status czk_fc_c1_write(const czk_fc_c1 *c, const char *path)
{
    char *json;
    size_t len;
    CZK_TRY(czk_fc_c1_to_json(&json, &len, c));
    char *b64 = NULL;
    size_t blen = 0;
    czk_status s = CZK_OK;
    if (c->has_envelope) {
        b64 = malloc((len + 2) / 3 * 4 + 1);
        if (!b64) s = czk_error(CZK_ERR_NOMEM, "%s: base64 of %zu bytes", path, len);
        else blen = czk_fc_base64_encode(b64, (const uint8_t *)json, len);
    }
    char head[64], tail[64];
    snprintf(head, sizeof head, "{\"SectorNum\":%lld,\"Phase1Out\":\"", (long long)c->sector_num);
    snprintf(tail, sizeof tail, "\",\"SectorSize\":%llu}", (unsigned long long)c->shape.sector_size);
    const void *env[3] = {head, b64, tail}, *bare[1] = {json};
    const size_t env_len[3] = {strlen(head), blen, strlen(tail)}, bare_len[1] = {len};
    if (s == CZK_OK)
        s = c->has_envelope ? czk__write_atomic(path, env, env_len, 3) : czk__write_atomic(path, bare, bare_len, 1);
    free(b64);
    free(json);
    return s;
}
