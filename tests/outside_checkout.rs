//! The commands a newcomer runs first work from any directory: the rule
//! library is built into the binary (`src/library.rs`), so `simplify` and
//! `prove` find it in an empty directory, and `validate` needs nothing but
//! its arguments. The default job, which checks the checkout's corpus, says
//! where to run it instead of failing obscurely.

use std::path::PathBuf;
use std::process::{Command, Output};

fn empty_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("diopter-outside-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run_in(dir: &PathBuf, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_diopter"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn simplify_uses_the_built_in_rule_library() {
    let d = empty_dir("simplify");
    let o = run_in(
        &d,
        &[
            "simplify",
            "--explain",
            "-e",
            "[i32] DIOpArg(0, i32), DIOpConstant(i32 0), DIOpAdd()",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let t = text(&o);
    assert!(t.starts_with("[i32] DIOpArg(0, i32), DIOpRead()\n"), "{t}");
    assert!(t.contains("corpus/rules/identities.rules:6"), "{t}");
    // Nothing was written into the working directory.
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
}

#[test]
fn prove_of_the_built_in_library_and_of_a_users_file() {
    let d = empty_dir("prove");
    let o = run_in(
        &d,
        &[
            "prove",
            "--rule",
            "add-zero",
            "--widths",
            "8",
            "--no-report",
            "--no-cache",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    std::fs::write(
        d.join("mine.rules"),
        "rule mine: ?x:T, DIOpConstant(T 0), DIOpAdd() => ?x, DIOpRead()   where T: int\n",
    )
    .unwrap();
    let o = run_in(
        &d,
        &[
            "prove",
            "mine.rules",
            "--widths",
            "8",
            "--no-report",
            "--no-cache",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn validate_needs_only_its_arguments() {
    let d = empty_dir("validate");
    let o = run_in(
        &d,
        &[
            "validate",
            "-e",
            "[i64] DIOpArg(0, i64)",
            "-e",
            "[i64] DIOpArg(0, i64), DIOpConstant(i64 0), DIOpAdd()",
            "--map",
            "arg0 := DIOpArg(0, i64)",
        ],
    );
    assert!(o.status.code() == Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("refinement") || text(&o).contains("equivalent"),
        "{}",
        text(&o)
    );
}
