/* The atomic writer (src/common/fileio.c): content, the temporary's name,
 * the lock that tells a live writer's temporary from a dead one's, the
 * reclaim, the free-space check, multi-file sets. The crash and
 * full-disk cases of every czk command are tests/cli/test_cli_crash.sh. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner.h"

#include "common/fileio.h"
#include "czk/czk.h"

static const char *tpath(const char *name)
{
    static char buf[8][4096];
    static int k;
    char *b = buf[k++ & 7];
    snprintf(b, 4096, "%s/%s", czk_test_tmpdir(), name);
    return b;
}

static int exists(const char *p)
{
    struct stat st;
    return lstat(p, &st) == 0;
}

static long long size_of(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? (long long)st.st_size : -1;
}

static void put_file(const char *p, const char *text)
{
    FILE *f = fopen(p, "wb");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static int slurp_eq(const char *p, const char *want)
{
    char buf[256] = "";
    FILE *f = fopen(p, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strcmp(buf, want) == 0;
}

/* Files in the test's directory whose name has ".tmp.". */
static int temps_left(void)
{
    char out[4096];
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -c '\\.tmp\\.'", czk_test_tmpdir());
    czk_test_run(out, sizeof out, "%s", cmd);
    return atoi(out);
}

CZK_TEST(fileio_temp_names)
{
    size_t bl = 0;
    CHECK(czk__temp_name("a.params.tmp.123", &bl) && bl == 8);
    CHECK(czk__temp_name("a.params.tmp.123.4", &bl) && bl == 8);
    CHECK(czk__temp_name("x.tmp.1.tmp.7", &bl) && bl == 7);
    CHECK(!czk__temp_name("a.params.tmp.", &bl));
    CHECK(!czk__temp_name("a.params.tmp.12a", &bl));
    CHECK(!czk__temp_name("a.params.tmp.12.", &bl));
    CHECK(!czk__temp_name("a.params.tmp", &bl));
    CHECK(!czk__temp_name("a.tmpl.3", &bl));
    CHECK(!czk__temp_name(".tmp.3", &bl));
    CHECK(!czk__temp_name("a.params", &bl));
}

CZK_TEST(fileio_write_and_no_temp_left)
{
    const char *p = tpath("w.bin");
    const void *chunks[3] = {"ab", "", "cde"};
    const size_t lens[3] = {2, 0, 3};
    REQUIRE_OK(czk__write_atomic(p, chunks, lens, 3));
    CHECK(slurp_eq(p, "abcde"));
    CHECK_EQ_U64(temps_left(), 0);
    /* the stream interface, a header patched at offset 0 */
    czk__afile f;
    FILE *s;
    REQUIRE_OK(czk__afile_open_stream(&f, &s, p, 10));
    fprintf(s, "....%d", 1234);
    CHECK_OK(czk__afile_pwrite(&f, "HEAD", 4, 0));
    fprintf(s, "!");
    CHECK(exists(f.tmp));
    CHECK(slurp_eq(p, "abcde")); /* the target untouched until the commit */
    REQUIRE_OK(czk__afile_commit(&f, NULL, 0));
    CHECK(slurp_eq(p, "HEAD1234!"));
    CHECK_EQ_U64(temps_left(), 0);
    /* abort: nothing changes */
    REQUIRE_OK(czk__afile_open(&f, p, 0));
    CHECK_OK(czk__afile_write(&f, "zzz", 3));
    czk__afile_abort(&f);
    CHECK(slurp_eq(p, "HEAD1234!"));
    CHECK_EQ_U64(temps_left(), 0);
    czk__afile_abort(&f); /* twice is harmless */
}

/* A dead writer's temporary (no lock) goes; a live one's (locked through
 * another open file description, as another process or thread holds it)
 * stays; other names are never touched. */
CZK_TEST(fileio_reclaim_dead_not_live)
{
    const char *dir = tpath("rc");
    REQUIRE(mkdir(dir, 0755) == 0);
    char dead[4096], live[4096], p[4096];
    snprintf(p, sizeof p, "%s/t.params", dir);
    snprintf(dead, sizeof dead, "%s/t.params.tmp.999999", dir);
    snprintf(live, sizeof live, "%s/t.params.tmp.999998.2", dir);
    put_file(dead, "0123456789");
    put_file(live, "live");
    int fd = open(live, O_RDWR | O_CLOEXEC);
    REQUIRE(fd >= 0);
    struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    REQUIRE(fcntl(fd, F_OFD_SETLK, &l) == 0);
    static const char *const others[] = {"t.params.tmp", "t.params.tmp.12a", "u.tmpl.3", "t.params"};
    for (size_t i = 0; i < 4; i++) {
        char q[4200];
        snprintf(q, sizeof q, "%s/%s", dir, others[i]);
        put_file(q, "keep");
    }
    char d2[4200], sl[4200];
    snprintf(d2, sizeof d2, "%s/d.tmp.5", dir);
    snprintf(sl, sizeof sl, "%s/s.tmp.6", dir);
    REQUIRE(mkdir(d2, 0755) == 0);
    REQUIRE(symlink(dead, sl) == 0);

    /* a write of the target removes its dead temporary first */
    const void *c = "new";
    size_t n = 3;
    REQUIRE_OK(czk__write_atomic(p, &c, &n, 1));
    CHECK(!exists(dead));
    CHECK(exists(live));
    CHECK(slurp_eq(p, "new"));
    /* the directory-wide reclaim, as czk serve runs it at start */
    put_file(dead, "0123456789");
    uint64_t files = 9, bytes = 9;
    REQUIRE_OK(czk_reclaim_temps(dir, &files, &bytes));
    CHECK_EQ_U64(files, 1);
    CHECK_EQ_U64(bytes, 10);
    CHECK(!exists(dead));
    CHECK(exists(live));
    CHECK(exists(d2) && exists(sl));
    for (size_t i = 0; i < 4; i++) {
        char q[4200];
        snprintf(q, sizeof q, "%s/%s", dir, others[i]);
        CHECK_MSG(exists(q), "%s removed", others[i]);
    }
    /* the live writer dies: its lock goes with it */
    close(fd);
    REQUIRE_OK(czk_reclaim_temps(dir, &files, &bytes));
    CHECK_EQ_U64(files, 1);
    CHECK_EQ_U64(bytes, 4);
    CHECK(!exists(live));
    /* a missing directory is nothing to reclaim */
    REQUIRE_OK(czk_reclaim_temps(tpath("no-such-dir"), &files, &bytes));
    CHECK_EQ_U64(files, 0);
}

/* Two writers of one target in one process: the second takes another
 * name and leaves the first's temporary alone; the last commit wins. */
CZK_TEST(fileio_two_writers_one_target)
{
    const char *p = tpath("two.bin");
    czk__afile a, b;
    REQUIRE_OK(czk__afile_open(&a, p, 0));
    REQUIRE_OK(czk__afile_open(&b, p, 0));
    CHECK(strcmp(a.tmp, b.tmp) != 0);
    CHECK(exists(a.tmp) && exists(b.tmp));
    CHECK_OK(czk__afile_write(&a, "first", 5));
    CHECK_OK(czk__afile_write(&b, "second", 6));
    REQUIRE_OK(czk__afile_commit(&a, NULL, 0));
    CHECK(slurp_eq(p, "first"));
    REQUIRE_OK(czk__afile_commit(&b, NULL, 0));
    CHECK(slurp_eq(p, "second"));
    CHECK_EQ_U64(temps_left(), 0);
}

CZK_TEST(fileio_free_space_checked_first)
{
    const char *p = tpath("huge.params");
    czk__afile f;
    const uint64_t need = 1ull << 62;
    CHECK(czk__afile_open(&f, p, need) == CZK_ERR_IO);
    const char *m = czk_last_error();
    CHECK_MSG(strstr(m, p) && strstr(m, "not enough free space") && strstr(m, "4611686018427387904 bytes") &&
                  strstr(m, "free in"),
              "message: %s", m);
    CHECK(!exists(p));
    CHECK_EQ_U64(temps_left(), 0);
    CHECK_OK(czk__space_check(p, 1));
    CHECK_OK(czk__space_check(p, 0));
}

/* A set: the member that completes it is removed when the first of the
 * others is committed, and written last. */
CZK_TEST(fileio_set_retires_the_marker)
{
    const char *data = tpath("set.bin"), *marker = tpath("set.json");
    put_file(data, "old data");
    put_file(marker, "old marker");
    czk__afile f;
    REQUIRE_OK(czk__afile_open(&f, data, 0));
    CHECK_OK(czk__afile_write(&f, "new data", 8));
    CHECK(exists(marker)); /* still the old, complete set */
    const char *retire[2] = {marker, tpath("never-there")};
    REQUIRE_OK(czk__afile_commit(&f, retire, 2));
    CHECK(slurp_eq(data, "new data"));
    CHECK(!exists(marker)); /* new data, no marker: visibly incomplete */
    const void *c = "new marker";
    size_t n = 10;
    REQUIRE_OK(czk__write_atomic(marker, &c, &n, 1));
    CHECK(slurp_eq(marker, "new marker"));
    /* a write that fails before its commit retires nothing */
    CHECK(czk__write_atomic_set(tpath("no-such-dir/set.bin"), &c, &n, 1, retire, 1) == CZK_ERR_IO);
    CHECK(slurp_eq(marker, "new marker"));
    CHECK_EQ_U64(size_of(data), 8);
}

CZK_TEST(fileio_errors_name_the_file)
{
    const void *c = "x";
    size_t n = 1;
    CHECK(czk__write_atomic("/nonexistent-dir/out.bin", &c, &n, 1) == CZK_ERR_IO);
    CHECK_MSG(strstr(czk_last_error(), "/nonexistent-dir/out.bin: cannot create"), "message: %s", czk_last_error());
    /* a directory where the target should be: the rename fails, no temporary stays */
    const char *d = tpath("adir");
    REQUIRE(mkdir(d, 0755) == 0);
    char inner[4200];
    snprintf(inner, sizeof inner, "%s/f", d);
    put_file(inner, "x");
    CHECK(czk__write_atomic(d, &c, &n, 1) == CZK_ERR_IO);
    CHECK_MSG(strstr(czk_last_error(), d) && strstr(czk_last_error(), "rename"), "message: %s", czk_last_error());
    CHECK_EQ_U64(temps_left(), 0);
}
