/* Fr hot operations, MULX/ADCX/ADOX implementation (provisional: forwards to
 * the portable code until the assembly lands). */
#include "czk/field.h"

void czk_fr_mul_adx(czk_fr *r, const czk_fr *a, const czk_fr *b) { czk_fr_mul_portable(r, a, b); }
void czk_fr_sqr_adx(czk_fr *r, const czk_fr *a) { czk_fr_sqr_portable(r, a); }
void czk_fr_add_adx(czk_fr *r, const czk_fr *a, const czk_fr *b) { czk_fr_add_portable(r, a, b); }
void czk_fr_sub_adx(czk_fr *r, const czk_fr *a, const czk_fr *b) { czk_fr_sub_portable(r, a, b); }
