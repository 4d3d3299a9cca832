/* Synthetic sectors: the generated vanilla proofs are consistent, checked
 * natively (czk_fc_verify_challenge) and by independent recomputation with
 * OpenSSL's SHA-256; altered values are caught. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <openssl/evp.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/filecoin.h"
#include "czk/poseidon.h"
#include "filecoin/internal.h"

static void verify_all(const czk_fc_c1 *c)
{
    for (uint32_t k = 0; k < c->shape.partitions; k++)
        for (uint32_t i = 0; i < c->shape.challenges; i++) CHECK_OK(czk_fc_verify_challenge(c, k, i));
}

static void sha_trunc(uint8_t out[32], const uint8_t *in, size_t n)
{
    EVP_Digest(in, n, out, NULL, EVP_sha256(), NULL);
    out[31] &= 0x3f;
}

/* Independent recomputation of one challenge: the label of every layer from
 * its parents' column rows (OpenSSL SHA-256 over a hand-built preimage), the
 * tree D root with OpenSSL, the tree C / R_last roots with Poseidon, and
 * comm_r. */
static void recompute(const czk_fc_c1 *c, uint32_t k, uint32_t i)
{
    const czk_fc_shape *s = &c->shape;
    const czk_fc_challenge_proof *p = czk_fc_c1_proof(c, k, i);
    uint64_t node = p->c_x.index;
    uint64_t ch[1024];
    REQUIRE(s->challenges <= 1024);
    czk_fc_challenges(ch, s, &c->replica_id, c->seed, k);
    CHECK_EQ_U64(node, ch[i]);
    uint32_t par[CZK_FC_PARENTS];
    czk_fc_parents(par, s, node);
    for (int j = 0; j < 6; j++) CHECK_EQ_U64(p->drg[j].index, par[j]);
    for (int j = 0; j < 8; j++) CHECK_EQ_U64(p->exp[j].index, par[6 + j]);
    for (uint32_t l = 1; l <= s->layers; l++) {
        uint8_t buf[64 + 37 * 32] = {0}, h[32], want[32];
        czk_fr_to_bytes(buf, &c->replica_id);
        for (int b = 0; b < 4; b++) buf[32 + b] = (uint8_t)(l >> (24 - 8 * b));
        for (int b = 0; b < 8; b++) buf[36 + b] = (uint8_t)(node >> (56 - 8 * b));
        unsigned np = l == 1 ? 6 : 14;
        for (unsigned j = 0; j < 37; j++) {
            unsigned q = j % np;
            const czk_fr *v = q < 6 ? &p->drg[q].rows[l - 1] : &p->exp[q - 6].rows[l - 2];
            czk_fr_to_bytes(buf + 64 + 32 * j, v);
        }
        sha_trunc(h, buf, sizeof buf);
        czk_fr_to_bytes(want, &p->c_x.rows[l - 1]);
        CHECK_MSG(!memcmp(h, want, 32), "partition %u challenge %u layer %u label", k, i, l);
    }
    /* tree D root from leaf + path with OpenSSL */
    uint8_t cur[32], pair[64], root[32];
    czk_fr_to_bytes(cur, &p->comm_d.leaf);
    uint64_t idx = p->comm_d.index;
    for (uint32_t l = 0; l < s->d_height; l++, idx >>= 1) {
        uint8_t sib[32];
        czk_fr_to_bytes(sib, &p->comm_d.siblings[l]);
        memcpy(pair + (idx & 1 ? 32 : 0), cur, 32);
        memcpy(pair + (idx & 1 ? 0 : 32), sib, 32);
        sha_trunc(cur, pair, 64);
    }
    czk_fr_to_bytes(root, &c->comm_d);
    CHECK_MEM(cur, root, 32);
    /* tree R_last root with Poseidon; comm_r */
    czk_fr r = p->comm_r_last.leaf, kids[8];
    const czk_fr *sp = p->comm_r_last.siblings;
    idx = p->comm_r_last.index;
    for (uint32_t l = 0; l < czk_fc_shape_tree_levels(s); l++) {
        uint32_t ar = czk_fc_shape_level_arity(s, l), pos = (uint32_t)(idx % ar);
        for (uint32_t j = 0, q = 0; j < ar; j++) kids[j] = j == pos ? r : sp[q++];
        sp += ar - 1;
        idx /= ar;
        CHECK_OK(czk_poseidon_hash(&r, kids, ar));
    }
    CHECK(czk_fr_eq(&r, &p->comm_r_last.root));
    czk_fr cr;
    czk_poseidon_hash2(&cr, &p->c_x.proof.root, &r);
    CHECK(czk_fr_eq(&cr, &c->comm_r));
    czk_fr enc;
    czk_fr_add(&enc, &p->c_x.rows[s->layers - 1], &p->comm_d.leaf);
    CHECK(czk_fr_eq(&enc, &p->comm_r_last.leaf));
}

CZK_TEST(gen_2kib_consistent)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 2048));
    for (uint64_t seed = 1; seed <= 4; seed++) {
        czk_fc_c1 c;
        REQUIRE_OK(czk_fc_gen_c1(&c, &s, seed, NULL, NULL));
        CHECK_EQ_U64(c.shape.proof, CZK_FC_2KIB_V1_1);
        verify_all(&c);
        for (uint32_t i = 0; i < s.challenges; i++) recompute(&c, 0, i);
        czk_fc_c1_free(&c);
    }
}

CZK_TEST(gen_deterministic)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 2048));
    czk_fc_c1 a, b;
    REQUIRE_OK(czk_fc_gen_c1(&a, &s, 7, NULL, NULL));
    REQUIRE_OK(czk_fc_gen_c1(&b, &s, 7, NULL, NULL));
    char *ja, *jb;
    size_t la, lb;
    REQUIRE_OK(czk_fc_c1_to_json(&ja, &la, &a));
    REQUIRE_OK(czk_fc_c1_to_json(&jb, &lb, &b));
    CHECK(la == lb && !memcmp(ja, jb, la));
    free(ja);
    free(jb);
    czk_fc_c1_free(&b);
    REQUIRE_OK(czk_fc_gen_c1(&b, &s, 8, NULL, NULL));
    CHECK(!czk_fr_eq(&a.comm_r, &b.comm_r));
    czk_fc_c1_free(&a);
    czk_fc_c1_free(&b);
}

/* Custom shapes: binary / sub / top trees, 2 and 11 layers, several partitions. */
CZK_TEST(gen_custom_shapes_consistent)
{
    czk_init();
    struct { uint64_t nodes; uint32_t layers, parts, chal, b, sub, top; } t[] = {
        {64, 2, 1, 3, 2, 0, 0},  {512, 2, 2, 4, 8, 8, 0},  {1024, 11, 2, 3, 8, 8, 2},
        {256, 11, 1, 5, 4, 4, 0}, {1024, 4, 3, 2, 8, 2, 0}, {128, 8, 1, 4, 8, 2, 0},
    };
    for (size_t z = 0; z < sizeof t / sizeof t[0]; z++) {
        czk_fc_shape s;
        REQUIRE_OK(czk_fc_shape_custom(&s, t[z].nodes, t[z].layers, t[z].parts, t[z].chal, t[z].b, t[z].sub, t[z].top));
        czk_fc_c1 c;
        REQUIRE_OK(czk_fc_gen_c1(&c, &s, 100 + z, NULL, NULL));
        verify_all(&c);
        for (uint32_t k = 0; k < s.partitions; k++)
            for (uint32_t i = 0; i < s.challenges; i++) recompute(&c, k, i);
        czk_fc_c1_free(&c);
    }
}

CZK_TEST(gen_detects_alterations)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_custom(&s, 512, 2, 1, 2, 8, 8, 0));
    czk_fc_c1 c;
    REQUIRE_OK(czk_fc_gen_c1(&c, &s, 5, NULL, NULL));
    czk_fc_challenge_proof *p = czk_fc_c1_proof(&c, 0, 1);
    czk_fr one, save;
    czk_fr_from_u64(&one, 1);
#define ALTER(field, msg)                                                                       \
    do {                                                                                        \
        save = field;                                                                           \
        czk_fr_add(&field, &field, &one);                                                       \
        CHECK_MSG(czk_fc_verify_challenge(&c, 0, 1) == CZK_ERR_VERIFY, "altered %s accepted", msg); \
        CHECK_MSG(strstr(czk_last_error(), "challenge 1") != NULL, "message: %s", czk_last_error()); \
        field = save;                                                                           \
        CHECK_OK(czk_fc_verify_challenge(&c, 0, 1));                                            \
    } while (0)
    ALTER(p->c_x.rows[0], "label");
    ALTER(p->drg[3].rows[1], "parent label");
    ALTER(p->exp[5].rows[0], "expander parent label");
    ALTER(p->comm_d.siblings[2], "tree D sibling");
    ALTER(p->comm_r_last.siblings[4], "tree R sibling");
    ALTER(p->exp[2].proof.siblings[7], "tree C sibling");
    ALTER(c.comm_r, "comm_r");
    ALTER(c.comm_d, "comm_d");
    ALTER(p->comm_d.leaf, "data leaf");
    ALTER(p->labeling[1].parents[20], "labeling proof parent");
    ALTER(p->encoding.parents[0], "encoding proof parent");
#undef ALTER
    p->drg[2].index ^= 1;
    CHECK(czk_fc_verify_challenge(&c, 0, 1) == CZK_ERR_VERIFY);
    p->drg[2].index ^= 1;
    c.seed[0] ^= 1; /* a different seed means different challenges */
    CHECK(czk_fc_verify_challenge(&c, 0, 0) == CZK_ERR_VERIFY || czk_fc_verify_challenge(&c, 0, 1) == CZK_ERR_VERIFY);
    c.seed[0] ^= 1;
    czk_fc_c1_free(&c);
}

/* The production shapes: everything but the sector is generated; a 32GiB
 * or 64GiB C1 takes seconds and a few MB. One partition of each is checked
 * (all in CZK_TEST_ITERS >= 10 runs). */
CZK_TEST(gen_real_shapes)
{
    czk_init();
    const uint64_t sizes[] = {1ULL << 23, 1ULL << 29, 1ULL << 35, 1ULL << 36};
    int n = getenv("CZK_TEST_ASAN") ? 2 : 4;
    for (int z = 0; z < n; z++) {
        czk_fc_shape s;
        REQUIRE_OK(czk_fc_shape_of_size(&s, sizes[z]));
        czk_fc_c1 c;
        REQUIRE_OK(czk_fc_gen_c1(&c, &s, 1, NULL, NULL));
        uint32_t parts = czk_test_iters(1) >= 10 ? s.partitions : 1;
        for (uint32_t k = 0; k < parts; k++)
            for (uint32_t i = 0; i < s.challenges; i++) {
                CHECK_OK(czk_fc_verify_challenge(&c, k, i));
                if (i < 2) recompute(&c, k, i);
            }
        czk_fc_c1_free(&c);
    }
}

CZK_TEST(public_inputs_order)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 1ULL << 35));
    /* docs/filecoin.md#porep-public-inputs: 4 + 18 k with ONE */
    CHECK_EQ_U64(czk_fc_public_input_count(&s) + 1, 328);
    REQUIRE_OK(czk_fc_shape_custom(&s, 512, 2, 2, 3, 8, 8, 0));
    czk_fc_c1 c;
    REQUIRE_OK(czk_fc_gen_c1(&c, &s, 21, NULL, NULL));
    czk_fr in[3 + 18 * 3];
    for (uint32_t k = 0; k < 2; k++) {
        REQUIRE_OK(czk_fc_public_inputs(in, &c, k));
        CHECK(czk_fr_eq(&in[0], &c.replica_id) && czk_fr_eq(&in[1], &c.comm_d) && czk_fr_eq(&in[2], &c.comm_r));
        for (uint32_t i = 0; i < 3; i++) {
            const czk_fc_challenge_proof *p = czk_fc_c1_proof(&c, k, i);
            const czk_fr *v = &in[3 + 18 * i];
            uint64_t want[18];
            want[0] = p->comm_d.index;
            for (int j = 0; j < 6; j++) want[1 + j] = p->drg[j].index;
            for (int j = 0; j < 8; j++) want[7 + j] = p->exp[j].index;
            want[15] = p->c_x.index;
            want[16] = p->comm_r_last.index;
            want[17] = p->c_x.proof.index;
            for (int j = 0; j < 18; j++) {
                czk_fr w;
                czk_fr_from_u64(&w, want[j]);
                CHECK_MSG(czk_fr_eq(&v[j], &w), "partition %u challenge %u input %d", k, i, j);
            }
        }
    }
    CHECK(czk_fc_public_inputs(in, &c, 2) == CZK_ERR_INVALID_ARG);
    czk_fc_c1_free(&c);
}

/* A _Feat_SyntheticPoRep file has the same layout; its challenges (and so
 * its public inputs) come from the synthetic selection, which needs comm_r. */
CZK_TEST(synthetic_proof_files)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_proof(&s, CZK_FC_2KIB_V1_1_SYNTH));
    czk_fc_c1 c;
    CHECK(czk_fc_gen_c1(&c, &s, 1, NULL, NULL) == CZK_ERR_UNSUPPORTED);
    REQUIRE_OK(czk_fc_shape_of_size(&s, 2048));
    REQUIRE_OK(czk_fc_gen_c1(&c, &s, 31, NULL, NULL));
    char *js;
    size_t len;
    REQUIRE_OK(czk_fc_c1_to_json(&js, &len, &c));
    czk_fc_c1_free(&c);
    const char *from = "\"StackedDrg2KiBV1_1\"";
    char *at = strstr(js, from);
    REQUIRE(at);
    size_t pre = (size_t)(at - js);
    const char *to = "\"StackedDrg2KiBV1_1_Feat_SyntheticPoRep\"";
    char *js2 = malloc(len + 64);
    REQUIRE(js2);
    memcpy(js2, js, pre);
    strcpy(js2 + pre, to);
    strcat(js2 + pre, at + strlen(from));
    czk_fc_c1 d;
    REQUIRE_OK(czk_fc_c1_parse(&d, js2, strlen(js2), "synth.json"));
    CHECK(czk_fc_proof_is_synthetic(d.shape.proof));
    uint8_t rid[32], cr[32];
    czk_fr_to_bytes(rid, &d.replica_id);
    czk_fr_to_bytes(cr, &d.comm_r);
    uint64_t ch[2];
    czk_fc_c1_challenges(ch, &d, 0);
    czk_fr in[3 + 36];
    REQUIRE_OK(czk_fc_public_inputs(in, &d, 0));
    for (uint32_t j = 0; j < 2; j++) {
        CHECK_EQ_U64(ch[j], czk__fc_synth_challenge(64, 64, rid, cr, d.seed, j, NULL));
        czk_fr w;
        czk_fr_from_u64(&w, ch[j]);
        CHECK(czk_fr_eq(&in[3 + 18 * j], &w) && czk_fr_eq(&in[3 + 18 * j + 15], &w));
    }
    czk_fc_c1_free(&d);
    free(js);
    free(js2);
}

/* `czk gen-c1`: exit codes, --json, and a file that reads back and verifies. */
CZK_TEST(cli_gen_c1)
{
    const char *cli = czk_test_cli();
    if (!strchr(cli, '/')) {
        printf("  note: CZK_CLI not set (run through ctest); skipped\n");
        return;
    }
    czk_init();
    char out[4096], path[600];
    snprintf(path, sizeof path, "%s/cli_c1.json", czk_test_tmpdir());
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' gen-c1 --sector-size 2KiB --seed 3 --envelope --verify --json -o '%s'",
                         cli, path), 0);
    CHECK_MSG(strstr(out, "\"registered_proof\":\"StackedDrg2KiBV1_1\"") && strstr(out, "\"envelope\":true"),
              "output: %s", out);
    czk_fc_c1 c;
    REQUIRE_OK(czk_fc_c1_read(&c, path));
    CHECK(c.has_envelope);
    CHECK_OK(czk_fc_verify_challenge(&c, 0, 0));
    CHECK_OK(czk_fc_verify_challenge(&c, 0, 1));
    char hex[67];
    czk_fr_to_hex(hex, &c.comm_r);
    CHECK_MSG(strstr(out, hex) != NULL, "comm_r %s not in %s", hex, out);
    czk_fc_c1_free(&c);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' gen-c1 --tree 8,8,2 --nodes 1024 --layers 11 --challenges 3 "
                                          "--partitions 2 --quiet -o '%s'", cli, path), 0);
    REQUIRE_OK(czk_fc_c1_read(&c, path));
    CHECK_EQ_U64(c.shape.proof, CZK_FC_PROOF_CUSTOM);
    CHECK_EQ_U64(c.shape.top_arity, 2);
    CHECK_OK(czk_fc_verify_challenge(&c, 1, 2));
    czk_fc_c1_free(&c);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' gen-c1 --sector-size 4KiB -o '%s' 2>&1", cli, path), 2);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' gen-c1 --layers 3 -o '%s' 2>&1", cli, path), 2);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' gen-c1 --sector-size 2KiB 2>&1", cli), 2);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' gen-c1 -o /nonexistent-dir/c1.json 2>&1", cli), 1);
    CHECK_MSG(strstr(out, "cannot create") != NULL, "output: %s", out);
}
