//! The LLVM programs in the loop: generated modules are valid IR for `opt`,
//! a hanging or failing child is bounded and reported.

use diopter_tv::upstream::irgen;
use diopter_tv::upstream::opt_loop::{Opt, StepError};
use diopter_tv::upstream::tools::{self, Limits, RunError, Tool};
use std::process::Command;
use std::time::Duration;

fn opt() -> Opt {
    let tool = tools::locate(Tool::Opt, None)
        .expect("LLVM 19's opt is needed by these tests (./test.sh installs llvm-19)");
    Opt {
        tool,
        limits: Limits::default(),
    }
}

#[test]
fn generated_modules_pass_the_ir_verifier() {
    let o = opt();
    for seed in 0..40 {
        let m = irgen::module(seed, 3, 12);
        let out = o.passes(&m, "verify");
        assert!(out.is_ok(), "seed {seed}: {:?}\n{m}", out.err());
    }
}

#[test]
fn debugify_gives_every_result_a_variable() {
    let o = opt();
    let m = irgen::module(3, 1, 10);
    let d = o.debugify(&m).expect("debugify");
    // Every instruction with a result (`  %x = ...`) gets one record.
    let results = m.lines().filter(|l| l.starts_with("  %")).count();
    assert!(results >= 10);
    assert_eq!(d.matches("#dbg_value(").count(), results, "{d}");
    // Debugify on an already-debugified module strips first, so the
    // variables are not doubled.
    let again = o.debugify(&d).expect("debugify twice");
    assert_eq!(again.matches("#dbg_value(").count(), results);
}

#[test]
fn an_opt_error_names_its_stage() {
    let o = opt();
    let e = o.passes("this is not IR\n", "instcombine").unwrap_err();
    assert!(
        matches!(
            e,
            StepError::OptFailed {
                stage: "passes",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("expected"), "{e}");
    let e = o.passes("", "no-such-pass").unwrap_err();
    assert!(e.to_string().contains("no-such-pass"), "{e}");
    let e = o.passes("", "instcombine bdce").unwrap_err();
    assert!(matches!(e, StepError::Input(_)), "{e}");
}

#[test]
fn a_hanging_child_is_killed_at_its_time_limit() {
    let r = tools::run(
        Command::new("sleep").arg("30"),
        None,
        Limits {
            time: Duration::from_millis(300),
            memory_mb: 512,
        },
    );
    match r {
        Err(RunError::Timeout { secs: 0, .. }) => {}
        other => panic!("expected a timeout, got {other:?}"),
    }
}

#[test]
fn a_missing_tool_names_the_package() {
    let e = tools::locate(Tool::Opt, Some(std::path::Path::new("/nonexistent/opt"))).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/opt"), "{e}");
    // With an empty PATH nothing is found, and the error says what to install.
    let e = tools::locate_in(Tool::Reduce, None, std::ffi::OsStr::new("")).unwrap_err();
    let t = e.to_string();
    assert!(
        t.contains("apt-get install -y llvm-19") && t.contains("--llvm-reduce"),
        "{t}"
    );
}
