/* `--counters` for every `czk bench` subcommand, and the hidden flags a
 * benchmark run started by `czk diff` receives (see include/czk/perf.h).
 * Used by czk_bench_main (bench/bench_main.c). */
#ifndef CZK_BENCH_COUNTERS_H
#define CZK_BENCH_COUNTERS_H

#include "bench.h"

typedef struct czk_bench_counters {
    int active;          /* any of the flags below was given */
    const char *spec;    /* --counters [SPEC] / --perf-events SPEC; NULL = none */
    const char *report;  /* --perf-report FILE */
    int group;           /* --perf-group K (-1: all groups) */
    int sim_pass;        /* --perf-sim PASS: running under callgrind */
    int sim_whole;       /* --perf-sim-whole: the benchmark marks no region */
    int json;            /* --json is among the benchmark's arguments */
    int help;            /* --help / -h: the benchmark only prints its usage */
} czk_bench_counters;

/* Remove the counter flags from argv (argv[0] = benchmark name) in place,
 * updating *argc. Returns 0, or CZK_EXIT_USAGE after printing an error. */
int czk_bench_counters_strip(int *argc, char **argv, czk_bench_counters *o, const char *bench);

/* Run benchmark fn(argc, argv) inside a measurement session and print or
 * save the report. Returns fn's exit code (or 1/2 for counter errors). */
int czk_bench_counters_run(czk_bench_fn fn, int argc, char **argv, const czk_bench_counters *o);

#endif
