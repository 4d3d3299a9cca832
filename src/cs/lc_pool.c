/* Per-thread recycling of linear-combination heap buffers.
 *
 * Buffers have power-of-two capacities (4 .. 2^31 terms); a released buffer
 * goes on its size class's free list, threaded through its first word, and
 * the next request of that class takes it back. After warm-up a synthesis
 * therefore performs no malloc per term or per constraint. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cs/cs_internal.h"

#define POOL_CLASSES 32
#define POOL_MIN_LOG 2 /* 4 terms */
#define POOL_MAX_CACHED 4096 /* per class, bounds memory held by a thread */

typedef struct pool_node {
    struct pool_node *next;
} pool_node;

typedef struct lc_pool {
    pool_node *head[POOL_CLASSES];
    uint32_t count[POOL_CLASSES];
    czk_lc_pool_stats stats;
} lc_pool;

static _Thread_local lc_pool tl_pool;
_Thread_local int czk__lc_oom;

/* A thread's pooled buffers are freed when it exits (an OpenMP or engine
 * worker that released buffers would otherwise lose them with its TLS): the
 * first put of a thread registers it with a key whose destructor trims. */
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static int exit_key_ok;
static _Thread_local int exit_registered;

static void pool_exit(void *arg)
{
    (void)arg;
    czk_lc_pool_trim();
}

static void exit_key_init(void) { exit_key_ok = pthread_key_create(&exit_key, pool_exit) == 0; }

static void register_exit(void)
{
    exit_registered = 1;
    pthread_once(&exit_once, exit_key_init);
    /* any non-NULL value makes the destructor run */
    if (exit_key_ok) (void)pthread_setspecific(exit_key, &tl_pool);
}

static unsigned class_of(uint32_t min_cap)
{
    unsigned k = POOL_MIN_LOG;
    while (k < 31 && ((uint32_t)1 << k) < min_cap) k++;
    return k;
}

czk_lc_term *czk__lc_buf_get(uint32_t min_cap, uint32_t *cap)
{
    lc_pool *pl = &tl_pool;
    unsigned k = class_of(min_cap);
    pool_node *n = pl->head[k];
    if (n) {
        pl->head[k] = n->next;
        pl->count[k]--;
        pl->stats.reuses++;
        *cap = (uint32_t)1 << k;
        return (czk_lc_term *)(void *)n;
    }
    czk_lc_term *p = malloc(((size_t)1 << k) * sizeof(czk_lc_term));
    if (!p) {
        pl->stats.oom++;
        czk__lc_oom = 1;
        return NULL;
    }
    pl->stats.mallocs++;
    *cap = (uint32_t)1 << k;
    return p;
}

void czk__lc_buf_put(czk_lc_term *p, uint32_t cap)
{
    lc_pool *pl = &tl_pool;
    unsigned k = class_of(cap);
    if (((uint32_t)1 << k) != cap || pl->count[k] >= POOL_MAX_CACHED) {
        free(p);
        return;
    }
    if (CZK_UNLIKELY(!exit_registered)) register_exit();
    pool_node *n = (pool_node *)(void *)p;
    n->next = pl->head[k];
    pl->head[k] = n;
    pl->count[k]++;
    pl->stats.releases++;
}

czk_lc_term *czk__lc_buf_grow(czk_lc_term *old, uint32_t old_cap, const czk_lc_term *src,
                              uint32_t n, uint32_t min_cap, uint32_t *cap)
{
    czk_lc_term *p = czk__lc_buf_get(min_cap, cap);
    if (!p) return NULL;
    if (n) memcpy(p, src, (size_t)n * sizeof(czk_lc_term));
    if (old_cap) czk__lc_buf_put(old, old_cap);
    return p;
}

void czk_lc_pool_stats_get(czk_lc_pool_stats *out) { *out = tl_pool.stats; }

void czk_lc_pool_stats_reset(void) { memset(&tl_pool.stats, 0, sizeof(tl_pool.stats)); }

size_t czk_lc_pool_trim(void)
{
    lc_pool *pl = &tl_pool;
    size_t bytes = 0;
    for (unsigned k = 0; k < POOL_CLASSES; k++) {
        while (pl->head[k]) {
            pool_node *n = pl->head[k];
            pl->head[k] = n->next;
            free(n);
            bytes += ((size_t)1 << k) * sizeof(czk_lc_term);
        }
        pl->count[k] = 0;
    }
    return bytes;
}
