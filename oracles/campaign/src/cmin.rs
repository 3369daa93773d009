//! Corpus minimization at the end of a campaign: each target's working
//! corpus merged into a minimal one with the same coverage by its fuzzer
//! binary (libFuzzer's `-merge=1`, what `cargo fuzz cmin` does), so that a
//! night's corpus does not slow the next night's start with inputs that
//! add nothing. A merge that fails leaves the corpus as it was.

use crate::supervise::{stop_group, Places, FUZZER_RSS_LIMIT_MB, INPUT_TIMEOUT_S};
use serde::{Deserialize, Serialize};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long one target's corpus merge may take before it is stopped (the
/// corpus is then left as it was).
const MERGE_TIME_LIMIT: Duration = Duration::from_secs(20 * 60);

/// The error of a merge that the stop flag interrupted: the merges after
/// it are skipped.
const INTERRUPTED: &str = "interrupted by Ctrl-C";

/// The regular files of a corpus directory: (files, bytes). A directory
/// that cannot be read counts as empty.
pub fn corpus_size(dir: &Path) -> (u64, u64) {
    let mut n = (0, 0);
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if let Ok(m) = e.metadata() {
            if m.is_file() {
                n.0 += 1;
                n.1 += m.len();
            }
        }
    }
    n
}

/// What minimizing one target's corpus did, for the summary.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(default)]
pub struct CorpusMerge {
    pub target: String,
    pub files_before: u64,
    pub bytes_before: u64,
    /// `None` when the corpus was left as it was (see `error`).
    pub files_after: Option<u64>,
    pub bytes_after: Option<u64>,
    pub seconds: f64,
    /// Why the corpus was left as it was, or what went wrong replacing it.
    pub error: Option<String>,
}

/// The file names in `dir` (regular files only).
fn file_names(dir: &Path) -> std::io::Result<Vec<std::ffi::OsString>> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        if e.metadata()?.is_file() {
            v.push(e.file_name());
        }
    }
    Ok(v)
}

/// Whether a corpus file is one of the seeds kept in git (`fuzz/seed.sh`
/// names them so): never removed by a merge.
fn is_seed(name: &std::ffi::OsStr) -> bool {
    name.to_string_lossy().starts_with("seed-")
}

/// Minimizes `corpus` with the fuzzer binary's `-merge=1 NEW OLD` (what
/// `cargo fuzz cmin` does): NEW starts with the corpus's seed files, so
/// that they stay under their names, and gets the other inputs that add
/// coverage. The merge works in `scratch` (cleared first, removed after;
/// its log goes beside it) and the corpus is touched only once it has
/// succeeded: the new files go in, then the files left out are removed, so
/// that a kill at any point leaves a superset of the minimized corpus. A
/// merge past `limit`, or interrupted by `stop` turning on, is stopped (its
/// process group) and the corpus is left as it was.
pub fn merge_corpus(
    bin: &Path,
    target: &str,
    corpus: &Path,
    scratch: &Path,
    envs: &[(&str, std::ffi::OsString)],
    limit: Duration,
    stop: &AtomicBool,
) -> CorpusMerge {
    let start = Instant::now();
    let (files_before, bytes_before) = corpus_size(corpus);
    let mut m = CorpusMerge {
        target: target.to_string(),
        files_before,
        bytes_before,
        ..CorpusMerge::default()
    };
    let result = merge_into(bin, corpus, scratch, envs, limit, stop);
    let _ = std::fs::remove_dir_all(scratch);
    match result {
        Ok(()) => {
            let (f, b) = corpus_size(corpus);
            m.files_after = Some(f);
            m.bytes_after = Some(b);
        }
        Err(e) => m.error = Some(e),
    }
    m.seconds = start.elapsed().as_secs_f64();
    m
}

fn merge_into(
    bin: &Path,
    corpus: &Path,
    scratch: &Path,
    envs: &[(&str, std::ffi::OsString)],
    limit: Duration,
    stop: &AtomicBool,
) -> Result<(), String> {
    let io = |what: &str, p: &Path, e: std::io::Error| format!("{what} {}: {e}", p.display());
    if !corpus.is_dir() {
        return Err(format!("no corpus directory {}", corpus.display()));
    }
    if !bin.is_file() {
        return Err(format!("no fuzzer binary {}", bin.display()));
    }
    let new = scratch.join("merged");
    let artifacts = scratch.join("artifacts");
    let _ = std::fs::remove_dir_all(scratch);
    for d in [&new, &artifacts] {
        std::fs::create_dir_all(d).map_err(|e| io("creating", d, e))?;
    }
    let old_names = file_names(corpus).map_err(|e| io("reading", corpus, e))?;
    for n in old_names.iter().filter(|n| is_seed(n)) {
        std::fs::copy(corpus.join(n), new.join(n))
            .map_err(|e| io("copying", &corpus.join(n), e))?;
    }
    let log_path = scratch.with_extension("log");
    let log = std::fs::File::create(&log_path).map_err(|e| io("creating", &log_path, e))?;
    let log2 = log.try_clone().map_err(|e| io("opening", &log_path, e))?;
    let mut cmd = Command::new(bin);
    cmd.arg("-merge=1")
        .arg(format!("-timeout={INPUT_TIMEOUT_S}"))
        .arg(format!("-rss_limit_mb={FUZZER_RSS_LIMIT_MB}"))
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .arg(&new)
        .arg(corpus)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log2)
        // Its own group, as the fuzzers: the merge runs its inner passes
        // as children, and stopping it must stop them too.
        .process_group(0);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let was_stopped = stop.load(Ordering::Relaxed);
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("starting {}: {e}", bin.display()))?;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) => {}
            Err(e) => {
                stop_group(&mut child);
                return Err(format!("waiting for the merge: {e}"));
            }
        }
        if start.elapsed() > limit {
            stop_group(&mut child);
            return Err(format!(
                "the merge did not finish within {} s (log: {})",
                limit.as_secs(),
                log_path.display()
            ));
        }
        if !was_stopped && stop.load(Ordering::Relaxed) {
            stop_group(&mut child);
            return Err(INTERRUPTED.into());
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    if !status.success() {
        return Err(format!(
            "the merge failed ({status}; log: {})",
            log_path.display()
        ));
    }
    let kept = file_names(&new).map_err(|e| io("reading", &new, e))?;
    if kept.is_empty() && !old_names.is_empty() {
        return Err(format!(
            "the merge kept no file of {} (log: {})",
            old_names.len(),
            log_path.display()
        ));
    }
    // In first, then out: never fewer inputs than the minimized corpus.
    for n in &kept {
        let to = corpus.join(n);
        if !to.exists() {
            let from = new.join(n);
            if std::fs::rename(&from, &to).is_err() {
                std::fs::copy(&from, &to).map_err(|e| io("copying", &from, e))?;
            }
        }
    }
    let kept: std::collections::BTreeSet<_> = kept.into_iter().collect();
    for n in old_names
        .iter()
        .filter(|n| !is_seed(n) && !kept.contains(*n))
    {
        let p = corpus.join(n);
        std::fs::remove_file(&p).map_err(|e| io("removing", &p, e))?;
    }
    Ok(())
}

/// Minimizes every target's working corpus (see `merge_corpus`), telling
/// `each` of each as it is done: a night's corpora take minutes.
pub fn merge_corpora(
    places: &Places,
    targets: &[String],
    plant: &str,
    stop: &AtomicBool,
    each: &mut dyn FnMut(&CorpusMerge),
) -> Vec<CorpusMerge> {
    let mut out = Vec::new();
    let mut interrupted = false;
    for t in targets {
        let corpus = places.corpus(t);
        let m = if interrupted {
            let (files_before, bytes_before) = corpus_size(&corpus);
            CorpusMerge {
                target: t.clone(),
                files_before,
                bytes_before,
                error: Some(format!("skipped: {INTERRUPTED}")),
                ..CorpusMerge::default()
            }
        } else {
            merge_corpus(
                &places.bin(t),
                t,
                &corpus,
                &places.abs_dir.join("artifacts").join(format!("{t}-cmin")),
                &places.envs(t, plant),
                MERGE_TIME_LIMIT,
                stop,
            )
        };
        interrupted |= m.error.as_deref() == Some(INTERRUPTED);
        each(&m);
        out.push(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::sync::Arc;

    /// A stand-in for a fuzzer binary: a shell script (`body`) that gets
    /// the merge's arguments; `$new` and `$old` are its two directories.
    fn fake_fuzzer(dir: &Path, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let p = dir.join(name);
        let script = format!(
            "#!/bin/sh\nnew=; old=\nfor a in \"$@\"; do case \"$a\" in -*) ;; *) if [ -z \"$new\" ]; then new=$a; else old=$a; fi;; esac; done\n\
             echo \"$@ plant=$DIOPTER_PLANT\" > \"$ARGS_FILE\"\n{body}\n"
        );
        std::fs::write(&p, script).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    fn fresh_corpus(dir: &Path) -> PathBuf {
        let c = dir.join("corpus");
        let _ = std::fs::remove_dir_all(&c);
        std::fs::create_dir_all(&c).unwrap();
        for (n, len) in [
            ("seed-1", 3),
            ("keep-a", 10),
            ("drop-b", 20),
            ("drop-c", 30),
        ] {
            std::fs::write(c.join(n), vec![b'x'; len]).unwrap();
        }
        c
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = file_names(dir)
            .unwrap()
            .into_iter()
            .map(|n| n.to_string_lossy().to_string())
            .collect();
        v.sort();
        v
    }

    /// The merge with stand-ins for the fuzzer (no cargo-fuzz needed): what
    /// it selects replaces the corpus, the seeds stay, and a merge that
    /// fails, hangs, is interrupted or keeps nothing leaves the corpus as it
    /// was, with the reason. One test, so that the scripts run one by one.
    #[test]
    fn a_corpus_merge_keeps_the_seeds_and_what_the_fuzzer_selects() {
        let dir = std::env::temp_dir().join(format!("diopter-cmin-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let args_file = dir.join("args");
        let envs = [
            ("ARGS_FILE", args_file.clone().into_os_string()),
            ("DIOPTER_PLANT", "add-off-by-one".into()),
        ];
        let keep = fake_fuzzer(
            &dir,
            "keep",
            "for f in \"$old\"/keep-*; do cp \"$f\" \"$new\"/; done",
        );
        let fails = fake_fuzzer(&dir, "fails", "exit 3");
        let hangs = fake_fuzzer(&dir, "hangs", "sleep 60");
        let empties = fake_fuzzer(&dir, "empties", "rm -f \"$new\"/*");
        let scratch = dir.join("artifacts/t-cmin");
        let never = AtomicBool::new(false);
        let limit = Duration::from_secs(30);

        let corpus = fresh_corpus(&dir);
        assert_eq!(corpus_size(&corpus), (4, 63));
        let m = merge_corpus(&keep, "t", &corpus, &scratch, &envs, limit, &never);
        assert_eq!(m.error, None);
        assert_eq!((m.files_before, m.bytes_before), (4, 63));
        assert_eq!((m.files_after, m.bytes_after), (Some(2), Some(13)));
        assert_eq!(names(&corpus), ["keep-a", "seed-1"]);
        assert!(!scratch.exists(), "the scratch directory is removed");
        let args = std::fs::read_to_string(&args_file).unwrap();
        assert!(args.starts_with("-merge=1 -timeout=30 "), "{args}");
        assert!(
            args.trim_end().ends_with(&format!(
                "{} {} plant=add-off-by-one",
                scratch.join("merged").display(),
                corpus.display()
            )),
            "{args}"
        );
        assert!(scratch.with_extension("log").is_file(), "the merge's log");

        for (bin, want) in [
            (&fails, "the merge failed (exit status: 3"),
            (&empties, "the merge kept no file of 4"),
            (&dir.join("missing"), "no fuzzer binary"),
        ] {
            let corpus = fresh_corpus(&dir);
            let m = merge_corpus(bin, "t", &corpus, &scratch, &envs, limit, &never);
            let e = m.error.expect("an error");
            assert!(e.starts_with(want), "{e}");
            assert_eq!((m.files_after, m.bytes_after), (None, None));
            assert_eq!(corpus_size(&corpus), (4, 63), "left as it was");
        }

        let corpus = fresh_corpus(&dir);
        let t = Instant::now();
        let m = merge_corpus(
            &hangs,
            "t",
            &corpus,
            &scratch,
            &envs,
            Duration::from_secs(1),
            &never,
        );
        assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
        let e = m.error.expect("an error");
        assert!(e.starts_with("the merge did not finish within 1 s"), "{e}");
        assert_eq!(corpus_size(&corpus), (4, 63));

        let stop = Arc::new(AtomicBool::new(false));
        let s = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            s.store(true, Ordering::SeqCst);
        });
        let m = merge_corpus(&hangs, "t", &corpus, &scratch, &envs, limit, &stop);
        assert_eq!(m.error.as_deref(), Some("interrupted by Ctrl-C"));
        assert_eq!(corpus_size(&corpus), (4, 63));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
