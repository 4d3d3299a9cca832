/* libFuzzer harness: one binary per target, CZK_FUZZ_TARGET names it
 * (fuzz/CMakeLists.txt builds fuzz_<target> for every entry of the table in
 * fuzz_targets.c). */
#include <stdlib.h>

#include "czk/czk.h"
#include "fuzz_targets.h"

#ifndef CZK_FUZZ_TARGET
#error "build with -DCZK_FUZZ_TARGET=<target>"
#endif
#define CZK_FUZZ_CAT2(a, b) a##b
#define CZK_FUZZ_CAT(a, b) CZK_FUZZ_CAT2(a, b)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    /* Parsers that validate points in parallel run on one thread: libFuzzer
     * runs are per-process and threads only add noise. */
    setenv("OMP_NUM_THREADS", "1", 0);
    czk_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return CZK_FUZZ_CAT(czk_fuzz_, CZK_FUZZ_TARGET)(data, size);
}
