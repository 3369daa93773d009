//! What a campaign keeps in `state.json`: all that resuming after a kill
//! needs, and all that the report is drawn from. Saved atomically, often
//! (every few seconds and after each artifact), so that a kill loses
//! nothing but the last seconds.

use crate::cmin::CorpusMerge;
use diopter_report::write_atomic;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// What resuming needs.
#[derive(Serialize, Deserialize, Default)]
#[serde(default)]
pub struct State {
    pub seed: u64,
    pub targets: Vec<String>,
    /// Seconds fuzzed before this process.
    pub elapsed: f64,
    /// Artifacts handled (each deleted once handled).
    pub handled: u64,
    /// Artifacts whose raw failure was seen before, counted as a hit of its
    /// finding without minimizing.
    pub repeats: u64,
    pub findings: Vec<FindingRec>,
    /// New signatures not kept because `camp::MAX_FINDINGS` were.
    pub findings_dropped: u64,
    pub samples: Vec<Row>,
    /// Seconds between samples; doubles each time `samples` is thinned.
    pub sample_period_s: f64,
    /// (seconds, findings)
    pub finding_times: Vec<(f64, usize)>,
    /// The driver's resident set size when the campaign started (the first
    /// process, when resumed) and when this process started.
    pub rss_start_kib: Option<u64>,
    pub rss_process_start_kib: Option<u64>,
    /// The largest sampled RSS of the driver and of the fuzzers (all their
    /// processes together).
    pub rss_max_kib: Option<u64>,
    pub fuzzers_rss_max_kib: Option<u64>,
    /// Whether a Ctrl-C stopped this process's part early.
    pub stopped: bool,
    /// The corpus merges at the end of this process's part (`--no-cmin`:
    /// none, and `corpus_merge_skipped`).
    pub corpus_merge: Vec<CorpusMerge>,
    pub corpus_merge_skipped: bool,
}

/// One sample of the counters.
#[derive(Serialize, Deserialize, Clone)]
pub struct Row {
    pub seconds: f64,
    /// Per target: (executions, coverage), the latest libFuzzer reported.
    pub targets: BTreeMap<String, (u64, u64)>,
    /// RSS (KiB) of the driver and of the fuzzers.
    pub rss_kib: Option<u64>,
    pub fuzzers_rss_kib: Option<u64>,
}

#[derive(Serialize, Deserialize, Clone)]
pub struct FindingRec {
    pub target: String,
    pub signature: String,
    pub hits: u64,
    pub first_seen_s: f64,
    pub artifact: String,
    pub case: Option<String>,
    pub minimized: Option<String>,
    pub expression: Option<String>,
    pub min_ops: Option<usize>,
    pub ops: Option<usize>,
    pub replay: String,
    pub reproduced: bool,
}

impl State {
    /// The state saved in `dir`; the empty state (a new campaign) when
    /// there is none or it does not read.
    pub fn load(dir: &Path) -> State {
        std::fs::read_to_string(dir.join("state.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// A failure is ignored: it costs a resume no more than the work since
    /// the last save that succeeded.
    pub fn save(&self, dir: &Path) {
        if let Ok(t) = serde_json::to_string_pretty(self) {
            let _ = write_atomic(&dir.join("state.json"), &t);
        }
    }
}
