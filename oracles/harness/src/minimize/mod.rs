//! The minimizer: shrinks a failing [`Case`] to a 1-minimal one that still
//! fails *the same way*.
//!
//! It is hierarchical delta debugging over the expression tree and the
//! context. The postfix operation list is read as a tree ([`tree`]); every
//! candidate is one reduction of the current case:
//!
//! * structure, largest subexpressions first: replace a subexpression by a
//!   fresh argument whose context location is the one the reference computes
//!   for it (which keeps the reference's meaning), or by a constant of its
//!   value or 0; hoist a child over its parent; drop a subexpression (an
//!   operand of `DIOpComposite`, a spare stack entry, a `DIOpFragment`);
//! * values: constants towards 0, 1, -1 and half their magnitude; integer
//!   widths smaller, everywhere at once;
//! * context: storage kinds simpler (composite → a part, entity or memory →
//!   implicit), drop single locations, memory bytes (in halving chunks),
//!   entities, unused arguments, referrer, object, lane; seed 0; the default
//!   data layout; unused named types and declarations.
//!
//! A candidate is kept when it is well-formed (`check_bare` accepts it: the
//! minimizer never returns an expression the checker rejects when the input
//! was accepted), strictly smaller by [`Cost`] (so the loop terminates), and
//! the predicate holds on it *after a round trip through the case-file
//! text* (so the file written is exactly the case that fails). The loop
//! runs until a whole round keeps nothing: then no single reduction keeps
//! the failure, which is 1-minimality with respect to these reductions
//! ([`reductions`] lists them, and the tests check it).
//!
//! The predicate for disagreements is [`SameFailure`]: the oracles must
//! still disagree, with the same oracle differing in the same class of
//! outcome (location, type, read, write, error, ...) as the first difference
//! of the original; an oracle panic must still panic with the same message.
//! "Some error" is never enough. [`signature`] names a failure for
//! deduplication: the oracle, the first operation whose subexpression
//! already shows the failure, and the classes.

pub mod plant;
pub mod tree;

use diopter_diff::{self as diff, Oracle, Verdict};
use diopter_gen::Case;
use diopter_semantics::access;
use diopter_semantics::ast::{ArgDecl, Dialect, Expr, Literal, Op, Span};
use diopter_semantics::check::check_bare;
use diopter_semantics::interp;
use diopter_semantics::location::{LocDesc, Storage};
use diopter_semantics::types::{DataLayout, Type};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use std::collections::BTreeSet;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

// ------------------------------------------------------------ failures

/// How a case fails.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Failure {
    /// The oracles disagree; `oracle` differs from the baseline in `class`
    /// (the first difference the verdict lists).
    Disagree { oracle: String, class: String },
    /// An oracle panicked with this message (first line).
    Panic { oracle: String, message: String },
}

impl Failure {
    pub fn oracle(&self) -> &str {
        match self {
            Failure::Disagree { oracle, .. } | Failure::Panic { oracle, .. } => oracle,
        }
    }
}

/// The class of one `Verdict::Disagree` detail line (`"fast: location ..."`
/// is `("fast", "location")`): what kind of outcome differs.
pub fn detail_class(detail: &str) -> (String, String) {
    let (who, rest) = detail.split_once(": ").unwrap_or(("?", detail));
    let word = rest.split_whitespace().next().unwrap_or("");
    let class = match word {
        "type" => "type",
        "location" => "location",
        "fragment" => "fragment",
        "reads" | "read" => "read",
        "writing" | "write" | "writes" => "write",
        "fails" | "succeeds" => "outcome",
        w if w.chars().next().is_some_and(|c| c.is_ascii_digit()) => "size",
        _ => "error",
    };
    (who.to_string(), class.to_string())
}

/// Every (oracle, class) pair a disagreement lists.
pub fn classes(v: &Verdict) -> BTreeSet<(String, String)> {
    match v {
        Verdict::Disagree { details } => details.iter().map(|d| detail_class(d)).collect(),
        _ => BTreeSet::new(),
    }
}

/// The first line of a panic payload.
fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    let s = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic payload".into());
    s.lines().next().unwrap_or("").to_string()
}

/// [`diff::run_case`], with an oracle panic caught and returned as
/// `Err((oracle, message))` instead of unwinding.
pub fn guarded_run(case: &Case, oracles: &[&dyn Oracle]) -> Result<Verdict, (String, String)> {
    match panic::catch_unwind(AssertUnwindSafe(|| diff::run_case(case, oracles))) {
        Ok(v) => Ok(v),
        Err(p) => {
            let message = panic_message(p.as_ref());
            // Which oracle: run them one by one (rare, so the cost is fine).
            let oracle = oracles
                .iter()
                .find(|o| panic::catch_unwind(AssertUnwindSafe(|| o.eval(case))).is_err())
                .map_or_else(|| "driver".to_string(), |o| o.name().to_string());
            Err((oracle, message))
        }
    }
}

/// How `case` fails with `oracles`, if it does.
pub fn failure(case: &Case, oracles: &[&dyn Oracle]) -> Option<Failure> {
    match guarded_run(case, oracles) {
        Ok(Verdict::Disagree { details }) => {
            let (oracle, class) = detail_class(details.first()?);
            Some(Failure::Disagree { oracle, class })
        }
        Ok(_) => None,
        Err((oracle, message)) => Some(Failure::Panic { oracle, message }),
    }
}

/// Runs `f` with the panic hook silenced (the minimizer provokes the same
/// panic hundreds of times; each would print a backtrace note). The hook is
/// process-global: call this from one thread at a time.
pub fn quiet_panics<R>(f: impl FnOnce() -> R) -> R {
    let old = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    panic::set_hook(old);
    match r {
        Ok(r) => r,
        Err(p) => panic::resume_unwind(p),
    }
}

/// The predicate "fails the same way as the original".
pub struct SameFailure<'a> {
    pub oracles: &'a [&'a dyn Oracle],
    pub want: Failure,
}

impl<'a> SameFailure<'a> {
    /// `None` when `case` does not fail at all.
    pub fn of(case: &Case, oracles: &'a [&'a dyn Oracle]) -> Option<SameFailure<'a>> {
        failure(case, oracles).map(|want| SameFailure { oracles, want })
    }

    pub fn holds(&self, case: &Case) -> bool {
        match (&self.want, guarded_run(case, self.oracles)) {
            (Failure::Disagree { oracle, class }, Ok(v)) => {
                classes(&v).contains(&(oracle.clone(), class.clone()))
            }
            (Failure::Panic { oracle, message }, Err((o, m))) => *oracle == o && *message == m,
            _ => false,
        }
    }
}

/// A failure's name for deduplication: the oracle, the first operation
/// (in evaluation order) whose subexpression alone already fails, and every
/// class of difference (or the panic message).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    pub oracle: String,
    pub first_op: String,
    pub classes: Vec<String>,
}

impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} @ {} [{}]",
            self.oracle,
            self.first_op,
            self.classes.join(",")
        )
    }
}

/// The [`Signature`] of a failing case (best on a minimized one: fewer
/// subexpressions to try); `None` when it does not fail.
pub fn signature(case: &Case, oracles: &[&dyn Oracle]) -> Option<Signature> {
    let f = failure(case, oracles)?;
    let cls: Vec<String> = match (&f, guarded_run(case, oracles)) {
        (Failure::Panic { message, .. }, _) => vec![format!("panic: {message}")],
        (_, Ok(v)) => classes(&v)
            .into_iter()
            .filter(|(o, _)| o == f.oracle())
            .map(|(_, c)| c)
            .collect(),
        _ => vec![],
    };
    let ops: Vec<Op> = case.bare.expr.ops().cloned().collect();
    let (nodes, _) = tree::build(&ops, case.bare.expr.dialect);
    let mut first_op = ops.last().map_or("(empty)", |o| o.name()).to_string();
    for (i, n) in nodes.iter().enumerate() {
        if n.metadata {
            continue;
        }
        let sub = with_ops(case, ops[n.start..=i].to_vec());
        let fails = match (&f, guarded_run(&sub, oracles)) {
            (Failure::Disagree { .. }, Ok(v)) => v.is_disagreement(),
            (Failure::Panic { .. }, Err(_)) => true,
            _ => false,
        };
        if fails {
            first_op = ops[i].name().to_string();
            break;
        }
    }
    Some(Signature {
        oracle: f.oracle().to_string(),
        first_op,
        classes: cls,
    })
}

// ----------------------------------------------------------------- cost

/// How big a case is; every kept reduction makes it strictly smaller
/// (lexicographically), which is what makes the loop terminate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cost {
    pub ops: usize,
    /// Context items, weighted by storage kind (composite > entity, memory
    /// > implicit), plus declarations.
    pub context: u64,
    /// Bits of the types the operations and declarations name.
    pub types: u64,
    /// 0 < 1 < -1 < larger magnitudes.
    pub constants: u64,
    /// Length of the case-file text.
    pub text: usize,
}

fn type_weight(t: &Type) -> u64 {
    match t {
        Type::Int(n) => *n,
        Type::Float(k) => k.0.width(),
        Type::Ptr { .. } => 64,
        Type::Vector { len, elem } | Type::Array { len, elem } => {
            len.saturating_mul(type_weight(elem))
        }
        Type::Struct { fields, .. } => fields.iter().map(type_weight).sum::<u64>() + 1,
        Type::Named(_) | Type::Target { .. } => 64,
    }
}

fn literal_weight(l: &Literal) -> u64 {
    match l {
        Literal::Int(v) if v.is_zero() => 0,
        Literal::Int(v) if *v == BigInt::from(1) => 1,
        Literal::Int(v) if *v == BigInt::from(-1) => 2,
        Literal::Int(v) => 3 + v.abs().bits(),
        Literal::Null | Literal::ZeroInitializer => 0,
        Literal::Undef | Literal::Poison => 2,
        Literal::Float(b) => 3 + b.to_biguint().bits(),
        Literal::Vector(es) | Literal::Array(es) => {
            3 + es.iter().map(|(_, l)| literal_weight(l)).sum::<u64>()
        }
    }
}

fn loc_weight(l: &LocDesc) -> u64 {
    l.singles
        .iter()
        .map(|s| match &s.storage {
            Storage::Implicit { .. } | Storage::Undefined => 1,
            Storage::Memory { .. } | Storage::Entity { .. } => 2,
            Storage::ImplicitAddress { target, .. } => 3 + loc_weight(target),
            Storage::Composite { parts } => {
                4 + parts.iter().map(|p| loc_weight(&p.loc)).sum::<u64>()
            }
        })
        .sum::<u64>()
        + (l.singles.len() as u64).saturating_sub(1) * 4
}

fn op_types(op: &Op) -> Vec<&Type> {
    op.type_param().into_iter().collect()
}

/// The case's [`Cost`].
pub fn cost(case: &Case) -> Cost {
    let ctx = &case.ctx;
    let context = ctx.state.memory.len() as u64
        + ctx.state.entities.len() as u64
        + ctx.args.values().map(loc_weight).sum::<u64>()
        + ctx.referrer.as_ref().map_or(0, loc_weight)
        + ctx.object.as_ref().map_or(0, loc_weight)
        + u64::from(ctx.lane.is_some())
        + u64::from(ctx.seed != 0)
        + u64::from(ctx.datalayout != DataLayout::default())
        + case.types.named.len() as u64
        + case.bare.args.as_ref().map_or(0, |a| a.len() as u64)
        + u64::from(case.bare.var_type.is_some());
    let types = case
        .bare
        .expr
        .ops()
        .flat_map(op_types)
        .chain(case.bare.args.iter().flatten().map(|a| &a.ty))
        .map(type_weight)
        .sum();
    let constants = case
        .bare
        .expr
        .ops()
        .map(|o| match o {
            Op::Constant(_, l) => literal_weight(l),
            _ => 0,
        })
        .sum();
    Cost {
        ops: case.bare.expr.ops.len(),
        context,
        types,
        constants,
        text: case_text(case).len(),
    }
}

/// The case-file text without annotations (what is measured and written).
pub fn case_text(case: &Case) -> String {
    diff::case_file_text(case, &[], None)
}

/// Size figures for reports: operations and bytes of the case-file text.
pub fn size(case: &Case) -> (usize, usize) {
    (case.bare.expr.ops.len(), case_text(case).len())
}

// ----------------------------------------------------------- reductions

fn with_ops(case: &Case, ops: Vec<Op>) -> Case {
    let mut c = case.clone();
    c.bare.expr = Expr::new(case.bare.expr.dialect, ops);
    c
}

fn splice(ops: &[Op], start: usize, end: usize, with: &[Op]) -> Vec<Op> {
    let mut v = Vec::with_capacity(ops.len());
    v.extend_from_slice(&ops[..start]);
    v.extend_from_slice(with);
    v.extend_from_slice(&ops[end + 1..]);
    v
}

/// The reference's outcome on the subexpression `start..=end`.
fn eval_range(case: &Case, ops: &[Op], start: usize, end: usize) -> Option<interp::Located> {
    let sub = with_ops(case, ops[start..=end].to_vec());
    let sub_bare = diopter_semantics::ast::Bare {
        var_type: None,
        ..sub.bare
    };
    panic::catch_unwind(AssertUnwindSafe(|| {
        interp::eval_bare(&sub_bare, &sub.types, &sub.ctx)
    }))
    .ok()?
    .ok()
}

/// Structural reductions, largest subexpressions first.
fn structural(case: &Case, light: &Case, out: &mut Vec<Case>) {
    let ops: Vec<Op> = case.bare.expr.ops().cloned().collect();
    let (nodes, roots) = tree::build(&ops, case.bare.expr.dialect);
    let mut order: Vec<usize> = (0..ops.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(i + 1 - nodes[i].start));
    for i in order {
        let n = &nodes[i];
        let (s, size) = (n.start, i + 1 - n.start);
        if n.metadata {
            out.push(with_ops(light, splice(&ops, i, i, &[])));
            continue;
        }
        if size > 1 {
            if let Some(r) = eval_range(case, &ops, s, i) {
                // A fresh argument whose location is the reference's result.
                if let Some(args) = &case.bare.args {
                    let k = args.len() as u64;
                    let mut c = with_ops(light, splice(&ops, s, i, &[Op::Arg(k, r.ty.clone())]));
                    if let Some(a) = c.bare.args.as_mut() {
                        a.push(ArgDecl {
                            ty: r.ty.clone(),
                            poison: false,
                            span: Span::default(),
                        });
                    }
                    c.ctx.args.insert(k, r.loc.clone());
                    out.push(c);
                }
                // A constant of its value, or 0.
                if let (Type::Int(_), Ok(v)) = (&r.ty, interp::read_value(&case.ctx, &r)) {
                    let lit = Literal::Int(v.to_bigint());
                    out.push(with_ops(
                        case,
                        splice(&ops, s, i, &[Op::Constant(r.ty.clone(), lit)]),
                    ));
                }
            }
            if let Some(t) = plant::range_type(case, s, i) {
                let lit = if matches!(t, Type::Int(_)) {
                    Literal::Int(BigInt::zero())
                } else {
                    Literal::ZeroInitializer
                };
                out.push(with_ops(light, splice(&ops, s, i, &[Op::Constant(t, lit)])));
            }
        }
        // Hoist a child over its parent.
        for &c in &n.children {
            let child = ops[nodes[c].start..=c].to_vec();
            out.push(with_ops(light, splice(&ops, s, i, &child)));
        }
        // Drop the subexpression where its parent can do without it.
        match n.parent.map(|p| (p, &ops[p])) {
            Some((p, Op::Composite(k, t))) if *k > 1 => {
                // An integer composite shrinks by the part's size.
                let nt = match (t, plant::range_type(case, s, i)) {
                    (Type::Int(w), Some(pt)) => {
                        match case.ctx.datalayout.bitsizeof(&pt, &case.types) {
                            Ok(b) if b < *w => Type::Int(w - b),
                            _ => t.clone(),
                        }
                    }
                    _ => t.clone(),
                };
                let mut v = ops.clone();
                v[p] = Op::Composite(k - 1, nt);
                out.push(with_ops(light, splice(&v, s, i, &[])));
            }
            None if roots.len() > 1 => out.push(with_ops(light, splice(&ops, s, i, &[]))),
            _ => {}
        }
    }
}

/// Simpler literals than `l` for type `t`.
fn simpler_literals(t: &Type, l: &Literal) -> Vec<Literal> {
    let mut v = Vec::new();
    match l {
        Literal::Int(x) => {
            for y in [
                BigInt::zero(),
                BigInt::from(1),
                BigInt::from(-1),
                x / BigInt::from(2),
            ] {
                if y != *x {
                    v.push(Literal::Int(y));
                }
            }
        }
        _ if matches!(t, Type::Int(_)) => v.push(Literal::Int(BigInt::zero())),
        Literal::ZeroInitializer => {}
        _ => v.push(Literal::ZeroInitializer),
    }
    v
}

/// `t` with `Int(from)` replaced by `Int(to)` everywhere inside it.
fn subst_type(t: &Type, from: u64, to: u64) -> Type {
    match t {
        Type::Int(n) if *n == from => Type::Int(to),
        Type::Vector { len, elem } => Type::Vector {
            len: *len,
            elem: Box::new(subst_type(elem, from, to)),
        },
        Type::Array { len, elem } => Type::Array {
            len: *len,
            elem: Box::new(subst_type(elem, from, to)),
        },
        Type::Struct { fields, packed } => Type::Struct {
            fields: fields.iter().map(|f| subst_type(f, from, to)).collect(),
            packed: *packed,
        },
        Type::Ptr {
            addrspace,
            pointee: Some(p),
        } => Type::Ptr {
            addrspace: *addrspace,
            pointee: Some(Box::new(subst_type(p, from, to))),
        },
        _ => t.clone(),
    }
}

fn subst_op(op: &Op, from: u64, to: u64) -> Op {
    let s = |t: &Type| subst_type(t, from, to);
    match op {
        Op::Referrer(t) => Op::Referrer(s(t)),
        Op::Arg(i, t) => Op::Arg(*i, s(t)),
        Op::TypeObject(t) => Op::TypeObject(s(t)),
        Op::Convert(t) => Op::Convert(s(t)),
        Op::Reinterpret(t) => Op::Reinterpret(s(t)),
        Op::BitOffset(Some(t)) => Op::BitOffset(Some(s(t))),
        Op::ByteOffset(t) => Op::ByteOffset(s(t)),
        Op::Composite(n, t) => Op::Composite(*n, s(t)),
        Op::Deref(Some(t)) => Op::Deref(Some(s(t))),
        Op::ZExt(t) => Op::ZExt(s(t)),
        Op::SExt(t) => Op::SExt(s(t)),
        Op::PushLane(t) => Op::PushLane(s(t)),
        Op::Constant(t, l) => {
            let nt = s(t);
            // A value that no longer fits becomes 0 (the checker would
            // reject it, and a smaller width is worth more than the value).
            let nl = match (&nt, l) {
                (Type::Int(w), Literal::Int(v)) if *w < 128 => {
                    let lim = BigInt::from(1u128 << w);
                    if v.abs() >= lim {
                        Literal::Int(BigInt::zero())
                    } else {
                        l.clone()
                    }
                }
                _ => l.clone(),
            };
            Op::Constant(nt, nl)
        }
        _ => op.clone(),
    }
}

/// Constants and widths.
fn values(case: &Case, light: &Case, out: &mut Vec<Case>) {
    let ops: Vec<Op> = case.bare.expr.ops().cloned().collect();
    for (i, op) in ops.iter().enumerate() {
        if let Op::Constant(t, l) = op {
            for nl in simpler_literals(t, l) {
                let mut v = ops.clone();
                v[i] = Op::Constant(t.clone(), nl);
                out.push(with_ops(light, v));
            }
        }
    }
    let mut widths = BTreeSet::new();
    fn collect(t: &Type, w: &mut BTreeSet<u64>) {
        match t {
            Type::Int(n) => {
                w.insert(*n);
            }
            Type::Vector { elem, .. } | Type::Array { elem, .. } => collect(elem, w),
            Type::Struct { fields, .. } => fields.iter().for_each(|f| collect(f, w)),
            Type::Ptr {
                pointee: Some(p), ..
            } => collect(p, w),
            _ => {}
        }
    }
    for t in ops.iter().flat_map(op_types) {
        collect(t, &mut widths);
    }
    for a in case.bare.args.iter().flatten() {
        collect(&a.ty, &mut widths);
    }
    for &from in widths.iter().rev() {
        let mut tos: Vec<u64> = vec![1, 8, 16, 32, 64, from / 2];
        tos.sort_unstable();
        tos.dedup();
        for to in tos.into_iter().filter(|&t| t >= 1 && t < from) {
            let mut c = with_ops(light, ops.iter().map(|o| subst_op(o, from, to)).collect());
            for a in c.bare.args.iter_mut().flatten() {
                a.ty = subst_type(&a.ty, from, to);
            }
            if let Some((t, _)) = c.bare.referrer.as_mut() {
                *t = subst_type(t, from, to);
            }
            if let Some((t, _)) = c.bare.var_type.as_mut() {
                *t = subst_type(t, from, to);
            }
            out.push(c);
        }
    }
}

/// Simpler versions of one location description.
fn simpler_locs(case: &Case, loc: &LocDesc, ty: Option<&Type>) -> Vec<LocDesc> {
    let mut v = Vec::new();
    if loc.singles.len() > 1 {
        for k in 0..loc.singles.len() {
            let mut l = loc.clone();
            l.singles.remove(k);
            v.push(l);
        }
    }
    let bits = ty.and_then(|t| case.ctx.datalayout.bitsizeof(t, &case.types).ok());
    for s in &loc.singles {
        match &s.storage {
            Storage::Composite { parts } => v.extend(parts.iter().map(|p| p.loc.clone())),
            Storage::Implicit { .. } | Storage::Undefined => {}
            _ => {}
        }
        if !matches!(s.storage, Storage::Implicit { .. } | Storage::Undefined) {
            let one = LocDesc {
                singles: vec![s.clone()],
            };
            if let Some(Ok(val)) = bits.map(|b| access::read(&case.ctx, &one, b)) {
                v.push(LocDesc::implicit(val));
            }
        }
    }
    v
}

/// The context and the declarations.
fn context(case: &Case, light: &Case, out: &mut Vec<Reduction>) {
    let ctx = &case.ctx;
    let arg_ty = |k: u64| -> Option<Type> {
        case.bare
            .args
            .as_ref()
            .and_then(|a| a.get(k as usize))
            .map(|a| a.ty.clone())
    };
    for (&k, loc) in &ctx.args {
        let mut c = light.clone();
        c.ctx.args.remove(&k);
        out.push(Reduction::Stateless(Box::new(c)));
        for l in simpler_locs(case, loc, arg_ty(k).as_ref()) {
            let mut c = light.clone();
            c.ctx.args.insert(k, l);
            out.push(Reduction::Stateless(Box::new(c)));
        }
    }
    if let Some(loc) = &ctx.referrer {
        let mut c = light.clone();
        c.ctx.referrer = None;
        out.push(Reduction::Stateless(Box::new(c)));
        let ty = case
            .bare
            .referrer
            .as_ref()
            .map(|(t, _)| t.clone())
            .or_else(|| {
                (case.bare.expr.dialect == Dialect::DiExpression)
                    .then(|| arg_ty(0))
                    .flatten()
            });
        for l in simpler_locs(case, loc, ty.as_ref()) {
            let mut c = light.clone();
            c.ctx.referrer = Some(l);
            out.push(Reduction::Stateless(Box::new(c)));
        }
    }
    if let Some(loc) = &ctx.object {
        let mut c = light.clone();
        c.ctx.object = None;
        out.push(Reduction::Stateless(Box::new(c)));
        for l in simpler_locs(case, loc, None) {
            let mut c = light.clone();
            c.ctx.object = Some(l);
            out.push(Reduction::Stateless(Box::new(c)));
        }
    }
    // Memory bytes in halving chunks, then one by one.
    let n = ctx.state.memory.len();
    let mut chunk = n;
    while chunk >= 1 {
        for start in (0..n).step_by(chunk) {
            out.push(Reduction::DropMemory {
                start,
                len: chunk.min(n - start),
            });
        }
        chunk /= 2;
    }
    for name in ctx.state.entities.keys() {
        out.push(Reduction::DropEntity(name.clone()));
    }
    if ctx.lane.is_some() {
        let mut c = light.clone();
        c.ctx.lane = None;
        out.push(Reduction::Stateless(Box::new(c)));
    }
    if ctx.seed != 0 {
        let mut c = light.clone();
        c.ctx.seed = 0;
        out.push(Reduction::Stateless(Box::new(c)));
    }
    if ctx.datalayout != DataLayout::default() {
        let mut c = light.clone();
        c.ctx.datalayout = DataLayout::default();
        out.push(Reduction::Stateless(Box::new(c)));
    }
    for name in case.types.named.keys() {
        let mut c = light.clone();
        c.types.named.remove(name);
        out.push(Reduction::Stateless(Box::new(c)));
    }
    if case.bare.var_type.is_some() {
        let mut c = light.clone();
        c.bare.var_type = None;
        out.push(Reduction::Stateless(Box::new(c)));
    }
    // Drop a declaration no `DIOpArg` names, renumbering the ones above it.
    if let Some(args) = &case.bare.args {
        for j in (0..args.len() as u64).rev() {
            if case
                .bare
                .expr
                .ops()
                .any(|o| matches!(o, Op::Arg(k, _) if *k == j))
            {
                continue;
            }
            let mut c = light.clone();
            if let Some(a) = c.bare.args.as_mut() {
                a.remove(j as usize);
            }
            let ops = case
                .bare
                .expr
                .ops()
                .map(|o| match o {
                    Op::Arg(k, t) if *k > j => Op::Arg(k - 1, t.clone()),
                    o => o.clone(),
                })
                .collect();
            c.bare.expr = Expr::new(case.bare.expr.dialect, ops);
            c.ctx.args = case
                .ctx
                .args
                .iter()
                .filter(|(k, _)| **k != j)
                .map(|(k, l)| (if *k > j { k - 1 } else { *k }, l.clone()))
                .collect();
            out.push(Reduction::Stateless(Box::new(c)));
        }
    }
    if case.bare.wrapped || case.bare.explicit_dialect {
        let mut c = light.clone();
        c.bare.wrapped = false;
        if c.bare.expr.dialect == Dialect::DiExpression {
            c.bare.explicit_dialect = false;
        }
        out.push(Reduction::Stateless(Box::new(c)));
    }
}

/// A one-step reduction of a case, built into a whole case only when it
/// is tried. The state (memory bytes, entity values) is what makes a case
/// big, and no reduction but dropping part of it changes it: holding every
/// candidate as a whole case cost O(candidates × state), and the memory
/// chunks alone are 2n candidates of n bytes each (a campaign artifact with
/// a few hundred memory bytes took 400 MB to minimize).
#[derive(Clone, Debug)]
pub enum Reduction {
    /// This case with the state of the case reduced (boxed: a case is
    /// large beside the other variants).
    Stateless(Box<Case>),
    /// Drop `len` memory bytes from the `start`th (in address order).
    DropMemory { start: usize, len: usize },
    /// Drop one entity's value.
    DropEntity(String),
}

impl Reduction {
    /// The reduced case of `case` (the case the reduction was made from).
    pub fn build(&self, case: &Case) -> Case {
        match self {
            Reduction::Stateless(c) => {
                let mut c = c.as_ref().clone();
                c.ctx.state = case.ctx.state.clone();
                c
            }
            Reduction::DropMemory { start, len } => {
                let mut c = case.clone();
                let keys: Vec<_> = case
                    .ctx
                    .state
                    .memory
                    .iter()
                    .skip(*start)
                    .take(*len)
                    .collect();
                for (a, addr, _) in &keys {
                    c.ctx.state.memory.remove(*a, addr);
                }
                c
            }
            Reduction::DropEntity(name) => {
                let mut c = case.clone();
                c.ctx.state.entities.remove(name);
                c
            }
        }
    }
}

/// Every one-step reduction of `case`, in the order the minimizer tries
/// them, unbuilt (see [`Reduction`]).
pub fn reduction_plan(case: &Case) -> Vec<Reduction> {
    // The generators evaluate subexpressions on `case` but copy `light`,
    // the case without its state.
    let mut light = case.clone();
    light.ctx.state = Default::default();
    let mut cases = Vec::new();
    structural(case, &light, &mut cases);
    values(case, &light, &mut cases);
    let mut out: Vec<Reduction> = cases
        .into_iter()
        .map(|c| Reduction::Stateless(Box::new(c)))
        .collect();
    context(case, &light, &mut out);
    out
}

/// Every one-step reduction of `case`, built, in the order the minimizer
/// tries them (they need not be well-formed or smaller; the minimizer
/// filters).
pub fn reductions(case: &Case) -> Vec<Case> {
    reduction_plan(case).iter().map(|r| r.build(case)).collect()
}

// ------------------------------------------------------------------ loop

/// Limits on a minimization.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Stop (with the best case so far, not necessarily 1-minimal) after
    /// this long.
    pub time_limit: Option<Duration>,
}

/// A minimization's result.
#[derive(Clone, Debug)]
pub struct Minimized {
    pub case: Case,
    /// Reductions kept.
    pub steps: usize,
    /// Candidates the predicate was asked about.
    pub tries: usize,
    /// Whether the last round kept nothing (1-minimal); false when the time
    /// limit stopped it first.
    pub one_minimal: bool,
}

/// Whether `c` is accepted by the checker.
pub fn well_formed(c: &Case) -> bool {
    check_bare(&c.bare, c.datalayout(), &c.types).is_ok()
}

/// Minimizes `case` while `pred` holds (it must hold on `case`; if it does
/// not, `case` comes back unchanged). Candidates must be well-formed when
/// `case` is.
pub fn minimize(case: &Case, pred: &mut dyn FnMut(&Case) -> bool, opts: &Options) -> Minimized {
    let start = Instant::now();
    let need_wf = well_formed(case);
    let mut cur = case.clone();
    let mut cur_cost = cost(&cur);
    let (mut steps, mut tries) = (0, 0);
    if !pred(&cur) {
        return Minimized {
            case: cur,
            steps,
            tries: 1,
            one_minimal: false,
        };
    }
    loop {
        let mut kept_any = false;
        let mut cands = reduction_plan(&cur);
        let mut i = 0;
        while i < cands.len() {
            if opts.time_limit.is_some_and(|t| start.elapsed() > t) {
                return Minimized {
                    case: cur,
                    steps,
                    tries,
                    one_minimal: false,
                };
            }
            let c = &cands[i].build(&cur);
            i += 1;
            if cost(c) >= cur_cost || (need_wf && !well_formed(c)) {
                continue;
            }
            tries += 1;
            if !pred(c) {
                continue;
            }
            // Keep what the case file holds: print, read back, test again.
            let Ok(back) = diff::read_case_file(&case_text(c)) else {
                continue;
            };
            let back_cost = cost(&back);
            if back_cost >= cur_cost || (need_wf && !well_formed(&back)) || !pred(&back) {
                continue;
            }
            cur = back;
            cur_cost = back_cost;
            steps += 1;
            kept_any = true;
            // Carry on from about the same place in the new list: what
            // failed before it most likely fails again; the next round
            // confirms.
            let at = i.saturating_sub(1);
            cands = reduction_plan(&cur);
            i = at.min(cands.len());
        }
        if !kept_any {
            return Minimized {
                case: cur,
                steps,
                tries,
                one_minimal: true,
            };
        }
    }
}

/// Minimizes a case on which `oracles` fail, keeping the same failure.
/// `None` when the case does not fail.
pub fn minimize_failure(
    case: &Case,
    oracles: &[&dyn Oracle],
    opts: &Options,
) -> Option<(Failure, Minimized)> {
    let pred = SameFailure::of(case, oracles)?;
    let want = pred.want.clone();
    let m = minimize(case, &mut |c| pred.holds(c), opts);
    Some((want, m))
}
