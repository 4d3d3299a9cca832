//! Argument parsing, step timing, the parameter file name, and a logger that
//! picks bellperson's own "synthesis time" line out of its log.

use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Result};

pub fn arg_value<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).map(|s| s.as_str())
}

pub fn has_flag(args: &[String], flag: &str) -> bool {
    args.iter().any(|a| a == flag)
}

/// "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" or a byte count.
pub fn parse_size(s: &str) -> Result<u64> {
    let (num, mul) = if let Some(n) = s.strip_suffix("KiB") {
        (n, 1u64 << 10)
    } else if let Some(n) = s.strip_suffix("MiB") {
        (n, 1 << 20)
    } else if let Some(n) = s.strip_suffix("GiB") {
        (n, 1 << 30)
    } else {
        (s, 1)
    };
    match num.parse::<u64>() {
        Ok(v) => Ok(v * mul),
        Err(_) => bail!("bad sector size '{}' (want e.g. 2KiB, 8MiB, 512MiB, 32GiB)", s),
    }
}

/// Run one named step, printing `step NAME SECONDS`.
pub fn step<T>(name: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let t = Instant::now();
    let r = f();
    println!("step {} {:.3}", name, t.elapsed().as_secs_f64());
    r
}

/// User + system CPU seconds of this process.
pub fn cpu_seconds() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = s.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    // fields after the name: state is [0], utime [11], stime [12]
    let tick = 100.0;
    let u: f64 = f.get(11).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    let st: f64 = f.get(12).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    (u + st) / tick
}

/// The file name storage-proofs-core gives a parameter set identifier.
pub fn param_file_name(id: &str) -> String {
    format!("v{}-{}.params", storage_proofs_core::parameter_cache::VERSION, id)
}

static SYNTH: Mutex<Option<f64>> = Mutex::new(None);

struct Capture;

impl log::Log for Capture {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::Level::Info
    }
    fn log(&self, r: &log::Record) {
        let msg = format!("{}", r.args());
        if let Some(rest) = msg.strip_prefix("synthesis time: ") {
            if let Some(s) = parse_duration(rest) {
                *SYNTH.lock().unwrap() = Some(s);
            }
        } else if r.level() <= log::Level::Warn {
            eprintln!("[{}] {}", r.level(), msg);
        }
    }
    fn flush(&self) {}
}

fn parse_duration(s: &str) -> Option<f64> {
    let s = s.trim();
    for (suf, mul) in [("ns", 1e-9), ("µs", 1e-6), ("us", 1e-6), ("ms", 1e-3), ("s", 1.0)] {
        if let Some(n) = s.strip_suffix(suf) {
            if let Ok(v) = n.parse::<f64>() {
                return Some(v * mul);
            }
        }
    }
    None
}

pub fn capture_bellperson_log() {
    static L: Capture = Capture;
    if log::set_logger(&L).is_ok() {
        log::set_max_level(log::LevelFilter::Info);
    }
}

pub fn logged_synthesis_seconds() -> Option<f64> {
    *SYNTH.lock().unwrap()
}
