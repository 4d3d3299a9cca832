/* czk client: the operator's gRPC client for a czk serve (or cuzk) daemon,
 * one cuzk.v1.ProvingEngine call per sub-command (docs/serve.md#czk-client).
 * The calls are server/server.h's C API; this file parses, reads the payload
 * files, and prints. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "common/fileio.h"
#include "czk/czk.h"
#include "server/server.h"

#define CMD "client"

static const char usage[] =
    "usage: czk client SUBCOMMAND --addr ADDR [options]\n\n"
    "Talk to a czk serve (or cuzk) daemon over gRPC (cuzk.v1.ProvingEngine).\n\n"
    "  prove (--c1 C1.json | --vanilla FILE ...) [request options] [-o PROOF.bin]\n"
    "                   submit and wait in one call (Prove); on COMPLETED write the\n"
    "                   proof to PROOF.bin (atomically) and print the job's times\n"
    "  submit (--c1 C1.json | --vanilla FILE ...) [request options]\n"
    "                   queue a job (SubmitProof); print its id\n"
    "  await JOB_ID [--timeout-ms N] [-o PROOF.bin]\n"
    "                   wait for a job (AwaitProof; N = 0, the default, waits as long\n"
    "                   as the server lets it), as prove\n"
    "  cancel JOB_ID    CancelProof; print whether it was running\n"
    "  status           GetStatus: queues per kind, loaded parameters, totals, uptime\n"
    "  metrics          GetMetrics: the Prometheus text as it is\n"
    "  preload CIRCUIT_ID, evict CIRCUIT_ID\n"
    "                   PreloadSRS / EvictSRS (porep-32g, wpost-2k, winning-512m, ...)\n\n"
    "Request options (prove, submit):\n"
    "  --c1 FILE                the C1 envelope JSON, sent as vanilla_proof (kind porep)\n"
    "  --vanilla FILE           one bincode vanilla proof, sent in vanilla_proofs; repeat\n"
    "                           it, in order (PoSt: one per sector; Snap: one per partition)\n"
    "  --kind K                 porep, snap, window-post, winning-post (--vanilla needs it)\n"
    "  --registered-proof N     the filecoin-proofs-api number (PoSt, Snap)\n"
    "  --sector-size SIZE       e.g. 32GiB; default 0: the server derives it\n"
    "  --sector-number N, --miner-id N, --partition N\n"
    "  --randomness HEX         PoSt: 32 bytes as 64 hex digits\n"
    "  --comm-r-old HEX, --comm-r-new HEX, --comm-d-new HEX\n"
    "                           Snap: 32 bytes each\n"
    "  --priority P             low, normal, high, critical; default: the kind's\n"
    "  --request-id ID          a retry with the same id attaches to the same job\n"
    "  -o, --output FILE        prove, await: where the proof goes (partitions x 192 bytes)\n\n"
    "Connection (every sub-command):\n"
    "  --addr ADDR              host:port, unix:///path (any gRPC target), or a comma-\n"
    "                           separated list of IPv4 a.b.c.d:port called round robin;\n"
    "                           default $CZK_ADDR\n"
    "  --tls-ca FILE            TLS, the server's certificate checked against FILE (PEM)\n"
    "  --tls-cert FILE --tls-key FILE\n"
    "                           the client's certificate and key (mutual TLS)\n"
    "  --deadline SECONDS       give up a call after this long (UNAVAILABLE); default none\n"
    "  --json                   one JSON object on stdout\n"
    "  --quiet                  prove, await, submit: print no summary (submit: the id only)\n\n"
    "Exit status: 0 success (prove, await: the job COMPLETED); 1 the call failed (the\n"
    "message names the gRPC code: UNAVAILABLE, INVALID_ARGUMENT, NOT_FOUND, ...), or\n"
    "the job FAILED, was CANCELLED, or is not done yet (TIMEOUT); 2 usage error.\n";

enum {
    OPT_ADDR = CZK_OPT_FIRST_FREE,
    OPT_TLS_CA,
    OPT_TLS_CERT,
    OPT_TLS_KEY,
    OPT_DEADLINE,
    OPT_C1,
    OPT_VANILLA,
    OPT_KIND,
    OPT_REGISTERED_PROOF,
    OPT_SECTOR_SIZE,
    OPT_SECTOR_NUMBER,
    OPT_MINER_ID,
    OPT_RANDOMNESS,
    OPT_PARTITION,
    OPT_PRIORITY,
    OPT_REQUEST_ID,
    OPT_COMM_R_OLD,
    OPT_COMM_R_NEW,
    OPT_COMM_D_NEW,
    OPT_TIMEOUT_MS,
};

static const struct option lopts[] = {
    {"addr", required_argument, 0, OPT_ADDR},
    {"tls-ca", required_argument, 0, OPT_TLS_CA},
    {"tls-cert", required_argument, 0, OPT_TLS_CERT},
    {"tls-key", required_argument, 0, OPT_TLS_KEY},
    {"deadline", required_argument, 0, OPT_DEADLINE},
    {"c1", required_argument, 0, OPT_C1},
    {"vanilla", required_argument, 0, OPT_VANILLA},
    {"kind", required_argument, 0, OPT_KIND},
    {"registered-proof", required_argument, 0, OPT_REGISTERED_PROOF},
    {"sector-size", required_argument, 0, OPT_SECTOR_SIZE},
    {"sector-number", required_argument, 0, OPT_SECTOR_NUMBER},
    {"miner-id", required_argument, 0, OPT_MINER_ID},
    {"randomness", required_argument, 0, OPT_RANDOMNESS},
    {"partition", required_argument, 0, OPT_PARTITION},
    {"priority", required_argument, 0, OPT_PRIORITY},
    {"request-id", required_argument, 0, OPT_REQUEST_ID},
    {"comm-r-old", required_argument, 0, OPT_COMM_R_OLD},
    {"comm-r-new", required_argument, 0, OPT_COMM_R_NEW},
    {"comm-d-new", required_argument, 0, OPT_COMM_D_NEW},
    {"timeout-ms", required_argument, 0, OPT_TIMEOUT_MS},
    {"output", required_argument, 0, 'o'},
    {0, 0, 0, 0},
};

/* The sub-commands, and which groups of options each takes. */
enum { TAKES_REQUEST = 1, TAKES_OUTPUT = 2, TAKES_TIMEOUT = 4 };

typedef enum { SUB_PROVE, SUB_SUBMIT, SUB_AWAIT, SUB_CANCEL, SUB_STATUS, SUB_METRICS, SUB_PRELOAD, SUB_EVICT } sub_id;

static const struct {
    const char *name;
    sub_id id;
    int takes;
    const char *positional; /* its one positional argument, or NULL */
} subs[] = {
    {"prove", SUB_PROVE, TAKES_REQUEST | TAKES_OUTPUT, NULL},
    {"submit", SUB_SUBMIT, TAKES_REQUEST, NULL},
    {"await", SUB_AWAIT, TAKES_OUTPUT | TAKES_TIMEOUT, "JOB_ID"},
    {"cancel", SUB_CANCEL, 0, "JOB_ID"},
    {"status", SUB_STATUS, 0, NULL},
    {"metrics", SUB_METRICS, 0, NULL},
    {"preload", SUB_PRELOAD, 0, "CIRCUIT_ID"},
    {"evict", SUB_EVICT, 0, "CIRCUIT_ID"},
};
#define N_SUBS (sizeof subs / sizeof subs[0])

typedef struct {
    czk_client_opts conn;
    const char *c1, *out, *request_id;
    const char **vanilla;
    size_t n_vanilla, cap_vanilla;
    czk_svc_kind kind;
    czk_svc_priority priority;
    uint64_t registered_proof, sector_size, sector_number, miner_id, timeout_ms;
    uint32_t partition;
    uint8_t randomness[32], comm_r_old[32], comm_r_new[32], comm_d_new[32];
    int has_randomness, has_comm_r_old, has_comm_r_new, has_comm_d_new;
    /* the first option seen of each group (its long name), for "--c1 is for
     * prove and submit, not status" */
    const char *request_flag, *output_flag, *timeout_flag;
} args;

static const char *const priorities[] = {"unspecified", "low", "normal", "high", "critical"};
static const char *const outcomes[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};

static int parse_u64(const char *flag, const char *arg, long long max, uint64_t *out)
{
    long long v;
    if (czk_cli_parse_int(arg, 0, max, &v))
        return czk_cli_usage_error(CMD, usage, "%s wants a number from 0 to %lld, got '%s'", flag, max, arg);
    *out = (uint64_t)v;
    return 0;
}

static int hex_opt(const char *flag, const char *arg, uint8_t out[32], int *has)
{
    if (czk_cli_parse_hex32(out, arg))
        return czk_cli_usage_error(CMD, usage, "%s wants 32 bytes as 64 hex digits, got '%s'", flag, arg);
    *has = 1;
    return 0;
}

static int on_opt(void *ctx, int opt, const char *arg)
{
    args *a = ctx;
    /* the group's first option, by its long name (lopts is static) */
    const char **group = opt == 'o' ? &a->output_flag : opt == OPT_TIMEOUT_MS ? &a->timeout_flag
                       : opt >= OPT_C1 && opt <= OPT_COMM_D_NEW ? &a->request_flag : NULL;
    for (const struct option *o = lopts; group && !*group && o->name; o++)
        if (o->val == opt) *group = o->name;
    uint64_t v = 0;
    int rc;
    switch (opt) {
    case OPT_ADDR: a->conn.addr = arg; return 0;
    case OPT_TLS_CA: a->conn.tls_ca = arg; return 0;
    case OPT_TLS_CERT: a->conn.tls_cert = arg; return 0;
    case OPT_TLS_KEY: a->conn.tls_key = arg; return 0;
    case OPT_DEADLINE:
    {
        char *end;
        errno = 0;
        double d = strtod(arg, &end);
        /* ten years: beyond it the deadline is "none" in all but name */
        if (errno || end == arg || *end || !(d > 0) || d > 3.2e8)
            return czk_cli_usage_error(CMD, usage, "--deadline wants a number of seconds above 0, got '%s'", arg);
        a->conn.deadline_s = d;
        return 0;
    }
    case OPT_C1: a->c1 = arg; return 0;
    case OPT_VANILLA:
        if (a->n_vanilla == a->cap_vanilla) {
            size_t cap = a->cap_vanilla ? 2 * a->cap_vanilla : 16;
            const char **nv = realloc(a->vanilla, cap * sizeof *nv);
            if (!nv) {
                fprintf(stderr, "czk " CMD ": out of memory\n");
                return CZK_EXIT_FAIL;
            }
            a->vanilla = nv;
            a->cap_vanilla = cap;
        }
        a->vanilla[a->n_vanilla++] = arg;
        return 0;
    case OPT_KIND:
    {
        const czk_proof_kind *k = czk_proof_kind_find(arg);
        if (k) {
            a->kind = (czk_svc_kind)k->wire_kind;
            return 0;
        }
        char names[128];
        czk_proof_kind_names(names, sizeof names);
        return czk_cli_usage_error(CMD, usage, "--kind wants %s, got '%s'", names, arg);
    }
    case OPT_PRIORITY:
        for (int i = CZK_SVC_LOW; i <= CZK_SVC_CRITICAL; i++)
            if (!strcmp(arg, priorities[i])) {
                a->priority = (czk_svc_priority)i;
                return 0;
            }
        return czk_cli_usage_error(CMD, usage, "--priority wants low, normal, high or critical, got '%s'", arg);
    case OPT_REGISTERED_PROOF: return parse_u64("--registered-proof", arg, INT64_MAX, &a->registered_proof);
    case OPT_SECTOR_SIZE:
    {
        unsigned long long s;
        if (czk_cli_parse_size(arg, &s))
            return czk_cli_usage_error(CMD, usage, "--sector-size wants a size such as 32GiB, got '%s'", arg);
        a->sector_size = s;
        return 0;
    }
    case OPT_SECTOR_NUMBER: return parse_u64("--sector-number", arg, INT64_MAX, &a->sector_number);
    case OPT_MINER_ID: return parse_u64("--miner-id", arg, INT64_MAX, &a->miner_id);
    case OPT_PARTITION:
        if ((rc = parse_u64("--partition", arg, UINT32_MAX, &v))) return rc;
        a->partition = (uint32_t)v;
        return 0;
    case OPT_TIMEOUT_MS: return parse_u64("--timeout-ms", arg, INT64_MAX, &a->timeout_ms);
    case OPT_RANDOMNESS: return hex_opt("--randomness", arg, a->randomness, &a->has_randomness);
    case OPT_COMM_R_OLD: return hex_opt("--comm-r-old", arg, a->comm_r_old, &a->has_comm_r_old);
    case OPT_COMM_R_NEW: return hex_opt("--comm-r-new", arg, a->comm_r_new, &a->has_comm_r_new);
    case OPT_COMM_D_NEW: return hex_opt("--comm-d-new", arg, a->comm_d_new, &a->has_comm_d_new);
    case OPT_REQUEST_ID:
        if (!*arg) return czk_cli_usage_error(CMD, usage, "--request-id wants an id, got ''");
        a->request_id = arg;
        return 0;
    case 'o': a->out = arg; return 0;
    }
    return czk_cli_usage_error(CMD, usage, "unexpected option");
}

/* ---- payload files ------------------------------------------------------------ */

/* A whole file, at most `room` bytes (what is left of one gRPC message). */
static czk_status read_payload(czk_svc_bytes *out, const char *flag, const char *path, size_t room)
{
    FILE *f = fopen(path, "rb");
    if (!f) return czk_error(CZK_ERR_IO, "%s %s: %s", flag, path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return czk_error(CZK_ERR_IO, "%s %s: not a regular file", flag, path);
    }
    if ((uint64_t)st.st_size > room) {
        fclose(f);
        return czk_error(CZK_ERR_INVALID_ARG, "%s %s: %lld bytes: the request would exceed gRPC's message limit "
                         "of %u MiB", flag, path, (long long)st.st_size, CZK_SERVER_MAX_MESSAGE >> 20);
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        fclose(f);
        return czk_error(CZK_ERR_NOMEM, "%s %s: %zu bytes", flag, path, n);
    }
    size_t got = fread(buf, 1, n, f);
    int err = ferror(f);
    fclose(f);
    if (got != n || err) {
        free(buf);
        return czk_error(CZK_ERR_IO, "%s %s: short read (%zu of %zu bytes)", flag, path, got, n);
    }
    if (n == 0) {
        free(buf);
        return czk_error(CZK_ERR_INVALID_ARG, "%s %s: empty file", flag, path);
    }
    out->data = buf;
    out->len = n;
    return CZK_OK;
}

typedef struct {
    czk_svc_request r;
    czk_svc_bytes c1;
    czk_svc_bytes *vanilla;
    size_t n_vanilla;
} payload;

static void payload_free(payload *p)
{
    free((void *)p->c1.data);
    for (size_t i = 0; i < p->n_vanilla; i++) free((void *)p->vanilla[i].data);
    free(p->vanilla);
}

static czk_status payload_load(payload *p, const args *a)
{
    memset(p, 0, sizeof *p);
    size_t room = CZK_SERVER_MAX_MESSAGE;
    if (a->c1) {
        CZK_TRY(read_payload(&p->c1, "--c1", a->c1, room));
    } else {
        p->vanilla = calloc(a->n_vanilla, sizeof *p->vanilla);
        if (!p->vanilla) return czk_error(CZK_ERR_NOMEM, "%zu vanilla proofs", a->n_vanilla);
        for (size_t i = 0; i < a->n_vanilla; i++) {
            CZK_TRY(read_payload(&p->vanilla[i], "--vanilla", a->vanilla[i], room));
            p->n_vanilla++;
            room -= p->vanilla[i].len;
        }
    }
    czk_svc_request *r = &p->r;
    r->request_id = a->request_id;
    r->kind = a->kind;
    r->sector_size = a->sector_size;
    r->registered_proof = a->registered_proof;
    r->priority = a->priority;
    r->vanilla_proof = p->c1;
    r->vanilla_proofs = p->vanilla;
    r->n_vanilla_proofs = p->n_vanilla;
    r->sector_number = a->sector_number;
    r->miner_id = a->miner_id;
    r->partition_index = a->partition;
    if (a->has_randomness) r->randomness = (czk_svc_bytes){a->randomness, 32};
    if (a->has_comm_r_old) r->comm_r_old = (czk_svc_bytes){a->comm_r_old, 32};
    if (a->has_comm_r_new) r->comm_r_new = (czk_svc_bytes){a->comm_r_new, 32};
    if (a->has_comm_d_new) r->comm_d_new = (czk_svc_bytes){a->comm_d_new, 32};
    return CZK_OK;
}

/* ---- output ------------------------------------------------------------------- */

static void emit(json_t *o)
{
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    if (s) printf("%s\n", s);
    else fprintf(stderr, "czk " CMD ": out of memory for the JSON output\n");
    free(s);
    json_decref(o);
}

static const char *human(char buf[32], uint64_t b)
{
    if (b >= (1ull << 30)) snprintf(buf, 32, "%.2f GiB", (double)b / (double)(1ull << 30));
    else if (b >= (1ull << 20)) snprintf(buf, 32, "%.1f MiB", (double)b / (double)(1ull << 20));
    else if (b >= (1ull << 10)) snprintf(buf, 32, "%.1f KiB", (double)b / (double)(1ull << 10));
    else snprintf(buf, 32, "%llu B", (unsigned long long)b);
    return buf;
}

/* -o's directory must take a new file: checked before the call, so that a
 * typo does not cost a whole proof. */
static int check_output(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "czk " CMD ": -o %s: is a directory\n", path);
        return CZK_EXIT_FAIL;
    }
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "czk " CMD ": -o %s: cannot write to %s: %s\n", path, dir, strerror(errno));
        return CZK_EXIT_FAIL;
    }
    return CZK_EXIT_OK;
}

/* A job's result (prove, await): the proof written on COMPLETED, one line or
 * one JSON object; exit 0 only for COMPLETED with a proof. */
static int report_result(const czk_svc_result *res, const args *a, const czk_cli_common *c, uint64_t timeout_ms)
{
    const char *status = res->status <= CZK_SVC_TIMEOUT ? outcomes[res->status] : "UNKNOWN";
    int ok = res->status == CZK_SVC_COMPLETED && res->proof_len > 0;
    int written = 0;
    if (ok && a->out) {
        const void *chunk = res->proof;
        size_t len = res->proof_len;
        czk_status s = czk__write_atomic(a->out, &chunk, &len, 1);
        if (s != CZK_OK) return czk_cli_fail(CMD, s, "writing the proof failed");
        written = 1;
    }
    if (c->json) {
        json_t *o = json_object();
        json_object_set_new(o, "job_id", json_string(res->job_id));
        json_object_set_new(o, "status", json_string(status));
        json_object_set_new(o, "proof_bytes", json_integer((json_int_t)res->proof_len));
        if (written) json_object_set_new(o, "output", json_string(a->out));
        if (res->error[0]) json_object_set_new(o, "error", json_string(res->error));
        json_object_set_new(o, "queue_wait_ms", json_integer((json_int_t)res->queue_wait_ms));
        json_object_set_new(o, "srs_load_ms", json_integer((json_int_t)res->srs_load_ms));
        json_object_set_new(o, "synthesis_ms", json_integer((json_int_t)res->synthesis_ms));
        json_object_set_new(o, "prove_ms", json_integer((json_int_t)res->prove_ms));
        json_object_set_new(o, "total_ms", json_integer((json_int_t)res->total_ms));
        emit(o);
    } else if (ok && !c->quiet) {
        printf("job %s %s: %zu proof bytes%s%s; queue_wait %llu ms, srs_load %llu ms, synthesis %llu ms, "
               "prove %llu ms, total %llu ms\n",
               res->job_id, status, res->proof_len, written ? " -> " : " (not written: no -o)",
               written ? a->out : "", (unsigned long long)res->queue_wait_ms, (unsigned long long)res->srs_load_ms,
               (unsigned long long)res->synthesis_ms, (unsigned long long)res->prove_ms,
               (unsigned long long)res->total_ms);
    }
    if (ok) return CZK_EXIT_OK;
    if (res->status == CZK_SVC_COMPLETED)
        fprintf(stderr, "czk " CMD ": job %s COMPLETED without a proof\n", res->job_id);
    else if (res->status == CZK_SVC_TIMEOUT)
        fprintf(stderr, "czk " CMD ": job %s TIMEOUT: not done after %llu ms (it goes on: czk client await %s)%s%s\n",
                res->job_id, (unsigned long long)timeout_ms, res->job_id, res->error[0] ? ": " : "", res->error);
    else
        fprintf(stderr, "czk " CMD ": job %s %s%s%s\n", res->job_id, status, res->error[0] ? ": " : "",
                res->error);
    return CZK_EXIT_FAIL;
}

/* ---- sub-commands ------------------------------------------------------------- */

static int rpc_fail(czk_status s, const char *call, const args *a)
{
    char what[512];
    snprintf(what, sizeof what, "%s at %s", call, a->conn.addr);
    return czk_cli_fail(CMD, s, what);
}

static int do_prove_submit(czk_client *cl, sub_id id, const args *a, const czk_cli_common *c)
{
    payload p;
    czk_status s = payload_load(&p, a);
    if (s != CZK_OK) {
        payload_free(&p);
        return czk_cli_fail(CMD, s, "reading the payload failed");
    }
    int code;
    if (id == SUB_SUBMIT) {
        czk_svc_submitted sub;
        s = czk_client_submit(cl, &p.r, &sub);
        if (s != CZK_OK) {
            code = rpc_fail(s, "SubmitProof", a);
        } else {
            code = CZK_EXIT_OK;
            if (c->json) {
                json_t *o = json_object();
                json_object_set_new(o, "job_id", json_string(sub.job_id));
                json_object_set_new(o, "queue_position", json_integer(sub.queue_position));
                emit(o);
            } else {
                /* the id alone on stdout: `id=$(czk client submit ...)` */
                printf("%s\n", sub.job_id);
                if (!c->quiet) fprintf(stderr, "czk " CMD ": queued at position %u\n", sub.queue_position);
            }
        }
    } else {
        czk_svc_result res;
        s = czk_client_prove(cl, &p.r, &res);
        code = s != CZK_OK ? rpc_fail(s, "Prove", a) : report_result(&res, a, c, 0);
        czk_svc_result_clear(&res);
    }
    payload_free(&p);
    return code;
}

static int do_status(czk_client *cl, const args *a, const czk_cli_common *c)
{
    czk_svc_status st;
    czk_status s = czk_client_status(cl, &st);
    if (s != CZK_OK) return rpc_fail(s, "GetStatus", a);
    static const char *const tiers[] = {"hot", "warm", "cold"};
    if (c->json) {
        /* the wire's names, so that the object reads as GetStatusResponse */
        json_t *o = json_object(), *q = json_array(), *l = json_array();
        for (int i = 0; i < CZK_SVC_N_KINDS - 1; i++) {
            json_t *e = json_object();
            json_object_set_new(e, "proof_kind", json_string(czk_svc_kind_label(st.queues[i].kind)));
            json_object_set_new(e, "pending", json_integer(st.queues[i].pending));
            json_object_set_new(e, "in_progress", json_integer(st.queues[i].in_progress));
            json_array_append_new(q, e);
        }
        for (size_t i = 0; i < st.n_srs; i++) {
            json_t *e = json_object();
            json_object_set_new(e, "circuit_id", json_string(st.srs[i].circuit_id));
            json_object_set_new(e, "tier", json_string(tiers[st.srs[i].tier]));
            json_object_set_new(e, "size_bytes", json_integer((json_int_t)st.srs[i].size_bytes));
            json_object_set_new(e, "ref_count", json_integer(st.srs[i].ref_count));
            json_array_append_new(l, e);
        }
        json_object_set_new(o, "queues", q);
        json_object_set_new(o, "loaded_srs", l);
        json_object_set_new(o, "total_proofs_completed", json_integer((json_int_t)st.completed));
        json_object_set_new(o, "total_proofs_failed", json_integer((json_int_t)st.failed));
        json_object_set_new(o, "uptime_seconds", json_integer((json_int_t)st.uptime_s));
        json_object_set_new(o, "pinned_memory_bytes", json_integer((json_int_t)st.memory_reserved));
        json_object_set_new(o, "pinned_memory_limit_bytes", json_integer((json_int_t)st.memory_limit));
        emit(o);
    } else {
        char b1[32], b2[32];
        uint64_t u = st.uptime_s;
        printf("uptime %llud %02lluh %02llum %02llus; proofs completed %llu, failed %llu\n",
               (unsigned long long)(u / 86400), (unsigned long long)(u / 3600 % 24), (unsigned long long)(u / 60 % 60),
               (unsigned long long)(u % 60), (unsigned long long)st.completed, (unsigned long long)st.failed);
        if (st.memory_limit)
            printf("memory %s of %s\n", human(b1, st.memory_reserved), human(b2, st.memory_limit));
        else
            printf("memory %s\n", human(b1, st.memory_reserved));
        printf("%-14s %8s %12s\n", "queue", "pending", "in progress");
        for (int i = 0; i < CZK_SVC_N_KINDS - 1; i++)
            printf("%-14s %8u %12u\n", czk_svc_kind_label(st.queues[i].kind), st.queues[i].pending,
                   st.queues[i].in_progress);
        if (st.n_srs) printf("%-14s %-5s %12s %5s\n", "parameters", "tier", "size", "refs");
        else printf("parameters: none loaded\n");
        for (size_t i = 0; i < st.n_srs; i++)
            printf("%-14s %-5s %12s %5u\n", st.srs[i].circuit_id, tiers[st.srs[i].tier],
                   human(b1, st.srs[i].size_bytes), st.srs[i].ref_count);
    }
    czk_svc_status_clear(&st);
    return CZK_EXIT_OK;
}

static int run_sub(czk_client *cl, sub_id id, const char *pos, const args *a, const czk_cli_common *c)
{
    czk_status s;
    switch (id) {
    case SUB_PROVE:
    case SUB_SUBMIT: return do_prove_submit(cl, id, a, c);
    case SUB_AWAIT:
    {
        czk_svc_result res;
        s = czk_client_await(cl, pos, a->timeout_ms, &res);
        int code = s != CZK_OK ? rpc_fail(s, "AwaitProof", a) : report_result(&res, a, c, a->timeout_ms);
        czk_svc_result_clear(&res);
        return code;
    }
    case SUB_CANCEL:
    {
        int was_running;
        s = czk_client_cancel(cl, pos, &was_running);
        if (s != CZK_OK) return rpc_fail(s, "CancelProof", a);
        if (c->json) {
            json_t *o = json_object();
            json_object_set_new(o, "job_id", json_string(pos));
            json_object_set_new(o, "was_running", json_boolean(was_running));
            emit(o);
        } else {
            printf("%s: cancelled; was_running %s\n", pos, was_running ? "true" : "false (queued, or already done)");
        }
        return CZK_EXIT_OK;
    }
    case SUB_STATUS: return do_status(cl, a, c);
    case SUB_METRICS:
    {
        char *text;
        s = czk_client_metrics(cl, &text);
        if (s != CZK_OK) return rpc_fail(s, "GetMetrics", a);
        fputs(text, stdout);
        free(text);
        return CZK_EXIT_OK;
    }
    case SUB_PRELOAD:
    {
        int already;
        uint64_t ms;
        s = czk_client_preload(cl, pos, &already, &ms);
        if (s != CZK_OK) return rpc_fail(s, "PreloadSRS", a);
        if (c->json) {
            json_t *o = json_object();
            json_object_set_new(o, "circuit_id", json_string(pos));
            json_object_set_new(o, "already_loaded", json_boolean(already));
            json_object_set_new(o, "load_time_ms", json_integer((json_int_t)ms));
            emit(o);
        } else if (already) {
            printf("%s: already loaded\n", pos);
        } else {
            printf("%s: loaded in %llu ms\n", pos, (unsigned long long)ms);
        }
        return CZK_EXIT_OK;
    }
    case SUB_EVICT:
    {
        int was_loaded;
        uint64_t freed;
        s = czk_client_evict(cl, pos, &was_loaded, &freed);
        if (s != CZK_OK) return rpc_fail(s, "EvictSRS", a);
        if (c->json) {
            json_t *o = json_object();
            json_object_set_new(o, "circuit_id", json_string(pos));
            json_object_set_new(o, "was_loaded", json_boolean(was_loaded));
            json_object_set_new(o, "freed_bytes", json_integer((json_int_t)freed));
            emit(o);
        } else if (was_loaded) {
            char b[32];
            printf("%s: evicted, %s freed\n", pos, human(b, freed));
        } else {
            printf("%s: was not loaded\n", pos);
        }
        return CZK_EXIT_OK;
    }
    }
    return CZK_EXIT_FAIL;
}

/* The checks that need every option: which go with the sub-command, and
 * what a request must have. */
static int check_args(args *a, int sub, size_t npos, const char *const *pos)
{
    const char *name = subs[sub].name;
    int takes = subs[sub].takes;
    if (a->request_flag && !(takes & TAKES_REQUEST))
        return czk_cli_usage_error(CMD, usage, "--%s is for prove and submit, not %s", a->request_flag, name);
    if (a->output_flag && !(takes & TAKES_OUTPUT))
        return czk_cli_usage_error(CMD, usage, "--%s is for prove and await, not %s", a->output_flag, name);
    if (a->timeout_flag && !(takes & TAKES_TIMEOUT))
        return czk_cli_usage_error(CMD, usage, "--%s is for await, not %s", a->timeout_flag, name);
    if (subs[sub].positional) {
        if (npos != 1) return czk_cli_usage_error(CMD, usage, "%s wants one %s", name, subs[sub].positional);
        if (!*pos[0]) return czk_cli_usage_error(CMD, usage, "%s: an empty %s", name, subs[sub].positional);
    } else if (npos) {
        return czk_cli_usage_error(CMD, usage, "%s takes no argument ('%s')", name, pos[0]);
    }
    if (!a->conn.addr) {
        const char *env = getenv("CZK_ADDR");
        if (!env || !*env) return czk_cli_usage_error(CMD, usage, "--addr is required (or set $CZK_ADDR)");
        a->conn.addr = env;
    }
    if (!*a->conn.addr) return czk_cli_usage_error(CMD, usage, "--addr wants an address, got ''");
    if (!a->conn.tls_cert != !a->conn.tls_key)
        return czk_cli_usage_error(CMD, usage, "--tls-cert and --tls-key go together");
    if (!(takes & TAKES_REQUEST)) return CZK_CLI_CONTINUE;
    if (a->c1 && a->n_vanilla) return czk_cli_usage_error(CMD, usage, "--c1 and --vanilla exclude each other");
    if (!a->c1 && !a->n_vanilla)
        return czk_cli_usage_error(CMD, usage, "%s wants a payload: --c1 FILE or --vanilla FILE ...", name);
    /* the payload option a kind takes is its row's input_flag */
    const char *given = a->c1 ? "--c1" : "--vanilla";
    const czk_proof_kind *k = czk_proof_kind_of_wire((int)a->kind), *r;
    if (!k) {
        char names[128] = "";
        size_t used = 0, n = 0, total = 0;
        for (size_t i = 0; (r = czk_proof_kind_at(i)); i++) total += !strcmp(r->input_flag, given);
        for (size_t i = 0; (r = czk_proof_kind_at(i)) && used < sizeof names; i++) {
            if (strcmp(r->input_flag, given)) continue;
            if (!k) k = r;
            n++;
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                     n == 1 ? "" : n == total ? " or " : ", ", r->name);
        }
        /* a payload one kind alone takes means that kind (--c1: PoRep) */
        if (n != 1) return czk_cli_usage_error(CMD, usage, "%s wants --kind %s", given, names);
    } else if (strcmp(k->input_flag, given)) {
        return czk_cli_usage_error(CMD, usage, "--kind %s sends its payload with %s, not %s", k->name, k->input_flag,
                                   given);
    }
    a->kind = (czk_svc_kind)k->wire_kind;
    return CZK_CLI_CONTINUE;
}

static int run(int argc, char **argv)
{
    args a;
    memset(&a, 0, sizeof a);
    const char *sub = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
    char **av = sub ? argv + 1 : argv;
    int ac = sub ? argc - 1 : argc;
    /* options may follow the positional argument: parse each stretch after
     * one (the positional stands in for argv[0]), as czk pce does */
    const char *pos[2];
    size_t npos = 0;
    czk_cli_common com, acc;
    memset(&acc, 0, sizeof acc);
    int rc = CZK_CLI_CONTINUE;
    for (;;) {
        int first;
        rc = czk_cli_parse(ac, av, CMD, usage, lopts, &a, on_opt, &com, &first);
        if (rc != CZK_CLI_CONTINUE) goto out;
        if (com.threads) acc.threads = com.threads;
        acc.json |= com.json;
        acc.quiet |= com.quiet;
        if (first >= ac) break;
        if (npos == 2) {
            rc = czk_cli_usage_error(CMD, usage, "too many arguments ('%s')", av[first]);
            goto out;
        }
        pos[npos++] = av[first];
        av += first;
        ac -= first;
    }
    com = acc;
    if (!sub) {
        rc = czk_cli_usage_error(CMD, usage,
                                 "give a sub-command: prove, submit, await, cancel, status, metrics, preload or evict");
        goto out;
    }
    int which = -1;
    for (size_t i = 0; i < N_SUBS; i++)
        if (!strcmp(sub, subs[i].name)) which = (int)i;
    if (which < 0) {
        rc = czk_cli_usage_error(CMD, usage,
                                 "unknown sub-command '%s' (prove, submit, await, cancel, status, metrics, preload, "
                                 "evict)", sub);
        goto out;
    }
    rc = check_args(&a, which, npos, pos);
    if (rc != CZK_CLI_CONTINUE) goto out;
    if (a.out && (rc = check_output(a.out)) != CZK_EXIT_OK) goto out;
    czk_client *cl;
    czk_status s = czk_client_open(&cl, &a.conn);
    if (s == CZK_ERR_INVALID_ARG) {
        /* an address list czk cannot pass on: the command line's fault */
        rc = czk_cli_usage_error(CMD, usage, "%s", czk_last_error());
        goto out;
    }
    if (s != CZK_OK) {
        char what[512];
        snprintf(what, sizeof what, "connecting to %s failed", a.conn.addr);
        rc = czk_cli_fail(CMD, s, what);
        goto out;
    }
    rc = run_sub(cl, subs[which].id, npos ? pos[0] : NULL, &a, &com);
    czk_client_close(cl);
out:
    free(a.vanilla);
    return rc;
}

CZK_CLI_COMMAND(client, "talk to a czk serve (or cuzk) daemon over gRPC", run)
