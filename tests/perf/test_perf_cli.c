/* `czk bench X --counters` and `czk diff` as a command: the reference event
 * list, JSON output, external commands, usage errors, failing sides. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "perf_cli_util.h"

static const char *const ref_names[] = {
    "instructions", "cycles", "cache-references", "cache-misses", "branch-instructions", "branch-misses",
    "l2_cache_req_stat.dc_access_in_l2", "l2_cache_req_stat.dc_hit_in_l2", "ls_dmnd_fills_from_sys.local_l2",
    "ls_dmnd_fills_from_sys.local_ccx", "ls_any_fills_from_sys.dram_io_all"};

/* Under ASan (no valgrind) use the hardware backend only: events are then
 * counted or unavailable, never a failure. */
static const char *backend_env(void)
{
    return perf_can_simulate() ? "" : "CZK_PERF_BACKEND=hw ";
}

CZK_TEST(counters_reference_list_text)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "%s'%s' bench planted --case list --variant b -n 32768 -i 2 --counters "
             "instructions,cycles,cache-references,cache-misses,branch-instructions,branch-misses,"
             "l2_cache_req_stat.dc_access_in_l2,l2_cache_req_stat.dc_hit_in_l2,ls_dmnd_fills_from_sys.local_l2,"
             "ls_dmnd_fills_from_sys.local_ccx,ls_any_fills_from_sys.dram_io_all",
             backend_env(), czk_test_cli());
    int st;
    char *out = perf_run_capture(cmd, &st);
    REQUIRE(out);
    CHECK_MSG(st == 0, "exit %d", st);
    CHECK(strstr(out, "planted list") != NULL); /* the benchmark's own output comes first */
    CHECK(strstr(out, "# counters: region = marked section(s)") != NULL);
    for (size_t i = 0; i < sizeof ref_names / sizeof ref_names[0]; i++) {
        char key[128];
        snprintf(key, sizeof key, "\n  %s ", ref_names[i]);
        const char *line = strstr(out, key);
        CHECK_MSG(line != NULL, "event %s not reported", ref_names[i]);
        if (!line) continue;
        const char *eol = strchr(line + 1, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 500 ? len : 500), line);
        CHECK_MSG(strstr(buf, "counted") || strstr(buf, "simulated") || strstr(buf, "unavailable"),
                  "event %s has no status: %s", ref_names[i], buf);
    }
    if (!czk_perf_hw_available() && perf_can_simulate()) {
        /* this machine: no PMU, so everything simulatable is simulated */
        CHECK(strstr(out, "callgrind (simulated)") != NULL);
        CHECK(strstr(out, "no hardware PMU") != NULL); /* cycles */
        CHECK(strstr(out, "L2 demand hit %") != NULL);
        CHECK(strstr(out, "DRAM fills /1k instr") != NULL);
        CHECK(strstr(out, "fills from L3/CCX %") != NULL);
    }
    free(out);
}

CZK_TEST(counters_json_and_unknown_events)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "%s'%s' bench planted --case branch --variant b -n 4096 -i 1 --json "
             "--counters=instructions,no_such_event,branch-misses,r0400c0",
             backend_env(), czk_test_cli());
    int st;
    char *out = perf_run_capture(cmd, &st);
    REQUIRE(out);
    CHECK_MSG(st == 0, "exit %d", st);
    /* the last line is the counters document */
    size_t len = strlen(out);
    while (len && out[len - 1] == '\n') out[--len] = 0;
    char *last = strrchr(out, '\n');
    json_error_t err;
    json_t *doc = json_loads(last ? last + 1 : out, 0, &err);
    CHECK_MSG(doc != NULL, "counters JSON: %s", err.text);
    if (doc) {
        json_t *ev = json_object_get(doc, "events");
        CHECK_EQ_U64(json_array_size(ev), 4);
        json_t *bogus = json_array_get(ev, 1);
        CHECK(!strcmp(perf_json_str(bogus, "name", NULL), "no_such_event"));
        CHECK(!strcmp(perf_json_str(bogus, "source", NULL), "unavailable"));
        CHECK(strstr(perf_json_str(bogus, "note", NULL), "unknown event") != NULL);
        CHECK(json_is_number(json_object_get(doc, "seconds")) && json_integer_value(json_object_get(doc, "regions")) == 1);
        if (!czk_perf_hw_available() && perf_can_simulate()) {
            json_t *bm = json_array_get(ev, 2);
            CHECK(!strcmp(perf_json_str(bm, "source", NULL), "simulated"));
            CHECK(json_number_value(json_object_get(bm, "value")) > 1000); /* ~2048 of 4096 unpredictable */
        }
        json_decref(doc);
    }
    free(out);
    /* a malformed list is a usage error */
    snprintf(cmd, sizeof cmd, "'%s' bench planted --case same --counters 'instructions,,cycles' 2>&1", czk_test_cli());
    out = perf_run_capture(cmd, &st);
    CHECK(st == 2);
    CHECK(out && strstr(out, "empty item"));
    free(out);
}

CZK_TEST(diff_external_commands)
{
    char svg[512], cmd[2048];
    snprintf(svg, sizeof svg, "%s/ext.svg", czk_test_tmpdir());
    snprintf(cmd, sizeof cmd, "'%s' diff -n 4 --warmup 0 --backend none --json - --svg '%s' --a true --b 'sleep 0.05'",
             czk_test_cli(), svg);
    int st;
    char *out = perf_run_capture(cmd, &st);
    REQUIRE(out);
    CHECK_MSG(st == 0, "exit %d", st);
    json_error_t err;
    json_t *doc = json_loads(out, 0, &err);
    CHECK_MSG(doc != NULL, "diff JSON: %s", err.text);
    if (doc) {
        CHECK(!strcmp(perf_json_str(doc, "diagnosis", "verdict"), "differs"));
        CHECK(!strcmp(perf_json_str(doc, "diagnosis", "cause"), "none"));
        json_t *t = perf_diff_metric(doc, "time");
        REQUIRE(t);
        CHECK(json_number_value(json_object_get(t, "b_median")) >= 0.05);
        CHECK_EQ_U64(json_array_size(json_object_get(t, "a_samples")), 4);
        CHECK_EQ_U64(json_array_size(json_object_get(json_object_get(doc, "runs"), "b")), 4);
        CHECK(!strcmp(perf_json_str(doc, "order", NULL), "ABABABAB"));
        json_decref(doc);
    }
    free(out);
    FILE *f = fopen(svg, "r");
    CHECK(f != NULL);
    if (f) {
        char buf[4096];
        size_t got = fread(buf, 1, sizeof buf - 1, f);
        buf[got] = 0;
        fclose(f);
        CHECK(strstr(buf, "<svg") && strstr(buf, "sleep 0.05"));
    }
}

CZK_TEST(diff_external_software_events)
{
    /* software events opened on the child with enable_on_exec, read after it exits */
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' diff -n 4 --warmup 0 --backend hw --counters page-faults,cpu-migrations,task-clock --json - "
             "--a \"'%s' bench planted --case same -n 1024 -i 1 --quiet\" --b \"'%s' bench planted --case same -n 200000 -i 1 --quiet\"",
             czk_test_cli(), czk_test_cli(), czk_test_cli());
    int st;
    char *out = perf_run_capture(cmd, &st);
    REQUIRE(out);
    CHECK_MSG(st == 0, "exit %d", st);
    json_error_t err;
    json_t *doc = json_loads(out, 0, &err);
    CHECK_MSG(doc != NULL, "diff JSON: %s", err.text);
    if (doc) {
        json_t *mig = perf_diff_metric(doc, "cpu-migrations");
        REQUIRE(mig);
        CHECK(!strcmp(perf_json_str(mig, "source", NULL), "software"));
        CHECK_EQ_U64(json_array_size(json_object_get(mig, "a_samples")), 4);
        /* B touches 200000 x 8 bytes more: more page faults (whole process, from wait4) */
        json_t *pf = perf_diff_metric(doc, "page-faults");
        REQUIRE(pf);
        CHECK(json_number_value(json_object_get(pf, "b_median")) > json_number_value(json_object_get(pf, "a_median")) + 200);
        CHECK(!strcmp(perf_json_str(pf, "verdict", NULL), "differs"));
        /* the task-clock event folds into the fixed task-clock row (one row, 4 samples a side) */
        json_t *tc = perf_diff_metric(doc, "task-clock");
        REQUIRE(tc);
        CHECK_EQ_U64(json_array_size(json_object_get(tc, "a_samples")), 4);
        json_decref(doc);
    }
    free(out);
}

CZK_TEST(diff_external_simulated)
{
    if (!perf_can_simulate()) {
        printf("  (skipped: needs valgrind and a non-ASan build)\n");
        return;
    }
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "'%s' diff -n 2 --warmup 0 --backend sim --counters instructions --region 'instr_?' --json - "
             "--a \"'%s' bench planted --case instr -n 2048 -i 1 --quiet\" "
             "--b \"'%s' bench planted --case instr --variant b -n 2048 -i 1 --quiet\"",
             czk_test_cli(), czk_test_cli(), czk_test_cli());
    int st;
    char *out = perf_run_capture(cmd, &st);
    REQUIRE(out);
    CHECK_MSG(st == 0, "exit %d", st);
    json_error_t err;
    json_t *doc = json_loads(out, 0, &err);
    CHECK_MSG(doc != NULL, "diff JSON: %s", err.text);
    if (doc) {
        json_t *ins = perf_diff_metric(doc, "instructions");
        REQUIRE(ins);
        CHECK(!strcmp(perf_json_str(ins, "source", NULL), "simulated"));
        /* deterministic: simulated twice, the counts repeat, one exact value stands for both runs */
        CHECK(json_is_true(json_object_get(ins, "exact")));
        CHECK_EQ_U64(json_array_size(json_object_get(ins, "a_samples")), 2);
        CHECK(strstr(perf_json_str(ins, "how", NULL), "callgrind") != NULL);
        /* --region: only instr_a / instr_b (the whole process runs under callgrind, collection
         * is toggled there): B does 8 more rounds x 2048 values, 2 passes */
        double a = json_number_value(json_object_get(ins, "a_median")), b = json_number_value(json_object_get(ins, "b_median"));
        CHECK_MSG(b - a > 2048 * 8 * 3 * 2 && a < 1e6, "instructions A %.0f B %.0f", a, b);
        json_t *w = json_array_get(json_object_get(json_object_get(doc, "where"), "metrics"), 0);
        json_t *f0 = json_array_get(json_object_get(w, "functions"), 0), *f1 = json_array_get(json_object_get(w, "functions"), 1);
        CHECK(!strcmp(perf_json_str(f0, "function", NULL), "instr_b") && !strcmp(perf_json_str(f1, "function", NULL), "instr_a"));
        CHECK_EQ_U64(json_array_size(json_object_get(w, "functions")), 2); /* nothing else was collected */
        CHECK(json_is_null(json_object_get(json_object_get(json_object_get(doc, "diagnosis"), "why"), "measured_cycles")));
        json_decref(doc);
    }
    free(out);
}

CZK_TEST(diff_usage_and_failures)
{
    static const char *const bad[] = {
        "diff",
        "diff -- bench planted --case same",
        "diff --a true",
        "diff -n 0 --a true --b true",
        "diff --backend gpu --a true --b true",
        "diff --counters 'x,,y' --a true --b true",
        "diff --a true --b true -- bench planted -- bench planted",
        "diff -- diff -- bench planted",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>&1", czk_test_cli(), bad[i]);
        int st;
        free(perf_run_capture(cmd, &st));
        CHECK_MSG(st == 2, "'czk %s' exited %d, want 2", bad[i], st);
    }
    /* B fails (usage error in the benchmark): czk diff fails and names the side */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' diff -n 2 --backend none -- bench planted --case same -n 256 -- bench planted -n 256 2>&1",
             czk_test_cli());
    int st;
    char *out = perf_run_capture(cmd, &st);
    CHECK(st == 1);
    CHECK_MSG(out && strstr(out, "side B") && strstr(out, "--case is required"), "output: %s", out ? out : "");
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' diff -n 2 --backend none --a true --b /nonexistent/prog 2>&1", czk_test_cli());
    out = perf_run_capture(cmd, &st);
    CHECK(st == 1);
    CHECK(out && strstr(out, "side B"));
    free(out);
}

/* czk stat: perf stat's layout on stderr, every figure labelled, the JSON
 * beside it; the seed's Zen names simulated where the CPU cannot count them. */
CZK_TEST(stat_command)
{
    char cmd[2048], path[512];
    snprintf(path, sizeof path, "%s/stat.json", czk_test_tmpdir());
    int sim = perf_can_simulate() && !czk_perf_hw_available();
    snprintf(cmd, sizeof cmd,
             "'%s' stat -r 2 --quiet -e instructions,branch-misses,l2_cache_req_stat.dc_hit_in_l2,cycles --json '%s' %s "
             "-- '%s' bench planted --case branch --variant b -n 2048 -i 1 --quiet 2>&1",
             czk_test_cli(), path, sim ? "" : "--backend hw", czk_test_cli());
    int st;
    char *out = perf_run_capture(cmd, &st);
    REQUIRE(out);
    CHECK_MSG(st == 0, "exit %d: %s", st, out);
    CHECK(strstr(out, "Performance counter stats for '") && strstr(out, "(2 runs)") && strstr(out, "seconds time elapsed"));
    CHECK(strstr(out, "planted branch")); /* the command's own output, first run */
    json_error_t err;
    json_t *doc = json_load_file(path, 0, &err);
    CHECK_MSG(doc != NULL, "%s: %s", path, err.text);
    if (doc) {
        json_t *ev = json_object_get(doc, "events");
        size_t labelled = 0;
        for (size_t i = 0; i < json_array_size(ev); i++) {
            const char *l = perf_json_str(json_array_get(ev, i), "label", NULL);
            labelled += !strcmp(l, "measured") || !strcmp(l, "simulated") || !strcmp(l, "unavailable");
        }
        CHECK_EQ_U64(labelled, json_array_size(ev));
        CHECK_EQ_U64(json_array_size(ev), 7); /* task-clock, context-switches, page-faults + 4 */
        if (sim) {
            json_t *bm = json_array_get(ev, 4), *hit = json_array_get(ev, 5), *cyc = json_array_get(ev, 6);
            CHECK(!strcmp(perf_json_str(bm, "label", NULL), "simulated") && strstr(perf_json_str(bm, "how", NULL), "callgrind"));
            CHECK(json_number_value(json_object_get(bm, "value")) > 500); /* ~1024 of 2048 unpredictable */
            CHECK(strstr(perf_json_str(hit, "how", NULL), "AMD Zen event, simulated equivalent") ||
                  czk_perf_cpu_this() == CZK_PERF_CPU_ZEN3 || czk_perf_cpu_this() == CZK_PERF_CPU_ZEN4);
            CHECK(!strcmp(perf_json_str(cyc, "label", NULL), "unavailable"));
            CHECK(strstr(perf_json_str(bm, "how", NULL), "repeated")); /* -r 2: simulated twice, counts repeat */
        }
        json_decref(doc);
    }
    free(out);
    static const char *const bad[] = {"stat", "stat -r 0 -- true", "stat -e 'x,,y' -- true", "stat --json -- true"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>&1", czk_test_cli(), bad[i]);
        free(perf_run_capture(cmd, &st));
        CHECK_MSG(st == 2, "'czk %s' exited %d, want 2", bad[i], st);
    }
    snprintf(cmd, sizeof cmd, "'%s' stat --backend none -- /nonexistent/prog 2>&1", czk_test_cli());
    out = perf_run_capture(cmd, &st);
    CHECK(st == 1 && out && strstr(out, "not found"));
    free(out);

    /* the scratch folder is made under $TMPDIR, removed after the run, kept
     * (and named) with --keep */
    char td[600];
    snprintf(td, sizeof td, "%s/stat-tmpdir", czk_test_tmpdir());
    REQUIRE(mkdir(td, 0700) == 0);
    snprintf(cmd, sizeof cmd, "TMPDIR='%s' '%s' stat --backend none -- true >/dev/null 2>&1; ls -A '%s' | wc -l", td,
             czk_test_cli(), td);
    out = perf_run_capture(cmd, &st);
    CHECK_MSG(out && atoi(out) == 0, "left under TMPDIR: %s", out ? out : "?");
    free(out);
    snprintf(cmd, sizeof cmd, "TMPDIR='%s' '%s' stat --backend none --keep -- true 2>&1 >/dev/null", td, czk_test_cli());
    out = perf_run_capture(cmd, &st);
    char want[700];
    snprintf(want, sizeof want, "scratch folder kept: %s/czk-stat-", td);
    CHECK_MSG(st == 0 && out && strstr(out, want), "exit %d: %s", st, out ? out : "?");
    free(out);
}
