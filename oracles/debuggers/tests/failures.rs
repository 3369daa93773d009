//! A debugger that crashes, hangs or prints something unparseable gives a
//! clear error for its batch (and every case of it the class `failed`),
//! never answers: fake debuggers (shell scripts) stand in for GDB.

use diopter_debuggers::drive::{self, Debugger, Plan};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::Duration;

fn fake(dir: &std::path::Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

fn plan() -> Plan {
    vec![vec![("c0".to_string(), 4), ("c1".to_string(), 2)]]
}

/// The error of a fake debugger that must fail.
fn fails(body: &str, timeout: Duration) -> String {
    run_fake(body, timeout).expect_err("the fake debugger fails")
}

fn run_fake(body: &str, timeout: Duration) -> Result<Vec<String>, String> {
    let dir = std::env::temp_dir().join(format!(
        "diopter-dbg-fake-{}-{}",
        std::process::id(),
        body.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let tool = fake(&dir, "fake-gdb", body);
    let r = drive::run(
        Debugger::Gdb,
        &tool,
        &dir.join("prog"),
        &plan(),
        &dir,
        timeout,
        None,
    );
    let _ = std::fs::remove_dir_all(&dir);
    r.map(|m| m.keys().cloned().collect())
}

#[test]
fn a_debugger_that_crashes_is_an_error() {
    let e = fails(
        r#"echo '{"stop": 0, "var": "c0", "bytes": [1, 2, 3, 4]}' > "$DIOPTER_OUT"; kill -SEGV $$"#,
        Duration::from_secs(20),
    );
    assert!(
        e.contains("stopped before the end of the batch (1 of 2 variables read)"),
        "{e}"
    );
    assert!(e.contains("signal: 11"), "{e}");
}

#[test]
fn a_debugger_that_hangs_is_killed() {
    let e = fails("sleep 30 & wait", Duration::from_millis(300));
    assert!(
        e.contains("did not finish within 0 s and was killed"),
        "{e}"
    );
}

#[test]
fn unparseable_output_is_an_error() {
    let e = fails(
        r#"echo '{"stop": 0, "var": "c0", "bytes": [1, 2' > "$DIOPTER_OUT""#,
        Duration::from_secs(20),
    );
    assert!(e.contains("gdb's output line 1"), "{e}");
}

#[test]
fn a_missing_variable_is_an_error() {
    let e = fails(
        r#"printf '{"stop": 0, "var": "c0", "error": "x"}\n{"done": true}\n' > "$DIOPTER_OUT""#,
        Duration::from_secs(20),
    );
    assert_eq!(e.split(" (").next().unwrap(), "gdb gives no answer for c1");
}

#[test]
fn wrong_sizes_and_strangers_are_errors() {
    let plan = plan();
    let e = drive::parse("gdb", r#"{"stop": 0, "var": "c0", "bytes": [1]}"#, &plan).unwrap_err();
    assert_eq!(e, "gdb gives 1 bytes of the 4-byte c0");
    let e = drive::parse("gdb", r#"{"stop": 1, "var": "c0", "error": "x"}"#, &plan).unwrap_err();
    assert!(e.contains("which the plan does not read there"), "{e}");
    let e = drive::parse("gdb", r#"{"fatal": "no frame"}"#, &plan).unwrap_err();
    assert_eq!(e, "gdb: no frame");
}

#[test]
fn a_complete_answer_parses() {
    let text = "{\"stop\": 0, \"var\": \"c0\", \"bytes\": [1, null, 3, 4]}\n{\"stop\": 0, \"var\": \"c1\", \"error\": \"value has been optimized out\"}\n{\"done\": true}\n";
    let got = drive::parse("lldb", text, &plan()).unwrap();
    assert_eq!(
        got["c0"],
        drive::Answer::Bytes(vec![Some(1), None, Some(3), Some(4)])
    );
    assert_eq!(
        got["c1"],
        drive::Answer::Error("value has been optimized out".into())
    );
}

/// A batch directory given as a relative path (as `diopter debuggers case`
/// gives `target/debuggers/case`): the debugger, which runs in that
/// directory, still finds its script, the program and the plan.
#[test]
fn a_relative_batch_directory_is_found_from_the_debuggers_directory() {
    let rel = PathBuf::from(format!("diopter-dbg-rel-{}", std::process::id()));
    std::fs::create_dir_all(&rel).unwrap();
    std::fs::write(rel.join("prog"), "").unwrap();
    // gdb's arguments: -nx -batch -x SCRIPT PROGRAM.
    let tool = fake(
        &std::env::temp_dir(),
        &format!("fake-gdb-rel-{}", std::process::id()),
        r#"[ -f "$4" ] && [ -f "$5" ] && [ -f "$DIOPTER_PROGRAM" ] && [ -f "$DIOPTER_PLAN" ] || exit 3
printf '%s\n' '{"stop": 0, "var": "c0", "bytes": [1, 2, 3, 4]}' '{"stop": 0, "var": "c1", "bytes": [5, 6]}' '{"done": true}' > "$DIOPTER_OUT""#,
    );
    let r = drive::run(
        Debugger::Gdb,
        &tool,
        &rel.join("prog"),
        &plan(),
        &rel,
        Duration::from_secs(20),
        None,
    );
    let _ = std::fs::remove_dir_all(&rel);
    let _ = std::fs::remove_file(&tool);
    let got = r.expect("the fake debugger finds every file");
    assert_eq!(got["c1"], drive::Answer::Bytes(vec![Some(5), Some(6)]));
}

/// LLDB is started with the preloaded object (`LD_PRELOAD`), and told to
/// start the program it debugs without it.
#[test]
fn lldb_runs_with_the_preload_and_the_program_without() {
    let dir = std::env::temp_dir().join(format!("diopter-dbg-preload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let so = dir.join("quiet.so");
    std::fs::write(&so, "").unwrap();
    let tool = fake(
        &dir,
        "fake-lldb",
        r#"case "$LD_PRELOAD" in */quiet.so) ;; *) exit 3 ;; esac
case "$*" in *"settings set target.unset-env-vars LD_PRELOAD"*) ;; *) exit 4 ;; esac
printf '%s\n' '{"stop": 0, "var": "c0", "bytes": [1, 2, 3, 4]}' '{"stop": 0, "var": "c1", "bytes": [5, 6]}' '{"done": true}' > "$DIOPTER_OUT""#,
    );
    let r = drive::run(
        Debugger::Lldb,
        &tool,
        &dir.join("prog"),
        &plan(),
        &dir,
        Duration::from_secs(20),
        Some(&so),
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(r.expect("the fake LLDB sees both").len(), 2);
}
