/* The bellperson-semantics prover with the parameters streamed from disk
 * (czk_groth16_prove_stream): for a circuit whose parameters do not fit in
 * memory beside its witness (a 32GiB PoRep partition: 47 GB of points).
 *
 *   1. H in two vectors of m (czk_ntt_groth16_h_fill): a, b, c come one at
 *      a time from the caller (a PCE evaluates each matrix into the vector),
 *      so the padded a, b, c never coexist.
 *   2. The sections in file order (h, l, a, b_g1, b_g2), chunk by chunk:
 *      whole 32768-point blocks read, hashed and decoded in parallel
 *      (czk__params_stream_next), the chunk's scalars gathered from the
 *      witness under the density bitmaps, one MSM per chunk, the chunk sums
 *      added. An MSM is linear in its bases, so the sum over the chunks is
 *      the MSM over the section: the proof equals czk_groth16_prove's for the
 *      same r and s, bit for bit (tested).
 *   3. The checksum compared with the sidecar (a mismatch discards the
 *      proof), then the assembly (czk__groth16_assemble).
 *
 * Memory: h (m scalars; freed after its section), the scratch t during H,
 * one chunk of points, its gathered scalars and the MSM scratch; the
 * parameters never reside. The kernel is asked to read ahead of the chunk
 * being used (posix_fadvise WILLNEED). */
#include <stdlib.h>
#include <string.h>

#include "common/bigmem.h"
#include "czk/czk.h"
#include "czk/msm.h"
#include "groth16/groth16_internal.h"

enum { SEC_H, SEC_L, SEC_A, SEC_B_G1, SEC_B_G2, N_SEC };

/* The scalars of a section's bases, in the bases' order: up to two segments
 * (inputs, then aux), each dense or under a density bitmap. */
typedef struct seg {
    const czk_fr *v;
    size_t n;             /* scalars in v */
    const uint64_t *dens; /* NULL: every scalar has a base */
} seg;

typedef struct cursor {
    seg s[2];
    int ns, i;  /* segments, the current one */
    size_t pos; /* next scalar index within s[i] */
} cursor;

static size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* The next k scalars with a base: a pointer into the witness when they lie
 * dense in one segment, else gathered into out. NULL if the segments run out
 * first (the counts were matched before: an internal error). */
static const czk_fr *cursor_take(cursor *c, size_t k, czk_fr *out)
{
    if (k == 0) return out;
    while (c->i < c->ns && c->pos >= c->s[c->i].n) c->i++, c->pos = 0;
    if (c->i < c->ns && !c->s[c->i].dens && c->s[c->i].n - c->pos >= k) {
        const czk_fr *r = c->s[c->i].v + c->pos;
        c->pos += k;
        return r;
    }
    size_t got = 0;
    while (got < k && c->i < c->ns) {
        const seg *s = &c->s[c->i];
        if (!s->dens) {
            size_t take = min_sz(k - got, s->n - c->pos);
            memcpy(out + got, s->v + c->pos, take * sizeof *out);
            got += take, c->pos += take;
        } else {
            while (got < k && c->pos < s->n) {
                uint64_t word = s->dens[c->pos / 64] >> (c->pos % 64);
                if (!word) { /* the rest of this word is empty */
                    c->pos = (c->pos / 64 + 1) * 64;
                    continue;
                }
                c->pos += (size_t)__builtin_ctzll(word);
                if (c->pos >= s->n) break;
                out[got++] = s->v[c->pos++];
            }
        }
        if (c->pos >= s->n) c->i++, c->pos = 0;
    }
    return got == k ? out : NULL;
}

typedef struct hfill {
    const czk_cs_assignment *w;
} hfill;

/* The default fill: the witness's own a, b, c, zero-padded. */
static czk_status fill_from_witness(void *ctx, int which, czk_fr *out, size_t m)
{
    const czk_cs_assignment *w = ((hfill *)ctx)->w;
    const czk_fr *v = which == 0 ? w->a : which == 1 ? w->b : w->c;
    size_t nc = w->n_constraints;
    memcpy(out, v, nc * sizeof *out);
    memset(out + nc, 0, (m - nc) * sizeof *out);
    return CZK_OK;
}

typedef struct streamer {
    czk__params_stream *ps;
    const czk_groth16_stream_opts *o;
    int threads;
    uint64_t chunk_bytes;
    void *pts;      /* a chunk's decoded points */
    czk_fr *sc;     /* a chunk's gathered scalars */
    size_t cap_g1, cap_g2;
    void *scratch;
    size_t scratch_size;
    uint64_t file_bytes, done_bytes;
    double read_s;
} streamer;

/* Points per chunk of a section: what fits chunk_bytes with the gathered
 * scalars and the MSM scratch, whole blocks. */
static size_t chunk_points(const streamer *S, int g2)
{
    const czk_groth16_stream_opts *o = S->o;
    size_t blk = CZK__PARAMS_BLOCK_POINTS;
    if (o->chunk_points) return ((o->chunk_points + blk - 1) / blk) * blk;
    size_t per = (g2 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine)) + sizeof(czk_fr);
    czk_msm_opts mo = {0};
    mo.threads = S->threads;
    size_t k = (size_t)(S->chunk_bytes / per);
    for (int i = 0; i < 8; i++) { /* leave room for the scratch */
        size_t scr = g2 ? czk_msm_g2_scratch_size(k, &mo) : czk_msm_g1_scratch_size(k, &mo);
        if ((uint64_t)k * per + scr <= S->chunk_bytes) break;
        k -= k / 4;
    }
    k = k / blk * blk;
    return k ? k : blk;
}

static czk_status ensure_scratch(streamer *S, size_t need)
{
    if (need <= S->scratch_size) return CZK_OK;
    czk__big_free(S->scratch);
    S->scratch = czk__big_alloc(need);
    S->scratch_size = S->scratch ? need : 0;
    if (!S->scratch) return czk_error(CZK_ERR_NOMEM, "prove: MSM scratch of %zu bytes", need);
    return CZK_OK;
}

static void progress(streamer *S, uint64_t bytes)
{
    S->done_bytes += bytes;
    if (S->o->progress)
        S->o->progress(S->o->progress_ctx, "parameters streamed",
                       S->file_bytes ? (double)S->done_bytes / (double)S->file_bytes : 1.0);
}

/* One section's MSM over its n points against the cursor's scalars, chunk
 * by chunk; *g1 or *g2 (for sec SEC_B_G2) receives the sum. */
static czk_status section_msm(streamer *S, int sec, size_t n, cursor *cur, czk_g1_jac *g1, czk_g2_jac *g2)
{
    static const char *const name[N_SEC] = {"h", "l", "a", "b_g1", "b_g2"};
    int is_g2 = sec == SEC_B_G2;
    if (is_g2)
        czk_g2_jac_set_inf(g2);
    else
        czk_g1_jac_set_inf(g1);
    size_t k = chunk_points(S, is_g2), first = 0;
    czk_msm_opts mo = {0};
    mo.threads = S->threads;
    size_t psz = is_g2 ? 192 : 96;
    do {
        size_t kk = min_sz(k, n - first);
        double t0 = czk_now();
        CZK_TRY(czk__params_stream_next(S->ps, sec, first, S->pts, kk));
        S->read_s += czk_now() - t0;
        const czk_fr *sc = cursor_take(cur, kk, S->sc);
        if (!sc)
            return czk_error(CZK_ERR_INTERNAL, "prove: section %s: the witness has fewer scalars than points (%zu)",
                             name[sec], first + kk);
        if (kk) {
            size_t need = is_g2 ? czk_msm_g2_scratch_size(kk, &mo) : czk_msm_g1_scratch_size(kk, &mo);
            CZK_TRY(ensure_scratch(S, need));
            mo.scratch = S->scratch;
            mo.scratch_size = S->scratch_size;
            czk_status st;
            if (is_g2) {
                czk_g2_jac part;
                st = czk_msm_g2_var(&part, S->pts, kk, sc, kk, NULL, &mo);
                if (st == CZK_OK) czk_g2_jac_add(g2, g2, &part);
            } else {
                czk_g1_jac part;
                st = czk_msm_g1_var(&part, S->pts, kk, sc, kk, NULL, &mo);
                if (st == CZK_OK) czk_g1_jac_add(g1, g1, &part);
            }
            if (st != CZK_OK) return czk_error_context(st, "prove: %s MSM, points %zu..%zu", name[sec], first,
                                                       first + kk);
        }
        progress(S, (uint64_t)kk * psz);
        first += kk;
    } while (first < n);
    return CZK_OK;
}

static czk_status copy_vk(czk_groth16_vk *dst, const czk_groth16_vk *src)
{
    size_t len = czk_groth16_vk_encoded_size(src), used = 0;
    uint8_t *buf = malloc(len);
    if (!buf) return czk_error(CZK_ERR_NOMEM, "verifying key copy");
    czk_groth16_vk_encode(buf, src);
    czk_status st = czk_groth16_vk_decode(dst, buf, len, &used);
    free(buf);
    return st;
}

czk_status czk_groth16_prove_stream(czk_groth16_proof *out, czk_groth16_vk *vk_out, const char *path,
                                    const czk_cs_assignment *w, const czk_groth16_stream_opts *opts)
{
    czk_init();
    double t_start = czk_now();
    czk_groth16_stream_opts o;
    memset(&o, 0, sizeof o);
    o.check = CZK_GROTH16_CHECK_PINNED;
    if (opts) o = *opts;
    if (o.timings) memset(o.timings, 0, sizeof *o.timings);
    if (o.stats) memset(o.stats, 0, sizeof *o.stats);
    if (!out || !path || !w) return czk_error(CZK_ERR_INVALID_ARG, "prove (streamed): NULL argument");
    if (!o.fill && (!w->a || !w->b || !w->c))
        return czk_error(CZK_ERR_INVALID_ARG, "prove (streamed): the witness has no a, b, c and no fill function");
    int threads = o.threads > 0 ? o.threads : czk_threads();
    streamer S;
    memset(&S, 0, sizeof S);
    S.o = &o;
    S.threads = threads;
    S.chunk_bytes = o.chunk_bytes ? o.chunk_bytes : (uint64_t)1 << 30;
    czk_groth16_timings tm;
    memset(&tm, 0, sizeof tm);
    czk_fr rs[2];
    czk_fr *h = NULL, *t = NULL;
    czk_ntt_domain *dom = NULL;
    czk__groth16_sums sums;
    czk_g1_jac part;

    czk_status st = czk__params_stream_open(&S.ps, path, o.check, threads);
    if (st != CZK_OK) return st;
    size_t n[N_SEC];
    czk__params_stream_counts(S.ps, n);
    const czk_groth16_vk *vk = czk__params_stream_vk(S.ps);
    st = czk__groth16_counts_match(vk->n_ic, n, w);
    if (st != CZK_OK) {
        st = czk_error_context(st, "%s", path);
        goto out;
    }
    S.file_bytes = 0;
    for (int sec = 0; sec < N_SEC; sec++) S.file_bytes += (uint64_t)n[sec] * (sec == SEC_B_G2 ? 192 : 96);
    st = czk__groth16_draw_rs(rs, 1, o.rng);
    if (st != CZK_OK) goto out;

    /* 1. H */
    unsigned log_m = 0;
    while (((size_t)1 << log_m) < w->n_constraints) log_m++;
    size_t m = (size_t)1 << log_m;
    double t0 = czk_now();
    h = czk__big_alloc(m * sizeof(czk_fr));
    t = czk__big_alloc(m * sizeof(czk_fr));
    if (!h || !t) {
        st = czk_error(CZK_ERR_NOMEM, "prove: two vectors of 2^%u scalars for H", log_m);
        goto out;
    }
    st = czk_ntt_domain_create(&dom, log_m, CZK_NTT_ROOTS_GEN7);
    if (st != CZK_OK) goto out;
    czk_ntt_domain_set_threads(dom, threads);
    hfill hf = {w};
    st = czk_ntt_groth16_h_fill(dom, h, t, m, o.fill ? o.fill : fill_from_witness, o.fill ? o.fill_ctx : &hf);
    czk_ntt_domain_destroy(dom);
    dom = NULL;
    czk__big_free(t);
    t = NULL;
    tm.h_s = czk_now() - t0;
    if (st != CZK_OK) {
        st = czk_error_context(st, "prove: H");
        goto out;
    }

    /* 2. the sections, in file order */
    size_t cap1 = chunk_points(&S, 0), cap2 = chunk_points(&S, 1);
    size_t pbytes = cap1 * sizeof(czk_g1_affine);
    if (cap2 * sizeof(czk_g2_affine) > pbytes) pbytes = cap2 * sizeof(czk_g2_affine);
    size_t cap = cap1 > cap2 ? cap1 : cap2;
    S.pts = czk__big_alloc(pbytes);
    S.sc = czk__big_alloc(cap * sizeof(czk_fr));
    if (!S.pts || !S.sc) {
        st = czk_error(CZK_ERR_NOMEM, "prove: a chunk of %zu points", cap);
        goto out;
    }
    double *secs[N_SEC] = {&tm.msm_h_s, &tm.msm_l_s, &tm.msm_a_s, &tm.msm_b_g1_s, &tm.msm_b_g2_s};
    for (int sec = 0; sec < N_SEC && st == CZK_OK; sec++) {
        cursor cur;
        memset(&cur, 0, sizeof cur);
        switch (sec) {
        case SEC_H: cur.s[0] = (seg){h, m - 1, NULL}, cur.ns = 1; break;
        case SEC_L: cur.s[0] = (seg){w->aux, w->n_aux, NULL}, cur.ns = 1; break;
        case SEC_A:
            cur.s[0] = (seg){w->input, w->n_input, NULL};
            cur.s[1] = (seg){w->aux, w->n_aux, w->a_aux_density};
            cur.ns = 2;
            break;
        default:
            cur.s[0] = (seg){w->input, w->n_input, w->b_input_density};
            cur.s[1] = (seg){w->aux, w->n_aux, w->b_aux_density};
            cur.ns = 2;
            break;
        }
        t0 = czk_now();
        switch (sec) {
        case SEC_H: st = section_msm(&S, sec, n[sec], &cur, &sums.c, NULL); break;
        case SEC_L:
            st = section_msm(&S, sec, n[sec], &cur, &part, NULL);
            if (st == CZK_OK) czk_g1_jac_add(&sums.c, &sums.c, &part);
            break;
        case SEC_A: st = section_msm(&S, sec, n[sec], &cur, &sums.a, NULL); break;
        case SEC_B_G1: st = section_msm(&S, sec, n[sec], &cur, &sums.b1, NULL); break;
        default: st = section_msm(&S, sec, n[sec], &cur, NULL, &sums.b2); break;
        }
        *secs[sec] = czk_now() - t0;
        if (sec == SEC_H) { /* its scalars are used */
            czk__big_free(h);
            h = NULL;
        }
    }
    if (st != CZK_OK) goto out;

    /* 3. the checksum, then the proof */
    czk_groth16_read_info info;
    st = czk__params_stream_finish(S.ps, &info);
    if (st != CZK_OK) goto out;
    if (o.info) *o.info = info;
    czk__groth16_keys keys = {.alpha_g1 = vk->alpha_g1, .beta_g1 = vk->beta_g1, .delta_g1 = vk->delta_g1,
                              .beta_g2 = vk->beta_g2, .delta_g2 = vk->delta_g2};
    czk__groth16_assemble(out, &keys, &sums, &rs[0], &rs[1]);
    if (vk_out) st = copy_vk(vk_out, vk);

out:
    memset(rs, 0, sizeof rs);
    czk_ntt_domain_destroy(dom);
    czk__big_free(h);
    czk__big_free(t);
    czk__big_free(S.pts);
    czk__big_free(S.sc);
    czk__big_free(S.scratch);
    czk__params_stream_close(S.ps);
    tm.total_s = czk_now() - t_start;
    if (o.timings) *o.timings = tm;
    if (o.stats) {
        o.stats->read_s = S.read_s;
        o.stats->bytes_read = S.done_bytes;
        o.stats->chunk_points_g1 = chunk_points(&S, 0);
        o.stats->chunk_points_g2 = chunk_points(&S, 1);
    }
    return st;
}

/* ---- streamed parameters as a parameter set -------------------------------------- */

uint64_t czk__params_file_chunk(const czk_groth16_params *p) { return p && p->file ? p->file->chunk_bytes : 0; }

int czk_groth16_params_streamed(const czk_groth16_params *p) { return p && p->file != NULL; }

const char *czk_groth16_params_path(const czk_groth16_params *p) { return p && p->file ? p->file->path : NULL; }

czk_status czk_groth16_params_open_streamed(czk_groth16_params *out, const char *path, czk_groth16_check check,
                                            uint64_t chunk_bytes, int threads)
{
    czk_init();
    memset(out, 0, sizeof *out);
    if (!path) return czk_error(CZK_ERR_INVALID_ARG, "streamed parameters: no file");
    czk__params_stream *ps = NULL;
    CZK_TRY(czk__params_stream_open(&ps, path, check, threads));
    size_t n[N_SEC];
    czk__params_stream_counts(ps, n);
    czk_status st = copy_vk(&out->vk, czk__params_stream_vk(ps));
    czk__params_stream_close(ps);
    if (st != CZK_OK) return czk_error_context(st, "%s", path);
    out->n_h = n[SEC_H], out->n_l = n[SEC_L], out->n_a = n[SEC_A], out->n_b_g1 = n[SEC_B_G1], out->n_b_g2 = n[SEC_B_G2];
    struct czk_groth16_params_file *f = calloc(1, sizeof *f);
    if (f) f->path = strdup(path);
    if (!f || !f->path) {
        free(f);
        czk_groth16_params_clear(out);
        return czk_error(CZK_ERR_NOMEM, "%s: streamed parameters", path);
    }
    f->check = check;
    f->chunk_bytes = chunk_bytes;
    for (int sec = 0; sec < N_SEC; sec++) f->file_bytes += (uint64_t)n[sec] * (sec == SEC_B_G2 ? 192 : 96);
    out->file = f;
    return CZK_OK;
}

uint64_t czk_groth16_prove_stream_bytes(const czk_cs_sizes *s, uint64_t chunk_bytes, int threads)
{
    if (threads <= 0) threads = czk_threads();
    uint64_t m = 1;
    while (m < s->n_constraints) m <<= 1;
    if (!chunk_bytes) chunk_bytes = (uint64_t)1 << 30;
    /* h and t of H (t is freed before the sections; h after the first)
     * and the NTT domain's m - 1 twiddles during H, then the chunk, each
     * reader thread's block buffer, the block tables */
    uint64_t blocks = (2 * m + (uint64_t)s->n_aux * 4 + (uint64_t)s->n_inputs * 2) / CZK__PARAMS_BLOCK_POINTS + 16;
    return 3 * m * sizeof(czk_fr) + chunk_bytes + (uint64_t)threads * (4 + CZK__PARAMS_BLOCK_POINTS * 192ull) +
           blocks * 96 + (1u << 20);
}

czk_status czk_groth16_prove_streamed(czk_groth16_proof *out, const czk_groth16_params *p, const czk_cs_assignment *w,
                                      const czk_groth16_stream_opts *opts)
{
    if (!p || !p->file) return czk_error(CZK_ERR_INVALID_ARG, "prove (streamed): parameters not opened as streamed");
    czk_groth16_stream_opts o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    o.check = p->file->check;
    o.chunk_bytes = p->file->chunk_bytes;
    return czk_groth16_prove_stream(out, NULL, p->file->path, w, &o);
}
