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

/// Why the batch program or its runtime was not built.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// The C compiler did not start; `what` is the file or program it was
    /// to build.
    #[error("cannot run the C compiler for {what}: {source}")]
    Start {
        what: String,
        source: std::io::Error,
    },
    /// The C compiler failed: its exit status and stderr.
    #[error("the C compiler fails on {what} ({status}):\n{stderr}")]
    Failed {
        what: String,
        status: std::process::ExitStatus,
        stderr: String,
    },
    /// A directory or source file of the runtime.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn run(cmd: &mut Command, what: &str) -> Result<(), LinkError> {
    let out = cmd.output().map_err(|source| LinkError::Start {
        what: what.to_string(),
        source,
    })?;
    if out.status.success() {
        Ok(())
    } else {
        Err(LinkError::Failed {
            what: what.to_string(),
            status: out.status,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
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
) -> Result<PathBuf, LinkError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| LinkError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let src = dir.join(name);
    let obj = dir.join(out);
    let current = std::fs::read_to_string(&src).is_ok_and(|t| t == text) && obj.is_file();
    if !current {
        std::fs::write(&src, text).map_err(io(&src))?;
        run(
            Command::new(cc).args(args).arg("-o").arg(&obj).arg(&src),
            name,
        )?;
    }
    Ok(obj)
}

/// The runtime's objects in `dir`, compiled unless they already are.
pub fn runtime(cc: &Path, dir: &Path) -> Result<[PathBuf; 2], LinkError> {
    let args = ["-c", "-O1", "-fno-pie", "-g0"];
    Ok([
        compile_once(cc, dir, "main.c", MAIN_C, "main.c.o", &args)?,
        compile_once(cc, dir, "stops.S", STOPS_S, "stops.S.o", &args)?,
    ])
}

/// The shared object LLDB is started with (`LD_PRELOAD`) so that its copies
/// of diagnostics to the system log cost nothing (see
/// `runtime/quiet_syslog.c`), in `dir`, compiled unless it already is.
pub fn quiet_syslog(cc: &Path, dir: &Path) -> Result<PathBuf, LinkError> {
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
pub fn link(
    cc: &Path,
    runtime: &[PathBuf; 2],
    batch_o: &Path,
    exe: &Path,
) -> Result<(), LinkError> {
    run(
        Command::new(cc)
            .args(["-no-pie", "-o"])
            .arg(exe)
            .args(runtime)
            .arg(batch_o),
        "the batch program",
    )
}
