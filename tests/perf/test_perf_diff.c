/* czk diff on planted cases whose answer is known (bench/bench_perf_planted.c),
 * with counters from the simulated backend (callgrind) where the machine has
 * no PMU, or from hardware counters where it has one. Each case must name the
 * planted cause (why) and rank the planted function first for its counter
 * (where). Small workloads: each case is 6 + 6 native runs (4 + 4 for
 * identical A and B) and 2 + 2 callgrind runs (the counts repeat exactly). With 6 + 6 a planted time change is significant even
 * when one run of the 12 is an outlier (4 + 4 needs complete separation).
 * ctest runs this file alone (RUN_SERIAL): it judges time. */
#include <math.h>
#include <stdio.h>

#include "perf_cli_util.h"

/* Counters that need only one simulation pass (LL = L2). */
#define COUNTERS "instructions,branch-instructions,branch-misses,l2_cache_req_stat.dc_access_in_l2,l2_cache_req_stat.dc_hit_in_l2"

/* The text report goes to stdout, the JSON document to a file beside it. */
static json_t *planted_diff(const char *kase, const char *size, const char *extra)
{
    char cmd[2048], path[512];
    int runs = strcmp(kase, "same") ? 6 : 4;
    snprintf(path, sizeof path, "%s/diff-%s.json", czk_test_tmpdir(), kase);
    snprintf(cmd, sizeof cmd,
             "'%s' diff -n %d --json '%s' --quiet --counters %s %s -- bench planted --case %s %s -i 2 --quiet "
             "-- bench planted --case %s --variant b %s -i 2 --quiet",
             czk_test_cli(), runs, path, COUNTERS, extra, kase, size, kase, size);
    int st;
    char *out = perf_run_capture(cmd, &st);
    CHECK_MSG(st == 0, "'%s' exited %d", cmd, st);
    CHECK_MSG(out && strstr(out, "verdict (time):"), "no text report: %.300s", out ? out : "(none)");
    if (strcmp(kase, "same") && !czk_perf_hw_available()) CHECK(out && strstr(out, "\nWhere ("));
    free(out);
    json_error_t err;
    json_t *doc = st == 0 ? json_load_file(path, 0, &err) : NULL;
    CHECK_MSG(doc != NULL, "czk diff --json %s: %s", path, st == 0 ? err.text : "not written");
    return doc;
}

/* The function ranked first in the where table of `metric`. */
static const char *where_first(json_t *doc, const char *metric)
{
    json_t *ms = json_object_get(json_object_get(doc, "where"), "metrics");
    for (size_t i = 0; i < json_array_size(ms); i++) {
        json_t *m = json_array_get(ms, i);
        if (strcmp(perf_json_str(m, "metric", NULL), metric)) continue;
        json_t *f = json_array_get(json_object_get(m, "functions"), 0);
        return f ? perf_json_str(f, "function", NULL) : "(no function changed)";
    }
    return "(no where table)";
}

static void check_where(json_t *doc, const char *metric, const char *fn)
{
    if (czk_perf_hw_available()) return; /* attribution from callgrind; sampling needs a PMU run of its own */
    const char *got = where_first(doc, metric);
    CHECK_MSG(!strcmp(got, fn), "where %s: first function '%s', want '%s'", metric, got, fn);
}

static int skip_without_counters(void)
{
    if (!czk_perf_hw_available() && !perf_can_simulate()) {
        printf("  (skipped: no hardware counters and no valgrind, or an ASan build)\n");
        return 1;
    }
    return 0;
}

static void check_cause(json_t *doc, const char *cause)
{
    const char *verdict = perf_json_str(doc, "diagnosis", "verdict");
    const char *got = perf_json_str(doc, "diagnosis", "cause");
    CHECK_MSG(!strcmp(verdict, "differs"), "verdict '%s', want 'differs'", verdict);
    CHECK_MSG(!strcmp(got, cause), "cause '%s', want '%s'\n%s", got, cause, perf_json_str(doc, "diagnosis", "text"));
}

CZK_TEST(diff_planted_instructions)
{
    if (skip_without_counters()) return;
    json_t *doc = planted_diff("instr", "-n 8192", "");
    REQUIRE(doc);
    check_cause(doc, "instructions");
    check_where(doc, "instructions", "instr_b"); /* B's doubled loop */
    json_t *ins = perf_diff_metric(doc, "instructions");
    REQUIRE(ins);
    double d = json_number_value(json_object_get(ins, "delta_pct"));
    CHECK_MSG(d > 70 && d < 110, "instructions delta %.1f%%, want ~ +90%% (twice the rounds)", d);
    /* same memory behaviour: L2 demand accesses within 1% */
    json_t *l2 = perf_diff_metric(doc, "l2_cache_req_stat.dc_access_in_l2");
    REQUIRE(l2);
    CHECK(fabs(json_number_value(json_object_get(l2, "delta_pct"))) < 1.0);
    CHECK(!strcmp(perf_json_str(l2, "verdict", NULL), "no difference"));
    json_decref(doc);
}

CZK_TEST(diff_planted_branch)
{
    if (skip_without_counters()) return;
    json_t *doc = planted_diff("branch", "-n 8192", "");
    REQUIRE(doc);
    check_cause(doc, "branch-mispredictions");
    check_where(doc, "branch-misses", "branchy");
    json_t *ins = perf_diff_metric(doc, "instructions");
    REQUIRE(ins);
    CHECK(fabs(json_number_value(json_object_get(ins, "delta_pct"))) < 5.0);
    json_t *bm = perf_diff_metric(doc, "branch-miss %");
    REQUIRE(bm);
    CHECK(json_number_value(json_object_get(bm, "b_median")) > 10.0); /* ~50% of the data-dependent branches */
    json_decref(doc);
}

CZK_TEST(diff_planted_list)
{
    if (skip_without_counters()) return;
    /* 32768 nodes of 64 bytes = 2 MiB (> the 1 MiB L2) against a 256 KiB array */
    json_t *doc = planted_diff("list", "-n 32768", "--randomize --seed 5");
    REQUIRE(doc);
    check_cause(doc, "l2-misses");
    check_where(doc, "l2_cache_req_stat.dc_access_in_l2", "walk_list");
    json_t *hit = perf_diff_metric(doc, "L2 demand hit %");
    REQUIRE(hit);
    CHECK(json_number_value(json_object_get(hit, "b_median")) < json_number_value(json_object_get(hit, "a_median")) - 30);
    const char *order = perf_json_str(doc, "order", NULL);
    CHECK(strlen(order) == 12); /* 6 + 6 runs, interleaved */
    json_decref(doc);
}

CZK_TEST(diff_planted_same)
{
    if (skip_without_counters()) return;
    /* Time on a shared machine is noisy: a false "differs" on time has a
     * probability of at most 2/70 per attempt (4 vs 4 runs), so one retry. */
    for (int attempt = 0; attempt < 2; attempt++) {
        json_t *doc = planted_diff("same", "-n 8192", "");
        REQUIRE(doc);
        const char *verdict = perf_json_str(doc, "diagnosis", "verdict");
        json_t *ms = json_object_get(doc, "metrics");
        int counters_differ = 0;
        for (size_t i = 0; i < json_array_size(ms); i++) {
            json_t *m = json_array_get(ms, i);
            const char *src = perf_json_str(m, "source", NULL);
            if ((!strcmp(src, "simulated") || !strcmp(src, "counted")) && !strcmp(perf_json_str(m, "verdict", NULL), "differs")) {
                counters_differ = 1;
                CHECK_MSG(0, "identical A and B: counter '%s' differs", perf_json_str(m, "name", NULL));
            }
        }
        CHECK(!strcmp(perf_json_str(doc, "diagnosis", "cause"), "none"));
        int ok = !strcmp(verdict, "no difference");
        if (!ok && attempt == 0 && !counters_differ) {
            printf("  (time verdict '%s' on identical runs; retrying once)\n", verdict);
            json_decref(doc);
            continue;
        }
        CHECK_MSG(ok, "identical A and B: verdict '%s'\n%s", verdict, perf_json_str(doc, "diagnosis", "text"));
        json_decref(doc);
        break;
    }
}
