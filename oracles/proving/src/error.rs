//! Why a run proves nothing (the rule files do not load or name nothing,
//! the shards to merge are not those of one run: the command's exit status
//! 2), or why its reports were not written (a warning).

use diopter_rules::render_located;
use diopter_semantics::diag::Diagnostic;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    /// A rule file that cannot be read or parsed: the diagnostics keep
    /// their spans and are already located (file, line, column, caret).
    #[error("{}", render_located(.0).trim_end())]
    Rules(Vec<Diagnostic>),
    #[error("{}: no such file or directory", .0.display())]
    NoSuchPath(PathBuf),
    /// Nothing would be checked: the files, after the name filters, hold
    /// no rule.
    #[error("no rule to prove in {}{}: nothing was checked", list(.paths), filtered(.filters))]
    NoRule {
        paths: Vec<PathBuf>,
        filters: Vec<String>,
    },
    /// A shard's JSON that cannot be read or parsed.
    #[error("{}: {message}", .path.display())]
    Shard { path: PathBuf, message: String },
    /// Shards that are not the shares of one run.
    #[error("--merge: {0}")]
    Merge(String),
    /// The verdicts stand; only the report files could not be written.
    #[error("writing the reports in {}: {source}", .dir.display())]
    Reports {
        dir: PathBuf,
        source: std::io::Error,
    },
}

impl ProveError {
    /// What the command prints on standard error: the located diagnostics
    /// as they are, any other error as one `error: ` line.
    pub fn render(&self) -> String {
        match self {
            ProveError::Rules(d) => render_located(d),
            e => format!("error: {e}\n"),
        }
    }
}

fn list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn filtered(filters: &[String]) -> String {
    if filters.is_empty() {
        String::new()
    } else {
        format!(" whose name contains {filters:?}")
    }
}
