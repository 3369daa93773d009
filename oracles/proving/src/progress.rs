//! What a run reports while it works, for the caller to show: the library
//! never prints. Each event's `Display` is the line the command prints.

use std::fmt;
use std::path::Path;

pub enum Event<'a> {
    /// The work is laid out and about to start.
    Starting {
        instances: usize,
        rules: usize,
        /// This run's share and the whole library's rule count.
        shard: Option<(usize, usize, usize)>,
        widths: &'a [u64],
        timeout_ms: u32,
        jobs: usize,
        cache_dir: Option<&'a Path>,
    },
    /// Every 5 s of a long run.
    Progress {
        done: usize,
        to_decide: usize,
        from_cache: usize,
        twins: usize,
        seconds: f64,
    },
    /// Verdicts that were decided but could not be kept: the next run
    /// decides them again, so it is worth a warning, not a failure.
    CacheWriteFailures { count: usize, dir: &'a Path },
}

impl fmt::Display for Event<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Starting {
                instances,
                rules,
                shard,
                widths,
                timeout_ms,
                jobs,
                cache_dir,
            } => write!(
                f,
                "proving {instances} instances of {rules} rules{} (widths {widths:?}, timeout {timeout_ms} ms, {jobs} jobs{})",
                shard
                    .map(|(i, n, all)| format!(", shard {i}/{n} of {all} rules"))
                    .unwrap_or_default(),
                match cache_dir {
                    Some(d) => format!(", cache {}", d.display()),
                    None => ", no cache".into(),
                }
            ),
            Event::Progress {
                done,
                to_decide,
                from_cache,
                twins,
                seconds,
            } => write!(
                f,
                "  {done}/{to_decide} instances ({from_cache} from the cache; {twins} more are dialect twins), {seconds:.1} s"
            ),
            Event::CacheWriteFailures { count, dir } => write!(
                f,
                "warning: {count} verdicts could not be written to the cache in {}",
                dir.display()
            ),
        }
    }
}
