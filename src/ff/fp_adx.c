/* Fp hot operations, MULX/ADCX/ADOX implementation (provisional: forwards to
 * the portable code until the assembly lands). */
#include "czk/field.h"

void czk_fp_mul_adx(czk_fp *r, const czk_fp *a, const czk_fp *b) { czk_fp_mul_portable(r, a, b); }
void czk_fp_sqr_adx(czk_fp *r, const czk_fp *a) { czk_fp_sqr_portable(r, a); }
void czk_fp_add_adx(czk_fp *r, const czk_fp *a, const czk_fp *b) { czk_fp_add_portable(r, a, b); }
void czk_fp_sub_adx(czk_fp *r, const czk_fp *a, const czk_fp *b) { czk_fp_sub_portable(r, a, b); }
