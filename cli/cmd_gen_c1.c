#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "czk/filecoin.h"

static const char usage[] =
    "usage: czk gen-c1 --sector-size S [--seed N] -o FILE [--envelope] [--verify]\n"
    "                  [--layers L] [--challenges K] [--partitions P] [--tree B[,S[,T]]]\n"
    "                  [--nodes N] [--threads T] [--json] [--quiet]\n\n"
    "Write a synthetic C1 (commit phase 1) file whose vanilla proofs are consistent:\n"
    "real challenges and parents, labels computed with the real label function,\n"
    "Poseidon column hashes and tree C / tree R_last roots, SHA-256 tree D root,\n"
    "encodings = last label + data, comm_r = Poseidon2(comm_c, comm_r_last). Trees are\n"
    "sparse (nodes off the challenged paths are pseudo-random), so every sector size\n"
    "(2KiB, 8MiB, 512MiB, 32GiB, 64GiB) takes seconds and little memory.\n\n"
    "  --sector-size S   2KiB, 8MiB, 512MiB, 32GiB or 64GiB (default 2KiB)\n"
    "  --seed N          generator seed (default 1)\n"
    "  -o, --output F    output file (written atomically)\n"
    "  --envelope        wrap as lotus-bench does: {SectorNum, Phase1Out (base64), SectorSize}\n"
    "  --verify          check every challenge proof natively after generating\n"
    "  --layers, --challenges, --partitions, --tree, --nodes\n"
    "                    a custom test shape (\"CzkCustom\"), starting from --sector-size's\n"
    "                    shape; --tree gives the tree C/R arities base[,sub[,top]]\n";

enum { OPT_SIZE = CZK_OPT_FIRST_FREE, OPT_SEED, OPT_ENVELOPE, OPT_VERIFY, OPT_LAYERS, OPT_CHALLENGES,
       OPT_PARTITIONS, OPT_TREE, OPT_NODES };

typedef struct gen_opts {
    unsigned long long size, seed, nodes;
    long long layers, challenges, partitions;
    unsigned tree[3];
    int custom, envelope, verify;
    const char *out;
} gen_opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    gen_opts *o = ctx;
    switch (opt) {
    case OPT_SIZE:
        return czk_cli_opt_size(&o->size, arg, "--sector-size", "gen-c1", usage);
    case OPT_SEED:
        return czk_cli_opt_u64(&o->seed, arg, "--seed", "gen-c1", usage);
    case 'o': o->out = arg; return 0;
    case OPT_ENVELOPE: o->envelope = 1; return 0;
    case OPT_VERIFY: o->verify = 1; return 0;
    case OPT_LAYERS:
        if (czk_cli_parse_int(arg, 1, CZK_FC_MAX_LAYERS, &o->layers))
            return czk_cli_usage_error("gen-c1", usage, "--layers wants 2, 4, 8 or 11, got '%s'", arg);
        o->custom = 1;
        return 0;
    case OPT_CHALLENGES:
        if (czk_cli_parse_int(arg, 1, 100000, &o->challenges))
            return czk_cli_usage_error("gen-c1", usage, "--challenges wants 1..100000, got '%s'", arg);
        o->custom = 1;
        return 0;
    case OPT_PARTITIONS:
        if (czk_cli_parse_int(arg, 1, 1000, &o->partitions))
            return czk_cli_usage_error("gen-c1", usage, "--partitions wants 1..1000, got '%s'", arg);
        o->custom = 1;
        return 0;
    case OPT_NODES:
        o->custom = 1;
        return czk_cli_opt_size(&o->nodes, arg, "--nodes", "gen-c1", usage);
    case OPT_TREE: {
        unsigned t[3] = {0, 0, 0};
        int n = 0;
        const char *p = arg;
        while (*p && n < 3) {
            char *end;
            unsigned long x = strtoul(p, &end, 10);
            if (end == p || x > 64) break;
            t[n++] = (unsigned)x;
            p = end;
            if (*p == ',') p++;
            else break;
        }
        if (*p || n == 0) return czk_cli_usage_error("gen-c1", usage, "--tree wants B[,S[,T]], got '%s'", arg);
        memcpy(o->tree, t, sizeof t);
        o->custom = 1;
        return 0;
    }
    default: return czk_cli_usage_error("gen-c1", usage, "unexpected option");
    }
}

static void progress(void *ctx, const char *stage, uint64_t done, uint64_t total)
{
    (void)ctx;
    fprintf(stderr, "\r\033[K  %s %llu/%llu", stage, (unsigned long long)done, (unsigned long long)total);
    fflush(stderr);
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"sector-size", required_argument, 0, OPT_SIZE}, {"seed", required_argument, 0, OPT_SEED},
        {"output", required_argument, 0, 'o'},           {"envelope", no_argument, 0, OPT_ENVELOPE},
        {"verify", no_argument, 0, OPT_VERIFY},          {"layers", required_argument, 0, OPT_LAYERS},
        {"challenges", required_argument, 0, OPT_CHALLENGES},
        {"partitions", required_argument, 0, OPT_PARTITIONS},
        {"tree", required_argument, 0, OPT_TREE},        {"nodes", required_argument, 0, OPT_NODES},
        {0, 0, 0, 0},
    };
    gen_opts o = {.size = 2048, .seed = 1};
    czk_cli_common common;
    int rc = czk_cli_parse(argc, argv, "gen-c1", usage, opts, &o, on_opt, &common, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    if (!o.out) return czk_cli_usage_error("gen-c1", usage, "an output file is required (-o FILE)");
    czk_init();
    czk_fc_shape shape;
    czk_status s = czk_fc_shape_of_size(&shape, o.size);
    if (s != CZK_OK) return czk_cli_usage_error("gen-c1", usage, "--sector-size: %s", czk_last_error());
    if (o.custom) {
        uint64_t nodes = o.nodes ? o.nodes : shape.nodes;
        s = czk_fc_shape_custom(&shape, nodes, o.layers ? (uint32_t)o.layers : shape.layers,
                                o.partitions ? (uint32_t)o.partitions : shape.partitions,
                                o.challenges ? (uint32_t)o.challenges : shape.challenges,
                                o.tree[0] ? o.tree[0] : shape.base_arity, o.tree[0] ? o.tree[1] : shape.sub_arity,
                                o.tree[0] ? o.tree[2] : shape.top_arity);
        if (s != CZK_OK) return czk_cli_usage_error("gen-c1", usage, "%s", czk_last_error());
    }
    int prog = czk_cli_progress_enabled(&common);
    double t0 = czk_now();
    czk_fc_c1 c;
    s = czk_fc_gen_c1(&c, &shape, o.seed, prog ? progress : NULL, NULL);
    if (prog) fprintf(stderr, "\r\033[K");
    if (s != CZK_OK) return czk_cli_fail("gen-c1", s, "generating");
    double t1 = czk_now();
    if (o.verify) {
        for (uint32_t k = 0; k < shape.partitions; k++)
            for (uint32_t i = 0; i < shape.challenges; i++) {
                s = czk_fc_verify_challenge(&c, k, i);
                if (s != CZK_OK) {
                    czk_fc_c1_free(&c);
                    return czk_cli_fail("gen-c1", s, "self-check");
                }
            }
    }
    c.has_envelope = o.envelope;
    s = czk_fc_c1_write(&c, o.out);
    double t2 = czk_now();
    if (s != CZK_OK) {
        czk_fc_c1_free(&c);
        return czk_cli_fail("gen-c1", s, "writing");
    }
    char comm_r[67], comm_d[67];
    czk_fr_to_hex(comm_r, &c.comm_r);
    czk_fr_to_hex(comm_d, &c.comm_d);
    FILE *f = fopen(o.out, "rb");
    long bytes = -1;
    if (f) {
        fseek(f, 0, SEEK_END);
        bytes = ftell(f);
        fclose(f);
    }
    if (common.json) {
        printf("{\"file\":\"%s\",\"registered_proof\":\"%s\",\"sector_size\":%llu,\"partitions\":%u,"
               "\"challenges\":%u,\"layers\":%u,\"comm_r\":\"%s\",\"comm_d\":\"%s\",\"bytes\":%ld,"
               "\"envelope\":%s,\"verified\":%s,\"generate_s\":%.3f,\"write_s\":%.3f}\n",
               o.out, czk_fc_proof_name(shape.proof), (unsigned long long)shape.sector_size, shape.partitions,
               shape.challenges, shape.layers, comm_r, comm_d, bytes, o.envelope ? "true" : "false",
               o.verify ? "true" : "false", t1 - t0, t2 - t1);
    } else if (!common.quiet) {
        printf("wrote %s: %s, %llu bytes/sector, %u partition(s) x %u challenges, %u layers%s\n", o.out,
               czk_fc_proof_name(shape.proof), (unsigned long long)shape.sector_size, shape.partitions,
               shape.challenges, shape.layers, o.envelope ? ", lotus-bench envelope" : "");
        printf("  comm_r %s\n  comm_d %s\n  %ld bytes; generated in %.2f s%s, written in %.2f s\n", comm_r,
               comm_d, bytes, t1 - t0, o.verify ? " (and verified)" : "", t2 - t1);
    }
    czk_fc_c1_free(&c);
    return CZK_EXIT_OK;
}

__attribute__((constructor)) static void czk_cli_reg_gen_c1(void)
{
    czk__cli_register("gen-c1", "write a synthetic, consistent C1 (c1.json) for any sector size", run);
}
