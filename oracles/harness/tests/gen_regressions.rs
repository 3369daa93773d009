//! Inputs that once made a fuzz target fail, kept under
//! `fuzz/regressions/TARGET/`, run through the targets' bodies
//! (`diopter_harness::targets`) on every `cargo test`, without cargo-fuzz.

use diopter_harness::adapters::Fast;
use diopter_harness::targets;
use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/regressions")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    // Dotfiles (`.gitkeep`) and notes are not inputs.
                    p.is_file()
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| !n.starts_with('.') && !n.ends_with(".md"))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn run(target: &str, f: impl Fn(&[u8]) -> Result<(), String>) {
    let mut failures = Vec::new();
    for p in inputs(target) {
        let data = std::fs::read(&p).expect("readable");
        if let Err(m) = f(&data) {
            failures.push(format!("{}: {m}", p.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn eval_diff_regressions() {
    let fast = Fast::default();
    run("eval_diff", |d| targets::eval_diff(d, &fast, None));
}

#[test]
fn parse_roundtrip_regressions() {
    run("parse_roundtrip", targets::parse_roundtrip);
}

#[test]
fn check_eval_regressions() {
    run("check_eval", targets::check_eval);
}

#[test]
fn dwarf_diff_regressions() {
    run("dwarf_diff", |d| targets::dwarf_diff(d, None));
}

/// `oom-4250c90efe25fc06` made the target exceed libFuzzer's 2 GB before
/// the SMT encoding's state merges stopped duplicating written addresses
/// (0195a89); it now validates in about a second (release) in 64 MB.
#[test]
fn validate_diff_regressions() {
    assert!(!inputs("validate_diff").is_empty());
    run("validate_diff", targets::validate_diff);
}

/// `timeout-unused-i4096-operand` (a control run of the bug-finding
/// benchmark) names an unused `i4096` operand: validating the salvage of
/// its operand 0 took 82 s in Z3 whatever the query timeout, past
/// libFuzzer's 30 s. A case naming a type wider than `VALIDATE_MAX_BITS`
/// gets no update.
#[test]
fn a_case_with_a_wide_type_is_not_validated() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/validate_diff");
    let data = std::fs::read(dir.join("timeout-unused-i4096-operand")).unwrap();
    let outcome = targets::validate_diff_outcome(&data).unwrap();
    assert!(outcome.is_none(), "{outcome:?}");
}

#[test]
fn the_seed_corpora_pass_too() {
    // The committed seeds (fuzz/seed.sh) are valid inputs of every target.
    let fast = Fast::default();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    for (target, f) in [
        (
            "parse_roundtrip",
            &targets::parse_roundtrip as &dyn Fn(&[u8]) -> Result<(), String>,
        ),
        ("check_eval", &targets::check_eval),
        ("eval_diff", &|d: &[u8]| targets::eval_diff(d, &fast, None)),
    ] {
        let Ok(rd) = std::fs::read_dir(dir.join(target)) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("seed-"))
            {
                let data = std::fs::read(&p).expect("readable");
                if let Err(m) = f(&data) {
                    panic!("{}: {m}", p.display());
                }
            }
        }
    }
}
