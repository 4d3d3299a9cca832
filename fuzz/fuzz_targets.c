/* czk fuzz targets (see fuzz_targets.h and fuzz/README.md). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#include "czk/circom.h"
#include "czk/common.h"
#include "czk/ec.h"
#include "czk/field.h"
#include "czk/filecoin.h"
#include "czk/groth16.h"
#include "czk/pce.h"
#include "czk/post_vanilla.h"
#include "fuzz_targets.h"
#include "pce/pce_internal.h" /* the file checksum (pce_resum) */


int czk_fuzz_status;

void czk__fuzz_check_status(czk_status s)
{
    CZK_FUZZ_CHECK((int)s >= 0 && s < CZK_STATUS_COUNT);
    CZK_FUZZ_CHECK(s != CZK_ERR_INTERNAL);
    if (s != CZK_OK) CZK_FUZZ_CHECK(czk_last_error()[0] != 0);
}

void czk__fuzz_emit_selected(czk_fuzz_emit_fn emit, void *ctx, unsigned sel, const uint8_t *d, size_t n,
                             int *count)
{
    uint8_t *b = malloc(n + 1);
    if (!b) {
        *count = -1;
        return;
    }
    b[0] = (uint8_t)sel;
    memcpy(b + 1, d, n);
    emit(ctx, b, n + 1);
    free(b);
    if (*count >= 0) (*count)++;
}

#ifdef CZK_SOURCE_DIR
uint8_t *czk__fuzz_vector(const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/filecoin/vectors/%s", CZK_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *d = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (d = malloc((size_t)n)) && fread(d, 1, (size_t)n, f) != (size_t)n)
        free(d), d = NULL;
    fclose(f);
    *len = n > 0 ? (size_t)n : 0;
    return d;
}
#endif

/* The input as a file: an anonymous memory file, reached as /proc/self/fd/N
 * (readers that fopen or mmap a path see exactly these bytes). */
typedef struct memfile {
    int fd;
    char path[48];
} memfile;

static int memfile_open(memfile *m, const uint8_t *d, size_t n)
{
    m->fd = memfd_create("czk-fuzz", MFD_CLOEXEC);
    if (m->fd < 0) return 0;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(m->fd, d + done, n - done);
        if (w <= 0) {
            close(m->fd);
            return 0;
        }
        done += (size_t)w;
    }
    snprintf(m->path, sizeof m->path, "/proc/self/fd/%d", m->fd);
    return 1;
}

static void memfile_close(memfile *m) { close(m->fd); }

/* A copy of d[0..n) padded with zeros to want bytes (cut when longer). */
static void fixed(uint8_t *out, size_t want, const uint8_t *d, size_t n)
{
    memset(out, 0, want);
    memcpy(out, d, n < want ? n : want);
}

/* ---- Filecoin C1 ------------------------------------------------------------ */

int czk_fuzz_fc_c1(const uint8_t *d, size_t n)
{
    czk_fc_c1 c;
    czk_error_clear();
    czk_status s = czk_fc_c1_parse(&c, (const char *)d, n, "fuzz.json");
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(c.shape.partitions > 0 && c.shape.challenges > 0);
        char *out = NULL;
        size_t len = 0;
        czk_status w = czk_fc_c1_to_json(&out, &len, &c);
        czk__fuzz_check_status(w);
        if (w == CZK_OK) {
            /* What we write we read back. */
            czk_fc_c1 c2;
            czk_status r = czk_fc_c1_parse(&c2, out, len, "fuzz-rewritten.json");
            czk__fuzz_check_status(r);
            CZK_FUZZ_CHECK(r == CZK_OK);
            czk_fc_c1_free(&c2);
        }
        free(out);
        czk_fc_c1_free(&c);
    }
    return 0;
}

int czk_fuzz_fc_base64(const uint8_t *d, size_t n)
{
    uint8_t *out = malloc(3 * (n / 4) + 3);
    if (!out) return 0;
    size_t len = 0;
    czk_error_clear();
    czk_status s = czk_fc_base64_decode(out, &len, (const char *)d, n);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(len <= 3 * (n / 4) + 3);
        char *enc = malloc(4 * ((len + 2) / 3) + 1);
        if (enc) {
            size_t el = czk_fc_base64_encode(enc, out, len);
            CZK_FUZZ_CHECK(el == 4 * ((len + 2) / 3));
            uint8_t *back = malloc(3 * (el / 4) + 3);
            size_t bl = 0;
            if (back) {
                CZK_FUZZ_CHECK(czk_fc_base64_decode(back, &bl, enc, el) == CZK_OK);
                CZK_FUZZ_CHECK(bl == len && memcmp(back, out, len) == 0);
            }
            free(back);
        }
        free(enc);
    }
    free(out);
    return 0;
}

/* ---- Groth16 files ------------------------------------------------------------- */

int czk_fuzz_groth16_params(const uint8_t *d, size_t n)
{
    memfile m;
    if (!memfile_open(&m, d, n)) return 0;
    /* The last byte picks the check level, so both paths get inputs. */
    czk_groth16_check chk = (n && (d[n - 1] & 1)) ? CZK_GROTH16_CHECK_CURVE : CZK_GROTH16_CHECK_FULL;
    czk_groth16_params p;
    czk_error_clear();
    czk_status s = czk_groth16_params_read(&p, m.path, chk);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        uint64_t need = czk_groth16_vk_encoded_size(&p.vk) + 5 * 4 +
                        (uint64_t)(p.n_h + p.n_l + p.n_a + p.n_b_g1) * CZK_G1_UNCOMPRESSED +
                        (uint64_t)p.n_b_g2 * CZK_G2_UNCOMPRESSED;
        CZK_FUZZ_CHECK(need <= n);
        czk_groth16_params_clear(&p);
    }
    memfile_close(&m);
    return 0;
}

int czk_fuzz_groth16_vk(const uint8_t *d, size_t n)
{
    czk_groth16_vk vk;
    size_t used = 0;
    czk_error_clear();
    czk_status s = czk_groth16_vk_decode(&vk, d, n, &used);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(used <= n);
        size_t el = czk_groth16_vk_encoded_size(&vk);
        CZK_FUZZ_CHECK(el == used);
        uint8_t *e = malloc(el ? el : 1);
        if (e) {
            czk_groth16_vk_encode(e, &vk);
            CZK_FUZZ_CHECK(memcmp(e, d, el) == 0);
        }
        free(e);
        czk_groth16_vk_clear(&vk);
    }
    return 0;
}

int czk_fuzz_groth16_proof(const uint8_t *d, size_t n)
{
    uint8_t in[CZK_GROTH16_PROOF_BYTES], out[CZK_GROTH16_PROOF_BYTES];
    fixed(in, sizeof in, d, n);
    czk_groth16_proof pr;
    czk_error_clear();
    czk_status s = czk_groth16_proof_decode(&pr, in);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(czk_g1_affine_is_on_curve(&pr.a) && czk_g1_affine_is_on_curve(&pr.c));
        CZK_FUZZ_CHECK(czk_g2_affine_is_on_curve(&pr.b));
        czk_groth16_proof_encode(out, &pr);
        CZK_FUZZ_CHECK(memcmp(in, out, sizeof in) == 0);
    }
    return 0;
}

/* ---- point encodings ------------------------------------------------------------ */

/* Accepted encodings are canonical (re-encoding gives the input), on the
 * curve, in the subgroup; the unchecked-subgroup variant accepts a superset. */
int czk_fuzz_g1_compressed(const uint8_t *d, size_t n)
{
    uint8_t in[CZK_G1_COMPRESSED], out[CZK_G1_COMPRESSED];
    fixed(in, sizeof in, d, n);
    czk_g1_affine p;
    czk_error_clear();
    czk_status s = czk_g1_decompress(&p, in);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(p.inf || (czk_g1_affine_is_on_curve(&p) && czk_g1_affine_in_subgroup(&p)));
        czk_g1_compress(out, &p);
        CZK_FUZZ_CHECK(memcmp(in, out, sizeof in) == 0);
    }
    return 0;
}

int czk_fuzz_g1_uncompressed(const uint8_t *d, size_t n)
{
    uint8_t in[CZK_G1_UNCOMPRESSED], out[CZK_G1_UNCOMPRESSED];
    fixed(in, sizeof in, d, n);
    czk_g1_affine p, q;
    czk_error_clear();
    czk_status s = czk_g1_deserialize(&p, in);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    czk_status su = czk_g1_deserialize_unchecked_subgroup(&q, in);
    czk__fuzz_check_status(su);
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(su == CZK_OK && czk_g1_affine_eq(&p, &q));
        CZK_FUZZ_CHECK(p.inf || (czk_g1_affine_is_on_curve(&p) && czk_g1_affine_in_subgroup(&p)));
        czk_g1_serialize(out, &p);
        CZK_FUZZ_CHECK(memcmp(in, out, sizeof in) == 0);
    } else if (su == CZK_OK) {
        CZK_FUZZ_CHECK(s == CZK_ERR_NOT_IN_SUBGROUP);
        CZK_FUZZ_CHECK(q.inf || czk_g1_affine_is_on_curve(&q));
    }
    return 0;
}

int czk_fuzz_g2_compressed(const uint8_t *d, size_t n)
{
    uint8_t in[CZK_G2_COMPRESSED], out[CZK_G2_COMPRESSED];
    fixed(in, sizeof in, d, n);
    czk_g2_affine p;
    czk_error_clear();
    czk_status s = czk_g2_decompress(&p, in);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(p.inf || (czk_g2_affine_is_on_curve(&p) && czk_g2_affine_in_subgroup(&p)));
        czk_g2_compress(out, &p);
        CZK_FUZZ_CHECK(memcmp(in, out, sizeof in) == 0);
    }
    return 0;
}

int czk_fuzz_g2_uncompressed(const uint8_t *d, size_t n)
{
    uint8_t in[CZK_G2_UNCOMPRESSED], out[CZK_G2_UNCOMPRESSED];
    fixed(in, sizeof in, d, n);
    czk_g2_affine p, q;
    czk_error_clear();
    czk_status s = czk_g2_deserialize(&p, in);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    czk_status su = czk_g2_deserialize_unchecked_subgroup(&q, in);
    czk__fuzz_check_status(su);
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(su == CZK_OK && czk_g2_affine_eq(&p, &q));
        CZK_FUZZ_CHECK(p.inf || (czk_g2_affine_is_on_curve(&p) && czk_g2_affine_in_subgroup(&p)));
        czk_g2_serialize(out, &p);
        CZK_FUZZ_CHECK(memcmp(in, out, sizeof in) == 0);
    } else if (su == CZK_OK) {
        CZK_FUZZ_CHECK(s == CZK_ERR_NOT_IN_SUBGROUP);
        CZK_FUZZ_CHECK(q.inf || czk_g2_affine_is_on_curve(&q));
    }
    return 0;
}

/* ---- field elements --------------------------------------------------------------- */

/* The first 32 bytes as Fr (both byte orders), the first 48 as Fp (both);
 * an accepted value re-encodes to its input. */
int czk_fuzz_field_bytes(const uint8_t *d, size_t n)
{
    uint8_t in[CZK_FP_BYTES], out[CZK_FP_BYTES];
    fixed(in, sizeof in, d, n);
    czk_fr r;
    czk_fp p;
    czk_error_clear();
    int any = 0;
    czk_status s = czk_fr_from_bytes(&r, in);
    czk__fuzz_check_status(s);
    any |= s == CZK_OK;
    if (s == CZK_OK) {
        czk_fr_to_bytes(out, &r);
        CZK_FUZZ_CHECK(memcmp(in, out, CZK_FR_BYTES) == 0);
    }
    s = czk_fr_from_bytes_be(&r, in);
    czk__fuzz_check_status(s);
    any |= s == CZK_OK;
    if (s == CZK_OK) {
        czk_fr_to_bytes_be(out, &r);
        CZK_FUZZ_CHECK(memcmp(in, out, CZK_FR_BYTES) == 0);
    }
    s = czk_fp_from_bytes(&p, in);
    czk__fuzz_check_status(s);
    any |= s == CZK_OK;
    if (s == CZK_OK) {
        czk_fp_to_bytes(out, &p);
        CZK_FUZZ_CHECK(memcmp(in, out, CZK_FP_BYTES) == 0);
    }
    s = czk_fp_from_bytes_le(&p, in);
    czk__fuzz_check_status(s);
    any |= s == CZK_OK;
    if (s == CZK_OK) {
        czk_fp_to_bytes_le(out, &p);
        CZK_FUZZ_CHECK(memcmp(in, out, CZK_FP_BYTES) == 0);
    }
    czk_fuzz_status = any ? CZK_OK : CZK_ERR_FORMAT;
    return 0;
}

/* The input as a C string through the hex and decimal parsers of Fr and Fp;
 * an accepted value prints to a string that parses to the same value. */
int czk_fuzz_field_str(const uint8_t *d, size_t n)
{
    if (n > 4096) n = 4096;
    char *str = malloc(n + 1);
    if (!str) return 0;
    memcpy(str, d, n);
    str[n] = 0;
    czk_fr r, r2;
    czk_fp p, p2;
    char buf[128];
    czk_error_clear();
    int any = 0;
    czk_status s = czk_fr_from_hex(&r, str);
    czk__fuzz_check_status(s);
    any |= s == CZK_OK;
    if (s == CZK_OK) {
        czk_fr_to_hex(buf, &r);
        CZK_FUZZ_CHECK(czk_fr_from_hex(&r2, buf) == CZK_OK && czk_fr_eq(&r, &r2));
    }
    s = czk_fr_from_dec(&r, str);
    czk__fuzz_check_status(s);
    any |= s == CZK_OK;
    if (s == CZK_OK) {
        czk_fr_to_dec(buf, &r);
        CZK_FUZZ_CHECK(czk_fr_from_dec(&r2, buf) == CZK_OK && czk_fr_eq(&r, &r2));
    }
    s = czk_fp_from_hex(&p, str);
    czk__fuzz_check_status(s);
    any |= s == CZK_OK;
    if (s == CZK_OK) {
        czk_fp_to_hex(buf, &p);
        CZK_FUZZ_CHECK(czk_fp_from_hex(&p2, buf) == CZK_OK && czk_fp_eq(&p, &p2));
    }
    s = czk_fp_from_dec(&p, str);
    czk__fuzz_check_status(s);
    any |= s == CZK_OK;
    if (s == CZK_OK) {
        czk_fp_to_dec(buf, &p);
        CZK_FUZZ_CHECK(czk_fp_from_dec(&p2, buf) == CZK_OK && czk_fp_eq(&p, &p2));
    }
    free(str);
    czk_fuzz_status = any ? CZK_OK : CZK_ERR_FORMAT;
    return 0;
}

/* ---- PCE files ---------------------------------------------------------------------- */

int czk_fuzz_pce(const uint8_t *d, size_t n)
{
    memfile m;
    if (!memfile_open(&m, d, n)) return 0;
    czk_pce *p = NULL;
    czk_error_clear();
    czk_status s = czk_pce_read(&p, m.path, NULL);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(p != NULL);
        czk_pce_info info;
        czk_pce_info_get(p, &info);
        CZK_FUZZ_CHECK(info.n_inputs <= info.cols);
        czk_pce_destroy(p);
    }
    memfile_close(&m);
    return 0;
}

/* The same with the trailing checksum recomputed over the bytes before it
 * (as czk_pce_write stores it: XXH3-64 of the 64 MiB chunks' XXH3-64
 * digests, czk__pce_file_sum), so mutations reach the structural validation
 * behind the checksum. */
int czk_fuzz_pce_resum(const uint8_t *d, size_t n)
{
    if (n < 8) return czk_fuzz_pce(d, n);
    uint8_t *c = malloc(n);
    if (!c) return 0;
    memcpy(c, d, n);
    uint64_t sum = czk__pce_file_sum(c, n - 8, 1);
    memcpy(c + n - 8, &sum, 8);
    czk_fuzz_pce(c, n);
    free(c);
    return 0;
}

/* ---- circom / snarkjs ------------------------------------------------------------- */

int czk_fuzz_circom_r1cs(const uint8_t *d, size_t n)
{
    czk_circom_r1cs r;
    czk_error_clear();
    czk_status s = czk_circom_r1cs_parse(&r, d, n, "fuzz.r1cs");
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        for (int m = 0; m < 3; m++) {
            CZK_FUZZ_CHECK(r.start[m][0] == 0);
            for (uint32_t j = 0; j < r.n_constraints; j++) {
                CZK_FUZZ_CHECK(r.start[m][j] <= r.start[m][j + 1]);
                for (uint64_t t = r.start[m][j]; t < r.start[m][j + 1]; t++)
                    CZK_FUZZ_CHECK(r.wire[m][t] < r.n_wires);
            }
        }
        czk_circom_r1cs_clear(&r);
    }
    return 0;
}

int czk_fuzz_circom_wtns(const uint8_t *d, size_t n)
{
    czk_circom_wtns w;
    czk_error_clear();
    czk_status s = czk_circom_wtns_parse(&w, d, n, "fuzz.wtns");
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(w.n * 32 <= n);
        czk_circom_wtns_clear(&w);
    }
    return 0;
}

int czk_fuzz_circom_zkey(const uint8_t *d, size_t n)
{
    czk_circom_zkey z;
    /* The last byte picks the subgroup check, so both paths get inputs. */
    unsigned flags = (n && (d[n - 1] & 1)) ? CZK_CIRCOM_NO_SUBGROUP_CHECK : 0;
    czk_error_clear();
    czk_status s = czk_circom_zkey_parse(&z, d, n, "fuzz.zkey", flags);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(z.n_public + 1 <= z.n_vars);
        CZK_FUZZ_CHECK(z.n_a <= z.n_vars && z.n_b1 <= z.n_vars && z.n_b2 <= z.n_vars);
        for (size_t i = 0; i < z.n_coefs; i++)
            CZK_FUZZ_CHECK(z.coef_matrix[i] <= 1 && z.coef_row[i] < z.domain_size &&
                           z.coef_signal[i] < z.n_vars);
        czk_circom_vk vk;
        czk_circom_zkey_vk(&vk, &z);
        CZK_FUZZ_CHECK(vk.n_public == z.n_public);
        czk_circom_zkey_clear(&z);
    }
    return 0;
}

int czk_fuzz_circom_sym(const uint8_t *d, size_t n)
{
    memfile m;
    if (!memfile_open(&m, d, n)) return 0;
    czk_circom_sym sym;
    czk_error_clear();
    czk_status s = czk_circom_sym_read(&sym, m.path, 64);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(sym.n_wires == 64);
        czk_circom_sym_clear(&sym);
    }
    memfile_close(&m);
    return 0;
}

int czk_fuzz_snarkjs_proof_json(const uint8_t *d, size_t n)
{
    memfile m;
    if (!memfile_open(&m, d, n)) return 0;
    czk_groth16_proof pr;
    czk_error_clear();
    czk_status s = czk_circom_proof_read_json(&pr, m.path);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(pr.a.inf || (czk_g1_affine_is_on_curve(&pr.a) && czk_g1_affine_in_subgroup(&pr.a)));
        CZK_FUZZ_CHECK(pr.b.inf || (czk_g2_affine_is_on_curve(&pr.b) && czk_g2_affine_in_subgroup(&pr.b)));
        CZK_FUZZ_CHECK(pr.c.inf || (czk_g1_affine_is_on_curve(&pr.c) && czk_g1_affine_in_subgroup(&pr.c)));
    }
    memfile_close(&m);
    return 0;
}

int czk_fuzz_snarkjs_public_json(const uint8_t *d, size_t n)
{
    memfile m;
    if (!memfile_open(&m, d, n)) return 0;
    czk_fr *pub = NULL;
    size_t np = 0;
    czk_error_clear();
    czk_status s = czk_circom_public_read_json(&pub, &np, m.path);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(np <= n);
        free(pub);
    }
    memfile_close(&m);
    return 0;
}

/* post-KIND.json (czk_post_json_read): on acceptance one sector id and
 * comm_r per sector, sector_challenges challenges per sector, each a leaf
 * of the tree. */
int czk_fuzz_post_json(const uint8_t *d, size_t n)
{
    memfile m;
    if (!memfile_open(&m, d, n)) return 0;
    czk_post_json j;
    czk_error_clear();
    czk_status s = czk_post_json_read(&j, m.path);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(j.n_sectors >= 1 && j.sector_ids && j.comm_r && j.challenges);
        CZK_FUZZ_CHECK((uint64_t)j.n_challenges == (uint64_t)j.n_sectors * j.shape.sector_challenges);
        for (uint32_t i = 0; i < j.n_challenges; i++) CZK_FUZZ_CHECK(j.challenges[i] < j.shape.tree.nodes);
        czk_post_json_free(&j);
    } else {
        CZK_FUZZ_CHECK(j.sector_ids == NULL && j.comm_r == NULL && j.challenges == NULL);
    }
    memfile_close(&m);
    return 0;
}

int czk_fuzz_snarkjs_vk_json(const uint8_t *d, size_t n)
{
    memfile m;
    if (!memfile_open(&m, d, n)) return 0;
    czk_circom_vk vk;
    czk_error_clear();
    czk_status s = czk_circom_vk_read_json(&vk, m.path);
    czk__fuzz_check_status(s);
    czk_fuzz_status = s;
    if (s == CZK_OK) {
        CZK_FUZZ_CHECK(vk.ic != NULL || vk.n_public + 1 == 0);
        czk_circom_vk_clear(&vk);
    }
    memfile_close(&m);
    return 0;
}

/* ---- table ------------------------------------------------------------------------ */

#define T(name) {#name, czk_fuzz_##name}
const czk_fuzz_target czk_fuzz_targets[] = {
    T(fc_c1),
    T(fc_base64),
    T(groth16_params),
    T(groth16_vk),
    T(groth16_proof),
    T(g1_compressed),
    T(g1_uncompressed),
    T(g2_compressed),
    T(g2_uncompressed),
    T(field_bytes),
    T(field_str),
    T(pce),
    T(pce_resum),
    T(circom_r1cs),
    T(circom_wtns),
    T(circom_zkey),
    T(circom_sym),
    T(snarkjs_proof_json),
    T(snarkjs_public_json),
    T(snarkjs_vk_json),
    T(post_vanilla),
    T(post_json),
    T(snap_vanilla),
    T(snap_json),
};
#undef T
const size_t czk_fuzz_n_targets = sizeof czk_fuzz_targets / sizeof czk_fuzz_targets[0];

const czk_fuzz_target *czk_fuzz_target_find(const char *name)
{
    for (size_t i = 0; i < czk_fuzz_n_targets; i++)
        if (strcmp(czk_fuzz_targets[i].name, name) == 0) return &czk_fuzz_targets[i];
    return NULL;
}
