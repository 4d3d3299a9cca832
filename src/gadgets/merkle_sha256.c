/* czk — the SHA-256 node of Filecoin's SHA-256 Merkle trees (tree D,
 * filecoin-hashers Sha256Function::node / multi_node): SHA-256 of the
 * children's 32-byte little-endian encodings, the digest's last byte & 0x3f
 * ("trim to Fr32"), read as a little-endian field element (< 2^254 < r). */
#include "czk/merkle.h"
#include "czk/sha256.h"

czk_status czk__merkle_sha256_node(czk_fr *out, const czk_fr *children, size_t n);

czk_status czk__merkle_sha256_node(czk_fr *out, const czk_fr *children, size_t n) {
    uint8_t buf[CZK_MERKLE_MAX_ARITY * CZK_FR_BYTES], d[CZK_SHA256_DIGEST];
    if (n > CZK_MERKLE_MAX_ARITY)
        return czk_error(CZK_ERR_INVALID_ARG, "merkle: SHA-256 node arity %zu > %d", n, CZK_MERKLE_MAX_ARITY);
    for (size_t i = 0; i < n; i++) czk_fr_to_bytes(&buf[i * CZK_FR_BYTES], &children[i]);
    czk_sha256(d, buf, n * CZK_FR_BYTES);
    d[31] &= 0x3f;
    return czk_fr_from_bytes(out, d);
}
