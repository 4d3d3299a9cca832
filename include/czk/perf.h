/* czk — performance counters, measurement regions and A/B statistics.
 *
 * Three backends produce counter values, and every value says which one did:
 *   counted   — Linux perf_event_open on this CPU (czk's own raw encodings for
 *               AMD Zen3/Zen4, libpfm4 names where built with it, the generic
 *               perf events otherwise, or raw rXXXX);
 *   simulated — the same workload re-run under valgrind's callgrind with cache
 *               and branch simulation (used where the CPU has no PMU, e.g. most
 *               virtual machines);
 *   unavailable — neither (the name is unknown, or the event has no hardware
 *               encoding on this CPU and no simulated equivalent).
 * Software events (task-clock, page faults, context switches) and getrusage
 * (max RSS) are always measured natively.
 *
 * Region of interest. A benchmark marks its measured section:
 *
 *     czk_perf_begin();
 *     ... measured work (may start OpenMP / pthread workers) ...
 *     czk_perf_end();
 *
 * Both are no-ops unless a measurement session is active (`czk bench X
 * --counters`, or a run started by `czk diff`). Counters are opened with
 * inherit before the benchmark runs, so threads created after that (OpenMP
 * creates its pool at the first parallel region) are counted — threads that
 * already existed when the session started are not; under callgrind the
 * calls start/stop instrumentation, which is global to all threads. Call them from the benchmark's own thread, never
 * from inside a parallel region; begin/end pairs may repeat (the values
 * accumulate over all pairs) and nest (only the outermost pair counts). A
 * benchmark that never calls them is measured as a whole (the report says so).
 * Time inside the region is wall time (CLOCK_MONOTONIC), summed over pairs.
 */
#ifndef CZK_PERF_H
#define CZK_PERF_H

#include <stdint.h>
#include <stdio.h>

#include "czk/common.h"

#ifdef __cplusplus
extern "C" {
#endif

void czk_perf_begin(void);
void czk_perf_end(void);

/* ---- events ---------------------------------------------------------------- */

/* What an event measures, independent of how it is spelled on one CPU. Derived
 * metrics, the simulated backend and the diff cost model work on roles. */
typedef enum czk_perf_role {
    CZK_PERF_ROLE_OTHER = 0,
    CZK_PERF_ROLE_INSTRUCTIONS,
    CZK_PERF_ROLE_CYCLES,
    CZK_PERF_ROLE_BRANCHES,
    CZK_PERF_ROLE_BRANCH_MISSES,
    CZK_PERF_ROLE_CACHE_REFS,    /* generic cache-references (AMD: L2 accesses) */
    CZK_PERF_ROLE_CACHE_MISSES,  /* generic cache-misses (AMD: L2 misses, Intel: LLC) */
    CZK_PERF_ROLE_L2_DC_ACCESS,  /* demand data-cache requests reaching L2 */
    CZK_PERF_ROLE_L2_DC_HIT,     /* ... of which hit in L2 */
    CZK_PERF_ROLE_L2_MISS,       /* instruction+data demand misses in L2 */
    CZK_PERF_ROLE_L2_HIT,        /* instruction+data demand hits in L2 */
    CZK_PERF_ROLE_L2_REQUESTS,   /* L2 requests, no prefetch */
    CZK_PERF_ROLE_FILL_L2,       /* L1d fills by source: local L2 */
    CZK_PERF_ROLE_FILL_CCX,      /* ... L3 or another core of this CCX */
    CZK_PERF_ROLE_FILL_NEAR,     /* ... another CCX, same node */
    CZK_PERF_ROLE_FILL_FAR,      /* ... another node's cache */
    CZK_PERF_ROLE_FILL_DRAM,     /* ... DRAM or IO (near + far) */
    CZK_PERF_ROLE_FILL_DRAM_FAR, /* ... DRAM or IO of another node */
    CZK_PERF_ROLE_RETIRED_OPS,
    CZK_PERF_ROLE_DISPATCHED_OPS,
    CZK_PERF_ROLE_TD_FRONTEND,   /* Zen4 dispatch slots empty: frontend */
    CZK_PERF_ROLE_TD_BACKEND,    /* Zen4 dispatch slots empty: backend stall */
    CZK_PERF_ROLE_L1_LOADS,
    CZK_PERF_ROLE_L1_LOAD_MISSES,
    CZK_PERF_ROLE_COUNT
} czk_perf_role;

/* How the simulated backend obtains a role's value. Pass 1 simulates
 * I1/D1 plus LL = the L2 geometry; pass 2 the same I1/D1 plus LL = the L3
 * geometry (see src/perf/README.md). */
typedef enum czk_perf_source {
    CZK_PERF_UNAVAILABLE = 0,
    CZK_PERF_COUNTED,
    CZK_PERF_SIMULATED,
    CZK_PERF_SOFTWARE,
    CZK_PERF_MEASURED /* derived from the wall clock (e.g. ns per instruction): as noisy as time */
} czk_perf_source;

const char *czk_perf_source_str(czk_perf_source s); /* "counted", "simulated", ... */

typedef struct czk_perf_event {
    char name[96];     /* as requested (perf spelling), e.g. "ls_any_fills_from_sys.dram_io_all" */
    czk_perf_role role;
    int has_hw;        /* type/config valid for perf_event_open on this CPU */
    uint32_t type;     /* PERF_TYPE_* */
    uint64_t config, config1;
    int exclude_kernel; /* default 1 (works at perf_event_paranoid 2) */
    int sim_pass;      /* 0: not simulatable; 1 or 2 (mask 3 = both) */
    char origin[24];   /* "generic", "zen4", "zen3", "libpfm4", "raw", "software" */
    char note[112];    /* why no hardware encoding / what the simulation means */
} czk_perf_event;

#define CZK_PERF_MAX_EVENTS 48

typedef struct czk_perf_eventset {
    size_t n;
    czk_perf_event ev[CZK_PERF_MAX_EVENTS];
} czk_perf_eventset;

/* CPU families with their own encoding table. */
typedef enum czk_perf_cpu { CZK_PERF_CPU_GENERIC = 0, CZK_PERF_CPU_ZEN3, CZK_PERF_CPU_ZEN4, CZK_PERF_CPU_INTEL } czk_perf_cpu;
czk_perf_cpu czk_perf_cpu_kind(const char *vendor, unsigned family, unsigned model);
czk_perf_cpu czk_perf_cpu_this(void);
const char *czk_perf_cpu_str(czk_perf_cpu c);

/* Parse a counter spec: a preset ("default", "topdown", "l2", "fills", "ref"
 * — the reference study's list) or a comma-separated list of event names:
 * perf generic names (instructions, cycles, cache-misses, ...), czk's Zen
 * names (l2_cache_req_stat.dc_hit_in_l2, ...), libpfm4 names, or raw
 * "rHEX"; an optional ":u" / ":k" / ":uk" suffix. Unknown names are kept
 * (role OTHER, no hardware, not simulatable) so they are reported as
 * unavailable. Returns CZK_ERR_INVALID_ARG only for a malformed spec
 * (empty name, bad raw hex, too many events), naming the offending item. */
czk_status czk_perf_eventset_parse(czk_perf_eventset *set, const char *spec, czk_perf_cpu cpu) CZK_WUR;

/* Events split into groups of at most 5 events (the leader is always
 * instructions, added where absent) for the hardware backend; returns the
 * number of groups; group_of[i] is event i's group (-1 for events without a
 * hardware encoding). */
int czk_perf_eventset_groups(const czk_perf_eventset *set, int group_of[CZK_PERF_MAX_EVENTS]);

/* ---- one measurement ------------------------------------------------------- */

typedef struct czk_perf_value {
    char name[96];
    czk_perf_role role;
    czk_perf_source source;
    double value;      /* scaled count (counted), simulated count, or 0 */
    int multiplexed;   /* counted with time_running < time_enabled: value is scaled */
    double running;    /* time_running / time_enabled (1 = not multiplexed) */
    char note[112];    /* origin / why unavailable */
} czk_perf_value;

typedef struct czk_perf_report {
    double seconds;        /* wall time inside the region(s) */
    unsigned regions;      /* begin/end pairs; 0 = measured the whole benchmark */
    double task_clock_s;   /* CPU time of all threads in the region */
    double page_faults, ctx_switches;
    double max_rss;        /* bytes, whole process */
    int hw_available;      /* the CPU exposes hardware counters to us */
    char backend[64];      /* e.g. "perf_event_open", "callgrind (simulated)", "mixed" */
    char sim_geometry[160];/* cache geometry passed to callgrind, "" if not simulated */
    int sim_exact;         /* the simulated values repeated exactly in a second simulation
                              (so they are the same for every run of this side) */
    int sim_runs;          /* simulations behind the simulated values (0: none) */
    double sim_spread;     /* sim_exact: the largest relative deviation between the two (0: identical) */
    char region_fn[96];    /* counters restricted to this function and its callees
                              (--region); time still covers the whole run. "" = none */
    size_t n;
    czk_perf_value v[CZK_PERF_MAX_EVENTS];
} czk_perf_report;

/* The value with this role that is counted or simulated; NULL if none. */
const czk_perf_value *czk_perf_report_find(const czk_perf_report *r, czk_perf_role role);
const czk_perf_value *czk_perf_report_find_name(const czk_perf_report *r, const char *name);

/* Derived metrics (IPC, branch-miss %, branch MPKI, L2 demand hit %, L2 MPKI,
 * DRAM fills per 1000 instructions, fill-source mix, Zen4 top-down level 1).
 * Each is computed only when its inputs exist; `source` says which backend
 * produced the inputs (simulated if any input was simulated). */
typedef struct czk_perf_metric {
    char name[48];
    char unit[16];
    double value;
    czk_perf_source source;
    char how[80];      /* what it divides, when its inputs come from different sources
                          (e.g. "native time / simulated instructions"), else "" */
} czk_perf_metric;
#define CZK_PERF_MAX_METRICS 24
size_t czk_perf_derive(czk_perf_metric out[CZK_PERF_MAX_METRICS], const czk_perf_report *r);

/* v rounded, with thousands separators ("1,234,567"); %.4g beyond 1e18. */
const char *czk_perf_fmt_count(char buf[40], double v);
/* Text table of raw values and derived metrics. */
void czk_perf_report_print(FILE *f, const czk_perf_report *r);
/* JSON (one object) of the report; also read back by czk_perf_report_read. */
czk_status czk_perf_report_write_json(FILE *f, const czk_perf_report *r) CZK_WUR;
czk_status czk_perf_report_save(const char *path, const czk_perf_report *r) CZK_WUR;
czk_status czk_perf_report_load(czk_perf_report *r, const char *path) CZK_WUR;

/* ---- measurement session (process-wide) ------------------------------------ */

typedef enum czk_perf_backend { CZK_PERF_BACKEND_AUTO = 0, CZK_PERF_BACKEND_HW, CZK_PERF_BACKEND_SIM, CZK_PERF_BACKEND_NONE } czk_perf_backend;
czk_status czk_perf_backend_parse(czk_perf_backend *b, const char *s) CZK_WUR;

/* Whether perf_event_open of a hardware event works here (cached probe). */
int czk_perf_hw_available(void);

/* Start a session in this process: opens the hardware groups of `set`
 * (all of them, or only group `group` when group >= 0: the rotation `czk
 * diff` uses across runs), the software events, and snapshots getrusage.
 * sim_pass != 0: this process runs under callgrind as pass |sim_pass|, and
 * czk_perf_begin/end toggle its instrumentation instead (callgrind started
 * with --instr-atstart=no): sim_pass > 0 instruments the marked regions only
 * (simulated caches start cold at the first one), sim_pass < 0 instruments
 * from the session start (for benchmarks that mark no region). `set` may be NULL
 * (time and software events only). Then an implicit region covering
 * everything until the first explicit czk_perf_begin starts. */
czk_status czk_perf_session_start(const czk_perf_eventset *set, int group, int sim_pass) CZK_WUR;
/* End the session and fill `r` with the counted/software values (simulated
 * events are left unavailable; see czk_perf_simulate). */
czk_status czk_perf_session_stop(czk_perf_report *r) CZK_WUR;
int czk_perf_session_active(void);

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

#ifdef __cplusplus
}
#endif
#endif
