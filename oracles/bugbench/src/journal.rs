//! The benchmark's journal: every run appended as one JSON line the moment
//! it ends. A whole benchmark takes an hour or more and keeps its results
//! in memory until it writes the report; a full disk or a killed session
//! used to lose all of them. With the journal, `diopter bugbench --resume
//! JOURNAL` goes on where the dead run stopped: the runs and controls it
//! finished are taken from the file, the rest are made.

use crate::error::Error;
use crate::RunResult;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One line of the journal.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Entry {
    Control(RunResult),
    Run(RunResult),
}

/// What an earlier journal holds.
#[derive(Debug, Default)]
pub struct Done {
    pub controls: Vec<RunResult>,
    pub runs: Vec<RunResult>,
}

impl Done {
    /// Finished control of `search` with `seed`, if any. A run that failed
    /// (its `error` set) is not finished: it is made again.
    pub fn control(&self, search: &str, seed: u64) -> Option<&RunResult> {
        self.controls
            .iter()
            .rev()
            .find(|r| r.search == search && r.seed == seed && r.error.is_none())
    }

    /// Finished run of `fault` in `search` with `seed`, if any.
    pub fn run(&self, fault: &str, search: &str, seed: u64) -> Option<&RunResult> {
        self.runs
            .iter()
            .rev()
            .find(|r| r.fault == fault && r.search == search && r.seed == seed && r.error.is_none())
    }
}

/// A journal being written.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Mutex<std::fs::File>,
}

impl Journal {
    /// Creates (or appends to) the journal at `path`.
    pub fn open(path: &Path) -> std::io::Result<Journal> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(Journal {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends a finished control run.
    pub fn control(&self, r: &RunResult) -> std::io::Result<()> {
        self.append(&Entry::Control(r.clone()))
    }

    /// Appends a finished run.
    pub fn run(&self, r: &RunResult) -> std::io::Result<()> {
        self.append(&Entry::Run(r.clone()))
    }

    fn append(&self, e: &Entry) -> std::io::Result<()> {
        let mut line = serde_json::to_string(e).map_err(std::io::Error::other)?;
        line.push('\n');
        let mut f = self
            .file
            .lock()
            .map_err(|_| std::io::Error::other("journal lock poisoned"))?;
        // One write per line, flushed: a run that dies leaves at most its
        // last line cut short.
        f.write_all(line.as_bytes())?;
        f.flush()
    }
}

/// Reads a journal. A last line cut short (the run died while writing it)
/// is ignored; any other line that does not parse is an error naming it.
pub fn read(path: &Path) -> Result<Done, Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let lines: Vec<&str> = text.lines().collect();
    let mut done = Done::default();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Entry>(line) {
            Ok(Entry::Control(r)) => done.controls.push(r),
            Ok(Entry::Run(r)) => done.runs.push(r),
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => {}
            Err(source) => {
                return Err(Error::JournalLine {
                    path: path.to_path_buf(),
                    line: i + 1,
                    source,
                })
            }
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(fault: &str, seed: u64, error: Option<&str>) -> RunResult {
        RunResult {
            fault: fault.into(),
            search: "campaign".into(),
            seed,
            found: error.is_none(),
            seconds: Some(1.5),
            cases: Some(7),
            caught_by: Some("fast".into()),
            what: None,
            minimized: None,
            reached: Some(true),
            elapsed: 2.0,
            limit: 60.0,
            error: error.map(String::from),
            skipped: None,
            sites: Vec::new(),
        }
    }

    #[test]
    fn a_journal_cut_short_gives_back_what_it_finished() {
        let dir = std::env::temp_dir().join(format!("bugbench-journal-{}", std::process::id()));
        let path = dir.join("journal.jsonl");
        let _ = std::fs::remove_file(&path);
        let j = Journal::open(&path).unwrap();
        j.control(&result("none", 1, None)).unwrap();
        j.run(&result("a", 1, None)).unwrap();
        j.run(&result("b", 1, Some("disk full"))).unwrap();
        drop(j);
        // A run that died mid-line.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(b"{\"run\":{\"fault\":\"c\",\"sea").unwrap();
        drop(f);
        let done = read(&path).unwrap();
        assert_eq!(done.controls.len(), 1);
        assert_eq!(done.runs.len(), 2);
        assert!(done.control("campaign", 1).is_some());
        assert_eq!(done.run("a", "campaign", 1).and_then(|r| r.cases), Some(7));
        // A failed run is made again; a run never recorded too.
        assert!(done.run("b", "campaign", 1).is_none());
        assert!(done.run("c", "campaign", 1).is_none());
        // A bad line that is not the last is an error with its line.
        std::fs::write(&path, "{\"run\":1}\n{\"control\":{}}\n").unwrap();
        let e = read(&path).unwrap_err();
        assert!(matches!(e, Error::JournalLine { line: 1, .. }), "{e:?}");
        let e = e.to_string();
        assert!(e.contains("journal.jsonl:1:"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
