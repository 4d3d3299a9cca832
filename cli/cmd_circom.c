/* `czk circom prove|verify`: circom / snarkjs interoperability (src/io/README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "czk/circom.h"
#include "czk/czk.h"

static const char usage[] =
    "usage: czk circom prove --zkey K --wtns W [--r1cs R] [--sym S] -o proof.json --public public.json\n"
    "       czk circom verify --vk verification_key.json --proof proof.json --public public.json\n\n"
    "Prove a circom circuit with czk from snarkjs' Groth16 .zkey and a .wtns witness\n"
    "(BLS12-381: circom --prime bls12381, snarkjs powersoftau new bls12381); the proof\n"
    "verifies with `snarkjs groth16 verify`. Verify a snarkjs proof (exit 0 valid, 1 invalid).\n\n"
    "prove:\n"
    "  --zkey K             snarkjs Groth16 proving key (.zkey)\n"
    "  --wtns W             witness (snarkjs wtns calculate / circom's witness generator)\n"
    "  --r1cs R             check the witness against every constraint first (an unsatisfied\n"
    "                       constraint is reported by index) and the zkey against the r1cs\n"
    "  --sym S              circom .sym file: name the signals of an unsatisfied constraint\n"
    "  -o, --output F       proof.json to write\n"
    "  --public F           public.json to write\n"
    "  --seed N             derive the blinding r, s from seed N (tests only; default getrandom)\n"
    "  --zkey-check MODE    how the zkey's points are validated: pinned (default) skips the\n"
    "                       subgroup checks when K.czkcheck records an earlier full validation\n"
    "                       of these exact bytes (size, mtime, SHA-256), else runs full; full\n"
    "                       checks every point and records K.czkcheck; curve: no subgroup checks\n"
    "  --no-subgroup-check  the same as --zkey-check curve (trusted files)\n"
    "Every proof is verified with the zkey's verifying key before it is written; without\n"
    "--r1cs that is also the witness check (an unsatisfying witness gives a proof that fails).\n"
    "verify:\n"
    "  --vk F               verification_key.json (snarkjs zkey export verificationkey)\n"
    "  --proof F            proof.json\n"
    "  --public F           public.json\n";

enum { OPT_ZKEY = CZK_OPT_FIRST_FREE, OPT_WTNS, OPT_R1CS, OPT_SYM, OPT_PUBLIC, OPT_SEED, OPT_NOSUB, OPT_VK,
       OPT_PROOF, OPT_ZKEY_CHECK };

typedef struct circom_opts {
    const char *zkey, *wtns, *r1cs, *sym, *out, *pub, *vk, *proof;
    long long seed;
    int seeded, nosub, check_set;
    czk_groth16_check check;
} circom_opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    circom_opts *o = ctx;
    switch (opt) {
    case OPT_ZKEY: o->zkey = arg; return 0;
    case OPT_WTNS: o->wtns = arg; return 0;
    case OPT_R1CS: o->r1cs = arg; return 0;
    case OPT_SYM: o->sym = arg; return 0;
    case 'o': o->out = arg; return 0;
    case OPT_PUBLIC: o->pub = arg; return 0;
    case OPT_VK: o->vk = arg; return 0;
    case OPT_PROOF: o->proof = arg; return 0;
    case OPT_NOSUB: o->nosub = 1; return 0;
    case OPT_ZKEY_CHECK:
        if (czk_groth16_check_parse(&o->check, arg) != CZK_OK)
            return czk_cli_usage_error("circom", usage, "--zkey-check wants pinned, full or curve, got '%s'", arg);
        o->check_set = 1;
        return 0;
    case OPT_SEED:
        if (czk_cli_parse_int(arg, 0, INT64_MAX, &o->seed))
            return czk_cli_usage_error("circom", usage, "--seed wants a non-negative integer, got '%s'", arg);
        o->seeded = 1;
        return 0;
    default: return czk_cli_usage_error("circom", usage, "unexpected option");
    }
}

static int do_prove(circom_opts *o, czk_cli_common *common)
{
    const char *cmd = "circom prove";
    if (!o->zkey || !o->wtns || !o->out || !o->pub)
        return czk_cli_usage_error(cmd, usage, "prove needs --zkey, --wtns, -o and --public");
    if (o->sym && !o->r1cs) return czk_cli_usage_error(cmd, usage, "--sym needs --r1cs");
    czk_init();
    double t0 = czk_now(), c0 = czk_cpu_now();
    czk_circom_zkey z;
    czk_circom_wtns w;
    czk_circom_r1cs r;
    czk_circom_sym sym;
    memset(&r, 0, sizeof r);
    memset(&sym, 0, sizeof sym);
    memset(&w, 0, sizeof w);
    if (o->nosub && o->check_set && o->check != CZK_GROTH16_CHECK_CURVE)
        return czk_cli_usage_error(cmd, usage, "--no-subgroup-check contradicts --zkey-check %s",
                                   czk_groth16_check_name(o->check));
    czk_groth16_read_opts ro = {o->nosub ? CZK_GROTH16_CHECK_CURVE : o->check_set ? o->check : CZK_GROTH16_CHECK_PINNED,
                                common->threads, 0, NULL};
    czk_groth16_read_info zinfo;
    czk_status s = czk_circom_zkey_read_ex(&z, o->zkey, &ro, &zinfo);
    if (s != CZK_OK) return czk_cli_fail(cmd, s, "reading the zkey");
    if (!common->quiet && !common->json) {
        char line[1024];
        czk_groth16_read_info_describe(line, sizeof line, &zinfo);
        /* the describer speaks of parameters; this is the zkey */
        fprintf(stderr, "czk: zkey%s\n", strncmp(line, "parameters", 10) == 0 ? line + 10 : line);
    }
    int rc = CZK_EXIT_FAIL;
    s = czk_circom_wtns_read(&w, o->wtns);
    if (s != CZK_OK) {
        rc = czk_cli_fail(cmd, s, "reading the witness");
        goto out;
    }
    if (w.n != z.n_vars) {
        fprintf(stderr, "czk circom prove: %s has %zu witness values but %s has %u signals (not the same circuit)\n",
                o->wtns, w.n, o->zkey, z.n_vars);
        goto out;
    }
    double t1 = czk_now(), t2 = t1, c1 = czk_cpu_now();
    if (o->r1cs) {
        s = czk_circom_r1cs_read(&r, o->r1cs);
        if (s != CZK_OK) {
            rc = czk_cli_fail(cmd, s, "reading the r1cs");
            goto out;
        }
        if (o->sym) {
            s = czk_circom_sym_read(&sym, o->sym, r.n_wires);
            if (s != CZK_OK) {
                rc = czk_cli_fail(cmd, s, "reading the sym file");
                goto out;
            }
        }
        s = czk_circom_zkey_match_r1cs(&z, &r);
        if (s != CZK_OK) {
            rc = czk_cli_fail(cmd, s, "zkey vs r1cs");
            goto out;
        }
        s = czk_circom_r1cs_check(&r, w.w, w.n, o->sym ? &sym : NULL);
        if (s != CZK_OK) {
            rc = czk_cli_fail(cmd, s, "witness check");
            goto out;
        }
        t2 = czk_now();
    }
    czk_rng rng;
    if (o->seeded) czk_rng_seed(&rng, (uint64_t)o->seed);
    czk_groth16_proof pr;
    czk_circom_timings tm;
    s = czk_circom_prove(&pr, &z, w.w, w.n, o->seeded ? &rng : NULL, common->threads, &tm);
    if (s != CZK_OK) {
        rc = czk_cli_fail(cmd, s, "proving");
        goto out;
    }
    double t3 = czk_now();
    czk_circom_vk vk;
    czk_circom_zkey_vk(&vk, &z);
    s = czk_circom_verify(&vk, &pr, w.w + 1, z.n_public);
    if (s != CZK_OK) {
        fprintf(stderr,
                "czk circom prove: the proof does not verify with the zkey's verifying key: the witness does "
                "not satisfy the circuit%s\n",
                o->r1cs ? " (or the zkey is inconsistent)" : "; pass --r1cs (and --sym) to find the constraint");
        goto out;
    }
    double t4 = czk_now();
    s = czk_circom_proof_write_json(o->out, &pr);
    if (s == CZK_OK) s = czk_circom_public_write_json(o->pub, w.w + 1, z.n_public);
    if (s != CZK_OK) {
        rc = czk_cli_fail(cmd, s, "writing");
        goto out;
    }
    if (common->json)
        printf("{\"proof\":\"%s\",\"public\":\"%s\",\"signals\":%u,\"public_signals\":%u,\"domain\":%u,"
               "\"load_s\":%.6f,\"load_cpu_s\":%.6f,\"check_s\":%.6f,\"prove_s\":%.6f,\"prove_cpu_s\":%.6f,"
               "\"verify_s\":%.6f,\"zkey_check\":\"%s\",\"zkey_check_recorded\":%s}\n",
               o->out, o->pub, z.n_vars, z.n_public, z.domain_size, t1 - t0, c1 - c0, t2 - t1, t3 - t2,
               tm.cpu[CZK_CIRCOM_STAGE_TOTAL], t4 - t3, czk_groth16_check_name(zinfo.ran),
               zinfo.recorded ? "true" : "false");
    else if (!common->quiet)
        printf("wrote %s and %s: %u signals, %u public, domain 2^%u; load %.3f s (CPU %.3f s), witness check "
               "%.3f s, prove %.3f s (CPU %.3f s), self-verify %.3f s\n",
               o->out, o->pub, z.n_vars, z.n_public, z.log_n, t1 - t0, c1 - c0, t2 - t1, t3 - t2,
               tm.cpu[CZK_CIRCOM_STAGE_TOTAL], t4 - t3);
    rc = CZK_EXIT_OK;
out:
    czk_circom_sym_clear(&sym);
    czk_circom_r1cs_clear(&r);
    czk_circom_wtns_clear(&w);
    czk_circom_zkey_clear(&z);
    return rc;
}

static int do_verify(circom_opts *o, czk_cli_common *common)
{
    const char *cmd = "circom verify";
    if (!o->vk || !o->proof || !o->pub)
        return czk_cli_usage_error(cmd, usage, "verify needs --vk, --proof and --public");
    czk_init();
    czk_circom_vk vk;
    czk_groth16_proof pr;
    czk_fr *pub = NULL;
    size_t npub = 0;
    czk_status s = czk_circom_vk_read_json(&vk, o->vk);
    if (s != CZK_OK) return czk_cli_fail(cmd, s, "reading the verification key");
    s = czk_circom_proof_read_json(&pr, o->proof);
    if (s == CZK_OK) s = czk_circom_public_read_json(&pub, &npub, o->pub);
    if (s == CZK_OK) s = czk_circom_verify(&vk, &pr, pub, npub);
    free(pub);
    czk_circom_vk_clear(&vk);
    if (common->json) printf("{\"valid\":%s}\n", s == CZK_OK ? "true" : "false");
    if (s != CZK_OK) {
        fprintf(stderr, "czk circom verify: INVALID: %s\n", czk_last_error());
        return CZK_EXIT_FAIL;
    }
    if (!common->json && !common->quiet) printf("OK: the proof is valid\n");
    return CZK_EXIT_OK;
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"zkey", required_argument, 0, OPT_ZKEY},   {"wtns", required_argument, 0, OPT_WTNS},
        {"r1cs", required_argument, 0, OPT_R1CS},   {"sym", required_argument, 0, OPT_SYM},
        {"output", required_argument, 0, 'o'},      {"public", required_argument, 0, OPT_PUBLIC},
        {"seed", required_argument, 0, OPT_SEED},   {"no-subgroup-check", no_argument, 0, OPT_NOSUB},
        {"vk", required_argument, 0, OPT_VK},       {"proof", required_argument, 0, OPT_PROOF},
        {"zkey-check", required_argument, 0, OPT_ZKEY_CHECK},
        {0, 0, 0, 0},
    };
    circom_opts o;
    memset(&o, 0, sizeof o);
    czk_cli_common common;
    int sub = 0;
    if (argc >= 2 && (strcmp(argv[1], "prove") == 0 || strcmp(argv[1], "verify") == 0)) sub = argv[1][0] == 'p' ? 1 : 2;
    int rc = czk_cli_parse(argc - (sub ? 1 : 0), argv + (sub ? 1 : 0), sub == 1 ? "circom prove" : sub == 2 ? "circom verify" : "circom",
                           usage, opts, &o, on_opt, &common, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_cli_apply_common(&common);
    if (!sub) return czk_cli_usage_error("circom", usage, "expected 'prove' or 'verify'");
    return sub == 1 ? do_prove(&o, &common) : do_verify(&o, &common);
}

__attribute__((constructor)) static void czk_cli_reg_circom(void)
{
    czk__cli_register("circom", "prove circom circuits from snarkjs files; verify snarkjs proofs", run);
}
