//! One artifact file made into a finding or a hit of one: replayed (or, for
//! a resource artifact, named by its kind), counted under the finding of
//! its signature or recorded as a new one, the state saved, then the file
//! deleted. Repeats of a raw failure seen before skip the minimizer, which
//! is where the time goes.

use crate::replay::{self, artifact_kind, ArtifactKind, Bodies, Replayed};
use crate::state::{FindingRec, State};
use crate::supervise::{FUZZER_RSS_LIMIT_MB, INPUT_TIMEOUT_S};
use diopter_diff as diff;
use diopter_harness::campaign as camp;
use diopter_harness::minimize::plant::Plant;
use diopter_harness::minimize::{self, Signature};
use std::collections::BTreeMap;
use std::path::Path;

/// Every this many repeats of a known raw failure one is minimized again
/// (a new cause may fail in the same class).
const REMINIMIZE_EVERY: u64 = 16;
/// The most raw failures remembered for skipping repeats.
const MAX_RAW_SEEN: usize = 4096;

/// The findings an artifact may belong to.
pub struct Dedup {
    /// The index of each finding of the state, by signature.
    by_signature: BTreeMap<String, usize>,
    /// (times seen, finding index) by raw failure, this process's only.
    raw_seen: BTreeMap<String, (u64, usize)>,
}

impl Dedup {
    pub fn new(st: &State) -> Dedup {
        Dedup {
            by_signature: st
                .findings
                .iter()
                .enumerate()
                .map(|(i, f)| (f.signature.clone(), i))
                .collect(),
            raw_seen: BTreeMap::new(),
        }
    }

    /// Handles the artifact `name` of `target` (under `dir`/artifacts):
    /// replays it (or, for a resource artifact, names it by its kind),
    /// counts it under its finding or records a new one, saves the state,
    /// then deletes the file.
    #[allow(clippy::too_many_arguments)]
    pub fn handle(
        &mut self,
        st: &mut State,
        bodies: &Bodies,
        dir: &Path,
        target: &str,
        name: &str,
        plant: &str,
        now: f64,
    ) {
        let findings_dir = dir.join("findings");
        let path = dir.join("artifacts").join(target).join(name);
        let Ok(data) = std::fs::read(&path) else {
            return;
        };
        let plant_bug = Plant::from_name(plant).unwrap_or(Plant::AddOffByOne);
        let kind = artifact_kind(name);
        // A repeat of a raw failure seen before counts under its finding
        // without the minimizer, which is where the time goes.
        let raw = match kind {
            ArtifactKind::Crash => minimize::quiet_panics(|| {
                std::panic::catch_unwind(|| replay::raw_failure(bodies, target, &data, plant_bug))
            })
            .unwrap_or_else(|_| Some(format!("{target}: panic while replaying"))),
            ArtifactKind::Resource(k) => Some(format!("{target}: {k}")),
        };
        if let Some((n, i)) = raw.as_ref().and_then(|r| self.raw_seen.get_mut(r)) {
            *n += 1;
            if !(*n).is_multiple_of(REMINIMIZE_EVERY) {
                st.findings[*i].hits += 1;
                st.repeats += 1;
                st.handled += 1;
                st.save(dir);
                let _ = std::fs::remove_file(&path);
                return;
            }
        }
        let replayed = match kind {
            ArtifactKind::Crash => minimize::quiet_panics(|| {
                std::panic::catch_unwind(|| {
                    replay::replay(bodies, target, &data, plant_bug, &findings_dir, now)
                })
            })
            .unwrap_or_else(|_| {
                Some(Replayed::by_message(format!(
                    "{target}: panic while replaying"
                )))
            }),
            ArtifactKind::Resource(k) => Some(Replayed::by_message(format!("{target}: {k}"))),
        };
        let (sig, raw, f, reproduced) = match replayed {
            Some(r) => (r.signature, Some(r.raw), r.finding, true),
            None => (
                format!("{target}: not reproduced ({name})"),
                None,
                None,
                false,
            ),
        };
        let index = if let Some(&i) = self.by_signature.get(&sig) {
            st.findings[i].hits += 1;
            Some(i)
        } else if st.findings.len() >= camp::MAX_FINDINGS {
            st.findings_dropped += 1;
            None
        } else {
            // Keep the artifact itself beside the case files.
            let id = camp::signature_id(&Signature {
                oracle: target.to_string(),
                first_op: sig.clone(),
                classes: vec![],
            });
            let kept = findings_dir.join(format!("{id}.{target}.input"));
            let _ = std::fs::write(&kept, &data);
            let replay_cmd = match (&f, kind) {
                (Some(f), _) if target != "eval_diff_planted" => diff::repro_command(&f.min_path),
                (Some(f), _) => format!(
                    "cargo run --release -- minimize {} --oracle fast --plant {plant}",
                    f.min_path.display(),
                ),
                (None, ArtifactKind::Resource(_)) => format!(
                    "cargo fuzz run {target} -s none {} -- -timeout={INPUT_TIMEOUT_S} -rss_limit_mb={FUZZER_RSS_LIMIT_MB}",
                    kept.display()
                ),
                (None, ArtifactKind::Crash) => {
                    format!("cargo fuzz run {target} -s none {}", kept.display())
                }
            };
            self.by_signature.insert(sig.clone(), st.findings.len());
            st.findings.push(FindingRec {
                target: target.to_string(),
                signature: sig,
                hits: 1,
                first_seen_s: now,
                artifact: kept.display().to_string(),
                case: f.as_ref().map(|f| f.case_path.display().to_string()),
                minimized: f.as_ref().map(|f| f.min_path.display().to_string()),
                expression: f.as_ref().map(|f| f.min_line.clone()),
                min_ops: f.as_ref().map(|f| f.min_ops),
                ops: f.as_ref().map(|f| f.ops),
                replay: replay_cmd,
                reproduced,
            });
            st.finding_times.push((now, st.findings.len()));
            Some(st.findings.len() - 1)
        };
        if let (Some(r), Some(i)) = (raw, index) {
            if self.raw_seen.len() < MAX_RAW_SEEN || self.raw_seen.contains_key(&r) {
                self.raw_seen.entry(r).or_insert((1, i));
            }
        }
        st.handled += 1;
        // The state first, then the deletion: a kill in between counts this
        // artifact once more on resume, never loses it.
        st.save(dir);
        let _ = std::fs::remove_file(&path);
    }
}
