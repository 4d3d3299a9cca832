#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "shape_opts.h"
#include "czk/kind.h"
#include "czk/post.h"

static const char usage[] =
    "usage: czk verify (--vk FILE.vk | --param-cache DIR) --c1 C1.json --proof PROOF.bin [--partition K] [--json]\n"
    "       czk verify --post window|winning --vanilla DIR (--vk FILE.vk | --param-cache DIR) --proof PROOF.bin\n"
    "                  [--json]\n"
    "       czk verify --snap --vanilla DIR (--vk FILE.vk | --param-cache DIR) --proof PROOF.bin [--json]\n\n"
    "Verify a PoRep proof file (192 bytes per partition, in order) against the\n"
    "public inputs derived from the C1 data. Several partitions are checked\n"
    "together with one multi-pairing over a random linear combination.\n"
    "--param-cache DIR: Filecoin's verifying key for the C1's registered proof,\n"
    "DIR/v28-stacked-proof-of-replication-...vk (default DIR when neither flag is\n"
    "given: $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters).\n"
    "--post window|winning --vanilla DIR: verify a WindowPoSt / WinningPoSt proof (192\n"
    "bytes) against the public data of DIR/post-KIND.json alone (comm_r, and the\n"
    "challenges its randomness derives); --param-cache DIR then names\n"
    "DIR/v28-proof-of-spacetime-fallback-...vk.\n"
    "--snap --vanilla DIR: verify a SnapDeals update proof (192 bytes per partition,\n"
    "in order) against DIR/snap.json alone (its update proof type, comm_r_old,\n"
    "comm_d_new and comm_r_new; the partition proofs are not read); --param-cache DIR\n"
    "then names DIR/v28-empty-sector-update-...vk.\n"
    "Exit status 0: valid; 1: invalid or unreadable (the reason is printed).\n";

enum { OPT_VK = CZK_OPT_FIRST_FREE, OPT_C1, OPT_PROOF, OPT_PARTITION, OPT_PARAM_CACHE, OPT_POST, OPT_VANILLA,
       OPT_SNAP };

typedef struct {
    const char *vk, *c1, *proof, *param_cache, *vanilla;
    long long partition;
    czk_kind_input_args pick; /* the kind a picking option named (--post, --snap) */
} args;

static int on_opt(void *ctx, int opt, const char *arg)
{
    args *a = ctx;
    switch (opt) {
    case OPT_VK: a->vk = arg; return 0;
    case OPT_PARAM_CACHE: a->param_cache = arg; return 0;
    case OPT_C1: a->c1 = arg; return 0;
    case OPT_PROOF: a->proof = arg; return 0;
    case OPT_VANILLA: a->vanilla = arg; return 0;
    case OPT_SNAP: return czk_kind_pick(&a->pick, "--snap", NULL, "verify", usage);
    case OPT_POST: return czk_kind_pick(&a->pick, "--post", arg, "verify", usage);
    case OPT_PARTITION:
        if (czk_cli_parse_int(arg, 0, 1000, &a->partition))
            return czk_cli_usage_error("verify", usage, "--partition wants a partition number, got '%s'", arg);
        return 0;
    }
    return czk_cli_usage_error("verify", usage, "unexpected option");
}

static czk_status read_all(uint8_t **out, size_t *len, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return czk_error(CZK_ERR_IO, "%s: %s", path, strerror(errno));
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return czk_error(CZK_ERR_NOMEM, "%s", path);
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
        if (n > (1u << 24)) {
            free(buf);
            fclose(f);
            return czk_error(CZK_ERR_FORMAT, "%s: larger than any proof file", path);
        }
    }
    fclose(f);
    *out = buf;
    *len = n;
    return CZK_OK;
}

/* The proof file: count proofs of 192 bytes, decoded (*out malloc'd). */
static czk_status read_proofs(czk_groth16_proof **out, const char *path, uint32_t count)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    *out = NULL;
    CZK_TRY(read_all(&bytes, &len, path));
    czk_status s = CZK_OK;
    if (len != (size_t)count * CZK_GROTH16_PROOF_BYTES)
        s = czk_error(CZK_ERR_FORMAT, "%s: %zu bytes, expected %u proof%s of %d bytes", path, len, count,
                      count > 1 ? "s" : "", CZK_GROTH16_PROOF_BYTES);
    czk_groth16_proof *pr = s == CZK_OK ? calloc(count, sizeof *pr) : NULL;
    if (s == CZK_OK && !pr) s = czk_error(CZK_ERR_NOMEM, "%u proofs", count);
    for (uint32_t i = 0; s == CZK_OK && i < count; i++) {
        s = czk_groth16_proof_decode(&pr[i], bytes + (size_t)i * CZK_GROTH16_PROOF_BYTES);
        if (s != CZK_OK)
            s = czk_error_context(s, "%s: proof %u (byte offset %zu)", path, i, (size_t)i * CZK_GROTH16_PROOF_BYTES);
    }
    free(bytes);
    if (s != CZK_OK) {
        free(pr);
        return s;
    }
    *out = pr;
    return CZK_OK;
}

/* Verify the proof file against kind k's public data at input. */
static int verify_kind(const args *a, const czk_cli_common *c, const czk_proof_kind *k, const char *input)
{
    void *pub = NULL;
    czk_status s = k->read_public(&pub, input);
    if (s != CZK_OK) return czk_cli_fail("verify", s, "reading the public data failed");
    const uint32_t parts = k->public_partitions(pub);
    const char *name = k->public_name(pub);
    char vk_path[1024];
    const char *vkp = a->vk;
    int code = CZK_EXIT_FAIL;
    czk_groth16_proof *pr = NULL;
    czk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    if (a->partition >= (long long)parts) {
        code = czk_cli_usage_error("verify", usage, "--partition %lld: the sector has %u partitions", a->partition,
                                   parts);
        goto out;
    }
    const uint32_t part = (uint32_t)(a->partition >= 0 ? a->partition : 0);
    const uint32_t count = a->partition >= 0 ? 1 : parts;
    if (!vkp) {
        s = k->param_path(vk_path, sizeof vk_path, a->param_cache ? a->param_cache : czk_fc_param_cache_dir(),
                          k->public_shape(pub), ".vk");
        if (s != CZK_OK) {
            czk_cli_fail("verify", s, "no verifying key for this proof");
            goto out;
        }
        vkp = vk_path;
    }
    s = czk_groth16_vk_read(&vk, vkp);
    if (s != CZK_OK) {
        czk_cli_fail("verify", s, "reading the verifying key failed");
        goto out;
    }
    s = read_proofs(&pr, a->proof, count);
    if (s != CZK_OK) {
        czk_cli_fail("verify", s, "invalid proof file");
        goto out;
    }
    s = czk_kind_verify(&vk, k, pub, pr, a->partition >= 0 ? &part : NULL, count);
    if (c->json)
        printf("{\"valid\":%s,\"kind\":\"%s\",\"registered_proof\":\"%s\",\"partitions\":%u%s%s%s}\n",
               s == CZK_OK ? "true" : "false", k->name, name, count, s == CZK_OK ? "" : ",\"error\":\"",
               s == CZK_OK ? "" : czk_status_str(s), s == CZK_OK ? "" : "\"");
    if (s == CZK_OK) {
        if (!c->json && !c->quiet)
            printf("valid: %u %s proof%s of %s\n", count, k->name, count > 1 ? "s" : "", name);
        code = CZK_EXIT_OK;
    } else {
        czk_cli_fail("verify", s, "INVALID");
    }
out:
    free(pr);
    czk_groth16_vk_clear(&vk);
    k->free_public(pub);
    return code;
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {{"vk", required_argument, 0, OPT_VK},
                                         {"c1", required_argument, 0, OPT_C1},
                                         {"proof", required_argument, 0, OPT_PROOF},
                                         {"partition", required_argument, 0, OPT_PARTITION},
                                         {"param-cache", required_argument, 0, OPT_PARAM_CACHE},
                                         {"post", required_argument, 0, OPT_POST},
                                         {"vanilla", required_argument, 0, OPT_VANILLA},
                                         {"snap", no_argument, 0, OPT_SNAP},
                                         {0, 0, 0, 0}};
    args a = {0};
    a.partition = -1;
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "verify", usage, opts, &a, on_opt, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    if (a.vk && a.param_cache)
        return czk_cli_usage_error("verify", usage, "--vk and --param-cache exclude each other");
    czk_kind_input_args in = a.pick;
    in.c1 = a.c1;
    in.vanilla = a.vanilla;
    in.partition = a.partition;
    in.out_flag = "--proof";
    in.have_out = a.proof != NULL;
    const czk_proof_kind *k = NULL;
    const char *input = NULL;
    rc = czk_kind_input(&k, &input, &in, "verify", usage);
    if (rc) return rc;
    return verify_kind(&a, &c, k, input);
}

CZK_CLI_COMMAND(verify, "verify a PoRep proof against its C1 data, or a PoSt proof", run)
