//! The concrete check of the rule library, independent of Z3: every
//! instance of every rule in `corpus/rules/` (and of the generated folding
//! rules) is evaluated on both sides with the reference interpreter in
//! random contexts (`diopter_empirical`), and must relate as the rule
//! claims; every rule under `corpus/rules/refuted/` must be refuted by some
//! context.

use diopter_empirical::{check_instance, check_instance_with};
use diopter_rules::{generated_rules, load_rule_files, Rule};
use std::path::PathBuf;

/// Integer widths the concrete check covers (a subset of the prover's
/// `DEFAULT_WIDTHS`, the edges of each range included).
const WIDTHS: &[u64] = &[1, 3, 8, 32, 33, 64];

fn library() -> Vec<Rule> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/rules");
    load_rule_files(&[dir]).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Trials per instance: instances are many, and the contexts are drawn
/// with a swarm per trial, so every storage kind comes up.
const TRIALS: usize = 40;

#[test]
fn every_library_rule_holds_on_random_contexts() {
    let mut rules: Vec<Rule> = library()
        .into_iter()
        .filter(|r| !r.expect_refuted())
        .collect();
    rules.extend(generated_rules());
    let mut failures = Vec::new();
    let mut checked = 0;
    for r in &rules {
        let insts = r.instances(WIDTHS);
        assert!(
            !insts.is_empty(),
            "rule {} has no well-formed instance",
            r.name
        );
        for (i, inst) in insts.iter().enumerate() {
            checked += 1;
            // Same location where both succeed: the rule is safe inside
            // any larger expression, not only at the top.
            if let Err(c) = check_instance_with(inst, TRIALS, i as u64, true) {
                failures.push(format!("{} ({}): {c}", r.name, r.origin));
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} rules fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 1000, "only {checked} instances");
}

/// The rule the README gives as the example of equivalent-but-not-
/// interchangeable: the strict check (same location) refutes it, the
/// equivalence check alone does not.
#[test]
fn composite_of_one_part_is_equivalent_but_not_the_same_location() {
    let text = "rule composite-one: ?x:T, DIOpComposite(1, T) => ?x   where T: int";
    let r = &diopter_rules::parse_rules(text, "c.rules").unwrap()[0];
    let insts = r.instances(&[8, 32]);
    assert!(!insts.is_empty());
    for (i, inst) in insts.iter().enumerate() {
        assert!(check_instance(inst, TRIALS, i as u64).is_ok());
    }
    let strict = insts
        .iter()
        .enumerate()
        .find_map(|(i, inst)| check_instance_with(inst, TRIALS, i as u64, true).err())
        .expect("the strict check refutes it");
    assert!(strict.detail.contains("different locations"), "{strict}");
}

#[test]
fn every_refuted_rule_is_refuted_on_random_contexts() {
    let rules: Vec<Rule> = library()
        .into_iter()
        .filter(|r| r.expect_refuted())
        .collect();
    assert!(rules.len() >= 10, "only {} refuted rules", rules.len());
    let mut survivors = Vec::new();
    for r in &rules {
        let insts = r.instances(WIDTHS);
        assert!(
            !insts.is_empty(),
            "refuted rule {} has no well-formed instance",
            r.name
        );
        let refuted = insts
            .iter()
            .enumerate()
            .any(|(i, inst)| check_instance(inst, 200, i as u64).is_err());
        if !refuted {
            survivors.push(r.name.clone());
        }
    }
    assert!(survivors.is_empty(), "not refuted: {survivors:?}");
}
