/* Statistics for `czk diff`: median, percentile bootstrap of a median ratio,
 * Mann-Whitney U. References: Efron & Tibshirani, "An Introduction to the
 * Bootstrap" (1993) ch. 13 (percentile interval); Mann & Whitney (1947),
 * with the tie-corrected variance of Lehmann, "Nonparametrics" (1975) §1.4. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "czk/perf.h"
#include "perf/perf_internal.h"
#include "czk/rand.h"

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median_sorted(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double czk_perf_median(const double *v, size_t n)
{
    if (n == 0) return 0;
    double stackbuf[64];
    double *t = n <= 64 ? stackbuf : malloc(n * sizeof *t);
    if (!t) return NAN;
    memcpy(t, v, n * sizeof *t);
    qsort(t, n, sizeof *t, cmp_double);
    double m = median_sorted(t, n);
    if (t != stackbuf) free(t);
    return m;
}

int czk_perf_bootstrap_delta(double *lo, double *hi, const double *a, size_t na, const double *b,
                             size_t nb, double level, unsigned resamples, uint64_t seed)
{
    *lo = *hi = NAN;
    if (na == 0 || nb == 0 || resamples < 10) return -1;
    double *ra = malloc(na * sizeof *ra), *rb = malloc(nb * sizeof *rb);
    double *d = malloc(resamples * sizeof *d);
    if (!ra || !rb || !d) {
        free(ra), free(rb), free(d);
        return -1;
    }
    czk_rng rng;
    czk_rng_seed(&rng, seed);
    int bad = 0;
    for (unsigned k = 0; k < resamples; k++) {
        for (size_t i = 0; i < na; i++) ra[i] = a[czk_rng_below(&rng, na)];
        for (size_t i = 0; i < nb; i++) rb[i] = b[czk_rng_below(&rng, nb)];
        qsort(ra, na, sizeof *ra, cmp_double);
        qsort(rb, nb, sizeof *rb, cmp_double);
        double ma = median_sorted(ra, na), mb = median_sorted(rb, nb);
        if (ma == 0) {
            bad = 1;
            break;
        }
        d[k] = 100.0 * (mb / ma - 1.0);
    }
    if (!bad) {
        qsort(d, resamples, sizeof *d, cmp_double);
        double alpha = (1.0 - level) / 2.0;
        size_t il = (size_t)floor(alpha * (resamples - 1));
        size_t ih = (size_t)ceil((1.0 - alpha) * (resamples - 1));
        *lo = d[il];
        *hi = d[ih];
    }
    czk_rng_clear(&rng);
    free(ra), free(rb), free(d);
    return bad ? -1 : 0;
}

/* Number of arrangements of m a's and n b's with U = u, for all u:
 * c(m, n, u) = c(m-1, n, u-n) + c(m, n-1, u) (Mann & Whitney 1947, eq. 1). */
static double *u_distribution(size_t m, size_t n)
{
    size_t umax = m * n;
    /* tab[i][j] for i <= m, j <= n, each an array of umax+1 */
    double *tab = calloc((m + 1) * (n + 1) * (umax + 1), sizeof *tab);
    if (!tab) return NULL;
#define T(i, j) (tab + ((i) * (n + 1) + (j)) * (umax + 1))
    for (size_t i = 0; i <= m; i++)
        for (size_t j = 0; j <= n; j++) {
            double *t = T(i, j);
            if (i == 0 || j == 0) {
                t[0] = 1;
                continue;
            }
            double *x = T(i - 1, j), *y = T(i, j - 1);
            for (size_t u = 0; u <= i * j; u++) t[u] = (u >= j ? x[u - j] : 0) + y[u];
        }
    double *out = malloc((umax + 1) * sizeof *out);
    if (out) memcpy(out, T(m, n), (umax + 1) * sizeof *out);
#undef T
    free(tab);
    return out;
}

double czk_perf_mann_whitney(double *u_out, const double *a, size_t na, const double *b, size_t nb)
{
    if (u_out) *u_out = NAN;
    if (na == 0 || nb == 0) return 1.0;
    size_t N = na + nb;
    typedef struct { double v; int from_a; } item;
    item *it = malloc(N * sizeof *it);
    if (!it) return NAN;
    for (size_t i = 0; i < na; i++) it[i] = (item){a[i], 1};
    for (size_t i = 0; i < nb; i++) it[na + i] = (item){b[i], 0};
    /* insertion sort: N is small (runs of a benchmark) */
    for (size_t i = 1; i < N; i++) {
        item x = it[i];
        size_t j = i;
        while (j > 0 && it[j - 1].v > x.v) it[j] = it[j - 1], j--;
        it[j] = x;
    }
    double ra = 0, tie_term = 0;
    int ties = 0;
    for (size_t i = 0; i < N;) {
        size_t j = i;
        while (j + 1 < N && it[j + 1].v == it[i].v) j++;
        double rank = 0.5 * (double)(i + j) + 1.0; /* midrank of positions i..j (1-based) */
        double t = (double)(j - i + 1);
        if (t > 1) ties = 1, tie_term += t * t * t - t;
        for (size_t k = i; k <= j; k++)
            if (it[k].from_a) ra += rank;
        i = j + 1;
    }
    free(it);
    double u = ra - (double)na * (double)(na + 1) / 2.0;
    if (u_out) *u_out = u;
    double mn = (double)na * (double)nb;
    if (!ties && na <= 25 && nb <= 25) {
        double *c = u_distribution(na, nb);
        if (c) {
            size_t ui = (size_t)llround(u), umax = na * nb;
            double total = 0, le = 0, ge = 0;
            for (size_t k = 0; k <= umax; k++) {
                total += c[k];
                if (k <= ui) le += c[k];
                if (k >= ui) ge += c[k];
            }
            free(c);
            double p = 2.0 * (le < ge ? le : ge) / total;
            return p > 1.0 ? 1.0 : p;
        }
    }
    double mu = mn / 2.0;
    double var = mn / 12.0 * (((double)N + 1.0) - tie_term / ((double)N * ((double)N - 1.0)));
    if (var <= 0) return 1.0;
    double z = (fabs(u - mu) - 0.5) / sqrt(var);
    if (z < 0) z = 0;
    double p = erfc(z / sqrt(2.0));
    return p > 1.0 ? 1.0 : p;
}
