//! The checker is sound on expressions that were not built to be
//! well-typed: whatever `check_bare` accepts evaluates in the reference
//! without an `IllFormed` error.

use diopter_gen::entropy::SplitMix;
use diopter_gen::{wild, GenConfig};
use diopter_harness::targets;
use diopter_semantics::check::check_bare;
use diopter_semantics::interp::{eval_bare, ErrorKind};

#[test]
fn accepted_wild_expressions_are_not_ill_formed_at_run_time() {
    let cfg = GenConfig::default();
    let mut accepted = 0;
    let mut unsound = Vec::new();
    for seed in 0..20000u64 {
        let c = wild::case(&mut SplitMix(seed), &cfg);
        if check_bare(&c.bare, c.datalayout(), &c.types).is_err() {
            continue;
        }
        accepted += 1;
        if let Err(e) = eval_bare(&c.bare, &c.types, &c.ctx) {
            if e.kind == ErrorKind::IllFormed && targets::known_checker_gap(&e.message).is_none() {
                unsound.push(format!("{}\n    {e}", c.expr_line()));
            }
        }
    }
    println!("{accepted} of 20000 wild expressions accepted");
    assert!(accepted > 500, "only {accepted} accepted");
    assert!(
        unsound.is_empty(),
        "{} accepted but ill-formed at run time:\n  {}",
        unsound.len(),
        unsound
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n  ")
    );
}

/// The known gaps still exist (when one is fixed in semantics, this fails:
/// delete its entry from `targets::KNOWN_CHECKER_GAPS`).
#[test]
fn known_checker_gaps_are_still_open() {
    use diopter_semantics::syntax::parse_bare;
    use diopter_semantics::types::{DataLayout, TypeTable};
    for (message, repro) in targets::KNOWN_CHECKER_GAPS {
        let b = parse_bare(repro).expect("the reproducer parses");
        let (dl, types) = (DataLayout::default(), TypeTable::default());
        let accepted = check_bare(&b, &dl, &types).is_ok();
        let ctx = diopter_semantics::context::Context::default();
        let ill = matches!(eval_bare(&b, &types, &ctx), Err(e) if e.kind == ErrorKind::IllFormed && e.message.starts_with(message));
        assert!(
            accepted && ill,
            "fixed? `{repro}`: checker accepts: {accepted}, reference says ill-formed: {ill}"
        );
    }
}
