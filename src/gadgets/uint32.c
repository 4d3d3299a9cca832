/* UInt32 / UInt64 value helpers (the gadgets are uint32_lcv.c's). */
#include <string.h>

#include "czk/gadgets.h"

void czk_u32_constant(czk_u32 *out, uint32_t v)
{
    for (int i = 0; i < 32; i++) out->bits[i] = czk_bool_const((int)(v >> i) & 1);
    out->value = v;
}

void czk_u64_constant(czk_u64 *out, uint64_t v)
{
    for (int i = 0; i < 64; i++) out->bits[i] = czk_bool_const((int)(v >> i) & 1);
    out->value = v;
}

void czk_u32_rotr(czk_u32 *out, const czk_u32 *a, unsigned by)
{
    czk_u32 t = *a;
    by %= 32;
    for (unsigned i = 0; i < 32; i++) out->bits[i] = t.bits[(i + by) % 32];
    out->value = by ? (t.value >> by) | (t.value << (32 - by)) : t.value;
}

void czk_u32_shr(czk_u32 *out, const czk_u32 *a, unsigned by)
{
    czk_u32 t = *a;
    by %= 32;
    for (unsigned i = 0; i < 32; i++) out->bits[i] = i + by < 32 ? t.bits[i + by] : czk_bool_const(0);
    out->value = t.value >> by;
}

void czk_u32_into_bits_be(czk_bool out[32], const czk_u32 *a)
{
    for (int i = 0; i < 32; i++) out[i] = a->bits[31 - i];
}

void czk_u32_from_bits_be(czk_u32 *out, const czk_bool bits[32])
{
    uint32_t v = 0;
    czk_bool t[32];
    for (int i = 0; i < 32; i++) {
        v = (v << 1) | bits[i].value;
        t[31 - i] = bits[i];
    }
    memcpy(out->bits, t, sizeof(t));
    out->value = v;
}

void czk_u64_to_bits_be(czk_bool out[64], const czk_u64 *a)
{
    for (int i = 0; i < 64; i++) out[i] = a->bits[63 - i];
}
