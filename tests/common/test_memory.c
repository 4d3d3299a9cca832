/* czk_memory_probe over made-up /proc and /sys trees: cgroup v2 and v1
 * limits, the smallest one on the way up, a container's mount root, no
 * cgroup at all. The real system's case (a daemon in a cgroup made for it)
 * is tests/cli/test_cli_crash.sh. */
#include <stdlib.h>
#include <sys/stat.h>

#include "runner.h"

#include "common/memory.h"

static void put(const char *root, const char *rel, const char *text)
{
    char p[4096];
    snprintf(p, sizeof p, "%s%s", root, rel);
    char cmd[8400];
    char out[64];
    /* mkdir -p of the file's directory */
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", p);
    czk_test_run(out, sizeof out, "%s", cmd);
    FILE *f = fopen(p, "w");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static const char *fresh_root(const char *name)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", czk_test_tmpdir(), name);
    mkdir(buf, 0755);
    return buf;
}

#define MEMINFO "MemTotal:        8388608 kB\nMemFree:         1000 kB\nMemAvailable:    4194304 kB\n"

CZK_TEST(memory_cgroup_v2_smallest_on_the_way_up)
{
    const char *r = fresh_root("v2");
    put(r, "/proc/meminfo", MEMINFO);
    put(r, "/proc/self/cgroup", "0::/system.slice/czk.service\n");
    put(r, "/proc/self/mountinfo",
        "22 1 0:20 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw,nsdelegate\n"
        "23 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n");
    put(r, "/sys/fs/cgroup/system.slice/czk.service/memory.max", "max\n");
    put(r, "/sys/fs/cgroup/system.slice/memory.max", "2147483648\n");
    put(r, "/sys/fs/cgroup/system.slice/memory.current", "536870912\n");
    czk_memory_info m;
    czk__memory_probe_at(&m, r);
    CHECK_EQ_U64(m.mem_total, 8ull << 30);
    CHECK_EQ_U64(m.limit, 2ull << 30);
    CHECK_EQ_U64(m.cgroup, 2ull << 30);
    CHECK_MSG(!strcmp(m.source, "cgroup v2 /sys/fs/cgroup/system.slice/memory.max"), "source: %s", m.source);
    CHECK_EQ_U64(m.available, (2ull << 30) - (512ull << 20)); /* the cgroup's room, below MemAvailable */
    /* a tighter limit deeper down wins */
    put(r, "/sys/fs/cgroup/system.slice/czk.service/memory.max", "1073741824\n");
    czk__memory_probe_at(&m, r);
    CHECK_EQ_U64(m.limit, 1ull << 30);
    CHECK_MSG(!strcmp(m.source, "cgroup v2 /sys/fs/cgroup/system.slice/czk.service/memory.max"), "source: %s",
              m.source);
    /* a limit above MemTotal: MemTotal is the limit, the cgroup's is still reported */
    put(r, "/sys/fs/cgroup/system.slice/czk.service/memory.max", "max\n");
    put(r, "/sys/fs/cgroup/system.slice/memory.max", "17179869184\n");
    czk__memory_probe_at(&m, r);
    CHECK_EQ_U64(m.limit, 8ull << 30);
    CHECK_EQ_U64(m.cgroup, 16ull << 30);
    CHECK_MSG(!strcmp(m.source, "MemTotal"), "source: %s", m.source);
    CHECK_EQ_U64(m.available, 4ull << 30);
}

/* A container: the cgroup namespace (or a bind mount) shows the process's
 * cgroup as the mount's root; a mount point with a space, escaped. */
CZK_TEST(memory_cgroup_v2_container_root)
{
    const char *r = fresh_root("ct");
    put(r, "/proc/meminfo", MEMINFO);
    put(r, "/proc/self/cgroup", "0::/docker/abc\n");
    put(r, "/proc/self/mountinfo", "30 20 0:26 /docker/abc /sys/fs/my\\040cg ro - cgroup2 cgroup rw\n");
    put(r, "/sys/fs/my cg/memory.max", "3221225472\n");
    czk_memory_info m;
    czk__memory_probe_at(&m, r);
    CHECK_EQ_U64(m.limit, 3ull << 30);
    CHECK_MSG(!strcmp(m.source, "cgroup v2 /sys/fs/my cg/memory.max"), "source: %s", m.source);
}

CZK_TEST(memory_cgroup_v1)
{
    const char *r = fresh_root("v1");
    put(r, "/proc/meminfo", MEMINFO);
    put(r, "/proc/self/cgroup", "5:cpu,cpuacct:/x\n4:memory:/batch/job7\n0::/\n");
    put(r, "/proc/self/mountinfo",
        "25 22 0:22 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
        "26 22 0:23 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
        "27 22 0:24 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n");
    put(r, "/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
    put(r, "/sys/fs/cgroup/memory/batch/memory.limit_in_bytes", "9223372036854771712\n");
    put(r, "/sys/fs/cgroup/memory/batch/job7/memory.limit_in_bytes", "1610612736\n");
    put(r, "/sys/fs/cgroup/memory/batch/job7/memory.usage_in_bytes", "1073741824\n");
    czk_memory_info m;
    czk__memory_probe_at(&m, r);
    CHECK_EQ_U64(m.limit, 1536ull << 20);
    CHECK_MSG(!strcmp(m.source, "cgroup v1 /sys/fs/cgroup/memory/batch/job7/memory.limit_in_bytes"), "source: %s",
              m.source);
    CHECK_EQ_U64(m.available, 512ull << 20);
    /* v1's "unlimited" everywhere: MemTotal */
    put(r, "/sys/fs/cgroup/memory/batch/job7/memory.limit_in_bytes", "9223372036854771712\n");
    czk__memory_probe_at(&m, r);
    CHECK_EQ_U64(m.limit, 8ull << 30);
    CHECK_EQ_U64(m.cgroup, 0);
    CHECK_MSG(!strcmp(m.source, "MemTotal"), "source: %s", m.source);
}

CZK_TEST(memory_no_cgroup_files)
{
    const char *r = fresh_root("none");
    put(r, "/proc/meminfo", MEMINFO);
    czk_memory_info m;
    czk__memory_probe_at(&m, r);
    CHECK_EQ_U64(m.limit, 8ull << 30);
    CHECK_EQ_U64(m.available, 4ull << 30);
    CHECK_MSG(!strcmp(m.source, "MemTotal"), "source: %s", m.source);
    /* nothing readable at all: a stated default, never 0 */
    czk__memory_probe_at(&m, fresh_root("empty"));
    CHECK_EQ_U64(m.limit, 4ull << 30);
    CHECK_MSG(!strcmp(m.source, "default"), "source: %s", m.source);
    /* this machine: a limit no larger than MemTotal, and a source */
    czk_memory_probe(&m);
    CHECK(m.limit > 0 && m.mem_total > 0 && m.limit <= m.mem_total && m.source[0]);
}
