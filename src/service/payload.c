/* The proving service's requests: circuit ids and the decoding of each
 * kind's payload (docs/cuzk-api.md, "Payloads per proof kind"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/filecoin.h"
#include "czk/porep_kind.h"
#include "czk/sha256.h"
#include "czk/post_kind.h"
#include "czk/snap_kind.h"
#include "service/service_internal.h"

#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define GIB (1024ULL * MIB)

static const svc_circuit circuits[] = {
    {"porep-2k", CZK_SVC_POREP, 2 * KIB},          {"porep-8m", CZK_SVC_POREP, 8 * MIB},
    {"porep-512m", CZK_SVC_POREP, 512 * MIB},      {"porep-32g", CZK_SVC_POREP, 32 * GIB},
    {"porep-64g", CZK_SVC_POREP, 64 * GIB},        {"wpost-2k", CZK_SVC_WINDOW_POST, 2 * KIB},
    {"wpost-8m", CZK_SVC_WINDOW_POST, 8 * MIB},    {"wpost-512m", CZK_SVC_WINDOW_POST, 512 * MIB},
    {"wpost-32g", CZK_SVC_WINDOW_POST, 32 * GIB},  {"wpost-64g", CZK_SVC_WINDOW_POST, 64 * GIB},
    {"winning-2k", CZK_SVC_WINNING_POST, 2 * KIB}, {"winning-8m", CZK_SVC_WINNING_POST, 8 * MIB},
    {"winning-512m", CZK_SVC_WINNING_POST, 512 * MIB}, {"winning-32g", CZK_SVC_WINNING_POST, 32 * GIB},
    {"winning-64g", CZK_SVC_WINNING_POST, 64 * GIB}, {"snap-2k", CZK_SVC_SNAP, 2 * KIB},
    {"snap-8m", CZK_SVC_SNAP, 8 * MIB},            {"snap-512m", CZK_SVC_SNAP, 512 * MIB},
    {"snap-32g", CZK_SVC_SNAP, 32 * GIB},          {"snap-64g", CZK_SVC_SNAP, 64 * GIB},
};

const svc_circuit *czk__svc_circuits(size_t *n)
{
    *n = sizeof circuits / sizeof circuits[0];
    return circuits;
}

const svc_circuit *czk__svc_circuit_find(const char *id)
{
    for (size_t i = 0; id && i < sizeof circuits / sizeof circuits[0]; i++)
        if (!strcmp(circuits[i].id, id)) return &circuits[i];
    return NULL;
}

const char *czk__svc_circuit_id(czk_svc_kind k, uint64_t sector_size)
{
    for (size_t i = 0; i < sizeof circuits / sizeof circuits[0]; i++)
        if (circuits[i].kind == k && circuits[i].sector_size == sector_size) return circuits[i].id;
    return NULL;
}

czk_status czk__svc_circuit_path(char *out, size_t cap, const char *dir, const svc_circuit *c)
{
    if (c->kind == CZK_SVC_POREP) {
        czk_fc_shape s;
        CZK_TRY(czk_fc_shape_of_size(&s, c->sector_size));
        return czk_fc_param_path(out, cap, dir, s.proof, ".params");
    }
    if (c->kind == CZK_SVC_WINDOW_POST || c->kind == CZK_SVC_WINNING_POST) {
        czk_post_shape s;
        CZK_TRY(czk_post_shape_of(&s, c->kind == CZK_SVC_WINDOW_POST ? CZK_POST_WINDOW : CZK_POST_WINNING,
                                  c->sector_size));
        return czk_post_param_path(out, cap, dir, &s, ".params");
    }
    czk_snap_shape s;
    CZK_TRY(czk_snap_shape_of(&s, c->sector_size));
    return czk_snap_param_path(out, cap, dir, &s, ".params");
}

/* ---- PoRep: the C1 envelope ----------------------------------------------------------- */

static czk_status decode_porep(svc_payload *p, const czk_svc_request *r)
{
    if (!r->vanilla_proof.len)
        return czk_error(CZK_ERR_INVALID_ARG, "vanilla_proof: empty (a PoRep job carries the C1 output JSON)");
    czk_fc_c1 *c1 = malloc(sizeof *c1);
    if (!c1) return czk_error(CZK_ERR_NOMEM, "C1");
    czk_status st = czk_fc_c1_parse(c1, (const char *)r->vanilla_proof.data, r->vanilla_proof.len, "vanilla_proof");
    if (st != CZK_OK) {
        free(c1);
        return st;
    }
    if (r->sector_size && r->sector_size != c1->shape.sector_size) {
        unsigned long long a = (unsigned long long)r->sector_size, b = (unsigned long long)c1->shape.sector_size;
        czk_fc_c1_free(c1);
        free(c1);
        return czk_error(CZK_ERR_INVALID_ARG, "sector_size %llu, but the C1 is of a %llu-byte sector", a, b);
    }
    p->pk = &czk_kind_porep;
    p->data = c1;
    p->partitions = c1->shape.partitions;
    const char *id = czk__svc_circuit_id(CZK_SVC_POREP, c1->shape.sector_size);
    snprintf(p->circuit_id, sizeof p->circuit_id, "%s", id ? id : "");
    snprintf(p->what, sizeof p->what, "PoRep %s sector %lld", czk_fc_proof_name(c1->shape.proof),
             (long long)(c1->has_envelope ? c1->sector_num : (int64_t)r->sector_number));
    return CZK_OK;
}

/* ---- WindowPoSt / WinningPoSt: bincode sector proofs ------------------------------------ */

static const char *const size_names[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};

/* The registered PoSt proof's name from its number (Winning 0..4, Window
 * V1 5..9, Window V1_2 10..14). */
static czk_status post_proof_name(char *out, size_t cap, uint64_t n, czk_svc_kind want)
{
    if (n > 14) return czk_error(CZK_ERR_INVALID_ARG, "registered_proof %llu: not a PoSt proof (0 .. 14)",
                                 (unsigned long long)n);
    int winning = n < 5;
    if (winning != (want == CZK_SVC_WINNING_POST))
        return czk_error(CZK_ERR_INVALID_ARG, "registered_proof %llu is a %s proof, the request's proof_kind %s",
                         (unsigned long long)n, winning ? "WinningPoSt" : "WindowPoSt",
                         want == CZK_SVC_WINNING_POST ? "WINNING_POST" : "WINDOW_POST_PARTITION");
    snprintf(out, cap, "StackedDrg%s%s%s", winning ? "Winning" : "Window", size_names[n % 5], n >= 10 ? "V1_2" : "V1");
    return CZK_OK;
}

static czk_status decode_post(svc_payload *p, const czk_svc_request *r)
{
    char name[64];
    CZK_TRY(post_proof_name(name, sizeof name, r->registered_proof, r->kind));
    czk_post_shape s;
    CZK_TRY(czk_post_proof_shape(&s, name));
    if (r->sector_size && r->sector_size != s.tree.sector_size)
        return czk_error(CZK_ERR_INVALID_ARG, "sector_size %llu, but registered_proof %llu (%s) is of %llu-byte sectors",
                         (unsigned long long)r->sector_size, (unsigned long long)r->registered_proof, name,
                         (unsigned long long)s.tree.sector_size);
    if (r->randomness.len != 32)
        return czk_error(CZK_ERR_INVALID_ARG, "randomness: %zu bytes, wanted 32", r->randomness.len);
    if (r->n_vanilla_proofs == 0)
        return czk_error(CZK_ERR_INVALID_ARG, "vanilla_proofs: empty (one bincode sector proof per sector)");
    if (r->n_vanilla_proofs > UINT32_MAX) return czk_error(CZK_ERR_INVALID_ARG, "vanilla_proofs: too many");
    uint32_t n = (uint32_t)r->n_vanilla_proofs;
    const uint8_t **pp = malloc(n * sizeof *pp);
    size_t *lens = malloc(n * sizeof *lens);
    czk_post_vanilla *v = calloc(1, sizeof *v);
    if (!pp || !lens || !v) {
        free(pp);
        free(lens);
        free(v);
        return czk_error(CZK_ERR_NOMEM, "vanilla_proofs");
    }
    for (uint32_t i = 0; i < n; i++) {
        pp[i] = r->vanilla_proofs[i].data;
        lens[i] = r->vanilla_proofs[i].len;
    }
    uint8_t prover[32];
    czk_fc_prover_id(prover, r->miner_id);
    uint32_t part = r->kind == CZK_SVC_WINNING_POST ? 0 : r->partition_index;
    czk_status st = czk_post_vanilla_read(v, &s, pp, lens, n, r->randomness.data, prover, part);
    free(pp);
    free(lens);
    if (st != CZK_OK) {
        free(v);
        return czk_error_context(st, "vanilla_proofs (%s)", name);
    }
    st = czk_post_vanilla_check(v);
    if (st != CZK_OK) {
        czk_post_vanilla_free(v);
        free(v);
        return czk_error_context(st, "vanilla_proofs (%s)", name);
    }
    p->pk = czk_post_proof_kind(s.kind);
    p->data = v;
    p->partitions = 1;
    const char *id = czk__svc_circuit_id(r->kind, s.tree.sector_size);
    snprintf(p->circuit_id, sizeof p->circuit_id, "%s", id ? id : "");
    snprintf(p->what, sizeof p->what, "%s partition %u, %u sector%s", name, part, n, n > 1 ? "s" : "");
    return CZK_OK;
}

/* ---- SnapDeals: bincode partition proofs and the three commitments ------------------------ */

static czk_status decode_snap(svc_payload *p, const czk_svc_request *r)
{
    const struct { const char *name; const czk_svc_bytes *b; } comms[] = {
        {"comm_r_old", &r->comm_r_old}, {"comm_r_new", &r->comm_r_new}, {"comm_d_new", &r->comm_d_new}};
    for (size_t i = 0; i < 3; i++)
        if (comms[i].b->len != 32)
            return czk_error(CZK_ERR_INVALID_ARG, "%s: %zu bytes, wanted 32", comms[i].name, comms[i].b->len);
    if (r->registered_proof >= CZK_SNAP_UPDATE_PROOFS)
        return czk_error(CZK_ERR_INVALID_ARG, "registered_proof %llu: not an update proof (0 .. 4)",
                         (unsigned long long)r->registered_proof);
    czk_snap_shape s;
    CZK_TRY(czk_snap_shape_of_proof(&s, (int)r->registered_proof));
    const char *name = czk_snap_proof_name(s.update_proof);
    if (r->sector_size && r->sector_size != s.tree.sector_size)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "sector_size %llu, but registered_proof %llu (%s) is of %llu-byte sectors",
                         (unsigned long long)r->sector_size, (unsigned long long)r->registered_proof, name,
                         (unsigned long long)s.tree.sector_size);
    if (r->n_vanilla_proofs != s.partitions)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "vanilla_proofs: %zu partition proofs, a %s update has %u (one bincode PartitionProof each)",
                         (size_t)r->n_vanilla_proofs, name, s.partitions);
    const uint32_t n = s.partitions;
    const uint8_t **pp = malloc(n * sizeof *pp);
    size_t *lens = malloc(n * sizeof *lens);
    czk_snap_vanilla *v = calloc(1, sizeof *v);
    if (!pp || !lens || !v) {
        free(pp);
        free(lens);
        free(v);
        return czk_error(CZK_ERR_NOMEM, "vanilla_proofs");
    }
    for (uint32_t i = 0; i < n; i++) {
        pp[i] = r->vanilla_proofs[i].data;
        lens[i] = r->vanilla_proofs[i].len;
    }
    czk_status st = czk_snap_vanilla_read(v, &s, pp, lens, n, r->comm_r_old.data, r->comm_d_new.data,
                                          r->comm_r_new.data);
    free(pp);
    free(lens);
    if (st == CZK_OK) {
        st = czk_snap_vanilla_check(v);
        if (st != CZK_OK) czk_snap_vanilla_free(v);
    }
    if (st != CZK_OK) {
        free(v);
        return czk_error_context(st, "vanilla_proofs (%s)", name);
    }
    p->pk = &czk_kind_snap;
    p->data = v;
    p->partitions = n;
    const char *id = czk__svc_circuit_id(CZK_SVC_SNAP, s.tree.sector_size);
    snprintf(p->circuit_id, sizeof p->circuit_id, "%s", id ? id : "");
    snprintf(p->what, sizeof p->what, "SnapDeals %s update, %u partition%s", name, n, n > 1 ? "s" : "");
    return CZK_OK;
}

/* ---- request identity ------------------------------------------------------------------ */

static void digest_u64(czk_sha256_ctx *c, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    czk_sha256_update(c, b, sizeof b);
}

static void digest_bytes(czk_sha256_ctx *c, const czk_svc_bytes *b)
{
    digest_u64(c, b->len);
    if (b->len) czk_sha256_update(c, b->data, b->len);
}

void czk__svc_request_digest(uint8_t out[32], const czk_svc_request *r)
{
    czk_sha256_ctx c;
    czk_sha256_init(&c);
    static const char tag[] = "czk request v1";
    czk_sha256_update(&c, tag, sizeof tag);
    digest_u64(&c, (uint64_t)r->kind);
    digest_u64(&c, r->registered_proof);
    digest_u64(&c, r->sector_size);
    digest_u64(&c, r->sector_number);
    digest_u64(&c, r->miner_id);
    digest_u64(&c, r->partition_index);
    digest_bytes(&c, &r->randomness);
    digest_bytes(&c, &r->comm_r_old);
    digest_bytes(&c, &r->comm_r_new);
    digest_bytes(&c, &r->comm_d_new);
    digest_bytes(&c, &r->vanilla_proof);
    digest_u64(&c, r->n_vanilla_proofs);
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) digest_bytes(&c, &r->vanilla_proofs[i]);
    czk_sha256_final(&c, out);
}

czk_status czk__svc_payload_decode(svc_payload *out, const czk_svc_request *r)
{
    memset(out, 0, sizeof *out);
    out->kind = r->kind;
    switch (r->kind) {
    case CZK_SVC_POREP: return decode_porep(out, r);
    case CZK_SVC_WINDOW_POST:
    case CZK_SVC_WINNING_POST: return decode_post(out, r);
    case CZK_SVC_SNAP: return decode_snap(out, r);
    default:
        return czk_error(CZK_ERR_INVALID_ARG, "proof_kind %d: wanted POREP_SEAL_COMMIT (1), SNAP_DEALS_UPDATE (2), "
                                              "WINDOW_POST_PARTITION (3) or WINNING_POST (4)",
                         (int)r->kind);
    }
}

void czk__svc_payload_free(svc_payload *p)
{
    if (!p->data) return;
    if (p->kind == CZK_SVC_POREP) czk_fc_c1_free(p->data);
    else if (p->kind == CZK_SVC_SNAP) czk_snap_vanilla_free(p->data);
    else czk_post_vanilla_free(p->data);
    free(p->data);
    p->data = NULL;
}
