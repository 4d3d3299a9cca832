/* Statistics, event parsing, callgrind parsing, simulated mapping, derived
 * metrics, reports and the diff analysis — no child processes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>
#include <unistd.h>

#include "czk/perf.h"
#include "perf/perf_impl.h"
#include "runner.h"

#define NEAR(x, y, tol) (fabs((x) - (y)) <= (tol))

CZK_TEST(perf_median)
{
    double a[] = {5, 1, 4, 2, 3};
    CHECK(czk_perf_median(a, 5) == 3);
    CHECK(a[0] == 5); /* input not reordered */
    double b[] = {4, 1, 3, 2};
    CHECK(czk_perf_median(b, 4) == 2.5);
    double c[] = {7};
    CHECK(czk_perf_median(c, 1) == 7);
    double big[100];
    for (int i = 0; i < 100; i++) big[i] = 99 - i;
    CHECK(czk_perf_median(big, 100) == 49.5);
}

/* Expected values: exact permutation p-values by brute-force enumeration of
 * all splits, and the tie-corrected normal approximation with continuity
 * correction (the formula of scipy.stats.mannwhitneyu method="asymptotic"),
 * both computed independently in Python. */
CZK_TEST(perf_mann_whitney_known_values)
{
    double u;
    double a1[] = {1, 2, 3}, b1[] = {4, 5, 6};
    CHECK(NEAR(czk_perf_mann_whitney(&u, a1, 3, b1, 3), 0.1, 1e-12));
    CHECK(u == 0);
    CHECK(NEAR(czk_perf_mann_whitney(&u, b1, 3, a1, 3), 0.1, 1e-12));
    CHECK(u == 9);
    double a2[] = {1, 2, 3, 4, 5}, b2[] = {6, 7, 8, 9, 10};
    CHECK(NEAR(czk_perf_mann_whitney(&u, a2, 5, b2, 5), 0.007936507936507936, 1e-12));
    double a3[] = {1.1, 2.3, 3.5, 6.0}, b3[] = {2.0, 4.1, 5.2, 7.7, 8.8};
    CHECK(NEAR(czk_perf_mann_whitney(&u, a3, 4, b3, 5), 0.2857142857142857, 1e-12));
    CHECK(u == 5);
    double a4[] = {0.5, 0.9, 1.4, 2.2, 3.1, 4.0}, b4[] = {1.0, 1.6, 2.5, 3.3, 4.4, 5.0, 6.1};
    CHECK(NEAR(czk_perf_mann_whitney(&u, a4, 6, b4, 7), 0.13752913752913754, 1e-12));
    CHECK(u == 10);
    double a5[] = {1, 2, 2, 3}, b5[] = {2, 3, 3, 4, 5};
    CHECK(NEAR(czk_perf_mann_whitney(&u, a5, 4, b5, 5), 0.09934224785346527, 1e-9));
    CHECK(u == 3);
    double a6[] = {10, 12, 12, 15, 15, 15, 20}, b6[] = {11, 12, 16, 18, 18, 21, 22, 25};
    CHECK(NEAR(czk_perf_mann_whitney(&u, a6, 7, b6, 8), 0.11524971218079379, 1e-9));
    CHECK(u == 14);
    /* all tied: no evidence at all */
    double t[] = {3, 3, 3, 3};
    CHECK(czk_perf_mann_whitney(&u, t, 4, t, 4) == 1.0);
    /* 4 vs 4 fully separated is the smallest n with p < 0.05: 2/70 */
    double a7[] = {1, 2, 3, 4}, b7[] = {5, 6, 7, 8};
    CHECK(NEAR(czk_perf_mann_whitney(&u, a7, 4, b7, 4), 2.0 / 70.0, 1e-12));
}

CZK_TEST(perf_mann_whitney_symmetry_random)
{
    czk_rng *rng = czk_test_rng();
    for (size_t it = 0; it < czk_test_iters(50); it++) {
        size_t na = 2 + czk_rng_below(rng, 20), nb = 2 + czk_rng_below(rng, 20);
        double a[32], b[32];
        for (size_t i = 0; i < na; i++) a[i] = (double)czk_rng_below(rng, 1000) / 7.0;
        for (size_t i = 0; i < nb; i++) b[i] = (double)czk_rng_below(rng, 1000) / 7.0;
        double ua, ub;
        double pa = czk_perf_mann_whitney(&ua, a, na, b, nb), pb = czk_perf_mann_whitney(&ub, b, nb, a, na);
        CHECK(NEAR(ua + ub, (double)(na * nb), 1e-9));
        CHECK(NEAR(pa, pb, 1e-12));
        CHECK(pa > 0 && pa <= 1);
    }
}

CZK_TEST(perf_bootstrap_ci)
{
    /* B = 2 x A exactly: every resample ratio is near +100% */
    double a[9], b[9];
    for (int i = 0; i < 9; i++) a[i] = 10 + i * 0.01, b[i] = 2 * a[i];
    double lo, hi;
    REQUIRE(czk_perf_bootstrap_delta(&lo, &hi, a, 9, b, 9, 0.95, 2000, 1) == 0);
    CHECK(lo > 98.0 && hi < 102.0 && lo <= 100.0 && 100.0 <= hi);
    /* identical constant samples: the interval is exactly [0, 0] */
    double c[5] = {4, 4, 4, 4, 4};
    REQUIRE(czk_perf_bootstrap_delta(&lo, &hi, c, 5, c, 5, 0.95, 1000, 7) == 0);
    CHECK(lo == 0 && hi == 0);
    /* the observed delta of medians lies inside its own interval, and the same seed gives the same interval */
    czk_rng *rng = czk_test_rng();
    double x[15], y[15];
    for (int i = 0; i < 15; i++) x[i] = 100 + (double)czk_rng_below(rng, 20), y[i] = 110 + (double)czk_rng_below(rng, 20);
    REQUIRE(czk_perf_bootstrap_delta(&lo, &hi, x, 15, y, 15, 0.95, 2000, 3) == 0);
    double d = 100 * (czk_perf_median(y, 15) / czk_perf_median(x, 15) - 1);
    CHECK(lo <= d && d <= hi);
    double lo2, hi2;
    REQUIRE(czk_perf_bootstrap_delta(&lo2, &hi2, x, 15, y, 15, 0.95, 2000, 3) == 0);
    CHECK(lo == lo2 && hi == hi2);
    /* a zero median makes the ratio undefined */
    double z[3] = {0, 0, 0};
    CHECK(czk_perf_bootstrap_delta(&lo, &hi, z, 3, c, 3, 0.95, 100, 1) != 0);
}

CZK_TEST(perf_cpu_kind)
{
    CHECK(czk_perf_cpu_kind("AuthenticAMD", 0x19, 0x01) == CZK_PERF_CPU_ZEN3);
    CHECK(czk_perf_cpu_kind("AuthenticAMD", 0x19, 0x21) == CZK_PERF_CPU_ZEN3);
    CHECK(czk_perf_cpu_kind("AuthenticAMD", 0x19, 0x5f) == CZK_PERF_CPU_ZEN3);
    CHECK(czk_perf_cpu_kind("AuthenticAMD", 0x19, 0x11) == CZK_PERF_CPU_ZEN4);
    CHECK(czk_perf_cpu_kind("AuthenticAMD", 0x19, 0x61) == CZK_PERF_CPU_ZEN4);
    CHECK(czk_perf_cpu_kind("AuthenticAMD", 0x17, 0x31) == CZK_PERF_CPU_GENERIC);
    CHECK(czk_perf_cpu_kind("GenuineIntel", 6, 0xcf) == CZK_PERF_CPU_INTEL);
}

static const czk_perf_event *find_ev(const czk_perf_eventset *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->ev[i].name, name)) return &s->ev[i];
    return NULL;
}

static const char ref_list[] =
    "instructions,cycles,cache-references,cache-misses,branch-instructions,branch-misses,"
    "l2_cache_req_stat.dc_access_in_l2,l2_cache_req_stat.dc_hit_in_l2,"
    "ls_dmnd_fills_from_sys.local_l2,ls_dmnd_fills_from_sys.local_ccx,ls_any_fills_from_sys.dram_io_all";

CZK_TEST(perf_parse_reference_list_zen4)
{
    czk_perf_eventset s;
    REQUIRE_OK(czk_perf_eventset_parse(&s, ref_list, CZK_PERF_CPU_ZEN4));
    CHECK_EQ_U64(s.n, 11);
    for (size_t i = 0; i < s.n; i++) CHECK_MSG(s.ev[i].has_hw, "%s has no encoding on Zen4", s.ev[i].name);
    /* AMD raw config = event[7:0] | umask << 8 | event[11:8] << 32 (docs/perf-counters.md) */
    const czk_perf_event *e = find_ev(&s, "l2_cache_req_stat.dc_access_in_l2");
    REQUIRE(e);
    CHECK(e->type == PERF_TYPE_RAW && e->config == 0xf864);
    CHECK((e = find_ev(&s, "l2_cache_req_stat.dc_hit_in_l2")) && e->config == 0xf064);
    CHECK((e = find_ev(&s, "ls_dmnd_fills_from_sys.local_l2")) && e->config == 0x0143);
    CHECK((e = find_ev(&s, "ls_dmnd_fills_from_sys.local_ccx")) && e->config == 0x0243);
    CHECK((e = find_ev(&s, "ls_any_fills_from_sys.dram_io_all")) && e->config == 0x4844 &&
          e->role == CZK_PERF_ROLE_FILL_DRAM && e->sim_pass == 2);
    CHECK((e = find_ev(&s, "instructions")) && e->type == PERF_TYPE_HARDWARE && e->config == PERF_COUNT_HW_INSTRUCTIONS);
    CHECK((e = find_ev(&s, "cache-misses")) && e->role == CZK_PERF_ROLE_CACHE_MISSES && strstr(e->note, "L2"));
    /* the same list as the "ref" preset */
    czk_perf_eventset p;
    REQUIRE_OK(czk_perf_eventset_parse(&p, "ref", CZK_PERF_CPU_ZEN4));
    CHECK_EQ_U64(p.n, 11);
    for (size_t i = 0; i < p.n && i < s.n; i++) CHECK(!strcmp(p.ev[i].name, s.ev[i].name));
}

CZK_TEST(perf_parse_zen4_only_events)
{
    czk_perf_eventset s;
    REQUIRE_OK(czk_perf_eventset_parse(&s, "topdown", CZK_PERF_CPU_ZEN4));
    const czk_perf_event *e = find_ev(&s, "de_no_dispatch_per_slot.backend_stalls");
    REQUIRE(e);
    CHECK(e->has_hw && e->config == (0xa0 | 0x1e << 8 | 1ULL << 32));
    CHECK((e = find_ev(&s, "de_src_op_disp.all")) && e->config == 0x07aa);
    REQUIRE_OK(czk_perf_eventset_parse(&s, "topdown", CZK_PERF_CPU_ZEN3));
    CHECK((e = find_ev(&s, "de_no_dispatch_per_slot.backend_stalls")) && !e->has_hw && strstr(e->note, "Zen4"));
    CHECK((e = find_ev(&s, "ex_ret_ops")) && e->has_hw && e->config == 0xc1);
}

CZK_TEST(perf_parse_on_other_cpus)
{
    /* On Intel / generic CPUs the Zen names are kept: no hardware encoding,
     * but still simulatable, so they are reported, never rejected. */
    czk_perf_eventset s;
    REQUIRE_OK(czk_perf_eventset_parse(&s, ref_list, CZK_PERF_CPU_INTEL));
    CHECK_EQ_U64(s.n, 11);
    const czk_perf_event *e = find_ev(&s, "l2_cache_req_stat.dc_hit_in_l2");
    REQUIRE(e);
    CHECK(!e->has_hw && e->sim_pass == 1 && e->role == CZK_PERF_ROLE_L2_DC_HIT && strstr(e->note, "not on this CPU"));
    CHECK((e = find_ev(&s, "cycles")) && e->has_hw && e->sim_pass == 0);
    CHECK((e = find_ev(&s, "ls_dmnd_fills_from_sys.local_ccx")) && e->sim_pass == 3);
    CHECK((e = find_ev(&s, "cache-misses")) && strstr(e->note, "LLC"));
}

CZK_TEST(perf_parse_raw_unknown_modifiers)
{
    czk_perf_eventset s;
    REQUIRE_OK(czk_perf_eventset_parse(&s, "r0400c0,rc0,no_such_event.at_all,instructions:u,cycles:k", CZK_PERF_CPU_GENERIC));
    REQUIRE(s.n == 5);
    CHECK(s.ev[0].has_hw && s.ev[0].type == PERF_TYPE_RAW && s.ev[0].config == 0x0400c0 && !strcmp(s.ev[0].origin, "raw"));
    CHECK(s.ev[1].config == 0xc0 && s.ev[1].role == CZK_PERF_ROLE_OTHER && s.ev[1].sim_pass == 0);
    CHECK(!s.ev[2].has_hw && s.ev[2].sim_pass == 0 && strstr(s.ev[2].note, "unknown event"));
    CHECK(s.ev[3].role == CZK_PERF_ROLE_INSTRUCTIONS && s.ev[3].exclude_kernel == 1 && !strcmp(s.ev[3].name, "instructions:u"));
    CHECK(s.ev[4].role == CZK_PERF_ROLE_CYCLES && s.ev[4].exclude_kernel == 0);
    /* on Zen a raw code of a table event gets its role (and so its simulation) */
    REQUIRE_OK(czk_perf_eventset_parse(&s, "rf064,r4300c3", CZK_PERF_CPU_ZEN4));
    CHECK(s.ev[0].role == CZK_PERF_ROLE_L2_DC_HIT && s.ev[0].sim_pass == 1);
    CHECK(s.ev[1].role == CZK_PERF_ROLE_BRANCH_MISSES);
    /* presets expand, duplicates collapse */
    REQUIRE_OK(czk_perf_eventset_parse(&s, "default,instructions,l2", CZK_PERF_CPU_ZEN4));
    size_t ninstr = 0;
    for (size_t i = 0; i < s.n; i++) ninstr += !strcmp(s.ev[i].name, "instructions");
    CHECK_EQ_U64(ninstr, 1);
    CHECK(find_ev(&s, "l2_request_g1.all_no_prefetch") != NULL);
    /* malformed specs are errors that name the item */
    CHECK(czk_perf_eventset_parse(&s, "instructions,,cycles", CZK_PERF_CPU_ZEN4) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "empty item") != NULL);
    CHECK(czk_perf_eventset_parse(&s, "r12345678901234567", CZK_PERF_CPU_ZEN4) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "r12345678901234567") != NULL);
    char many[4096] = "";
    for (int i = 0; i < CZK_PERF_MAX_EVENTS + 1; i++) snprintf(many + strlen(many), sizeof many - strlen(many), "%sr%x", i ? "," : "", i + 1);
    CHECK(czk_perf_eventset_parse(&s, many, CZK_PERF_CPU_ZEN4) == CZK_ERR_INVALID_ARG);
}

CZK_TEST(perf_groups_of_five_with_instructions)
{
    czk_perf_eventset s;
    REQUIRE_OK(czk_perf_eventset_parse(&s, "default,fills,l2", CZK_PERF_CPU_ZEN4));
    int g[CZK_PERF_MAX_EVENTS];
    int ng = czk_perf_eventset_groups(&s, g);
    CHECK(ng >= 3);
    int count[CZK_PERF_MAX_EVENTS] = {0}, leaders = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (g[i] == -2) {
            leaders++;
            CHECK(!strcmp(s.ev[i].name, "instructions"));
        } else if (g[i] >= 0) {
            CHECK(g[i] < ng);
            count[g[i]]++;
        } else {
            CHECK(!s.ev[i].has_hw);
        }
    }
    CHECK(leaders == 1);
    for (int k = 0; k < ng; k++) CHECK_MSG(count[k] >= 1 && count[k] + 1 <= 5, "group %d has %d + 1 events", k, count[k]);
}

/* A callgrind.out written by valgrind 3.19 (callgrind --cache-sim=yes
 * --branch-sim=yes, ZERO_STATS used: the summary line has wrapped around,
 * totals are right; trailing zero counts are omitted). */
static const char cg_sample[] =
    "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 31736\ncmd: ./czk bench planted\npart: 1\n\n"
    "desc: I1 cache: 32768 B, 64 B, 8-way associative\n\n"
    "positions: line\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim\n"
    "summary: 18446744073669801963 18446744073704139825 1 2 3 4 5 6 7 8 9 10 11\n\n"
    "fn=(1) walk_list\n16 2294200 655482 45 5 327717 7 5 327700 6 327740 19 11\n\n"
    "totals: 2294200 655482 45 5 327717 7 5 327700 6 327740 19 11\n";

CZK_TEST(perf_callgrind_parse)
{
    czk_perf_cg_totals t;
    REQUIRE_OK(czk_perf_cg_parse_text(&t, cg_sample, "sample", 0));
    CHECK(t.ir == 2294200 && t.dr == 655482 && t.dw == 45 && t.i1mr == 5 && t.d1mr == 327717 && t.d1mw == 7);
    CHECK(t.ilmr == 5 && t.dlmr == 327700 && t.dlmw == 6 && t.bc == 327740 && t.bcm == 19 && t.bi == 11 && t.bim == 0);
    CHECK(t.have_cache && t.have_branch);
    /* accumulate (external commands traced with --trace-children) */
    REQUIRE_OK(czk_perf_cg_parse_text(&t, cg_sample, "sample", 1));
    CHECK(t.ir == 2 * 2294200.0 && t.bcm == 38);
    /* without cache simulation: only Ir */
    REQUIRE_OK(czk_perf_cg_parse_text(&t, "events: Ir\nsummary: 1234\n", "plain", 0));
    CHECK(t.ir == 1234 && !t.have_cache && !t.have_branch);
    CHECK(czk_perf_cg_parse_text(&t, "hello\nworld\n", "junk.out", 0) == CZK_ERR_FORMAT);
    CHECK(strstr(czk_last_error(), "junk.out") != NULL);
    CHECK(czk_perf_cg_parse_text(&t, "events: Ir Dr\ntotals: 12 x\n", "bad.out", 0) == CZK_ERR_FORMAT);
    CHECK(czk_perf_cg_parse(&t, "/nonexistent/cg.out", 0) == CZK_ERR_IO);
}

static void unavailable_report(czk_perf_report *r, const czk_perf_eventset *s)
{
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < s->n; i++) {
        snprintf(r->v[i].name, sizeof r->v[i].name, "%s", s->ev[i].name);
        r->v[i].role = s->ev[i].role;
    }
    r->n = s->n;
    r->seconds = 0.5;
}

CZK_TEST(perf_sim_mapping)
{
    czk_perf_eventset s;
    REQUIRE_OK(czk_perf_eventset_parse(&s, "ref", CZK_PERF_CPU_INTEL));
    czk_perf_cg_totals p1 = {0}, p2 = {0};
    p1.ir = 1e6, p1.dr = 3e5, p1.dw = 1e5, p1.i1mr = 100, p1.d1mr = 9000, p1.d1mw = 1000, p1.ilmr = 10, p1.dlmr = 4000,
    p1.dlmw = 500, p1.bc = 1e5, p1.bcm = 2000, p1.bi = 50, p1.bim = 5, p1.have_cache = p1.have_branch = 1;
    p2 = p1;
    p2.ilmr = 5, p2.dlmr = 300, p2.dlmw = 20;
    czk_perf_geometry g;
    czk_perf_geometry_default(&g);
    czk_perf_report r;
    unavailable_report(&r, &s);
    czk_perf_sim_apply(&r, &s, &p1, &p2, &g);
    const czk_perf_value *v;
#define VAL(name) ((v = czk_perf_report_find_name(&r, name)) && v->source == CZK_PERF_SIMULATED ? v->value : -1.0)
    CHECK(VAL("instructions") == 1e6);
    CHECK(VAL("branch-instructions") == 100050);
    CHECK(VAL("branch-misses") == 2005);
    CHECK(VAL("cache-references") == 10100);
    CHECK(VAL("cache-misses") == 4510);
    CHECK(VAL("l2_cache_req_stat.dc_access_in_l2") == 10000);
    CHECK(VAL("l2_cache_req_stat.dc_hit_in_l2") == 5500);
    CHECK(VAL("ls_dmnd_fills_from_sys.local_l2") == 5500);
    CHECK(VAL("ls_dmnd_fills_from_sys.local_ccx") == 4500 - 320);
    CHECK(VAL("ls_any_fills_from_sys.dram_io_all") == 320);
    v = czk_perf_report_find_name(&r, "cycles");
    CHECK(v && v->source == CZK_PERF_UNAVAILABLE);
    CHECK(strstr(r.backend, "callgrind") && strstr(r.sim_geometry, "1024K/8") && strstr(r.sim_geometry, "32768K/16"));
    /* pass 1 only: the pass-2 events stay unavailable and say why */
    unavailable_report(&r, &s);
    czk_perf_sim_apply(&r, &s, &p1, NULL, &g);
    CHECK(VAL("ls_any_fills_from_sys.dram_io_all") == -1.0);
    CHECK(strstr(czk_perf_report_find_name(&r, "ls_any_fills_from_sys.dram_io_all")->note, "pass 2"));
    CHECK(VAL("l2_cache_req_stat.dc_hit_in_l2") == 5500);
    /* counted values are never overwritten */
    unavailable_report(&r, &s);
    r.v[0].source = CZK_PERF_COUNTED, r.v[0].value = 42;
    czk_perf_sim_apply(&r, &s, &p1, &p2, &g);
    CHECK(VAL("instructions") == -1.0 && r.v[0].value == 42);
    CHECK(!strcmp(r.backend, "perf_event_open + callgrind"));
    CHECK(czk_perf_sim_passes(&s) == 3);
#undef VAL
}

CZK_TEST(perf_sim_argv_geometry)
{
    czk_perf_geometry g;
    czk_perf_geometry_default(&g);
    char *argv[20], buf[1536];
    size_t n = czk_perf_sim_argv(argv, buf, 2, &g, "/tmp/x/cg.out", 0, NULL);
    REQUIRE(n > 6 && argv[n] == NULL);
    int ll = 0, d1 = 0, instr = 0, cache = 0, branch = 0;
    for (size_t i = 0; i < n; i++) {
        ll |= !strcmp(argv[i], "--LL=33554432,16,64");
        d1 |= !strcmp(argv[i], "--D1=32768,8,64");
        instr |= !strcmp(argv[i], "--instr-atstart=no");
        cache |= !strcmp(argv[i], "--cache-sim=yes");
        branch |= !strcmp(argv[i], "--branch-sim=yes");
    }
    CHECK(ll && d1 && instr && cache && branch);
    for (size_t i = 0; i < n; i++) CHECK(strncmp(argv[i], "--toggle-collect", 16));
    n = czk_perf_sim_argv(argv, buf, 1, &g, "/tmp/x/cg.out", 1, "hot_*");
    int l2 = 0, whole = 0, toggle = 0, atstart = 0;
    for (size_t i = 0; i < n; i++)
        l2 |= !strcmp(argv[i], "--LL=1048576,8,64"), whole |= !strcmp(argv[i], "--trace-children=yes"),
            toggle |= !strcmp(argv[i], "--toggle-collect=hot_*"), atstart |= !strcmp(argv[i], "--collect-atstart=no");
    CHECK(l2 && whole && toggle && atstart);
    setenv("CZK_PERF_SIM_GEOMETRY", "d1=48K/12,l2=2M/16,l3=64M/16", 1);
    REQUIRE_OK(czk_perf_geometry_from_env(&g));
    CHECK(g.d1.size == 48 << 10 && g.d1.assoc == 12 && g.l2.size == 2 << 20 && g.l3.size == 64u << 20);
    setenv("CZK_PERF_SIM_GEOMETRY", "d1=48K", 1);
    CHECK(czk_perf_geometry_from_env(&g) == CZK_ERR_INVALID_ARG);
    setenv("CZK_PERF_SIM_GEOMETRY", "q9=1K/1", 1);
    CHECK(czk_perf_geometry_from_env(&g) == CZK_ERR_INVALID_ARG);
    unsetenv("CZK_PERF_SIM_GEOMETRY");
}

static void set_val(czk_perf_report *r, const char *name, czk_perf_role role, czk_perf_source src, double v)
{
    czk_perf_value *x = &r->v[r->n++];
    memset(x, 0, sizeof *x);
    snprintf(x->name, sizeof x->name, "%s", name);
    x->role = role, x->source = src, x->value = v, x->running = 1;
}

static double metric(const czk_perf_report *r, const char *name, czk_perf_source *src)
{
    czk_perf_metric m[CZK_PERF_MAX_METRICS];
    size_t n = czk_perf_derive(m, r);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(m[i].name, name)) {
            if (src) *src = m[i].source;
            return m[i].value;
        }
    return NAN;
}

CZK_TEST(perf_derived_metrics)
{
    czk_perf_report r;
    memset(&r, 0, sizeof r);
    r.seconds = 2.0, r.task_clock_s = 3.0;
    set_val(&r, "instructions", CZK_PERF_ROLE_INSTRUCTIONS, CZK_PERF_COUNTED, 4e9);
    set_val(&r, "cycles", CZK_PERF_ROLE_CYCLES, CZK_PERF_COUNTED, 2e9);
    set_val(&r, "branch-instructions", CZK_PERF_ROLE_BRANCHES, CZK_PERF_COUNTED, 5e8);
    set_val(&r, "branch-misses", CZK_PERF_ROLE_BRANCH_MISSES, CZK_PERF_COUNTED, 2.5e6);
    set_val(&r, "l2_cache_req_stat.dc_access_in_l2", CZK_PERF_ROLE_L2_DC_ACCESS, CZK_PERF_SIMULATED, 1e8);
    set_val(&r, "l2_cache_req_stat.dc_hit_in_l2", CZK_PERF_ROLE_L2_DC_HIT, CZK_PERF_SIMULATED, 8e7);
    set_val(&r, "ls_dmnd_fills_from_sys.local_l2", CZK_PERF_ROLE_FILL_L2, CZK_PERF_COUNTED, 6e7);
    set_val(&r, "ls_dmnd_fills_from_sys.local_ccx", CZK_PERF_ROLE_FILL_CCX, CZK_PERF_COUNTED, 3e7);
    set_val(&r, "ls_any_fills_from_sys.dram_io_all", CZK_PERF_ROLE_FILL_DRAM, CZK_PERF_COUNTED, 1e7);
    set_val(&r, "ex_ret_ops", CZK_PERF_ROLE_RETIRED_OPS, CZK_PERF_COUNTED, 4.8e9);
    set_val(&r, "de_src_op_disp.all", CZK_PERF_ROLE_DISPATCHED_OPS, CZK_PERF_COUNTED, 5.4e9);
    set_val(&r, "de_no_dispatch_per_slot.no_ops_from_frontend", CZK_PERF_ROLE_TD_FRONTEND, CZK_PERF_COUNTED, 1.2e9);
    set_val(&r, "de_no_dispatch_per_slot.backend_stalls", CZK_PERF_ROLE_TD_BACKEND, CZK_PERF_COUNTED, 4.8e9);
    czk_perf_source src;
    CHECK(NEAR(metric(&r, "IPC", &src), 2.0, 1e-12) && src == CZK_PERF_COUNTED);
    CHECK(NEAR(metric(&r, "branch-miss %", NULL), 0.5, 1e-12));
    CHECK(NEAR(metric(&r, "branch MPKI", NULL), 0.625, 1e-12));
    CHECK(NEAR(metric(&r, "L2 demand hit %", &src), 80.0, 1e-12) && src == CZK_PERF_SIMULATED);
    CHECK(NEAR(metric(&r, "L2 misses /1k instr", NULL), 5.0, 1e-12));
    CHECK(NEAR(metric(&r, "DRAM fills /1k instr", NULL), 2.5, 1e-12));
    CHECK(NEAR(metric(&r, "fills from L2 %", NULL), 60.0, 1e-9));
    CHECK(NEAR(metric(&r, "fills from L3/CCX %", NULL), 30.0, 1e-9));
    CHECK(NEAR(metric(&r, "fills from DRAM %", NULL), 10.0, 1e-9));
    CHECK(NEAR(metric(&r, "topdown retiring %", NULL), 40.0, 1e-9));       /* 4.8e9 / (6 * 2e9) */
    CHECK(NEAR(metric(&r, "topdown frontend-bound %", NULL), 10.0, 1e-9));
    CHECK(NEAR(metric(&r, "topdown backend-bound %", NULL), 40.0, 1e-9));
    CHECK(NEAR(metric(&r, "topdown bad-speculation %", NULL), 5.0, 1e-9));
    CHECK(NEAR(metric(&r, "CPUs utilized", NULL), 1.5, 1e-12));
    /* no cycles: no IPC (never invented) */
    r.v[1].source = CZK_PERF_UNAVAILABLE;
    CHECK(isnan(metric(&r, "IPC", NULL)));
}

CZK_TEST(perf_report_json_roundtrip)
{
    czk_perf_report r, q;
    memset(&r, 0, sizeof r);
    r.seconds = 0.123456789, r.regions = 3, r.task_clock_s = 0.2, r.page_faults = 17, r.ctx_switches = 4, r.max_rss = 1 << 20;
    snprintf(r.backend, sizeof r.backend, "callgrind (simulated)");
    snprintf(r.sim_geometry, sizeof r.sim_geometry, "I1 32K/8");
    set_val(&r, "instructions", CZK_PERF_ROLE_INSTRUCTIONS, CZK_PERF_SIMULATED, 123456789);
    set_val(&r, "cycles", CZK_PERF_ROLE_CYCLES, CZK_PERF_UNAVAILABLE, 0);
    snprintf(r.v[1].note, sizeof r.v[1].note, "no hardware PMU");
    r.v[0].multiplexed = 1, r.v[0].running = 0.5;
    char path[512];
    snprintf(path, sizeof path, "%s/r.json", czk_test_tmpdir());
    REQUIRE_OK(czk_perf_report_save(path, &r));
    REQUIRE_OK(czk_perf_report_load(&q, path));
    CHECK(q.seconds == r.seconds && q.regions == 3 && q.page_faults == 17 && q.max_rss == r.max_rss);
    CHECK(q.n == 2 && !strcmp(q.v[0].name, "instructions") && q.v[0].value == 123456789 &&
          q.v[0].source == CZK_PERF_SIMULATED && q.v[0].multiplexed && q.v[0].running == 0.5);
    CHECK(q.v[1].source == CZK_PERF_UNAVAILABLE && !strcmp(q.v[1].note, "no hardware PMU"));
    CHECK(!strcmp(q.backend, r.backend) && !strcmp(q.sim_geometry, "I1 32K/8"));
    /* malformed reports are errors naming the file */
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fputs("{\"seconds\": 1, \"events\": 3}", f);
    fclose(f);
    CHECK(czk_perf_report_load(&q, path) == CZK_ERR_FORMAT && strstr(czk_last_error(), "r.json"));
    f = fopen(path, "w");
    REQUIRE(f);
    fputs("{\"seconds\": ", f);
    fclose(f);
    CHECK(czk_perf_report_load(&q, path) == CZK_ERR_FORMAT);
}

/* Synthetic runs with a planted cause: the analysis must rank it first. */
static void synth_runs(czk_perf_report *r, size_t n, czk_rng *rng, double t, double instr, double misp, double l2miss)
{
    for (size_t i = 0; i < n; i++) {
        memset(&r[i], 0, sizeof r[i]);
        double jitter = 1.0 + (double)czk_rng_below(rng, 1000) * 1e-6; /* up to 0.1% */
        r[i].seconds = t * jitter;
        r[i].task_clock_s = t * jitter;
        set_val(&r[i], "instructions", CZK_PERF_ROLE_INSTRUCTIONS, CZK_PERF_SIMULATED, instr);
        set_val(&r[i], "branch-instructions", CZK_PERF_ROLE_BRANCHES, CZK_PERF_SIMULATED, instr / 5);
        set_val(&r[i], "branch-misses", CZK_PERF_ROLE_BRANCH_MISSES, CZK_PERF_SIMULATED, misp + (double)(i % 2));
        set_val(&r[i], "l2_cache_req_stat.dc_access_in_l2", CZK_PERF_ROLE_L2_DC_ACCESS, CZK_PERF_SIMULATED, 1e5 + l2miss);
        set_val(&r[i], "l2_cache_req_stat.dc_hit_in_l2", CZK_PERF_ROLE_L2_DC_HIT, CZK_PERF_SIMULATED, 1e5);
    }
}

CZK_TEST(perf_diff_synthetic)
{
    czk_rng *rng = czk_test_rng();
    czk_perf_report a[6], b[6];
    czk_perf_diff d;
    /* 1: B doubles the instructions */
    synth_runs(a, 6, rng, 1.0, 1e8, 1e3, 1e3);
    synth_runs(b, 6, rng, 2.0, 2e8, 1e3, 1e3);
    REQUIRE_OK(czk_perf_diff_compute(&d, a, 6, b, 6, 1, NULL));
    CHECK(d.differs && !strcmp(d.cause, "instructions"));
    CHECK(NEAR(d.instr_ratio, 2.0, 1e-9) && NEAR(d.tpi_ratio, 1.0, 0.01));
    CHECK(strstr(d.explain, "Main cause: instruction count") != NULL);
    czk_perf_diff_free(&d);
    /* 2: mispredicts */
    synth_runs(a, 6, rng, 1.0, 1e8, 1e3, 1e3);
    synth_runs(b, 6, rng, 1.3, 1e8, 1e6, 1e3);
    REQUIRE_OK(czk_perf_diff_compute(&d, a, 6, b, 6, 1, NULL));
    CHECK(d.differs && !strcmp(d.cause, "branch-mispredictions"));
    czk_perf_diff_free(&d);
    /* 3: L2 misses */
    synth_runs(a, 6, rng, 1.0, 1e8, 1e3, 1e3);
    synth_runs(b, 6, rng, 3.0, 1.01e8, 1e3, 5e6);
    REQUIRE_OK(czk_perf_diff_compute(&d, a, 6, b, 6, 1, NULL));
    CHECK(d.differs && !strcmp(d.cause, "l2-misses"));
    char svg[512];
    snprintf(svg, sizeof svg, "%s/d.svg", czk_test_tmpdir());
    REQUIRE_OK(czk_perf_diff_write_svg(svg, &d, "A <vs> B"));
    FILE *f = fopen(svg, "r");
    REQUIRE(f);
    char buf[8192];
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[got] = 0;
    CHECK(strstr(buf, "<svg") && strstr(buf, "A &lt;vs&gt; B") && strstr(buf, "<circle") && strstr(buf, ">time"));
    czk_perf_diff_free(&d);
    /* 4: identical */
    synth_runs(a, 6, rng, 1.0, 1e8, 1e3, 1e3);
    synth_runs(b, 6, rng, 1.0, 1e8, 1e3, 1e3);
    REQUIRE_OK(czk_perf_diff_compute(&d, a, 6, b, 6, 1, NULL));
    CHECK(!d.differs && !strcmp(d.cause, "none"));
    for (size_t i = 0; i < d.nrows; i++) CHECK_MSG(!d.rows[i].differs, "%s differs", d.rows[i].name);
    czk_perf_diff_free(&d);
    /* significant but within +-1%: no difference */
    synth_runs(a, 6, rng, 1.0, 1e8, 1e3, 1e3);
    synth_runs(b, 6, rng, 1.005, 1e8, 1e3, 1e3);
    REQUIRE_OK(czk_perf_diff_compute(&d, a, 6, b, 6, 1, NULL));
    CHECK(!d.rows[0].differs && d.rows[0].p < 0.05);
    czk_perf_diff_free(&d);
    /* another primary metric; an unknown one is an error */
    REQUIRE_OK(czk_perf_diff_compute(&d, a, 6, b, 6, 1, "task-clock"));
    CHECK(!strcmp(d.primary, "task-clock") && strstr(d.explain, "task-clock"));
    czk_perf_diff_free(&d);
    CHECK(czk_perf_diff_compute(&d, a, 6, b, 6, 1, "no-such-metric") == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "no-such-metric") != NULL);
    /* fewer than 4 runs: the note says nothing can differ */
    REQUIRE_OK(czk_perf_diff_compute(&d, a, 3, b, 3, 1, NULL));
    CHECK(!d.differs && strstr(d.explain, "fewer than 4 runs"));
    czk_perf_diff_free(&d);
}

CZK_TEST(perf_parse_libpfm_names)
{
    if (!czk__perf_libpfm_loaded()) {
        printf("  (skipped: libpfm4 not installed)\n");
        return;
    }
    /* libpfm4's OS-independent "perf::" PMU is known on every CPU */
    czk_perf_eventset s;
    REQUIRE_OK(czk_perf_eventset_parse(&s, "perf::instructions,perf::branch-misses", CZK_PERF_CPU_INTEL));
    REQUIRE(s.n == 2);
    CHECK(s.ev[0].has_hw && !strcmp(s.ev[0].origin, "libpfm4") && s.ev[0].type == PERF_TYPE_HARDWARE &&
          s.ev[0].config == PERF_COUNT_HW_INSTRUCTIONS && s.ev[0].role == CZK_PERF_ROLE_INSTRUCTIONS);
    CHECK(s.ev[1].role == CZK_PERF_ROLE_BRANCH_MISSES && s.ev[1].sim_pass == 1);
}

static void spin_ms(double ms)
{
    double t0 = czk_now();
    while ((czk_now() - t0) * 1e3 < ms) {
    }
}

CZK_TEST(perf_session_regions)
{
    czk_perf_begin(); /* no session: no-ops */
    czk_perf_end();
    CHECK(!czk_perf_session_active());
    czk_perf_report r;
    CHECK(czk_perf_session_stop(&r) == CZK_ERR_INVALID_ARG);
    czk_perf_eventset s;
    REQUIRE_OK(czk_perf_eventset_parse(&s, "task-clock,context-switches,instructions", CZK_PERF_CPU_GENERIC));
    REQUIRE_OK(czk_perf_session_start(&s, -1, 0));
    CHECK(czk_perf_session_start(&s, -1, 0) == CZK_ERR_INVALID_ARG);
    spin_ms(200); /* implicit region: discarded at the first begin */
    czk_perf_begin();
    spin_ms(10);
    czk_perf_end();
    spin_ms(400); /* outside any region */
    czk_perf_begin();
    czk_perf_begin(); /* nested: only the outer pair counts */
    spin_ms(10);
    czk_perf_end();
    czk_perf_end();
    czk_perf_end(); /* unbalanced end: ignored */
    REQUIRE_OK(czk_perf_session_stop(&r));
    CHECK(!czk_perf_session_active());
    CHECK_EQ_U64(r.regions, 2);
    /* 0.020 s plus any preemption; the failure modes give >= 0.22 s */
    CHECK_MSG(r.seconds > 0.019 && r.seconds < 0.15, "region time %.4f s, want ~0.020", r.seconds);
    CHECK(r.task_clock_s > 0 && r.max_rss > 0);
    REQUIRE(r.n == 3);
    CHECK(r.v[0].source == CZK_PERF_SOFTWARE && r.v[0].value > 1e6); /* task-clock in ns */
    CHECK(r.v[2].source == (czk_perf_hw_available() ? CZK_PERF_COUNTED : CZK_PERF_UNAVAILABLE));
    if (!czk_perf_hw_available()) CHECK(strstr(r.v[2].note, "no hardware PMU") != NULL);
    /* a benchmark that marks no region is measured whole */
    REQUIRE_OK(czk_perf_session_start(NULL, -1, 0));
    spin_ms(5);
    REQUIRE_OK(czk_perf_session_stop(&r));
    CHECK(r.regions == 0 && r.seconds >= 0.005 && r.n == 0);
}

/* Per-function self costs: name compression shared by fn= and cfn=, object
 * compression, relative positions, a calls= line whose following cost line
 * is the callee's inclusive cost (not self cost), inlined code (fi=/fe=)
 * counted in the function it sits in, recursion depths and Rust hashes
 * merged, two parts. */
static const char cg_profile[] =
    "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n\n"
    "positions: instr line\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim\n\n"
    "ob=(1) /usr/bin/prog\nfl=(1) main.c\nfn=(1) main\n0x1000 10 100 20 10 1 2 0 1 0 0 10 2\n"
    "+4 +1 50\n"
    "cfn=(2) hot\ncalls=3 0x2000 40\n* * 9999 9999 9999\n"
    "+2 -1 5\n"
    "fn=(2)\n0x2000 40 300 60\nfi=(2) inl.h\n+8 -30 200 0 0 0 5 0 0 0 0 7 3\nfe=(1)\n-8 +30 100\n"
    "fn=(3) hot'2\n0x2100 70 30\n"
    "ob=(2) /lib/libc.so.6\nfl=(3) memcpy.S\nfn=(4) memcpy\n0x9000 1 1000 0 500\n"
    "fn=(5) _ZN3foo3bar17h0123456789abcdefE::h0123456789abcdef\n0x9100 2 7\n"
    "totals: 1792 20 510 1 7 0 1 0 0 17 5\n"
    "part: 2\nfn=(1)\n0x1000 10 1000\n";

CZK_TEST(perf_callgrind_profile)
{
    czk_perf_cg_totals t;
    memset(&t, 0, sizeof t);
    czk_perf_profile raw;
    czk_perf_profile_init(&raw, CZK_PERF_CG_NCOL, czk_perf_cg_columns);
    REQUIRE_OK(czk_perf_cg_parse_profile_text(&t, &raw, cg_profile, "profile"));
    const czk_perf_fn *f;
    REQUIRE((f = czk_perf_profile_find(&raw, "main")));
    CHECK(f->v[0] == 100 + 50 + 5 + 1000); /* not the 9999 of the call to hot */
    CHECK(f->v[1] == 20 && f->v[9] == 10 && f->v[10] == 2 && !strcmp(f->object, "prog"));
    REQUIRE((f = czk_perf_profile_find(&raw, "hot")));
    CHECK(f->v[0] == 300 + 200 + 100 + 30); /* inlined lines and recursion depth 2 included */
    CHECK(f->v[4] == 5 && f->v[9] == 7 && f->v[10] == 3);
    REQUIRE((f = czk_perf_profile_find(&raw, "memcpy")));
    CHECK(f->v[0] == 1000 && f->v[2] == 500 && !strcmp(f->object, "libc.so.6"));
    CHECK(czk_perf_profile_find(&raw, "_ZN3foo3bar17h0123456789abcdefE") != NULL); /* hash suffix dropped */
    CHECK(raw.n == 4 && raw.have_cache && raw.have_branch);
    CHECK(t.ir == 1792 && t.bcm == 5); /* the totals: line, not the self costs */
    /* the counter set's events per function */
    czk_perf_eventset s;
    REQUIRE_OK(czk_perf_eventset_parse(&s, "instructions,branch-misses,l2_cache_req_stat.dc_access_in_l2,cycles",
                                       CZK_PERF_CPU_INTEL));
    czk_perf_profile ev;
    REQUIRE_OK(czk_perf_profile_from_sim(&ev, &s, &raw, NULL));
    CHECK(ev.nev == 3 && czk_perf_profile_column(&ev, "cycles") < 0);
    int ci = czk_perf_profile_column(&ev, "instructions"), cb = czk_perf_profile_column(&ev, "branch-misses");
    REQUIRE(ci >= 0 && cb >= 0);
    REQUIRE((f = czk_perf_profile_find(&ev, "hot")));
    CHECK(f->v[ci] == 630 && f->v[cb] == 3);
    CHECK(strstr(ev.how[ci], "callgrind Ir") != NULL);
    czk_perf_profile_clear(&ev);
    czk_perf_profile_clear(&raw);
    /* malformed: a reference to an undefined name, a bad position */
    czk_perf_profile_init(&raw, CZK_PERF_CG_NCOL, czk_perf_cg_columns);
    CHECK(czk_perf_cg_parse_profile_text(&t, &raw, "events: Ir\nfn=(7)\n1 5\n", "undef.out") == CZK_ERR_FORMAT);
    CHECK(strstr(czk_last_error(), "undef.out") && strstr(czk_last_error(), "line 2"));
    CHECK(czk_perf_cg_parse_profile_text(&t, &raw, "events: Ir\nfn=x\nq 5\n", "pos.out") == CZK_ERR_FORMAT);
    czk_perf_profile_clear(&raw);
}

static void one_fn_profile(czk_perf_profile *p, const char *const *names, const double *v, size_t n)
{
    static const char *const col[] = {"instructions"};
    czk_perf_profile_init(p, 1, col);
    snprintf(p->how[0], sizeof p->how[0], "callgrind Ir");
    snprintf(p->source, sizeof p->source, "callgrind self cost per function");
    for (size_t i = 0; i < n; i++) REQUIRE_OK(czk_perf_profile_add(p, names[i], "czk", &v[i]));
}

/* Exact simulated rows and where tables: ranked by |B - A|, shares, names
 * unified by a rename, the rest summed. */
CZK_TEST(perf_diff_where_exact)
{
    czk_rng *rng = czk_test_rng();
    czk_perf_report a[4], b[4];
    synth_runs(a, 4, rng, 1.0, 1e8, 1e3, 1e3);
    synth_runs(b, 4, rng, 1.0, 1.1e8, 1e3, 1e3);
    for (int i = 0; i < 4; i++) {
        a[i].sim_exact = b[i].sim_exact = 1;
        for (size_t k = 0; k < a[i].n; k++) a[i].v[k].value = b[i].v[k].value = a[0].v[k].value;
        b[i].v[0].value = 1.1e8;
    }
    czk_perf_diff d;
    REQUIRE_OK(czk_perf_diff_compute(&d, a, 4, b, 4, 1, NULL));
    const czk_perf_diff_row *ins = NULL;
    for (size_t i = 0; i < d.nrows; i++)
        if (!strcmp(d.rows[i].name, "instructions")) ins = &d.rows[i];
    REQUIRE(ins);
    CHECK(ins->exact && ins->differs && isnan(ins->p) && NEAR(ins->delta_pct, 10.0, 1e-9));
    static const char *const an[] = {"lc_insert_vec", "memcpy", "grow", "other"};
    static const char *const bn[] = {"lc_insert_inline2", "memcpy", "grow", "other"};
    static const double av[] = {5e7, 1e7, 2e7, 2e7}, bv[] = {4e7, 4e7, 1e7, 2e7};
    czk_perf_profile pa, pb;
    one_fn_profile(&pa, an, av, 4);
    one_fn_profile(&pb, bn, bv, 4);
    czk_perf_rename ren = {"_inline2", "_vec"};
    REQUIRE_OK(czk_perf_diff_where(&d, &pa, 1, &pb, 1, 2, &ren, 1));
    REQUIRE(d.nwhere == 1);
    const czk_perf_where *w = &d.where[0];
    CHECK(!strcmp(w->metric, "instructions") && w->differs && w->nfn == 4 && w->n == 2);
    CHECK(!strcmp(w->rows[0].name, "memcpy") && w->rows[0].delta == 3e7 && NEAR(w->rows[0].share, 300.0, 1e-9));
    CHECK(!strcmp(w->rows[1].name, "lc_insert_vec") && w->rows[1].delta == -1e7); /* B's name read as A's */
    CHECK(w->rest_a == 4e7 && w->rest_b == 3e7);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    REQUIRE(f);
    czk_perf_diff_print(f, &d);
    fclose(f);
    CHECK(strstr(buf, "exact") && strstr(buf, "Where (callgrind self cost per function") && strstr(buf, "memcpy"));
    CHECK(strstr(buf, "'_inline2' read as '_vec'") && strstr(buf, "unexplained"));
    free(buf);
    czk_perf_diff_free(&d);
    czk_perf_profile_clear(&pa);
    czk_perf_profile_clear(&pb);
}

CZK_TEST(perf_sim_repeat)
{
    czk_perf_cg_totals x = {0}, y;
    x.ir = 36e6, x.dr = 9.8e6, x.i1mr = 10633, x.ilmr = 5315, x.dlmr = 80724, x.bc = 6.3e6, x.bcm = 169233;
    x.have_cache = x.have_branch = 1;
    y = x;
    double sp;
    CHECK(czk_perf_cg_repeat(&sp, &x, 1, &y, 1) && sp == 0);
    y.ir += 46, y.i1mr += 8, y.ilmr += 5; /* a whole process's start-up varies a little */
    CHECK(czk_perf_cg_repeat(&sp, &x, 1, &y, 1) && sp > 0 && sp < 1e-3);
    y.bcm += 2000; /* 1.2%: not a repeat */
    CHECK(!czk_perf_cg_repeat(&sp, &x, 1, &y, 1));
    /* pass 1 against pass 2: the LL events are different simulations, not compared */
    y = x;
    y.dlmr = 300, y.ilmr = 5;
    CHECK(czk_perf_cg_repeat(&sp, &x, 1, &y, 2) && !czk_perf_cg_repeat(&sp, &x, 1, &y, 1));
    y.have_branch = 0;
    CHECK(!czk_perf_cg_repeat(&sp, &x, 1, &y, 2));
}

/* The mapping of this executable's code, from /proc/self/maps. */
static int self_text_map(uint64_t *start, uint64_t *len, uint64_t *pgoff, char path[512], uint64_t addr)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return 0;
    char line[1024];
    int ok = 0;
    while (!ok && fgets(line, sizeof line, f)) {
        unsigned long long a, b, off;
        char perm[8], file[512] = "";
        if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %511s", &a, &b, perm, &off, file) < 4) continue;
        if (addr >= a && addr < b && perm[2] == 'x') {
            *start = a, *len = b - a, *pgoff = off;
            snprintf(path, 512, "%s", file);
            ok = 1;
        }
    }
    fclose(f);
    return ok;
}

static size_t put_mmap2(unsigned char *buf, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff, const char *file)
{
    size_t flen = strlen(file) + 1, size = sizeof(struct perf_event_header) + 64 + ((flen + 7) & ~(size_t)7);
    memset(buf, 0, size);
    struct perf_event_header h = {PERF_RECORD_MMAP2, 0, (uint16_t)size};
    memcpy(buf, &h, sizeof h);
    unsigned char *p = buf + sizeof h;
    uint32_t prot = 4; /* PROT_EXEC */
    memcpy(p, &pid, 4), memcpy(p + 4, &pid, 4), memcpy(p + 8, &start, 8), memcpy(p + 16, &len, 8);
    memcpy(p + 24, &pgoff, 8), memcpy(p + 56, &prot, 4);
    memcpy(p + 64, file, flen);
    return size;
}

static size_t put_sample(unsigned char *buf, uint64_t id, uint64_t ip, uint32_t pid, uint64_t period)
{
    struct perf_event_header h = {PERF_RECORD_SAMPLE, 0, 8 + 32};
    memcpy(buf, &h, sizeof h);
    memcpy(buf + 8, &id, 8), memcpy(buf + 16, &ip, 8), memcpy(buf + 24, &pid, 4), memcpy(buf + 28, &pid, 4);
    memcpy(buf + 32, &period, 8);
    return 40;
}

/* ELF symbols of a real binary (this test program), address resolution
 * through a mapping's file offset, and synthetic samples through a ring
 * buffer whose records wrap around its end: what the sampling backend does
 * on a machine with a PMU, short of the counters themselves. */
CZK_TEST(perf_sampling_symbols)
{
    uint64_t start, len, pgoff;
    char path[512];
    uint64_t f1 = (uint64_t)(uintptr_t)&czk_perf_median, f2 = (uint64_t)(uintptr_t)&czk_perf_mann_whitney;
    REQUIRE(self_text_map(&start, &len, &pgoff, path, f1));
    czk_perf_symtab t;
    REQUIRE_OK(czk_perf_symtab_load(&t, path));
    CHECK(t.n > 1000 && t.nload >= 2);
    uint64_t va;
    REQUIRE(czk_perf_symtab_vaddr(&t, f1 - start + pgoff, &va));
    const czk_perf_sym *s = czk_perf_symtab_lookup(&t, va);
    CHECK(s && !strcmp(s->name, "czk_perf_median"));
    REQUIRE(czk_perf_symtab_vaddr(&t, f2 - start + pgoff + 5, &va));
    s = czk_perf_symtab_lookup(&t, va);
    CHECK(s && !strcmp(s->name, "czk_perf_mann_whitney"));
    uint64_t lo, hi;
    CHECK(czk_perf_symtab_range(&t, "czk_perf_medi?n", &lo, &hi) && hi > lo);
    if (czk_perf_demangler_available()) { /* the gRPC server in this binary is C++ */
        size_t cxx = 0;
        for (size_t i = 0; i < t.n; i++) cxx += strstr(t.sym[i].name, "::") != NULL;
        CHECK_MSG(cxx > 20, "%zu demangled C++ names", cxx);
    }
    czk_perf_symtab_clear(&t);
    CHECK(czk_perf_symtab_load(&t, "/proc/self/status") == CZK_ERR_FORMAT); /* not ELF */
    /* samples in a ring buffer: page + 4 KiB of data, the records wrap its end */
    size_t page = (size_t)sysconf(_SC_PAGESIZE), data = 4096;
    unsigned char *ring = aligned_alloc(page, page + data);
    REQUIRE(ring);
    memset(ring, 0, page + data);
    struct perf_event_mmap_page *pg = (void *)ring;
    unsigned char stream[8192];
    size_t n = 0;
    n += put_mmap2(stream + n, 42, start, len, pgoff, path);
    uint64_t ids[2] = {1001, 1002};
    for (int i = 0; i < 40; i++) n += put_sample(stream + n, ids[i % 2], i % 4 < 3 ? f1 + 3 : f2 + 1, 42, 100 + (uint64_t)i % 2);
    n += put_sample(stream + n, 999, f1, 42, 5); /* an id the sampler does not know */
    uint64_t tail = 3000; /* start near the end of the data area */
    for (size_t i = 0; i < n; i++) ring[page + (tail + i) % data] = stream[i];
    pg->data_tail = tail;
    pg->data_head = tail + n;
    static const char *const names[] = {"instructions", "branch-misses"};
    czk_perf_sampler *smp;
    REQUIRE_OK(czk_perf_sampler_create(&smp, 2, names, ids, NULL));
    CHECK(czk_perf_sampler_drain(smp, ring, data) == 42);
    CHECK(pg->data_tail == tail + n);
    czk_perf_profile p;
    uint64_t ns, lost, unres;
    REQUIRE_OK(czk_perf_sampler_profile(smp, &p, &ns, &lost, &unres));
    CHECK(ns == 40 && lost == 1 && unres == 0);
    const czk_perf_fn *fm = czk_perf_profile_find(&p, "czk_perf_median"), *fw = czk_perf_profile_find(&p, "czk_perf_mann_whitney");
    REQUIRE(fm && fw);
    /* i % 4 in {0, 2}: median, instructions (period 100); i % 4 == 1: median, branch-misses
     * (period 101); i % 4 == 3: mann_whitney, branch-misses */
    CHECK(fm->v[0] == 20 * 100 && fm->v[1] == 10 * 101);
    CHECK(fw->v[0] == 0 && fw->v[1] == 10 * 101);
    CHECK(!strcmp(fm->object, strrchr(path, '/') + 1));
    czk_perf_profile_clear(&p);
    czk_perf_sampler_destroy(smp);
    /* --region: only samples inside the function's address range */
    REQUIRE_OK(czk_perf_sampler_create(&smp, 2, names, ids, "czk_perf_mann_whitney"));
    pg->data_tail = tail;
    czk_perf_sampler_drain(smp, ring, data);
    REQUIRE_OK(czk_perf_sampler_profile(smp, &p, &ns, &lost, &unres));
    CHECK(p.n == 1 && czk_perf_profile_find(&p, "czk_perf_mann_whitney"));
    czk_perf_profile_clear(&p);
    czk_perf_sampler_destroy(smp);
    free(ring);
}

CZK_TEST(perf_demangle)
{
    if (!czk_perf_demangler_available()) {
        printf("  (skipped: built without libiberty)\n");
        return;
    }
    static const struct { const char *in, *out; } v[] = {
        {"_ZNSt6vectorIiSaIiEE9push_backERKi", "std::vector<int, std::allocator<int> >::push_back(int const&)"},
        {"_ZN4core3fmt9Formatter3pad17h1f2e3d4c5b6a7988E", "core::fmt::Formatter::pad"}, /* Rust legacy, hash dropped */
        {"_RNvCs1234_7mycrate3foo", "mycrate::foo"},                                     /* Rust v0 */
        {"_RINvNtC3std3mem8align_ofjEC3foo", "std::mem::align_of::<usize>"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char *d = czk_perf_demangle(v[i].in);
        CHECK_MSG(d && !strcmp(d, v[i].out), "%s -> %s", v[i].in, d ? d : "(null)");
        free(d);
    }
    CHECK(czk_perf_demangle("main") == NULL);
}
