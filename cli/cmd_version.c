#include <omp.h>
#include <string.h>

#include "cli.h"
#include "common/fileio.h"

static const char usage[] =
    "usage: czk version [--json]\n\n"
    "Print czk's version, the compiler and flags it was built with, the CPU\n"
    "features in use (ADX/BMI2/AVX2/AVX-512 IFMA), the field implementation selected and the\n"
    "thread count.\n";

static int run(int argc, char **argv)
{
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "version", usage, NULL, NULL, NULL, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_cpu_info cpu;
    czk_cpu_info_get(&cpu);
    const char *impl = czk_field_impl_name(czk_field_impl());
    if (c.json) {
        printf("{\"version\":\"%s\",\"compiler\":\"%s\",\"build_type\":\"%s\",\"flags\":\"%s\","
               "\"cpu\":{\"vendor\":\"%s\",\"brand\":\"%s\",\"family\":%u,\"model\":%u,"
               "\"adx\":%s,\"bmi2\":%s,\"avx2\":%s,\"avx512ifma\":%s,\"online\":%d},"
               "\"field_impl\":\"%s\",\"ifma_kernels\":%s,\"threads\":%d,\"fault_hooks\":%s}\n",
               CZK_VERSION_STRING, czk_build_compiler(), czk_build_type(), czk_build_flags(),
               cpu.vendor, cpu.brand, cpu.family, cpu.model, cpu.adx ? "true" : "false",
               cpu.bmi2 ? "true" : "false", cpu.avx2 ? "true" : "false", cpu.avx512ifma ? "true" : "false",
               cpu.online_cpus, impl, czk_field_ifma() ? "true" : "false", czk_threads(),
               czk__fault_built() ? "true" : "false");
        return CZK_EXIT_OK;
    }
    printf("czk %s\n", CZK_VERSION_STRING);
    printf("compiler:    %s (%s)\n", czk_build_compiler(), czk_build_type());
    printf("flags:       %s\n", czk_build_flags());
    printf("cpu:         %s (%s family 0x%x model 0x%x), %d online\n", cpu.brand, cpu.vendor,
           cpu.family, cpu.model, cpu.online_cpus);
    printf("features:    ADX %s, BMI2 %s, AVX2 %s, AVX-512 IFMA %s\n", cpu.adx ? "yes" : "no",
           cpu.bmi2 ? "yes" : "no", cpu.avx2 ? "yes" : "no", cpu.avx512ifma ? "yes" : "no");
    printf("field impl:  %s\n", impl);
    printf("ifma kernels: %s\n", czk_field_ifma() ? "on" : czk_field_ifma_built() ? "off (CPU or CZK_IFMA=off)"
                                                                                : "off (not built)");
    printf("threads:     %d\n", czk_threads());
    printf("fault hooks: %s\n", czk__fault_built() ? "on (CZK_FAULT; a test build)" : "off");
    return CZK_EXIT_OK;
}

CZK_CLI_COMMAND(version, "print version, build flags, CPU features and thread count", run)
