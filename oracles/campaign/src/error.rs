//! What goes wrong, for the caller: an [`Error`] stops the campaign before
//! its fuzzers run (a bad argument, a target that does not build or
//! start); an [`OutputError`] is a part of the report not written, which
//! the campaign outlives (and lists in summary.md when it can).

use std::path::PathBuf;

/// Why a campaign did not run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("unknown plant `{0}`")]
    UnknownPlant(String),
    /// Each target runs at least one worker.
    #[error(
        "--jobs {jobs} is fewer than the {} targets ({}): each runs at least one worker; \
         give more jobs or fewer --targets",
        targets.len(),
        targets.join(",")
    )]
    TooFewJobs { jobs: usize, targets: Vec<String> },
    #[error("{}: {source}", path.display())]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "`cargo fuzz build -s none {target}` failed (is cargo-fuzz installed? `cargo install cargo-fuzz`)"
    )]
    Build { target: String },
    #[error("starting {}: {source}", bin.display())]
    Start {
        bin: PathBuf,
        source: std::io::Error,
    },
}

/// A file of the report not written (by its name in the directory).
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{file}: {message}")]
    Plot { file: &'static str, message: String },
    #[error("{file}: {source}")]
    Write {
        file: &'static str,
        source: std::io::Error,
    },
}
