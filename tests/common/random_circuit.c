/* A random R1CS for tests of the prover, PCE and engine. */
#include "common/random_circuit.h"

#include <stdlib.h>

#define CZK_LCV vec /* builds its LCs with the vec variant (cs/lc.h) */
#include "cs/lc_lcv.h"

typedef struct {
    czk_var v;
    czk_fr val;
} var_val;

/* A random circuit whose STRUCTURE depends only on `shape_seed` and whose
 * VALUES depend on `value_seed`: n_in public inputs, some free aux variables,
 * then n_mul constraints (sum of 1..3 terms) * (sum of 1..3 terms) = z with z
 * a fresh aux variable. Some aux variables never occur in A, some inputs
 * occur in B, so every density case is exercised. Returns the public inputs
 * (without ONE) in pub[0..n_in). */
czk_status czk_test_random_circuit(czk_cs *cs, uint64_t shape_seed, uint64_t value_seed, size_t n_in,
                                 size_t n_free, size_t n_mul, czk_fr *pub)
{
    czk_rng srng, vrng;
    czk_rng_seed(&srng, shape_seed);
    czk_rng_seed(&vrng, value_seed);
    size_t cap = 1 + n_in + n_free + n_mul;
    var_val *vars = malloc(cap * sizeof *vars);
    size_t nv = 0;
    vars[nv].v = CZK_VAR_ONE;
    vars[nv++].val = CZK_FR_ONE;
    czk_status s = CZK_OK;
    for (size_t i = 0; i < n_in && s == CZK_OK; i++) {
        czk_fr_random(&vars[nv].val, &vrng);
        pub[i] = vars[nv].val;
        s = czk_cs_alloc_input(cs, &vars[nv].v, &vars[nv].val, "input", i);
        nv++;
    }
    size_t first_free = nv;
    for (size_t i = 0; i < n_free && s == CZK_OK; i++) {
        czk_fr_random(&vars[nv].val, &vrng);
        s = czk_cs_alloc(cs, &vars[nv].v, &vars[nv].val, "free", i);
        nv++;
    }
    /* vars in [first_free, first_free + n_free/2) never appear in A */
    size_t no_a_end = first_free + n_free / 2;
    for (size_t i = 0; i < n_mul && s == CZK_OK; i++) {
        czk_lc_vec la, lb, lc;
        czk_lc_init_vec(&la);
        czk_lc_init_vec(&lb);
        czk_lc_init_vec(&lc);
        czk_fr va = CZK_FR_ZERO, vb = CZK_FR_ZERO;
        for (int side = 0; side < 2; side++) {
            unsigned nt = 1 + (unsigned)czk_rng_below(&srng, 3);
            for (unsigned t = 0; t < nt; t++) {
                size_t k;
                do k = (size_t)czk_rng_below(&srng, nv);
                while (side == 0 && k >= first_free && k < no_a_end);
                czk_fr coeff, tmp;
                if (czk_rng_below(&srng, 2))
                    coeff = CZK_FR_ONE;
                else
                    czk_fr_from_u64(&coeff, czk_rng_below(&srng, 1000) + 2);
                czk_lc_add_term_vec(side ? &lb : &la, &coeff, vars[k].v);
                czk_fr_mul(&tmp, &coeff, &vars[k].val);
                czk_fr_add(side ? &vb : &va, side ? &vb : &va, &tmp);
            }
        }
        czk_fr_mul(&vars[nv].val, &va, &vb);
        s = czk_cs_alloc(cs, &vars[nv].v, &vars[nv].val, "z", i);
        if (s == CZK_OK) {
            czk_lc_add_var_vec(&lc, vars[nv].v);
            s = czk_enforce_vec(cs, &la, &lb, &lc, "mul", i);
        }
        nv++;
        czk_lc_free_vec(&la);
        czk_lc_free_vec(&lb);
        czk_lc_free_vec(&lc);
    }
    /* every free variable is used: ONE * free_i = free_i (B and C only) */
    for (size_t i = 0; i < n_free && s == CZK_OK; i++) {
        czk_lc_vec la, lb;
        czk_lc_init_vec(&la);
        czk_lc_init_vec(&lb);
        czk_lc_add_var_vec(&la, CZK_VAR_ONE);
        czk_lc_add_var_vec(&lb, vars[first_free + i].v);
        s = czk_enforce_vec(cs, &la, &lb, &lb, "use", i);
        czk_lc_free_vec(&la);
        czk_lc_free_vec(&lb);
    }
    free(vars);
    return s;
}

