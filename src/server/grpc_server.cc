// The cuzk.v1.ProvingEngine gRPC server (server/server.h): each RPC is a thin
// translation between the generated messages and the proving service
// (czk/service.h), which does the work. gRPC's synchronous server gives
// every call its own thread, so AwaitProof and Prove simply block in
// czk_service_await, in slices, watching for the client going away and for
// the server stopping.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <grpcpp/security/server_credentials.h>

#include "cuzk/v1/proving.grpc.pb.h"
#include "czk/czk.h"
#include "server/server.h"

namespace pb = cuzk::v1;

namespace {

// How long one wait on the service lasts before the call looks at its
// client and at the server again.
constexpr int64_t AWAIT_SLICE_MS = 200;

void logf(const czk_server_opts *o, czk_log_level lvl, const char *job, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void logf(const czk_server_opts *o, czk_log_level lvl, const char *job, const char *fmt, ...)
{
    if (!o->log) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    o->log(o->log_ctx, lvl, job, msg);
}

grpc::Status from_czk(czk_status st, const char *what)
{
    std::string msg = what ? std::string(what) + ": " + czk_last_error() : std::string(czk_last_error());
    return grpc::Status(static_cast<grpc::StatusCode>(czk_service_grpc_code(st)), msg);
}

czk_svc_bytes bytes_of(const std::string &s)
{
    return czk_svc_bytes{reinterpret_cast<const uint8_t *>(s.data()), s.size()};
}

// The service's request borrowing the message's strings (valid while m lives).
struct request_view {
    czk_svc_request r;
    std::vector<czk_svc_bytes> vanilla;

    explicit request_view(const pb::SubmitProofRequest &m)
    {
        std::memset(&r, 0, sizeof r);
        r.request_id = m.request_id().c_str();
        r.kind = static_cast<czk_svc_kind>(m.proof_kind());
        r.sector_size = m.sector_size();
        r.registered_proof = m.registered_proof();
        r.priority = static_cast<czk_svc_priority>(m.priority());
        r.vanilla_proof = bytes_of(m.vanilla_proof());
        for (const std::string &v : m.vanilla_proofs()) vanilla.push_back(bytes_of(v));
        r.vanilla_proofs = vanilla.empty() ? nullptr : vanilla.data();
        r.n_vanilla_proofs = vanilla.size();
        r.sector_number = m.sector_number();
        r.miner_id = m.miner_id();
        r.randomness = bytes_of(m.randomness());
        r.partition_index = m.partition_index();
        r.comm_r_old = bytes_of(m.comm_r_old());
        r.comm_r_new = bytes_of(m.comm_r_new());
        r.comm_d_new = bytes_of(m.comm_d_new());
    }
};

void fill_result(pb::AwaitProofResponse *out, const czk_svc_result &r)
{
    out->set_job_id(r.job_id);
    out->set_status(static_cast<pb::AwaitProofResponse_Status>(r.status));
    if (r.status == CZK_SVC_COMPLETED && r.proof)
        out->set_proof(std::string(reinterpret_cast<const char *>(r.proof), r.proof_len));
    if (r.status == CZK_SVC_FAILED || r.status == CZK_SVC_CANCELLED) out->set_error_message(r.error);
    out->set_queue_wait_ms(r.queue_wait_ms);
    out->set_srs_load_ms(r.srs_load_ms);
    out->set_synthesis_ms(r.synthesis_ms);
    out->set_gpu_compute_ms(r.prove_ms);
    out->set_total_ms(r.total_ms);
}

class engine_service final : public pb::ProvingEngine::Service {
  public:
    engine_service(czk_service *svc, const czk_server_opts *opts) : svc_(svc), opts_(*opts) {}

    std::atomic<bool> stopping{false};

    grpc::Status SubmitProof(grpc::ServerContext *, const pb::SubmitProofRequest *req,
                             pb::SubmitProofResponse *resp) override
    {
        czk_svc_submitted sub;
        grpc::Status st = submit(*req, &sub);
        if (!st.ok()) return st;
        resp->set_job_id(sub.job_id);
        resp->set_queue_position(sub.queue_position);
        return grpc::Status::OK;
    }

    grpc::Status AwaitProof(grpc::ServerContext *ctx, const pb::AwaitProofRequest *req,
                            pb::AwaitProofResponse *resp) override
    {
        // the wire's 0 waits forever (the service's < 0)
        return await(ctx, req->job_id(), req->timeout_ms() ? static_cast<int64_t>(req->timeout_ms()) : -1, resp);
    }

    grpc::Status Prove(grpc::ServerContext *ctx, const pb::ProveRequest *req, pb::ProveResponse *resp) override
    {
        if (!req->has_submit()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "ProveRequest: no submit");
        czk_svc_submitted sub;
        grpc::Status st = submit(req->submit(), &sub);
        if (!st.ok()) return st;
        // Until the client's deadline or disconnect: the job itself goes on
        // (another Prove or AwaitProof with its id picks up the result).
        return await(ctx, sub.job_id, -1, resp->mutable_result());
    }

    grpc::Status CancelProof(grpc::ServerContext *, const pb::CancelProofRequest *req,
                             pb::CancelProofResponse *resp) override
    {
        int was_running = 0;
        czk_status st = czk_service_cancel(svc_, req->job_id().c_str(), &was_running);
        if (st != CZK_OK) return from_czk(st, "CancelProof");
        logf(&opts_, CZK_LOG_INFO, req->job_id().c_str(), "cancelled (%s)", was_running ? "running" : "queued or done");
        resp->set_was_running(was_running != 0);
        return grpc::Status::OK;
    }

    grpc::Status GetStatus(grpc::ServerContext *, const pb::GetStatusRequest *, pb::GetStatusResponse *resp) override
    {
        czk_svc_status s;
        czk_status st = czk_service_status(svc_, &s);
        if (st != CZK_OK) return from_czk(st, "GetStatus");
        for (const czk_svc_queue &q : s.queues) {
            pb::QueueStatus *o = resp->add_queues();
            o->set_proof_kind(czk_svc_kind_label(q.kind));
            o->set_pending(q.pending);
            o->set_in_progress(q.in_progress);
        }
        for (size_t i = 0; i < s.n_srs; i++) {
            pb::SRSStatus *o = resp->add_loaded_srs();
            o->set_circuit_id(s.srs[i].circuit_id);
            o->set_tier(static_cast<pb::SRSStatus_Tier>(s.srs[i].tier));
            o->set_size_bytes(s.srs[i].size_bytes + s.srs[i].pce_bytes);
            o->set_ref_count(s.srs[i].ref_count);
        }
        resp->set_total_proofs_completed(s.completed);
        resp->set_total_proofs_failed(s.failed);
        resp->set_uptime_seconds(s.uptime_s);
        // no pinned host memory on a CPU prover: the engine's budget stands in
        resp->set_pinned_memory_bytes(s.memory_reserved);
        resp->set_pinned_memory_limit_bytes(s.memory_limit);
        czk_svc_status_clear(&s);
        return grpc::Status::OK;
    }

    grpc::Status GetMetrics(grpc::ServerContext *, const pb::GetMetricsRequest *, pb::GetMetricsResponse *resp) override
    {
        char *text = nullptr;
        czk_status st = czk_service_metrics(svc_, &text);
        if (st != CZK_OK) return from_czk(st, "GetMetrics");
        resp->set_prometheus_text(text);
        free(text);
        return grpc::Status::OK;
    }

    grpc::Status PreloadSRS(grpc::ServerContext *, const pb::PreloadSrsRequest *req,
                            pb::PreloadSrsResponse *resp) override
    {
        int already = 0;
        uint64_t ms = 0;
        czk_status st = czk_service_preload(svc_, req->circuit_id().c_str(), &already, &ms);
        if (st != CZK_OK) {
            // an unknown id is the caller's mistake; a missing or bad file
            // is the daemon's state (FAILED_PRECONDITION), not an argument
            bool caller = st == CZK_ERR_INVALID_ARG || st == CZK_ERR_UNSUPPORTED || st == CZK_ERR_NOMEM ||
                          st == CZK_ERR_UNAVAILABLE;
            if (caller) return from_czk(st, "PreloadSRS");
            return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, std::string("PreloadSRS: ") + czk_last_error());
        }
        logf(&opts_, CZK_LOG_INFO, nullptr, "preload %s: %s (%llu ms)", req->circuit_id().c_str(),
             already ? "already loaded" : "loaded", static_cast<unsigned long long>(ms));
        resp->set_already_loaded(already != 0);
        resp->set_load_time_ms(ms);
        return grpc::Status::OK;
    }

    grpc::Status EvictSRS(grpc::ServerContext *, const pb::EvictSrsRequest *req, pb::EvictSrsResponse *resp) override
    {
        int was_loaded = 0;
        uint64_t freed = 0;
        czk_status st = czk_service_evict(svc_, req->circuit_id().c_str(), &was_loaded, &freed);
        if (st != CZK_OK) return from_czk(st, "EvictSRS");
        logf(&opts_, CZK_LOG_INFO, nullptr, "evict %s: %s, %llu bytes freed", req->circuit_id().c_str(),
             was_loaded ? "dropped" : "was not loaded", static_cast<unsigned long long>(freed));
        resp->set_was_loaded(was_loaded != 0);
        resp->set_freed_bytes(freed);
        return grpc::Status::OK;
    }

  private:
    czk_service *svc_;
    czk_server_opts opts_;

    grpc::Status submit(const pb::SubmitProofRequest &m, czk_svc_submitted *sub)
    {
        request_view v(m);
        czk_status st = czk_service_submit(svc_, &v.r, sub);
        if (st != CZK_OK) {
            logf(&opts_, CZK_LOG_WARN, m.request_id().empty() ? nullptr : m.request_id().c_str(), "refused: %s",
                 czk_last_error());
            return from_czk(st, nullptr);
        }
        logf(&opts_, CZK_LOG_INFO, sub->job_id, "%s %s, queue position %u", sub->attached ? "attached" : "submitted",
             czk_svc_kind_label(v.r.kind), sub->queue_position);
        return grpc::Status::OK;
    }

    // Wait for the job up to timeout_ms (< 0: forever) while the client is
    // there and the server runs. A timeout is an answer (TIMEOUT), not an error.
    grpc::Status await(grpc::ServerContext *ctx, const std::string &id, int64_t timeout_ms, pb::AwaitProofResponse *out)
    {
        auto start = std::chrono::steady_clock::now();
        for (;;) {
            int64_t slice = AWAIT_SLICE_MS;
            if (timeout_ms >= 0) {
                int64_t spent = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::steady_clock::now() - start).count();
                slice = std::min<int64_t>(slice, std::max<int64_t>(0, timeout_ms - spent));
            }
            czk_svc_result r;
            czk_status st = czk_service_await(svc_, id.c_str(), slice, &r);
            if (st != CZK_OK) return from_czk(st, "AwaitProof");
            bool done = r.status != CZK_SVC_TIMEOUT;
            bool expired = !done && timeout_ms >= 0 && slice < AWAIT_SLICE_MS;
            if (done || expired) {
                fill_result(out, r);
                czk_svc_result_clear(&r);
                return grpc::Status::OK;
            }
            czk_svc_result_clear(&r);
            if (ctx->IsCancelled()) {
                logf(&opts_, CZK_LOG_INFO, id.c_str(), "the client went away while waiting; the job continues");
                return grpc::Status(grpc::StatusCode::CANCELLED,
                                    "the client cancelled the call or its deadline passed");
            }
            if (stopping.load())
                return grpc::Status(grpc::StatusCode::UNAVAILABLE, "czk serve is shutting down; the job is not done");
        }
    }
};

bool is_loopback(const std::string &host)
{
    return host == "localhost" || host.rfind("127.", 0) == 0 || host == "[::1]" || host == "::1";
}

czk_status read_file(std::string *out, const char *path, const char *what)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) return czk_error(CZK_ERR_IO, "%s %s: %s", what, path, std::strerror(errno));
    std::ostringstream ss;
    ss << f.rdbuf();
    *out = ss.str();
    if (out->empty()) return czk_error(CZK_ERR_FORMAT, "%s %s: empty", what, path);
    return CZK_OK;
}

// A unix socket path: parent directories made, and a socket file left by a
// daemon that is gone removed. One that answers belongs to a live daemon.
czk_status prepare_unix_socket(const std::string &path)
{
    if (path.empty() || path.size() >= sizeof(((struct sockaddr_un *)nullptr)->sun_path))
        return czk_error(CZK_ERR_INVALID_ARG, "unix socket path '%s': empty or longer than %zu bytes", path.c_str(),
                         sizeof(((struct sockaddr_un *)nullptr)->sun_path) - 1);
    size_t slash = path.rfind('/');
    if (slash != std::string::npos && slash > 0) {
        std::string dir = path.substr(0, slash);
        czk_status st = czk_mkdirs(dir.c_str(), 0750);
        if (st != CZK_OK) return st;
    }
    struct stat sb;
    if (lstat(path.c_str(), &sb) != 0) return CZK_OK;
    if (!S_ISSOCK(sb.st_mode))
        return czk_error(CZK_ERR_INVALID_ARG, "%s exists and is not a socket; not removing it", path.c_str());
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return czk_error(CZK_ERR_IO, "socket: %s", std::strerror(errno));
    struct sockaddr_un sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    std::memcpy(sa.sun_path, path.c_str(), path.size());
    int live = connect(fd, reinterpret_cast<struct sockaddr *>(&sa), sizeof sa) == 0;
    close(fd);
    if (live) return czk_error(CZK_ERR_BUSY, "%s: another daemon is listening on it", path.c_str());
    if (unlink(path.c_str()) != 0)
        return czk_error(CZK_ERR_IO, "removing the stale socket %s: %s", path.c_str(), std::strerror(errno));
    return CZK_OK;
}

} // namespace

struct czk_server {
    std::unique_ptr<engine_service> service;
    std::unique_ptr<grpc::Server> server;
    std::string address;
    std::string unix_path;
};

extern "C" czk_status czk_server_start(czk_server **out, czk_service *svc, const czk_server_opts *opts)
{
    *out = nullptr;
    if (!svc || !opts || !opts->listen || !*opts->listen)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_server_start: no service or no listen address");
    std::string listen = opts->listen;
    std::string unix_path;
    bool tls = opts->tls_cert && opts->tls_key && opts->tls_client_ca;
    if ((opts->tls_cert || opts->tls_key || opts->tls_client_ca) && !tls)
        return czk_error(CZK_ERR_INVALID_ARG, "TLS needs all three of tls_cert, tls_key and tls_client_ca");
    if (listen.rfind("unix:", 0) == 0) {
        // unix:///abs/path (gRPC's form) or unix:relative
        unix_path = listen.rfind("unix://", 0) == 0 ? listen.substr(7) : listen.substr(5);
        czk_status st = prepare_unix_socket(unix_path);
        if (st != CZK_OK) return st;
    } else {
        size_t colon = listen.rfind(':');
        if (colon == std::string::npos || colon + 1 == listen.size())
            return czk_error(CZK_ERR_INVALID_ARG, "listen address '%s': want host:port or unix:///path",
                             listen.c_str());
        std::string port = listen.substr(colon + 1);
        for (char ch : port)
            if (ch < '0' || ch > '9')
                return czk_error(CZK_ERR_INVALID_ARG, "listen address '%s': port '%s' is not a number", listen.c_str(),
                                 port.c_str());
        std::string host = listen.substr(0, colon);
        if (!tls && !is_loopback(host))
            logf(opts, CZK_LOG_WARN, nullptr,
                 "plaintext gRPC on %s, which is not a loopback address: anyone who reaches it can submit and cancel "
                 "proofs (use a unix socket, a loopback address, or tls_cert/tls_key/tls_client_ca)",
                 listen.c_str());
    }

    std::shared_ptr<grpc::ServerCredentials> creds;
    if (tls) {
        grpc::SslServerCredentialsOptions so(GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
        grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
        czk_status st;
        if ((st = read_file(&pair.cert_chain, opts->tls_cert, "tls_cert")) != CZK_OK ||
            (st = read_file(&pair.private_key, opts->tls_key, "tls_key")) != CZK_OK ||
            (st = read_file(&so.pem_root_certs, opts->tls_client_ca, "tls_client_ca")) != CZK_OK)
            return st;
        so.pem_key_cert_pairs.push_back(pair);
        creds = grpc::SslServerCredentials(so);
    } else {
        creds = grpc::InsecureServerCredentials();
    }

    auto srv = std::make_unique<czk_server>();
    srv->service = std::make_unique<engine_service>(svc, opts);
    grpc::ServerBuilder b;
    int port = 0;
    b.AddListeningPort(listen, creds, unix_path.empty() ? &port : nullptr);
    // gRPC binds TCP ports with SO_REUSEPORT by default: a second daemon on
    // the same port would start and share the traffic instead of failing
    b.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    b.SetMaxReceiveMessageSize(static_cast<int>(CZK_SERVER_MAX_MESSAGE));
    b.SetMaxSendMessageSize(static_cast<int>(CZK_SERVER_MAX_MESSAGE));
    b.RegisterService(srv->service.get());
    // the socket is made with mode 0660 from the start (no moment with the
    // umask's): umask is the process's, and nothing else creates files now
    mode_t old_mask = unix_path.empty() ? 0 : umask(0117);
    srv->server = b.BuildAndStart();
    if (!unix_path.empty()) umask(old_mask);
    if (!srv->server || (unix_path.empty() && port == 0))
        return czk_error(CZK_ERR_IO, "cannot listen on %s (in use, or not an address of this machine)", listen.c_str());
    if (unix_path.empty()) {
        srv->address = listen.substr(0, listen.rfind(':') + 1) + std::to_string(port);
    } else {
        if (chmod(unix_path.c_str(), 0660) != 0) {
            int e = errno;
            srv->server->Shutdown();
            unlink(unix_path.c_str());
            return czk_error(CZK_ERR_IO, "chmod 0660 %s: %s", unix_path.c_str(), std::strerror(e));
        }
        srv->address = listen;
        srv->unix_path = unix_path;
    }
    logf(opts, CZK_LOG_INFO, nullptr, "gRPC (cuzk.v1.ProvingEngine%s) listening on %s", tls ? ", mutual TLS" : "",
         srv->address.c_str());
    *out = srv.release();
    return CZK_OK;
}

extern "C" const char *czk_server_address(const czk_server *srv) { return srv ? srv->address.c_str() : ""; }

extern "C" void czk_server_stop(czk_server *srv)
{
    if (!srv) return;
    srv->service->stopping.store(true);
    // calls still waiting see `stopping` within a slice; past the deadline
    // gRPC cancels whatever is left
    srv->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
    srv->server->Wait();
    if (!srv->unix_path.empty()) unlink(srv->unix_path.c_str());
    delete srv;
}
