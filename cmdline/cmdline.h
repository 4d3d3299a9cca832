/* What every czk subcommand (cli/) and every benchmark (bench/) shares on the
 * command line: the exit codes, the common options, getopt_long parsing with
 * usage errors that name the argument, value parsers, and the path of this
 * executable. The functions keep the czk_cli_ prefix: they are the
 * command-line interface's conventions, whoever calls them.
 *
 * Exit codes: 0 success, 1 failure, 2 usage error (CZK_EXIT_*).
 */
#ifndef CZK_CMDLINE_H
#define CZK_CMDLINE_H

#include <getopt.h>
#include <stdio.h>

#include "czk/czk.h"

#define CZK_EXIT_OK 0
#define CZK_EXIT_FAIL 1
#define CZK_EXIT_USAGE 2

/* Options every subcommand and benchmark accepts. */
typedef struct czk_cli_common {
    int threads; /* 0 = default */
    int json;
    int quiet;
    int help;
} czk_cli_common;

/* Long-option ids for the common flags; command-specific long-only options
 * should use ids from CZK_OPT_FIRST_FREE on. */
enum { CZK_OPT_THREADS = 1000, CZK_OPT_JSON, CZK_OPT_QUIET, CZK_OPT_HELP, CZK_OPT_FIRST_FREE = 1100 };

/* Called for each command-specific option; returns 0, or a usage error via
 * czk_cli_usage_error(). */
typedef int (*czk_cli_opt_fn)(void *ctx, int opt, const char *arg);

/* Parse argv (argv[0] is the command name) with getopt_long. `opts` holds the
 * command's own options, terminated by {0}; short options are those whose val
 * is a printable character. --threads/--json/--quiet/--help are added. Unknown
 * options and missing values are usage errors naming the argument.
 * Positional arguments are rejected unless first_positional is non-NULL, in
 * which case it receives the index of the first one in argv.
 * Returns CZK_CLI_CONTINUE to go on, CZK_EXIT_OK after printing --help
 * (to stdout), or CZK_EXIT_USAGE. */
#define CZK_CLI_CONTINUE (-1)
int czk_cli_parse(int argc, char **argv, const char *cmd, const char *usage,
                  const struct option *opts, void *ctx, czk_cli_opt_fn fn,
                  czk_cli_common *common, int *first_positional);

/* Print "czk CMD: message" and the usage text to stderr; return CZK_EXIT_USAGE. */
int czk_cli_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Print "czk CMD: <message>: <czk_last_error()>" to stderr; return CZK_EXIT_FAIL. */
int czk_cli_fail(const char *cmd, czk_status s, const char *what);

/* Apply --threads (sets czk's thread count and OpenMP's). */
void czk_cli_apply_common(const czk_cli_common *c);

/* Parsers for flag values; return 0 on success, -1 on a malformed value. */
int czk_cli_parse_int(const char *s, long long min, long long max, long long *out);
/* "2^20", "1048576", "1M" (binary multipliers K, M, G; also KiB/MiB/GiB) */
int czk_cli_parse_size(const char *s, unsigned long long *out);
/* A non-negative integer option (--seed, --miner-id) into *out: 0, or the
 * usage error (exit code) "FLAG wants a non-negative integer, got 'ARG'". */
int czk_cli_opt_u64(unsigned long long *out, const char *arg, const char *flag, const char *cmd, const char *usage);
/* A size option (--sector-size, --nodes: czk_cli_parse_size's forms) into
 * *out: 0, or the usage error "FLAG: cannot parse 'ARG'". */
int czk_cli_opt_size(unsigned long long *out, const char *arg, const char *flag, const char *cmd, const char *usage);
/* 64 hex digits (an optional 0x first) into 32 bytes. */
int czk_cli_parse_hex32(uint8_t out[32], const char *s);

/* Whether progress lines may be drawn: stderr is a terminal, not --quiet, not --json. */
int czk_cli_progress_enabled(const czk_cli_common *c);

/* Absolute path of this executable (for running it again), or NULL. */
const char *czk_cli_self_path(void);

/* A new private scratch folder "$TMPDIR/czk-<tag>-XXXXXX" (TMPDIR unset or
 * empty: /tmp) into out; CZK_ERR_IO with the folder named when it cannot be made. */
czk_status czk_cli_scratch_dir(char *out, size_t cap, const char *tag) CZK_WUR;
/* Remove a folder and everything under it (symbolic links are removed, not
 * followed); 0, or -1 with errno when something stayed. */
int czk_cli_remove_tree(const char *dir);

#endif
