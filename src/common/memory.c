/* How much memory this process may use: MemTotal and the cgroup limits
 * above it (README.md of this folder, "Memory"). cgroup v2 documents
 * memory.max ("max" or bytes) and memory.current; cgroup v1
 * memory.limit_in_bytes and memory.usage_in_bytes, "unlimited" being a
 * number near 2^63 (the page counter's maximum times the page size). A
 * limit applies to the cgroup's whole subtree, so the smallest one on the
 * path from the process's cgroup to the hierarchy's root is the limit. */
#define _GNU_SOURCE
#include "common/memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* v1's "no limit" values are PAGE_COUNTER_MAX pages, 2^63 - page size */
#define V1_UNLIMITED (1ull << 62)

/* The number (or "max": *is_max) a cgroup file starts with. 0 when
 * unreadable. */
static int read_value(const char *path, uint64_t *v, int *is_max)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buf[64] = "";
    int ok = fgets(buf, sizeof buf, f) != NULL;
    fclose(f);
    *is_max = 0;
    if (!ok) return 0;
    if (!strncmp(buf, "max", 3)) {
        *is_max = 1;
        return 1;
    }
    char *end;
    unsigned long long x = strtoull(buf, &end, 10);
    if (end == buf) return 0;
    *v = x;
    return 1;
}

/* root + rel, opened for reading */
static FILE *open_at(const char *root, const char *rel)
{
    char path[4200];
    snprintf(path, sizeof path, "%s%s", root, rel);
    return fopen(path, "r");
}

static uint64_t meminfo(const char *root, const char *key)
{
    FILE *f = open_at(root, "/proc/meminfo");
    if (!f) return 0;
    char line[256];
    unsigned long long kb = 0;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, kl) && line[kl] == ':' && sscanf(line + kl + 1, "%llu", &kb) == 1) break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void unescape(char *s)
{
    char *o = s;
    for (char *p = s; *p; p++) {
        if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' && p[3] >= '0' && p[3] <= '7') {
            *o++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
            p += 3;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
}

static int has_token(const char *list, const char *tok)
{
    size_t tl = strlen(tok);
    for (const char *p = list; p && *p;) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l == tl && !strncmp(p, tok, tl)) return 1;
        p = c ? c + 1 : NULL;
    }
    return 0;
}

/* The mount point of the v2 hierarchy (v2) or of the v1 hierarchy with the
 * memory controller, and the cgroup path that mount shows as its root. */
static int find_mount(const char *root, int v2, char *mnt, size_t n, char *mroot, size_t rn)
{
    FILE *f = open_at(root, "/proc/self/mountinfo");
    if (!f) return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS */
        char *sep = strstr(line, " - ");
        if (!sep) continue;
        *sep = 0;
        char fstype[64] = "", source[1024] = "", super[1024] = "", r[2048] = "", m[2048] = "";
        if (sscanf(sep + 3, "%63s %1023s %1023s", fstype, source, super) < 2) continue;
        if (sscanf(line, "%*s %*s %*s %2047s %2047s", r, m) != 2) continue;
        if (v2 ? strcmp(fstype, "cgroup2") != 0 : strcmp(fstype, "cgroup") != 0 || !has_token(super, "memory"))
            continue;
        unescape(r);
        unescape(m);
        snprintf(mnt, n, "%s", m);
        snprintf(mroot, rn, "%s", r);
        found = 1;
    }
    fclose(f);
    return found;
}

/* This process's cgroup path in the v2 hierarchy ("0::PATH") or the v1
 * hierarchy with the memory controller ("N:...,memory,...:PATH"). */
static int cgroup_path(const char *root, int v2, char *out, size_t n)
{
    FILE *f = open_at(root, "/proc/self/cgroup");
    if (!f) return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2) continue;
        *c1 = *c2 = 0;
        if (v2 ? strcmp(line, "0") != 0 || c1[1] != 0 : !has_token(c1 + 1, "memory")) continue;
        snprintf(out, n, "%s", c2 + 1);
        found = 1;
    }
    fclose(f);
    return found;
}

/* The smallest limit from the process's cgroup up to the mount's root:
 * *limit, the file it was read from (without root), and the usage beside it. */
static int walk(const char *root, int v2, uint64_t *limit, uint64_t *usage, char *src, size_t sn)
{
    char mnt[2048], mroot[2048], cg[2048];
    if (!find_mount(root, v2, mnt, sizeof mnt, mroot, sizeof mroot) || !cgroup_path(root, v2, cg, sizeof cg))
        return 0;
    /* the path below the mount: the cgroup's path less the part the mount hides */
    const char *rel = cg;
    size_t rl = strlen(mroot);
    if (strcmp(mroot, "/") != 0 && !strncmp(cg, mroot, rl) && (cg[rl] == '/' || cg[rl] == 0)) rel = cg + rl;
    char dir[4200];
    snprintf(dir, sizeof dir, "%s%s%s", mnt, *rel == '/' || !*rel ? "" : "/", rel);
    size_t keep = strlen(mnt);
    int found = 0;
    const char *lim_name = v2 ? "memory.max" : "memory.limit_in_bytes";
    const char *use_name = v2 ? "memory.current" : "memory.usage_in_bytes";
    for (;;) {
        size_t dl = strlen(dir);
        while (dl > keep && dir[dl - 1] == '/') dir[--dl] = 0;
        char file[4600];
        uint64_t v = 0;
        int is_max = 0;
        snprintf(file, sizeof file, "%s%s/%s", root, dir, lim_name);
        if (read_value(file, &v, &is_max) && !is_max && (v2 || v < V1_UNLIMITED) && (!found || v < *limit)) {
            *limit = v;
            found = 1;
            snprintf(src, sn, "cgroup %s %s/%s", v2 ? "v2" : "v1", dir, lim_name);
            snprintf(file, sizeof file, "%s%s/%s", root, dir, use_name);
            uint64_t u = 0;
            *usage = read_value(file, &u, &is_max) && !is_max ? u : 0;
        }
        if (dl <= keep) break;
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < keep) break;
        *slash = 0;
        if (strlen(dir) < keep) break;
    }
    return found;
}

void czk__memory_probe_at(czk_memory_info *out, const char *root)
{
    memset(out, 0, sizeof *out);
    out->mem_total = meminfo(root, "MemTotal");
    uint64_t avail = meminfo(root, "MemAvailable");
    if (out->mem_total) {
        out->limit = out->mem_total;
        snprintf(out->source, sizeof out->source, "MemTotal");
    } else if (!*root) {
        long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
        if (pages > 0 && psz > 0) {
            out->mem_total = out->limit = (uint64_t)pages * (uint64_t)psz;
            snprintf(out->source, sizeof out->source, "sysconf");
        }
    }
    if (!out->limit) {
        out->limit = 4ull << 30;
        snprintf(out->source, sizeof out->source, "default");
    }
    for (int v2 = 1; v2 >= 0; v2--) {
        uint64_t lim = 0, use = 0;
        char src[sizeof out->source];
        if (!walk(root, v2, &lim, &use, src, sizeof src) || (out->cgroup && lim >= out->cgroup)) continue;
        out->cgroup = lim;
        uint64_t room = lim > use ? lim - use : 0;
        if (!avail || room < avail) avail = room;
        if (lim < out->limit) {
            out->limit = lim;
            snprintf(out->source, sizeof out->source, "%s", src);
        }
    }
    out->available = avail;
}

void czk_memory_probe(czk_memory_info *out) { czk__memory_probe_at(out, ""); }
