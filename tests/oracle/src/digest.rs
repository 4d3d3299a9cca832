//! Two constraint systems of our own over bellpepper's trait:
//! - `DigestCs` hashes every constraint as docs/r1cs-digest.md defines, and
//!   the assignment, checking satisfaction as it goes;
//! - `ProverCs` does the work bellperson's prover does per constraint
//!   (evaluate A, B, C on the assignment, track the A/B densities), for the
//!   synthesis benchmark.

use bellpepper_core::{ConstraintSystem, Index, LinearCombination, SynthesisError, Variable};
use blstrs::Scalar as Fr;
use ff::{Field, PrimeField};
use sha2::{Digest, Sha256};

const AUX_BIT: u64 = 1 << 63;

fn var_key(v: Variable) -> u64 {
    match v.get_unchecked() {
        Index::Input(i) => i as u64,
        Index::Aux(j) => AUX_BIT | j as u64,
    }
}

/// Canonical terms of a linear combination: sorted by (inputs, then aux,
/// ascending), repeated variables summed, zero coefficients dropped.
fn canonical(lc: &LinearCombination<Fr>) -> Vec<(u64, Fr)> {
    let mut t: Vec<(u64, Fr)> = lc.iter().map(|(v, c)| (var_key(v), *c)).collect();
    t.sort_by_key(|x| x.0);
    let mut out: Vec<(u64, Fr)> = Vec::with_capacity(t.len());
    for (k, c) in t {
        match out.last_mut() {
            Some(last) if last.0 == k => last.1 += c,
            _ => out.push((k, c)),
        }
    }
    out.retain(|x| !bool::from(x.1.is_zero()));
    out
}

fn encode_lc(buf: &mut Vec<u8>, terms: &[(u64, Fr)]) {
    buf.extend_from_slice(&(terms.len() as u32).to_le_bytes());
    for (k, c) in terms {
        buf.extend_from_slice(&k.to_le_bytes());
        buf.extend_from_slice(c.to_repr().as_ref());
    }
}

fn describe_lc(out: &mut String, name: &str, terms: &[(u64, Fr)]) {
    use std::fmt::Write;
    let _ = writeln!(out, "  {} ({} terms)", name, terms.len());
    for (k, c) in terms {
        let mut be = c.to_repr().as_ref().to_vec();
        be.reverse();
        let var = if k & AUX_BIT != 0 { format!("aux {}", k & !AUX_BIT) } else { format!("input {}", k) };
        let _ = writeln!(out, "    {} 0x{}", var, hex::encode(be));
    }
}

fn eval(terms: &[(u64, Fr)], inputs: &[Fr], aux: &[Fr]) -> Fr {
    let mut acc = Fr::ZERO;
    for (k, c) in terms {
        let v = if k & AUX_BIT != 0 { aux[(k & !AUX_BIT) as usize] } else { inputs[*k as usize] };
        acc += v * c;
    }
    acc
}

pub struct DigestCs {
    inputs: Vec<Fr>,
    aux: Vec<Fr>,
    hashes: Vec<[u8; 32]>,
    whole: Sha256,
    n_constraints: u64,
    keep_hashes: bool,
    show: Option<u64>,
    shown: Option<String>,
    names: Vec<String>,
    unsatisfied: Option<u64>,
    buf: Vec<u8>,
}

pub struct Digests {
    pub n_inputs: u64,
    pub n_aux: u64,
    pub n_constraints: u64,
    pub r1cs: [u8; 32],
    pub assignment: [u8; 32],
    pub hashes: Vec<[u8; 32]>,
    pub shown: Option<String>,
    pub unsatisfied: Option<u64>,
}

impl DigestCs {
    pub fn new(keep_hashes: bool, show: Option<u64>) -> Self {
        DigestCs {
            inputs: Vec::new(),
            aux: Vec::new(),
            hashes: Vec::new(),
            whole: Sha256::new(),
            n_constraints: 0,
            keep_hashes,
            show,
            shown: None,
            names: Vec::new(),
            unsatisfied: None,
            buf: Vec::with_capacity(1024),
        }
    }

    pub fn finish(self) -> Digests {
        let (ni, na, m) = (self.inputs.len() as u64, self.aux.len() as u64, self.n_constraints);
        let mut whole = self.whole;
        for v in [ni, na, m] {
            whole.update(v.to_le_bytes());
        }
        let mut a = Sha256::new();
        for v in self.inputs.iter().chain(self.aux.iter()) {
            a.update(v.to_repr().as_ref());
        }
        a.update(ni.to_le_bytes());
        a.update(na.to_le_bytes());
        Digests {
            n_inputs: ni,
            n_aux: na,
            n_constraints: m,
            r1cs: whole.finalize().into(),
            assignment: a.finalize().into(),
            hashes: self.hashes,
            shown: self.shown,
            unsatisfied: self.unsatisfied,
        }
    }
}

impl ConstraintSystem<Fr> for DigestCs {
    type Root = Self;

    fn alloc<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        self.aux.push(f()?);
        Ok(Variable::new_unchecked(Index::Aux(self.aux.len() - 1)))
    }

    fn alloc_input<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        self.inputs.push(f()?);
        Ok(Variable::new_unchecked(Index::Input(self.inputs.len() - 1)))
    }

    fn enforce<A, AR, LA, LB, LC>(&mut self, name: A, a: LA, b: LB, c: LC)
    where
        A: FnOnce() -> AR,
        AR: Into<String>,
        LA: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LB: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LC: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
    {
        let ta = canonical(&a(LinearCombination::zero()));
        let tb = canonical(&b(LinearCombination::zero()));
        let tc = canonical(&c(LinearCombination::zero()));
        self.buf.clear();
        encode_lc(&mut self.buf, &ta);
        encode_lc(&mut self.buf, &tb);
        encode_lc(&mut self.buf, &tc);
        let h: [u8; 32] = Sha256::digest(&self.buf).into();
        self.whole.update(h);
        if self.keep_hashes {
            self.hashes.push(h);
        }
        let idx = self.n_constraints;
        if self.unsatisfied.is_none() {
            let (va, vb, vc) = (
                eval(&ta, &self.inputs, &self.aux),
                eval(&tb, &self.inputs, &self.aux),
                eval(&tc, &self.inputs, &self.aux),
            );
            if va * vb != vc {
                self.unsatisfied = Some(idx);
            }
        }
        if self.show == Some(idx) {
            let mut path = self.names.join("/");
            path.push('/');
            path.push_str(&name().into());
            let mut s = format!("constraint {} {}\n", idx, path);
            describe_lc(&mut s, "A", &ta);
            describe_lc(&mut s, "B", &tb);
            describe_lc(&mut s, "C", &tc);
            self.shown = Some(s);
        }
        self.n_constraints += 1;
    }

    fn push_namespace<NR, N>(&mut self, name: N)
    where
        NR: Into<String>,
        N: FnOnce() -> NR,
    {
        if self.show.is_some() {
            self.names.push(name().into());
        }
    }

    fn pop_namespace(&mut self) {
        if self.show.is_some() {
            self.names.pop();
        }
    }

    fn get_root(&mut self) -> &mut Self::Root {
        self
    }
}

/// What bellperson's ProvingAssignment stores per constraint and variable.
#[derive(Default)]
pub struct ProverCs {
    pub inputs: Vec<Fr>,
    pub aux: Vec<Fr>,
    pub a: Vec<Fr>,
    pub b: Vec<Fr>,
    pub c: Vec<Fr>,
    a_aux_density: Vec<bool>,
    b_input_density: Vec<bool>,
    b_aux_density: Vec<bool>,
}

impl ProverCs {
    fn eval_track(
        lc: &LinearCombination<Fr>,
        inputs: &[Fr],
        aux: &[Fr],
        mut in_density: Option<&mut Vec<bool>>,
        mut aux_density: Option<&mut Vec<bool>>,
    ) -> Fr {
        let mut acc = Fr::ZERO;
        for (i, c) in lc.iter_inputs() {
            if c.is_zero_vartime() {
                continue;
            }
            acc += inputs[*i] * c;
            if let Some(d) = in_density.as_deref_mut() {
                d[*i] = true;
            }
        }
        for (j, c) in lc.iter_aux() {
            if c.is_zero_vartime() {
                continue;
            }
            acc += aux[*j] * c;
            if let Some(d) = aux_density.as_deref_mut() {
                d[*j] = true;
            }
        }
        acc
    }

    /// The `input_i * 0 = 0` rows bellperson appends after synthesis.
    pub fn finish_inputs(&mut self) {
        for i in 0..self.inputs.len() {
            self.a.push(self.inputs[i]);
            self.b.push(Fr::ZERO);
            self.c.push(Fr::ZERO);
        }
    }

    pub fn satisfied(&self) -> bool {
        (0..self.a.len()).all(|i| self.a[i] * self.b[i] == self.c[i])
    }
}

impl ConstraintSystem<Fr> for ProverCs {
    type Root = Self;

    fn alloc<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        self.aux.push(f()?);
        self.a_aux_density.push(false);
        self.b_aux_density.push(false);
        Ok(Variable::new_unchecked(Index::Aux(self.aux.len() - 1)))
    }

    fn alloc_input<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        self.inputs.push(f()?);
        self.b_input_density.push(false);
        Ok(Variable::new_unchecked(Index::Input(self.inputs.len() - 1)))
    }

    fn enforce<A, AR, LA, LB, LC>(&mut self, _: A, a: LA, b: LB, c: LC)
    where
        A: FnOnce() -> AR,
        AR: Into<String>,
        LA: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LB: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LC: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
    {
        let a = a(LinearCombination::zero());
        let b = b(LinearCombination::zero());
        let c = c(LinearCombination::zero());
        let va = Self::eval_track(&a, &self.inputs, &self.aux, None, Some(&mut self.a_aux_density));
        let vb = Self::eval_track(
            &b,
            &self.inputs,
            &self.aux,
            Some(&mut self.b_input_density),
            Some(&mut self.b_aux_density),
        );
        let vc = Self::eval_track(&c, &self.inputs, &self.aux, None, None);
        self.a.push(va);
        self.b.push(vb);
        self.c.push(vc);
    }

    fn push_namespace<NR, N>(&mut self, _: N)
    where
        NR: Into<String>,
        N: FnOnce() -> NR,
    {
    }

    fn pop_namespace(&mut self) {}

    fn get_root(&mut self) -> &mut Self::Root {
        self
    }
}
