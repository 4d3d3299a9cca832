/* Implementation selection and the public dispatching entry points. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "ff/field_impl.h"

int czk__field_use_adx;
int czk__field_use_ifma;

static pthread_once_t select_once = PTHREAD_ONCE_INIT;

static int cpu_can_adx(void) { return czk_cpu_has_adx() && czk_cpu_has_bmi2(); }

int czk_field_ifma_built(void)
{
#ifdef CZK_IFMA_KERNELS
    return 1;
#else
    return 0;
#endif
}

static int cpu_can_ifma(void) { return czk_field_ifma_built() && czk_cpu_has_avx512ifma(); }

static void select_default(void)
{
    const char *v = getenv("CZK_IFMA");
    czk__field_use_ifma = cpu_can_ifma() && !(v && strcmp(v, "off") == 0);
    const char *e = getenv("CZK_FIELD_IMPL");
    if (e && strcmp(e, "portable") == 0) {
        czk__field_use_adx = 0;
        return;
    }
    czk__field_use_adx = cpu_can_adx();
}

void czk_field_init(void) { pthread_once(&select_once, select_default); }

/* czk.h: the process-wide choice czk_init makes is the field implementation
 * (which reads the CPU's features on its first use). */
void czk_init(void) { czk_field_init(); }

/* Select at load time too, so that programs which never call czk_init()
 * still get the fast path. */
__attribute__((constructor)) static void field_init_at_load(void) { czk_field_init(); }

czk_status czk_field_select(czk_field_impl_kind k)
{
    czk_field_init();
    switch (k) {
    case CZK_FIELD_PORTABLE:
        czk__field_use_adx = 0;
        return CZK_OK;
    case CZK_FIELD_ADX:
        if (!cpu_can_adx())
            return czk_error(CZK_ERR_UNSUPPORTED,
                             "czk_field_select: this CPU lacks ADX/BMI2 (adx=%d bmi2=%d)",
                             czk_cpu_has_adx(), czk_cpu_has_bmi2());
        czk__field_use_adx = 1;
        return CZK_OK;
    }
    return czk_error(CZK_ERR_INVALID_ARG, "czk_field_select: unknown implementation %d", (int)k);
}

czk_status czk_field_ifma_select(int on)
{
    czk_field_init();
    if (on && !cpu_can_ifma())
        return czk_error(CZK_ERR_UNSUPPORTED, "czk_field_ifma_select: %s",
                         czk_field_ifma_built() ? "this CPU lacks AVX-512 IFMA" : "built without the IFMA kernels");
    czk__field_use_ifma = on ? 1 : 0;
    return CZK_OK;
}

int czk_field_ifma(void)
{
    czk_field_init();
    return czk__field_use_ifma;
}

czk_field_impl_kind czk_field_impl(void)
{
    return czk__field_use_adx ? CZK_FIELD_ADX : CZK_FIELD_PORTABLE;
}

const char *czk_field_impl_name(czk_field_impl_kind k)
{
    switch (k) {
    case CZK_FIELD_PORTABLE: return "portable";
    case CZK_FIELD_ADX: return "adx";
    }
    return "unknown";
}

void czk_fr_mul(czk_fr *r, const czk_fr *a, const czk_fr *b) { czk__fr_mul(r, a, b); }
void czk_fr_sqr(czk_fr *r, const czk_fr *a) { czk__fr_sqr(r, a); }
void czk_fr_add(czk_fr *r, const czk_fr *a, const czk_fr *b) { czk__fr_add(r, a, b); }
void czk_fr_sub(czk_fr *r, const czk_fr *a, const czk_fr *b) { czk__fr_sub(r, a, b); }
void czk_fp_mul(czk_fp *r, const czk_fp *a, const czk_fp *b) { czk__fp_mul(r, a, b); }
void czk_fp_sqr(czk_fp *r, const czk_fp *a) { czk__fp_sqr(r, a); }
void czk_fp_add(czk_fp *r, const czk_fp *a, const czk_fp *b) { czk__fp_add(r, a, b); }
void czk_fp_sub(czk_fp *r, const czk_fp *a, const czk_fp *b) { czk__fp_sub(r, a, b); }
