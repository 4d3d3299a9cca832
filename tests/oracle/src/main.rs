//! czk-oracle: Filecoin's own implementation (filecoin-proofs-api,
//! filecoin-proofs, storage-proofs-*, bellperson) driven from the command line,
//! as the judge of czk's proofs and R1CS. Test-only: it calls the published
//! crates' APIs and nothing else of theirs.
//!
//! Every command prints `step <name> <seconds>` for each timed step and
//! `key value` result lines; exit 0 on success, 1 when a check fails (a proof
//! is invalid, digests differ), 2 on bad usage or input.

mod digest;
mod util;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::exit;
use std::time::Instant;

use anyhow::{bail, ensure, Context, Result};
use bellpepper_core::{Circuit, ConstraintSystem};
use blstrs::Scalar as Fr;
use ff::Field;
use filecoin_hashers::Domain;
use filecoin_proofs::constants::{
    DefaultPieceDomain, DefaultPieceHasher, SectorShape2KiB, SectorShape32GiB, SectorShape512MiB,
    SectorShape64GiB, SectorShape8MiB,
};
use filecoin_proofs::types::MerkleTreeTrait;
use filecoin_proofs_api::seal::{self, SealCommitPhase1Output};
use filecoin_proofs_api::{PieceInfo, RegisteredSealProof, SectorId, UnpaddedBytesAmount};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use storage_proofs_core::compound_proof::CompoundProof;
use storage_proofs_core::proof::ProofScheme;
use storage_proofs_porep::stacked::{self, StackedCompound, StackedDrg};

use crate::util::{arg_value, has_flag, parse_size, step};

const USAGE: &str = "usage: czk-oracle <command> [options]

  seal --sector-size 2KiB|8MiB|512MiB [--seed N] -o DIR
        random piece data, then add_piece, PC1, PC2 and C1 through
        filecoin-proofs-api; writes DIR/c1.json (Curio's envelope),
        DIR/c1-inner.json (SealCommitPhase1Output), DIR/sector.json (public
        data), and keeps the replica and cache in DIR for later steps
  params --sector-size S --cache DIR [--circuit porep]
        the v28 parameter and verifying-key files filecoin-proofs uses, generated
        with random toxic waste (its test path) where missing; prints their names
  params --circuit window-post|winning-post --sector-size S --cache DIR
        filecoin-proofs' FallbackPoSt parameters, generated where missing
  params [--circuit porep|snap] --sector-size S --cache DIR --from FILE.params --from-vk FILE.vk
        the same files from parameters made elsewhere (czk setup): bellperson
        reads them and writes them back with its own writer
  param-names
        the v28 file stems of the PoRep (V1_1), WindowPoSt and WinningPoSt
        circuits of every sector size, from their public parameters: lines
        KIND SIZE STEM (KIND porep, window-post, winning-post)
  load-params --sector-size S [--cache DIR] [-i N]
        time reading the PoRep parameters from the cache as C2 does (bellperson's
        mapped parameters), N times
  prove-c2 DIR [--cache DIR] [-o PROOF]
        bellperson's C2 (CPU) of DIR's C1 through filecoin-proofs-api
  verify-seal DIR PROOF [--cache DIR]
        filecoin-proofs verify_seal of PROOF's bytes; exit 0 only when valid
  vanilla-post --kind window|winning DIR [--seed N] -o OUT
        real vanilla PoSt proof of DIR's sealed sector (challenges derived by
        filecoin-proofs-api), as the bincode bytes the FFI passes:
        OUT/vanilla-KIND.bin and OUT/post-KIND.json (proof type, randomness,
        prover id, sector id, comm_r)
  vanilla-snap DIR [--seed N] -o OUT
        a SnapDeals update of DIR's sealed sector with random new data
        (encode_into), its vanilla partition proofs (generate_partition_proofs,
        checked by verify_partition_proofs): OUT/snap-partition-K.bin and
        OUT/snap.json (proof type, comm_r_old, comm_r_new, comm_d_new)
  snap-digest --vanilla DIR [--partition K] [--dump FILE] [--show C]
        the EmptySectorUpdate partition circuit filecoin-proofs builds from
        DIR's partition proof K (a vanilla-snap output: snap.json,
        snap-partition-K.bin), synthesized like r1cs-digest; also prints the v28
        name of its parameter files. A snap.json with \"challenges\": N (czk
        gen-snap --challenges N) gets the size's public parameters with N
        challenges per partition
  params --circuit snap --sector-size S --cache DIR
        filecoin-proofs' EmptySectorUpdate parameters, generated where missing
  prove-snap --vanilla DIR [--cache DIR] -o PROOF
        bellperson's update proof of DIR's partition proofs
        (generate_empty_sector_update_proof_with_vanilla)
  verify-snap --vanilla DIR [--cache DIR] PROOF
        verify_empty_sector_update_proof of PROOF's bytes for DIR's commitments
        (snap.json); exit 0 only when valid
  snap-vectors
        known answers: PoseidonGR (phi, rho) and the challenges of partitions of
        every sector size for fixed commitments
  r1cs-digest --c1 FILE [--partition K] [--dump FILE] [--show C]
        synthesize partition K with bellpepper and print the R1CS and assignment
        digests (docs/r1cs-digest.md); --show prints constraint C's terms and
        namespace path. A czk test shape (CzkCustom: a registered size's shape
        with fewer challenges per partition, czk gen-c1 --challenges N) gets
        that size's setup with N challenges; the vanilla verifier checks every
        partition first
  post-digest --kind window|winning --vanilla DIR [--partition K] [--dump FILE] [--show C]
        the FallbackPoSt partition circuit filecoin-proofs builds from DIR's
        vanilla proof (a vanilla-post output), synthesized like r1cs-digest;
        also prints the v28 name of its parameter files
  prove-post --kind window|winning --vanilla DIR [--cache DIR] -o PROOF
        bellperson's proof of DIR's vanilla proof (generate_*_post_with_vanilla)
  verify-post --kind window|winning --vanilla DIR [--cache DIR] PROOF
        verify_window_post / verify_winning_post of PROOF's bytes for DIR's
        sector; exit 0 only when valid
  synth-bench --c1 FILE [--partition K] [-i N]
        time the synthesis of one partition into a constraint system that does
        bellperson's prover work (a, b, c evaluations and densities)

--cache DIR sets FIL_PROOFS_PARAMETER_CACHE (default: the environment's).
";

#[derive(Serialize, Deserialize)]
struct SectorInfo {
    registered_proof: RegisteredSealProof,
    sector_size: u64,
    miner_id: u64,
    prover_id: [u8; 32],
    sector_id: u64,
    ticket: [u8; 32],
    seed: [u8; 32],
    comm_r: [u8; 32],
    comm_d: [u8; 32],
}

/// Dispatch on the sector size to a function generic over the tree shape.
macro_rules! with_tree {
    ($size:expr, $f:ident, $($args:expr),*) => {
        match $size {
            2048 => $f::<SectorShape2KiB>($($args),*),
            8388608 => $f::<SectorShape8MiB>($($args),*),
            536870912 => $f::<SectorShape512MiB>($($args),*),
            34359738368 => $f::<SectorShape32GiB>($($args),*),
            68719476736 => $f::<SectorShape64GiB>($($args),*),
            s => bail!("unsupported sector size {}", s),
        }
    };
}

fn seal_proof_of_size(size: u64) -> Result<RegisteredSealProof> {
    Ok(match size {
        2048 => RegisteredSealProof::StackedDrg2KiBV1_1,
        8388608 => RegisteredSealProof::StackedDrg8MiBV1_1,
        536870912 => RegisteredSealProof::StackedDrg512MiBV1_1,
        34359738368 => RegisteredSealProof::StackedDrg32GiBV1_1,
        68719476736 => RegisteredSealProof::StackedDrg64GiBV1_1,
        s => bail!("unsupported sector size {}", s),
    })
}

/// prover_id as Curio builds it: the LEB128 varint of the miner id,
/// left-aligned in 32 zero bytes.
fn prover_id_of_miner(mut miner: u64) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut i = 0;
    loop {
        let b = (miner & 0x7f) as u8;
        miner >>= 7;
        if miner == 0 {
            out[i] = b;
            break;
        }
        out[i] = b | 0x80;
        i += 1;
    }
    out
}

fn set_cache(args: &[String]) {
    if let Some(dir) = arg_value(args, "--cache") {
        std::env::set_var("FIL_PROOFS_PARAMETER_CACHE", dir);
    }
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", path.display()))
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}

fn cmd_seal(args: &[String]) -> Result<()> {
    let size = parse_size(arg_value(args, "--sector-size").context("--sector-size is required")?)?;
    let seed: u64 = arg_value(args, "--seed").unwrap_or("1").parse().context("--seed wants a number")?;
    let dir = PathBuf::from(arg_value(args, "-o").context("-o DIR is required")?);
    let proof = seal_proof_of_size(size)?;
    ensure!(size <= 536870912, "seal: sector sizes up to 512MiB only (the machine seals on the CPU)");
    fs::create_dir_all(&dir)?;
    let cache = dir.join("cache");
    if cache.exists() {
        fs::remove_dir_all(&cache)?;
    }
    fs::create_dir_all(&cache)?;

    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let miner_id = 1000 + (seed % 100000);
    let prover_id = prover_id_of_miner(miner_id);
    let sector_id = 1 + (rng.next_u64() % 1_000_000);
    let mut ticket = [0u8; 32];
    let mut pseed = [0u8; 32];
    rng.fill_bytes(&mut ticket);
    rng.fill_bytes(&mut pseed);
    // Randomness from the chain is a canonical field element.
    ticket[31] &= 0x3f;
    pseed[31] &= 0x3f;

    let unpadded = UnpaddedBytesAmount(size * 127 / 128);
    let mut data = vec![0u8; unpadded.0 as usize];
    rng.fill_bytes(&mut data);
    let staged = dir.join("staged");
    let sealed = dir.join("sealed");
    fs::write(&staged, b"")?;
    fs::write(&sealed, b"")?;

    let piece: PieceInfo = step("add_piece", || {
        let target = fs::OpenOptions::new().read(true).write(true).open(&staged)?;
        let (info, _) = seal::add_piece(proof, &data[..], target, unpadded, &[])?;
        Ok(info)
    })?;
    let pieces = [piece];
    let p1 = step("pc1", || {
        seal::seal_pre_commit_phase1(
            proof,
            &cache,
            &staged,
            &sealed,
            prover_id,
            SectorId::from(sector_id),
            ticket,
            &pieces,
        )
    })?;
    let p2 = step("pc2", || seal::seal_pre_commit_phase2(p1, &cache, &sealed))?;
    let (comm_r, comm_d) = (p2.comm_r, p2.comm_d);
    let c1 = step("c1", || {
        seal::seal_commit_phase1(
            &cache,
            &sealed,
            prover_id,
            SectorId::from(sector_id),
            ticket,
            pseed,
            p2,
            &pieces,
        )
    })?;

    let inner = serde_json::to_vec(&c1)?;
    write_atomic(&dir.join("c1-inner.json"), &inner)?;
    let envelope = serde_json::json!({
        "SectorNum": sector_id,
        "Phase1Out": base64::encode(&inner),
        "SectorSize": size,
    });
    write_atomic(&dir.join("c1.json"), &serde_json::to_vec(&envelope)?)?;
    let info = SectorInfo {
        registered_proof: proof,
        sector_size: size,
        miner_id,
        prover_id,
        sector_id,
        ticket,
        seed: pseed,
        comm_r,
        comm_d,
    };
    write_atomic(&dir.join("sector.json"), &serde_json::to_vec_pretty(&info)?)?;
    let _ = fs::remove_file(&staged);
    println!("registered_proof {:?}", proof);
    println!("sector_id {}", sector_id);
    println!("comm_r {}", hex::encode(comm_r));
    println!("comm_d {}", hex::encode(comm_d));
    println!("c1 {}", dir.join("c1.json").display());
    Ok(())
}

fn gen_porep_params<Tree: 'static + MerkleTreeTrait>(proof: RegisteredSealProof) -> Result<()> {
    let config = proof.as_v1_config();
    let pp = filecoin_proofs::parameters::public_params::<Tree>(&config)?;
    let mut rng = rand::rngs::OsRng;
    step("porep params", || {
        <StackedCompound<Tree, DefaultPieceHasher> as CompoundProof<
            StackedDrg<'_, Tree, DefaultPieceHasher>,
            _,
        >>::groth_params(Some(&mut rng), &pp)?;
        Ok(())
    })?;
    step("porep vk", || {
        <StackedCompound<Tree, DefaultPieceHasher> as CompoundProof<
            StackedDrg<'_, Tree, DefaultPieceHasher>,
            _,
        >>::verifying_key(Some(&mut rng), &pp)?;
        Ok(())
    })?;
    let id = <StackedCompound<Tree, DefaultPieceHasher> as storage_proofs_core::parameter_cache::CacheableParameters<
        stacked::StackedCircuit<Tree, DefaultPieceHasher>,
        _,
    >>::cache_identifier(&pp);
    println!("porep {}", util::param_file_name(&id));
    Ok(())
}

/// Parameters made elsewhere (czk setup), read by bellperson and written back
/// by bellperson's own writer under filecoin-proofs' v28 names: the files
/// C2 and verify_seal then use are bellperson's serialization.
fn import_porep_params<Tree: 'static + MerkleTreeTrait>(
    proof: RegisteredSealProof,
    from: &Path,
    from_vk: &Path,
    cache: &Path,
) -> Result<()> {
    let config = proof.as_v1_config();
    let pp = filecoin_proofs::parameters::public_params::<Tree>(&config)?;
    let id = <StackedCompound<Tree, DefaultPieceHasher> as storage_proofs_core::parameter_cache::CacheableParameters<
        stacked::StackedCircuit<Tree, DefaultPieceHasher>,
        _,
    >>::cache_identifier(&pp);
    import_params("porep", &util::param_file_name(&id), from, from_vk, cache)
}

/// The same for the EmptySectorUpdate circuit of a sector size.
fn import_snap_params<Tree: 'static + MerkleTreeTrait<Hasher = filecoin_hashers::poseidon::PoseidonHasher>>(
    size: u64,
    from: &Path,
    from_vk: &Path,
    cache: &Path,
) -> Result<()> {
    use storage_proofs_core::parameter_cache::CacheableParameters;
    let pp = storage_proofs_update::PublicParams::from_sector_size(size);
    let id = <UpdCompound<Tree> as CacheableParameters<UpdCircuit<Tree>, _>>::cache_identifier(&pp);
    import_params("snap", &util::param_file_name(&id), from, from_vk, cache)
}

/// bellperson reads FROM (unchecked, as filecoin-proofs maps its own files)
/// and FROM_VK, checks that the embedded key is FROM_VK's, and writes both
/// with its own writers as cache/NAME and its .vk.
fn import_params(what: &str, name: &str, from: &Path, from_vk: &Path, cache: &Path) -> Result<()> {
    use bellperson::groth16::{Parameters, VerifyingKey};
    use blstrs::Bls12;
    use std::io::{BufReader, BufWriter};
    let params = step("read params", || {
        let f = fs::File::open(from).with_context(|| format!("opening {}", from.display()))?;
        Parameters::<Bls12>::read(BufReader::with_capacity(1 << 20, f), false)
            .with_context(|| format!("bellperson could not read {}", from.display()))
    })?;
    let vk = {
        let f = fs::File::open(from_vk).with_context(|| format!("opening {}", from_vk.display()))?;
        VerifyingKey::<Bls12>::read(BufReader::new(f))
            .with_context(|| format!("bellperson could not read {}", from_vk.display()))?
    };
    ensure!(params.vk == vk, "{}: its verifying key differs from {}", from.display(), from_vk.display());
    println!(
        "sections h {} l {} a {} b_g1 {} b_g2 {} ic {}",
        params.h.len(),
        params.l.len(),
        params.a.len(),
        params.b_g1.len(),
        params.b_g2.len(),
        vk.ic.len()
    );
    let out = cache.join(name);
    let out_vk = out.with_extension("vk");
    step("write params", || {
        let tmp = out.with_extension("params.tmp");
        let mut w = BufWriter::with_capacity(1 << 20, fs::File::create(&tmp)?);
        params.write(&mut w)?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        fs::rename(&tmp, &out)?;
        let mut v = Vec::new();
        vk.write(&mut v)?;
        write_atomic(&out_vk, &v)
    })?;
    println!("{} {}", what, name);
    Ok(())
}

/// filecoin-proofs' own FallbackPoSt parameters for a registered PoSt proof,
/// generated with random toxic waste where missing (its test path).
fn gen_post_params<Tree: 'static + MerkleTreeTrait>(proof: filecoin_proofs_api::RegisteredPoStProof) -> Result<()> {
    use filecoin_proofs::types::PoStType;
    use storage_proofs_core::parameter_cache::CacheableParameters;
    use storage_proofs_post::fallback::{FallbackPoSt, FallbackPoStCircuit, FallbackPoStCompound};
    let config = proof.as_v1_config();
    let pp = match config.typ {
        PoStType::Window => filecoin_proofs::parameters::window_post_public_params::<Tree>(&config)?,
        PoStType::Winning => filecoin_proofs::parameters::winning_post_public_params::<Tree>(&config)?,
    };
    let mut rng = rand::rngs::OsRng;
    step("post params", || {
        <FallbackPoStCompound<Tree> as CompoundProof<FallbackPoSt<'_, Tree>, FallbackPoStCircuit<Tree>>>::groth_params(
            Some(&mut rng),
            &pp,
        )?;
        Ok(())
    })?;
    step("post vk", || {
        <FallbackPoStCompound<Tree> as CompoundProof<FallbackPoSt<'_, Tree>, FallbackPoStCircuit<Tree>>>::verifying_key(
            Some(&mut rng),
            &pp,
        )?;
        Ok(())
    })?;
    let id = <FallbackPoStCompound<Tree> as CacheableParameters<FallbackPoStCircuit<Tree>, _>>::cache_identifier(&pp);
    println!("post {}", util::param_file_name(&id));
    Ok(())
}

/// The EmptySectorUpdate proof scheme, its circuit and its compound proof.
type Upd<Tree> = storage_proofs_update::EmptySectorUpdate<Tree>;
type UpdCircuit<Tree> = storage_proofs_update::EmptySectorUpdateCircuit<Tree>;
type UpdCompound<Tree> = storage_proofs_update::EmptySectorUpdateCompound<Tree>;

/// filecoin-proofs' own EmptySectorUpdate parameters for a sector size,
/// generated with random toxic waste where missing (its test path).
fn gen_snap_params<Tree: 'static + MerkleTreeTrait<Hasher = filecoin_hashers::poseidon::PoseidonHasher>>(
    size: u64,
) -> Result<()> {
    use storage_proofs_core::parameter_cache::CacheableParameters;
    let pp = storage_proofs_update::PublicParams::from_sector_size(size);
    let mut rng = rand::rngs::OsRng;
    step("snap params", || {
        <UpdCompound<Tree> as CompoundProof<Upd<Tree>, UpdCircuit<Tree>>>::groth_params(Some(&mut rng), &pp)?;
        Ok(())
    })?;
    step("snap vk", || {
        <UpdCompound<Tree> as CompoundProof<Upd<Tree>, UpdCircuit<Tree>>>::verifying_key(Some(&mut rng), &pp)?;
        Ok(())
    })?;
    let id = <UpdCompound<Tree> as CacheableParameters<UpdCircuit<Tree>, _>>::cache_identifier(&pp);
    println!("snap {}", util::param_file_name(&id));
    Ok(())
}

/// The v28 file stems filecoin-proofs gives the PoRep (V1_1), WindowPoSt and
/// WinningPoSt circuits of one sector size, from their public parameters
/// (cache_identifier), without generating anything.
fn param_names_tree<Tree: 'static + MerkleTreeTrait>(size: u64) -> Result<()> {
    use filecoin_proofs::types::PoStType;
    use storage_proofs_core::parameter_cache::CacheableParameters;
    use storage_proofs_post::fallback::{FallbackPoStCircuit, FallbackPoStCompound};
    let seal = seal_proof_of_size(size)?.as_v1_config();
    let pp = filecoin_proofs::parameters::public_params::<Tree>(&seal)?;
    let id = <StackedCompound<Tree, DefaultPieceHasher> as CacheableParameters<
        stacked::StackedCircuit<Tree, DefaultPieceHasher>,
        _,
    >>::cache_identifier(&pp);
    println!("porep {} {}", size, util::param_file_name(&id));
    for kind in ["window", "winning"] {
        let config = post_proof_of(kind, size)?.as_v1_config();
        let pp = match config.typ {
            PoStType::Window => filecoin_proofs::parameters::window_post_public_params::<Tree>(&config)?,
            PoStType::Winning => filecoin_proofs::parameters::winning_post_public_params::<Tree>(&config)?,
        };
        let id = <FallbackPoStCompound<Tree> as CacheableParameters<FallbackPoStCircuit<Tree>, _>>::cache_identifier(&pp);
        println!("{}-post {} {}", kind, size, util::param_file_name(&id));
    }
    Ok(())
}

/// The v28 file stem of the EmptySectorUpdate circuit of one sector size.
fn snap_param_name_tree<Tree: 'static + MerkleTreeTrait<Hasher = filecoin_hashers::poseidon::PoseidonHasher>>(
    size: u64,
) -> Result<()> {
    use storage_proofs_core::parameter_cache::CacheableParameters;
    let pp = storage_proofs_update::PublicParams::from_sector_size(size);
    let id = <UpdCompound<Tree> as CacheableParameters<UpdCircuit<Tree>, _>>::cache_identifier(&pp);
    println!("snap {} {}", size, util::param_file_name(&id));
    Ok(())
}

/// param-names: every sector size's v28 stems (param_names_tree).
fn cmd_param_names() -> Result<()> {
    for size in [2048u64, 8388608, 536870912, 34359738368, 68719476736] {
        with_tree!(size, param_names_tree, size)?;
        with_tree!(size, snap_param_name_tree, size)?;
    }
    Ok(())
}

fn cmd_params(args: &[String]) -> Result<()> {
    let size = parse_size(arg_value(args, "--sector-size").context("--sector-size is required")?)?;
    ensure!(arg_value(args, "--cache").is_some(), "--cache DIR is required");
    set_cache(args);
    fs::create_dir_all(arg_value(args, "--cache").unwrap())?;
    let circuit = arg_value(args, "--circuit").unwrap_or("porep");
    let cache = PathBuf::from(arg_value(args, "--cache").unwrap());
    match (circuit, arg_value(args, "--from")) {
        ("porep", Some(from)) => {
            let proof = seal_proof_of_size(size)?;
            let from_vk = arg_value(args, "--from-vk").context("--from wants --from-vk FILE.vk")?;
            with_tree!(size, import_porep_params, proof, Path::new(from), Path::new(from_vk), &cache)
        }
        ("porep", None) => {
            let proof = seal_proof_of_size(size)?;
            with_tree!(size, gen_porep_params, proof)
        }
        ("window-post", None) => with_tree!(size, gen_post_params, post_proof_of("window", size)?),
        ("winning-post", None) => with_tree!(size, gen_post_params, post_proof_of("winning", size)?),
        ("snap", None) => with_tree!(size, gen_snap_params, size),
        ("snap", Some(from)) => {
            let from_vk = arg_value(args, "--from-vk").context("--from wants --from-vk FILE.vk")?;
            with_tree!(size, import_snap_params, size, Path::new(from), Path::new(from_vk), &cache)
        }
        (c, _) => bail!("--circuit: porep, window-post, winning-post or snap (--from: porep or snap), got '{}'", c),
    }
}

fn load_porep_params<Tree: 'static + MerkleTreeTrait>(proof: RegisteredSealProof, iters: usize) -> Result<()> {
    let config = proof.as_v1_config();
    let pp = filecoin_proofs::parameters::public_params::<Tree>(&config)?;
    for i in 0..iters {
        let t = Instant::now();
        let cpu0 = util::cpu_seconds();
        let p = <StackedCompound<Tree, DefaultPieceHasher> as CompoundProof<
            StackedDrg<'_, Tree, DefaultPieceHasher>,
            _,
        >>::groth_params::<rand::rngs::OsRng>(None, &pp)?;
        println!(
            "iter {} load {:.3} s cpu {:.3} s (h {} l {} a {} b_g1 {} b_g2 {})",
            i,
            t.elapsed().as_secs_f64(),
            util::cpu_seconds() - cpu0,
            p.h.len(),
            p.l.len(),
            p.a.len(),
            p.b_g1.len(),
            p.b_g2.len()
        );
    }
    Ok(())
}

fn cmd_load_params(args: &[String]) -> Result<()> {
    let size = parse_size(arg_value(args, "--sector-size").context("--sector-size is required")?)?;
    let iters: usize = arg_value(args, "-i").unwrap_or("1").parse().context("-i wants a number")?;
    set_cache(args);
    let proof = seal_proof_of_size(size)?;
    with_tree!(size, load_porep_params, proof, iters)
}

fn post_proof_of(kind: &str, size: u64) -> Result<filecoin_proofs_api::RegisteredPoStProof> {
    use filecoin_proofs_api::RegisteredPoStProof::*;
    Ok(match (kind, size) {
        ("window", 2048) => StackedDrgWindow2KiBV1_2,
        ("window", 8388608) => StackedDrgWindow8MiBV1_2,
        ("window", 536870912) => StackedDrgWindow512MiBV1_2,
        ("window", 34359738368) => StackedDrgWindow32GiBV1_2,
        ("window", 68719476736) => StackedDrgWindow64GiBV1_2,
        ("winning", 2048) => StackedDrgWinning2KiBV1,
        ("winning", 8388608) => StackedDrgWinning8MiBV1,
        ("winning", 536870912) => StackedDrgWinning512MiBV1,
        ("winning", 34359738368) => StackedDrgWinning32GiBV1,
        ("winning", 68719476736) => StackedDrgWinning64GiBV1,
        _ => bail!("--kind wants window or winning (got '{}', sector size {})", kind, size),
    })
}

fn random32(seed: u64, salt: u64) -> [u8; 32] {
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ salt.rotate_left(32));
    let mut r = [0u8; 32];
    rng.fill_bytes(&mut r);
    r[31] &= 0x3f; // a canonical field element, as Curio passes it
    r
}

fn cmd_vanilla_post(args: &[String]) -> Result<()> {
    use filecoin_proofs_api::post;
    let dir = PathBuf::from(args.last().context("vanilla-post ... DIR")?);
    let kind = arg_value(args, "--kind").context("--kind window|winning is required")?;
    let seed: u64 = arg_value(args, "--seed").unwrap_or("1").parse().context("--seed wants a number")?;
    let out = PathBuf::from(arg_value(args, "-o").context("-o OUT is required")?);
    let dir = if dir == out { bail!("vanilla-post: the sector DIR comes last") } else { dir };
    fs::create_dir_all(&out)?;
    let info: SectorInfo = read_json(&dir.join("sector.json"))?;
    let proof = post_proof_of(kind, info.sector_size)?;
    let randomness = random32(seed, 0x9057);
    let sid = SectorId::from(info.sector_id);
    let replica = filecoin_proofs_api::PrivateReplicaInfo::new(proof, info.comm_r, dir.join("cache"), dir.join("sealed"));
    if kind == "winning" {
        let chosen = step("winning sector choice", || {
            post::generate_winning_post_sector_challenge(proof, &randomness, 1, info.prover_id)
        })?;
        ensure!(chosen.iter().all(|&i| i == 0), "winning sector choice out of a set of one: {:?}", chosen);
    }
    let challenges = step("challenges", || {
        post::generate_fallback_sector_challenges(proof, &randomness, &[sid], info.prover_id)
    })?;
    let ch = challenges.get(&sid).context("no challenges for the sector")?;
    let bytes = step("vanilla proof", || post::generate_single_vanilla_proof(proof, sid, &replica, ch))?;
    write_atomic(&out.join(format!("vanilla-{}.bin", kind)), &bytes)?;
    let meta = serde_json::json!({
        "registered_post_proof": proof,
        "randomness": randomness,
        "prover_id": info.prover_id,
        "miner_id": info.miner_id,
        "sector_ids": [info.sector_id],
        "comm_r": [info.comm_r],
        "challenges": ch,
    });
    write_atomic(&out.join(format!("post-{}.json", kind)), &serde_json::to_vec_pretty(&meta)?)?;
    println!("vanilla {} ({} bytes, {} challenges)", out.join(format!("vanilla-{}.bin", kind)).display(), bytes.len(), ch.len());
    Ok(())
}

fn update_proof_of(size: u64) -> Result<filecoin_proofs_api::RegisteredUpdateProof> {
    use filecoin_proofs_api::RegisteredUpdateProof::*;
    Ok(match size {
        2048 => StackedDrg2KiBV1,
        8388608 => StackedDrg8MiBV1,
        536870912 => StackedDrg512MiBV1,
        34359738368 => StackedDrg32GiBV1,
        68719476736 => StackedDrg64GiBV1,
        s => bail!("unsupported sector size {}", s),
    })
}

fn cmd_vanilla_snap(args: &[String]) -> Result<()> {
    use filecoin_proofs_api::update;
    let dir = PathBuf::from(args.last().context("vanilla-snap ... DIR")?);
    let seed: u64 = arg_value(args, "--seed").unwrap_or("1").parse().context("--seed wants a number")?;
    let out = PathBuf::from(arg_value(args, "-o").context("-o OUT is required")?);
    ensure!(dir != out, "vanilla-snap: the sector DIR comes last");
    fs::create_dir_all(&out)?;
    let info: SectorInfo = read_json(&dir.join("sector.json"))?;
    let proof = update_proof_of(info.sector_size)?;
    let unpadded = UnpaddedBytesAmount(info.sector_size * 127 / 128);
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ 0x5a4b);
    let mut data = vec![0u8; unpadded.0 as usize];
    rng.fill_bytes(&mut data);
    let staged = out.join("staged-new");
    let new_replica = out.join("sealed-new");
    let new_cache = out.join("cache-new");
    fs::write(&staged, b"")?;
    // encode_into writes into a replica file of the sector key's size
    fs::File::create(&new_replica)?.set_len(info.sector_size)?;
    if new_cache.exists() {
        fs::remove_dir_all(&new_cache)?;
    }
    fs::create_dir_all(&new_cache)?;
    let seal_proof = info.registered_proof;
    let piece = step("add_piece", || {
        let target = fs::OpenOptions::new().read(true).write(true).open(&staged)?;
        let (p, _) = seal::add_piece(seal_proof, &data[..], target, unpadded, &[])?;
        Ok(p)
    })?;
    let enc = step("encode_into", || {
        update::empty_sector_update_encode_into(
            proof,
            &new_replica,
            &new_cache,
            dir.join("sealed"),
            dir.join("cache"),
            &staged,
            &[piece],
        )
    })?;
    let parts = step("partition proofs", || {
        update::generate_partition_proofs(
            proof,
            info.comm_r,
            enc.comm_r_new,
            enc.comm_d_new,
            dir.join("sealed"),
            dir.join("cache"),
            &new_replica,
            &new_cache,
        )
    })?;
    let ok = step("verify partition proofs", || {
        update::verify_partition_proofs(proof, &parts, info.comm_r, enc.comm_r_new, enc.comm_d_new)
    })?;
    ensure!(ok, "filecoin-proofs rejected its own partition proofs");
    for (k, p) in parts.iter().enumerate() {
        write_atomic(&out.join(format!("snap-partition-{}.bin", k)), &p.0)?;
    }
    let meta = serde_json::json!({
        "registered_update_proof": proof,
        "comm_r_old": info.comm_r,
        "comm_r_new": enc.comm_r_new,
        "comm_d_new": enc.comm_d_new,
        "partitions": parts.len(),
    });
    write_atomic(&out.join("snap.json"), &serde_json::to_vec_pretty(&meta)?)?;
    let _ = fs::remove_file(&staged);
    println!("comm_r_new {}", hex::encode(enc.comm_r_new));
    println!("comm_d_new {}", hex::encode(enc.comm_d_new));
    println!("partitions {} ({} bytes each)", parts.len(), parts.first().map(|p| p.0.len()).unwrap_or(0));
    Ok(())
}

fn read_sector(dir: &Path) -> Result<(SectorInfo, SealCommitPhase1Output)> {
    let info: SectorInfo = read_json(&dir.join("sector.json"))?;
    let c1: SealCommitPhase1Output = read_json(&dir.join("c1-inner.json"))?;
    Ok((info, c1))
}

fn cmd_prove_c2(args: &[String]) -> Result<()> {
    let dir = PathBuf::from(args.first().context("prove-c2 DIR")?);
    set_cache(args);
    let out = arg_value(args, "-o").map(PathBuf::from).unwrap_or_else(|| dir.join("proof-bellperson.bin"));
    let (info, c1) = read_sector(&dir)?;
    util::capture_bellperson_log();
    let proof = step("c2", || seal::seal_commit_phase2(c1, info.prover_id, SectorId::from(info.sector_id)))?;
    if let Some(s) = util::logged_synthesis_seconds() {
        println!("step c2.synthesis {:.3}", s);
    }
    write_atomic(&out, &proof.proof)?;
    println!("proof {} ({} bytes)", out.display(), proof.proof.len());
    Ok(())
}

fn cmd_verify_seal(args: &[String]) -> Result<bool> {
    let dir = PathBuf::from(args.first().context("verify-seal DIR PROOF")?);
    let proof_path = PathBuf::from(args.get(1).context("verify-seal DIR PROOF")?);
    set_cache(args);
    let (info, _) = read_sector(&dir)?;
    let proof = fs::read(&proof_path).with_context(|| format!("reading {}", proof_path.display()))?;
    let ok = step("verify_seal", || {
        seal::verify_seal(
            info.registered_proof,
            info.comm_r,
            info.comm_d,
            info.prover_id,
            SectorId::from(info.sector_id),
            info.ticket,
            info.seed,
            &proof,
        )
    });
    Ok(verdict(ok, &proof_path))
}

/// A verifier's answer as a line and a result: filecoin-proofs refuses some
/// malformed proofs (points that do not decode) with an error rather than
/// `false`; either way the proof is not accepted.
fn verdict(r: Result<bool>, proof_path: &Path) -> bool {
    match r {
        Ok(true) => {
            println!("valid {}", proof_path.display());
            true
        }
        Ok(false) => {
            println!("INVALID {}", proof_path.display());
            false
        }
        Err(e) => {
            println!("INVALID {}: {:#}", proof_path.display(), e);
            false
        }
    }
}

/// The public parameters of a C1's partition circuit: filecoin-proofs' own
/// for its registered proof, or for a czk test shape (`read_c1_any`) the same
/// setup with `challenges` challenges per partition and the porep id czk gives
/// every custom shape (its 2KiB V1_1 one: the parents czk computed).
fn porep_public_params<Tree: 'static + MerkleTreeTrait>(
    c1: &SealCommitPhase1Output,
    challenges: Option<usize>,
) -> Result<stacked::PublicParams<Tree>> {
    let config = c1.registered_proof.as_v1_config();
    let Some(k) = challenges else { return filecoin_proofs::parameters::public_params::<Tree>(&config) };
    let mut sp = filecoin_proofs::parameters::setup_params(&config)?;
    sp.challenges = stacked::Challenges::new_interactive(k);
    sp.porep_id = RegisteredSealProof::StackedDrg2KiBV1_1.as_v1_config().porep_id;
    <StackedDrg<'_, Tree, DefaultPieceHasher> as ProofScheme<'_>>::setup(&sp)
}

/// The partition circuit for partition k of a C1, exactly as
/// seal_commit_phase2 builds it (for a test shape: with its public
/// parameters).
fn porep_circuit<Tree: 'static + MerkleTreeTrait>(
    c1: SealCommitPhase1Output,
    k: usize,
    challenges: Option<usize>,
) -> Result<stacked::StackedCircuit<Tree, DefaultPieceHasher>> {
    let pp = porep_public_params::<Tree>(&c1, challenges)?;
    let public_inputs = porep_public_inputs::<Tree>(&c1, Some(k))?;
    let vanilla: Vec<Vec<filecoin_proofs::types::VanillaSealProof<Tree>>> = c1.vanilla_proofs.try_into()?;
    ensure!(k < vanilla.len(), "partition {} out of range (C1 has {})", k, vanilla.len());
    let n = pp.challenges.num_challenges_per_partition();
    ensure!(vanilla[k].len() == n, "partition {} has {} challenge proofs, its setup {}", k, vanilla[k].len(), n);
    <StackedCompound<Tree, DefaultPieceHasher> as CompoundProof<StackedDrg<'_, Tree, DefaultPieceHasher>, _>>::circuit(
        &public_inputs,
        (),
        &vanilla[k],
        &pp,
        Some(k),
    )
}

fn porep_public_inputs<Tree: 'static + MerkleTreeTrait>(
    c1: &SealCommitPhase1Output,
    k: Option<usize>,
) -> Result<stacked::PublicInputs<<Tree::Hasher as filecoin_hashers::Hasher>::Domain, DefaultPieceDomain>> {
    let replica_id: Fr = c1.replica_id.into();
    Ok(stacked::PublicInputs {
        replica_id: replica_id.into(),
        tau: Some(stacked::Tau {
            comm_d: DefaultPieceDomain::try_from_bytes(&c1.comm_d)?,
            comm_r: filecoin_proofs::as_safe_commitment(&c1.comm_r, "comm_r")?,
        }),
        k,
        seed: Some(c1.seed),
    })
}

/// filecoin-proofs' vanilla verifier on every partition of a test-shape C1,
/// with its public parameters: the challenges (derived for that many per
/// partition), parents, labels, columns and inclusion paths czk generated
/// are the reference's.
fn verify_test_c1<Tree: 'static + MerkleTreeTrait>(c1: &SealCommitPhase1Output, challenges: usize) -> Result<bool> {
    let pp = porep_public_params::<Tree>(c1, Some(challenges))?;
    let vanilla: Vec<Vec<filecoin_proofs::types::VanillaSealProof<Tree>>> = c1.vanilla_proofs.clone().try_into()?;
    let public_inputs = porep_public_inputs::<Tree>(c1, None)?;
    <StackedDrg<'_, Tree, DefaultPieceHasher> as ProofScheme<'_>>::verify_all_partitions(&pp, &public_inputs, &vanilla)
}

/// A C1 file, inner or in Curio's envelope. czk's test shapes
/// ("registered_proof": "CzkCustom" with "czk_shape") are read when the shape
/// is a registered sector size's with fewer challenges per partition: as that
/// size's C1, and the challenge count.
fn read_c1_any(path: &Path) -> Result<(SealCommitPhase1Output, Option<usize>)> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let mut v: serde_json::Value =
        serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", path.display()))?;
    if let Some(p1) = v.get("Phase1Out") {
        let b64 = p1.as_str().context("Phase1Out is not a string")?;
        let inner = base64::decode(b64).context("Phase1Out is not base64")?;
        v = serde_json::from_slice(&inner).context("parsing Phase1Out")?;
    }
    let mut challenges = None;
    if v.get("registered_proof").and_then(|p| p.as_str()) == Some("CzkCustom") {
        challenges = Some(test_shape_as_registered(&mut v).with_context(|| format!("{}: czk_shape", path.display()))?);
    }
    let c1 = serde_json::from_value(v).with_context(|| format!("parsing {} as SealCommitPhase1Output", path.display()))?;
    Ok((c1, challenges))
}

/// Rewrite a CzkCustom C1 as the registered proof whose shape it has (nodes,
/// layers, tree arities, partitions) and return its challenges per
/// partition, fewer than or as many as the registered proof's.
fn test_shape_as_registered(v: &mut serde_json::Value) -> Result<usize> {
    let shape = v.get("czk_shape").context("missing")?.clone();
    let field = |k: &str| shape.get(k).and_then(|x| x.as_u64()).with_context(|| format!("{} is not a number", k));
    let (nodes, layers, partitions, challenges) =
        (field("nodes")?, field("layers")?, field("partitions")?, field("challenges")? as usize);
    let mut tree: Vec<u64> = shape.get("tree").and_then(|t| t.as_array()).context("tree is not an array")?.iter()
        .map(|x| x.as_u64().unwrap_or(0)).collect();
    while tree.last() == Some(&0) {
        tree.pop();
    }
    let size = nodes * 32;
    let proof = seal_proof_of_size(size).context("no registered proof of that node count")?;
    let (want_tree, key): (&[u64], &str) = match size {
        2048 => (&[8], "StackedDrg2KiBV1"),
        8388608 => (&[8], "StackedDrg8MiBV1"),
        536870912 => (&[8], "StackedDrg512MiBV1"),
        34359738368 => (&[8, 8], "StackedDrg32GiBV1"),
        _ => (&[8, 8, 2], "StackedDrg64GiBV1"),
    };
    let config = proof.as_v1_config();
    let want_layers = *filecoin_proofs::constants::LAYERS.read().expect("LAYERS").get(&size).context("layers")?;
    let want_challenges = filecoin_proofs::parameters::setup_params(&config)?.challenges.num_challenges_per_partition();
    ensure!(
        layers as usize == want_layers && tree == want_tree && partitions == u64::from(usize::from(config.partitions) as u64)
            && challenges >= 1 && challenges <= want_challenges,
        "{:?}: not {:?}'s shape ({} layers, tree {:?}, {} partitions) with 1 to {} challenges",
        shape, proof, want_layers, want_tree, usize::from(config.partitions), want_challenges
    );
    let obj = v.as_object_mut().context("not an object")?;
    obj.remove("czk_shape");
    obj.insert("registered_proof".into(), serde_json::to_value(proof)?);
    let proofs = obj.get_mut("vanilla_proofs").and_then(|p| p.as_object_mut()).context("vanilla_proofs")?;
    let parts = proofs.remove("CzkCustom").context("vanilla_proofs has no CzkCustom")?;
    proofs.insert(key.into(), parts);
    Ok(challenges)
}

fn digest_tree<Tree: 'static + MerkleTreeTrait>(
    c1: SealCommitPhase1Output,
    challenges: Option<usize>,
    args: &[String],
) -> Result<bool> {
    let k: usize = arg_value(args, "--partition").unwrap_or("0").parse().context("--partition wants a number")?;
    if let Some(n) = challenges {
        let ok = step("verify vanilla", || verify_test_c1::<Tree>(&c1, n))?;
        println!("test shape {:?} with {} challenges per partition: vanilla proofs {}", c1.registered_proof, n,
            if ok { "valid" } else { "INVALID" });
        ensure!(ok, "filecoin-proofs' vanilla verifier rejects the test shape's proofs");
    }
    let circuit = step("circuit", || porep_circuit::<Tree>(c1, k, challenges))?;
    digest_circuit(circuit, args)
}

/// Synthesize a circuit into the digest recorder and print its counts and
/// digests (and --dump / --show as asked); false when it is unsatisfied.
fn digest_circuit<C: Circuit<Fr>>(circuit: C, args: &[String]) -> Result<bool> {
    let show: Option<u64> = match arg_value(args, "--show") {
        Some(s) => Some(s.parse().context("--show wants a constraint index")?),
        None => None,
    };
    let mut cs = digest::DigestCs::new(arg_value(args, "--dump").is_some(), show);
    let t = Instant::now();
    cs.alloc_input(|| "one", || Ok(Fr::ONE))?;
    circuit.synthesize(&mut cs).map_err(|e| anyhow::anyhow!("synthesis failed: {:?}", e))?;
    println!("step synthesize+digest {:.3}", t.elapsed().as_secs_f64());
    let d = cs.finish();
    println!("inputs {}", d.n_inputs);
    println!("aux {}", d.n_aux);
    println!("constraints {}", d.n_constraints);
    println!("r1cs digest {}", hex::encode(d.r1cs));
    println!("assignment digest {}", hex::encode(d.assignment));
    if let Some(text) = &d.shown {
        print!("{}", text);
    } else if let Some(c) = show {
        println!("constraint {} does not exist ({} constraints)", c, d.n_constraints);
    }
    if let Some(path) = arg_value(args, "--dump") {
        let mut buf = Vec::with_capacity(32 + 32 * d.hashes.len());
        buf.extend_from_slice(b"CZKR1CS1");
        for v in [d.n_inputs, d.n_aux, d.n_constraints] {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        for h in &d.hashes {
            buf.extend_from_slice(h);
        }
        write_atomic(Path::new(path), &buf)?;
        println!("dump {}", path);
    }
    Ok(d.unsatisfied.is_none() || {
        println!("UNSATISFIED constraint {}", d.unsatisfied.unwrap());
        false
    })
}

/// What `vanilla-post` writes beside the proof bytes (post-KIND.json).
#[derive(Deserialize)]
struct PostMeta {
    registered_post_proof: filecoin_proofs_api::RegisteredPoStProof,
    randomness: [u8; 32],
    prover_id: [u8; 32],
    sector_ids: Vec<u64>,
    comm_r: Vec<[u8; 32]>,
}

fn read_post(args: &[String]) -> Result<(PostMeta, Vec<u8>, String)> {
    let dir = PathBuf::from(arg_value(args, "--vanilla").context("--vanilla DIR (a vanilla-post output) is required")?);
    let kind = arg_value(args, "--kind").context("--kind window|winning is required")?;
    ensure!(kind == "window" || kind == "winning", "--kind: window or winning, got '{}'", kind);
    let meta: PostMeta = read_json(&dir.join(format!("post-{}.json", kind)))?;
    let path = dir.join(format!("vanilla-{}.bin", kind));
    let bytes = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    Ok((meta, bytes, kind.to_string()))
}

/// The partition circuit filecoin-proofs builds from one sector's vanilla
/// proof (generate_{window,winning}_post_with_vanilla), and the v28 stem of
/// its parameter files.
fn post_circuit<Tree: 'static + MerkleTreeTrait>(
    meta: &PostMeta,
    vanilla: &[u8],
    k: usize,
) -> Result<(storage_proofs_post::fallback::FallbackPoStCircuit<Tree>, String)> {
    use filecoin_proofs::types::{FallbackPoStSectorProof, PoStType};
    use storage_proofs_core::compound_proof::SetupParams;
    use storage_proofs_core::parameter_cache::CacheableParameters;
    use storage_proofs_post::fallback::{self, FallbackPoSt, FallbackPoStCircuit, FallbackPoStCompound, PublicSector};
    let config = meta.registered_post_proof.as_v1_config();
    let proof: FallbackPoStSectorProof<Tree> =
        bincode::deserialize(vanilla).context("bincode FallbackPoStSectorProof")?;
    ensure!(
        meta.sector_ids.first() == Some(&u64::from(proof.sector_id)),
        "the vanilla proof is of sector {}, the json names {:?}",
        u64::from(proof.sector_id),
        meta.sector_ids
    );
    let proofs = vec![proof];
    let (vanilla_params, partitions) = match config.typ {
        PoStType::Window => {
            let n = proofs.len().div_ceil(config.sector_count);
            (filecoin_proofs::parameters::window_post_setup_params(&config), if n > 1 { Some(n) } else { None })
        }
        PoStType::Winning => (filecoin_proofs::parameters::winning_post_setup_params(&config)?, None),
    };
    let setup = SetupParams { vanilla_params, partitions, priority: false };
    let pp = <FallbackPoStCompound<Tree> as CompoundProof<FallbackPoSt<'_, Tree>, FallbackPoStCircuit<Tree>>>::setup(
        &setup,
    )?;
    let pub_inputs = fallback::PublicInputs {
        randomness: filecoin_proofs::as_safe_commitment(&meta.randomness, "randomness")?,
        prover_id: filecoin_proofs::as_safe_commitment(&meta.prover_id, "prover_id")?,
        sectors: proofs.iter().map(|p| PublicSector { id: p.sector_id, comm_r: p.comm_r }).collect(),
        k: None,
    };
    let parts = filecoin_proofs::partition_vanilla_proofs(
        &config,
        &pp.vanilla_params,
        &pub_inputs,
        pp.partitions.unwrap_or(1),
        &proofs,
    )?;
    ensure!(k < parts.len(), "partition {} out of range ({} partitions)", k, parts.len());
    let circuit = <FallbackPoStCompound<Tree> as CompoundProof<FallbackPoSt<'_, Tree>, FallbackPoStCircuit<Tree>>>::circuit(
        &pub_inputs,
        Default::default(),
        &parts[k],
        &pp.vanilla_params,
        Some(k),
    )?;
    let id = <FallbackPoStCompound<Tree> as CacheableParameters<FallbackPoStCircuit<Tree>, _>>::cache_identifier(
        &pp.vanilla_params,
    );
    Ok((circuit, util::param_file_name(&id)))
}

fn post_digest_tree<Tree: 'static + MerkleTreeTrait>(meta: PostMeta, vanilla: Vec<u8>, args: &[String]) -> Result<bool> {
    let k: usize = arg_value(args, "--partition").unwrap_or("0").parse().context("--partition wants a number")?;
    let (circuit, params) = step("circuit", || post_circuit::<Tree>(&meta, &vanilla, k))?;
    println!("params {}", params);
    digest_circuit(circuit, args)
}

fn cmd_post_digest(args: &[String]) -> Result<bool> {
    let (meta, bytes, _) = read_post(args)?;
    let size = u64::from(meta.registered_post_proof.sector_size());
    with_tree!(size, post_digest_tree, meta, bytes, args)
}

/// bellperson's proof of DIR's vanilla PoSt proof through filecoin-proofs-api
/// (generate_{window,winning}_post_with_vanilla); parameters from the cache.
fn cmd_prove_post(args: &[String]) -> Result<()> {
    use filecoin_proofs_api::post;
    set_cache(args);
    let (meta, bytes, kind) = read_post(args)?;
    let out = PathBuf::from(arg_value(args, "-o").context("-o PROOF is required")?);
    let proofs = step("prove", || {
        if kind == "window" {
            post::generate_window_post_with_vanilla(meta.registered_post_proof, &meta.randomness, meta.prover_id, &[bytes])
        } else {
            post::generate_winning_post_with_vanilla(meta.registered_post_proof, &meta.randomness, meta.prover_id, &[bytes])
        }
    })?;
    ensure!(proofs.len() == 1, "{} proofs, wanted one", proofs.len());
    write_atomic(&out, &proofs[0].1)?;
    println!("proof {} ({} bytes)", out.display(), proofs[0].1.len());
    Ok(())
}

/// verify_window_post / verify_winning_post of PROOF's bytes for the sector
/// of a vanilla-post output DIR; parameters from the cache.
fn cmd_verify_post(args: &[String]) -> Result<bool> {
    use filecoin_proofs_api::{post, PublicReplicaInfo};
    use std::collections::BTreeMap;
    set_cache(args);
    let (meta, _, kind) = read_post(args)?;
    let proof_path = PathBuf::from(args.last().context("verify-post ... PROOF")?);
    let proof = fs::read(&proof_path).with_context(|| format!("reading {}", proof_path.display()))?;
    let mut replicas = BTreeMap::new();
    for (id, comm_r) in meta.sector_ids.iter().zip(meta.comm_r.iter()) {
        replicas.insert(SectorId::from(*id), PublicReplicaInfo::new(meta.registered_post_proof, *comm_r));
    }
    let t = Instant::now();
    let r = if kind == "window" {
        post::verify_window_post(&meta.randomness, &[(meta.registered_post_proof, &proof)], &replicas, meta.prover_id)
    } else {
        post::verify_winning_post(&meta.randomness, &proof, &replicas, meta.prover_id)
    };
    println!("step verify {:.3}", t.elapsed().as_secs_f64());
    Ok(verdict(r, &proof_path))
}

/// What `vanilla-snap` writes beside the partition proofs (snap.json);
/// `challenges` only for a czk test shape (`czk gen-snap --challenges K`:
/// the sector size's circuit with K challenges per partition).
#[derive(Deserialize)]
struct SnapMeta {
    registered_update_proof: filecoin_proofs_api::RegisteredUpdateProof,
    comm_r_old: [u8; 32],
    comm_r_new: [u8; 32],
    comm_d_new: [u8; 32],
    partitions: usize,
    #[serde(default)]
    challenges: Option<usize>,
}

fn read_snap(args: &[String]) -> Result<(SnapMeta, Vec<Vec<u8>>)> {
    let dir = PathBuf::from(arg_value(args, "--vanilla").context("--vanilla DIR (a vanilla-snap output) is required")?);
    let meta: SnapMeta = read_json(&dir.join("snap.json"))?;
    let mut parts = Vec::new();
    for k in 0..meta.partitions {
        let path = dir.join(format!("snap-partition-{}.bin", k));
        parts.push(fs::read(&path).with_context(|| format!("reading {}", path.display()))?);
    }
    Ok((meta, parts))
}

/// The partition circuit filecoin-proofs builds for proving partition k of
/// an update (EmptySectorUpdateCompound::circuit with the default h), and
/// the v28 stem of its parameter files.
fn snap_circuit<Tree: 'static + MerkleTreeTrait<Hasher = filecoin_hashers::poseidon::PoseidonHasher>>(
    meta: &SnapMeta,
    parts: &[Vec<u8>],
    k: usize,
) -> Result<(UpdCircuit<Tree>, String)> {
    use filecoin_hashers::{poseidon::PoseidonDomain, sha256::Sha256Domain};
    use storage_proofs_core::parameter_cache::CacheableParameters;
    use storage_proofs_update::{constants::h_default, PartitionProof, PublicInputs, PublicParams};
    ensure!(k < parts.len(), "partition {} out of range ({} partitions)", k, parts.len());
    let mut pp = PublicParams::from_sector_size(u64::from(meta.registered_update_proof.sector_size()));
    let id = <UpdCompound<Tree> as CacheableParameters<UpdCircuit<Tree>, _>>::cache_identifier(&pp);
    let params = match meta.challenges {
        None => util::param_file_name(&id),
        Some(n) => {
            // the reference's own public parameters with fewer challenges:
            // its circuit derives that many (ceil(n / per digest) digests)
            ensure!(n >= 1 && n <= pp.challenge_count, "challenges {}: 1 to {}", n, pp.challenge_count);
            pp.challenge_count = n;
            format!("(none: a test shape, {} challenges per partition)", n)
        }
    };
    let proof: PartitionProof<Tree> = bincode::deserialize(&parts[k]).context("bincode PartitionProof")?;
    ensure!(
        proof.challenge_proofs.len() == pp.challenge_count,
        "partition {} proves {} challenges, its circuit {}",
        k,
        proof.challenge_proofs.len(),
        pp.challenge_count
    );
    let pub_inputs = PublicInputs {
        k,
        comm_r_old: PoseidonDomain::try_from_bytes(&meta.comm_r_old)?,
        comm_d_new: Sha256Domain::try_from_bytes(&meta.comm_d_new)?,
        comm_r_new: PoseidonDomain::try_from_bytes(&meta.comm_r_new)?,
        h: h_default(pp.sector_nodes),
    };
    let circuit = <UpdCompound<Tree> as CompoundProof<Upd<Tree>, UpdCircuit<Tree>>>::circuit(
        &pub_inputs,
        (),
        &proof,
        &pp,
        Some(k),
    )?;
    Ok((circuit, params))
}

fn snap_digest_tree<Tree: 'static + MerkleTreeTrait<Hasher = filecoin_hashers::poseidon::PoseidonHasher>>(
    meta: SnapMeta,
    parts: Vec<Vec<u8>>,
    args: &[String],
) -> Result<bool> {
    let k: usize = arg_value(args, "--partition").unwrap_or("0").parse().context("--partition wants a number")?;
    let (circuit, params) = step("circuit", || snap_circuit::<Tree>(&meta, &parts, k))?;
    println!("params {}", params);
    digest_circuit(circuit, args)
}

fn cmd_snap_digest(args: &[String]) -> Result<bool> {
    let (meta, parts) = read_snap(args)?;
    let size = u64::from(meta.registered_update_proof.sector_size());
    with_tree!(size, snap_digest_tree, meta, parts, args)
}

/// bellperson's proof of an update from its partition proofs, through
/// filecoin-proofs-api; parameters from the cache.
fn cmd_prove_snap(args: &[String]) -> Result<()> {
    use filecoin_proofs_api::{update, PartitionProofBytes};
    set_cache(args);
    let (meta, parts) = read_snap(args)?;
    ensure!(meta.challenges.is_none(), "a test shape ({:?} challenges) has no parameters to prove with", meta.challenges);
    let out = PathBuf::from(arg_value(args, "-o").context("-o PROOF is required")?);
    let vanilla: Vec<PartitionProofBytes> = parts.into_iter().map(PartitionProofBytes).collect();
    let proof = step("prove", || {
        update::generate_empty_sector_update_proof_with_vanilla(
            meta.registered_update_proof,
            vanilla,
            meta.comm_r_old,
            meta.comm_r_new,
            meta.comm_d_new,
        )
    })?;
    write_atomic(&out, &proof.0)?;
    println!("proof {} ({} bytes)", out.display(), proof.0.len());
    Ok(())
}

/// verify_empty_sector_update_proof of PROOF's bytes for the commitments of
/// a vanilla-snap output DIR; parameters from the cache.
fn cmd_verify_snap(args: &[String]) -> Result<bool> {
    use filecoin_proofs_api::update;
    set_cache(args);
    let dir = PathBuf::from(arg_value(args, "--vanilla").context("--vanilla DIR is required")?);
    let meta: SnapMeta = read_json(&dir.join("snap.json"))?;
    ensure!(meta.challenges.is_none(), "a test shape ({:?} challenges) has no verifying key", meta.challenges);
    let proof_path = PathBuf::from(args.last().context("verify-snap ... PROOF")?);
    let proof = fs::read(&proof_path).with_context(|| format!("reading {}", proof_path.display()))?;
    let t = Instant::now();
    let r = update::verify_empty_sector_update_proof(
        meta.registered_update_proof,
        &proof,
        meta.comm_r_old,
        meta.comm_r_new,
        meta.comm_d_new,
    );
    println!("step verify {:.3}", t.elapsed().as_secs_f64());
    Ok(verdict(r, &proof_path))
}

/// Known answers for czk's tests: PoseidonGR through the reference's phi
/// and rho, and the first challenges of partitions of each size for one
/// comm_r_new (values as 32-byte little-endian hex).
fn cmd_snap_vectors() -> Result<()> {
    use filecoin_hashers::{poseidon::PoseidonDomain, sha256::Sha256Domain};
    use storage_proofs_update::{constants::partition_count, phi, rho, Challenges};
    let fr_hex = |f: Fr| hex::encode(f.to_bytes_le());
    let dom = |n: u64| -> Result<[u8; 32]> {
        let mut b = [0u8; 32];
        b[..8].copy_from_slice(&n.to_le_bytes());
        Ok(b)
    };
    let zero_d = Sha256Domain::try_from_bytes(&dom(0)?)?;
    let zero_r = PoseidonDomain::try_from_bytes(&dom(0)?)?;
    let p0: Fr = phi(&zero_d, &zero_r).into();
    println!("gr 0 0 {}", fr_hex(p0));
    let d12 = Sha256Domain::try_from_bytes(&dom(1)?)?;
    let r12 = PoseidonDomain::try_from_bytes(&dom(2)?)?;
    let p12: Fr = phi(&d12, &r12).into();
    println!("gr 1 2 {}", fr_hex(p12));
    let r7 = rho(&r12, 7);
    println!("gr 2 7 {}", fr_hex(r7));
    let comm_r_new = PoseidonDomain::try_from_bytes(&random32(3, 0x5eed))?;
    println!("comm_r_new {}", hex::encode(random32(3, 0x5eed)));
    for log2 in [5usize, 6, 7, 8, 9, 10, 18, 19, 24, 30, 31] {
        let nodes = 1usize << log2;
        let parts = partition_count(nodes);
        for k in [0, parts - 1] {
            let c: Vec<String> = Challenges::new(nodes, comm_r_new, k).take(12).map(|c| c.to_string()).collect();
            println!("challenges {} {} {}", nodes, k, c.join(" "));
            if parts == 1 {
                break;
            }
        }
    }
    Ok(())
}

fn cmd_r1cs_digest(args: &[String]) -> Result<bool> {
    let path = PathBuf::from(arg_value(args, "--c1").context("--c1 FILE is required")?);
    let (c1, challenges) = step("read c1", || read_c1_any(&path))?;
    let size = u64::from(c1.registered_proof.sector_size());
    with_tree!(size, digest_tree, c1, challenges, args)
}

fn bench_tree<Tree: 'static + MerkleTreeTrait>(
    c1: SealCommitPhase1Output,
    challenges: Option<usize>,
    args: &[String],
) -> Result<()> {
    let k: usize = arg_value(args, "--partition").unwrap_or("0").parse().context("--partition wants a number")?;
    let iters: usize = arg_value(args, "-i").unwrap_or("3").parse().context("-i wants a number")?;
    let mut times = Vec::new();
    for it in 0..iters {
        let circuit = porep_circuit::<Tree>(c1.clone(), k, challenges)?;
        let mut cs = digest::ProverCs::default();
        let cpu0 = util::cpu_seconds();
        let t = Instant::now();
        cs.alloc_input(|| "", || Ok(Fr::ONE))?;
        circuit.synthesize(&mut cs).map_err(|e| anyhow::anyhow!("synthesis failed: {:?}", e))?;
        cs.finish_inputs();
        let wall = t.elapsed().as_secs_f64();
        let cpu = util::cpu_seconds() - cpu0;
        ensure!(cs.satisfied(), "bench: the witness does not satisfy the circuit (a*b != c)");
        println!(
            "iter {} synth {:.3} s cpu {:.3} s constraints {} aux {} inputs {}",
            it,
            wall,
            cpu,
            cs.a.len(),
            cs.aux.len(),
            cs.inputs.len()
        );
        times.push((wall, cpu));
    }
    times.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    let med = times[times.len() / 2];
    println!("median synth {:.3} s cpu {:.3} s", med.0, med.1);
    Ok(())
}

fn cmd_synth_bench(args: &[String]) -> Result<()> {
    let path = PathBuf::from(arg_value(args, "--c1").context("--c1 FILE is required")?);
    let (c1, challenges) = read_c1_any(&path)?;
    let size = u64::from(c1.registered_proof.sector_size());
    with_tree!(size, bench_tree, c1, challenges, args)
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if argv.len() < 2 || has_flag(&argv, "--help") || has_flag(&argv, "-h") {
        print!("{}", USAGE);
        exit(if argv.len() < 2 { 2 } else { 0 });
    }
    let rest = &argv[2..];
    let r: Result<bool> = match argv[1].as_str() {
        "seal" => cmd_seal(rest).map(|_| true),
        "params" => cmd_params(rest).map(|_| true),
        "param-names" => cmd_param_names().map(|_| true),
        "prove-c2" => cmd_prove_c2(rest).map(|_| true),
        "load-params" => cmd_load_params(rest).map(|_| true),
        "vanilla-post" => cmd_vanilla_post(rest).map(|_| true),
        "vanilla-snap" => cmd_vanilla_snap(rest).map(|_| true),
        "verify-seal" => cmd_verify_seal(rest),
        "r1cs-digest" => cmd_r1cs_digest(rest),
        "post-digest" => cmd_post_digest(rest),
        "snap-digest" => cmd_snap_digest(rest),
        "prove-snap" => cmd_prove_snap(rest).map(|_| true),
        "verify-snap" => cmd_verify_snap(rest),
        "snap-vectors" => cmd_snap_vectors().map(|_| true),
        "verify-post" => cmd_verify_post(rest),
        "prove-post" => cmd_prove_post(rest).map(|_| true),
        "synth-bench" => cmd_synth_bench(rest).map(|_| true),
        c => {
            eprintln!("czk-oracle: unknown command '{}'\n{}", c, USAGE);
            exit(2);
        }
    };
    let _ = std::io::stdout().flush();
    match r {
        Ok(true) => exit(0),
        Ok(false) => exit(1),
        Err(e) => {
            eprintln!("czk-oracle {}: {:#}", argv[1], e);
            exit(2);
        }
    }
}
