/* snap.json (czk/snap.h): the registered update proof and the three
 * commitments beside an update's partition proofs. jansson DOM, then a walk
 * that names the key of the first bad field. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/snap.h"
#include "filecoin/json_file.h"

/* 32 bytes as an array of 32 numbers 0..255, a field element */
static czk_status get_bytes32(uint8_t out[32], const json_t *a, const char *path, const char *key)
{
    CZK_TRY(czk__json_bytes32(out, a, path, key));
    czk_fr t;
    if (czk_fr_from_bytes(&t, out) != CZK_OK)
        return czk_error(CZK_ERR_NOT_CANONICAL, "%s: %s: not a field element (>= r)", path, key);
    return CZK_OK;
}

static czk_status walk(czk_snap_json *m, const json_t *j, const char *path)
{
    if (!json_is_object(j)) return czk_error(CZK_ERR_FORMAT, "%s: the top level is not an object", path);
    static const char *const keys[] = {"registered_update_proof", "comm_r_old", "comm_r_new", "comm_d_new",
                                       "partitions"};
    const json_t *v[5];
    for (int i = 0; i < 5; i++)
        if (!(v[i] = json_object_get(j, keys[i])))
            return czk_error(CZK_ERR_FORMAT, "%s: missing key \"%s\"", path, keys[i]);
    if (!json_is_string(v[0]) || json_string_length(v[0]) >= sizeof m->proof)
        return czk_error(CZK_ERR_FORMAT, "%s: registered_update_proof: not a proof type string", path);
    snprintf(m->proof, sizeof m->proof, "%s", json_string_value(v[0]));
    int p;
    if (czk_snap_proof_from_name(&p, m->proof) != CZK_OK)
        return czk_error_context(CZK_ERR_FORMAT, "%s: registered_update_proof", path);
    CZK_TRY(czk_snap_shape_of_proof(&m->shape, p));
    CZK_TRY(get_bytes32(m->comm_r_old, v[1], path, "comm_r_old"));
    CZK_TRY(get_bytes32(m->comm_r_new, v[2], path, "comm_r_new"));
    CZK_TRY(get_bytes32(m->comm_d_new, v[3], path, "comm_d_new"));
    if (!json_is_integer(v[4]) || json_integer_value(v[4]) != (json_int_t)m->shape.partitions)
        return czk_error(CZK_ERR_FORMAT, "%s: partitions: not %u (a %s update has %u partitions)", path,
                         m->shape.partitions, m->proof, m->shape.partitions);
    m->partitions = m->shape.partitions;
    const json_t *c = json_object_get(j, "challenges");
    if (c) { /* a test shape: fewer challenges per partition */
        json_int_t n = json_is_integer(c) ? json_integer_value(c) : 0;
        if (n < 1 || n > (json_int_t)m->shape.challenges)
            return czk_error(CZK_ERR_FORMAT, "%s: challenges: not an integer 1 .. %u (a %s partition's)", path,
                             m->shape.challenges, m->proof);
        CZK_TRY(czk_snap_shape_challenges(&m->shape, (uint32_t)n));
    }
    return CZK_OK;
}

czk_status czk_snap_json_read(czk_snap_json *out, const char *path)
{
    memset(out, 0, sizeof *out);
    json_t *j;
    CZK_TRY(czk__json_load(&j, path));
    czk_status s = walk(out, j, path);
    json_decref(j);
    if (s != CZK_OK) memset(out, 0, sizeof *out);
    return s;
}

static json_t *bytes32_json(const uint8_t b[32])
{
    json_t *a = json_array();
    for (int i = 0; a && i < 32; i++) json_array_append_new(a, json_integer(b[i]));
    return a;
}

czk_status czk_snap_json_dump(char **out, const czk_snap_json *m)
{
    *out = NULL;
    json_t *j = json_object();
    if (j) {
        json_object_set_new(j, "registered_update_proof", json_string(m->proof));
        json_object_set_new(j, "comm_r_old", bytes32_json(m->comm_r_old));
        json_object_set_new(j, "comm_r_new", bytes32_json(m->comm_r_new));
        json_object_set_new(j, "comm_d_new", bytes32_json(m->comm_d_new));
        json_object_set_new(j, "partitions", json_integer(m->partitions));
        if (m->shape.update_proof == CZK_SNAP_PROOF_CUSTOM)
            json_object_set_new(j, "challenges", json_integer(m->shape.challenges));
        *out = json_dumps(j, JSON_INDENT(1) | JSON_SORT_KEYS);
    }
    json_decref(j);
    if (!*out) return czk_error(CZK_ERR_NOMEM, "snap json");
    return CZK_OK;
}

czk_status czk_snap_json_of(czk_snap_json *m, const czk_snap_vanilla *v)
{
    memset(m, 0, sizeof *m);
    int p = v->shape.update_proof;
    if (p == CZK_SNAP_PROOF_CUSTOM) { /* a registered size's shape with fewer challenges? */
        const czk_snap_shape *s = &v->shape;
        czk_snap_shape b;
        p = -1;
        if (czk_snap_shape_of(&b, s->tree.nodes << 5) == CZK_OK && s->tree.base_arity == b.tree.base_arity &&
            s->tree.sub_arity == b.tree.sub_arity && s->tree.top_arity == b.tree.top_arity &&
            s->partitions == b.partitions && s->apex_leaves == b.apex_leaves && s->h == b.h &&
            s->challenges >= 1 && s->challenges < b.challenges)
            p = b.update_proof;
        czk_error_clear();
    }
    const char *name = czk_snap_proof_name(p);
    if (p < 0 || !name)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "snap json: a custom shape has no registered update proof (only fewer challenges can be "
                         "recorded)");
    snprintf(m->proof, sizeof m->proof, "%s", name);
    m->shape = v->shape;
    czk_fr_to_bytes(m->comm_r_old, &v->comm_r_old);
    czk_fr_to_bytes(m->comm_r_new, &v->comm_r_new);
    czk_fr_to_bytes(m->comm_d_new, &v->comm_d_new);
    m->partitions = v->shape.partitions;
    return CZK_OK;
}
