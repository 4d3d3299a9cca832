/* a*b = c on every row of an evaluated witness (czk/pce.h czk_pce_check,
 * pce_internal.h czk__pce_check_rows): any kind's PCE source and the
 * benchmarks check their a, b, c with it. */
#include "czk/czk.h"
#include "czk/pce.h"
#include "pce/pce_internal.h"

czk_status czk__pce_check_rows(const czk_fr *a, const czk_fr *b, const czk_fr *c, uint64_t n, uint64_t base,
                               int threads)
{
    if (threads <= 0) threads = czk_threads();
    const int64_t rows = (int64_t)n;
    int64_t bad = rows;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : bad)
    for (int64_t r = 0; r < rows; r++) {
        czk_fr ab;
        czk_fr_mul(&ab, &a[r], &b[r]);
        if (!czk_fr_eq(&ab, &c[r]) && r < bad) bad = r;
    }
    if (bad < rows)
        return czk_error(CZK_ERR_UNSATISFIED, "constraint %llu is not satisfied (a*b != c)",
                         (unsigned long long)(base + (uint64_t)bad));
    return CZK_OK;
}

czk_status czk_pce_check(const czk_cs_assignment *w, int threads)
{
    return czk__pce_check_rows(w->a, w->b, w->c, w->n_constraints, 0, threads);
}
