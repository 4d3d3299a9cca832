// czk serve's configuration (czk/server.h). Placeholder while it is written.
#include <cstdlib>
#include <cstring>

#include "czk/czk.h"
#include "czk/server.h"

extern "C" void czk_serve_config_init(czk_serve_config *c) { std::memset(c, 0, sizeof *c); }
extern "C" czk_status czk_serve_config_load(czk_serve_config *c, const char *path,
                                            void (*warn)(void *ctx, const char *msg), void *ctx)
{
    return czk_error(CZK_ERR_UNSUPPORTED, "%s: configuration files are not read yet", path);
}
extern "C" void czk_serve_config_clear(czk_serve_config *c) { std::memset(c, 0, sizeof *c); }
extern "C" void czk_serve_config_service_opts(const czk_serve_config *c, czk_service_opts *out)
{
    std::memset(out, 0, sizeof *out);
}
