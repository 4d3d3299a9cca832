#!/usr/bin/env python3
"""Generate src/ff/fr_adx.c and src/ff/fp_adx.c: Montgomery mul/sqr/add/sub
for BLS12-381 Fr (4 limbs) and Fp (6 limbs) with MULX/ADCX/ADOX (x86-64,
System V ABI, ELF), emitted as file-scope assembly so that no compiler
register allocation (frame pointers, sanitizers) can interfere.

Usage: tools/gen_field_adx.py   (rewrites both files in src/ff/)

Montgomery multiplication: CIOS (Koc, Acar, Kaliski 1996) with the two
independent carry chains of ADCX (CF) and ADOX (OF) as in Gueron and
Krasnov, "Software implementation of modular exponentiation, using advanced
vector instructions architectures" / Intel's "New Instructions Supporting
Large Integer Arithmetic" (2012). Each row i:
    T += a * b[i]            (low halves on the CF chain, high on OF)
    q  = T[0] * (-m^-1) mod 2^64
    T  = (T + q m) / 2^64    (T[0] becomes 0 and is reused as the new top)
With m < 2^(64n - 1) the running value stays below 2m < 2^(64n), so n + 1
registers suffice; a final conditional subtraction gives the result in [0, m).
"""
import os

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R_ = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001

CALLEE_SAVED = ["%rbx", "%rbp", "%r12", "%r13", "%r14", "%r15"]


def limbs(v, n):
    return [(v >> (64 * i)) & (2**64 - 1) for i in range(n)]


class Asm:
    def __init__(self):
        self.lines = []

    def __call__(self, s):
        self.lines.append(s)


def prologue(a, name, used):
    a(".globl %s" % name)
    a(".hidden %s" % name)  # internal (src/ff/field_impl.h): not exported by libczk.so
    a(".type %s,@function" % name)
    a(".p2align 5")
    a("%s:" % name)
    a("@ENDBR@")
    saved = [r for r in CALLEE_SAVED if r in used]
    for r in saved:
        a("push %s" % r)
    return saved


def epilogue(a, name, saved):
    for r in reversed(saved):
        a("pop %s" % r)
    a("ret")
    a(".size %s,.-%s" % (name, name))


def gen_mul(a, f, n, sqr):
    """r = a * b R^-1 mod m.  rdi = r, rsi = a, rdx = b (sqr: b = a)."""
    name = "czk_%s_%s_adx" % (f, "sqr" if sqr else "mul")
    # registers: T[0..n] rotating, rax/rbx products, rcx = b, rbp = zero
    pool = ["%r8", "%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15"]
    T = pool[: n + 1]
    used = set(T) | {"%rbx", "%rbp"}
    saved = prologue(a, name, used)
    if sqr:
        a("mov %rsi, %rcx")
    else:
        a("mov %rdx, %rcx")
    a("xor %ebp, %ebp")
    for r in T:
        a("xor %sd, %sd" % (r, r))
    for i in range(n):
        # T += a * b[i]
        a("mov %d(%%rcx), %%rdx" % (8 * i))
        a("xor %eax, %eax")  # clear CF and OF
        for j in range(n):
            a("mulx %d(%%rsi), %%rax, %%rbx" % (8 * j))
            a("adcx %%rax, %s" % T[j])
            a("adox %%rbx, %s" % T[j + 1])
        a("adcx %%rbp, %s" % T[n])
        # q = T[0] * inv; T = (T + q m) / 2^64
        a("mov %s, %%rdx" % T[0])
        a("imulq .L%s_inv(%%rip), %%rdx" % f)
        a("xor %eax, %eax")
        for j in range(n):
            a("mulx .L%s_m+%d(%%rip), %%rax, %%rbx" % (f, 8 * j))
            a("adcx %%rax, %s" % T[j])
            a("adox %%rbx, %s" % T[j + 1])
        a("adcx %%rbp, %s" % T[n])
        T = T[1:] + T[:1]  # T[0] is now 0: the next top limb
    # T[0..n) < 2m: subtract m if that does not borrow
    S = ["%rax", "%rbx", "%rcx", "%rdx", "%rsi", "%rbp"][:n]
    for j in range(n):
        a("mov %s, %s" % (T[j], S[j]))
    for j in range(n):
        a("%s .L%s_m+%d(%%rip), %s" % ("sub" if j == 0 else "sbb", f, 8 * j, T[j]))
    for j in range(n):
        a("cmovc %s, %s" % (S[j], T[j]))
    for j in range(n):
        a("mov %s, %d(%%rdi)" % (T[j], 8 * j))
    epilogue(a, name, saved)


def gen_sqr4(a, f):
    """r = a^2 R^-1 mod m for 4 limbs: the 8-limb square (cross products
    once, doubled, plus the diagonal), the low half reduced by four
    Montgomery rows (as in gen_mul without the product stage: the running
    value stays below 2^192 + m), then the high half added and m subtracted
    if that does not borrow (the sum is below 2m < 2^256). 26 MULX instead
    of 32."""
    name = "czk_%s_sqr_adx" % f
    t = ["%r8", "%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15"]
    used = set(t) | {"%rbx", "%rbp"}
    saved = prologue(a, name, used)
    a("xor %ebp, %ebp")
    # cross products a_i a_j, i < j, into t1..t6
    a("mov 0(%rsi), %rdx")
    a("mulx 8(%%rsi), %s, %s" % (t[1], t[2]))
    a("mulx 16(%%rsi), %%rax, %s" % t[3])
    a("mulx 24(%%rsi), %%rbx, %s" % t[4])
    a("add %%rax, %s" % t[2])
    a("adc %%rbx, %s" % t[3])
    a("adc %%rbp, %s" % t[4])
    a("mov 8(%rsi), %rdx")
    a("mulx 16(%rsi), %rax, %rbx")
    a("mulx 24(%%rsi), %%rcx, %s" % t[5])
    a("add %rcx, %rbx")
    a("adc %%rbp, %s" % t[5])
    a("add %%rax, %s" % t[3])
    a("adc %%rbx, %s" % t[4])
    a("adc %%rbp, %s" % t[5])
    a("mov 16(%rsi), %rdx")
    a("mulx 24(%%rsi), %%rax, %s" % t[6])
    a("add %%rax, %s" % t[5])
    a("adc %%rbp, %s" % t[6])
    # double: t1..t7 = 2 (t1..t6)
    a("xor %sd, %sd" % (t[7], t[7]))
    a("add %s, %s" % (t[1], t[1]))
    for i in range(2, 7):
        a("adc %s, %s" % (t[i], t[i]))
    a("adc %%rbp, %s" % t[7])
    # diagonal a_i^2 at 2i, 2i+1 (MULX and MOV leave the flags alone)
    a("mov 0(%rsi), %rdx")
    a("mulx %%rdx, %s, %%rax" % t[0])
    a("add %%rax, %s" % t[1])
    for i in range(1, 4):
        a("mov %d(%%rsi), %%rdx" % (8 * i))
        a("mulx %rdx, %rax, %rbx")
        a("adc %%rax, %s" % t[2 * i])
        a("adc %%rbx, %s" % t[2 * i + 1])
    # reduce the low half t0..t3; rcx is the fifth, rotating register
    T = [t[0], t[1], t[2], t[3], "%rcx"]
    a("xor %ecx, %ecx")
    for i in range(4):
        a("mov %s, %%rdx" % T[0])
        a("imulq .L%s_inv(%%rip), %%rdx" % f)
        a("xor %eax, %eax")
        for j in range(4):
            a("mulx .L%s_m+%d(%%rip), %%rax, %%rbx" % (f, 8 * j))
            a("adcx %%rax, %s" % T[j])
            a("adox %%rbx, %s" % T[j + 1])
        a("adcx %%rbp, %s" % T[4])
        T = T[1:] + T[:1]
    # + high half
    a("add %s, %s" % (t[4], T[0]))
    for j in range(1, 4):
        a("adc %s, %s" % (t[4 + j], T[j]))
    S = ["%rax", "%rbx", "%rdx", "%rsi"]
    for j in range(4):
        a("mov %s, %s" % (T[j], S[j]))
    for j in range(4):
        a("%s .L%s_m+%d(%%rip), %s" % ("sub" if j == 0 else "sbb", f, 8 * j, T[j]))
    for j in range(4):
        a("cmovc %s, %s" % (S[j], T[j]))
    for j in range(4):
        a("mov %s, %d(%%rdi)" % (T[j], 8 * j))
    epilogue(a, name, saved)


def gen_add(a, f, n):
    """r = a + b mod m (a, b < m < 2^(64n-1): the sum needs no carry limb)."""
    name = "czk_%s_add_adx" % f
    A = ["%r8", "%r9", "%r10", "%r11", "%r12", "%r13"][:n]
    S = ["%rax", "%rbx", "%rcx", "%rsi", "%rbp", "%r14"][:n]
    used = set(A) | set(S)
    saved = prologue(a, name, used)
    for j in range(n):
        a("mov %d(%%rsi), %s" % (8 * j, A[j]))
    for j in range(n):
        a("%s %d(%%rdx), %s" % ("add" if j == 0 else "adc", 8 * j, A[j]))
    for j in range(n):
        a("mov %s, %s" % (A[j], S[j]))
    for j in range(n):
        a("%s .L%s_m+%d(%%rip), %s" % ("sub" if j == 0 else "sbb", f, 8 * j, A[j]))
    for j in range(n):
        a("cmovc %s, %s" % (S[j], A[j]))
    for j in range(n):
        a("mov %s, %d(%%rdi)" % (A[j], 8 * j))
    epilogue(a, name, saved)


def gen_file(f, n, m, inv):
    a = Asm()
    a(".pushsection .rodata")
    a(".p2align 6")
    a(".L%s_m:" % f)
    for l in limbs(m, n):
        a(".quad 0x%016x" % l)
    a(".L%s_inv:" % f)
    a(".quad 0x%016x" % inv)
    a(".popsection")
    a(".text")
    gen_mul(a, f, n, False)
    if n == 4:
        gen_sqr4(a, f)
    else:
        gen_mul(a, f, n, True)
    gen_add(a, f, n)
    gen_sub(a, f, n)
    return a.lines


def gen_sub(a, f, n):
    """r = a - b mod m: subtract, then add (m AND borrow-mask); the masked
    modulus limbs are formed before the addition chain so that no AND
    instruction clobbers the carry flag inside it."""
    name = "czk_%s_sub_adx" % f
    A = ["%r8", "%r9", "%r10", "%r11", "%r12", "%r13"][:n]
    Mreg = ["%rax", "%rbx", "%rcx", "%rsi", "%rbp", "%r14"][:n]
    used = set(A) | set(Mreg) | {"%r15"}
    saved = prologue(a, name, used)
    for j in range(n):
        a("mov %d(%%rsi), %s" % (8 * j, A[j]))
    for j in range(n):
        a("%s %d(%%rdx), %s" % ("sub" if j == 0 else "sbb", 8 * j, A[j]))
    a("sbb %r15, %r15")  # all ones on borrow
    for j in range(n):
        a("mov .L%s_m+%d(%%rip), %s" % (f, 8 * j, Mreg[j]))
        a("and %%r15, %s" % Mreg[j])
    for j in range(n):
        a("%s %s, %s" % ("add" if j == 0 else "adc", Mreg[j], A[j]))
    for j in range(n):
        a("mov %s, %d(%%rdi)" % (A[j], 8 * j))
    epilogue(a, name, saved)


HEADER = """/* %(F)s hot operations with MULX/ADCX/ADOX (BMI2 + ADX), x86-64 System V, ELF.
 * Generated by tools/gen_field_adx.py; do not edit (the generator documents
 * the algorithm). Other targets get the portable code under these names. */
#include "ff/field_impl.h"

#if defined(__x86_64__) && defined(__ELF__)
#ifdef __CET__
#define CZK_ENDBR "endbr64\\n"
#else
#define CZK_ENDBR ""
#endif

__asm__(
%(body)s);

#else

void czk_%(f)s_mul_adx(czk_%(f)s *r, const czk_%(f)s *a, const czk_%(f)s *b) { czk_%(f)s_mul_portable(r, a, b); }
void czk_%(f)s_sqr_adx(czk_%(f)s *r, const czk_%(f)s *a) { czk_%(f)s_sqr_portable(r, a); }
void czk_%(f)s_add_adx(czk_%(f)s *r, const czk_%(f)s *a, const czk_%(f)s *b) { czk_%(f)s_add_portable(r, a, b); }
void czk_%(f)s_sub_adx(czk_%(f)s *r, const czk_%(f)s *a, const czk_%(f)s *b) { czk_%(f)s_sub_portable(r, a, b); }

#endif
"""


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    for f, n, m in (("fr", 4, R_), ("fp", 6, P)):
        inv = (-pow(m, -1, 2**64)) % 2**64
        lines = gen_file(f, n, m, inv)
        body = []
        for l in lines:
            if l == "@ENDBR@":
                body.append("    CZK_ENDBR")
            else:
                body.append('    "%s\\n"' % l)
        text = HEADER % {"F": f.capitalize(), "f": f, "body": "\n".join(body)}
        with open(os.path.join(root, "src", "ff", "%s_adx.c" % f), "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
