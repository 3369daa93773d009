//! Where `diopter` keeps the proof cache, with the hash of the sources that
//! decide a verdict (`diopter_proving::cache` is the cache itself). The
//! hash is `build.rs`'s: it hashes the prover's, the rule instances' and
//! the semantics' files under their paths from the workspace root, which
//! are part of the hash, so it stays computed here, where those paths are
//! the same as ever, and existing cache entries keep matching.

use diopter_proving::CacheAt;
use std::path::Path;

/// The hash of the sources that decide a verdict, from `build.rs`.
const SOURCE_HASH: &str = env!("DIOPTER_PROOF_SOURCE_HASH");

/// The proof cache under `dir`.
pub fn at(dir: &Path) -> CacheAt {
    CacheAt {
        dir: dir.to_path_buf(),
        source_hash: SOURCE_HASH.to_string(),
    }
}
