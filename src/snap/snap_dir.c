/* A SnapDeals vanilla directory (czk/snap_kind.h): DIR/snap.json and one
 * DIR/snap-partition-K.bin per partition, as `czk-oracle vanilla-snap`
 * and `czk gen-snap` write it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "czk/czk.h"
#include "czk/snap_kind.h"
#include "snap/snap_internal.h"

czk_status czk_snap_dir_json(czk_snap_json *m, const char *dir)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/snap.json", dir);
    if (n < 0 || (size_t)n >= sizeof path)
        return czk_error(CZK_ERR_INVALID_ARG, "snap directory %s: path too long", dir);
    return czk_snap_json_read(m, path);
}

czk_status czk_snap_dir_read(czk_snap_vanilla *v, czk_snap_json *m, const char *dir)
{
    memset(v, 0, sizeof *v);
    memset(m, 0, sizeof *m);
    czk_snap_json j;
    CZK_TRY(czk_snap_dir_json(&j, dir));
    const czk_snap_shape *s = &j.shape;
    const size_t one = czk_snap_partition_proof_bytes(s);
    uint8_t **bins = calloc(j.partitions, sizeof *bins);
    size_t *lens = malloc(j.partitions * sizeof *lens);
    czk_status st = bins && lens ? CZK_OK : czk_error(CZK_ERR_NOMEM, "%s: %u partitions", dir, j.partitions);
    char why[96], path[4096];
    snprintf(why, sizeof why, "a %s partition proof", j.proof);
    for (uint32_t k = 0; k < j.partitions && st == CZK_OK; k++) {
        snprintf(path, sizeof path, "%s/snap-partition-%u.bin", dir, k);
        st = czk__read_exact(&bins[k], path, one, why);
        lens[k] = one;
    }
    if (st == CZK_OK) {
        st = czk_snap_vanilla_read(v, s, (const uint8_t *const *)bins, lens, j.partitions, j.comm_r_old,
                                   j.comm_d_new, j.comm_r_new);
        if (st != CZK_OK) st = czk_error_context(st, "%s", dir);
    }
    if (st == CZK_OK) {
        st = czk_snap_vanilla_check(v);
        if (st != CZK_OK) {
            st = czk_error_context(st, "%s: the native check", dir);
            czk_snap_vanilla_free(v);
        }
    }
    for (uint32_t k = 0; bins && k < j.partitions; k++) free(bins[k]);
    free(bins);
    free(lens);
    if (st == CZK_OK) *m = j;
    return st;
}

czk_status czk_snap_dir_write(const char *dir, const czk_snap_vanilla *v, uint64_t *bytes)
{
    czk_snap_json m;
    CZK_TRY(czk_snap_json_of(&m, v));
    int made = 0; /* this call made dir: a failure removes it again */
    CZK_TRY(czk__mkdirs_made(dir, 0777, &made));
    const czk_snap_shape *s = &v->shape;
    const size_t one = czk_snap_partition_proof_bytes(s);
    uint8_t *bin = malloc(one);
    if (!bin) return czk_error(CZK_ERR_NOMEM, "snap dir: %zu bytes", one);
    char path[4096], json[4096];
    snprintf(json, sizeof json, "%s/snap.json", dir);
    uint64_t total = 0;
    czk_status st = CZK_OK;
    uint32_t written = 0;
    for (uint32_t k = 0; k < v->n && st == CZK_OK; k++) {
        size_t len = 0;
        snprintf(path, sizeof path, "%s/snap-partition-%u.bin", dir, k);
        st = czk_snap_partition_encode(bin, one, &len, &v->parts[k], s);
        if (st == CZK_OK) { /* snap.json, which completes the directory, goes with the first and comes last */
            const void *chunk = bin;
            const char *retire[1] = {json};
            st = czk__write_atomic_set(path, &chunk, &len, 1, retire, k == 0);
        }
        if (st == CZK_OK) total += len, written++;
    }
    char *js = NULL;
    if (st == CZK_OK) st = czk_snap_json_dump(&js, &m);
    if (st == CZK_OK) {
        const void *chunks[2] = {js, "\n"};
        const size_t lens[2] = {strlen(js), 1};
        st = czk__write_atomic(json, chunks, lens, 2);
        total += lens[0] + 1;
    }
    if (st != CZK_OK) /* no partial directory: the partitions written go */
        for (uint32_t k = 0; k < written; k++) {
            snprintf(path, sizeof path, "%s/snap-partition-%u.bin", dir, k);
            remove(path);
        }
    if (st != CZK_OK && made) rmdir(dir);
    free(bin);
    free(js);
    if (st == CZK_OK && bytes) *bytes = total;
    return st;
}

/* ---- the kind's files (czk/kind.h read / read_public) --------------------------- */

czk_status czk__snap_read(void **data, const char *dir)
{
    *data = NULL;
    czk_snap_vanilla *v = calloc(1, sizeof *v);
    if (!v) return czk_error(CZK_ERR_NOMEM, "a SnapDeals update's vanilla proofs");
    czk_snap_json m;
    czk_status st = czk_snap_dir_read(v, &m, dir);
    if (st != CZK_OK) {
        free(v);
        return st;
    }
    *data = v;
    return CZK_OK;
}

czk_status czk__snap_read_public(void **pub, const char *dir)
{
    *pub = NULL;
    czk_snap_json *m = calloc(1, sizeof *m);
    if (!m) return czk_error(CZK_ERR_NOMEM, "a SnapDeals update's public data");
    czk_status st = czk_snap_dir_json(m, dir);
    if (st != CZK_OK) {
        free(m);
        return st;
    }
    *pub = m;
    return CZK_OK;
}

void czk__snap_free_public(void *pub) { free(pub); }

const void *czk__snap_public_shape(const void *pub) { return &((const czk_snap_json *)pub)->shape; }

uint32_t czk__snap_public_partitions(const void *pub) { return ((const czk_snap_json *)pub)->partitions; }

const char *czk__snap_public_name(const void *pub) { return ((const czk_snap_json *)pub)->proof; }

czk_status czk__snap_public_inputs(czk_fr *out, size_t n, const void *pub, uint32_t k)
{
    const czk_snap_json *m = pub;
    if (n != CZK_SNAP_PUBLIC_INPUTS)
        return czk_error(CZK_ERR_INVALID_ARG, "the verifying key has %zu public inputs, the SnapDeals circuit %d",
                         n + 1, CZK_SNAP_PUBLIC_INPUTS + 1);
    czk_fr old, d_new, r_new;
    if (czk_fr_from_bytes(&old, m->comm_r_old) != CZK_OK || czk_fr_from_bytes(&d_new, m->comm_d_new) != CZK_OK ||
        czk_fr_from_bytes(&r_new, m->comm_r_new) != CZK_OK)
        return czk_error(CZK_ERR_NOT_CANONICAL, "SnapDeals: a commitment is not a field element");
    return czk_snap_public_inputs(out, &m->shape, k, m->shape.h, &old, &d_new, &r_new);
}
