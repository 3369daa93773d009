//! The compiler's own typing, on small type codes.
//!
//! `compile::compile_checked_types` types every operation with the checker's
//! signature engine (`check::result_type`): it unifies patterns, binds
//! variables by name, clones types and writes messages, and that costs about
//! as much as the reference's whole evaluation, which made compiling an
//! expression to evaluate it once slower than interpreting it. The types of
//! DIOp expressions are nearly always integers, floats, opaque pointers and
//! vectors of those, so this module types well-formed operations on a
//! `Copy` code of such types ([`Ty`]; typed pointers and aggregates are
//! borrowed from the expression), applying the same signature and prose rules as the checker
//! without allocating, and emits the same instructions.
//!
//! It only vouches for what it accepts: at the first operation the checker
//! or the compiler would reject (or that involves a shape it does not
//! model: vectors of aggregates or of vectors),
//! [`compile_typed`] gives up and the expression is compiled
//! again with the checker's typing, so that ill-formed expressions still get
//! the checker's messages. `tests/fast_typing.rs` holds the two compilers
//! to the same program for every expression they are given.

use super::arith::BinOp;
use super::compile::{checked_types_into, fragment, Builder, Compiled, Conv, Ins, Lane};
use super::exec::recycle;
use diopter_semantics::ast::{Dialect, Expr, Op};
use diopter_semantics::check::Env;
use diopter_semantics::interp::MAX_PARTS;
use diopter_semantics::types::{FloatKindOrd, Type, MAX_TYPE_BITS};
use diopter_semantics::value::FloatKind;
use std::cell::Cell;

/// A scalar type: what a vector may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scalar<'e> {
    Int(u64),
    Float(FloatKind),
    /// An opaque pointer in this address space.
    Ptr(u32),
    /// A typed pointer `T addrspace(N)*`.
    TPtr(u32, Pointee<'e>),
}

/// What a typed pointer points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pointee<'e> {
    /// A type written in the expression.
    Ref(&'e Type),
    /// The type of the location the seed's `DIOpAddrOf` took the address
    /// of: an index into the compiler's list of such types.
    Made(u32),
}

/// A type code. Comparing two codes never says two different types are
/// equal: integers, floats, opaque pointers and vectors of them have one
/// code each, and the rest compare the types they borrow (a pointee made by
/// `DIOpAddrOf` may compare unequal to the same type written out; that only
/// sends the expression to the checker's typing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty<'e> {
    S(Scalar<'e>),
    Vec(u64, Scalar<'e>),
    /// An array, struct, named or target type, borrowed from the expression:
    /// none of them is basic, an integer, a float, a pointer or a vector
    /// for the checker (which does not resolve names for these questions).
    Other(&'e Type),
}

/// The basic types, as `DIOpConvert` tells them apart.
#[derive(Clone, Copy)]
enum Basic {
    Int(u64),
    Float(FloatKind),
    Ptr,
}

fn scalar(t: &Type) -> Option<Scalar<'_>> {
    match t {
        Type::Int(w) => Some(Scalar::Int(*w)),
        Type::Float(k) => Some(Scalar::Float(k.0)),
        Type::Ptr {
            addrspace,
            pointee: None,
        } => Some(Scalar::Ptr(*addrspace)),
        Type::Ptr {
            addrspace,
            pointee: Some(p),
        } => Some(Scalar::TPtr(*addrspace, Pointee::Ref(p))),
        _ => None,
    }
}

/// The code of a type; `None` for the shapes left to the checker's typing
/// (vectors of aggregates or of vectors).
fn code(t: &Type) -> Option<Ty<'_>> {
    match t {
        Type::Int(_) | Type::Float(_) | Type::Ptr { .. } => scalar(t).map(Ty::S),
        Type::Vector { len, elem } => scalar(elem).map(|s| Ty::Vec(*len, s)),
        Type::Array { .. } | Type::Struct { .. } | Type::Named(_) | Type::Target { .. } => {
            Some(Ty::Other(t))
        }
    }
}

/// The type of a scalar code (`made`: the pointees of `Pointee::Made`).
fn scalar_type<'e>(s: Scalar<'e>, made: &[Ty<'e>]) -> Type {
    match s {
        Scalar::Int(w) => Type::Int(w),
        Scalar::Float(k) => Type::Float(FloatKindOrd(k)),
        Scalar::Ptr(a) => Type::opaque_ptr(a),
        Scalar::TPtr(a, Pointee::Ref(p)) => Type::typed_ptr(p.clone(), a),
        Scalar::TPtr(a, Pointee::Made(k)) => Type::typed_ptr(made[k as usize].to_type(made), a),
    }
}

impl<'e> Ty<'e> {
    /// The type itself (`made`: the pointees of `Pointee::Made`).
    fn to_type(self, made: &[Ty<'e>]) -> Type {
        match self {
            Ty::S(s) => scalar_type(s, made),
            Ty::Vec(len, s) => Type::Vector {
                len,
                elem: Box::new(scalar_type(s, made)),
            },
            Ty::Other(t) => t.clone(),
        }
    }
    fn int_width(self) -> Option<u64> {
        match self {
            Ty::S(Scalar::Int(w)) => Some(w),
            _ => None,
        }
    }
    /// The scalar type of a vector, else the type itself when it is a scalar.
    fn lane(self) -> Option<Scalar<'e>> {
        match self {
            Ty::S(s) | Ty::Vec(_, s) => Some(s),
            Ty::Other(_) => None,
        }
    }
    fn basic(self) -> Option<Basic> {
        match self {
            Ty::S(Scalar::Int(w)) => Some(Basic::Int(w)),
            Ty::S(Scalar::Float(k)) => Some(Basic::Float(k)),
            Ty::S(Scalar::Ptr(_) | Scalar::TPtr(..)) => Some(Basic::Ptr),
            Ty::Vec(..) | Ty::Other(_) => None,
        }
    }
    fn addrspace(self) -> Option<u32> {
        match self {
            Ty::S(Scalar::Ptr(a) | Scalar::TPtr(a, _)) => Some(a),
            _ => None,
        }
    }
}

/// `bitsizeof`, as `DataLayout::bitsizeof` computes it (`None`: its error).
struct Sizes<'v> {
    env: &'v Env<'v>,
}

impl Sizes<'_> {
    #[inline]
    fn scalar(&mut self, s: Scalar) -> u64 {
        match s {
            Scalar::Int(w) => w,
            Scalar::Float(k) => k.width(),
            // A table lookup for the usual address spaces: no cache here.
            Scalar::Ptr(a) | Scalar::TPtr(a, _) => self.env.dl.pointer_bits(a),
        }
    }
    // `always`: with `inline` it stayed a call per sized entry, which
    // cost more than sizing a scalar does.
    #[inline(always)]
    fn of(&mut self, t: Ty) -> Option<u64> {
        let bits = match t {
            Ty::S(s) => self.scalar(s),
            Ty::Vec(len, s) => {
                let e = self.scalar(s);
                if e > MAX_TYPE_BITS {
                    return None;
                }
                len.checked_mul(e)?
            }
            Ty::Other(t) => return self.aggregate(t),
        };
        (bits <= MAX_TYPE_BITS).then_some(bits)
    }
    /// The data layout's size of an aggregate (kept out of line: `of` is
    /// inlined where scalars are sized). Arrays and structs of plain types
    /// take the layout's walk without error values (`bitsizeof_quick`,
    /// held to `bitsizeof` by the layout's tests); the rest, and types
    /// without a size, the full one.
    #[inline(never)]
    fn aggregate(&self, t: &Type) -> Option<u64> {
        let dl = self.env.dl;
        dl.bitsizeof_quick(t, self.env.types)
            .or_else(|| dl.bitsizeof(t, self.env.types).ok())
    }
}

/// How many entries `op` pops (`check::arity`; `DIOpComposite`'s count is
/// checked against the stack by the caller).
fn arity(op: &Op) -> usize {
    match op {
        Op::Referrer(_)
        | Op::Arg(..)
        | Op::TypeObject(_)
        | Op::Constant(..)
        | Op::PushLane(_)
        | Op::Fragment(..) => 0,
        Op::Convert(_)
        | Op::Reinterpret(_)
        | Op::Extend(_)
        | Op::AddrOf(_)
        | Op::Deref(_)
        | Op::Read
        | Op::ZExt(_)
        | Op::SExt(_) => 1,
        Op::Offset
        | Op::BitOffset(_)
        | Op::ByteOffset(_)
        | Op::Add
        | Op::Sub
        | Op::Mul
        | Op::Div
        | Op::Mod
        | Op::And
        | Op::Or
        | Op::Xor
        | Op::Shr
        | Op::LShr
        | Op::AShr
        | Op::Shl => 2,
        Op::Select => 3,
        Op::Composite(n, _) => usize::try_from(*n).unwrap_or(usize::MAX),
    }
}

/// Compiles `e` when every operation is well-formed on types this module
/// models: the program [`compile_checked_types`](super::compile_checked_types)
/// makes. `None`: compile it with the checker's typing instead
/// ([`compile_unchecked`](super::compile_unchecked) does both).
pub fn compile_typed(e: &Expr, env: &Env) -> Option<Compiled> {
    let mut c = Compiled::empty(e);
    compile_typed_into(e, env, &mut c).then_some(c)
}

/// [`compile_typed`] into `c`, an empty program for `e` (`false`: left to
/// the checker's typing, `c` half written).
pub(crate) fn compile_typed_into(e: &Expr, env: &Env, c: &mut Compiled) -> bool {
    // The type stack's buffer is kept per thread: compiling an expression
    // to evaluate it once should not pay for an allocation it does not keep.
    thread_local! {
        static STACK: Cell<Vec<(Ty<'static>, u64)>> = const { Cell::new(Vec::new()) };
    }
    let mut stack = recycle(STACK.take());
    let r = typed(e, env, &mut stack, c).is_some();
    STACK.set(recycle(stack));
    r
}

/// [`compile_typed_into`] with the type stack's buffer: each entry's type
/// and `bitsizeof` (sized once, when it is pushed).
fn typed<'e>(
    e: &'e Expr,
    env: &Env,
    stack: &mut Vec<(Ty<'e>, u64)>,
    c: &mut Compiled,
) -> Option<()> {
    let mut b = Builder::new(e, env, c);
    let mut sz = Sizes { env };
    let mut frag: Option<(u64, u64)> = None;
    // The pointees of the seed's `DIOpAddrOf` results.
    let mut made: Vec<Ty> = Vec::new();
    for (i, node) in e.ops.iter().enumerate() {
        let op = &node.op;
        if let Op::Fragment(offset, size) = op {
            frag = Some(fragment(env, frag, *offset, *size).ok()?);
            continue;
        }
        let n = arity(op);
        if stack.len() < n {
            return None;
        }
        let base = stack.len() - n;
        // Inputs top first, as the checker numbers them.
        let input = |k: usize| stack[stack.len() - 1 - k].0;
        let inbits = |k: usize| stack[stack.len() - 1 - k].1;
        let (ty, bits) = match op {
            Op::Referrer(t) | Op::Arg(_, t) | Op::Constant(t, _) => {
                let ty = code(t)?;
                let bits = sz.of(ty)?;
                // The referrer's and arguments' sizes and the literal are
                // the compiler's own checks, on the operation's type.
                let ins = b.leaf(op, t, bits).ok()?;
                b.emit(i, ins);
                (ty, bits)
            }
            Op::TypeObject(t) | Op::PushLane(t) => {
                let ty = code(t)?;
                let bits = sz.of(ty)?;
                b.op(i, op, &[], t).ok()?;
                (ty, bits)
            }
            Op::Convert(to) => {
                let (from, ty) = (input(0), code(to)?);
                let conv = match (from.basic()?, ty.basic()?) {
                    (Basic::Int(a), Basic::Int(w))
                        if w > a && e.dialect == Dialect::DiExpression =>
                    {
                        return None
                    }
                    (Basic::Int(_), Basic::Int(_)) => Conv::Trunc,
                    (Basic::Int(_), Basic::Float(k)) => Conv::IntToFloat(k),
                    (Basic::Float(k), Basic::Int(_)) => Conv::FloatToInt(k),
                    (Basic::Float(a), Basic::Float(k)) => Conv::FloatToFloat(a, k),
                    (Basic::Ptr | Basic::Int(_), Basic::Ptr) | (Basic::Ptr, Basic::Int(_)) => {
                        Conv::Trunc
                    }
                    (Basic::Float(_), Basic::Ptr) | (Basic::Ptr, Basic::Float(_)) => return None,
                };
                let to_w = sz.of(ty)?;
                let from_w = inbits(0);
                b.emit(i, Ins::Convert { from_w, to_w, conv });
                (ty, to_w)
            }
            Op::Reinterpret(to) => {
                let ty = code(to)?;
                // The location passes through: nothing to run.
                let bits = sz.of(ty)?;
                if inbits(0) != bits {
                    return None;
                }
                (ty, bits)
            }
            Op::Offset | Op::BitOffset(_) | Op::ByteOffset(_) => {
                let bw = match input(0) {
                    Ty::S(Scalar::Int(_)) => inbits(0),
                    _ => return None,
                };
                let (ty, bits) = match op {
                    Op::BitOffset(Some(t)) | Op::ByteOffset(t) => {
                        let ty = code(t)?;
                        (ty, sz.of(ty)?)
                    }
                    _ => (input(1), inbits(1)),
                };
                b.emit(
                    i,
                    Ins::Offset {
                        bw,
                        bytes: !matches!(op, Op::BitOffset(_)),
                    },
                );
                (ty, bits)
            }
            Op::Composite(k, t) => {
                let ty = code(t)?;
                let at = b.c.part_bits.len() as u32;
                let mut sum: u64 = 0;
                // Parts bottom of the stack first.
                for &(_, bits) in &stack[base..] {
                    b.c.part_bits.push(bits);
                    sum = sum.checked_add(bits)?;
                }
                let bits = sz.of(ty)?;
                if sum != bits {
                    return None;
                }
                b.emit(i, Ins::Composite { n: *k as u32, at });
                (ty, bits)
            }
            Op::Extend(k) => {
                let Ty::S(s) = input(0) else { return None };
                if *k == 0 || *k > MAX_PARTS {
                    return None;
                }
                let ty = Ty::Vec(*k, s);
                let bits = sz.of(ty)?;
                let w = inbits(0);
                b.emit(i, Ins::Extend { n: *k as u32, w });
                (ty, bits)
            }
            Op::Select => {
                let (l1, l0, lm) = (input(0), input(1), input(2));
                let Ty::Vec(k, s) = l1 else { return None };
                if l0 != l1 || k > MAX_PARTS {
                    return None;
                }
                let mask_w = match lm.int_width() {
                    Some(w) if w >= k => inbits(2),
                    _ => return None,
                };
                let w = sz.of(Ty::S(s))?;
                b.emit(
                    i,
                    Ins::Select {
                        n: k as u32,
                        w,
                        mask_w,
                    },
                );
                (l1, inbits(0))
            }
            Op::AddrOf(k) => {
                let target = input(0);
                let a = u32::try_from(*k).ok()?;
                // The live dialect's line makes an opaque pointer; the
                // seed's a pointer to the target's type.
                let ty = match e.dialect {
                    Dialect::DiExpression => Ty::S(Scalar::Ptr(a)),
                    Dialect::DiExpr => {
                        made.push(target);
                        Ty::S(Scalar::TPtr(a, Pointee::Made((made.len() - 1) as u32)))
                    }
                };
                let bits = sz.of(ty)?;
                let target_ty = b.ty_owned(target.to_type(&made));
                let ptr_ty = b.ty_owned(ty.to_type(&made));
                b.emit(
                    i,
                    Ins::AddrOf {
                        target_ty,
                        ptr_ty,
                        bits,
                    },
                );
                (ty, bits)
            }
            Op::Deref(t) => {
                let p = input(0);
                let addrspace = p.addrspace()?;
                let ty = match (t, p) {
                    (Some(t), _) => code(t)?,
                    // The seed's form: the pointee of a typed pointer.
                    (None, Ty::S(Scalar::TPtr(_, Pointee::Ref(t)))) => code(t)?,
                    (None, Ty::S(Scalar::TPtr(_, Pointee::Made(k)))) => made[k as usize],
                    (None, _) => return None,
                };
                let bits = sz.of(ty)?;
                let ptr_w = inbits(0);
                b.emit(
                    i,
                    Ins::Deref {
                        addrspace,
                        ptr_w,
                        not_ptr: None,
                    },
                );
                (ty, bits)
            }
            Op::Read => {
                let (ty, w) = (input(0), inbits(0));
                b.emit(i, Ins::Read { w });
                (ty, w)
            }
            Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Div
            | Op::Mod
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::Shr
            | Op::LShr
            | Op::AShr
            | Op::Shl => {
                let ty = input(0);
                if input(1) != ty {
                    return None;
                }
                let arithmetic = op.is_arithmetic();
                let s = ty.lane()?;
                let lane = match s {
                    Scalar::Int(_) => Lane::Int,
                    Scalar::Float(k) if arithmetic => Lane::Float(k),
                    Scalar::Float(_) | Scalar::Ptr(_) | Scalar::TPtr(..) => return None,
                };
                let lanes = match ty {
                    Ty::Vec(k, _) => k,
                    _ => 1,
                };
                let w = sz.of(Ty::S(s))?;
                let bin = BinOp::of(op);
                b.emit(
                    i,
                    Ins::Bin {
                        op: bin,
                        lane,
                        lanes,
                        w,
                    },
                );
                (ty, inbits(0))
            }
            Op::ZExt(to) | Op::SExt(to) => {
                let from = input(0);
                let ty = code(to)?;
                let (Some(a), Some(w)) = (from.int_width(), ty.int_width()) else {
                    return None;
                };
                if w <= a {
                    return None;
                }
                let bits = sz.of(ty)?;
                let from_w = inbits(0);
                b.emit(
                    i,
                    Ins::Ext {
                        from: from_w,
                        to: w,
                        signed: matches!(op, Op::SExt(_)),
                    },
                );
                (ty, bits)
            }
            Op::Fragment(..) => unreachable!("handled above"),
        };
        stack.truncate(base);
        stack.push((ty, bits));
    }
    let [(top, bits)] = stack.as_slice() else {
        return None;
    };
    let bits = *bits;
    // The previous program's result is usually a scalar of the same kind:
    // overwrite its field rather than drop it and make another.
    match (&mut b.c.result, *top) {
        (Some((Type::Int(w), b)), Ty::S(Scalar::Int(x))) => (*w, *b) = (x, bits),
        (Some((Type::Float(k), b)), Ty::S(Scalar::Float(x))) => (*k, *b) = (FloatKindOrd(x), bits),
        (
            Some((
                Type::Ptr {
                    addrspace,
                    pointee: None,
                },
                b,
            )),
            Ty::S(Scalar::Ptr(x)),
        ) => (*addrspace, *b) = (x, bits),
        // A vector keeps its element's box.
        (Some((Type::Vector { len, elem }, b)), Ty::Vec(n, Scalar::Int(x)))
            if matches!(**elem, Type::Int(_)) =>
        {
            if let Type::Int(w) = &mut **elem {
                *w = x;
            }
            (*len, *b) = (n, bits)
        }
        (r, top) => *r = Some((top.to_type(&made), bits)),
    }
    b.c.fragment = frag;
    Some(())
}

/// Compiles any expression, well-formed or not: what the reference
/// interpreter would reject without looking at the context becomes a
/// failing instruction at the same operation.
///
/// Well-formed expressions on the usual types are typed by
/// this module on small type codes; anything it does not vouch for
/// (an ill-formed operation, a vector of aggregates or of vectors) is
/// compiled again from the start by [`compile_checked_types`](super::compile_checked_types), which types
/// with the checker's own engine and so gives the checker's messages.
pub fn compile_unchecked(e: &Expr, env: &Env) -> Compiled {
    let mut c = Compiled::empty(e);
    compile_unchecked_into(e, env, &mut c);
    c
}

impl Compiled {
    /// `*self = compile_unchecked(e, env)`, in this program's buffers: they
    /// are cleared and reused, so that a caller compiling one expression
    /// after another (a debugger at a stop, a fuzz loop) neither allocates
    /// a program nor drops one per expression once the buffers have grown.
    pub fn recompile_unchecked(&mut self, e: &Expr, env: &Env) {
        self.reset(e);
        compile_unchecked_into(e, env, self);
    }
}

/// [`compile_unchecked`] into `c`, an empty program for `e`.
fn compile_unchecked_into(e: &Expr, env: &Env, c: &mut Compiled) {
    if !compile_typed_into(e, env, c) {
        c.reset(e);
        c.result = None;
        checked_types_into(e, env, c);
    }
}
