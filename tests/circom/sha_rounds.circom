pragma circom 2.0.0;

include "circomlib/circuits/sha256/constants.circom";
include "circomlib/circuits/sha256/t1.circom";
include "circomlib/circuits/sha256/t2.circom";
include "circomlib/circuits/binsum.circom";
include "circomlib/circuits/bitify.circom";

// R rounds of the SHA-256 compression round function (FIPS 180-4 §6.2.2 step 3)
// built from circomlib's SHA-256 templates, on a bit-decomposed state; the
// message words are private, the state's bits are checked boolean, and the final
// a and e words are the public outputs. A small stand-in for a full SHA-256 block
// (64 rounds + schedule, ~30k constraints), whose setup would not fit CI's time.
template ShaRounds(R) {
    signal input st[8][32];
    signal input w[R][32];
    signal output outA;
    signal output outE;

    signal s[R + 1][8][32];
    for (var i = 0; i < 8; i++)
        for (var k = 0; k < 32; k++) {
            st[i][k] * (st[i][k] - 1) === 0;
            s[0][i][k] <== st[i][k];
        }

    component t1[R];
    component t2[R];
    component ka[R];
    component suma[R];
    component sume[R];
    for (var t = 0; t < R; t++) {
        t1[t] = T1();
        t2[t] = T2();
        ka[t] = K(t);
        suma[t] = BinSum(32, 2);
        sume[t] = BinSum(32, 2);
        for (var k = 0; k < 32; k++) {
            w[t][k] * (w[t][k] - 1) === 0;
            t1[t].h[k] <== s[t][7][k];
            t1[t].e[k] <== s[t][4][k];
            t1[t].f[k] <== s[t][5][k];
            t1[t].g[k] <== s[t][6][k];
            t1[t].k[k] <== ka[t].out[k];
            t1[t].w[k] <== w[t][k];
            t2[t].a[k] <== s[t][0][k];
            t2[t].b[k] <== s[t][1][k];
            t2[t].c[k] <== s[t][2][k];
        }
        for (var k = 0; k < 32; k++) {
            sume[t].in[0][k] <== s[t][3][k];
            sume[t].in[1][k] <== t1[t].out[k];
            suma[t].in[0][k] <== t1[t].out[k];
            suma[t].in[1][k] <== t2[t].out[k];
        }
        for (var k = 0; k < 32; k++) {
            s[t + 1][7][k] <== s[t][6][k];
            s[t + 1][6][k] <== s[t][5][k];
            s[t + 1][5][k] <== s[t][4][k];
            s[t + 1][4][k] <== sume[t].out[k];
            s[t + 1][3][k] <== s[t][2][k];
            s[t + 1][2][k] <== s[t][1][k];
            s[t + 1][1][k] <== s[t][0][k];
            s[t + 1][0][k] <== suma[t].out[k];
        }
    }
    component pa = Bits2Num(32);
    component pe = Bits2Num(32);
    for (var k = 0; k < 32; k++) {
        pa.in[k] <== s[R][0][k];
        pe.in[k] <== s[R][4][k];
    }
    outA <== pa.out;
    outE <== pe.out;
}

// 4 rounds: 1,834 constraints, within the fixtures' powers of tau 2^11 (build_fixtures.sh)
component main = ShaRounds(4);
