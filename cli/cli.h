/* czk command-line tool: the subcommand registry.
 *
 * Each subcommand lives in its own cli/cmd_<name>.c and registers itself:
 *
 *   static int run(int argc, char **argv) { ... }
 *   CZK_CLI_COMMAND(version, "print version, build and CPU information", run)
 *
 * `czk bench <name>` is bench/'s (bench/bench.h); option parsing, exit codes,
 * progress and sector-shape options are cmdline/'s, shared with bench/.
 */
#ifndef CZK_CLI_H
#define CZK_CLI_H

#include "cmdline.h"

typedef int (*czk_cli_fn)(int argc, char **argv);

void czk__cli_register(const char *name, const char *summary, czk_cli_fn fn);

#define CZK_CLI_COMMAND(name, summary, fn)                                              \
    __attribute__((constructor)) static void czk_cli_reg_##name(void)                   \
    {                                                                                   \
        czk__cli_register(#name, summary, fn);                                          \
    }

#endif
