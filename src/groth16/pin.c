/* Checksum sidecars (src/groth16/pin.h). */
#include "groth16/pin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "czk/czk.h"
#include <openssl/evp.h>

void czk__pin_sha256(uint8_t out[CZK__PIN_DIGEST], const void *d, size_t n)
{
    unsigned len = 0;
    if (!EVP_Digest(d, n, out, &len, EVP_sha256(), NULL) || len != CZK__PIN_DIGEST) memset(out, 0, CZK__PIN_DIGEST);
}

void czk__pin_root(uint8_t out[CZK__PIN_DIGEST], const char *domain, uint64_t size, const uint8_t *leaves, size_t nb)
{
    uint8_t sz[8];
    for (int i = 0; i < 8; i++) sz[i] = (uint8_t)(size >> (8 * i));
    unsigned len = 0;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = c && EVP_DigestInit_ex(c, EVP_sha256(), NULL) && EVP_DigestUpdate(c, domain, strlen(domain)) &&
             EVP_DigestUpdate(c, sz, 8) && EVP_DigestUpdate(c, leaves, nb * CZK__PIN_DIGEST) &&
             EVP_DigestFinal_ex(c, out, &len) && len == CZK__PIN_DIGEST;
    EVP_MD_CTX_free(c);
    if (!ok) memset(out, 0, CZK__PIN_DIGEST);
}

void czk__pin_digest_buf(uint8_t out[CZK__PIN_DIGEST], const char *domain, const uint8_t *buf, size_t len,
                         size_t block, int threads)
{
    if (block == 0) block = (size_t)4 << 20;
    size_t nb = len ? (len + block - 1) / block : 0;
    uint8_t *leaves = malloc(nb ? nb * CZK__PIN_DIGEST : 1);
    if (!leaves) {
        memset(out, 0, CZK__PIN_DIGEST);
        return;
    }
    int nt = threads > 0 ? threads : czk_threads();
    if (nt < 1) nt = 1;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nb > 1)
    for (size_t b = 0; b < nb; b++) {
        size_t n = len - b * block < block ? len - b * block : block;
        czk__pin_sha256(leaves + b * CZK__PIN_DIGEST, buf + b * block, n);
    }
    czk__pin_root(out, domain, (uint64_t)len, leaves, nb);
    free(leaves);
}

static int hex_nibble(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

int czk__pin_load(czk__pin *pin, const char *scpath, const czk__pin_format *f, char *why, size_t whylen)
{
    FILE *fp = fopen(scpath, "rb");
    if (!fp) {
        if (errno == ENOENT)
            snprintf(why, whylen, "no sidecar %.300s", scpath);
        else
            snprintf(why, whylen, "sidecar %.300s unreadable: %s", scpath, strerror(errno));
        return 0;
    }
    char buf[2048];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = 0;
    size_t ml = strlen(f->magic);
    int ver = 0;
    unsigned long long size = 0;
    long long ms = 0;
    long mns = 0;
    char hname[32] = "", hex[80] = "";
    if (strncmp(buf, f->magic, ml) != 0 || buf[ml] != ' ' ||
        sscanf(buf + ml, " %d\nsize %llu\nmtime %lld.%ld\nhash %31s %79s", &ver, &size, &ms, &mns, hname, hex) != 6) {
        snprintf(why, whylen, "sidecar %.300s malformed", scpath);
        return 0;
    }
    if (ver != f->version || strcmp(hname, f->hash) != 0) {
        snprintf(why, whylen, "sidecar %.300s has format %d / %.31s, this czk writes %d / %s", scpath, ver, hname,
                 f->version, f->hash);
        return 0;
    }
    if (strlen(hex) != 2 * CZK__PIN_DIGEST) {
        snprintf(why, whylen, "sidecar %.300s malformed (checksum length)", scpath);
        return 0;
    }
    for (int i = 0; i < CZK__PIN_DIGEST; i++) {
        int hi = hex_nibble(hex[2 * i]), lo = hex_nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            snprintf(why, whylen, "sidecar %.300s malformed (checksum digits)", scpath);
            return 0;
        }
        pin->digest[i] = (uint8_t)(hi << 4 | lo);
    }
    pin->size = size;
    pin->mt_s = ms;
    pin->mt_ns = mns;
    return 1;
}

int czk__pin_fresh(const czk__pin *pin, const struct stat *st)
{
    return pin->size == (uint64_t)st->st_size && pin->mt_s == (long long)st->st_mtim.tv_sec &&
           pin->mt_ns == (long)st->st_mtim.tv_nsec;
}

int czk__pin_moved(const czk__pin *pin, const struct stat *st)
{
    return pin->size == (uint64_t)st->st_size && !czk__pin_fresh(pin, st);
}

czk_status czk__pin_write(const char *scpath, const czk__pin_format *f, const struct stat *st,
                          const uint8_t digest[CZK__PIN_DIGEST], const char *extra)
{
    char hex[2 * CZK__PIN_DIGEST + 1];
    for (int i = 0; i < CZK__PIN_DIGEST; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    char buf[2048];
    int len = snprintf(buf, sizeof buf, "%s %d\nsize %llu\nmtime %lld.%09ld\nhash %s %s\n%s", f->magic, f->version,
                       (unsigned long long)st->st_size, (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec,
                       f->hash, hex, extra ? extra : "");
    if (len < 0 || (size_t)len >= sizeof buf) return czk_error(CZK_ERR_INTERNAL, "%s: sidecar text too long", scpath);
    size_t n = (size_t)len;
    const void *chunks[1] = {buf};
    return czk__write_atomic(scpath, chunks, &n, 1);
}
