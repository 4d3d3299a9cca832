#include "bench.h"

#include "czk/czk.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void czk_bench_stats_of(czk_bench_stats *s, double *v, size_t n)
{
    memset(s, 0, sizeof *s);
    if (n == 0) return;
    qsort(v, n, sizeof *v, cmp_double);
    s->n = n;
    s->min = v[0];
    s->max = v[n - 1];
    s->median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += v[i];
    s->mean = sum / (double)n;
}

void czk_bench_print_config(FILE *f, int json, const char *extra_key, const char *extra_val)
{
    czk_cpu_info cpu;
    czk_cpu_info_get(&cpu);
    const char *impl = czk_field_impl_name(czk_field_impl());
    if (json) {
        fprintf(f, "\"config\":{\"czk\":\"%s\",\"compiler\":\"%s\",\"flags\":\"%s\",\"cpu\":\"%s\","
                   "\"adx\":%s,\"threads\":%d,\"field_impl\":\"%s\",\"ifma\":%s",
                CZK_VERSION_STRING, czk_build_compiler(), czk_build_flags(), cpu.brand,
                cpu.adx && cpu.bmi2 ? "true" : "false", czk_threads(), impl, czk_field_ifma() ? "true" : "false");
        if (extra_key) fprintf(f, ",\"%s\":\"%s\"", extra_key, extra_val);
        fprintf(f, "}");
        return;
    }
    fprintf(f, "# czk %s, %s, %s\n", CZK_VERSION_STRING, czk_build_compiler(), czk_build_type());
    fprintf(f, "# flags: %s\n", czk_build_flags());
    fprintf(f, "# cpu: %s (ADX %s), threads %d, field impl %s, IFMA kernels %s\n", cpu.brand,
            cpu.adx && cpu.bmi2 ? "yes" : "no", czk_threads(), impl, czk_field_ifma() ? "on" : "off");
    if (extra_key) fprintf(f, "# %s: %s\n", extra_key, extra_val);
}

unsigned long long czk_bench_peak_rss(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
    return (unsigned long long)ru.ru_maxrss * 1024ULL;
}

/* Seconds since this process started: CLOCK_BOOTTIME now minus field 22 of
 * /proc/self/stat (clock ticks after boot); -1 where /proc is missing. */
static double process_age(void)
{
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f) return -1;
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    if (!p) return -1;
    unsigned long long start = 0;
    int field = 2; /* the ')' ends field 2 */
    for (p++; *p && field < 22; p++)
        if (*p == ' ') field++;
    if (field != 22 || sscanf(p, "%llu", &start) != 1) return -1;
    long hz = sysconf(_SC_CLK_TCK);
    struct timespec ts;
    if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &ts) != 0) return -1;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 - (double)start / (double)hz;
}

static unsigned long long read_bytes(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    if (!f) return 0;
    char line[128];
    unsigned long long v = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "read_bytes: %llu", &v) == 1) break;
    fclose(f);
    return v;
}

void czk_bench_usage_get(czk_bench_usage *u)
{
    memset(u, 0, sizeof *u);
    static double first = -1; /* fallback clock origin: the first call */
    double now = czk_now();
    if (first < 0) first = now;
    double age = process_age();
    u->wall_s = age >= 0 ? age : now - first;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        u->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
        u->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
        u->minor_faults = (unsigned long long)ru.ru_minflt;
        u->major_faults = (unsigned long long)ru.ru_majflt;
        u->peak_rss = (unsigned long long)ru.ru_maxrss * 1024ULL;
    }
    u->read_bytes = read_bytes();
}

void czk_bench_usage_sub(czk_bench_usage *d, const czk_bench_usage *b, const czk_bench_usage *a)
{
    d->wall_s = b->wall_s - a->wall_s;
    d->user_s = b->user_s - a->user_s;
    d->sys_s = b->sys_s - a->sys_s;
    d->minor_faults = b->minor_faults - a->minor_faults;
    d->major_faults = b->major_faults - a->major_faults;
    d->read_bytes = b->read_bytes - a->read_bytes;
    d->peak_rss = b->peak_rss;
}

void czk_bench_usage_print(FILE *f, int json, const char *label, const czk_bench_usage *u)
{
    if (json) {
        fprintf(f,
                "\"%s\":{\"wall_s\":%.3f,\"user_s\":%.3f,\"sys_s\":%.3f,\"minor_faults\":%llu,"
                "\"major_faults\":%llu,\"peak_rss_bytes\":%llu,\"read_bytes\":%llu}",
                label, u->wall_s, u->user_s, u->sys_s, u->minor_faults, u->major_faults, u->peak_rss, u->read_bytes);
        return;
    }
    fprintf(f,
            "# %s: wall %.2f s, user %.2f s, sys %.2f s, minor faults %llu, major faults %llu, peak RSS %.2f GiB, "
            "read %.2f GiB\n",
            label, u->wall_s, u->user_s, u->sys_s, u->minor_faults, u->major_faults,
            (double)u->peak_rss / 1073741824.0, (double)u->read_bytes / 1073741824.0);
}

double czk_bench_mem_available(void)
{
    czk_memory_info mi;
    czk_memory_probe(&mi);
    return (double)mi.available;
}

const char *czk_bench_fmt_time(char buf[32], double s)
{
    if (s >= 1.0) snprintf(buf, 32, "%.3f s", s);
    else if (s >= 1e-3) snprintf(buf, 32, "%.3f ms", s * 1e3);
    else if (s >= 1e-6) snprintf(buf, 32, "%.3f us", s * 1e6);
    else snprintf(buf, 32, "%.2f ns", s * 1e9);
    return buf;
}
