/* Files czk writes: one atomic writer for all of them, the reclaim of dead
 * writers' temporary files, the free-space check (README.md of this folder,
 * "Files czk writes"). */
#ifndef CZK_COMMON_FILEIO_H
#define CZK_COMMON_FILEIO_H

#include <stdio.h>

#include "czk/common.h"

/* A file being written under a temporary name beside its target,
 * "<path>.tmp.<pid>" (".<n>" added when that name is taken), created
 * exclusively and held under an exclusive open-file-description lock
 * (F_OFD_SETLKW) until it is renamed or removed: a temporary whose lock is
 * free belongs to a writer that died, and any writer of the same target,
 * or czk_reclaim_temps, removes it. Fields are the writer's; read written
 * only. */
typedef struct czk__afile {
    int fd;           /* the temporary file; -1 when closed */
    FILE *stream;     /* czk__afile_stream's FILE over fd, or NULL */
    uint64_t written; /* bytes written (through either interface) */
    int err;          /* errno of the first failed write through the stream */
    char *path;       /* the target */
    char *tmp;        /* the temporary name */
} czk__afile;

/* Remove the dead writers' temporaries of path, check that its file system
 * has need bytes free (0: no check), create and lock the temporary. On
 * error nothing is created and the message names path. */
czk_status czk__afile_open(czk__afile *f, const char *path, uint64_t need) CZK_WUR;
/* Append n bytes; on error the message names path, the byte offset and
 * errno's text ("write at byte offset N: No space left on device"). */
czk_status czk__afile_write(czk__afile *f, const void *p, size_t n) CZK_WUR;
/* n bytes at offset off (a header patched once the counts are known). */
czk_status czk__afile_pwrite(czk__afile *f, const void *p, size_t n, uint64_t off) CZK_WUR;
/* czk__afile_open, and *stream = a stdio stream over the temporary (for
 * fprintf / json_dumpf writers), owned by f (commit / abort close it);
 * seeks move the file offset. On error nothing is left open. */
czk_status czk__afile_open_stream(czk__afile *f, FILE **stream, const char *path, uint64_t need) CZK_WUR;
/* Flush, fsync the file, remove each of retire[0..n_retire) (the members
 * of a multi-file output that complete it: a crash after this point leaves
 * the set visibly incomplete, never old and new members mixed), rename the
 * temporary over path, fsync the directory, close. On error before the
 * rename the temporary is removed and path is untouched; f is cleared
 * either way. */
czk_status czk__afile_commit(czk__afile *f, const char *const *retire, size_t n_retire) CZK_WUR;
/* Give up: close and remove the temporary (nothing at path changes).
 * Safe on a cleared or failed-to-open f. */
void czk__afile_abort(czk__afile *f);

/* The concatenation of nchunks buffers to path through the writer above
 * (its free space checked first); retire as in czk__afile_commit (may be
 * NULL with n_retire 0). */
czk_status czk__write_atomic_set(const char *path, const void *const *chunks, const size_t *lens, size_t nchunks,
                                 const char *const *retire, size_t n_retire) CZK_WUR;
czk_status czk__write_atomic(const char *path, const void *const *chunks, const size_t *lens,
                             size_t nchunks) CZK_WUR;

/* CZK_ERR_IO naming path, the bytes needed and the bytes free when path's
 * directory's file system has fewer than need bytes available (statvfs
 * f_bavail: what an unprivileged writer may use). */
czk_status czk__space_check(const char *path, uint64_t need) CZK_WUR;

/* 1 when name is a temporary of this writer's form, "<base>.tmp.<digits>"
 * or "<base>.tmp.<digits>.<digits>"; *base_len = strlen(<base>). */
int czk__temp_name(const char *name, size_t *base_len);

/* 1 when the CZK_FAULT hooks are compiled in (CMake CZK_FAULT_INJECTION). */
int czk__fault_built(void);

/* *out = the whole of the regular file at path, which must be exactly want
 * bytes (why says why, for the message); CZK_ERR_IO / CZK_ERR_FORMAT /
 * CZK_ERR_NOMEM naming the file. The caller frees *out. */
/* czk_mkdirs, and *made: 1 when this call created dir itself (so that a
 * writer that fails afterwards can remove it again). */
czk_status czk__mkdirs_made(const char *dir, unsigned mode, int *made) CZK_WUR;
czk_status czk__read_exact(uint8_t **out, const char *path, size_t want, const char *why) CZK_WUR;

#endif
