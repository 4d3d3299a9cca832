/* Internal file helpers shared by the modules that write files. */
#ifndef CZK_COMMON_FILEIO_H
#define CZK_COMMON_FILEIO_H

#include "czk/common.h"

/* Write the concatenation of nchunks buffers to `path` atomically: to
 * "<path>.tmp.<pid>" first, fsync, then rename over path. On failure the
 * temporary file is removed and path is untouched. */
czk_status czk__write_atomic(const char *path, const void *const *chunks, const size_t *lens,
                             size_t nchunks) CZK_WUR;

#endif
