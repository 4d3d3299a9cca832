/* Shared benchmark machinery for `czk bench <what>`.
 *
 * Each benchmark lives in bench/bench_<what>.c and registers itself:
 *
 *   static int run(int argc, char **argv) { ... }
 *   CZK_BENCH(msm, "multi-scalar multiplication: ...", run)
 *
 * czk_bench_main is the `czk bench` command (cli/main.c hands it its
 * arguments). A benchmark prints its configuration first
 * (czk_bench_print_config), warms up, repeats its measured section, checks
 * its own result, and reports min / median / max (czk_bench_stats). With
 * --json it prints one JSON document on stdout instead of the text table.
 * Option parsing and exit codes are cmdline/'s; bench/ includes nothing of
 * cli/.
 */
#ifndef CZK_BENCH_H
#define CZK_BENCH_H

#include <stdio.h>

#include "cmdline.h"
#include "czk/cs.h"

typedef int (*czk_bench_fn)(int argc, char **argv);

/* Register benchmark `name` (called from constructors, before main). */
void czk__bench_register(const char *name, const char *summary, czk_bench_fn fn);

#define CZK_BENCH(name, summary, fn)                                                    \
    __attribute__((constructor)) static void czk_bench_reg_##name(void)                 \
    {                                                                                   \
        czk__bench_register(#name, summary, fn);                                        \
    }

/* `czk bench <what> [options]`: argv[0] is "bench". Lists the benchmarks
 * (--help, or no argument: a usage error), strips --counters and runs the
 * named one, inside a measurement session when counters were asked for.
 * Returns its exit code. */
int czk_bench_main(int argc, char **argv);

typedef struct czk_bench_stats {
    double min, median, max, mean;
    size_t n;
} czk_bench_stats;

/* Sorts v in place. */
void czk_bench_stats_of(czk_bench_stats *s, double *v, size_t n);

/* Configuration block: czk version, compiler, flags, CPU, threads, field
 * implementation, plus `extra` (may be NULL) — as text lines prefixed by
 * "# ", or as the members of a JSON object "config": {...} when json. */
void czk_bench_print_config(FILE *f, int json, const char *extra_key, const char *extra_val);

/* Peak resident set size of this process in bytes (getrusage). */
unsigned long long czk_bench_peak_rss(void);
/* Bytes the kernel can still give (MemAvailable, capped by a cgroup limit less its usage:
 * czk_memory_probe); 0 when unknown. */
double czk_bench_mem_available(void);

/* Resource use of this process (all its threads, finished ones included):
 * wall time since the process started, user and system CPU seconds, minor
 * and major page faults, peak RSS, and bytes read from storage (the kernel's
 * read_bytes: page-cache hits not included; 0 where /proc/self/io cannot be
 * read). A snapshot taken before and after a region gives the region's share
 * (czk_bench_usage_sub); `czk bench` prints the whole process's next to every
 * benchmark's timed figures. */
typedef struct czk_bench_usage {
    double wall_s, user_s, sys_s;
    unsigned long long minor_faults, major_faults, peak_rss, read_bytes;
} czk_bench_usage;

void czk_bench_usage_get(czk_bench_usage *u);
/* d = b - a for every field but peak_rss, which is b's. */
void czk_bench_usage_sub(czk_bench_usage *d, const czk_bench_usage *b, const czk_bench_usage *a);
/* Text: "# process: wall 1.234 s, user ..." (one line, `label` instead of
 * "process"); JSON: "\"<label>\":{\"wall_s\":...}" (a member, no comma). */
void czk_bench_usage_print(FILE *f, int json, const char *label, const czk_bench_usage *u);

/* "1.23 s", "45.6 ms", "789 ns" */
const char *czk_bench_fmt_time(char buf[32], double seconds);

/* ---- `czk bench synth-only --r1cs-digest / --r1cs-dump / --r1cs-compare`
 * (bench_r1cs.c, docs/r1cs-digest.md), shared by every circuit kind. */
typedef struct czk__r1cs_opts {
    czk_lc_kind lc;
    const char *dump;    /* --r1cs-dump FILE, or NULL */
    const char *compare; /* --r1cs-compare REFDUMP, or NULL */
    long long partition; /* printed in the digest pass' header line */
    const char *c1;      /* the C1 file (the reference's --show hint), or NULL */
} czk__r1cs_opts;

typedef struct czk__r1cs_result {
    czk_r1cs_digest d;
    uint8_t asg[32];
    double seconds;
    czk_r1cs_diff diff;  /* pass 1 (names off: the prover's code paths) */
    czk_r1cs_diff named; /* pass 2, only when pass 1 found a differing constraint */
    int have_named;
    double named_s;
} czk__r1cs_result;

/* Synthesize the circuit (with values) into cs; ctx is the caller's. */
typedef czk_status (*czk__r1cs_synth_fn)(czk_cs *cs, const void *ctx);

/* Open and validate the dump --r1cs-compare names (before any timed run). */
czk_status czk__bench_r1cs_check_dump(const char *compare, czk_lc_kind lc);
/* The digest pass: synth through the streaming digester (WITNESS values, a
 * constraint system of sizes z), then the checks: the counts equal z (whose
 * n_constraints includes one per input) and, when timed_asg is not NULL,
 * the assignment digest equals it; with o->compare and a differing
 * constraint, a second pass with names kept. r is overwritten; release it
 * with czk__bench_r1cs_clear. */
czk_status czk__bench_r1cs_run(czk__r1cs_result *r, const czk__r1cs_opts *o, czk__r1cs_synth_fn synth,
                               const void *ctx, const czk_cs_sizes *z, const uint8_t *timed_asg);
void czk__bench_r1cs_clear(czk__r1cs_result *r);
/* Lines 'inputs N', 'aux N', 'constraints M', 'r1cs digest HEX',
 * 'assignment digest HEX', then the dump and the comparison verdict. */
void czk__bench_r1cs_print_text(FILE *f, const czk__r1cs_result *r, const czk__r1cs_opts *o);
/* The comparison verdict alone ("r1cs compare FILE: identical" or DIFFERENT
 * with the first differing constraint's terms). */
void czk__bench_r1cs_print_diff(FILE *f, const czk__r1cs_result *r, const czk__r1cs_opts *o);
/* The same as JSON members of the enclosing object: ,"r1cs":{...}. */
void czk__bench_r1cs_print_json(FILE *f, const czk__r1cs_result *r, const czk__r1cs_opts *o);
void czk__bench_hex32(char out[65], const uint8_t h[32]);

/* ---- `czk bench synth-only --circuit window-post|winning-post|snap`
 * (bench_synth_kind.c): one partition of a kind that runs through the
 * registry, `iters` timed syntheses through `backend` (or the parallel
 * prover, or PCE), checked; no_count skips the counting pass, no_check the
 * a*b = c rows; r1cs (or NULL) the digest pass after them. The vanilla
 * proofs come from vanilla_dir (PoSt: post-KIND.json and vanilla-KIND.bin;
 * SnapDeals: snap.json and snap-partition-K.bin; the shape is then taken
 * from the json) or, when it is NULL, are generated from seed for the shape
 * of shape_args. Checks the options against the kind first (usage errors).
 * Returns the exit code. */
enum { CZK__PCE_OFF, CZK__PCE_ON, CZK__PCE_AUTO, CZK__PCE_BOTH }; /* synth-only's --pce */
struct czk_proof_kind;
struct czk_shape_args;
typedef struct czk__kind_bench {
    const struct czk_proof_kind *kind;       /* window-post, winning-post or snap */
    const char *usage;                       /* synth-only's usage text */
    const struct czk_shape_args *shape_args; /* the shape options given */
    const char *porep_opt;                   /* a PoRep-only option given (--c1, --all), or NULL */
    const char *vanilla_dir;
    uint64_t seed;
    int have_seed; /* --seed was given */
    long long partition, iters;
    czk_lc_kind lc;
    czk_cs_backend backend;
    int no_count, no_check;
    int seq;      /* 1: sequential synthesis even with several threads */
    int pce;      /* CZK__PCE_*; both: off, then on, in one run */
    int validate; /* with PCE: the streamed comparison with the PROVE synthesis */
    int stream;   /* with PCE: a, b, c in chunks even when the full assignment fits */
    const czk__r1cs_opts *r1cs;
} czk__kind_bench;
int czk__bench_synth_kind(const czk__kind_bench *b, const czk_cli_common *com);

#endif
