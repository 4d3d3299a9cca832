/* The proving service (czk/service.h) through its C API, on the real 2KiB
 * WindowPoSt vanilla proof of tests/filecoin/vectors (filecoin-proofs'),
 * with parameters made here under their v28 name in a temporary parameter
 * cache: proofs that verify, request-id attachment, await timeouts,
 * cancel, priorities, malformed payloads, SnapDeals requests, missing
 * parameters, residency (preload / evict), status and metrics, retention,
 * the memory budget, shutdown. The gRPC front end is tested over the wire
 * by tests/server/. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/post_kind.h"
#include "czk/post_vanilla.h"
#include "czk/snap_kind.h"
#include "czk/service.h"

#define WINDOW_2K_V1_2 10 /* filecoin-proofs-api's StackedDrgWindow2KiBV1_2 */
#define WINNING_2K 0
#define MINER 1007        /* the vectors' prover id: LEB128(1007) */

static uint8_t *slurp(const char *name, size_t *len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/tests/filecoin/vectors/%s", CZK_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc(n > 0 ? (size_t)n : 1);
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) free(d), d = NULL;
    fclose(f);
    *len = (size_t)n;
    return d;
}

/* The Window vector: its bincode sector proof and JSON, read once. */
static uint8_t *g_bin;
static size_t g_bin_len;
static czk_post_json g_meta;
static char g_cache[4200];
static czk_groth16_params g_params; /* kept for the process: its vk checks proofs */
static int g_ready;

static void remove_cache(void)
{
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_cache);
    if (system(cmd) != 0) fprintf(stderr, "test_service: could not remove %s\n", g_cache);
}

static void prepare(void)
{
    if (g_ready) return;
    g_bin = slurp("vanilla-window.bin", &g_bin_len);
    REQUIRE(g_bin);
    char path[4300];
    snprintf(path, sizeof path, "%s/tests/filecoin/vectors/post-window.json", CZK_SOURCE_DIR);
    REQUIRE_OK(czk_post_json_read(&g_meta, path));
    /* the parameter cache: WindowPoSt 2KiB under its v28 name, nothing else */
    /* one cache for the whole file (a test's scratch directory goes with it) */
    const char *tmp = getenv("TMPDIR");
    snprintf(g_cache, sizeof g_cache, "%s/czk-service-params-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    REQUIRE(mkdtemp(g_cache) != NULL);
    atexit(remove_cache);
    char params[4400];
    REQUIRE_OK(czk_post_param_path(params, sizeof params, g_cache, &g_meta.shape, ".params"));
    if (access(params, R_OK) != 0) {
        czk_groth16_params p;
        uint64_t seed = 42;
        REQUIRE_OK(czk_kind_setup(&p, czk_post_proof_kind(g_meta.shape.kind), &g_meta.shape, &seed, NULL, NULL));
        REQUIRE_OK(czk_groth16_params_write_pinned(params, &p));
        czk_groth16_params_clear(&p);
    }
    REQUIRE_OK(czk_groth16_params_read(&g_params, params, CZK_GROTH16_CHECK_PINNED));
    g_ready = 1;
}

static czk_svc_bytes g_one;

/* A WindowPoSt request for the vector. */
static czk_svc_request window_request(const char *id, czk_svc_priority prio)
{
    czk_svc_request r;
    memset(&r, 0, sizeof r);
    r.request_id = id;
    r.kind = CZK_SVC_WINDOW_POST;
    r.registered_proof = WINDOW_2K_V1_2;
    r.priority = prio;
    g_one.data = g_bin;
    g_one.len = g_bin_len;
    r.vanilla_proofs = &g_one;
    r.n_vanilla_proofs = 1;
    r.miner_id = MINER;
    r.randomness.data = g_meta.randomness;
    r.randomness.len = 32;
    return r;
}

typedef struct logbuf {
    pthread_mutex_t mu;
    char text[16384];
} logbuf;

static void log_to(void *ctx, czk_log_level lv, const char *job, const char *msg)
{
    logbuf *b = ctx;
    pthread_mutex_lock(&b->mu);
    size_t n = strlen(b->text);
    snprintf(b->text + n, sizeof b->text - n, "%d [%s] %s\n", (int)lv, job ? job : "-", msg);
    pthread_mutex_unlock(&b->mu);
}

static logbuf g_log = {PTHREAD_MUTEX_INITIALIZER, ""};

static czk_service *make_service(double retention_s, uint64_t budget)
{
    czk_service *s = NULL;
    czk_service_opts o;
    memset(&o, 0, sizeof o);
    o.param_cache = g_cache;
    o.threads = 2;
    o.synth_workers = 1;
    o.retention_s = retention_s;
    o.memory_budget = budget;
    o.log = log_to;
    o.log_ctx = &g_log;
    o.log_level = CZK_LOG_DEBUG;
    if (czk_service_create(&s, &o) != CZK_OK) {
        czk__test_fail(__FILE__, __LINE__, "czk_service_create: %s", czk_last_error());
        return NULL;
    }
    return s;
}

/* The proof verifies against the vector's public data (comm_r, the
 * challenges from its randomness). */
static void check_proof(const czk_svc_result *res)
{
    REQUIRE(res->status == CZK_SVC_COMPLETED);
    REQUIRE(res->proof_len == CZK_GROTH16_PROOF_BYTES);
    czk_groth16_proof pr;
    REQUIRE_OK(czk_groth16_proof_decode(&pr, res->proof));
    CHECK_OK(czk_post_json_verify(&g_params.vk, &g_meta, &pr));
    /* one flipped byte does not */
    uint8_t bad[CZK_GROTH16_PROOF_BYTES];
    memcpy(bad, res->proof, sizeof bad);
    bad[100] ^= 1;
    czk_groth16_proof bp;
    if (czk_groth16_proof_decode(&bp, bad) == CZK_OK) CHECK(czk_post_json_verify(&g_params.vk, &g_meta, &bp) != CZK_OK);
}

CZK_TEST(window_post_proves_and_verifies)
{
    prepare();
    czk_service *s = make_service(0, 0);
    czk_svc_request r = window_request("wdpost-1007-0-[1]", CZK_SVC_PRIORITY_UNSPECIFIED);
    czk_svc_submitted sub;
    REQUIRE_OK(czk_service_submit(s, &r, &sub));
    CHECK(!strcmp(sub.job_id, "wdpost-1007-0-[1]"));
    CHECK_EQ_U64((uint64_t)sub.attached, 0);
    /* attached while pending or running */
    czk_svc_submitted again;
    REQUIRE_OK(czk_service_submit(s, &r, &again));
    CHECK(!strcmp(again.job_id, sub.job_id));
    CHECK_EQ_U64((uint64_t)again.attached, 1);
    czk_svc_result res;
    REQUIRE_OK(czk_service_await(s, sub.job_id, -1, &res));
    check_proof(&res);
    CHECK(res.total_ms >= res.synthesis_ms);
    CHECK(res.prove_ms > 0 || res.synthesis_ms > 0);
    czk_svc_result_clear(&res);
    /* completed: the same id returns the same result, not a new job */
    REQUIRE_OK(czk_service_submit(s, &r, &again));
    CHECK_EQ_U64((uint64_t)again.attached, 1);
    REQUIRE_OK(czk_service_await(s, sub.job_id, 0, &res));
    CHECK(res.status == CZK_SVC_COMPLETED && res.proof_len == CZK_GROTH16_PROOF_BYTES);
    czk_svc_result_clear(&res);
    /* an empty request id gets a UUID */
    czk_svc_request anon = window_request("", CZK_SVC_HIGH);
    REQUIRE_OK(czk_service_submit(s, &anon, &sub));
    CHECK(strlen(sub.job_id) == 36 && sub.job_id[14] == '4');
    REQUIRE_OK(czk_service_await(s, sub.job_id, -1, &res));
    check_proof(&res);
    czk_svc_result_clear(&res);
    czk_svc_status st;
    REQUIRE_OK(czk_service_status(s, &st));
    CHECK_EQ_U64(st.completed, 2);
    CHECK_EQ_U64(st.completed_by_kind[CZK_SVC_WINDOW_POST], 2);
    int hot = 0;
    for (size_t i = 0; i < st.n_srs; i++)
        if (!strcmp(st.srs[i].circuit_id, "wpost-2k") && st.srs[i].tier == CZK_SVC_HOT && st.srs[i].size_bytes > 0 &&
            st.srs[i].ref_count == 0)
            hot = 1;
    CHECK_MSG(hot, "wpost-2k is resident after its jobs");
    czk_svc_status_clear(&st);
    czk_service_destroy(s);
}

/* Curio's WindowPoSt request_id: "wdpost-<miner>-<partition>-" and Go's %d
 * of randomness[:8] ("[12 34 ...]"). */
static void wdpost_id(char *out, size_t cap, uint64_t miner, const uint8_t randomness[32])
{
    int n = snprintf(out, cap, "wdpost-%llu-0-[", (unsigned long long)miner);
    for (int i = 0; i < 8; i++) n += snprintf(out + n, cap - (size_t)n, "%s%u", i ? " " : "", randomness[i]);
    snprintf(out + n, cap - (size_t)n, "]");
}

/* Another partition of the vector's deadline: its randomness and miner,
 * other sectors (czk gen-post's generator), bincode per sector in enc. */
static int other_partition(czk_post_json *m, uint8_t **enc, czk_svc_bytes parts[2], uint64_t seed)
{
    czk_post_vanilla v;
    czk_post_gen_opts go = {g_meta.randomness, 1, MINER};
    if (czk_post_gen_ex(&v, m, &g_meta.shape, 2, 2, seed, &go) != CZK_OK) return 0;
    size_t nb = czk_post_sector_proof_bytes(&g_meta.shape.tree, g_meta.shape.sector_challenges), len = 0;
    *enc = malloc(2 * nb);
    int ok = *enc != NULL;
    for (int i = 0; ok && i < 2; i++) {
        ok = czk_post_sector_proof_encode(*enc + i * nb, nb, &len, &v.proofs[i], &g_meta.shape.tree) == CZK_OK;
        parts[i].data = *enc + i * nb;
        parts[i].len = len;
    }
    czk_post_gen_vanilla_free(&v);
    return ok;
}

/* Curio proves every WindowPoSt partition of a deadline as a task of its
 * own, with partition_index 0 and one request_id for all of them: two such
 * requests submitted together are two jobs, each proof verifies against its
 * own sectors and not the other's; a true retry attaches; after completion
 * the same id with the first content gets the first result, and with new
 * content (a redone request) a new proof, never a stale one. */
CZK_TEST(one_request_id_two_partitions)
{
    prepare();
    czk_post_json m2, m3;
    uint8_t *enc2 = NULL, *enc3 = NULL;
    czk_svc_bytes p2[2], p3[2];
    REQUIRE(other_partition(&m2, &enc2, p2, 7));
    REQUIRE(other_partition(&m3, &enc3, p3, 8));
    char id[128];
    wdpost_id(id, sizeof id, MINER, g_meta.randomness);
    czk_service *s = make_service(600, 0);
    czk_svc_request a = window_request(id, CZK_SVC_HIGH);
    czk_svc_request b = a;
    b.vanilla_proofs = p2;
    b.n_vanilla_proofs = 2;
    czk_svc_submitted sa, sb, again;
    REQUIRE_OK(czk_service_submit(s, &a, &sa));
    REQUIRE_OK(czk_service_submit(s, &b, &sb));
    CHECK(!strcmp(sa.job_id, id));
    CHECK_EQ_U64((uint64_t)sb.attached, 0);
    CHECK_MSG(strncmp(sb.job_id, id, strlen(id)) == 0 && sb.job_id[strlen(id)] == '~' &&
                  strlen(sb.job_id) == strlen(id) + 17,
              "the second request's job id is the request_id, '~' and 16 hex digits: '%s'", sb.job_id);
    /* a retry of each (another priority is the same request) attaches to its own job */
    b.priority = CZK_SVC_NORMAL;
    REQUIRE_OK(czk_service_submit(s, &b, &again));
    CHECK(again.attached && !strcmp(again.job_id, sb.job_id));
    REQUIRE_OK(czk_service_submit(s, &a, &again));
    CHECK(again.attached && !strcmp(again.job_id, sa.job_id));
    czk_svc_result ra, rb;
    REQUIRE_OK(czk_service_await(s, sa.job_id, -1, &ra));
    REQUIRE_OK(czk_service_await(s, sb.job_id, -1, &rb));
    check_proof(&ra);
    REQUIRE(rb.status == CZK_SVC_COMPLETED && rb.proof_len == CZK_GROTH16_PROOF_BYTES);
    czk_groth16_proof pb;
    REQUIRE_OK(czk_groth16_proof_decode(&pb, rb.proof));
    CHECK_OK(czk_post_json_verify(&g_params.vk, &m2, &pb));
    CHECK_MSG(czk_post_json_verify(&g_params.vk, &g_meta, &pb) != CZK_OK, "B's proof must not verify for A");
    czk_error_clear();
    CHECK(memcmp(ra.proof, rb.proof, CZK_GROTH16_PROOF_BYTES) != 0);
    /* completed: the first content again is A's result */
    REQUIRE_OK(czk_service_submit(s, &a, &again));
    CHECK(again.attached && !strcmp(again.job_id, sa.job_id));
    /* a redone request under the same id (new content) after both completed: a new proof of it */
    czk_svc_request c = a;
    c.vanilla_proofs = p3;
    c.n_vanilla_proofs = 2;
    czk_svc_submitted sc;
    REQUIRE_OK(czk_service_submit(s, &c, &sc));
    CHECK(!sc.attached && strcmp(sc.job_id, sa.job_id) && strcmp(sc.job_id, sb.job_id));
    czk_svc_result rc;
    REQUIRE_OK(czk_service_await(s, sc.job_id, -1, &rc));
    REQUIRE(rc.status == CZK_SVC_COMPLETED);
    czk_groth16_proof pc;
    REQUIRE_OK(czk_groth16_proof_decode(&pc, rc.proof));
    CHECK_OK(czk_post_json_verify(&g_params.vk, &m3, &pc));
    czk_svc_result_clear(&ra);
    czk_svc_result_clear(&rb);
    czk_svc_result_clear(&rc);
    czk_service_destroy(s);
    free(enc2);
    free(enc3);
    czk_post_json_free(&m2);
    czk_post_json_free(&m3);
}

CZK_TEST(await_timeout_unknown_and_retention)
{
    prepare();
    czk_service *s = make_service(0.3, 0);
    czk_svc_result res;
    CHECK(czk_service_await(s, "nosuch", 0, &res) == CZK_ERR_NOT_FOUND);
    CHECK(strstr(czk_last_error(), "nosuch") != NULL);
    int was;
    CHECK(czk_service_cancel(s, "nosuch", &was) == CZK_ERR_NOT_FOUND);
    czk_svc_request r = window_request("t1", CZK_SVC_NORMAL);
    czk_svc_submitted sub;
    REQUIRE_OK(czk_service_submit(s, &r, &sub));
    /* the job loads parameters, synthesizes and proves: not done within 0 ms */
    REQUIRE_OK(czk_service_await(s, "t1", 0, &res));
    CHECK(res.status == CZK_SVC_TIMEOUT && res.proof == NULL);
    REQUIRE_OK(czk_service_await(s, "t1", 1, &res));
    CHECK(res.status == CZK_SVC_TIMEOUT || res.status == CZK_SVC_COMPLETED);
    czk_svc_result_clear(&res);
    REQUIRE_OK(czk_service_await(s, "t1", 600000, &res));
    check_proof(&res);
    czk_svc_result_clear(&res);
    /* kept for retention_s (0.3 s), then forgotten by the reaper (every second) */
    czk_status st = CZK_OK;
    for (int i = 0; i < 50 && (st = czk_service_await(s, "t1", 0, &res)) == CZK_OK; i++) {
        czk_svc_result_clear(&res);
        usleep(100000);
    }
    CHECK(st == CZK_ERR_NOT_FOUND);
    czk_service_destroy(s);
}

CZK_TEST(cancel_pending_and_running)
{
    prepare();
    czk_service *s = make_service(0, 0);
    enum { N = 4 };
    char ids[N][16];
    czk_svc_submitted sub;
    for (int i = 0; i < N; i++) {
        snprintf(ids[i], sizeof ids[i], "c%d", i);
        czk_svc_request r = window_request(ids[i], CZK_SVC_LOW);
        REQUIRE_OK(czk_service_submit(s, &r, &sub));
    }
    /* the last is queued behind three (one synthesis worker): cancel it and the first */
    int was_last = -1, was_first = -1;
    REQUIRE_OK(czk_service_cancel(s, ids[N - 1], &was_last));
    REQUIRE_OK(czk_service_cancel(s, ids[0], &was_first));
    czk_svc_result res;
    REQUIRE_OK(czk_service_await(s, ids[N - 1], -1, &res));
    CHECK(res.status == CZK_SVC_CANCELLED && res.proof == NULL);
    CHECK(strstr(res.error, "cancelled") != NULL);
    REQUIRE_OK(czk_service_await(s, ids[0], -1, &res));
    CHECK(res.status == CZK_SVC_CANCELLED);
    for (int i = 1; i < N - 1; i++) {
        REQUIRE_OK(czk_service_await(s, ids[i], -1, &res));
        check_proof(&res);
        czk_svc_result_clear(&res);
    }
    /* cancelling a finished job changes nothing */
    REQUIRE_OK(czk_service_cancel(s, ids[1], &was_first));
    CHECK_EQ_U64((uint64_t)was_first, 0);
    REQUIRE_OK(czk_service_await(s, ids[1], 0, &res));
    CHECK(res.status == CZK_SVC_COMPLETED);
    czk_svc_result_clear(&res);
    /* a cancelled id submitted again is a new job, proven */
    czk_svc_request r = window_request(ids[0], CZK_SVC_NORMAL);
    REQUIRE_OK(czk_service_submit(s, &r, &sub));
    CHECK_EQ_U64((uint64_t)sub.attached, 0);
    REQUIRE_OK(czk_service_await(s, ids[0], -1, &res));
    check_proof(&res);
    czk_svc_result_clear(&res);
    czk_svc_status st;
    REQUIRE_OK(czk_service_status(s, &st));
    CHECK_EQ_U64(st.cancelled, 2);
    CHECK_EQ_U64(st.memory_reserved <= st.memory_limit, 1);
    czk_svc_status_clear(&st);
    czk_service_destroy(s);
}

/* CRITICAL work submitted after queued NORMAL work finishes before it. */
CZK_TEST(critical_overtakes_normal)
{
    prepare();
    czk_service *s = make_service(0, 0);
    int already;
    uint64_t ms;
    REQUIRE_OK(czk_service_preload(s, "wpost-2k", &already, &ms));
    enum { N = 4 };
    char ids[N][16];
    double t_sub[N + 1];
    czk_svc_submitted sub;
    for (int i = 0; i < N; i++) {
        snprintf(ids[i], sizeof ids[i], "n%d", i);
        czk_svc_request r = window_request(ids[i], CZK_SVC_NORMAL);
        t_sub[i] = czk_now();
        REQUIRE_OK(czk_service_submit(s, &r, &sub));
    }
    /* every normal job is in the engine (running) before the critical one comes */
    for (int k = 0; k < 2000; k++) {
        czk_svc_status st;
        REQUIRE_OK(czk_service_status(s, &st));
        uint32_t in = st.queues[2].in_progress + (uint32_t)st.completed;
        czk_svc_status_clear(&st);
        if (in >= N) break;
        usleep(2000);
    }
    czk_svc_request r = window_request("crit", CZK_SVC_CRITICAL);
    t_sub[N] = czk_now();
    REQUIRE_OK(czk_service_submit(s, &r, &sub));
    double done[N + 1];
    czk_svc_result res;
    for (int i = 0; i <= N; i++) {
        REQUIRE_OK(czk_service_await(s, i < N ? ids[i] : "crit", -1, &res));
        check_proof(&res);
        done[i] = t_sub[i] + (double)res.total_ms / 1e3;
        czk_svc_result_clear(&res);
    }
    CHECK_MSG(done[N] < done[N - 1], "critical done at %.3f s, the last normal at %.3f s", done[N] - t_sub[0],
              done[N - 1] - t_sub[0]);
    czk_service_destroy(s);
}

CZK_TEST(malformed_requests_are_refused)
{
    prepare();
    czk_service *s = make_service(0, 0);
    czk_svc_submitted sub;
    czk_svc_request r = window_request("m", CZK_SVC_NORMAL);
    r.kind = CZK_SVC_KIND_UNSPECIFIED;
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "proof_kind 0") != NULL);
    r.kind = (czk_svc_kind)9;
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_INVALID_ARG);
    r = window_request("m", CZK_SVC_NORMAL);
    r.randomness.len = 31;
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "randomness") != NULL);
    r = window_request("m", CZK_SVC_NORMAL);
    r.registered_proof = WINNING_2K;
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "WinningPoSt") != NULL);
    r = window_request("m", CZK_SVC_NORMAL);
    r.sector_size = 8u << 20;
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "sector_size") != NULL);
    r = window_request("m", CZK_SVC_NORMAL);
    r.n_vanilla_proofs = 0;
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_INVALID_ARG);
    /* a truncated bincode proof: the error names vanilla_proofs and an offset */
    czk_svc_bytes cut = {g_bin, g_bin_len - 7};
    r = window_request("m", CZK_SVC_NORMAL);
    r.vanilla_proofs = &cut;
    czk_status st = czk_service_submit(s, &r, &sub);
    CHECK(st == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(czk_last_error(), "vanilla_proofs") != NULL, "%s", czk_last_error());
    /* garbage bytes */
    uint8_t junk[64];
    memset(junk, 0xa5, sizeof junk);
    czk_svc_bytes jb = {junk, sizeof junk};
    r.vanilla_proofs = &jb;
    st = czk_service_submit(s, &r, &sub);
    CHECK_MSG(czk_service_grpc_code(st) == 3, "garbage vanilla: %s", czk_last_error());
    /* a flipped byte inside a path: the native check refuses it */
    uint8_t *bad = malloc(g_bin_len);
    REQUIRE(bad);
    memcpy(bad, g_bin, g_bin_len);
    bad[g_bin_len / 2] ^= 0x01;
    czk_svc_bytes bb = {bad, g_bin_len};
    r.vanilla_proofs = &bb;
    st = czk_service_submit(s, &r, &sub);
    CHECK_MSG(czk_service_grpc_code(st) == 3, "flipped vanilla byte: %s", czk_last_error());
    free(bad);
    /* other randomness: the proven leaves are not the challenged ones */
    uint8_t rnd[32];
    memcpy(rnd, g_meta.randomness, 32);
    rnd[0] ^= 1;
    r = window_request("m", CZK_SVC_NORMAL);
    r.randomness.data = rnd;
    st = czk_service_submit(s, &r, &sub);
    CHECK_MSG(czk_service_grpc_code(st) == 3, "other randomness: %s", czk_last_error());
    /* PoRep: not a C1 */
    czk_svc_request p;
    memset(&p, 0, sizeof p);
    p.kind = CZK_SVC_POREP;
    const char *txt = "{\"SectorNum\": 1, \"Phase1Out\": \"@@not base64@@\", \"SectorSize\": 2048}";
    p.vanilla_proof.data = (const uint8_t *)txt;
    p.vanilla_proof.len = strlen(txt);
    st = czk_service_submit(s, &p, &sub);
    CHECK(czk_service_grpc_code(st) == 3);
    CHECK_MSG(strstr(czk_last_error(), "Phase1Out") != NULL, "%s", czk_last_error());
    p.vanilla_proof.len = 0;
    CHECK(czk_service_submit(s, &p, &sub) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "vanilla_proof") != NULL);
    /* request ids: control characters, too long */
    r = window_request("bad\nid", CZK_SVC_NORMAL);
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_INVALID_ARG);
    char longid[CZK_SVC_ID_MAX + 8];
    memset(longid, 'x', sizeof longid - 1);
    longid[sizeof longid - 1] = 0;
    r = window_request(longid, CZK_SVC_NORMAL);
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_INVALID_ARG);
    czk_svc_status stt;
    REQUIRE_OK(czk_service_status(s, &stt));
    CHECK_EQ_U64(stt.completed + stt.failed, 0); /* nothing was queued */
    czk_svc_status_clear(&stt);
    czk_service_destroy(s);
}

CZK_TEST(snap_requests_and_missing_params_fail_as_jobs)
{
    prepare();
    czk_service *s = make_service(0, 0);
    /* a SnapDeals request: the real 2KiB partition proof and its commitments,
     * decoded and checked at submission; the parameters are not in the
     * cache, so the job fails naming the v28 file it looked for */
    size_t sl;
    uint8_t *sbin = slurp("snap-partition-0.bin", &sl);
    REQUIRE(sbin);
    czk_snap_json sm;
    char spath[4300];
    snprintf(spath, sizeof spath, "%s/tests/filecoin/vectors/snap.json", CZK_SOURCE_DIR);
    REQUIRE_OK(czk_snap_json_read(&sm, spath));
    czk_svc_bytes part = {sbin, sl};
    czk_svc_request r;
    memset(&r, 0, sizeof r);
    r.request_id = "snap";
    r.kind = CZK_SVC_SNAP;
    r.registered_proof = 0; /* StackedDrg2KiBV1 */
    r.vanilla_proofs = &part;
    r.n_vanilla_proofs = 1;
    r.comm_r_old = (czk_svc_bytes){sm.comm_r_old, 32};
    r.comm_r_new = (czk_svc_bytes){sm.comm_r_new, 32};
    r.comm_d_new = (czk_svc_bytes){sm.comm_d_new, 32};
    czk_svc_submitted sub;
    REQUIRE_OK(czk_service_submit(s, &r, &sub));
    czk_svc_result res;
    REQUIRE_OK(czk_service_await(s, "snap", -1, &res));
    CHECK(res.status == CZK_SVC_FAILED);
    CHECK_MSG(strstr(res.error, "v28-empty-sector-update") != NULL && strstr(res.error, g_cache) != NULL, "%s",
              res.error);
    /* malformed requests are refused at submission, naming the field */
    r.request_id = "snap2";
    r.comm_d_new.len = 31;
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "comm_d_new") != NULL);
    r.comm_d_new.len = 32;
    r.registered_proof = 3; /* 32GiB: 16 partitions */
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(czk_last_error(), "1 partition proofs, a StackedDrg32GiBV1 update has 16") != NULL, "%s",
              czk_last_error());
    r.registered_proof = 0;
    r.comm_r_new = (czk_svc_bytes){sm.comm_r_old, 32}; /* another comm_r_new: the native check fails */
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_VERIFY);
    CHECK_MSG(strstr(czk_last_error(), "vanilla_proofs (StackedDrg2KiBV1)") != NULL, "%s", czk_last_error());
    r.comm_r_new = (czk_svc_bytes){sm.comm_r_new, 32};
    part.len = sl - 1; /* cut short: the reader names the offset */
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(czk_last_error(), "snap partition proof 0: challenge 9, proof_r_new") != NULL &&
                  strstr(czk_last_error(), "byte offset") != NULL,
              "%s", czk_last_error());
    free(sbin);
    /* WinningPoSt: a valid request whose parameters are not in the cache */
    size_t wl;
    uint8_t *wbin = slurp("vanilla-winning.bin", &wl);
    REQUIRE(wbin);
    czk_post_json wm;
    char path[4300];
    snprintf(path, sizeof path, "%s/tests/filecoin/vectors/post-winning.json", CZK_SOURCE_DIR);
    REQUIRE_OK(czk_post_json_read(&wm, path));
    czk_svc_bytes wb = {wbin, wl};
    memset(&r, 0, sizeof r);
    r.request_id = "win";
    r.kind = CZK_SVC_WINNING_POST;
    r.registered_proof = WINNING_2K;
    r.vanilla_proofs = &wb;
    r.n_vanilla_proofs = 1;
    r.miner_id = MINER;
    r.randomness = (czk_svc_bytes){wm.randomness, 32};
    REQUIRE_OK(czk_service_submit(s, &r, &sub));
    REQUIRE_OK(czk_service_await(s, "win", -1, &res));
    CHECK(res.status == CZK_SVC_FAILED);
    CHECK_MSG(strstr(res.error, "v28-proof-of-spacetime-fallback") != NULL && strstr(res.error, g_cache) != NULL,
              "%s", res.error);
    czk_post_json_free(&wm);
    free(wbin);
    czk_svc_status st;
    REQUIRE_OK(czk_service_status(s, &st));
    CHECK_EQ_U64(st.failed, 2);
    CHECK_EQ_U64(st.failed_by_kind[CZK_SVC_SNAP], 1);
    CHECK_EQ_U64(st.failed_by_kind[CZK_SVC_WINNING_POST], 1);
    czk_svc_status_clear(&st);
    czk_service_destroy(s);
}

CZK_TEST(preload_evict_status_metrics)
{
    prepare();
    czk_service *s = make_service(0, 0);
    int already = -1, was = -1;
    uint64_t ms, freed;
    REQUIRE_OK(czk_service_preload(s, "wpost-2k", &already, &ms));
    CHECK_EQ_U64((uint64_t)already, 0);
    REQUIRE_OK(czk_service_preload(s, "wpost-2k", &already, &ms));
    CHECK_EQ_U64((uint64_t)already, 1);
    CHECK(czk_service_preload(s, "porep-3k", &already, &ms) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "porep-32g") != NULL); /* the list of known ids */
    CHECK(czk_service_preload(s, "snap-32g", &already, &ms) == CZK_ERR_IO); /* a kind czk proves, no file */
    CHECK_MSG(strstr(czk_last_error(), "v28-empty-sector-update") != NULL, "%s", czk_last_error());
    /* a missing file names itself */
    CHECK(czk_service_preload(s, "porep-2k", &already, &ms) == CZK_ERR_IO);
    CHECK_MSG(strstr(czk_last_error(), g_cache) != NULL, "%s", czk_last_error());
    char *json = NULL;
    REQUIRE_OK(czk_service_status_json(s, &json));
    json_error_t jerr;
    json_t *doc = json_loads(json, 0, &jerr);
    CHECK_MSG(doc != NULL, "status JSON: %s", jerr.text);
    if (doc) {
        CHECK(json_is_integer(json_object_get(doc, "uptime_secs")));
        json_t *srs = json_object_get(json_object_get(doc, "allocations"), "srs");
        CHECK(json_is_array(srs) && json_array_size(srs) >= 1);
        json_t *e0 = json_array_get(srs, 0);
        CHECK(!strcmp(json_string_value(json_object_get(e0, "circuit_id")), "wpost-2k"));
        CHECK(!strcmp(json_string_value(json_object_get(e0, "tier")), "hot"));
        CHECK(json_integer_value(json_object_get(json_object_get(doc, "memory"), "budget_bytes")) > 0);
        json_decref(doc);
    }
    free(json);
    REQUIRE_OK(czk_service_evict(s, "wpost-2k", &was, &freed));
    CHECK_EQ_U64((uint64_t)was, 1);
    CHECK(freed > 1000);
    REQUIRE_OK(czk_service_evict(s, "wpost-2k", &was, &freed));
    CHECK_EQ_U64((uint64_t)was, 0);
    czk_svc_status st;
    REQUIRE_OK(czk_service_status(s, &st));
    int cold = 0;
    for (size_t i = 0; i < st.n_srs; i++)
        if (!strcmp(st.srs[i].circuit_id, "wpost-2k")) cold = st.srs[i].tier == CZK_SVC_COLD && st.srs[i].size_bytes > 0;
    CHECK_MSG(cold, "wpost-2k on disk only after evict");
    CHECK_EQ_U64(st.resident_bytes, 0);
    czk_svc_status_clear(&st);
    /* a proof, then the metrics count it in cuzk's and czk's names */
    czk_svc_request r = window_request("mx", CZK_SVC_NORMAL);
    czk_svc_submitted sub;
    REQUIRE_OK(czk_service_submit(s, &r, &sub));
    czk_svc_result res;
    REQUIRE_OK(czk_service_await(s, "mx", -1, &res));
    check_proof(&res);
    czk_svc_result_clear(&res);
    char *m = NULL;
    REQUIRE_OK(czk_service_metrics(s, &m));
    CHECK(strstr(m, "cuzk_proofs_completed_total 1\n") != NULL);
    CHECK(strstr(m, "cuzk_proofs_completed{proof_kind=\"window_post\"} 1\n") != NULL);
    CHECK(strstr(m, "cuzk_proof_duration_seconds_count{proof_kind=\"window_post\"} 1\n") != NULL);
    CHECK(strstr(m, "czk_stage_duration_seconds_bucket{stage=\"synthesis\",proof_kind=\"window_post\",le=\"+Inf\"} 1\n") !=
          NULL);
    CHECK(strstr(m, "czk_memory_budget_bytes ") != NULL);
    CHECK(strstr(m, "czk_resident_bytes{what=\"params\"} ") != NULL);
    free(m);
    czk_service_destroy(s);
    /* the log told the story */
    CHECK(strstr(g_log.text, "loaded wpost-2k") != NULL);
    CHECK(strstr(g_log.text, "[mx] completed") != NULL);
}

/* Copy file src to dst with src's mtime (so that its checksum sidecar stays
 * fresh); 1 on success. */
static int copy_with_mtime(const char *src, const char *dst)
{
    size_t n = 0;
    FILE *f = fopen(src, "rb");
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n ? n : 1);
    int ok = b && fread(b, 1, n, f) == n;
    fclose(f);
    FILE *g = ok ? fopen(dst, "wb") : NULL;
    ok = g && fwrite(b, 1, n, g) == n;
    if (g) ok = fclose(g) == 0 && ok;
    free(b);
    struct stat st;
    if (ok && stat(src, &st) == 0) {
        struct timespec ts[2] = {st.st_atim, st.st_mtim};
        ok = utimensat(AT_FDCWD, dst, ts, 0) == 0;
    }
    return ok;
}

/* Overwrite 8 bytes at off of path, keeping its size and mtime. */
static int corrupt_keep_mtime(const char *path, long off)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    FILE *f = fopen(path, "r+b");
    if (!f) return 0;
    int ok = fseek(f, off, SEEK_SET) == 0 && fwrite("\x5a\x5a\x5a\x5a\x5a\x5a\x5a\x5a", 1, 8, f) == 8;
    ok = fclose(f) == 0 && ok;
    struct timespec ts[2] = {st.st_atim, st.st_mtim};
    return ok && utimensat(AT_FDCWD, path, ts, 0) == 0;
}

static czk_svc_outcome prove_once(czk_service *s, const char *id, czk_svc_result *res)
{
    czk_svc_request r = window_request(id, CZK_SVC_NORMAL);
    czk_svc_submitted sub;
    if (czk_service_submit(s, &r, &sub) != CZK_OK) return CZK_SVC_UNKNOWN;
    if (czk_service_await(s, sub.job_id, -1, res) != CZK_OK) return CZK_SVC_UNKNOWN;
    return res->status;
}

/* Parameters streamed from disk (tier WARM), as those that do not fit the
 * budget beside a partition are: the proof verifies; the daemon survives
 * the file being corrupted in place (the job FAILS naming the file, the
 * section, point and offset), truncated under it (the
 * entry is loaded again: FAILED naming the file) and restored (proven
 * again). A budget too small even for the streamed form is refused with the
 * budget that would do. */
CZK_TEST(streamed_parameters_and_a_file_changed_under_them)
{
    prepare();
    char dir[4300], src[4400], dst[4400], scsrc[4500], scdst[4500];
    snprintf(dir, sizeof dir, "%s/streamed", czk_test_tmpdir());
    REQUIRE(mkdir(dir, 0755) == 0);
    REQUIRE_OK(czk_post_param_path(src, sizeof src, g_cache, &g_meta.shape, ".params"));
    REQUIRE_OK(czk_post_param_path(dst, sizeof dst, dir, &g_meta.shape, ".params"));
    snprintf(scsrc, sizeof scsrc, "%s.czkcheck", src);
    snprintf(scdst, sizeof scdst, "%s.czkcheck", dst);
    REQUIRE(copy_with_mtime(src, dst) && copy_with_mtime(scsrc, scdst));
    /* streamed on request (stream_params 1): at 2KiB the readers' block
     * buffers alone outweigh the parameters, so "auto" keeps them resident */
    uint64_t chunk = 1 << 20;
    czk_service_opts o;
    memset(&o, 0, sizeof o);
    o.param_cache = dir;
    o.threads = 2;
    o.synth_workers = 1;
    o.stream_chunk_bytes = chunk;
    o.log = log_to;
    o.log_ctx = &g_log;
    o.log_level = CZK_LOG_DEBUG;
    o.stream_params = 1;
    o.memory_budget = 256 << 20;
    czk_service *s = NULL;
    REQUIRE_OK(czk_service_create(&s, &o));
    czk_svc_result res;
    czk_svc_outcome oc = prove_once(s, "streamed-1", &res);
    CHECK_MSG(oc == CZK_SVC_COMPLETED, "streamed: %d '%s' (%s)", oc, res.error, czk_last_error());
    if (oc == CZK_SVC_COMPLETED) check_proof(&res);
    czk_svc_result_clear(&res);
    czk_svc_status st;
    REQUIRE_OK(czk_service_status(s, &st));
    int warm = 0;
    for (size_t i = 0; i < st.n_srs; i++)
        if (!strcmp(st.srs[i].circuit_id, "wpost-2k") && st.srs[i].tier == CZK_SVC_WARM) warm = 1;
    CHECK_MSG(warm, "wpost-2k is WARM (streamed)");
    czk_svc_status_clear(&st);
    pthread_mutex_lock(&g_log.mu);
    CHECK(strstr(g_log.text, "wpost-2k: parameters streamed from") != NULL);
    pthread_mutex_unlock(&g_log.mu);
    /* corrupted in place (size and mtime kept): the pass's checksum differs
     * from the sidecar (under a sidecar that vouches for the points the pass
     * decodes without curve checks, so the checksum is what refuses them) */
    REQUIRE(corrupt_keep_mtime(dst, 4096));
    oc = prove_once(s, "streamed-2", &res);
    CHECK_MSG(oc == CZK_SVC_FAILED && strstr(res.error, dst) && strstr(res.error, "checksum differs") &&
                  strstr(res.error, "remove the sidecar to validate them in full"),
              "corrupted: %d '%s'", oc, res.error);
    czk_svc_result_clear(&res);
    /* truncated under it: loaded again, which fails naming the file */
    REQUIRE(truncate(dst, 1000) == 0);
    oc = prove_once(s, "streamed-3", &res);
    CHECK_MSG(oc == CZK_SVC_FAILED && strstr(res.error, dst), "truncated: %d '%s'", oc, res.error);
    czk_svc_result_clear(&res);
    /* restored: proven again */
    REQUIRE(copy_with_mtime(src, dst));
    oc = prove_once(s, "streamed-4", &res);
    CHECK_MSG(oc == CZK_SVC_COMPLETED, "restored: %d '%s'", oc, res.error);
    if (oc == CZK_SVC_COMPLETED) check_proof(&res);
    czk_svc_result_clear(&res);
    czk_service_destroy(s);
    /* too small even for the streamed form: refused, saying what would do */
    o.memory_budget = 64 << 10;
    REQUIRE_OK(czk_service_create(&s, &o));
    czk_svc_request r = window_request("tiny", CZK_SVC_NORMAL);
    czk_svc_submitted sub;
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_NOMEM);
    CHECK_MSG(strstr(czk_last_error(), "even with its parameters streamed") &&
                  strstr(czk_last_error(), "raise [memory] total_budget"),
              "%s", czk_last_error());
    czk_service_destroy(s);
}

CZK_TEST(budget_and_shutdown)
{
    prepare();
    /* 64 KiB cannot hold the 2KiB WindowPoSt parameters */
    czk_service *s = make_service(0, 64 << 10);
    czk_svc_request r = window_request("big", CZK_SVC_NORMAL);
    czk_svc_submitted sub;
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_NOMEM);
    CHECK(czk_service_grpc_code(CZK_ERR_NOMEM) == 8);
    CHECK(strstr(czk_last_error(), "memory budget") != NULL);
    czk_service_destroy(s);
    /* shutdown with cancel: queued work is cancelled, waiters learn it, then no submits */
    s = make_service(0, 0);
    for (int i = 0; i < 3; i++) {
        char id[16];
        snprintf(id, sizeof id, "s%d", i);
        r = window_request(id, CZK_SVC_NORMAL);
        REQUIRE_OK(czk_service_submit(s, &r, &sub));
    }
    czk_service_shutdown(s, 1);
    czk_svc_result res;
    REQUIRE_OK(czk_service_await(s, "s2", -1, &res));
    CHECK(res.status == CZK_SVC_CANCELLED || res.status == CZK_SVC_COMPLETED);
    czk_svc_result_clear(&res);
    r = window_request("late", CZK_SVC_NORMAL);
    CHECK(czk_service_submit(s, &r, &sub) == CZK_ERR_UNAVAILABLE);
    CHECK(czk_service_grpc_code(CZK_ERR_UNAVAILABLE) == 14);
    czk_service_destroy(s);
}
