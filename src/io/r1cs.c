/* circom .r1cs reader (version 1, docs/circom.md), .sym reader, and the
 * witness check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_internal.h"

void czk_circom_r1cs_clear(czk_circom_r1cs *r)
{
    for (int m = 0; m < 3; m++) {
        free(r->start[m]);
        free(r->wire[m]);
        free(r->coef[m]);
    }
    free(r->wire_label);
    memset(r, 0, sizeof *r);
}

static const char *MAT = "ABC";

/* One pass over the constraint section; with fill = 0 it validates and
 * counts terms per matrix, with fill = 1 it stores them. */
static czk_status constraints_pass(czk_circom_r1cs *r, const czk__container *c, const czk__sect *s,
                                   uint64_t nterms[3], int fill)
{
    czk__cur k;
    czk__cur_init(&k, c, s);
    uint64_t cnt[3] = {0, 0, 0};
    char what[64];
    for (uint32_t j = 0; j < r->n_constraints; j++) {
        for (int m = 0; m < 3; m++) {
            uint32_t nt;
            snprintf(what, sizeof what, "constraint %u %c term count", j, MAT[m]);
            CZK_TRY(czk__cur_u32(&k, &nt, what));
            if (nt > czk__cur_left(&k) / 36)
                return czk__cur_err(&k, CZK_ERR_FORMAT, k.sp.pos - 4,
                                    "constraint %u %c: %u terms do not fit in the %llu bytes left", j,
                                    MAT[m], nt, (unsigned long long)czk__cur_left(&k));
            if (fill) r->start[m][j] = cnt[m];
            for (uint32_t t = 0; t < nt; t++) {
                uint32_t wire = czk__rd32(c->buf + k.sp.pos);
                if (wire >= r->n_wires)
                    return czk__cur_err(&k, CZK_ERR_FORMAT, k.sp.pos,
                                        "constraint %u %c term %u: wire %u >= nWires %u", j, MAT[m], t,
                                        wire, r->n_wires);
                k.sp.pos += 4;
                czk_fr v;
                snprintf(what, sizeof what, "constraint %u %c term %u coefficient", j, MAT[m], t);
                CZK_TRY(czk__cur_fr_plain(&k, &v, what));
                if (fill) {
                    r->wire[m][cnt[m]] = wire;
                    r->coef[m][cnt[m]] = v;
                }
                cnt[m]++;
            }
        }
    }
    if (czk__cur_left(&k) != 0)
        return czk__cur_err(&k, CZK_ERR_FORMAT, k.sp.pos, "%llu trailing bytes after %u constraints",
                            (unsigned long long)czk__cur_left(&k), r->n_constraints);
    if (fill)
        for (int m = 0; m < 3; m++) r->start[m][r->n_constraints] = cnt[m];
    for (int m = 0; m < 3; m++) nterms[m] = cnt[m];
    return CZK_OK;
}

static czk_status r1cs_parse(czk_circom_r1cs *r, const uint8_t *buf, size_t len, const char *name)
{
    czk__container c;
    CZK_TRY(czk__container_open(&c, buf, len, name, "r1cs"));
    if (c.version != 1)
        return czk_error(CZK_ERR_UNSUPPORTED, "%s: byte 4: r1cs version %u (only version 1 is supported)",
                         name, c.version);
    const czk__sect *hs, *cs, *ms;
    CZK_TRY(czk__container_find(&hs, &c, 1));
    CZK_TRY(czk__container_find(&cs, &c, 2));
    for (uint32_t i = 0; i < c.n_sect; i++)
        if (c.sect[i].type == 4 || c.sect[i].type == 5)
            return czk_error(CZK_ERR_UNSUPPORTED, "%s: byte %llu: custom-gate section %u is not supported",
                             name, (unsigned long long)(c.sect[i].off - 12), c.sect[i].type);

    czk__cur k;
    czk__cur_init(&k, &c, hs);
    uint32_t n8;
    uint64_t h0 = k.sp.pos;
    CZK_TRY(czk__cur_u32(&k, &n8, "header n8"));
    CZK_TRY(czk__cur_need(&k, n8 < 32 ? 32 : n8, "header prime"));
    CZK_TRY(czk__check_prime_r(&k, n8, h0));
    k.sp.pos += 32;
    if (hs->len != 4 + 32 + 28)
        return czk__cur_err(&k, CZK_ERR_FORMAT, h0, "header is %llu bytes, expected %d",
                            (unsigned long long)hs->len, 4 + 32 + 28);
    CZK_TRY(czk__cur_u32(&k, &r->n_wires, "nWires"));
    CZK_TRY(czk__cur_u32(&k, &r->n_outputs, "nOutputs"));
    CZK_TRY(czk__cur_u32(&k, &r->n_pub_inputs, "nPubInputs"));
    CZK_TRY(czk__cur_u32(&k, &r->n_prv_inputs, "nPrvInputs"));
    CZK_TRY(czk__cur_u64(&k, &r->n_labels, "nLabels"));
    CZK_TRY(czk__cur_u32(&k, &r->n_constraints, "nConstraints"));
    if (r->n_wires == 0 ||
        (uint64_t)r->n_outputs + r->n_pub_inputs + r->n_prv_inputs + 1 > r->n_wires)
        return czk__cur_err(&k, CZK_ERR_FORMAT, h0 + 36,
                            "nWires %u cannot hold 1 + %u outputs + %u public + %u private inputs",
                            r->n_wires, r->n_outputs, r->n_pub_inputs, r->n_prv_inputs);
    /* Each constraint takes at least 12 bytes (three term counts). */
    if ((uint64_t)r->n_constraints > cs->len / 12)
        return czk__cur_err(&k, CZK_ERR_FORMAT, h0 + 60,
                            "nConstraints %u cannot fit in the %llu-byte constraint section",
                            r->n_constraints, (unsigned long long)cs->len);

    uint64_t nt[3];
    CZK_TRY(constraints_pass(r, &c, cs, nt, 0));
    for (int m = 0; m < 3; m++) {
        r->start[m] = malloc(((size_t)r->n_constraints + 1) * sizeof(uint64_t));
        r->wire[m] = malloc((nt[m] ? nt[m] : 1) * sizeof(uint32_t));
        r->coef[m] = malloc((nt[m] ? nt[m] : 1) * sizeof(czk_fr));
        if (!r->start[m] || !r->wire[m] || !r->coef[m])
            return czk_error(CZK_ERR_NOMEM, "%s: cannot allocate %llu terms", name,
                             (unsigned long long)nt[m]);
    }
    CZK_TRY(constraints_pass(r, &c, cs, nt, 1));

    /* Section 3 (wire -> label) is optional for proving; validate if present. */
    ms = NULL;
    for (uint32_t i = 0; i < c.n_sect; i++)
        if (c.sect[i].type == 3) {
            if (ms)
                return czk_error(CZK_ERR_FORMAT, "%s: section type 3 appears twice", name);
            ms = &c.sect[i];
        }
    if (ms) {
        czk__cur_init(&k, &c, ms);
        if (ms->len != (uint64_t)r->n_wires * 8)
            return czk__cur_err(&k, CZK_ERR_FORMAT, ms->off, "wire map is %llu bytes, expected nWires*8 = %llu",
                                (unsigned long long)ms->len, (unsigned long long)r->n_wires * 8);
        r->wire_label = malloc((size_t)r->n_wires * sizeof(uint64_t));
        if (!r->wire_label) return czk_error(CZK_ERR_NOMEM, "%s: wire map", name);
        for (uint32_t i = 0; i < r->n_wires; i++) {
            r->wire_label[i] = czk__rd64(buf + ms->off + 8ull * i);
            if (r->wire_label[i] >= r->n_labels && r->n_labels)
                return czk__cur_err(&k, CZK_ERR_FORMAT, ms->off + 8ull * i, "wire %u label %llu >= nLabels %llu",
                                    i, (unsigned long long)r->wire_label[i], (unsigned long long)r->n_labels);
        }
    }
    return CZK_OK;
}

czk_status czk_circom_r1cs_parse(czk_circom_r1cs *r, const uint8_t *buf, size_t len, const char *name)
{
    memset(r, 0, sizeof *r);
    czk_status s = r1cs_parse(r, buf, len, name);
    if (s != CZK_OK) czk_circom_r1cs_clear(r);
    return s;
}

czk_status czk_circom_r1cs_read(czk_circom_r1cs *r, const char *path)
{
    uint8_t *buf;
    size_t len;
    memset(r, 0, sizeof *r);
    CZK_TRY(czk__io_read_file(&buf, &len, path));
    czk_status s = czk_circom_r1cs_parse(r, buf, len, path);
    free(buf);
    return s;
}

/* ---- .sym ---------------------------------------------------------------- */

void czk_circom_sym_clear(czk_circom_sym *s)
{
    if (s->name)
        for (size_t i = 0; i < s->n_wires; i++) free(s->name[i]);
    free(s->name);
    memset(s, 0, sizeof *s);
}

czk_status czk_circom_sym_read(czk_circom_sym *s, const char *path, size_t n_wires)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "r");
    if (!f) return czk_error(CZK_ERR_IO, "%s: cannot open", path);
    s->n_wires = n_wires;
    s->name = calloc(n_wires ? n_wires : 1, sizeof(char *));
    if (!s->name) {
        fclose(f);
        return czk_error(CZK_ERR_NOMEM, "%s: names", path);
    }
    char line[4096];
    unsigned long lineno = 0;
    czk_status st = CZK_OK;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t l = strlen(line);
        while (l && (line[l - 1] == '\n' || line[l - 1] == '\r')) line[--l] = 0;
        if (!l) continue;
        char *p = line, *end;
        strtoull(p, &end, 10);
        if (end == p || *end != ',') {
            st = czk_error(CZK_ERR_FORMAT, "%s: line %lu: expected 'labelId,varIdx,componentIdx,name'", path, lineno);
            break;
        }
        p = end + 1;
        long long var = strtoll(p, &end, 10);
        if (end == p || *end != ',') {
            st = czk_error(CZK_ERR_FORMAT, "%s: line %lu: bad varIdx", path, lineno);
            break;
        }
        p = end + 1;
        strtoll(p, &end, 10);
        if (end == p || *end != ',') {
            st = czk_error(CZK_ERR_FORMAT, "%s: line %lu: bad componentIdx", path, lineno);
            break;
        }
        p = end + 1;
        if (var < 0) continue;
        if ((unsigned long long)var >= n_wires) {
            st = czk_error(CZK_ERR_FORMAT, "%s: line %lu: varIdx %lld >= %zu wires", path, lineno, var, n_wires);
            break;
        }
        if (!s->name[var]) {
            s->name[var] = strdup(p);
            if (!s->name[var]) {
                st = czk_error(CZK_ERR_NOMEM, "%s: names", path);
                break;
            }
        }
    }
    fclose(f);
    if (st != CZK_OK) czk_circom_sym_clear(s);
    return st;
}

/* ---- witness check ------------------------------------------------------- */

static void lc_eval(czk_fr *out, const czk_circom_r1cs *r, int m, uint32_t j, const czk_fr *w)
{
    czk_fr acc = CZK_FR_ZERO, t;
    for (uint64_t i = r->start[m][j]; i < r->start[m][j + 1]; i++) {
        czk_fr_mul(&t, &r->coef[m][i], &w[r->wire[m][i]]);
        czk_fr_add(&acc, &acc, &t);
    }
    *out = acc;
}

czk_status czk_circom_r1cs_check(const czk_circom_r1cs *r, const czk_fr *w, size_t n_w,
                                 const czk_circom_sym *sym)
{
    if (n_w != r->n_wires)
        return czk_error(CZK_ERR_INVALID_ARG, "witness has %zu values but the r1cs has %u wires", n_w,
                         r->n_wires);
    if (!czk_fr_is_one(&w[0]))
        return czk_error(CZK_ERR_UNSATISFIED, "witness value 0 (the constant ONE wire) is not 1");
    int64_t bad = -1;
    int64_t n = r->n_constraints;
#pragma omp parallel for schedule(static) if (n >= 1024)
    for (int64_t j = 0; j < n; j++) {
        czk_fr a, b, c, ab;
        lc_eval(&a, r, 0, (uint32_t)j, w);
        lc_eval(&b, r, 1, (uint32_t)j, w);
        lc_eval(&c, r, 2, (uint32_t)j, w);
        czk_fr_mul(&ab, &a, &b);
        if (!czk_fr_eq(&ab, &c)) {
#pragma omp critical(czk_r1cs_check)
            if (bad < 0 || j < bad) bad = j;
        }
    }
    if (bad < 0) return CZK_OK;
    uint32_t j = (uint32_t)bad;
    czk_fr a, b, c;
    lc_eval(&a, r, 0, j, w);
    lc_eval(&b, r, 1, j, w);
    lc_eval(&c, r, 2, j, w);
    char da[80], db[80], dc[80];
    czk_fr_to_dec(da, &a);
    czk_fr_to_dec(db, &b);
    czk_fr_to_dec(dc, &c);
    char sig[1024];
    size_t o = 0;
    sig[0] = 0;
    int listed = 0;
    for (int m = 0; m < 3 && o < sizeof sig - 64; m++)
        for (uint64_t i = r->start[m][j]; i < r->start[m][j + 1] && o < sizeof sig - 64; i++) {
            uint32_t wi = r->wire[m][i];
            if (wi == 0) continue;
            const char *nm = (sym && wi < sym->n_wires && sym->name[wi]) ? sym->name[wi] : NULL;
            int k = snprintf(sig + o, sizeof sig - o, "%s%s%s(wire %u)", listed ? ", " : "", nm ? nm : "",
                             nm ? " " : "", wi);
            if (k < 0) break;
            o += (size_t)k < sizeof sig - o ? (size_t)k : sizeof sig - o - 1;
            listed++;
        }
    return czk_error(CZK_ERR_UNSATISFIED,
                     "constraint %u of %u is not satisfied: A*w = %s, B*w = %s, C*w = %s (A*B != C); "
                     "signals: %s%s",
                     j, r->n_constraints, da, db, dc, listed ? sig : "(constants only)",
                     sym ? "" : " (pass the .sym file for signal names)");
}
