//! What the CLI tests share: running the built `diopter` binary from the
//! repository root.

use std::process::{Command, Output};

/// Runs `diopter ARGS` in the repository root and waits for it.
pub fn diopter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_diopter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("diopter runs")
}

/// Its standard output, lossily decoded.
#[allow(dead_code)] // not every test file reads both streams
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Its standard error, lossily decoded.
#[allow(dead_code)]
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
