// The cuzk.v1.ProvingEngine gRPC client (server/server.h): czk client's C API
// over the stubs protoc generates from proto/cuzk/v1/proving.proto.
//
// Each function is one blocking RPC on a channel made once by
// czk_client_open. gRPC's status becomes a czk_status with the code's name
// in the message, so that a caller (and an operator reading stderr) can
// tell a daemon that is not there (UNAVAILABLE) from one that refused the
// request (INVALID_ARGUMENT). No C++ exception leaves the extern "C"
// functions.
#include <arpa/inet.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <sstream>
#include <string>

#include <grpcpp/grpcpp.h>

#include "cuzk/v1/proving.grpc.pb.h"
#include "czk/czk.h"
#include "server/server.h"

namespace pb = cuzk::v1;

// The enums cross by number (czk/service.h keeps the wire's).
static_assert((int)pb::POREP_SEAL_COMMIT == CZK_SVC_POREP && (int)pb::WINNING_POST == CZK_SVC_WINNING_POST, "kinds");
static_assert((int)pb::LOW == CZK_SVC_LOW && (int)pb::CRITICAL == CZK_SVC_CRITICAL, "priorities");
static_assert((int)pb::AwaitProofResponse::COMPLETED == CZK_SVC_COMPLETED &&
                  (int)pb::AwaitProofResponse::TIMEOUT == CZK_SVC_TIMEOUT, "outcomes");
static_assert((int)pb::SRSStatus::HOT == CZK_SVC_HOT && (int)pb::SRSStatus::COLD == CZK_SVC_COLD, "tiers");

struct czk_client {
    std::shared_ptr<grpc::Channel> channel;
    std::unique_ptr<pb::ProvingEngine::Stub> stub;
    double deadline_s;
};

namespace {

// The last call's gRPC code, for czk_client_last_grpc_code: per thread, as
// czk_last_error is.
thread_local int last_code = 0;

const char *code_name(int code)
{
    static const char *const names[] = {
        "OK",           "CANCELLED",          "UNKNOWN",             "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
        "NOT_FOUND",    "ALREADY_EXISTS",     "PERMISSION_DENIED",   "RESOURCE_EXHAUSTED",
        "FAILED_PRECONDITION", "ABORTED",     "OUT_OF_RANGE",        "UNIMPLEMENTED",    "INTERNAL",
        "UNAVAILABLE",  "DATA_LOSS",          "UNAUTHENTICATED",
    };
    if (code >= 0 && code < (int)(sizeof names / sizeof names[0])) return names[code];
    return "UNKNOWN_CODE";
}

// The mapping server/server.h documents. DEADLINE_EXCEEDED counts as
// UNAVAILABLE: for the caller both mean "no answer in time", and retrying
// elsewhere is the remedy for both.
czk_status from_grpc(const grpc::Status &st)
{
    int code = (int)st.error_code();
    last_code = code;
    czk_status s;
    switch (st.error_code()) {
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED: s = CZK_ERR_UNAVAILABLE; break;
    case grpc::StatusCode::NOT_FOUND: s = CZK_ERR_NOT_FOUND; break;
    case grpc::StatusCode::INVALID_ARGUMENT: s = CZK_ERR_INVALID_ARG; break;
    case grpc::StatusCode::RESOURCE_EXHAUSTED: s = CZK_ERR_NOMEM; break;
    case grpc::StatusCode::CANCELLED: s = CZK_ERR_CANCELLED; break;
    default: s = CZK_ERR_IO; break;
    }
    const std::string &msg = st.error_message();
    return czk_error(s, "%s: %s", code_name(code), msg.empty() ? "(no message)" : msg.c_str());
}

// Every entry point runs its body through this: a C++ exception (an
// allocation failing inside protobuf or gRPC) becomes a status.
template <class F> czk_status guarded(const char *what, F &&f)
{
    last_code = 0;
    try {
        return f();
    } catch (const std::bad_alloc &) {
        return czk_error(CZK_ERR_NOMEM, "%s: out of memory", what);
    } catch (const std::exception &e) {
        return czk_error(CZK_ERR_INTERNAL, "%s: %s", what, e.what());
    } catch (...) {
        return czk_error(CZK_ERR_INTERNAL, "%s: unexpected exception", what);
    }
}

void set_deadline(grpc::ClientContext &ctx, const czk_client *c)
{
    if (c->deadline_s <= 0) return;
    auto d = std::chrono::duration_cast<std::chrono::system_clock::duration>(
        std::chrono::duration<double>(c->deadline_s));
    ctx.set_deadline(std::chrono::system_clock::now() + d);
}

// One unary RPC under the client's deadline; a failure becomes the
// czk_status from_grpc makes.
template <class Req, class Resp>
czk_status call(czk_client *c,
                grpc::Status (pb::ProvingEngine::Stub::*method)(grpc::ClientContext *, const Req &, Resp *),
                const Req &req, Resp *resp)
{
    grpc::ClientContext ctx;
    set_deadline(ctx, c);
    grpc::Status st = ((*c->stub).*method)(&ctx, req, resp);
    return st.ok() ? CZK_OK : from_grpc(st);
}

czk_status read_pem(std::string *out, const char *path, const char *flag)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) return czk_error(CZK_ERR_IO, "%s %s: %s", flag, path, std::strerror(errno));
    std::ostringstream ss;
    ss << f.rdbuf();
    if (f.bad()) return czk_error(CZK_ERR_IO, "%s %s: read failed", flag, path);
    *out = ss.str();
    if (out->empty()) return czk_error(CZK_ERR_IO, "%s %s: empty file", flag, path);
    return CZK_OK;
}

// "a.b.c.d:port" with a port in 1..65535: what gRPC's ipv4: resolver
// takes, one entry of its comma-separated list.
bool ipv4_hostport(const std::string &s)
{
    size_t colon = s.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == s.size() || colon + 6 < s.size()) return false;
    std::string host = s.substr(0, colon);
    struct in_addr a;
    if (inet_pton(AF_INET, host.c_str(), &a) != 1) return false;
    long port = 0;
    for (size_t i = colon + 1; i < s.size(); i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        port = port * 10 + (s[i] - '0');
    }
    return port >= 1 && port <= 65535;
}

// The gRPC target for addr, and whether it is a list (round robin).
czk_status target_of(std::string *target, bool *list, const char *addr)
{
    std::string a = addr;
    *list = a.find(',') != std::string::npos;
    if (!*list) {
        *target = a;
        return CZK_OK;
    }
    std::string t = "ipv4:";
    size_t start = 0, n = 0;
    for (;;) {
        size_t comma = a.find(',', start);
        std::string one = a.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!ipv4_hostport(one))
            return czk_error(CZK_ERR_INVALID_ARG,
                             "address list '%s': entry %zu ('%s') is not an IPv4 a.b.c.d:port (a list of "
                             "addresses must be all IPv4; give a name or IPv6 address alone)",
                             addr, n + 1, one.c_str());
        t += (n++ ? "," : "") + one;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    *target = t;
    return CZK_OK;
}

void copy_id(char *dst, size_t cap, const std::string &src)
{
    size_t n = src.size() < cap - 1 ? src.size() : cap - 1;
    std::memcpy(dst, src.data(), n);
    dst[n] = 0;
}

void set_bytes(std::string *dst, const czk_svc_bytes &b)
{
    if (b.len) dst->assign((const char *)b.data, b.len);
}

czk_status to_wire(pb::SubmitProofRequest *m, const czk_svc_request *r)
{
    if (!r) return czk_error(CZK_ERR_INVALID_ARG, "no request");
    if (r->n_vanilla_proofs && !r->vanilla_proofs)
        return czk_error(CZK_ERR_INVALID_ARG, "%zu vanilla proofs and no array", r->n_vanilla_proofs);
    if (r->request_id) m->set_request_id(r->request_id);
    m->set_proof_kind((pb::ProofKind)r->kind);
    m->set_sector_size(r->sector_size);
    m->set_registered_proof(r->registered_proof);
    m->set_priority((pb::Priority)r->priority);
    set_bytes(m->mutable_vanilla_proof(), r->vanilla_proof);
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        m->add_vanilla_proofs((const char *)r->vanilla_proofs[i].data, r->vanilla_proofs[i].len);
    m->set_sector_number(r->sector_number);
    m->set_miner_id(r->miner_id);
    set_bytes(m->mutable_randomness(), r->randomness);
    m->set_partition_index(r->partition_index);
    set_bytes(m->mutable_comm_r_old(), r->comm_r_old);
    set_bytes(m->mutable_comm_r_new(), r->comm_r_new);
    set_bytes(m->mutable_comm_d_new(), r->comm_d_new);
    return CZK_OK;
}

czk_status from_wire(czk_svc_result *out, const pb::AwaitProofResponse &m)
{
    std::memset(out, 0, sizeof *out);
    copy_id(out->job_id, sizeof out->job_id, m.job_id());
    int status = (int)m.status();
    out->status = status >= 0 && status <= CZK_SVC_TIMEOUT ? (czk_svc_outcome)status : CZK_SVC_UNKNOWN;
    copy_id(out->error, sizeof out->error, m.error_message());
    out->queue_wait_ms = m.queue_wait_ms();
    out->srs_load_ms = m.srs_load_ms();
    out->synthesis_ms = m.synthesis_ms();
    out->prove_ms = m.gpu_compute_ms();
    out->total_ms = m.total_ms();
    if (!m.proof().empty()) {
        out->proof = (uint8_t *)std::malloc(m.proof().size());
        if (!out->proof) return czk_error(CZK_ERR_NOMEM, "proof of %zu bytes", m.proof().size());
        std::memcpy(out->proof, m.proof().data(), m.proof().size());
        out->proof_len = m.proof().size();
    }
    return CZK_OK;
}

// QueueStatus.proof_kind: the metric label czk serve sends (porep_c2, ...),
// or the enum's name.
czk_svc_kind kind_of(const std::string &s)
{
    for (int k = CZK_SVC_POREP; k < CZK_SVC_N_KINDS; k++)
        if (s == czk_svc_kind_label((czk_svc_kind)k) || s == pb::ProofKind_Name((pb::ProofKind)k))
            return (czk_svc_kind)k;
    return CZK_SVC_KIND_UNSPECIFIED;
}

} // namespace

extern "C" czk_status czk_client_open(czk_client **out, const czk_client_opts *o)
{
    *out = nullptr;
    return guarded("client", [&]() -> czk_status {
        if (!o || !o->addr || !*o->addr) return czk_error(CZK_ERR_INVALID_ARG, "no server address");
        if (!o->tls_cert != !o->tls_key)
            return czk_error(CZK_ERR_INVALID_ARG, "--tls-cert and --tls-key go together (the client's certificate "
                                                  "and its key)");
        if (o->deadline_s < 0) return czk_error(CZK_ERR_INVALID_ARG, "deadline %g s", o->deadline_s);
        std::string target;
        bool list;
        CZK_TRY(target_of(&target, &list, o->addr));
        std::shared_ptr<grpc::ChannelCredentials> creds;
        if (o->tls_ca || o->tls_cert) {
            grpc::SslCredentialsOptions ssl;
            if (o->tls_ca) CZK_TRY(read_pem(&ssl.pem_root_certs, o->tls_ca, "--tls-ca"));
            if (o->tls_cert) {
                CZK_TRY(read_pem(&ssl.pem_cert_chain, o->tls_cert, "--tls-cert"));
                CZK_TRY(read_pem(&ssl.pem_private_key, o->tls_key, "--tls-key"));
            }
            creds = grpc::SslCredentials(ssl);
        } else {
            creds = grpc::InsecureChannelCredentials();
        }
        grpc::ChannelArguments args;
        // A 32GiB C1 is about 50 MB and quoted up to 200 MB (docs/cuzk-api.md):
        // gRPC's 4 MiB default would refuse it.
        args.SetMaxSendMessageSize((int)CZK_SERVER_MAX_MESSAGE);
        args.SetMaxReceiveMessageSize((int)CZK_SERVER_MAX_MESSAGE);
        // gRPC's default policy, pick_first, would send every call of a list
        // to its first reachable address.
        if (list) args.SetServiceConfigJSON("{\"loadBalancingConfig\":[{\"round_robin\":{}}]}");
        std::unique_ptr<czk_client> c(new czk_client);
        c->channel = grpc::CreateCustomChannel(target, creds, args);
        if (!c->channel) return czk_error(CZK_ERR_INVALID_ARG, "'%s': no channel", o->addr);
        c->stub = pb::ProvingEngine::NewStub(c->channel);
        c->deadline_s = o->deadline_s;
        *out = c.release();
        return CZK_OK;
    });
}

extern "C" void czk_client_close(czk_client *c) { delete c; }

extern "C" czk_status czk_client_submit(czk_client *c, const czk_svc_request *r, czk_svc_submitted *out)
{
    std::memset(out, 0, sizeof *out);
    return guarded("SubmitProof", [&]() -> czk_status {
        pb::SubmitProofRequest req;
        CZK_TRY(to_wire(&req, r));
        pb::SubmitProofResponse resp;
        if (czk_status cs = call(c, &pb::ProvingEngine::Stub::SubmitProof, req, &resp); cs != CZK_OK) return cs;
        copy_id(out->job_id, sizeof out->job_id, resp.job_id());
        out->queue_position = resp.queue_position();
        return CZK_OK;
    });
}

extern "C" czk_status czk_client_await(czk_client *c, const char *job_id, uint64_t timeout_ms, czk_svc_result *out)
{
    std::memset(out, 0, sizeof *out);
    return guarded("AwaitProof", [&]() -> czk_status {
        if (!job_id || !*job_id) return czk_error(CZK_ERR_INVALID_ARG, "no job id");
        pb::AwaitProofRequest req;
        req.set_job_id(job_id);
        req.set_timeout_ms(timeout_ms);
        pb::AwaitProofResponse resp;
        if (czk_status cs = call(c, &pb::ProvingEngine::Stub::AwaitProof, req, &resp); cs != CZK_OK) return cs;
        return from_wire(out, resp);
    });
}

extern "C" czk_status czk_client_prove(czk_client *c, const czk_svc_request *r, czk_svc_result *out)
{
    std::memset(out, 0, sizeof *out);
    return guarded("Prove", [&]() -> czk_status {
        pb::ProveRequest req;
        CZK_TRY(to_wire(req.mutable_submit(), r));
        pb::ProveResponse resp;
        if (czk_status cs = call(c, &pb::ProvingEngine::Stub::Prove, req, &resp); cs != CZK_OK) return cs;
        // A response without its result reads as status UNKNOWN, which every
        // caller treats as a failed job (as Curio does).
        return from_wire(out, resp.result());
    });
}

extern "C" czk_status czk_client_cancel(czk_client *c, const char *job_id, int *was_running)
{
    *was_running = 0;
    return guarded("CancelProof", [&]() -> czk_status {
        if (!job_id || !*job_id) return czk_error(CZK_ERR_INVALID_ARG, "no job id");
        pb::CancelProofRequest req;
        req.set_job_id(job_id);
        pb::CancelProofResponse resp;
        if (czk_status cs = call(c, &pb::ProvingEngine::Stub::CancelProof, req, &resp); cs != CZK_OK) return cs;
        *was_running = resp.was_running();
        return CZK_OK;
    });
}

extern "C" czk_status czk_client_status(czk_client *c, czk_svc_status *out)
{
    std::memset(out, 0, sizeof *out);
    return guarded("GetStatus", [&]() -> czk_status {
        pb::GetStatusRequest req;
        pb::GetStatusResponse resp;
        if (czk_status cs = call(c, &pb::ProvingEngine::Stub::GetStatus, req, &resp); cs != CZK_OK) return cs;
        for (int i = 0; i < CZK_SVC_N_KINDS - 1; i++) out->queues[i].kind = (czk_svc_kind)(i + 1);
        for (const auto &q : resp.queues()) {
            czk_svc_kind k = kind_of(q.proof_kind());
            if (k == CZK_SVC_KIND_UNSPECIFIED) continue;
            out->queues[k - 1].pending += q.pending();
            out->queues[k - 1].in_progress += q.in_progress();
        }
        if (resp.loaded_srs_size() > 0) {
            out->srs = (czk_svc_srs *)std::calloc((size_t)resp.loaded_srs_size(), sizeof *out->srs);
            if (!out->srs) return czk_error(CZK_ERR_NOMEM, "%d SRS entries", resp.loaded_srs_size());
            for (const auto &e : resp.loaded_srs()) {
                czk_svc_srs *d = &out->srs[out->n_srs++];
                copy_id(d->circuit_id, sizeof d->circuit_id, e.circuit_id());
                int tier = (int)e.tier();
                d->tier = tier >= 0 && tier <= CZK_SVC_COLD ? (czk_svc_tier)tier : CZK_SVC_COLD;
                d->size_bytes = e.size_bytes();
                d->ref_count = e.ref_count();
            }
        }
        out->completed = resp.total_proofs_completed();
        out->failed = resp.total_proofs_failed();
        out->uptime_s = resp.uptime_seconds();
        out->memory_reserved = resp.pinned_memory_bytes();
        out->memory_limit = resp.pinned_memory_limit_bytes();
        return CZK_OK;
    });
}

extern "C" czk_status czk_client_metrics(czk_client *c, char **text)
{
    *text = nullptr;
    return guarded("GetMetrics", [&]() -> czk_status {
        pb::GetMetricsRequest req;
        pb::GetMetricsResponse resp;
        if (czk_status cs = call(c, &pb::ProvingEngine::Stub::GetMetrics, req, &resp); cs != CZK_OK) return cs;
        const std::string &t = resp.prometheus_text();
        char *s = (char *)std::malloc(t.size() + 1);
        if (!s) return czk_error(CZK_ERR_NOMEM, "metrics text of %zu bytes", t.size());
        std::memcpy(s, t.data(), t.size());
        s[t.size()] = 0;
        *text = s;
        return CZK_OK;
    });
}

extern "C" czk_status czk_client_preload(czk_client *c, const char *circuit_id, int *already, uint64_t *ms)
{
    *already = 0;
    *ms = 0;
    return guarded("PreloadSRS", [&]() -> czk_status {
        if (!circuit_id || !*circuit_id) return czk_error(CZK_ERR_INVALID_ARG, "no circuit id");
        pb::PreloadSrsRequest req;
        req.set_circuit_id(circuit_id);
        pb::PreloadSrsResponse resp;
        if (czk_status cs = call(c, &pb::ProvingEngine::Stub::PreloadSRS, req, &resp); cs != CZK_OK) return cs;
        *already = resp.already_loaded();
        *ms = resp.load_time_ms();
        return CZK_OK;
    });
}

extern "C" czk_status czk_client_evict(czk_client *c, const char *circuit_id, int *was_loaded, uint64_t *freed)
{
    *was_loaded = 0;
    *freed = 0;
    return guarded("EvictSRS", [&]() -> czk_status {
        if (!circuit_id || !*circuit_id) return czk_error(CZK_ERR_INVALID_ARG, "no circuit id");
        pb::EvictSrsRequest req;
        req.set_circuit_id(circuit_id);
        pb::EvictSrsResponse resp;
        if (czk_status cs = call(c, &pb::ProvingEngine::Stub::EvictSRS, req, &resp); cs != CZK_OK) return cs;
        *was_loaded = resp.was_loaded();
        *freed = resp.freed_bytes();
        return CZK_OK;
    });
}

extern "C" int czk_client_last_grpc_code(void) { return last_code; }
