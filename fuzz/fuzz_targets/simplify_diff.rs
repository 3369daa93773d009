//! The simplifier against the reference interpreter: a generated case (the
//! input drives the generator through `arbitrary`) and the same case with
//! its expression simplified by the rule library (`corpus/rules`, the
//! files the prover proves, plus the generated folding rules) must be
//! equivalent by DESIGN.md's relation. A disagreement is written as a case
//! file under `fuzz/artifacts/simplify_diff/` (or `$DIOPTER_CASE_DIR`),
//! with the simplified expression and the rules applied as comments.

#![no_main]

use diopter_gen::Case;
use diopter_rules::simplify::check::fuzz_simplify_diff;
use diopter_rules::simplify::Simplifier;
use libfuzzer_sys::arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::OnceLock;

fn simplifier() -> &'static Simplifier {
    static S: OnceLock<Simplifier> = OnceLock::new();
    S.get_or_init(|| {
        let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/rules"));
        match Simplifier::load(&[dir]) {
            Ok(s) => s,
            Err(d) => panic!(
                "the rule library does not load:\n{}",
                diopter_rules::render_located(&d)
            ),
        }
    })
}

fn case_dir() -> PathBuf {
    std::env::var_os("DIOPTER_CASE_DIR").map_or_else(
        || {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/artifacts/simplify_diff"
            ))
        },
        PathBuf::from,
    )
}

fuzz_target!(
    init: {
        // As in eval_diff: generated types are confirmed elsewhere.
        diopter_gen::expr::CROSS_CHECK.store(false, Ordering::Relaxed);
        simplifier();
    },
    |data: &[u8]| {
        let mut u = Unstructured::new(data);
        let Ok(case) = Case::arbitrary(&mut u) else {
            return;
        };
        if let Err(m) = fuzz_simplify_diff(simplifier(), &case, Some(&case_dir())) {
            panic!("{m}");
        }
    }
);
