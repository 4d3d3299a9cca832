#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

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

double czk_bench_mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    double kb = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1) break;
    fclose(f);
    return kb * 1024.0;
}

const char *czk_bench_fmt_time(char buf[32], double s)
{
    if (s >= 1.0) snprintf(buf, 32, "%.3f s", s);
    else if (s >= 1e-3) snprintf(buf, 32, "%.3f ms", s * 1e3);
    else if (s >= 1e-6) snprintf(buf, 32, "%.3f us", s * 1e6);
    else snprintf(buf, 32, "%.2f ns", s * 1e9);
    return buf;
}
