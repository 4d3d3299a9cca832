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
 *
 * This header is the measurement a program embedding libczk can use: regions,
 * event sets, sessions and their reports. The machinery of `czk stat` and
 * `czk diff` (callgrind simulation, per-function profiles, sampling, child
 * runs, the A/B statistics) is internal: src/perf/perf_internal.h.
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
 * events are left unavailable: `czk bench --counters` and `czk diff` fill
 * them from callgrind runs). */
czk_status czk_perf_session_stop(czk_perf_report *r) CZK_WUR;
int czk_perf_session_active(void);

#ifdef __cplusplus
}
#endif
#endif
