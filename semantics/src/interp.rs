//! The reference interpreter: what an expression means in a context.
//!
//! Everything else in diopter is checked against this module, so it is written
//! to be obviously right rather than fast: no caching, no fast paths. The stack
//! handling is driven by the parsed stack-effect signatures through the
//! checker's engine ([`check::arity`] for how many entries an operation pops,
//! [`check::result_type`] for the type it pushes, [`check::passes_location`]
//! for the one operation whose output location *is* an input's); only each
//! operation's body, what it does to locations and values, is written by hand,
//! one small function per operation, each quoting the spec sentences it
//! implements. The spec is `seeds/000_1994fad33ac38a46.txt` ("DIExpr" section);
//! for the live dialect's operations the seed has no prose, and the bodies
//! quote AMD's newer document (AMDGPULLVMExtensionsForHeterogeneousDebugging).
//! DESIGN.md's decisions are binding where the texts are silent or wrong.
//!
//! "If the evaluation of an LLVM expression does not encounter an error, then
//! it results in exactly one pair of location description and type." That pair
//! is a [`Located`]. "If the evaluation of an LLVM expression encounters an
//! error, the result is an evaluation error": an [`EvalError`] of some
//! [`ErrorKind`]. "If an LLVM expression is not well-formed, then the result is
//! undefined": the interpreter never panics on such an expression, it reports
//! [`ErrorKind::IllFormed`] for whatever ill-formedness it runs into (the
//! checker should have rejected the expression before). `eval` does not run
//! the checker first: it reports the ill-formedness it meets on the way, so
//! that the two can be compared.
//!
//! # Decisions where the texts are silent
//!
//! * `DIOpExtend` and `DIOpSelect` build composite *locations*, as AMD's prose
//!   says ("as if `DIOpComposite(N, <N x T>)` was applied to ..."): reading
//!   them reads the (selected) lanes, writing them writes the lanes back.
//! * `DIOpByteOffset`: `B * 8` is the mathematical product of the signed value
//!   read, not a product wrapped to `I`.
//! * A constant vector or array with some `undef`/`poison` elements is a
//!   composite of implicit and undefined parts; `poison` is `undef`.
//! * `DIOpReferrer`: the context's `referrer`; in `diexpression` without one,
//!   argument 0 (undefined if that argument is poison). A size mismatch with a
//!   known referrer or argument is ill-formed; an unknown referrer type is not.
//! * `DIOpDeref` takes the implicit-address shortcut only for a location that
//!   is exactly one single location in implicit-address storage at offset 0;
//!   anything else is read as a pointer (and reading an implicit address is
//!   [`ErrorKind::ImplicitAddressRead`]). Applied to an `AddrOf`, the live
//!   `DIOpDeref(T)` gives the referenced location with type `T`.
//! * `DIOpPushLane(T)`: a lane number that does not fit in `T` (unsigned) is
//!   [`ErrorKind::ConvertOutOfRange`].
//! * `DIOpMod` of floats is ill-formed; arithmetic, bitwise operations and
//!   shifts on vectors work lane by lane.
//! * `DIOpFragment`: a second one, size 0, or one outside the variable (when
//!   its size is known) is ill-formed, as AMD's verifier says.
//! * The operations' dialect is the expression's (`Expr::dialect`).

use crate::access;
use crate::ast::{Bare, Dialect, Expr, Op};
use crate::check::{self, BareInputs, Env, ReferrerInfo};
use crate::context::Context;
use crate::location::{
    self, LocDesc, Part, ReadError, ReadErrorKind, Single, Storage, WriteError, WriteErrorKind,
};
use crate::types::{Type, TypeTable};
use crate::value::{self, Bits, FloatOp};
use num_bigint::BigInt;
use num_traits::Zero;
use std::fmt;

/// The result of a successful evaluation: "exactly one pair of location
/// description and type", plus the `DIOpFragment` metadata if there was one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub loc: LocDesc,
    pub ty: Type,
    /// `bitsizeof(ty)`, so that the location can be read and written without
    /// the type table.
    pub bits: u64,
    /// `DIOpFragment(offset, size)`: which bits of the variable this describes.
    pub fragment: Option<(u64, u64)>,
}

/// The classes of evaluation errors. Oracles compare outcomes by class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    /// A bit of undefined storage was read.
    ReadUndefined,
    /// A bit outside its storage was read.
    OutOfBounds,
    /// `DIOpDiv` or `DIOpMod` by zero.
    DivisionByZero,
    /// A float→int conversion of a NaN, an infinity or an out-of-range value
    /// (or a lane number too large for `DIOpPushLane`'s type).
    ConvertOutOfRange,
    /// An operation other than `DIOpDeref` read an implicit address.
    ImplicitAddressRead,
    /// The single locations of a location description disagree: the context
    /// broke the spec's promise that they hold the same object.
    Inconsistent,
    /// `DIOpReferrer`, but the context gives no referrer.
    NoReferrer,
    /// `DIOpArg(N, T)`, but the context gives no `arg N`.
    NoArgument,
    /// `DIOpTypeObject`, but the context gives no object.
    NoObject,
    /// `DIOpPushLane`, but the context gives no lane.
    NoLane,
    /// The expression is not well-formed (the checker should have said so).
    IllFormed,
    /// The evaluation needs more than diopter's resource limits allow (see
    /// [`MAX_PARTS`], [`location::MAX_LOC_NODES`]); says nothing about the
    /// expression's meaning, so oracles
    /// skip such cases.
    ResourceLimit,
}

/// Resource limit: at most this many parts in the composite a `DIOpExtend` or
/// `DIOpSelect` builds (one per lane).
pub const MAX_PARTS: u64 = 1 << 16;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    pub kind: ErrorKind,
    /// The operation that failed; `ops.len()` when the expression as a whole
    /// failed (the stack does not end with exactly one entry).
    pub op_index: usize,
    pub message: String,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} at operation #{}: {}",
            self.kind, self.op_index, self.message
        )
    }
}

pub type Outcome = Result<Located, EvalError>;

/// An error of one operation, before the operation's index is attached.
type Fail = (ErrorKind, String);
type OpResult = Result<LocDesc, Fail>;

fn ill(message: impl Into<String>) -> Fail {
    (ErrorKind::IllFormed, message.into())
}

fn read_fail(e: ReadError) -> Fail {
    let kind = match e.kind {
        ReadErrorKind::Undefined => ErrorKind::ReadUndefined,
        ReadErrorKind::OutOfBounds => ErrorKind::OutOfBounds,
        ReadErrorKind::ImplicitAddress => ErrorKind::ImplicitAddressRead,
        ReadErrorKind::Inconsistent => ErrorKind::Inconsistent,
    };
    (kind, e.message)
}

/// One stack element: "a tuple of a type and a location description".
#[derive(Clone, Debug)]
struct Entry {
    loc: LocDesc,
    ty: Type,
}

/// What every operation body may look at.
struct Step<'a> {
    env: &'a Env<'a>,
    ctx: &'a Context,
    dialect: Dialect,
}

impl Step<'_> {
    /// `bitsizeof(T)`.
    fn bitsizeof(&self, t: &Type) -> Result<u64, Fail> {
        self.env
            .dl
            .bitsizeof(t, self.env.types)
            .map_err(|e| ill(e.0))
    }

    /// "the value of type T obtained by reading bitsizeof(T) bits from L"
    fn read(&self, l: &LocDesc, t: &Type) -> Result<Bits, Fail> {
        let bits = self.bitsizeof(t)?;
        access::read(self.ctx, l, bits).map_err(read_fail)
    }
}

// ------------------------------------------------------------------ the loop

/// Evaluates `e` in `ctx`. The stack effects come from the signatures (via the
/// checker's engine), the operations' bodies from the functions below.
pub fn eval(e: &Expr, env: &Env, ctx: &Context) -> Outcome {
    let step = Step {
        env,
        ctx,
        dialect: e.dialect,
    };
    // "The evaluation of the expression is performed on a stack where each
    // stack element is a tuple of a type and a location description."
    let mut stack: Vec<Entry> = Vec::new();
    let mut fragment: Option<(u64, u64)> = None;
    for (i, node) in e.ops.iter().enumerate() {
        let op = &node.op;
        let at = |(kind, message): Fail| EvalError {
            kind,
            op_index: i,
            message,
        };
        if let Op::Fragment(offset, size) = op {
            fragment = Some(op_fragment(&step, fragment, *offset, *size).map_err(at)?);
            continue;
        }
        // "If evaluation can result in a stack with fewer entries than
        // required by an operation then the expression is not well-formed."
        // DIOpComposite(N, T) pops N: a count beyond the stack is ill-formed
        // before the signature is instantiated for N inputs (which would build
        // N bindings).
        if let Op::Composite(k, _) = op {
            if *k > stack.len() as u64 {
                return Err(at(ill(format!(
                    "DIOpComposite pops {k} entries, the stack holds {}",
                    stack.len()
                ))));
            }
        }
        let n = check::arity(op, e.dialect);
        if stack.len() < n {
            return Err(at(ill(format!(
                "{} pops {n} entries, the stack holds {}",
                op.name(),
                stack.len()
            ))));
        }
        // The inputs, top of the stack first, as the signatures list them.
        let inputs: Vec<Entry> = stack.split_off(stack.len() - n).into_iter().rev().collect();
        let input_types: Vec<Type> = inputs.iter().map(|x| x.ty.clone()).collect();
        let ty = check::result_type(op, e.dialect, &input_types, env.dl, env.types)
            .map_err(|e| at(ill(e.message)))?;
        let loc = apply(&step, op, &inputs, &ty).map_err(at)?;
        stack.push(Entry { loc, ty });
    }
    // "If the stack does not have a single element after evaluation then the
    // expression is not well-formed. The evaluation is the typed location
    // description of the single resulting stack element."
    if stack.len() != 1 {
        return Err(EvalError {
            kind: ErrorKind::IllFormed,
            op_index: e.ops.len(),
            message: format!(
                "the stack holds {} entries after the last operation, not 1",
                stack.len()
            ),
        });
    }
    let top = stack.pop().expect("one entry");
    let bits = step
        .bitsizeof(&top.ty)
        .map_err(|(kind, message)| EvalError {
            kind,
            op_index: e.ops.len(),
            message,
        })?;
    Ok(Located {
        loc: top.loc,
        ty: top.ty,
        bits,
        fragment,
    })
}

/// The body of one operation: the location it pushes. `inputs` is top first;
/// `ty` is the result type the signature gives.
fn apply(s: &Step, op: &Op, inputs: &[Entry], ty: &Type) -> OpResult {
    match op {
        Op::Referrer(t) => op_referrer(s, t),
        Op::Arg(n, t) => op_arg(s, *n, t),
        Op::TypeObject(_) => op_type_object(s),
        Op::Constant(t, v) => op_constant(s, t, v),
        Op::Convert(to) => op_convert(s, &inputs[0], to),
        Op::Reinterpret(to) => op_reinterpret(s, op, inputs, to),
        Op::Offset => op_offset(s, &inputs[0], &inputs[1]),
        Op::BitOffset(_) => op_bit_offset(s, &inputs[0], &inputs[1]),
        Op::ByteOffset(_) => op_byte_offset(s, &inputs[0], &inputs[1]),
        Op::Composite(n, t) => op_composite(s, *n, t, inputs),
        Op::Extend(n) => op_extend(s, *n, &inputs[0]),
        Op::Select => op_select(s, &inputs[0], &inputs[1], &inputs[2]),
        Op::AddrOf(_) => op_addr_of(s, &inputs[0], ty),
        Op::Deref(_) => op_deref(s, &inputs[0]),
        Op::Read => op_read(s, &inputs[0]),
        Op::Add => op_add(s, &inputs[0], &inputs[1]),
        Op::Sub => op_sub(s, &inputs[0], &inputs[1]),
        Op::Mul => op_mul(s, &inputs[0], &inputs[1]),
        Op::Div => op_div(s, &inputs[0], &inputs[1]),
        Op::Mod => op_mod(s, &inputs[0], &inputs[1]),
        Op::And => op_and(s, &inputs[0], &inputs[1]),
        Op::Or => op_or(s, &inputs[0], &inputs[1]),
        Op::Xor => op_xor(s, &inputs[0], &inputs[1]),
        Op::Shr => op_shr(s, &inputs[0], &inputs[1]),
        Op::LShr => op_lshr(s, &inputs[0], &inputs[1]),
        Op::AShr => op_ashr(s, &inputs[0], &inputs[1]),
        Op::Shl => op_shl(s, &inputs[0], &inputs[1]),
        Op::ZExt(to) => op_zext(s, &inputs[0], to),
        Op::SExt(to) => op_sext(s, &inputs[0], to),
        Op::PushLane(t) => op_push_lane(s, t),
        Op::Fragment(..) => unreachable!("handled by the loop: no stack effect"),
    }
}

// ----------------------------------------------------------- the operations

/// `DIOpReferrer(T:type) { -> L:T }`
///
/// "`L` is the location description of the referrer `R` of the associated
/// lifetime segment `LS`. If `LS` is a computed lifetime segment then the
/// expression is ill-formed."
///
/// "`bitsizeof(T)` must equal `bitsizeof(R)`, otherwise the expression is not
/// well-formed."
///
/// The referrer's location is the context's `referrer`; in the `diexpression`
/// dialect, without one, it is argument 0's (AMD's verifier compares
/// `DIOpReferrer` with the first location operand).
fn op_referrer(s: &Step, t: &Type) -> OpResult {
    let tb = s.bitsizeof(t)?;
    match &s.env.referrer {
        ReferrerInfo::Forbidden => {
            return Err(ill(
                "DIOpReferrer in a computed lifetime segment, which has no referrer",
            ))
        }
        ReferrerInfo::Known { ty, bits } => {
            let rb = match (bits, ty) {
                (Some(b), _) => Some(*b),
                (None, Some(rt)) => Some(s.bitsizeof(rt)?),
                (None, None) => None,
            };
            if let Some(rb) = rb {
                if rb != tb {
                    return Err(ill(format!(
                        "bitsizeof(`{t}`) is {tb}, the referrer's is {rb}"
                    )));
                }
            }
        }
        ReferrerInfo::Absent => {}
    }
    match (&s.ctx.referrer, s.dialect) {
        (Some(l), _) => Ok(l.clone()),
        (None, Dialect::DiExpression) => {
            // Argument 0 as DIOpArg(0, ...) would see it: undefined if poison.
            let poison = s.env.args.and_then(|a| a.first()).is_some_and(|a| a.poison);
            if poison {
                return Ok(LocDesc::undefined());
            }
            s.ctx.args.get(&0).cloned().ok_or((
                ErrorKind::NoReferrer,
                "the context gives neither a referrer nor arg 0".into(),
            ))
        }
        (None, Dialect::DiExpr) => Err((
            ErrorKind::NoReferrer,
            "the context gives no referrer".into(),
        )),
    }
}

/// `DIOpArg(N:index, T:type) { -> L:T }`
///
/// "`L` is the location description of the `N`th element, `O`, of the
/// `argObjects` field `F` of the associated lifetime segment `LS`."
///
/// "If `F` is not a tuple of `DIObject`s with at least `N` elements then the
/// expression is not well-formed. `bitsizeof(T)` must equal `bitsizeof(O)`,
/// otherwise the expression is not well-formed."
///
/// The location is the context's `arg N`. A poison argument (`#dbg_value(i32
/// poison, ...)`) has the undefined location, and AMD's verifier does not
/// compare its size.
fn op_arg(s: &Step, n: u64, t: &Type) -> OpResult {
    let tb = s.bitsizeof(t)?;
    if let Some(args) = s.env.args {
        // The index is zero-based: N must be below the number of arguments.
        let Some(a) = usize::try_from(n).ok().and_then(|i| args.get(i)) else {
            return Err(ill(format!(
                "DIOpArg({n}, ...) but the expression has {} arguments",
                args.len()
            )));
        };
        if a.poison {
            return Ok(LocDesc::undefined());
        }
        let ab = match (&a.bits, &a.ty) {
            (Some(b), _) => Some(*b),
            (None, Some(at)) => Some(s.bitsizeof(at)?),
            (None, None) => None,
        };
        if let Some(ab) = ab {
            if ab != tb {
                return Err(ill(format!(
                    "bitsizeof(`{t}`) is {tb}, argument {n}'s is {ab}"
                )));
            }
        }
    }
    s.ctx.args.get(&n).cloned().ok_or((
        ErrorKind::NoArgument,
        format!("the context gives no arg {n}"),
    ))
}

/// `DIOpTypeObject(T:type) { -> (L:T) }` (AMD)
///
/// "`L` is the location description of the instance `O` of an object of type
/// `LT` for which the type property `TP` is being evaluated." The context's
/// `object`.
fn op_type_object(s: &Step) -> OpResult {
    s.ctx
        .object
        .clone()
        .ok_or((ErrorKind::NoObject, "the context gives no object".into()))
}

/// `DIOpConstant(T:type V:literal) { -> L:T }`
///
/// "`V` is a literal value of type `T` or `undef`."
///
/// "If `V` is `undef` then `L` comprises one undefined location description
/// `IL`."
///
/// "Otherwise, `L` comprises one implicit location description `IL`. `IL`
/// specifies implicit location storage `ILS` and offset 0. `ILS` has value `V`
/// and size `bitsizeof(T)`."
///
/// `poison` is read as `undef`; the encoding of literals is
/// [`location::literal_location`]'s.
fn op_constant(s: &Step, t: &Type, v: &crate::ast::Literal) -> OpResult {
    location::literal_location(t, v, s.env.dl, s.env.types).map_err(|e| ill(e.to_string()))
}

/// `DIOpConvert(T':type) { L:T -> L':T' }`
///
/// "Reads `bitsizeof(T)` bits from `L` as value `V` of type `T` and converts it
/// to value `V'` of type `T'`."
///
/// "The expression is not well-formed if `T` or `T'` are not equivalent to
/// `DIBasicType` types. The conversions match those performed by DWARF the
/// `DW_OP_convert` operation."
///
/// "`L'` comprises one implicit location description `IL'`. `IL'` specifies
/// implicit location storage `ILS'` and offset 0. `ILS'` has value `V'` and
/// size `bitsizeof(T')`."
///
/// The conversions are DESIGN.md's: see [`convert_value`].
fn op_convert(s: &Step, l: &Entry, to: &Type) -> OpResult {
    let v = s.read(&l.loc, &l.ty)?;
    let v2 = convert_value(s, &l.ty, to, &v)?;
    Ok(LocDesc::implicit(v2))
}

/// DESIGN.md: int→int truncates (to a wider type it zero-extends in `diexpr`
/// and is ill-formed in `diexpression`); int→float reads the integer as signed
/// and rounds to nearest even; float→int truncates toward zero, and NaN or
/// out-of-range (of the signed range) is an error; float→float rounds to
/// nearest even; between pointers, and between pointers and integers, the
/// address bits are kept, truncated or zero-extended.
fn convert_value(s: &Step, from: &Type, to: &Type, v: &Bits) -> Result<Bits, Fail> {
    match (from, to) {
        (Type::Int(a), Type::Int(b)) => {
            if b > a && s.dialect == Dialect::DiExpression {
                return Err(ill(format!(
                    "DIOpConvert from `{from}` to the wider `{to}` (use DIOpZExt or DIOpSExt)"
                )));
            }
            Ok(value::trunc(v, *b))
        }
        (Type::Int(_), Type::Float(k)) => Ok(value::int_to_float(k.0, v)),
        (Type::Float(k), Type::Int(w)) => value::float_to_int(k.0, v, *w).ok_or_else(|| {
            (
                ErrorKind::ConvertOutOfRange,
                format!(
                    "`{from}` {} is NaN, infinite or out of the range of `{to}`",
                    v.to_hex()
                ),
            )
        }),
        (Type::Float(a), Type::Float(b)) => Ok(value::float_to_float(a.0, b.0, v)),
        (Type::Ptr { .. } | Type::Int(_), Type::Ptr { .. }) | (Type::Ptr { .. }, Type::Int(_)) => {
            let w = s.bitsizeof(to)?;
            // `trunc` to a wider width zero-extends.
            Ok(value::trunc(v, w))
        }
        _ => Err(ill(format!("DIOpConvert from `{from}` to `{to}`"))),
    }
}

/// `DIOpReinterpret(T':type) { L:T -> L:T' }`
///
/// "If `bitsizeof(T)` is not equal to `bitsizeof(T')` then the expression is
/// not well-formed."
///
/// DESIGN.md: the stack effect names the same location `L` on both sides, so
/// the location is kept and only the type changes; the sentences that make
/// the result an implicit value contradict it and are erratum. Which input's
/// location is kept is read off the signature ([`check::passes_location`]).
fn op_reinterpret(s: &Step, op: &Op, inputs: &[Entry], to: &Type) -> OpResult {
    let l = &inputs[0];
    let (a, b) = (s.bitsizeof(&l.ty)?, s.bitsizeof(to)?);
    if a != b {
        return Err(ill(format!(
            "bitsizeof(`{}`) is {a}, bitsizeof(`{to}`) is {b}",
            l.ty
        )));
    }
    let k = check::passes_location(op, s.dialect)
        .ok_or_else(|| ill("DIOpReinterpret's signature passes no location"))?;
    Ok(inputs[k].loc.clone())
}

/// The offset operand's value: DESIGN.md reads it as a *signed* integer of its
/// own type `I` (the spec's `bitsizeof(U)` means `bitsizeof(I)`).
fn offset_value(s: &Step, b: &Entry) -> Result<BigInt, Fail> {
    if !b.ty.is_int() {
        // "If `I` is not an integral type then the expression is not well-defined."
        return Err(ill(format!(
            "the offset has type `{}`, not an integer",
            b.ty
        )));
    }
    Ok(s.read(&b.loc, &b.ty)?.to_bigint())
}

/// `DIOpOffset() { B:I L:T -> L':T }` (seed)
///
/// "`L'` is `L`, but updated by adding `VB` * 8 to its bit offset. `VB` is the
/// value obtained by reading `bitsizeof(U)` bits from `B` as an integral type
/// `I`. `I` may be a signed or unsigned integral type."
///
/// Every single location's offset is updated.
fn op_offset(s: &Step, b: &Entry, l: &Entry) -> OpResult {
    let vb = offset_value(s, b)?;
    Ok(l.loc.with_bit_offset(&(vb * 8)))
}

/// `DIOpBitOffset() { B:I L:T -> L':T }` (seed) and `DIOpBitOffset(T':type) {
/// (B:I) (L:T) -> (L':T') }` (AMD)
///
/// "`L'` is `L`, but updated by adding `VB` to its bit offset. `VB` is the value
/// obtained by reading `bitsizeof(U)` bits from `B` as an integral type `I`."
fn op_bit_offset(s: &Step, b: &Entry, l: &Entry) -> OpResult {
    let vb = offset_value(s, b)?;
    Ok(l.loc.with_bit_offset(&vb))
}

/// `DIOpByteOffset(T':type) { (B:I) (L:T) -> (L':T') }` (AMD)
///
/// "`(L':T')` is as if `DIOpBitOffset(T')` was evaluated with a stack
/// containing `(B * 8:I) (L:T)`." The product is taken on the mathematical
/// value (DESIGN.md: "as BitOffset with B * 8"), not wrapped to `I`.
fn op_byte_offset(s: &Step, b: &Entry, l: &Entry) -> OpResult {
    let vb = offset_value(s, b)?;
    Ok(l.loc.with_bit_offset(&(vb * 8)))
}

/// `DIOpComposite(N:index, T:type) { L1:T1 L2:T2 ... LN:TN -> L:T }`
///
/// "`L` comprises one complete composite location description `CL` with offset
/// 0. The location storage associated with `CL` is comprised of `N` parts each
/// of bit size `bitsizeof(TM)` starting at the location storage specified by
/// `LM`. The parts are concatenated starting at offset 0 in the order with `M`
/// from `N` to 1 and no padding between the parts."
///
/// "If the sum of `bitsizeof(TM)` for `M` from 1 to `N` does not equal
/// `bitsizeof(T)` then the expression is not well-formed."
///
/// `inputs` is `L1` (the top) … `LN`, so the parts are `inputs` reversed: `LN`
/// at bit 0, `L1` last (DESIGN.md: the spec's SRoA examples assume the
/// opposite order; erratum).
fn op_composite(s: &Step, n: u64, t: &Type, inputs: &[Entry]) -> OpResult {
    if inputs.len() as u64 != n {
        return Err(ill(format!(
            "DIOpComposite({n}, ...) with {} inputs",
            inputs.len()
        )));
    }
    let nodes = inputs
        .iter()
        .fold(1u64, |acc, e| acc.saturating_add(e.loc.node_count()));
    check_loc_size(nodes)?;
    let mut parts = Vec::with_capacity(inputs.len());
    for lm in inputs.iter().rev() {
        parts.push(Part {
            loc: lm.loc.clone(),
            bits: s.bitsizeof(&lm.ty)?,
        });
    }
    let sum: u64 = parts.iter().map(|p| p.bits).sum();
    let want = s.bitsizeof(t)?;
    if sum != want {
        return Err(ill(format!("the parts have {sum} bits, `{t}` has {want}")));
    }
    Ok(LocDesc::composite(parts))
}

/// `DIOpExtend(N:unsigned) { (L:T) -> (L':<N x T>) }` (AMD)
///
/// "`(L':<N x T>)` is as if `DIOpComposite(N, <N x T>)` was applied to a stack
/// containing `N` copies of `(L:T)`."
///
/// "If `T` is not an integral type, floating point type, or pointer type, then
/// the expression is not well-formed."
fn op_extend(s: &Step, n: u64, l: &Entry) -> OpResult {
    if !l.ty.is_basic() {
        return Err(ill(format!("DIOpExtend of `{}`", l.ty)));
    }
    if n > MAX_PARTS {
        return Err(too_many_parts(n));
    }
    // Checked before the copies are made, which is where the cost would be.
    check_loc_size(l.loc.node_count().saturating_mul(n).saturating_add(1))?;
    let copies = vec![l.clone(); usize::try_from(n).map_err(|_| ill("too many copies"))?];
    let vt = Type::Vector {
        len: n,
        elem: Box::new(l.ty.clone()),
    };
    op_composite(s, n, &vt, &copies)
}

/// [`location::MAX_LOC_NODES`] for a location about to be built.
fn check_loc_size(nodes: u64) -> Result<(), Fail> {
    if nodes > location::MAX_LOC_NODES {
        return Err((
            ErrorKind::ResourceLimit,
            format!(
                "a location description of {nodes} single locations, over diopter's limit of {}",
                location::MAX_LOC_NODES
            ),
        ));
    }
    Ok(())
}

fn too_many_parts(n: u64) -> Fail {
    (
        ErrorKind::ResourceLimit,
        format!("{n} lanes, over diopter's limit of {MAX_PARTS} composite parts"),
    )
}

/// `DIOpSelect() { (LM:TM) (L1:<N x T>) (L0:<N x T>) -> (L:<N x T>) }` (AMD),
/// with the operands in the order AMD's verifier accepts, our line
/// `{ (L1:<N x T>) (L0:<N x T>) (LM:TM) -> (L:<N x T>) }` (mask deepest).
///
/// "`M` is a bit mask with the value `read(LM, TM)`. If `bitsizeof(TM)` is less
/// than `N`, then the expression is not well-formed."
///
/// "`(L:<N x T>)` is as if `DIOpComposite(N, <N x T>)` was applied to a stack
/// containing `N` entries `(LI:T)` ordered in descending `I` from `N - 1` to 0
/// inclusive. Each `LI` is as if `DIOpBitOffset(T)` was applied to a stack
/// containing `(I * bitsizeof(T):TI) (PLI:T)`. `PLI` is the same as `L0` if the
/// `I`th least significant bit of `M` is zero, otherwise it is the same as
/// `L1`."
///
/// "If `T` is not an integral type, floating point type, or pointer type, then
/// the expression is not well-formed."
///
/// So the result is a composite *location* (lane `I` of `L1` or `L0`), not a
/// value: writing through it writes the selected lanes.
fn op_select(s: &Step, l1: &Entry, l0: &Entry, lm: &Entry) -> OpResult {
    let Type::Vector { len: n, elem: t } = &l1.ty else {
        return Err(ill(format!("DIOpSelect of `{}`", l1.ty)));
    };
    if !t.is_basic() {
        return Err(ill(format!("DIOpSelect of vectors of `{t}`")));
    }
    if *n > MAX_PARTS {
        return Err(too_many_parts(*n));
    }
    let mask_bits = s.bitsizeof(&lm.ty)?;
    if mask_bits < *n {
        return Err(ill(format!("the mask `{}` has fewer than {n} bits", lm.ty)));
    }
    let m = s.read(&lm.loc, &lm.ty)?;
    let w = s.bitsizeof(t)?;
    // Checked before the lanes are made, which is where the cost would be.
    let (n1, n0) = (l1.loc.node_count(), l0.loc.node_count());
    let nodes = (0..*n).fold(1u64, |acc, i| {
        acc.saturating_add(if m.bit(i) { n1 } else { n0 })
    });
    check_loc_size(nodes)?;
    // The stack for the composite, top first: L(N-1), ..., L0.
    let mut lanes = Vec::new();
    for i in (0..*n).rev() {
        let pl = if m.bit(i) { l1 } else { l0 };
        lanes.push(Entry {
            loc: pl.loc.with_bit_offset(&BigInt::from(i * w)),
            ty: (**t).clone(),
        });
    }
    op_composite(s, *n, &l1.ty, &lanes)
}

/// `DIOpAddrOf(N:addrspace) { L:T -> L':T' }`
///
/// "`L'` comprises one implicit address location description `IAL`. `T'` is a
/// pointer to `T` in address space `N`. `IAL` specifies implicit address
/// location storage `IALS` and offset 0."
///
/// "`IALS` is `bitsizeof(T')` bits and conceptually holds a reference to the
/// storage that `L` denotes. If `DIOpDeref` is applied to the resulting `L':T'`
/// then it will result in `L:T`."
///
/// `T'` is the result type the signature gives (a typed pointer in `diexpr`,
/// `ptr addrspace(N)` in `diexpression`).
fn op_addr_of(s: &Step, l: &Entry, ptr_ty: &Type) -> OpResult {
    let bits = s.bitsizeof(ptr_ty)?;
    Ok(LocDesc::implicit_address(
        l.loc.clone(),
        l.ty.clone(),
        ptr_ty.clone(),
        bits,
    ))
}

/// `DIOpDeref() { L:T -> L':T' }` (seed) and `DIOpDeref(T:type) { (L:ptr
/// addrspace(N)) -> (L':T) }` (AMD)
///
/// "`T` is a pointer to `T'` in address space `N`." "If `T` is not a pointer
/// type then the expression is not well-formed."
///
/// "If `L:T` was produced by a `DIOpAddrOf` operation then see `DIOpAddrOf`":
/// when `L` is exactly one single location, in implicit address storage at
/// offset 0, the result is the location the implicit address references.
///
/// "Otherwise, `L'` comprises one memory location description `MLD`. `MLD`
/// specifies bit offset `A` and the memory location storage corresponding to
/// address space `N`. `A` is the value obtained by reading `bitsizeof(T)` bits
/// from `L` and multiplying by 8." The pointer is read unsigned (DESIGN.md).
fn op_deref(s: &Step, l: &Entry) -> OpResult {
    if let [Single {
        storage: Storage::ImplicitAddress { target, .. },
        offset,
    }] = l.loc.singles.as_slice()
    {
        if offset.is_zero() {
            return Ok((**target).clone());
        }
    }
    let Some(n) = l.ty.addrspace() else {
        return Err(ill(format!("DIOpDeref of `{}`, not a pointer", l.ty)));
    };
    let a = s.read(&l.loc, &l.ty)?.to_biguint();
    Ok(LocDesc::single(
        Storage::Memory { addrspace: n },
        BigInt::from(a) * 8,
    ))
}

/// `DIOpRead() { L:T -> L':T }`
///
/// "`L'` comprises one implicit location description `IL`. `IL` specifies
/// implicit location storage `ILS` and offset 0. `ILS` has value `V` and size
/// `bitsizeof(T)`."
///
/// "`V` is the value of type `T` obtained by reading `bitsizeof(T)` bits from
/// `L`."
fn op_read(s: &Step, l: &Entry) -> OpResult {
    Ok(LocDesc::implicit(s.read(&l.loc, &l.ty)?))
}

// The binary operations share their first sentences:
//
// "`V1` is the value of type `T` obtained by reading `bitsizeof(T)` bits from
// `L1`. `V2` is the value of type `T` obtained by reading `bitsizeof(T)` bits
// from `L2`."
//
// "`L` comprises one implicit location description `IL`. `IL` specifies
// implicit location storage `ILS` and offset 0. `ILS` has value `V2 op V1` and
// size `bitsizeof(T)`."
//
// `L1` is the top of the stack (the signature's first input), so `V2 op V1`
// is "the deeper entry op the top entry". On vectors the operation applies
// lane by lane (element `i` in bits `[i·w, (i+1)·w)`).

/// A scalar operation `V2 op V1` on one lane of type `t`.
type LaneOp<'a> = &'a dyn Fn(&Type, &Bits, &Bits) -> Result<Bits, Fail>;

/// Reads `V1` from `l1` and `V2` from `l2` and pushes `V2 op V1`, lane by lane.
fn binary(s: &Step, l1: &Entry, l2: &Entry, op: LaneOp) -> OpResult {
    let v1 = s.read(&l1.loc, &l1.ty)?;
    let v2 = s.read(&l2.loc, &l2.ty)?;
    let (lanes, scalar) = match &l1.ty {
        Type::Vector { len, elem } => (*len, (**elem).clone()),
        t => (1, t.clone()),
    };
    let w = s.bitsizeof(&scalar)?;
    let mut result = Bits::empty();
    for i in 0..lanes {
        let r = op(&scalar, &v2.slice(i * w, w), &v1.slice(i * w, w))?;
        result = Bits::concat(&result, &r);
    }
    Ok(LocDesc::implicit(result))
}

/// One lane of an arithmetic operation: `int` on integers, the IEEE operation
/// `float` (rounded to nearest even) on floats, ill-formed otherwise.
fn arith(
    t: &Type,
    name: &str,
    v2: &Bits,
    v1: &Bits,
    int: impl FnOnce(&Bits, &Bits) -> Result<Bits, Fail>,
    float: Option<FloatOp>,
) -> Result<Bits, Fail> {
    match (t, float) {
        (Type::Int(_), _) => int(v2, v1),
        (Type::Float(k), Some(f)) => Ok(value::float_binop(k.0, f, v2, v1)),
        _ => Err(ill(format!("{name} on `{t}`"))),
    }
}

/// `DIOpAdd() { L1:T L2:T -> L:T }`: "`ILS` has value `V2 + V1`". Integers wrap;
/// floats are IEEE, rounded to nearest even.
fn op_add(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        arith(
            t,
            "DIOpAdd",
            v2,
            v1,
            |a, b| Ok(value::add(a, b)),
            Some(FloatOp::Add),
        )
    })
}

/// `DIOpSub() { L1:T L2:T -> L:T }`: "`ILS` has value `V2 - V1`".
fn op_sub(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        arith(
            t,
            "DIOpSub",
            v2,
            v1,
            |a, b| Ok(value::sub(a, b)),
            Some(FloatOp::Sub),
        )
    })
}

/// `DIOpMul() { L1:T L2:T -> L:T }`: "`ILS` has value `V2 * V1`".
fn op_mul(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        arith(
            t,
            "DIOpMul",
            v2,
            v1,
            |a, b| Ok(value::mul(a, b)),
            Some(FloatOp::Mul),
        )
    })
}

fn division_by_zero(what: &str) -> Fail {
    (ErrorKind::DivisionByZero, format!("{what} by zero"))
}

/// `DIOpDiv() { L1:T L2:T -> L:T }`: "`ILS` has value `V2 / V1`". Integers:
/// signed, truncating toward zero; by zero is an error; `INT_MIN / -1` wraps
/// (DESIGN.md). Floats: IEEE.
fn op_div(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        let int = |a: &Bits, b: &Bits| value::sdiv(a, b).ok_or_else(|| division_by_zero("DIOpDiv"));
        arith(t, "DIOpDiv", v2, v1, int, Some(FloatOp::Div))
    })
}

/// `DIOpMod() { (L1:T) (L2:T) -> (L:T) }` (ours): `V2 mod V1`, signed, with the
/// sign of the dividend `V2`; by zero is an error (DESIGN.md). Integers only.
fn op_mod(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        let int = |a: &Bits, b: &Bits| value::srem(a, b).ok_or_else(|| division_by_zero("DIOpMod"));
        arith(t, "DIOpMod", v2, v1, int, None)
    })
}

/// One lane of an integer-only operation.
fn integer(
    t: &Type,
    name: &str,
    v2: &Bits,
    v1: &Bits,
    f: fn(&Bits, &Bits) -> Bits,
) -> Result<Bits, Fail> {
    match t {
        Type::Int(_) => Ok(f(v2, v1)),
        _ => Err(ill(format!("{name} on `{t}`: not an integer"))),
    }
}

/// `DIOpAnd() { (L1:T) (L2:T) -> (L:T) }` (ours): `V2 & V1`.
fn op_and(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        integer(t, "DIOpAnd", v2, v1, value::and)
    })
}

/// `DIOpOr() { (L1:T) (L2:T) -> (L:T) }` (ours): `V2 | V1`.
fn op_or(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        integer(t, "DIOpOr", v2, v1, value::or)
    })
}

/// `DIOpXor() { (L1:T) (L2:T) -> (L:T) }` (ours): `V2 ^ V1`.
fn op_xor(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        integer(t, "DIOpXor", v2, v1, value::xor)
    })
}

/// `DIOpShr() { L1:T L2:T -> L:T }` (seed)
///
/// "`ILS` has value `V2 >> V1` and size `bitsizeof(T)`. If `T` is an unsigned
/// integral type then the result is filled with 0 bits. If `T` is a signed
/// integral type then the result is filled with the sign bit of `V1`."
///
/// "If `T` is not an integral type the expression is not well-formed."
///
/// LLVM integers are signless, so DESIGN.md reads `DIOpShr` as the logical
/// shift `DIOpLShr` (and the sign bit "of V1" is erratum for V2's). The amount
/// `V1` is unsigned; an amount of at least the width gives 0.
fn op_shr(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        integer(t, "DIOpShr", v2, v1, value::lshr)
    })
}

/// `DIOpLShr() { (L1:T) (L2:T) -> (L:T) }` (ours): `V2 >> V1` filled with 0
/// bits; the amount `V1` is unsigned, an amount of at least the width gives 0.
fn op_lshr(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        integer(t, "DIOpLShr", v2, v1, value::lshr)
    })
}

/// `DIOpAShr() { (L1:T) (L2:T) -> (L:T) }` (ours): `V2 >> V1` filled with the
/// sign bit of `V2`; the amount `V1` is unsigned, an amount of at least the
/// width gives the sign bit everywhere.
fn op_ashr(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        integer(t, "DIOpAShr", v2, v1, value::ashr)
    })
}

/// `DIOpShl() { L1:T L2:T -> L:T }`
///
/// "`ILS` has value `V2 << V1` and size `bitsizeof(T)`. The result is filled
/// with 0 bits."
///
/// "If `T` is not an integral type the expression is not well-formed."
///
/// The amount `V1` is unsigned; an amount of at least the width gives 0.
fn op_shl(s: &Step, l1: &Entry, l2: &Entry) -> OpResult {
    binary(s, l1, l2, &|t, v2, v1| {
        integer(t, "DIOpShl", v2, v1, value::shl)
    })
}

/// The integer width of an extension's input and result, which must widen.
fn extension_widths(l: &Entry, to: &Type, name: &str) -> Result<u64, Fail> {
    match (l.ty.int_width(), to.int_width()) {
        (Some(a), Some(b)) if b > a => Ok(b),
        _ => Err(ill(format!(
            "{name} from `{}` to `{to}`: needs integers, the result wider",
            l.ty
        ))),
    }
}

/// `DIOpZExt(T':type) { (L:T) -> (L':T') }` (ours): an implicit value, the
/// integer read from `L` zero-extended to `T'`.
fn op_zext(s: &Step, l: &Entry, to: &Type) -> OpResult {
    let w = extension_widths(l, to, "DIOpZExt")?;
    Ok(LocDesc::implicit(value::zext(&s.read(&l.loc, &l.ty)?, w)))
}

/// `DIOpSExt(T':type) { (L:T) -> (L':T') }` (ours): an implicit value, the
/// integer read from `L` sign-extended to `T'`.
fn op_sext(s: &Step, l: &Entry, to: &Type) -> OpResult {
    let w = extension_widths(l, to, "DIOpSExt")?;
    Ok(LocDesc::implicit(value::sext(&s.read(&l.loc, &l.ty)?, w)))
}

/// `DIOpPushLane(T:type) { -> (L:T) }` (AMD)
///
/// "`L` comprises one implicit location description `IL`. `IL` specifies
/// implicit location storage `ILS` and offset 0. `ILS` has the value of the
/// target architecture lane identifier of the current source language thread
/// of execution if the source language is implemented using a SIMD or SIMT
/// execution model."
///
/// "If `T` is not an integral type or the source language is not implemented
/// using a SIMD or SIMT execution model, then the expression is not
/// well-formed."
///
/// The lane is the context's `lane`; a lane number that does not fit in `T`
/// (unsigned) is a [`ErrorKind::ConvertOutOfRange`] error rather than being
/// wrapped.
fn op_push_lane(s: &Step, t: &Type) -> OpResult {
    let Type::Int(w) = t else {
        return Err(ill(format!("DIOpPushLane(`{t}`): not an integer type")));
    };
    let lane = s
        .ctx
        .lane
        .ok_or((ErrorKind::NoLane, "the context gives no lane".to_string()))?;
    let v = Bits::from_u64(*w, lane);
    if v.to_u64() != Some(lane) {
        return Err((
            ErrorKind::ConvertOutOfRange,
            format!("lane {lane} does not fit in `{t}`"),
        ));
    }
    Ok(LocDesc::implicit(v))
}

/// `DIOpFragment(offset, size)`: metadata on the expression, not a stack
/// operation (DESIGN.md). One per expression, of a non-zero size, inside the
/// variable when its size is known (AMD's verifier's rules).
fn op_fragment(
    s: &Step,
    previous: Option<(u64, u64)>,
    offset: u64,
    size: u64,
) -> Result<(u64, u64), Fail> {
    if previous.is_some() {
        return Err(ill("a second DIOpFragment"));
    }
    if size == 0 {
        return Err(ill("DIOpFragment of size 0"));
    }
    if let Some(v) = s.env.var_bits {
        if offset.checked_add(size).is_none_or(|end| end > v) {
            return Err(ill(format!(
                "DIOpFragment({offset}, {size}) is not inside the {v}-bit variable"
            )));
        }
    }
    Ok((offset, size))
}

// ------------------------------------------------------------------ helpers

/// The value read from the result, when it is readable: `bitsizeof(T)` bits at
/// the result's location.
pub fn read_value(ctx: &Context, r: &Located) -> Result<Bits, ReadError> {
    access::read(ctx, &r.loc, r.bits)
}

/// Writes `value` (of the result type's width) through the result's location,
/// as a debugger assigning to the variable would.
pub fn write_value(ctx: &mut Context, r: &Located, value: &Bits) -> Result<(), WriteError> {
    if value.width() != r.bits {
        return Err(WriteError {
            kind: WriteErrorKind::Width,
            message: format!(
                "writing {} bits to a `{}` ({} bits)",
                value.width(),
                r.ty,
                r.bits
            ),
        });
    }
    access::write(ctx, &r.loc, value)
}

/// Evaluates a one-line expression in `ctx`, with the context's data layout.
pub fn eval_bare(b: &Bare, types: &TypeTable, ctx: &Context) -> Outcome {
    let inputs = BareInputs::of(b, &ctx.datalayout, types);
    eval(
        &b.expr,
        &inputs.env(b.expr.dialect, &ctx.datalayout, types),
        ctx,
    )
}
