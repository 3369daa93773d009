//! The library a run proves: the rules loaded from the files (every
//! well-formed rule, shrinking or not), the generated constant-folding
//! rules, the name filters, and each rule's instances at the run's widths.

use crate::error::ProveError;
use diopter_rules::instance::Instance;
use diopter_rules::{self as rules, widths, Rule};
use std::path::PathBuf;

/// What is tried at every width from 1 to 64 besides the base widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllWidths {
    /// All type variables of all rules.
    Every,
    /// Only the variables whose meaning a width can change (a type
    /// condition or a literal concerns them: `Rule::instances_at`).
    Bounded,
}

/// The widths every rule is tried at (each rule adds its own, see
/// `diopter_rules::widths`): `widths`, and with [`AllWidths::Every`] every
/// width from 1 to 64.
pub fn base_widths(widths: &[u64], all: Option<AllWidths>) -> Vec<u64> {
    let mut ws: Vec<u64> = widths.to_vec();
    if all == Some(AllWidths::Every) {
        ws.extend(widths::all_widths());
        ws.sort_unstable();
        ws.dedup();
    }
    ws
}

/// The rules under `paths`, with the generated rules when `generated`,
/// keeping those whose name contains one of `filters` (all when there is
/// none). An empty library is an error: a gate that checks nothing must
/// not pass.
pub fn load(
    paths: &[PathBuf],
    generated: bool,
    filters: &[String],
) -> Result<Vec<Rule>, ProveError> {
    if let Some(p) = paths.iter().find(|p| !p.exists()) {
        return Err(ProveError::NoSuchPath(p.clone()));
    }
    // Termination matters only to the simplifier: `Rule::not_applied` says
    // which rules it leaves out, and the reports say so.
    let mut rules = rules::load_rules_to_prove(paths).map_err(ProveError::Rules)?;
    if generated {
        rules.extend(rules::generated_rules());
    }
    if !filters.is_empty() {
        rules.retain(|r| filters.iter().any(|f| r.name.contains(f.as_str())));
    }
    if rules.is_empty() {
        return Err(ProveError::NoRule {
            paths: paths.to_vec(),
            filters: filters.to_vec(),
        });
    }
    Ok(rules)
}

/// Each rule's instances at `base` (and, with [`AllWidths::Bounded`], at
/// every width for the variables whose meaning can change with one).
pub fn instances(rules: &[Rule], base: &[u64], all: Option<AllWidths>) -> Vec<Vec<Instance>> {
    rules
        .iter()
        .map(|r| r.instances_at(base, all == Some(AllWidths::Bounded)))
        .collect()
}

/// Names and instance counts of the whole library, in order: two shards
/// belong to one run only if they agree on it.
pub fn fingerprint(rules: &[Rule], sizes: &[usize]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for (r, n) in rules.iter().zip(sizes) {
        h.update(format!("{}:{n}\n", r.name).as_bytes());
    }
    h.finalize()[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
