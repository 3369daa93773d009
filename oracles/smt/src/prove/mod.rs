//! The prover: decides with Z3 whether the two sides of a rule instance
//! (`rules::instance::Instance`) are related as the rule claims, by
//! DESIGN.md's equivalence or read-only refinement.
//!
//! One query per instance asks "are there inputs where the sides are *not*
//! related": they differ in failure, or both succeed and differ in type (or
//! fragment), in the bits read (or whether reading fails), or in the effect
//! of writing a symbolic value (refused or accepted, and the memories and
//! entities after it). For `ReadOnly` the right side may refuse a write the
//! left side accepts. `unsat` is a proof, `sat` a counterexample, anything
//! else (`unknown`, the timeout) is `unknown`.
//!
//! Every value hole (`HoleKind::Expr`) takes every storage shape in the same
//! query, through a symbolic selector ([`Shape`]): memory in address spaces
//! 0 and 5 at a symbolic bit offset, an entity (wider than the value, at a
//! symbolic offset), an implicit value, the undefined location, an implicit
//! address (pointer-typed holes: `DIOpAddrOf` of memory), a composite of a
//! memory part and an entity part, two single locations (memory and entity)
//! constrained to hold the same bits, and a failing subexpression. A
//! constant hole (`HoleKind::Const`) is an implicit symbolic value, and the
//! instance's `pre` is assumed; a computed constant (one of `defs`) holds its
//! defining term itself. Contexts in which a read meets disagreeing single
//! locations are left out (see `smt`).
//!
//! A query may be decided in parts (`decide_in`): first a lemma about the
//! sides' locations, then per combination of shapes; a lemma about shifts by
//! symbolic amounts is split exhaustively on an amount's value
//! (`shift_cases`), and with [`ProveConfig::split_first`] a constant the
//! preconditions confine to a few values is split on each of them
//! (`small_constant`). Every split covers every case, and every part must be
//! proved for the instance to be.
//!
//! A memory offset of a hole is `concat(bytes, phase)` (`phase`: the bit
//! within the byte), which the encoding turns into byte addresses `bytes +
//! c` (`smt::Encoder::split`). With [`ProveConfig::split_first`] (`diopter
//! prove --transforms`) an instance is decided one combination of shapes at
//! a time, each query built with the holes restricted to their shapes and,
//! for memory shapes, once per phase (`solve_combo`): then which accesses
//! overlap is decided while the query is built, which is what lets SRoA's
//! pieces of a memory hole be proved.
//!
//! A counterexample is turned into a concrete `Context`, and both sides are
//! evaluated again by the **reference interpreter**: the report shows the
//! reference's outcomes, and if the reference does not confirm the difference
//! the verdict is [`Verdict::EncodingBug`], never a silent refutation.

pub mod cex;
mod version;
pub use version::solver_version;

use crate::{self as smt, bv, EncodeError, Encoder, Input, Inputs, SAlt, SLoc, SSingle, SStorage};
use diopter_rules::instance::{HoleKind, Instance, Relation, Term};
use diopter_semantics::ast::{Expr, Op};
use diopter_semantics::check::{self, ArgInfo, Env, ReferrerInfo};
use diopter_semantics::types::{DataLayout, Type};
use std::time::Instant;
use z3::ast::{Ast, Bool, BV};
use z3::{Params, SatResult, Solver};

pub use cex::Counterexample;

/// The storage shapes a value hole takes, in selector order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Memory0,
    Memory5,
    Entity,
    Implicit,
    Undefined,
    ImplicitAddress,
    Composite,
    TwoSingles,
    Failing,
}

impl Shape {
    pub const ALL: [Shape; 9] = [
        Shape::Memory0,
        Shape::Memory5,
        Shape::Entity,
        Shape::Implicit,
        Shape::Undefined,
        Shape::ImplicitAddress,
        Shape::Composite,
        Shape::TwoSingles,
        Shape::Failing,
    ];
    /// Whether the shape's storage is (or has a part, or a target) in memory
    /// at an offset of the hole's phase (see `value_hole`).
    pub fn uses_memory(self) -> bool {
        matches!(
            self,
            Shape::Memory0
                | Shape::Memory5
                | Shape::ImplicitAddress
                | Shape::Composite
                | Shape::TwoSingles
        )
    }
    pub fn name(self) -> &'static str {
        match self {
            Shape::Memory0 => "memory (address space 0)",
            Shape::Memory5 => "memory (address space 5)",
            Shape::Entity => "entity",
            Shape::Implicit => "implicit value",
            Shape::Undefined => "undefined",
            Shape::ImplicitAddress => "implicit address (DIOpAddrOf of memory)",
            Shape::Composite => "composite (memory part, entity part)",
            Shape::TwoSingles => "two single locations (memory | entity)",
            Shape::Failing => "a failing subexpression",
        }
    }
}

/// How long a query may run.
#[derive(Clone, Debug)]
pub struct ProveConfig {
    pub timeout_ms: u32,
    /// For an instance with one value hole, skip the query over every shape
    /// at once and the lemma: go straight to one query per shape (and per
    /// phase, see `solve_combo`), each built restricted to its shape, with
    /// the whole time. `diopter prove --transforms` sets it: the transformations'
    /// instances read and write memory through pieces, where the query over
    /// every shape (and building it) costs most of the time and rarely
    /// decides anything.
    pub split_first: bool,
    /// A bound on the whole run of which this instance is a part (`diopter
    /// prove --time-limit`): an instance reached after it is `unknown`
    /// without a query, and the exhaustive search stops at it (it would
    /// otherwise take at least [`MIN_EXHAUSTIVE_MS`]). A query started
    /// before it still runs its `timeout_ms`.
    pub deadline: Option<Instant>,
    /// Look for a refutation with every value hole an implicit value before
    /// the query over every shape (see `values_first`). Translation
    /// validation sets it: its refutations (a pass changed a value) have
    /// such models, found in milliseconds where the whole query takes
    /// seconds. Off for the rule library, where most instances are proved
    /// and the extra query cost the gate a tenth of its time.
    pub values_first: bool,
}

/// The reason of an `unknown` verdict given because
/// [`ProveConfig::deadline`] had passed.
pub const DEADLINE_PASSED: &str = "not decided: the time limit ran out before this instance";

/// The encoder's work budget (`smt::Encoder::budget`) under a
/// [`ProveConfig::deadline`]: building a query is not bounded by Z3's
/// timeout, and a write of a wide composite through a chain of stores took
/// minutes to build (`fuzz/regressions/cli/`). Above it the instance is
/// `unknown` (not encodable). Without a deadline there is no budget, as
/// before.
pub const DEADLINE_WORK_BUDGET: u64 = 1_000_000;

impl ProveConfig {
    /// Whether [`ProveConfig::deadline`] has passed.
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The encoder's work budget: [`DEADLINE_WORK_BUDGET`] under a
    /// deadline, else none.
    pub fn work_budget(&self) -> Option<u64> {
        self.deadline.map(|_| DEADLINE_WORK_BUDGET)
    }
}

impl Default for ProveConfig {
    fn default() -> Self {
        ProveConfig {
            timeout_ms: 10_000,
            split_first: false,
            deadline: None,
            values_first: false,
        }
    }
}

/// The answer for one instance.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No inputs tell the sides apart.
    Proved,
    /// Proved by trying every input (`exhaustive`): Z3 gave up on the
    /// query, and the holes' values total at most [`MAX_EXHAUSTIVE_BITS`]
    /// bits. The number of inputs tried.
    ProvedExhaustive(u64),
    /// Inputs that tell them apart, confirmed by the reference interpreter.
    Refuted(Box<Counterexample>),
    /// Z3 gave up (timeout, `unknown`) or the encoding cannot express the
    /// instance; the reason says which.
    Unknown(String),
    /// The left side is not well-formed: the rule matches no expression.
    NotApplicable(String),
    /// The right side is not well-formed while the left side is: the rule is
    /// wrong as written.
    Invalid(String),
    /// Z3 found a difference the reference interpreter does not confirm: a
    /// bug in the encoding (or the interpreter). Always a failure.
    EncodingBug(String),
    /// Not tried (a rule expected to be refuted already was, at another
    /// instance).
    Skipped(String),
}

impl Verdict {
    /// Whether the instance was proved, by Z3 or exhaustively.
    pub fn is_proved(&self) -> bool {
        matches!(self, Verdict::Proved | Verdict::ProvedExhaustive(_))
    }

    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Proved | Verdict::ProvedExhaustive(_) => "proved",
            Verdict::Refuted(_) => "refuted",
            Verdict::Unknown(_) => "unknown",
            Verdict::NotApplicable(_) => "not-applicable",
            Verdict::Invalid(_) => "invalid",
            Verdict::EncodingBug(_) => "encoding-bug",
            Verdict::Skipped(_) => "skipped",
        }
    }
}

/// Why an instance is [`Verdict::Unknown`]. Users act differently on each
/// (a longer `--timeout`, more memory, a longer `--time-limit`, or a bug
/// report), so counts and reports keep them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnknownKind {
    /// Z3 (or the exhaustive search after it) ran out of `--timeout`.
    Timeout,
    /// Z3 answered `unknown` for another reason, or the encoding cannot
    /// express the instance.
    GaveUp,
    /// Z3 ran out of memory, or building the query would exceed the
    /// encoder's work budget, which bounds its memory.
    MemoryLimit,
    /// Not decided because the run's `--time-limit` had passed.
    Budget,
}

impl UnknownKind {
    pub const ALL: [UnknownKind; 4] = [
        UnknownKind::Timeout,
        UnknownKind::GaveUp,
        UnknownKind::MemoryLimit,
        UnknownKind::Budget,
    ];

    pub fn label(self) -> &'static str {
        match self {
            UnknownKind::Timeout => "timeout",
            UnknownKind::GaveUp => "gave-up",
            UnknownKind::MemoryLimit => "memory-limit",
            UnknownKind::Budget => "budget",
        }
    }

    /// The kind of an `unknown` with this reason. The reasons are this
    /// crate's own texts (and Z3's `reason_unknown`, which names `timeout`,
    /// `canceled` and `memout`/`max. memory exceeded`).
    pub fn of_reason(why: &str) -> UnknownKind {
        let w = why.to_ascii_lowercase();
        if why.starts_with(DEADLINE_PASSED) || w.contains("time limit ran out") {
            UnknownKind::Budget
        } else if w.contains("memout")
            || w.contains("max. memory")
            || w.contains("out of memory")
            || w.contains("units of work")
        {
            UnknownKind::MemoryLimit
        } else if w.contains("timeout")
            || w.contains("timed out")
            || w.contains("canceled")
            || w.contains("did not finish")
        {
            UnknownKind::Timeout
        } else {
            UnknownKind::GaveUp
        }
    }
}

impl Verdict {
    /// Why the verdict is `unknown`; `None` for every other verdict.
    pub fn unknown_kind(&self) -> Option<UnknownKind> {
        match self {
            Verdict::Unknown(why) => Some(UnknownKind::of_reason(why)),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub millis: u128,
}

/// One hole's symbolic input and what the counterexample needs of it.
pub(crate) struct HoleInput {
    pub input: Input,
    /// `None` for constant holes (always implicit).
    pub selector: Option<BV>,
    pub ty: Type,
}

const SEL_BITS: u32 = 4;

fn sel_is(sel: &BV, s: Shape) -> Bool {
    let i = Shape::ALL.iter().position(|x| *x == s).expect("a shape") as u64;
    sel.eq(bv::num_u(i, SEL_BITS as u64))
}

/// Whether the shape takes part: all of them, unless the environment
/// variable `DIOPTER_SHAPES` lists selector indices (a diagnostic aid for
/// finding which shape makes a query hard; never set in CI).
fn shape_enabled(s: Shape) -> bool {
    match std::env::var("DIOPTER_SHAPES") {
        Ok(list) if !list.is_empty() => {
            let i = Shape::ALL.iter().position(|x| *x == s).unwrap_or(0);
            list.split(',')
                .any(|x| x.trim().parse::<usize>().ok() == Some(i))
        }
        _ => true,
    }
}

/// The input of a value hole: one alternative per shape.
fn value_hole(
    enc: &mut Encoder,
    name: &str,
    ty: &Type,
    n: u64,
    only: Option<Shape>,
    phase_value: Option<u64>,
    cons: &mut Vec<Bool>,
) -> Result<HoleInput, EncodeError> {
    let offw = enc.offw;
    let sel = BV::new_const(format!("{name}.shape"), SEL_BITS);
    cons.push(sel.bvult(bv::num_u(Shape::ALL.len() as u64, SEL_BITS as u64)));
    // Every offset into memory is `concat(bytes, phase)`: a byte offset and
    // the bit within the byte, the same `offw`-bit range as one variable
    // (every value is one concat). The encoding then writes the hole's byte
    // addresses as `bytes + c` (`Encoder::split`), and the prover can fix
    // the phase, case by case (`solve_combo`). One phase serves every memory
    // alternative of the hole: exactly one alternative is taken, and the
    // others' offsets are then unconstrained (their bounds hold for any
    // phase), so sharing loses no context. `phase_value`: the phase is that
    // numeral instead (a case of `decide_in`'s split).
    let phase = match phase_value {
        Some(v) => bv::num_u(v & 7, 3),
        None => BV::new_const(format!("{name}.phase"), 3),
    };
    let mem_off = |what: String| BV::new_const(what, offw - 3).concat(&phase);
    let zero = || bv::zeros(offw as u64);
    let single = |storage, offset| SSingle { storage, offset };
    let mut alts = Vec::new();
    if let Some(s) = only {
        cons.push(sel_is(&sel, s));
    }
    for s in Shape::ALL {
        let g = sel_is(&sel, s);
        if !shape_enabled(s) {
            cons.push(g.not());
        }
        // Restricted to one shape (see `decide_in`): the others are not built.
        if only.is_some_and(|o| o != s) {
            continue;
        }
        let singles = match s {
            Shape::Memory0 | Shape::Memory5 => {
                let a = if s == Shape::Memory0 { 0 } else { 5 };
                vec![single(
                    SStorage::Memory(a),
                    mem_off(format!("{name}.off{a}")),
                )]
            }
            Shape::Entity => {
                let v = BV::new_const(format!("%{name}"), (n + 16) as u32);
                let i = enc.add_entity(&format!("%{name}"), v);
                vec![single(
                    SStorage::Entity(i),
                    BV::new_const(format!("{name}.eoff"), offw),
                )]
            }
            Shape::Implicit => vec![single(
                SStorage::Implicit(BV::new_const(format!("{name}.value"), n as u32)),
                zero(),
            )],
            Shape::Undefined => vec![single(SStorage::Undefined, zero())],
            Shape::ImplicitAddress => {
                if !ty.is_ptr() {
                    cons.push(g.not());
                    continue;
                }
                let target = SLoc::one(vec![single(
                    SStorage::Memory(0),
                    mem_off(format!("{name}.target")),
                )]);
                vec![single(SStorage::ImplicitAddress(Box::new(target)), zero())]
            }
            Shape::Composite => {
                if n < 2 {
                    cons.push(g.not());
                    continue;
                }
                let lo = n.div_ceil(2);
                let v = BV::new_const(format!("%{name}.hi"), (n - lo) as u32);
                let i = enc.add_entity(&format!("%{name}.hi"), v);
                let p0 = SLoc::one(vec![single(
                    SStorage::Memory(0),
                    mem_off(format!("{name}.coff")),
                )]);
                let p1 = SLoc::one(vec![single(SStorage::Entity(i), zero())]);
                vec![single(
                    SStorage::Composite(vec![(p0, lo), (p1, n - lo)]),
                    zero(),
                )]
            }
            Shape::TwoSingles => {
                let v = BV::new_const(format!("%{name}.twin"), n as u32);
                let i = enc.add_entity(&format!("%{name}.twin"), v.clone());
                let m = single(SStorage::Memory(0), mem_off(format!("{name}.moff")));
                // Consistent: the memory holds the entity's bits.
                let r = enc.read(&enc.initial_state(), &SLoc::one(vec![m.clone()]), n)?;
                cons.push(g.implies(Bool::and(&[&r.err.not(), &r.value.eq(&v)])));
                vec![m, single(SStorage::Entity(i), zero())]
            }
            Shape::Failing => vec![],
        };
        for s in &singles {
            bound_offsets(s, offw, &mut *cons);
        }
        alts.push(SAlt { guard: g, singles });
    }
    // The failing shape's alternative is an empty location, never reached:
    // its guard is the failure.
    let fail = sel_is(&sel, Shape::Failing);
    alts.retain(|a| !a.singles.is_empty());
    Ok(HoleInput {
        input: Input {
            loc: SLoc { alts },
            fail,
        },
        selector: Some(sel),
        ty: ty.clone(),
    })
}

/// Keeps a hole's symbolic bit offsets (and those of the locations it is
/// made of) within ±2^(offw - 8). Unbounded, an offset near the end of the
/// `offw`-bit range wraps when the expression adds to it (a piece at
/// `?x + 8` of a memory hole), and Z3 reports differences the reference
/// interpreter (unbounded integers) does not see. Nothing is lost: `offw`
/// has 24 bits to spare over every pointer's address range and every type's
/// width, so an offset beyond the bound is outside every storage, and no
/// constant offset of the expression brings it back.
fn bound_offsets(s: &SSingle, offw: u32, cons: &mut Vec<Bool>) {
    let limit = num_bigint::BigInt::from(1) << (offw - 8);
    cons.push(s.offset.bvsge(bv::num(&-limit.clone(), offw as u64)));
    cons.push(s.offset.bvslt(bv::num(&limit, offw as u64)));
    let parts: Vec<&SLoc> = match &s.storage {
        SStorage::ImplicitAddress(target) => vec![&**target],
        SStorage::Composite(parts) => parts.iter().map(|(l, _)| l).collect(),
        _ => Vec::new(),
    };
    for l in parts {
        for a in &l.alts {
            for inner in &a.singles {
                bound_offsets(inner, offw, cons);
            }
        }
    }
}

/// Records in `out` each `(var, numeral)` that `b` (simplified) asserts as
/// `var = numeral` or `numeral = var`, at its top or in a top conjunction,
/// for `var` among `vars` and not yet in `out`.
fn pinned(b: &Bool, vars: &[BV], out: &mut Vec<(BV, BV)>) {
    let Some(name) = bv::app_name(b) else {
        return;
    };
    let kids = b.children();
    match name.as_str() {
        "and" => {
            for k in kids {
                if let Some(k) = k.as_bool() {
                    pinned(&k, vars, out);
                }
            }
        }
        "=" if kids.len() == 2 => {
            let (Some(x), Some(y)) = (kids[0].as_bv(), kids[1].as_bv()) else {
                return;
            };
            for (var, val) in [(&x, &y), (&y, &x)] {
                if vars.contains(var)
                    && bv::as_biguint(val).is_some()
                    && !out.iter().any(|(v, _)| v == var)
                {
                    out.push((var.clone(), val.simplify()));
                }
            }
        }
        _ => {}
    }
}

/// The type the first `DIOpReferrer`/`DIOpTypeObject` names, if any.
fn first_type(exprs: &[&Expr], want: fn(&Op) -> Option<&Type>) -> Option<Type> {
    exprs.iter().flat_map(|e| e.ops()).find_map(want).cloned()
}

pub(crate) struct Query {
    pub enc: Encoder,
    pub holes: Vec<HoleInput>,
    pub referrer: Option<HoleInput>,
    pub object: Option<HoleInput>,
    pub inputs: Inputs,
    pub write: Option<BV>,
    pub constraints: Vec<Bool>,
    /// Each value hole's bits as read from its location (a term over the
    /// hole's storage shapes and memory), with a fresh variable that may
    /// stand for it in lemmas: see `decide_in`.
    pub abstractions: Vec<(BV, BV)>,
    /// The part of `constraints` about constant holes alone (their
    /// definitions and the preconditions): enough for lemmas about offsets
    /// and constants, and far smaller.
    pub const_constraints: Vec<Bool>,
    /// Constant holes whose definition is a numeral, with that numeral: every
    /// query substitutes them (and asserts the equality, for the model), so
    /// that offsets the expression adds are numerals once simplified.
    pub const_fixed: Vec<(BV, BV)>,
    pub mismatch: Bool,
    /// The part of `mismatch` about failure alone.
    pub fail_mismatch: Bool,
    /// Both succeed and their locations differ (in some offset, value or
    /// shape); `None` when their structures differ.
    pub differs_as_location: Option<Bool>,
}

/// Equal locations, when `a` and `b` have the same structure (alternatives,
/// storage kinds, parts): their guards, offsets and implicit values are
/// equal. `None` when the structures differ.
fn same_location(a: &SLoc, b: &SLoc) -> Option<Bool> {
    if a.alts.len() != b.alts.len() {
        return None;
    }
    let mut eqs = Vec::new();
    for (x, y) in a.alts.iter().zip(&b.alts) {
        if x.singles.len() != y.singles.len() {
            return None;
        }
        eqs.push(x.guard.eq(&y.guard));
        for (p, q) in x.singles.iter().zip(&y.singles) {
            eqs.push(p.offset.eq(&q.offset));
            match (&p.storage, &q.storage) {
                (SStorage::Memory(m), SStorage::Memory(n)) if m == n => {}
                (SStorage::Entity(m), SStorage::Entity(n)) if m == n => {}
                (SStorage::Undefined, SStorage::Undefined) => {}
                (SStorage::Implicit(v), SStorage::Implicit(w)) if v.get_size() == w.get_size() => {
                    eqs.push(v.eq(w))
                }
                (SStorage::ImplicitAddress(t), SStorage::ImplicitAddress(u)) => {
                    eqs.push(same_location(t, u)?)
                }
                (SStorage::Composite(ps), SStorage::Composite(qs)) if ps.len() == qs.len() => {
                    for ((pl, pn), (ql, qn)) in ps.iter().zip(qs) {
                        if pn != qn {
                            return None;
                        }
                        eqs.push(same_location(pl, ql)?);
                    }
                }
                _ => return None,
            }
        }
    }
    Some(bv::and(&eqs))
}

pub(crate) fn arg_infos(inst: &Instance) -> Vec<ArgInfo> {
    inst.holes
        .iter()
        .map(|h| ArgInfo {
            ty: Some(h.ty.clone()),
            bits: None,
            poison: false,
        })
        .collect()
}

pub(crate) fn env<'a>(inst: &'a Instance, dl: &'a DataLayout, args: &'a [ArgInfo]) -> Env<'a> {
    Env {
        dialect: inst.dialect,
        dl,
        types: &inst.types,
        args: Some(args),
        referrer: &ReferrerInfo::Absent,
        var_bits: None,
    }
}

/// The query of `inst`. `only`, when given, restricts each value hole (the
/// instance's, then the referrer's and the object's) to one shape (`None`:
/// every shape), building no other alternative, and fixes its phase (`None`:
/// a variable). `pins`: constant holes' values (`.value` variables) to
/// build as the given numerals (from another query's `const_fixed`).
fn build(
    inst: &Instance,
    dl: &DataLayout,
    only: Option<&[(Option<Shape>, Option<u64>)]>,
    pins: &[(BV, BV)],
    cfg: &ProveConfig,
) -> Result<Query, EncodeError> {
    let mut nth = 0usize;
    let mut only_next = || {
        let s = only
            .and_then(|o| o.get(nth).copied())
            .unwrap_or((None, None));
        nth += 1;
        s
    };
    let args = arg_infos(inst);
    let env = env(inst, dl, &args);
    let referrer_ty = first_type(&[&inst.lhs, &inst.rhs], |o| match o {
        Op::Referrer(t) => Some(t),
        _ => None,
    });
    let object_ty = first_type(&[&inst.lhs, &inst.rhs], |o| match o {
        Op::TypeObject(t) => Some(t),
        _ => None,
    });
    let mut extra: Vec<Type> = inst.holes.iter().map(|h| h.ty.clone()).collect();
    extra.extend(referrer_ty.iter().cloned());
    extra.extend(object_ty.iter().cloned());
    let offw = Encoder::offset_width(dl, &inst.types, &[&inst.lhs, &inst.rhs], &extra);
    let mut enc = Encoder::new(dl.clone(), inst.types.clone(), offw);
    enc.budget = cfg.work_budget();
    enc.deadline = cfg.deadline;
    let mut cons = Vec::new();
    let size = |t: &Type| -> Result<u64, EncodeError> {
        match dl.bitsizeof(t, &inst.types) {
            Ok(0) => Err(EncodeError::Unsupported(format!(
                "a hole of type `{t}` has no bits"
            ))),
            Ok(n) => Ok(n),
            Err(e) => Err(EncodeError::IllFormed {
                op: 0,
                message: e.0,
            }),
        }
    };
    let mut holes = Vec::new();
    let mut inputs = Inputs::default();
    for (k, h) in inst.holes.iter().enumerate() {
        let n = size(&h.ty)?;
        let hi = match h.kind {
            HoleKind::Expr => {
                let (o, ph) = only_next();
                value_hole(&mut enc, &h.name, &h.ty, n, o, ph, &mut cons)?
            }
            HoleKind::Const => {
                let v = BV::new_const(format!("{}.value", h.name), n as u32);
                let v = match pins.iter().find(|(x, _)| *x == v) {
                    Some((_, numeral)) => numeral.clone(),
                    None => v,
                };
                HoleInput {
                    input: Input {
                        loc: SLoc::one(vec![SSingle {
                            storage: SStorage::Implicit(v),
                            offset: bv::zeros(offw as u64),
                        }]),
                        fail: bv::ff(),
                    },
                    selector: None,
                    ty: h.ty.clone(),
                }
            }
        };
        inputs.args.insert(k as u64, hi.input.clone());
        holes.push(hi);
    }
    let mut special = |name: &str,
                       t: &Option<Type>,
                       enc: &mut Encoder,
                       cons: &mut Vec<Bool>|
     -> Result<Option<HoleInput>, EncodeError> {
        match t {
            None => Ok(None),
            Some(t) => {
                let (o, ph) = only_next();
                Ok(Some(value_hole(enc, name, t, size(t)?, o, ph, cons)?))
            }
        }
    };
    let referrer = special("referrer", &referrer_ty, &mut enc, &mut cons)?;
    let object = special("object", &object_ty, &mut enc, &mut cons)?;
    inputs.referrer = referrer.as_ref().map(|h| h.input.clone());
    inputs.object = object.as_ref().map(|h| h.input.clone());
    inputs.lane = Some(BV::new_const("lane", 64));

    // Constant holes: definitions and preconditions.
    let const_value = |holes: &[HoleInput], k: usize| -> Option<BV> {
        let h = inst.holes.get(k)?;
        if h.kind != HoleKind::Const {
            return None;
        }
        match &holes
            .get(k)?
            .input
            .loc
            .alts
            .first()?
            .singles
            .first()?
            .storage
        {
            SStorage::Implicit(v) => Some(v.clone()),
            _ => None,
        }
    };
    let mut const_cons = Vec::new();
    let mut const_fixed: Vec<(BV, BV)> = Vec::new();
    for (k, t) in &inst.defs {
        let v = smt::term::encode(t, &|j| const_value(&holes, j))?;
        let Some(c) = const_value(&holes, *k) else {
            return Err(EncodeError::Unsupported(format!(
                "a definition of hole {k}, which is not a constant"
            )));
        };
        if v.get_size() != c.get_size() {
            return Err(EncodeError::Unsupported(format!(
                "the definition of hole {k} has {} bits, the hole {}",
                v.get_size(),
                c.get_size()
            )));
        }
        // A computed constant holds its term itself rather than a fresh
        // variable constrained to equal it: the same formula, but the right
        // side then shares the left side's terms (`fold-div-float`: both
        // sides divide by the same `fp.div` term, which simplification
        // equates, instead of a fresh constant the solver must prove equal
        // to a second copy of the division circuit). The variable and its
        // equation stay only when another definition names the hole (it may
        // have been encoded with the variable already).
        if inst.defs.iter().any(|(_, u)| mentions(u, *k)) {
            const_cons.push(c.eq(&v));
        }
        let input = Input {
            loc: SLoc::one(vec![SSingle {
                storage: SStorage::Implicit(v),
                offset: bv::zeros(offw as u64),
            }]),
            fail: bv::ff(),
        };
        inputs.args.insert(*k as u64, input.clone());
        holes[*k].input = input;
    }
    for p in &inst.pre {
        let v = smt::term::encode(p, &|j| const_value(&holes, j))?;
        const_cons.push(v.eq(bv::num_u(1, v.get_size() as u64)));
    }
    // Constants the definitions and preconditions pin to a numeral (`?o1 ==
    // width(P1)`): `const = numeral`, or a conjunction holding one.
    // (A computed constant's entry is its term; only the others' variables can be pinned.)
    let const_vars: Vec<BV> = (0..inst.holes.len())
        .filter_map(|k| const_value(&holes, k))
        .collect();
    for c in &const_cons {
        pinned(&c.simplify(), &const_vars, &mut const_fixed);
    }
    cons.extend(const_cons.iter().cloned());

    let st = enc.initial_state();
    let mut abstractions = Vec::new();
    for (h, hi) in inst.holes.iter().zip(&holes) {
        if h.kind == HoleKind::Expr {
            let r = enc.read(&st, &hi.input.loc, size(&h.ty)?)?;
            let v = BV::fresh_const(&format!("{}.bits", h.name), r.value.get_size());
            abstractions.push((r.value, v));
        }
    }
    let lhs = enc.eval(&inst.lhs, &env, &inputs, &st)?;
    let rhs = enc.eval(&inst.rhs, &env, &inputs, &st)?;
    // Only contexts that keep the spec's promise.
    cons.push(lhs.incons.not());
    cons.push(rhs.incons.not());

    let (ok_l, ok_r) = (lhs.fail.not(), rhs.fail.not());
    let both = Bool::and(&[&ok_l, &ok_r]);
    let lossy = inst.relation == Relation::Lossy;
    // The failure part first (`fail_mismatch` is `diffs[0]`). For `Lossy`:
    // the left side fails while the right side gives something, a value
    // read or an accepted write.
    let mut diffs = Vec::new();
    let mut write = None;
    if !lossy {
        diffs.push(lhs.fail.eq(&rhs.fail).not());
    } else if let Some(r) = rhs.result.as_ref().filter(|r| r.bits > 0) {
        let w = BV::new_const("written", r.bits as u32);
        let rr = enc.read(&st, &r.loc, r.bits)?;
        cons.push(Bool::and(&[&ok_r, &rr.incons]).not());
        let (_, refr) = enc.write(&st, &r.loc, &w)?;
        let gives = Bool::or(&[&rr.err.not(), &refr.not()]);
        diffs.push(Bool::and(&[&lhs.fail, &ok_r, &gives]));
        write = Some(w);
    } else {
        diffs.push(Bool::and(&[&lhs.fail, &ok_r]));
    }
    if let (Some(l), Some(r)) = (&lhs.result, &rhs.result) {
        if l.ty != r.ty || l.bits != r.bits || l.fragment != r.fragment {
            diffs.push(both.clone());
        } else if l.bits > 0 {
            let rl = enc.read(&st, &l.loc, l.bits)?;
            let rr = enc.read(&st, &r.loc, r.bits)?;
            cons.push(Bool::and(&[&ok_l, &rl.incons]).not());
            cons.push(Bool::and(&[&ok_r, &rr.incons]).not());
            let read_diff = if lossy {
                // The right side reads a value the left side does not.
                Bool::and(&[
                    &rr.err.not(),
                    &Bool::or(&[&rl.err, &rl.value.eq(&rr.value).not()]),
                ])
            } else {
                Bool::or(&[
                    &rl.err.eq(&rr.err).not(),
                    &Bool::and(&[&rl.err.not(), &rl.value.eq(&rr.value).not()]),
                ])
            };
            diffs.push(Bool::and(&[&both, &read_diff]));
            let w = write
                .clone()
                .unwrap_or_else(|| BV::new_const("written", l.bits as u32));
            let (sl, refl) = enc.write(&st, &l.loc, &w)?;
            let (sr, refr) = enc.write(&st, &r.loc, &w)?;
            let states = smt::same_state(&enc, &sl, &sr).not();
            let accepted_both = Bool::and(&[&refl.not(), &refr.not()]);
            let write_diff = match inst.relation {
                Relation::Equivalent => Bool::or(&[
                    &refl.eq(&refr).not(),
                    &Bool::and(&[&accepted_both, &states]),
                ]),
                // `Lossy` as `ReadOnly`: the right side may refuse.
                Relation::ReadOnly | Relation::Lossy => Bool::or(&[
                    &Bool::and(&[&refl, &refr.not()]),
                    &Bool::and(&[&accepted_both, &states]),
                ]),
            };
            diffs.push(Bool::and(&[&both, &write_diff]));
            write = Some(w);
        }
    }
    // When both results are locations of the same structure, equal offsets
    // and values make reads and writes agree: see `decide`.
    let same_loc = match (&lhs.result, &rhs.result) {
        (Some(l), Some(r)) if l.ty == r.ty && l.fragment == r.fragment => {
            same_location(&l.loc, &r.loc).map(|eq| Bool::and(&[&both, &eq.not()]))
        }
        _ => None,
    };
    let fail_mismatch = bv::or(&diffs[..1]);
    let mismatch = bv::or(&diffs);
    // A deadline passed while building may have left dummy bytes in the
    // terms (`Encoder::deadline`): such a query must not reach Z3.
    enc.within_budget()?;
    // Last, once every read of the initial memory is encoded.
    let read = enc.initial_count();
    if read > smt::MAX_INITIAL_BYTES {
        return Err(EncodeError::Unsupported(format!(
            "{read} bytes read from memory, more than the {} the encoding relates pairwise",
            smt::MAX_INITIAL_BYTES
        )));
    }
    cons.extend(enc.memory_axioms());
    Ok(Query {
        fail_mismatch,
        differs_as_location: same_loc,
        enc,
        holes,
        referrer,
        object,
        inputs,
        write,
        constraints: cons,
        const_constraints: const_cons,
        const_fixed,
        abstractions,
        mismatch,
    })
}

/// Whether term `t` names constant hole `k`.
fn mentions(t: &Term, k: usize) -> bool {
    match t {
        Term::Hole(j) => *j == k,
        Term::Lit { .. } => false,
        Term::Un(_, a) | Term::Resize(_, _, a) => mentions(a, k),
        Term::Bin(_, a, b) => mentions(a, k) || mentions(b, k),
        Term::Float { args, .. } => args.iter().any(|a| mentions(a, k)),
        Term::Ite(c, a, b) => mentions(c, k) || mentions(a, k) || mentions(b, k),
    }
}

/// Decides one instance.
pub fn prove_instance(inst: &Instance, cfg: &ProveConfig) -> Outcome {
    prove_instance_in(inst, cfg, &DataLayout::llvm_default())
}

/// [`prove_instance`] under the data layout `dl` (pointer widths per
/// address space), as `diopter validate` needs for a target's expressions.
pub fn prove_instance_in(inst: &Instance, cfg: &ProveConfig, dl: &DataLayout) -> Outcome {
    let start = Instant::now();
    let verdict = decide(inst, cfg, dl);
    Outcome {
        verdict,
        millis: start.elapsed().as_millis(),
    }
}

fn decide(inst: &Instance, cfg: &ProveConfig, dl: &DataLayout) -> Verdict {
    if cfg.past_deadline() {
        return Verdict::Unknown(DEADLINE_PASSED.into());
    }
    let args = arg_infos(inst);
    let env = env(inst, dl, &args);
    if let Err(d) = check::check_expr(&inst.lhs, &env) {
        return Verdict::NotApplicable(format!(
            "the left side is not well-formed: {}",
            first_message(&d)
        ));
    }
    if let Err(d) = check::check_expr(&inst.rhs, &env) {
        return Verdict::Invalid(format!(
            "the right side is not well-formed: {}",
            first_message(&d)
        ));
    }
    // Every query runs on the z3 crate's context of this thread, created by
    // the thread's first query and reused by every later one: creating a
    // context costs more than deciding most instances. Queries share nothing
    // else (each has its own solver), and a term no query holds any more is
    // freed by Z3's reference counting. Counterexamples need models, so model
    // generation is set on whichever context is the thread's now (a caller's
    // `z3::with_z3_config` may have put one with it off in place).
    z3::Context::thread_local().update_bool_param_value("model", true);
    match decide_in(inst, dl, cfg) {
        Verdict::Unknown(why) if why.starts_with("Z3") => {
            exhaustive(inst, dl, cfg).unwrap_or(Verdict::Unknown(why))
        }
        v => v,
    }
}

/// The exhaustive decision alone (what [`prove_instance`] falls back on when
/// Z3 gives up): `None` when it does not apply. For tests and diagnostics.
pub fn decide_exhaustively(inst: &Instance, cfg: &ProveConfig) -> Option<Verdict> {
    z3::Context::thread_local().update_bool_param_value("model", true);
    exhaustive(inst, &DataLayout::llvm_default(), cfg)
}

/// The maximal subterms of `f` that mention some of `vars` and no other
/// constant: `f` depends on the values of `vars` only through them (every
/// occurrence of a variable lies inside one). `None` when `f` is too large
/// to walk (then every input is simplified whole).
fn value_terms(f: &Bool, vars: &[z3::ast::Dynamic]) -> Option<Vec<z3::ast::Dynamic>> {
    use std::collections::HashMap;
    use z3::ast::Dynamic;
    // (only numerals and `vars` below, some of `vars` below) per node.
    let mut memo: HashMap<Dynamic, (bool, bool)> = HashMap::new();
    let mut out: Vec<Dynamic> = Vec::new();
    let mut visited: std::collections::HashSet<Dynamic> = std::collections::HashSet::new();
    const MAX_NODES: usize = 1_000_000;
    // Post-order, iteratively (formulas can be deep).
    let root = Dynamic::from_ast(f);
    let mut stack: Vec<(Dynamic, bool)> = vec![(root.clone(), false)];
    while let Some((t, expanded)) = stack.pop() {
        if memo.contains_key(&t) {
            continue;
        }
        if memo.len() > MAX_NODES {
            return None;
        }
        if !t.is_app() {
            // Quantifiers, bound variables: not pure.
            memo.insert(t, (false, false));
            continue;
        }
        let kids = t.children();
        if kids.is_empty() {
            let v = if vars.contains(&t) {
                (true, true)
            } else {
                (t.kind() == z3::AstKind::Numeral, false)
            };
            memo.insert(t, v);
            continue;
        }
        if !expanded {
            stack.push((t, true));
            for k in kids {
                if !memo.contains_key(&k) {
                    stack.push((k, false));
                }
            }
            continue;
        }
        let (mut pure, mut dep) = (true, false);
        for k in &kids {
            let (p, d) = memo.get(k).copied().unwrap_or((false, false));
            pure &= p;
            dep |= d;
        }
        memo.insert(t, (pure, dep));
    }
    // The pure, dependent children of impure nodes (or the root itself).
    let mut todo = vec![root];
    while let Some(t) = todo.pop() {
        if !visited.insert(t.clone()) {
            continue;
        }
        let (pure, dep) = memo.get(&t).copied().unwrap_or((false, false));
        if pure {
            if dep {
                out.push(t);
            }
            continue;
        }
        if t.is_app() {
            todo.extend(t.children());
        }
    }
    Some(out)
}

/// At most this many bits of hole values are decided by trying every input.
pub const MAX_EXHAUSTIVE_BITS: u64 = 16;

/// The least time trying every input gets (`exhaustive`).
/// A half or bfloat value hole (65536 inputs, each simplified through
/// every storage shape) takes some 10 s on a loaded two-core machine.
pub const MIN_EXHAUSTIVE_MS: u32 = 30_000;

/// An instance Z3 gave up on, decided by trying every value of its holes,
/// when they total at most [`MAX_EXHAUSTIVE_BITS`] bits (an `i8`, `i16`,
/// `half` or `bfloat` hole, or two `i8`s). `None` when that does not apply
/// (more bits, a referrer or object, a query that cannot be built).
///
/// The variables enumerated are each constant hole's value and, for each
/// value hole, the bits read from its location: that read term is replaced
/// by a fresh variable throughout the query, which only adds models (any
/// model of the query gives one of the replaced query, the variable taking
/// the read's value), so a replaced query without models for every value
/// proves the instance. Per value, the numerals are substituted and the
/// query simplified: the float and integer arithmetic on the values folds
/// to numerals, and most cases simplify to `false` with no solver (an
/// input whose value-only subterms, [`value_terms`], take values already
/// seen in such a case is skipped without simplifying). A case
/// that does not is solved exactly: the original query (nothing replaced)
/// with each hole's value pinned. A model there is a counterexample, which
/// the reference interpreter must confirm (`refutation`); `unsat` settles
/// the case; Z3 giving up leaves the instance `unknown`. The whole search
/// has `cfg.timeout_ms` of its own, but at least [`MIN_EXHAUSTIVE_MS`]: a
/// tiny timeout for Z3 should not keep a small instance undecided.
fn exhaustive(inst: &Instance, dl: &DataLayout, cfg: &ProveConfig) -> Option<Verdict> {
    let start = Instant::now();
    let budget_ms = cfg.timeout_ms.max(MIN_EXHAUSTIVE_MS);
    let own = start + std::time::Duration::from_millis(budget_ms as u64);
    let deadline = cfg.deadline.map_or(own, |d| d.min(own));
    let q = build(inst, dl, None, &[], cfg).ok()?;
    if q.referrer.is_some() || q.object.is_some() {
        return None;
    }
    // (variable, term it stands for) per enumerated input.
    let mut vars: Vec<(BV, Option<BV>)> = Vec::new();
    let mut reads = q.abstractions.iter();
    for (h, hi) in inst.holes.iter().zip(&q.holes) {
        match h.kind {
            HoleKind::Expr => {
                let (read, fresh) = reads.next()?;
                vars.push((fresh.clone(), Some(read.clone())));
            }
            HoleKind::Const => {
                let n = q_bits(&q, hi) as u32;
                let v = BV::new_const(format!("{}.value", h.name), n);
                if !q.const_fixed.iter().any(|(x, _)| *x == v) {
                    vars.push((v, None));
                }
            }
        }
    }
    let bits: u64 = vars.iter().map(|(v, _)| v.get_size() as u64).sum();
    if bits > MAX_EXHAUSTIVE_BITS {
        return None;
    }
    let exact = bv::and(&[bv::and(&q.constraints), q.mismatch.clone()]);
    let fixed_pairs: Vec<(&BV, &BV)> = q.const_fixed.iter().map(|(a, b)| (a, b)).collect();
    let exact = exact.substitute(&fixed_pairs);
    let abstracted: Vec<(&BV, &BV)> = vars
        .iter()
        .filter_map(|(v, r)| r.as_ref().map(|r| (r, v)))
        .collect();
    let replaced = exact.substitute(&abstracted).simplify();
    let var_set: Vec<z3::ast::Dynamic> = vars
        .iter()
        .map(|(v, _)| z3::ast::Dynamic::from_ast(v))
        .collect();
    let pure_terms = value_terms(&replaced, &var_set);
    let mut seen: std::collections::HashSet<Vec<String>> = std::collections::HashSet::new();
    let total = 1u64 << bits;
    for input in 0..total {
        if Instant::now() >= deadline {
            return Some(Verdict::Unknown(format!(
                "Z3 gave up, and trying every input did not finish: {input} of {total} in {} ms",
                deadline.saturating_duration_since(start).as_millis()
            )));
        }
        let mut shift = 0u64;
        let numerals: Vec<BV> = vars
            .iter()
            .map(|(v, _)| {
                let w = v.get_size() as u64;
                let x = (input >> shift) & ((1u64 << w) - 1);
                shift += w;
                bv::num_u(x, w)
            })
            .collect();
        let pairs: Vec<(&BV, &BV)> = vars.iter().map(|(v, _)| v).zip(&numerals).collect();
        // The replaced query depends on the input only through
        // `value_terms`: an input that gives them the values of one whose
        // replaced query simplified to `false` simplifies to `false` too.
        // (Not one settled by the exact query below: the replaced query
        // has more models than the exact one.)
        let key: Option<Vec<String>> = pure_terms.as_ref().map(|terms| {
            terms
                .iter()
                .map(|t| t.substitute(&pairs).simplify().to_string())
                .collect()
        });
        if key.as_ref().is_some_and(|k| seen.contains(k)) {
            continue;
        }
        let case = replaced.substitute(&pairs).simplify();
        if case.as_bool() == Some(false) {
            if let Some(k) = key {
                seen.insert(k);
            }
            continue;
        }
        // Exactly: the original query with the values pinned.
        let mut pins: Vec<Bool> = Vec::new();
        for ((v, read), x) in vars.iter().zip(&numerals) {
            pins.push(read.as_ref().unwrap_or(v).eq(x));
        }
        pins.push(exact.clone());
        let f = bv::and(&pins);
        let budget = (deadline
            .saturating_duration_since(Instant::now())
            .as_millis() as u32)
            .max(1);
        match solve(&f, &q.const_fixed, budget, &q) {
            Solved::Unsat => {}
            Solved::Model(m) => return Some(refutation(inst, dl, &q, &m)),
            Solved::Gave(why) => {
                return Some(Verdict::Unknown(format!(
                    "Z3 gave up, and again on input {input} of {total} tried exhaustively: {why}"
                )))
            }
        }
    }
    Some(Verdict::ProvedExhaustive(total))
}

fn decide_in(inst: &Instance, dl: &DataLayout, cfg: &ProveConfig) -> Verdict {
    // Split first only with one value hole: with more, the combinations of
    // shapes and phases multiply (81 shapes x 64 phases for two), and the
    // query over every shape (with the lemma below) decides such instances
    // far sooner.
    let value_holes = inst
        .holes
        .iter()
        .filter(|h| h.kind == HoleKind::Expr)
        .count()
        + usize::from(
            inst.lhs
                .ops()
                .chain(inst.rhs.ops())
                .any(|o| matches!(o, Op::Referrer(_))),
        )
        + usize::from(
            inst.lhs
                .ops()
                .chain(inst.rhs.ops())
                .any(|o| matches!(o, Op::TypeObject(_))),
        );
    if cfg.split_first && value_holes == 1 {
        return decide_split(inst, dl, cfg);
    }
    if cfg.values_first && value_holes > 0 {
        if let Some(v) = values_first(inst, dl, cfg) {
            return v;
        }
    }
    let q = match build(inst, dl, None, &[], cfg) {
        Ok(q) => q,
        Err(EncodeError::Unsupported(m)) => return Verdict::Unknown(format!("not encodable: {m}")),
        Err(e @ EncodeError::IllFormed { .. }) => return Verdict::Invalid(e.to_string()),
    };
    let constraints = bv::and(&q.constraints);
    let mut formula = bv::and(&[constraints.clone(), q.mismatch.clone()]);
    // A cheap lemma first: when both sides yield locations of the same
    // structure that are provably equal whenever both succeed (pure
    // bit-vector arithmetic on offsets and constants, no memory), reads and
    // writes agree and only failure can tell the sides apart. The lemma
    // assumes only the constants' constraints: what holds under fewer
    // assumptions holds under all of them, and the rest (memory, shapes)
    // would only make the query harder.
    if let Some(d) = &q.differs_as_location {
        // The holes' bits read are fresh variables here: the lemma then
        // claims more (for all bits, not only those some storage holds), so
        // proving it still proves the instance, and the terms that read
        // memory and pick shapes are gone.
        let pairs: Vec<(&BV, &BV)> = q.abstractions.iter().map(|(a, b)| (a, b)).collect();
        let d = d.substitute(&pairs);
        let lemma = bv::and(&[bv::and(&q.const_constraints), d]);
        // Half the time: a lemma that holds settles the instance at once.
        // A lemma about shifts by symbolic amounts is split on an amount
        // instead (see `shift_cases`), and the split gets the whole time:
        // each case is small, but there are as many as the shift is wide.
        let amounts = shift_amounts(&q, &pairs);
        let proved = if shift_cases(&amounts, &[]).is_none() {
            matches!(
                solve(&lemma, &q.const_fixed, (cfg.timeout_ms / 2).max(1), &q),
                Solved::Unsat
            )
        } else {
            matches!(
                solve_cases(&lemma, &amounts, &q.const_fixed, cfg.timeout_ms.max(1)),
                Solved::Unsat
            )
        };
        if proved {
            formula = bv::and(&[constraints.clone(), q.fail_mismatch.clone()]);
        }
    }
    // Often the sides' terms coincide once simplified (both fail alike, read
    // the same term): then no solver is needed.
    let formula = formula.simplify();
    if formula.as_bool() == Some(false) {
        return Verdict::Proved;
    }
    let deadline = Instant::now() + std::time::Duration::from_millis(cfg.timeout_ms.max(1) as u64);
    // First one query over every shape at once, with a quarter of the time:
    // most instances are decided so.
    let first = (cfg.timeout_ms / 4).max(1);
    let why = match solve(&formula, &q.const_fixed, first, &q) {
        Solved::Unsat => return Verdict::Proved,
        Solved::Model(m) => return refutation(inst, dl, &q, &m),
        Solved::Gave(why) => {
            if let Some(v) = why.strip_prefix("final:") {
                return Verdict::Unknown(v.to_string());
            }
            why
        }
    };
    // Then one query per combination of shapes, each simplified with its
    // selectors fixed, which prunes every other shape's terms (for memory,
    // `solve_combo` (split first) does better).
    let sels: Vec<&BV> = q
        .holes
        .iter()
        .chain(q.referrer.iter())
        .chain(q.object.iter())
        .filter_map(|h| h.selector.as_ref())
        .collect();
    let shapes: Vec<u64> = Shape::ALL
        .iter()
        .enumerate()
        .filter(|(_, s)| shape_enabled(**s))
        .map(|(i, _)| i as u64)
        .collect();
    let combos = (shapes.len() as u64)
        .checked_pow(sels.len() as u32)
        .unwrap_or(u64::MAX);
    if sels.is_empty() || combos > MAX_SPLIT {
        return Verdict::Unknown(format!("Z3: {why} ({} ms)", cfg.timeout_ms));
    }
    let mut idx = vec![0usize; sels.len()];
    let mut unknown = 0usize;
    let mut left = combos;
    loop {
        let mut fixed: Vec<(BV, BV)> = sels
            .iter()
            .zip(&idx)
            .map(|(sel, &i)| ((*sel).clone(), bv::num_u(shapes[i], SEL_BITS as u64)))
            .collect();
        fixed.extend(q.const_fixed.iter().cloned());
        let now = Instant::now();
        if now >= deadline {
            return Verdict::Unknown(format!(
                "Z3: timeout after {} ms (split by shape)",
                cfg.timeout_ms
            ));
        }
        let budget = ((deadline - now).as_millis() as u64 / left).max(1) as u32;
        match solve(&formula, &fixed, budget, &q) {
            Solved::Unsat => {}
            Solved::Model(m) => return refutation(inst, dl, &q, &m),
            Solved::Gave(_) => unknown += 1,
        }
        left -= 1;
        if !next_combination(&mut idx, shapes.len()) {
            return combinations_verdict(unknown, combos, cfg.timeout_ms);
        }
    }
}

/// A refutation looked for with every value hole an implicit value, before
/// the query over every shape: a model there is a model of the whole query
/// (the implicit value is one of the shapes a hole may take), and this query
/// is far smaller. Translation validation's refutations (a pass that changed
/// a value) all have one with plain values; over every shape, Z3 took 2-3 s
/// each to find a model among the memory and composite alternatives of
/// seven holes (debugified `BDCE/basic.ll`: 87 such pairs, 137 s), against
/// milliseconds here. `None` when it finds none (proved over implicit
/// values only proves nothing: the whole query follows), within an eighth
/// of the time (at most 1 s), or when the restricted query cannot be built.
fn values_first(inst: &Instance, dl: &DataLayout, cfg: &ProveConfig) -> Option<Verdict> {
    let implicit = vec![(Some(Shape::Implicit), None); inst.holes.len() + 2];
    let q = build(inst, dl, Some(&implicit), &[], cfg).ok()?;
    let formula = bv::and(&[bv::and(&q.constraints), q.mismatch.clone()]).simplify();
    if formula.as_bool() == Some(false) {
        return None;
    }
    match solve(
        &formula,
        &q.const_fixed,
        (cfg.timeout_ms / 8).clamp(1, 1000),
        &q,
    ) {
        Solved::Model(m) => Some(refutation(inst, dl, &q, &m)),
        Solved::Unsat | Solved::Gave(_) => None,
    }
}

/// One case of a case split: a condition, and a term the condition fixes to
/// a numeral (substituted before solving, so that simplification sees it).
struct Case {
    fixes: Option<(BV, BV)>,
    cond: Bool,
}

/// The shift amounts of a query's lemma, with the lemma's abstractions
/// `pairs` applied and simplified, each with its shift's width: what
/// [`solve_cases`] splits on.
fn shift_amounts(q: &Query, pairs: &[(&BV, &BV)]) -> Vec<(BV, u64)> {
    q.enc
        .shift_amounts
        .borrow()
        .iter()
        .map(|(t, w)| (t.substitute(pairs).simplify(), *w))
        .collect()
}

/// An exhaustive case split on a shift amount, for queries whose shifts by
/// symbolic amounts defeat the bit-blaster: `x << a << b` against
/// `x << (a + b)` at 64 bits is a miter of barrel shifters that takes Z3
/// seconds, while with `a` fixed the first shift is wiring and the query
/// takes milliseconds.
///
/// The amount split on is the first of `amounts` (in the order the encoding
/// built them: the left side's innermost shift first) that is not a numeral
/// and not one of `done` (already split on, in its `>= w` case), `t` of a
/// `w`-bit shift. The cases are `t == 0`, `t == 1`, ..., `t == w - 1` and
/// `t >= w` (unsigned): every value of `t` lies in exactly one of them, so a
/// formula is unsatisfiable exactly when it is unsatisfiable in every case,
/// and a model of a case is a model of the formula. No cases (no symbolic
/// shift amount left, or a shift wider than [`MAX_SHIFT_CASES`]) means no
/// split. Returns the amount split on, and the cases.
fn shift_cases(amounts: &[(BV, u64)], done: &[BV]) -> Option<(BV, Vec<Case>)> {
    let (t, w) = amounts
        .iter()
        .find(|(t, _)| bv::as_biguint(t).is_none() && !done.contains(t))?;
    if w + 1 > MAX_SHIFT_CASES {
        return None;
    }
    let n = t.get_size() as u64;
    let mut cases: Vec<Case> = (0..*w)
        .map(|k| {
            let k = bv::num_u(k, n);
            Case {
                cond: t.eq(&k),
                fixes: Some((t.clone(), k)),
            }
        })
        .collect();
    cases.push(Case {
        cond: t.bvuge(bv::num_u(*w, n)),
        fixes: None,
    });
    Some((t.clone(), cases))
}

/// At most this many cases in a split on a shift amount (a 128-bit shift).
const MAX_SHIFT_CASES: u64 = 129;

/// How many shift amounts [`solve_cases`] splits on, one inside the other:
/// two settle `x << a << b` against `x << (a + b)` (each case is wiring,
/// and most simplify to `false` with no solver); a third would multiply
/// the cases by the width once more.
const MAX_SHIFT_SPLIT_DEPTH: usize = 2;

/// `formula` decided by case splits on its shift amounts (`amounts`, see
/// [`shift_cases`]), within `timeout_ms` in all: unsat when every case is,
/// a model when a case has one, else the reason Z3 gave up. A case that
/// still shifts by a symbolic amount is split again on that amount, up to
/// [`MAX_SHIFT_SPLIT_DEPTH`] amounts deep. Most cases simplify to `false`;
/// the others (an amount's `>= w` case) go to one [`Incremental`] solver
/// under the case's conditions, not to a fresh solver each: on an idle
/// machine that took `shl-shl-const` at i64 from a 10 s timeout of the
/// lemma (one level, fresh solvers) to 0.4 s. Each case may use all the time
/// left: the cases differ widely in difficulty (a shift by a small fixed
/// amount leaves more to decide than one by a large amount), and once one
/// case gives up the formula is not proved, so the rest are not tried.
fn solve_cases(
    formula: &Bool,
    amounts: &[(BV, u64)],
    fixed: &[(BV, BV)],
    timeout_ms: u32,
) -> Solved {
    let deadline = Instant::now() + std::time::Duration::from_millis(timeout_ms as u64);
    // Simplified once, so that the amounts (simplified) occur in it as such.
    let formula = formula.simplify();
    let inc = Incremental::new(&formula, fixed);
    solve_split(&formula, amounts, &[], &[], &inc, deadline)
}

/// One solver holding a formula, asked once per case of a split with the
/// case's conditions as assumptions: what it learns in one case (the
/// circuit of the shifts, lemmas about the other operands) serves the next.
struct Incremental {
    solver: Solver,
}

impl Incremental {
    fn new(formula: &Bool, fixed: &[(BV, BV)]) -> Incremental {
        let solver = Solver::new_for_logic("QF_FPBV").unwrap_or_default();
        let pairs: Vec<(&BV, &BV)> = fixed.iter().map(|(a, b)| (a, b)).collect();
        solver.assert(formula.substitute(&pairs).simplify());
        for (a, b) in fixed {
            solver.assert(a.eq(b));
        }
        Incremental { solver }
    }

    /// Whether the formula has a model under `conds`. A model is returned
    /// as found: the split decides the location lemma, where a model only
    /// means "not proved" and is never a counterexample.
    fn check(&self, conds: &[Bool], timeout_ms: u32) -> Solved {
        let mut p = Params::new();
        p.set_u32("timeout", timeout_ms.max(1));
        self.solver.set_params(&p);
        match self.solver.check_assumptions(conds) {
            SatResult::Unsat => Solved::Unsat,
            SatResult::Unknown => Solved::Gave(
                self.solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "unknown".into()),
            ),
            SatResult::Sat => match self.solver.get_model() {
                Some(m) => Solved::Model(m),
                None => Solved::Gave("final:Z3 said sat but gave no model".into()),
            },
        }
    }
}

/// One level of [`solve_cases`]: `done` are the amounts split on above,
/// in their `>= w` cases (still symbolic there), `conds` the conditions of
/// the cases above.
fn solve_split(
    formula: &Bool,
    amounts: &[(BV, u64)],
    done: &[BV],
    conds: &[Bool],
    inc: &Incremental,
    deadline: Instant,
) -> Solved {
    let split = if done.len() < MAX_SHIFT_SPLIT_DEPTH {
        shift_cases(amounts, done)
    } else {
        None
    };
    let Some((t, cases)) = split else {
        let now = Instant::now();
        if now >= deadline {
            return Solved::Gave("timeout (split on shift amounts)".into());
        }
        return inc.check(conds, (deadline - now).as_millis().max(1) as u32);
    };
    let mut done_here = done.to_vec();
    done_here.push(t);
    for (i, c) in cases.iter().enumerate() {
        let (f, sub) = match &c.fixes {
            Some((t, k)) => {
                let sub: Vec<(BV, u64)> = amounts
                    .iter()
                    .map(|(a, w)| (a.substitute(&[(t, k)]).simplify(), *w))
                    .collect();
                (formula.substitute(&[(t, k)]), sub)
            }
            None => (formula.clone(), amounts.to_vec()),
        };
        let f = Bool::and(&[&f, &c.cond]).simplify();
        if f.as_bool() == Some(false) {
            continue;
        }
        if Instant::now() >= deadline {
            return Solved::Gave(format!(
                "timeout (split on a shift amount, {i} of {} cases done)",
                cases.len()
            ));
        }
        let mut conds_here = conds.to_vec();
        conds_here.push(c.cond.clone());
        match solve_split(&f, &sub, &done_here, &conds_here, inc, deadline) {
            Solved::Unsat => {}
            other => return other,
        }
    }
    Solved::Unsat
}

/// Whether a hole of type `ty` (`n` bits) takes shape `s` at all.
fn shape_applies(s: Shape, ty: &Type, n: u64) -> bool {
    match s {
        Shape::ImplicitAddress => ty.is_ptr(),
        Shape::Composite => n >= 2,
        _ => true,
    }
}

/// `decide_in` for [`ProveConfig::split_first`]: one query per combination
/// of shapes (`solve_combo`), with the whole time, and no query over every
/// shape. The constants pinned to numerals and the selectors come from a
/// query built with every value hole implicit (cheap: no memory).
///
/// A constant hole the preconditions confine to a few values (`?k >= 0, ?k
/// <= width(T) - 8`, an offset) is split on too, one query per value
/// ([`small_constant`]): a symbolic offset into a hole's storage is a
/// shifter the bit-blaster finds hard, a numeral one is wiring.
///
/// The time is shared out in passes: each pass gives every part still
/// undecided an equal share of the time left (a part that finishes early
/// leaves its time to the rest), and the parts that gave up are tried
/// again in the next pass with what is left, so the few hard parts get the
/// time the many easy ones did not need.
fn decide_split(inst: &Instance, dl: &DataLayout, cfg: &ProveConfig) -> Verdict {
    let implicit = vec![(Some(Shape::Implicit), None); 64];
    let probe = match build(inst, dl, Some(&implicit), &[], cfg) {
        Ok(q) => q,
        Err(EncodeError::Unsupported(m)) => return Verdict::Unknown(format!("not encodable: {m}")),
        Err(e @ EncodeError::IllFormed { .. }) => return Verdict::Invalid(e.to_string()),
    };
    let deadline = Instant::now() + std::time::Duration::from_millis(cfg.timeout_ms.max(1) as u64);
    let value_holes: Vec<&HoleInput> = probe
        .holes
        .iter()
        .chain(probe.referrer.iter())
        .chain(probe.object.iter())
        .filter(|h| h.selector.is_some())
        .collect();
    let shapes: Vec<Shape> = Shape::ALL
        .iter()
        .copied()
        .filter(|s| shape_enabled(*s))
        .collect();
    let combos = (shapes.len() as u64)
        .checked_pow(value_holes.len() as u32)
        .unwrap_or(u64::MAX);
    if combos > MAX_SPLIT {
        return Verdict::Unknown(format!(
            "{combos} shape combinations, more than the {MAX_SPLIT} tried one by one"
        ));
    }
    // The constant split on, if any: its variable and every value it may
    // take (an exhaustive list), each a part of its own.
    let small = small_constant(inst, &probe);
    let values: Vec<Option<&BV>> = match &small {
        Some((_, vals)) => vals.iter().map(Some).collect(),
        None => vec![None],
    };
    // Every part: a combination of shapes some hole can take, and a value.
    let mut parts: Vec<(Vec<Shape>, Option<&BV>)> = Vec::new();
    let mut idx = vec![0usize; value_holes.len()];
    loop {
        let combo: Vec<Shape> = idx.iter().map(|&i| shapes[i]).collect();
        // A shape some hole cannot take: its selector excludes it, nothing
        // to decide.
        let applies = value_holes.iter().zip(&combo).all(|(h, s)| {
            let n = q_bits(&probe, h);
            shape_applies(*s, &h.ty, n)
        });
        if applies {
            parts.extend(values.iter().map(|v| (combo.clone(), *v)));
        }
        if !next_combination(&mut idx, shapes.len()) {
            break;
        }
    }
    let mut undecided = parts.len();
    while undecided > 0 {
        let mut gave_up = Vec::new();
        for (j, (combo, value)) in parts.iter().enumerate() {
            let now = Instant::now();
            if now >= deadline {
                return Verdict::Unknown(format!(
                    "Z3: {undecided} of {} parts (shape combinations{}) undecided after {} ms",
                    parts.len(),
                    if small.is_some() {
                        " and values of a constant"
                    } else {
                        ""
                    },
                    cfg.timeout_ms
                ));
            }
            let budget = ((deadline - now).as_millis() as u64 / (parts.len() - j) as u64).max(1);
            let mut fixed: Vec<(BV, BV)> = value_holes
                .iter()
                .zip(combo)
                .filter_map(|(h, s)| {
                    let i = Shape::ALL.iter().position(|x| x == s)? as u64;
                    Some((h.selector.clone()?, bv::num_u(i, SEL_BITS as u64)))
                })
                .collect();
            let mut pins = probe.const_fixed.clone();
            if let (Some((var, _)), Some(v)) = (&small, value) {
                pins.push((var.clone(), (*v).clone()));
            }
            fixed.extend(pins.iter().cloned());
            match solve_combo(inst, dl, &pins, combo, &fixed, budget, cfg) {
                Err(v) => return v,
                Ok(None) => undecided -= 1,
                // More time cannot help these.
                Ok(Some(why))
                    if why.starts_with("not encodable") || why.contains("phase cases") =>
                {
                    return Verdict::Unknown(why)
                }
                Ok(Some(_)) => gave_up.push((combo.clone(), *value)),
            }
        }
        parts = gave_up;
    }
    Verdict::Proved
}

/// At most this many values of a constant are split on ([`small_constant`]):
/// an offset anywhere in a 64-bit value.
const MAX_CONSTANT_CASES: usize = 65;

/// The first constant hole of `q` that is neither pinned to a numeral nor
/// computed, and that the constant holes' constraints confine to at most
/// [`MAX_CONSTANT_CASES`] values, with every one of those values: found by
/// asking Z3 for a value, excluding it, and asking again until there is
/// none (a query about the constants alone, which is small). `None` when
/// there is no such hole.
fn small_constant(inst: &Instance, q: &Query) -> Option<(BV, Vec<BV>)> {
    let fixed: Vec<(&BV, &BV)> = q.const_fixed.iter().map(|(a, b)| (a, b)).collect();
    let cons = bv::and(&q.const_constraints).substitute(&fixed).simplify();
    for (k, (h, hi)) in inst.holes.iter().zip(&q.holes).enumerate() {
        if h.kind != HoleKind::Const || inst.defs.iter().any(|(d, _)| *d == k) {
            continue;
        }
        let v = BV::new_const(format!("{}.value", h.name), q_bits(q, hi) as u32);
        if q.const_fixed.iter().any(|(x, _)| *x == v) {
            continue;
        }
        let solver = Solver::new_for_logic("QF_FPBV").unwrap_or_default();
        let mut p = Params::new();
        p.set_u32("timeout", 1000);
        solver.set_params(&p);
        solver.assert(&cons);
        let mut vals: Vec<BV> = Vec::new();
        while vals.len() <= MAX_CONSTANT_CASES {
            match solver.check() {
                SatResult::Sat => {
                    let Some(x) = solver.get_model().and_then(|m| m.eval(&v, true)) else {
                        break;
                    };
                    solver.assert(v.eq(&x).not());
                    vals.push(x);
                }
                SatResult::Unsat => return Some((v, vals)),
                SatResult::Unknown => break,
            }
        }
    }
    None
}

/// Steps `idx` (one digit per hole, each below `radix`) to the next
/// combination of shapes; false once every combination has been visited.
fn next_combination(idx: &mut [usize], radix: usize) -> bool {
    for d in idx.iter_mut() {
        *d += 1;
        if *d < radix {
            return true;
        }
        *d = 0;
    }
    false
}

/// The verdict once every shape combination has been solved: proved when
/// none timed out.
fn combinations_verdict(unknown: usize, combos: u64, timeout_ms: u32) -> Verdict {
    if unknown == 0 {
        Verdict::Proved
    } else {
        Verdict::Unknown(format!(
            "Z3: {unknown} of {combos} shape combinations timed out ({timeout_ms} ms)"
        ))
    }
}

/// The bits of a value hole's type.
fn q_bits(q: &Query, h: &HoleInput) -> u64 {
    q.enc.dl.bitsizeof(&h.ty, &q.enc.types).unwrap_or(0)
}

/// One combination of shapes (`combo`, one per value hole; `fixed`: their
/// selectors and the constants pinned, `pins` those constants): `Ok(None)`
/// when no case has a difference, `Ok(Some(why))` when some case gave up,
/// `Err` with the verdict of a counterexample (or of an ill-formed query).
///
/// The query is built anew with each hole restricted to its shape (no other
/// alternative: no other shape's reads, stores, memory bytes or written
/// addresses, which a fixed selector alone would leave in the formula, tied
/// to the chosen shape's bytes by memory axioms at addresses Z3 cannot
/// compare). For the holes whose shape reads memory it is built once per
/// assignment of their phases (bit within the byte of their offsets, 0..=7
/// each), the phase a numeral from the start: every byte address of the
/// hole is then its byte offset plus a numeral (`smt::Encoder::split`), so
/// which accesses overlap is decided while the query is built (stores that
/// cannot alias drop out, coinciding bytes share a variable) instead of by
/// the solver.
///
/// Exhaustive: the restricted query is equisatisfiable with the whole one
/// with these selectors fixed (the alternatives left out are unreachable,
/// and what they constrained, their offsets' bounds and their bytes'
/// consistency with one memory, holds for some values of their own
/// variables in any model), and a phase is 3 bits, all 8 values tried.
/// With more than [`MAX_PHASE_SPLIT`] cases the combination gives up.
fn solve_combo(
    inst: &Instance,
    dl: &DataLayout,
    pins: &[(BV, BV)],
    combo: &[Shape],
    fixed: &[(BV, BV)],
    budget_ms: u64,
    cfg: &ProveConfig,
) -> Result<Option<String>, Verdict> {
    let start = Instant::now();
    let mem: Vec<usize> = (0..combo.len())
        .filter(|&j| combo[j].uses_memory())
        .collect();
    let cases = 8usize.pow(mem.len() as u32);
    if cases > MAX_PHASE_SPLIT {
        return Ok(Some(format!(
            "{cases} phase cases, more than the {MAX_PHASE_SPLIT} tried"
        )));
    }
    let mut gave = None;
    for case in 0..cases {
        // The failing shape has no alternative to build: that hole is not
        // restricted (its selector is fixed all the same).
        let only: Vec<(Option<Shape>, Option<u64>)> = combo
            .iter()
            .enumerate()
            .map(|(j, s)| {
                let ph = mem
                    .iter()
                    .position(|&m| m == j)
                    .map(|p| ((case >> (3 * p)) & 7) as u64);
                (Some(*s).filter(|s| *s != Shape::Failing), ph)
            })
            .collect();
        let spent = start.elapsed().as_millis() as u64;
        let share = (budget_ms.saturating_sub(spent) / (cases - case) as u64).max(1);
        let r = match build(inst, dl, Some(&only), pins, cfg) {
            Ok(r) => r,
            Err(EncodeError::Unsupported(m)) => return Ok(Some(format!("not encodable: {m}"))),
            Err(e @ EncodeError::IllFormed { .. }) => return Err(Verdict::Invalid(e.to_string())),
        };
        let f = bv::and(&[bv::and(&r.constraints), r.mismatch.clone()]);
        let mut all = fixed.to_vec();
        all.extend(r.const_fixed.iter().cloned());
        match solve(&f, &all, share as u32, &r) {
            Solved::Unsat => {}
            Solved::Model(m) => return Err(refutation(inst, dl, &r, &m)),
            Solved::Gave(why) => gave = Some(why),
        }
    }
    Ok(gave)
}

/// At most this many phase cases are tried one by one for one combination
/// of shapes (two holes with memory shapes).
const MAX_PHASE_SPLIT: usize = 64;

/// At most this many shape combinations are tried one by one.
const MAX_SPLIT: u64 = 81;

enum Solved {
    Unsat,
    Model(z3::Model),
    /// Z3 gave up; `final:` when splitting further cannot help.
    Gave(String),
}

/// One query: `formula` with the selectors of `fixed` set, within
/// `timeout_ms`. A model that rests on an over-approximated value (see
/// `smt`) is not returned: the query is repeated without such models.
fn solve(formula: &Bool, fixed: &[(BV, BV)], timeout_ms: u32, q: &Query) -> Solved {
    // A solver for the logic the encoding stays in (bit-vectors and
    // floats, no quantifiers, no arrays), not Z3's general solver: that one
    // first probes the formula to pick a tactic, and on the library the probe
    // and the general solver's set-up cost a fifth of the CPU time (194 vs
    // 155 s, one job), for the same verdicts.
    let solver = Solver::new_for_logic("QF_FPBV").unwrap_or_default();
    let mut p = Params::new();
    p.set_u32("timeout", timeout_ms.max(1));
    solver.set_params(&p);
    if fixed.is_empty() {
        solver.assert(formula);
    } else {
        let pairs: Vec<(&BV, &BV)> = fixed.iter().map(|(a, b)| (a, b)).collect();
        solver.assert(formula.substitute(&pairs).simplify());
        // The substituted variables are gone from the formula: without
        // their equalities the model would give them any value (0, the
        // first storage shape), and the counterexample rebuilt from it
        // would put the holes in storage the query never considered.
        for (a, b) in fixed {
            solver.assert(a.eq(b));
        }
    }
    let approx = bv::or(&q.enc.approx.borrow());
    match solver.check() {
        SatResult::Unsat => Solved::Unsat,
        SatResult::Unknown => Solved::Gave(
            solver
                .get_reason_unknown()
                .unwrap_or_else(|| "unknown".into()),
        ),
        SatResult::Sat => {
            let Some(m) = solver.get_model() else {
                return Solved::Gave("final:Z3 said sat but gave no model".into());
            };
            let depends = m
                .eval(&approx, true)
                .and_then(|b| b.as_bool())
                .unwrap_or(false);
            if !depends {
                return Solved::Model(m);
            }
            // Look for a counterexample that does not rest on an
            // over-approximated NaN payload.
            solver.assert(approx.not());
            match solver.check() {
                SatResult::Sat => match solver.get_model() {
                    Some(m) => Solved::Model(m),
                    None => Solved::Gave("final:Z3 said sat but gave no model".into()),
                },
                SatResult::Unsat => Solved::Gave(
                    "final:every difference found depends on the payload of a NaN converted between float kinds".into(),
                ),
                SatResult::Unknown => Solved::Gave("Z3 gave up on the second query".into()),
            }
        }
    }
}

fn refutation(inst: &Instance, dl: &DataLayout, q: &Query, m: &z3::Model) -> Verdict {
    match cex::extract(inst, dl, q, m) {
        Ok(c) if c.confirmed() => Verdict::Refuted(Box::new(c)),
        Ok(c) => Verdict::EncodingBug(format!(
            "Z3 found a difference that the reference interpreter does not confirm:\n{}",
            c.render()
        )),
        Err(m) => Verdict::EncodingBug(format!("the counterexample could not be rebuilt: {m}")),
    }
}

fn first_message(d: &[diopter_semantics::diag::Diagnostic]) -> String {
    d.first().map(|d| d.message.clone()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use diopter_rules::instance::{BinOp, Hole};
    use diopter_semantics::ast::Dialect;
    use diopter_semantics::syntax::parse_bare;
    use diopter_semantics::types::TypeTable;

    /// `?x:i32, DIOpConstant(i32 ?k), DIOpBitOffset(i8) => ?x, ...` with
    /// the preconditions `pre` on `?k` (hole 1).
    fn offset_by_k(pre: Vec<Term>) -> Instance {
        let expr = |ops: &str| parse_bare(&format!("[?] {ops}")).expect("parses").expr;
        let side = "DIOpArg(0, i32), DIOpArg(1, i32), DIOpBitOffset(i8)";
        let hole = |name: &str, kind| Hole {
            name: name.into(),
            ty: Type::Int(32),
            kind,
        };
        Instance {
            rule: "offset-by-k".into(),
            origin: "prove/mod.rs".into(),
            relation: Relation::Equivalent,
            dialect: Dialect::DiExpression,
            binding: vec![],
            holes: vec![hole("x", HoleKind::Expr), hole("k", HoleKind::Const)],
            types: TypeTable::default(),
            lhs: expr(side),
            rhs: expr(side),
            pre,
            defs: vec![],
        }
    }

    fn k_cmp(op: BinOp, n: i64) -> Term {
        Term::Bin(
            op,
            Box::new(Term::Hole(1)),
            Box::new(Term::Lit {
                value: n.into(),
                width: 32,
            }),
        )
    }

    fn split_of(i: &Instance) -> Option<Vec<u64>> {
        let dl = DataLayout::llvm_default();
        let q = build(i, &dl, None, &[], &ProveConfig::default()).expect("encodes");
        let (_, vals) = small_constant(i, &q)?;
        let mut v: Vec<u64> = vals
            .iter()
            .map(|x| {
                let n = bv::as_biguint(x).expect("a numeral");
                u64::try_from(n).expect("small")
            })
            .collect();
        v.sort_unstable();
        Some(v)
    }

    /// A constant the preconditions confine to 0..=24 is split on each of
    /// those values exactly once (the split must be exhaustive to prove);
    /// one they leave free, or confine to more than `MAX_CONSTANT_CASES`
    /// values, is not split on.
    #[test]
    fn a_constant_confined_to_few_values_is_split_on_each() {
        let bounded = offset_by_k(vec![k_cmp(BinOp::Sle, 24), k_cmp(BinOp::Ult, 1 << 31)]);
        // (`0 <= ?k` as `?k <u 2^31`: the same for a 32-bit ?k.)
        assert_eq!(split_of(&bounded), Some((0..=24).collect()));
        assert_eq!(split_of(&offset_by_k(vec![])), None);
        let wide = offset_by_k(vec![
            k_cmp(BinOp::Sle, MAX_CONSTANT_CASES as i64),
            k_cmp(BinOp::Ult, 1 << 31),
        ]);
        assert_eq!(split_of(&wide), None, "{} values", MAX_CONSTANT_CASES + 1);
    }
}
