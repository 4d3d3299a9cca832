/* GET /status and GET /metrics over libmicrohttpd (czk/server.h). Placeholder while it is written. */
#include "czk/czk.h"
#include "czk/server.h"

czk_status czk_http_start(czk_http **out, czk_service *svc, const char *listen)
{
    *out = NULL;
    return czk_error(CZK_ERR_UNSUPPORTED, "HTTP status server: not yet");
}
int czk_http_port(const czk_http *h) { return 0; }
void czk_http_stop(czk_http *h) {}
