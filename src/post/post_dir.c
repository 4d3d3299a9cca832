/* A vanilla PoSt directory as `czk-oracle vanilla-post -o DIR` writes it
 * (czk/post_kind.h): DIR/post-KIND.json (the public data) and
 * DIR/vanilla-KIND.bin (the sector proofs, bincode, one after another). The
 * loader was bench_synth_post.c's; czk prove --post and czk bench
 * synth-only --vanilla share it now. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "czk/czk.h"
#include "czk/post_kind.h"
#include "czk/post_vanilla.h"
#include "common/fileio.h"
#include "post/post_internal.h"

static const char *short_name(czk_post_kind k) { return k == CZK_POST_WINNING ? "winning" : "window"; }

czk_status czk_post_dir_json(czk_post_json *m, czk_post_kind k, const char *dir)
{
    char path[1024];
    int n = snprintf(path, sizeof path, "%s/post-%s.json", dir, short_name(k));
    if (n < 0 || (size_t)n >= sizeof path) return czk_error(CZK_ERR_INVALID_ARG, "vanilla directory %s: path too long", dir);
    CZK_TRY(czk_post_json_read(m, path));
    if (m->shape.kind != k) {
        czk_status s = czk_error(CZK_ERR_FORMAT, "%s: registered_post_proof %s is a %s proof, not %s", path, m->proof,
                                 czk_post_kind_name(m->shape.kind), czk_post_kind_name(k));
        czk_post_json_free(m);
        return s;
    }
    return CZK_OK;
}

czk_status czk_post_dir_read(czk_post_vanilla *v, czk_post_json *out, czk_post_kind k, const char *dir)
{
    char jp[4096], bp[4096];
    snprintf(jp, sizeof jp, "%s/post-%s.json", dir, short_name(k));
    snprintf(bp, sizeof bp, "%s/vanilla-%s.bin", dir, short_name(k));
    memset(v, 0, sizeof *v);
    memset(out, 0, sizeof *out);
    czk_post_json j;
    CZK_TRY(czk_post_dir_json(&j, k, dir));
    czk_post_shape shape = j.shape;
    const czk_post_shape *s = &shape;
    czk_status st = CZK_OK;
    uint8_t *bin = NULL;
    const uint8_t **ptr = NULL;
    size_t *len = NULL;
    const size_t one = czk_post_sector_proof_bytes(&s->tree, s->sector_challenges);
    char why[4400];
    snprintf(why, sizeof why, "%u sector proof(s) of %zu bytes for %s's %s", j.n_sectors, one, jp, j.proof);
    st = czk__read_exact(&bin, bp, one * j.n_sectors, why);
    if (st != CZK_OK) goto out;
    ptr = malloc(j.n_sectors * sizeof *ptr);
    len = malloc(j.n_sectors * sizeof *len);
    if (!ptr || !len) {
        st = czk_error(CZK_ERR_NOMEM, "%s: %u sector proofs", bp, j.n_sectors);
        goto out;
    }
    for (uint32_t i = 0; i < j.n_sectors; i++) ptr[i] = bin + (size_t)i * one, len[i] = one;
    st = czk_post_vanilla_read(v, s, ptr, len, j.n_sectors, j.randomness, j.prover_id, 0);
    if (st != CZK_OK) {
        st = czk_error_context(st, "%s", bp);
        goto out;
    }
    for (uint32_t i = 0; i < v->n && st == CZK_OK; i++) {
        const czk_post_sector_proof *p = &v->proofs[i];
        uint8_t cr[32];
        czk_fr_to_bytes(cr, &p->comm_r);
        if (p->sector_id != j.sector_ids[i])
            st = czk_error(CZK_ERR_FORMAT, "%s: sector proof %u is of sector %llu; %s: sector_ids[%u] is %llu", bp, i,
                           (unsigned long long)p->sector_id, jp, i, (unsigned long long)j.sector_ids[i]);
        else if (memcmp(cr, j.comm_r[i], 32) != 0)
            st = czk_error(CZK_ERR_FORMAT, "%s: sector proof %u (sector %llu): comm_r differs from %s: comm_r[%u]", bp,
                           i, (unsigned long long)p->sector_id, jp, i);
        for (uint32_t c = 0; c < p->n_inclusion && st == CZK_OK; c++) {
            const size_t ci = (size_t)i * s->sector_challenges + c;
            if (p->inclusion[c].index != j.challenges[ci])
                st = czk_error(CZK_ERR_FORMAT, "%s: sector proof %u (sector %llu), challenge %u: proves leaf %llu; %s: "
                               "challenges[%zu] is %llu", bp, i, (unsigned long long)p->sector_id, c,
                               (unsigned long long)p->inclusion[c].index, jp, ci, (unsigned long long)j.challenges[ci]);
        }
    }
    if (st == CZK_OK) {
        st = czk_post_vanilla_check(v);
        if (st != CZK_OK) st = czk_error_context(st, "%s: the native check", bp);
    }
out:
    if (st != CZK_OK) czk_post_vanilla_free(v);
    free(bin);
    free(ptr);
    free(len);
    if (st == CZK_OK) *out = j;
    else czk_post_json_free(&j);
    return st;
}

czk_status czk_post_json_verify(const czk_groth16_vk *vk, const czk_post_json *m, const czk_groth16_proof *proof)
{
    return czk_kind_verify(vk, czk_post_proof_kind(m->shape.kind), m, proof, NULL, 1);
}

czk_status czk_post_dir_write(const char *dir, const czk_post_vanilla *v, const czk_post_json *m, uint64_t *bytes)
{
    const czk_post_shape *s = &v->shape;
    if (m->n_sectors != v->n || m->shape.kind != s->kind || m->n_challenges != v->n * s->sector_challenges)
        return czk_error(CZK_ERR_INVALID_ARG, "post dir %s: the JSON's %u sectors / %u challenges and the %u vanilla "
                         "sector proofs differ", dir, m->n_sectors, m->n_challenges, v->n);
    for (uint32_t i = 0; i < v->n; i++) {
        const czk_post_sector_proof *p = &v->proofs[i];
        uint8_t cr[32];
        czk_fr_to_bytes(cr, &p->comm_r);
        int same = p->sector_id == m->sector_ids[i] && !memcmp(cr, m->comm_r[i], 32);
        for (uint32_t c = 0; same && c < p->n_inclusion; c++)
            same = p->inclusion[c].index == m->challenges[(size_t)i * s->sector_challenges + c];
        if (!same)
            return czk_error(CZK_ERR_INVALID_ARG, "post dir %s: sector proof %u (sector %llu) differs from the JSON's",
                             dir, i, (unsigned long long)p->sector_id);
    }
    int made = 0; /* this call made dir: a failure removes it again */
    CZK_TRY(czk__mkdirs_made(dir, 0777, &made));
    char jp[4096], bp[4096];
    snprintf(jp, sizeof jp, "%s/post-%s.json", dir, short_name(s->kind));
    snprintf(bp, sizeof bp, "%s/vanilla-%s.bin", dir, short_name(s->kind));
    const size_t one = czk_post_sector_proof_bytes(&s->tree, s->sector_challenges);
    uint8_t *bin = malloc(one * v->n);
    if (!bin) return czk_error(CZK_ERR_NOMEM, "%s: %u sector proofs of %zu bytes", bp, v->n, one);
    czk_status st = CZK_OK;
    for (uint32_t i = 0; i < v->n && st == CZK_OK; i++) {
        size_t len = 0;
        st = czk_post_sector_proof_encode(bin + (size_t)i * one, one, &len, &v->proofs[i], &s->tree);
        if (st == CZK_OK && len != one)
            st = czk_error(CZK_ERR_INTERNAL, "%s: sector proof %u encoded to %zu bytes, not %zu", bp, i, len, one);
    }
    char *js = NULL;
    if (st == CZK_OK) st = czk_post_json_dump(&js, m);
    const size_t blen = one * v->n, jlen = js ? strlen(js) : 0;
    if (st == CZK_OK) { /* the JSON, which completes the directory, is replaced last */
        const void *chunk = bin;
        const char *retire[1] = {jp};
        st = czk__write_atomic_set(bp, &chunk, &blen, 1, retire, 1);
    }
    if (st == CZK_OK) {
        const void *chunks[2] = {js, "\n"};
        const size_t lens[2] = {jlen, 1};
        st = czk__write_atomic(jp, chunks, lens, 2);
        if (st != CZK_OK) remove(bp);
    }
    if (st != CZK_OK && made) rmdir(dir);
    free(bin);
    free(js);
    if (st == CZK_OK && bytes) *bytes = blen + jlen + 1;
    return st;
}

/* ---- the kind's files (czk/kind.h read / read_public) --------------------------- */

static czk_status read_dir(void **data, const char *dir, czk_post_kind k)
{
    *data = NULL;
    czk_post_vanilla *v = calloc(1, sizeof *v);
    if (!v) return czk_error(CZK_ERR_NOMEM, "a vanilla PoSt proof");
    czk_post_json m;
    czk_status st = czk_post_dir_read(v, &m, k, dir);
    if (st != CZK_OK) {
        free(v);
        return st;
    }
    czk_post_json_free(&m);
    *data = v;
    return CZK_OK;
}

static czk_status read_public(void **pub, const char *dir, czk_post_kind k)
{
    *pub = NULL;
    czk_post_json *m = calloc(1, sizeof *m);
    if (!m) return czk_error(CZK_ERR_NOMEM, "a PoSt's public data");
    czk_status st = czk_post_dir_json(m, k, dir);
    if (st != CZK_OK) {
        free(m);
        return st;
    }
    *pub = m;
    return CZK_OK;
}

czk_status czk__window_read(void **data, const char *dir) { return read_dir(data, dir, CZK_POST_WINDOW); }
czk_status czk__winning_read(void **data, const char *dir) { return read_dir(data, dir, CZK_POST_WINNING); }
czk_status czk__window_read_public(void **pub, const char *dir) { return read_public(pub, dir, CZK_POST_WINDOW); }
czk_status czk__winning_read_public(void **pub, const char *dir) { return read_public(pub, dir, CZK_POST_WINNING); }

void czk__post_free_public(void *pub)
{
    if (!pub) return;
    czk_post_json_free(pub);
    free(pub);
}

const void *czk__post_public_shape(const void *pub) { return &((const czk_post_json *)pub)->shape; }

uint32_t czk__post_public_partitions(const void *pub)
{
    (void)pub;
    return 1;
}

const char *czk__post_public_name(const void *pub) { return ((const czk_post_json *)pub)->proof; }

czk_status czk__post_public_inputs(czk_fr *out, size_t n, const void *pub_data, uint32_t k)
{
    const czk_post_json *m = pub_data;
    if (k != 0) return czk_error(CZK_ERR_INVALID_ARG, "partition %u of a PoSt proof (it has one, 0)", k);
    czk_fr *comm_r = malloc((m->n_sectors ? m->n_sectors : 1) * sizeof *comm_r);
    if (!comm_r) return czk_error(CZK_ERR_NOMEM, "%u comm_r", m->n_sectors);
    czk_status st = CZK_OK;
    for (uint32_t i = 0; st == CZK_OK && i < m->n_sectors; i++)
        if (czk_fr_from_bytes(&comm_r[i], m->comm_r[i]) != CZK_OK)
            st = czk_error(CZK_ERR_NOT_CANONICAL, "comm_r[%u] (sector %llu) is not a field element", i,
                           (unsigned long long)m->sector_ids[i]);
    czk_post_public pub;
    memset(&pub, 0, sizeof pub);
    pub.shape = m->shape;
    memcpy(pub.randomness, m->randomness, 32);
    pub.n = m->n_sectors;
    pub.sector_ids = m->sector_ids;
    pub.comm_r = comm_r;
    if (st == CZK_OK) st = czk_post_public_derive(out, n, &pub);
    free(comm_r);
    return st;
}
