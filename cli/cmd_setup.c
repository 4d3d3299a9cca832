#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "common/fileio.h"
#include "groth16/groth16_internal.h"
#include "progress.h"
#include "czk/porep_kind.h"
#include "czk/post_kind.h"
#include "czk/snap_kind.h"
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
    "--stream (PoRep): compute and write the parameters section by section from the\n"
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
    long long v;
    switch (opt) {
    case OPT_CIRCUIT: a->circuit = arg; return 0;
    case 'o': a->out = arg; return 0;
    case OPT_VK: a->vk = arg; return 0;
    case OPT_PARAM_CACHE: a->param_cache = arg; return 0;
    case OPT_STREAM: a->stream = 1; return 0;
    case OPT_SEED:
        if (czk_cli_parse_int(arg, 0, INT64_MAX, &v))
            return czk_cli_usage_error("setup", usage, "--seed wants a non-negative integer, got '%s'", arg);
        a->have_seed = 1;
        a->seed = (unsigned long long)v;
        return 0;
    }
    return czk_cli_usage_error("setup", usage, "unexpected option");
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
    czk_post_kind pk = CZK_POST_WINDOW;
    int post = a.circuit && strstr(a.circuit, "-post") && czk_post_kind_parse(&pk, a.circuit) == CZK_OK;
    int snap = a.circuit && !strcmp(a.circuit, "snap");
    if (!a.circuit || (!post && !snap && strcmp(a.circuit, "porep") != 0))
        return czk_cli_usage_error("setup", usage, "--circuit wants porep, window-post, winning-post or snap, got '%s'",
                                   a.circuit ? a.circuit : "nothing");
    if (a.param_cache && (a.out || a.vk))
        return czk_cli_usage_error("setup", usage, "--param-cache and -o / --vk exclude each other");
    if (!a.param_cache && (!a.out || !a.vk))
        return czk_cli_usage_error("setup", usage, "-o FILE.params and --vk FILE.vk (or --param-cache DIR) are required");
    czk_fc_shape shape;
    czk_post_shape ps;
    czk_snap_shape ss;
    char name[64];
    if (snap) {
        rc = czk_snap_shape_resolve(&ss, &a.shape, "setup", usage);
        if (rc) return rc;
        if (ss.update_proof == CZK_SNAP_PROOF_CUSTOM)
            snprintf(name, sizeof name, "snap (custom, %llu nodes)", (unsigned long long)ss.tree.nodes);
        else
            snprintf(name, sizeof name, "snap %s", czk_snap_proof_name(ss.update_proof));
    } else if (post) {
        rc = czk_post_shape_resolve(&ps, pk,
                                    &a.shape, "setup", usage);
        if (rc) return rc;
        if (ps.tree.proof == CZK_FC_PROOF_CUSTOM)
            snprintf(name, sizeof name, "%s (custom)", a.circuit);
        else
            snprintf(name, sizeof name, "%s %lluB", a.circuit, (unsigned long long)(ps.tree.nodes * 32));
    } else {
        rc = czk_shape_resolve(&shape, &a.shape, "setup", usage);
        if (rc) return rc;
        snprintf(name, sizeof name, "%s", czk_fc_proof_name(shape.proof));
    }
    char params_path[1024], vk_path[1024];
    if (a.param_cache) {
        czk_status ps_st = czk_mkdirs(a.param_cache, 0755);
        if (ps_st != CZK_OK) return czk_cli_fail("setup", ps_st, "the parameter cache directory");
        ps_st = snap   ? czk_snap_param_path(params_path, sizeof params_path, a.param_cache, &ss, ".params")
                : post ? czk_post_param_path(params_path, sizeof params_path, a.param_cache, &ps, ".params")
                       : czk_fc_param_path(params_path, sizeof params_path, a.param_cache, shape.proof, ".params");
        if (ps_st == CZK_OK)
            ps_st = snap   ? czk_snap_param_path(vk_path, sizeof vk_path, a.param_cache, &ss, ".vk")
                    : post ? czk_post_param_path(vk_path, sizeof vk_path, a.param_cache, &ps, ".vk")
                           : czk_fc_param_path(vk_path, sizeof vk_path, a.param_cache, shape.proof, ".vk");
        if (ps_st != CZK_OK) return czk_cli_fail("setup", ps_st, "no Filecoin parameter name for this shape");
        a.out = params_path;
        a.vk = vk_path;
    }
    if (a.stream && (post || snap)) return czk_cli_usage_error("setup", usage, "--stream is for --circuit porep");
    czk_progress pg;
    czk_progress_init(&pg, czk_cli_progress_enabled(&c));
    czk_groth16_params p;
    uint64_t seed = a.seed;
    double t0 = czk_now();
    czk_cs_sizes z;
    if (!post && !snap && czk_porep_sizes(&z, &shape) == CZK_OK) {
        /* the free space for at least h and l, before the hours of work
         * (the streamed setup checks the exact size once its PCE is known;
         * every write checks its own size) */
        size_t m = 1;
        while (m < z.n_constraints) m <<= 1;
        const size_t n[5] = {m - 1, (size_t)z.n_aux, (size_t)z.n_inputs, 0, 0};
        czk_status sp = czk__space_check(a.out, czk__params_file_bytes((size_t)z.n_inputs, n));
        if (sp != CZK_OK) return czk_cli_fail("setup", sp, "the parameters would not fit");
    }
    if (!post && !snap && !a.stream) {
        /* the in-memory setup holds the shape's CSR (~40 bytes per non-zero)
         * and every point: ~550 bytes per constraint */
        czk_memory_info mi;
        czk_memory_probe(&mi); /* MemTotal or a smaller cgroup limit */
        double avail = (double)mi.limit;
        if (czk_porep_sizes(&z, &shape) == CZK_OK && avail > 0 && 550.0 * (double)z.n_constraints > avail) {
            a.stream = 1;
            if (!c.quiet && !c.json)
                fprintf(stderr, "czk setup: ~%.0f GiB for an in-memory setup, %.0f GiB of memory: streaming\n",
                        550.0 * (double)z.n_constraints / 1073741824.0, avail / 1073741824.0);
        }
    }
    if (a.stream) {
        czk_status sw = czk_porep_setup_write(a.out, a.vk, &shape, a.have_seed ? &seed : NULL, czk_progress_cb, &pg);
        czk_progress_done(&pg);
        double dts = czk_now() - t0;
        if (sw != CZK_OK) return czk_cli_fail("setup", sw, "streamed parameter generation failed");
        struct stat sb;
        unsigned long long bytes = stat(a.out, &sb) == 0 ? (unsigned long long)sb.st_size : 0;
        if (c.json)
            printf("{\"circuit\":\"%s\",\"shape\":\"%s\",\"params\":\"%s\",\"vk\":\"%s\",\"streamed\":true,"
                   "\"bytes\":%llu,\"seconds\":%.3f}\n",
                   a.circuit, czk_fc_proof_name(shape.proof), a.out, a.vk, bytes, dts);
        else if (!c.quiet)
            printf("setup %s (streamed): %llu bytes of parameters in %.2f s\nwrote %s and %s\n", name, bytes, dts,
                   a.out,
                   a.vk);
        return CZK_EXIT_OK;
    }
    const uint64_t *sp = a.have_seed ? &seed : NULL;
    czk_status s = snap   ? czk_snap_setup_params(&p, &ss, sp, czk_progress_cb, &pg)
                   : post ? czk_post_setup_params(&p, &ps, sp, czk_progress_cb, &pg)
                          : czk_porep_setup_params(&p, &shape, sp, czk_progress_cb, &pg);
    if (s != CZK_OK) return czk_cli_fail("setup", s, "parameter generation failed");
    s = czk_groth16_params_write_pair(a.out, a.vk, &p);
    double dt = czk_now() - t0;
    if (s != CZK_OK) {
        czk_groth16_params_clear(&p);
        return czk_cli_fail("setup", s, "writing parameters failed");
    }
    if (c.json)
        printf("{\"circuit\":\"%s\",\"shape\":\"%s\",\"params\":\"%s\",\"vk\":\"%s\",\"inputs\":%zu,"
               "\"aux\":%zu,\"h\":%zu,\"a\":%zu,\"b\":%zu,\"seconds\":%.3f}\n",
               a.circuit, post || snap ? name : czk_fc_proof_name(shape.proof),
               a.out, a.vk, p.vk.n_ic, p.n_l, p.n_h, p.n_a,
               p.n_b_g1, dt);
    else if (!c.quiet)
        printf("setup %s: %zu inputs, %zu aux, %zu h, %zu a, %zu b points in %.2f s\nwrote %s and %s\n", name,
               p.vk.n_ic, p.n_l, p.n_h, p.n_a, p.n_b_g1, dt, a.out, a.vk);
    czk_groth16_params_clear(&p);
    return CZK_EXIT_OK;
}

CZK_CLI_COMMAND(setup, "generate Groth16 parameters for a circuit", run)
