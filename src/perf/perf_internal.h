/* czk perf — internal: the machinery of `czk stat`, `czk diff` and
 * `czk bench --counters` beyond czk/perf.h's sessions and reports: the
 * simulated backend (callgrind), per-function profiles, the sampling backend,
 * child runs, the A/B comparison and its statistics. For libczk, the czk
 * program and the tests; src/perf/README.md explains the methods. */
#ifndef CZK_PERF_INTERNAL_H
#define CZK_PERF_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "czk/perf.h"

/* Internal to libczk and the czk program: hidden in libczk.so. */
#pragma GCC visibility push(hidden)

/* Events split into groups of at most 5 events (the leader is always
 * instructions, added where absent) for the hardware backend; returns the
 * number of groups; group_of[i] is event i's group (-1 for events without a
 * hardware encoding). */
int czk_perf_eventset_groups(const czk_perf_eventset *set, int group_of[CZK_PERF_MAX_EVENTS]);

/* ---- simulated backend (callgrind) ----------------------------------------- */

typedef struct czk_perf_cache { unsigned size, assoc, line; } czk_perf_cache;
typedef struct czk_perf_geometry { czk_perf_cache i1, d1, l2, l3; } czk_perf_geometry;
/* Zen4-like default: I1/D1 32K 8-way 64B, L2 1M 8-way, L3 32M 16-way. */
void czk_perf_geometry_default(czk_perf_geometry *g);
/* Override from CZK_PERF_SIM_GEOMETRY="d1=32K/8,l2=1M/8,l3=32M/16" (line 64). */
czk_status czk_perf_geometry_from_env(czk_perf_geometry *g) CZK_WUR;

/* Callgrind totals of one run (the "events:" names with their "totals:"). */
typedef struct czk_perf_cg_totals {
    double ir, dr, dw, i1mr, d1mr, d1mw, ilmr, dlmr, dlmw, bc, bcm, bi, bim;
    int have_cache, have_branch;
} czk_perf_cg_totals;
/* Parse a callgrind.out file; sums totals when called on several files with
 * accumulate = 1 (external commands traced with --trace-children). */
czk_status czk_perf_cg_parse(czk_perf_cg_totals *t, const char *path, int accumulate) CZK_WUR;
czk_status czk_perf_cg_parse_text(czk_perf_cg_totals *t, const char *text, const char *what, int accumulate) CZK_WUR;

/* ---- per-function profiles ------------------------------------------------- */

/* One function's values, one per column of its profile. */
typedef struct czk_perf_fn {
    char *name;   /* matching key: demangled, Rust hash and callgrind recursion suffixes dropped */
    char *object; /* basename of the ELF object the code is in ("" unknown) */
    double *v;
} czk_perf_fn;

/* Values per function: either raw callgrind events (columns "Ir", "Dr", ...,
 * "Bim" as in czk_perf_cg_columns) or the events of a counter set (columns
 * named like the set's events). Self cost: what the function's own
 * instructions did, callees excluded; inlined code belongs to the function it
 * was inlined into (both callgrind and sampling see only machine code). */
typedef struct czk_perf_profile {
    size_t nev;
    char ev[CZK_PERF_MAX_EVENTS][96];
    char how[CZK_PERF_MAX_EVENTS][112]; /* per column: simulator formula / sampling period */
    char source[128];                   /* e.g. "callgrind self cost per function" */
    int have_cache, have_branch;        /* raw callgrind: the cache / branch simulation ran */
    size_t n, cap;
    czk_perf_fn *fn;
    size_t *index, index_cap; /* open addressing on name: fn index + 1, 0 = empty */
} czk_perf_profile;

/* The raw callgrind columns, in czk_perf_cg_totals order. */
#define CZK_PERF_CG_NCOL 13
extern const char *const czk_perf_cg_columns[CZK_PERF_CG_NCOL];

void czk_perf_profile_init(czk_perf_profile *p, size_t nev, const char *const *names);
void czk_perf_profile_clear(czk_perf_profile *p);
/* Add v (nev values) to function `name` (created on first use; `name` is
 * normalised with czk_perf_fn_normalize first). */
czk_status czk_perf_profile_add(czk_perf_profile *p, const char *name, const char *object, const double *v) CZK_WUR;
const czk_perf_fn *czk_perf_profile_find(const czk_perf_profile *p, const char *name);
int czk_perf_profile_column(const czk_perf_profile *p, const char *event);
/* Matching key of a symbol: drops a Rust legacy hash ("::h" + 16 hex digits),
 * callgrind's recursion depth ("'2") and a trailing ".cold"/".part.N"-style
 * compiler clone suffix is kept (it is a different piece of code). */
void czk_perf_fn_normalize(char *out, size_t cap, const char *name);

/* Parse one callgrind.out file (any number of parts, name and position
 * compression, calls= lines whose following cost line is a callee's
 * inclusive cost and is therefore not self cost). Totals accumulate into t;
 * per-function self costs into raw (may be NULL), whose columns must be
 * czk_perf_cg_columns. */
czk_status czk_perf_cg_parse_profile(czk_perf_cg_totals *t, czk_perf_profile *raw, const char *path) CZK_WUR;
czk_status czk_perf_cg_parse_profile_text(czk_perf_cg_totals *t, czk_perf_profile *raw, const char *text,
                                          const char *what) CZK_WUR;
/* The events of `set` per function from raw pass-1 (and pass-2, may be NULL)
 * profiles, with the same formulas as czk_perf_sim_apply. */
czk_status czk_perf_profile_from_sim(czk_perf_profile *out, const czk_perf_eventset *set, const czk_perf_profile *raw1,
                                     const czk_perf_profile *raw2) CZK_WUR;

/* Which passes `set` needs (bit 0: pass 1, bit 1: pass 2). */
unsigned czk_perf_sim_passes(const czk_perf_eventset *set);
/* The valgrind argv prefix for a pass (NULL-terminated, in static storage
 * of `buf`); `whole` = instrument from the start (external commands);
 * `region` != NULL: collect only inside that function and its callees
 * (callgrind --toggle-collect, with its * and ? wildcards). */
size_t czk_perf_sim_argv(char *argv[20], char buf[1536], int pass, const czk_perf_geometry *g,
                         const char *outfile, int whole, const char *region);
int czk_perf_valgrind_available(void);
/* Fill every simulatable, not-counted event of `r` (in `set`'s order) from
 * the pass totals (p2 may be NULL when pass 2 was not run). */
void czk_perf_sim_apply(czk_perf_report *r, const czk_perf_eventset *set, const czk_perf_cg_totals *p1,
                        const czk_perf_cg_totals *p2, const czk_perf_geometry *g);

/* ---- sampling backend: ELF symbols, perf records ----------------------------- */

/* Function symbols of one ELF file (.symtab, else .dynsym), sorted by
 * address, names demangled (C++ and Rust, libiberty) where built with it. */
typedef struct czk_perf_sym {
    uint64_t addr, size; /* link-time virtual address; size 0 extends to the next symbol */
    char *name;
} czk_perf_sym;

typedef struct czk_perf_symtab {
    char path[512];
    size_t n;
    czk_perf_sym *sym;
    size_t nload;
    struct { uint64_t off, vaddr, filesz; } load[16]; /* PT_LOAD segments */
} czk_perf_symtab;

/* A bad or truncated ELF file is CZK_ERR_FORMAT naming the file and what. */
czk_status czk_perf_symtab_load(czk_perf_symtab *t, const char *path) CZK_WUR;
void czk_perf_symtab_clear(czk_perf_symtab *t);
/* The function containing vaddr, or NULL. */
const czk_perf_sym *czk_perf_symtab_lookup(const czk_perf_symtab *t, uint64_t vaddr);
/* File offset -> link-time virtual address through the PT_LOAD segments; 0 if none. */
int czk_perf_symtab_vaddr(const czk_perf_symtab *t, uint64_t off, uint64_t *vaddr);
/* The address range of the first function matching `pattern` (fnmatch
 * wildcards, on the demangled name without its Rust hash): --region. */
int czk_perf_symtab_range(const czk_perf_symtab *t, const char *pattern, uint64_t *lo, uint64_t *hi);
/* Demangled C++ / Rust (legacy and v0) name, malloc'd; NULL when `sym` is not
 * mangled or no demangler is built in. */
char *czk_perf_demangle(const char *sym);
int czk_perf_demangler_available(void);

/* Samples -> per-function profile. Feed it the records of a perf ring buffer
 * (PERF_RECORD_MMAP2 and PERF_RECORD_SAMPLE with sample_type IDENTIFIER | IP |
 * TID | PERIOD); each sample adds its period to the function of its IP in the
 * column of its event (matched by id). With a region (a function of the main
 * program), only samples inside that function's address range count. */
typedef struct czk_perf_sampler czk_perf_sampler;
czk_status czk_perf_sampler_create(czk_perf_sampler **s, size_t nev, const char *const *names, const uint64_t *ids,
                                   const char *region) CZK_WUR;
void czk_perf_sampler_destroy(czk_perf_sampler *s);
/* One record (header included); unknown record types are skipped. */
void czk_perf_sampler_record(czk_perf_sampler *s, const void *rec, size_t len);
/* Copy the records out of a perf mmap ring (the metadata page then 2^k data
 * pages) into the sampler and advance data_tail; handles records that wrap. */
size_t czk_perf_sampler_drain(czk_perf_sampler *s, void *ring, size_t data_size);
/* Resolve every sample's address to a function (ELF symbols of the mapped
 * files) and fill `out`; samples, lost and unresolved counts for the report. */
czk_status czk_perf_sampler_profile(czk_perf_sampler *s, czk_perf_profile *out, uint64_t *samples, uint64_t *lost,
                                    uint64_t *unresolved) CZK_WUR;

/* ---- child processes (czk diff, simulated passes of czk bench) -------------- */

typedef struct czk_perf_child {
    char *const *argv;  /* NULL-terminated; argv[0] is searched in PATH */
    int czk_bench;      /* argv is `czk bench ...`: the child measures its own region
                           and writes a report (hidden flags --perf-report FILE,
                           --perf-events SPEC, --perf-group K, --perf-sim PASS) */
    const char *spec;   /* counter spec, NULL for time and software events only */
    int group;          /* hardware counter group to open this run (-1: all) */
    const char *tmpdir; /* existing scratch directory */
    const char *log;    /* the child's stdout and stderr are appended here (NULL: discarded) */
    int sim_whole;      /* czk bench child marks no region: simulate from its start */
    const char *region; /* simulated: count only inside this function and its callees */
    int show_output;    /* native run: the child keeps our stdout and stderr (log ignored) */
} czk_perf_child;

/* Run the command once natively. A czk bench child reports its own region;
 * any other command is measured as a whole process (wall time from exec to
 * exit, counters attached with enable_on_exec, wait4 rusage). A non-zero
 * exit is an error naming the command and status. */
czk_status czk_perf_child_run(czk_perf_report *r, const czk_perf_child *c) CZK_WUR;
/* Re-run the command under callgrind for the passes `set` needs and fill the
 * simulatable events of r that were not counted. prof (may be NULL) receives
 * the set's events per function. */
czk_status czk_perf_child_simulate(czk_perf_report *r, czk_perf_profile *prof, const czk_perf_eventset *set,
                                   const czk_perf_child *c) CZK_WUR;

/* Run the command (whole process) with sampling counters on `set`'s hardware events (the
 * periods: 1 sample per 1,000,003 instructions or cycles, per 10,007 other
 * events) and build its profile. Needs a PMU: CZK_ERR_UNSUPPORTED otherwise. */
czk_status czk_perf_child_sample(czk_perf_profile *out, const czk_perf_eventset *set, const czk_perf_child *c) CZK_WUR;

/* One callgrind pass of a child as a job of its own, so that several can run
 * at once (simulated counts do not depend on timing). */
typedef struct czk_perf_sim_job {
    int pass;
    char dir[1024];       /* the job's folder: callgrind output, report, log.txt */
    int pid, go_fd;
    double t0, seconds;
    czk_perf_cg_totals tot;
    czk_perf_profile raw; /* per-function self costs, czk_perf_cg_columns */
    char desc[160];
} czk_perf_sim_job;
/* Start pass `pass` of c under valgrind with its files in `dir` (created). */
czk_status czk_perf_sim_start(czk_perf_sim_job *j, const czk_perf_child *c, int pass, const char *dir,
                              const czk_perf_geometry *g) CZK_WUR;
/* Non-blocking: *done = 1 once the job has exited and its output is parsed
 * (j->tot, j->raw). A failed run is an error naming the pass and the log. */
czk_status czk_perf_sim_poll(czk_perf_sim_job *j, int *done) CZK_WUR;
void czk_perf_sim_kill(czk_perf_sim_job *j);
void czk_perf_sim_job_clear(czk_perf_sim_job *j);
/* Progress of long measurements on stderr: a redrawn line on a terminal,
 * else one line per step once the work has taken a few seconds (so that a
 * redirected run is not silent); nothing when quiet. */
typedef struct czk_perf_progress {
    int mode;            /* 0 off, 1 terminal, 2 lines */
    double start, last;
    char who[32];        /* "czk diff" */
    int drawn;
} czk_perf_progress;
void czk_perf_progress_init(czk_perf_progress *p, const char *who, int quiet);
/* stage, k of n, and an estimate of the seconds left (< 0: unknown). */
void czk_perf_progress_step(czk_perf_progress *p, const char *stage, size_t k, size_t n, double eta_s, int force);
void czk_perf_progress_end(czk_perf_progress *p);

/* A batch of simulation passes run `jobs` at a time. est_s: expected
 * seconds of each (for the ETA; refined as passes finish). */
typedef struct czk_perf_sim_task {
    const czk_perf_child *c;
    int pass;
    char dir[1024];
    double est_s;
    czk_perf_sim_job job;
    int started, done;
} czk_perf_sim_task;
czk_status czk_perf_sim_run_all(czk_perf_sim_task *t, size_t n, int jobs, const czk_perf_geometry *g,
                                czk_perf_progress *pr, const char *stage) CZK_WUR;

/* Whether two simulations repeat: every shared event agrees within
 * CZK_PERF_SIM_REPEAT (relative) + 2 counts, ten times below the 1% that
 * `czk diff` calls a difference (a whole process's start-up may vary by a few
 * dozen instructions). *spread: the largest relative deviation. */
#define CZK_PERF_SIM_REPEAT 1e-3
int czk_perf_cg_repeat(double *spread, const czk_perf_cg_totals *x, int xpass, const czk_perf_cg_totals *y, int ypass);

/* ---- A/B comparison (czk diff) ----------------------------------------------- */

/* Approximate cost, in core cycles, of one event; used to rank counter deltas
 * (Zen4-like latencies; see src/perf/README.md, "cost model"). */
#define CZK_PERF_COST_INSTR 0.25     /* per extra instruction at IPC 4, when no cycle counter */
#define CZK_PERF_COST_MISPREDICT 17.0 /* branch mispredict: pipeline refill */
#define CZK_PERF_COST_L2_HIT 14.0    /* L1d miss served by L2 */
#define CZK_PERF_COST_L2_MISS 50.0   /* L2 miss served by L3 */
#define CZK_PERF_COST_DRAM 250.0     /* DRAM fill, on top of the L2 miss */

typedef struct czk_perf_diff_row {
    char name[96];
    char unit[16];
    char source[16];     /* "measured", "software", "counted", "simulated" */
    char how[112];       /* for simulated rows the simulator's formula ("callgrind Bcm+Bim"),
                            for derived rows what they divide; "" */
    int exact;           /* simulated counts that repeated exactly: one value per side,
                            compared without statistics (p = NAN) */
    size_t na, nb;
    double *a, *b;       /* samples (owned by the diff) */
    double a_med, b_med;
    double delta_pct, ci_lo, ci_hi; /* NAN when undefined (A median 0) */
    double u, p;
    int differs;
} czk_perf_diff_row;

#define CZK_PERF_DIFF_MAX_ROWS 96
#define CZK_PERF_DIFF_MAX_CAUSES 6

typedef struct czk_perf_diff_cause {
    char key[24];        /* "instructions", "branch-mispredictions", "l2-hits", "l2-misses", "dram-fills" */
    char what[64];
    double delta;        /* median B - median A of the event count */
    double cycles;       /* delta * cost */
    int significant;     /* the underlying metric's verdict is "differs" */
} czk_perf_diff_cause;

/* Where a metric's difference is: its value per function on each side,
 * ranked by |B - A| (like `perf diff`). */
typedef struct czk_perf_where_row {
    char *name;
    char object[48];
    double a, b, delta;
    double share;        /* 100 * delta / (B total - A total); NAN when the totals are equal */
} czk_perf_where_row;

typedef struct czk_perf_where {
    char metric[96];
    char how[112];
    int differs;         /* the metric's own verdict */
    double a_total, b_total; /* sums over every function */
    size_t nfn;          /* functions with a value on either side */
    size_t n;            /* rows: the top by |delta| */
    czk_perf_where_row *rows;
    double rest_a, rest_b; /* the remaining functions together */
} czk_perf_where;

/* Function-name unification before matching A's functions with B's
 * (variants compiled under different names: czk's --lc builds). */
typedef struct czk_perf_rename {
    char from[64], to[64];
} czk_perf_rename;

typedef struct czk_perf_diff {
    size_t nrows;
    czk_perf_diff_row rows[CZK_PERF_DIFF_MAX_ROWS];
    int differs;         /* verdict on the primary metric */
    char primary[48];
    char cause[24];      /* time differs: key of the top-ranked significant cause in the
                            direction of the change; else (or none found) "none" */
    char largest[24];    /* key of the largest significant counter change, "none" */
    size_t ncauses;
    czk_perf_diff_cause causes[CZK_PERF_DIFF_MAX_CAUSES];
    double time_ratio, instr_ratio, tpi_ratio; /* NAN when not available */
    /* why: the counter model's estimate next to the measured change, in cycles */
    double ghz;          /* clock used to turn time into cycles (NAN: none) */
    char ghz_src[64];
    double cpi_a;        /* A's cycles per instruction used for the instruction term */
    char cpi_src[96];
    double measured_cycles, model_cycles, unexplained_cycles; /* NAN when not available */
    char unobserved[400]; /* what the backend cannot see */
    char explain[4096];
    /* where (czk_perf_diff_where) */
    size_t nwhere;
    czk_perf_where *where;
    char where_source[160];
    char where_note[256];
} czk_perf_diff;

/* Compare the runs of A and B: one row per metric with samples on both sides
 * (time, software events, every counted/simulated event, derived metrics).
 * Verdict "differs" only when p < 0.05 and the 95% bootstrap interval of the
 * delta lies outside +-1%. The overall verdict and the explanation are about
 * `primary` ("time" when NULL; "task-clock" is steadier on a shared machine).
 * An unknown primary metric is CZK_ERR_INVALID_ARG. */
czk_status czk_perf_diff_compute(czk_perf_diff *d, const czk_perf_report *a, size_t na, const czk_perf_report *b,
                                 size_t nb, uint64_t seed, const char *primary) CZK_WUR;
void czk_perf_diff_free(czk_perf_diff *d);
/* Attribute every metric that per-function profiles cover to functions: A's
 * profiles a[0..na) against B's (the median per function when a side has
 * several), `top` rows each, names unified by `ren` first. */
czk_status czk_perf_diff_where(czk_perf_diff *d, const czk_perf_profile *a, size_t na, const czk_perf_profile *b,
                               size_t nb, size_t top, const czk_perf_rename *ren, size_t nren) CZK_WUR;
/* The metric table, the where tables of the metrics that differ (all of
 * them with `all_where`), and the explanation. */
void czk_perf_diff_print(FILE *f, const czk_perf_diff *d);
void czk_perf_diff_print_where(FILE *f, const czk_perf_diff *d, int all_where);
/* Clock rate to turn time into cycles: CZK_PERF_GHZ, else the highest "cpu
 * MHz" of /proc/cpuinfo; src says which. NAN when unknown. */
double czk_perf_cpu_ghz(char *src, size_t cap);
/* JSON with every raw sample; `a_cmd`, `b_cmd` describe the commands, `order` the run order ("ABBA..."). */
czk_status czk_perf_diff_write_json(FILE *f, const czk_perf_diff *d, const char *a_cmd, const char *b_cmd,
                                    const char *order, const czk_perf_report *a, size_t na,
                                    const czk_perf_report *b, size_t nb) CZK_WUR;
/* SVG: per-run distributions of the main metrics, A and B side by side. */
czk_status czk_perf_diff_write_svg(const char *path, const czk_perf_diff *d, const char *title) CZK_WUR;

/* ---- statistics ------------------------------------------------------------ */

/* Median of v (copied, not modified). n > 0. */
double czk_perf_median(const double *v, size_t n);
/* 95% (level) percentile-bootstrap interval for 100*(median(b)/median(a) - 1),
 * `resamples` resamples drawn with a ChaCha20 stream seeded by `seed`.
 * Returns nonzero when undefined (a median of a resample is 0). */
int czk_perf_bootstrap_delta(double *lo, double *hi, const double *a, size_t na, const double *b,
                             size_t nb, double level, unsigned resamples, uint64_t seed);
/* Two-sided Mann-Whitney U test: U of sample a, and the p-value: exact
 * (enumeration of rank sums) when there are no ties and na, nb <= 25, else
 * the normal approximation with tie correction and continuity correction. */
double czk_perf_mann_whitney(double *u, const double *a, size_t na, const double *b, size_t nb);

#pragma GCC visibility pop

#endif
