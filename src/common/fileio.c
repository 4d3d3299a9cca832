/* Atomic file writes (temporary name in the same directory, fsync, rename)
 * and czk's cache directory. */
#define _GNU_SOURCE
#include "common/fileio.h"
#include <sys/stat.h>
#include "czk/czk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

czk_status czk__write_atomic(const char *path, const void *const *chunks, const size_t *lens,
                             size_t nchunks)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32);
    if (!tmp) return czk_error(CZK_ERR_NOMEM, "%s: temporary name", path);
    snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        czk_status s = czk_error(CZK_ERR_IO, "%s: %s", tmp, strerror(errno));
        free(tmp);
        return s;
    }
    for (size_t i = 0; i < nchunks; i++) {
        if (lens[i] && fwrite(chunks[i], 1, lens[i], f) != lens[i]) {
            int e = errno;
            fclose(f);
            unlink(tmp);
            czk_status s = czk_error(CZK_ERR_IO, "%s: write: %s", path, strerror(e));
            free(tmp);
            return s;
        }
    }
    if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
        int e = errno;
        fclose(f);
        unlink(tmp);
        free(tmp);
        return czk_error(CZK_ERR_IO, "%s: flush: %s", path, strerror(e));
    }
    if (fclose(f) != 0) {
        int e = errno;
        unlink(tmp);
        free(tmp);
        return czk_error(CZK_ERR_IO, "%s: close: %s", path, strerror(e));
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        free(tmp);
        return czk_error(CZK_ERR_IO, "%s: rename: %s", path, strerror(e));
    }
    free(tmp);
    return CZK_OK;
}


czk_status czk_cache_dir(char *out, size_t n)
{
    const char *d = getenv("CZK_CACHE_DIR");
    int w;
    if (d && *d) w = snprintf(out, n, "%s", d);
    else if ((d = getenv("XDG_CACHE_HOME")) && *d) w = snprintf(out, n, "%s/czk", d);
    else if ((d = getenv("HOME")) && *d) w = snprintf(out, n, "%s/.cache/czk", d);
    else return czk_error(CZK_ERR_IO, "no cache directory: set CZK_CACHE_DIR or HOME");
    if (w < 0 || (size_t)w >= n) return czk_error(CZK_ERR_INVALID_ARG, "cache directory path too long");
    return czk_error_context(czk_mkdirs(out, 0755), "cache directory");
}

czk_status czk_mkdirs(const char *dir, unsigned mode)
{
    char tmp[4096];
    size_t w = strlen(dir);
    if (w == 0 || w >= sizeof tmp) return czk_error(CZK_ERR_INVALID_ARG, "directory path of %zu bytes", w);
    memcpy(tmp, dir, w + 1);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            (void)mkdir(tmp, (mode_t)mode);
            *p = '/';
        }
    }
    struct stat sb;
    if (mkdir(tmp, (mode_t)mode) != 0 && errno != EEXIST) return czk_error(CZK_ERR_IO, "%s: %s", tmp, strerror(errno));
    if (stat(tmp, &sb) != 0 || !S_ISDIR(sb.st_mode)) return czk_error(CZK_ERR_IO, "%s: not a directory", tmp);
    return CZK_OK;
}

czk_status czk__read_exact(uint8_t **out, const char *path, size_t want, const char *why)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return czk_error(CZK_ERR_IO, "%s: cannot open", path);
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return czk_error(CZK_ERR_IO, "%s: not a regular file", path);
    }
    if ((unsigned long long)st.st_size != want) {
        fclose(f);
        return czk_error(CZK_ERR_FORMAT, "%s: %llu bytes, want %zu (%s)", path, (unsigned long long)st.st_size, want,
                         why);
    }
    uint8_t *d = malloc(want ? want : 1);
    if (!d) {
        fclose(f);
        return czk_error(CZK_ERR_NOMEM, "%s: %zu bytes", path, want);
    }
    size_t got = fread(d, 1, want, f);
    fclose(f);
    if (got != want) {
        free(d);
        return czk_error(CZK_ERR_IO, "%s: read %zu of %zu bytes", path, got, want);
    }
    *out = d;
    return CZK_OK;
}
