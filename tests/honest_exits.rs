//! A command that checked nothing says so and exits non-zero; numeric flags
//! have ranges; text after a debug record is an error with a caret; every
//! command's `--help` names its exit statuses. (Issue 33's list, one test
//! per case, through the built binary.)

use std::path::PathBuf;

mod common;
use common::{diopter, stderr, stdout};

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("diopter-honest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn validate_of_two_empty_ir_files_validated_nothing() {
    let a = temp("empty-before.ll", "");
    let b = temp("empty-after.ll", "");
    let o = diopter(&["validate", s(&a), s(&b)]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("no debug record in either file: nothing validated"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn validate_of_two_text_files_named_ll_validated_nothing() {
    let a = temp("junk-before.ll", "this is not IR\nnor is this line\n");
    let b = temp("junk-after.ll", "hello world\n");
    let o = diopter(&["validate", s(&a), s(&b), "--format", "json"]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("nothing validated"), "{}", stderr(&o));
    assert!(
        stdout(&o).is_empty(),
        "no JSON for a check that did not happen"
    );
}

#[test]
fn validate_of_a_pair_file_with_no_pair_validated_nothing() {
    let m = temp("empty.map", "# only a comment\n\n");
    let o = diopter(&["validate", s(&m)]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains(&format!("no pair in {}: nothing validated", s(&m))),
        "{}",
        stderr(&o)
    );
    let m = temp("truly-empty.map", "");
    assert_eq!(diopter(&["validate", s(&m)]).status.code(), Some(2));
}

#[test]
fn validate_pair_naming_no_pair_validated_nothing() {
    let o = diopter(&[
        "validate",
        "corpus/amd/amd-rewrites.map",
        "--pair",
        "no-such-pair",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("no pair named `no-such-pair`"),
        "{}",
        stderr(&o)
    );
    let o = diopter(&[
        "validate",
        "corpus/amd/ll/sroa-poison.before.ll",
        "corpus/amd/ll/sroa-poison.after.ll",
        "--pair",
        "no-such-pair",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("no matched record pair named `no-such-pair`"));
}

#[test]
fn validate_timeout_0_is_refused_not_unbounded() {
    for t in ["0", "3600001", "-5"] {
        let o = diopter(&[
            "validate",
            "-e",
            "[i32] DIOpArg(0, i32)",
            "-e",
            "[i32] DIOpArg(0, i32)",
            "--map",
            "arg0 := DIOpArg(0, i32)",
            &format!("--timeout={t}"),
        ]);
        assert_eq!(o.status.code(), Some(2), "--timeout {t}: {}", stderr(&o));
        assert!(stderr(&o).contains("--timeout"), "{}", stderr(&o));
    }
}

#[test]
fn transform_contexts_0_and_limit_0_are_refused() {
    for flag in ["--contexts=0", "--contexts=100001", "--limit=0"] {
        let o = diopter(&[
            "transform",
            "--pass",
            "sroa",
            "corpus/spec/12-further-decomposition-before.ll",
            flag,
        ]);
        assert_eq!(o.status.code(), Some(2), "{flag}: {}", stderr(&o));
        let name = flag.split('=').next().unwrap();
        assert!(stderr(&o).contains(name), "{flag}: {}", stderr(&o));
    }
}

#[test]
fn locations_of_a_text_file_is_not_a_list_of_instructions() {
    let t = temp("notes.ll", "Dear diary,\ntoday I wrote no IR.\n");
    let o = diopter(&["locations", s(&t)]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("no variable to locate"),
        "{}",
        stderr(&o)
    );
    // A real file still works.
    let o = diopter(&["locations", "corpus/spec/01-alloca.ll"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn text_after_a_dbg_value_record_is_an_error_with_a_caret() {
    let f = temp(
        "junk-record.ll",
        "define void @f(i32 %a) {\n  #dbg_value(i32 %a, !5, !DIExpression(DIOpArg(0, i32)), !9) oops\n  ret void\n}\n!5 = !DILocalVariable(name: \"x\")\n",
    );
    let o = diopter(&["check", s(&f)]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        all.contains(
            ":2:62: error: expected the end of the line after `#dbg_value(...)`, found `oops`"
        ),
        "{all}"
    );
    assert!(all.contains("^^^^"), "{all}");
}

#[test]
fn numeric_flags_out_of_range_are_refused() {
    let cases: &[&[&str]] = &[
        &["eval", "-e", "[] DIOpConstant(i8 1)", "--line", "0"],
        &["minimize", "x.case", "--bytes", "--max-ops", "0"],
        &["minimize", "x.case", "--bytes", "--max-ops", "1000001"],
        &["campaign", "--jobs", "0"],
        &["campaign", "--jobs", "257"],
    ];
    for c in cases {
        let o = diopter(c);
        assert_eq!(o.status.code(), Some(2), "{c:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("invalid value"),
            "{c:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn every_command_documents_its_exit_status() {
    for c in [
        "check",
        "eval",
        "replay",
        "lower",
        "locations",
        "transform",
        "simplify",
        "prove",
        "minimize",
        "run",
        "report",
        "campaign",
        "validate",
        "specs",
    ] {
        let o = diopter(&[c, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{c}");
        let h = stdout(&o).to_lowercase();
        assert!(
            h.contains("exit status"),
            "`{c} --help` names no exit status"
        );
    }
    let h = stdout(&diopter(&["check", "--help"]));
    for status in [
        "unexpectedly valid",
        "syntax error",
        "no expression in the input",
    ] {
        assert!(h.contains(status), "`check --help` leaves out {status}");
    }
}

/// The `cli` fuzz target's body knows these cases: each input under
/// `fuzz/regressions/cli/honest-*` stands for a command line that cannot
/// check anything (`must_refuse` says why), and the body runs it clean
/// because the command exits 2.
#[test]
fn the_cli_fuzz_body_holds_commands_that_check_nothing_to_exit_2() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/cli");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if !name.starts_with("honest-") {
            continue;
        }
        let data = std::fs::read(e.path()).unwrap();
        let args = diopter::fuzz_cli::command_line(&data).unwrap();
        assert!(
            diopter::fuzz_cli::must_refuse(&args).is_some(),
            "{name}: {args:?}"
        );
        diopter::fuzz_cli::fuzz_one(&data).unwrap_or_else(|m| panic!("{name}: {m}"));
        n += 1;
    }
    assert_eq!(n, 5);
    // A command that does check something is not held to exit 2.
    let args: Vec<String> = ["locations", "corpus/spec/01-alloca.ll"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let args: Vec<String> = args
        .into_iter()
        .map(|a| {
            if a.ends_with(".ll") {
                root.join(a).display().to_string()
            } else {
                a
            }
        })
        .collect();
    assert_eq!(diopter::fuzz_cli::must_refuse(&args), None);
}
