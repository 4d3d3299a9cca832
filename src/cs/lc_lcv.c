/* What code compiled once needs of one LC variant (compiled once per
 * CZK_LCV: czk__lc_free_n_vec ... czk__lc_free_n_inline4, cs/lc.h). */
#include "cs/lc_lcv.h"

void czk__lc_free_n(void *lcs, size_t n)
{
    czk_lc *l = lcs;
    for (size_t i = 0; i < n; i++) czk_lc_free(&l[i]);
}
