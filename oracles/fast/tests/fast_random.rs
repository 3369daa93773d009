//! Random differential tests: generated cases (`gen::Case`, well-typed by
//! construction, with contexts that put bits in every kind of storage),
//! wild cases (`gen::wild`, not built to be well-typed), and each generated
//! expression once more with a `DIOpRead()` appended (which reads the
//! result through the fast evaluator's reader). The fast evaluator must give
//! the reference's whole outcome.

#[path = "fast_support.rs"]
mod support;

use diopter_fast as fast;
use diopter_gen::Generate;
use diopter_gen::{self as gen, entropy::SplitMix, Case, GenConfig};
use diopter_semantics::ast::{Op, OpNode, Span};
use proptest::prelude::*;
use std::collections::BTreeMap;
use support::agree;

/// The case with `DIOpRead()` appended: the reference reads the result.
fn with_read(c: &Case) -> Case {
    let mut c = c.clone();
    c.bare.expr.ops.push(OpNode {
        op: Op::Read,
        span: Span::default(),
    });
    c
}

fn kind(o: &diopter_semantics::interp::Outcome) -> String {
    match o {
        Ok(_) => "Ok".into(),
        Err(e) => format!("{:?}", e.kind),
    }
}

#[test]
fn generated_cases_agree() {
    let cfg = GenConfig::default();
    let mut scratch = fast::Scratch::new();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let n = 4000;
    for seed in 0..n {
        let c = Case::from_seed(seed, &cfg);
        let o = agree(&c.bare, &c.types, &c.ctx, &mut scratch);
        *kinds.entry(kind(&o)).or_default() += 1;
        let r = with_read(&c);
        let o = agree(&r.bare, &r.types, &r.ctx, &mut scratch);
        *kinds.entry(format!("read {}", kind(&o))).or_default() += 1;
    }
    eprintln!("{n} generated cases agree: {kinds:?}");
    assert!(
        kinds.get("Ok").copied().unwrap_or(0) > n as usize / 4,
        "{kinds:?}"
    );
}

#[test]
fn wild_cases_agree() {
    let cfg = GenConfig::default();
    let mut scratch = fast::Scratch::new();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 0..3000u64 {
        let c = gen::wild::case(&mut SplitMix(seed), &cfg);
        let o = agree(&c.bare, &c.types, &c.ctx, &mut scratch);
        *kinds.entry(kind(&o)).or_default() += 1;
    }
    eprintln!("wild cases agree: {kinds:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Byte-string cases shrink to small expressions when they fail.
    #[test]
    fn proptest_cases_agree(c in gen::strategy(GenConfig::default())) {
        let mut scratch = fast::Scratch::new();
        let _ = agree(&c.bare, &c.types, &c.ctx, &mut scratch);
        let r = with_read(&c);
        let _ = agree(&r.bare, &r.types, &r.ctx, &mut scratch);
    }
}
