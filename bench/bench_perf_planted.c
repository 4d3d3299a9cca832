/* czk bench planted: small workloads with a known performance difference
 * between variant a and variant b, used to test `czk diff` and the counter
 * backends (tests/perf/test_perf_diff.c):
 *   instr  — b runs twice the arithmetic per element over the same array
 *   branch — b takes a data-dependent, unpredictable branch (a: always the same way)
 *   list   — b walks a shuffled linked list of 64-byte nodes (4 MiB by default)
 *            instead of an array of 8-byte values (512 KiB)
 *   same   — a and b are the same code on the same data
 * The measured region (czk_perf_begin/end) covers the timed passes only;
 * set-up and one warm-up pass run before it. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/perf.h"
#include "czk/rand.h"

static const char usage[] =
    "usage: czk bench planted --case instr|branch|list|same [--variant a|b] [-n N] [-i ITERS] [--json]\n\n"
    "Workloads with a planted difference between variants a and b, for checking\n"
    "`czk diff` and `--counters`: instr (b executes ~2x the instructions, same memory\n"
    "accesses), branch (b has an unpredictable data-dependent branch), list (b walks a\n"
    "shuffled linked list instead of an array), same (a and b identical).\n"
    "Each pass's result is checked against a plain recomputation.\n\n"
    "  --case C        instr, branch, list or same (required)\n"
    "  --variant V     a or b (default a)\n"
    "  -n N            elements (default 65536)\n"
    "  -i, --iters N   timed passes (default 5), after one warm-up pass\n";

enum { OPT_CASE = CZK_OPT_FIRST_FREE, OPT_VARIANT };
enum { CASE_NONE, CASE_INSTR, CASE_BRANCH, CASE_LIST, CASE_SAME };

typedef struct opts {
    int kase, b;
    long long n, iters;
} opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    opts *o = ctx;
    switch (opt) {
    case OPT_CASE:
        if (!strcmp(arg, "instr")) o->kase = CASE_INSTR;
        else if (!strcmp(arg, "branch")) o->kase = CASE_BRANCH;
        else if (!strcmp(arg, "list")) o->kase = CASE_LIST;
        else if (!strcmp(arg, "same")) o->kase = CASE_SAME;
        else return czk_cli_usage_error("bench planted", usage, "--case wants instr|branch|list|same, got '%s'", arg);
        return 0;
    case OPT_VARIANT:
        if (!strcmp(arg, "a")) o->b = 0;
        else if (!strcmp(arg, "b")) o->b = 1;
        else return czk_cli_usage_error("bench planted", usage, "--variant wants a or b, got '%s'", arg);
        return 0;
    case 'n':
        if (czk_cli_parse_int(arg, 64, 1 << 26, &o->n))
            return czk_cli_usage_error("bench planted", usage, "-n wants 64..67108864, got '%s'", arg);
        return 0;
    case 'i':
        if (czk_cli_parse_int(arg, 1, 100000, &o->iters))
            return czk_cli_usage_error("bench planted", usage, "--iters wants 1..100000, got '%s'", arg);
        return 0;
    }
    return czk_cli_usage_error("bench planted", usage, "unexpected option");
}

/* One mixing round (a 64-bit multiply-xorshift). */
#define ROUND(h, x) ((h) = ((h) ^ (x)) * 0x9e3779b97f4a7c15ULL, (h) ^= (h) >> 29)
#define ROUNDS4(h, x) (ROUND(h, x), ROUND(h, x), ROUND(h, x), ROUND(h, x))

static CZK_NOINLINE uint64_t instr_a(const uint64_t *v, size_t n)
{
    uint64_t h = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = v[i];
        ROUNDS4(h, x), ROUNDS4(h, x);
    }
    return h;
}

static CZK_NOINLINE uint64_t instr_b(const uint64_t *v, size_t n)
{
    uint64_t h = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = v[i];
        ROUNDS4(h, x), ROUNDS4(h, x), ROUNDS4(h, x), ROUNDS4(h, x);
    }
    return h;
}

static uint64_t instr_ref(const uint64_t *v, size_t n, int rounds)
{
    uint64_t h = 0;
    for (size_t i = 0; i < n; i++)
        for (int r = 0; r < rounds; r++) h = (h ^ v[i]) * 0x9e3779b97f4a7c15ULL, h ^= h >> 29;
    return h;
}

/* The empty asm statements keep both arms as real branches (no cmov). */
static CZK_NOINLINE uint64_t branchy(const uint32_t *v, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = v[i];
        if (x & 1) {
            s += x * 3;
            __asm__ volatile("" : "+r"(s));
        } else {
            s ^= x + 7;
            __asm__ volatile("" : "+r"(s));
        }
    }
    return s;
}

static uint64_t branchy_ref(const uint32_t *v, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s = (v[i] & 1) ? s + (uint64_t)v[i] * 3 : s ^ ((uint64_t)v[i] + 7);
    return s;
}

typedef struct node {
    uint32_t next;
    uint32_t pad0;
    uint64_t payload;
    uint64_t pad[6];
} node;

static CZK_NOINLINE uint64_t walk_array(const uint64_t *v, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return s;
}

static CZK_NOINLINE uint64_t walk_list(const node *nodes, size_t n)
{
    uint64_t s = 0;
    uint32_t p = 0;
    for (size_t i = 0; i < n; i++) {
        s += nodes[p].payload;
        p = nodes[p].next;
    }
    return s;
}

static int run(int argc, char **argv)
{
    opts o = {CASE_NONE, 0, 65536, 5};
    static const struct option lopts[] = {{"case", required_argument, 0, OPT_CASE},
                                          {"variant", required_argument, 0, OPT_VARIANT},
                                          {"iters", required_argument, 0, 'i'},
                                          {"n", required_argument, 0, 'n'},
                                          {0, 0, 0, 0}};
    czk_cli_common com;
    int rc = czk_cli_parse(argc, argv, "bench planted", usage, lopts, &o, on_opt, &com, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    if (o.kase == CASE_NONE) return czk_cli_usage_error("bench planted", usage, "--case is required");
    size_t n = (size_t)o.n;
    czk_rng rng;
    czk_rng_seed(&rng, 0x706c616e746564ULL + (uint64_t)o.kase);
    uint64_t *v64 = NULL;
    uint32_t *v32 = NULL;
    node *nodes = NULL;
    uint64_t expect = 0;
    if (o.kase == CASE_INSTR || o.kase == CASE_SAME || (o.kase == CASE_LIST && !o.b)) {
        v64 = malloc(n * sizeof *v64);
        if (!v64) return czk_cli_fail("bench planted", czk_error(CZK_ERR_NOMEM, "%zu values", n), "allocate");
        for (size_t i = 0; i < n; i++) v64[i] = czk_rng_u64(&rng);
        if (o.kase == CASE_LIST) {
            for (size_t i = 0; i < n; i++) expect += v64[i];
        } else {
            expect = instr_ref(v64, n, o.kase == CASE_INSTR && o.b ? 16 : 8);
        }
    } else if (o.kase == CASE_BRANCH) {
        v32 = malloc(n * sizeof *v32);
        if (!v32) return czk_cli_fail("bench planted", czk_error(CZK_ERR_NOMEM, "%zu values", n), "allocate");
        for (size_t i = 0; i < n; i++) {
            uint32_t x = (uint32_t)czk_rng_u64(&rng);
            v32[i] = o.b ? x : (x & ~1u); /* a: every value even, the branch always goes one way */
        }
        expect = branchy_ref(v32, n);
    } else {
        nodes = calloc(n, sizeof *nodes);
        uint32_t *perm = malloc(n * sizeof *perm);
        if (!nodes || !perm) {
            free(nodes), free(perm);
            return czk_cli_fail("bench planted", czk_error(CZK_ERR_NOMEM, "%zu nodes", n), "allocate");
        }
        /* Sattolo's algorithm: a uniformly random single cycle through all nodes */
        for (size_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = (size_t)czk_rng_below(&rng, i);
            uint32_t t = perm[i];
            perm[i] = perm[j], perm[j] = t;
        }
        for (size_t i = 0; i < n; i++) {
            nodes[i].next = perm[i];
            nodes[i].payload = czk_rng_u64(&rng);
            expect += nodes[i].payload;
        }
        free(perm);
    }
    static const char *const names[] = {"", "instr", "branch", "list", "same"};
    char cfg[64];
    snprintf(cfg, sizeof cfg, "%s/%s n=%zu", names[o.kase], o.b ? "b" : "a", n);
    if (!com.quiet) czk_bench_print_config(stdout, com.json, "planted", cfg);
    double *t = malloc((size_t)o.iters * sizeof *t);
    if (!t) {
        free(v64), free(v32), free(nodes);
        return czk_cli_fail("bench planted", czk_error(CZK_ERR_NOMEM, "samples"), "allocate");
    }
    int bad = 0;
    for (long long it = -1; it < o.iters; it++) {
        if (it == 0) czk_perf_begin();
        double t0 = czk_now();
        uint64_t got;
        switch (o.kase) {
        case CASE_INSTR: got = o.b ? instr_b(v64, n) : instr_a(v64, n); break;
        case CASE_SAME: got = instr_a(v64, n); break;
        case CASE_BRANCH: got = branchy(v32, n); break;
        default: got = o.b ? walk_list(nodes, n) : walk_array(v64, n); break;
        }
        double dt = czk_now() - t0;
        if (it >= 0) t[it] = dt;
        bad |= got != expect;
    }
    czk_perf_end();
    free(v64), free(v32), free(nodes);
    if (bad) {
        free(t);
        fprintf(stderr, "czk bench planted: result mismatch against the reference computation\n");
        return CZK_EXIT_FAIL;
    }
    czk_bench_stats st;
    czk_bench_stats_of(&st, t, (size_t)o.iters);
    free(t);
    char b0[32], b1[32], b2[32];
    if (com.json)
        printf("%s{\"case\":\"%s\",\"variant\":\"%s\",\"n\":%zu,\"min_s\":%.9g,\"median_s\":%.9g,\"max_s\":%.9g,\"ok\":true}\n",
               com.quiet ? "" : ",", names[o.kase], o.b ? "b" : "a", n, st.min, st.median, st.max);
    else
        printf("planted %-6s %s  n=%zu  pass min %s  median %s  max %s\n", names[o.kase], o.b ? "b" : "a", n,
               czk_bench_fmt_time(b0, st.min), czk_bench_fmt_time(b1, st.median), czk_bench_fmt_time(b2, st.max));
    return CZK_EXIT_OK;
}

CZK_BENCH(planted, "workloads with a known A/B difference (tests of czk diff and --counters)", run)
