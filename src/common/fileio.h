/* Internal file helpers shared by the modules that write and read files. */
#ifndef CZK_COMMON_FILEIO_H
#define CZK_COMMON_FILEIO_H

#include "czk/common.h"

/* Write the concatenation of nchunks buffers to `path` atomically: to
 * "<path>.tmp.<pid>" first, fsync, then rename over path. On failure the
 * temporary file is removed and path is untouched. */
czk_status czk__write_atomic(const char *path, const void *const *chunks, const size_t *lens,
                             size_t nchunks) CZK_WUR;

/* *out = the whole of the regular file at path, which must be exactly want
 * bytes (why says why, for the message); CZK_ERR_IO / CZK_ERR_FORMAT /
 * CZK_ERR_NOMEM naming the file. The caller frees *out. */
czk_status czk__read_exact(uint8_t **out, const char *path, size_t want, const char *why) CZK_WUR;

#endif
