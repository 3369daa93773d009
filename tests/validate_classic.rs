//! `diopter validate BEFORE.ll AFTER.ll` on upstream LLVM 19's output
//! (classic `!DIExpression(DW_OP_...)`, `docs/classic.md`). The inputs in
//! `tests/data/classic/` were made from the `.c` files beside them with
//! `clang-19 -O0 -g -S -emit-llvm -Xclang -disable-O0-optnone`, then
//! `opt-19 -S -passes=sroa` (before) and `-passes=bdce`/`-passes=dce`
//! (after); `salvage-intrinsics.*` with `--write-experimental-debuginfo=false`
//! (the `llvm.dbg.value` call form). Every verdict below was checked by hand:
//! the C source says what each variable holds.

use serde_json::Value;

mod common;
use common::{diopter, stderr};

fn run(before: &str, after: &str) -> (Option<i32>, Value) {
    let b = format!("tests/data/classic/{before}");
    let a = format!("tests/data/classic/{after}");
    let o = diopter(&["validate", &b, &a, "--format", "json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&o.stdout),
            stderr(&o)
        )
    });
    (o.status.code(), v)
}

/// `(function, variable name, verdict)` of each pair.
fn verdicts(v: &Value) -> Vec<(String, String, String)> {
    v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let var = p["variable"].as_str().unwrap();
            (
                p["function"].as_str().unwrap().to_string(),
                var.split(" in ").next().unwrap().to_string(),
                p["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn has(v: &[(String, String, String)], f: &str, var: &str, verdict: &str) -> bool {
    v.iter().any(|(a, b, c)| a == f && b == var && c == verdict)
}

#[test]
fn bdce_sext_to_zext_is_refuted_on_the_variable_that_kept_it() {
    // `int x = c;` for `signed char c`: BDCE turned `sext i8 %0 to i32` into
    // `zext`; x's record kept %2. With c = -128 the program has x = -128,
    // the record shows 128.
    let (code, v) = run("bdce.before.ll", "bdce.after.ll");
    let ver = verdicts(&v);
    assert!(has(&ver, "f", "x", "refuted"), "{ver:?}");
    assert!(has(&ver, "f", "c arg 1", "equivalent"), "{ver:?}");
    assert_eq!(code, Some(1), "a refutation exits 1");
    let x = v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["variable"].as_str().unwrap().starts_with("x "))
        .unwrap();
    let text = x.to_string();
    // The counterexample gives c a negative value (bit 7 set).
    assert!(text.contains("signed -"), "{text}");
}

#[test]
fn llvm_19_salvages_are_never_refuted() {
    for (b, a) in [
        ("salvage.before.ll", "salvage.after.ll"),
        (
            "salvage-intrinsics.before.ll",
            "salvage-intrinsics.after.ll",
        ),
    ] {
        let (_, v) = run(b, a);
        let ver = verdicts(&v);
        // t = a + 8 (plus_uconst), u = a * 3 - 7 (constu/mul/minus) on i64;
        // t = a * 5 - 3 and s = a + 100 on i32; w = (long)a (LLVM_convert
        // signed extension); t = a - b (DIArgList, minus).
        for (f, var) in [
            ("g1", "t"),
            ("g1", "u"),
            ("g2", "t"),
            ("g2", "s"),
            ("g3", "w"),
            ("g4", "t"),
        ] {
            assert!(has(&ver, f, var, "equivalent"), "{b}: {f} {var}: {ver:?}");
        }
        assert_eq!(v["summary"]["not_compared"], 0, "{b}");
    }
}

#[test]
fn a_salvaged_signed_comparison_is_refuted() {
    // `int c = a < b;` salvaged as DW_OP_lt over two i32 operands: the
    // generic values carry unknown upper bits and a debugger may compare
    // them unsigned (docs/classic.md, decisions 2 and 4).
    let (_, v) = run("salvage.before.ll", "salvage.after.ll");
    assert!(
        has(&verdicts(&v), "g4", "c", "refuted"),
        "{:?}",
        verdicts(&v)
    );
}

#[test]
fn a_classic_expression_llvm_rejects_is_an_input_error_with_a_caret() {
    let dir = std::env::temp_dir().join(format!("diopter-classic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let before = std::fs::read_to_string("tests/data/classic/salvage.before.ll").unwrap();
    let after = std::fs::read_to_string("tests/data/classic/salvage.after.ll").unwrap();
    for (bad, what) in [
        (
            "DW_OP_plus_uconst, 8, DW_OP_frob",
            "unknown DWARF operation `DW_OP_frob`",
        ),
        ("DW_OP_plus_uconst, DW_OP_stack_value", "takes 1 operand"),
        ("DW_OP_neg, DW_OP_stack_value", "`DW_OP_neg` is not allowed"),
        (
            "DW_OP_stack_value, DW_OP_plus_uconst, 8",
            "DW_OP_stack_value must be last",
        ),
    ] {
        let broken = after.replacen("DW_OP_plus_uconst, 8, DW_OP_stack_value", bad, 1);
        assert_ne!(broken, after);
        let (bp, ap) = (dir.join("b.ll"), dir.join("a.ll"));
        std::fs::write(&bp, &before).unwrap();
        std::fs::write(&ap, &broken).unwrap();
        let o = diopter(&["validate", bp.to_str().unwrap(), ap.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(what), "{err}");
        // file:line:column, the line, and a caret under the element.
        assert!(err.contains("a.ll:9:"), "{err}");
        assert!(err.contains('^'), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A broken record (no closing parenthesis) is a parse error, not a panic.
    let broken = after.replacen("DW_OP_stack_value), !17)", "DW_OP_stack_value, !17", 1);
    std::fs::write(dir.join("a.ll"), &broken).unwrap();
    let o = diopter(&[
        "validate",
        dir.join("b.ll").to_str().unwrap(),
        dir.join("a.ll").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains('^'));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_operation_is_not_compared_and_named() {
    let dir = std::env::temp_dir().join(format!("diopter-classic-r-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let before = std::fs::read_to_string("tests/data/classic/salvage.before.ll").unwrap();
    let after = std::fs::read_to_string("tests/data/classic/salvage.after.ll").unwrap();
    let broken = after.replacen(
        "DW_OP_plus_uconst, 8, DW_OP_stack_value",
        "DW_OP_LLVM_entry_value, 1, DW_OP_stack_value",
        1,
    );
    let (bp, ap) = (dir.join("b.ll"), dir.join("a.ll"));
    std::fs::write(&bp, &before).unwrap();
    std::fs::write(&ap, &broken).unwrap();
    let o = diopter(&[
        "validate",
        bp.to_str().unwrap(),
        ap.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let p = v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["verdict"] == "not-compared")
        .expect("one not compared");
    let d = p["detail"].as_str().unwrap();
    assert!(
        d.contains("DW_OP_LLVM_entry_value") && d.contains("a.ll:9:") && d.contains('^'),
        "{d}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
