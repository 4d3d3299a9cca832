/* czk ec — the group descriptor: one vocabulary for code written once over
 * G1 and G2 (ec, msm, io and their tests).
 *
 * A file includes "ec/group_g1.h" (or "ec/group_g2.h"), then the templates
 * it instantiates, then "ec/group_end.h", which undefines the descriptor so
 * that the same templates can follow for the other group. A descriptor
 * defines:
 *
 *   G_ID               the token g1 / g2, for G_CAT(prefix_, G_ID)
 *   G_STR              "g1" / "g2", for messages
 *   G_TITLE            "G1" / "G2", for messages about encodings
 *   G_B_STR            "4" / "4(u + 1)": b as text
 *   G_COMPRESSED G_UNCOMPRESSED   encoding sizes (CZK_G1_COMPRESSED ...)
 *   G_FN(x)            czk_g1_##x: the group's functions in czk/ec.h
 *   G_MSM(x)           czk_msm_g1_##x: its functions in czk/msm.h
 *   G_LOCAL(x)         x##_g1: names private to the instantiating file
 *   AFF, JAC, XYZZ     the point types of czk/ec.h
 *   FE                 the coordinate field (czk_fp / czk_fp2), with
 *   FE_ADD FE_SUB FE_DBL FE_NEG FE_MUL FE_SQR (r, a[, b]; aliasing allowed)
 *   FE_INV_VAR         variable-time inverse, 0 -> 0
 *   FE_EQ FE_IS_ZERO   variable time (public data only)
 *   FE_SET_ZERO FE_SET_ONE FE_RANDOM(r, rng) FE_SQRT(r, a) (1 if a square)
 *   FE_IS_LEX_LARGEST  the sort order of the zcash encoding
 *   FE_SET_B(r)        the curve constant b of y^2 = x^3 + b
 *   FE_MUL_B3(r, a)    r = 3 b a
 *
 * The hot operations bind to the inline dispatchers of ff/field_impl.h
 * (Fp) and to the Fp2 functions of czk/tower.h (G2). The point formulas over
 * this vocabulary are in ec/ec_formulas_tmpl.h.
 */
#ifndef CZK_EC_GROUP_H
#define CZK_EC_GROUP_H

#include <string.h>

#include "czk/ec.h"
#include "czk/tower.h"
#include "ec/ec_internal.h"
#include "ff/field_impl.h"

#define G_CAT_(a, b) a##b
#define G_CAT(a, b) G_CAT_(a, b)

#endif
