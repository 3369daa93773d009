//! The debugger oracles' campaign: generated cases fitted to the machine
//! (`diopter_debuggers::fit`), prepared, run in batches by gimli, GDB and
//! LLDB against the reference, and counted into the matrix of DWARF
//! operations x consumers; each disagreement kept as a case file with its
//! replay command, and minimized with [`crate::minimize`] (the predicate
//! runs the one case as a batch of its own and asks for the same
//! consumer, class and first refused operation).

use crate::adapters::dwarf::DwarfVerdict;
use crate::minimize::{self, Options as MinOptions};
use diopter_debuggers::batch::BatchError;
use diopter_debuggers::prepare::Inapplicable;
use diopter_debuggers::{batch, fit, prepare, Class, Debugger, Prepared, Tools};
use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Why the campaign, or one batch of cases, stopped.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// A case given to [`classes_of`] cannot be asked of the debuggers.
    #[error(transparent)]
    Inapplicable(#[from] Inapplicable),
    #[error(transparent)]
    Batch(#[from] BatchError),
    /// A finding's case file.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The consumers of the matrix.
pub const CONSUMERS: [&str; 3] = ["gimli", "gdb", "lldb"];

#[derive(Clone, Debug)]
pub struct Options {
    /// Stop once this many cases were compared.
    pub cases: u64,
    pub seed: u64,
    pub batch: usize,
    pub dir: PathBuf,
    /// Minimize each new disagreement (one debugger run per step).
    pub minimize: bool,
    /// At most this many disagreements kept per (consumer, class, signature).
    pub keep_per_signature: usize,
}

/// One disagreement or refusal, as kept.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub consumer: String,
    pub class: String,
    /// What groups findings: the refusal's message, or the expression's
    /// DWARF operations for a difference.
    pub signature: String,
    pub detail: String,
    pub file: String,
    pub minimized: Option<String>,
    pub replay: String,
    pub count: u64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Counts {
    pub generated: u64,
    pub compared: u64,
    pub batches: u64,
    /// Why generated cases were not compared, by reason (first clause).
    pub not_applicable: BTreeMap<String, u64>,
    /// consumer -> class -> cases.
    pub classes: BTreeMap<String, BTreeMap<String, u64>>,
    /// DWARF operation -> consumer -> class -> cases whose expression has it.
    pub matrix: BTreeMap<String, BTreeMap<String, BTreeMap<String, u64>>>,
    /// Seconds: building programs, each debugger's runs (wall), the whole campaign.
    pub build_seconds: f64,
    pub debugger_seconds: BTreeMap<String, f64>,
    pub wall_seconds: f64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Campaign {
    pub counts: Counts,
    pub findings: Vec<Finding>,
}

/// The class of gimli's verdict, in the debuggers' classes.
pub fn gimli_class(v: &DwarfVerdict) -> &'static str {
    match v {
        DwarfVerdict::Agree => "agree",
        DwarfVerdict::BothError { .. } => "both-error",
        DwarfVerdict::NanPayload => "nan-payload",
        DwarfVerdict::Disagree(_) => "differs",
        // gimli's oracle declines cases its known bug would decide
        // (docs/known-issues.md); the rest cannot happen after `prepare`.
        DwarfVerdict::Skipped(_) => "declines",
        DwarfVerdict::Inconsistent | DwarfVerdict::NotLowerable(_) => "n/a",
    }
}

fn reason_key(r: &str) -> String {
    let k = r.split(':').next().unwrap_or(r);
    k.chars().take(90).collect()
}

/// A message with its numbers blanked (addresses, sizes), to group by.
fn normalized(m: &str) -> String {
    let mut out = String::new();
    let mut chars = m.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            while chars
                .peek()
                .is_some_and(|d| d.is_ascii_hexdigit() || *d == 'x')
            {
                chars.next();
            }
            out.push('N');
        } else {
            out.push(c);
        }
    }
    out
}

/// What groups findings: the debugger's message for an error or a
/// refusal, the kind of difference for bytes.
fn signature(class: &Class) -> String {
    let d = class.detail();
    match class {
        Class::Refuses(m) => normalized(m.split(" (the reference").next().unwrap_or(m)),
        Class::Failed(_) => "the debugger failed".into(),
        Class::Differs(_) if d.starts_with("error `") => {
            let m = d.trim_start_matches("error `");
            format!("error: {}", normalized(m.split('`').next().unwrap_or(m)))
        }
        Class::Differs(_) if d.contains("where the reference fails") => {
            "a value where the reference fails".into()
        }
        // The bytes shown, not the legend every such detail ends with
        // ("(?? = optimized out or unavailable)").
        Class::Differs(_)
            if d.split(" where the reference")
                .next()
                .unwrap_or(d)
                .contains("??") =>
        {
            "bytes optimized out or unavailable where the reference reads them".into()
        }
        _ => "other bytes than the reference".into(),
    }
}

/// Runs `cases` (already fitted) as a batch of their own: each consumer's class.
pub fn classes_of(
    cases: &[Case],
    tools: &Tools,
    dir: &Path,
) -> Result<Vec<BTreeMap<String, Class>>, CampaignError> {
    let prepared: Vec<Prepared> = cases
        .iter()
        .map(|c| prepare(c.clone()))
        .collect::<Result<_, _>>()?;
    let (results, _) = batch::run(&prepared, tools, &batch::Options::new(dir))?;
    Ok(results
        .iter()
        .zip(&prepared)
        .map(|(r, p)| {
            let mut m: BTreeMap<String, Class> = r
                .answers
                .iter()
                .map(|(d, (_, c))| (d.name().to_string(), c.clone()))
                .collect();
            let g = match &p.gimli {
                DwarfVerdict::Disagree(d) => Class::Differs(d.join("; ")),
                v => Class::BothError(gimli_class(v).into()),
            };
            m.insert("gimli".into(), g);
            m
        })
        .collect())
}

/// Minimizes a finding's case: the same consumer keeps the same class and signature.
fn minimize_finding(
    case: &Case,
    consumer: &str,
    class: &Class,
    sig: &str,
    tools: &Tools,
    dir: &Path,
) -> Case {
    let mut pred = |c: &Case| -> bool {
        let Ok(p) = prepare(c.clone()) else {
            return false;
        };
        let Ok(got) = classes_of(std::slice::from_ref(&p.case), tools, dir) else {
            return false;
        };
        got[0]
            .get(consumer)
            .is_some_and(|k| k.label() == class.label() && signature(k) == sig)
    };
    let opts = MinOptions {
        time_limit: Some(Duration::from_secs(120)),
    };
    minimize::minimize(case, &mut pred, &opts).case
}

fn write_case(
    dir: &Path,
    name: &str,
    case: &Case,
    comment: &[String],
) -> Result<PathBuf, CampaignError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| CampaignError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut text: String = comment.iter().map(|l| format!("# {l}\n")).collect();
    text.push_str(&diopter_diff::case_file_text(case, &["reference"], None));
    let path = dir.join(name);
    std::fs::write(&path, text).map_err(io(&path))?;
    Ok(path)
}

/// The one-line command that replays a case file through every consumer.
pub fn replay_command(path: &Path) -> String {
    format!("cargo run --release -- debuggers case {}", path.display())
}

/// Runs the campaign; `progress` is told the counts after each batch.
pub fn run(
    opts: &Options,
    tools: &Tools,
    progress: &mut dyn FnMut(&Counts),
) -> Result<Campaign, CampaignError> {
    let start = Instant::now();
    let cfg = GenConfig::default();
    let mut camp = Campaign::default();
    let mut kept: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    let mut i = 0u64;
    while camp.counts.compared < opts.cases {
        let mut batch_cases: Vec<Prepared> = Vec::with_capacity(opts.batch);
        let mut pages: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
        while batch_cases.len() < opts.batch {
            let case = Case::from_seed(opts.seed.wrapping_add(i), &cfg);
            i += 1;
            camp.counts.generated += 1;
            let fitted = fit::fit(case, batch_cases.len() as u64);
            match prepare(fitted) {
                // Two cases reading one page with other bytes (a pointer
                // that was not moved, reaching another window) cannot
                // share a program.
                Ok(p)
                    if p.pages
                        .iter()
                        .any(|(a, b)| pages.get(a).is_some_and(|o| o != b)) =>
                {
                    *camp
                        .counts
                        .not_applicable
                        .entry("shares a memory page with another case of its batch".into())
                        .or_default() += 1;
                }
                Ok(p) => {
                    pages.extend(p.pages.iter().map(|(a, b)| (*a, b.clone())));
                    batch_cases.push(p)
                }
                Err(r) => {
                    *camp
                        .counts
                        .not_applicable
                        .entry(reason_key(&r.to_string()))
                        .or_default() += 1
                }
            }
        }
        let bdir = opts.dir.join("batch");
        let (results, timing) = batch::run(&batch_cases, tools, &batch::Options::new(&bdir))?;
        camp.counts.batches += 1;
        camp.counts.compared += batch_cases.len() as u64;
        camp.counts.build_seconds += timing.build.as_secs_f64();
        for (d, t) in &timing.debugger {
            *camp
                .counts
                .debugger_seconds
                .entry(d.name().into())
                .or_default() += t.as_secs_f64();
        }
        for (r, p) in results.iter().zip(&batch_cases) {
            let mut per: Vec<(String, Class)> = vec![(
                "gimli".into(),
                match &p.gimli {
                    DwarfVerdict::Disagree(d) => Class::Differs(d.join("; ")),
                    v => Class::BothError(gimli_class(v).into()),
                },
            )];
            for (d, (_, c)) in &r.answers {
                per.push((d.name().to_string(), c.clone()));
            }
            for (consumer, class) in per {
                let label = if consumer == "gimli" {
                    gimli_class(&p.gimli).to_string()
                } else {
                    class.label().to_string()
                };
                *camp
                    .counts
                    .classes
                    .entry(consumer.clone())
                    .or_default()
                    .entry(label.clone())
                    .or_default() += 1;
                for op in &p.ops {
                    *camp
                        .counts
                        .matrix
                        .entry(op.clone())
                        .or_default()
                        .entry(consumer.clone())
                        .or_default()
                        .entry(label.clone())
                        .or_default() += 1;
                }
                if class.is_right() || label == "declines" {
                    continue;
                }
                let sig = signature(&class);
                let key = (consumer.clone(), label.clone(), sig.clone());
                let n = kept.entry(key.clone()).or_default();
                *n += 1;
                if let Some(f) = camp
                    .findings
                    .iter_mut()
                    .find(|f| (f.consumer.clone(), f.class.clone(), f.signature.clone()) == key)
                {
                    f.count += 1;
                }
                if *n > opts.keep_per_signature {
                    continue;
                }
                let name = format!(
                    "{consumer}-{label}-{:016x}.case",
                    hash(&(&key, camp.findings.len()))
                );
                let comment = vec![
                    format!("debuggers: {consumer} {label}: {}", class.detail()),
                    format!(
                        "replay: {}",
                        replay_command(&opts.dir.join("findings").join(&name))
                    ),
                ];
                let path = write_case(&opts.dir.join("findings"), &name, &p.case, &comment)?;
                let minimized = if opts.minimize && consumer != "gimli" {
                    let m = minimize_finding(
                        &p.case,
                        &consumer,
                        &class,
                        &sig,
                        tools,
                        &opts.dir.join("minimize"),
                    );
                    let mname = name.replace(".case", ".min.case");
                    Some(
                        write_case(&opts.dir.join("findings"), &mname, &m, &comment)?
                            .display()
                            .to_string(),
                    )
                } else {
                    None
                };
                camp.findings.push(Finding {
                    consumer,
                    class: label,
                    signature: sig,
                    detail: class.detail().to_string(),
                    replay: replay_command(&path),
                    file: path.display().to_string(),
                    minimized,
                    count: 1,
                });
            }
        }
        camp.counts.wall_seconds = start.elapsed().as_secs_f64();
        progress(&camp.counts);
    }
    camp.counts.wall_seconds = start.elapsed().as_secs_f64();
    Ok(camp)
}

fn hash<T: std::hash::Hash>(t: &T) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    t.hash(&mut h);
    std::hash::Hasher::finish(&h)
}

/// Which debuggers are there (for the campaign row's opt-in line).
pub fn available(tools: &Tools) -> Vec<Debugger> {
    Debugger::ALL
        .into_iter()
        .filter(|d| match d {
            Debugger::Gdb => tools.gdb.is_some(),
            Debugger::Lldb => tools.lldb.is_some(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_tell_other_bytes_from_unavailable_ones() {
        let other = Class::Differs(
            "shows 02 where the reference reads ff (?? = optimized out or unavailable)".into(),
        );
        assert_eq!(signature(&other), "other bytes than the reference");
        let unavailable = Class::Differs(
            "shows ?? 02 where the reference reads ff ff (?? = optimized out or unavailable)"
                .into(),
        );
        assert_eq!(
            signature(&unavailable),
            "bytes optimized out or unavailable where the reference reads them"
        );
        let fails = Class::Differs("shows 00 where the reference fails: read fails".into());
        assert_eq!(signature(&fails), "a value where the reference fails");
    }
}
