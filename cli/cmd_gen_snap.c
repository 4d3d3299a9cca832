/* czk gen-snap: a synthetic, consistent SnapDeals update as a vanilla
 * directory (snap.json + snap-partition-K.bin), the input of czk prove
 * --snap, czk verify --snap and czk bench synth-only --circuit snap
 * --vanilla. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "czk/czk.h"
#include "czk/snap.h"
#include "czk/snap_kind.h"

static const char usage[] =
    "usage: czk gen-snap --sector-size S -o DIR [--seed N] [--challenges K] [--json] [--quiet]\n\n"
    "Write a synthetic SnapDeals update whose vanilla partition proofs are consistent:\n"
    "an old replica and new data that repeat a pseudo-random tile of nodes (the whole\n"
    "sector up to 8MiB), the new replica encoded from them with rho as filecoin-proofs\n"
    "encodes it, comm_r_old, comm_d_new and comm_r_new of the whole trees (each distinct\n"
    "subtree hashed once: a 32GiB update takes seconds), and every partition's proof of\n"
    "the challenges those commitments derive. Checked natively before anything is written.\n\n"
    "  --sector-size S   2KiB, 8MiB, 512MiB, 32GiB or 64GiB (default 2KiB)\n"
    "  -o, --output DIR  writes DIR/snap-partition-K.bin (one per partition, bincode\n"
    "                    PartitionProof) and DIR/snap.json (atomically, the JSON last)\n"
    "  --seed N          generator seed (default 1)\n"
    "  --challenges K    a test shape: K challenges per partition (1 .. the size's), the\n"
    "                    rest of the size's circuit kept; snap.json records K (no v28\n"
    "                    parameters exist for it)\n";

enum { OPT_SIZE = CZK_OPT_FIRST_FREE, OPT_SEED, OPT_CHALLENGES };

typedef struct gen_opts {
    const char *out;
    unsigned long long size, seed;
    long long challenges;
} gen_opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    gen_opts *o = ctx;
    switch (opt) {
    case OPT_SIZE:
        return czk_cli_opt_size(&o->size, arg, "--sector-size", "gen-snap", usage);
    case OPT_SEED:
        return czk_cli_opt_u64(&o->seed, arg, "--seed", "gen-snap", usage);
    case OPT_CHALLENGES:
        if (czk_cli_parse_int(arg, 1, 100000, &o->challenges))
            return czk_cli_usage_error("gen-snap", usage, "--challenges wants a positive integer, got '%s'", arg);
        return 0;
    case 'o': o->out = arg; return 0;
    default: return czk_cli_usage_error("gen-snap", usage, "unexpected option");
    }
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"sector-size", required_argument, 0, OPT_SIZE},
        {"seed", required_argument, 0, OPT_SEED},
        {"challenges", required_argument, 0, OPT_CHALLENGES},
        {"output", required_argument, 0, 'o'},
        {0, 0, 0, 0},
    };
    gen_opts o = {.size = 2048, .seed = 1};
    czk_cli_common common;
    int rc = czk_cli_parse(argc, argv, "gen-snap", usage, opts, &o, on_opt, &common, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    if (!o.out) return czk_cli_usage_error("gen-snap", usage, "an output directory is required (-o DIR)");
    czk_cli_apply_common(&common);
    czk_init();
    czk_snap_shape shape;
    if (czk_snap_shape_of(&shape, o.size) != CZK_OK)
        return czk_cli_usage_error("gen-snap", usage, "--sector-size: %s", czk_last_error());
    const char *name = czk_snap_proof_name(shape.update_proof); /* snap.json's, with or without --challenges */
    if (o.challenges && czk_snap_shape_challenges(&shape, (uint32_t)o.challenges) != CZK_OK)
        return czk_cli_usage_error("gen-snap", usage, "--challenges: %s", czk_last_error());
    double t0 = czk_now();
    czk_snap_vanilla v;
    czk_status s = czk_snap_gen(&v, &shape, o.seed);
    if (s != CZK_OK) return czk_cli_fail("gen-snap", s, "generating");
    double t1 = czk_now();
    s = czk_snap_vanilla_check(&v);
    double t2 = czk_now();
    uint64_t bytes = 0;
    const char *what = "self-check";
    if (s == CZK_OK) s = czk_snap_dir_write(o.out, &v, &bytes), what = "writing";
    double t3 = czk_now();
    if (s != CZK_OK) {
        czk_snap_vanilla_free(&v);
        return czk_cli_fail("gen-snap", s, what);
    }
    if (common.json) {
        printf("{\"dir\":\"%s\",\"registered_update_proof\":\"%s\",\"sector_size\":%llu,\"partitions\":%u,"
               "\"challenges\":%u,\"partition_bytes\":%zu,\"bytes\":%llu,\"generate_s\":%.3f,\"check_s\":%.3f,"
               "\"write_s\":%.3f}\n",
               o.out, name, (unsigned long long)o.size, shape.partitions, shape.challenges,
               czk_snap_partition_proof_bytes(&shape), (unsigned long long)bytes, t1 - t0, t2 - t1, t3 - t2);
    } else if (!common.quiet) {
        printf("wrote %s/snap.json and %u snap-partition-K.bin: %s, %u partition(s) x %u challenges, %zu bytes each\n",
               o.out, shape.partitions, name, shape.partitions, shape.challenges,
               czk_snap_partition_proof_bytes(&shape));
        printf("  %llu bytes; generated in %.2f s, checked in %.2f s, written in %.2f s\n", (unsigned long long)bytes,
               t1 - t0, t2 - t1, t3 - t2);
    }
    czk_snap_vanilla_free(&v);
    return CZK_EXIT_OK;
}

__attribute__((constructor)) static void czk_cli_reg_gen_snap(void)
{
    czk__cli_register("gen-snap", "write a synthetic, consistent SnapDeals update (vanilla partition proofs)", run);
}
