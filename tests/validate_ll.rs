//! `diopter validate BEFORE.ll AFTER.ll`: AMD's pass tests under
//! `corpus/amd/ll/` (before: the test's input; after: written from its CHECK
//! lines) with the verdicts checked by hand (`corpus/amd/validation-findings.md`),
//! and a bad IR file (a diagnostic with file, line, column and caret, exit 2).

use serde_json::Value;

mod common;
use common::diopter;

/// Runs one corpus pair; `(exit code, JSON)`.
fn run(name: &str, maps: &[&str]) -> (Option<i32>, Value) {
    let before = format!("corpus/amd/ll/{name}.before.ll");
    let after = format!("corpus/amd/ll/{name}.after.ll");
    let mut args = vec!["validate", &before, &after, "--format", "json"];
    for m in maps {
        args.push("--map");
        args.push(m);
    }
    let o = diopter(&args);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    });
    (o.status.code(), v)
}

/// `(function, variable name, verdict, assumes an unknown operand)` of each pair.
fn verdicts(v: &Value) -> Vec<(String, String, String, bool)> {
    v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["function"].as_str().unwrap().to_string(),
                p["variable"]
                    .as_str()
                    .unwrap()
                    .split(" in ")
                    .next()
                    .unwrap()
                    .to_string(),
                p["verdict"].as_str().unwrap().to_string(),
                p["assumes_unknown_operand"] == true,
            )
        })
        .collect()
}

fn v(f: &str, var: &str, verdict: &str, unknown: bool) -> (String, String, String, bool) {
    (f.into(), var.into(), verdict.into(), unknown)
}

const IAS_MAPS: &[&str] = &[
    "@test_before_and_after %mask := [ptr addrspace(4) %1] DIOpArg(0, ptr addrspace(4)), DIOpConvert(ptr)",
    "@test_before_and_after %bc := [ptr addrspace(4) %bc] DIOpArg(0, ptr addrspace(4)), DIOpConvert(ptr)",
];

#[test]
fn infer_address_spaces_casts_folded_away_are_equivalent() {
    let (code, j) = run("infer-address-spaces", IAS_MAPS);
    assert_eq!(code, Some(0), "{j:#}");
    let mut want = Vec::new();
    for f in ["test_glob", "test_local", "test_constant"] {
        for var in ["ptr_var", "i32_var", "i64_var"] {
            want.push(v(f, var, "equivalent", false));
        }
    }
    want.push(v("test_before_and_after", "p1", "equivalent", false));
    want.push(v("test_before_and_after", "p2", "equivalent", false));
    // A classic empty !DIExpression() on `ptr %gen` before, on `ptr poison`
    // after: the variable is optimized out after the pass, a refinement of
    // any value (docs/classic.md, decision 16).
    want.push(v("test_no_DW_OPs", "t1", "refinement", false));
    assert_eq!(verdicts(&j), want);
    // The old operand is derived from the addrspacecast the pass folded.
    let ops = &j["pairs"][0]["operands"];
    assert!(ops.to_string().contains("derived"), "{ops}");
}

#[test]
fn without_a_mapping_a_redefined_operand_is_undefined_and_the_verdict_says_so() {
    let (code, j) = run("infer-address-spaces", &[]);
    assert_eq!(code, Some(1));
    let p1 = verdicts(&j)
        .into_iter()
        .find(|(f, var, _, _)| f == "test_before_and_after" && var == "p1")
        .unwrap();
    assert_eq!(p1, v("test_before_and_after", "p1", "refuted", true));
    // The summary counts such refutations apart: they are no claim about the pass.
    let inconclusive = verdicts(&j)
        .iter()
        .filter(|(_, _, verdict, unknown)| verdict == "refuted" && *unknown)
        .count() as u64;
    assert!(inconclusive >= 1);
    assert_eq!(j["summary"]["refuted_inconclusive"], inconclusive);
    let o = diopter(&[
        "validate",
        "corpus/amd/ll/infer-address-spaces.before.ll",
        "corpus/amd/ll/infer-address-spaces.after.ll",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(&format!("({inconclusive} of them inconclusive")),
        "{text}"
    );
}

#[test]
fn instcombine_cast_of_cast_rauw() {
    let (code, j) = run("instcombine-poison-dbg-rauw", &[]);
    // The two DIOpReinterpret salvages keep the operand's writable location
    // where the deleted cast's value was read-only: refuted on writes only
    // (validation-findings.md, row 26).
    assert_eq!(code, Some(1));
    assert_eq!(
        verdicts(&j),
        vec![
            v("test_int_ptr_int", "1", "refuted", false),
            v("test_ptr_int_ptr", "3", "refuted", false),
            v("test_zext_trunc", "5", "equivalent", false),
            v("test_trunc_zext", "7", "equivalent", false),
            v("test_sext_trunc", "9", "equivalent", false),
        ]
    );
    for p in &j["pairs"].as_array().unwrap()[..2] {
        let d = p["counterexample"]["differences"].to_string();
        assert!(d.contains("refuses the write"), "{d}");
    }
}

#[test]
fn instcombine_lowered_declare_is_matched_by_its_operand() {
    let (code, j) = run("instcombine-lower-dbg-declare", &[]);
    assert_eq!(code, Some(0));
    assert_eq!(verdicts(&j), vec![v("foo", "var", "equivalent", false)]);
    assert_eq!(j["pairs"][0]["matched_by"], "operands");
    assert_eq!(j["unmatched_after"].as_array().unwrap().len(), 2);
    assert_eq!(j["coverage_losses"].as_array().unwrap().len(), 0);
}

#[test]
fn sroa_promotion_needs_memory_the_mapping_language_cannot_state() {
    let (code, j) = run("sroa-poison", &[]);
    assert_eq!(code, Some(1));
    assert_eq!(
        verdicts(&j),
        vec![
            v("t1", "local", "refuted", true),
            v("t3", "local", "refuted", true),
            v("t4", "local", "refinement", true),
        ]
    );
    assert_eq!(j["unmatched_after"].as_array().unwrap().len(), 1);
}

#[test]
fn instcombine_debugify_salvages() {
    let (code, j) = run("instcombine-debugify-variables", &[]);
    assert_eq!(code, Some(0));
    assert_eq!(
        verdicts(&j),
        vec![
            v("test_sext_zext", "1", "equivalent", false),
            v("test_sext_zext", "2", "equivalent", false),
            v("test_sub_neg", "4", "equivalent", false),
            v("test_shl", "6", "equivalent", false),
            v("test_srem", "8", "refinement", false),
        ]
    );
}

#[test]
fn a_variable_that_loses_all_its_records_is_a_coverage_loss() {
    let dir = std::env::temp_dir().join(format!("diopter-validate-ll-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let md = "!1 = distinct !DISubprogram(name: \"f\")\n!2 = !DILocalVariable(name: \"x\", scope: !1)\n!3 = !DILocalVariable(name: \"y\", scope: !1)\n";
    let b = dir.join("b.ll");
    let a = dir.join("a.ll");
    std::fs::write(&b, format!("define void @f(i32 %a) !dbg !1 {{\n  #dbg_value(i32 %a, !2, !DIExpression(DIOpArg(0, i32)), !4)\n  #dbg_value(i32 %a, !3, !DIExpression(DIOpArg(0, i32)), !4)\n  ret void\n}}\n{md}")).unwrap();
    std::fs::write(&a, format!("define void @f(i32 %a) !dbg !1 {{\n  #dbg_value(i32 %a, !3, !DIExpression(DIOpArg(0, i32)), !4)\n  ret void\n}}\n{md}")).unwrap();
    let o = diopter(&["validate", b.to_str().unwrap(), a.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("COVERAGE LOSS: @f variable x in f: 1 record(s) before, none after"),
        "{out}"
    );
    assert!(out.contains("@f variable y in f: equivalent"), "{out}");
}

#[test]
fn a_bad_ir_file_is_a_diagnostic_with_a_caret_never_a_panic() {
    let dir = std::env::temp_dir().join(format!("diopter-validate-ll-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let b = dir.join("bad.ll");
    std::fs::write(&b, "define void @f(i32 %a) {\n  #dbg_value(i32 %a, !2, !DIExpression(DIOpArg(0, i32), DIOpFoo()), !4)\n  ret void\n}\n").unwrap();
    let o = diopter(&[
        "validate",
        b.to_str().unwrap(),
        "corpus/amd/ll/sroa-poison.after.ll",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("bad.ll:2:"), "{err}");
    assert!(err.contains('^'), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // A bad --map is a diagnostic too.
    let o = diopter(&[
        "validate",
        "corpus/amd/ll/sroa-poison.before.ll",
        "corpus/amd/ll/sroa-poison.after.ll",
        "--map",
        "%local := DIOpNope()",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("<--map>:1:"), "{err}");
    assert!(err.contains('^'), "{err}");
}
