//! Building the batch program: the runtime (`runtime/main.c`,
//! `runtime/stops.S`) compiled once per work directory, linked with each
//! batch's object (see [`crate::elf`]) into a non-PIE executable, so that
//! the absolute addresses in the DWARF (`DW_OP_addr`) and the pages the
//! runtime maps are the ones the process uses.

use std::path::{Path, PathBuf};
use std::process::Command;

pub const MAIN_C: &str = include_str!("../runtime/main.c");
pub const STOPS_S: &str = include_str!("../runtime/stops.S");

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

/// The runtime's objects in `dir`, compiled unless they already are.
pub fn runtime(cc: &Path, dir: &Path) -> Result<[PathBuf; 2], String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut objs = Vec::new();
    for (name, text) in [("main.c", MAIN_C), ("stops.S", STOPS_S)] {
        let src = dir.join(name);
        let obj = dir.join(format!("{name}.o"));
        let current = std::fs::read_to_string(&src).is_ok_and(|t| t == text) && obj.is_file();
        if !current {
            std::fs::write(&src, text).map_err(|e| format!("{}: {e}", src.display()))?;
            run(
                Command::new(cc)
                    .args(["-c", "-O1", "-fno-pie", "-g0", "-o"])
                    .arg(&obj)
                    .arg(&src),
                name,
            )?;
        }
        objs.push(obj);
    }
    Ok([objs[0].clone(), objs[1].clone()])
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
