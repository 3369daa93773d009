//! `diopter validate`: verdicts on small pairs whose answer is known by hand,
//! the AMD corpus (a verdict for every row), and bad input (diagnostics with
//! file, line, column and caret, exit 2).

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::{diopter, stderr, stdout};

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("diopter-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn validate(before: &str, after: &str, maps: &[&str]) -> Output {
    let mut args = vec!["validate", "-e", before, "-e", after];
    for m in maps {
        args.push("--map");
        args.push(m);
    }
    diopter(&args)
}

#[test]
fn a_salvaged_shift_is_equivalent() {
    let o = validate(
        "[i64] DIOpArg(0, i64)",
        "[i64] DIOpArg(0, i64), DIOpConstant(i64 7), DIOpShl()",
        &["arg0 := DIOpArg(0, i64), DIOpConstant(i64 7), DIOpShl()"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("command line: equivalent"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_shift_by_the_wrong_amount_is_refuted_with_a_confirmed_counterexample() {
    // The pass shifted by 7 where the instruction shifted by 8: the values differ
    // for any operand with a bit set below bit 56.
    let o = validate(
        "[i64] DIOpArg(0, i64)",
        "[i64] DIOpArg(0, i64), DIOpConstant(i64 7), DIOpShl()",
        &["arg0 := DIOpArg(0, i64), DIOpConstant(i64 8), DIOpShl()"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("command line: refuted"), "{out}");
    assert!(out.contains("counterexample:"), "{out}");
    // The reference interpreter's own words, not Z3's.
    assert!(out.contains("differs: reads"), "{out}");
    assert!(
        !out.contains("THE REFERENCE INTERPRETER SEES NO DIFFERENCE"),
        "{out}"
    );
}

#[test]
fn a_value_computed_from_a_location_is_a_lossy_refinement() {
    // Before: the operand's own location. After: a value computed from it
    // (x + 0). Where the operand's location reads, both read the same bits
    // and only the before-expression is writable; where it cannot be read
    // (a location past the end of its storage), the location itself is
    // still a result while the addition fails. Sound but lossy.
    let o = validate(
        "[i32] DIOpArg(0, i32)",
        "[i32] DIOpArg(0, i32), DIOpConstant(i32 0), DIOpAdd()",
        &["arg0 := DIOpArg(0, i32)"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("command line: refinement"), "{out}");
    assert!(out.contains("the right side fails"), "{out}");
}

#[test]
fn a_read_only_salvage_of_a_read_only_value_is_equivalent() {
    let o = validate(
        "[i32] DIOpArg(0, i32), DIOpConstant(i32 0), DIOpAdd()",
        "[i32] DIOpArg(0, i32), DIOpConstant(i32 2), DIOpMul()",
        &["arg0 := DIOpArg(0, i32), DIOpConstant(i32 2), DIOpMul()"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // (x * 2) + 0 and x * 2: the same value, both read-only.
    assert!(
        stdout(&o).contains("command line: equivalent"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn an_undefined_after_expression_is_a_lossy_refinement() {
    let o = validate(
        "[i32] DIOpArg(0, i32)",
        "[i32] DIOpConstant(i32 undef)",
        &["arg0 := DIOpArg(0, i32)"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("command line: refinement"), "{out}");
    assert!(out.contains("gives nothing"), "{out}");
}

#[test]
fn a_value_where_the_before_expression_has_none_is_refuted() {
    // The pass deleted the operand, yet the after-expression claims a constant.
    let o = validate(
        "[i32] DIOpArg(0, i32)",
        "[i32] DIOpConstant(i32 5)",
        &["arg0 := undefined"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("command line: refuted"), "{out}");
    assert!(out.contains("only the left side's read fails"), "{out}");
}

#[test]
fn a_deleted_operand_and_a_poison_after_is_a_refinement() {
    let o = validate(
        "[i64] DIOpArg(0, i64)",
        "[i64 poison] DIOpArg(0, i64)",
        &["arg0 := undefined"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("refinement"), "{}", stdout(&o));
    let p = validate("[i64] DIOpArg(0, i64)", "poisoned", &[]);
    assert_eq!(p.status.code(), Some(0), "{}", stderr(&p));
    assert!(stdout(&p).contains("poisoned"), "{}", stdout(&p));
}

#[test]
fn every_amd_row_gets_a_verdict_and_every_refutation_is_confirmed() {
    let o = diopter(&[
        "validate",
        "corpus/amd/amd-rewrites.map",
        "--format",
        "json",
    ]);
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let pairs = v["pairs"].as_array().expect("pairs");
    let rows = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/amd/amd-rewrites.tsv"),
    )
    .unwrap()
    .lines()
    .count();
    assert_eq!(pairs.len(), rows);
    for (i, p) in pairs.iter().enumerate() {
        assert_eq!(p["pair"], format!("row {}", i + 1));
        let verdict = p["verdict"].as_str().unwrap();
        assert!(
            ["equivalent", "refinement", "refuted", "unknown"].contains(&verdict),
            "row {}: {verdict}: {}",
            i + 1,
            p["detail"]
        );
        if verdict == "refuted" {
            let d = p["counterexample"]["differences"].as_array().unwrap();
            assert!(!d.is_empty(), "row {}: unconfirmed refutation", i + 1);
        }
    }
    // Rows whose verdict follows from the test by hand: the address-space
    // cast folds (1-9) are equivalent, the poisoned ones (55-57) refinements.
    for (i, p) in pairs.iter().enumerate().take(9) {
        assert_eq!(p["verdict"], "equivalent", "row {}", i + 1);
    }
    for (i, p) in pairs.iter().enumerate().skip(54) {
        assert_eq!(p["verdict"], "refinement", "row {}", i + 1);
    }
}

#[test]
fn a_mapping_naming_a_missing_argument_is_a_diagnostic_with_a_caret() {
    let f = temp(
        "missing.map",
        "pair p\nbefore [ptr] DIOpArg(0, ptr)\nafter [ptr addrspace(1)] DIOpArg(0, ptr addrspace(1)), DIOpConvert(ptr)\narg0 := DIOpArg(1, ptr addrspace(1)), DIOpConvert(ptr)\n",
    );
    let o = diopter(&["validate", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("missing.map:4:9: error: DIOpArg index out of range"),
        "{e}"
    );
    assert!(e.contains("^^^^"), "{e}");
}

#[test]
fn a_mapping_of_the_wrong_type_is_a_diagnostic() {
    let f = temp(
        "type.map",
        "pair p\nbefore [i32] DIOpArg(0, i32)\nafter [i64] DIOpArg(0, i64), DIOpConvert(i32)\narg0 := DIOpArg(0, i64)\n",
    );
    let o = diopter(&["validate", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("type.map:4:9: error: the mapping of old argument 0 gives `i64`, but the argument has type `i32`"),
        "{e}"
    );
    assert!(e.contains("^"), "{e}");
}

#[test]
fn a_mapping_whose_argument_type_differs_from_the_after_arguments_is_a_diagnostic() {
    // The new operand is an i64; the mapping reads it as an i32.
    let f = temp(
        "argtype.map",
        "pair p\nbefore [i32] DIOpArg(0, i32)\nafter [i64] DIOpArg(0, i64), DIOpConvert(i32)\narg0 := DIOpArg(0, i32)\n",
    );
    let o = diopter(&["validate", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("argtype.map:4:9: error:"), "{e}");
}

#[test]
fn a_missing_mapping_and_an_unknown_line_are_diagnostics() {
    let f = temp(
        "nomap.map",
        "pair p\nbefore [i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()\nafter [i32] DIOpArg(0, i32)\narg0 := DIOpArg(0, i32)\nfrobnicate\n",
    );
    let o = diopter(&["validate", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("nomap.map:5:1: error: unknown line `frobnicate`"),
        "{e}"
    );
    assert!(e.contains("no `arg1 := ...`"), "{e}");
}

#[test]
fn an_unreadable_file_is_exit_2() {
    let o = diopter(&["validate", "/nonexistent/pairs.map"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("/nonexistent/pairs.map"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn help_teaches_the_mapping_format() {
    let o = diopter(&["validate", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("argK := undefined"), "{out}");
    assert!(
        out.contains("arg0 := DIOpArg(0, ptr addrspace(1)), DIOpConvert(ptr)"),
        "{out}"
    );
    // Generic pairs: the syntax and the default widths.
    assert!(out.contains("GENERIC PAIRS"), "{out}");
    assert!(out.contains("where VAR: CLASS"), "{out}");
    assert!(out.contains("--where"), "{out}");
    assert!(out.contains("1,2,3,4,7,8,16,32,33,64"), "{out}");
}

// ---------------------------------------------------------------------
// Generic pairs (`where T: int`): a verdict per binding, the worst overall.

/// `diopter validate --where W -e BEFORE -e AFTER --map M... ARGS... --format json`.
fn validate_generic_json(
    wheres: &str,
    before: &str,
    after: &str,
    maps: &[&str],
    extra: &[&str],
) -> (Output, serde_json::Value) {
    let mut args = vec!["validate", "--where", wheres, "-e", before, "-e", after];
    for m in maps {
        args.push("--map");
        args.push(m);
    }
    args.extend(extra);
    args.extend(["--format", "json"]);
    let o = diopter(&args);
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(&o), stderr(&o)));
    (o, v)
}

#[test]
fn a_generic_salvage_is_equivalent_at_every_default_width() {
    let (o, v) = validate_generic_json(
        "T: int",
        "[T] DIOpArg(0, T)",
        "[T] DIOpArg(0, T), DIOpConstant(T 1), DIOpAdd()",
        &["arg0 := DIOpArg(0, T), DIOpConstant(T 1), DIOpAdd()"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let p = &v["pairs"][0];
    assert_eq!(p["verdict"], "equivalent", "{p:#}");
    assert_eq!(p["where"], "T: int");
    // The lines as written, type variables and all.
    assert_eq!(p["before"], "[T] DIOpArg(0, T)");
    let bindings: Vec<&str> = p["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            assert_eq!(i["verdict"], "equivalent", "{i:#}");
            i["binding"].as_str().unwrap()
        })
        .collect();
    // `diopter prove`'s default widths.
    let want: Vec<String> = [1, 2, 3, 4, 7, 8, 16, 32, 33, 64]
        .iter()
        .map(|w| format!("T = i{w}"))
        .collect();
    assert_eq!(bindings, want);
    assert_eq!(p["skipped"].as_array().unwrap().len(), 0);
    assert_eq!(v["summary"]["equivalent"], 1);
}

#[test]
fn a_generic_wrong_salvage_is_refuted_at_its_first_wrong_width_and_the_reference_agrees() {
    // The instruction added 1, the after-expression xors 1: the same at i1
    // (addition modulo 2 is xor), different at every wider type (x = 1:
    // 1 + 1 = 2, 1 ^ 1 = 0).
    let (o, v) = validate_generic_json(
        "T: int",
        "[T] DIOpArg(0, T)",
        "[T] DIOpArg(0, T), DIOpConstant(T 1), DIOpXor()",
        &["arg0 := DIOpArg(0, T), DIOpConstant(T 1), DIOpAdd()"],
        &["--widths", "1,2,8"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let p = &v["pairs"][0];
    assert_eq!(p["verdict"], "refuted", "{p:#}");
    assert_eq!(p["binding"], "T = i2", "{p:#}");
    assert!(
        p["detail"].as_str().unwrap().starts_with("at T = i2: "),
        "{p:#}"
    );
    let verdicts: Vec<(&str, &str)> = p["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["binding"].as_str().unwrap(),
                i["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("T = i1", "equivalent"),
            ("T = i2", "refuted"),
            ("T = i8", "refuted")
        ]
    );
    assert_eq!(
        p["substituted"],
        "DIOpArg(0, i2), DIOpConstant(i2 1), DIOpAdd()"
    );
    // The counterexample replayed by the reference interpreter
    // (`diopter eval`): the before-expression with the mapping substituted
    // and the after-expression, both at i2, read different values.
    let ctx = temp(
        "generic-cex.ctx",
        p["counterexample"]["context"].as_str().unwrap(),
    );
    let eval = |e: &str| {
        let o = diopter(&["eval", "-e", e, "--context", ctx.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        out.lines()
            .find(|l| l.starts_with("value:"))
            .unwrap_or_else(|| panic!("no value: {out}"))
            .to_string()
    };
    let left = eval("[i2] DIOpArg(0, i2), DIOpConstant(i2 1), DIOpAdd()");
    let right = eval("[i2] DIOpArg(0, i2), DIOpConstant(i2 1), DIOpXor()");
    assert_ne!(left, right);
    // And the text names the binding.
    let t = diopter(&[
        "validate",
        "--where",
        "T: int",
        "--widths",
        "1,2",
        "-e",
        "[T] DIOpArg(0, T)",
        "-e",
        "[T] DIOpArg(0, T), DIOpConstant(T 1), DIOpXor()",
        "--map",
        "arg0 := DIOpArg(0, T), DIOpConstant(T 1), DIOpAdd()",
    ]);
    assert_eq!(t.status.code(), Some(1));
    let out = stdout(&t);
    assert!(out.contains("command line: refuted at T = i2"), "{out}");
    assert!(out.contains("T = i1:      equivalent"), "{out}");
}

#[test]
fn a_binding_whose_literal_does_not_fit_is_skipped_and_named() {
    let (o, v) = validate_generic_json(
        "T: int",
        "[T] DIOpArg(0, T)",
        "[T] DIOpArg(0, T), DIOpConstant(T 5), DIOpAdd()",
        &["arg0 := DIOpArg(0, T), DIOpConstant(T 5), DIOpAdd()"],
        &["--widths", "2,3,8"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let p = &v["pairs"][0];
    assert_eq!(p["verdict"], "equivalent");
    assert_eq!(p["instances"].as_array().unwrap().len(), 2);
    let s = &p["skipped"][0];
    assert_eq!(s["binding"], "T = i2");
    // 5 does not fit in 2 bits (signed or unsigned); the column is the
    // literal's on the -e line (`after [T] ...` of the pair text).
    assert!(
        s["reason"]
            .as_str()
            .unwrap()
            .contains("integer literal 5 does not fit in i2"),
        "{s:#}"
    );
}

#[test]
fn the_generic_corpus_pairs_are_never_refuted() {
    let o = diopter(&["validate", "corpus/amd/generic.map", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let pairs = v["pairs"].as_array().unwrap();
    assert!(pairs.len() >= 5);
    for p in pairs {
        // Each is correct by construction: the after-expression is the
        // before-expression with the mapping substituted.
        assert_eq!(p["verdict"], "equivalent", "{p:#}");
        assert!(!p["instances"].as_array().unwrap().is_empty(), "{p:#}");
    }
}

#[test]
fn an_undeclared_type_variable_is_a_diagnostic_with_a_caret() {
    let f = temp(
        "undeclared.map",
        "pair p\nwhere T: int\nbefore [T] DIOpArg(0, T)\nafter [T] DIOpArg(0, T)\narg0 := DIOpArg(0, U)\n",
    );
    let o = diopter(&["validate", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(
        e.contains("undeclared.map:5:20: error: type variable `U` is not declared"),
        "{e}"
    );
    assert!(e.contains("\n  |                    ^\n"), "{e}");
    // Without any `where`, the same.
    let o = validate(
        "[T] DIOpArg(0, T)",
        "[T] DIOpArg(0, T)",
        &["arg0 := DIOpArg(0, T)"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("type variable `T` is not declared"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_type_variable_used_against_its_class_is_a_diagnostic_with_a_caret() {
    // `T: ptr`, but DIOpAdd needs integers or floats: no binding works.
    let f = temp(
        "class.map",
        "pair p\nwhere T: ptr\nbefore [T] DIOpArg(0, T)\nafter [T] DIOpArg(0, T), DIOpArg(0, T), DIOpAdd()\narg0 := DIOpArg(0, T), DIOpArg(0, T), DIOpAdd()\n",
    );
    let o = diopter(&["validate", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(
        e.contains("class.map:5:39: error: no binding of `where T: ptr` makes pair `p` well-formed; at T = ptr: DIOpAdd requires integer"),
        "{e}"
    );
    assert!(e.contains("^^^^^^^^^"), "{e}");
    // A lower-case variable, an unknown class and an unused variable.
    let f = temp(
        "where.map",
        "pair p\nwhere t: int, U: int\nbefore [t] DIOpArg(0, t)\nafter [t] DIOpArg(0, t)\narg0 := DIOpArg(0, t)\npair q\nwhere T: integer\nbefore [i8] DIOpArg(0, i8)\nafter [i8] DIOpArg(0, i8)\narg0 := DIOpArg(0, i8)\n",
    );
    let o = diopter(&["validate", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(
        e.contains(
            "where.map:2:7: error: `t`: a pair's type variable starts with an upper-case letter"
        ),
        "{e}"
    );
    assert!(
        e.contains("where.map:2:1: error: type variable `U` does not occur in the pair"),
        "{e}"
    );
    assert!(
        e.contains("where.map:7:10: error: unknown class `integer`"),
        "{e}"
    );
}

#[test]
fn a_difference_the_reference_finds_where_z3_gives_up_is_a_refutation() {
    // x86_fp80 arithmetic is not encodable: Z3 gives up, and the random
    // contexts decide. x + x and x - x differ for any x but zero and the
    // infinities and NaNs; by hand with `diopter eval`, x = the smallest
    // denormal (bits 0x1): x + x has bits 0x2, x - x is 0. Such a pair used
    // to be `unknown` with exit status 0.
    let o = validate(
        "[x86_fp80] DIOpArg(0, x86_fp80), DIOpArg(0, x86_fp80), DIOpAdd()",
        "[x86_fp80] DIOpArg(0, x86_fp80), DIOpArg(0, x86_fp80), DIOpSub()",
        &["arg0 := DIOpArg(0, x86_fp80)"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("command line: refuted"), "{out}");
    assert!(out.contains("not encodable: x86_fp80 arithmetic"), "{out}");
    assert!(
        out.contains("the reference interpreter found a difference in a random context"),
        "{out}"
    );
    assert!(out.contains("0 unknown"), "{out}");
    let ctx = temp("fp80.ctx", "arg 0 = implicit(i80 0x1)\n");
    let value = |e: &str| {
        let o = diopter(&["eval", "-e", e, "--context", ctx.to_str().unwrap()]);
        stdout(&o)
            .lines()
            .find(|l| l.starts_with("value:"))
            .map(str::to_string)
    };
    assert_eq!(
        value("[x86_fp80] DIOpArg(0, x86_fp80), DIOpArg(0, x86_fp80), DIOpAdd()").as_deref(),
        Some("value:    7.29039906376494920506E-4951 (x86_fp80 0x00000000000000000002)")
    );
    assert_eq!(
        value("[x86_fp80] DIOpArg(0, x86_fp80), DIOpArg(0, x86_fp80), DIOpSub()").as_deref(),
        Some("value:    0 (x86_fp80 0x00000000000000000000)")
    );
}
