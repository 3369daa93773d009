//! Hashes the sources that decide a prover verdict (the encoding and the
//! prover, the rule instances, the semantics and its specs) into
//! `DIOPTER_PROOF_SOURCE_HASH`, part of every proof-cache key
//! (`src/proof_cache.rs`): a change to any of them misses the cache.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

const DIRS: [&str; 4] = [
    "oracles/smt/src",
    "oracles/rules/src",
    "semantics/src",
    "semantics/specs",
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let mut all = Vec::new();
    for d in DIRS {
        println!("cargo:rerun-if-changed={d}");
        files(Path::new(d), &mut all);
    }
    all.sort();
    let mut h = Sha256::new();
    for p in &all {
        h.update(p.to_string_lossy().as_bytes());
        h.update([0]);
        h.update(std::fs::read(p).unwrap_or_default());
        h.update([0]);
    }
    let hex: String = h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    println!("cargo:rustc-env=DIOPTER_PROOF_SOURCE_HASH={hex}");
}
