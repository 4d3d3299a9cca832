/* czk — Filecoin column hash circuit (czk/poseidon.h), compiled once per LC
 * variant (cs/lc.h). */
#include "cs/lc_lcv.h"
#include "gadgets/gadgets_lc.h"

czk_status czk_column_hash_circuit(czk_cs *cs, czk_var *out, czk_fr *out_val, const czk_var *rows,
                                   const czk_fr *row_val, size_t n) {
    if (n != 2 && n != 11)
        return czk_error(CZK_ERR_UNSUPPORTED, "column hash circuit: %zu rows (2 or 11 layers supported)", n);
    return czk_poseidon_circuit(cs, out, out_val, rows, row_val, n);
}
