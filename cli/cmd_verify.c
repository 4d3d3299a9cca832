#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "czk/porep_kind.h"
#include "czk/post_kind.h"
#include "czk/snap_kind.h"

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
    int post; /* 0: PoRep; else 1 + czk_post_kind */
    int snap;
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
    case OPT_SNAP: a->snap = 1; return 0;
    case OPT_POST:
    {
        czk_post_kind k;
        if (czk_post_kind_parse(&k, arg) != CZK_OK)
            return czk_cli_usage_error("verify", usage, "--post wants window or winning, got '%s'", arg);
        a->post = 1 + (int)k;
        return 0;
    }
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

static int verify_post(const args *a, const czk_cli_common *c)
{
    czk_post_kind k = (czk_post_kind)(a->post - 1);
    czk_post_json m;
    czk_status s = czk_post_dir_json(&m, k, a->vanilla);
    if (s != CZK_OK) return czk_cli_fail("verify", s, "reading the PoSt data failed");
    char vk_path[1024];
    const char *vkp = a->vk;
    int code = CZK_EXIT_FAIL;
    uint8_t *bytes = NULL;
    size_t len = 0;
    czk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    if (!vkp) {
        s = czk_post_param_path(vk_path, sizeof vk_path, a->param_cache ? a->param_cache : czk_fc_param_cache_dir(),
                                &m.shape, ".vk");
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
    s = read_all(&bytes, &len, a->proof);
    if (s != CZK_OK) {
        czk_cli_fail("verify", s, "reading the proof failed");
        goto out;
    }
    czk_groth16_proof pr;
    if (len != CZK_GROTH16_PROOF_BYTES) {
        s = czk_error(CZK_ERR_FORMAT, "%s: %zu bytes, expected one proof of %d bytes", a->proof, len,
                      CZK_GROTH16_PROOF_BYTES);
        czk_cli_fail("verify", s, "invalid proof file");
        goto out;
    }
    s = czk_groth16_proof_decode(&pr, bytes);
    if (s != CZK_OK) {
        czk_cli_fail("verify", czk_error_context(s, "%s", a->proof), "invalid proof");
        goto out;
    }
    s = czk_post_json_verify(&vk, &m, &pr);
    if (c->json)
        printf("{\"valid\":%s,\"kind\":\"%s\",\"registered_proof\":\"%s\"%s%s%s}\n", s == CZK_OK ? "true" : "false",
               czk_post_kind_name(k), m.proof, s == CZK_OK ? "" : ",\"error\":\"", s == CZK_OK ? "" : czk_status_str(s),
               s == CZK_OK ? "" : "\"");
    if (s == CZK_OK) {
        if (!c->json && !c->quiet) printf("valid: %s proof of %s\n", czk_post_kind_name(k), m.proof);
        code = CZK_EXIT_OK;
    } else {
        czk_cli_fail("verify", s, "INVALID");
    }
out:
    free(bytes);
    czk_groth16_vk_clear(&vk);
    czk_post_json_free(&m);
    return code;
}

static int verify_snap(const args *a, const czk_cli_common *c)
{
    czk_snap_json m;
    czk_status s = czk_snap_dir_json(&m, a->vanilla);
    if (s != CZK_OK) return czk_cli_fail("verify", s, "reading the update's data failed");
    char vk_path[1024];
    const char *vkp = a->vk;
    int code = CZK_EXIT_FAIL;
    uint8_t *bytes = NULL;
    size_t len = 0;
    czk_groth16_proof *pr = NULL;
    czk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    if (!vkp) {
        s = czk_snap_param_path(vk_path, sizeof vk_path, a->param_cache ? a->param_cache : czk_fc_param_cache_dir(),
                                &m.shape, ".vk");
        if (s != CZK_OK) {
            czk_cli_fail("verify", s, "no verifying key for this update");
            goto out;
        }
        vkp = vk_path;
    }
    s = czk_groth16_vk_read(&vk, vkp);
    if (s != CZK_OK) {
        czk_cli_fail("verify", s, "reading the verifying key failed");
        goto out;
    }
    s = read_all(&bytes, &len, a->proof);
    if (s != CZK_OK) {
        czk_cli_fail("verify", s, "reading the proof failed");
        goto out;
    }
    const uint32_t n = m.partitions;
    if (len != (size_t)n * CZK_GROTH16_PROOF_BYTES) {
        s = czk_error(CZK_ERR_FORMAT, "%s: %zu bytes, expected %u proofs of %d bytes (one per partition of %s)",
                      a->proof, len, n, CZK_GROTH16_PROOF_BYTES, m.proof);
        czk_cli_fail("verify", s, "invalid proof file");
        goto out;
    }
    pr = calloc(n, sizeof *pr);
    if (!pr) {
        czk_cli_fail("verify", czk_error(CZK_ERR_NOMEM, "%u proofs", n), "out of memory");
        goto out;
    }
    for (uint32_t k = 0; k < n; k++) {
        s = czk_groth16_proof_decode(&pr[k], bytes + (size_t)k * CZK_GROTH16_PROOF_BYTES);
        if (s != CZK_OK) {
            czk_cli_fail("verify", czk_error_context(s, "%s: partition %u's proof (byte offset %zu)", a->proof, k,
                                                     (size_t)k * CZK_GROTH16_PROOF_BYTES),
                         "invalid proof");
            goto out;
        }
    }
    s = czk_snap_json_verify(&vk, &m, pr, n);
    if (c->json)
        printf("{\"valid\":%s,\"kind\":\"snap\",\"registered_proof\":\"%s\",\"partitions\":%u%s%s%s}\n",
               s == CZK_OK ? "true" : "false", m.proof, n, s == CZK_OK ? "" : ",\"error\":\"",
               s == CZK_OK ? "" : czk_status_str(s), s == CZK_OK ? "" : "\"");
    if (s == CZK_OK) {
        if (!c->json && !c->quiet) printf("valid: SnapDeals update proof of %s (%u partitions)\n", m.proof, n);
        code = CZK_EXIT_OK;
    } else {
        czk_cli_fail("verify", s, "INVALID");
    }
out:
    free(bytes);
    free(pr);
    czk_groth16_vk_clear(&vk);
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
    if (a.snap) {
        if (a.post) return czk_cli_usage_error("verify", usage, "--snap and --post exclude each other");
        if (!a.vanilla || !a.proof)
            return czk_cli_usage_error("verify", usage, "--snap, --vanilla and --proof are required together");
        if (a.c1 || a.partition >= 0)
            return czk_cli_usage_error("verify", usage, "--c1 and --partition are PoRep's, not --snap's");
        return verify_snap(&a, &c);
    }
    if (a.post || a.vanilla) {
        if (!a.post || !a.vanilla || !a.proof)
            return czk_cli_usage_error("verify", usage, "--post, --vanilla and --proof are required together");
        if (a.c1 || a.partition >= 0)
            return czk_cli_usage_error("verify", usage, "--c1 and --partition are PoRep's, not --post's");
        return verify_post(&a, &c);
    }
    if (!a.c1 || !a.proof) return czk_cli_usage_error("verify", usage, "--c1 and --proof are required");
    czk_fc_c1 c1;
    memset(&c1, 0, sizeof c1);
    czk_status s = czk_fc_c1_read(&c1, a.c1);
    if (s != CZK_OK) return czk_cli_fail("verify", s, "reading the C1 file failed");
    char vk_path[1024];
    if (!a.vk) {
        s = czk_fc_param_path(vk_path, sizeof vk_path, a.param_cache ? a.param_cache : czk_fc_param_cache_dir(),
                              c1.shape.proof, ".vk");
        if (s != CZK_OK) {
            czk_fc_c1_free(&c1);
            return czk_cli_fail("verify", s, "no verifying key for this sector");
        }
        a.vk = vk_path;
    }
    czk_groth16_vk vk;
    s = czk_groth16_vk_read(&vk, a.vk);
    if (s != CZK_OK) {
        czk_fc_c1_free(&c1);
        return czk_cli_fail("verify", s, "reading the verifying key failed");
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    czk_groth16_proof *prs = NULL;
    uint32_t parts = c1.shape.partitions;
    uint32_t count = a.partition >= 0 ? 1 : parts;
    int code = CZK_EXIT_FAIL;
    s = read_all(&bytes, &len, a.proof);
    if (s != CZK_OK) {
        czk_cli_fail("verify", s, "reading the proof failed");
        goto out;
    }
    if (a.partition >= (long long)parts) {
        code = czk_cli_usage_error("verify", usage, "--partition %lld: the sector has %u partitions", a.partition, parts);
        goto out;
    }
    if (len != (size_t)count * CZK_GROTH16_PROOF_BYTES) {
        s = czk_error(CZK_ERR_FORMAT, "%s: %zu bytes, expected %u proof%s of %d bytes", a.proof, len, count,
                      count > 1 ? "s" : "", CZK_GROTH16_PROOF_BYTES);
        czk_cli_fail("verify", s, "invalid proof file");
        goto out;
    }
    prs = calloc(count, sizeof *prs);
    if (!prs) goto out;
    for (uint32_t i = 0; i < count; i++) {
        s = czk_groth16_proof_decode(&prs[i], bytes + (size_t)i * CZK_GROTH16_PROOF_BYTES);
        if (s != CZK_OK) {
            s = czk_error_context(s, "%s: proof %u", a.proof, i);
            czk_cli_fail("verify", s, "invalid proof");
            goto out;
        }
    }
    if (a.partition >= 0) {
        size_t n = czk_porep_num_inputs(&c1.shape) - 1;
        czk_fr *in = malloc(n * sizeof *in);
        czk_groth16_pvk pvk;
        s = in ? czk_porep_public_inputs(in, &c1, (uint32_t)a.partition) : czk_error(CZK_ERR_NOMEM, "inputs");
        if (s == CZK_OK) s = czk_groth16_pvk_prepare(&pvk, &vk);
        if (s == CZK_OK) {
            if (vk.n_ic != n + 1)
                s = czk_error(CZK_ERR_INVALID_ARG, "the verifying key has %zu public inputs, this sector's circuit %zu",
                              vk.n_ic, n + 1);
            else
                s = czk_groth16_verify(&pvk, prs, in, n);
        }
        free(in);
    } else {
        s = czk_porep_verify(&vk, &c1, prs, count);
    }
    if (c.json)
        printf("{\"valid\":%s,\"partitions\":%u%s%s%s}\n", s == CZK_OK ? "true" : "false", count,
               s == CZK_OK ? "" : ",\"error\":\"", s == CZK_OK ? "" : czk_status_str(s), s == CZK_OK ? "" : "\"");
    if (s == CZK_OK) {
        if (!c.json && !c.quiet) printf("valid: %u partition proof%s of %s\n", count, count > 1 ? "s" : "",
                                        czk_fc_proof_name(c1.shape.proof));
        code = CZK_EXIT_OK;
    } else {
        czk_cli_fail("verify", s, "INVALID");
    }
out:
    free(prs);
    free(bytes);
    czk_fc_c1_free(&c1);
    czk_groth16_vk_clear(&vk);
    return code;
}

CZK_CLI_COMMAND(verify, "verify a PoRep proof against its C1 data, or a PoSt proof", run)
