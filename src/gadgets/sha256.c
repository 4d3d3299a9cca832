/* Filecoin's native SHA-256 node hash and label (the gadgets are
 * sha256_lcv.c's). */
#include "czk/gadgets.h"
#include "czk/sha256.h"

void czk_sha256_node_native(uint8_t out[32], const uint8_t left[32], const uint8_t right[32])
{
    czk_sha256_ctx c;
    czk_sha256_init(&c);
    czk_sha256_update(&c, left, 32);
    czk_sha256_update(&c, right, 32);
    czk_sha256_final(&c, out);
    czk_sha256_trim_to_fr32(out);
}

void czk_label_native(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                  const uint8_t parents[37][32])
{
    uint8_t hdr[32] = {0};
    for (int i = 0; i < 4; i++) hdr[i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++) hdr[4 + i] = (uint8_t)(node >> (56 - 8 * i));
    czk_sha256_ctx c;
    czk_sha256_init(&c);
    czk_sha256_update(&c, replica_id, 32);
    czk_sha256_update(&c, hdr, 32);
    czk_sha256_update(&c, parents, 37 * 32);
    czk_sha256_final(&c, out);
    czk_sha256_trim_to_fr32(out);
}
