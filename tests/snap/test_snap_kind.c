/* SnapDeals as a proof kind: the registry, the v28 names of every size,
 * the engine's sizes and public inputs per partition (k_and_h_select), the
 * verifier's refusals (another circuit's key, a wrong proof count), cached
 * parameters' names. Proving through czk_kind_prove and verifying are
 * tested end to end by tests/cli/test_cli_snap.sh and tests/oracle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/kind.h"
#include "czk/snap_kind.h"

CZK_TEST(registry_finds_snap)
{
    CHECK(czk_proof_kind_find("snap") == &czk_kind_snap);
    CHECK(czk_proof_kind_at(3) == &czk_kind_snap);
    CHECK(!strcmp(czk_kind_snap.circuit->name, "snap"));
    czk_snap_vanilla v;
    memset(&v, 0, sizeof v);
    v.n = 16;
    CHECK_EQ_U64(czk_kind_snap.partitions(&v), 16);
}

CZK_TEST(snap_param_names_are_v28)
{
    static const struct {
        uint64_t size;
        const char *id;
    } cases[] = {
        {2048, "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
               "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"},
        {8ULL << 20, "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
                     "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63"},
        {512ULL << 20, "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
                       "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c"},
        {32ULL << 30, "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
                      "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"},
        {64ULL << 30, "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
                      "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        czk_snap_vanilla v;
        memset(&v, 0, sizeof v);
        REQUIRE_OK(czk_snap_shape_of(&v.shape, cases[i].size));
        char path[1024], want[1024];
        REQUIRE_OK(czk_kind_param_path(path, sizeof path, &czk_kind_snap, "/p", &v, ".params"));
        snprintf(want, sizeof want, "/p/%s.params", cases[i].id);
        CHECK_MSG(!strcmp(path, want), "size %llu: %s", (unsigned long long)cases[i].size, path);
        REQUIRE_OK(czk_snap_param_path(path, sizeof path, "/p", &v.shape, ".vk"));
        snprintf(want, sizeof want, "/p/%s.vk", cases[i].id);
        CHECK(!strcmp(path, want));
        CHECK(!strcmp(czk_snap_param_id((int)i), cases[i].id));
    }
    czk_snap_shape s;
    char path[1024];
    REQUIRE_OK(czk_snap_shape_custom(&s, 256, 8, 4, 0));
    CHECK(czk_snap_param_path(path, sizeof path, "/p", &s, ".params") == CZK_ERR_INVALID_ARG);
    CHECK_MSG(!strcmp(czk_last_error(), "no known v28 name for a custom SnapDeals shape; pass --params"), "message: %s",
              czk_last_error());
    REQUIRE_OK(czk_snap_shape_of(&s, 2048));
    CHECK(czk_snap_param_path(path, 20, "/p", &s, ".params") == CZK_ERR_INVALID_ARG);
    CHECK(czk_snap_param_id(5) == NULL && czk_snap_param_id(-1) == NULL);
}

/* k_and_h_select = k | h_select << partition_bits, h_select = 1 << (index
 * of h in hs): 2KiB (h = 1, the first of [1; 6]) 1; 8MiB (h = 10 at index
 * 3, 2 partition bits) 32 + k; 32GiB (4 partition bits) 128 + k. */
CZK_TEST(snap_public_inputs_per_partition)
{
    static const struct {
        uint64_t size;
        uint32_t k;
        uint64_t khs;
    } cases[] = {{2048, 0, 1}, {8ULL << 20, 0, 32}, {8ULL << 20, 3, 35}, {32ULL << 30, 15, 143}, {64ULL << 30, 9, 137}};
    czk_fr a, b, c;
    czk_fr_from_u64(&a, 11);
    czk_fr_from_u64(&b, 22);
    czk_fr_from_u64(&c, 33);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        czk_snap_vanilla v;
        memset(&v, 0, sizeof v);
        REQUIRE_OK(czk_snap_shape_of(&v.shape, cases[i].size));
        v.h = v.shape.h;
        v.n = v.shape.partitions;
        v.comm_r_old = a, v.comm_d_new = b, v.comm_r_new = c;
        czk_fr in[4], want;
        REQUIRE_OK(czk_kind_snap.circuit->public_inputs(in, 4, &v, cases[i].k));
        czk_fr_from_u64(&want, cases[i].khs);
        CHECK_MSG(czk_fr_eq(&in[0], &want), "size %llu partition %u", (unsigned long long)cases[i].size, cases[i].k);
        CHECK(czk_fr_eq(&in[1], &a) && czk_fr_eq(&in[2], &b) && czk_fr_eq(&in[3], &c));
        /* the engine's sizes: the closed form plus one row per input */
        czk_cs_sizes z;
        REQUIRE_OK(czk_kind_snap.circuit->sizes(&z, &v, cases[i].k));
        czk_snap_counts n;
        czk_snap_circuit_counts(&n, &v.shape);
        CHECK(z.n_inputs == 5 && z.n_aux == n.aux && z.n_constraints == n.constraints + 5);
        CHECK(czk_kind_snap.circuit->sizes(&z, &v, v.n) == CZK_ERR_INVALID_ARG);
        CHECK(czk_kind_snap.circuit->public_inputs(in, 3, &v, 0) == CZK_ERR_INVALID_ARG);
    }
    czk_snap_shape s;
    czk_fr in[4];
    REQUIRE_OK(czk_snap_shape_of(&s, 32ULL << 30));
    CHECK(czk_snap_public_inputs(in, &s, 16, 10, &a, &b, &c) == CZK_ERR_INVALID_ARG);
    CHECK(czk_snap_public_inputs(in, &s, 0, 13, &a, &b, &c) == CZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(czk_last_error(), "h = 13 is not one of the sector size's hs (7, 8, 9, 10, 11, 12)") != NULL,
              "message: %s", czk_last_error());
    /* any h of hs: h = 7 is index 0 */
    REQUIRE_OK(czk_snap_public_inputs(in, &s, 2, 7, &a, &b, &c));
    czk_fr want;
    czk_fr_from_u64(&want, 2 | 1 << 4);
    CHECK(czk_fr_eq(&in[0], &want));
}

CZK_TEST(snap_verify_refuses_other_keys)
{
    czk_snap_public pub;
    memset(&pub, 0, sizeof pub);
    REQUIRE_OK(czk_snap_shape_of(&pub.shape, 8ULL << 20));
    pub.h = pub.shape.h;
    czk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    vk.n_ic = 23;
    czk_groth16_proof pr[4];
    memset(pr, 0, sizeof pr);
    CHECK(czk_snap_verify_public(&vk, &pub, pr, 4) == CZK_ERR_INVALID_ARG);
    CHECK_MSG(!strcmp(czk_last_error(), "the verifying key has 23 public inputs, the SnapDeals circuit 5"),
              "message: %s", czk_last_error());
    vk.n_ic = 5;
    CHECK(czk_snap_verify_public(&vk, &pub, pr, 3) == CZK_ERR_INVALID_ARG);
    CHECK_MSG(!strcmp(czk_last_error(), "3 proofs, a StackedDrg8MiBV1 update has 4 partitions"), "message: %s",
              czk_last_error());
}
