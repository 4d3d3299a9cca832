// The cuzk.v1.ProvingEngine gRPC server (czk/server.h). Placeholder while it is written.
#include "cuzk/v1/proving.grpc.pb.h"
#include "czk/czk.h"
#include "czk/server.h"

extern "C" czk_status czk_server_start(czk_server **out, czk_service *svc, const czk_server_opts *opts)
{
    *out = nullptr;
    return czk_error(CZK_ERR_UNSUPPORTED, "gRPC server: not yet");
}
extern "C" const char *czk_server_address(const czk_server *srv) { return ""; }
extern "C" void czk_server_stop(czk_server *srv) {}
extern "C" int czk_client_main(int argc, char **argv) { return 2; }
