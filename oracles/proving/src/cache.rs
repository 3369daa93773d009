//! The proof cache: one file per rule instance whose verdict is settled,
//! so that re-running the prover after editing one rule proves only that
//! rule's instances.
//!
//! An entry's key is a SHA-256 of everything that decides the verdict:
//! the instance as the prover sees it (both sides printed, holes, bound
//! types, preconditions, computed constants, relation, dialect; not the
//! rule's name or where it was written, so moving a rule keeps its proofs),
//! the source of the code that decides it (the encoding and prover, the
//! rule instances, the semantics and its stack-effect specs, hashed by the
//! `diopter` crate's `build.rs` and handed in as `source_hash`), and the
//! Z3 library's version. Changing any of them misses the cache; nothing is
//! ever invalidated by hand.
//!
//! Only verdicts that do not depend on time are kept: proved, refuted,
//! not applicable, invalid. An `unknown` (a timeout) and an encoding bug
//! are decided again on every run.

use diopter_rules::instance::Instance;
use diopter_semantics::syntax::print_expr;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

pub struct ProofCache {
    dir: PathBuf,
    /// Z3's version and the sources' hash, fed into every key.
    salt: String,
}

/// Verdicts worth keeping (see the module doc).
pub fn cacheable(verdict: &str) -> bool {
    matches!(verdict, "proved" | "refuted" | "not-applicable" | "invalid")
}

impl ProofCache {
    /// The cache under `dir`. `source_hash` is the hash of the sources that
    /// decide a verdict; it is computed where those files are known (the
    /// `diopter` crate's build script), not here.
    pub fn new(dir: &Path, source_hash: &str) -> ProofCache {
        ProofCache {
            dir: dir.to_path_buf(),
            // `CARGO_PKG_VERSION` is the workspace's, which the `diopter`
            // package shares: keys written before this crate existed still
            // match.
            salt: format!(
                "diopter {} | sources {source_hash} | z3 {}",
                env!("CARGO_PKG_VERSION"),
                diopter_smt::prove::solver_version()
            ),
        }
    }

    /// The key of an instance (hex).
    pub fn key(&self, inst: &Instance) -> String {
        let mut h = Sha256::new();
        h.update(self.salt.as_bytes());
        h.update(b"\n");
        h.update(
            format!(
                "{:?}|{:?}|{:?}|{:?}\n{}\n{}\n{:?}\n{:?}\n{:?}",
                inst.relation,
                inst.dialect,
                inst.binding,
                inst.holes,
                print_expr(&inst.lhs),
                print_expr(&inst.rhs),
                inst.types.named,
                inst.pre,
                inst.defs
            )
            .as_bytes(),
        );
        h.finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, key: &str) -> PathBuf {
        // Two levels, as git's object store, so no directory grows huge.
        self.dir.join(&key[..2]).join(&key[2..])
    }

    /// The stored record of `key`; `None` when absent or unreadable (a
    /// damaged entry is a miss, and is overwritten).
    pub fn get(&self, key: &str) -> Option<Value> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        let v: Value = serde_json::from_str(&text).ok()?;
        v.get("verdict")
            .and_then(Value::as_str)
            .is_some_and(cacheable)
            .then_some(v)
    }

    pub fn put(&self, key: &str, record: &Value) -> std::io::Result<()> {
        diopter_report::write_atomic(&self.path(key), &(record.to_string() + "\n"))
    }
}
