//! Property tests: the fast evaluator against the reference on generated
//! cases (proptest, a fixed number of cases; failures shrink through the
//! generator's bytes and are kept in `proptest-regressions/`), and a seeded
//! sweep that writes every disagreement as a case file.

use diopter_diff::{self as diff, run_case, Reference, Verdict};
use diopter_gen::Generate;
use diopter_gen::{self as gen, Case, GenConfig};
use diopter_harness::adapters::Fast;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

/// Where disagreements found by these tests are written.
fn case_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("disagreements")
}

/// Fails with the verdict and the replay command when the oracles differ.
fn assert_agree(case: &Case, tag: &str) -> Result<(), String> {
    let fast = Fast::default();
    let v = run_case(case, &[&Reference, &fast]);
    if let Verdict::Disagree { .. } = v {
        let path = case_dir().join(format!("{tag}.case"));
        let written = diff::write_case_file(&path, case, &[&Reference, &fast]);
        return Err(format!(
            "{v}\n  expression: {}\n  case file: {} ({})\n  replay: {}",
            case.expr_line(),
            path.display(),
            written.map_or_else(|e| e.to_string(), |()| "written".into()),
            diff::repro_command(&path)
        ));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 3000,
        // Failures are kept (and replayed first) in oracles/harness/proptest-regressions/.
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/diff_props.txt"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn fast_agrees_with_reference(case in gen::strategy(GenConfig::default())) {
        // The case file is named after the case's contents.
        let mut h = std::collections::hash_map::DefaultHasher::new();
        diff::case_file_text(&case, &[], None).hash(&mut h);
        if let Err(m) = assert_agree(&case, &format!("proptest-{:016x}", h.finish())) {
            prop_assert!(false, "{}", m);
        }
    }
}

#[test]
fn fast_agrees_with_reference_on_seeds() {
    let cfg = GenConfig::default();
    let mut failures = Vec::new();
    for seed in 0..3000u64 {
        let c = Case::from_seed(seed, &cfg);
        if let Err(m) = assert_agree(&c, &format!("seed-{seed}")) {
            failures.push(format!("seed {seed}: {m}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
