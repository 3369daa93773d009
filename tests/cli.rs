//! The `diopter` command line as a user meets it: exit codes, diagnostics with
//! file, line, column and caret, JSON for scripts, input limits.

use std::path::PathBuf;

mod common;
use common::{diopter, stderr, stdout};

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("diopter-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn the_corpus_checks_clean() {
    let o = diopter(&["check", "corpus/", "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(" 0 not well-formed,"), "{out}");
    assert!(out.contains(" 0 unexpectedly valid,"), "{out}");
    assert!(out.contains(" 0 syntax errors"), "{out}");
}

#[test]
fn amd_verifier_verdicts_agree_33_of_33() {
    let o = diopter(&["check", "corpus/amd/verifier.expr", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let s = &v["summary"];
    assert_eq!(s["expressions"], 33);
    assert_eq!(
        s["valid"].as_u64().unwrap() + s["expected_invalid"].as_u64().unwrap(),
        33,
        "{s}"
    );
    assert_eq!(s["expected_invalid"], 24);
}

#[test]
fn an_ill_formed_expression_exits_1_with_a_caret() {
    let o = diopter(&["check", "-e", "[ptr] -> ptr DIOpArg(1, ptr)"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("<-e>:1:14: error: DIOpArg index out of range"),
        "{out}"
    );
    assert!(out.contains("(operation #0)"), "{out}");
    assert!(out.contains("1 | [ptr] -> ptr DIOpArg(1, ptr)\n"), "{out}");
    assert!(out.contains("  |              ^^^^^^^^^^^^^^^\n"), "{out}");
}

#[test]
fn a_syntax_error_exits_2_with_a_caret() {
    let o = diopter(&["check", "-e", "[ptr] DIOpArg(0, ptr), DIOPDeref(i32)"]);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    assert!(
        out.contains("<-e>:1:24: error: unknown operation `DIOPDeref`"),
        "{out}"
    );
    assert!(out.contains("did you mean `DIOpDeref`?"), "{out}");
}

#[test]
fn unreadable_inputs_exit_2() {
    let o = diopter(&["check", "no/such/file.expr"]);
    assert_eq!(o.status.code(), Some(2));
    let bin = temp("binary.expr", "");
    std::fs::write(&bin, [0xff, 0xfe, 0x00]).unwrap();
    let o = diopter(&["check", bin.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not UTF-8"), "{}", stderr(&o));
}

#[test]
fn inputs_over_the_size_limit_are_refused_unread() {
    // A sparse file: 65 MiB long, no disk or memory spent.
    let p = temp("huge.expr", "");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&p)
        .unwrap()
        .set_len(65 << 20)
        .unwrap();
    let o = diopter(&["check", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("over diopter's input limit"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn ir_files_get_one_verdict_per_expression_with_its_line() {
    let p = temp(
        "bad-lifetime.ll",
        "%x = i32 ...\n\
         call void @llvm.dbg.def(metadata !2, metadata i32 %x)\n\
         !1 = !DILocalVariable(\"x\")\n\
         !2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))\n\
         !3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64)))\n",
    );
    let o = diopter(&["check", p.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("bad-lifetime.ll:4: valid: i32"), "{out}");
    // !3 is computed (no def references it), so DIOpReferrer is not allowed there,
    // and a computed lifetime beside other lifetimes of !1 is ill-formed.
    assert!(out.contains("bad-lifetime.ll:5: NOT WELL-FORMED"), "{out}");
    assert!(
        out.contains("DIOpReferrer is not allowed in a computed lifetime"),
        "{out}"
    );
}

#[test]
fn json_output_is_complete() {
    let o = diopter(&[
        "check",
        "-e",
        "[i32] DIOpArg(0, i32), DIOpConstant(i8 1), DIOpAdd()",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let e = &v["expressions"][0];
    assert_eq!(e["verdict"], "invalid");
    let d = &e["diagnostics"][0];
    assert_eq!(d["line"], 1);
    assert_eq!(d["column"], 44);
    assert_eq!(d["op_index"], 2);
    assert!(d["message"]
        .as_str()
        .unwrap()
        .contains("identical type inputs"));
    assert_eq!(v["exit_code"], 1);
}

#[test]
fn eval_prints_locations_and_values_and_writes() {
    let ctx = temp(
        "ctx.txt",
        "mem 5 0x100 = 78 56 34 12\n%x = i32 0x12345678\narg 0 = mem(5, 0x100) | %x\n",
    );
    let o = diopter(&[
        "eval",
        "-e",
        "[i32] DIOpArg(0, i32)",
        "--context",
        ctx.to_str().unwrap(),
        "--write",
        "7",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("location: 2 single locations\n          as5 @0x100\n          %x\n"),
        "{out}"
    );
    assert!(out.contains("value:    0x12345678"), "{out}");
    assert!(out.contains("mem 5 0x100"), "{out}");
    let o = diopter(&[
        "eval",
        "-e",
        "[] DIOpConstant(i32 1), DIOpConstant(i32 0), DIOpDiv()",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("operation #2 (DIOpDiv()): DivisionByZero"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn eval_reports_context_errors_with_a_caret() {
    let ctx = temp("bad-ctx.txt", "arg 0 = %nowhere\n");
    let o = diopter(&[
        "eval",
        "-e",
        "[i32] DIOpArg(0, i32)",
        "--context",
        ctx.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("bad-ctx.txt:1:9: error:"), "{err}");
    assert!(err.contains("^"), "{err}");
}

#[test]
fn eval_refuses_ill_formed_expressions_unless_asked() {
    let o = diopter(&[
        "eval",
        "-e",
        "[] DIOpConstant(i32 0), DIOpConstant(i8 0), DIOpAdd()",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not well-formed"), "{}", stderr(&o));
}

#[test]
fn specs_lists_every_signature() {
    let o = diopter(&["specs", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.as_array().unwrap().len() >= 34);
    assert!(stdout(&o).contains("DIOpComposite"));
}

/// `replay --smt`: the prover's encoding on a case file's concrete values
/// against the reference (how a campaign's `smt-*.case` finding replays).
#[test]
fn replay_smt_compares_the_encoding_with_the_reference() {
    let f = temp(
        "smt.case",
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpSub()\n--- context\n%a = i32 5\n%b = i32 7\narg 0 = %a\narg 1 = %b\n",
    );
    let o = diopter(&["replay", "--smt", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("smt encoding vs reference: agree"),
        "{}",
        stdout(&o)
    );
    let o = diopter(&["replay", "--smt", "--format", "json", f.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["smt"]["verdict"], "agree");
    // x86_fp80 arithmetic is modelled exactly: agreement.
    let f = temp(
        "smt-fp80.case",
        "[] DIOpConstant(x86_fp80 1.0), DIOpConstant(x86_fp80 1.0), DIOpAdd()\n--- context\n",
    );
    let o = diopter(&["replay", "--smt", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("smt encoding vs reference: agree"),
        "{}",
        stdout(&o)
    );
    // A context whose single locations disagree is outside what the
    // encoding is compared on: skipped, not agreement.
    let f = temp(
        "smt-inconsistent.case",
        "[i32] DIOpArg(0, i32), DIOpConstant(i32 1), DIOpAdd()\n--- context\n%a = i32 5\n%b = i32 7\narg 0 = %a | %b\n",
    );
    let o = diopter(&["replay", "--smt", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("smt encoding vs reference: skipped"),
        "{}",
        stdout(&o)
    );
}
