/* Sampling backend: the records of a perf_event_open ring buffer (see
 * perf_event_open(2), "MMAP layout" and the PERF_RECORD_* types) turned into
 * a per-function profile. Each sample carries its event's id, the user IP,
 * the pid and the period; PERF_RECORD_MMAP2 records say which file (and file
 * offset) an address belongs to, so an address resolves to a link-time
 * address in that file's ELF symbol table. */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "czk/perf.h"
#include "perf/perf_internal.h"

typedef struct map {
    uint32_t pid;
    uint64_t start, len, pgoff;
    char *file;
} map;

typedef struct sample {
    uint64_t ip, period;
    size_t map; /* SIZE_MAX: no mapping seen for the address */
    uint32_t col;
} sample;

struct czk_perf_sampler {
    size_t nev;
    char names[CZK_PERF_MAX_EVENTS][96];
    uint64_t ids[CZK_PERF_MAX_EVENTS];
    map *maps;
    size_t nmaps, capmaps;
    sample *s;
    size_t ns, caps;
    uint64_t lost, dropped;
    char region[96];
};

czk_status czk_perf_sampler_create(czk_perf_sampler **out, size_t nev, const char *const *names, const uint64_t *ids,
                                   const char *region)
{
    *out = NULL;
    if (!nev || nev > CZK_PERF_MAX_EVENTS) return czk_error(CZK_ERR_INVALID_ARG, "sampler: %zu events", nev);
    czk_perf_sampler *s = calloc(1, sizeof *s);
    if (!s) return czk_error(CZK_ERR_NOMEM, "sampler");
    s->nev = nev;
    for (size_t i = 0; i < nev; i++) {
        snprintf(s->names[i], sizeof s->names[i], "%s", names[i]);
        s->ids[i] = ids[i];
    }
    if (region) snprintf(s->region, sizeof s->region, "%s", region);
    *out = s;
    return CZK_OK;
}

void czk_perf_sampler_destroy(czk_perf_sampler *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nmaps; i++) free(s->maps[i].file);
    free(s->maps);
    free(s->s);
    free(s);
}

static size_t find_map(const czk_perf_sampler *s, uint32_t pid, uint64_t ip)
{
    /* the newest mapping of the address wins (a later mmap replaces an older one);
     * after fork a child has its parent's mappings: any pid's mapping is a fallback */
    size_t any = SIZE_MAX;
    for (size_t i = s->nmaps; i-- > 0;) {
        const map *m = &s->maps[i];
        if (ip < m->start || ip - m->start >= m->len) continue;
        if (m->pid == pid) return i;
        if (any == SIZE_MAX) any = i;
    }
    return any;
}

void czk_perf_sampler_record(czk_perf_sampler *s, const void *rec, size_t len)
{
    const struct perf_event_header *h = rec;
    if (len < sizeof *h || h->size > len) return;
    const unsigned char *p = (const unsigned char *)rec + sizeof *h;
    size_t body = h->size - sizeof *h;
    if (h->type == PERF_RECORD_MMAP2 || h->type == PERF_RECORD_MMAP) {
        size_t fixed = h->type == PERF_RECORD_MMAP2 ? 4 + 4 + 8 * 3 + 4 + 4 + 8 + 8 + 4 + 4 : 4 + 4 + 8 * 3;
        if (body <= fixed) return;
        uint32_t pid, prot = PROT_EXEC;
        uint64_t addr, mlen, pgoff;
        memcpy(&pid, p, 4);
        memcpy(&addr, p + 8, 8);
        memcpy(&mlen, p + 16, 8);
        memcpy(&pgoff, p + 24, 8);
        if (h->type == PERF_RECORD_MMAP2) memcpy(&prot, p + 56, 4);
        if (!(prot & PROT_EXEC)) return;
        const char *file = (const char *)p + fixed;
        size_t flen = strnlen(file, body - fixed);
        if (s->nmaps == s->capmaps) {
            size_t cap = s->capmaps ? 2 * s->capmaps : 64;
            map *nm = realloc(s->maps, cap * sizeof *nm);
            if (!nm) return;
            s->maps = nm, s->capmaps = cap;
        }
        map *m = &s->maps[s->nmaps];
        m->file = strndup(file, flen);
        if (!m->file) return;
        m->pid = pid, m->start = addr, m->len = mlen, m->pgoff = pgoff;
        s->nmaps++;
    } else if (h->type == PERF_RECORD_SAMPLE) {
        if (body < 32) return; /* id, ip, pid/tid, period */
        uint64_t id, ip, period;
        uint32_t pid;
        memcpy(&id, p, 8);
        memcpy(&ip, p + 8, 8);
        memcpy(&pid, p + 16, 4);
        memcpy(&period, p + 24, 8);
        size_t col = 0;
        while (col < s->nev && s->ids[col] != id) col++;
        if (col == s->nev) {
            s->dropped++;
            return;
        }
        if (s->ns == s->caps) {
            size_t cap = s->caps ? 2 * s->caps : 4096;
            sample *ns = realloc(s->s, cap * sizeof *ns);
            if (!ns) {
                s->dropped++;
                return;
            }
            s->s = ns, s->caps = cap;
        }
        s->s[s->ns++] = (sample){ip, period, find_map(s, pid, ip), (uint32_t)col};
    } else if (h->type == PERF_RECORD_LOST) {
        uint64_t n;
        if (body >= 16) memcpy(&n, p + 8, 8), s->lost += n;
    }
}

size_t czk_perf_sampler_drain(czk_perf_sampler *s, void *ring, size_t data_size)
{
    struct perf_event_mmap_page *pg = ring;
    size_t off = pg->data_offset ? (size_t)pg->data_offset : (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *data = (unsigned char *)ring + off;
    uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), tail = pg->data_tail;
    size_t n = 0;
    unsigned char buf[4096];
    while (tail + sizeof(struct perf_event_header) <= head) {
        struct perf_event_header h;
        size_t at = (size_t)(tail % data_size);
        for (size_t i = 0; i < sizeof h; i++) ((unsigned char *)&h)[i] = data[(at + i) % data_size];
        if (h.size < sizeof h || tail + h.size > head) break;
        if (h.size <= sizeof buf) {
            size_t first = data_size - at < h.size ? data_size - at : h.size;
            memcpy(buf, data + at, first);
            memcpy(buf + first, data, h.size - first);
            czk_perf_sampler_record(s, buf, h.size);
            n++;
        }
        tail += h.size;
    }
    __atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
    return n;
}

czk_status czk_perf_sampler_profile(czk_perf_sampler *s, czk_perf_profile *out, uint64_t *samples, uint64_t *lost,
                                    uint64_t *unresolved)
{
    const char *names[CZK_PERF_MAX_EVENTS];
    for (size_t i = 0; i < s->nev; i++) names[i] = s->names[i];
    czk_perf_profile_init(out, s->nev, names);
    snprintf(out->source, sizeof out->source, "sampled (perf_event_open), self samples x period per function");
    for (size_t i = 0; i < s->nev; i++) snprintf(out->how[i], sizeof out->how[i], "samples x period");
    *samples = s->ns;
    *lost = s->lost + s->dropped;
    *unresolved = 0;
    /* one symbol table per mapped file, loaded once */
    czk_perf_symtab *tabs = calloc(s->nmaps ? s->nmaps : 1, sizeof *tabs);
    char *loaded = calloc(s->nmaps ? s->nmaps : 1, 1);
    uint64_t *rlo = calloc(s->nmaps ? s->nmaps : 1, sizeof *rlo), *rhi = calloc(s->nmaps ? s->nmaps : 1, sizeof *rhi);
    if (!tabs || !loaded || !rlo || !rhi) {
        free(tabs), free(loaded), free(rlo), free(rhi);
        return czk_error(CZK_ERR_NOMEM, "sampler: symbol tables");
    }
    czk_status st = CZK_OK;
    double v[CZK_PERF_MAX_EVENTS];
    for (size_t i = 0; i < s->ns && st == CZK_OK; i++) {
        const sample *x = &s->s[i];
        const char *name = NULL, *obj = "";
        uint64_t va = 0;
        if (x->map != SIZE_MAX) {
            const map *m = &s->maps[x->map];
            obj = strrchr(m->file, '/') ? strrchr(m->file, '/') + 1 : m->file;
            size_t k = x->map; /* share the table of an earlier mapping of the same file */
            for (size_t j = 0; j < x->map; j++)
                if (loaded[j] == 1 && !strcmp(s->maps[j].file, m->file)) {
                    k = j;
                    break;
                }
            if (!loaded[k]) {
                loaded[k] = m->file[0] == '/' && czk_perf_symtab_load(&tabs[k], m->file) == CZK_OK ? 1 : 2;
                if (loaded[k] == 1 && s->region[0] && !czk_perf_symtab_range(&tabs[k], s->region, &rlo[k], &rhi[k]))
                    rlo[k] = rhi[k] = 0;
            }
            if (loaded[k] == 1 && czk_perf_symtab_vaddr(&tabs[k], x->ip - m->start + m->pgoff, &va)) {
                if (s->region[0] && (va < rlo[k] || va >= rhi[k])) continue;
                const czk_perf_sym *sym = czk_perf_symtab_lookup(&tabs[k], va);
                if (sym) name = sym->name;
            } else if (s->region[0]) {
                continue;
            }
        } else if (s->region[0]) {
            continue;
        }
        char unk[64];
        if (!name) {
            (*unresolved)++;
            snprintf(unk, sizeof unk, "[unknown in %.40s]", obj[0] ? obj : "no mapping");
            name = unk;
        }
        memset(v, 0, s->nev * sizeof v[0]);
        v[x->col] = (double)x->period;
        st = czk_perf_profile_add(out, name, obj, v);
    }
    for (size_t i = 0; i < s->nmaps; i++)
        if (loaded[i] == 1) czk_perf_symtab_clear(&tabs[i]);
    free(tabs), free(loaded), free(rlo), free(rhi);
    if (st != CZK_OK) czk_perf_profile_clear(out);
    return st;
}
