/* Internal to src/filecoin: what its JSON readers (post-KIND.json,
 * snap.json) share over jansson. */
#ifndef CZK_FILECOIN_JSON_FILE_H
#define CZK_FILECOIN_JSON_FILE_H

#include <jansson.h>

#include "czk/czk.h"

/* The file at path parsed whole, a duplicate key refused: CZK_ERR_IO
 * "PATH: cannot open", CZK_ERR_FORMAT "PATH: line L column C: why". */
czk_status czk__json_load(json_t **out, const char *path) CZK_WUR;
/* 32 bytes from an array of 32 integers 0..255; errors name path and key
 * (and the element). */
czk_status czk__json_bytes32(uint8_t out[32], const json_t *a, const char *path, const char *key) CZK_WUR;

#endif
