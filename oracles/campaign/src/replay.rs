//! An artifact replayed in the driver: through the oracle pairs of the
//! differential targets (then minimized, so that it is named by its
//! [`Signature`](minimize::Signature)), or through the target's body for
//! the others (named by the failure's first message line). What libFuzzer
//! saved for a timeout, an out-of-memory input or a leak is not replayed:
//! it would hang or exhaust the driver.

use diopter_diff::{Oracle, Reference};
use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_harness::adapters::Fast;
use diopter_harness::campaign::{self as camp, Recorded};
use diopter_harness::minimize;
use diopter_harness::minimize::plant::{Plant, Planted};
use diopter_harness::targets;
use diopter_rules::simplify::Simplifier;
use std::path::Path;
use std::time::Duration;

/// Cap on the minimizer's time per artifact.
const MINIMIZE_TIME: Duration = Duration::from_secs(30);

/// A fuzz target's body run on one input: `Err` with what failed.
pub type Body = fn(&[u8]) -> Result<(), String>;

/// What the replay needs besides the artifact.
#[derive(Clone, Copy)]
pub struct Bodies<'a> {
    /// The checkout, whose corpus/rules simplify_diff's body loads.
    pub root: &'a Path,
    /// Bodies of targets above this crate, by name (the CLI's `cli`
    /// target, whose body is the command line itself).
    pub extra: &'a [(&'static str, Body)],
}

/// What libFuzzer saved an artifact for, by its file name's prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArtifactKind {
    /// `crash-`: the target failed (a panic or abort); replayed here.
    Crash,
    /// `timeout-`, `oom-`, `leak-`, `slow-unit-`: not replayed here (the
    /// replay would hang or exhaust the driver); a finding by its kind.
    Resource(&'static str),
}

/// The kind of an artifact file name.
pub fn artifact_kind(name: &str) -> ArtifactKind {
    for kind in ["timeout", "oom", "leak", "slow-unit"] {
        if name.starts_with(&format!("{kind}-")) {
            return ArtifactKind::Resource(kind);
        }
    }
    ArtifactKind::Crash
}

/// A replayed artifact.
pub struct Replayed {
    /// The raw failure, before minimizing: repeats are skipped by it.
    pub raw: String,
    pub signature: String,
    pub finding: Option<camp::Finding>,
}

impl Replayed {
    /// A failure known by its message alone (no case to minimize), which
    /// is then both its raw failure and its signature.
    pub fn by_message(s: String) -> Replayed {
        Replayed {
            raw: s.clone(),
            signature: s,
            finding: None,
        }
    }
}

/// The oracles a differential target compares with the reference, one
/// pair at a time, so that its failures are minimized and deduplicated by
/// [`Signature`](minimize::Signature) (oracle, first failing operation, classes of difference):
/// eval_diff the fast evaluator, eval_diff_planted the same with `plant`,
/// dwarf_diff the gimli-based DWARF oracle and the extension evaluator (its
/// body compares both on the same case). `None` for the other targets.
pub fn diff_oracles(target: &str, plant: Plant) -> Option<Vec<Box<dyn Oracle>>> {
    match target {
        "eval_diff" => Some(vec![Box::new(Fast::default())]),
        "eval_diff_planted" => Some(vec![Box::new(Planted::new(
            Box::new(Fast::default()),
            plant,
        ))]),
        "dwarf_diff" => Some(vec![
            Box::new(diopter_harness::adapters::Dwarf),
            Box::new(diopter_harness::adapters::DwarfExt),
        ]),
        _ => None,
    }
}

/// The first of the target's oracle pairs that fails on `case`.
fn failing_pair(
    target: &str,
    case: &Case,
    plant: Plant,
) -> Option<(Box<dyn Oracle>, minimize::Failure)> {
    diff_oracles(target, plant)?
        .into_iter()
        .find_map(|o| minimize::failure(case, &[&Reference, o.as_ref()]).map(|f| (o, f)))
}

/// A failing artifact's raw failure (cheap: no minimizing) and, when an
/// oracle pair of a differential target shows it, the case and the
/// oracle that disagrees with the reference; `None` when it does not fail.
/// The raw failure is the oracle and class for a pair, else (the other
/// targets, and a differential target whose body fails for another reason)
/// the body's message.
type Failing = (String, Option<(Case, Box<dyn Oracle>)>);

fn failure_of(bodies: &Bodies, target: &str, data: &[u8], plant: Plant) -> Option<Failing> {
    if diff_oracles(target, plant).is_some() {
        let case = Case::from_bytes(data, &GenConfig::default());
        if let Some((o, f)) = failing_pair(target, &case, plant) {
            return Some((format!("{target}: {f:?}"), Some((case, o))));
        }
        if target != "dwarf_diff" {
            return None;
        }
    }
    other_target_failure(bodies, target, data).map(|raw| (raw, None))
}

/// [`failure_of`]'s raw failure alone: what repeats are skipped by.
pub fn raw_failure(bodies: &Bodies, target: &str, data: &[u8], plant: Plant) -> Option<String> {
    failure_of(bodies, target, data, plant).map(|(raw, _)| raw)
}

/// The rule library the simplify_diff target loads (corpus/rules of the
/// checkout), loaded once, from the first root asked for (a process
/// replays for one checkout); `None` when it does not load.
fn simplifier(root: &Path) -> Option<&'static Simplifier> {
    static S: std::sync::OnceLock<Option<Simplifier>> = std::sync::OnceLock::new();
    S.get_or_init(|| Simplifier::load(&[root.join("corpus/rules")]).ok())
        .as_ref()
}

/// A target's body run in process on the artifact (what the fuzz target
/// runs, without its case files): its failure's first message line, with
/// the numbers (which vary from case to case) masked. Public for
/// `examples/target_inputs.rs`, which times slow inputs with it.
pub fn other_target_failure(bodies: &Bodies, target: &str, data: &[u8]) -> Option<String> {
    let r = std::panic::catch_unwind(|| match target {
        "check_eval" => targets::check_eval(data),
        "parse_roundtrip" => targets::parse_roundtrip(data),
        "validate_diff" => targets::validate_diff(data),
        "classic_roundtrip" => diopter_harness::classic_target::classic_roundtrip(data),
        "dwarf_diff" => targets::dwarf_diff(data, None),
        "lifetimes_diff" => diopter_harness::cfg_targets::lifetimes_diff(data),
        "transform_diff" => diopter_harness::cfg_targets::transform_diff(data),
        "simplify_diff" => {
            let Some(s) = simplifier(bodies.root) else {
                return Err("simplify_diff: corpus/rules does not load".to_string());
            };
            targets::simplify_diff(s, data, None)
        }
        _ => match bodies.extra.iter().find(|(name, _)| *name == target) {
            Some((_, body)) => body(data),
            None => Err(format!("target `{target}`: not replayable in process")),
        },
    });
    let msg = match r {
        Ok(Ok(())) => return None,
        Ok(Err(m)) => m,
        Err(p) => p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into()),
    };
    let first = msg.lines().next().unwrap_or("").to_string();
    let sig: String = first
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .take(120)
        .collect();
    Some(format!("{target}: {sig}"))
}

/// Replays one crash artifact and, for the differential targets, minimizes
/// it; `None`: it does not fail (not reproduced).
pub fn replay(
    bodies: &Bodies,
    target: &str,
    data: &[u8],
    plant: Plant,
    findings_dir: &Path,
    at: f64,
) -> Option<Replayed> {
    let (raw, pair) = failure_of(bodies, target, data, plant)?;
    match pair {
        // Other targets, and a dwarf_diff failure that no oracle pair shows
        // (its body failed otherwise): kept under the message.
        None => Some(Replayed::by_message(raw)),
        Some((case, other)) => {
            let oracles: [&dyn Oracle; 2] = [&Reference, other.as_ref()];
            let mut fs = Vec::new();
            let mut errs = Vec::new();
            let r = camp::record(
                &case,
                &oracles,
                &mut fs,
                findings_dir,
                MINIMIZE_TIME,
                at,
                &mut errs,
            );
            if r != Recorded::New {
                return None;
            }
            let f = fs.pop()?;
            Some(Replayed {
                raw,
                signature: f.signature.to_string(),
                finding: Some(f),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_artifacts_are_not_replayed() {
        assert_eq!(artifact_kind("crash-0123abcd"), ArtifactKind::Crash);
        assert_eq!(
            artifact_kind("timeout-0123abcd"),
            ArtifactKind::Resource("timeout")
        );
        assert_eq!(artifact_kind("oom-99"), ArtifactKind::Resource("oom"));
        assert_eq!(artifact_kind("leak-1"), ArtifactKind::Resource("leak"));
        assert_eq!(
            artifact_kind("slow-unit-1"),
            ArtifactKind::Resource("slow-unit")
        );
    }

    /// A crash artifact whose replay fails is a finding under its first
    /// message line; one that passes is not reproduced.
    #[test]
    fn other_targets_fail_by_their_first_line() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let bodies = Bodies {
            root: &root,
            extra: &[],
        };
        assert_eq!(other_target_failure(&bodies, "parse_roundtrip", b""), None);
        let sig = other_target_failure(&bodies, "no_such_target", b"x").expect("fails");
        assert_eq!(
            sig,
            "no_such_target: target `no_such_target`: not replayable in process"
        );
    }
}
