/* The proving service (czk/service.h). Placeholder while it is written:
 * every call fails with CZK_ERR_UNSUPPORTED. */
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/service.h"

struct czk_service {
    czk_service_opts o;
};

const char *czk_svc_kind_label(czk_svc_kind k)
{
    switch (k) {
    case CZK_SVC_POREP: return "porep_c2";
    case CZK_SVC_SNAP: return "snap_update";
    case CZK_SVC_WINDOW_POST: return "window_post";
    case CZK_SVC_WINNING_POST: return "winning_post";
    default: return "unspecified";
    }
}

czk_svc_priority czk_svc_default_priority(czk_svc_kind k)
{
    return k == CZK_SVC_WINNING_POST ? CZK_SVC_CRITICAL : k == CZK_SVC_WINDOW_POST ? CZK_SVC_HIGH : CZK_SVC_NORMAL;
}

czk_status czk_service_create(czk_service **out, const czk_service_opts *opts)
{
    *out = NULL;
    return czk_error(CZK_ERR_UNSUPPORTED, "service: not yet");
}
void czk_service_shutdown(czk_service *s, int cancel_running) { (void)s, (void)cancel_running; }
void czk_service_destroy(czk_service *s) { free(s); }
czk_status czk_service_submit(czk_service *s, const czk_svc_request *r, czk_svc_submitted *out)
{
    return czk_error(CZK_ERR_UNSUPPORTED, "service: not yet");
}
void czk_svc_result_clear(czk_svc_result *r)
{
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
}
czk_status czk_service_await(czk_service *s, const char *job_id, int64_t timeout_ms, czk_svc_result *out)
{
    return czk_error(CZK_ERR_UNSUPPORTED, "service: not yet");
}
czk_status czk_service_cancel(czk_service *s, const char *job_id, int *was_running)
{
    return czk_error(CZK_ERR_UNSUPPORTED, "service: not yet");
}
czk_status czk_service_preload(czk_service *s, const char *circuit_id, int *already, uint64_t *ms)
{
    return czk_error(CZK_ERR_UNSUPPORTED, "service: not yet");
}
czk_status czk_service_evict(czk_service *s, const char *circuit_id, int *was_loaded, uint64_t *freed)
{
    return czk_error(CZK_ERR_UNSUPPORTED, "service: not yet");
}
czk_status czk_service_status(czk_service *s, czk_svc_status *out)
{
    return czk_error(CZK_ERR_UNSUPPORTED, "service: not yet");
}
void czk_svc_status_clear(czk_svc_status *st)
{
    free(st->srs);
    st->srs = NULL;
    st->n_srs = 0;
}
czk_status czk_service_status_json(czk_service *s, char **out)
{
    return czk_error(CZK_ERR_UNSUPPORTED, "service: not yet");
}
czk_status czk_service_metrics(czk_service *s, char **out)
{
    return czk_error(CZK_ERR_UNSUPPORTED, "service: not yet");
}
int czk_service_grpc_code(czk_status st)
{
    switch (st) {
    case CZK_OK: return 0;
    case CZK_ERR_CANCELLED: return 1;
    case CZK_ERR_INVALID_ARG:
    case CZK_ERR_FORMAT:
    case CZK_ERR_NOT_CANONICAL:
    case CZK_ERR_NOT_ON_CURVE:
    case CZK_ERR_NOT_IN_SUBGROUP:
    case CZK_ERR_IDENTITY:
    case CZK_ERR_UNSUPPORTED: return 3;
    case CZK_ERR_NOT_FOUND: return 5;
    case CZK_ERR_NOMEM: return 8;
    case CZK_ERR_BUSY: return 9;
    case CZK_ERR_UNAVAILABLE: return 14;
    default: return 13;
    }
}
