#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "common/fileio.h"
#include "groth16/groth16_internal.h"
#include "progress.h"
#include "czk/kind.h"
#include "shape_opts.h"

static const char usage[] =
    "usage: czk setup --circuit porep|window-post|winning-post|snap (--sector-size S | custom shape)\n"
    "                 (-o FILE.params --vk FILE.vk | --param-cache DIR) [--seed N] [--threads N]\n"
    "                 [--stream] [--quiet] [--json]\n\n"
    "Generate Groth16 parameters for one partition of the PoRep circuit, or of\n"
    "the WindowPoSt / WinningPoSt (FallbackPoSt) circuit, or of the SnapDeals\n"
    "(EmptySectorUpdate) circuit, in bellperson's\n"
    ".params layout, and the verifying key separately. The toxic waste comes\n"
    "from getrandom(2) unless --seed is given (tests only: a seeded setup is NOT\n"
    "secure). The parameters are written with their checksum sidecar\n"
    "(FILE.params.czkcheck), so the first pinned read skips the subgroup checks.\n"
    "--param-cache DIR writes both files under the names filecoin-proofs gives\n"
    "them (DIR/v28-...params and .vk), where czk prove --param-cache and czk serve\n"
    "look for them; a custom shape has no such name.\n"
    "--stream: compute and write the parameters section by section from the\n"
    "shape's PCE matrices (cached, or built first), in about 64 bytes per constraint\n"
    "beside them instead of the whole parameters in memory; the same bytes for the\n"
    "same seed. Chosen by itself when the in-memory setup would not fit in the\n"
    "memory available (a 32GiB partition).\n\n" CZK_SHAPE_USAGE
    "  PoSt: --sector-size S [--sectors N] [--challenges C], or\n"
    "        --nodes N --tree B[,S[,T]] --sectors N --challenges C (a custom tree)\n"
    "  snap: --sector-size S, or --nodes N --tree B[,S[,T]] (constants from N)\n";

enum { OPT_CIRCUIT = CZK_OPT_FIRST_FREE, OPT_VK, OPT_SEED, OPT_PARAM_CACHE, OPT_STREAM };

typedef struct {
    czk_shape_args shape;
    const char *circuit, *out, *vk, *param_cache;
    int have_seed, stream;
    unsigned long long seed;
} args;

static int on_opt(void *ctx, int opt, const char *arg)
{
    args *a = ctx;
    int rc;
    if (czk_shape_option(&a->shape, opt, arg, "setup", usage, &rc)) return rc;
    switch (opt) {
    case OPT_CIRCUIT: a->circuit = arg; return 0;
    case 'o': a->out = arg; return 0;
    case OPT_VK: a->vk = arg; return 0;
    case OPT_PARAM_CACHE: a->param_cache = arg; return 0;
    case OPT_STREAM: a->stream = 1; return 0;
    case OPT_SEED:
        a->have_seed = 1;
        return czk_cli_opt_u64(&a->seed, arg, "--seed", "setup", usage);
    }
    return czk_cli_usage_error("setup", usage, "unexpected option");
}

/* -o / --vk, or the names filecoin-proofs gives the shape's files under
 * --param-cache. */
static int output_paths(args *a, const czk_proof_kind *k, const void *shape, char *params_path, char *vk_path,
                        size_t cap)
{
    if (!a->param_cache) return CZK_EXIT_OK;
    czk_status st = czk_mkdirs(a->param_cache, 0755);
    if (st != CZK_OK) return czk_cli_fail("setup", st, "the parameter cache directory");
    st = k->param_path(params_path, cap, a->param_cache, shape, ".params");
    if (st == CZK_OK) st = k->param_path(vk_path, cap, a->param_cache, shape, ".vk");
    if (st != CZK_OK) return czk_cli_fail("setup", st, "no Filecoin parameter name for this shape");
    a->out = params_path;
    a->vk = vk_path;
    return CZK_EXIT_OK;
}

/* Before the hours of work: the free space for at least h and l (the
 * streamed setup checks the exact size once its PCE is known; every write
 * checks its own), and whether an in-memory setup fits: it holds the
 * shape's CSR (~40 bytes per non-zero) and every point, ~550 bytes per
 * constraint; where it would not, stream. */
static int plan(args *a, const czk_cli_common *c, const czk_proof_kind *k, const void *shape)
{
    czk_cs_sizes z;
    if (czk_kind_shape_sizes(&z, k, shape) != CZK_OK) return CZK_EXIT_OK;
    size_t m = 1;
    while (m < z.n_constraints) m <<= 1;
    const size_t n[5] = {m - 1, (size_t)z.n_aux, (size_t)z.n_inputs, 0, 0};
    czk_status sp = czk__space_check(a->out, czk__params_file_bytes((size_t)z.n_inputs, n));
    if (sp != CZK_OK) return czk_cli_fail("setup", sp, "the parameters would not fit");
    if (a->stream) return CZK_EXIT_OK;
    czk_memory_info mi;
    czk_memory_probe(&mi); /* MemTotal or a smaller cgroup limit */
    double avail = (double)mi.limit;
    if (avail > 0 && 550.0 * (double)z.n_constraints > avail) {
        a->stream = 1;
        if (!c->quiet && !c->json)
            fprintf(stderr, "czk setup: ~%.0f GiB for an in-memory setup, %.0f GiB of memory: streaming\n",
                    550.0 * (double)z.n_constraints / 1073741824.0, avail / 1073741824.0);
    }
    return CZK_EXIT_OK;
}

static int setup_streamed(const args *a, const czk_cli_common *c, const czk_proof_kind *k, const void *shape,
                          const char *name, czk_progress *pg, double t0)
{
    uint64_t seed = a->seed;
    czk_status sw = czk_kind_setup_write(a->out, a->vk, k, shape, a->have_seed ? &seed : NULL, czk_progress_cb, pg);
    czk_progress_done(pg);
    double dts = czk_now() - t0;
    if (sw != CZK_OK) return czk_cli_fail("setup", sw, "streamed parameter generation failed");
    struct stat sb;
    unsigned long long bytes = stat(a->out, &sb) == 0 ? (unsigned long long)sb.st_size : 0;
    if (c->json)
        printf("{\"circuit\":\"%s\",\"shape\":\"%s\",\"params\":\"%s\",\"vk\":\"%s\",\"streamed\":true,"
               "\"bytes\":%llu,\"seconds\":%.3f}\n",
               a->circuit, name, a->out, a->vk, bytes, dts);
    else if (!c->quiet)
        printf("setup %s (streamed): %llu bytes of parameters in %.2f s\nwrote %s and %s\n", name, bytes, dts, a->out,
               a->vk);
    return CZK_EXIT_OK;
}

static int setup_shape(args *a, const czk_cli_common *c, const czk_proof_kind *k, const void *shape)
{
    char name[96];
    k->shape_name(name, sizeof name, shape);
    char params_path[1024], vk_path[1024];
    int rc = output_paths(a, k, shape, params_path, vk_path, sizeof params_path);
    if (rc == CZK_EXIT_OK) rc = plan(a, c, k, shape);
    if (rc != CZK_EXIT_OK) return rc;
    czk_progress pg;
    czk_progress_init(&pg, czk_cli_progress_enabled(c));
    double t0 = czk_now();
    if (a->stream) return setup_streamed(a, c, k, shape, name, &pg, t0);
    uint64_t seed = a->seed;
    czk_groth16_params p;
    czk_status s = czk_kind_setup(&p, k, shape, a->have_seed ? &seed : NULL, czk_progress_cb, &pg);
    if (s != CZK_OK) return czk_cli_fail("setup", s, "parameter generation failed");
    s = czk_groth16_params_write_pair(a->out, a->vk, &p);
    double dt = czk_now() - t0;
    if (s != CZK_OK) {
        czk_groth16_params_clear(&p);
        return czk_cli_fail("setup", s, "writing parameters failed");
    }
    if (c->json)
        printf("{\"circuit\":\"%s\",\"shape\":\"%s\",\"params\":\"%s\",\"vk\":\"%s\",\"inputs\":%zu,"
               "\"aux\":%zu,\"h\":%zu,\"a\":%zu,\"b\":%zu,\"seconds\":%.3f}\n",
               a->circuit, name, a->out, a->vk, p.vk.n_ic, p.n_l, p.n_h, p.n_a, p.n_b_g1, dt);
    else if (!c->quiet)
        printf("setup %s: %zu inputs, %zu aux, %zu h, %zu a, %zu b points in %.2f s\nwrote %s and %s\n", name,
               p.vk.n_ic, p.n_l, p.n_h, p.n_a, p.n_b_g1, dt, a->out, a->vk);
    czk_groth16_params_clear(&p);
    return CZK_EXIT_OK;
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {CZK_SHAPE_OPTIONS,
                                         CZK_POST_SHAPE_OPTIONS,
                                         {"circuit", required_argument, 0, OPT_CIRCUIT},
                                         {"output", required_argument, 0, 'o'},
                                         {"vk", required_argument, 0, OPT_VK},
                                         {"seed", required_argument, 0, OPT_SEED},
                                         {"param-cache", required_argument, 0, OPT_PARAM_CACHE},
                                         {"stream", no_argument, 0, OPT_STREAM},
                                         {0, 0, 0, 0}};
    args a;
    memset(&a, 0, sizeof a);
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "setup", usage, opts, &a, on_opt, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    const czk_proof_kind *k = czk_proof_kind_find(a.circuit);
    if (!k) {
        char names[128];
        czk_proof_kind_names(names, sizeof names);
        return czk_cli_usage_error("setup", usage, "--circuit wants %s, got '%s'", names,
                                   a.circuit ? a.circuit : "nothing");
    }
    if (a.param_cache && (a.out || a.vk))
        return czk_cli_usage_error("setup", usage, "--param-cache and -o / --vk exclude each other");
    if (!a.param_cache && (!a.out || !a.vk))
        return czk_cli_usage_error("setup", usage, "-o FILE.params and --vk FILE.vk (or --param-cache DIR) are required");
    void *shape = NULL;
    rc = czk_kind_shape_resolve(&shape, k, &a.shape, "setup", usage);
    if (rc) return rc;
    rc = setup_shape(&a, &c, k, shape);
    free(shape);
    return rc;
}

CZK_CLI_COMMAND(setup, "generate Groth16 parameters for a circuit", run)
