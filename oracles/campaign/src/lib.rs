//! `diopter campaign`'s engine: an overnight fuzzing campaign. Builds the
//! cargo-fuzz targets, runs each fuzzer binary in libFuzzer's fork mode as
//! a child process (crashes do not stop it), reads their stats lines for
//! the plots, watches the artifacts they write, replays each artifact
//! through the target's body (`diopter_harness::targets`,
//! `diopter_gen::Case::from_bytes`), deduplicates by signature, minimizes,
//! and keeps everything under the campaign directory: `summary.md`,
//! `findings/`, `stats.json`, `state.json` and SVG plots.
//!
//! Every file is written atomically (temporary file, rename) and the state
//! is saved every few seconds and after each finding, so after `kill -9`
//! rerunning with the same directory resumes: an artifact is deleted once
//! handled (the first of each signature is kept under `findings/`), so the
//! artifacts left (written by the fuzzers before the kill) are the ones to
//! handle, and the remaining time is what was left. The stop flag (Ctrl-C)
//! stops the fuzzers and writes the report as at the end.
//!
//! The driver's memory does not grow with the run's length: the time
//! series are thinned to `campaign::MAX_SAMPLES` rows, the fuzzers' output
//! is streamed to log files (only the latest counters are kept), handled
//! artifacts are deleted rather than remembered, repeats of a known raw
//! failure are counted without minimizing, and at most
//! `campaign::MAX_FINDINGS` findings are kept. Artifacts that libFuzzer
//! saved for a timeout, an out-of-memory input or a leak are findings by
//! their kind and are not replayed in this process (a replay would hang or
//! exhaust the driver); a panic while replaying a crash is a finding too.
//!
//! At the end each target's working corpus is minimized
//! ([`cmin::merge_corpus`]: libFuzzer's `-merge=1`, as `cargo fuzz cmin`),
//! so that a night's corpus does not slow the next night's start with
//! inputs that add nothing; the summary gives its size before and after.
//!
//! It prints nothing itself (the fuzzers' build by cargo writes to the
//! terminal it inherits): the caller owns the terminal and hears of each
//! step through an [`Observer`].
//!
//! It is a crate of its own, above `diopter-harness`, because the fuzz
//! targets link harness, which so stays free of plotters and the report.

pub mod cmin;
mod dedup;
pub mod error;
mod plots;
pub mod replay;
pub mod report;
mod run;
mod state;
pub mod supervise;

pub use cmin::CorpusMerge;
pub use error::{Error, OutputError};
pub use replay::Body;
pub use run::run;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// What to run.
#[derive(Clone)]
pub struct Config {
    /// The checkout: its fuzz/ workspace is built and its corpora grow;
    /// simplify_diff's replay loads its corpus/rules.
    pub root: PathBuf,
    /// The campaign directory (resumed when it holds a state.json). The
    /// report names files under it as given, so that its replay commands
    /// work from a clone.
    pub dir: PathBuf,
    /// How long to fuzz in all, this process's part and the parts before.
    pub time: Duration,
    /// Fuzzing workers in all, split over the targets.
    pub jobs: usize,
    /// The targets of a new campaign (a resumed one keeps its own).
    pub targets: Vec<String>,
    /// libFuzzer's -seed for a new campaign (a resumed one keeps its own).
    pub seed: u64,
    /// cargo's target directory for the fuzz build (relative: to `root`).
    pub fuzz_target_dir: PathBuf,
    /// For eval_diff_planted: the bug planted.
    pub plant: String,
    /// Merge each target's working corpus into a minimal one at the end.
    pub minimize_corpora: bool,
    /// Extra libFuzzer flags for every fuzzer.
    pub fuzzer_args: Vec<String>,
    /// Build every target with comparison tracing (see
    /// [`supervise::NO_TRACE_COMPARES`]).
    pub trace_compares: bool,
    /// Bodies of targets above this crate, by name (the CLI's `cli`
    /// target), for the replay.
    pub extra_bodies: Vec<(&'static str, Body)>,
}

/// The campaign as it starts.
pub struct Started<'a> {
    pub dir: &'a std::path::Path,
    pub resumed: bool,
    pub targets: &'a [String],
    pub seed: u64,
}

/// What the caller hears of a campaign as it runs, in this order: the
/// caller prints, the campaign does not.
pub trait Observer {
    /// The directory is ready and the state saved. Returns the flag that
    /// stops the campaign, which the caller sets on Ctrl-C: asked for only
    /// now, so that a Ctrl-C before this point kills the process as usual
    /// (there is nothing to save yet).
    fn started(&mut self, s: &Started<'_>) -> Arc<AtomicBool>;
    /// The campaign has used its time already; no fuzzer is started.
    fn nothing_left(&mut self, fuzzed_s: f64);
    /// The fuzzers run (or none had time to) for a campaign of `length_s`.
    fn fuzzing(&mut self, length_s: u64);
    /// About once a second while they run: the seconds fuzzed, the
    /// executions of all the fuzzers, the distinct findings.
    fn tick(&mut self, seconds: u64, executions: u64, findings: usize);
    /// The fuzzers have been stopped.
    fn fuzzing_done(&mut self);
    /// The corpus merges start (not called when they are not asked for).
    fn merging_corpora(&mut self);
    /// One target's corpus merge is done, or failed, or was skipped.
    fn corpus_merged(&mut self, m: &CorpusMerge);
}

/// How a campaign that ran ended.
#[derive(Debug)]
pub struct Outcome {
    /// Whether the stop flag ended it early.
    pub stopped: bool,
    /// Distinct findings, this process's and the earlier ones'.
    pub findings: usize,
    /// What of the report could not be written (summary.md lists the
    /// others).
    pub errors: Vec<OutputError>,
}
