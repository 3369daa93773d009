//! Where the default rule library is found, from any working directory.
//!
//! The rule library is `corpus/rules/`: the files CI proves (`diopter
//! prove`) and the simplifier applies. `build.rs` embeds those very files
//! in the binary, so an installed `diopter` (`cargo install --path .`) or one
//! run outside the checkout has them too. Run inside a checkout (a
//! `corpus/rules` directory in the working directory), the commands read
//! that directory, as before; elsewhere the embedded copy is written once
//! to a directory of the system's temporary directory named by its hash,
//! and read from there, so there is still one loader and one set of files,
//! and diagnostics name a file that exists.

use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/rule_library.rs"));

/// The rule library's directory, relative to a checkout's root.
pub const RULES: &str = "corpus/rules";

/// The default rule library: `corpus/rules` of the working directory when
/// there is one, else the copy this binary embeds.
pub fn rules_dir() -> Result<PathBuf, String> {
    let here = PathBuf::from(RULES);
    if here.is_dir() {
        return Ok(here);
    }
    embedded_rules_dir()
}

/// `paths` when the user gave some, else the default library.
pub fn or_default(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    if paths.is_empty() {
        Ok(vec![rules_dir()?])
    } else {
        Ok(paths.to_vec())
    }
}

/// The embedded copy, written under the temporary directory when it is not
/// there yet (a name per content hash: binaries of different libraries do
/// not share one).
pub fn embedded_rules_dir() -> Result<PathBuf, String> {
    let top = std::env::temp_dir().join(format!("diopter-rules-{RULE_LIBRARY_HASH}"));
    let dir = top.join(RULES);
    if complete(&dir) {
        return Ok(dir);
    }
    // Written beside, then renamed into place: a concurrent run sees the
    // whole library or none of it.
    let tmp = std::env::temp_dir().join(format!(
        "diopter-rules-{RULE_LIBRARY_HASH}.tmp{}",
        std::process::id()
    ));
    let write = || -> std::io::Result<()> {
        for (rel, text) in RULE_FILES {
            let p = tmp.join(RULES).join(rel);
            if let Some(d) = p.parent() {
                std::fs::create_dir_all(d)?;
            }
            std::fs::write(p, text)?;
        }
        Ok(())
    };
    let res = write().and_then(|()| std::fs::rename(&tmp, &top));
    let _ = std::fs::remove_dir_all(&tmp);
    if complete(&dir) {
        Ok(dir)
    } else {
        Err(format!(
            "no corpus/rules here, and the embedded rule library could not be written to {}: {}",
            top.display(),
            res.err()
                .map_or_else(|| "incomplete".to_string(), |e| e.to_string())
        ))
    }
}

/// Whether `dir` holds every embedded file with its text.
fn complete(dir: &Path) -> bool {
    RULE_FILES
        .iter()
        .all(|(rel, text)| std::fs::read_to_string(dir.join(rel)).is_ok_and(|t| t == *text))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded library is the checkout's `corpus/rules`, file for
    /// file (one source: what CI proves is what the simplifier applies).
    #[test]
    fn the_embedded_library_is_the_checkouts() {
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join(RULES);
        let mut on_disk = Vec::new();
        fn walk(d: &Path, base: &Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, base, out);
                } else {
                    out.push(p.strip_prefix(base).unwrap().display().to_string());
                }
            }
        }
        walk(&base, &base, &mut on_disk);
        on_disk.sort();
        let embedded: Vec<String> = RULE_FILES.iter().map(|(r, _)| r.to_string()).collect();
        assert_eq!(embedded, on_disk);
        assert!(embedded.iter().any(|r| r == "identities.rules"));
        assert!(embedded.iter().any(|r| r.starts_with("refuted/")));
        for (rel, text) in RULE_FILES {
            assert_eq!(std::fs::read_to_string(base.join(rel)).unwrap(), *text);
        }
        let dir = embedded_rules_dir().unwrap();
        assert!(complete(&dir));
        assert_eq!(
            std::fs::read_to_string(dir.join("identities.rules")).unwrap(),
            std::fs::read_to_string(base.join("identities.rules")).unwrap()
        );
    }
}
