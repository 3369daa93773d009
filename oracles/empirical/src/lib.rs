//! The rule library and the simplifier checked without a solver, on the
//! reference interpreter in generated contexts. Apart from the rules
//! (`diopter-rules`) so that the rule language and the simplifier need
//! neither the generators nor the differential framework: they are an
//! engine, this crate is what tests it.
//!
//! This module is the concrete check of rule instances: both
//! sides are evaluated with the reference interpreter in many random
//! contexts and compared by DESIGN.md's relations; [`simplify`] checks
//! the simplifier the same way.
//!
//! A value hole is `DIOpArg(k, T)`, and the context gives argument `k` a
//! random location of every storage kind the generators know (memory,
//! entity, implicit, undefined, implicit address, composite, consistent and
//! inconsistent multi-locations, locations hanging off the end of memory),
//! or leaves it out, which makes the hole a failing subexpression. A
//! constant hole is an implicit location holding a random value (edge
//! values included); a computed constant holds the value of its term.
//!
//! The comparison is [`relate`]: the two sides' [`diff::Observation`]s
//! (outcome, bits read, context after writing a pattern) classified by
//! `diff::classify`, after forgetting what DESIGN.md's equivalence does not
//! look at: which error a failing side reports, which location description
//! a succeeding side computes (only its type, its bits and the effect of a
//! write count), and why a read or a write is refused. For a read-only
//! refinement (`=>ro`) a refused write on the right is accepted where the
//! left writes.

pub mod simplify;

use diopter_diff::{self as diff, Observation, Reference, Verdict};
use diopter_gen::context::{context_for, ContextFor};
use diopter_gen::entropy::{Entropy, SplitMix};
use diopter_gen::swarm::Swarm;
use diopter_gen::{values, Case};
use diopter_rules::instance::{HoleKind, Instance, Relation};
use diopter_rules::term::{eval_term, preconditions_hold};
use diopter_semantics::ast::{ArgDecl, Bare, Expr, Span};
use diopter_semantics::interp::ErrorKind;
use diopter_semantics::location::{LocDesc, ReadErrorKind};
use diopter_semantics::types::DataLayout;
use diopter_semantics::value::Bits;

/// How two observations of the same context relate under `rel`: `Agree`
/// or `BothError` when the relation holds, `InconsistentContext` or
/// `Skipped` when the context says nothing, `Disagree` otherwise.
pub fn relate(lhs: &Observation, rhs: &Observation, rel: Relation) -> Verdict {
    let inconsistent = |o: &Observation| {
        matches!(&o.outcome, Err(e) if e.kind == ErrorKind::Inconsistent)
            || matches!(&o.read, Some(Err(e)) if e.kind == ReadErrorKind::Inconsistent)
    };
    if inconsistent(lhs) || inconsistent(rhs) {
        return Verdict::InconsistentContext {
            detail: "a side reads locations that disagree".into(),
        };
    }
    let mut r = rhs.clone();
    if rel == Relation::Lossy {
        // The right side may lose what the left side gives: a failing right
        // side, a refused read or a refused write stand for the left side's.
        let gives_nothing = r.outcome.is_err()
            || (matches!(r.read, None | Some(Err(_))) && matches!(r.write, None | Some(Err(_))));
        if gives_nothing {
            r = lhs.clone();
        } else if lhs.outcome.is_ok() {
            if matches!(r.read, Some(Err(_))) {
                r.read = lhs.read.clone();
            }
            if matches!(r.write, Some(Err(_))) {
                r.write = lhs.write.clone();
            }
        }
    }
    match (&lhs.outcome, &mut r.outcome) {
        // "both fail": which error, and where, is not part of equivalence
        // (a resource limit on either side still skips, in `classify`).
        (Err(a), Err(b))
            if b.kind != ErrorKind::ResourceLimit && a.kind != ErrorKind::ResourceLimit =>
        {
            *b = a.clone()
        }
        (Ok(a), Ok(b)) => {
            // The description is only observable through reads and writes,
            // which `observe` has already made.
            b.loc = a.loc.clone();
            if let (Some(Err(x)), Some(Err(y))) = (&lhs.read, &mut r.read) {
                *y = x.clone();
            }
            match (&lhs.write, &mut r.write) {
                (Some(Err(x)), Some(Err(y))) => *y = x.clone(),
                (Some(Ok(x)), Some(w @ Err(_))) if rel != Relation::Equivalent => {
                    *w = Ok(x.clone())
                }
                _ => {}
            }
        }
        _ => {}
    }
    diff::classify(&[lhs.clone(), r])
}

/// A side of an instance as a one-line expression over its holes.
pub fn side_bare(inst: &Instance, e: &Expr) -> Bare {
    Bare {
        args: Some(
            inst.holes
                .iter()
                .map(|h| ArgDecl {
                    ty: h.ty.clone(),
                    poison: false,
                    span: Span::default(),
                })
                .collect(),
        ),
        referrer: None,
        var_type: None,
        expr: e.clone(),
        explicit_dialect: true,
        wrapped: false,
    }
}

/// Counts of one instance's check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub agree: usize,
    pub both_error: usize,
    /// Contexts whose multi-locations disagree, or resource limits.
    pub uninformative: usize,
    /// Trials whose preconditions did not hold.
    pub precondition_false: usize,
}

/// A context in which the two sides of an instance are not related as the
/// rule claims.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub lhs: String,
    pub rhs: String,
    pub binding: String,
    pub trial_seed: u64,
    pub detail: String,
}

impl std::fmt::Display for Counterexample {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}\n  lhs: {}\n  rhs: {}\n  seed {}: {}",
            self.binding, self.lhs, self.rhs, self.trial_seed, self.detail
        )
    }
}

/// Evaluates both sides of `inst` in `trials` random contexts drawn from
/// `seed`; the first context where the relation fails is returned.
pub fn check_instance(inst: &Instance, trials: usize, seed: u64) -> Result<Tally, Counterexample> {
    check_instance_with(inst, trials, seed, false)
}

/// [`check_instance`]; with `same_location`, also requires that where both
/// sides succeed they yield the same location description. That is more
/// than equivalence asks, and what makes a rule safe *inside* any larger
/// expression: what an enclosing operation does depends only on its
/// operand's type and location description (two descriptions that read
/// alike can still differ under an offset past a composite's end, or under
/// `DIOpDeref` of a wrapped implicit address).
pub fn check_instance_with(
    inst: &Instance,
    trials: usize,
    seed: u64,
    same_location: bool,
) -> Result<Tally, Counterexample> {
    check_instance_in(
        inst,
        trials,
        seed,
        same_location,
        &DataLayout::llvm_default(),
    )
}

/// [`check_instance_with`] under the data layout `dl`.
pub fn check_instance_in(
    inst: &Instance,
    trials: usize,
    seed: u64,
    same_location: bool,
    dl: &DataLayout,
) -> Result<Tally, Counterexample> {
    let dl = dl.clone();
    let lhs_bare = side_bare(inst, &inst.lhs);
    let rhs_bare = side_bare(inst, &inst.rhs);
    let print = |b: &Bare| diopter_semantics::syntax::print_bare(b);
    let mut tally = Tally::default();
    for t in 0..trials {
        let trial_seed = seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(t as u64);
        let e: &mut dyn Entropy = &mut SplitMix(trial_seed);
        let swarm = Swarm::draw(e);
        let mut ctx = context_for(
            e,
            &ContextFor {
                bare: &lhs_bare,
                types: &inst.types,
                dl: &dl,
                swarm: &swarm,
                max_bits: 4096,
            },
        );
        // Failing holes: a left-out argument fails where it is used.
        let mut values: Vec<Option<Bits>> = vec![None; inst.holes.len()];
        for (k, h) in inst.holes.iter().enumerate() {
            let computed = inst.defs.iter().any(|(d, _)| *d == k);
            match h.kind {
                HoleKind::Expr => {
                    if e.chance(1, 8) {
                        ctx.args.remove(&(k as u64));
                    }
                }
                HoleKind::Const if !computed => {
                    let bits = dl.bitsizeof(&h.ty, &inst.types).unwrap_or(0);
                    let v = match h.ty.float_kind() {
                        Some(fk) => values::float_bits(e, fk, 8),
                        None => values::int_bits(e, bits, 8),
                    };
                    ctx.args.insert(k as u64, LocDesc::implicit(v.clone()));
                    values[k] = Some(v);
                }
                HoleKind::Const => {}
            }
        }
        if !preconditions_hold(&inst.pre, &values) {
            tally.precondition_false += 1;
            continue;
        }
        let mut undefined_def = None;
        for (k, term) in &inst.defs {
            match eval_term(term, &values) {
                Some(v) => {
                    ctx.args.insert(*k as u64, LocDesc::implicit(v.clone()));
                    values[*k] = Some(v);
                }
                None => undefined_def = Some(*k),
            }
        }
        let lcase = Case {
            bare: lhs_bare.clone(),
            types: inst.types.clone(),
            ctx: ctx.clone(),
        };
        let mut lobs = diff::observe(&lcase, &Reference);
        // Both sides run on the reference: name them by side in messages.
        lobs.oracle = "lhs".into();
        let fail = |detail: String| Counterexample {
            lhs: print(&lhs_bare),
            rhs: print(&rhs_bare),
            binding: format!(
                "{} [{}] {}",
                inst.rule,
                inst.dialect,
                inst.binding
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            trial_seed,
            detail,
        };
        if let Some(k) = undefined_def {
            return Err(fail(format!(
                "the computed constant (hole {k}) is undefined for these constants, while the left side {}",
                if lobs.outcome.is_ok() { "succeeds" } else { "fails" }
            )));
        }
        let rcase = Case {
            bare: rhs_bare.clone(),
            types: inst.types.clone(),
            ctx,
        };
        let mut robs = diff::observe(&rcase, &Reference);
        robs.oracle = "rhs".into();
        if same_location {
            if let (Ok(a), Ok(b)) = (&lobs.outcome, &robs.outcome) {
                if a.loc != b.loc && relate(&lobs, &robs, inst.relation) == Verdict::Agree {
                    return Err(fail(format!(
                        "the sides read and write alike but yield different locations: {} vs {}",
                        a.loc, b.loc
                    )));
                }
            }
        }
        match relate(&lobs, &robs, inst.relation) {
            Verdict::Agree => tally.agree += 1,
            Verdict::BothError { .. } => tally.both_error += 1,
            Verdict::InconsistentContext { .. } | Verdict::Skipped { .. } => {
                tally.uninformative += 1
            }
            Verdict::Disagree { details } => {
                let d = details.join("; ");
                return Err(fail(format!(
                    "{d} (lhs: {}, rhs: {})",
                    describe(&lobs),
                    describe(&robs)
                )));
            }
        }
    }
    Ok(tally)
}

fn describe(o: &Observation) -> String {
    match &o.outcome {
        Err(e) => format!("{e}"),
        Ok(l) => {
            let read = match &o.read {
                Some(Ok(b)) => b.to_hex(),
                Some(Err(e)) => format!("read fails ({:?})", e.kind),
                None => "-".into(),
            };
            let write = match &o.write {
                Some(Ok(_)) => "writable",
                Some(Err(_)) => "not writable",
                None => "-",
            };
            format!("`{}` at {}, reads {read}, {write}", l.ty, l.loc)
        }
    }
}
