/* Helpers for the perf tests that drive the czk executable. */
#ifndef CZK_TEST_PERF_CLI_UTIL_H
#define CZK_TEST_PERF_CLI_UTIL_H

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "czk/perf.h"
#include "perf/perf_internal.h"
#include "runner.h"

/* Run a shell command line; returns its stdout (malloc'd) and exit status. */
static char *perf_run_capture(const char *cmd, int *status)
{
    FILE *p = popen(cmd, "r");
    if (!p) {
        *status = -1;
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) break;
            buf = nb, cap *= 2;
        }
    }
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (buf) buf[len] = 0;
    return buf;
}

/* Valgrind cannot run ASan binaries; and the simulated backend needs valgrind. */
static int perf_can_simulate(void)
{
    const char *asan = getenv("CZK_TEST_ASAN");
    if (asan && *asan && strcmp(asan, "0")) return 0;
    return czk_perf_valgrind_available();
}

/* The row of metric `name` in a czk diff --json document. */
static json_t *perf_diff_metric(json_t *doc, const char *name)
{
    json_t *ms = json_object_get(doc, "metrics");
    for (size_t i = 0; i < json_array_size(ms); i++) {
        json_t *m = json_array_get(ms, i);
        if (!strcmp(json_string_value(json_object_get(m, "name")), name)) return m;
    }
    return NULL;
}

static const char *perf_json_str(json_t *o, const char *k1, const char *k2)
{
    json_t *v = json_object_get(o, k1);
    if (k2) v = json_object_get(v, k2);
    return json_is_string(v) ? json_string_value(v) : "";
}

#endif
