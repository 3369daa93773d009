//! `diopter check` on MIR files written by hand (`tests/mir/`): expressions
//! in machine function bodies checked against their operands' widths, two
//! machine functions, a lifetime defined in two blocks, and bad MIR reported
//! with line, column and caret. The expected verdicts were worked out by hand
//! from the files (register widths: `docs/mir.md`).

mod common;
use common::{diopter, stdout};

/// `(line, verdict)` of every expression of a `--format json` check.
fn verdicts(path: &str) -> (i32, Vec<(u64, String)>, serde_json::Value) {
    let o = diopter(&["check", "--format", "json", path]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let list = v["expressions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["line"].as_u64().unwrap(),
                e["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (o.status.code().unwrap_or(-1), list, v)
}

#[test]
fn body_expressions_are_checked_against_register_widths() {
    let (code, got, v) = verdicts("tests/mir/body-expressions.mir");
    let want: Vec<(u64, String)> = [
        (7, "valid"),
        (36, "valid"),
        (37, "valid"),
        (38, "valid"),
        (39, "valid"),
        (40, "valid"),
        (41, "valid"),
        (42, "invalid"),
        (43, "invalid"),
        (44, "invalid"),
    ]
    .iter()
    .map(|(l, s)| (*l, s.to_string()))
    .collect();
    assert_eq!(got, want, "{v:#}");
    assert_eq!(code, 1);
    let diag = |line: u64| {
        v["expressions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["line"] == line)
            .map(|e| e["diagnostics"][0].clone())
            .unwrap()
    };
    // $vgpr0_vgpr1 is 64 bits.
    let d = diag(42);
    assert_eq!(d["column"], 55);
    assert_eq!(
        d["message"],
        "DIOpArg type must be same size in bits as argument (`i32` is 32 bits, argument 0 is 64)"
    );
    // DBG_VALUE_LIST gives two operands.
    let d = diag(43);
    assert_eq!(d["column"], 56);
    assert!(d["message"]
        .as_str()
        .unwrap()
        .starts_with("DIOpArg index out of range: index 2, the expression has 2 arguments"));
    let d = diag(44);
    assert_eq!(d["column"], 66);
    assert!(d["message"].as_str().unwrap().contains("DIOpDeref"), "{d}");
    // The caret, in the text output.
    let out = stdout(&diopter(&["check", "tests/mir/body-expressions.mir"]));
    assert!(
        out.contains("42 |     DBG_VALUE $vgpr0_vgpr1, $noreg, !8, !DIExpression(DIOpArg(0, i32)), debug-location !10\n"),
        "{out}"
    );
    assert!(
        out.contains(&format!("   | {}^^^^^^^^^^^^^^^\n", " ".repeat(54))),
        "{out}"
    );
}

#[test]
fn two_machine_functions_and_a_lifetime_defined_in_two_blocks() {
    let (code, got, v) = verdicts("tests/mir/two-functions.mir");
    assert_eq!(code, 0, "{v:#}");
    // The lifetime's location (line 27) and f's DBG_VALUE (line 33).
    let want: Vec<(u64, String)> = vec![(27, "valid".into()), (33, "valid".into())];
    assert_eq!(got, want, "{v:#}");
}

/// The rendered diagnostic of a file that does not read: exit 2, the
/// `file:line:col: error: message` line and the caret under the column.
fn bad(path: &str, line: usize, col: usize, message: &str, width: usize) {
    let o = diopter(&["check", path]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!("{path}:{line}:{col}: error: {message}")),
        "{out}"
    );
    let gutter = " ".repeat(line.to_string().len());
    assert!(
        out.contains(&format!(
            "{gutter} | {}{}\n",
            " ".repeat(col - 1),
            "^".repeat(width)
        )),
        "{out}"
    );
}

#[test]
fn broken_yaml_has_a_caret() {
    bad(
        "tests/mir/broken-yaml.mir",
        9,
        5,
        "this `{` is never closed",
        1,
    );
    bad(
        "tests/mir/tab-indent.mir",
        5,
        1,
        "a tab in YAML indentation (indent with spaces)",
        1,
    );
}

#[test]
fn an_unknown_instruction_has_a_caret() {
    bad(
        "tests/mir/unknown-instruction.mir",
        6,
        14,
        "unknown machine instruction name `v_mov_b32`",
        9,
    );
    bad(
        "tests/mir/unknown-instruction.mir",
        7,
        5,
        "unknown machine instruction name `DBG_VALUES`",
        10,
    );
}

#[test]
fn a_missing_register_class_has_a_caret() {
    bad(
        "tests/mir/missing-class.mir",
        8,
        5,
        "virtual register `%1` has no register class: give it one in `registers:` or as `%1:CLASS` where it is defined",
        2,
    );
}

/// docs/mir.md, errata 1 and 2: what diopter says of the two AMD test shapes
/// it disagrees with.
#[test]
fn the_errata_shapes() {
    let (code, got, v) = verdicts("tests/mir/errata.mir");
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(
        got,
        vec![(11, "invalid".to_string()), (12, "invalid".to_string())],
        "{v:#}"
    );
    let msg = |i: usize| {
        v["expressions"][i]["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // Erratum 2: a 32-bit register given to DIOpArg(0, i64).
    assert_eq!(
        msg(0),
        "DIOpArg type must be same size in bits as argument (`i64` is 64 bits, argument 0 is 32)"
    );
    // Erratum 1: AMD's whole-register target type has no size diopter knows.
    assert!(msg(1).contains("has no size diopter knows"), "{}", msg(1));
}
