/* czk — native Poseidon (docs/filecoin.md#poseidon), in neptune's optimized round structure.
 *
 * The optimized form (Poseidon paper, Grassi et al. 2021, appendix B) computes the
 * same permutation: round constants are moved through the linear layers
 * ("compressed" constants crc), and the products of the partial rounds' MDS are
 * factored into a pre-sparse matrix plus one sparse matrix per partial round, whose
 * product with the state costs 2t - 1 multiplications instead of t^2. The circuit
 * gadget (poseidon_circuit.c) follows the same structure; that is where Filecoin's
 * R1CS comes from.
 */
#include "czk/poseidon.h"

#include <string.h>

#include "gadgets/poseidon_params.h"

const czk__poseidon_params *czk__poseidon_params_get(unsigned arity) {
    for (unsigned i = 0; i < CZK__POSEIDON_NPARAMS; i++)
        if (czk__poseidon_params_table[i].arity == arity) return &czk__poseidon_params_table[i];
    return NULL;
}

int czk_poseidon_arity_supported(size_t arity) {
    return arity <= CZK_POSEIDON_MAX_ARITY && czk__poseidon_params_get((unsigned)arity) != NULL;
}

unsigned czk_poseidon_full_rounds(size_t arity) {
    const czk__poseidon_params *p = arity <= CZK_POSEIDON_MAX_ARITY ? czk__poseidon_params_get((unsigned)arity) : NULL;
    return p ? p->r_f : 0;
}

unsigned czk_poseidon_partial_rounds(size_t arity) {
    const czk__poseidon_params *p = arity <= CZK_POSEIDON_MAX_ARITY ? czk__poseidon_params_get((unsigned)arity) : NULL;
    return p ? p->r_p : 0;
}

static czk_status params_of(const czk__poseidon_params **out, size_t arity, const char *fn) {
    *out = arity <= CZK_POSEIDON_MAX_ARITY ? czk__poseidon_params_get((unsigned)arity) : NULL;
    if (!*out)
        return czk_error(CZK_ERR_UNSUPPORTED, "%s: Poseidon arity %zu has no parameters (2, 4, 8, 11)",
                         fn, arity);
    return CZK_OK;
}

/* x = x^5 */
static inline void sbox(czk_fr *x) {
    czk_fr x2, x4;
    czk_fr_sqr(&x2, x);
    czk_fr_sqr(&x4, &x2);
    czk_fr_mul(x, &x4, x);
}

/* s = s * M (row vector times the t x t matrix m, row-major). */
static void mix_dense(czk_fr *s, const czk_fr *m, unsigned t) {
    czk_fr out[CZK__POSEIDON_MAX_T], tmp;
    for (unsigned j = 0; j < t; j++) {
        czk_fr_mul(&out[j], &s[0], &m[j]);
        for (unsigned i = 1; i < t; i++) {
            czk_fr_mul(&tmp, &s[i], &m[i * t + j]);
            czk_fr_add(&out[j], &out[j], &tmp);
        }
    }
    memcpy(s, out, t * sizeof(czk_fr));
}

/* s = s * S with S = [[w_hat[0], v_rest], [w_hat[1..], I]]:
 *   s'[0] = sum_i w_hat[i] s[i],  s'[j] = s[j] + v_rest[j-1] s[0]. */
static void mix_sparse(czk_fr *s, const czk_fr *w_hat, const czk_fr *v_rest, unsigned t) {
    czk_fr s0 = s[0], acc, tmp;
    czk_fr_mul(&acc, &s[0], &w_hat[0]);
    for (unsigned i = 1; i < t; i++) {
        czk_fr_mul(&tmp, &s[i], &w_hat[i]);
        czk_fr_add(&acc, &acc, &tmp);
    }
    for (unsigned j = 1; j < t; j++) {
        czk_fr_mul(&tmp, &s0, &v_rest[j - 1]);
        czk_fr_add(&s[j], &s[j], &tmp);
    }
    s[0] = acc;
}

static void permute_optimized(czk_fr *s, const czk__poseidon_params *p) {
    const unsigned t = p->t, half = p->r_f / 2;
    const czk_fr *k = p->crc;
    for (unsigned i = 0; i < t; i++) czk_fr_add(&s[i], &s[i], &k[i]);
    k += t;
    for (unsigned r = 0; r < half; r++) {
        for (unsigned i = 0; i < t; i++) {
            sbox(&s[i]);
            czk_fr_add(&s[i], &s[i], &k[i]);
        }
        k += t;
        mix_dense(s, r == half - 1 ? p->pre_sparse : p->mds, t);
    }
    for (unsigned r = 0; r < p->r_p; r++) {
        sbox(&s[0]);
        czk_fr_add(&s[0], &s[0], k++);
        mix_sparse(s, &p->w_hat[r * t], &p->v_rest[r * (t - 1)], t);
    }
    for (unsigned r = 0; r < half; r++) {
        for (unsigned i = 0; i < t; i++) {
            sbox(&s[i]);
            if (r + 1 < half) czk_fr_add(&s[i], &s[i], &k[i]);
        }
        if (r + 1 < half) k += t;
        mix_dense(s, p->mds, t);
    }
    CZK_ASSERT(k == p->crc + p->r_f * t + p->r_p);
}

static void permute_plain(czk_fr *s, const czk__poseidon_params *p) {
    const unsigned t = p->t, half = p->r_f / 2;
    for (unsigned r = 0; r < p->r_f + p->r_p; r++) {
        const czk_fr *k = &p->rc[r * t];
        for (unsigned i = 0; i < t; i++) czk_fr_add(&s[i], &s[i], &k[i]);
        if (r < half || r >= half + p->r_p) {
            for (unsigned i = 0; i < t; i++) sbox(&s[i]);
        } else {
            sbox(&s[0]);
        }
        mix_dense(s, p->mds, t);
    }
}

static void load_state(czk_fr *s, const czk__poseidon_params *p, const czk_fr *tag, const czk_fr *in,
                       size_t n) {
    s[0] = *tag;
    for (size_t i = 0; i < n; i++) s[1 + i] = in[i];
    for (size_t i = n + 1; i < p->t; i++) s[i] = CZK_FR_ZERO;
}

czk_status czk_poseidon_hash_tag(czk_fr *out, const czk_fr *tag, const czk_fr *in, size_t n) {
    const czk__poseidon_params *p;
    CZK_TRY(params_of(&p, n, "czk_poseidon_hash_tag"));
    if (!out || !tag || !in) return czk_error(CZK_ERR_INVALID_ARG, "czk_poseidon_hash_tag: NULL argument");
    czk_fr s[CZK__POSEIDON_MAX_T];
    load_state(s, p, tag, in, n);
    permute_optimized(s, p);
    *out = s[1];
    return CZK_OK;
}

czk_status czk_poseidon_hash(czk_fr *out, const czk_fr *in, size_t n) {
    const czk__poseidon_params *p;
    CZK_TRY(params_of(&p, n, "czk_poseidon_hash"));
    if (!out || !in) return czk_error(CZK_ERR_INVALID_ARG, "czk_poseidon_hash: NULL argument");
    czk_fr s[CZK__POSEIDON_MAX_T];
    load_state(s, p, &p->merkle_tag, in, n);
    permute_optimized(s, p);
    *out = s[1];
    return CZK_OK;
}

void czk_poseidon_hash2(czk_fr *out, const czk_fr *a, const czk_fr *b) {
    const czk__poseidon_params *p = &czk__poseidon_params_table[0];
    CZK_ASSERT(p->arity == 2);
    czk_fr s[3] = {p->merkle_tag, *a, *b};
    permute_optimized(s, p);
    *out = s[1];
}

void czk_poseidon_gr_tag(czk_fr *out) {
    /* neptune HashType::Custom(CType::Arbitrary(1)): 1 * 2^40 */
    czk_fr_from_u64(out, 1ULL << 40);
}

void czk_poseidon_hash2_gr(czk_fr *out, const czk_fr *a, const czk_fr *b) {
    const czk__poseidon_params *p = &czk__poseidon_params_table[0];
    CZK_ASSERT(p->arity == 2);
    czk_fr s[3];
    czk_poseidon_gr_tag(&s[0]);
    s[1] = *a;
    s[2] = *b;
    permute_optimized(s, p);
    *out = s[1];
}

czk_status czk_poseidon_hash_tag_ref(czk_fr *out, const czk_fr *tag, const czk_fr *in, size_t n) {
    const czk__poseidon_params *p;
    CZK_TRY(params_of(&p, n, "czk_poseidon_hash_tag_ref"));
    czk_fr s[CZK__POSEIDON_MAX_T];
    load_state(s, p, tag, in, n);
    permute_plain(s, p);
    *out = s[1];
    return CZK_OK;
}

czk_status czk_poseidon_round_constant(czk_fr *out, size_t arity, size_t index) {
    const czk__poseidon_params *p;
    CZK_TRY(params_of(&p, arity, "czk_poseidon_round_constant"));
    if (index >= (size_t)(p->r_f + p->r_p) * p->t)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_poseidon_round_constant: index %zu >= %u for arity %zu",
                         index, (p->r_f + p->r_p) * p->t, arity);
    *out = p->rc[index];
    return CZK_OK;
}

czk_status czk_poseidon_mds_entry(czk_fr *out, size_t arity, size_t i, size_t j) {
    const czk__poseidon_params *p;
    CZK_TRY(params_of(&p, arity, "czk_poseidon_mds_entry"));
    if (i >= p->t || j >= p->t)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_poseidon_mds_entry: (%zu, %zu) outside %u x %u", i, j,
                         p->t, p->t);
    *out = p->mds[i * p->t + j];
    return CZK_OK;
}
