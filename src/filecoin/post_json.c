/* post-KIND.json (czk/post_vanilla.h): the registered proof type, randomness,
 * prover id, sectors and challenges beside a vanilla proof file. jansson DOM,
 * then a walk that names the key of the first bad field. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "czk/post_vanilla.h"
#include "filecoin/json_file.h"

static const struct { const char *name; uint64_t size; } sizes[] = {
    {"2KiB", 2048ULL}, {"8MiB", 8ULL << 20}, {"512MiB", 512ULL << 20}, {"32GiB", 32ULL << 30}, {"64GiB", 64ULL << 30},
};

czk_status czk_post_proof_name(char out[48], const czk_post_shape *s)
{
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (s->tree.sector_size != sizes[i].size || s->tree.proof == CZK_FC_PROOF_CUSTOM) continue;
        czk_post_shape prod;
        CZK_TRY(czk_post_shape_of(&prod, s->kind, s->tree.sector_size));
        if (prod.sectors != s->sectors || prod.challenges != s->challenges || prod.tree.nodes != s->tree.nodes) break;
        int win = s->kind == CZK_POST_WINNING;
        snprintf(out, 48, "StackedDrg%s%s%s", win ? "Winning" : "Window", sizes[i].name,
                 win || s->api == CZK_POST_API_V1_1 ? "V1" : "V1_2");
        return CZK_OK;
    }
    return czk_error(CZK_ERR_INVALID_ARG, "no registered PoSt proof has this shape (%s, %llu nodes, %u x %u challenges)",
                     czk_post_kind_name(s->kind), (unsigned long long)s->tree.nodes, s->sectors, s->challenges);
}

czk_status czk_post_proof_shape(czk_post_shape *s, const char *proof)
{
    const char *p = proof ? proof : "";
    czk_post_kind k;
    if (!strncmp(p, "StackedDrgWindow", 16)) k = CZK_POST_WINDOW, p += 16;
    else if (!strncmp(p, "StackedDrgWinning", 17)) k = CZK_POST_WINNING, p += 17;
    else return czk_error(CZK_ERR_INVALID_ARG, "unknown PoSt proof type '%s' (not StackedDrgWindow* / StackedDrgWinning*)", proof);
    uint64_t size = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !size; i++) {
        size_t n = strlen(sizes[i].name);
        if (!strncmp(p, sizes[i].name, n)) size = sizes[i].size, p += n;
    }
    if (!size) return czk_error(CZK_ERR_INVALID_ARG, "unknown PoSt proof type '%s' (sector size)", proof);
    /* filecoin-proofs-api's registered PoSt proofs: Winning*V1 and
     * Window*V1 (API V1_0_0: challenge indices mix in the sector's
     * position), Window*V1_2 (API V1_2_0: they do not) */
    czk_post_api api;
    if (!strcmp(p, "V1")) api = CZK_POST_API_V1_1;
    else if (!strcmp(p, "V1_2") && k == CZK_POST_WINDOW) api = CZK_POST_API_V1_2;
    else return czk_error(CZK_ERR_INVALID_ARG, "unknown PoSt proof type '%s' (version '%s')", proof, p);
    CZK_TRY(czk_post_shape_of(s, k, size));
    if (k == CZK_POST_WINDOW) s->api = api;
    return CZK_OK;
}

void czk_post_json_free(czk_post_json *m)
{
    if (!m) return;
    free(m->sector_ids);
    free(m->comm_r);
    free(m->challenges);
    memset(m, 0, sizeof *m);
}

/* A JSON integer in [0, max] at key[i] (i < 0: key alone). */
static czk_status get_u64(uint64_t *out, const json_t *j, uint64_t max, const char *path, const char *key, long i)
{
    char where[64];
    if (i >= 0) snprintf(where, sizeof where, "%s[%ld]", key, i);
    else snprintf(where, sizeof where, "%s", key);
    if (!json_is_integer(j)) return czk_error(CZK_ERR_FORMAT, "%s: %s: not an integer", path, where);
    json_int_t v = json_integer_value(j);
    if (v < 0 || (uint64_t)v > max)
        return czk_error(CZK_ERR_FORMAT, "%s: %s: %lld is outside 0..%llu", path, where, (long long)v,
                         (unsigned long long)max);
    *out = (uint64_t)v;
    return CZK_OK;
}

/* 32 bytes as an array of 32 numbers 0..255. */
static const json_t *need(const json_t *j, const char *key, const char *path, czk_status *st)
{
    const json_t *v = json_object_get(j, key);
    if (!v && *st == CZK_OK) *st = czk_error(CZK_ERR_FORMAT, "%s: missing key \"%s\"", path, key);
    return v;
}

static czk_status walk(czk_post_json *m, const json_t *j, const char *path)
{
    if (!json_is_object(j)) return czk_error(CZK_ERR_FORMAT, "%s: the top level is not an object", path);
    czk_status st = CZK_OK;
    const json_t *proof = need(j, "registered_post_proof", path, &st), *rnd = need(j, "randomness", path, &st),
                 *pid = need(j, "prover_id", path, &st), *ids = need(j, "sector_ids", path, &st),
                 *cr = need(j, "comm_r", path, &st), *ch = need(j, "challenges", path, &st);
    CZK_TRY(st);
    if (!json_is_string(proof) || json_string_length(proof) >= sizeof m->proof)
        return czk_error(CZK_ERR_FORMAT, "%s: registered_post_proof: not a proof type string", path);
    snprintf(m->proof, sizeof m->proof, "%s", json_string_value(proof));
    if (czk_post_proof_shape(&m->shape, m->proof) != CZK_OK)
        return czk_error_context(CZK_ERR_FORMAT, "%s: registered_post_proof", path);
    CZK_TRY(czk__json_bytes32(m->randomness, rnd, path, "randomness"));
    CZK_TRY(czk__json_bytes32(m->prover_id, pid, path, "prover_id"));
    const json_t *miner = json_object_get(j, "miner_id");
    if (miner) {
        CZK_TRY(get_u64(&m->miner_id, miner, INT64_MAX, path, "miner_id", -1));
        uint8_t want[32];
        czk_fc_prover_id(want, m->miner_id);
        if (memcmp(want, m->prover_id, 32))
            return czk_error(CZK_ERR_FORMAT, "%s: prover_id is not miner_id %llu's (its LEB128 varint)", path,
                             (unsigned long long)m->miner_id);
        m->has_miner_id = 1;
    }
    if (!json_is_array(ids) || json_array_size(ids) < 1 || json_array_size(ids) > 65535)
        return czk_error(CZK_ERR_FORMAT, "%s: sector_ids: not an array of 1 to 65,535 sector numbers", path);
    m->n_sectors = (uint32_t)json_array_size(ids);
    if (!json_is_array(cr) || json_array_size(cr) != m->n_sectors)
        return czk_error(CZK_ERR_FORMAT, "%s: comm_r: not an array of %u commitments (one per sector id)", path,
                         m->n_sectors);
    uint64_t nc = (uint64_t)m->n_sectors * m->shape.sector_challenges;
    if (!json_is_array(ch) || json_array_size(ch) != nc)
        return czk_error(CZK_ERR_FORMAT, "%s: challenges: not an array of %llu leaves (%u per sector for %s)", path,
                         (unsigned long long)nc, m->shape.sector_challenges, m->proof);
    m->n_challenges = (uint32_t)nc;
    m->sector_ids = malloc(m->n_sectors * sizeof *m->sector_ids);
    m->comm_r = malloc(m->n_sectors * sizeof *m->comm_r);
    m->challenges = malloc(nc * sizeof *m->challenges);
    if (!m->sector_ids || !m->comm_r || !m->challenges) return czk_error(CZK_ERR_NOMEM, "%s: %u sectors", path, m->n_sectors);
    for (uint32_t i = 0; i < m->n_sectors; i++) {
        char key[32];
        CZK_TRY(get_u64(&m->sector_ids[i], json_array_get(ids, i), INT64_MAX, path, "sector_ids", (long)i));
        snprintf(key, sizeof key, "comm_r[%u]", i);
        CZK_TRY(czk__json_bytes32(m->comm_r[i], json_array_get(cr, i), path, key));
    }
    for (uint32_t i = 0; i < m->n_challenges; i++)
        CZK_TRY(get_u64(&m->challenges[i], json_array_get(ch, i), m->shape.tree.nodes - 1, path, "challenges", (long)i));
    return CZK_OK;
}

czk_status czk_post_json_read(czk_post_json *out, const char *path)
{
    memset(out, 0, sizeof *out);
    json_t *j;
    CZK_TRY(czk__json_load(&j, path));
    czk_status s = walk(out, j, path);
    json_decref(j);
    if (s != CZK_OK) czk_post_json_free(out);
    return s;
}

/* ---- writing ------------------------------------------------------------------- */

static json_t *bytes32_json(const uint8_t b[32])
{
    json_t *a = json_array();
    for (int i = 0; a && i < 32; i++) json_array_append_new(a, json_integer(b[i]));
    return a;
}

czk_status czk_post_json_dump(char **out, const czk_post_json *m)
{
    *out = NULL;
    json_t *j = json_object(), *ids = json_array(), *cr = json_array(), *ch = json_array();
    if (j && ids && cr && ch) {
        json_object_set_new(j, "registered_post_proof", json_string(m->proof));
        json_object_set_new(j, "randomness", bytes32_json(m->randomness));
        json_object_set_new(j, "prover_id", bytes32_json(m->prover_id));
        if (m->has_miner_id) json_object_set_new(j, "miner_id", json_integer((json_int_t)m->miner_id));
        for (uint32_t i = 0; i < m->n_sectors; i++) {
            json_array_append_new(ids, json_integer((json_int_t)m->sector_ids[i]));
            json_array_append_new(cr, bytes32_json(m->comm_r[i]));
        }
        for (uint32_t i = 0; i < m->n_challenges; i++)
            json_array_append_new(ch, json_integer((json_int_t)m->challenges[i]));
        json_object_set(j, "sector_ids", ids);
        json_object_set(j, "comm_r", cr);
        json_object_set(j, "challenges", ch);
        *out = json_dumps(j, JSON_INDENT(1) | JSON_SORT_KEYS);
    }
    json_decref(ids);
    json_decref(cr);
    json_decref(ch);
    json_decref(j);
    if (!*out) return czk_error(CZK_ERR_NOMEM, "post json: %u sectors", m->n_sectors);
    return CZK_OK;
}
