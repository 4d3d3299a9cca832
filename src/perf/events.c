/* Event names -> perf_event_open encodings and roles.
 *
 * AMD raw config = event[7:0] | umask << 8 | event[11:8] << 32 (PERF_TYPE_RAW);
 * event and umask values from the AMD PPRs for family 19h (Zen3: 56214,
 * Zen4: 57930), summarised in docs/perf-counters.md. Intel names go through libpfm4
 * (loaded with dlopen when installed, so it stays optional). */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/perf.h"
#include "perf/perf_internal.h"

#if defined(__has_include)
#if __has_include(<perfmon/pfmlib_perf_event.h>)
#include <perfmon/pfmlib_perf_event.h>
#define HAVE_PFM_HEADER 1
#endif
#endif

typedef struct zen_event {
    const char *name;
    unsigned event, umask;
    czk_perf_role role;
    int zen3; /* also valid on Zen3 */
} zen_event;

static const zen_event zen_table[] = {
    {"ls_not_halted_cyc", 0x76, 0x00, CZK_PERF_ROLE_CYCLES, 1},
    {"ex_ret_instr", 0xc0, 0x00, CZK_PERF_ROLE_INSTRUCTIONS, 1},
    {"ex_ret_ops", 0xc1, 0x00, CZK_PERF_ROLE_RETIRED_OPS, 1},
    {"ex_ret_brn", 0xc2, 0x00, CZK_PERF_ROLE_BRANCHES, 1},
    {"ex_ret_brn_misp", 0xc3, 0x00, CZK_PERF_ROLE_BRANCH_MISSES, 1},
    {"l2_cache_req_stat.dc_access_in_l2", 0x64, 0xf8, CZK_PERF_ROLE_L2_DC_ACCESS, 1},
    {"l2_cache_req_stat.dc_hit_in_l2", 0x64, 0xf0, CZK_PERF_ROLE_L2_DC_HIT, 1},
    {"l2_cache_req_stat.ic_dc_miss_in_l2", 0x64, 0x09, CZK_PERF_ROLE_L2_MISS, 1},
    {"l2_cache_req_stat.ic_dc_hit_in_l2", 0x64, 0xf6, CZK_PERF_ROLE_L2_HIT, 1},
    {"l2_request_g1.all_no_prefetch", 0x60, 0xf9, CZK_PERF_ROLE_L2_REQUESTS, 1},
    {"ls_dmnd_fills_from_sys.local_l2", 0x43, 0x01, CZK_PERF_ROLE_FILL_L2, 1},
    {"ls_dmnd_fills_from_sys.local_ccx", 0x43, 0x02, CZK_PERF_ROLE_FILL_CCX, 1},
    {"ls_dmnd_fills_from_sys.near_cache", 0x43, 0x04, CZK_PERF_ROLE_FILL_NEAR, 1},
    {"ls_dmnd_fills_from_sys.dram_io_near", 0x43, 0x08, CZK_PERF_ROLE_FILL_DRAM, 1},
    {"ls_dmnd_fills_from_sys.far_cache", 0x43, 0x10, CZK_PERF_ROLE_FILL_FAR, 1},
    {"ls_dmnd_fills_from_sys.dram_io_far", 0x43, 0x40, CZK_PERF_ROLE_FILL_DRAM_FAR, 1},
    {"ls_dmnd_fills_from_sys.dram_io_all", 0x43, 0x48, CZK_PERF_ROLE_FILL_DRAM, 1},
    {"ls_any_fills_from_sys.local_l2", 0x44, 0x01, CZK_PERF_ROLE_FILL_L2, 1},
    {"ls_any_fills_from_sys.local_ccx", 0x44, 0x02, CZK_PERF_ROLE_FILL_CCX, 1},
    {"ls_any_fills_from_sys.near_cache", 0x44, 0x04, CZK_PERF_ROLE_FILL_NEAR, 1},
    {"ls_any_fills_from_sys.dram_io_near", 0x44, 0x08, CZK_PERF_ROLE_FILL_DRAM, 1},
    {"ls_any_fills_from_sys.far_cache", 0x44, 0x10, CZK_PERF_ROLE_FILL_FAR, 1},
    {"ls_any_fills_from_sys.dram_io_far", 0x44, 0x40, CZK_PERF_ROLE_FILL_DRAM_FAR, 1},
    {"ls_any_fills_from_sys.dram_io_all", 0x44, 0x48, CZK_PERF_ROLE_FILL_DRAM, 1},
    {"ls_l1_d_tlb_miss.all", 0x45, 0xff, CZK_PERF_ROLE_OTHER, 1},
    {"l2_pf_hit_l2.all", 0x70, 0xff, CZK_PERF_ROLE_OTHER, 1},
    {"l2_pf_miss_l2_hit_l3.all", 0x71, 0xff, CZK_PERF_ROLE_OTHER, 1},
    {"l2_pf_miss_l2_l3.all", 0x72, 0xff, CZK_PERF_ROLE_OTHER, 1},
    {"de_no_dispatch_per_slot.no_ops_from_frontend", 0x1a0, 0x01, CZK_PERF_ROLE_TD_FRONTEND, 0},
    {"de_no_dispatch_per_slot.backend_stalls", 0x1a0, 0x1e, CZK_PERF_ROLE_TD_BACKEND, 0},
    {"de_src_op_disp.all", 0xaa, 0x07, CZK_PERF_ROLE_DISPATCHED_OPS, 0},
};

static uint64_t amd_raw(unsigned event, unsigned umask)
{
    return (uint64_t)(event & 0xff) | (uint64_t)(umask & 0xff) << 8 | (uint64_t)((event >> 8) & 0xf) << 32;
}

typedef struct generic_event {
    const char *name;
    uint32_t type;
    uint64_t config;
    czk_perf_role role;
} generic_event;

#define HWC(cache, op, res)                                                             \
    (PERF_COUNT_HW_CACHE_##cache | PERF_COUNT_HW_CACHE_OP_##op << 8 | PERF_COUNT_HW_CACHE_RESULT_##res << 16)

static const generic_event generic_table[] = {
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, CZK_PERF_ROLE_INSTRUCTIONS},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, CZK_PERF_ROLE_CYCLES},
    {"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, CZK_PERF_ROLE_CYCLES},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, CZK_PERF_ROLE_CACHE_REFS},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, CZK_PERF_ROLE_CACHE_MISSES},
    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, CZK_PERF_ROLE_BRANCHES},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, CZK_PERF_ROLE_BRANCHES},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, CZK_PERF_ROLE_BRANCH_MISSES},
    {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, CZK_PERF_ROLE_OTHER},
    {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, CZK_PERF_ROLE_OTHER},
    {"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, CZK_PERF_ROLE_OTHER},
    {"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, CZK_PERF_ROLE_OTHER},
    {"L1-dcache-loads", PERF_TYPE_HW_CACHE, HWC(L1D, READ, ACCESS), CZK_PERF_ROLE_L1_LOADS},
    {"L1-dcache-load-misses", PERF_TYPE_HW_CACHE, HWC(L1D, READ, MISS), CZK_PERF_ROLE_L1_LOAD_MISSES},
    {"LLC-loads", PERF_TYPE_HW_CACHE, HWC(LL, READ, ACCESS), CZK_PERF_ROLE_OTHER},
    {"LLC-load-misses", PERF_TYPE_HW_CACHE, HWC(LL, READ, MISS), CZK_PERF_ROLE_OTHER},
    {"dTLB-load-misses", PERF_TYPE_HW_CACHE, HWC(DTLB, READ, MISS), CZK_PERF_ROLE_OTHER},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, CZK_PERF_ROLE_OTHER},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, CZK_PERF_ROLE_OTHER},
    {"faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, CZK_PERF_ROLE_OTHER},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, CZK_PERF_ROLE_OTHER},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, CZK_PERF_ROLE_OTHER},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, CZK_PERF_ROLE_OTHER},
    {"cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, CZK_PERF_ROLE_OTHER},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, CZK_PERF_ROLE_OTHER},
};

/* Presets. "ref" is the reference study's list, verbatim. */
static const char *const preset_default =
    "instructions,cycles,branch-instructions,branch-misses,cache-references,cache-misses,"
    "l2_cache_req_stat.dc_access_in_l2,l2_cache_req_stat.dc_hit_in_l2,ls_any_fills_from_sys.dram_io_all";
static const char *const preset_topdown =
    "cycles,instructions,ex_ret_ops,de_src_op_disp.all,de_no_dispatch_per_slot.no_ops_from_frontend,"
    "de_no_dispatch_per_slot.backend_stalls";
static const char *const preset_l2 =
    "instructions,l2_cache_req_stat.dc_access_in_l2,l2_cache_req_stat.dc_hit_in_l2,"
    "l2_cache_req_stat.ic_dc_miss_in_l2,l2_cache_req_stat.ic_dc_hit_in_l2,l2_request_g1.all_no_prefetch,"
    "cache-references,cache-misses";
static const char *const preset_fills =
    "instructions,ls_dmnd_fills_from_sys.local_l2,ls_dmnd_fills_from_sys.local_ccx,"
    "ls_dmnd_fills_from_sys.near_cache,ls_dmnd_fills_from_sys.dram_io_near,ls_dmnd_fills_from_sys.far_cache,"
    "ls_dmnd_fills_from_sys.dram_io_far,ls_any_fills_from_sys.dram_io_all";
static const char *const preset_ref =
    "instructions,cycles,cache-references,cache-misses,branch-instructions,branch-misses,"
    "l2_cache_req_stat.dc_access_in_l2,l2_cache_req_stat.dc_hit_in_l2,"
    "ls_dmnd_fills_from_sys.local_l2,ls_dmnd_fills_from_sys.local_ccx,ls_any_fills_from_sys.dram_io_all";

const char *czk_perf_source_str(czk_perf_source s)
{
    switch (s) {
    case CZK_PERF_COUNTED: return "counted";
    case CZK_PERF_SIMULATED: return "simulated";
    case CZK_PERF_SOFTWARE: return "software";
    case CZK_PERF_MEASURED: return "measured";
    default: return "unavailable";
    }
}

czk_perf_cpu czk_perf_cpu_kind(const char *vendor, unsigned family, unsigned model)
{
    if (!strcmp(vendor, "AuthenticAMD") && family == 0x19)
        return (model <= 0x0f || (model >= 0x20 && model <= 0x5f)) ? CZK_PERF_CPU_ZEN3 : CZK_PERF_CPU_ZEN4;
    if (!strcmp(vendor, "GenuineIntel")) return CZK_PERF_CPU_INTEL;
    return CZK_PERF_CPU_GENERIC;
}

czk_perf_cpu czk_perf_cpu_this(void)
{
    czk_cpu_info ci;
    czk_cpu_info_get(&ci);
    return czk_perf_cpu_kind(ci.vendor, ci.family, ci.model);
}

const char *czk_perf_cpu_str(czk_perf_cpu c)
{
    switch (c) {
    case CZK_PERF_CPU_ZEN3: return "AMD Zen3";
    case CZK_PERF_CPU_ZEN4: return "AMD Zen4";
    case CZK_PERF_CPU_INTEL: return "Intel";
    default: return "generic";
    }
}

/* Pass of the callgrind simulation that yields a role (0: none; 3: both). */
static int sim_pass_of(czk_perf_role r)
{
    switch (r) {
    case CZK_PERF_ROLE_INSTRUCTIONS:
    case CZK_PERF_ROLE_BRANCHES:
    case CZK_PERF_ROLE_BRANCH_MISSES:
    case CZK_PERF_ROLE_CACHE_REFS:
    case CZK_PERF_ROLE_CACHE_MISSES:
    case CZK_PERF_ROLE_L2_DC_ACCESS:
    case CZK_PERF_ROLE_L2_DC_HIT:
    case CZK_PERF_ROLE_L2_MISS:
    case CZK_PERF_ROLE_L2_HIT:
    case CZK_PERF_ROLE_L2_REQUESTS:
    case CZK_PERF_ROLE_FILL_L2:
    case CZK_PERF_ROLE_L1_LOADS:
    case CZK_PERF_ROLE_L1_LOAD_MISSES: return 1;
    case CZK_PERF_ROLE_FILL_CCX: return 3;
    case CZK_PERF_ROLE_FILL_DRAM: return 2;
    default: return 0;
    }
}

/* ---- libpfm4, loaded at run time ------------------------------------------- */

#ifdef HAVE_PFM_HEADER
typedef int (*pfm_init_fn)(void);
typedef int (*pfm_enc_fn)(const char *, int, pfm_os_t, void *);
static pfm_enc_fn pfm_enc;
static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;

static void pfm_load(void)
{
    void *h = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
    pfm_init_fn init = (pfm_init_fn)dlsym(h, "pfm_initialize");
    pfm_enc_fn enc = (pfm_enc_fn)dlsym(h, "pfm_get_os_event_encoding");
    if (init && enc && init() == PFM_SUCCESS) pfm_enc = enc;
}

static int pfm_lookup(czk_perf_event *e, const char *name)
{
    pthread_once(&pfm_once, pfm_load);
    if (!pfm_enc) return -1;
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    pfm_perf_encode_arg_t arg;
    memset(&arg, 0, sizeof arg);
    arg.attr = &attr;
    arg.size = sizeof arg;
    if (pfm_enc(name, PFM_PLM3, PFM_OS_PERF_EVENT, &arg) != PFM_SUCCESS) return -1;
    e->type = attr.type;
    e->config = attr.config;
    e->config1 = attr.config1;
    return 0;
}
#else
static int pfm_lookup(czk_perf_event *e, const char *name)
{
    (void)e, (void)name;
    return -1;
}
#endif

int czk__perf_libpfm_loaded(void)
{
#ifdef HAVE_PFM_HEADER
    pthread_once(&pfm_once, pfm_load);
    return pfm_enc != NULL;
#else
    return 0;
#endif
}

/* ---- parser ---------------------------------------------------------------- */

static void set_str(char *dst, size_t n, const char *src)
{
    size_t l = strlen(src);
    if (l >= n) l = n - 1; /* truncate */
    memcpy(dst, src, l);
    dst[l] = 0;
}

static czk_status resolve(czk_perf_event *e, const char *item, czk_perf_cpu cpu)
{
    memset(e, 0, sizeof *e);
    char name[96];
    size_t len = strlen(item);
    if (len == 0) return czk_error(CZK_ERR_INVALID_ARG, "counter list: empty event name");
    if (len >= sizeof name)
        return czk_error(CZK_ERR_INVALID_ARG, "counter list: event name '%.40s...' is too long", item);
    memcpy(name, item, len + 1);
    e->exclude_kernel = 1;
    /* perf-style privilege suffix */
    char *colon = strrchr(name, ':');
    if (colon && (!strcmp(colon, ":u") || !strcmp(colon, ":k") || !strcmp(colon, ":uk") || !strcmp(colon, ":ku"))) {
        if (strchr(colon, 'k')) e->exclude_kernel = 0;
        *colon = 0;
    }
    set_str(e->name, sizeof e->name, item);
    for (size_t i = 0; i < sizeof generic_table / sizeof generic_table[0]; i++)
        if (!strcmp(name, generic_table[i].name)) {
            const generic_event *g = &generic_table[i];
            e->role = g->role;
            e->has_hw = 1;
            e->type = g->type;
            e->config = g->config;
            set_str(e->origin, sizeof e->origin, g->type == PERF_TYPE_SOFTWARE ? "software" : "generic");
            if (g->role == CZK_PERF_ROLE_CACHE_MISSES)
                set_str(e->note, sizeof e->note, cpu == CZK_PERF_CPU_INTEL ? "LLC misses on Intel" : "L2 misses on AMD");
            e->sim_pass = g->type == PERF_TYPE_SOFTWARE ? 0 : sim_pass_of(g->role);
            return CZK_OK;
        }
    for (size_t i = 0; i < sizeof zen_table / sizeof zen_table[0]; i++)
        if (!strcmp(name, zen_table[i].name)) {
            const zen_event *z = &zen_table[i];
            e->role = z->role;
            e->sim_pass = sim_pass_of(z->role);
            if (cpu == CZK_PERF_CPU_ZEN4 || (cpu == CZK_PERF_CPU_ZEN3 && z->zen3)) {
                e->has_hw = 1;
                e->type = PERF_TYPE_RAW;
                e->config = amd_raw(z->event, z->umask);
                set_str(e->origin, sizeof e->origin, cpu == CZK_PERF_CPU_ZEN4 ? "zen4" : "zen3");
            } else {
                set_str(e->origin, sizeof e->origin, z->zen3 ? "zen3/zen4 table" : "zen4 table");
                snprintf(e->note, sizeof e->note, "%s event, not on this CPU (%s)",
                         z->zen3 ? "AMD Zen3/Zen4" : "AMD Zen4", czk_perf_cpu_str(cpu));
            }
            return CZK_OK;
        }
    if (name[0] == 'r' && name[1]) {
        int hex = 1;
        for (const char *p = name + 1; *p; p++) hex &= isxdigit((unsigned char)*p) != 0;
        if (hex) {
            if (strlen(name + 1) > 16)
                return czk_error(CZK_ERR_INVALID_ARG, "counter list: raw event '%s' has more than 16 hex digits", item);
            e->has_hw = 1;
            e->type = PERF_TYPE_RAW;
            e->config = strtoull(name + 1, NULL, 16);
            set_str(e->origin, sizeof e->origin, "raw");
            if (cpu == CZK_PERF_CPU_ZEN3 || cpu == CZK_PERF_CPU_ZEN4)
                for (size_t i = 0; i < sizeof zen_table / sizeof zen_table[0]; i++)
                    if ((e->config & 0xf0000ffffULL) == amd_raw(zen_table[i].event, zen_table[i].umask)) {
                        e->role = zen_table[i].role;
                        e->sim_pass = sim_pass_of(e->role);
                        snprintf(e->note, sizeof e->note, "= %s", zen_table[i].name);
                        break;
                    }
            return CZK_OK;
        }
    }
    if (pfm_lookup(e, name) == 0) {
        e->has_hw = 1;
        set_str(e->origin, sizeof e->origin, "libpfm4");
        const char *up = name;
        if (!strncasecmp(up, "INST_RETIRED", 12)) e->role = CZK_PERF_ROLE_INSTRUCTIONS;
        else if (!strncasecmp(up, "BR_MISP_RETIRED", 15)) e->role = CZK_PERF_ROLE_BRANCH_MISSES;
        else if (!strncasecmp(up, "BR_INST_RETIRED", 15)) e->role = CZK_PERF_ROLE_BRANCHES;
        if (e->type == PERF_TYPE_HARDWARE)
            for (size_t i = 0; i < sizeof generic_table / sizeof generic_table[0]; i++)
                if (generic_table[i].type == PERF_TYPE_HARDWARE && generic_table[i].config == e->config) {
                    e->role = generic_table[i].role;
                    break;
                }
        e->sim_pass = sim_pass_of(e->role);
        return CZK_OK;
    }
    set_str(e->origin, sizeof e->origin, "unknown");
    snprintf(e->note, sizeof e->note, "unknown event name%s",
             czk__perf_libpfm_loaded() ? " (not in czk's table nor libpfm4)" : " (not in czk's table; libpfm4 not loaded)");
    return CZK_OK;
}

static czk_status add_list(czk_perf_eventset *set, const char *spec, czk_perf_cpu cpu, int depth)
{
    const char *p = spec;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[128];
        if (len == 0)
            return czk_error(CZK_ERR_INVALID_ARG, "counter list '%s': empty item at offset %zu", spec, (size_t)(p - spec));
        if (len >= sizeof item) return czk_error(CZK_ERR_INVALID_ARG, "counter list: item '%.40s...' is too long", p);
        memcpy(item, p, len);
        item[len] = 0;
        const char *preset = NULL;
        if (!strcmp(item, "default")) preset = preset_default;
        else if (!strcmp(item, "topdown")) preset = preset_topdown;
        else if (!strcmp(item, "l2")) preset = preset_l2;
        else if (!strcmp(item, "fills")) preset = preset_fills;
        else if (!strcmp(item, "ref")) preset = preset_ref;
        if (preset && depth == 0) {
            CZK_TRY(add_list(set, preset, cpu, 1));
        } else {
            int dup = 0;
            for (size_t i = 0; i < set->n; i++) dup |= !strcmp(set->ev[i].name, item);
            if (!dup) {
                if (set->n >= CZK_PERF_MAX_EVENTS)
                    return czk_error(CZK_ERR_INVALID_ARG, "counter list: more than %d events (at '%s')",
                                     CZK_PERF_MAX_EVENTS, item);
                CZK_TRY(resolve(&set->ev[set->n], item, cpu));
                set->n++;
            }
        }
        if (!comma) break;
        p = comma + 1;
    }
    return CZK_OK;
}

czk_status czk_perf_eventset_parse(czk_perf_eventset *set, const char *spec, czk_perf_cpu cpu)
{
    memset(set, 0, sizeof *set);
    if (!spec || !*spec) spec = "default";
    return add_list(set, spec, cpu, 0);
}

static int is_group_hw(const czk_perf_event *e)
{
    return e->has_hw && e->type != PERF_TYPE_SOFTWARE;
}

int czk_perf_eventset_groups(const czk_perf_eventset *set, int group_of[CZK_PERF_MAX_EVENTS])
{
    int ngroups = 0, in_group = 0, leader_found = 0;
    for (size_t i = 0; i < set->n; i++) {
        const czk_perf_event *e = &set->ev[i];
        group_of[i] = -1;
        if (!is_group_hw(e)) continue;
        if (!leader_found && e->type == PERF_TYPE_HARDWARE && e->config == PERF_COUNT_HW_INSTRUCTIONS) {
            group_of[i] = -2; /* the instructions leader present in every group */
            leader_found = 1;
            continue;
        }
        if (in_group == 0) ngroups++;
        group_of[i] = ngroups - 1;
        if (++in_group == 4) in_group = 0;
    }
    return ngroups == 0 && leader_found ? 1 : ngroups;
}
