/* An INSECURE Groth16 setup that writes a snarkjs-compatible .zkey for an
 * r1cs (benchmarks and tests only: the toxic waste comes from the caller's
 * RNG). It follows snarkjs' conventions (docs/circom.md): Lagrange basis of the
 * nqr-5 roots, gamma = 1, nPublic+1 extra A rows, H = [L'_{2i+1}(tau)/delta]
 * over the 2n-th roots, coefficients stored as coef * R^2. It exists because
 * a snarkjs powers-of-tau ceremony for 2^17 takes hours on a small machine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "czk/czk.h"
#include "czk/ntt.h"
#include "io/io_internal.h"

typedef struct wbuf {
    FILE *f;
    int err;
} wbuf;

static void wr(wbuf *b, const void *p, size_t n)
{
    if (!b->err && fwrite(p, 1, n, b->f) != n) b->err = 1;
}
static void wr32(wbuf *b, uint32_t v)
{
    uint8_t t[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    wr(b, t, 4);
}
static void wr64(wbuf *b, uint64_t v)
{
    wr32(b, (uint32_t)v);
    wr32(b, (uint32_t)(v >> 32));
}
static void wrlimbs(wbuf *b, const uint64_t *l, size_t n)
{
    for (size_t i = 0; i < n; i++) wr64(b, l[i]);
}
static void sect(wbuf *b, uint32_t type, uint64_t len)
{
    wr32(b, type);
    wr64(b, len);
}
static void wr_g1(wbuf *b, const czk_g1_affine *p)
{
    static const uint8_t z[96];
    if (p->inf) {
        wr(b, z, 96);
        return;
    }
    wrlimbs(b, p->x.l, 6);
    wrlimbs(b, p->y.l, 6);
}
static void wr_g2(wbuf *b, const czk_g2_affine *p)
{
    static const uint8_t z[192];
    if (p->inf) {
        wr(b, z, 192);
        return;
    }
    wrlimbs(b, p->x.c0.l, 6);
    wrlimbs(b, p->x.c1.l, 6);
    wrlimbs(b, p->y.c0.l, 6);
    wrlimbs(b, p->y.c1.l, 6);
}

/* out[i] = [k[i]] G1, threaded. */
static void g1_many(czk_g1_affine *out, const czk_fr *k, size_t n)
{
    czk_g1_affine g;
    czk_g1_generator(&g);
    czk_g1_jac gj;
    czk_g1_jac_from_affine(&gj, &g);
    int64_t nn = (int64_t)n;
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t i = 0; i < nn; i++) {
        czk_g1_jac t;
        czk_g1_mul_var(&t, &gj, &k[i]);
        czk_g1_jac_to_affine(&out[i], &t);
    }
}
static void g2_many(czk_g2_affine *out, const czk_fr *k, size_t n)
{
    czk_g2_affine g;
    czk_g2_generator(&g);
    czk_g2_jac gj;
    czk_g2_jac_from_affine(&gj, &g);
    int64_t nn = (int64_t)n;
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t i = 0; i < nn; i++) {
        czk_g2_jac t;
        czk_g2_mul_var(&t, &gj, &k[i]);
        czk_g2_jac_to_affine(&out[i], &t);
    }
}

/* L[i] = L_{stride*i + off}(tau) of the m-th roots (m = 2^logm), i < cnt:
 * L_k(tau) = (tau^m - 1) w^k / (m (tau - w^k)). */
static czk_status lagrange(czk_fr *L, size_t cnt, unsigned logm, size_t stride, size_t off, const czk_fr *tau)
{
    czk_fr w, ws, wk, tm, num, mf, minv;
    CZK_TRY(czk_ntt_root_of_unity(&w, logm, CZK_NTT_ROOTS_NQR5));
    czk_fr_pow_u64(&ws, &w, stride);
    czk_fr_pow_u64(&wk, &w, off);
    czk_fr_pow_u64(&tm, tau, (uint64_t)1 << logm);
    czk_fr_sub(&num, &tm, &CZK_FR_ONE);
    czk_fr_from_u64(&mf, (uint64_t)1 << logm);
    czk_fr_inv(&minv, &mf);
    czk_fr_mul(&num, &num, &minv);
    czk_fr *den = malloc(cnt * sizeof(czk_fr)), *scr = malloc(cnt * sizeof(czk_fr));
    if (!den || !scr) {
        free(den), free(scr);
        return czk_error(CZK_ERR_NOMEM, "setup: Lagrange basis");
    }
    for (size_t i = 0; i < cnt; i++) {
        L[i] = wk;
        czk_fr_sub(&den[i], tau, &wk);
        czk_fr_mul(&wk, &wk, &ws);
    }
    czk_fr_batch_inv(den, den, cnt, scr);
    for (size_t i = 0; i < cnt; i++) {
        czk_fr_mul(&L[i], &L[i], &den[i]);
        czk_fr_mul(&L[i], &L[i], &num);
    }
    free(den), free(scr);
    return CZK_OK;
}

czk_status czk_circom_zkey_setup_insecure(const char *path, const czk_circom_r1cs *r, czk_rng *rng)
{
    uint32_t npub = r->n_outputs + r->n_pub_inputs, nv = r->n_wires, m = r->n_constraints;
    uint64_t need = (uint64_t)m + npub + 1;
    unsigned logn = 1;
    while (((uint64_t)1 << logn) < need) logn++;
    if (logn > 27) return czk_error(CZK_ERR_UNSUPPORTED, "setup: %llu rows need a domain above 2^27",
                                    (unsigned long long)need);
    size_t n = (size_t)1 << logn;
    czk_fr tau, alpha, beta, delta, dinv, Rv;
    czk_fr_random(&tau, rng);
    czk_fr_random(&alpha, rng);
    czk_fr_random(&beta, rng);
    czk_fr_random(&delta, rng);
    czk_fr_inv(&dinv, &delta);
    CZK_TRY(czk_fr_from_hex(&Rv, "0x1824b159acc5056f998c4fefecbc4ff55884b7fa0003480200000001fffffffe"));

    czk_status st = CZK_OK;
    czk_fr *L = malloc(n * sizeof(czk_fr)), *H = malloc(n * sizeof(czk_fr));
    czk_fr *X = calloc((size_t)nv * 3, sizeof(czk_fr)), *K = malloc((size_t)nv * sizeof(czk_fr));
    czk_g1_affine *P1 = malloc((n > nv ? n : nv) * sizeof(czk_g1_affine));
    czk_g2_affine *P2 = malloc((size_t)nv * sizeof(czk_g2_affine));
    FILE *f = NULL;
    czk__afile af = {.fd = -1};
    if (!L || !H || !X || !K || !P1 || !P2) {
        st = czk_error(CZK_ERR_NOMEM, "setup: %zu rows, %u signals", n, nv);
        goto out;
    }
    if ((st = lagrange(L, n, logn, 1, 0, &tau)) != CZK_OK) goto out;
    if ((st = lagrange(H, n, logn + 1, 2, 1, &tau)) != CZK_OK) goto out;
    czk_fr *As = X, *Bs = X + nv, *Cs = X + 2 * (size_t)nv;
    for (int mm = 0; mm < 3; mm++)
        for (uint32_t j = 0; j < m; j++)
            for (uint64_t t = r->start[mm][j]; t < r->start[mm][j + 1]; t++) {
                czk_fr p;
                czk_fr_mul(&p, &r->coef[mm][t], &L[j]);
                czk_fr_add(&X[(size_t)mm * nv + r->wire[mm][t]], &X[(size_t)mm * nv + r->wire[mm][t]], &p);
            }
    for (uint32_t s = 0; s <= npub; s++) czk_fr_add(&As[s], &As[s], &L[m + s]);

    if ((st = czk__afile_open_stream(&af, &f, path, 0)) != CZK_OK) goto out;
    wbuf b = {f, 0};
    wr(&b, "zkey", 4);
    wr32(&b, 1);
    wr32(&b, 10);
    sect(&b, 1, 4);
    wr32(&b, 1);
    sect(&b, 2, 4 + 48 + 4 + 32 + 12 + 3 * 96 + 3 * 192);
    wr32(&b, 48);
    wrlimbs(&b, CZK_FP_MODULUS, 6);
    wr32(&b, 32);
    wrlimbs(&b, CZK_FR_MODULUS, 4);
    wr32(&b, nv);
    wr32(&b, npub);
    wr32(&b, (uint32_t)n);
    {
        czk_fr k1[3] = {alpha, beta, delta}, k2[3] = {beta, CZK_FR_ONE, delta};
        czk_g1_affine g1[3];
        czk_g2_affine g2[3];
        g1_many(g1, k1, 3);
        g2_many(g2, k2, 3);
        wr_g1(&b, &g1[0]), wr_g1(&b, &g1[1]), wr_g2(&b, &g2[0]), wr_g2(&b, &g2[1]), wr_g1(&b, &g1[2]);
        wr_g2(&b, &g2[2]);
    }
    /* IC and C: beta A_s + alpha B_s + C_s (C divided by delta) */
    for (uint32_t s = 0; s < nv; s++) {
        czk_fr x, y;
        czk_fr_mul(&x, &beta, &As[s]);
        czk_fr_mul(&y, &alpha, &Bs[s]);
        czk_fr_add(&x, &x, &y);
        czk_fr_add(&x, &x, &Cs[s]);
        if (s > npub) czk_fr_mul(&x, &x, &dinv);
        K[s] = x;
    }
    g1_many(P1, K, (size_t)npub + 1);
    sect(&b, 3, ((uint64_t)npub + 1) * 96);
    for (uint32_t s = 0; s <= npub; s++) wr_g1(&b, &P1[s]);
    uint64_t nrec = r->start[0][m] + r->start[1][m] + npub + 1;
    sect(&b, 4, 4 + nrec * 44);
    wr32(&b, (uint32_t)nrec);
    for (uint32_t j = 0; j < m; j++)
        for (uint32_t mm = 0; mm < 2; mm++)
            for (uint64_t t = r->start[mm][j]; t < r->start[mm][j + 1]; t++) {
                czk_fr v;
                czk_fr_mul(&v, &r->coef[mm][t], &Rv);
                wr32(&b, mm), wr32(&b, j), wr32(&b, r->wire[mm][t]);
                wrlimbs(&b, v.l, 4);
            }
    for (uint32_t s = 0; s <= npub; s++) {
        czk_fr v;
        czk_fr_mul(&v, &CZK_FR_ONE, &Rv);
        wr32(&b, 0), wr32(&b, m + s), wr32(&b, s);
        wrlimbs(&b, v.l, 4);
    }
    g1_many(P1, As, nv);
    sect(&b, 5, (uint64_t)nv * 96);
    for (uint32_t s = 0; s < nv; s++) wr_g1(&b, &P1[s]);
    g1_many(P1, Bs, nv);
    sect(&b, 6, (uint64_t)nv * 96);
    for (uint32_t s = 0; s < nv; s++) wr_g1(&b, &P1[s]);
    g2_many(P2, Bs, nv);
    sect(&b, 7, (uint64_t)nv * 192);
    for (uint32_t s = 0; s < nv; s++) wr_g2(&b, &P2[s]);
    g1_many(P1, K + npub + 1, nv - npub - 1);
    sect(&b, 8, (uint64_t)(nv - npub - 1) * 96);
    for (uint32_t s = 0; s < nv - npub - 1; s++) wr_g1(&b, &P1[s]);
    for (size_t i = 0; i < n; i++) czk_fr_mul(&H[i], &H[i], &dinv);
    g1_many(P1, H, n);
    sect(&b, 9, (uint64_t)n * 96);
    for (size_t i = 0; i < n; i++) wr_g1(&b, &P1[i]);
    {
        uint8_t hash[64] = {0};
        sect(&b, 10, 64 + 4);
        wr(&b, hash, 64);
        wr32(&b, 0);
    }
    if (b.err) st = czk_error(CZK_ERR_IO, "%s: write: %s", path, strerror(af.err ? af.err : EIO));
out:
    /* atomically in place, then the sidecar: the points are multiples of the generators */
    if (f && st == CZK_OK)
        st = czk__afile_commit(&af, NULL, 0);
    else
        czk__afile_abort(&af);
    if (f && st == CZK_OK) st = czk_circom_zkey_pin(path);
    memset(&tau, 0, sizeof tau), memset(&alpha, 0, sizeof alpha), memset(&beta, 0, sizeof beta);
    memset(&delta, 0, sizeof delta);
    free(L), free(H), free(X), free(K), free(P1), free(P2);
    return st;
}
