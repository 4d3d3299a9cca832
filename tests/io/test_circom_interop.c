/* czk <-> snarkjs interoperability on real circom circuits: runs
 * tests/circom/run_interop.sh (fixtures built with circom2 and snarkjs from
 * ./node_modules, cached under the build directory). Fails, never skips,
 * when node / snarkjs / circom2 / circomlib are missing
 * (scripts/install-npm-deps installs them). The fixtures are cached in
 * $CZK_CIRCOM_FIXTURES, default <source>/.cache/circom-fixtures (shared by the
 * Release and sanitizer builds; rebuilt when the circuits change). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "runner.h"

CZK_TEST(snarkjs_interop)
{
    if (getenv("CZK_TEST_ASAN") && getenv("CZK_SKIP_INTEROP")) {
        printf("snarkjs_interop: skipped in the sanitizer run (CZK_SKIP_INTEROP)\n");
        return;
    }
    const char *cli = czk_test_cli();
    REQUIRE(cli && cli[0]);
    char fix[2048], cmd[4096];
    const char *env = getenv("CZK_CIRCOM_FIXTURES");
    if (env && env[0]) snprintf(fix, sizeof fix, "%s", env);
    else snprintf(fix, sizeof fix, "%s/.cache/circom-fixtures", CZK_SOURCE_DIR);
    snprintf(cmd, sizeof cmd, "'%s/tests/circom/run_interop.sh' '%s' '%s' 2>&1", CZK_SOURCE_DIR, fix, cli);
    FILE *p = popen(cmd, "r");
    REQUIRE(p);
    char line[1024];
    while (fgets(line, sizeof line, p)) fputs(line, stdout);
    int rc = pclose(p);
    CHECK_MSG(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "run_interop.sh failed (status %d)", rc);
}
