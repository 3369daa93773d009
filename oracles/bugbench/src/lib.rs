//! The bug-finding benchmark (`diopter bugbench`, `reports/bugbench.md`):
//! fuzzing research judges a fuzzer by the time it takes to reach known
//! bugs (Magma, FuzzBench); diopter plants its own (`faults/`, 33 one-line
//! mistakes behind `--cfg diopter_faults`) and measures, for each fault,
//! each way of searching and several seeds, whether the search found it,
//! after how long and how many cases, which oracle or check caught it, and
//! whether the minimizer shrank the case.
//!
//! The parts: [`worker`] runs one search of one fault inside a build with
//! the faults (`diopter bugbench worker`, a child process, so that a fault
//! that crashes or hangs a search costs only that run); [`fuzz`] builds
//! the cargo-fuzz targets with the faults and runs one fuzzer; [`drive`]
//! builds the binaries, runs the controls, schedules the runs and collects
//! their results; [`journal`] keeps each run as it ends, so that a dead
//! benchmark can be resumed; [`render`] writes the report; [`error`] says
//! what stopped it.

pub mod drive;
pub mod error;
pub mod fuzz;
pub mod journal;
pub mod process;
pub mod render;
pub mod run;
pub mod worker;

use serde::{Deserialize, Serialize};

/// One planted fault, as the faults build describes it
/// (`diopter_faults::catalogue::Fault`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FaultInfo {
    pub name: String,
    pub component: String,
    pub site: String,
    pub mistake: String,
}

/// One search of one fault with one seed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunResult {
    pub fault: String,
    /// `campaign` (the default job's in-process campaign), `proptest`, or
    /// `fuzz:TARGET` (one cargo-fuzz target).
    pub search: String,
    pub seed: u64,
    pub found: bool,
    /// Seconds from the search's start to the first detection.
    pub seconds: Option<f64>,
    /// Cases drawn by then (`None` where the search does not count them).
    pub cases: Option<u64>,
    /// The oracle or check that caught it (or the test, for proptest).
    pub caught_by: Option<String>,
    /// The first line of what it said.
    pub what: Option<String>,
    /// Operations of the case as found and as minimized (`None`: no
    /// minimization for this kind of finding).
    pub minimized: Option<(usize, usize)>,
    /// Whether the search executed the fault's site at all (`None`: not
    /// known for this search).
    pub reached: Option<bool>,
    /// The search's whole running time, and its limit.
    pub elapsed: f64,
    pub limit: f64,
    /// Why the run itself failed (the worker crashed, its output did not
    /// parse): then nothing is known.
    pub error: Option<String>,
    /// Why the run was not made (a fuzz run whose control never passed the
    /// fault's site: see [`fuzz`]); it counts as not found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// Every fault site the run passed (kept for the fuzz controls, which
    /// decide what the fuzz runs need to run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sites: Vec<String>,
}
