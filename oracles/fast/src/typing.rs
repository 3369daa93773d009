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
//! model: vectors of aggregates or of vectors, and integers, address
//! spaces or vector lengths of 2^24 or more),
//! [`compile_typed`] gives up and the expression is compiled
//! again with the checker's typing, so that ill-formed expressions still get
//! the checker's messages. `tests/fast_typing.rs` holds the two compilers
//! to the same program for every expression they are given.

use super::arith::BinOp;
use super::compile::{checked_types_into, fragment, same_type, Builder, Compiled, Conv, Ins, Lane};
use super::exec::recycle;
use diopter_semantics::ast::{Dialect, Expr, Op};
use diopter_semantics::check::Env;
use diopter_semantics::interp::MAX_PARTS;
use diopter_semantics::types::{FloatKindOrd, Type, MAX_TYPE_BITS};
use diopter_semantics::value::FloatKind;
use std::cell::Cell;

/// The kinds of type code (the low byte of [`Ty::head`]).
const INT: u64 = 0;
const FLOAT: u64 = 1;
/// An opaque pointer.
const PTR: u64 = 2;
/// A typed pointer: to a type written in the expression (`Ty::r`), or
/// (`r` none) to the type of the location the seed's `DIOpAddrOf` took the
/// address of (the code's `sub` indexes the compiler's list of such types).
const TPTR: u64 = 3;
/// An array, struct, named or target type, borrowed from the expression
/// (`Ty::r`): none of them is basic, an integer, a float, a pointer or a
/// vector for the checker (which does not resolve names for these
/// questions).
const OTHER: u64 = 4;

/// A type code: a scalar (an integer, a float, a pointer), a vector of one,
/// or a type it borrows. Comparing two codes never says two different
/// types are equal: fields a kind does not use are zero, and the borrowed
/// types compare as types (a pointee made by `DIOpAddrOf` may compare
/// unequal to the same type written out; that only sends the expression
/// to the checker's typing).
///
/// Packed into a word and a borrow: the typing loop carries the code of
/// every operation's result through its match and into its stack, and
/// each separate field was a value to spill and reload there (nested
/// enums were worse: shifts and masks on every copy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ty<'e> {
    /// The kind (bits 0-7); a float's kind or a made pointee's index (bits
    /// 8-15); a vector's length, 0 for anything else (bits 16-39); an
    /// integer's width or a pointer's address space (bits 40-63).
    head: u64,
    /// A typed pointer's written pointee, an `OTHER`'s type.
    r: Option<&'e Type>,
}

/// The bound of a code's 24-bit fields: wider integers, pointers in higher
/// address spaces and longer vectors are left to the checker's typing.
const FIELD: u64 = 1 << 24;

impl<'e> Ty<'e> {
    /// The code of these fields (each within its bits).
    fn new(kind: u64, sub: u64, lanes: u64, x: u64, r: Option<&'e Type>) -> Ty<'e> {
        Ty {
            head: kind | sub << 8 | lanes << 16 | x << 40,
            r,
        }
    }
    fn kind(self) -> u64 {
        self.head & 0xff
    }
    fn sub(self) -> u64 {
        (self.head >> 8) & 0xff
    }
    fn lanes(self) -> u64 {
        (self.head >> 16) & (FIELD - 1)
    }
    fn x(self) -> u64 {
        self.head >> 40
    }
    fn fk(self) -> FloatKind {
        FloatKind::ALL[self.sub() as usize]
    }
    /// This code with `n` lanes (`n < FIELD`; 0: the scalar itself).
    fn with_lanes(self, n: u64) -> Ty<'e> {
        Ty {
            head: self.head & !((FIELD - 1) << 16) | n << 16,
            r: self.r,
        }
    }
}

/// The basic types, as `DIOpConvert` tells them apart.
#[derive(Clone, Copy)]
enum Basic {
    Int(u64),
    Float(FloatKind),
    Ptr,
}

/// The code of a scalar type (`None`: not a scalar, or a field the code
/// cannot hold).
fn scalar(t: &Type) -> Option<Ty<'_>> {
    let (kind, sub, x, r) = match t {
        Type::Int(w) => (INT, 0, *w, None),
        Type::Float(k) => (FLOAT, k.0 as u64, 0, None),
        Type::Ptr {
            addrspace,
            pointee: None,
        } => (PTR, 0, u64::from(*addrspace), None),
        Type::Ptr {
            addrspace,
            pointee: Some(p),
        } => (TPTR, 0, u64::from(*addrspace), Some(&**p)),
        _ => return None,
    };
    (x < FIELD).then(|| Ty::new(kind, sub, 0, x, r))
}

/// The code of a type; `None` for the shapes left to the checker's typing
/// (vectors of aggregates or of vectors, and what the code cannot hold).
fn code(t: &Type) -> Option<Ty<'_>> {
    match t {
        Type::Int(_) | Type::Float(_) | Type::Ptr { .. } => scalar(t),
        Type::Vector { len, elem } if (1..FIELD).contains(len) => {
            Some(scalar(elem)?.with_lanes(*len))
        }
        Type::Vector { .. } => None,
        Type::Array { .. } | Type::Struct { .. } | Type::Named(_) | Type::Target { .. } => {
            Some(Ty::new(OTHER, 0, 0, 0, Some(t)))
        }
    }
}

impl<'e> Ty<'e> {
    /// The type itself (`made`: the pointees of `PTR_MADE` codes).
    fn to_type(self, made: &[Ty<'e>]) -> Type {
        let x = self.x();
        let one = match self.kind() {
            INT => Type::Int(x),
            FLOAT => Type::Float(FloatKindOrd(self.fk())),
            PTR => Type::opaque_ptr(x as u32),
            TPTR => match self.r {
                Some(p) => Type::typed_ptr(p.clone(), x as u32),
                None => Type::typed_ptr(made[self.sub() as usize].to_type(made), x as u32),
            },
            _ => return self.borrowed().clone(),
        };
        match self.lanes() {
            0 => one,
            len => Type::Vector {
                len,
                elem: Box::new(one),
            },
        }
    }
    fn borrowed(self) -> &'e Type {
        self.r.expect("an `OTHER` borrows its type")
    }
    fn int_width(self) -> Option<u64> {
        (self.kind() == INT && self.lanes() == 0).then_some(self.x())
    }
    /// The scalar type of a vector, else the type itself when it is a scalar.
    fn lane(self) -> Option<Ty<'e>> {
        (self.kind() != OTHER).then_some(self.with_lanes(0))
    }
    fn basic(self) -> Option<Basic> {
        if self.lanes() != 0 {
            return None;
        }
        match self.kind() {
            INT => Some(Basic::Int(self.x())),
            FLOAT => Some(Basic::Float(self.fk())),
            PTR | TPTR => Some(Basic::Ptr),
            _ => None,
        }
    }
    fn addrspace(self) -> Option<u32> {
        (matches!(self.kind(), PTR | TPTR) && self.lanes() == 0).then_some(self.x() as u32)
    }
}

/// `bitsizeof`, as `DataLayout::bitsizeof` computes it (`None`: its error).
struct Sizes<'v> {
    env: &'v Env<'v>,
}

impl Sizes<'_> {
    // `always`: with `inline` it stayed a call per sized entry, which
    // cost more than sizing a scalar does.
    #[inline(always)]
    fn of(&mut self, t: Ty) -> Option<u64> {
        let e = match t.kind() {
            INT => t.x(),
            FLOAT => t.fk().width(),
            // A table lookup for the usual address spaces: no cache here.
            PTR | TPTR => self.env.dl.pointer_bits(t.x() as u32),
            _ => return self.aggregate(t.borrowed()),
        };
        let bits = match t.lanes() {
            0 => e,
            _ if e > MAX_TYPE_BITS => return None,
            // Under 2^24 lanes of at most 2^28 bits: no overflow.
            n => n * e,
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

/// `DIOpArg(n, t)`'s instruction when the argument is not poison and its
/// size is known to be `bits` or its type is `t`: the usual
/// argument, which this takes without the call to `Builder::leaf` (whose
/// frame, made for every leaf and its messages, costs more than the check).
/// `None`: ask `Builder::leaf`, which checks the rest.
#[inline(always)]
fn quick_arg(env: &Env, n: u64, t: &Type, bits: u64) -> Option<Ins> {
    let Some(args) = env.args else {
        return Some(Ins::Arg(n));
    };
    let a = args.get(usize::try_from(n).ok()?)?;
    if a.poison {
        return None;
    }
    let same = match (a.bits, &a.ty) {
        (Some(ab), _) => ab == bits,
        (None, None) => true,
        (None, Some(at)) => same_type(at, t),
    };
    same.then_some(Ins::Arg(n))
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
            Op::Arg(n, t) => {
                let ty = code(t)?;
                let bits = sz.of(ty)?;
                let ins = match quick_arg(env, *n, t, bits) {
                    Some(ins) => ins,
                    None => b.leaf(op, t, bits).ok()?,
                };
                b.emit(i, ins);
                (ty, bits)
            }
            Op::Constant(t, v) => {
                let ty = code(t)?;
                let bits = sz.of(ty)?;
                // `Builder::leaf`'s way for a constant, without its call.
                let ins = match b.quick_literal(t, v, bits) {
                    Some(ins) => ins,
                    None => b.literal(t, v).ok()?,
                };
                b.emit(i, ins);
                (ty, bits)
            }
            Op::Referrer(t) => {
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
                input(0).int_width()?;
                let bw = inbits(0);
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
                let s = input(0);
                if s.lanes() != 0 || s.kind() == OTHER || *k == 0 || *k > MAX_PARTS {
                    return None;
                }
                let ty = s.with_lanes(*k);
                let bits = sz.of(ty)?;
                let w = inbits(0);
                b.emit(i, Ins::Extend { n: *k as u32, w });
                (ty, bits)
            }
            Op::Select => {
                let (l1, l0, lm) = (input(0), input(1), input(2));
                let k = l1.lanes();
                if k == 0 || l0 != l1 || k > MAX_PARTS {
                    return None;
                }
                let mask_w = match lm.int_width() {
                    Some(w) if w >= k => inbits(2),
                    _ => return None,
                };
                let w = sz.of(l1.lane()?)?;
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
                // Address spaces the code cannot hold are left to the
                // checker's typing.
                let a = Some(*k).filter(|&a| a < FIELD)?;
                // The live dialect's line makes an opaque pointer; the
                // seed's a pointer to the target's type.
                let ty = match e.dialect {
                    Dialect::DiExpression => Ty::new(PTR, 0, 0, a, None),
                    Dialect::DiExpr => {
                        // The code holds 256 made pointees.
                        if made.len() > 0xff {
                            return None;
                        }
                        made.push(target);
                        Ty::new(TPTR, (made.len() - 1) as u64, 0, a, None)
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
                let ty = match (t, p.kind()) {
                    (Some(t), _) => code(t)?,
                    // The seed's form: the pointee of a typed pointer.
                    (None, TPTR) => match p.r {
                        Some(t) => code(t)?,
                        None => made[p.sub() as usize],
                    },
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
                let lane = match ty.kind() {
                    INT => Lane::Int,
                    FLOAT if arithmetic => Lane::Float(ty.fk()),
                    _ => return None,
                };
                let lanes = ty.lanes().max(1);
                let w = sz.of(ty.with_lanes(0))?;
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
    let top = *top;
    match (&mut b.c.result, top.lanes(), top.kind()) {
        (Some((Type::Int(w), b)), 0, INT) => (*w, *b) = (top.x(), bits),
        (Some((Type::Float(k), b)), 0, FLOAT) => (*k, *b) = (FloatKindOrd(top.fk()), bits),
        (
            Some((
                Type::Ptr {
                    addrspace,
                    pointee: None,
                },
                b,
            )),
            0,
            PTR,
        ) => (*addrspace, *b) = (top.x() as u32, bits),
        // A vector keeps its element's box.
        (Some((Type::Vector { len, elem }, b)), n @ 1.., INT) if matches!(**elem, Type::Int(_)) => {
            if let Type::Int(w) = &mut **elem {
                *w = top.x();
            }
            (*len, *b) = (n, bits)
        }
        (r, ..) => *r = Some((top.to_type(&made), bits)),
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
