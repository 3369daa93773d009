//! A finished campaign judged again by this diopter. A run's findings are
//! claims of the validator that ran it; when the validator learns (a fact
//! it did not model, a refinement it did not see), some of them stop being
//! refutations. Rerunning an hour's campaign to learn which would also
//! change its inputs' timing and so its findings; instead each finding's
//! own input is run through its pass and validated again. A finding this
//! diopter no longer refutes is marked (`Finding::no_longer_refuted`: a
//! diopter false positive fixed since the run); a cause whose first
//! finding is gone passes to its first finding still refuted, which is then
//! reduced; a reduction that no longer reproduces its cause (`llvm-reduce`
//! guided by the older test may have kept only what that test wrongly
//! refuted) is dropped, to be made again.

use super::campaign::{cause_id, passless, Finding};
use super::opt_loop::Opt;
use super::reduce::{findings_of, matching, Reduction};
use diopter_smt::prove::ProveConfig;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// What a recheck changed, by finding id.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Rechecked {
    pub findings: usize,
    /// Findings this diopter no longer refutes.
    pub gone: Vec<String>,
    /// `(old, new)`: a cause whose first finding is gone, now led by a
    /// finding still refuted.
    pub moved: Vec<(String, String)>,
    /// Reductions that no longer reproduce their cause (to be made again).
    pub dropped: Vec<String>,
    /// Findings that could not be checked (`opt` failed, the input is
    /// gone), with why: left as they were.
    pub errors: Vec<(String, String)>,
}

/// Whether `pass` on `text` still gives `f`'s cause; `Err` when that
/// cannot be told.
fn still(opt: &Opt, f: &Finding, text: &str, cfg: &ProveConfig) -> Result<bool, String> {
    matching(opt, text, &f.pass, &cause_id(&f.cause), cfg)
        .map(|v| !v.is_empty())
        .map_err(|e| e.to_string())
}

/// What a pass still refutes on a module: the causes, and the records
/// (function, variable, line of the before-record) refuted under any
/// cause. Judged once per module and pass: a module that gave several
/// causes in one pass was kept once per cause, and each copy would
/// otherwise go through `opt` and validation again.
type Judged = Result<(BTreeSet<String>, BTreeSet<(String, String, usize)>), String>;

fn causes_of(opt: &Opt, pass: &str, text: &str, cfg: &ProveConfig) -> Judged {
    findings_of(opt, text, pass, cfg)
        .map(|v| {
            let records = v
                .iter()
                .map(|(_, r)| (r.function.clone(), r.variable.clone(), r.before.line))
                .collect();
            (v.into_iter().map(|(id, _)| id).collect(), records)
        })
        .map_err(|e| e.to_string())
}

/// Whether a finding is still a refutation: its cause is still given, or
/// its own record is still refuted under another cause. A cause key holds
/// the reading a refutation needs, and a reading that Z3 decides near its
/// time limit can come out either way on a loaded machine; the record
/// itself does not, so only a record no longer refuted at all marks its
/// finding.
fn still_refuted(
    f: &Finding,
    judged: &(BTreeSet<String>, BTreeSet<(String, String, usize)>),
) -> bool {
    judged.0.contains(&cause_id(&f.cause))
        || judged.1.contains(&(
            f.record.function.clone(),
            f.record.variable.clone(),
            f.record.before.line,
        ))
}

/// Judges every finding again (`jobs` at a time, `tick` after each one) and
/// updates `findings` (their marks and which one leads each cause) and
/// `prior` (the reductions kept) to match.
pub fn recheck(
    findings: &mut [Finding],
    prior: &mut [Option<Reduction>],
    opt: &Opt,
    cfg: &ProveConfig,
    jobs: usize,
    tick: &(dyn Fn() + Sync),
) -> Rechecked {
    let mut out = Rechecked {
        findings: findings.len(),
        ..Rechecked::default()
    };
    // Each finding's input, judged once per distinct module and pass, then
    // each kept reduction of a cause's first finding: is the cause still
    // there?
    let texts: Vec<Result<String, String>> = findings
        .iter()
        .map(|f| std::fs::read_to_string(&f.input).map_err(|e| format!("{}: {e}", f.input)))
        .collect();
    let mut jobs_of: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for (i, (f, t)) in findings.iter().zip(&texts).enumerate() {
        if let Ok(t) = t {
            jobs_of
                .entry((f.pass.as_str(), t.as_str()))
                .or_default()
                .push(i);
        }
    }
    let work: Vec<(&(&str, &str), &Vec<usize>)> = jobs_of.iter().collect();
    let judged: Vec<Mutex<Option<Judged>>> = work.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(((pass, text), members)) = work.get(k) else {
                    break;
                };
                let r = causes_of(opt, pass, text, cfg);
                *judged[k].lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
                for _ in members.iter() {
                    tick();
                }
            });
        }
    });
    let mut inputs: Vec<Result<bool, String>> = texts
        .iter()
        .map(|t| match t {
            Ok(_) => Err("not checked".to_string()),
            Err(e) => Err(e.clone()),
        })
        .collect();
    for ((_, members), j) in work.iter().zip(judged) {
        let j = j
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .unwrap_or_else(|| Err("not checked".into()));
        for &i in members.iter() {
            inputs[i] = j
                .as_ref()
                .map(|judged| still_refuted(&findings[i], judged))
                .map_err(Clone::clone);
        }
    }
    for (f, r) in findings.iter_mut().zip(&inputs) {
        match r {
            Ok(live) => {
                f.no_longer_refuted = !live;
                if !live {
                    out.gone.push(f.id.clone());
                }
            }
            Err(e) => out.errors.push((f.id.clone(), e.clone())),
        }
    }
    // The causes: members in order, by the cause without its pass.
    let mut causes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        causes
            .entry(passless(&f.cause).to_string())
            .or_default()
            .push(i);
    }
    for members in causes.values() {
        let Some(&lead) = members.iter().find(|&&i| findings[i].same_as.is_none()) else {
            continue;
        };
        if findings[lead].no_longer_refuted {
            if let Some(&next) = members.iter().find(|&&i| !findings[i].no_longer_refuted) {
                let id = findings[next].id.clone();
                out.moved.push((findings[lead].id.clone(), id.clone()));
                for &i in members {
                    findings[i].same_as = (i != next).then(|| id.clone());
                }
                prior[lead] = None;
                prior[next] = None;
            }
            continue;
        }
        if let Some(Some(Ok((_, text)))) = prior.get(lead) {
            if still(opt, &findings[lead], text, cfg) == Ok(false) {
                out.dropped.push(findings[lead].id.clone());
                prior[lead] = None;
            }
        }
    }
    out
}
