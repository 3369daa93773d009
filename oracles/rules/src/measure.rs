//! The termination measure of the simplifier, and the per-rule check that
//! every rule decreases it.
//!
//! The measure of an expression is the sum of its operations' weights:
//! `DIOpRead` weighs 1, every other operation 2 ([`weight`]). Rewriting a
//! subexpression by a rule replaces the left side's operations by the right
//! side's and keeps the other operations, so the measure of the whole
//! expression decreases exactly when the rule's right side weighs less than
//! its left side for *every* way of filling the holes. A hole stands for a
//! subexpression of weight at least 1 (it pushes an entry, so it has an
//! operation). Writing `L`/`R` for the weights of the sides' own
//! operations and `l(h)`/`r(h)` for the number of times hole `h` occurs on
//! each side, the rule decreases the measure for every filling iff
//!
//! * `r(h) <= l(h)` for every hole (otherwise a large filling of `h` makes
//!   the right side heavier), and
//! * `L + Σ l(h) > R + Σ r(h)` (the smallest fillings, weight 1 each).
//!
//! [`check_rule`] checks this when a rule is loaded; since the measure is a
//! natural number, the simplifier's rewriting terminates whatever order it
//! applies the rules in.

use super::pattern::PatOp;
use super::Rule;
use diopter_semantics::ast::Op;
use std::collections::BTreeMap;

/// The weight of one operation.
pub fn weight(op: &Op) -> u64 {
    match op {
        Op::Read => 1,
        // Metadata: the simplifier never rewrites it, but give it weight so
        // the measure is a plain sum.
        _ => 2,
    }
}

/// The measure of an operation list.
pub fn measure<'a>(ops: impl IntoIterator<Item = &'a Op>) -> u64 {
    ops.into_iter().map(weight).sum()
}

/// A side's own weight and each hole's number of occurrences.
fn side_weight(side: &[PatOp]) -> (u64, BTreeMap<&str, u64>) {
    let mut w = 0;
    let mut holes: BTreeMap<&str, u64> = BTreeMap::new();
    for p in side {
        match p {
            PatOp::Hole { name, .. } => *holes.entry(name.as_str()).or_default() += 1,
            // Constants are one operation whatever they hold.
            PatOp::ConstHole { .. } | PatOp::Const { .. } | PatOp::Computed { .. } => w += 2,
            PatOp::Op { op, .. } => w += weight(op),
        }
    }
    (w, holes)
}

/// Why a rule does not decrease the measure ([`check_rule`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Growth {
    /// The right side uses hole `?hole` `right` times, the left `left`.
    #[error("the right side uses `?{hole}` {right} times, the left side {left}: the simplifier could grow the expression forever")]
    HoleRepeated { hole: String, right: u64, left: u64 },
    /// The sides' weights, holes at weight 1.
    #[error("the rule does not shrink the expression (weight {left} on the left, {right} on the right; DIOpRead weighs 1, other operations 2): the simplifier needs every rule to, to terminate")]
    NoShrink { left: u64, right: u64 },
}

/// `Ok` when the rule decreases the measure for every filling of its holes;
/// otherwise why not.
pub fn check_rule(r: &Rule) -> Result<(), Growth> {
    let (lw, lh) = side_weight(&r.lhs);
    let (rw, rh) = side_weight(&r.rhs);
    for (h, n) in &rh {
        let m = lh.get(h).copied().unwrap_or(0);
        if *n > m {
            return Err(Growth::HoleRepeated {
                hole: h.to_string(),
                right: *n,
                left: m,
            });
        }
    }
    let l = lw + lh.values().sum::<u64>();
    let rr = rw + rh.values().sum::<u64>();
    if l <= rr {
        return Err(Growth::NoShrink { left: l, right: rr });
    }
    Ok(())
}

/// The guaranteed decrease of the measure when `r` rewrites (the left
/// side's minimum weight minus the right side's, holes at weight 1).
pub fn min_decrease(r: &Rule) -> i64 {
    let (lw, lh) = side_weight(&r.lhs);
    let (rw, rh) = side_weight(&r.rhs);
    (lw + lh.values().sum::<u64>()) as i64 - (rw + rh.values().sum::<u64>()) as i64
}
