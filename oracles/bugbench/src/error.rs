//! Why the benchmark, or a step of it, could not run: one [`Error`] for
//! the whole crate, so that [`crate::run::bench`] passes its steps'
//! failures on as they are (the report is not written; exit 2).

use std::path::PathBuf;

/// What a normal build says when asked to run a fault.
pub const NOT_A_FAULTS_BUILD: &str = "this diopter has no planted faults (they are compiled in only with \
     RUSTFLAGS=\"--cfg diopter_faults\"; `diopter bugbench` builds such a binary under target/bugbench/)";

/// Why the benchmark could not run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad options.
    #[error("{0}")]
    Usage(String),
    /// A file of the benchmark: a journal, a result to add to, a binary.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A journal line (1-based) that does not parse, other than a last
    /// line cut short.
    #[error("{}:{line}: not a journal line ({source})", path.display())]
    JournalLine {
        path: PathBuf,
        line: usize,
        source: serde_json::Error,
    },
    /// `cargo` did not start.
    #[error("cargo: {0}")]
    Cargo(std::io::Error),
    /// A cargo build failed; what it built.
    #[error("building {0} failed")]
    BuildFailed(&'static str),
    /// The property tests built, but cargo named no executable for this one.
    #[error("no test executable for {0}")]
    NoTestExecutable(String),
    /// The faults binary's catalogue failed (its stderr).
    #[error("{0}")]
    Catalogue(String),
    #[error("the catalogue does not parse: {0}")]
    CatalogueJson(serde_json::Error),
    /// `cargo fuzz` did not start.
    #[error("cargo fuzz: {0} (install it: cargo install cargo-fuzz)")]
    CargoFuzz(std::io::Error),
    #[error("building fuzz target {0} with the faults failed")]
    FuzzTargetFailed(String),
    /// The fuzz target built, but its binary is not where cargo-fuzz puts it.
    #[error("no fuzzer binary at {}", .0.display())]
    NoFuzzer(PathBuf),
    /// A normal build, asked for its planted faults.
    #[error("{NOT_A_FAULTS_BUILD}")]
    NotAFaultsBuild,
    /// The faults' switch refused the fault (its message).
    #[error("{0}")]
    Fault(String),
    /// The rule library the worker's simplifier loads: how many
    /// diagnostics it has.
    #[error("the rule library {} does not load ({count} diagnostics)", dir.display())]
    Rules { dir: PathBuf, count: usize },
    /// The catalogue or the report does not serialize.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
}
