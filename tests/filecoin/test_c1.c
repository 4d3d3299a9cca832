/* c1.json: shapes, base64, write -> read round trips (plain and envelope),
 * and malformed files rejected with the JSON path of the bad field. */
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/filecoin.h"

CZK_TEST(shapes_table)
{
    struct { uint64_t size, nodes; uint32_t layers, parts, chal, base, sub, top, bh, dh; const char *name; } t[] = {
        {1ULL << 11, 64, 2, 1, 2, 8, 0, 0, 2, 6, "StackedDrg2KiBV1_1"},
        {1ULL << 23, 1ULL << 18, 2, 1, 2, 8, 0, 0, 6, 18, "StackedDrg8MiBV1_1"},
        {1ULL << 29, 1ULL << 24, 2, 1, 2, 8, 0, 0, 8, 24, "StackedDrg512MiBV1_1"},
        {1ULL << 35, 1ULL << 30, 11, 10, 18, 8, 8, 0, 9, 30, "StackedDrg32GiBV1_1"},
        {1ULL << 36, 1ULL << 31, 11, 10, 18, 8, 8, 2, 9, 31, "StackedDrg64GiBV1_1"},
    };
    for (size_t i = 0; i < 5; i++) {
        czk_fc_shape s;
        REQUIRE_OK(czk_fc_shape_of_size(&s, t[i].size));
        CHECK_EQ_U64(s.nodes, t[i].nodes);
        CHECK_EQ_U64(s.layers, t[i].layers);
        CHECK_EQ_U64(s.partitions, t[i].parts);
        CHECK_EQ_U64(s.challenges, t[i].chal);
        CHECK_EQ_U64(s.base_arity, t[i].base);
        CHECK_EQ_U64(s.sub_arity, t[i].sub);
        CHECK_EQ_U64(s.top_arity, t[i].top);
        CHECK_EQ_U64(s.base_height, t[i].bh);
        CHECK_EQ_U64(s.d_height, t[i].dh);
        CHECK(s.api_v1_1);
        CHECK(!strcmp(czk_fc_proof_name(s.proof), t[i].name));
        /* the tree covers exactly the sector's nodes */
        uint64_t cap = 1;
        for (uint32_t l = 0; l < czk_fc_shape_tree_levels(&s); l++) cap *= czk_fc_shape_level_arity(&s, l);
        CHECK_EQ_U64(cap, s.nodes);
        czk_fc_proof p;
        REQUIRE_OK(czk_fc_proof_from_name(&p, t[i].name));
        CHECK_EQ_U64(p, s.proof);
    }
    czk_fc_shape s;
    CHECK(czk_fc_shape_of_size(&s, 4096) == CZK_ERR_UNSUPPORTED);
    CHECK(czk_fc_shape_custom(&s, 1000, 2, 1, 1, 8, 0, 0) == CZK_ERR_INVALID_ARG);
    CHECK(czk_fc_shape_custom(&s, 1024, 2, 1, 1, 8, 0, 0) == CZK_ERR_INVALID_ARG); /* 1024 != 8^h */
    CHECK(czk_fc_shape_custom(&s, 1024, 2, 1, 1, 8, 8, 2) == CZK_OK);
    CHECK_EQ_U64(s.base_height, 2);
    CHECK(czk_fc_shape_custom(&s, 1024, 2, 1, 1, 8, 0, 2) == CZK_ERR_INVALID_ARG);
    CHECK(czk_fc_shape_custom(&s, 64, 0, 1, 1, 8, 0, 0) == CZK_ERR_INVALID_ARG);
    CHECK(czk_fc_shape_custom(&s, 64, 3, 1, 1, 8, 0, 0) == CZK_ERR_INVALID_ARG);
    CHECK(czk_fc_shape_custom(&s, 64, 11, 1, 1, 8, 0, 0) == CZK_OK);
    uint8_t id[32];
    czk_fc_porep_id(id, CZK_FC_32GIB_V1_1);
    CHECK(id[0] == 8 && id[1] == 0 && id[8] == 0);
    CHECK(!strcmp(czk_fc_proof_vanilla_key(CZK_FC_64GIB_V1_1_SYNTH), "StackedDrg64GiBV1"));
}

CZK_TEST(base64_vs_openssl)
{
    uint8_t in[200], back[210];
    char mine[300], ref[300];
    for (size_t n = 0; n < 200; n++) {
        czk_rng_bytes(czk_test_rng(), in, n);
        size_t m = czk_fc_base64_encode(mine, in, n);
        int r = EVP_EncodeBlock((unsigned char *)ref, in, (int)n);
        CHECK_MSG((int)m == r && !memcmp(mine, ref, m), "encode %zu", n);
        size_t bl = 0;
        CHECK_OK(czk_fc_base64_decode(back, &bl, mine, m));
        CHECK(bl == n && !memcmp(back, in, n));
    }
    size_t bl;
    const char *bad[] = {"QQ=", "QQ==QQ==", "Q===", "QR==", "QUI", "QU!C", "====", "QUJD=", "Q"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(czk_fc_base64_decode(back, &bl, bad[i], strlen(bad[i])) == CZK_ERR_FORMAT, "accepted '%s'", bad[i]);
    CHECK_OK(czk_fc_base64_decode(back, &bl, "QU\nJD", 5));
    CHECK(bl == 3 && !memcmp(back, "ABC", 3));
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) b[n] = 0;
    *len = (size_t)n;
    return b;
}

static int c1_equal(const czk_fc_c1 *a, const czk_fc_c1 *b)
{
    if (memcmp(&a->shape, &b->shape, sizeof a->shape) || a->arena_bytes != b->arena_bytes) return 0;
    if (!czk_fr_eq(&a->comm_r, &b->comm_r) || !czk_fr_eq(&a->comm_d, &b->comm_d) ||
        !czk_fr_eq(&a->replica_id, &b->replica_id) || memcmp(a->seed, b->seed, 32) || memcmp(a->ticket, b->ticket, 32))
        return 0;
    if (a->has_envelope != b->has_envelope || (a->has_envelope && a->sector_num != b->sector_num)) return 0;
    /* every value lives in the arena after the pointer-holding structs */
    size_t nch = (size_t)a->shape.partitions * a->shape.challenges;
    for (size_t n = 0; n < nch; n++) {
        const czk_fc_challenge_proof *p = &a->proofs[n], *q = &b->proofs[n];
        if (p->comm_d.index != q->comm_d.index || p->comm_r_last.index != q->comm_r_last.index) return 0;
        const czk_fc_column_proof *pc[15], *qc[15];
        pc[0] = &p->c_x;
        qc[0] = &q->c_x;
        for (int j = 0; j < 6; j++) pc[1 + j] = &p->drg[j], qc[1 + j] = &q->drg[j];
        for (int j = 0; j < 8; j++) pc[7 + j] = &p->exp[j], qc[7 + j] = &q->exp[j];
        for (int j = 0; j < 15; j++)
            if (pc[j]->index != qc[j]->index || pc[j]->proof.index != qc[j]->proof.index) return 0;
        for (uint32_t l = 0; l < a->shape.layers; l++)
            if (p->labeling[l].layer_index != q->labeling[l].layer_index || p->labeling[l].node != q->labeling[l].node)
                return 0;
        if (p->encoding.layer_index != q->encoding.layer_index || p->encoding.node != q->encoding.node) return 0;
        if (!czk_fr_eq(&p->comm_d.root, &q->comm_d.root) || !czk_fr_eq(&p->comm_d.leaf, &q->comm_d.leaf)) return 0;
    }
    const uint8_t *va = (const uint8_t *)a->proofs[0].comm_d.siblings;
    const uint8_t *vb = (const uint8_t *)b->proofs[0].comm_d.siblings;
    size_t off = (size_t)(va - (const uint8_t *)a->arena);
    return memcmp(va, vb, a->arena_bytes - off) == 0;
}

static void roundtrip(const czk_fc_shape *s, int envelope, uint64_t seed, int full)
{
    czk_fc_c1 c, d;
    REQUIRE_OK(czk_fc_gen_c1(&c, s, seed, NULL, NULL));
    c.has_envelope = envelope;
    char path[600], path2[600];
    snprintf(path, sizeof path, "%s/c1_%d.json", czk_test_tmpdir(), envelope);
    snprintf(path2, sizeof path2, "%s/c1_%d_again.json", czk_test_tmpdir(), envelope);
    REQUIRE_OK(czk_fc_c1_write(&c, path));
    REQUIRE_OK(czk_fc_c1_read(&d, path));
    CHECK(c1_equal(&c, &d));
    CHECK_EQ_U64(d.has_envelope, envelope);
    if (!full) {
        czk_fc_c1_free(&c);
        czk_fc_c1_free(&d);
        return;
    }
    for (uint32_t k = 0; k < s->partitions; k++)
        for (uint32_t i = 0; i < s->challenges; i++) CHECK_OK(czk_fc_verify_challenge(&d, k, i));
    REQUIRE_OK(czk_fc_c1_write(&d, path2));
    size_t l1, l2;
    char *b1 = slurp(path, &l1), *b2 = slurp(path2, &l2);
    REQUIRE(b1 && b2);
    CHECK(l1 == l2 && !memcmp(b1, b2, l1));
    if (envelope) {
        CHECK(!strncmp(b1, "{\"SectorNum\":", 13));
        CHECK(strstr(b1, "\"Phase1Out\":\"eyJyZWdpc3RlcmVkX3Byb29mIjoi") != NULL); /* {"registered_proof":" */
    } else {
        CHECK(!strncmp(b1, "{\"registered_proof\":\"", 21));
    }
    free(b1);
    free(b2);
    czk_fc_c1_free(&c);
    czk_fc_c1_free(&d);
}

CZK_TEST(roundtrip_plain_and_envelope)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 2048));
    roundtrip(&s, 0, 3, 1);
    roundtrip(&s, 1, 4, 1);
    REQUIRE_OK(czk_fc_shape_custom(&s, 512, 2, 2, 3, 8, 8, 0));
    roundtrip(&s, 0, 5, 1);
    REQUIRE_OK(czk_fc_shape_custom(&s, 1024, 11, 1, 2, 8, 8, 2));
    roundtrip(&s, 1, 6, 1);
    REQUIRE_OK(czk_fc_shape_of_size(&s, 1ULL << 35));
    if (!getenv("CZK_TEST_ASAN")) roundtrip(&s, 1, 7, czk_test_iters(1) >= 10); /* a full-size file */
}

/* The serde layout, spelled out on a generated 2KiB file. */
CZK_TEST(json_layout)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 2048));
    czk_fc_c1 c;
    REQUIRE_OK(czk_fc_gen_c1(&c, &s, 9, NULL, NULL));
    char *js;
    size_t len;
    REQUIRE_OK(czk_fc_c1_to_json(&js, &len, &c));
    json_error_t e;
    json_t *top = json_loadb(js, len, 0, &e);
    REQUIRE(top);
    CHECK(!strcmp(json_string_value(json_object_get(top, "registered_proof")), "StackedDrg2KiBV1_1"));
    CHECK(json_array_size(json_object_get(top, "comm_r")) == 32);
    json_t *ch = json_array_get(json_array_get(json_object_get(json_object_get(top, "vanilla_proofs"), "StackedDrg2KiBV1"), 0), 1);
    REQUIRE(ch);
    json_t *single = json_object_get(json_object_get(json_object_get(ch, "comm_d_proofs"), "data"), "Single");
    REQUIRE(single);
    json_t *path = json_object_get(json_object_get(single, "path"), "path");
    CHECK(json_array_size(path) == 6);
    CHECK(json_array_size(json_object_get(json_array_get(path, 0), "hashes")) == 1);
    json_t *col = json_object_get(json_object_get(json_object_get(ch, "replica_column_proofs"), "c_x"), "column");
    CHECK(json_array_size(json_object_get(col, "rows")) == 2);
    CHECK(json_is_null(json_object_get(col, "_h")));
    CHECK(json_array_size(json_object_get(json_array_get(json_object_get(ch, "labeling_proofs"), 0), "parents")) == 37);
    CHECK(json_integer_value(json_object_get(json_object_get(ch, "encoding_proof"), "layer_index")) == 2);
    json_decref(top);
    free(js);
    czk_fc_c1_free(&c);
}

/* ---- malformed files ---- */

typedef struct bad_case {
    const char *name;
    const char *where; /* JSON pointer-ish path to edit, '/'-separated, numbers index arrays */
    json_t *(*make)(void);
    czk_status status;
    const char *msg; /* substring of the error */
} bad_case;

static json_t *mk_str(void) { return json_string("x"); }
static json_t *mk_31(void)
{
    json_t *a = json_array();
    for (int i = 0; i < 31; i++) json_array_append_new(a, json_integer(1));
    return a;
}
static json_t *mk_ff(void)
{
    json_t *a = json_array();
    for (int i = 0; i < 32; i++) json_array_append_new(a, json_integer(255));
    return a;
}
static json_t *mk_r(void) /* exactly r, little-endian */
{
    static const uint8_t r[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                  0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                                  0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    json_t *a = json_array();
    for (int i = 0; i < 32; i++) json_array_append_new(a, json_integer(r[i]));
    return a;
}
static json_t *mk_2(void) { return json_integer(2); }
static json_t *mk_big(void) { return json_integer(64); }
static json_t *mk_256(void) { return json_integer(256); }
static json_t *mk_neg(void) { return json_integer(-1); }
static json_t *mk_4limbs(void)
{
    json_t *a = json_array();
    for (int i = 0; i < 4; i++) json_array_append_new(a, json_integer(1));
    return a;
}
static json_t *mk_null(void) { return json_null(); }
static json_t *mk_sub(void) { return json_pack("{s:{}}", "Sub"); }
static json_t *mk_proof_name(void) { return json_string("StackedDrg4KiBV1"); }
static json_t *mk_ni_name(void) { return json_string("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"); }
static json_t *mk_36(void)
{
    json_t *a = json_array();
    for (int i = 0; i < 36; i++) json_array_append_new(a, mk_ff());
    return a;
}
static json_t *mk_zero(void) { return json_integer(0); }

/* Follow `where` from top; the last component is replaced (or, for "+N",
 * the array gets a copy of element N appended; "-key" deletes key). */
static int edit(json_t *top, const char *where, json_t *(*make)(void))
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", where);
    json_t *cur = top;
    char *save, *tok = strtok_r(buf, "/", &save);
    while (tok) {
        char *next = strtok_r(NULL, "/", &save);
        if (!next) {
            if (tok[0] == '+') {
                json_t *e = json_deep_copy(json_array_get(cur, (size_t)atoi(tok + 1)));
                return e ? json_array_append_new(cur, e) : -1;
            }
            if (tok[0] == '-') return json_object_del(cur, tok + 1);
            if (json_is_array(cur)) return json_array_set_new(cur, (size_t)atoi(tok), make());
            return json_object_set_new(cur, tok, make());
        }
        cur = json_is_array(cur) ? json_array_get(cur, (size_t)atoi(tok)) : json_object_get(cur, tok);
        if (!cur) return -1;
        tok = next;
    }
    return -1;
}

#define VP "vanilla_proofs/StackedDrg2KiBV1/0/1/"
static const bad_case cases[] = {
    {"index type", VP "comm_d_proofs/data/Single/path/path/3/index", mk_str, CZK_ERR_FORMAT,
     "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path[3].index: expected an integer"},
    {"31-byte comm_r", "comm_r", mk_31, CZK_ERR_FORMAT, "comm_r: expected 32 bytes, found 31"},
    {"comm_d >= r (all 0xff)", "comm_d", mk_ff, CZK_ERR_NOT_CANONICAL, "comm_d: 32-byte value is not a field element"},
    {"replica_id = r", "replica_id", mk_r, CZK_ERR_NOT_CANONICAL, "replica_id: 32-byte value is not a field element"},
    {"sibling >= r", VP "comm_r_last_proof/data/Single/path/path/1/hashes/6", mk_ff, CZK_ERR_NOT_CANONICAL,
     "comm_r_last_proof.data.Single.path.path[1].hashes[6]: 32-byte value is not"},
    {"binary index 2", VP "comm_d_proofs/data/Single/path/path/0/index", mk_2, CZK_ERR_FORMAT,
     "comm_d_proofs.data.Single.path.path[0].index: 2 out of range 0..1"},
    {"column index = nodes", VP "replica_column_proofs/exp_parents/7/column/index", mk_big, CZK_ERR_FORMAT,
     "replica_column_proofs.exp_parents[7].column.index: 64 out of range 0..63"},
    {"byte 256", "seed/4", mk_256, CZK_ERR_FORMAT, "seed[4]: 256 is not a byte"},
    {"negative node", VP "labeling_proofs/1/node", mk_neg, CZK_ERR_FORMAT, "labeling_proofs[1].node: -1 out of range"},
    {"layer 0", VP "encoding_proof/layer_index", mk_zero, CZK_ERR_FORMAT, "encoding_proof.layer_index: layer 0"},
    {"legacy limbs", "comm_r", mk_4limbs, CZK_ERR_UNSUPPORTED, "comm_r: 4 elements"},
    {"missing leaf", VP "comm_d_proofs/data/Single/-leaf", NULL, CZK_ERR_FORMAT,
     "comm_d_proofs.data.Single.leaf: missing field"},
    {"rows null", VP "replica_column_proofs/drg_parents/2/column/rows", mk_null, CZK_ERR_FORMAT,
     "drg_parents[2].column.rows: expected an array, found null"},
    {"Sub for a base shape", VP "comm_r_last_proof/data", mk_sub, CZK_ERR_FORMAT,
     "comm_r_last_proof.data: expected \"Single\""},
    {"two partitions", "vanilla_proofs/StackedDrg2KiBV1/+0", NULL, CZK_ERR_FORMAT,
     "vanilla_proofs.StackedDrg2KiBV1: expected 1 partitions for StackedDrg2KiBV1_1, found 2"},
    {"three challenges", "vanilla_proofs/StackedDrg2KiBV1/0/+0", NULL, CZK_ERR_FORMAT,
     "vanilla_proofs.StackedDrg2KiBV1[0]: expected 2 challenge proofs, found 3"},
    {"36 parents", VP "labeling_proofs/0/parents", mk_36, CZK_ERR_FORMAT,
     "labeling_proofs[0].parents: expected 37 elements, found 36"},
    {"unknown proof", "registered_proof", mk_proof_name, CZK_ERR_UNSUPPORTED, "registered_proof: unknown"},
    {"NI proof, 1 partition", "registered_proof", mk_ni_name, CZK_ERR_FORMAT,
     "vanilla_proofs.StackedDrg2KiBV1: expected 13 partitions for StackedDrg2KiBV1_2_Feat_NonInteractivePoRep, found 1"},
    {"missing ticket", "-ticket", NULL, CZK_ERR_FORMAT, "ticket: missing field"},
    {"7 drg parents", VP "replica_column_proofs/drg_parents/+0", NULL, CZK_ERR_FORMAT,
     "replica_column_proofs.drg_parents: expected 6 elements, found 7"},
};

CZK_TEST(bad_files_named)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 2048));
    czk_fc_c1 c, d;
    REQUIRE_OK(czk_fc_gen_c1(&c, &s, 11, NULL, NULL));
    char *js;
    size_t len;
    REQUIRE_OK(czk_fc_c1_to_json(&js, &len, &c));
    czk_fc_c1_free(&c);
    json_error_t e;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *top = json_loadb(js, len, 0, &e);
        REQUIRE(top);
        REQUIRE_OK(edit(top, cases[i].where, cases[i].make));
        char *bad = json_dumps(top, JSON_COMPACT);
        czk_status st = czk_fc_c1_parse(&d, bad, strlen(bad), "bad.json");
        CHECK_MSG(st == cases[i].status, "%s: status %d (%s), expected %d", cases[i].name, (int)st, czk_last_error(),
                  (int)cases[i].status);
        CHECK_MSG(strstr(czk_last_error(), cases[i].msg) != NULL, "%s: message \"%s\" lacks \"%s\"", cases[i].name,
                  czk_last_error(), cases[i].msg);
        CHECK(!strncmp(czk_last_error(), "bad.json: ", 10));
        CHECK(d.arena == NULL);
        free(bad);
        json_decref(top);
    }
    /* truncated anywhere: an error, never a crash */
    size_t step = len / 97 + 1;
    for (size_t cut = 0; cut < len; cut += step) {
        CHECK(czk_fc_c1_parse(&d, js, cut, "cut.json") == CZK_ERR_FORMAT);
        CHECK(d.arena == NULL);
    }
    CHECK(czk_fc_c1_parse(&d, js, len - 1, "cut.json") == CZK_ERR_FORMAT);
    CHECK(strstr(czk_last_error(), "cut.json: invalid JSON") != NULL);
    /* bytes flipped at random: error or success, never a crash */
    char *m = malloc(len);
    REQUIRE(m);
    size_t iters = czk_test_iters(getenv("CZK_TEST_ASAN") ? 30 : 200);
    for (size_t it = 0; it < iters; it++) {
        memcpy(m, js, len);
        for (int f = 0; f < 3; f++) m[czk_rng_below(czk_test_rng(), len)] ^= (char)(1 << czk_rng_below(czk_test_rng(), 8));
        if (czk_fc_c1_parse(&d, m, len, "flip.json") == CZK_OK) czk_fc_c1_free(&d);
    }
    free(m);
    free(js);
}

CZK_TEST(bad_envelopes)
{
    czk_init();
    czk_fc_c1 d;
    const struct { const char *json, *msg; czk_status st; } t[] = {
        {"{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}", "Phase1Out: registered_proof: missing field", CZK_ERR_FORMAT},
        {"{\"SectorNum\":1,\"Phase1Out\":\"e30\",\"SectorSize\":2048}", "Phase1Out: base64", CZK_ERR_FORMAT},
        {"{\"SectorNum\":1,\"Phase1Out\":5,\"SectorSize\":2048}", "Phase1Out: expected a base64 string", CZK_ERR_FORMAT},
        {"{\"SectorNum\":\"1\",\"Phase1Out\":\"\",\"SectorSize\":2048}", "SectorNum: expected an integer", CZK_ERR_FORMAT},
        {"{\"Phase1Out\":\"\",\"SectorSize\":2048}", "SectorNum: missing field", CZK_ERR_FORMAT},
        {"{\"SectorNum\":1,\"Phase1Out\":\"\",\"SectorSize\":2048}", "Phase1Out: invalid JSON", CZK_ERR_FORMAT},
        {"[]", "(top level): expected an object, found an array", CZK_ERR_FORMAT},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        czk_status st = czk_fc_c1_parse(&d, t[i].json, strlen(t[i].json), "env.json");
        CHECK_MSG(st == t[i].st && strstr(czk_last_error(), t[i].msg), "case %zu: %d %s", i, (int)st, czk_last_error());
    }
    /* SectorSize must agree with the proof inside */
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 2048));
    czk_fc_c1 c;
    REQUIRE_OK(czk_fc_gen_c1(&c, &s, 12, NULL, NULL));
    c.has_envelope = 1;
    char path[600];
    snprintf(path, sizeof path, "%s/env.json", czk_test_tmpdir());
    REQUIRE_OK(czk_fc_c1_write(&c, path));
    czk_fc_c1_free(&c);
    size_t len;
    char *b = slurp(path, &len);
    REQUIRE(b);
    char *p = strstr(b, "\"SectorSize\":2048}");
    REQUIRE(p);
    memcpy(p + 13, "4096", 4);
    CHECK(czk_fc_c1_parse(&d, b, len, "env.json") == CZK_ERR_FORMAT);
    CHECK(strstr(czk_last_error(), "SectorSize: 4096 does not match") != NULL);
    free(b);
    CHECK(czk_fc_c1_read(&d, "/nonexistent/c1.json") == CZK_ERR_IO);
}

/* Variants a serde reader accepts as well: an InclusionPath as a bare array,
 * a Column without "_h", keys in another order. */
static void rewrite_lenient(json_t *j)
{
    if (json_is_object(j)) {
        json_object_del(j, "_h");
        json_t *p = json_object_get(j, "path");
        if (json_is_object(p) && json_is_array(json_object_get(p, "path")))
            json_object_set(j, "path", json_object_get(p, "path"));
        const char *k;
        json_t *v;
        json_object_foreach(j, k, v) rewrite_lenient(v);
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach(j, i, v) rewrite_lenient(v);
    }
}

CZK_TEST(lenient_variants_accepted)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 2048));
    czk_fc_c1 c, d;
    REQUIRE_OK(czk_fc_gen_c1(&c, &s, 13, NULL, NULL));
    char *js;
    size_t len;
    REQUIRE_OK(czk_fc_c1_to_json(&js, &len, &c));
    json_error_t e;
    json_t *top = json_loadb(js, len, 0, &e);
    REQUIRE(top);
    rewrite_lenient(top);
    char *alt = json_dumps(top, JSON_SORT_KEYS | JSON_INDENT(1));
    REQUIRE(alt);
    CHECK(strstr(alt, "\"_h\"") == NULL);
    REQUIRE_OK(czk_fc_c1_parse(&d, alt, strlen(alt), "alt.json"));
    CHECK(c1_equal(&c, &d));
    char *js2;
    size_t len2;
    REQUIRE_OK(czk_fc_c1_to_json(&js2, &len2, &d));
    CHECK(len2 == len && !memcmp(js, js2, len));
    free(js2);
    free(alt);
    free(js);
    json_decref(top);
    czk_fc_c1_free(&c);
    czk_fc_c1_free(&d);
}

/* The C1 as Curio's ProofShare path sends it: decoded into Go's
 * Commit1OutRaw (lib/proof/porep_vproof_types.go) and marshalled again by
 * encoding/json: compact, the struct members in Go's order, each Column
 * with its "_h", wrapped in c1OutputWrapper {SectorNum, Phase1Out (standard
 * base64), SectorSize}. It reads as the same C1. */
static json_t *go_object(json_t *src, const char *const *keys, size_t n)
{
    json_t *o = json_object();
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_object_get(src, keys[i]);
        json_object_set(o, keys[i], v ? v : json_null());
    }
    return o;
}

static json_t *go_column_proof(json_t *p)
{
    static const char *const col[] = {"index", "rows", "_h"};
    json_t *o = json_object();
    json_object_set_new(o, "column", go_object(json_object_get(p, "column"), col, 3));
    json_object_set(o, "inclusion_proof", json_object_get(p, "inclusion_proof"));
    return o;
}

static json_t *go_challenge(json_t *c)
{
    static const char *const lab[] = {"parents", "layer_index", "node"};
    json_t *r = json_object_get(c, "replica_column_proofs"), *o = json_object(), *rc = json_object();
    json_object_set(o, "comm_d_proofs", json_object_get(c, "comm_d_proofs"));
    json_object_set(o, "comm_r_last_proof", json_object_get(c, "comm_r_last_proof"));
    json_object_set_new(rc, "c_x", go_column_proof(json_object_get(r, "c_x")));
    const char *const lists[] = {"drg_parents", "exp_parents"};
    for (int l = 0; l < 2; l++) {
        json_t *a = json_array(), *v;
        size_t i;
        json_array_foreach(json_object_get(r, lists[l]), i, v) json_array_append_new(a, go_column_proof(v));
        json_object_set_new(rc, lists[l], a);
    }
    json_object_set_new(o, "replica_column_proofs", rc);
    json_t *labs = json_array(), *v;
    size_t i;
    json_array_foreach(json_object_get(c, "labeling_proofs"), i, v) json_array_append_new(labs, go_object(v, lab, 3));
    json_object_set_new(o, "labeling_proofs", labs);
    json_object_set_new(o, "encoding_proof", go_object(json_object_get(c, "encoding_proof"), lab, 3));
    return o;
}

CZK_TEST(go_reencoded_c1_accepted)
{
    czk_init();
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 2048));
    czk_fc_c1 c, d;
    REQUIRE_OK(czk_fc_gen_c1(&c, &s, 14, NULL, NULL));
    char *js;
    size_t len;
    REQUIRE_OK(czk_fc_c1_to_json(&js, &len, &c));
    json_error_t e;
    json_t *top = json_loadb(js, len, 0, &e);
    REQUIRE(top);
    static const char *const order[] = {"comm_d", "comm_r", "registered_proof", "replica_id", "seed", "ticket"};
    json_t *go = go_object(top, order, 6), *vp = json_object();
    const char *k;
    json_t *parts;
    json_object_foreach(json_object_get(top, "vanilla_proofs"), k, parts) {
        json_t *pa = json_array(), *part;
        size_t i;
        json_array_foreach(parts, i, part) {
            json_t *ca = json_array(), *ch;
            size_t j;
            json_array_foreach(part, j, ch) json_array_append_new(ca, go_challenge(ch));
            json_array_append_new(pa, ca);
        }
        json_object_set_new(vp, k, pa);
    }
    json_object_set_new(go, "vanilla_proofs", vp);
    char *body = json_dumps(go, JSON_COMPACT | JSON_PRESERVE_ORDER);
    REQUIRE(body);
    CHECK(strncmp(body, "{\"comm_d\":[", 11) == 0 && strstr(body, "\"_h\":null") != NULL);
    size_t blen = strlen(body);
    char *b64 = malloc(4 * (blen / 3 + 1) + 1);
    REQUIRE(b64);
    size_t n64 = czk_fc_base64_encode(b64, (const uint8_t *)body, blen);
    b64[n64] = 0;
    size_t cap = n64 + 128;
    char *env = malloc(cap);
    REQUIRE(env);
    snprintf(env, cap, "{\"SectorNum\":5,\"Phase1Out\":\"%s\",\"SectorSize\":2048}", b64);
    REQUIRE_OK(czk_fc_c1_parse(&d, env, strlen(env), "go.json"));
    CHECK(d.has_envelope && d.sector_num == 5);
    c.has_envelope = 1;
    c.sector_num = 5;
    CHECK(c1_equal(&c, &d));
    czk_fc_c1_free(&d);
    free(env);
    free(b64);
    free(body);
    json_decref(go);
    json_decref(top);
    free(js);
    czk_fc_c1_free(&c);
}
