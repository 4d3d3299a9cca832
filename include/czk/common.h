/* czk — common definitions: status codes, error messages, assertions, clocks.
 *
 * Every public function that can fail returns a czk_status. When it returns
 * anything but CZK_OK it has also recorded a human-readable message (naming
 * the file, offset, constraint ... that was wrong) retrievable with
 * czk_last_error() on the same thread. Library code never exits.
 */
#ifndef CZK_COMMON_H
#define CZK_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CZK_VERSION_MAJOR 0
#define CZK_VERSION_MINOR 1
#define CZK_VERSION_PATCH 0
#define CZK_VERSION_STRING "0.1.0"

#define CZK_WUR __attribute__((warn_unused_result))
#define CZK_INLINE static inline __attribute__((always_inline))
#define CZK_NOINLINE __attribute__((noinline))
#define CZK_UNUSED __attribute__((unused))
#define CZK_LIKELY(x) __builtin_expect(!!(x), 1)
#define CZK_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CZK_PRINTF(f, a) __attribute__((format(printf, f, a)))

typedef enum czk_status {
    CZK_OK = 0,
    CZK_ERR_INVALID_ARG,   /* a caller passed an argument outside the contract */
    CZK_ERR_NOMEM,         /* an allocation (or a memory budget reservation) failed */
    CZK_ERR_IO,            /* open/read/write/rename failed */
    CZK_ERR_FORMAT,        /* malformed file or encoding (bad magic, length, flags) */
    CZK_ERR_NOT_CANONICAL, /* an encoded field element is >= the modulus */
    CZK_ERR_NOT_ON_CURVE,  /* a decoded point does not satisfy the curve equation */
    CZK_ERR_NOT_IN_SUBGROUP, /* a decoded point is outside the prime-order subgroup */
    CZK_ERR_IDENTITY,      /* the point at infinity where it is not allowed */
    CZK_ERR_UNSATISFIED,   /* a witness does not satisfy a constraint */
    CZK_ERR_MISSING_ASSIGNMENT, /* a variable's value was needed but not provided */
    CZK_ERR_DIV_BY_ZERO,   /* inversion of zero inside a gadget */
    CZK_ERR_VERIFY,        /* a proof did not verify */
    CZK_ERR_UNSUPPORTED,   /* a feature, curve or shape czk does not handle */
    CZK_ERR_INTERNAL,      /* an invariant failed; a bug */
    CZK_ERR_CANCELLED,     /* the work was cancelled before it finished */
    CZK_ERR_NOT_FOUND,     /* a named job or entry does not exist */
    CZK_ERR_BUSY,          /* refused while in use */
    CZK_ERR_UNAVAILABLE,   /* a service that is shutting down */
    CZK_STATUS_COUNT
} czk_status;

/* Short, static name of a status ("ok", "invalid argument", ...). */
const char *czk_status_str(czk_status s);

/* Record the message for the current thread and return `s` (so callers can
 * write `return czk_error(CZK_ERR_FORMAT, "%s: bad magic", path);`). */
czk_status czk_error(czk_status s, const char *fmt, ...) CZK_PRINTF(2, 3);

/* The message recorded by the last failing call on this thread ("" if none). */
const char *czk_last_error(void);

/* Prefix the current thread's message with "context: " and return `s`. */
czk_status czk_error_context(czk_status s, const char *fmt, ...) CZK_PRINTF(2, 3);

void czk_error_clear(void);

/* Seconds on CLOCK_MONOTONIC (wall time, never set back): subtract two
 * readings for an elapsed time. */
double czk_now(void);
/* CPU seconds this process has used, all threads together
 * (CLOCK_PROCESS_CPUTIME_ID). */
double czk_cpu_now(void);

/* Internal invariants, active unless NDEBUG and CZK_FORCE_ASSERT are unset. */
void czk__assert_fail(const char *expr, const char *file, int line) __attribute__((noreturn));
#if !defined(NDEBUG) || defined(CZK_FORCE_ASSERT)
#define CZK_ASSERT(e) ((e) ? (void)0 : czk__assert_fail(#e, __FILE__, __LINE__))
#else
#define CZK_ASSERT(e) ((void)0)
#endif

/* Propagate a non-OK status. */
#define CZK_TRY(expr)                                                                   \
    do {                                                                                \
        czk_status czk__s = (expr);                                                     \
        if (czk__s != CZK_OK) return czk__s;                                            \
    } while (0)

#ifdef __cplusplus
}
#endif
#endif
