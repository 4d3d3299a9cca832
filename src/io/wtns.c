/* circom / snarkjs .wtns reader (version 2, docs/circom.md). */
#include <stdlib.h>
#include <string.h>

#include "io/io_internal.h"

void czk_circom_wtns_clear(czk_circom_wtns *w)
{
    free(w->w);
    memset(w, 0, sizeof *w);
}

static czk_status wtns_parse(czk_circom_wtns *w, const uint8_t *buf, size_t len, const char *name)
{
    czk__container c;
    CZK_TRY(czk__container_open(&c, buf, len, name, "wtns"));
    if (c.version != 2)
        return czk_error(CZK_ERR_UNSUPPORTED, "%s: byte 4: wtns version %u (only version 2 is supported)",
                         name, c.version);
    const czk__sect *hs, *ds;
    CZK_TRY(czk__container_find(&hs, &c, 1));
    CZK_TRY(czk__container_find(&ds, &c, 2));
    czk__cur k;
    czk__cur_init(&k, &c, hs);
    uint32_t n8, nw;
    uint64_t h0 = k.sp.pos;
    CZK_TRY(czk__cur_u32(&k, &n8, "header n8"));
    CZK_TRY(czk__cur_need(&k, 32, "header prime"));
    CZK_TRY(czk__check_prime_r(&k, n8, h0));
    k.sp.pos += 32;
    CZK_TRY(czk__cur_u32(&k, &nw, "nWitness"));
    if (czk__cur_left(&k) != 0)
        return czk__cur_err(&k, CZK_ERR_FORMAT, k.sp.pos, "%llu trailing header bytes",
                            (unsigned long long)czk__cur_left(&k));
    czk__cur_init(&k, &c, ds);
    if (ds->len != (uint64_t)nw * 32)
        return czk__cur_err(&k, CZK_ERR_FORMAT, ds->off, "witness section is %llu bytes, expected nWitness*32 = %llu",
                            (unsigned long long)ds->len, (unsigned long long)nw * 32);
    if (nw == 0) return czk__cur_err(&k, CZK_ERR_FORMAT, h0 + 36, "nWitness is 0");
    w->w = malloc((size_t)nw * sizeof(czk_fr));
    if (!w->w) return czk_error(CZK_ERR_NOMEM, "%s: %u witness values", name, nw);
    w->n = nw;
    for (uint32_t i = 0; i < nw; i++) {
        if (czk_fr_from_bytes(&w->w[i], buf + ds->off + 32ull * i) != CZK_OK)
            return czk__cur_err(&k, CZK_ERR_NOT_CANONICAL, ds->off + 32ull * i, "witness value %u >= r", i);
    }
    if (!czk_fr_is_one(&w->w[0]))
        return czk__cur_err(&k, CZK_ERR_FORMAT, ds->off, "witness value 0 (the constant ONE) is not 1");
    return CZK_OK;
}

czk_status czk_circom_wtns_parse(czk_circom_wtns *w, const uint8_t *buf, size_t len, const char *name)
{
    memset(w, 0, sizeof *w);
    czk_status s = wtns_parse(w, buf, len, name);
    if (s != CZK_OK) czk_circom_wtns_clear(w);
    return s;
}

czk_status czk_circom_wtns_read(czk_circom_wtns *w, const char *path)
{
    uint8_t *buf;
    size_t len;
    memset(w, 0, sizeof *w);
    CZK_TRY(czk__io_read_file(&buf, &len, path));
    czk_status s = czk_circom_wtns_parse(w, buf, len, path);
    free(buf);
    return s;
}
