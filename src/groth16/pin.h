/* Checksum sidecars ("pins"): a file validated once in full is recorded in
 * "<file>.czkcheck" (size, mtime, a SHA-256 over the file's blocks), and a
 * later read that finds a matching sidecar and the same checksum may skip
 * the expensive checks (subgroup tests). Used by .params (params.c, its own
 * block layout: one block per 32768 points) and .zkey files (fixed blocks,
 * czk__pin_digest_buf). Internal to czk. Trust model: src/groth16/README.md.
 *
 * Sidecar text, written atomically:
 *
 *   <magic> <version>
 *   size <bytes>
 *   mtime <seconds>.<nanoseconds>
 *   hash <hash name> <64 hex digits>
 *   <free lines: what was validated, counts>
 */
#ifndef CZK_GROTH16_PIN_H
#define CZK_GROTH16_PIN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "czk/common.h"

#define CZK__PIN_DIGEST 32
#define CZK__PIN_SUFFIX ".czkcheck"

/* What a sidecar records. */
typedef struct czk__pin {
    uint64_t size;
    long long mt_s;
    long mt_ns;
    uint8_t digest[CZK__PIN_DIGEST];
} czk__pin;

/* The format a caller reads and writes: magic, version and hash name must
 * all match for a sidecar to be used. */
typedef struct czk__pin_format {
    const char *magic;
    int version;
    const char *hash;
} czk__pin_format;

/* SHA-256 of n bytes (OpenSSL's libcrypto: the CPU's SHA extensions where
 * present); all zero if libcrypto fails (never matches a recorded digest). */
void czk__pin_sha256(uint8_t out[CZK__PIN_DIGEST], const void *d, size_t n);
/* root = SHA-256(domain || u64 le size || leaves[0..nb)): the file checksum
 * from its block digests. */
void czk__pin_root(uint8_t out[CZK__PIN_DIGEST], const char *domain, uint64_t size, const uint8_t *leaves,
                   size_t nb);
/* The checksum of a whole in-memory file: blocks of `block` bytes hashed on
 * `threads` threads (0: all), then czk__pin_root. */
void czk__pin_digest_buf(uint8_t out[CZK__PIN_DIGEST], const char *domain, const uint8_t *buf, size_t len,
                         size_t block, int threads);

/* 1: the sidecar at scpath parsed in format f into *pin; 0: missing,
 * unreadable, malformed or of another format, with why (a sentence naming
 * scpath) set. */
int czk__pin_load(czk__pin *pin, const char *scpath, const czk__pin_format *f, char *why, size_t whylen);
/* 1 if the file's size and mtime (st) are those recorded. */
int czk__pin_fresh(const czk__pin *pin, const struct stat *st);
/* 1 if the file has the recorded size but another mtime: copied without its
 * times, touched, or rewritten with the same bytes. A reader that computes
 * the checksum anyway may still accept the pin when the checksum matches
 * (and record the new mtime); one that cannot afford a late mismatch (the
 * streamed reader) treats it as stale. */
int czk__pin_moved(const czk__pin *pin, const struct stat *st);
/* Record st's size and mtime and the digest at scpath (atomically), then
 * `extra` (lines ending in a newline; may be NULL). */
czk_status czk__pin_write(const char *scpath, const czk__pin_format *f, const struct stat *st,
                          const uint8_t digest[CZK__PIN_DIGEST], const char *extra) CZK_WUR;

#endif
