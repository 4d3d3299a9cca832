/* Function symbols of an ELF64 file, for the sampling backend: the section
 * headers locate .symtab (or .dynsym, for stripped files) and its string
 * table; STT_FUNC / STT_GNU_IFUNC symbols that are defined are kept, sorted
 * by address. The program headers map file offsets (what a mapping's pgoff
 * gives) back to link-time addresses. Layouts: the System V ABI, "ELF" and
 * <elf.h>. Names are demangled with libiberty's cplus_demangle, which knows
 * the Itanium C++ ABI and both Rust manglings (legacy and v0). */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef CZK_HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#endif

#include "czk/perf.h"
#include "perf/perf_internal.h"

int czk_perf_demangler_available(void)
{
#ifdef CZK_HAVE_LIBIBERTY
    return 1;
#else
    return 0;
#endif
}

char *czk_perf_demangle(const char *sym)
{
#ifdef CZK_HAVE_LIBIBERTY
    if (strncmp(sym, "_Z", 2) && strncmp(sym, "_R", 2)) return NULL;
    return cplus_demangle(sym, DMGL_PARAMS | DMGL_ANSI);
#else
    (void)sym;
    return NULL;
#endif
}

void czk_perf_symtab_clear(czk_perf_symtab *t)
{
    for (size_t i = 0; i < t->n; i++) free(t->sym[i].name);
    free(t->sym);
    t->sym = NULL;
    t->n = 0;
}

static int by_addr(const void *x, const void *y)
{
    const czk_perf_sym *a = x, *b = y;
    if (a->addr != b->addr) return a->addr < b->addr ? -1 : 1;
    /* at one address prefer the symbol with a size, then the shorter name */
    if ((a->size == 0) != (b->size == 0)) return a->size ? -1 : 1;
    return (int)(strlen(a->name) - strlen(b->name));
}

#define BAD(...) (st = czk_error(CZK_ERR_FORMAT, __VA_ARGS__), NULL)

static czk_status read_symbols(czk_perf_symtab *t, const unsigned char *m, size_t size, const char *path)
{
    czk_status st = CZK_OK;
    const Elf64_Ehdr *eh = (const void *)m;
    if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG))
        return czk_error(CZK_ERR_FORMAT, "%s: not an ELF file", path);
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB)
        return czk_error(CZK_ERR_FORMAT, "%s: not a little-endian ELF64 file", path);
    if (eh->e_phoff > size || eh->e_phnum > (size - eh->e_phoff) / sizeof(Elf64_Phdr))
        return czk_error(CZK_ERR_FORMAT, "%s: program headers beyond the end of the file", path);
    const Elf64_Phdr *ph = (const void *)(m + eh->e_phoff);
    for (unsigned i = 0; i < eh->e_phnum && t->nload < 16; i++)
        if (ph[i].p_type == PT_LOAD) {
            t->load[t->nload].off = ph[i].p_offset;
            t->load[t->nload].vaddr = ph[i].p_vaddr;
            t->load[t->nload].filesz = ph[i].p_filesz;
            t->nload++;
        }
    if (eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof(Elf64_Shdr) ||
        (eh->e_shnum && eh->e_shentsize != sizeof(Elf64_Shdr)))
        return czk_error(CZK_ERR_FORMAT, "%s: section headers beyond the end of the file", path);
    const Elf64_Shdr *sh = (const void *)(m + eh->e_shoff);
    const Elf64_Shdr *tab = NULL;
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type == SHT_SYMTAB) tab = &sh[i];
    for (unsigned i = 0; i < eh->e_shnum && !tab; i++)
        if (sh[i].sh_type == SHT_DYNSYM) tab = &sh[i];
    if (!tab) return CZK_OK; /* no symbols: every address stays unresolved */
    if (tab->sh_link >= eh->e_shnum || tab->sh_offset > size || tab->sh_size > size - tab->sh_offset ||
        tab->sh_entsize != sizeof(Elf64_Sym))
        return czk_error(CZK_ERR_FORMAT, "%s: symbol table section out of bounds", path);
    const Elf64_Shdr *strs = &sh[tab->sh_link];
    if (strs->sh_offset > size || strs->sh_size > size - strs->sh_offset)
        return czk_error(CZK_ERR_FORMAT, "%s: string table out of bounds", path);
    const char *str = (const char *)m + strs->sh_offset;
    size_t nsym = tab->sh_size / sizeof(Elf64_Sym);
    const Elf64_Sym *sy = (const void *)(m + tab->sh_offset);
    t->sym = calloc(nsym ? nsym : 1, sizeof *t->sym);
    if (!t->sym) return czk_error(CZK_ERR_NOMEM, "%s: %zu symbols", path, nsym);
    for (size_t i = 0; i < nsym && st == CZK_OK; i++) {
        int type = ELF64_ST_TYPE(sy[i].st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sy[i].st_shndx == SHN_UNDEF || !sy[i].st_value) continue;
        if (sy[i].st_name >= strs->sh_size || !memchr(str + sy[i].st_name, 0, strs->sh_size - sy[i].st_name)) {
            (void)BAD("%s: symbol %zu: name outside the string table", path, i);
            break;
        }
        const char *raw = str + sy[i].st_name;
        char *dm = czk_perf_demangle(raw);
        czk_perf_sym *o = &t->sym[t->n];
        o->addr = sy[i].st_value;
        o->size = sy[i].st_size;
        o->name = dm ? dm : strdup(raw);
        if (!o->name) st = czk_error(CZK_ERR_NOMEM, "%s: symbol names", path);
        else t->n++;
    }
    if (st != CZK_OK) return st;
    qsort(t->sym, t->n, sizeof *t->sym, by_addr);
    /* one symbol per address (aliases) */
    size_t o = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (o && t->sym[o - 1].addr == t->sym[i].addr) {
            free(t->sym[i].name);
            continue;
        }
        t->sym[o++] = t->sym[i];
    }
    t->n = o;
    return CZK_OK;
}

czk_status czk_perf_symtab_load(czk_perf_symtab *t, const char *path)
{
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return czk_error(CZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) || sb.st_size <= 0) {
        close(fd);
        return czk_error(CZK_ERR_FORMAT, "%s: empty or unreadable", path);
    }
    void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return czk_error(CZK_ERR_IO, "%s: mmap: %s", path, strerror(errno));
    czk_status st = read_symbols(t, m, (size_t)sb.st_size, path);
    munmap(m, (size_t)sb.st_size);
    if (st != CZK_OK) czk_perf_symtab_clear(t);
    return st;
}

const czk_perf_sym *czk_perf_symtab_lookup(const czk_perf_symtab *t, uint64_t vaddr)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) { /* last symbol with addr <= vaddr */
        size_t mid = (lo + hi) / 2;
        if (t->sym[mid].addr <= vaddr) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return NULL;
    const czk_perf_sym *s = &t->sym[lo - 1];
    if (s->size && vaddr >= s->addr + s->size) return NULL;
    return s;
}

int czk_perf_symtab_vaddr(const czk_perf_symtab *t, uint64_t off, uint64_t *vaddr)
{
    for (size_t i = 0; i < t->nload; i++)
        if (off >= t->load[i].off && off < t->load[i].off + t->load[i].filesz) {
            *vaddr = off - t->load[i].off + t->load[i].vaddr;
            return 1;
        }
    return 0;
}

int czk_perf_symtab_range(const czk_perf_symtab *t, const char *pattern, uint64_t *lo, uint64_t *hi)
{
    for (size_t i = 0; i < t->n; i++) {
        char key[1024];
        czk_perf_fn_normalize(key, sizeof key, t->sym[i].name);
        char *paren = strchr(key, '('); /* C++: match the name without its parameters too */
        int hit = !fnmatch(pattern, key, 0);
        if (!hit && paren) {
            *paren = 0;
            hit = !fnmatch(pattern, key, 0);
        }
        if (!hit) continue;
        *lo = t->sym[i].addr;
        *hi = t->sym[i].size ? t->sym[i].addr + t->sym[i].size : i + 1 < t->n ? t->sym[i + 1].addr : t->sym[i].addr + 1;
        return 1;
    }
    return 0;
}
