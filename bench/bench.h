/* Shared benchmark machinery for `czk bench <what>`.
 *
 * A benchmark prints its configuration first (czk_bench_print_config), warms
 * up, repeats its measured section, checks its own result, and reports
 * min / median / max (czk_bench_stats). With --json it prints one JSON
 * document on stdout instead of the text table.
 */
#ifndef CZK_BENCH_H
#define CZK_BENCH_H

#include <stdio.h>

#include "cli.h"

/* The old name of czk_now(), still read by cli/porep_run.c, cli/cmd_prove.c
 * and bench/bench_pipeline.c; goes when they call czk_now(). */
static inline double czk_bench_now(void) { return czk_now(); }

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

#endif
