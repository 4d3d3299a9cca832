/* czk_fuzz_seeds OUTDIR [TARGET...]: write the seed corpus of each target
 * (all by default) to OUTDIR/<target>/seed-<i>. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "czk/common.h"
#include "czk/czk.h"
#include "fuzz_targets.h"

typedef struct writer {
    char dir[4096];
    int count, failed;
} writer;

static void write_seed(void *ctx, const uint8_t *d, size_t n)
{
    writer *w = ctx;
    char path[4200];
    snprintf(path, sizeof path, "%s/seed-%d", w->dir, w->count++);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(d, 1, n, f) != n) {
        fprintf(stderr, "czk_fuzz_seeds: cannot write %s: %s\n", path, strerror(errno));
        w->failed = 1;
    }
    if (f) fclose(f);
}

static int gen(const char *out, const char *target)
{
    writer w = {.count = 0, .failed = 0};
    snprintf(w.dir, sizeof w.dir, "%s/%s", out, target);
    if (mkdir(w.dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "czk_fuzz_seeds: cannot create %s: %s\n", w.dir, strerror(errno));
        return 1;
    }
    int n = czk_fuzz_seeds(target, write_seed, &w);
    if (n < 0 || w.failed) {
        fprintf(stderr, "czk_fuzz_seeds: %s: seeds failed: %s\n", target, czk_last_error());
        return 1;
    }
    printf("%-22s %d seeds\n", target, n);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: czk_fuzz_seeds OUTDIR [TARGET...]\n");
        return 2;
    }
    czk_init();
    if (mkdir(argv[1], 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "czk_fuzz_seeds: cannot create %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    int rc = 0;
    if (argc == 2)
        for (size_t i = 0; i < czk_fuzz_n_targets; i++) rc |= gen(argv[1], czk_fuzz_targets[i].name);
    for (int i = 2; i < argc; i++) {
        if (!czk_fuzz_target_find(argv[i])) {
            fprintf(stderr, "czk_fuzz_seeds: no target '%s'\n", argv[i]);
            return 2;
        }
        rc |= gen(argv[1], argv[i]);
    }
    return rc;
}
