//! Patterns: the two sides of a rule as postfix lists of [`PatOp`]s, with
//! type variables inside types, and the helpers both the instance
//! enumeration (substitution) and the simplifier (unification against a
//! concrete expression) use.
//!
//! A type variable `T` is kept inside an ordinary [`Type`] as the named type
//! `%"?T"` ([`tvar`]); no type a parser reads from an expression has a name
//! starting with `?` unless it is quoted that way, and patterns are only
//! ever unified against concrete types, never with each other. A numeric
//! parameter hole (`DIOpAddrOf(?n)`) is kept as a sentinel number inside the
//! operation ([`param_sentinel`]) and named in [`PatOp::Op::params`].

use super::term::TermPat;
use diopter_semantics::ast::{Op, Span};
use diopter_semantics::syntax::lexer::Token;
use diopter_semantics::types::Type;
use std::collections::BTreeMap;

/// The type standing for type variable `name`.
pub fn tvar(name: &str) -> Type {
    Type::Named(format!("?{name}"))
}

/// The variable a type stands for, if it is one.
pub fn tvar_name(t: &Type) -> Option<&str> {
    match t {
        Type::Named(n) => n.strip_prefix('?'),
        _ => None,
    }
}

/// Sentinel numbers for parameter holes: far above any address space or
/// count a rule writes, below LLVM's address-space limit of 2^24.
pub const PARAM_SENTINEL_BASE: u64 = 16_000_000;

pub fn param_sentinel(k: usize) -> u64 {
    PARAM_SENTINEL_BASE + k as u64
}

/// One element of a rule side.
#[derive(Clone, Debug)]
pub enum PatOp {
    /// `?x:T`: a subexpression pushing one entry of type `ty` (`None` on the
    /// right side, where the left side's type applies).
    Hole {
        name: String,
        ty: Option<Type>,
        span: Span,
    },
    /// `DIOpConstant(T ?c)`: any fully defined constant of type `ty`.
    ConstHole { name: String, ty: Type, span: Span },
    /// `DIOpConstant(T literal)`: the literal's tokens, read once `ty` is
    /// concrete (a `0` means `i32 0` or `i8 0` depending on `T`).
    Const {
        ty: Type,
        lit: Vec<Token>,
        span: Span,
    },
    /// `DIOpConstant(T {term})` (right side only): a constant computed from
    /// the left side's constant holes.
    Computed { ty: Type, term: TermPat, span: Span },
    /// Any other operation; its types may contain type variables and
    /// `params` names the parameter holes (`(sentinel index, name)`).
    Op {
        op: Op,
        params: Vec<(usize, String)>,
        span: Span,
    },
}

impl PatOp {
    pub fn span(&self) -> Span {
        match self {
            PatOp::Hole { span, .. }
            | PatOp::ConstHole { span, .. }
            | PatOp::Const { span, .. }
            | PatOp::Computed { span, .. }
            | PatOp::Op { span, .. } => *span,
        }
    }
}

/// `t` with every type variable replaced by its binding (unbound ones stay).
pub fn subst_type(t: &Type, b: &BTreeMap<String, Type>) -> Type {
    if let Some(v) = tvar_name(t) {
        return b.get(v).cloned().unwrap_or_else(|| t.clone());
    }
    match t {
        Type::Ptr {
            addrspace,
            pointee: Some(p),
        } => Type::Ptr {
            addrspace: *addrspace,
            pointee: Some(Box::new(subst_type(p, b))),
        },
        Type::Vector { len, elem } => Type::Vector {
            len: *len,
            elem: Box::new(subst_type(elem, b)),
        },
        Type::Array { len, elem } => Type::Array {
            len: *len,
            elem: Box::new(subst_type(elem, b)),
        },
        Type::Struct { fields, packed } => Type::Struct {
            fields: fields.iter().map(|f| subst_type(f, b)).collect(),
            packed: *packed,
        },
        _ => t.clone(),
    }
}

/// Every type variable in `t`.
pub fn type_vars(t: &Type, out: &mut Vec<String>) {
    if let Some(v) = tvar_name(t) {
        out.push(v.to_string());
        return;
    }
    match t {
        Type::Ptr {
            pointee: Some(p), ..
        } => type_vars(p, out),
        Type::Vector { elem, .. } | Type::Array { elem, .. } => type_vars(elem, out),
        Type::Struct { fields, .. } => fields.iter().for_each(|f| type_vars(f, out)),
        _ => {}
    }
}

/// Unifies pattern type `pat` with the concrete type `t`, extending `b`.
pub fn unify_type(pat: &Type, t: &Type, b: &mut BTreeMap<String, Type>) -> bool {
    if let Some(v) = tvar_name(pat) {
        return match b.get(v) {
            Some(bound) => bound == t,
            None => {
                b.insert(v.to_string(), t.clone());
                true
            }
        };
    }
    match (pat, t) {
        (
            Type::Ptr {
                addrspace: a,
                pointee: pa,
            },
            Type::Ptr {
                addrspace: c,
                pointee: pc,
            },
        ) => {
            a == c
                && match (pa, pc) {
                    (None, None) => true,
                    (Some(x), Some(y)) => unify_type(x, y, b),
                    _ => false,
                }
        }
        (Type::Vector { len: l, elem: e }, Type::Vector { len: m, elem: f })
        | (Type::Array { len: l, elem: e }, Type::Array { len: m, elem: f }) => {
            l == m
                && std::mem::discriminant(pat) == std::mem::discriminant(t)
                && unify_type(e, f, b)
        }
        (
            Type::Struct {
                fields: fa,
                packed: pa,
            },
            Type::Struct {
                fields: fb,
                packed: pb,
            },
        ) => {
            pa == pb && fa.len() == fb.len() && fa.iter().zip(fb).all(|(x, y)| unify_type(x, y, b))
        }
        _ => pat == t,
    }
}

/// The types and numbers an operation carries, in a fixed order.
pub fn op_parts(op: &Op) -> (Vec<&Type>, Vec<u64>) {
    let nums = match op {
        Op::Arg(n, _) | Op::Composite(n, _) | Op::Extend(n) | Op::AddrOf(n) => vec![*n],
        Op::Fragment(a, b) => vec![*a, *b],
        _ => vec![],
    };
    (op.type_param().into_iter().collect(), nums)
}

/// `op` with its types passed through `ft` and its numbers through `fnum`.
pub fn map_op(op: &Op, ft: &dyn Fn(&Type) -> Type, fnum: &dyn Fn(u64) -> u64) -> Op {
    match op {
        Op::Referrer(t) => Op::Referrer(ft(t)),
        Op::TypeObject(t) => Op::TypeObject(ft(t)),
        Op::Convert(t) => Op::Convert(ft(t)),
        Op::Reinterpret(t) => Op::Reinterpret(ft(t)),
        Op::BitOffset(t) => Op::BitOffset(t.as_ref().map(ft)),
        Op::ByteOffset(t) => Op::ByteOffset(ft(t)),
        Op::Deref(t) => Op::Deref(t.as_ref().map(ft)),
        Op::ZExt(t) => Op::ZExt(ft(t)),
        Op::SExt(t) => Op::SExt(ft(t)),
        Op::PushLane(t) => Op::PushLane(ft(t)),
        Op::Constant(t, l) => Op::Constant(ft(t), l.clone()),
        Op::Arg(n, t) => Op::Arg(fnum(*n), ft(t)),
        Op::Composite(n, t) => Op::Composite(fnum(*n), ft(t)),
        Op::Extend(n) => Op::Extend(fnum(*n)),
        Op::AddrOf(n) => Op::AddrOf(fnum(*n)),
        Op::Fragment(a, b) => Op::Fragment(fnum(*a), fnum(*b)),
        other => other.clone(),
    }
}

/// Unifies pattern operation `pat` (not a constant) with concrete `op`:
/// same operation and spelling, types unified, numbers equal or bound to
/// the parameter holes `params` names.
pub fn unify_op(
    pat: &Op,
    params: &[(usize, String)],
    op: &Op,
    types: &mut BTreeMap<String, Type>,
    nums: &mut BTreeMap<String, u64>,
) -> bool {
    if std::mem::discriminant(pat) != std::mem::discriminant(op) {
        return false;
    }
    let (pt, pn) = op_parts(pat);
    let (ct, cn) = op_parts(op);
    if pt.len() != ct.len() || pn.len() != cn.len() {
        return false;
    }
    for (x, y) in pt.iter().zip(&ct) {
        if !unify_type(x, y, types) {
            return false;
        }
    }
    for (x, y) in pn.iter().zip(&cn) {
        match params
            .iter()
            .find(|(k, _)| param_sentinel(*k) == *x)
            .map(|p| &p.1)
        {
            Some(name) => match nums.get(name) {
                Some(v) if v != y => return false,
                Some(_) => {}
                None => {
                    nums.insert(name.clone(), *y);
                }
            },
            None if x != y => return false,
            None => {}
        }
    }
    true
}

/// `op` (a pattern operation) with its type variables and parameter holes
/// bound.
pub fn instantiate_op(
    op: &Op,
    params: &[(usize, String)],
    types: &BTreeMap<String, Type>,
    nums: &BTreeMap<String, u64>,
) -> Op {
    map_op(op, &|t| subst_type(t, types), &|n| {
        params
            .iter()
            .find(|(k, _)| param_sentinel(*k) == n)
            .and_then(|(_, name)| nums.get(name).copied())
            .unwrap_or(n)
    })
}
