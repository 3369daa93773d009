//! Reducing a finding with `llvm-reduce`, diopter itself the interestingness
//! test: a candidate is interesting when the pass, run on it, still gives a
//! refutation of the same cause (`campaign::cause`) that rests only on
//! values both files share. Requiring the same cause keeps the reduction
//! from sliding to another mistake.

use super::campaign::{cause, cause_id, inconclusive};
use super::opt_loop::Opt;
use super::tools::{self, Limits, Located};
use crate::files::{self, FileVerdicts, Kind, RecordVerdict};
use diopter_semantics::diag::Source;
use diopter_smt::prove::ProveConfig;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The refutations of `cause_id` that `pass` gives on `text` (a module that
/// already has its debug records: it is not debugified again).
pub fn matching(
    opt: &Opt,
    text: &str,
    pass: &str,
    want: &str,
    cfg: &ProveConfig,
) -> Result<Vec<RecordVerdict>, String> {
    let after = opt.passes(text, pass).map_err(|e| e.to_string())?;
    let b = Source::new("candidate (before)", text.to_string());
    let a = Source::new("candidate (after)", after);
    let v: FileVerdicts = files::validate_texts(&b, &a, None, cfg)?;
    Ok(v.records
        .into_iter()
        .filter(|r| {
            r.verdict == Kind::Refuted && !inconclusive(r) && cause_id(&cause(pass, r)) == want
        })
        .collect())
}

/// How to run a reduction.
#[derive(Clone, Debug)]
pub struct Reducer {
    pub llvm_reduce: Located,
    /// The `diopter` binary that `llvm-reduce` calls as its test.
    pub diopter: PathBuf,
    pub opt: Opt,
    /// The whole reduction's bound.
    pub limit: Duration,
    /// One Z3 query's timeout inside the test, in milliseconds.
    pub timeout_ms: u32,
}

/// A reduction's result.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Reduced {
    pub path: String,
    pub lines_before: usize,
    pub lines_after: usize,
    pub millis: u64,
}

/// The `diopter` arguments `llvm-reduce` runs as its test (the candidate
/// file is appended by `llvm-reduce`).
pub fn test_args(pass: &str, cause_id: &str, opt: &Path, timeout_ms: u32) -> Vec<String> {
    vec![
        "upstream".into(),
        "interesting".into(),
        format!("--pass={pass}"),
        format!("--cause-id={cause_id}"),
        format!("--opt={}", opt.display()),
        format!("--timeout={timeout_ms}"),
    ]
}

impl Reducer {
    /// Reduces `input` (a finding's `src.ll`) into `out`.
    pub fn reduce(
        &self,
        input: &Path,
        pass: &str,
        cause_id: &str,
        out: &Path,
    ) -> Result<Reduced, String> {
        let text =
            std::fs::read_to_string(input).map_err(|e| format!("{}: {e}", input.display()))?;
        let mut cmd = Command::new(&self.llvm_reduce.path);
        cmd.arg(format!("--test={}", self.diopter.display()));
        for a in test_args(pass, cause_id, &self.opt.tool.path, self.timeout_ms) {
            cmd.arg(format!("--test-arg={a}"));
        }
        cmd.arg("-o").arg(out).arg(input);
        // llvm-reduce writes its scratch files beside the working directory.
        if let Some(d) = out.parent() {
            cmd.current_dir(d);
        }
        let start = std::time::Instant::now();
        let r = tools::run(
            &mut cmd,
            None,
            Limits {
                time: self.limit,
                memory_mb: 8192,
            },
        )
        .map_err(|e| e.to_string())?;
        if !r.status_ok {
            return Err(format!("llvm-reduce failed: {}", r.stderr_tail()));
        }
        let reduced =
            std::fs::read_to_string(out).map_err(|e| format!("{}: {e}", out.display()))?;
        Ok(Reduced {
            path: out.display().to_string(),
            lines_before: text.lines().count(),
            lines_after: reduced.lines().count(),
            millis: start.elapsed().as_millis() as u64,
        })
    }
}
