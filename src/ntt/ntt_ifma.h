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

#endif
