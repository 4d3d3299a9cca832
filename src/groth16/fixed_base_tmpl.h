/* Fixed-base multiplication for one group, written once over the group
 * descriptor (ec/group.h); included by fixed_base.c after ec/group_g1.h or
 * ec/group_g2.h with
 *   FB_TABLE FB_MUL          the names of the table builder and the batch
 *   FB_BATCH_IFMA            the 8-lane kernel of ec/ec_batch.h
 *   FB_IFMA_SCRATCH(n)       its scratch bytes for n additions
 *   FB_CHUNK_IFMA FB_CHUNK_IFMA_SCRATCH   the 8-lane chunk (fixed_base_ifma.c)
 * The algorithm is in fixed_base.c's comment. */

typedef struct G_LOCAL(xy) {
    FE x, y;
} G_LOCAL(xy);

/* A thread's scratch: a chunk of FB_CHUNK points and one batch of additions. */
typedef struct G_LOCAL(fbs) {
    int32_t *dig;           /* the chunk's signed digits, window-major (nwin x FB_CHUNK) */
    uint8_t *flip;          /* 1: the point is -(r - k) G (see fb_recode) */
    uint8_t *run;           /* 1: acc[i] holds a partial sum; 0: the identity */
    G_LOCAL(xy) *acc;       /* the partial sums */
    uintptr_t *dst, *src;   /* the batch: *dst[j] += *src[j] */
    uint8_t *neg;           /* 1: the batch subtracts *src[j] */
    FE *den, *pre;          /* the scalar path's denominators and prefix products */
    void *vscr;             /* the 8-lane kernel's scratch */
    void *vchunk;           /* the 8-lane chunk's scratch */
} G_LOCAL(fbs);

static void G_LOCAL(fbs_free)(G_LOCAL(fbs) *s)
{
    free(s->dig), free(s->flip), free(s->run), free(s->acc), free(s->dst), free(s->src), free(s->neg), free(s->den),
        free(s->pre), free(s->vscr), free(s->vchunk);
    memset(s, 0, sizeof *s);
}

static int G_LOCAL(fbs_alloc)(G_LOCAL(fbs) *s, unsigned nwin)
{
    memset(s, 0, sizeof *s);
    s->dig = malloc((size_t)nwin * FB_CHUNK * sizeof(int32_t));
    s->flip = malloc(FB_CHUNK);
    s->run = malloc(FB_CHUNK);
    s->acc = aligned_alloc(64, FB_CHUNK * sizeof(G_LOCAL(xy)));
    s->dst = malloc(FB_CHUNK * sizeof(uintptr_t));
    s->src = malloc(FB_CHUNK * sizeof(uintptr_t));
    s->neg = malloc(FB_CHUNK);
    s->den = malloc(FB_CHUNK * sizeof(FE));
    s->pre = malloc(FB_CHUNK * sizeof(FE));
    s->vscr = aligned_alloc(64, FB_IFMA_SCRATCH(FB_CHUNK));
    s->vchunk = aligned_alloc(64, (FB_CHUNK_IFMA_SCRATCH(FB_CHUNK) + 63) & ~(size_t)63);
    if (s->dig && s->flip && s->run && s->acc && s->dst && s->src && s->neg && s->den && s->pre && s->vscr &&
        s->vchunk)
        return 1;
    G_LOCAL(fbs_free)(s);
    return 0;
}

/* *dst[j] += (neg[j] ? -1 : 1) *src[j] for j < cnt <= FB_CHUNK: affine chord
 * additions sharing one inversion (Montgomery's trick). The caller
 * guarantees x(dst[j]) != x(src[j]), distinct dst, and no src among the dst. */
static void G_LOCAL(fb_add)(G_LOCAL(fbs) *s, size_t cnt)
{
    if (!cnt) return;
    if (czk__field_use_ifma && cnt >= 16) {
        FB_BATCH_IFMA(s->dst, s->src, s->neg, cnt, s->vscr);
        return;
    }
    FE *den = s->den, *pre = s->pre, inv, di;
    for (size_t j = 0; j < cnt; j++) {
        const G_LOCAL(xy) *a = (const G_LOCAL(xy) *)s->dst[j], *e = (const G_LOCAL(xy) *)s->src[j];
        FE_SUB(&den[j], &e->x, &a->x);
        if (j) FE_MUL(&pre[j], &pre[j - 1], &den[j]);
        else pre[0] = den[0];
    }
    FE_INV_VAR(&inv, &pre[cnt - 1]);
    for (size_t j = cnt; j-- > 0;) {
        if (j) {
            FE_MUL(&di, &inv, &pre[j - 1]);
            FE_MUL(&inv, &inv, &den[j]);
        } else {
            di = inv;
        }
        G_LOCAL(xy) *a = (G_LOCAL(xy) *)s->dst[j];
        const G_LOCAL(xy) *e = (const G_LOCAL(xy) *)s->src[j];
        G_LOCAL(aff_add_inv)(&a->x, &a->y, &a->x, &a->y, &e->x, &e->y, s->neg[j], &di);
    }
}

/* The cache lines of table entry e. */
static inline void G_LOCAL(fb_prefetch)(const G_LOCAL(xy) *e)
{
    const char *p = (const char *)e;
    for (size_t off = 0; off < sizeof *e; off += 64) __builtin_prefetch(p + off);
    __builtin_prefetch(p + sizeof *e - 1);
}

/* out[i] = k[i] G for n <= FB_CHUNK points: with the IFMA kernels, the
 * 8-lane chunk; else window w's additions form one batch, and while its
 * list is made, window w + 1's entries are prefetched, so that they arrive
 * during the batch. */
static void G_LOCAL(fb_chunk)(AFF *out, const czk_fr *k, size_t n, const czk__fb_table *tb, G_LOCAL(fbs) *s)
{
    const unsigned nwin = tb->nwin;
    const G_LOCAL(xy) *t = tb->t;
    for (size_t i = 0; i < n; i++) {
        s->flip[i] = (uint8_t)fb_recode(s->dig + i, FB_CHUNK, &k[i], tb->c, nwin);
        s->run[i] = 0;
        int32_t d = s->dig[i];
        if (d) G_LOCAL(fb_prefetch)(&t[(d < 0 ? -d : d) - 1]);
    }
    if (czk__field_use_ifma) {
        for (size_t i = n; i % 8; i++) /* the last group's empty lanes */
            for (unsigned w = 0; w < nwin; w++) s->dig[(size_t)w * FB_CHUNK + i] = 0;
        FB_CHUNK_IFMA(out, s->dig, FB_CHUNK, s->flip, n, tb, s->vchunk);
        return;
    }
    for (unsigned w = 0; w < nwin; w++) {
        const G_LOCAL(xy) *row = t + (size_t)w * tb->per, *next = row + tb->per;
        const int32_t *dw = s->dig + (size_t)w * FB_CHUNK, *dn = dw + FB_CHUNK;
        const int ahead = w + 1 < nwin;
        size_t cnt = 0;
        for (size_t i = 0; i < n; i++) {
            if (ahead && dn[i]) G_LOCAL(fb_prefetch)(&next[(dn[i] < 0 ? -dn[i] : dn[i]) - 1]);
            int32_t d = dw[i];
            if (!d) continue;
            const G_LOCAL(xy) *e = &row[(d < 0 ? -d : d) - 1];
            if (!s->run[i]) {
                s->acc[i].x = e->x;
                if (d < 0) FE_NEG(&s->acc[i].y, &e->y);
                else s->acc[i].y = e->y;
                s->run[i] = 1;
                continue;
            }
            s->dst[cnt] = (uintptr_t)&s->acc[i];
            s->src[cnt] = (uintptr_t)e;
            s->neg[cnt] = d < 0;
            cnt++;
        }
        G_LOCAL(fb_add)(s, cnt);
    }
    for (size_t i = 0; i < n; i++) {
        if (s->run[i]) {
            out[i].x = s->acc[i].x;
            if (s->flip[i]) FE_NEG(&out[i].y, &s->acc[i].y);
            else out[i].y = s->acc[i].y;
            out[i].inf = 0;
        } else {
            G_FN(affine_set_inf)(&out[i]);
        }
    }
}

czk_status FB_MUL(AFF *out, const czk_fr *k, size_t n, const czk__fb_table *tb, int threads,
                  const czk__fb_progress *pg)
{
    if (threads < 1) threads = 1;
    int nomem = 0;
    const size_t nchunks = (n + FB_CHUNK - 1) / FB_CHUNK;
    size_t done = 0;
#pragma omp parallel num_threads(threads)
    {
        G_LOCAL(fbs) s;
        int ok = G_LOCAL(fbs_alloc)(&s, tb->nwin);
        if (!ok) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (size_t ch = 0; ch < nchunks; ch++) {
            if (!ok) continue;
            size_t lo = ch * FB_CHUNK, hi = lo + FB_CHUNK < n ? lo + FB_CHUNK : n;
            G_LOCAL(fb_chunk)(out + lo, k + lo, hi - lo, tb, &s);
            if (pg && pg->fn) {
#pragma omp critical(czk_fb_progress)
                {
                    done++;
                    if (omp_get_thread_num() == 0 || done == nchunks)
                        pg->fn(pg->ctx, pg->stage, (double)done / (double)nchunks);
                }
            }
        }
        if (ok) G_LOCAL(fbs_free)(&s);
    }
    if (nomem)
        return czk_error(CZK_ERR_NOMEM, "fixed-base %s: scratch for %d threads", G_STR, threads);
    return CZK_OK;
}

/* One window's entries E[d] = d B (row[d - 1], d <= per) from E[1] = B:
 * with E[1 .. 2h - 1] known, E[2h] = 2 E[h] (Jacobian doubling), then
 * E[2h + j] = E[j] + E[2h] for j < 2h, a batch of chord additions
 * (E[j] != +-E[2h] since 0 < j < 2h and j + 2h < r). */
static void G_LOCAL(fb_row)(G_LOCAL(xy) *row, size_t per, G_LOCAL(fbs) *s)
{
    for (size_t h = 1; 2 * h <= per; h *= 2) {
        JAC jb;
        AFF a, d;
        a.x = row[h - 1].x, a.y = row[h - 1].y, a.inf = 0;
        G_FN(jac_from_affine)(&jb, &a);
        G_FN(jac_dbl)(&jb, &jb);
        G_FN(jac_to_affine)(&d, &jb);
        G_LOCAL(xy) *e2h = &row[2 * h - 1];
        e2h->x = d.x, e2h->y = d.y;
        size_t top = 2 * h - 1 < per - 2 * h ? 2 * h - 1 : per - 2 * h;
        for (size_t j0 = 1; j0 <= top; j0 += FB_CHUNK) {
            size_t cnt = top - j0 + 1 < FB_CHUNK ? top - j0 + 1 : FB_CHUNK;
            for (size_t q = 0; q < cnt; q++) {
                size_t j = j0 + q;
                row[2 * h + j - 1] = row[j - 1];
                s->dst[q] = (uintptr_t)&row[2 * h + j - 1];
                s->src[q] = (uintptr_t)e2h;
                s->neg[q] = 0;
            }
            G_LOCAL(fb_add)(s, cnt);
        }
    }
}

czk_status FB_TABLE(czk__fb_table *tb, const AFF *g, unsigned c, int threads)
{
    memset(tb, 0, sizeof *tb);
    if (c < CZK__FB_MIN_WINDOW || c > CZK__FB_MAX_WINDOW || g->inf)
        return czk_error(CZK_ERR_INVALID_ARG, "fixed-base %s table: window %u (%d..%d), base %s", G_STR, c,
                         CZK__FB_MIN_WINDOW, CZK__FB_MAX_WINDOW, g->inf ? "at infinity" : "finite");
    if (threads < 1) threads = 1;
    const unsigned nwin = fb_windows(c);
    const size_t per = (size_t)1 << (c - 1);
    G_LOCAL(xy) *t = czk__big_alloc((size_t)nwin * per * sizeof *t);
    if (!t)
        return czk_error(CZK_ERR_NOMEM, "fixed-base %s table: %u windows of %zu points (%.1f MiB)", G_STR, nwin, per,
                         (double)nwin * (double)per * (double)sizeof *t / 1048576.0);
    /* the windows' bases 2^(c w) G */
    JAC jb;
    AFF a;
    G_FN(jac_from_affine)(&jb, g);
    for (unsigned w = 0; w < nwin; w++) {
        G_FN(jac_to_affine)(&a, &jb);
        t[(size_t)w * per].x = a.x, t[(size_t)w * per].y = a.y;
        for (unsigned b = 0; b < c; b++) G_FN(jac_dbl)(&jb, &jb);
    }
    int nomem = 0;
#pragma omp parallel num_threads(threads)
    {
        G_LOCAL(fbs) s;
        int ok = G_LOCAL(fbs_alloc)(&s, 1);
        if (!ok) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (unsigned w = 0; w < nwin; w++)
            if (ok) G_LOCAL(fb_row)(t + (size_t)w * per, per, &s);
        if (ok) G_LOCAL(fbs_free)(&s);
    }
    if (nomem) {
        czk__big_free(t);
        return czk_error(CZK_ERR_NOMEM, "fixed-base %s table: scratch for %d threads", G_STR, threads);
    }
    tb->c = c, tb->nwin = nwin, tb->per = per, tb->t = t;
    return CZK_OK;
}
