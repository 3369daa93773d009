//! `diopter validate --passes PIPELINE FILE.ll`: LLVM's `opt` in the loop
//! (`diopter_tv::upstream::opt_loop`). The file (debugified first with
//! `--debugify`) and `opt`'s output are written out and compared exactly as
//! `diopter validate BEFORE.ll AFTER.ll` compares two files.

use crate::validate_cmd::Args;
use crate::{outln, validate_ll};
use diopter_tv::upstream::opt_loop::Opt;
use diopter_tv::upstream::tools::{self, Limits, Tool};
use std::path::PathBuf;
use std::process::ExitCode;

pub const OPT_HELP: &str = "\
OPT IN THE LOOP
  diopter validate --passes PIPELINE [--debugify] [--opt PATH] [--keep DIR] FILE.ll

  Runs `opt -S -passes=PIPELINE` (LLVM 19's opt: opt-19 or opt on PATH, or
  --opt) over FILE.ll and validates every record of the result against the
  file, as for two files above. With --debugify the file's own debug
  information is stripped and every instruction result given a variable
  first (`opt -passes=debugify`), so that the pass is checked on every value
  it touches. The two modules are kept (--keep DIR, else a temporary
  directory, printed on stderr) so that the verdict can be replayed with
  `diopter validate DIR/before.ll DIR/after.ll`. opt failing, crashing or
  running past 120 s is exit 2 with its stage and stderr; a missing opt is
  exit 2 naming the package (apt-get install -y llvm-19).

  $ clang-19 -O0 -g -S -emit-llvm -Xclang -disable-O0-optnone f.c -o f0.ll
  $ opt-19 -S -passes=mem2reg f0.ll -o f.ll
  $ diopter validate --passes bdce f.ll
";

pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

pub fn run_to(a: &Args, wout: &mut dyn std::io::Write, werr: &mut dyn std::io::Write) -> u8 {
    let pipeline = a.passes.as_deref().unwrap_or_default();
    if a.paths.len() != 1 || !a.exprs.is_empty() {
        outln!(
            werr,
            "diopter validate --passes: give exactly one .ll file (and no -e)"
        );
        return 2;
    }
    let tool = match tools::locate(Tool::Opt, a.opt.as_deref()) {
        Ok(t) => t,
        Err(e) => {
            outln!(werr, "diopter validate: {e}");
            return 2;
        }
    };
    let opt = Opt {
        tool,
        limits: Limits {
            time: std::time::Duration::from_secs(120),
            memory_mb: 8192,
        },
    };
    let file = &a.paths[0];
    let text = match crate::inputs::read(file) {
        Ok(t) => t,
        Err(e) => {
            outln!(werr, "{}: error: {e}", file.display());
            return 2;
        }
    };
    let before = if a.debugify {
        match opt.debugify(&text) {
            Ok(t) => t,
            Err(e) => {
                outln!(werr, "{}: {e}", file.display());
                return 2;
            }
        }
    } else {
        text
    };
    let after = match opt.passes(&before, pipeline) {
        Ok(t) => t,
        Err(e) => {
            outln!(werr, "{}: {e}", file.display());
            return 2;
        }
    };
    let dir = a.keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("diopter-validate-{}", std::process::id()))
    });
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "module".into());
    let (bp, ap): (PathBuf, PathBuf) = (
        dir.join(format!("{stem}.before.ll")),
        dir.join(format!("{stem}.after.ll")),
    );
    if let Err(e) = std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::write(&bp, &before))
        .and_then(|_| std::fs::write(&ap, &after))
    {
        outln!(werr, "diopter validate: {}: {e}", dir.display());
        return 2;
    }
    outln!(
        werr,
        "opt {} -passes={pipeline}: {} -> {}",
        opt.tool.version,
        bp.display(),
        ap.display()
    );
    let mut files = a.clone();
    files.passes = None;
    files.paths = vec![bp, ap];
    validate_ll::run_to(&files, wout, werr)
}
