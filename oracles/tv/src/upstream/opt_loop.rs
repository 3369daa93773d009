//! `opt` in the loop: a module is (optionally) debugified, run through a
//! pass pipeline by LLVM's `opt`, and the two texts are validated record by
//! record (`crate::files`). Every step is bounded; a failing or hanging
//! `opt` is reported with its stage and stderr, never taken for agreement.

use super::tools::{self, Limits, Located, RunError};
use crate::files::{self, FileVerdicts};
use diopter_semantics::diag::Source;
use diopter_semantics::types::DataLayout;
use diopter_smt::prove::ProveConfig;
use std::process::Command;
use std::time::{Duration, Instant};

/// Why a step of the loop gave no module.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    #[error("opt ({stage}) failed: {stderr}")]
    OptFailed { stage: &'static str, stderr: String },
    #[error("opt ({stage}) crashed: {stderr}")]
    OptCrashed { stage: &'static str, stderr: String },
    #[error("opt ({stage}): {0}", stage = .1)]
    Run(RunError, &'static str),
    #[error("{0}")]
    Input(String),
    /// The module before or after `opt` does not parse.
    #[error(transparent)]
    Unreadable(#[from] files::UnreadablePair),
}

impl StepError {
    /// A stable one-word class for reports.
    pub fn class(&self) -> &'static str {
        match self {
            StepError::OptFailed { .. } => "opt-failed",
            StepError::OptCrashed { .. } => "opt-crashed",
            StepError::Run(RunError::Timeout { .. }, _) => "opt-timeout",
            StepError::Run(..) => "opt-not-started",
            StepError::Input(_) | StepError::Unreadable(_) => "bad-input",
        }
    }
}

/// The `opt` to run and its bounds.
#[derive(Clone, Debug)]
pub struct Opt {
    pub tool: Located,
    pub limits: Limits,
}

/// Whether a text already carries debug records or intrinsics (debugify
/// skips such a module, so it must be stripped first).
pub fn has_debug_info(text: &str) -> bool {
    text.contains("!llvm.dbg.cu")
}

impl Opt {
    fn opt(&self, stage: &'static str, args: &[&str], input: &str) -> Result<String, StepError> {
        let mut cmd = Command::new(&self.tool.path);
        cmd.args(args).args(["-S", "-o", "-", "-"]);
        let out = tools::run(&mut cmd, Some(input.as_bytes()), self.limits)
            .map_err(|e| StepError::Run(e, stage))?;
        if out.status_ok {
            return Ok(out.stdout);
        }
        let stderr = out.stderr_tail();
        // A signal, or LLVM's crash banner, is a crash of the pass, not a
        // refusal of the input.
        if out.code.is_none() || out.stderr.contains("PLEASE submit a bug report") {
            Err(StepError::OptCrashed { stage, stderr })
        } else {
            Err(StepError::OptFailed { stage, stderr })
        }
    }

    /// Gives every instruction result a variable (`-passes=debugify`), after
    /// stripping the debug information the module already has.
    pub fn debugify(&self, text: &str) -> Result<String, StepError> {
        let stripped;
        let text = if has_debug_info(text) {
            stripped = self.opt("strip-debug", &["-strip-debug"], text)?;
            &stripped
        } else {
            text
        };
        self.opt("debugify", &["-passes=debugify"], text)
    }

    /// Runs `pipeline` (`opt -passes=...` syntax) over `text`.
    pub fn passes(&self, text: &str, pipeline: &str) -> Result<String, StepError> {
        if pipeline.trim().is_empty() || pipeline.contains(char::is_whitespace) {
            return Err(StepError::Input(format!(
                "--passes takes one pipeline in `opt -passes=` syntax without spaces, not `{pipeline}`"
            )));
        }
        let arg = format!("-passes={pipeline}");
        self.opt("passes", &[&arg], text)
    }
}

/// One run of the loop.
#[derive(Debug)]
pub struct LoopRun {
    /// The module the pipeline ran on (debugified when asked).
    pub before: String,
    pub after: String,
    pub verdicts: FileVerdicts,
    pub opt_time: Duration,
    pub validate_time: Duration,
}

/// Debugifies `text` when asked, runs `pipeline`, validates. `Err` for a
/// failing `opt`; a module diopter cannot read is `StepError::Input` with
/// the rendered diagnostics.
pub fn run_loop(
    opt: &Opt,
    name: &str,
    text: &str,
    pipeline: &str,
    debugify: bool,
    dl: Option<&DataLayout>,
    cfg: &ProveConfig,
) -> Result<LoopRun, StepError> {
    let t0 = Instant::now();
    let before = if debugify {
        opt.debugify(text)?
    } else {
        text.to_string()
    };
    let after = opt.passes(&before, pipeline)?;
    let opt_time = t0.elapsed();
    let t1 = Instant::now();
    let bsrc = Source::new(format!("{name} (before {pipeline})"), before.clone());
    let asrc = Source::new(format!("{name} (after {pipeline})"), after.clone());
    let verdicts = files::validate_texts(&bsrc, &asrc, dl, cfg)?;
    Ok(LoopRun {
        before,
        after,
        verdicts,
        opt_time,
        validate_time: t1.elapsed(),
    })
}
