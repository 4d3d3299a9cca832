/* snarkjs JSON files: proof.json, public.json, verification_key.json
 * (docs/circom.md#json-files), parsed and written with jansson. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "io/io_internal.h"

/* ---- reading ------------------------------------------------------------- */

static czk_status load(json_t **root, const char *path)
{
    json_error_t e;
    *root = json_load_file(path, 0, &e);
    if (!*root) return czk_error(CZK_ERR_FORMAT, "%s: line %d column %d: %s", path, e.line, e.column, e.text);
    return CZK_OK;
}

static czk_status get_fp(czk_fp *r, const json_t *v, const char *path, const char *what)
{
    const char *s = json_string_value(v);
    if (!s) return czk_error(CZK_ERR_FORMAT, "%s: %s: expected a decimal string", path, what);
    czk_status st = czk_fp_from_dec(r, s);
    if (st != CZK_OK) return czk_error(st, "%s: %s: '%.100s' is not a decimal integer below p", path, what, s);
    return CZK_OK;
}

static int str_is(const json_t *v, const char *want)
{
    const char *s = json_string_value(v);
    return s && strcmp(s, want) == 0;
}

/* [x, y, z] with z "1" (finite) or "0" (infinity, snarkjs writes ["0","1","0"]). */
static czk_status get_g1(czk_g1_affine *r, const json_t *v, const char *path, const char *what)
{
    if (!json_is_array(v) || json_array_size(v) != 3)
        return czk_error(CZK_ERR_FORMAT, "%s: %s: expected [x, y, z] (3 decimal strings)", path, what);
    const json_t *z = json_array_get(v, 2);
    if (str_is(z, "0")) {
        czk_g1_affine_set_inf(r);
        return CZK_OK;
    }
    if (!str_is(z, "1"))
        return czk_error(CZK_ERR_FORMAT, "%s: %s: z must be \"1\" (or \"0\" for infinity)", path, what);
    r->inf = 0;
    CZK_TRY(get_fp(&r->x, json_array_get(v, 0), path, what));
    CZK_TRY(get_fp(&r->y, json_array_get(v, 1), path, what));
    if (!czk_g1_affine_is_on_curve(r)) return czk_error(CZK_ERR_NOT_ON_CURVE, "%s: %s: not on the curve", path, what);
    if (!czk_g1_affine_in_subgroup(r))
        return czk_error(CZK_ERR_NOT_IN_SUBGROUP, "%s: %s: not in the prime-order subgroup", path, what);
    return CZK_OK;
}

static czk_status get_fp2(czk_fp2 *r, const json_t *v, const char *path, const char *what)
{
    if (!json_is_array(v) || json_array_size(v) != 2)
        return czk_error(CZK_ERR_FORMAT, "%s: %s: expected [c0, c1]", path, what);
    CZK_TRY(get_fp(&r->c0, json_array_get(v, 0), path, what));
    CZK_TRY(get_fp(&r->c1, json_array_get(v, 1), path, what));
    return CZK_OK;
}

static czk_status get_g2(czk_g2_affine *r, const json_t *v, const char *path, const char *what)
{
    if (!json_is_array(v) || json_array_size(v) != 3)
        return czk_error(CZK_ERR_FORMAT, "%s: %s: expected [[x0,x1],[y0,y1],[z0,z1]]", path, what);
    czk_fp2 z;
    CZK_TRY(get_fp2(&z, json_array_get(v, 2), path, what));
    if (czk_fp2_is_zero(&z)) {
        czk_g2_affine_set_inf(r);
        return CZK_OK;
    }
    if (!czk_fp_is_one(&z.c0) || !czk_fp_is_zero(&z.c1))
        return czk_error(CZK_ERR_FORMAT, "%s: %s: z must be [\"1\", \"0\"] (or zero for infinity)", path, what);
    r->inf = 0;
    CZK_TRY(get_fp2(&r->x, json_array_get(v, 0), path, what));
    CZK_TRY(get_fp2(&r->y, json_array_get(v, 1), path, what));
    if (!czk_g2_affine_is_on_curve(r)) return czk_error(CZK_ERR_NOT_ON_CURVE, "%s: %s: not on the curve", path, what);
    if (!czk_g2_affine_in_subgroup(r))
        return czk_error(CZK_ERR_NOT_IN_SUBGROUP, "%s: %s: not in the prime-order subgroup", path, what);
    return CZK_OK;
}

static czk_status check_header(const json_t *root, const char *path)
{
    if (!json_is_object(root)) return czk_error(CZK_ERR_FORMAT, "%s: expected a JSON object", path);
    const json_t *p = json_object_get(root, "protocol");
    if (p && !str_is(p, "groth16"))
        return czk_error(CZK_ERR_UNSUPPORTED, "%s: protocol '%s' (only groth16)", path,
                         json_string_value(p) ? json_string_value(p) : "?");
    const json_t *c = json_object_get(root, "curve");
    if (c && !str_is(c, "bls12381"))
        return czk_error(CZK_ERR_UNSUPPORTED, "%s: curve '%s' (czk supports only bls12381)", path,
                         json_string_value(c) ? json_string_value(c) : "?");
    return CZK_OK;
}

czk_status czk_circom_proof_read_json(czk_groth16_proof *pr, const char *path)
{
    json_t *root;
    CZK_TRY(load(&root, path));
    czk_status st = check_header(root, path);
    if (st == CZK_OK) st = get_g1(&pr->a, json_object_get(root, "pi_a"), path, "pi_a");
    if (st == CZK_OK) st = get_g2(&pr->b, json_object_get(root, "pi_b"), path, "pi_b");
    if (st == CZK_OK) st = get_g1(&pr->c, json_object_get(root, "pi_c"), path, "pi_c");
    json_decref(root);
    return st;
}

czk_status czk_circom_public_read_json(czk_fr **pub, size_t *n, const char *path)
{
    *pub = NULL;
    *n = 0;
    json_t *root;
    CZK_TRY(load(&root, path));
    czk_status st = CZK_OK;
    if (!json_is_array(root)) {
        st = czk_error(CZK_ERR_FORMAT, "%s: expected a JSON array of decimal strings", path);
        goto out;
    }
    size_t m = json_array_size(root);
    *pub = malloc((m ? m : 1) * sizeof(czk_fr));
    if (!*pub) {
        st = czk_error(CZK_ERR_NOMEM, "%s: %zu values", path, m);
        goto out;
    }
    for (size_t i = 0; i < m; i++) {
        const char *s = json_string_value(json_array_get(root, i));
        if (!s) {
            st = czk_error(CZK_ERR_FORMAT, "%s: element %zu is not a string", path, i);
            goto out;
        }
        if (czk_fr_from_dec(&(*pub)[i], s) != CZK_OK) {
            st = czk_error(CZK_ERR_NOT_CANONICAL, "%s: element %zu '%.100s' is not a decimal integer below r", path,
                           i, s);
            goto out;
        }
    }
    *n = m;
out:
    if (st != CZK_OK) {
        free(*pub);
        *pub = NULL;
    }
    json_decref(root);
    return st;
}

void czk_circom_vk_clear(czk_circom_vk *vk)
{
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

czk_status czk_circom_vk_read_json(czk_circom_vk *vk, const char *path)
{
    memset(vk, 0, sizeof *vk);
    json_t *root;
    CZK_TRY(load(&root, path));
    czk_status st = check_header(root, path);
    const json_t *np = json_object_get(root, "nPublic"), *ic = json_object_get(root, "IC");
    if (st == CZK_OK && (!json_is_integer(np) || json_integer_value(np) < 0 || json_integer_value(np) > 1 << 24))
        st = czk_error(CZK_ERR_FORMAT, "%s: nPublic missing or out of range", path);
    if (st == CZK_OK && (!json_is_array(ic) || json_array_size(ic) != (size_t)json_integer_value(np) + 1))
        st = czk_error(CZK_ERR_FORMAT, "%s: IC must hold nPublic + 1 points", path);
    if (st == CZK_OK) {
        vk->n_public = (uint32_t)json_integer_value(np);
        vk->ic = malloc(((size_t)vk->n_public + 1) * sizeof *vk->ic);
        if (!vk->ic) st = czk_error(CZK_ERR_NOMEM, "%s: IC", path);
    }
    if (st == CZK_OK) st = get_g1(&vk->alpha1, json_object_get(root, "vk_alpha_1"), path, "vk_alpha_1");
    if (st == CZK_OK) st = get_g2(&vk->beta2, json_object_get(root, "vk_beta_2"), path, "vk_beta_2");
    if (st == CZK_OK) st = get_g2(&vk->gamma2, json_object_get(root, "vk_gamma_2"), path, "vk_gamma_2");
    if (st == CZK_OK) st = get_g2(&vk->delta2, json_object_get(root, "vk_delta_2"), path, "vk_delta_2");
    for (size_t i = 0; st == CZK_OK && i <= vk->n_public; i++) {
        char what[32];
        snprintf(what, sizeof what, "IC[%zu]", i);
        st = get_g1(&vk->ic[i], json_array_get(ic, i), path, what);
    }
    json_decref(root);
    if (st != CZK_OK) czk_circom_vk_clear(vk);
    return st;
}

/* ---- writing ------------------------------------------------------------- */

static json_t *dec_fp(const czk_fp *a)
{
    char s[120];
    czk_fp_to_dec(s, a);
    return json_string(s);
}

static json_t *g1_json(const czk_g1_affine *p)
{
    if (p->inf) return json_pack("[sss]", "0", "1", "0");
    return json_pack("[oos]", dec_fp(&p->x), dec_fp(&p->y), "1");
}

static json_t *g2_json(const czk_g2_affine *p)
{
    if (p->inf) return json_pack("[[ss][ss][ss]]", "0", "0", "1", "0", "0", "0");
    return json_pack("[[oo][oo][ss]]", dec_fp(&p->x.c0), dec_fp(&p->x.c1), dec_fp(&p->y.c0), dec_fp(&p->y.c1), "1",
                     "0");
}

/* Through czk's atomic writer (common/fileio.h). */
static czk_status dump(json_t *root, const char *path)
{
    if (!root) return czk_error(CZK_ERR_NOMEM, "%s: building JSON", path);
    char *text = json_dumps(root, JSON_INDENT(1));
    json_decref(root);
    if (!text) return czk_error(CZK_ERR_NOMEM, "%s: building JSON", path);
    const void *chunk = text;
    const size_t len = strlen(text);
    czk_status s = czk__write_atomic(path, &chunk, &len, 1);
    free(text);
    return s;
}

czk_status czk_circom_proof_write_json(const char *path, const czk_groth16_proof *pr)
{
    json_t *root = json_pack("{s:o, s:o, s:o, s:s, s:s}", "pi_a", g1_json(&pr->a), "pi_b", g2_json(&pr->b), "pi_c",
                             g1_json(&pr->c), "protocol", "groth16", "curve", "bls12381");
    return dump(root, path);
}

czk_status czk_circom_public_write_json(const char *path, const czk_fr *pub, size_t n)
{
    json_t *arr = json_array();
    if (!arr) return czk_error(CZK_ERR_NOMEM, "%s", path);
    for (size_t i = 0; i < n; i++) {
        char s[80];
        czk_fr_to_dec(s, &pub[i]);
        if (json_array_append_new(arr, json_string(s)) != 0) {
            json_decref(arr);
            return czk_error(CZK_ERR_NOMEM, "%s", path);
        }
    }
    return dump(arr, path);
}
