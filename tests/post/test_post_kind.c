/* WindowPoSt and WinningPoSt as proof kinds: the registry, the v28 names,
 * seeded setups, consistent generated vanillas proven through
 * czk_kind_prove and verified, the same proof refused for other public
 * inputs, fixed proof randomness giving the same bytes, and parameters of
 * another circuit refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/ec.h"
#include "czk/kind.h"
#include "czk/post_kind.h"
#include "czk/post_vanilla.h"
#include "czk/snap_kind.h"

/* A generated vanilla whose inclusion proofs answer its own challenges
 * (partition 0, sector ids 0..): the generator's randomness depends on the
 * seed only, so a first pass gives the challenges the second pass proves. */
static czk_status gen_consistent_at(czk_post_vanilla *v, const czk_post_shape *s, uint64_t seed, uint32_t partition)
{
    CZK_TRY(czk_post_gen_vanilla(v, s, seed, NULL));
    v->partition = partition;
    uint32_t n = v->n, c = s->sector_challenges;
    uint64_t *leaves = malloc((size_t)n * c * sizeof *leaves);
    if (!leaves) {
        czk_post_gen_vanilla_free(v);
        return czk_error(CZK_ERR_NOMEM, "leaves");
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < c; j++) leaves[(size_t)i * c + j] = czk_post_vanilla_challenge(v, i, j);
    czk_post_gen_vanilla_free(v);
    czk_status st = czk_post_gen_vanilla(v, s, seed, leaves);
    free(leaves);
    if (st == CZK_OK) v->partition = partition;
    return st;
}

static czk_status gen_consistent(czk_post_vanilla *v, const czk_post_shape *s, uint64_t seed)
{
    return gen_consistent_at(v, s, seed, 0);
}

/* One proof through the engine with a witness source: 0 full synthesis,
 * 1 the parallel prover, 2 PCE. */
static czk_status prove_src(czk_groth16_proof *out, const czk_post_vanilla *v, const czk_groth16_params *p,
                            uint64_t rng_seed, czk_kind_report *rep, int source)
{
    czk_rng rng;
    czk_rng_seed(&rng, rng_seed);
    czk_kind_job job;
    memset(&job, 0, sizeof job);
    job.kind = czk_post_proof_kind(v->shape.kind);
    job.data = v;
    job.params = p;
    job.n = 1;
    job.source.lc = CZK_LC_DEFAULT;
    job.source.parallel = source == 1;
    job.source.pce = source == 2 ? CZK_PCE_MODE_ON : CZK_PCE_MODE_OFF;
    job.engine.rng = &rng;
    return czk_kind_prove(out, &job, rep);
}

static czk_status prove_one(czk_groth16_proof *out, const czk_post_vanilla *v, const czk_groth16_params *p,
                            uint64_t rng_seed, czk_kind_report *rep)
{
    return prove_src(out, v, p, rng_seed, rep, 0);
}

CZK_TEST(registry_finds_post_kinds)
{
    CHECK(czk_proof_kind_find("window-post") == &czk_kind_window_post);
    CHECK(czk_proof_kind_find("winning-post") == &czk_kind_winning_post);
    CHECK(czk_proof_kind_find("porep") == &czk_kind_porep);
    CHECK(czk_proof_kind_at(1) == &czk_kind_window_post);
    CHECK(czk_proof_kind_at(2) == &czk_kind_winning_post);
    CHECK(czk_proof_kind_at(3) == &czk_kind_snap); /* then SnapDeals (tests/snap) */
    CHECK(czk_proof_kind_at(4) == NULL);
    CHECK(!strcmp(czk_kind_window_post.name, "window-post"));
    CHECK(!strcmp(czk_kind_winning_post.name, "winning-post"));
    CHECK(!strcmp(czk_kind_window_post.circuit->name, "window-post"));
    CHECK(!strcmp(czk_kind_winning_post.circuit->name, "winning-post"));
    CHECK(czk_post_proof_kind(CZK_POST_WINDOW) == &czk_kind_window_post);
    CHECK(czk_post_proof_kind(CZK_POST_WINNING) == &czk_kind_winning_post);
    CHECK_EQ_U64(czk_kind_window_post.partitions(NULL), 1);
    CHECK_EQ_U64(czk_kind_winning_post.partitions(NULL), 1);
}

CZK_TEST(post_param_names_are_v28)
{
    static const struct {
        czk_post_kind k;
        uint64_t size;
        const char *want;
    } cases[] = {
        {CZK_POST_WINDOW, 2048,
         "/p/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
         "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params"},
        {CZK_POST_WINNING, 2048,
         "/p/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
         "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params"},
        {CZK_POST_WINDOW, 32ull << 30,
         "/p/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
         "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params"},
        {CZK_POST_WINNING, 32ull << 30,
         "/p/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
         "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        czk_post_shape s;
        REQUIRE_OK(czk_post_shape_of(&s, cases[i].k, cases[i].size));
        czk_post_vanilla v;
        memset(&v, 0, sizeof v);
        v.shape = s;
        char path[1024];
        REQUIRE_OK(czk_kind_param_path(path, sizeof path, czk_post_proof_kind(cases[i].k), "/p", &v, ".params"));
        CHECK_MSG(!strcmp(path, cases[i].want), "case %zu: got %s", i, path);
        REQUIRE_OK(czk_post_param_path(path, sizeof path, "/p", &s, ".vk"));
        size_t n = strlen(cases[i].want);
        CHECK_MSG(!strncmp(path, cases[i].want, n - 7) && !strcmp(path + n - 7, ".vk"), "case %zu .vk: %s", i, path);
    }
    /* every production size has a name (the oracle checks them against
     * filecoin-proofs'), distinct per kind and size; custom shapes have none */
    czk_post_shape s;
    char path[1024];
    const uint64_t sizes[5] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    const char *seen[10];
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 5; i++) {
            const char *id = czk_post_param_id((czk_post_kind)k, sizes[i]);
            CHECK_MSG(id != NULL, "no name for kind %d size %llu", k, (unsigned long long)sizes[i]);
            REQUIRE(id != NULL);
            CHECK(!strncmp(id, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-", 59));
            CHECK_MSG(strlen(id) == 59 + 6 + 64, "kind %d size %llu: %s", k, (unsigned long long)sizes[i], id);
            for (int j = 0; j < k * 5 + i; j++) CHECK(strcmp(seen[j], id) != 0);
            seen[k * 5 + i] = id;
        }
    CHECK(czk_post_param_id(CZK_POST_WINDOW, 4096) == NULL);
    REQUIRE_OK(czk_post_shape_custom(&s, CZK_POST_WINNING, 64, 8, 0, 0, 2, 1));
    CHECK(czk_post_param_path(path, sizeof path, "/p", &s, ".params") == CZK_ERR_INVALID_ARG);
    CHECK_MSG(!strcmp(czk_last_error(), "no known v28 name for a custom winning-post shape; pass --params"),
              "message: %s", czk_last_error());
    REQUIRE_OK(czk_post_shape_of(&s, CZK_POST_WINDOW, 2048));
    CHECK(czk_post_param_path(path, 20, "/p", &s, ".params") == CZK_ERR_INVALID_ARG);
}

/* Setup, prove through the engine, verify; the proof fails for other
 * public inputs; fixed proof randomness gives the same bytes. */
static void prove_and_refuse(const czk_post_shape *s, uint64_t setup_seed, const char *what)
{
    czk_groth16_params p;
    uint64_t seed = setup_seed;
    double t0 = czk_now();
    REQUIRE_OK(czk_kind_setup(&p, czk_post_proof_kind(s->kind), s, &seed, NULL, NULL));
    double t_setup = czk_now() - t0;
    czk_post_counts c;
    czk_post_circuit_counts(&c, s);
    CHECK_EQ_U64(p.vk.n_ic, c.inputs);
    CHECK_EQ_U64(p.vk.n_ic, 1 + czk_post_public_input_count(s));

    czk_post_vanilla v, other;
    REQUIRE_OK(gen_consistent(&v, s, 5));
    REQUIRE_OK(gen_consistent(&other, s, 6));
    CHECK_OK(czk_post_vanilla_check(&v));
    CHECK_OK(czk_post_vanilla_check(&other));
    CHECK(memcmp(v.randomness, other.randomness, 32) != 0);

    czk_groth16_proof pr[1], again[1];
    czk_kind_report rep;
    memset(&rep, 0, sizeof rep);
    t0 = czk_now();
    czk_status st = prove_one(pr, &v, &p, 77, &rep);
    double t_prove = czk_now() - t0;
    CHECK_MSG(st == CZK_OK, "%s: %s", what, czk_last_error());
    if (st == CZK_OK) {
        printf("  %s: %llu constraints, setup %.2f s, prove %.2f s\n", what, (unsigned long long)c.constraints,
               t_setup, t_prove);
        CHECK(rep.verified == 1);
        CHECK(!strcmp(rep.source, "prove"));
        CHECK_OK(czk_post_verify(&p.vk, &v, &pr[0]));
        /* the same proof for another randomness (other challenges, comm_r) */
        CHECK(czk_post_verify(&p.vk, &other, &pr[0]) == CZK_ERR_VERIFY);
        /* and for another comm_r of sector 0 alone */
        czk_fr keep = v.proofs[0].comm_r;
        czk_fr_add(&v.proofs[0].comm_r, &keep, &keep);
        CHECK(czk_post_verify(&p.vk, &v, &pr[0]) == CZK_ERR_VERIFY);
        v.proofs[0].comm_r = keep;
        /* and for another randomness with everything else kept */
        v.randomness[0] ^= 1;
        CHECK(czk_post_verify(&p.vk, &v, &pr[0]) == CZK_ERR_VERIFY);
        v.randomness[0] ^= 1;
        CHECK_OK(czk_post_verify(&p.vk, &v, &pr[0]));
        /* fixed r, s: the same bytes */
        REQUIRE_OK(prove_one(again, &v, &p, 77, NULL));
        uint8_t a[CZK_GROTH16_PROOF_BYTES], b[CZK_GROTH16_PROOF_BYTES];
        czk_groth16_proof_encode(a, &pr[0]);
        czk_groth16_proof_encode(b, &again[0]);
        CHECK_MSG(!memcmp(a, b, sizeof a), "%s: two runs with one proof-randomness stream differ", what);
        REQUIRE_OK(prove_one(again, &v, &p, 78, NULL));
        czk_groth16_proof_encode(b, &again[0]);
        CHECK(memcmp(a, b, sizeof a) != 0);
        /* the parallel prover and PCE make the same assignment, so the same
         * bytes (PCE matrices built into a temporary cache) */
        char dir[] = "/tmp/czk-post-src.XXXXXX";
        REQUIRE(mkdtemp(dir) != NULL);
        setenv("CZK_CACHE_DIR", dir, 1);
        for (int src = 1; src <= 2; src++) {
            czk_kind_report r2;
            memset(&r2, 0, sizeof r2);
            st = prove_src(again, &v, &p, 77, &r2, src);
            CHECK_MSG(st == CZK_OK, "%s, source %d: %s", what, src, czk_last_error());
            if (st != CZK_OK) continue;
            CHECK(r2.verified == 1);
            CHECK(!strcmp(r2.source, src == 1 ? "parallel" : "pce"));
            czk_groth16_proof_encode(b, &again[0]);
            CHECK_MSG(!memcmp(a, b, sizeof a), "%s: the %s source's proof differs", what, r2.source);
        }
        char cmd[96];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        CHECK(system(cmd) == 0);
        unsetenv("CZK_CACHE_DIR");
        /* the other kind's job refuses this vanilla by name */
        czk_kind_job job;
        memset(&job, 0, sizeof job);
        job.kind = s->kind == CZK_POST_WINDOW ? &czk_kind_winning_post : &czk_kind_window_post;
        job.data = &v;
        job.params = &p;
        job.n = 1;
        CHECK(czk_kind_prove(again, &job, NULL) == CZK_ERR_INVALID_ARG);
        CHECK_MSG(strstr(czk_last_error(), "vanilla proof is a") != NULL, "message: %s", czk_last_error());
        /* a partition other than 0 */
        uint32_t one = 1;
        job.kind = czk_post_proof_kind(s->kind);
        job.partitions = &one;
        CHECK(czk_kind_prove(again, &job, NULL) == CZK_ERR_INVALID_ARG);
        CHECK_MSG(strstr(czk_last_error(), "partition 1 of a job with 1") != NULL, "message: %s", czk_last_error());
    }
    czk_post_gen_vanilla_free(&v);
    czk_post_gen_vanilla_free(&other);
    czk_groth16_params_clear(&p);
}

CZK_TEST(custom_window_post_proves_and_verifies)
{
    czk_post_shape s;
    /* 64 leaves, arity 8, 2 sectors of 2 challenges */
    REQUIRE_OK(czk_post_shape_custom(&s, CZK_POST_WINDOW, 64, 8, 0, 0, 2, 2));
    prove_and_refuse(&s, 11, "custom window-post");
}

CZK_TEST(window_post_2kib_proves_and_verifies)
{
    czk_post_shape s;
    REQUIRE_OK(czk_post_shape_of(&s, CZK_POST_WINDOW, 2048));
    prove_and_refuse(&s, 12, "2KiB window-post");
}

CZK_TEST(winning_post_2kib_proves_and_verifies)
{
    czk_post_shape s;
    /* under the sanitizers (CZK_TEST_ASAN) the 2KiB tree with 16 of the 66
     * challenges: the same gadgets and paths, a quarter of the constraints
     * (the Release run proves the whole 2KiB circuit) */
    if (getenv("CZK_TEST_ASAN"))
        REQUIRE_OK(czk_post_shape_custom(&s, CZK_POST_WINNING, 64, 8, 0, 0, 1, 16));
    else
        REQUIRE_OK(czk_post_shape_of(&s, CZK_POST_WINNING, 2048));
    prove_and_refuse(&s, 13, "2KiB winning-post");
}

CZK_TEST(params_of_another_circuit_are_refused)
{
    /* parameters of a custom WindowPoSt shape (2 sectors x 2 challenges)
     * for a job of another shape (2 x 3) */
    czk_post_shape a, b;
    REQUIRE_OK(czk_post_shape_custom(&a, CZK_POST_WINDOW, 64, 8, 0, 0, 2, 2));
    REQUIRE_OK(czk_post_shape_custom(&b, CZK_POST_WINDOW, 64, 8, 0, 0, 2, 3));
    czk_groth16_params p;
    uint64_t seed = 21;
    REQUIRE_OK(czk_kind_setup(&p, czk_post_proof_kind(a.kind), &a, &seed, NULL, NULL));
    czk_post_vanilla v;
    REQUIRE_OK(gen_consistent(&v, &b, 8));
    czk_groth16_proof pr[1];
    CHECK(prove_one(pr, &v, &p, 1, NULL) != CZK_OK);
    CHECK_MSG(strstr(czk_last_error(), "parameters") != NULL, "message: %s", czk_last_error());
    /* verification with that key names the input counts */
    memset(pr, 0, sizeof pr);
    CHECK(czk_post_verify(&p.vk, &v, &pr[0]) == CZK_ERR_INVALID_ARG);
    CHECK_MSG(!strcmp(czk_last_error(), "the verifying key has 7 public inputs, this window-post circuit 9"),
              "message: %s", czk_last_error());
    czk_post_gen_vanilla_free(&v);
    czk_groth16_params_clear(&p);
}

CZK_TEST(post_cached_params_are_made_once)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/postcache", czk_test_tmpdir());
    setenv("CZK_CACHE_DIR", dir, 1);
    czk_post_shape s;
    REQUIRE_OK(czk_post_shape_custom(&s, CZK_POST_WINNING, 64, 8, 0, 0, 3, 1));
    czk_groth16_params p, q;
    char path[512];
    int gen = -1;
    REQUIRE_OK(czk_kind_cached_params(&p, czk_post_proof_kind(s.kind), &s, NULL, NULL, path, &gen));
    CHECK(gen == 1);
    char want[700];
    snprintf(want, sizeof want, "%s/winning-post-custom-n64-t8.0.0-s3-c1-czk%s.params", dir, CZK_VERSION_STRING);
    CHECK_MSG(!strcmp(path, want), "path %s", path);
    REQUIRE_OK(czk_kind_cached_params(&q, czk_post_proof_kind(s.kind), &s, NULL, NULL, path, &gen));
    CHECK(gen == 0);
    CHECK(czk_g1_affine_eq(&p.vk.alpha_g1, &q.vk.alpha_g1));
    CHECK(czk_g1_affine_eq(&p.vk.delta_g1, &q.vk.delta_g1));
    czk_groth16_params_clear(&p);
    czk_groth16_params_clear(&q);
    /* a production shape is cached by kind and sector size */
    REQUIRE_OK(czk_post_shape_of(&s, CZK_POST_WINDOW, 2048));
    REQUIRE_OK(czk_kind_cached_params(&p, czk_post_proof_kind(s.kind), &s, NULL, NULL, path, &gen));
    CHECK(gen == 1);
    snprintf(want, sizeof want, "%s/window-post-2048B-czk%s.params", dir, CZK_VERSION_STRING);
    CHECK_MSG(!strcmp(path, want), "path %s", path);
    CHECK_EQ_U64(p.vk.n_ic, 23);
    czk_groth16_params_clear(&p);
    unsetenv("CZK_CACHE_DIR");
}

CZK_TEST(window_v1_1_partition_index_enters_the_inputs)
{
    /* V1_1 mixes the sector's index (partition x sectors + position) into
     * the challenges: a proof of partition 1 verifies as partition 1 only */
    czk_post_shape s;
    REQUIRE_OK(czk_post_shape_custom(&s, CZK_POST_WINDOW, 64, 8, 0, 0, 2, 2));
    s.api = CZK_POST_API_V1_1;
    czk_groth16_params p;
    uint64_t seed = 31;
    REQUIRE_OK(czk_kind_setup(&p, czk_post_proof_kind(s.kind), &s, &seed, NULL, NULL));
    czk_post_vanilla v;
    REQUIRE_OK(gen_consistent_at(&v, &s, 9, 1));
    CHECK_OK(czk_post_vanilla_check(&v));
    czk_groth16_proof pr[1];
    czk_status st = prove_one(pr, &v, &p, 5, NULL);
    CHECK_MSG(st == CZK_OK, "%s", czk_last_error());
    if (st == CZK_OK) {
        CHECK_OK(czk_post_verify(&p.vk, &v, &pr[0]));
        /* the same data through czk_post_public */
        uint64_t ids[2] = {v.proofs[0].sector_id, v.proofs[1].sector_id};
        czk_fr cr[2] = {v.proofs[0].comm_r, v.proofs[1].comm_r};
        czk_post_public pub;
        memset(&pub, 0, sizeof pub);
        pub.shape = s;
        memcpy(pub.randomness, v.randomness, 32);
        pub.partition = 1;
        pub.n = 2;
        pub.sector_ids = ids;
        pub.comm_r = cr;
        CHECK_OK(czk_post_verify_public(&p.vk, &pub, &pr[0]));
        size_t n = czk_post_public_input_count(&s);
        CHECK_EQ_U64(n, 6);
        czk_fr a[6], b[6];
        REQUIRE_OK(czk_post_public_derive(a, n, &pub));
        REQUIRE_OK(czk_post_vanilla_public_inputs(b, n, &v));
        CHECK_MEM(a, b, sizeof a);
        pub.partition = 0;
        CHECK(czk_post_verify_public(&p.vk, &pub, &pr[0]) == CZK_ERR_VERIFY);
        /* under V1_2 the index does not enter: V1_2 leaves differ from these */
        pub.partition = 1;
        pub.shape.api = CZK_POST_API_V1_2;
        CHECK(czk_post_verify_public(&p.vk, &pub, &pr[0]) == CZK_ERR_VERIFY);
        /* another sector id */
        pub.shape.api = CZK_POST_API_V1_1;
        ids[1] = 7;
        CHECK(czk_post_verify_public(&p.vk, &pub, &pr[0]) == CZK_ERR_VERIFY);
        /* no sectors, too many */
        pub.n = 0;
        CHECK(czk_post_verify_public(&p.vk, &pub, &pr[0]) == CZK_ERR_INVALID_ARG);
        CHECK_MSG(!strcmp(czk_last_error(), "window-post public inputs: 0 sectors, a partition holds 1 to 2"),
                  "message: %s", czk_last_error());
        pub.n = 3;
        CHECK(czk_post_verify_public(&p.vk, &pub, &pr[0]) == CZK_ERR_INVALID_ARG);
    }
    czk_post_gen_vanilla_free(&v);
    czk_groth16_params_clear(&p);
}

CZK_TEST(real_2kib_window_vector_proves_and_verifies)
{
    const char *dir = CZK_SOURCE_DIR "/tests/filecoin/vectors";
    czk_post_vanilla v;
    czk_post_json m;
    REQUIRE_OK(czk_post_dir_read(&v, &m, CZK_POST_WINDOW, dir));
    CHECK(!strcmp(m.proof, "StackedDrgWindow2KiBV1_2"));
    CHECK_EQ_U64(v.n, 1);
    CHECK_EQ_U64(v.proofs[0].sector_id, m.sector_ids[0]);
    /* a directory without the file */
    czk_post_json none;
    CHECK(czk_post_dir_json(&none, CZK_POST_WINDOW, CZK_SOURCE_DIR "/tests") == CZK_ERR_IO);
    CHECK_MSG(strstr(czk_last_error(), "tests/post-window.json") != NULL, "message: %s", czk_last_error());
    czk_post_shape ws;
    REQUIRE_OK(czk_post_shape_of(&ws, CZK_POST_WINDOW, 2048));
    czk_groth16_params p;
    uint64_t seed = 12;
    REQUIRE_OK(czk_kind_setup(&p, czk_post_proof_kind(ws.kind), &ws, &seed, NULL, NULL));
    czk_groth16_proof pr[1];
    czk_status st = prove_one(pr, &v, &p, 3, NULL);
    CHECK_MSG(st == CZK_OK, "%s", czk_last_error());
    if (st == CZK_OK) {
        CHECK_OK(czk_post_json_verify(&p.vk, &m, &pr[0]));
        CHECK_OK(czk_post_verify(&p.vk, &v, &pr[0]));
        m.comm_r[0][0] ^= 1;
        CHECK(czk_post_json_verify(&p.vk, &m, &pr[0]) == CZK_ERR_VERIFY);
        m.comm_r[0][0] ^= 1;
        m.sector_ids[0]++;
        CHECK(czk_post_json_verify(&p.vk, &m, &pr[0]) == CZK_ERR_VERIFY);
        m.sector_ids[0]--;
        m.comm_r[0][31] = 0xff; /* >= r */
        CHECK(czk_post_json_verify(&p.vk, &m, &pr[0]) == CZK_ERR_NOT_CANONICAL);
    }
    czk_groth16_params_clear(&p);
    czk_post_vanilla_free(&v);
    czk_post_json_free(&m);
}
