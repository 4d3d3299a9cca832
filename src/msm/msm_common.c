/* czk msm — argument checks, scalar preparation, cost model, scratch layout
 * and the sparse pre-pass, shared by the G1 and G2 instantiations
 * (src/msm/README.md explains the model). */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "msm/msm_internal.h"
#include "common/bigmem.h"

static size_t popcount_bits(const uint64_t *bits, size_t n)
{
    size_t full = n / 64, c = 0;
    for (size_t i = 0; i < full; i++) c += (size_t)__builtin_popcountll(bits[i]);
    if (n % 64) c += (size_t)__builtin_popcountll(bits[full] & ((1ull << (n % 64)) - 1));
    return c;
}

czk_status czk__msm_check_args(const char *what, const void *out, const void *bases, size_t nbases,
                               const void *scalars, size_t n, const uint64_t *density,
                               const czk_msm_opts *opts)
{
    if (!out) return czk_error(CZK_ERR_INVALID_ARG, "%s: out is NULL", what);
    if (nbases && !bases) return czk_error(CZK_ERR_INVALID_ARG, "%s: bases is NULL but nbases = %zu", what, nbases);
    if (n && !scalars) return czk_error(CZK_ERR_INVALID_ARG, "%s: scalars is NULL but n = %zu", what, n);
    if (density) {
        size_t pc = popcount_bits(density, n);
        if (pc != nbases)
            return czk_error(CZK_ERR_INVALID_ARG,
                             "%s: density has %zu set bits among the %zu scalars but nbases = %zu",
                             what, pc, n, nbases);
    } else if (nbases != n) {
        return czk_error(CZK_ERR_INVALID_ARG,
                         "%s: dense MSM (density NULL) needs nbases == n, got nbases = %zu, n = %zu",
                         what, nbases, n);
    }
    if (opts) {
        if (opts->window > CZK_MSM_MAX_WINDOW)
            return czk_error(CZK_ERR_INVALID_ARG, "%s: opts->window = %u outside 1..%d (0 = automatic)",
                             what, opts->window, CZK_MSM_MAX_WINDOW);
        if (opts->algo != CZK_MSM_AUTO && opts->algo != CZK_MSM_XYZZ && opts->algo != CZK_MSM_BATCH_AFFINE)
            return czk_error(CZK_ERR_INVALID_ARG, "%s: opts->algo = %d is not a czk_msm_algo", what,
                             (int)opts->algo);
        if (opts->threads < 0)
            return czk_error(CZK_ERR_INVALID_ARG, "%s: opts->threads = %d is negative", what, opts->threads);
    }
    return CZK_OK;
}

/* k <- min(k, r - k), flagged (see czk__msm_scalar). */
static void fold_scalar(czk__msm_scalar *k)
{
    const uint64_t *r = CZK_FR_MODULUS;
    /* (r - 1) / 2 */
    uint64_t h[4];
    for (int i = 0; i < 4; i++) h[i] = (r[i] >> 1) | (i < 3 ? r[i + 1] << 63 : 0);
    int gt = 0;
    for (int i = 3; i >= 0; i--) {
        if (k->l[i] != h[i]) {
            gt = k->l[i] > h[i];
            break;
        }
    }
    if (!gt) return;
    unsigned __int128 borrow = 0;
    for (int i = 0; i < 4; i++) {
        unsigned __int128 d = (unsigned __int128)r[i] - k->l[i] - borrow;
        k->l[i] = (uint64_t)d;
        borrow = (d >> 64) & 1;
    }
    k->l[3] |= CZK__MSM_NEG_BIT;
}

void czk__msm_prepare_scalars(czk__msm_scalar *plain, size_t stride, const czk_fr *scalars, size_t n,
                              const uint64_t *density, int tid, int nthreads)
{
    if (!density) {
        size_t lo = n * (size_t)tid / (size_t)nthreads, hi = n * (size_t)(tid + 1) / (size_t)nthreads;
        for (size_t i = lo; i < hi; i++) {
            czk_fr_to_limbs(plain[i * stride].l, &scalars[i]);
            fold_scalar(&plain[i * stride]);
        }
        return;
    }
    /* Split by 64-bit density words; each thread counts the set bits before its range. */
    size_t nw = (n + 63) / 64;
    size_t wlo = nw * (size_t)tid / (size_t)nthreads, whi = nw * (size_t)(tid + 1) / (size_t)nthreads;
    size_t j = popcount_bits(density, wlo * 64);
    for (size_t w = wlo; w < whi; w++) {
        uint64_t bits = density[w];
        if (w == nw - 1 && n % 64) bits &= (1ull << (n % 64)) - 1;
        while (bits) {
            size_t i = w * 64 + (size_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            czk_fr_to_limbs(plain[j * stride].l, &scalars[i]);
            fold_scalar(&plain[j * stride]);
            j++;
        }
    }
}

/* A lane entry of the batch-affine bucket sum: two pointers and a flag. */
#define LANE_ENTRY_BYTES (3 * sizeof(void *))

static size_t align64(size_t x) { return (x + 63) & ~(size_t)63; }

void czk__msm_layout_of(czk__msm_layout *lay, const czk_msm_plan *plan, size_t m,
                        const czk__msm_costs *k)
{
    memset(lay, 0, sizeof *lay);
    size_t S = plan->sets ? plan->sets : 1;
    size_t nb = S << (plan->window - 1); /* buckets of all sets */
    lay->plain_off = 0;
    size_t o0 = align64(m * S * sizeof(czk__msm_scalar));
    size_t extra = 0; /* the +-1 partial sums, one per thread at most */
    if (plan->sparse) {
        lay->sparse_off = o0;
        o0 += align64(2 * m * sizeof(uint32_t));
        lay->count_off = o0;
        o0 += align64(2 * (size_t)plan->threads * sizeof(size_t));
        extra = (size_t)plan->threads;
    }
    lay->res_off = o0;
    lay->thread_off = lay->res_off + align64(((size_t)plan->windows * plan->chunks * S + extra) * k->xyzz_bytes);
    size_t o = 0;
    lay->digit_off = o; o += align64(CZK__MSM_PF * S * sizeof(int));
    if (plan->algo == CZK_MSM_XYZZ) {
        lay->xyzz_off = o;  o += align64(nb * k->xyzz_bytes);
    } else {
        lay->aff_off = o;   o += align64(nb * k->aff_bytes);
        lay->xyzz_off = o;  o += align64(nb * k->xyzz_bytes);
        lay->state_off = o; o += align64(nb);
        lay->mark_off = o;  o += align64(nb * sizeof(uint32_t));
        lay->entry_off = o; o += align64((size_t)plan->batch * k->entry_bytes);
        lay->queue_off = o; o += align64((size_t)plan->batch * k->entry_bytes);
        /* den doubles as the IFMA kernel's scratch: one 8-lane prefix product per 8 entries,
         * 8 limbs of 64 bits for every 48 bits of a coordinate (ec/ec_batch.h) */
        size_t den = (size_t)plan->batch * k->fe_bytes, vden = ((size_t)plan->batch + 7) / 8 * k->fe_bytes * 32 / 3;
        lay->den_off = o;   o += align64(den > vden ? den : vden);
        lay->pre_off = o;   o += align64((size_t)plan->batch * k->fe_bytes);
        lay->lane_off = o;  o += align64((size_t)plan->lanes * (3 * k->point_bytes + 2 * LANE_ENTRY_BYTES));
        lay->vec_off = o;   o += align64((size_t)plan->batch * (2 * sizeof(uintptr_t) + 1));
    }
    lay->per_thread = o;
    lay->total = lay->thread_off + (size_t)plan->threads * lay->per_thread;
}

/* Lanes K of the batch-affine bucket sum: its cost is about
 *   nb (2 ba_add + inv / K) + K (2 madd + add),
 * least at K = sqrt(nb inv / (2 madd + add)); a power of two (L = nb / K
 * buckets per lane), at most nb / 4 and batch / 2 (2 K entries share the
 * batch's arrays). 0 (the XYZZ running sum) below 8 lanes. */
static unsigned lane_count(size_t nb, unsigned batch, const czk__msm_costs *k)
{
    double best = sqrt((double)nb * k->inv / (2 * k->madd + k->add));
    unsigned K = 1;
    while (2.0 * K <= best) K *= 2;
    while ((size_t)K * 4 > nb || K * 2 > batch) K /= 2;
    return K >= 8 ? K : 0;
}

/* Extra cost of deferring a point whose bucket is pending (queue + re-offer). */
#define DEFER_COST 0.5

/* Batch size minimising  inv / B + f DEFER_COST  with the deferral rate
 * f ~ B / (2 nb) (a point meets a bucket already pending in the batch):
 * B = sqrt(2 nb inv / DEFER_COST), clamped to [16, 4096] and to nb / 2 so the
 * queue (capacity B) rarely overflows into the XYZZ twins. */
static unsigned batch_size(size_t nb, const czk__msm_costs *k)
{
    double b = sqrt(2.0 * (double)nb * k->inv / DEFER_COST);
    if (b > 4096) b = 4096;
    if (b > (double)nb / 2) b = (double)nb / 2;
    if (b < 16) b = 16;
    return (unsigned)b;
}

/* Model cost (per thread, field-mul units) of one configuration:
 *   rounds = ceil(W P / T) dynamic-scheduled tasks per thread,
 *   task   = nz (per-point bucket add) + nb (bucket sum: 2 additions per bucket),
 *   plus the serial combination of the W P partial sums (c doublings per window).
 * nz = points per task with a non-zero digit (1 - 2^-c of them). */
static double config_cost(size_t m, size_t S, unsigned c, unsigned P, int T, czk_msm_algo algo,
                          const czk__msm_costs *k, unsigned *batch_out, unsigned *lanes_out)
{
    unsigned W = czk__msm_windows(c);
    size_t nb = (size_t)1 << (c - 1);
    double tasks = (double)W * P;
    double rounds = ceil(tasks / T);
    double pts = ceil((double)m / P);
    double nz = pts * (1.0 - ldexp(1.0, -(int)c));
    double per_point, per_bucket;
    size_t bucket_bytes;
    *batch_out = 0;
    *lanes_out = 0;
    if (algo == CZK_MSM_XYZZ) {
        per_point = k->madd;
        per_bucket = 2 * k->add;
        bucket_bytes = k->xyzz_bytes;
    } else {
        unsigned B = batch_size(nb, k);
        double f = (double)B / (2.0 * (double)(S * nb));
        double eff = nz * (double)S < B ? (nz * (double)S < 1 ? 1 : nz * (double)S) : B;
        /* deferred points beyond the queue's capacity B go to XYZZ twins */
        double over = f > 1 ? 1 - 1 / f : 0;
        per_point = (1 - over) * k->ba_add + over * k->madd + (f < 1 ? f : 1) * DEFER_COST + k->inv / eff;
        unsigned K = lane_count(nb, B, k);
        per_bucket = K ? 2 * k->ba_add + k->inv / K + (double)K * (2 * k->madd + k->add) / (double)nb
                       : k->madd + k->add;
        bucket_bytes = k->aff_bytes;
        *batch_out = B;
        *lanes_out = K;
    }
    /* Buckets beyond a 1 MiB L2 slice: most accesses miss. */
    double bytes = (double)(S * nb) * (double)bucket_bytes;
    double miss = bytes > (1 << 20) ? k->miss * (1.0 - (double)(1 << 20) / bytes) : 0;
    /* and past a thread's share of the L3, a cost that keeps growing with
     * the buckets (measured: per doubling, not saturating) */
    if (bytes > CZK__MSM_L3_SHARE) miss += k->far * log2(bytes / CZK__MSM_L3_SHARE);
    /* The constants above were fitted on single MSMs, so they include reading
     * the bases once per task; S sets sharing one pass save S - 1 of those reads. */
    double task = (double)S * (nz * (per_point + miss) + (double)nb * (per_bucket + 0.05)) -
                  (double)(S - 1) * pts * k->load;
    return rounds * task + (double)S * (tasks * k->add + (double)W * c * k->dbl);
}

void czk__msm_make_plan(czk_msm_plan *plan, size_t m, size_t nsets, const czk_msm_opts *opts,
                        const czk__msm_costs *k)
{
    size_t S = nsets ? nsets : 1;
    int T = opts && opts->threads > 0 ? opts->threads : czk_threads();
    if (T < 1) T = 1;
    unsigned cmin = 1, cmax = CZK_MSM_MAX_WINDOW;
    if (opts && opts->window) cmin = cmax = opts->window;
    czk_msm_algo amin = CZK_MSM_XYZZ, amax = CZK_MSM_BATCH_AFFINE;
    if (opts && opts->algo != CZK_MSM_AUTO) amin = amax = opts->algo;

    double best = INFINITY;
    memset(plan, 0, sizeof *plan);
    for (unsigned c = cmin; c <= cmax; c++) {
        /* Far more buckets than points is never cheaper and costs memory. */
        if (!(opts && opts->window) && c > 1 && ((size_t)1 << (c - 1)) > 4 * (m + 1)) break;
        unsigned W = czk__msm_windows(c);
        unsigned Pmax = (unsigned)((4 * (size_t)T + W - 1) / W);
        if (Pmax < (unsigned)T) Pmax = (unsigned)T; /* e.g. 2 threads, 15 windows: 2 halves each */
        if ((size_t)Pmax > m / 32 + 1) Pmax = (unsigned)(m / 32 + 1);
        for (unsigned P = 1; P <= Pmax; P++) {
            for (int a = (int)amin; a <= (int)amax; a++) {
                unsigned B, K;
                double cost = config_cost(m, S, c, P, T, (czk_msm_algo)a, k, &B, &K);
                if (cost < best) {
                    best = cost;
                    plan->window = c;
                    plan->windows = W;
                    plan->chunks = P;
                    plan->algo = (czk_msm_algo)a;
                    plan->batch = B;
                    plan->lanes = K;
                    plan->cost = cost;
                }
            }
        }
    }
    plan->sets = (unsigned)S;
#ifdef CZK_MSM_TUNE /* private tuning builds only */
    {
        const char *e = getenv("CZK_MSM_BATCH");
        if (e && plan->algo == CZK_MSM_BATCH_AFFINE) plan->batch = (unsigned)atoi(e);
        e = getenv("CZK_MSM_LANES");
        if (e && plan->algo == CZK_MSM_BATCH_AFFINE) plan->lanes = (unsigned)atoi(e);
    }
#endif
    unsigned tasks = plan->windows * plan->chunks;
    plan->threads = (unsigned)T < tasks ? T : (int)tasks;
    plan->sparse = S == 1 && plan->algo == CZK_MSM_BATCH_AFFINE && !(opts && opts->algo != CZK_MSM_AUTO) &&
                   m >= CZK__MSM_SPARSE_MIN && m < ((size_t)1 << 31);
    czk__msm_layout lay;
    czk__msm_layout_of(&lay, plan, m, k);
    plan->scratch = lay.total;
}

czk_status czk__msm_scratch(uint8_t **mem, uint8_t **owned, const char *what, const czk_msm_opts *opts, size_t total)
{
    *owned = NULL;
    if (opts && opts->scratch) {
        if (opts->scratch_size < total)
            return czk_error(CZK_ERR_INVALID_ARG, "%s: opts->scratch_size = %zu bytes, need %zu",
                             what, opts->scratch_size, total);
        if ((uintptr_t)opts->scratch & 63)
            return czk_error(CZK_ERR_INVALID_ARG, "%s: opts->scratch %p is not 64-byte aligned", what,
                             opts->scratch);
        *mem = opts->scratch;
        return CZK_OK;
    }
    *owned = czk__big_alloc(total);
    if (!*owned) return czk_error(CZK_ERR_NOMEM, "%s: cannot allocate %zu bytes of scratch", what, total);
    *mem = *owned;
    return CZK_OK;
}

int czk__msm_prepass(czk__msm_scalar *plain, uint8_t *mem, const czk__msm_layout *lay, const czk_msm_plan *plan,
                     size_t m, size_t S, const czk_fr *const *scalars, size_t n, const uint64_t *density,
                     size_t *n_dense, size_t *n_pm1)
{
    size_t *cnt = plan->sparse ? (size_t *)(mem + lay->count_off) : NULL;
    int sparse = 0;
#pragma omp parallel num_threads(plan->threads)
    {
        int tid = omp_get_thread_num(), nt = omp_get_num_threads();
        for (size_t t = 0; t < S; t++) czk__msm_prepare_scalars(plain + t, S, scalars[t], n, density, tid, nt);
        if (cnt) {
#pragma omp barrier
            size_t lo = m * (size_t)tid / (size_t)nt, hi = m * (size_t)(tid + 1) / (size_t)nt, z = 0, o = 0;
            for (size_t j = lo; j < hi; j++) {
                int k = czk__msm_scalar_small(&plain[j]);
                z += k == 0;
                o += k == 1;
            }
            cnt[2 * tid] = z, cnt[2 * tid + 1] = o;
#pragma omp barrier
#pragma omp single
            {
                size_t zs = 0, os = 0;
                for (int t = 0; t < nt; t++) zs += cnt[2 * t], os += cnt[2 * t + 1];
                sparse = (zs + os) * 8 >= m;
                if (sparse) { /* else every scalar goes to Pippenger as it is */
                    *n_dense = m - zs - os;
                    *n_pm1 = os;
                }
            }
            if (sparse) { /* each thread writes its range's indices at the offsets of the ranges before it */
                size_t od = 0, op = 0;
                for (int t = 0; t < tid; t++) {
                    size_t tlo = m * (size_t)t / (size_t)nt, thi = m * (size_t)(t + 1) / (size_t)nt;
                    od += thi - tlo - cnt[2 * t] - cnt[2 * t + 1];
                    op += cnt[2 * t + 1];
                }
                uint32_t *dd = (uint32_t *)(mem + lay->sparse_off), *pp = dd + m;
                for (size_t j = lo; j < hi; j++) {
                    int k = czk__msm_scalar_small(&plain[j]);
                    if (k < 0) dd[od++] = (uint32_t)j;
                    else if (k == 1)
                        pp[op++] = (uint32_t)j | (czk__msm_scalar_neg(&plain[j]) ? CZK__MSM_SPARSE_SIGN : 0);
                }
            }
        }
    }
    return sparse;
}

int czk__msm_replan_sparse(czk_msm_plan *plan2, czk__msm_layout *lay2, const czk_msm_plan *plan,
                           const czk__msm_layout *lay, size_t m, size_t n_dense, const czk_msm_opts *opts,
                           const czk__msm_costs *kc)
{
    czk_msm_opts o2 = {0};
    if (opts) o2 = *opts;
    o2.algo = CZK_MSM_BATCH_AFFINE;
    czk__msm_make_plan(plan2, n_dense, 1, &o2, kc);
    plan2->sparse = 1;
    if (plan2->window < CZK__MSM_SPARSE_MIN_WINDOW && !(opts && opts->window)) { /* room for the +-1 accumulators */
        o2.window = CZK__MSM_SPARSE_MIN_WINDOW;
        czk__msm_make_plan(plan2, n_dense, 1, &o2, kc);
        plan2->sparse = 1;
    }
    if (plan2->threads < plan->threads) plan2->threads = plan->threads; /* the +-1 tasks want threads too */
    czk__msm_layout_of(lay2, plan2, m, kc);
    return lay2->total <= lay->total;
}
