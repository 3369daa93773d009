//! Reducing a finding with `llvm-reduce`, diopter itself the interestingness
//! test: a candidate is interesting when the pass, run on it, still gives a
//! refutation of the same cause (`campaign::cause`) that rests only on
//! values both files share. Requiring the same cause keeps the reduction
//! from sliding to another mistake. The finding's function is first cut out
//! of its module (`llvm-extract`), when the cause survives that, because
//! `llvm-reduce` spends most of its time on the rest of a large module; a
//! reduction cut short by its time limit keeps `llvm-reduce`'s best file so
//! far (it rewrites its output at each success), once the test accepts it.

use super::campaign::{cause, cause_id, inconclusive, Finding};
use super::opt_loop::{Opt, StepError};
use super::tools::{self, Limits, Located, RunError, ToolError};
use crate::files::{self, FileVerdicts, Kind, RecordVerdict, UnreadablePair};
use diopter_semantics::diag::Source;
use diopter_smt::prove::ProveConfig;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Why a reduction, or a check of a candidate, could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReduceError {
    /// `opt` could not run the pass.
    #[error(transparent)]
    Opt(#[from] StepError),
    /// The module before or after the pass does not parse.
    #[error(transparent)]
    Unreadable(#[from] UnreadablePair),
    #[error(transparent)]
    Tool(#[from] ToolError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The finding does not reproduce with this diopter: nothing to reduce.
    #[error("not refuted by this diopter: `{pass}` on src.ll no longer gives cause {cause_id}")]
    NotRefuted { pass: String, cause_id: String },
    /// `llvm-reduce` failed (the tail of its stderr).
    #[error("llvm-reduce failed: {0}")]
    Failed(String),
    #[error("llvm-reduce ran past its limit of {0} s before any smaller reproducer")]
    NothingSmaller(u64),
    /// `llvm-reduce` could not be run.
    #[error(transparent)]
    Run(#[from] RunError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ReduceError + '_ {
    move |source| ReduceError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The refutations of `cause_id` that `pass` gives on `text` (a module that
/// already has its debug records: it is not debugified again).
pub fn matching(
    opt: &Opt,
    text: &str,
    pass: &str,
    want: &str,
    cfg: &ProveConfig,
) -> Result<Vec<RecordVerdict>, ReduceError> {
    Ok(findings_of(opt, text, pass, cfg)?
        .into_iter()
        .filter(|(id, _)| id == want)
        .map(|(_, r)| r)
        .collect())
}

/// Every refutation `pass` gives on `text` that is a finding (not
/// inconclusive), with its cause id.
pub fn findings_of(
    opt: &Opt,
    text: &str,
    pass: &str,
    cfg: &ProveConfig,
) -> Result<Vec<(String, RecordVerdict)>, ReduceError> {
    let after = opt.passes(text, pass)?;
    let b = Source::new("candidate (before)", text.to_string());
    let a = Source::new("candidate (after)", after);
    let v: FileVerdicts = {
        // Two reductions at once check candidates in this process.
        let _one = tools::z3_or_fork();
        files::validate_texts(&b, &a, None, cfg)?
    };
    Ok(v.records
        .into_iter()
        .filter(|r| r.verdict == Kind::Refuted && !inconclusive(r))
        .map(|r| (cause_id(&cause(pass, &r)), r))
        .collect())
}

/// `llvm-reduce`'s test: whether `pass` on the module in `file` (debug
/// records included) still gives a refutation of `cause_id`; `Err` when
/// `opt` or the file is missing.
pub fn interesting(
    file: &Path,
    pass: &str,
    cause_id: &str,
    opt: Option<&Path>,
    timeout_ms: u32,
) -> Result<bool, ReduceError> {
    let tool = tools::locate(tools::Tool::Opt, opt)?;
    let opt = Opt {
        tool,
        limits: Limits::default(),
    };
    let text = std::fs::read_to_string(file).map_err(io(file))?;
    let cfg = ProveConfig {
        timeout_ms,
        ..ProveConfig::default()
    };
    Ok(matching(&opt, &text, pass, cause_id, &cfg).is_ok_and(|v| !v.is_empty()))
}

/// How to run a reduction.
#[derive(Clone, Debug)]
pub struct Reducer {
    pub llvm_reduce: Located,
    /// `llvm-extract`, to cut the finding's function out first (optional).
    pub llvm_extract: Option<Located>,
    /// The `diopter` binary that `llvm-reduce` calls as its test.
    pub diopter: PathBuf,
    pub opt: Opt,
    /// The whole reduction's bound.
    pub limit: Duration,
    /// One Z3 query's timeout inside the test, in milliseconds.
    pub timeout_ms: u32,
}

/// Why a finding a recheck marked is not reduced.
pub const NO_LONGER: &str =
    "no longer refuted by the diopter that rechecked the run: a diopter false positive fixed since";

/// A reduction's result.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Reduced {
    pub path: String,
    pub lines_before: usize,
    pub lines_after: usize,
    pub millis: u64,
    /// `false` when the time limit cut `llvm-reduce` short and its best file
    /// so far (still a reproducer: the test was run on it again) is kept.
    #[serde(default = "yes")]
    pub complete: bool,
    /// The steps that gave the file (`llvm-extract`, `llvm-reduce`).
    #[serde(default)]
    pub steps: Vec<String>,
}

fn yes() -> bool {
    true
}

/// A finding's reduction and the reduced text, or why there is none.
pub type Reduction = Result<(Reduced, String), String>;

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
    /// A reducer that calls this very `diopter` as its test, each
    /// reduction bounded by `limit_s` seconds.
    pub fn new(
        llvm_reduce: Located,
        llvm_extract: Option<Located>,
        opt: Opt,
        limit_s: u64,
        timeout_ms: u32,
    ) -> Reducer {
        Reducer {
            llvm_reduce,
            llvm_extract,
            diopter: std::env::current_exe().unwrap_or_else(|_| PathBuf::from("diopter")),
            opt,
            limit: Duration::from_secs(limit_s),
            timeout_ms,
        }
    }

    fn still_refuted(&self, text: &str, pass: &str, cause_id: &str) -> bool {
        let cfg = ProveConfig {
            timeout_ms: self.timeout_ms,
            ..ProveConfig::default()
        };
        matching(&self.opt, text, pass, cause_id, &cfg).is_ok_and(|v| !v.is_empty())
    }

    /// `function` alone (others become declarations), when the cause
    /// survives the cut.
    fn extracted(
        &self,
        input: &Path,
        function: &str,
        pass: &str,
        cause_id: &str,
        dir: &Path,
    ) -> Option<PathBuf> {
        let tool = self.llvm_extract.as_ref()?;
        let out = dir.join("extracted.ll");
        let mut cmd = Command::new(&tool.path);
        cmd.arg("-S")
            .arg(format!("--func={function}"))
            .arg(input)
            .arg("-o")
            .arg(&out);
        let r = tools::run(
            &mut cmd,
            None,
            Limits {
                time: Duration::from_secs(60),
                memory_mb: 4096,
            },
        )
        .ok()?;
        if !r.status_ok {
            return None;
        }
        let text = std::fs::read_to_string(&out).ok()?;
        self.still_refuted(&text, pass, cause_id).then_some(out)
    }

    /// Reduces `input` (a finding's `src.ll`, its refuted record in
    /// `function`) into `out`.
    pub fn reduce(
        &self,
        input: &Path,
        pass: &str,
        cause_id: &str,
        function: Option<&str>,
        out: &Path,
    ) -> Result<Reduced, ReduceError> {
        let text = std::fs::read_to_string(input).map_err(io(input))?;
        let start = std::time::Instant::now();
        let dir = out.parent().unwrap_or(Path::new("."));
        let mut steps = Vec::new();
        let from = match function.and_then(|f| self.extracted(input, f, pass, cause_id, dir)) {
            Some(p) => {
                steps.push("llvm-extract".to_string());
                p
            }
            None if self.still_refuted(&text, pass, cause_id) => input.to_path_buf(),
            // Found by another diopter (or under other facts): nothing to
            // reduce, and the report should say so rather than blame
            // llvm-reduce.
            None => {
                return Err(ReduceError::NotRefuted {
                    pass: pass.to_string(),
                    cause_id: cause_id.to_string(),
                })
            }
        };
        let _ = std::fs::remove_file(out);
        let mut cmd = Command::new(&self.llvm_reduce.path);
        cmd.arg(format!("--test={}", self.diopter.display()));
        for a in test_args(pass, cause_id, &self.opt.tool.path, self.timeout_ms) {
            cmd.arg(format!("--test-arg={a}"));
        }
        cmd.arg("-o").arg(out).arg(&from);
        // llvm-reduce writes its scratch files beside the working directory.
        cmd.current_dir(dir);
        let left = self
            .limit
            .saturating_sub(start.elapsed())
            .max(Duration::from_secs(1));
        let r = tools::run(
            &mut cmd,
            None,
            Limits {
                time: left,
                memory_mb: 8192,
            },
        );
        let complete = match r {
            Ok(r) if r.status_ok => true,
            Ok(r) => return Err(ReduceError::Failed(r.stderr_tail())),
            Err(tools::RunError::Timeout { secs, .. }) => {
                // The best file so far, if llvm-reduce got to write one and
                // it still reproduces; else the extracted function.
                let partial = std::fs::read_to_string(out)
                    .ok()
                    .filter(|t| self.still_refuted(t, pass, cause_id));
                if partial.is_none() {
                    if from == input {
                        return Err(ReduceError::NothingSmaller(secs));
                    }
                    std::fs::copy(&from, out).map_err(io(out))?;
                }
                false
            }
            Err(e) => return Err(e.into()),
        };
        if complete || out.exists() {
            steps.push(
                if complete {
                    "llvm-reduce"
                } else {
                    "llvm-reduce (cut short)"
                }
                .to_string(),
            );
        }
        let reduced = std::fs::read_to_string(out).map_err(io(out))?;
        Ok(Reduced {
            path: out.display().to_string(),
            lines_before: text.lines().count(),
            lines_after: reduced.lines().count(),
            millis: start.elapsed().as_millis() as u64,
            complete,
            steps,
        })
    }

    /// Reduces `f` into `out_dir/findings/ID/reduced.ll`; a finding of a
    /// cause already seen in another pass is not reduced again.
    pub fn reduce_finding(&self, f: &Finding, out_dir: &Path) -> Reduction {
        if let Some(first) = &f.same_as {
            return Err(format!(
                "the same cause as {first} (another pass), which is reduced instead"
            ));
        }
        if f.no_longer_refuted {
            return Err(NO_LONGER.to_string());
        }
        let dir = out_dir.join("findings").join(&f.id);
        let out = dir.join("reduced.ll");
        let cid = cause_id(&f.cause);
        self.reduce(
            Path::new(&f.input),
            &f.pass,
            &cid,
            Some(&f.record.function),
            &out,
        )
        .map_err(|e| e.to_string())
        .and_then(|rd| {
            std::fs::read_to_string(&out)
                .map(|t| (rd, t))
                .map_err(|err| err.to_string())
        })
    }
}

/// Reduces every finding whose slot in `prior` is `None`, `jobs` at a time
/// (each reduction is its own `llvm-reduce` process calling diopter, so this
/// may exceed the campaign's workers), calling `progress` with every slot
/// (pending ones as errors) after each one ends, so that a report written
/// there loses nothing if the process is killed.
pub fn reduce_all(
    findings: &[Finding],
    prior: Vec<Option<Reduction>>,
    jobs: usize,
    one: &(dyn Fn(&Finding) -> Reduction + Sync),
    progress: &(dyn Fn(&[Reduction]) + Sync),
) -> Vec<Reduction> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let todo: Vec<usize> = (0..findings.len())
        .filter(|&i| prior.get(i).is_none_or(|p| p.is_none()))
        .collect();
    let slots: Vec<Mutex<Option<Reduction>>> = (0..findings.len())
        .map(|i| Mutex::new(prior.get(i).cloned().flatten()))
        .collect();
    let snapshot = || -> Vec<Reduction> {
        slots
            .iter()
            .map(|m| {
                m.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .clone()
                    .unwrap_or_else(|| Err("reduction pending".into()))
            })
            .collect()
    };
    let next = AtomicUsize::new(0);
    let writing = Mutex::new(());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                while let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let r = one(&findings[i]);
                    *slots[i].lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
                    let _one = writing.lock().unwrap_or_else(|p| p.into_inner());
                    progress(&snapshot());
                }
            });
        }
    });
    snapshot()
}

/// `(reduced, distinct)`: how many distinct causes (findings not the same
/// as another) have a reduction.
pub fn reduced_causes(findings: &[Finding], reduced: &[Reduction]) -> (usize, usize) {
    let firsts = findings.iter().filter(|f| leads(f)).count();
    let ok = findings
        .iter()
        .zip(reduced)
        .filter(|(f, r)| leads(f) && r.is_ok())
        .count();
    (ok, firsts)
}

/// Whether `f` leads a cause still refuted: the finding that is reduced
/// and reported in full.
pub fn leads(f: &Finding) -> bool {
    f.same_as.is_none() && !f.no_longer_refuted
}
