/* A vanilla PoSt directory as `czk-oracle vanilla-post -o DIR` writes it
 * (czk/post_kind.h): DIR/post-KIND.json (the public data) and
 * DIR/vanilla-KIND.bin (the sector proofs, bincode, one after another). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/post_kind.h"
#include "czk/post_vanilla.h"

static const char *short_name(czk_post_kind k) { return k == CZK_POST_WINNING ? "winning" : "window"; }

czk_status czk_post_dir_json(czk_post_json *m, czk_post_kind k, const char *dir)
{
    char path[1024];
    int n = snprintf(path, sizeof path, "%s/post-%s.json", dir, short_name(k));
    if (n < 0 || (size_t)n >= sizeof path) return czk_error(CZK_ERR_INVALID_ARG, "vanilla directory %s: path too long", dir);
    CZK_TRY(czk_post_json_read(m, path));
    if (m->shape.kind != k) {
        czk_status s = czk_error(CZK_ERR_FORMAT, "%s: registered_post_proof %s is not a %s proof", path, m->proof,
                                 czk_post_kind_name(k));
        czk_post_json_free(m);
        return s;
    }
    return CZK_OK;
}

static czk_status slurp(uint8_t **out, size_t *len, const char *path, size_t max)
{
    FILE *f = fopen(path, "rb");
    if (!f) return czk_error(CZK_ERR_IO, "%s: %s", path, strerror(errno));
    uint8_t *buf = malloc(max + 1);
    if (!buf) {
        fclose(f);
        return czk_error(CZK_ERR_NOMEM, "%s: %zu bytes", path, max);
    }
    size_t n = fread(buf, 1, max + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return czk_error(CZK_ERR_IO, "%s: read error", path);
    }
    *out = buf;
    *len = n;
    return CZK_OK;
}

czk_status czk_post_dir_read(czk_post_vanilla *v, czk_post_json *m, czk_post_kind k, const char *dir)
{
    memset(v, 0, sizeof *v);
    CZK_TRY(czk_post_dir_json(m, k, dir));
    const czk_post_shape *s = &m->shape;
    char path[1024];
    snprintf(path, sizeof path, "%s/vanilla-%s.bin", dir, short_name(k));
    czk_status st = CZK_OK;
    uint32_t per = czk_post_vanilla_sectors(s);
    if (m->n_sectors > per)
        st = czk_error(CZK_ERR_FORMAT, "%s/post-%s.json: %u sectors, a %s partition holds at most %u", dir,
                       short_name(k), m->n_sectors, m->proof, per);
    size_t one = czk_post_sector_proof_bytes(&s->tree, s->sector_challenges);
    uint8_t *bytes = NULL;
    size_t len = 0;
    const uint8_t **ptrs = NULL;
    size_t *lens = NULL;
    if (st == CZK_OK) st = slurp(&bytes, &len, path, (size_t)m->n_sectors * one);
    if (st == CZK_OK && len != (size_t)m->n_sectors * one)
        st = czk_error(CZK_ERR_FORMAT, "%s: %s%zu bytes, %u sector proof%s of %s take %zu each", path,
                       len > (size_t)m->n_sectors * one ? "more than " : "", len, m->n_sectors,
                       m->n_sectors > 1 ? "s" : "", m->proof, one);
    if (st == CZK_OK) {
        ptrs = malloc(m->n_sectors * sizeof *ptrs);
        lens = malloc(m->n_sectors * sizeof *lens);
        if (!ptrs || !lens) st = czk_error(CZK_ERR_NOMEM, "%s: %u sector proofs", path, m->n_sectors);
    }
    for (uint32_t i = 0; st == CZK_OK && i < m->n_sectors; i++) {
        ptrs[i] = bytes + (size_t)i * one;
        lens[i] = one;
    }
    /* the strict reader; partition 0: the files hold one partition */
    if (st == CZK_OK) {
        st = czk_post_vanilla_read(v, s, ptrs, lens, m->n_sectors, m->randomness, m->prover_id, 0);
        if (st != CZK_OK) st = czk_error_context(st, "%s", path);
    }
    free(ptrs);
    free(lens);
    free(bytes);
    /* the proofs must be of the JSON's sectors and answer its challenges */
    for (uint32_t i = 0; st == CZK_OK && i < v->n; i++) {
        uint8_t cr[32];
        czk_fr_to_bytes(cr, &v->proofs[i].comm_r);
        if (v->proofs[i].sector_id != m->sector_ids[i])
            st = czk_error(CZK_ERR_VERIFY, "%s: sector proof %u is of sector %llu, post-%s.json sector_ids[%u] is %llu",
                           path, i, (unsigned long long)v->proofs[i].sector_id, short_name(k), i,
                           (unsigned long long)m->sector_ids[i]);
        else if (memcmp(cr, m->comm_r[i], 32))
            st = czk_error(CZK_ERR_VERIFY, "%s: sector proof %u (sector %llu): comm_r differs from post-%s.json comm_r[%u]",
                           path, i, (unsigned long long)v->proofs[i].sector_id, short_name(k), i);
        for (uint32_t j = 0; st == CZK_OK && j < s->sector_challenges; j++) {
            uint64_t want = czk_post_vanilla_challenge(v, i, j), listed = m->challenges[(size_t)i * s->sector_challenges + j];
            if (want != listed)
                st = czk_error(CZK_ERR_VERIFY, "%s/post-%s.json: challenges[%zu] is leaf %llu, the randomness derives %llu",
                               dir, short_name(k), (size_t)i * s->sector_challenges + j, (unsigned long long)listed,
                               (unsigned long long)want);
        }
    }
    if (st == CZK_OK) {
        st = czk_post_vanilla_check(v);
        if (st != CZK_OK) st = czk_error_context(st, "%s: the vanilla proof does not check", path);
    }
    if (st != CZK_OK) {
        czk_post_vanilla_free(v);
        czk_post_json_free(m);
    }
    return st;
}

czk_status czk_post_json_verify(const czk_groth16_vk *vk, const czk_post_json *m, const czk_groth16_proof *proof)
{
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
    pub.partition = 0;
    pub.n = m->n_sectors;
    pub.sector_ids = m->sector_ids;
    pub.comm_r = comm_r;
    if (st == CZK_OK) st = czk_post_verify_public(vk, &pub, proof);
    free(comm_r);
    return st;
}
