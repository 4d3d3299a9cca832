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

/* "1.23 s", "45.6 ms", "789 ns" */
const char *czk_bench_fmt_time(char buf[32], double seconds);

/* `czk bench synth-only --circuit window-post|winning-post` (bench_synth_post.c):
 * one partition of shape s from generated vanilla proofs (seed), `iters`
 * timed syntheses through `backend`, checked; no_count skips the counting
 * pass, no_check the a*b = c rows. Returns the exit code. */
struct czk_post_shape;
int czk__bench_synth_post(const struct czk_post_shape *s, uint64_t seed, long long iters, czk_lc_kind lc,
                          czk_cs_backend backend, int no_count, int no_check, const czk_cli_common *com);

#endif
