//! Child processes of the benchmark: the faults build's RUSTFLAGS, a
//! child run with a time limit (its output drained as it goes), and the
//! record of a run that could not be made.

use crate::RunResult;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Adds `--cfg diopter_faults` to the RUSTFLAGS `cmd` builds with.
pub fn faults_env(cmd: &mut Command) {
    let mut flags = std::env::var("RUSTFLAGS").unwrap_or_default();
    if !flags.is_empty() {
        flags.push(' ');
    }
    flags.push_str("--cfg diopter_faults");
    cmd.env("RUSTFLAGS", flags);
}

/// Runs `cmd` for at most `limit`, killing it after; its stdout and
/// stderr, whether it exited successfully and whether it was killed.
pub fn run_limited(mut cmd: Command, limit: Duration) -> (String, String, bool, bool) {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let Ok(mut child) = cmd.spawn() else {
        return (String::new(), "could not start".into(), false, false);
    };
    // Drain both pipes on threads: a child blocked on a full pipe never ends.
    let mut so = child.stdout.take();
    let mut se = child.stderr.take();
    let to = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = so.as_mut() {
            let _ = p.read_to_string(&mut s);
        }
        s
    });
    let te = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = se.as_mut() {
            let _ = p.read_to_string(&mut s);
        }
        s
    });
    let start = Instant::now();
    let mut killed = false;
    let ok = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st.success(),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                killed = true;
                break false;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(_) => break false,
        }
    };
    (
        to.join().unwrap_or_default(),
        te.join().unwrap_or_default(),
        ok,
        killed,
    )
}

/// A run that failed (or, with `error` cleared, a blank result to fill).
pub fn failed_run(fault: &str, search: &str, seed: u64, limit: f64, error: String) -> RunResult {
    RunResult {
        fault: fault.into(),
        search: search.into(),
        seed,
        found: false,
        seconds: None,
        cases: None,
        caught_by: None,
        what: None,
        minimized: None,
        reached: None,
        elapsed: 0.0,
        limit,
        error: Some(error),
        skipped: None,
        sites: Vec::new(),
    }
}
