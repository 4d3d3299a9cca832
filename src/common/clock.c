/* The clocks every timer in czk reads: wall time (monotonic) and the CPU
 * time of the whole process. */
#include "czk/common.h"

#include <time.h>

static double seconds_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double czk_now(void) { return seconds_of(CLOCK_MONOTONIC); }

double czk_cpu_now(void) { return seconds_of(CLOCK_PROCESS_CPUTIME_ID); }
