pragma circom 2.0.0;

// The benchmark circuit of src/io/README.md: circomlib Sha256 over 512 bits (two
// compression blocks, 62,528 constraints, domain 2^16). Not built by the tests.
include "circomlib/circuits/sha256/sha256.circom";
template ShaBench(n) {
    signal input in[n];
    signal output out[256];
    component s = Sha256(n);
    for (var i = 0; i < n; i++) s.in[i] <== in[i];
    for (var i = 0; i < 256; i++) out[i] <== s.out[i];
}
component main = ShaBench(512);
