/* A one-line progress display on stderr: "stage  42.0%  1.2k/s  ETA 3s".
 * Drawn only when enabled (a terminal, not --quiet, not --json); at most ten
 * redraws a second. */
#ifndef CZK_CMDLINE_PROGRESS_H
#define CZK_CMDLINE_PROGRESS_H

#include <stdint.h>

typedef struct czk_progress {
    int enabled;
    char stage[64];
    double start, last_draw;
    uint64_t total;
    const char *unit;
} czk_progress;

void czk_progress_init(czk_progress *p, int enabled);
/* Begin a stage with `total` units (0: unknown) named `unit` ("constraints"). */
void czk_progress_stage(czk_progress *p, const char *stage, uint64_t total, const char *unit);
void czk_progress_update(czk_progress *p, uint64_t done);
/* Fraction-based update (total unknown in units). */
void czk_progress_fraction(czk_progress *p, const char *stage, double fraction);
/* Erase the line. */
void czk_progress_done(czk_progress *p);
/* The library's progress callback (czk_progress_fn, czk/kind.h) drawing on
 * ctx, a czk_progress: a fraction of 1 ends the stage. */
void czk_progress_cb(void *ctx, const char *stage, double fraction);

#endif
