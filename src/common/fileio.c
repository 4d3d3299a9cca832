/* Files czk writes (README.md, "Files czk writes"): a temporary beside the
 * target under an open-file-description lock, fsync'ed and renamed; dead
 * writers' temporaries reclaimed; the free space checked first. Also czk's
 * cache directory. */
#define _GNU_SOURCE
#include "common/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "czk/czk.h"

/* ---- names ---------------------------------------------------------------------------- */

static int all_digits(const char *s, size_t n)
{
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return 0;
    return 1;
}

int czk__temp_name(const char *name, size_t *base_len)
{
    /* the last ".tmp." followed by digits, optionally ".digits", to the end */
    size_t n = strlen(name);
    for (size_t i = n; i-- > 0;) {
        if (name[i] != '.' || i + 5 > n || memcmp(name + i, ".tmp.", 5) != 0) continue;
        const char *t = name + i + 5, *dot = strchr(t, '.');
        size_t tl = n - (i + 5);
        int ok = dot ? all_digits(t, (size_t)(dot - t)) && all_digits(dot + 1, strlen(dot + 1)) : all_digits(t, tl);
        if (!ok || i == 0) return 0;
        *base_len = i;
        return 1;
    }
    return 0;
}

/* dir (or ".") and the last component of path, in buffers of n bytes. */
static czk_status split_path(const char *path, char *dir, char *base, size_t n)
{
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) : 0;
    const char *b = slash ? slash + 1 : path;
    if (dl >= n || strlen(b) >= n || !*b) return czk_error(CZK_ERR_INVALID_ARG, "%s: not a file path", path);
    if (!slash)
        snprintf(dir, n, ".");
    else if (dl == 0)
        snprintf(dir, n, "/");
    else
        memcpy(dir, path, dl), dir[dl] = 0;
    snprintf(base, n, "%s", b);
    return CZK_OK;
}

/* ---- the fault hooks (tests only) ----------------------------------------------------- */

#ifdef CZK_FAULT_INJECTION
/* CZK_FAULT=POINT:MATCH[:BYTES]: this process kills itself (SIGKILL) at POINT
 * of the write of a target whose path contains MATCH. POINT is "write" (once
 * the temporary holds BYTES bytes), "commit" (the temporary complete and
 * synced, before the rename) or "renamed" (just after the rename). */
static int fault_spec(const char *point, const char *path, uint64_t *bytes)
{
    const char *s = getenv("CZK_FAULT");
    size_t pl = strlen(point);
    if (!s || strncmp(s, point, pl) != 0 || s[pl] != ':') return 0;
    char match[512];
    const char *m = s + pl + 1, *colon = strchr(m, ':');
    size_t ml = colon ? (size_t)(colon - m) : strlen(m);
    if (ml == 0 || ml >= sizeof match) return 0;
    memcpy(match, m, ml);
    match[ml] = 0;
    if (!strstr(path, match)) return 0;
    *bytes = colon ? strtoull(colon + 1, NULL, 10) : 0;
    return 1;
}

static void fault_at(const czk__afile *f, const char *point)
{
    uint64_t b;
    if (fault_spec(point, f->path, &b)) raise(SIGKILL);
}

/* How many of the next n bytes may be written before the "write" point. */
static size_t fault_room(const czk__afile *f, size_t n, int *kill_after)
{
    uint64_t b;
    *kill_after = 0;
    if (!fault_spec("write", f->path, &b) || f->written + n < b) return n;
    *kill_after = 1;
    return b > f->written ? (size_t)(b - f->written) : 0;
}

int czk__fault_built(void) { return 1; }
#else
static void fault_at(const czk__afile *f, const char *point) { (void)f, (void)point; }
static size_t fault_room(const czk__afile *f, size_t n, int *kill_after)
{
    (void)f;
    *kill_after = 0;
    return n;
}
int czk__fault_built(void) { return 0; }
#endif

/* ---- reclaim -------------------------------------------------------------------------- */

/* Remove dirfd/name when it is a regular file no writer holds locked.
 * 1 when removed (*bytes its size). */
static int reclaim_one(int dirfd, const char *name, uint64_t *bytes)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat a, b;
    int gone = 0;
    /* a shared lock conflicts with a live writer's exclusive one; the
     * writer checks after locking that its name still leads to its file */
    struct flock l = {.l_type = F_RDLCK, .l_whence = SEEK_SET};
    if (fstat(fd, &a) == 0 && S_ISREG(a.st_mode) && fcntl(fd, F_OFD_SETLK, &l) == 0 &&
        fstatat(dirfd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
        unlinkat(dirfd, name, 0) == 0) {
        *bytes = (uint64_t)a.st_size;
        gone = 1;
    }
    close(fd);
    return gone;
}

/* Every temporary in dir (of base only, when base is not NULL) whose
 * writer is gone. */
static czk_status reclaim(const char *dir, const char *base, uint64_t *files, uint64_t *bytes)
{
    if (files) *files = 0;
    if (bytes) *bytes = 0;
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT) return CZK_OK;
        return czk_error(CZK_ERR_IO, "%s: cannot list: %s", dir, strerror(errno));
    }
    size_t bl = base ? strlen(base) : 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l;
        if (!czk__temp_name(de->d_name, &l) || (base && (l != bl || memcmp(de->d_name, base, bl) != 0))) continue;
        uint64_t sz = 0;
        if (reclaim_one(dirfd(d), de->d_name, &sz)) {
            if (files) (*files)++;
            if (bytes) *bytes += sz;
        }
    }
    closedir(d);
    return CZK_OK;
}

czk_status czk_reclaim_temps(const char *dir, uint64_t *files, uint64_t *bytes)
{
    return reclaim(dir, NULL, files, bytes);
}

/* ---- free space ----------------------------------------------------------------------- */

czk_status czk__space_check(const char *path, uint64_t need)
{
    char dir[4096], base[4096];
    CZK_TRY(split_path(path, dir, base, sizeof dir));
    struct statvfs v;
    if (need == 0) return CZK_OK;
    if (statvfs(dir, &v) != 0) { /* a missing directory is said now, not after the work */
        if (errno == ENOENT || errno == ENOTDIR)
            return czk_error(CZK_ERR_IO, "%s: cannot create: %s: %s", path, dir, strerror(errno));
        return CZK_OK; /* the writes themselves will say */
    }
    uint64_t avail = (uint64_t)v.f_bavail * (uint64_t)(v.f_frsize ? v.f_frsize : v.f_bsize);
    if (avail >= need) return CZK_OK;
    return czk_error(CZK_ERR_IO, "%s: not enough free space: %llu bytes (%.2f GB) needed, %llu bytes (%.2f GB) free in %s",
                     path, (unsigned long long)need, (double)need / 1e9, (unsigned long long)avail,
                     (double)avail / 1e9, dir);
}

/* ---- the writer ----------------------------------------------------------------------- */

static void afile_free(czk__afile *f)
{
    free(f->path);
    free(f->tmp);
    f->path = f->tmp = NULL;
    f->fd = -1;
    f->stream = NULL;
}

static int lock_unsupported(int e) { return e == EINVAL || e == ENOLCK || e == EOPNOTSUPP || e == ENOSYS; }

czk_status czk__afile_open(czk__afile *f, const char *path, uint64_t need)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    char dir[4096], base[4096];
    CZK_TRY(split_path(path, dir, base, sizeof dir));
    CZK_TRY(reclaim(dir, base, NULL, NULL));
    CZK_TRY(czk__space_check(path, need));
    size_t plen = strlen(path) + 48;
    f->path = strdup(path);
    f->tmp = malloc(plen);
    if (!f->path || !f->tmp) {
        afile_free(f);
        return czk_error(CZK_ERR_NOMEM, "%s: temporary name", path);
    }
    for (unsigned n = 0, tries = 0; tries < 1000; tries++) {
        if (n == 0)
            snprintf(f->tmp, plen, "%s.tmp.%ld", path, (long)getpid());
        else
            snprintf(f->tmp, plen, "%s.tmp.%ld.%u", path, (long)getpid(), n);
        int fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) {
            if (errno == EEXIST) { /* another thread's write of the same target */
                n++;
                continue;
            }
            czk_status s = czk_error(CZK_ERR_IO, "%s: cannot create %s: %s", path, f->tmp, strerror(errno));
            afile_free(f);
            return s;
        }
        struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        int r;
        while ((r = fcntl(fd, F_OFD_SETLKW, &l)) != 0 && errno == EINTR) {
        }
        if (r != 0 && !lock_unsupported(errno)) {
            czk_status s = czk_error(CZK_ERR_IO, "%s: cannot lock %s: %s", path, f->tmp, strerror(errno));
            close(fd);
            unlink(f->tmp);
            afile_free(f);
            return s;
        }
        /* a reclaim between the create and the lock may have removed it */
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(f->tmp, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            f->fd = fd;
            return CZK_OK;
        }
        close(fd);
    }
    afile_free(f);
    return czk_error(CZK_ERR_IO, "%s: no free temporary name beside it", path);
}

static czk_status put(czk__afile *f, const uint8_t *p, size_t n, int positional, uint64_t off)
{
    int kill_after;
    size_t room = fault_room(f, n, &kill_after);
    for (size_t done = 0; done < room;) {
        size_t k = room - done > ((size_t)1 << 30) ? (size_t)1 << 30 : room - done;
        ssize_t r = positional ? pwrite(f->fd, p + done, k, (off_t)(off + done)) : write(f->fd, p + done, k);
        if (r < 0) {
            if (errno == EINTR) continue;
            f->err = errno;
            return czk_error(CZK_ERR_IO, "%s: write at byte offset %llu: %s", f->path,
                             (unsigned long long)(positional ? off + done : f->written), strerror(errno));
        }
        done += (size_t)r;
        if (!positional) f->written += (uint64_t)r;
    }
    if (kill_after) raise(SIGKILL);
    return CZK_OK;
}

czk_status czk__afile_write(czk__afile *f, const void *p, size_t n)
{
    if (f->stream && fflush(f->stream) != 0)
        return czk_error(CZK_ERR_IO, "%s: write: %s", f->path, strerror(f->err ? f->err : errno));
    return put(f, p, n, 0, 0);
}

czk_status czk__afile_pwrite(czk__afile *f, const void *p, size_t n, uint64_t off)
{
    if (f->stream && fflush(f->stream) != 0)
        return czk_error(CZK_ERR_IO, "%s: write: %s", f->path, strerror(f->err ? f->err : errno));
    return put(f, p, n, 1, off);
}

static ssize_t cookie_write(void *c, const char *buf, size_t n)
{
    czk__afile *f = c;
    if (put(f, (const uint8_t *)buf, n, 0, 0) != CZK_OK) {
        errno = f->err;
        return -1;
    }
    return (ssize_t)n;
}

static int cookie_seek(void *c, off64_t *pos, int whence)
{
    czk__afile *f = c;
    off_t r = lseek(f->fd, (off_t)*pos, whence);
    if (r < 0) return -1;
    *pos = r;
    return 0;
}

czk_status czk__afile_open_stream(czk__afile *f, FILE **stream, const char *path, uint64_t need)
{
    *stream = NULL;
    CZK_TRY(czk__afile_open(f, path, need));
    cookie_io_functions_t io = {.read = NULL, .write = cookie_write, .seek = cookie_seek, .close = NULL};
    f->stream = fopencookie(f, "w", io);
    if (!f->stream) {
        czk__afile_abort(f);
        return czk_error(CZK_ERR_NOMEM, "%s: stream", path);
    }
    *stream = f->stream;
    return CZK_OK;
}

/* fsync of a directory: what makes a rename or an unlink in it durable. */
static czk_status sync_dir(const char *dir, const char *path)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return czk_error(CZK_ERR_IO, "%s: cannot open its directory %s: %s", path, dir, strerror(errno));
    int r = fsync(fd), e = errno;
    close(fd);
    if (r != 0 && e != EINVAL && e != EROFS)
        return czk_error(CZK_ERR_IO, "%s: fsync of its directory %s: %s", path, dir, strerror(e));
    return CZK_OK;
}

czk_status czk__afile_commit(czk__afile *f, const char *const *retire, size_t n_retire)
{
    czk_status s = CZK_OK;
    if (f->stream) {
        int bad = fflush(f->stream) != 0 || ferror(f->stream);
        fclose(f->stream); /* the cookie has no close: fd stays open */
        f->stream = NULL;
        if (bad || f->err) s = czk_error(CZK_ERR_IO, "%s: write: %s", f->path, strerror(f->err ? f->err : EIO));
    } else if (f->err) {
        s = czk_error(CZK_ERR_IO, "%s: write: %s", f->path, strerror(f->err));
    }
    if (s == CZK_OK && fsync(f->fd) != 0) s = czk_error(CZK_ERR_IO, "%s: fsync: %s", f->path, strerror(errno));
    char dir[4096], base[4096];
    if (s == CZK_OK) s = split_path(f->path, dir, base, sizeof dir);
    if (s == CZK_OK) fault_at(f, "commit");
    int removed = 0;
    for (size_t i = 0; s == CZK_OK && i < n_retire; i++) {
        if (unlink(retire[i]) == 0)
            removed = 1;
        else if (errno != ENOENT)
            s = czk_error(CZK_ERR_IO, "%s: cannot remove %s before replacing the set: %s", f->path, retire[i],
                          strerror(errno));
    }
    /* the removals reach the disk before the rename can */
    if (s == CZK_OK && removed) s = sync_dir(dir, f->path);
    if (s == CZK_OK && rename(f->tmp, f->path) != 0)
        s = czk_error(CZK_ERR_IO, "%s: rename from %s: %s", f->path, f->tmp, strerror(errno));
    if (s != CZK_OK) {
        czk__afile_abort(f);
        return s;
    }
    fault_at(f, "renamed");
    s = sync_dir(dir, f->path);
    if (close(f->fd) != 0 && s == CZK_OK) s = czk_error(CZK_ERR_IO, "%s: close: %s", f->path, strerror(errno));
    afile_free(f);
    return s;
}

void czk__afile_abort(czk__afile *f)
{
    if (f->stream) fclose(f->stream);
    f->stream = NULL;
    if (f->fd >= 0) {
        close(f->fd);
        if (f->tmp) unlink(f->tmp);
    }
    afile_free(f);
}

czk_status czk__write_atomic_set(const char *path, const void *const *chunks, const size_t *lens, size_t nchunks,
                                 const char *const *retire, size_t n_retire)
{
    uint64_t need = 0;
    for (size_t i = 0; i < nchunks; i++) need += lens[i];
    czk__afile f;
    CZK_TRY(czk__afile_open(&f, path, need));
    for (size_t i = 0; i < nchunks; i++) {
        czk_status s = czk__afile_write(&f, chunks[i], lens[i]);
        if (s != CZK_OK) {
            czk__afile_abort(&f);
            return s;
        }
    }
    return czk__afile_commit(&f, retire, n_retire);
}

czk_status czk__write_atomic(const char *path, const void *const *chunks, const size_t *lens, size_t nchunks)
{
    return czk__write_atomic_set(path, chunks, lens, nchunks, NULL, 0);
}

/* ---- the cache directory and reads ---------------------------------------------------- */

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
czk_status czk__mkdirs_made(const char *dir, unsigned mode, int *made)
{
    char tmp[4096];
    size_t w = strlen(dir);
    if (made) *made = 0;
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
    if (mkdir(tmp, (mode_t)mode) == 0) {
        if (made) *made = 1;
    } else if (errno != EEXIST) {
        return czk_error(CZK_ERR_IO, "%s: cannot create: %s", tmp, strerror(errno));
    }
    if (stat(tmp, &sb) != 0 || !S_ISDIR(sb.st_mode)) return czk_error(CZK_ERR_IO, "%s: not a directory", tmp);
    return CZK_OK;
}

czk_status czk_mkdirs(const char *dir, unsigned mode) { return czk__mkdirs_made(dir, mode, NULL); }

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
