/* The proving service's requests: circuit ids and the decoding of each
 * kind's payload (docs/cuzk-api.md, "Payloads per proof kind"). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/sha256.h"
#include "service/service_internal.h"

/* Every kind in the registry at every production sector size. */
static const uint64_t sizes[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
#define N_SIZES (sizeof sizes / sizeof sizes[0])
static svc_circuit circuits[4 * N_SIZES];
static char circuit_ids[4 * N_SIZES][32];
static size_t n_circuits;
static pthread_once_t circuits_once = PTHREAD_ONCE_INIT;

static void circuits_init(void)
{
    for (size_t i = 0; czk_proof_kind_at(i) && i < 4; i++) {
        const czk_proof_kind *k = czk_proof_kind_at(i);
        for (size_t j = 0; j < N_SIZES; j++) {
            if (czk_kind_circuit_id(circuit_ids[n_circuits], sizeof circuit_ids[0], k, sizes[j]) != CZK_OK) continue;
            circuits[n_circuits] = (svc_circuit){circuit_ids[n_circuits], (czk_svc_kind)k->wire_kind, sizes[j], k};
            n_circuits++;
        }
    }
    czk_error_clear();
}

const svc_circuit *czk__svc_circuits(size_t *n)
{
    pthread_once(&circuits_once, circuits_init);
    *n = n_circuits;
    return circuits;
}

const svc_circuit *czk__svc_circuit_find(const char *id)
{
    size_t n;
    const svc_circuit *c = czk__svc_circuits(&n);
    for (size_t i = 0; id && i < n; i++)
        if (!strcmp(c[i].id, id)) return &c[i];
    return NULL;
}

czk_status czk__svc_circuit_path(char *out, size_t cap, const char *dir, const svc_circuit *c)
{
    return czk_kind_param_path_of_size(out, cap, c->pk, dir, c->sector_size, ".params");
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
    const czk_proof_kind *pk = czk_proof_kind_of_wire((int)r->kind);
    if (!pk)
        return czk_error(CZK_ERR_INVALID_ARG, "proof_kind %d: wanted POREP_SEAL_COMMIT (1), SNAP_DEALS_UPDATE (2), "
                                              "WINDOW_POST_PARTITION (3) or WINNING_POST (4)",
                         (int)r->kind);
    czk_kind_request kr = {r->sector_size, r->registered_proof, r->sector_number, r->miner_id, r->partition_index,
                           r->vanilla_proof, r->vanilla_proofs, r->n_vanilla_proofs, r->randomness,
                           r->comm_r_old, r->comm_r_new, r->comm_d_new};
    CZK_TRY(pk->decode(&out->data, out->what, &kr));
    out->pk = pk;
    out->partitions = pk->partitions(out->data);
    if (czk_kind_circuit_id(out->circuit_id, sizeof out->circuit_id, pk, pk->sector_size(out->data)) != CZK_OK) {
        out->circuit_id[0] = 0; /* a custom shape: no circuit id */
        czk_error_clear();
    }
    return CZK_OK;
}

void czk__svc_payload_free(svc_payload *p)
{
    if (p->data && p->pk) p->pk->free_data(p->data);
    p->data = NULL;
}
