#include "czk/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG_CAP 1024

static _Thread_local char last_msg[MSG_CAP];

static const char *const names[CZK_STATUS_COUNT] = {
    [CZK_OK] = "ok",
    [CZK_ERR_INVALID_ARG] = "invalid argument",
    [CZK_ERR_NOMEM] = "out of memory",
    [CZK_ERR_IO] = "I/O error",
    [CZK_ERR_FORMAT] = "malformed input",
    [CZK_ERR_NOT_CANONICAL] = "non-canonical field element",
    [CZK_ERR_NOT_ON_CURVE] = "point not on curve",
    [CZK_ERR_NOT_IN_SUBGROUP] = "point not in subgroup",
    [CZK_ERR_IDENTITY] = "unexpected point at infinity",
    [CZK_ERR_UNSATISFIED] = "constraint not satisfied",
    [CZK_ERR_MISSING_ASSIGNMENT] = "missing assignment",
    [CZK_ERR_DIV_BY_ZERO] = "division by zero",
    [CZK_ERR_VERIFY] = "proof did not verify",
    [CZK_ERR_UNSUPPORTED] = "unsupported",
    [CZK_ERR_INTERNAL] = "internal error",
    [CZK_ERR_CANCELLED] = "cancelled",
    [CZK_ERR_NOT_FOUND] = "not found",
    [CZK_ERR_BUSY] = "busy",
    [CZK_ERR_UNAVAILABLE] = "unavailable",
};

const char *czk_status_str(czk_status s)
{
    if ((unsigned)s >= CZK_STATUS_COUNT) return "unknown status";
    return names[s];
}

czk_status czk_error(czk_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_msg, MSG_CAP, fmt, ap);
    va_end(ap);
    return s;
}

czk_status czk_error_context(czk_status s, const char *fmt, ...)
{
    char prefix[MSG_CAP], old[MSG_CAP];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, MSG_CAP, fmt, ap);
    va_end(ap);
    memcpy(old, last_msg, MSG_CAP);
    const char *rest = old[0] ? old : czk_status_str(s);
    size_t n = strlen(prefix);
    memcpy(last_msg, prefix, n);
    size_t room = MSG_CAP - 1 - n;
    if (room >= 2) {
        memcpy(last_msg + n, ": ", 2);
        n += 2;
        room -= 2;
        size_t r = strlen(rest);
        if (r > room) r = room;
        memcpy(last_msg + n, rest, r);
        n += r;
    }
    last_msg[n] = 0;
    return s;
}

const char *czk_last_error(void)
{
    return last_msg;
}

void czk_error_clear(void)
{
    last_msg[0] = 0;
}

void czk__assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "czk: internal assertion failed: %s (%s:%d)\n", expr, file, line);
    abort();
}
