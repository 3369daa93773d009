//! The SMT encoding checked against the reference interpreter: random
//! well-typed expressions and contexts from the generators, evaluated through
//! the encoding with every input fixed to the context's values, must fail or
//! succeed alike and, on success, give the same type, the same bits read and
//! the same effect of a write (`smt::concrete::compare_with_reference`).
//!
//! A case the encoding cannot express is counted as unsupported, never as
//! agreement, and must stay a small share.

use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_semantics::interp;
use diopter_smt::concrete::{compare_with_reference, Comparison};
use std::collections::BTreeMap;

/// Fixed, so that the test's time does not drift; seeds are consecutive.
const CASES: u64 = 1500;

#[test]
fn encoding_agrees_with_the_reference_on_random_cases() {
    let cfg = GenConfig {
        max_ops: 24,
        max_type_bits: 512,
        ..GenConfig::default()
    };
    let (mut agree, mut skipped, mut agree_ok) = (0u64, 0u64, 0u64);
    let mut unsupported: BTreeMap<String, u64> = BTreeMap::new();
    let mut disagree = Vec::new();
    for seed in 0..CASES {
        let case = Case::from_seed(seed, &cfg);
        match compare_with_reference(&case.bare, &case.types, &case.ctx) {
            Comparison::Agree => {
                agree += 1;
                // Agreement on a success (type, read, write compared), not
                // only on a failure.
                if interp::eval_bare(&case.bare, &case.types, &case.ctx).is_ok() {
                    agree_ok += 1;
                }
            }
            Comparison::Skipped(_) => skipped += 1,
            Comparison::Unsupported(why) => *unsupported.entry(why).or_default() += 1,
            Comparison::Disagree(d) => disagree.push((seed, case.expr_line(), d)),
        }
    }
    let unsup: u64 = unsupported.values().sum();
    eprintln!("agree {agree} ({agree_ok} successes), skipped {skipped}, unsupported {unsup} {unsupported:?}, disagree {}", disagree.len());
    for (seed, line, d) in disagree.iter().take(10) {
        eprintln!("seed {seed}: {line}\n  {}", d.join("\n  "));
    }
    assert!(disagree.is_empty(), "{} disagreements", disagree.len());
    assert!(
        agree >= CASES * 3 / 4,
        "only {agree} of {CASES} cases agree"
    );
    assert!(
        agree_ok >= CASES / 4,
        "only {agree_ok} agreements on a success"
    );
    assert!(
        unsup * 20 <= CASES,
        "{unsup} of {CASES} cases unsupported: {unsupported:?}"
    );
}
