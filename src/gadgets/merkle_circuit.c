/* czk — Merkle inclusion circuit: the entry point that chooses the LC variant
 * (the circuit is merkle_circuit_lcv.c's). */
#include "gadgets/gadgets_lc.h"

czk_status czk_merkle_por_circuit_any(czk_cs *cs, const czk_merkle_shape *s, const czk_var *leaf_var,
                                      const czk_fr *leaf_val, const czk_fr *siblings, uint64_t index,
                                      const czk_var *root_var, const czk_fr *root_val, int private_root) {
    return CZK_LC_DISPATCH(cs->lc_kind, czk_merkle_por_circuit,
                           (cs, s, leaf_var, leaf_val, siblings, index, root_var, root_val, private_root));
}
