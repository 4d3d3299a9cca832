/* czk gen-post: a synthetic, consistent WindowPoSt / WinningPoSt partition
 * as a vanilla directory (post-KIND.json + vanilla-KIND.bin), the input of
 * czk prove --post and czk bench synth-only --vanilla. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "czk/czk.h"
#include "czk/post_kind.h"
#include "czk/post_vanilla.h"

static const char usage[] =
    "usage: czk gen-post --kind window|winning --sector-size S -o DIR [--sectors N]\n"
    "                    [--sector-set N] [--api 1|1_2] [--seed N] [--randomness HEX]\n"
    "                    [--miner-id N] [--json] [--quiet]\n\n"
    "Write a synthetic PoSt partition whose vanilla proofs are consistent: canonical\n"
    "randomness, a miner id and its prover id (LEB128, as Curio derives it; the JSON's\n"
    "miner_id), ascending sector ids, the challenged leaves derived from\n"
    "them as filecoin-proofs derives them, an inclusion proof per challenge in a sparse\n"
    "tree R_last (so a 32GiB partition takes seconds), comm_r = Poseidon2(comm_c,\n"
    "comm_r_last). The proofs are checked natively before anything is written.\n\n"
    "  --kind K          window or winning\n"
    "  --sector-size S   2KiB, 8MiB, 512MiB, 32GiB or 64GiB (default 2KiB)\n"
    "  -o, --output DIR  writes DIR/post-KIND.json and DIR/vanilla-KIND.bin (atomically)\n"
    "  --sectors N       WindowPoSt: sectors in the partition (default: a full partition,\n"
    "                    2 / 2,349 / 2,300 at 2KiB..512MiB / 32GiB / 64GiB; fewer is a\n"
    "                    short partition, padded by the circuit)\n"
    "  --sector-set N    WinningPoSt: sectors to choose the proven one from (default 1)\n"
    "  --api V           WindowPoSt proof version: 1_2 (StackedDrgWindow*V1_2, default)\n"
    "                    or 1 (V1: challenges mix in the sector's position)\n"
    "  --seed N          generator seed (default 1)\n"
    "  --randomness HEX  this randomness (32 bytes as 64 hex digits, a canonical field\n"
    "                    element) instead of the seed's: with --miner-id, another\n"
    "                    partition of the same deadline (--seed picks its sectors)\n"
    "  --miner-id N      this miner id (and its prover id) instead of the seed's\n";

enum { OPT_KIND = CZK_OPT_FIRST_FREE, OPT_SIZE, OPT_SECTORS, OPT_SET, OPT_API, OPT_SEED, OPT_RANDOMNESS, OPT_MINER };

typedef struct gen_opts {
    const char *kind, *out;
    unsigned long long size, seed;
    long long sectors, set;
    int api;
    uint8_t randomness[32];
    czk_post_gen_opts gen;
} gen_opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    gen_opts *o = ctx;
    switch (opt) {
    case OPT_KIND: o->kind = arg; return 0;
    case OPT_SIZE:
        return czk_cli_opt_size(&o->size, arg, "--sector-size", "gen-post", usage);
    case OPT_SECTORS:
        if (czk_cli_parse_int(arg, 1, 100000, &o->sectors))
            return czk_cli_usage_error("gen-post", usage, "--sectors wants 1..100000, got '%s'", arg);
        return 0;
    case OPT_SET:
        if (czk_cli_parse_int(arg, 1, INT32_MAX, &o->set))
            return czk_cli_usage_error("gen-post", usage, "--sector-set wants a positive integer, got '%s'", arg);
        return 0;
    case OPT_API:
        if (!strcmp(arg, "1") || !strcmp(arg, "v1") || !strcmp(arg, "V1")) o->api = 1;
        else if (!strcmp(arg, "1_2") || !strcmp(arg, "v1_2") || !strcmp(arg, "V1_2")) o->api = 2;
        else return czk_cli_usage_error("gen-post", usage, "--api wants 1 or 1_2, got '%s'", arg);
        return 0;
    case OPT_SEED:
        return czk_cli_opt_u64(&o->seed, arg, "--seed", "gen-post", usage);
    case OPT_RANDOMNESS:
        if (czk_cli_parse_hex32(o->randomness, arg))
            return czk_cli_usage_error("gen-post", usage, "--randomness wants 32 bytes as 64 hex digits, got '%s'",
                                       arg);
        o->gen.randomness = o->randomness;
        return 0;
    case OPT_MINER:
    {
        unsigned long long m;
        int rc = czk_cli_opt_u64(&m, arg, "--miner-id", "gen-post", usage);
        o->gen.has_miner_id = 1;
        o->gen.miner_id = m;
        return rc;
    }
    case 'o': o->out = arg; return 0;
    default: return czk_cli_usage_error("gen-post", usage, "unexpected option");
    }
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"kind", required_argument, 0, OPT_KIND},       {"sector-size", required_argument, 0, OPT_SIZE},
        {"sectors", required_argument, 0, OPT_SECTORS}, {"sector-set", required_argument, 0, OPT_SET},
        {"api", required_argument, 0, OPT_API},         {"seed", required_argument, 0, OPT_SEED},
        {"randomness", required_argument, 0, OPT_RANDOMNESS}, {"miner-id", required_argument, 0, OPT_MINER},
        {"output", required_argument, 0, 'o'},          {0, 0, 0, 0},
    };
    gen_opts o = {.size = 2048, .seed = 1};
    czk_cli_common common;
    int rc = czk_cli_parse(argc, argv, "gen-post", usage, opts, &o, on_opt, &common, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_post_kind kind;
    if (!o.kind) return czk_cli_usage_error("gen-post", usage, "--kind window|winning is required");
    if (czk_post_kind_parse(&kind, o.kind) != CZK_OK)
        return czk_cli_usage_error("gen-post", usage, "--kind wants window or winning, got '%s'", o.kind);
    if (!o.out) return czk_cli_usage_error("gen-post", usage, "an output directory is required (-o DIR)");
    if (kind == CZK_POST_WINNING && (o.sectors || o.api))
        return czk_cli_usage_error("gen-post", usage, "%s is for WindowPoSt (WinningPoSt proves one sector: "
                                   "--sector-set N chooses it from N)", o.sectors ? "--sectors" : "--api");
    if (kind == CZK_POST_WINDOW && o.set)
        return czk_cli_usage_error("gen-post", usage, "--sector-set is for WinningPoSt (WindowPoSt: --sectors N)");
    czk_init();
    czk_post_shape shape;
    if (czk_post_shape_of(&shape, kind, o.size) != CZK_OK)
        return czk_cli_usage_error("gen-post", usage, "--sector-size: %s", czk_last_error());
    if (o.api) shape.api = o.api == 1 ? CZK_POST_API_V1_1 : CZK_POST_API_V1_2;
    uint32_t n = kind == CZK_POST_WINNING ? 1 : o.sectors ? (uint32_t)o.sectors : shape.sectors;
    if (n > czk_post_vanilla_sectors(&shape))
        return czk_cli_usage_error("gen-post", usage, "--sectors %u: a %s partition holds at most %u", n,
                                   czk_post_kind_name(kind), czk_post_vanilla_sectors(&shape));
    uint32_t set = kind == CZK_POST_WINNING ? (o.set ? (uint32_t)o.set : 1) : n;

    double t0 = czk_now();
    czk_post_vanilla v;
    czk_post_json m;
    czk_status s = czk_post_gen_ex(&v, &m, &shape, n, set, o.seed, &o.gen);
    if (s != CZK_OK) return czk_cli_fail("gen-post", s, "generating");
    double t1 = czk_now();
    s = czk_post_vanilla_check(&v);
    double t2 = czk_now();
    uint64_t bytes = 0;
    const char *what = "self-check";
    if (s == CZK_OK) s = czk_post_dir_write(o.out, &v, &m, &bytes), what = "writing";
    double t3 = czk_now();
    if (s != CZK_OK) {
        czk_post_gen_vanilla_free(&v);
        czk_post_json_free(&m);
        return czk_cli_fail("gen-post", s, what);
    }
    const char *k = kind == CZK_POST_WINNING ? "winning" : "window";
    if (common.json) {
        printf("{\"dir\":\"%s\",\"kind\":\"%s\",\"registered_post_proof\":\"%s\",\"sector_size\":%llu,"
               "\"sectors\":%u,\"sector_set\":%u,\"challenges_per_sector\":%u,\"first_sector_id\":%llu,\"miner_id\":%llu,"
               "\"bytes\":%llu,\"generate_s\":%.3f,\"check_s\":%.3f,\"write_s\":%.3f}\n",
               o.out, czk_post_kind_name(kind), m.proof, (unsigned long long)o.size, n, set, shape.sector_challenges,
               (unsigned long long)m.sector_ids[0], (unsigned long long)m.miner_id, (unsigned long long)bytes, t1 - t0,
               t2 - t1, t3 - t2);
    } else if (!common.quiet) {
        printf("wrote %s/post-%s.json and vanilla-%s.bin: %s, %u sector(s) x %u challenges", o.out, k, k, m.proof, n,
               shape.sector_challenges);
        if (kind == CZK_POST_WINNING) printf(" (sector %llu of a set of %u)", (unsigned long long)m.sector_ids[0], set);
        printf("; miner %llu (its prover id)", (unsigned long long)m.miner_id);
        printf("\n  %llu bytes; generated in %.2f s, checked in %.2f s, written in %.2f s\n",
               (unsigned long long)bytes, t1 - t0, t2 - t1, t3 - t2);
    }
    czk_post_gen_vanilla_free(&v);
    czk_post_json_free(&m);
    return CZK_EXIT_OK;
}

__attribute__((constructor)) static void czk_cli_reg_gen_post(void)
{
    czk__cli_register("gen-post", "write a synthetic, consistent WindowPoSt / WinningPoSt vanilla directory", run);
}
