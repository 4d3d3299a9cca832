/* Seed inputs for the fuzz targets: small valid instances of every format,
 * built with czk's own writers (and, for the circom formats, by hand from
 * the layouts in docs/circom.md), plus a few edge encodings. Deterministic.
 * Used by tests/fuzz/test_fuzz_corpus.c and, through it, by
 * fuzz/gen_corpus.sh to write the libFuzzer seed corpora. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/random_circuit.h"
#include "czk/circom.h"
#include "czk/filecoin.h"
#include "czk/groth16.h"
#include "czk/pce.h"
#include "fuzz_targets.h"

typedef struct sbuf {
    uint8_t *p;
    size_t n, cap;
    int bad;
} sbuf;

static void put(sbuf *b, const void *d, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = (b->n + n) * 2 + 64;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->bad = 1;
            return;
        }
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}
static void put32(sbuf *b, uint32_t v)
{
    uint8_t t[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, t, 4);
}
static void put64(sbuf *b, uint64_t v) { put32(b, (uint32_t)v), put32(b, (uint32_t)(v >> 32)); }
static void put_limbs(sbuf *b, const uint64_t *l, size_t n)
{
    for (size_t i = 0; i < n; i++) put64(b, l[i]);
}
static void put_sect(sbuf *b, uint32_t type, const sbuf *s)
{
    put32(b, type);
    put64(b, s->n);
    put(b, s->p, s->n);
}
static void put_str(sbuf *b, const char *s) { put(b, s, strlen(s)); }

/* Montgomery limbs, little-endian (circom's "LEM"); all zero for infinity. */
static void put_g1_lem(sbuf *b, const czk_g1_affine *p)
{
    uint8_t z[96] = {0};
    if (p->inf) put(b, z, 96);
    else put_limbs(b, p->x.l, 6), put_limbs(b, p->y.l, 6);
}
static void put_g2_lem(sbuf *b, const czk_g2_affine *p)
{
    uint8_t z[192] = {0};
    if (p->inf) put(b, z, 192);
    else put_limbs(b, p->x.c0.l, 6), put_limbs(b, p->x.c1.l, 6), put_limbs(b, p->y.c0.l, 6), put_limbs(b, p->y.c1.l, 6);
}

static void g1_of(czk_g1_affine *r, uint64_t k)
{
    czk_g1_affine g;
    czk_g1_jac j, o;
    czk_fr s;
    czk_fr_from_u64(&s, k);
    czk_g1_generator(&g);
    czk_g1_jac_from_affine(&j, &g);
    czk_g1_mul_ct(&o, &j, &s);
    czk_g1_jac_to_affine(r, &o);
}
static void g2_of(czk_g2_affine *r, uint64_t k)
{
    czk_g2_affine g;
    czk_g2_jac j, o;
    czk_fr s;
    czk_fr_from_u64(&s, k);
    czk_g2_generator(&g);
    czk_g2_jac_from_affine(&j, &g);
    czk_g2_mul_ct(&o, &j, &s);
    czk_g2_jac_to_affine(r, &o);
}

/* ---- files written by czk's writers ------------------------------------------ */

typedef struct tmpdir {
    char dir[64], path[96];
} tmpdir;

static int tmp_open(tmpdir *t)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/czk-fuzz-seeds-XXXXXX");
    if (!mkdtemp(t->dir)) return 0;
    snprintf(t->path, sizeof t->path, "%s/f", t->dir);
    return 1;
}
static void tmp_close(tmpdir *t)
{
    unlink(t->path);
    rmdir(t->dir);
}
/* Emit the file at t->path; 0 if it cannot be read. */
static int emit_file(const tmpdir *t, czk_fuzz_emit_fn emit, void *ctx)
{
    FILE *f = fopen(t->path, "rb");
    if (!f) return 0;
    sbuf b = {0};
    uint8_t tmp[65536];
    size_t r;
    while ((r = fread(tmp, 1, sizeof tmp, f)) > 0) put(&b, tmp, r);
    fclose(f);
    int ok = !b.bad;
    if (ok) emit(ctx, b.p, b.n);
    free(b.p);
    unlink(t->path);
    return ok;
}

/* A small random circuit: its matrices and Groth16 parameters. */
typedef struct circuit {
    czk_csr A, B, C;
    uint64_t n_inputs;
    czk_groth16_params params;
    int have_params;
} circuit;

static int circuit_make(circuit *c)
{
    memset(c, 0, sizeof *c);
    czk_cs *cs = NULL;
    czk_fr pub[3];
    int ok = czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_VEC, NULL) == CZK_OK &&
             czk_test_random_circuit(cs, 11, 1, 2, 2, 5, pub) == CZK_OK && czk_cs_finalize(cs) == CZK_OK &&
             czk_cs_shape_csr(cs, &c->A, &c->B, &c->C) == CZK_OK;
    if (ok) {
        czk_cs_sizes counts;
        czk_cs_counts(cs, &counts);
        c->n_inputs = counts.n_inputs;
        czk_groth16_setup_opts o = {0};
        o.use_seed = 1;
        o.seed = 99;
        ok = czk_groth16_setup(&c->params, &c->A, &c->B, &c->C, counts.n_inputs, &o) == CZK_OK;
        c->have_params = ok;
    }
    czk_cs_destroy(cs);
    return ok;
}
static void circuit_clear(circuit *c)
{
    czk_csr_clear(&c->A), czk_csr_clear(&c->B), czk_csr_clear(&c->C);
    if (c->have_params) czk_groth16_params_clear(&c->params);
}

static int seeds_groth16(const char *what, czk_fuzz_emit_fn emit, void *ctx)
{
    circuit c;
    tmpdir t;
    int n = -1;
    if (!circuit_make(&c)) goto out;
    if (strcmp(what, "groth16_vk") == 0) {
        size_t el = czk_groth16_vk_encoded_size(&c.params.vk);
        uint8_t *e = malloc(el);
        if (!e) goto out;
        czk_groth16_vk_encode(e, &c.params.vk);
        emit(ctx, e, el);
        free(e);
        n = 1;
    } else if (strcmp(what, "groth16_params") == 0) {
        if (!tmp_open(&t)) goto out;
        int ok = czk_groth16_params_write(t.path, &c.params) == CZK_OK && emit_file(&t, emit, ctx);
        tmp_close(&t);
        n = ok ? 1 : -1;
    } else if (strcmp(what, "pce") == 0) {
        czk_pce *p = NULL;
        if (czk_pce_from_csr(&p, &c.A, &c.B, &c.C, c.n_inputs, "fuzz-seed") != CZK_OK) goto out;
        int ok = tmp_open(&t);
        if (ok) {
            ok = czk_pce_write(p, t.path) == CZK_OK && emit_file(&t, emit, ctx);
            tmp_close(&t);
        }
        czk_pce_destroy(p);
        n = ok ? 1 : -1;
    }
out:
    circuit_clear(&c);
    return n;
}

static int seeds_c1(czk_fuzz_emit_fn emit, void *ctx)
{
    czk_fc_shape s;
    czk_fc_c1 c;
    int n = 0;
    if (czk_fc_shape_of_size(&s, 2048) != CZK_OK) return -1;
    /* The registered 2KiB V1_1 shape (the parser checks counts against it),
     * plain and in the lotus-bench envelope. */
    if (czk_fc_gen_c1(&c, &s, 7, NULL, NULL) != CZK_OK) return -1;
    char *json = NULL;
    size_t len = 0;
    if (czk_fc_c1_to_json(&json, &len, &c) == CZK_OK) emit(ctx, (const uint8_t *)json, len), n++;
    free(json);
    tmpdir t;
    if (tmp_open(&t)) {
        c.has_envelope = 1;
        c.sector_num = 3;
        if (czk_fc_c1_write(&c, t.path) == CZK_OK && emit_file(&t, emit, ctx)) n++;
        tmp_close(&t);
    }
    czk_fc_c1_free(&c);
    /* A small custom shape (64 nodes, 2 layers, one partition of two
     * challenges): a few KB, so the fuzzer runs it fast. */
    if (czk_fc_shape_custom(&s, 64, 2, 1, 2, 8, 0, 0) != CZK_OK) return -1;
    if (czk_fc_gen_c1(&c, &s, 9, NULL, NULL) != CZK_OK) return -1;
    json = NULL;
    if (czk_fc_c1_to_json(&json, &len, &c) == CZK_OK) emit(ctx, (const uint8_t *)json, len), n++;
    free(json);
    czk_fc_c1_free(&c);
    return n == 3 ? n : -1;
}

/* ---- circom binary files, by hand (docs/circom.md) ------------------------------- */

static void put_fr_le(sbuf *b, uint64_t v)
{
    czk_fr f;
    uint8_t t[32];
    czk_fr_from_u64(&f, v);
    czk_fr_to_bytes(t, &f);
    put(b, t, 32);
}

/* wires 0 = 1, 1 = out, 2 = k (public input), 3 = x, 4 = y:
 * x*x = y; (y + 2)*k = out; (x - 1)*3 = 3x - 3. */
static void build_r1cs(sbuf *out)
{
    sbuf h = {0}, c = {0}, m = {0};
    put32(&h, 32);
    put_limbs(&h, CZK_FR_MODULUS, 4);
    put32(&h, 5), put32(&h, 1), put32(&h, 1), put32(&h, 1);
    put64(&h, 6);
    put32(&h, 3);
    static const struct { uint32_t n; uint32_t w[2]; int64_t k[2]; } lc[3][3] = {
        {{1, {3, 0}, {1, 0}}, {1, {3, 0}, {1, 0}}, {1, {4, 0}, {1, 0}}},
        {{2, {4, 0}, {1, 2}}, {1, {2, 0}, {1, 0}}, {1, {1, 0}, {1, 0}}},
        {{2, {3, 0}, {1, -1}}, {1, {0, 0}, {3, 0}}, {2, {3, 0}, {3, -3}}},
    };
    for (int j = 0; j < 3; j++)
        for (int mm = 0; mm < 3; mm++) {
            put32(&c, lc[j][mm].n);
            for (uint32_t t = 0; t < lc[j][mm].n; t++) {
                czk_fr v;
                uint8_t raw[32];
                int64_t k = lc[j][mm].k[t];
                czk_fr_from_u64(&v, (uint64_t)(k < 0 ? -k : k));
                if (k < 0) czk_fr_neg(&v, &v);
                czk_fr_to_bytes(raw, &v);
                put32(&c, lc[j][mm].w[t]);
                put(&c, raw, 32);
            }
        }
    for (uint64_t i = 0; i < 5; i++) put64(&m, i);
    put(out, "r1cs", 4);
    put32(out, 1), put32(out, 3);
    put_sect(out, 2, &c), put_sect(out, 1, &h), put_sect(out, 3, &m);
    free(h.p), free(c.p), free(m.p);
}

static void build_wtns(sbuf *out)
{
    /* x = 3, k = 5: y = 9, out = 55 */
    static const uint64_t w[5] = {1, 55, 5, 3, 9};
    sbuf h = {0}, d = {0};
    put32(&h, 32);
    put_limbs(&h, CZK_FR_MODULUS, 4);
    put32(&h, 5);
    for (int i = 0; i < 5; i++) put_fr_le(&d, w[i]);
    put(out, "wtns", 4);
    put32(out, 2), put32(out, 2);
    put_sect(out, 1, &h), put_sect(out, 2, &d);
    free(h.p), free(d.p);
}

/* Structurally valid Groth16 zkey for the r1cs above (nVars 5, nPublic 2,
 * domain 8); its points are small multiples of the generators, not a real
 * setup: the reader checks structure, curve and subgroup, not the keys. */
static void build_zkey(sbuf *out)
{
    sbuf s[11] = {{0}};
    czk_g1_affine p1, inf1;
    czk_g2_affine p2, inf2;
    czk_g1_affine_set_inf(&inf1);
    czk_g2_affine_set_inf(&inf2);
    put32(&s[1], 1);
    put32(&s[2], 48);
    put_limbs(&s[2], CZK_FP_MODULUS, 6);
    put32(&s[2], 32);
    put_limbs(&s[2], CZK_FR_MODULUS, 4);
    put32(&s[2], 5), put32(&s[2], 2), put32(&s[2], 8);
    g1_of(&p1, 2), put_g1_lem(&s[2], &p1);
    g1_of(&p1, 3), put_g1_lem(&s[2], &p1);
    g2_of(&p2, 3), put_g2_lem(&s[2], &p2);
    g2_of(&p2, 1), put_g2_lem(&s[2], &p2);
    g1_of(&p1, 5), put_g1_lem(&s[2], &p1);
    g2_of(&p2, 5), put_g2_lem(&s[2], &p2);
    for (uint64_t i = 0; i < 3; i++) g1_of(&p1, 10 + i), put_g1_lem(&s[3], &p1);
    /* coefficients: (matrix, row, signal, value * R^2 as raw limbs) */
    static const uint32_t rec[][3] = {{0, 0, 3}, {1, 0, 3}, {0, 1, 4}, {0, 1, 0}, {1, 1, 2}, {0, 3, 0}, {0, 4, 1}};
    put32(&s[4], 7);
    for (int i = 0; i < 7; i++) {
        put32(&s[4], rec[i][0]), put32(&s[4], rec[i][1]), put32(&s[4], rec[i][2]);
        uint64_t v[4] = {(uint64_t)i + 1, 0, 0, 0};
        put_limbs(&s[4], v, 4);
    }
    for (uint64_t i = 0; i < 5; i++) {
        if (i == 1) put_g1_lem(&s[5], &inf1), put_g1_lem(&s[6], &inf1), put_g2_lem(&s[7], &inf2);
        else g1_of(&p1, 20 + i), put_g1_lem(&s[5], &p1), put_g1_lem(&s[6], &p1), g2_of(&p2, 30 + i), put_g2_lem(&s[7], &p2);
    }
    for (uint64_t i = 0; i < 2; i++) g1_of(&p1, 40 + i), put_g1_lem(&s[8], &p1);
    for (uint64_t i = 0; i < 8; i++) g1_of(&p1, 50 + i), put_g1_lem(&s[9], &p1);
    uint8_t hash[64] = {1, 2, 3};
    put(&s[10], hash, 64);
    put32(&s[10], 0);
    put(out, "zkey", 4);
    put32(out, 1), put32(out, 10);
    static const int order[10] = {1, 2, 4, 3, 5, 6, 7, 8, 10, 9};
    for (int i = 0; i < 10; i++) put_sect(out, (uint32_t)order[i], &s[order[i]]);
    for (int i = 0; i < 11; i++) free(s[i].p);
}

static int emit_sbuf(sbuf *b, czk_fuzz_emit_fn emit, void *ctx)
{
    int ok = !b->bad;
    if (ok) emit(ctx, b->p, b->n);
    free(b->p);
    memset(b, 0, sizeof *b);
    return ok;
}

/* ---- snarkjs JSON ------------------------------------------------------------- */

static void put_dec_fp(sbuf *b, const czk_fp *x)
{
    char d[120];
    czk_fp_to_dec(d, x);
    put_str(b, "\""), put_str(b, d), put_str(b, "\"");
}
static void json_g1(sbuf *b, const czk_g1_affine *p)
{
    if (p->inf) {
        put_str(b, "[\"0\",\"1\",\"0\"]");
        return;
    }
    put_str(b, "["), put_dec_fp(b, &p->x), put_str(b, ","), put_dec_fp(b, &p->y), put_str(b, ",\"1\"]");
}
static void json_g2(sbuf *b, const czk_g2_affine *p)
{
    put_str(b, "[["), put_dec_fp(b, &p->x.c0), put_str(b, ","), put_dec_fp(b, &p->x.c1);
    put_str(b, "],["), put_dec_fp(b, &p->y.c0), put_str(b, ","), put_dec_fp(b, &p->y.c1);
    put_str(b, "],[\"1\",\"0\"]]");
}

static int seeds_snarkjs(const char *what, czk_fuzz_emit_fn emit, void *ctx)
{
    czk_g1_affine a, c;
    czk_g2_affine b;
    g1_of(&a, 7), g2_of(&b, 8), g1_of(&c, 9);
    if (strcmp(what, "snarkjs_proof_json") == 0) {
        tmpdir t;
        czk_groth16_proof pr = {a, b, c};
        if (!tmp_open(&t)) return -1;
        int ok = czk_circom_proof_write_json(t.path, &pr) == CZK_OK && emit_file(&t, emit, ctx);
        czk_g1_affine_set_inf(&pr.c);
        ok = ok && czk_circom_proof_write_json(t.path, &pr) == CZK_OK && emit_file(&t, emit, ctx);
        tmp_close(&t);
        return ok ? 2 : -1;
    }
    if (strcmp(what, "snarkjs_public_json") == 0) {
        tmpdir t;
        czk_fr pub[3];
        czk_fr_from_u64(&pub[0], 55), czk_fr_from_u64(&pub[1], 5);
        czk_fr_neg(&pub[2], &pub[1]);
        if (!tmp_open(&t)) return -1;
        int ok = czk_circom_public_write_json(t.path, pub, 3) == CZK_OK && emit_file(&t, emit, ctx);
        tmp_close(&t);
        static const char empty[] = "[]";
        emit(ctx, (const uint8_t *)empty, 2);
        return ok ? 2 : -1;
    }
    /* verification_key.json as snarkjs writes it (vk_alphabeta_12 omitted:
     * the reader recomputes what it needs). */
    sbuf v = {0};
    put_str(&v, "{\"protocol\":\"groth16\",\"curve\":\"bls12381\",\"nPublic\":2,\"vk_alpha_1\":");
    json_g1(&v, &a);
    put_str(&v, ",\"vk_beta_2\":"), json_g2(&v, &b);
    put_str(&v, ",\"vk_gamma_2\":"), json_g2(&v, &b);
    put_str(&v, ",\"vk_delta_2\":"), json_g2(&v, &b);
    put_str(&v, ",\"IC\":["), json_g1(&v, &a), put_str(&v, ","), json_g1(&v, &c), put_str(&v, ",");
    json_g1(&v, &a), put_str(&v, "]}");
    return emit_sbuf(&v, emit, ctx) ? 1 : -1;
}

/* ---- small encodings ------------------------------------------------------------ */

static int seeds_points(const char *what, czk_fuzz_emit_fn emit, void *ctx)
{
    uint8_t e[CZK_G2_UNCOMPRESSED];
    int n = 0;
    for (uint64_t k = 0; k < 4; k++) {
        czk_g1_affine p;
        czk_g2_affine q;
        if (k == 0) czk_g1_affine_set_inf(&p), czk_g2_affine_set_inf(&q);
        else g1_of(&p, k * 1000003), g2_of(&q, k * 1000003);
        if (strcmp(what, "g1_compressed") == 0) czk_g1_compress(e, &p), emit(ctx, e, CZK_G1_COMPRESSED);
        else if (strcmp(what, "g1_uncompressed") == 0) czk_g1_serialize(e, &p), emit(ctx, e, CZK_G1_UNCOMPRESSED);
        else if (strcmp(what, "g2_compressed") == 0) czk_g2_compress(e, &q), emit(ctx, e, CZK_G2_COMPRESSED);
        else if (strcmp(what, "g2_uncompressed") == 0) czk_g2_serialize(e, &q), emit(ctx, e, CZK_G2_UNCOMPRESSED);
        else if (strcmp(what, "groth16_proof") == 0) {
            czk_groth16_proof pr;
            pr.a = p, pr.b = q;
            g1_of(&pr.c, k + 5);
            czk_groth16_proof_encode(e, &pr);
            emit(ctx, e, CZK_GROTH16_PROOF_BYTES);
        } else return -1;
        n++;
    }
    return n;
}

static int seeds_field(const char *what, czk_fuzz_emit_fn emit, void *ctx)
{
    uint8_t e[CZK_FP_BYTES];
    char s[128];
    czk_fr r, m1;
    czk_fp p;
    int n = 0;
    czk_fr_from_u64(&m1, 1);
    czk_fr_neg(&m1, &m1);
    for (int i = 0; i < 4; i++) {
        if (i == 3) r = m1;
        else czk_fr_from_u64(&r, (uint64_t)i * 0x123456789abcdefull);
        if (strcmp(what, "field_bytes") == 0) {
            memset(e, 0, sizeof e);
            czk_fr_to_bytes(e, &r);
            emit(ctx, e, sizeof e);
            czk_fp_from_u64(&p, (uint64_t)i * 77);
            if (i == 3) czk_fp_neg(&p, &p);
            czk_fp_to_bytes(e, &p);
            emit(ctx, e, sizeof e);
            n += 2;
        } else {
            czk_fr_to_hex(s, &r);
            emit(ctx, (const uint8_t *)s, strlen(s));
            czk_fr_to_dec(s, &r);
            emit(ctx, (const uint8_t *)s, strlen(s));
            n += 2;
        }
    }
    return n;
}

int czk_fuzz_seeds(const char *target, czk_fuzz_emit_fn emit, void *ctx)
{
    if (strcmp(target, "fc_c1") == 0) return seeds_c1(emit, ctx);
    if (strcmp(target, "fc_base64") == 0) {
        static const char *s[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYmFy\nZm9v", "AAECAwQFBgcICQ=="};
        for (int i = 0; i < 6; i++) emit(ctx, (const uint8_t *)s[i], strlen(s[i]));
        return 6;
    }
    if (strncmp(target, "groth16_", 8) == 0 && strcmp(target, "groth16_proof") != 0)
        return seeds_groth16(target, emit, ctx);
    if (strcmp(target, "pce") == 0 || strcmp(target, "pce_resum") == 0) return seeds_groth16("pce", emit, ctx);
    if (strncmp(target, "g1_", 3) == 0 || strncmp(target, "g2_", 3) == 0 || strcmp(target, "groth16_proof") == 0)
        return seeds_points(target, emit, ctx);
    if (strncmp(target, "field_", 6) == 0) return seeds_field(target, emit, ctx);
    sbuf b = {0};
    if (strcmp(target, "circom_r1cs") == 0) return build_r1cs(&b), emit_sbuf(&b, emit, ctx) ? 1 : -1;
    if (strcmp(target, "circom_wtns") == 0) return build_wtns(&b), emit_sbuf(&b, emit, ctx) ? 1 : -1;
    if (strcmp(target, "circom_zkey") == 0) return build_zkey(&b), emit_sbuf(&b, emit, ctx) ? 1 : -1;
    if (strcmp(target, "circom_sym") == 0) {
        static const char s[] = "1,1,0,main.out\n2,2,0,main.k\n3,3,0,main.x\n4,-1,0,main.t\n5,4,1,main.sq.y\n";
        emit(ctx, (const uint8_t *)s, sizeof s - 1);
        return 1;
    }
    if (strncmp(target, "snarkjs_", 8) == 0) return seeds_snarkjs(target, emit, ctx);
    if (strcmp(target, "post_vanilla") == 0) return czk__fuzz_seeds_post_vanilla(emit, ctx);
    if (strcmp(target, "post_json") == 0) return czk__fuzz_seeds_post_json(emit, ctx);
    if (strcmp(target, "snap_vanilla") == 0) return czk__fuzz_seeds_snap_vanilla(emit, ctx);
    if (strcmp(target, "snap_json") == 0) return czk__fuzz_seeds_snap_json(emit, ctx);
    return -1;
}
