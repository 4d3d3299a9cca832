pragma circom 2.0.0;

include "circomlib/circuits/poseidon.circom";

// A multiplier chain and a Poseidon(2) hash (circomlib's BN254 constants, used here
// only as arithmetic over the BLS12-381 scalar field). Public: out, h (outputs), k.
template MulPoseidon(n) {
    signal input a;
    signal input b;
    signal input k;
    signal output out;
    signal output h;
    signal t[n];
    t[0] <== a * b;
    for (var i = 1; i < n; i++) {
        t[i] <== t[i-1] * (a + i);
    }
    out <== t[n-1] * k;
    component p = Poseidon(2);
    p.inputs[0] <== a;
    p.inputs[1] <== out;
    h <== p.out;
}

component main {public [k]} = MulPoseidon(20);
