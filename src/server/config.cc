// czk serve's configuration file (server/server.h): cuzk's TOML keys and
// czk's own, read with toml++ (docs/serve.md lists every key).
//
// Loading is all or nothing: the file is applied to a copy of the
// configuration, which replaces the caller's only when every key was
// accepted. Every error names the file, the line, the dotted key and the
// value; no C++ exception leaves the extern "C" functions.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "czk/czk.h"
#include "czk/engine.h"
#include "server/server.h"

namespace {

constexpr uint64_t GiB = 1ull << 30;

// ---- values: sizes, durations, addresses --------------------------------------

bool ieq(const std::string &a, const char *b)
{
    size_t n = std::strlen(b);
    if (a.size() != n) return false;
    for (size_t i = 0; i < n; i++)
        if (std::tolower((unsigned char)a[i]) != std::tolower((unsigned char)b[i])) return false;
    return true;
}

// A decimal number "12" or "1.5": mant / 10^frac exactly.
struct decimal {
    uint64_t mant;
    int frac;
};

uint64_t pow10u(int k)
{
    uint64_t p = 1;
    while (k-- > 0) p *= 10;
    return p;
}

// The decimal number at s[*i]: advances *i past it. No sign, exponent, hex
// or locale: what a size or duration may be written with; at most 18
// fraction digits and a mantissa below 2^64.
bool parse_decimal(const std::string &s, size_t *i, decimal *out)
{
    size_t j = *i, digits = 0;
    decimal d{0, 0};
    bool point = false;
    for (; j < s.size(); j++) {
        char ch = s[j];
        if (ch == '.' && !point) {
            point = true;
            continue;
        }
        if (!std::isdigit((unsigned char)ch)) break;
        if (d.mant > (UINT64_MAX - 9) / 10 || (point && d.frac == 18)) return false;
        d.mant = d.mant * 10 + (uint64_t)(ch - '0');
        d.frac += point;
        digits++;
    }
    if (digits == 0) return false;
    *i = j;
    *out = d;
    return true;
}

// "256GiB", "1.5TiB", "512 MiB", "4096" (bytes) -> bytes. KiB..PiB are
// powers of 1024, kB (or KB)..PB powers of 1000, B or nothing bytes; units
// are case-sensitive ("Gb" would be gigabits). The result must be at least
// one byte and fit 63 bits; a fraction of a byte is rounded down (exactly:
// mant * unit / 10^frac in 128 bits).
bool parse_size(const std::string &s, uint64_t *out)
{
    static const struct { const char *unit; uint64_t mult; } units[] = {
        {"", 1},            {"B", 1},
        {"KiB", 1ull << 10}, {"MiB", 1ull << 20}, {"GiB", 1ull << 30}, {"TiB", 1ull << 40}, {"PiB", 1ull << 50},
        {"kB", 1000},       {"KB", 1000},        {"MB", 1000000},     {"GB", 1000000000},
        {"TB", 1000000000000ull},                {"PB", 1000000000000000ull},
    };
    size_t i = 0;
    decimal d;
    if (!parse_decimal(s, &i, &d)) return false;
    while (i < s.size() && s[i] == ' ') i++;
    std::string unit = s.substr(i);
    for (const auto &u : units) {
        if (unit != u.unit) continue;
        unsigned __int128 bytes = (unsigned __int128)d.mant * u.mult / pow10u(d.frac);
        if (bytes < 1 || bytes > ((unsigned __int128)1 << 63)) return false;
        *out = (uint64_t)bytes;
        return true;
    }
    return false;
}

// "5m", "30s", "1h", "250ms", "1h30m", "2d", "90" (seconds) -> seconds in
// (0, ten years].
bool parse_duration(const std::string &s, double *out)
{
    static const struct { const char *unit; double secs; } units[] = {
        {"ms", 1e-3}, {"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400},
    };
    size_t i = 0;
    long double total = 0;
    decimal d;
    auto value = [&d] { return (long double)d.mant / (long double)pow10u(d.frac); };
    if (parse_decimal(s, &i, &d) && i == s.size()) {
        total = value(); // a bare number: seconds
    } else {
        for (i = 0; i < s.size();) { // terms "<number><unit>", optionally spaced
            if (!parse_decimal(s, &i, &d)) return false;
            size_t u0 = i;
            while (i < s.size() && std::isalpha((unsigned char)s[i])) i++;
            std::string unit = s.substr(u0, i - u0);
            const auto *u =
                std::find_if(std::begin(units), std::end(units), [&](const auto &x) { return unit == x.unit; });
            if (u == std::end(units)) return false;
            total += value() * u->secs;
            while (i < s.size() && s[i] == ' ') i++;
        }
    }
    if (!(total > 0 && total <= 10.0L * 365 * 86400)) return false;
    *out = (double)total;
    return true;
}

// "host:port" with a decimal port 0..65535 and a non-empty host (an IPv6
// literal in brackets).
bool valid_hostport(const std::string &s)
{
    size_t colon = s.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == s.size() || colon + 6 < s.size()) return false;
    std::string host = s.substr(0, colon);
    if (host.find(':') != std::string::npos && !(host.front() == '[' && host.back() == ']')) return false;
    long port = 0;
    for (size_t i = colon + 1; i < s.size(); i++) {
        if (!std::isdigit((unsigned char)s[i])) return false;
        port = port * 10 + (s[i] - '0');
    }
    return port <= 65535;
}

// [daemon] listen: "unix:///absolute/path" or "host:port".
bool valid_listen(const std::string &s)
{
    if (s.rfind("unix://", 0) == 0) return s.size() > 8 && s[7] == '/';
    return valid_hostport(s);
}

// ---- the loader -------------------------------------------------------------------

struct loader {
    const char *path;
    void (*warn)(void *ctx, const char *msg);
    void *ctx;
    czk_serve_config *c; // the copy being filled
};

// A string as a TOML basic string: "..." with \" \\ and \uXXXX escapes.
std::string quoted(const std::string &s)
{
    std::string q = "\"";
    for (unsigned char ch : s) {
        if (ch == '"' || ch == '\\') q += '\\', q += (char)ch;
        else if (ch < 0x20 || ch == 0x7f) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", ch);
            q += esc;
        } else q += (char)ch;
    }
    return q + "\"";
}

// The value as it would be written in the file (tables and arrays
// abbreviated), cut to 80 characters.
std::string value_text(const toml::node &v)
{
    std::ostringstream os;
    v.visit([&os](const auto &x) {
        if constexpr (toml::is_table<decltype(x)>) os << "{...}";
        else if constexpr (toml::is_array<decltype(x)>) os << "[...]";
        else if constexpr (toml::is_string<decltype(x)>) os << quoted(x.get());
        else os << x;
    });
    std::string s = os.str();
    if (s.size() > 80) s = s.substr(0, 77) + "...";
    return s;
}

unsigned line_of(const toml::node &v) { return v.source().begin.line; }

// CZK_ERR_FORMAT "file:line: key = value: expected ..."
czk_status bad_value(const loader &L, const std::string &key, const toml::node &v, const char *expected)
{
    return czk_error(CZK_ERR_FORMAT, "%s:%u: %s = %s: expected %s", L.path, line_of(v), key.c_str(),
                     value_text(v).c_str(), expected);
}

czk_status set_string(char **field, const std::string &s)
{
    char *copy = strdup(s.c_str());
    if (!copy) return czk_error(CZK_ERR_NOMEM, "configuration string (%zu bytes)", s.size());
    std::free(*field);
    *field = copy;
    return CZK_OK;
}

// A non-empty string, into *out.
czk_status get_string(const loader &L, const std::string &key, const toml::node &v, std::string *out)
{
    const auto *s = v.as_string();
    if (!s || s->get().empty()) return bad_value(L, key, v, "a non-empty string");
    *out = s->get();
    return CZK_OK;
}

czk_status get_path(const loader &L, const std::string &key, const toml::node &v, char **field)
{
    std::string s;
    CZK_TRY(get_string(L, key, v, &s));
    return set_string(field, s);
}

czk_status get_int(const loader &L, const std::string &key, const toml::node &v, int64_t lo, int64_t hi, int *out)
{
    const auto *i = v.as_integer();
    if (!i || i->get() < lo || i->get() > hi) {
        char what[96];
        std::snprintf(what, sizeof what, "an integer from %lld to %lld", (long long)lo, (long long)hi);
        return bad_value(L, key, v, what);
    }
    *out = (int)i->get();
    return CZK_OK;
}

czk_status get_bool(const loader &L, const std::string &key, const toml::node &v, int *out)
{
    const auto *b = v.as_boolean();
    if (!b) return bad_value(L, key, v, "true or false");
    *out = b->get() ? 1 : 0;
    return CZK_OK;
}

// A size: a string parse_size reads or a positive integer of bytes.
czk_status get_size(const loader &L, const std::string &key, const toml::node &v, uint64_t *out)
{
    const char *expected = "a size such as \"256GiB\", \"512MiB\", \"1.5TiB\" or a positive integer of bytes";
    if (const auto *i = v.as_integer()) {
        if (i->get() <= 0) return bad_value(L, key, v, expected);
        *out = (uint64_t)i->get();
        return CZK_OK;
    }
    const auto *s = v.as_string();
    if (!s || !parse_size(s->get(), out)) return bad_value(L, key, v, expected);
    return CZK_OK;
}

// A duration: a string parse_duration reads or a positive number of seconds.
czk_status get_duration(const loader &L, const std::string &key, const toml::node &v, double *out)
{
    const char *expected = "a duration such as \"5m\", \"30s\", \"1h\", \"250ms\" or a positive number of seconds";
    double secs = 0;
    if (const auto *i = v.as_integer()) secs = (double)i->get();
    else if (const auto *f = v.as_floating_point()) secs = f->get();
    else if (const auto *s = v.as_string()) {
        if (!parse_duration(s->get(), &secs)) return bad_value(L, key, v, expected);
    } else return bad_value(L, key, v, expected);
    if (!(secs > 0 && secs <= 10.0 * 365 * 86400)) return bad_value(L, key, v, expected);
    *out = secs;
    return CZK_OK;
}

// ---- the keys ---------------------------------------------------------------------

using setter = czk_status (*)(const loader &L, const std::string &key, const toml::node &v);

struct key_spec {
    const char *section, *name;
    setter set;           // NULL: accepted and ignored
    const char *instead;  // for an ignored key: what czk does instead
};

czk_status set_listen(const loader &L, const std::string &key, const toml::node &v)
{
    std::string s;
    CZK_TRY(get_string(L, key, v, &s));
    if (!valid_listen(s)) return bad_value(L, key, v, "\"host:port\" or \"unix:///absolute/path\"");
    return set_string(&L.c->listen, s);
}

czk_status set_status_listen(const loader &L, const std::string &key, const toml::node &v)
{
    std::string s;
    CZK_TRY(get_string(L, key, v, &s));
    if (!valid_hostport(s)) return bad_value(L, key, v, "\"host:port\" (an IPv6 address in brackets)");
    return set_string(&L.c->status_listen, s);
}

czk_status set_total_budget(const loader &L, const std::string &key, const toml::node &v)
{
    const auto *s = v.as_string();
    if (s && ieq(s->get(), "auto")) {
        L.c->memory_total = 0;
        return CZK_OK;
    }
    return get_size(L, key, v, &L.c->memory_total);
}

czk_status set_pce(const loader &L, const std::string &key, const toml::node &v)
{
    if (const auto *b = v.as_boolean()) {
        L.c->pce = b->get() ? CZK_PCE_MODE_ON : CZK_PCE_MODE_OFF;
        return CZK_OK;
    }
    const auto *s = v.as_string();
    if (s && ieq(s->get(), "on")) L.c->pce = CZK_PCE_MODE_ON;
    else if (s && ieq(s->get(), "off")) L.c->pce = CZK_PCE_MODE_OFF;
    else if (s && ieq(s->get(), "auto")) L.c->pce = CZK_PCE_MODE_AUTO;
    else return bad_value(L, key, v, "\"on\", \"off\" or \"auto\"");
    return CZK_OK;
}

// [srs] stream_params: "auto" (parameters that do not fit the budget beside a
// partition are streamed from disk), "always", "never".
czk_status set_stream_params(const loader &L, const std::string &key, const toml::node &v)
{
    const auto *s = v.as_string();
    if (s && ieq(s->get(), "auto")) L.c->stream_params = 0;
    else if (s && ieq(s->get(), "always")) L.c->stream_params = 1;
    else if (s && ieq(s->get(), "never")) L.c->stream_params = -1;
    else return bad_value(L, key, v, "\"auto\", \"always\" or \"never\"");
    return CZK_OK;
}

// cuzk's levels (Rust tracing's); "trace" is czk's debug.
czk_status set_log_level(const loader &L, const std::string &key, const toml::node &v)
{
    const auto *s = v.as_string();
    static const struct { const char *name; czk_log_level level; } levels[] = {
        {"error", CZK_LOG_ERROR}, {"warn", CZK_LOG_WARN}, {"warning", CZK_LOG_WARN},
        {"info", CZK_LOG_INFO},   {"debug", CZK_LOG_DEBUG}, {"trace", CZK_LOG_DEBUG},
    };
    for (const auto &l : levels)
        if (s && ieq(s->get(), l.name)) {
            L.c->log_level = l.level;
            return CZK_OK;
        }
    return bad_value(L, key, v, "\"error\", \"warn\", \"info\", \"debug\" or \"trace\"");
}

czk_status set_log_format(const loader &L, const std::string &key, const toml::node &v)
{
    const auto *s = v.as_string();
    if (s && ieq(s->get(), "text")) L.c->log_json = 0;
    else if (s && ieq(s->get(), "json")) L.c->log_json = 1;
    else return bad_value(L, key, v, "\"text\" or \"json\"");
    return CZK_OK;
}

// [scheduler] max_batch_wait_ms: milliseconds, up to an hour.
czk_status set_batch_wait(const loader &L, const std::string &key, const toml::node &v)
{
    int ms;
    CZK_TRY(get_int(L, key, v, 0, 3600 * 1000, &ms));
    L.c->batch_wait_s = ms / 1000.0;
    return CZK_OK;
}

const char *const NO_GPU =
    "czk proves on the CPU: it has no GPUs; [synthesis] threads and [memory] total_budget size it";
// Keys cuzk itself accepts and ignores (deprecated), with its reason.
const char *const CUZK_DEPRECATED_BUDGET =
    "deprecated by cuzk too: [memory] total_budget is the one budget of parameters, PCE and witnesses";

// Setters of one field of the configuration being filled, by kind of value.
template <char *czk_serve_config::*F> czk_status path_key(const loader &L, const std::string &k, const toml::node &v)
{
    return get_path(L, k, v, &(L.c->*F));
}
template <double czk_serve_config::*F>
czk_status duration_key(const loader &L, const std::string &k, const toml::node &v)
{
    return get_duration(L, k, v, &(L.c->*F));
}
template <uint64_t czk_serve_config::*F> czk_status size_key(const loader &L, const std::string &k, const toml::node &v)
{
    return get_size(L, k, v, &(L.c->*F));
}
template <int czk_serve_config::*F> czk_status bool_key(const loader &L, const std::string &k, const toml::node &v)
{
    return get_bool(L, k, v, &(L.c->*F));
}
template <int czk_serve_config::*F, int LO, int HI>
czk_status int_key(const loader &L, const std::string &k, const toml::node &v)
{
    return get_int(L, k, v, LO, HI, &(L.c->*F));
}

using C = czk_serve_config;

const key_spec KEYS[] = {
    {"daemon", "listen", set_listen, nullptr},
    {"daemon", "status_listen", set_status_listen, nullptr},
    {"daemon", "result_retention", duration_key<&C::retention_s>, nullptr},
    {"daemon", "cancel_on_shutdown", bool_key<&C::cancel_on_shutdown>, nullptr},
    {"daemon", "tls_cert", path_key<&C::tls_cert>, nullptr},
    {"daemon", "tls_key", path_key<&C::tls_key>, nullptr},
    {"daemon", "tls_client_ca", path_key<&C::tls_client_ca>, nullptr},
    {"memory", "total_budget", set_total_budget, nullptr},
    {"memory", "safety_margin", size_key<&C::safety_margin>, nullptr},
    {"memory", "eviction_min_idle", duration_key<&C::eviction_min_idle_s>, nullptr},
    {"memory", "pinned_budget", nullptr, CUZK_DEPRECATED_BUDGET},
    {"memory", "working_memory_budget", nullptr, CUZK_DEPRECATED_BUDGET},
    {"scheduler", "max_batch_size", int_key<&C::batch, 1, CZK_ENGINE_MAX_BATCH>, nullptr},
    {"scheduler", "max_batch_wait_ms", set_batch_wait, nullptr},
    {"scheduler", "sort_by_type", nullptr,
     "czk orders queued work by priority, then submission; parameters of several circuits stay resident in "
     "memory under [memory] total_budget (there is no GPU memory to switch)"},
    {"scheduler", "critical_lane", bool_key<&C::critical_lane>, nullptr},
    {"scheduler", "background_nice", int_key<&C::background_nice, 0, 19>, nullptr},
    {"synthesis", "threads", int_key<&C::threads, 0, 65536>, nullptr},
    {"pipeline", "synthesis_concurrency", int_key<&C::synth_workers, 0, 4096>, nullptr},
    {"pipeline", "pce", set_pce, nullptr},
    {"pipeline", "enabled", nullptr, "czk always pipelines synthesis and proving, under [memory] total_budget"},
    {"pipeline", "synthesis_lookahead", nullptr,
     "czk starts synthesis when the memory budget has room, not by a lookahead count"},
    {"pipeline", "max_parallel_synthesis", nullptr,
     "czk bounds parallel synthesis by [pipeline] synthesis_concurrency and the memory budget"},
    {"pipeline", "slot_size", int_key<&C::queue_depth, 0, 4096>, nullptr},
    {"pipeline", "max_gpu_queue_depth", nullptr,
     "czk keeps at most [pipeline] slot_size witnesses synthesized ahead of its provers, within the memory budget"},
    {"synthesis", "partition_workers", nullptr,
     "deprecated by cuzk too: the memory budget and [pipeline] synthesis_concurrency bound parallel partitions"},
    {"srs", "param_cache", path_key<&C::param_cache>, nullptr},
    {"srs", "stream_params", set_stream_params, nullptr},
    {"srs", "preload", nullptr,
     "deprecated by cuzk too: parameters load when the first job needs them (or by the PreloadSRS call)"},
    {"logging", "level", set_log_level, nullptr},
    {"logging", "format", set_log_format, nullptr},
    {"gpus", "devices", nullptr, NO_GPU},
    {"gpus", "gpu_threads", nullptr, NO_GPU},
    {"gpus", "gpu_workers_per_device", nullptr, NO_GPU},
};

const key_spec *find_key(const std::string &section, const std::string &name)
{
    for (const auto &k : KEYS)
        if (section == k.section && name == k.name) return &k;
    return nullptr;
}

bool known_section(const std::string &section)
{
    for (const auto &k : KEYS)
        if (section == k.section) return true;
    return false;
}

// Levenshtein distance, for "did you mean".
size_t edit_distance(const std::string &a, const std::string &b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); j++) row[j] = j;
    for (size_t i = 1; i <= a.size(); i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); j++) {
            size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

// " (did you mean 'memory.total_budget'?)" for a near miss among the keys
// (section "" compares section names), else "".
std::string suggestion(const std::string &section, const std::string &name)
{
    std::string best;
    size_t best_d = 3; // at most two edits
    for (const auto &k : KEYS) {
        std::string cand = section.empty() ? std::string(k.section) : std::string(k.name);
        if (!section.empty() && section != k.section) continue;
        size_t d = edit_distance(name, cand);
        if (d < best_d) best_d = d, best = section.empty() ? cand : section + "." + cand;
    }
    return best.empty() ? std::string() : " (did you mean '" + best + "'?)";
}

// A table's entries in the order they appear in the file (toml::table
// iterates in key order), so that errors and warnings follow the file.
std::vector<std::pair<const toml::key *, const toml::node *>> in_file_order(const toml::table &t)
{
    std::vector<std::pair<const toml::key *, const toml::node *>> v;
    for (auto &&[k, n] : t) v.emplace_back(&k, &n);
    std::sort(v.begin(), v.end(), [](const auto &a, const auto &b) {
        const auto &x = a.first->source().begin, &y = b.first->source().begin;
        return x.line != y.line ? x.line < y.line : x.column < y.column;
    });
    return v;
}

// One key of a section: its setter, or one warning when czk ignores it.
czk_status apply_key(const loader &L, const std::string &section, const toml::key &k, const toml::node &v)
{
    std::string dotted = section + "." + std::string(k.str());
    const key_spec *spec = find_key(section, std::string(k.str()));
    if (!spec)
        return czk_error(CZK_ERR_FORMAT, "%s:%u: unknown key '%s'%s", L.path, k.source().begin.line, dotted.c_str(),
                         suggestion(section, std::string(k.str())).c_str());
    if (spec->set) return spec->set(L, dotted, v);
    if (L.warn) {
        std::string msg = std::string(L.path) + ":" + std::to_string(k.source().begin.line) + ": " + dotted +
                          " is ignored: " + spec->instead;
        L.warn(L.ctx, msg.c_str());
    }
    return CZK_OK;
}

// Every section of the document, every key of each.
czk_status apply(const loader &L, const toml::table &doc)
{
    for (auto [k, n] : in_file_order(doc)) {
        std::string section(k->str());
        unsigned line = k->source().begin.line;
        if (!known_section(section)) {
            if (!n->is_table())
                return czk_error(CZK_ERR_FORMAT,
                                 "%s:%u: unknown key '%s' (every key belongs to a section such as [daemon])", L.path,
                                 line, section.c_str());
            return czk_error(CZK_ERR_FORMAT, "%s:%u: unknown section '[%s]'%s", L.path, line, section.c_str(),
                             suggestion("", section).c_str());
        }
        const toml::table *t = n->as_table();
        if (!t) return bad_value(L, section, *n, ("a table [" + section + "]").c_str());
        for (auto [kk, nn] : in_file_order(*t)) CZK_TRY(apply_key(L, section, *kk, *nn));
    }
    return CZK_OK;
}

// Mutual TLS needs its three files; fewer would silently mean plaintext.
czk_status check_tls(const loader &L)
{
    const czk_serve_config *c = L.c;
    int n = !!c->tls_cert + !!c->tls_key + !!c->tls_client_ca;
    if (n != 0 && n != 3)
        return czk_error(CZK_ERR_FORMAT,
                         "%s: daemon.tls_cert, daemon.tls_key and daemon.tls_client_ca go together (mutual TLS); "
                         "%d of them set",
                         L.path, n);
    return CZK_OK;
}

// The whole file into *out; CZK_ERR_IO naming it.
czk_status read_file(const char *path, std::string *out)
{
    FILE *f = std::fopen(path, "rb");
    if (!f) return czk_error(CZK_ERR_IO, "%s: cannot open the configuration file: %s", path, std::strerror(errno));
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
    int err = std::ferror(f) ? errno : 0;
    std::fclose(f);
    if (err) return czk_error(CZK_ERR_IO, "%s: cannot read the configuration file: %s", path, std::strerror(err));
    return CZK_OK;
}

// A deep copy (strings duplicated); CZK_ERR_NOMEM leaves *dst cleared.
czk_status copy_config(czk_serve_config *dst, const czk_serve_config *src)
{
    *dst = *src;
    char **fields[] = {&dst->listen, &dst->status_listen, &dst->param_cache,
                       &dst->tls_cert, &dst->tls_key, &dst->tls_client_ca};
    bool ok = true;
    for (char **f : fields) {
        const char *orig = *f; // still src's pointer
        *f = orig && ok ? strdup(orig) : nullptr;
        if (orig && !*f) ok = false;
    }
    if (!ok) {
        czk_serve_config_clear(dst);
        return czk_error(CZK_ERR_NOMEM, "copying the configuration");
    }
    return CZK_OK;
}

czk_status load(czk_serve_config *c, const char *path, void (*warn)(void *, const char *), void *ctx)
{
    std::string text;
    CZK_TRY(read_file(path, &text));
    toml::table doc;
    try {
        doc = toml::parse(text, std::string_view(path));
    } catch (const toml::parse_error &e) {
        const auto &b = e.source().begin;
        std::string desc(e.description());
        return czk_error(CZK_ERR_FORMAT, "%s:%u:%u: TOML syntax error: %s", path, b.line, b.column, desc.c_str());
    }
    czk_serve_config next;
    CZK_TRY(copy_config(&next, c));
    loader L{path, warn, ctx, &next};
    czk_status st = apply(L, doc);
    if (st == CZK_OK) st = check_tls(L);
    if (st != CZK_OK) {
        czk_serve_config_clear(&next);
        return st;
    }
    czk_serve_config_clear(c);
    *c = next;
    return CZK_OK;
}

// What this process may use: MemTotal or a smaller cgroup limit.
uint64_t mem_total()
{
    czk_memory_info mi;
    czk_memory_probe(&mi);
    return mi.limit;
}

} // namespace

extern "C" void czk_serve_config_init(czk_serve_config *c)
{
    std::memset(c, 0, sizeof *c);
    c->listen = strdup("unix:///run/czk/czk.sock"); // NULL only when out of memory: the server's default then
    c->safety_margin = 5 * GiB;
    c->eviction_min_idle_s = 300;
    c->retention_s = 600;
    c->batch = 1;
    c->critical_lane = 1;
    c->background_nice = 10;
    c->batch_wait_s = 10;
    c->pce = CZK_PCE_MODE_AUTO;
    c->log_level = CZK_LOG_INFO;
}

extern "C" czk_status czk_serve_config_load(czk_serve_config *c, const char *path,
                                            void (*warn)(void *ctx, const char *msg), void *ctx)
{
    if (!c || !path) return czk_error(CZK_ERR_INVALID_ARG, "czk_serve_config_load: NULL %s", c ? "path" : "config");
    try {
        return load(c, path, warn, ctx);
    } catch (const std::bad_alloc &) {
        return czk_error(CZK_ERR_NOMEM, "%s: out of memory reading the configuration", path);
    } catch (const std::exception &e) {
        return czk_error(CZK_ERR_INTERNAL, "%s: %s", path, e.what());
    } catch (...) {
        return czk_error(CZK_ERR_INTERNAL, "%s: unexpected exception reading the configuration", path);
    }
}

extern "C" void czk_serve_config_clear(czk_serve_config *c)
{
    std::free(c->listen);
    std::free(c->status_listen);
    std::free(c->param_cache);
    std::free(c->tls_cert);
    std::free(c->tls_key);
    std::free(c->tls_client_ca);
    std::memset(c, 0, sizeof *c);
}

extern "C" void czk_serve_config_service_opts(const czk_serve_config *c, czk_service_opts *out)
{
    std::memset(out, 0, sizeof *out);
    out->param_cache = c->param_cache;
    if (c->memory_total) {
        out->memory_budget = c->memory_total;
    } else { // "auto": MemTotal (or a smaller cgroup limit) - safety_margin
        uint64_t total = mem_total();
        out->memory_budget = total > c->safety_margin ? total - c->safety_margin : czk_engine_default_budget();
    }
    out->threads = c->threads;
    out->synth_workers = c->synth_workers;
    out->queue_depth = c->queue_depth;
    out->batch = c->batch;
    out->no_critical_lane = !c->critical_lane;
    out->background_nice = c->background_nice;
    // max_batch_wait_ms = 0 means "do not wait"; the service reads <= 0 as its default
    out->batch_timeout_s = c->batch_wait_s > 0 ? c->batch_wait_s : 1e-6;
    out->pce = c->pce;
    out->stream_params = c->stream_params;
    out->retention_s = c->retention_s;
    out->eviction_min_idle_s = c->eviction_min_idle_s;
    out->log_level = c->log_level;
}
