/* --r1cs-digest / --r1cs-dump / --r1cs-compare of `czk bench synth-only`
 * (docs/r1cs-digest.md), for every circuit it synthesizes (PoRep in
 * bench_synth.c, PoSt and SnapDeals in bench_synth_kind.c): the digest pass
 * through the streaming digester, its checks, and the lines and JSON fields
 * it prints. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/czk.h"

void czk__bench_hex32(char out[65], const uint8_t h[32])
{
    for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", h[i]);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

/* One synthesis of the partition through the streaming digester, WITNESS
 * values (the witness synth fills in), names kept or not. */
static czk_status r1cs_pass(czk_r1cs_digest *out, uint8_t asg[32], czk_r1cs_diff *diff, const czk__r1cs_opts *o,
                            czk__r1cs_synth_fn synth, const void *ctx, const czk_cs_sizes *z, int names,
                            const char *dump)
{
    czk_cs *vals = NULL, *cs = NULL;
    czk_r1cs_digester *d = NULL;
    czk_r1cs_digest_opts dopt = {dump, o->compare, czk_threads(), names};
    CZK_TRY(czk_cs_create(&vals, CZK_CS_WITNESS, o->lc, z));
    czk_status s = czk_cs_r1cs_digester_create(&d, &cs, vals, o->lc, &dopt);
    if (s == CZK_OK) s = synth(cs, ctx);
    if (s == CZK_OK) s = czk_cs_r1cs_digester_finish(d, out, diff);
    if (s == CZK_OK) s = czk_cs_r1cs_digest_values(asg, vals);
    czk_cs_r1cs_digester_destroy(d);
    czk_cs_destroy(vals);
    return s;
}

/* The digest pass, its checks (counts, the timed run's assignment), and a
 * second pass with names when the comparison found a differing constraint. */
czk_status czk__bench_r1cs_run(czk__r1cs_result *r, const czk__r1cs_opts *o, czk__r1cs_synth_fn synth,
                               const void *ctx, const czk_cs_sizes *z, const uint8_t *timed_asg)
{
    memset(r, 0, sizeof *r);
    r->diff.first = r->named.first = -1;
    double t0 = czk_now();
    CZK_TRY(r1cs_pass(&r->d, r->asg, &r->diff, o, synth, ctx, z, 0, o->dump));
    r->seconds = czk_now() - t0;
    if (r->d.n_inputs != z->n_inputs || r->d.n_aux != z->n_aux || r->d.n_constraints + z->n_inputs != z->n_constraints)
        return czk_error(CZK_ERR_INTERNAL,
                         "digest pass: %llu inputs, %llu aux, %llu constraints; the circuit's sizes say %llu, %llu, %llu "
                         "(with the input constraints)",
                         (unsigned long long)r->d.n_inputs, (unsigned long long)r->d.n_aux,
                         (unsigned long long)r->d.n_constraints, (unsigned long long)z->n_inputs,
                         (unsigned long long)z->n_aux, (unsigned long long)z->n_constraints);
    if (timed_asg && memcmp(timed_asg, r->asg, 32) != 0) {
        char a[65], b[65];
        czk__bench_hex32(a, timed_asg);
        czk__bench_hex32(b, r->asg);
        return czk_error(CZK_ERR_INTERNAL, "the timed synthesis' assignment digest %s differs from the digest pass' %s",
                         a, b);
    }
    if (o->compare && r->diff.first >= 0) {
        czk_r1cs_digest d2;
        uint8_t a2[32];
        t0 = czk_now();
        CZK_TRY(r1cs_pass(&d2, a2, &r->named, o, synth, ctx, z, 1, NULL));
        r->named_s = czk_now() - t0;
        r->have_named = 1;
    }
    return CZK_OK;
}

static void print_lc(FILE *f, const char *name, const czk_lc_view *v)
{
    fprintf(f, "  %s (%u terms)\n", name, v->n_in + v->n_aux);
    for (int part = 0; part < 2; part++) {
        const czk_lc_term *t = part ? v->aux : v->in;
        uint32_t n = part ? v->n_aux : v->n_in;
        for (uint32_t i = 0; i < n; i++) {
            uint8_t be[32];
            char hx[65];
            czk_fr_to_bytes_be(be, &t[i].coeff);
            czk__bench_hex32(hx, be);
            fprintf(f, "    %s %u 0x%s\n", part ? "aux" : "input", t[i].index, hx);
        }
    }
}

void czk__bench_r1cs_print_diff(FILE *f, const czk__r1cs_result *r, const czk__r1cs_opts *o)
{
    const czk_r1cs_diff *df = &r->diff;
    const char *ref = o->compare;
    if (df->identical) {
        fprintf(f, "r1cs compare %s: identical (%llu inputs, %llu aux, %llu constraints, every h_c equal)\n", ref,
                (unsigned long long)r->d.n_inputs, (unsigned long long)r->d.n_aux,
                (unsigned long long)r->d.n_constraints);
        return;
    }
    fprintf(f, "r1cs compare %s: DIFFERENT\n", ref);
    static const char *const what[3] = {"inputs", "aux", "constraints"};
    const uint64_t ours[3] = {r->d.n_inputs, r->d.n_aux, r->d.n_constraints};
    const uint64_t theirs[3] = {df->ref_n_inputs, df->ref_n_aux, df->ref_n_constraints};
    for (int i = 0; i < 3; i++)
        if (df->counts_differ & (1u << i))
            fprintf(f, "  count of %s differs: czk %llu, dump %llu\n", what[i], (unsigned long long)ours[i],
                    (unsigned long long)theirs[i]);
    uint64_t common = ours[2] < theirs[2] ? ours[2] : theirs[2];
    if (df->first < 0) {
        fprintf(f, "  the first %llu constraint hashes (all both sides have) are equal\n", (unsigned long long)common);
        return;
    }
    char a[65], b[65];
    czk__bench_hex32(a, df->h_ours);
    czk__bench_hex32(b, df->h_ref);
    fprintf(f, "  first differing constraint: %lld (h_c czk %s, dump %s)\n", (long long)df->first, a, b);
    const czk_r1cs_diff *nm = r->have_named ? &r->named : NULL;
    const char *path = nm && nm->first == df->first ? nm->path : NULL;
    fprintf(f, "constraint %lld %s\n", (long long)df->first, path ? path : "(no namespace path)");
    print_lc(f, "A", &df->lc[0]);
    print_lc(f, "B", &df->lc[1]);
    print_lc(f, "C", &df->lc[2]);
    if (nm && nm->first != df->first) {
        if (nm->first >= 0)
            fprintf(f, "  note: with names kept (gadgets' named code paths) the first differing constraint is %lld (%s)\n",
                    (long long)nm->first, nm->path ? nm->path : "?");
        else
            fprintf(f, "  note: with names kept (gadgets' named code paths) no constraint hash differs\n");
    } else if (nm && memcmp(nm->h_ours, df->h_ours, 32) != 0)
        fprintf(f, "  note: with names kept this constraint hashes differently (the named code path builds it otherwise)\n");
    if (o->c1)
        fprintf(f, "  the reference's terms: czk-oracle r1cs-digest --c1 %s --partition %lld --show %lld\n", o->c1,
                o->partition, (long long)df->first);
}

void czk__bench_r1cs_print_text(FILE *f, const czk__r1cs_result *r, const czk__r1cs_opts *o)
{
    char h[65];
    fprintf(f, "# r1cs digest pass: partition %lld synthesized through the streaming digester (WITNESS values) "
               "in %.3f s\n", o->partition, r->seconds);
    fprintf(f, "inputs %llu\naux %llu\nconstraints %llu\n", (unsigned long long)r->d.n_inputs,
            (unsigned long long)r->d.n_aux, (unsigned long long)r->d.n_constraints);
    czk__bench_hex32(h, r->d.r1cs);
    fprintf(f, "r1cs digest %s\n", h);
    czk__bench_hex32(h, r->asg);
    fprintf(f, "assignment digest %s\n", h);
    if (o->dump) fprintf(f, "dump %s\n", o->dump);
    if (o->compare) czk__bench_r1cs_print_diff(f, r, o);
}

void czk__bench_r1cs_print_json(FILE *f, const czk__r1cs_result *r, const czk__r1cs_opts *o)
{
    char h[65];
    czk__bench_hex32(h, r->d.r1cs);
    fprintf(f, ",\"r1cs\":{\"inputs\":%llu,\"aux\":%llu,\"constraints\":%llu,\"r1cs_digest\":\"%s\",",
            (unsigned long long)r->d.n_inputs, (unsigned long long)r->d.n_aux, (unsigned long long)r->d.n_constraints,
            h);
    czk__bench_hex32(h, r->asg);
    fprintf(f, "\"assignment_digest\":\"%s\",\"digest_s\":%.6f", h, r->seconds);
    if (o->dump) {
        fprintf(f, ",\"dump\":");
        json_str(f, o->dump);
    }
    if (o->compare) {
        const czk_r1cs_diff *df = &r->diff;
        fprintf(f, ",\"compare\":{\"file\":");
        json_str(f, o->compare);
        fprintf(f, ",\"identical\":%s,\"dump_inputs\":%llu,\"dump_aux\":%llu,\"dump_constraints\":%llu,"
                   "\"inputs_differ\":%s,\"aux_differ\":%s,\"constraints_differ\":%s,\"first_differing\":%lld",
                df->identical ? "true" : "false", (unsigned long long)df->ref_n_inputs,
                (unsigned long long)df->ref_n_aux, (unsigned long long)df->ref_n_constraints,
                df->counts_differ & CZK_R1CS_DIFF_INPUTS ? "true" : "false",
                df->counts_differ & CZK_R1CS_DIFF_AUX ? "true" : "false",
                df->counts_differ & CZK_R1CS_DIFF_CONSTRAINTS ? "true" : "false", (long long)df->first);
        if (r->have_named && r->named.first == df->first && r->named.path) {
            fprintf(f, ",\"path\":");
            json_str(f, r->named.path);
        }
        fprintf(f, "}");
    }
    fprintf(f, "}");
}


czk_status czk__bench_r1cs_check_dump(const char *compare, czk_lc_kind lc)
{
    czk_r1cs_digester *d;
    czk_cs *dcs;
    czk_r1cs_digest_opts vo = {NULL, compare, 1, 0};
    CZK_TRY(czk_cs_r1cs_digester_create(&d, &dcs, NULL, lc, &vo));
    czk_cs_r1cs_digester_destroy(d);
    return CZK_OK;
}

void czk__bench_r1cs_clear(czk__r1cs_result *r)
{
    czk_cs_r1cs_diff_clear(&r->diff);
    czk_cs_r1cs_diff_clear(&r->named);
}
