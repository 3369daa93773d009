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
        (42, "valid"),
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
    // $vgpr0_vgpr1 is 64 bits: accepted as AMD's MIR reader accepts it,
    // with the width diagnostic as a warning.
    let d = diag(42);
    assert_eq!(d["column"], 55);
    assert_eq!(
        d["message"],
        "DIOpArg type must be same size in bits as argument (`i32` is 32 bits, argument 0 is 64)"
    );
    assert!(
        d["notes"][0]
            .as_str()
            .unwrap()
            .contains("as AMD reads a MIR file"),
        "{d}"
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
    // The caret, in the text output: the warning on standard error.
    let o = diopter(&["check", "tests/mir/body-expressions.mir"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("42 |     DBG_VALUE $vgpr0_vgpr1, $noreg, !8, !DIExpression(DIOpArg(0, i32)), debug-location !10\n"),
        "{err}"
    );
    assert!(
        err.contains(&format!("   | {}^^^^^^^^^^^^^^^\n", " ".repeat(54))),
        "{err}"
    );
    assert!(err.contains("warning"), "{err}");
    assert!(stdout(&o).contains(":42: valid: i32"), "{}", stdout(&o));
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

/// The two shapes of AMD's tests that diopter used to reject (docs/mir.md):
/// a 32-bit register given to `DIOpArg(0, i64)` (AMD's
/// heterogeneous-dwarf-diop-frags.mir) and AMD's whole-VGPR target type
/// (-subregs.mir). Both are accepted as AMD reads them, with the width
/// warning.
#[test]
fn amds_shapes_are_read_as_amd_reads_them() {
    let (code, got, v) = verdicts("tests/mir/errata.mir");
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        got,
        vec![(11, "valid".to_string()), (12, "valid".to_string())],
        "{v:#}"
    );
    let msg = |i: usize| {
        v["expressions"][i]["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        msg(0),
        "DIOpArg type must be same size in bits as argument (`i64` is 64 bits, argument 0 is 32)"
    );
    // The whole-VGPR type is [32 x i32], LLVM's layout of it: 1024 bits
    // against the 32-bit $vgpr42.
    assert_eq!(
        msg(1),
        "DIOpArg type must be same size in bits as argument (`target(\"amdgpu.debug.whole.vreg\", i32, 32)` is 1024 bits, argument 0 is 32)"
    );
}
