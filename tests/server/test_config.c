/* czk serve's configuration file (czk_serve_config_*): the defaults, every
 * key of cuzk's and czk's, sizes and durations good and bad, errors that
 * name the file, line, key and value (unknown keys and sections, wrong
 * types, out-of-range numbers, TOML syntax, a missing file), one warning
 * per ignored cuzk key, a failed load leaving the configuration as it was,
 * the mapping to the service's options, and docs/examples/czk.toml. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/engine.h"
#include "server/server.h"

/* Warnings collected by load(). */
typedef struct {
    int n;
    char msg[16][512];
} warnings;

static void collect(void *ctx, const char *msg)
{
    warnings *w = ctx;
    if (w->n < 16) snprintf(w->msg[w->n], sizeof w->msg[0], "%s", msg);
    w->n++;
}

/* Write text to <tmpdir>/name and return its path (static storage). */
static const char *write_file(const char *name, const char *text)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", czk_test_tmpdir(), name);
    FILE *f = fopen(path, "w");
    if (!f) return NULL;
    fputs(text, f);
    fclose(f);
    return path;
}

/* Load text as czk.toml over a fresh default configuration. */
static czk_status load(czk_serve_config *c, warnings *w, const char *text)
{
    czk_serve_config_init(c);
    memset(w, 0, sizeof *w);
    const char *path = write_file("czk.toml", text);
    if (!path) return CZK_ERR_IO;
    return czk_serve_config_load(c, path, collect, w);
}

/* load() must fail with st and a message containing each of the strings. */
#define CHECK_FAILS(st, text, ...)                                                                      \
    do {                                                                                                \
        czk_serve_config c_;                                                                            \
        warnings w_;                                                                                    \
        czk_status got_ = load(&c_, &w_, text);                                                         \
        CHECK_MSG(got_ == (st), "%s: status %d, wanted %d (%s)", text, got_, st, czk_last_error());     \
        const char *want_[] = {__VA_ARGS__};                                                            \
        for (size_t i_ = 0; i_ < sizeof want_ / sizeof *want_; i_++)                                    \
            CHECK_MSG(strstr(czk_last_error(), want_[i_]), "message '%s' lacks '%s'", czk_last_error(), \
                      want_[i_]);                                                                       \
        czk_serve_config_clear(&c_);                                                                    \
    } while (0)

CZK_TEST(defaults)
{
    czk_serve_config c;
    czk_serve_config_init(&c);
    REQUIRE(c.listen);
    CHECK(!strcmp(c.listen, "unix:///run/czk/czk.sock"));
    CHECK(c.status_listen == NULL);
    CHECK(c.param_cache == NULL);
    CHECK_EQ_U64(c.memory_total, 0);
    CHECK_EQ_U64(c.safety_margin, 5ull << 30);
    CHECK(c.eviction_min_idle_s == 300);
    CHECK(c.retention_s == 600);
    CHECK_EQ_U64(c.threads, 0);
    CHECK_EQ_U64(c.synth_workers, 0);
    CHECK_EQ_U64(c.batch, 1);
    CHECK(c.batch_wait_s == 10);
    CHECK_EQ_U64(c.critical_lane, 1);
    CHECK_EQ_U64(c.background_nice, 10);
    CHECK(c.pce == CZK_PCE_MODE_AUTO);
    CHECK(c.log_level == CZK_LOG_INFO);
    CHECK_EQ_U64(c.log_json, 0);
    CHECK(!c.tls_cert && !c.tls_key && !c.tls_client_ca);
    CHECK_EQ_U64(c.cancel_on_shutdown, 0);
    czk_serve_config_clear(&c);
    CHECK(c.listen == NULL);
    czk_serve_config_clear(&c); /* twice is fine */
}

CZK_TEST(empty_file_keeps_defaults)
{
    czk_serve_config c;
    warnings w;
    REQUIRE_OK(load(&c, &w, "# nothing\n"));
    CHECK(!strcmp(c.listen, "unix:///run/czk/czk.sock"));
    CHECK_EQ_U64(c.safety_margin, 5ull << 30);
    CHECK_EQ_U64(w.n, 0);
    czk_serve_config_clear(&c);
}

CZK_TEST(every_key)
{
    czk_serve_config c;
    warnings w;
    REQUIRE_OK(load(&c, &w,
                    "[daemon]\n"
                    "listen = \"127.0.0.1:9820\"\n"
                    "status_listen = \"[::1]:9821\"\n"
                    "result_retention = \"1h\"\n"
                    "cancel_on_shutdown = true\n"
                    "tls_cert = \"/etc/czk/server.pem\"\n"
                    "tls_key = \"/etc/czk/server.key\"\n"
                    "tls_client_ca = \"/etc/czk/clients.pem\"\n"
                    "[memory]\n"
                    "total_budget = \"256GiB\"\n"
                    "safety_margin = \"8GiB\"\n"
                    "eviction_min_idle = \"30s\"\n"
                    "[scheduler]\n"
                    "max_batch_size = 4\n"
                    "max_batch_wait_ms = 2500\n"
                    "critical_lane = false\n"
                    "background_nice = 4\n"
                    "[synthesis]\n"
                    "threads = 32\n"
                    "[pipeline]\n"
                    "synthesis_concurrency = 3\n"
                    "pce = \"on\"\n"
                    "[srs]\n"
                    "param_cache = \"/data/zk/params\"\n"
                    "[logging]\n"
                    "level = \"debug\"\n"
                    "format = \"json\"\n"));
    CHECK(!strcmp(c.listen, "127.0.0.1:9820"));
    CHECK(c.status_listen && !strcmp(c.status_listen, "[::1]:9821"));
    CHECK(c.retention_s == 3600);
    CHECK_EQ_U64(c.cancel_on_shutdown, 1);
    CHECK(c.tls_cert && !strcmp(c.tls_cert, "/etc/czk/server.pem"));
    CHECK(c.tls_key && !strcmp(c.tls_key, "/etc/czk/server.key"));
    CHECK(c.tls_client_ca && !strcmp(c.tls_client_ca, "/etc/czk/clients.pem"));
    CHECK_EQ_U64(c.memory_total, 256ull << 30);
    CHECK_EQ_U64(c.safety_margin, 8ull << 30);
    CHECK(c.eviction_min_idle_s == 30);
    CHECK_EQ_U64(c.batch, 4);
    CHECK(c.batch_wait_s == 2.5);
    CHECK_EQ_U64(c.critical_lane, 0);
    CHECK_EQ_U64(c.background_nice, 4);
    CHECK_EQ_U64(c.threads, 32);
    CHECK_EQ_U64(c.synth_workers, 3);
    CHECK(c.pce == CZK_PCE_MODE_ON);
    CHECK(c.param_cache && !strcmp(c.param_cache, "/data/zk/params"));
    CHECK(c.log_level == CZK_LOG_DEBUG);
    CHECK_EQ_U64(c.log_json, 1);
    CHECK_EQ_U64(w.n, 0);
    czk_serve_config_clear(&c);
}

/* One key's value, loaded over the defaults. */
static czk_status load_one(czk_serve_config *c, const char *section, const char *key, const char *value)
{
    char text[512];
    warnings w;
    snprintf(text, sizeof text, "[%s]\n%s = %s\n", section, key, value);
    return load(c, &w, text);
}

CZK_TEST(enum_values)
{
    static const struct { const char *v; czk_pce_mode m; } pce[] = {
        {"\"off\"", CZK_PCE_MODE_OFF}, {"\"on\"", CZK_PCE_MODE_ON}, {"\"auto\"", CZK_PCE_MODE_AUTO},
        {"\"AUTO\"", CZK_PCE_MODE_AUTO}, {"true", CZK_PCE_MODE_ON}, {"false", CZK_PCE_MODE_OFF},
    };
    czk_serve_config c;
    for (size_t i = 0; i < sizeof pce / sizeof *pce; i++) {
        CHECK_OK(load_one(&c, "pipeline", "pce", pce[i].v));
        CHECK_MSG(c.pce == pce[i].m, "pce = %s", pce[i].v);
        czk_serve_config_clear(&c);
    }
    static const struct { const char *v; czk_log_level l; } lv[] = {
        {"\"error\"", CZK_LOG_ERROR}, {"\"warn\"", CZK_LOG_WARN},   {"\"warning\"", CZK_LOG_WARN},
        {"\"info\"", CZK_LOG_INFO},   {"\"debug\"", CZK_LOG_DEBUG}, {"\"trace\"", CZK_LOG_DEBUG},
        {"\"INFO\"", CZK_LOG_INFO},
    };
    for (size_t i = 0; i < sizeof lv / sizeof *lv; i++) {
        CHECK_OK(load_one(&c, "logging", "level", lv[i].v));
        CHECK_MSG(c.log_level == lv[i].l, "level = %s", lv[i].v);
        czk_serve_config_clear(&c);
    }
    CHECK_OK(load_one(&c, "logging", "format", "\"text\""));
    CHECK_EQ_U64(c.log_json, 0);
    czk_serve_config_clear(&c);
    CHECK_OK(load_one(&c, "memory", "total_budget", "\"auto\""));
    CHECK_EQ_U64(c.memory_total, 0);
    czk_serve_config_clear(&c);
    CHECK_OK(load_one(&c, "daemon", "listen", "\"unix:///run/czk/other.sock\""));
    CHECK(!strcmp(c.listen, "unix:///run/czk/other.sock"));
    czk_serve_config_clear(&c);
    CHECK_OK(load_one(&c, "scheduler", "max_batch_wait_ms", "0"));
    CHECK(c.batch_wait_s == 0);
    czk_serve_config_clear(&c);
}

CZK_TEST(sizes)
{
    static const struct { const char *v; uint64_t bytes; } ok[] = {
        {"\"256GiB\"", 256ull << 30}, {"\"512MiB\"", 512ull << 20}, {"\"1.5TiB\"", 3ull << 39},
        {"\"4KiB\"", 4096},           {"\"1PiB\"", 1ull << 50},     {"\"5GB\"", 5000000000ull},
        {"\"100 MB\"", 100000000},    {"\"7kB\"", 7000},            {"\"7KB\"", 7000},
        {"\"123\"", 123},             {"\"123B\"", 123},            {"1073741824", 1ull << 30},
        {"\"0.5KiB\"", 512},          {"\"1.0001B\"", 1},         {"\"0.1kB\"", 100},
        {"\"0.3KB\"", 300},           {"\"1.1GB\"", 1100000000},  {"\"0.001KiB\"", 1},
        {"\"2.5MiB\"", 2621440},      {"\".5KiB\"", 512},         {"\"8192PiB\"", 1ull << 63},
        {"\"9223372036854775808\"", 1ull << 63}, {"\"0.000000000001PB\"", 1000},
        {"\"1.000000000000000000GB\"", 1000000000},
    };
    czk_serve_config c;
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        CHECK_OK(load_one(&c, "memory", "total_budget", ok[i].v));
        CHECK_MSG(c.memory_total == ok[i].bytes, "total_budget = %s: %llu, wanted %llu", ok[i].v,
                  (unsigned long long)c.memory_total, (unsigned long long)ok[i].bytes);
        czk_serve_config_clear(&c);
        CHECK_OK(load_one(&c, "memory", "safety_margin", ok[i].v));
        CHECK_MSG(c.safety_margin == ok[i].bytes, "safety_margin = %s", ok[i].v);
        czk_serve_config_clear(&c);
    }
    static const char *const bad[] = {
        "\"\"",      "\"GiB\"",    "\"-1GiB\"",  "\"0\"",        "\"0GiB\"",  "\"1e9\"",
        "\"1 GiBs\"", "\"1 Gb\"", "\"64gib\"", "\"0x10\"",   "\"16EiB\"",    "\"99999PiB\"", "0",         "-5",
        "1.5",       "true",       "[1]",        "\"12 GiB x\"", "\" 1GiB\"",    "\"1..5GiB\"", "\".GiB\"",
        "\"9223372036854775809\"", "\"0.0000000000000000001PB\"", "\"8192.001PiB\"", "\"18446744073709551616\"",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        czk_status st = load_one(&c, "memory", "safety_margin", bad[i]);
        CHECK_MSG(st == CZK_ERR_FORMAT, "safety_margin = %s accepted (status %d)", bad[i], st);
        CHECK_MSG(strstr(czk_last_error(), "czk.toml:2: memory.safety_margin = ") &&
                      strstr(czk_last_error(), "expected a size"),
                  "safety_margin = %s: message '%s'", bad[i], czk_last_error());
        czk_serve_config_clear(&c);
    }
    /* "auto" is for total_budget only */
    CHECK_FAILS(CZK_ERR_FORMAT, "[memory]\nsafety_margin = \"auto\"\n", "memory.safety_margin = \"auto\"");
}

CZK_TEST(durations)
{
    static const struct { const char *v; double s; } ok[] = {
        {"\"5m\"", 300},  {"\"30s\"", 30},  {"\"1h\"", 3600},    {"\"250ms\"", 0.25}, {"\"2d\"", 172800},
        {"\"1h30m\"", 5400}, {"\"1m 30s\"", 90}, {"\"1.5h\"", 5400}, {"\"90\"", 90},  {"45", 45},
        {"0.5", 0.5},
    };
    czk_serve_config c;
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        CHECK_OK(load_one(&c, "memory", "eviction_min_idle", ok[i].v));
        CHECK_MSG(c.eviction_min_idle_s > ok[i].s - 1e-9 && c.eviction_min_idle_s < ok[i].s + 1e-9,
                  "eviction_min_idle = %s: %g, wanted %g", ok[i].v, c.eviction_min_idle_s, ok[i].s);
        czk_serve_config_clear(&c);
        CHECK_OK(load_one(&c, "daemon", "result_retention", ok[i].v));
        CHECK_MSG(c.retention_s > ok[i].s - 1e-9 && c.retention_s < ok[i].s + 1e-9, "result_retention = %s",
                  ok[i].v);
        czk_serve_config_clear(&c);
    }
    static const char *const bad[] = {
        "\"\"", "\"5\u00b5s\"", "\"m\"", "\"5 minutes\"", "\"5M\"", "\"-5s\"", "\"0s\"", "\"0\"", "0", "-1",
        "true", "\"5m30\"", "\"100y\"", "\"99999d\"", "1e12", "\"1h-5m\"",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        czk_status st = load_one(&c, "memory", "eviction_min_idle", bad[i]);
        CHECK_MSG(st == CZK_ERR_FORMAT, "eviction_min_idle = %s accepted (status %d)", bad[i], st);
        CHECK_MSG(strstr(czk_last_error(), "czk.toml:2: memory.eviction_min_idle = ") &&
                      strstr(czk_last_error(), "expected a duration"),
                  "eviction_min_idle = %s: message '%s'", bad[i], czk_last_error());
        czk_serve_config_clear(&c);
    }
}

CZK_TEST(unknown_keys_and_sections)
{
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\nlisten = \"127.0.0.1:1\"\n\n[memory]\ntotl_budget = \"1GiB\"\n",
                "czk.toml:5: unknown key 'memory.totl_budget'", "did you mean 'memory.total_budget'");
    CHECK_FAILS(CZK_ERR_FORMAT, "\n\n[memry]\ntotal_budget = \"1GiB\"\n", "czk.toml:3: unknown section '[memry]'",
                "did you mean 'memory'");
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\nfrobnicate = 1\n", "czk.toml:2: unknown key 'daemon.frobnicate'");
    CHECK_FAILS(CZK_ERR_FORMAT, "listen = \"127.0.0.1:1\"\n", "czk.toml:1: unknown key 'listen'");
    CHECK_FAILS(CZK_ERR_FORMAT, "[gpus]\ndevices = [0]\nfast = true\n", "czk.toml:3: unknown key 'gpus.fast'");
    /* a deeper table inside a known section */
    CHECK_FAILS(CZK_ERR_FORMAT, "[memory.extra]\nx = 1\n", "czk.toml:1: unknown key 'memory.extra'");
    /* dotted keys at the top level are keys of their section */
    CHECK_FAILS(CZK_ERR_FORMAT, "memory.totl_budget = 1\n", "czk.toml:1: unknown key 'memory.totl_budget'");
    czk_serve_config c;
    warnings w;
    CHECK_OK(load(&c, &w, "memory.total_budget = \"2GiB\"\n"));
    CHECK_EQ_U64(c.memory_total, 2ull << 30);
    czk_serve_config_clear(&c);
    /* a section that is not a table */
    CHECK_FAILS(CZK_ERR_FORMAT, "memory = 5\n", "czk.toml:1: memory = 5: expected a table [memory]");
    CHECK_FAILS(CZK_ERR_FORMAT, "[[memory]]\ntotal_budget = 1\n", "memory", "expected a table [memory]");
}

CZK_TEST(wrong_types_and_ranges)
{
    CHECK_FAILS(CZK_ERR_FORMAT, "[scheduler]\nmax_batch_size = \"4\"\n",
                "czk.toml:2: scheduler.max_batch_size = \"4\": expected an integer from 1 to 64");
    CHECK_FAILS(CZK_ERR_FORMAT, "[scheduler]\nmax_batch_size = 0\n", "scheduler.max_batch_size = 0", "from 1 to");
    CHECK_FAILS(CZK_ERR_FORMAT, "[scheduler]\nmax_batch_size = 65\n", "scheduler.max_batch_size = 65");
    CHECK_FAILS(CZK_ERR_FORMAT, "[scheduler]\nbackground_nice = 20\n", "scheduler.background_nice = 20",
                "from 0 to 19");
    CHECK_FAILS(CZK_ERR_FORMAT, "[scheduler]\nbackground_nice = -1\n", "scheduler.background_nice = -1",
                "from 0 to 19");
    CHECK_FAILS(CZK_ERR_FORMAT, "[scheduler]\nmax_batch_wait_ms = -1\n", "scheduler.max_batch_wait_ms = -1");
    CHECK_FAILS(CZK_ERR_FORMAT, "[scheduler]\nmax_batch_wait_ms = 1.5\n", "scheduler.max_batch_wait_ms = 1.5");
    CHECK_FAILS(CZK_ERR_FORMAT, "[synthesis]\nthreads = -2\n", "czk.toml:2: synthesis.threads = -2");
    CHECK_FAILS(CZK_ERR_FORMAT, "[synthesis]\nthreads = 99999999999\n", "synthesis.threads = 99999999999");
    CHECK_FAILS(CZK_ERR_FORMAT, "[pipeline]\nsynthesis_concurrency = true\n", "pipeline.synthesis_concurrency = true");
    CHECK_FAILS(CZK_ERR_FORMAT, "[pipeline]\npce = \"sometimes\"\n", "pipeline.pce = \"sometimes\"",
                "\"on\", \"off\" or \"auto\"");
    CHECK_FAILS(CZK_ERR_FORMAT, "[logging]\nlevel = \"loud\"\n", "logging.level = \"loud\"");
    CHECK_FAILS(CZK_ERR_FORMAT, "[logging]\nlevel = 3\n", "logging.level = 3");
    CHECK_FAILS(CZK_ERR_FORMAT, "[logging]\nformat = \"xml\"\n", "logging.format = \"xml\"");
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\ncancel_on_shutdown = \"yes\"\n", "daemon.cancel_on_shutdown = \"yes\"",
                "true or false");
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\nlisten = 9820\n", "czk.toml:2: daemon.listen = 9820");
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\nlisten = \"\"\n", "daemon.listen = \"\"", "non-empty string");
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\nlisten = \"localhost\"\n", "daemon.listen = \"localhost\"", "host:port");
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\nlisten = \"unix://relative.sock\"\n", "daemon.listen");
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\nlisten = \"127.0.0.1:65536\"\n", "daemon.listen");
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\nstatus_listen = \"unix:///run/x.sock\"\n", "daemon.status_listen");
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\nstatus_listen = \"::1:80\"\n", "daemon.status_listen = \"::1:80\"");
    CHECK_FAILS(CZK_ERR_FORMAT, "[srs]\nparam_cache = [\"/a\"]\n", "srs.param_cache = [...]");
    /* mutual TLS takes its three files together */
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\ntls_cert = \"/a.pem\"\n", "tls_client_ca go together", "1 of them");
}

CZK_TEST(syntax_error_and_missing_file)
{
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\nlisten = \"127.0.0.1:1\"\nstatus_listen = \n", "czk.toml:3:",
                "TOML syntax error");
    CHECK_FAILS(CZK_ERR_FORMAT, "[memory\n", "czk.toml:1:", "TOML syntax error");
    CHECK_FAILS(CZK_ERR_FORMAT, "[daemon]\nlisten = \"a:1\"\nlisten = \"b:2\"\n", "czk.toml:3:", "TOML syntax error");
    czk_serve_config c;
    czk_serve_config_init(&c);
    char path[1024];
    snprintf(path, sizeof path, "%s/no-such.toml", czk_test_tmpdir());
    CHECK(czk_serve_config_load(&c, path, NULL, NULL) == CZK_ERR_IO);
    CHECK(strstr(czk_last_error(), path) && strstr(czk_last_error(), "No such file"));
    /* a directory */
    CHECK(czk_serve_config_load(&c, czk_test_tmpdir(), NULL, NULL) == CZK_ERR_IO);
    czk_serve_config_clear(&c);
}

CZK_TEST(ignored_keys_warn_once_each)
{
    czk_serve_config c;
    warnings w;
    REQUIRE_OK(load(&c, &w,
                    "[gpus]\n"
                    "devices = [0, 1]\n"
                    "gpu_threads = 8\n"
                    "gpu_workers_per_device = 2\n"
                    "[pipeline]\n"
                    "enabled = true\n"
                    "synthesis_lookahead = 2\n"
                    "max_parallel_synthesis = 4\n"
                    "synthesis_concurrency = 2\n"));
    REQUIRE(w.n == 6);
    static const char *const want[] = {
        "czk.toml:2: gpus.devices is ignored",
        "czk.toml:3: gpus.gpu_threads is ignored",
        "czk.toml:4: gpus.gpu_workers_per_device is ignored",
        "czk.toml:6: pipeline.enabled is ignored",
        "czk.toml:7: pipeline.synthesis_lookahead is ignored",
        "czk.toml:8: pipeline.max_parallel_synthesis is ignored",
    };
    for (int i = 0; i < 6; i++) CHECK_MSG(strstr(w.msg[i], want[i]), "warning %d: '%s'", i, w.msg[i]);
    CHECK(strstr(w.msg[0], "no GPUs"));
    CHECK(strstr(w.msg[5], "synthesis_concurrency"));
    CHECK_EQ_U64(c.synth_workers, 2);
    czk_serve_config_clear(&c);
    /* no warning callback: accepted all the same */
    czk_serve_config_init(&c);
    const char *path = write_file("gpus.toml", "[gpus]\ndevices = [0]\n");
    CHECK_OK(czk_serve_config_load(&c, path, NULL, NULL));
    czk_serve_config_clear(&c);
}

CZK_TEST(failed_load_changes_nothing)
{
    czk_serve_config c;
    warnings w;
    REQUIRE_OK(load(&c, &w, "[daemon]\nlisten = \"127.0.0.1:7\"\n[synthesis]\nthreads = 5\n"));
    const char *path = write_file("bad.toml", "[daemon]\nlisten = \"127.0.0.1:8\"\n[synthesis]\nthreads = \"x\"\n");
    CHECK(czk_serve_config_load(&c, path, collect, &w) == CZK_ERR_FORMAT);
    CHECK(!strcmp(c.listen, "127.0.0.1:7"));
    CHECK_EQ_U64(c.threads, 5);
    /* a second file over the first: only its keys change */
    path = write_file("more.toml", "[scheduler]\nmax_batch_size = 2\n");
    CHECK_OK(czk_serve_config_load(&c, path, collect, &w));
    CHECK(!strcmp(c.listen, "127.0.0.1:7"));
    CHECK_EQ_U64(c.threads, 5);
    CHECK_EQ_U64(c.batch, 2);
    czk_serve_config_clear(&c);
}

CZK_TEST(service_opts_mapping)
{
    czk_serve_config c;
    warnings w;
    REQUIRE_OK(load(&c, &w,
                    "[memory]\ntotal_budget = \"3GiB\"\neviction_min_idle = \"2m\"\n"
                    "[daemon]\nresult_retention = \"90s\"\n"
                    "[scheduler]\nmax_batch_size = 3\nmax_batch_wait_ms = 1500\nbackground_nice = 6\n"
                    "[synthesis]\nthreads = 6\n[pipeline]\nsynthesis_concurrency = 2\npce = \"off\"\n"
                    "[srs]\nparam_cache = \"/p\"\n[logging]\nlevel = \"warn\"\n"));
    czk_service_opts o;
    memset(&o, 0xa5, sizeof o);
    czk_serve_config_service_opts(&c, &o);
    CHECK_EQ_U64(o.memory_budget, 3ull << 30);
    CHECK(o.param_cache == c.param_cache); /* borrowed */
    CHECK_EQ_U64(o.threads, 6);
    CHECK_EQ_U64(o.synth_workers, 2);
    CHECK_EQ_U64(o.batch, 3);
    CHECK(o.batch_timeout_s == 1.5);
    CHECK_EQ_U64(o.no_critical_lane, 0);
    CHECK_EQ_U64(o.background_nice, 6);
    CHECK(o.pce == CZK_PCE_MODE_OFF);
    CHECK(o.retention_s == 90);
    CHECK(o.eviction_min_idle_s == 120);
    CHECK(o.log_level == CZK_LOG_WARN);
    CHECK_EQ_U64(o.no_verify, 0);
    CHECK(o.log == NULL && o.log_ctx == NULL);
    czk_serve_config_clear(&c);

    /* auto: MemTotal (or a smaller cgroup limit) - safety_margin */
    czk_serve_config_init(&c);
    unsigned long long kib = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    REQUIRE(f);
    char line[256];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %llu kB", &kib) == 1) break;
    fclose(f);
    REQUIRE(kib > 0);
    czk_memory_info mi;
    czk_memory_probe(&mi);
    CHECK_EQ_U64(mi.mem_total, kib * 1024);
    CHECK(mi.limit <= kib * 1024);
    c.safety_margin = 1ull << 20;
    czk_serve_config_service_opts(&c, &o);
    CHECK_EQ_U64(o.memory_budget, mi.limit - (1ull << 20));
    CHECK(o.param_cache == NULL);
    CHECK(o.pce == CZK_PCE_MODE_AUTO);
    /* a margin as large as the machine: the engine's default budget */
    c.safety_margin = kib * 1024;
    czk_serve_config_service_opts(&c, &o);
    CHECK_EQ_U64(o.memory_budget, czk_engine_default_budget());
    /* max_batch_wait_ms = 0 means no wait, not the service's default */
    c.batch_wait_s = 0;
    czk_serve_config_service_opts(&c, &o);
    CHECK(o.batch_timeout_s > 0 && o.batch_timeout_s < 1e-3);
    czk_serve_config_clear(&c);
}

CZK_TEST(example_file_loads)
{
    czk_serve_config c;
    warnings w = {0};
    czk_serve_config_init(&c);
    const char *path = CZK_SOURCE_DIR "/docs/examples/czk.toml";
    REQUIRE_OK(czk_serve_config_load(&c, path, collect, &w));
    CHECK_MSG(w.n == 0, "docs/examples/czk.toml gives %d warnings, the first '%s'", w.n, w.msg[0]);
    CHECK(c.status_listen != NULL);
    czk_serve_config_clear(&c);
}

/* cuzk's shipped example (its keys and values, tests/server/cuzk.example.toml)
 * loads unchanged: the keys czk has a notion of are applied, each GPU key and
 * scheduler.sort_by_type gets one warning. */
CZK_TEST(cuzk_example_file_loads)
{
    czk_serve_config c;
    warnings w = {0};
    czk_serve_config_init(&c);
    const char *path = CZK_SOURCE_DIR "/tests/server/cuzk.example.toml";
    REQUIRE_OK(czk_serve_config_load(&c, path, collect, &w));
    CHECK(!strcmp(c.listen, "0.0.0.0:9820"));
    CHECK(c.param_cache && !strcmp(c.param_cache, "/data/zk/params"));
    CHECK_EQ_U64(c.memory_total, 0); /* auto */
    CHECK_EQ_U64(c.safety_margin, 5ull << 30);
    CHECK(c.eviction_min_idle_s == 300);
    CHECK_EQ_U64(c.batch, 1);
    CHECK(c.batch_wait_s == 10);
    CHECK_EQ_U64(c.threads, 0);
    CHECK_EQ_U64(c.synth_workers, 1);
    CHECK(c.log_level == CZK_LOG_INFO);
    static const char *const want[] = {
        "gpus.devices is ignored", "gpus.gpu_threads is ignored", "gpus.gpu_workers_per_device is ignored",
        "scheduler.sort_by_type is ignored", "pipeline.enabled is ignored", "pipeline.synthesis_lookahead is ignored",
    };
    CHECK_MSG(w.n == 6, "%d warnings, wanted 6 (the first '%s')", w.n, w.msg[0]);
    REQUIRE(w.n == 6);
    for (int i = 0; i < 6; i++) CHECK_MSG(strstr(w.msg[i], want[i]), "warning %d: '%s'", i, w.msg[i]);
    CHECK(strstr(w.msg[0], "cuzk.example.toml:17: "));
    czk_serve_config_clear(&c);
}

/* The rest of cuzk's keys: [pipeline] slot_size bounds the witnesses
 * synthesized ahead of the provers (the engine's queue depth), and every
 * key cuzk itself accepts and ignores (deprecated, or GPU queue tuning)
 * loads with one warning each. */
CZK_TEST(cuzk_other_keys)
{
    czk_serve_config c;
    warnings w;
    REQUIRE_OK(load(&c, &w,
                    "[srs]\n"
                    "preload = [\"porep-32g\", \"wpost-32g\"]\n"
                    "[memory]\n"
                    "pinned_budget = \"50GiB\"\n"
                    "working_memory_budget = \"80GiB\"\n"
                    "[synthesis]\n"
                    "partition_workers = 12\n"
                    "[pipeline]\n"
                    "slot_size = 3\n"
                    "max_gpu_queue_depth = 8\n"
                    "[scheduler]\n"
                    "sort_by_type = false\n"
                    "[logging]\n"
                    "format = \"json\"\n"));
    static const char *const want[] = {
        "czk.toml:2: srs.preload is ignored: deprecated by cuzk too",
        "czk.toml:4: memory.pinned_budget is ignored: deprecated by cuzk too",
        "czk.toml:5: memory.working_memory_budget is ignored: deprecated by cuzk too",
        "czk.toml:7: synthesis.partition_workers is ignored: deprecated by cuzk too",
        "czk.toml:10: pipeline.max_gpu_queue_depth is ignored",
        "czk.toml:12: scheduler.sort_by_type is ignored",
    };
    CHECK_MSG(w.n == 6, "%d warnings, wanted 6 (the first '%s')", w.n, w.msg[0]);
    REQUIRE(w.n == 6);
    for (int i = 0; i < 6; i++) CHECK_MSG(strstr(w.msg[i], want[i]), "warning %d: '%s'", i, w.msg[i]);
    CHECK_EQ_U64(c.queue_depth, 3);
    CHECK_EQ_U64(c.log_json, 1);
    czk_serve_config_clear(&c);
    /* czk's own [srs] stream_params */
    static const struct { const char *v; int want; } modes[] = {{"\"auto\"", 0}, {"\"always\"", 1}, {"\"Never\"", -1}};
    for (int i = 0; i < 3; i++) {
        REQUIRE_OK(load_one(&c, "srs", "stream_params", modes[i].v));
        CHECK_EQ_U64((uint64_t)(c.stream_params + 1), (uint64_t)(modes[i].want + 1));
        czk_service_opts so0;
        czk_serve_config_service_opts(&c, &so0);
        CHECK_EQ_U64((uint64_t)(so0.stream_params + 1), (uint64_t)(modes[i].want + 1));
        czk_serve_config_clear(&c);
    }
    CHECK_FAILS(CZK_ERR_FORMAT, "[srs]\nstream_params = \"sometimes\"\n", "srs.stream_params = \"sometimes\"",
                "\"auto\", \"always\" or \"never\"");
    REQUIRE_OK(load(&c, &w, "[pipeline]\nslot_size = 3\n"));
    czk_service_opts so;
    czk_serve_config_service_opts(&c, &so);
    CHECK_EQ_U64(so.queue_depth, 3);
    czk_serve_config_clear(&c);
    /* values are still checked where czk applies them */
    CHECK_FAILS(CZK_ERR_FORMAT, "[pipeline]\nslot_size = -1\n", "czk.toml:2: pipeline.slot_size = -1");
    CHECK_FAILS(CZK_ERR_FORMAT, "[pipeline]\nslot_size = \"3\"\n", "pipeline.slot_size");
    /* and a key cuzk does not define stays an error */
    CHECK_FAILS(CZK_ERR_FORMAT, "[scheduler]\nsort_by_typ = true\n", "unknown key 'scheduler.sort_by_typ'",
                "did you mean 'scheduler.sort_by_type'");
}

/* The whole of a file, malloc'd and NUL-terminated; NULL if unreadable. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap + 1);
    size_t got;
    while (s && (got = fread(s + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap) s = realloc(s, (cap *= 2) + 1);
    fclose(f);
    if (s) s[n] = 0;
    return s;
}

CZK_TEST(serve_md_quotes_the_examples)
{
    char *page = slurp(CZK_SOURCE_DIR "/docs/serve.md");
    REQUIRE(page);
    static const char *const files[] = {CZK_SOURCE_DIR "/docs/examples/czk.toml",
                                        CZK_SOURCE_DIR "/docs/examples/czk.service"};
    for (size_t i = 0; i < 2; i++) {
        char *text = slurp(files[i]);
        CHECK_MSG(text && strstr(page, text), "docs/serve.md does not quote %s as it is", files[i]);
        free(text);
    }
    /* and names every key czk reads */
    static const char *const keys[] = {
        "listen", "status_listen", "result_retention", "cancel_on_shutdown", "tls_cert", "tls_key", "tls_client_ca",
        "total_budget", "safety_margin", "eviction_min_idle", "max_batch_size", "max_batch_wait_ms", "critical_lane",
        "background_nice", "threads",
        "synthesis_concurrency", "pce", "enabled", "synthesis_lookahead", "max_parallel_synthesis", "param_cache",
        "level", "format", "devices", "gpu_threads", "gpu_workers_per_device", "sort_by_type", "slot_size",
        "max_gpu_queue_depth", "pinned_budget", "working_memory_budget", "partition_workers", "preload",
        "stream_params",
    };
    char quoted[64];
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        snprintf(quoted, sizeof quoted, "`%s`", keys[i]);
        CHECK_MSG(strstr(page, quoted), "docs/serve.md does not name %s", quoted);
    }
    free(page);
}

/* Write n bytes to <tmpdir>/name (static path). */
static const char *write_bytes(const char *name, const char *d, size_t n)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", czk_test_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    fwrite(d, 1, n, f);
    fclose(f);
    return path;
}

/* Loading d must succeed or fail with CZK_ERR_FORMAT and a message naming
 * the file; never crash (ASan builds check the memory). */
static void load_any(const char *d, size_t n, const char *what, size_t at)
{
    const char *path = write_bytes("mutant.toml", d, n);
    czk_serve_config c;
    czk_serve_config_init(&c);
    warnings w = {0};
    czk_status st = czk_serve_config_load(&c, path, collect, &w);
    CHECK_MSG(st == CZK_OK || st == CZK_ERR_FORMAT, "%s at %zu: status %d: %s", what, at, st, czk_last_error());
    if (st != CZK_OK) CHECK_MSG(strstr(czk_last_error(), "mutant.toml"), "%s at %zu: '%s'", what, at, czk_last_error());
    czk_serve_config_clear(&c);
}

CZK_TEST(mutated_files_fail_cleanly)
{
    char *text = slurp(CZK_SOURCE_DIR "/docs/examples/czk.toml");
    REQUIRE(text);
    size_t n = strlen(text);
    /* every truncation */
    for (size_t cut = 0; cut < n; cut++) load_any(text, cut, "truncated", cut);
    /* random bit flips and byte overwrites */
    czk_rng *rng = czk_test_rng();
    char *m = malloc(n);
    REQUIRE(m);
    size_t iters = czk_test_iters(2000);
    for (size_t i = 0; i < iters && czk_test_failures() < 5; i++) {
        memcpy(m, text, n);
        size_t at = (size_t)czk_rng_below(rng, n);
        if (i % 2) m[at] ^= (char)(1u << czk_rng_below(rng, 8));
        else m[at] = "\"'=[]{}.,#\n\\0 \x01\xff"[czk_rng_below(rng, 17)];
        load_any(m, n, i % 2 ? "bit flip" : "overwrite", at);
    }
    free(m);
    free(text);
    /* absurd shapes: a long value, a long key, deep nesting, a NUL byte */
    size_t big = 1 << 20;
    char *s = malloc(big + 64);
    REQUIRE(s);
    int k = sprintf(s, "[srs]\nparam_cache = \"");
    memset(s + k, 'a', big);
    strcpy(s + k + big, "\"\n");
    load_any(s, strlen(s), "long value", 0);
    k = sprintf(s, "[memory]\n");
    memset(s + k, 'k', big);
    strcpy(s + k + big, " = 1\n");
    load_any(s, strlen(s), "long key", 0);
    k = sprintf(s, "[gpus]\ndevices = ");
    for (size_t i = 0; i < 100000; i++) s[k++] = '[';
    strcpy(s + k, "\n");
    load_any(s, strlen(s), "deep nesting", 0);
    load_any("[daemon]\nlisten = \"a\0b:1\"\n", 27, "NUL byte", 0);
    free(s);
}
