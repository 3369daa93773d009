//! The outside programs the oracle needs, found on `PATH`: a C compiler
//! that links (`clang-19`, `clang`, `gcc`, `cc`), `gdb` and `lldb-19` (or
//! `lldb`), each checked by running it, so that a missing one is said once
//! and plainly rather than as a failure per case.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Which program serves each role; `None`: not installed.
#[derive(Clone, Debug, Default)]
pub struct Tools {
    pub cc: Option<PathBuf>,
    pub gdb: Option<PathBuf>,
    pub lldb: Option<PathBuf>,
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn answers(p: &Path, arg: &str) -> bool {
    Command::new(p)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn first(names: &[&str], arg: &str) -> Option<PathBuf> {
    names
        .iter()
        .filter_map(|n| on_path(n))
        .find(|p| answers(p, arg))
}

impl Tools {
    /// Looks the tools up on `PATH`.
    pub fn find() -> Tools {
        Tools {
            cc: first(&["clang-19", "clang", "gcc", "cc"], "--version"),
            gdb: first(&["gdb"], "--version"),
            lldb: first(&["lldb-19", "lldb"], "--version"),
        }
    }

    /// What is missing, as one line (empty when nothing is).
    pub fn missing(&self) -> Vec<&'static str> {
        let mut m = Vec::new();
        if self.cc.is_none() {
            m.push("a C compiler (clang-19, clang, gcc or cc)");
        }
        if self.gdb.is_none() {
            m.push("gdb");
        }
        if self.lldb.is_none() {
            m.push("lldb-19 (or lldb)");
        }
        m
    }
}
