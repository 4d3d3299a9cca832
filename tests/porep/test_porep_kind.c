/* PoRep as a proof kind: the registry, czk_kind_prove through the engine
 * with each witness source (full synthesis, the parallel prover, PCE), and
 * the v28 parameter names. The three sources give bit-identical witnesses,
 * so with the same proof randomness they must give the same proof bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/kind.h"
#include "czk/porep_kind.h"
#include "czk/post_kind.h"
#include "czk/snap_kind.h"

static czk_fc_shape tiny_shape(void)
{
    czk_fc_shape s;
    /* 64 nodes, 2 layers, 2 partitions of 1 challenge, base arity 8 */
    if (czk_fc_shape_custom(&s, 64, 2, 2, 1, 8, 0, 0) != CZK_OK) memset(&s, 0, sizeof s);
    return s;
}

/* Parameters of the tiny shape, made once (setup is the slow part here). */
static czk_groth16_params g_params;
static int g_have;

static const czk_groth16_params *tiny_params(void)
{
    if (!g_have) {
        czk_fc_shape shape = tiny_shape();
        uint64_t seed = 3;
        if (czk_kind_setup(&g_params, &czk_kind_porep, &shape, &seed, NULL, NULL) != CZK_OK) return NULL;
        g_have = 1;
    }
    return &g_params;
}

static void use_tmp_cache(const char *sub)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%s", czk_test_tmpdir(), sub);
    setenv("CZK_CACHE_DIR", dir, 1);
}

CZK_TEST(registry_finds_porep)
{
    CHECK(czk_proof_kind_find("porep") == &czk_kind_porep);
    CHECK(czk_proof_kind_find("no-such-kind") == NULL);
    CHECK(czk_proof_kind_find(NULL) == NULL);
    CHECK(czk_proof_kind_at(0) == &czk_kind_porep);
    size_t n = 0, defaults = 0;
    while (czk_proof_kind_at(n)) {
        const czk_proof_kind *k = czk_proof_kind_at(n);
        /* the whole contract */
        defaults += !k->pick_flag;
        CHECK_MSG(k->name && k->summary && k->title && k->input_flag && k->generate &&
                      (k->pick_flag || k->takes_partition) &&
                      (!k->pick_value || k->pick_flag) && k->circuit && k->circuit->sizes && k->circuit->synthesize &&
                      k->circuit->public_inputs && k->partitions && k->plan && k->shape_ops && k->shape_resolve &&
                      k->shape_of && k->shape_name && k->param_path && k->read && k->read_public && k->free_public &&
                      k->public_shape && k->public_partitions && k->public_name && k->public_inputs && k->wire_kind &&
                      k->circuit_prefix && k->decode && k->free_data && k->sector_size,
                  "kind %s lacks a member of the contract", k->name ? k->name : "?");
        n++;
    }
    CHECK(n == 4);
    CHECK_MSG(defaults == 1, "%zu kinds without a picking option (one is the default)", defaults);
}

/* Every kind's shape at 2KiB: a name, sizes, the same parameter file by
 * shape and by size, a PCE path; and the shape options a kind does not take
 * are refused with a message naming them. */
CZK_TEST(registry_shapes_by_size)
{
    for (size_t i = 0; czk_proof_kind_at(i); i++) {
        const czk_proof_kind *k = czk_proof_kind_at(i);
        const czk_shape_spec spec = {.sector_size = 2048};
        void *shape = NULL;
        REQUIRE_OK(k->shape_resolve(&shape, &spec));
        char name[96], a[1024], b[1024], pce[1024];
        k->shape_name(name, sizeof name, shape);
        CHECK_MSG(name[0] != 0, "%s: empty shape name", k->name);
        czk_cs_sizes z;
        REQUIRE_OK(czk_kind_shape_sizes(&z, k, shape));
        CHECK_MSG(z.n_inputs > 1 && z.n_aux > 0 && z.n_constraints > z.n_inputs, "%s: sizes %llu %llu %llu", k->name,
                  (unsigned long long)z.n_inputs, (unsigned long long)z.n_aux, (unsigned long long)z.n_constraints);
        REQUIRE_OK(k->param_path(a, sizeof a, "/p", shape, ".vk"));
        REQUIRE_OK(czk_kind_param_path_of_size(b, sizeof b, k, "/p", 2048, ".vk"));
        CHECK_MSG(!strcmp(a, b) && !strncmp(a, "/p/v28-", 7), "%s: %s vs %s", k->name, a, b);
        REQUIRE_OK(czk_kind_pce_path(pce, sizeof pce, k, shape));
        CHECK_MSG(strstr(pce, ".pce") != NULL, "%s: PCE path %s", k->name, pce);
        free(shape);
        const czk_shape_spec none = {0};
        CHECK(k->shape_resolve(&shape, &none) == CZK_ERR_INVALID_ARG && shape == NULL);
        CHECK_MSG(strstr(czk_last_error(), "--sector-size") != NULL, "%s: %s", k->name, czk_last_error());
        const czk_shape_spec both = {.sector_size = 2048, .nodes = 64, .tree = {8}};
        CHECK(k->shape_resolve(&shape, &both) == CZK_ERR_INVALID_ARG && shape == NULL);
    }
    const czk_shape_spec layers = {.sector_size = 2048, .layers = 2};
    void *shape = NULL;
    CHECK(czk_kind_snap.shape_resolve(&shape, &layers) == CZK_ERR_INVALID_ARG && shape == NULL);
    CHECK(strstr(czk_last_error(), "--layers") != NULL);
    CHECK(czk_kind_window_post.shape_resolve(&shape, &layers) == CZK_ERR_INVALID_ARG && shape == NULL);
    const czk_shape_spec sectors = {.sector_size = 2048, .sectors = 1};
    CHECK(czk_kind_porep.shape_resolve(&shape, &sectors) == CZK_ERR_INVALID_ARG && shape == NULL);
    CHECK(strstr(czk_last_error(), "--sectors") != NULL);
    REQUIRE_OK(czk_kind_window_post.shape_resolve(&shape, &sectors));
    CHECK(((const czk_post_shape *)shape)->sectors == 1);
    free(shape);
}

CZK_TEST(porep_param_path_is_v28)
{
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 2048));
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &s, 1, NULL, NULL));
    char path[1024];
    REQUIRE_OK(czk_kind_param_path(path, sizeof path, &czk_kind_porep, "/p", &c1, ".params"));
    CHECK_MSG(!strcmp(path, "/p/v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                            "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params"),
              "got %s", path);
    CHECK_EQ_U64(czk_kind_porep.partitions(&c1), 1);
    czk_fc_c1_free(&c1);
}

CZK_TEST(kind_prove_rejects_bad_partition)
{
    czk_fc_shape shape = tiny_shape();
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &shape, 5, NULL, NULL));
    /* the partition is checked before the parameters are looked at */
    czk_groth16_params dummy;
    memset(&dummy, 0, sizeof dummy);
    const czk_groth16_params *p = &dummy;
    uint32_t parts[1] = {2};
    czk_groth16_proof pr[1];
    czk_kind_job job;
    memset(&job, 0, sizeof job);
    job.kind = &czk_kind_porep;
    job.data = &c1;
    job.params = p;
    job.partitions = parts;
    job.n = 1;
    CHECK(czk_kind_prove(pr, &job, NULL) == CZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(czk_last_error(), "partition 2") != NULL, "message: %s", czk_last_error());
    job.n = 0;
    CHECK(czk_kind_prove(pr, &job, NULL) == CZK_ERR_INVALID_ARG);
    czk_fc_c1_free(&c1);
}

/* Partitions first .. 1 through czk_kind_prove with the given source
 * options and a fixed proof-randomness stream; proofs verified by the
 * engine and again. */
static void prove_with(czk_groth16_proof *out, uint32_t first, const char **source, const czk_fc_c1 *c1,
                       const czk_groth16_params *p, czk_pce_mode pce, int parallel)
{
    uint32_t parts[2] = {first, 1};
    czk_rng rng;
    czk_rng_seed(&rng, 99);
    czk_kind_job job;
    memset(&job, 0, sizeof job);
    job.kind = &czk_kind_porep;
    job.data = c1;
    job.params = p;
    job.partitions = parts;
    job.n = 2 - first;
    job.source.pce = pce;
    job.source.parallel = parallel;
    job.source.lc = CZK_LC_DEFAULT;
    job.engine.synth_workers = 1; /* tasks reach the prover in partition order */
    job.engine.rng = &rng;
    czk_kind_partition_times t[2];
    czk_kind_report rep;
    memset(&rep, 0, sizeof rep);
    rep.parts = t;
    czk_status st = czk_kind_prove(out, &job, &rep);
    CHECK_MSG(st == CZK_OK, "pce %d parallel %d: %s", (int)pce, parallel, czk_last_error());
    if (st != CZK_OK) return;
    CHECK(rep.verified == 1);
    CHECK(t[0].partition == first && t[job.n - 1].partition == 1);
    CHECK(t[0].synth_s > 0 && t[0].prove_s > 0 && t[0].batch == 1);
    *source = rep.source;
    if (first == 0) CHECK_OK(czk_kind_verify_data(&p->vk, &czk_kind_porep, c1, out, NULL, 2));
}

CZK_TEST(every_witness_source_gives_the_same_proofs)
{
    if (getenv("CZK_TEST_ASAN")) {
        printf("  note: ASan: proving 1.34M-constraint partitions is left to the Release run\n");
        return;
    }
    use_tmp_cache("kindcache");
    czk_fc_shape shape = tiny_shape();
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &shape, 11, NULL, NULL));
    const czk_groth16_params *pp = tiny_params();
    REQUIRE(pp != NULL);
    const czk_groth16_params p = *pp;
    czk_groth16_proof full[2], par[1], pce[1], again[1];
    const char *s_full = "", *s_par = "", *s_pce = "", *s_auto = "";
    /* auto with nothing cached: full synthesis */
    prove_with(full, 0, &s_full, &c1, &p, CZK_PCE_MODE_AUTO, 0);
    CHECK_MSG(!strcmp(s_full, "prove"), "auto without a cached PCE ran %s", s_full);
    /* the others prove partition 1 alone: the same proof with the same stream */
    prove_with(par, 1, &s_par, &c1, &p, CZK_PCE_MODE_OFF, 1);
    CHECK_MSG(!strcmp(s_par, "parallel"), "ran %s", s_par);
    prove_with(pce, 1, &s_pce, &c1, &p, CZK_PCE_MODE_ON, 0); /* builds and caches the PCE */
    CHECK_MSG(!strcmp(s_pce, "pce"), "ran %s", s_pce);
    prove_with(again, 1, &s_auto, &c1, &p, CZK_PCE_MODE_AUTO, 0); /* now cached */
    CHECK_MSG(!strcmp(s_auto, "pce"), "auto with a cached PCE ran %s", s_auto);
    uint8_t a[CZK_GROTH16_PROOF_BYTES], b[CZK_GROTH16_PROOF_BYTES];
    /* the first draw of the stream serves the first proof of each job */
    czk_groth16_proof first_of_full[1];
    const char *s_one = "";
    prove_with(first_of_full, 1, &s_one, &c1, &p, CZK_PCE_MODE_OFF, 0);
    czk_groth16_proof_encode(a, &first_of_full[0]);
    czk_groth16_proof_encode(b, &par[0]);
    CHECK_MSG(!memcmp(a, b, sizeof a), "parallel prover's proof differs from full synthesis'");
    czk_groth16_proof_encode(b, &pce[0]);
    CHECK_MSG(!memcmp(a, b, sizeof a), "PCE's proof differs from full synthesis'");
    czk_groth16_proof_encode(b, &again[0]);
    CHECK_MSG(!memcmp(a, b, sizeof a), "cached PCE's proof differs from full synthesis'");
    /* a tampered proof is caught by the verifier */
    czk_groth16_proof bad[2] = {full[0], full[1]};
    bad[1].a = full[0].a;
    CHECK(czk_kind_verify_data(&p.vk, &czk_kind_porep, &c1, bad, NULL, 2) == CZK_ERR_VERIFY);
    czk_fc_c1_free(&c1);
}

CZK_TEST(params_of_another_shape_fail_naming_the_stage)
{
    if (getenv("CZK_TEST_ASAN")) {
        printf("  note: ASan: left to the Release run (1.34M-constraint setup)\n");
        return;
    }
    /* a sector of 2 challenges per partition against the 1-challenge parameters */
    czk_fc_shape other;
    REQUIRE_OK(czk_fc_shape_custom(&other, 64, 2, 2, 2, 8, 0, 0));
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &other, 12, NULL, NULL));
    const czk_groth16_params *p = tiny_params();
    REQUIRE(p != NULL);
    czk_groth16_proof pr[2];
    czk_kind_job job;
    memset(&job, 0, sizeof job);
    job.kind = &czk_kind_porep;
    job.data = &c1;
    job.params = p;
    job.n = 2;
    CHECK(czk_kind_prove(pr, &job, NULL) != CZK_OK);
    CHECK_MSG(strstr(czk_last_error(), "parameters") != NULL, "message: %s", czk_last_error());
    czk_fc_c1_free(&c1);
}

CZK_TEST(zz_release_params)
{
    if (g_have) czk_groth16_params_clear(&g_params);
    g_have = 0;
}
