/* czk ntt — internal: the transforms of ntt_kernel.h with 8-lane AVX-512
 * IFMA butterflies (ntt_ifma.c). Same arguments, same results bit for bit;
 * called by ntt.c when czk__field_use_ifma is set and n >= 16. The in-block
 * levels run on blocks of at most 2^CZK__NTT_IFMA_BLOCK_LOG elements. */
#ifndef CZK_NTT_IFMA_H
#define CZK_NTT_IFMA_H

#include "czk/field.h"

#define CZK__NTT_IFMA_BLOCK_LOG 11

void czk__ntt_dif_ifma(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int nt);
void czk__ntt_dit_ifma(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int nt);

/* DIF, then a_j <- a_j c s^rev_k(j) (s NULL: none), the scaling done in the
 * blocks (the DIF's last stage), not as a pass of its own. */
void czk__ntt_dif_scale_ifma(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int nt,
                             const czk_fr *s, const czk_fr *c);
/* Values on the domain -> values on the coset s<omega>, times c: inverse
 * DIF (no 1/n: put it in c), a_j <- a_j c s^rev_k(j), forward DIT. The
 * blocks run the inverse DIF's last levels, the scaling and the forward DIT's
 * first levels in one visit: 2 npass + 1 passes over memory instead of
 * 2 npass + 3. */
void czk__ntt_coset_ifma(czk_fr *a, unsigned k, const czk_fr *tw, unsigned b, unsigned pmax, int nt, const czk_fr *s,
                         const czk_fr *c);
/* a_i <- (a_i b_i - c_i) z, m a multiple of 8. */
void czk__ntt_h_pointwise_ifma(czk_fr *a, const czk_fr *b, const czk_fr *c, const czk_fr *z, size_t m, int nt);

#endif
