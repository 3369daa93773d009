//! `diopter prove` through the real binary: the exit status is the gate CI
//! relies on (0 only when every rule is as it claims), a false rule prints
//! a counterexample, and the text output lists only what is not as claimed
//! unless `--verbose`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn prove(rules: &str, extra: &[&str]) -> (Output, String) {
    let dir = std::env::temp_dir().join(format!("diopter-prove-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join(format!("r{}.rules", rules.len()));
    std::fs::write(&file, rules).unwrap();
    let mut args = vec![
        "prove".to_string(),
        file.display().to_string(),
        "--widths".into(),
        "8,32".into(),
        "--no-report".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = Command::new(env!("CARGO_BIN_EXE_diopter"))
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (out, stdout)
}

const GOOD: &str =
    "rule good-add-zero: ?x:T, DIOpConstant(T 0), DIOpAdd() => ?x, DIOpRead()   where T: int\n";
// x + y => x: false whenever y is not 0.
const BAD: &str = "rule bad-drop-addend: ?x:T, ?y:T, DIOpAdd() => ?x, DIOpRead()   where T: int\n";

#[test]
fn a_true_rule_passes_quietly() {
    let (out, text) = prove(GOOD, &[]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("ok good-add-zero"), "{text}");
    assert!(
        !text.contains("    proved"),
        "instances listed without --verbose: {text}"
    );
    assert!(text.contains("1 rules: 1 ok, 0 unknown, 0 FAIL"), "{text}");
    let (out, text) = prove(GOOD, &["--verbose"]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("    proved"),
        "--verbose lists instances: {text}"
    );
}

#[test]
fn a_false_rule_fails_with_a_counterexample() {
    let (out, text) = prove(&format!("{GOOD}{BAD}"), &[]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL bad-drop-addend"), "{text}");
    assert!(text.contains("    refuted"), "{text}");
    assert!(text.contains("ok good-add-zero"), "{text}");
    assert!(text.contains("2 rules: 1 ok, 0 unknown, 1 FAIL"), "{text}");
}
