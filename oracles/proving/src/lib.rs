//! The rule library's proofs, from rule files to the report: what
//! `diopter prove` and `diopter report` run. [`prove`] assembles the
//! library and its instances (`library`), takes this run's shard and
//! decides every instance on worker threads, through the proof cache
//! (`schedule`, `cache`), and builds one JSON document of the verdicts
//! (`model`, `status`); [`merge`] makes that document from the shards'.
//! Everything printed or written is rendered from the document (`render`).
//!
//! The library prints nothing: progress goes to the caller's callback
//! (`progress::Event`), errors are [`ProveError`]s.

pub mod cache;
pub mod error;
pub mod library;
pub mod merge;
pub mod model;
pub mod progress;
pub mod render;
pub mod schedule;
pub mod status;

pub use error::ProveError;
pub use library::AllWidths;
pub use progress::Event;

use diopter_smt::prove::ProveConfig;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A query's timeout unless the caller says otherwise, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u32 = 10_000;

/// Where settled verdicts are kept unless the caller says otherwise.
pub const DEFAULT_CACHE_DIR: &str = "target/proof-cache";

/// What to prove, and how.
pub struct Request {
    /// Rule files or directories (read recursively for `*.rules`).
    pub paths: Vec<PathBuf>,
    /// Also the generated constant-folding rules.
    pub generated: bool,
    /// Only rules whose name contains one of these (all when empty).
    pub rule_filters: Vec<String>,
    /// Integer widths every rule is tried at, besides its own.
    pub widths: Vec<u64>,
    pub all_widths: Option<AllWidths>,
    pub timeout_ms: u32,
    /// Count an unknown verdict as a failure.
    pub strict: bool,
    /// Worker threads (default: the number of CPUs).
    pub jobs: Option<usize>,
    /// The proof cache; `None` decides everything and keeps nothing.
    pub cache: Option<CacheAt>,
    /// Share `i` of `n` of the rules (1-based).
    pub shard: Option<(usize, usize)>,
    /// Instances not begun this long after the start are not tried.
    pub time_limit: Option<Duration>,
}

/// Where the proof cache is, and the hash of the sources that decide a
/// verdict (part of every key, see `cache`). The hash is the caller's: the
/// `diopter` crate's build script computes it over the prover's and the
/// semantics' sources.
pub struct CacheAt {
    pub dir: PathBuf,
    pub source_hash: String,
}

impl Request {
    /// The whole library under `rules_dir` with the generated rules, at
    /// the default widths and timeout: what `diopter prove` with no
    /// argument proves.
    pub fn whole_library(rules_dir: PathBuf, cache: Option<CacheAt>) -> Request {
        Request {
            paths: vec![rules_dir],
            generated: true,
            rule_filters: Vec::new(),
            widths: diopter_rules::DEFAULT_WIDTHS.to_vec(),
            all_widths: None,
            timeout_ms: DEFAULT_TIMEOUT_MS,
            strict: false,
            jobs: None,
            cache,
            shard: None,
            time_limit: None,
        }
    }
}

/// A run's verdicts: the document every output is rendered from.
pub struct Proofs {
    pub doc: Value,
    /// The gate fails: a rule is not as claimed (or, strict, unknown).
    pub failed: bool,
}

impl Proofs {
    pub fn text(&self, verbose: bool) -> String {
        render::text(&self.doc, verbose)
    }

    pub fn json(&self) -> String {
        render::json(&self.doc)
    }

    /// Writes `proofs.json` and `proofs.md` into `dir`.
    pub fn write_reports(&self, dir: &Path) -> Result<(), ProveError> {
        render::write_reports(dir, &self.doc).map_err(|source| ProveError::Reports {
            dir: dir.to_path_buf(),
            source,
        })
    }
}

/// Proves what `req` asks, reporting progress to `on_event`.
pub fn prove(req: &Request, on_event: &mut dyn FnMut(&Event)) -> Result<Proofs, ProveError> {
    let rules = library::load(&req.paths, req.generated, &req.rule_filters)?;
    let base = library::base_widths(&req.widths, req.all_widths);
    let start = Instant::now();
    let instances = library::instances(&rules, &base, req.all_widths);
    let sizes: Vec<usize> = instances.iter().map(Vec::len).collect();
    let (si, sn) = req.shard.unwrap_or((1, 1));
    let mine = schedule::shard_rules(&sizes, si, sn);
    let work: Vec<(usize, _)> = instances
        .into_iter()
        .enumerate()
        .filter(|(k, _)| mine[*k])
        .flat_map(|(k, is)| is.into_iter().map(move |i| (k, i)))
        .collect();
    let jobs = req
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let cfg = ProveConfig {
        timeout_ms: req.timeout_ms,
        split_first: false,
        deadline: req.time_limit.map(|t| start + t),
        values_first: false,
    };
    let proof_cache = req
        .cache
        .as_ref()
        .map(|c| cache::ProofCache::new(&c.dir, &c.source_hash));
    on_event(&Event::Starting {
        instances: work.len(),
        rules: mine.iter().filter(|m| **m).count(),
        shard: req.shard.map(|(i, n)| (i, n, rules.len())),
        widths: &base,
        timeout_ms: req.timeout_ms,
        jobs,
        cache_dir: proof_cache.as_ref().map(cache::ProofCache::dir),
    });
    let workers = schedule::Workers {
        cfg: &cfg,
        cache: proof_cache.as_ref(),
        jobs,
        start,
    };
    let records = schedule::decide_all(&workers, &rules, &work, on_event);
    let run = model::Run {
        widths: &base,
        timeout_ms: req.timeout_ms,
        strict: req.strict,
        total: start.elapsed(),
        jobs,
        library_rules: rules.len(),
        fingerprint: library::fingerprint(&rules, &sizes),
        shard: req.shard,
    };
    let mut doc = model::document(&run, &rules, &mine, &work, &records);
    let failed = model::summarize(&mut doc, req.strict);
    Ok(Proofs { doc, failed })
}

/// The shards' JSON documents at `shards` as one unsharded run's verdicts.
pub fn merge(shards: &[PathBuf], strict: bool) -> Result<Proofs, ProveError> {
    let mut doc = merge::read_and_merge(shards)?;
    let failed = model::summarize(&mut doc, strict);
    Ok(Proofs { doc, failed })
}
