#define _XOPEN_SOURCE 700 /* nftw */
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <omp.h>

#include "cmdline.h"

static void getopt_reset(void)
{
    optind = 0; /* glibc: 0 forces a full re-initialisation */
    opterr = 0;
}

int czk_cli_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "czk %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s", usage ? usage : "");
    return CZK_EXIT_USAGE;
}

int czk_cli_fail(const char *cmd, czk_status s, const char *what)
{
    const char *msg = czk_last_error();
    fprintf(stderr, "czk %s: %s: %s\n", cmd, what, msg && *msg ? msg : czk_status_str(s));
    return CZK_EXIT_FAIL;
}

int czk_cli_parse_hex32(uint8_t out[32], const char *s)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    if (strlen(s) != 64) return -1;
    for (int i = 0; i < 64; i++) {
        char ch = s[i];
        int v = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
              : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
        if (v < 0) return -1;
        if (i % 2 == 0) out[i / 2] = (uint8_t)(v << 4);
        else out[i / 2] |= (uint8_t)v;
    }
    return 0;
}

int czk_cli_parse_int(const char *s, long long min, long long max, long long *out)
{
    if (!s || !*s) return -1;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 0);
    if (errno || *end || v < min || v > max) return -1;
    *out = v;
    return 0;
}

int czk_cli_opt_u64(unsigned long long *out, const char *arg, const char *flag, const char *cmd, const char *usage)
{
    long long v;
    if (czk_cli_parse_int(arg, 0, INT64_MAX, &v))
        return czk_cli_usage_error(cmd, usage, "%s wants a non-negative integer, got '%s'", flag, arg);
    *out = (unsigned long long)v;
    return 0;
}

int czk_cli_opt_size(unsigned long long *out, const char *arg, const char *flag, const char *cmd, const char *usage)
{
    if (czk_cli_parse_size(arg, out)) return czk_cli_usage_error(cmd, usage, "%s: cannot parse '%s'", flag, arg);
    return 0;
}

int czk_cli_parse_size(const char *s, unsigned long long *out)
{
    if (!s || !*s || *s == '-') return -1;
    if (s[0] == '2' && s[1] == '^') {
        long long e;
        if (czk_cli_parse_int(s + 2, 0, 63, &e)) return -1;
        *out = 1ULL << e;
        return 0;
    }
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s) return -1;
    unsigned long long mul = 1;
    if (*end) {
        char u = (char)toupper((unsigned char)*end);
        if (u == 'K') mul = 1ULL << 10;
        else if (u == 'M') mul = 1ULL << 20;
        else if (u == 'G') mul = 1ULL << 30;
        else if (u == 'T') mul = 1ULL << 40;
        else return -1;
        end++;
        if (!strcasecmp(end, "iB") || !strcasecmp(end, "B")) end += strlen(end);
        if (*end) return -1;
    }
    if (v > ~0ULL / mul) return -1;
    *out = v * mul;
    return 0;
}

int czk_cli_parse(int argc, char **argv, const char *cmd, const char *usage,
                  const struct option *opts, void *ctx, czk_cli_opt_fn fn,
                  czk_cli_common *common, int *first_positional)
{
    struct option all[96];
    char shorts[200];
    size_t na = 0, ns = 0;
    shorts[ns++] = '+'; /* stop at the first positional (e.g. `--` in czk diff) */
    shorts[ns++] = ':';
    for (const struct option *o = opts; o && o->name; o++) {
        if (na >= 90) break;
        all[na++] = *o;
        if (o->val > 0 && o->val < 128 && ns + 3 < sizeof shorts) {
            shorts[ns++] = (char)o->val;
            if (o->has_arg == required_argument) shorts[ns++] = ':';
        }
    }
    all[na++] = (struct option){"threads", required_argument, 0, CZK_OPT_THREADS};
    all[na++] = (struct option){"json", no_argument, 0, CZK_OPT_JSON};
    all[na++] = (struct option){"quiet", no_argument, 0, CZK_OPT_QUIET};
    all[na++] = (struct option){"help", no_argument, 0, CZK_OPT_HELP};
    all[na] = (struct option){0, 0, 0, 0};
    shorts[ns++] = 'h';
    shorts[ns] = 0;
    memset(common, 0, sizeof *common);
    getopt_reset();
    int opt;
    long long v;
    while ((opt = getopt_long(argc, argv, shorts, all, NULL)) != -1) {
        int rc = 0;
        switch (opt) {
        case CZK_OPT_THREADS:
            if (czk_cli_parse_int(optarg, 1, 4096, &v))
                return czk_cli_usage_error(cmd, usage,
                                           "--threads wants a number from 1 to 4096, got '%s'", optarg);
            common->threads = (int)v;
            break;
        case CZK_OPT_JSON: common->json = 1; break;
        case CZK_OPT_QUIET: common->quiet = 1; break;
        case CZK_OPT_HELP:
        case 'h':
            fputs(usage, stdout);
            return CZK_EXIT_OK;
        case ':':
            return czk_cli_usage_error(cmd, usage, "option '%s' needs a value", argv[optind - 1]);
        case '?':
            return czk_cli_usage_error(cmd, usage, "unknown option '%s'", argv[optind - 1]);
        default:
            rc = fn ? fn(ctx, opt, optarg) : czk_cli_usage_error(cmd, usage, "unexpected option");
            if (rc) return rc;
        }
    }
    if (optind < argc) {
        if (!first_positional)
            return czk_cli_usage_error(cmd, usage, "unexpected argument '%s'", argv[optind]);
        *first_positional = optind;
    } else if (first_positional) {
        *first_positional = argc;
    }
    czk_cli_apply_common(common);
    return CZK_CLI_CONTINUE;
}

void czk_cli_apply_common(const czk_cli_common *c)
{
    if (c->threads > 0) czk_set_threads(c->threads);
    else omp_set_num_threads(czk_threads());
}

int czk_cli_progress_enabled(const czk_cli_common *c)
{
    return !c->quiet && !c->json && isatty(STDERR_FILENO);
}

const char *czk_cli_self_path(void)
{
    static char path[4096];
    if (!path[0]) {
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        if (n <= 0) return NULL;
        path[n] = 0;
    }
    return path;
}

czk_status czk_cli_scratch_dir(char *out, size_t cap, const char *tag)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    int n = snprintf(out, cap, "%s/czk-%s-XXXXXX", base, tag);
    if (n < 0 || (size_t)n >= cap) return czk_error(CZK_ERR_INVALID_ARG, "TMPDIR %s: path too long", base);
    if (!mkdtemp(out)) return czk_error(CZK_ERR_IO, "%s: cannot make a scratch folder: %s", out, strerror(errno));
    return CZK_OK;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)flag, (void)f;
    return remove(path) ? -1 : 0;
}

int czk_cli_remove_tree(const char *dir)
{
    /* depth first (children before their folder), not crossing mounts, links not followed */
    return nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}
