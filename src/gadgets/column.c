/* czk — Filecoin column hash: Poseidon of a column's labels, arity 2 or 11
 * (storage-proofs-porep stacked/{vanilla,circuit}/hash.rs hash_single_column). */
#include "gadgets/gadgets_lc.h"

czk_status czk_column_hash(czk_fr *out, const czk_fr *rows, size_t n) {
    if (n != 2 && n != 11)
        return czk_error(CZK_ERR_UNSUPPORTED, "column hash: %zu rows (2 or 11 layers supported)", n);
    return czk_poseidon_hash(out, rows, n);
}

czk_status czk_column_hash_circuit_any(czk_cs *cs, czk_var *out, czk_fr *out_val, const czk_var *rows,
                                       const czk_fr *row_val, size_t n) {
    return CZK_LC_DISPATCH(cs->lc_kind, czk_column_hash_circuit, (cs, out, out_val, rows, row_val, n));
}
