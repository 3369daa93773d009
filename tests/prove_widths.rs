//! `diopter prove` tries each rule at the widths its own text can tell
//! apart (issue 30): a rule false only at one width between the default
//! widths is refuted by a plain `diopter prove FILE`, for each kind of
//! boundary; a rule true at every width still proves, and its `ok` line
//! names the widths it was proved at. Each rule's failing width is worked
//! out by hand in its comment. Also the command's limits (issue 33):
//! `--widths` out of range, `--timeout 0`, a file with no rules.

use std::path::PathBuf;
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("diopter-widths-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `diopter prove FILE --no-cache --no-report --format json EXTRA`.
fn prove(rules: &str, extra: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let d = scratch(&n.to_string());
    let f = d.join("test.rules");
    std::fs::write(&f, rules).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_diopter"))
        .arg("prove")
        .arg(&f)
        .args(["--no-cache", "--no-report", "--format", "json"])
        .args(extra)
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let doc = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code(), doc, err)
}

/// The bindings at which the first rule was refuted.
fn refuted_at(doc: &serde_json::Value) -> Vec<String> {
    doc["rules"][0]["instances"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["verdict"] == "refuted")
        .map(|i| i["binding"].as_str().unwrap().to_string())
        .collect()
}

fn assert_refuted_only_at(rule: &str, width: &str) {
    let (code, doc, err) = prove(rule, &[]);
    assert_eq!(code, Some(1), "{doc}\n{err}");
    assert_eq!(doc["rules"][0]["status"], "FAIL", "{doc}");
    let at = refuted_at(&doc);
    assert!(!at.is_empty(), "{doc}");
    for b in &at {
        assert!(b.starts_with(&format!("T = {width},")), "{b}");
    }
}

#[test]
fn a_type_condition_boundary_between_the_defaults_is_tried() {
    // Truncating to i5 and zero-extending back (diexpr's Convert) loses
    // bit 5 exactly when T is i6; the condition admits i1..i6, and the
    // defaults stop at i4 below i7.
    assert_refuted_only_at(
        "rule r [diexpr]: ?x:T, DIOpConvert(i5), DIOpConvert(T) => ?x, DIOpRead()\n    where T: int\n    if width(T) <= 6\n",
        "i6",
    );
}

#[test]
fn a_literal_that_turns_negative_is_tried_where_it_does() {
    // x / 16 * -1 == x / -16 while 16 is positive; in i5, 16 is -16 (and
    // -16 first fits there): the left side is -(x / -16). In i4 and below
    // the literals do not fit; from i6 on the rule holds.
    assert_refuted_only_at(
        "rule r: ?x:T, DIOpConstant(T 16), DIOpDiv(), DIOpConstant(T -1), DIOpMul() => ?x, DIOpConstant(T -16), DIOpDiv()\n    where T: int\n",
        "i5",
    );
}

#[test]
fn a_literal_that_first_fits_is_tried_where_it_does() {
    // -32 fits from i6 on; in i6, 0 - (-32) is -32 again (the minimum), so
    // the right side is -(x / -32), not x / -32. From i7 on, 0 - (-32) is
    // 32 and the sides agree.
    assert_refuted_only_at(
        "rule r: ?x:T, DIOpConstant(T -32), DIOpDiv() => ?x, DIOpConstant(T 0), DIOpConstant(T -32), DIOpSub(), DIOpDiv(), DIOpConstant(T -1), DIOpMul()\n    where T: int\n",
        "i6",
    );
}

#[test]
fn a_shift_amount_that_reaches_the_sign_bit_is_tried_where_it_does() {
    // `1 << 11` is 0 below i12 (the amount reaches the width), the sign bit
    // at i12, and positive above: shifting it right logically or
    // arithmetically differs at i12 alone. No default width is 12, and the
    // literals' bit lengths (11 and 1) ask for widths up to 7 only; the
    // shift amount 11 asks for 10..=12.
    assert_refuted_only_at(
        "rule r: DIOpConstant(T 1), DIOpConstant(T 11), DIOpShl(), ?x:T, DIOpLShr() => DIOpConstant(T 1), DIOpConstant(T 11), DIOpShl(), ?x, DIOpAShr()\n    where T: int\n",
        "i12",
    );
}

#[test]
fn the_issues_offset_rule_is_refuted_at_i5() {
    // The rule of issue 30: 16 as a bit offset reads as -16 in an i5
    // (8 + 8 is 16, one step at a time); `if width(I) >= 5` admits i5.
    let (code, doc, err) = prove(
        "rule r: ?x:T, DIOpConstant(I 16), DIOpBitOffset(T) => ?x, DIOpConstant(I 8), DIOpBitOffset(T), DIOpConstant(I 8), DIOpBitOffset(T)\n    where T: int, I: int\n    if width(I) >= 5\n",
        &["--widths", "8"],
    );
    assert_eq!(code, Some(1), "{doc}\n{err}");
    let at = refuted_at(&doc);
    assert!(!at.is_empty(), "{doc}");
    assert!(at.iter().all(|b| b.starts_with("I = i5,")), "{at:?}");
}

#[test]
fn a_true_rule_proves_and_says_at_which_widths() {
    // The same truncation, admitted only up to i5: true everywhere.
    let (code, doc, err) = prove(
        "rule r [diexpr]: ?x:T, DIOpConvert(i5), DIOpConvert(T) => ?x, DIOpRead()\n    where T: int\n    if width(T) <= 5\n",
        &[],
    );
    assert_eq!(code, Some(0), "{doc}\n{err}");
    assert_eq!(doc["rules"][0]["status"], "ok");
    // The condition's boundary brings i5 (the defaults give 1..4).
    assert_eq!(doc["rules"][0]["covers"]["text"], "i1..i5", "{doc}");
    assert_eq!(doc["rules"][0]["counts"]["proved"], 5);
    assert_eq!(doc["counts"]["timeout"], 0);
}

#[test]
fn a_constant_hole_may_occur_twice_on_the_left() {
    // x - c + c is x (wrapping), read as a value.
    let (code, doc, err) = prove(
        "rule r: ?x:T, DIOpConstant(T ?c), DIOpSub(), DIOpConstant(T ?c), DIOpAdd() => ?x, DIOpRead()\n    where T: int\n",
        &["--widths", "8,16"],
    );
    assert_eq!(code, Some(0), "{doc}\n{err}");
    assert_eq!(doc["rules"][0]["status"], "ok");
}

#[test]
fn limits_are_enforced_with_a_clear_error() {
    let rule = "rule r: ?x:T, DIOpConstant(T 0), DIOpAdd() => ?x, DIOpRead()   where T: int\n";
    for (args, says) in [
        (vec!["--widths", "100000"], "widths are 1 to 256 bits"),
        (vec!["--widths", "0"], "widths are 1 to 256 bits"),
        (vec!["--widths", "1..300"], "widths are 1 to 256 bits"),
        (vec!["--timeout", "0"], "0 is not in 1..=3600000"),
        (vec!["--jobs", "0"], "--jobs"),
    ] {
        let (code, _, err) = prove(rule, &args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn a_file_without_rules_checks_nothing_and_says_so() {
    for text in ["", "# only a comment\n"] {
        let (code, _, err) = prove(text, &[]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("nothing was checked"), "{err}");
    }
}
