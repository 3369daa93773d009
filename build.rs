//! Hashes the sources that decide a prover verdict (the encoding and the
//! prover, the rule instances, the semantics and its specs) into
//! `DIOPTER_PROOF_SOURCE_HASH`, part of every proof-cache key
//! (`src/proof_cache.rs`): a change to any of them misses the cache; and
//! embeds the rule library (`corpus/rules/`, the files CI proves) into the
//! binary for `src/library.rs`.

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

/// Writes `$OUT_DIR/rule_library.rs`: `RULE_FILES`, every file under
/// `corpus/rules/` (its path below that directory and its text, through
/// `include_str!`, so the binary carries the very files), and
/// `RULE_LIBRARY_HASH`, a hash of them all.
fn embed_rule_library() {
    println!("cargo:rerun-if-changed=corpus/rules");
    let base = Path::new("corpus/rules");
    let mut rules = Vec::new();
    files(base, &mut rules);
    rules.sort();
    let mut h = Sha256::new();
    let mut table = String::from("pub const RULE_FILES: &[(&str, &str)] = &[\n");
    for p in &rules {
        let rel = p
            .strip_prefix(base)
            .unwrap_or(p)
            .to_string_lossy()
            .replace('\\', "/");
        let abs = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
        h.update(rel.as_bytes());
        h.update([0]);
        h.update(std::fs::read(p).unwrap_or_default());
        h.update([0]);
        table.push_str(&format!(
            "    ({rel:?}, include_str!({:?})),\n",
            abs.display().to_string()
        ));
    }
    table.push_str("];\n");
    let hex: String = h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    table.push_str(&format!("pub const RULE_LIBRARY_HASH: &str = {hex:?};\n"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("rule_library.rs"), table).expect("writing OUT_DIR/rule_library.rs");
}

fn main() {
    embed_rule_library();
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
