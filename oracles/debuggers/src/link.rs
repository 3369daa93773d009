//! Building the batch program: the runtime (`runtime/main.c`,
//! `runtime/stops.S`) compiled once per work directory, linked with each
//! batch's object (see [`crate::elf`]) into a non-PIE executable, so that
//! the absolute addresses in the DWARF (`DW_OP_addr`) and the pages the
//! runtime maps are the ones the process uses.

use std::path::{Path, PathBuf};
use std::process::Command;

pub const MAIN_C: &str = include_str!("../runtime/main.c");
pub const STOPS_S: &str = include_str!("../runtime/stops.S");
pub const QUIET_SYSLOG_C: &str = include_str!("../runtime/quiet_syslog.c");

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run the C compiler for {what}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "the C compiler fails on {what} ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// `text` written to `dir/name` and compiled with `args` into `dir/out`,
/// unless both already are.
fn compile_once(
    cc: &Path,
    dir: &Path,
    name: &str,
    text: &str,
    out: &str,
    args: &[&str],
) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let src = dir.join(name);
    let obj = dir.join(out);
    let current = std::fs::read_to_string(&src).is_ok_and(|t| t == text) && obj.is_file();
    if !current {
        std::fs::write(&src, text).map_err(|e| format!("{}: {e}", src.display()))?;
        run(
            Command::new(cc).args(args).arg("-o").arg(&obj).arg(&src),
            name,
        )?;
    }
    Ok(obj)
}

/// The runtime's objects in `dir`, compiled unless they already are.
pub fn runtime(cc: &Path, dir: &Path) -> Result<[PathBuf; 2], String> {
    let args = ["-c", "-O1", "-fno-pie", "-g0"];
    Ok([
        compile_once(cc, dir, "main.c", MAIN_C, "main.c.o", &args)?,
        compile_once(cc, dir, "stops.S", STOPS_S, "stops.S.o", &args)?,
    ])
}

/// The shared object LLDB is started with (`LD_PRELOAD`) so that its copies
/// of diagnostics to the system log cost nothing (see
/// `runtime/quiet_syslog.c`), in `dir`, compiled unless it already is.
pub fn quiet_syslog(cc: &Path, dir: &Path) -> Result<PathBuf, String> {
    compile_once(
        cc,
        dir,
        "quiet_syslog.c",
        QUIET_SYSLOG_C,
        "quiet_syslog.so",
        &["-shared", "-fPIC", "-O1", "-g0"],
    )
}

/// Links the runtime and `batch_o` into `exe`.
pub fn link(cc: &Path, runtime: &[PathBuf; 2], batch_o: &Path, exe: &Path) -> Result<(), String> {
    run(
        Command::new(cc)
            .args(["-no-pie", "-o"])
            .arg(exe)
            .args(runtime)
            .arg(batch_o),
        "the batch program",
    )
}
