//! Compilation: from an `Expr` and its `Env` to a flat instruction array.
//!
//! Types in DIOp expressions are static: the type of every stack entry is a
//! function of the operations alone. So the compiler runs the reference
//! interpreter's stack discipline once, on types only (with the checker's
//! own engine, [`check::arity`] and [`check::result_type`]), and bakes every
//! width, lane count, part size, address space and constant into the
//! instructions. What is left for run time is only what depends on the
//! context: locations, values, and the errors they cause.
//!
//! A failure the reference interpreter would report without looking at the
//! context (ill-formedness, `DIOpFragment` rules, the composite-parts
//! resource limit) becomes a [`Ins::Fail`] at that operation, so that an
//! earlier run-time error still takes precedence, exactly as in the
//! reference's single left-to-right pass.

use super::arith::BinOp;
use super::words;
use diopter_semantics::ast::{Dialect, Expr, Literal, Op};
use diopter_semantics::check::{self, Env, ReferrerInfo};
use diopter_semantics::interp::{ErrorKind, MAX_PARTS};
use diopter_semantics::location::{self, LocDesc, Storage};
use diopter_semantics::types::{Type, MAX_TYPE_BITS};
use diopter_semantics::value::FloatKind;
use num_traits::Zero;

/// What `DIOpReferrer` falls back on when the context has no referrer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fallback {
    /// `diexpr`: `NoReferrer`.
    None,
    /// `diexpression` whose argument 0 is poison: the undefined location.
    Poison,
    /// `diexpression`: the context's `arg 0`.
    Arg0,
}

/// The element type of a binary operation's lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lane {
    Int,
    Float(FloatKind),
    /// Not an arithmetic lane: ill-formed once both operands are read (the
    /// checker rejects this; kept for fidelity on unchecked input).
    Ill(u32),
}

/// What `DIOpConvert` does to the bits it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Conv {
    /// Keep the low bits (zero-extend when wider): int→int, and anything
    /// between pointers and integers.
    Trunc,
    IntToFloat(FloatKind),
    FloatToInt(FloatKind),
    FloatToFloat(FloatKind, FloatKind),
    /// Ill-formed after the read (message index).
    Ill(u32),
}

/// One instruction. Widths are `bitsizeof` of the entry types, in bits;
/// `u32` fields index the tables of [`Compiled`].
#[derive(Clone, Debug)]
pub(crate) enum Ins {
    /// The context's `arg N`.
    Arg(u64),
    /// The undefined location (a poison argument).
    Undef,
    Referrer(Fallback),
    Object,
    /// An implicit value of at most 128 bits.
    Imm {
        v: u128,
        w: u32,
    },
    /// A wider implicit value: its words are `Compiled::words[at..]`.
    ImmW {
        at: u32,
        w: u64,
    },
    /// A constant of any other shape, loaded from `Compiled::consts`.
    Const(u32),
    Convert {
        from_w: u64,
        to_w: u64,
        conv: Conv,
    },
    /// `DIOpOffset`/`DIOpBitOffset`/`DIOpByteOffset`: `bw` is the offset's width.
    Offset {
        bw: u64,
        bytes: bool,
    },
    /// Parts' sizes are `Compiled::part_bits[at..at+n]`, bottom of the stack first.
    Composite {
        n: u32,
        at: u32,
    },
    Extend {
        n: u32,
        w: u64,
    },
    Select {
        n: u32,
        w: u64,
        mask_w: u64,
    },
    AddrOf {
        target_ty: u32,
        ptr_ty: u32,
        bits: u64,
    },
    /// `not_ptr`: the input is not a pointer (ill-formed unless it is an
    /// implicit address; message index).
    Deref {
        addrspace: u32,
        ptr_w: u64,
        not_ptr: Option<u32>,
    },
    Read {
        w: u64,
    },
    Bin {
        op: BinOp,
        lane: Lane,
        lanes: u64,
        w: u64,
    },
    Ext {
        from: u64,
        to: u64,
        signed: bool,
    },
    PushLane {
        w: u64,
    },
    Fail {
        kind: ErrorKind,
        msg: u32,
    },
}

/// A compiled expression: run it with [`Compiled::eval`](super::Compiled::eval).
#[derive(Clone, Debug)]
pub struct Compiled {
    pub(crate) code: Vec<Ins>,
    /// The operations that have no instruction (`DIOpReinterpret`,
    /// `DIOpFragment`), ascending: instruction `k` is the `k`-th of the
    /// others (for `EvalError::op_index`). Usually empty, so that compiling
    /// allocates one vector less.
    pub(crate) skipped: Vec<u32>,
    pub(crate) types: Vec<Type>,
    pub(crate) msgs: Vec<String>,
    pub(crate) consts: Vec<LocDesc>,
    pub(crate) part_bits: Vec<u64>,
    /// The words of wide constants.
    pub(crate) words: Vec<u64>,
    /// The result's type and `bitsizeof`, when the expression gets that far.
    pub(crate) result: Option<(Type, u64)>,
    pub(crate) fragment: Option<(u64, u64)>,
}

pub(crate) type Fail = (ErrorKind, String);

/// `a == b`, with scalar types (nearly every referrer's and argument's)
/// compared here rather than by a call to the derived comparison
/// (`always`: with `inline` it stayed a call, which cost as much as the
/// comparison).
#[inline(always)]
pub(crate) fn same_type(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Int(x), Type::Int(y)) => x == y,
        (Type::Float(x), Type::Float(y)) => x == y,
        (
            Type::Ptr {
                addrspace: x,
                pointee: None,
            },
            Type::Ptr {
                addrspace: y,
                pointee: None,
            },
        ) => x == y,
        _ if std::mem::discriminant(a) != std::mem::discriminant(b) => false,
        _ => a == b,
    }
}

fn ill(m: impl Into<String>) -> Fail {
    (ErrorKind::IllFormed, m.into())
}

pub(crate) struct Builder<'e, 'c> {
    pub(crate) env: &'e Env<'e>,
    pub(crate) dialect: Dialect,
    /// The program being written: the caller's, so that it is built where
    /// it will be returned rather than copied out of the builder.
    pub(crate) c: &'c mut Compiled,
    /// Whether constants may take `quick_literal`; off in
    /// `compile_checked_types`, the definition the quick ways are held to.
    pub(crate) quick: bool,
    /// The operation the next instruction would belong to if no operation
    /// were skipped.
    next_op: u32,
}

impl Compiled {
    /// The program of no operations, for a machine that only loads
    /// locations (`PreparedContext::new`).
    pub(crate) const EMPTY: Compiled = Compiled {
        code: Vec::new(),
        skipped: Vec::new(),
        types: Vec::new(),
        msgs: Vec::new(),
        consts: Vec::new(),
        part_bits: Vec::new(),
        words: Vec::new(),
        result: None,
        fragment: None,
    };

    /// An empty program for `e`, with room for its instructions.
    pub(crate) fn empty(e: &Expr) -> Compiled {
        Compiled {
            code: Vec::with_capacity(e.ops.len() + 1),
            ..Compiled::EMPTY
        }
    }

    /// Makes this an empty program for `e`, keeping the buffers. The
    /// result is left as it is: each compiler sets it at its end (the
    /// typing compiler overwrites a scalar result in place, which saves
    /// dropping a `Type` and making another at every recompilation).
    pub(crate) fn reset(&mut self, e: &Expr) {
        self.code.clear();
        self.code.reserve(e.ops.len() + 1);
        self.skipped.clear();
        self.types.clear();
        self.msgs.clear();
        self.consts.clear();
        self.part_bits.clear();
        self.words.clear();
        self.fragment = None;
    }
}

impl<'e, 'c> Builder<'e, 'c> {
    /// A builder writing into `c`, an empty program for `e`.
    pub(crate) fn new(e: &Expr, env: &'e Env<'e>, c: &'c mut Compiled) -> Builder<'e, 'c> {
        Builder {
            env,
            dialect: e.dialect,
            c,
            quick: true,
            next_op: 0,
        }
    }
    fn size(&self, t: &Type) -> Result<u64, Fail> {
        self.env
            .dl
            .bitsizeof(t, self.env.types)
            .map_err(|e| ill(e.0))
    }
    /// [`Builder::ty`] of a type made for the purpose (not cloned again).
    pub(crate) fn ty_owned(&mut self, t: Type) -> u32 {
        if let Some(i) = self.c.types.iter().position(|x| *x == t) {
            return i as u32;
        }
        self.c.types.push(t);
        (self.c.types.len() - 1) as u32
    }
    pub(crate) fn ty(&mut self, t: &Type) -> u32 {
        if let Some(i) = self.c.types.iter().position(|x| x == t) {
            return i as u32;
        }
        self.c.types.push(t.clone());
        (self.c.types.len() - 1) as u32
    }
    fn msg(&mut self, m: String) -> u32 {
        self.c.msgs.push(m);
        (self.c.msgs.len() - 1) as u32
    }
    /// Appends the instruction of operation `i` (at most one per operation).
    #[inline]
    pub(crate) fn emit(&mut self, i: usize, ins: Ins) {
        let i = i as u32;
        debug_assert!(i >= self.next_op, "two instructions for operation {i}");
        // Nearly always none skipped: no range to extend the vector with.
        if i > self.next_op {
            self.c.skipped.extend(self.next_op..i);
        }
        self.next_op = i + 1;
        self.c.code.push(ins);
    }
    fn fail(&mut self, i: usize, (kind, m): Fail) {
        let msg = self.msg(m);
        self.emit(i, Ins::Fail { kind, msg });
    }

    /// The instruction of `DIOpReferrer`, `DIOpArg` or `DIOpConstant`,
    /// whose type `t` has `tb` bits (both typings know it already).
    pub(crate) fn leaf(&mut self, op: &Op, t: &Type, tb: u64) -> Result<Ins, Fail> {
        Ok(match op {
            Op::Referrer(_) => {
                match &self.env.referrer {
                    ReferrerInfo::Forbidden => {
                        return Err(ill(
                            "DIOpReferrer in a computed lifetime segment, which has no referrer",
                        ))
                    }
                    ReferrerInfo::Known { ty: rt, bits } => {
                        let rb = match (bits, rt) {
                            (Some(b), _) => Some(*b),
                            // The same type has the same size: no layout walk.
                            (None, Some(rt)) if same_type(rt, t) => Some(tb),
                            (None, Some(rt)) => Some(self.size(rt)?),
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
                Ins::Referrer(match self.dialect {
                    Dialect::DiExpr => Fallback::None,
                    Dialect::DiExpression => {
                        let poison = self
                            .env
                            .args
                            .and_then(|a| a.first())
                            .is_some_and(|a| a.poison);
                        if poison {
                            Fallback::Poison
                        } else {
                            Fallback::Arg0
                        }
                    }
                })
            }
            Op::Arg(n, _) => {
                if let Some(args) = self.env.args {
                    let Some(a) = usize::try_from(*n).ok().and_then(|k| args.get(k)) else {
                        return Err(ill(format!(
                            "DIOpArg({n}, ...) but the expression has {} arguments",
                            args.len()
                        )));
                    };
                    if a.poison {
                        return Ok(Ins::Undef);
                    }
                    let ab = match (&a.bits, &a.ty) {
                        (Some(b), _) => Some(*b),
                        (None, Some(at)) if same_type(at, t) => Some(tb),
                        (None, Some(at)) => Some(self.size(at)?),
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
                Ins::Arg(*n)
            }
            Op::Constant(_, v) => self.constant(t, v, tb)?,
            _ => unreachable!("not a leaf operation: {}", op.name()),
        })
    }

    /// The instruction(s) of one operation whose result type is `ty`
    /// (`inputs` top first); `Err` is a failure that does not depend on the
    /// context, checked in the order the reference's operation body checks.
    pub(crate) fn op(&mut self, i: usize, op: &Op, inputs: &[Type], ty: &Type) -> Result<(), Fail> {
        let ins = match op {
            Op::Referrer(t) | Op::Arg(_, t) | Op::Constant(t, _) => {
                let tb = self.size(t)?;
                self.leaf(op, t, tb)?
            }
            Op::TypeObject(_) => Ins::Object,
            Op::Convert(to) => {
                let from = &inputs[0];
                let conv = match (from, to) {
                    (Type::Int(a), Type::Int(b))
                        if b > a && self.dialect == Dialect::DiExpression =>
                    {
                        Conv::Ill(self.msg(format!(
                            "DIOpConvert from `{from}` to the wider `{to}` (use DIOpZExt or DIOpSExt)"
                        )))
                    }
                    (Type::Int(_), Type::Int(_)) => Conv::Trunc,
                    (Type::Int(_), Type::Float(k)) => Conv::IntToFloat(k.0),
                    (Type::Float(k), Type::Int(_)) => Conv::FloatToInt(k.0),
                    (Type::Float(a), Type::Float(b)) => Conv::FloatToFloat(a.0, b.0),
                    (Type::Ptr { .. } | Type::Int(_), Type::Ptr { .. })
                    | (Type::Ptr { .. }, Type::Int(_)) => Conv::Trunc,
                    _ => Conv::Ill(self.msg(format!("DIOpConvert from `{from}` to `{to}`"))),
                };
                let from_w = self.size(from)?;
                // The reference sizes the result by `bitsizeof(to)`, which for
                // int and float types is their width.
                let to_w = self.size(to)?;
                Ins::Convert { from_w, to_w, conv }
            }
            Op::Reinterpret(to) => {
                let (a, b) = (self.size(&inputs[0])?, self.size(to)?);
                if a != b {
                    return Err(ill(format!(
                        "bitsizeof(`{}`) is {a}, bitsizeof(`{to}`) is {b}",
                        inputs[0]
                    )));
                }
                match check::passes_location(op, self.dialect) {
                    // The location stays where it is: nothing to run.
                    Some(0) => return Ok(()),
                    _ => return Err(ill("DIOpReinterpret's signature passes no location")),
                }
            }
            Op::Offset | Op::BitOffset(_) | Op::ByteOffset(_) => {
                let b = &inputs[0];
                if !b.is_int() {
                    return Err(ill(format!("the offset has type `{b}`, not an integer")));
                }
                Ins::Offset {
                    bw: self.size(b)?,
                    bytes: !matches!(op, Op::BitOffset(_)),
                }
            }
            Op::Composite(n, t) => {
                if inputs.len() as u64 != *n {
                    return Err(ill(format!(
                        "DIOpComposite({n}, ...) with {} inputs",
                        inputs.len()
                    )));
                }
                let at = self.c.part_bits.len() as u32;
                let mut sum: u64 = 0;
                for lm in inputs.iter().rev() {
                    let b = self.size(lm)?;
                    self.c.part_bits.push(b);
                    sum += b;
                }
                let want = self.size(t)?;
                if sum != want {
                    return Err(ill(format!("the parts have {sum} bits, `{t}` has {want}")));
                }
                Ins::Composite { n: *n as u32, at }
            }
            Op::Extend(n) => {
                let l = &inputs[0];
                if !l.is_basic() {
                    return Err(ill(format!("DIOpExtend of `{l}`")));
                }
                if *n > MAX_PARTS {
                    return Err(too_many_parts(*n));
                }
                Ins::Extend {
                    n: *n as u32,
                    w: self.size(l)?,
                }
            }
            Op::Select => {
                let (l1, lm) = (&inputs[0], &inputs[2]);
                let Type::Vector { len: n, elem: t } = l1 else {
                    return Err(ill(format!("DIOpSelect of `{l1}`")));
                };
                if !t.is_basic() {
                    return Err(ill(format!("DIOpSelect of vectors of `{t}`")));
                }
                if *n > MAX_PARTS {
                    return Err(too_many_parts(*n));
                }
                let mask_w = self.size(lm)?;
                if mask_w < *n {
                    return Err(ill(format!("the mask `{lm}` has fewer than {n} bits")));
                }
                Ins::Select {
                    n: *n as u32,
                    w: self.size(t)?,
                    mask_w,
                }
            }
            Op::AddrOf(_) => {
                let bits = self.size(ty)?;
                let target_ty = self.ty(&inputs[0]);
                let ptr_ty = self.ty(ty);
                Ins::AddrOf {
                    target_ty,
                    ptr_ty,
                    bits,
                }
            }
            Op::Deref(_) => {
                let p = &inputs[0];
                let ptr_w = self.size(p)?;
                match p.addrspace() {
                    Some(addrspace) => Ins::Deref {
                        addrspace,
                        ptr_w,
                        not_ptr: None,
                    },
                    None => Ins::Deref {
                        addrspace: 0,
                        ptr_w,
                        not_ptr: Some(self.msg(format!("DIOpDeref of `{p}`, not a pointer"))),
                    },
                }
            }
            Op::Read => Ins::Read {
                w: self.size(&inputs[0])?,
            },
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
                let (lanes, scalar) = match &inputs[0] {
                    Type::Vector { len, elem } => (*len, (**elem).clone()),
                    t => (1, t.clone()),
                };
                let bin = BinOp::of(op);
                let arithmetic = op.is_arithmetic();
                let lane = match &scalar {
                    Type::Int(_) => Lane::Int,
                    Type::Float(k) if arithmetic => Lane::Float(k.0),
                    t if arithmetic || matches!(op, Op::Mod) => {
                        Lane::Ill(self.msg(format!("{} on `{t}`", op.name())))
                    }
                    t => Lane::Ill(self.msg(format!("{} on `{t}`: not an integer", op.name()))),
                };
                Ins::Bin {
                    op: bin,
                    lane,
                    lanes,
                    w: self.size(&scalar)?,
                }
            }
            Op::ZExt(to) | Op::SExt(to) => {
                let name = op.name();
                let l = &inputs[0];
                let to_w = match (l.int_width(), to.int_width()) {
                    (Some(a), Some(b)) if b > a => b,
                    _ => {
                        return Err(ill(format!(
                            "{name} from `{l}` to `{to}`: needs integers, the result wider"
                        )))
                    }
                };
                Ins::Ext {
                    from: self.size(l)?,
                    to: to_w,
                    signed: matches!(op, Op::SExt(_)),
                }
            }
            Op::PushLane(t) => {
                let Type::Int(w) = t else {
                    return Err(ill(format!("DIOpPushLane(`{t}`): not an integer type")));
                };
                Ins::PushLane { w: *w }
            }
            Op::Fragment(..) => unreachable!("handled by the loop: no stack effect"),
        };
        self.emit(i, ins);
        Ok(())
    }

    /// The instruction `literal_location` would lead to, for the literals
    /// of generated and hand-written expressions: `undef`/`poison`,
    /// `null`/`zeroinitializer` of any type, integers of any width, floats,
    /// and vectors and arrays of integers of at most 128 bits, floats and
    /// nulls. The reference's general encoding builds bit lists and a
    /// `LocDesc` and costs about as much as the rest of compiling; `None`
    /// sends anything else (and every literal that is an error) down it.
    pub(crate) fn quick_literal(&mut self, t: &Type, v: &Literal, size: u64) -> Option<Ins> {
        match v {
            // One undefined chunk: the undefined location.
            Literal::Undef | Literal::Poison => Some(Ins::Undef),
            Literal::Null | Literal::ZeroInitializer => Some(self.imm(0, size)),
            Literal::Int(_) | Literal::Float(_) if size <= 128 => {
                let (x, _) = self.scalar_literal(t, v)?;
                Some(Ins::Imm {
                    v: x,
                    w: size as u32,
                })
            }
            Literal::Int(n) => {
                let Type::Int(w) = t else { return None };
                let at = self.c.words.len();
                self.c.words.resize(at + w.div_ceil(64) as usize, 0);
                put_int(&mut self.c.words[at..], 0, n, *w);
                Some(Ins::ImmW {
                    at: at as u32,
                    w: *w,
                })
            }
            Literal::Vector(elems) => {
                let Type::Vector { len, .. } = t else {
                    return None;
                };
                if elems.len() as u64 != *len {
                    return None;
                }
                self.elements(elems, 0)
            }
            Literal::Array(elems) => {
                let Type::Array { len, elem } = t else {
                    return None;
                };
                if elems.len() as u64 != *len {
                    return None;
                }
                // Each element is followed by zero bits up to the stride.
                let esize = self.env.dl.bitsizeof(elem, self.env.types).ok()?;
                let stride = self.env.dl.alloc_bits(elem, self.env.types).ok()?;
                self.elements(elems, stride.checked_sub(esize)?)
            }
            _ => None,
        }
    }

    /// The elements of a vector or array literal, each at its own type's
    /// width and followed by `pad` zero bits, the first lowest: one defined
    /// chunk, so one implicit value (`None`: an element `scalar_literal`
    /// does not take, e.g. `undef`, which makes a composite).
    fn elements(&mut self, elems: &[(Type, Literal)], pad: u64) -> Option<Ins> {
        // The elements go into a `u128` while they fit (the usual vector),
        // and only a longer literal is written out to the words.
        let mut acc: u128 = 0;
        let mut wide: Option<usize> = None;
        let mut pos: u64 = 0;
        for (te, le) in elems {
            // A scalar of at most 128 bits, or a wider integer.
            let (x, big, w) = match (self.scalar_literal(te, le), te, le) {
                (Some((x, w)), ..) => (x, None, w),
                (None, Type::Int(w), Literal::Int(n)) if *w <= MAX_TYPE_BITS => (0, Some(n), *w),
                _ => {
                    // The general path writes its own words.
                    if let Some(at) = wide {
                        self.c.words.truncate(at);
                    }
                    return None;
                }
            };
            let end = pos + w + pad;
            if wide.is_none() && end <= 128 {
                if w > 0 {
                    acc |= x << pos;
                }
                pos = end;
                continue;
            }
            let at = *wide.get_or_insert_with(|| {
                let at = self.c.words.len();
                self.c.words.resize(at + 2, 0);
                words::put128(&mut self.c.words[at..], 0, acc, pos);
                at
            });
            let need = end.div_ceil(64) as usize;
            if self.c.words.len() < at + need {
                self.c.words.resize(at + need, 0);
            }
            match big {
                Some(n) => put_int(&mut self.c.words[at..], pos, n, w),
                None => words::put128(&mut self.c.words[at..], pos, x, w.min(128)),
            }
            pos = end;
        }
        Some(match wide {
            None => Ins::Imm {
                v: acc,
                w: pos as u32,
            },
            Some(at) => Ins::ImmW {
                at: at as u32,
                w: pos,
            },
        })
    }

    /// An implicit zero of `size` bits.
    fn imm(&mut self, v: u128, size: u64) -> Ins {
        if size <= 128 {
            return Ins::Imm { v, w: size as u32 };
        }
        let at = self.c.words.len();
        self.c.words.resize(at + size.div_ceil(64) as usize, 0);
        Ins::ImmW {
            at: at as u32,
            w: size,
        }
    }

    /// The bits and width of a scalar literal (an integer or float of at
    /// most 128 bits, or a null or zero scalar of any width).
    // Inlined: called per element of a vector or array literal, where the
    // call and its result in memory cost about a third of the work.
    #[inline(always)]
    fn scalar_literal(&self, t: &Type, v: &Literal) -> Option<(u128, u64)> {
        // The pairs of a type and its literal first: the type's size is
        // known without a lookup for them.
        match (t, v) {
            (Type::Int(w), Literal::Int(n)) if *w <= 128 => {
                // The literal modulo 2^w, as `Bits::from_bigint` reads it.
                Some((low128(n)? & words::mask128(*w), *w))
            }
            (Type::Float(k), Literal::Float(b)) if b.width() == k.0.width() => {
                Some((b.to_u128().unwrap_or(0), b.width()))
            }
            (_, Literal::Null | Literal::ZeroInitializer) => {
                let size = match t {
                    Type::Int(w) => *w,
                    Type::Float(k) => k.0.width(),
                    Type::Ptr { addrspace, .. } => self.env.dl.pointer_bits(*addrspace),
                    _ => return None,
                };
                (size <= MAX_TYPE_BITS).then_some((0, size))
            }
            _ => None,
        }
    }

    /// `DIOpConstant(T V)` of `tb` bits: the reference's literal encoding,
    /// computed once.
    fn constant(&mut self, t: &Type, v: &Literal, tb: u64) -> Result<Ins, Fail> {
        if self.quick {
            if let Some(ins) = self.quick_literal(t, v, tb) {
                return Ok(ins);
            }
        }
        self.literal(t, v)
    }

    /// `DIOpConstant(T V)` by the reference's own encoding
    /// (`literal_location`), for what `quick_literal` does not take.
    #[inline(never)]
    pub(crate) fn literal(&mut self, t: &Type, v: &Literal) -> Result<Ins, Fail> {
        let loc = location::literal_location(t, v, self.env.dl, self.env.types)
            .map_err(|e| ill(e.to_string()))?;
        if let [s] = loc.singles.as_slice() {
            if s.offset.is_zero() {
                match &s.storage {
                    Storage::Implicit { value } if value.width() <= 128 => {
                        return Ok(Ins::Imm {
                            v: value.to_u128().unwrap_or(0),
                            w: value.width() as u32,
                        })
                    }
                    Storage::Implicit { value } => {
                        let at = words::push_bits(&mut self.c.words, value) as u32;
                        return Ok(Ins::ImmW {
                            at,
                            w: value.width(),
                        });
                    }
                    Storage::Undefined => return Ok(Ins::Undef),
                    _ => {}
                }
            }
        }
        self.c.consts.push(loc);
        Ok(Ins::Const((self.c.consts.len() - 1) as u32))
    }
}

/// Writes `n` modulo 2^w (two's complement, as `Bits::from_bigint` reads
/// it) at bit `pos` of `out` (zero there): the magnitude's low words,
/// negated for a negative `n`.
fn put_int(out: &mut [u64], pos: u64, n: &num_bigint::BigInt, w: u64) {
    let negative = n.sign() == num_bigint::Sign::Minus;
    let mut digits = n.magnitude().iter_u64_digits();
    let mut carry = true;
    let mut at = 0;
    while at < w {
        let Some(mut d) = digits.next() else {
            // Past the magnitude's digits: zeros, which `out` holds already,
            // or (negated, with no carry left: the magnitude is not zero)
            // ones.
            if negative {
                words::fill_ones(out, pos + at, w - at);
            }
            break;
        };
        if negative {
            let (v, c) = (!d).overflowing_add(u64::from(carry));
            d = v;
            carry = c;
        }
        words::put(out, pos + at, d, (w - at).min(64));
        at += 64;
    }
}

/// `n` as a `u128` when it lies in `-2^127..2^128` (two's complement for
/// the negative ones), from its digits: the general conversions cost more
/// than the rest of encoding a literal.
fn low128(n: &num_bigint::BigInt) -> Option<u128> {
    let mut digits = n.iter_u64_digits();
    let lo = digits.next().unwrap_or(0);
    let hi = digits.next().unwrap_or(0);
    if digits.next().is_some() {
        return None;
    }
    let mag = u128::from(lo) | u128::from(hi) << 64;
    match n.sign() {
        num_bigint::Sign::Minus if mag > 1 << 127 => None,
        num_bigint::Sign::Minus => Some(mag.wrapping_neg()),
        _ => Some(mag),
    }
}

fn too_many_parts(n: u64) -> Fail {
    (
        ErrorKind::ResourceLimit,
        format!("{n} lanes, over diopter's limit of {MAX_PARTS} composite parts"),
    )
}

/// `DIOpFragment(offset, size)`: as the reference's `op_fragment`.
pub(crate) fn fragment(
    env: &Env,
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
    if let Some(v) = env.var_bits {
        if offset.checked_add(size).is_none_or(|end| end > v) {
            return Err(ill(format!(
                "DIOpFragment({offset}, {size}) is not inside the {v}-bit variable"
            )));
        }
    }
    Ok((offset, size))
}

/// [`compile_unchecked`](super::compile_unchecked) typing every operation with the checker's
/// signature engine (`check::result_type`), and encoding every constant
/// with the reference's `literal_location`: the definition the fast typing
/// and the quick literals are held to (`tests/fast_typing.rs` compares the
/// two programs). `compile_unchecked` takes it for what the fast typing
/// does not vouch for.
pub fn compile_checked_types(e: &Expr, env: &Env) -> Compiled {
    let mut c = Compiled::empty(e);
    checked_types_into(e, env, &mut c);
    c
}

/// [`compile_checked_types`] into `c`, an empty program for `e`.
pub(crate) fn checked_types_into(e: &Expr, env: &Env, c: &mut Compiled) {
    let mut b = Builder::new(e, env, c);
    b.quick = false;
    let mut stack: Vec<Type> = Vec::new();
    let mut frag: Option<(u64, u64)> = None;
    for (i, node) in e.ops.iter().enumerate() {
        let op = &node.op;
        if let Op::Fragment(offset, size) = op {
            match fragment(env, frag, *offset, *size) {
                Ok(f) => frag = Some(f),
                Err(f) => {
                    b.fail(i, f);
                    return;
                }
            }
            continue;
        }
        if let Op::Composite(k, _) = op {
            if *k > stack.len() as u64 {
                b.fail(
                    i,
                    ill(format!(
                        "DIOpComposite pops {k} entries, the stack holds {}",
                        stack.len()
                    )),
                );
                return;
            }
        }
        let n = check::arity(op, e.dialect);
        if stack.len() < n {
            b.fail(
                i,
                ill(format!(
                    "{} pops {n} entries, the stack holds {}",
                    op.name(),
                    stack.len()
                )),
            );
            return;
        }
        let inputs: Vec<Type> = stack.split_off(stack.len() - n).into_iter().rev().collect();
        let ty = match check::result_type(op, e.dialect, &inputs, env.dl, env.types) {
            Ok(t) => t,
            Err(e) => {
                b.fail(i, ill(e.message));
                return;
            }
        };
        if let Err(f) = b.op(i, op, &inputs, &ty) {
            b.fail(i, f);
            return;
        }
        stack.push(ty);
    }
    let end = e.ops.len();
    if stack.len() != 1 {
        b.fail(
            end,
            ill(format!(
                "the stack holds {} entries after the last operation, not 1",
                stack.len()
            )),
        );
        return;
    }
    let top = stack.pop().expect("one entry");
    match b.size(&top) {
        Ok(bits) => {
            b.c.result = Some((top, bits));
            b.c.fragment = frag;
        }
        Err(f) => b.fail(end, f),
    }
}

impl Compiled {
    /// The operation index of instruction `k`.
    pub(crate) fn op_index(&self, k: usize) -> usize {
        let mut i = k;
        for &s in &self.skipped {
            if s as usize > i {
                break;
            }
            i += 1;
        }
        i
    }
    /// The result type, when the expression can succeed at all.
    pub fn result_type(&self) -> Option<&Type> {
        self.result.as_ref().map(|(t, _)| t)
    }
    /// The number of instructions (operations that do something at run time).
    pub fn len(&self) -> usize {
        self.code.len()
    }
    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::{low128, put_int};
    use crate::words;
    use diopter_semantics::value::Bits;
    use num_bigint::BigInt;

    #[test]
    fn put_int_is_bits_from_bigint() {
        let two = BigInt::from(2);
        for w in [1u64, 63, 64, 65, 129, 200, 256] {
            for v in [
                BigInt::from(0),
                BigInt::from(-1),
                BigInt::from(-231),
                two.pow(130) + 5,
                -two.pow(128),
                two.pow(300) - 1,
            ] {
                for pos in [0u64, 3, 64, 101] {
                    let mut out = vec![0u64; (pos + w).div_ceil(64) as usize];
                    put_int(&mut out, pos, &v, w);
                    assert_eq!(
                        words::to_bits(&out, pos, w),
                        Bits::from_bigint(w, &v),
                        "{v} in {w} bits at {pos}"
                    );
                }
            }
        }
    }

    #[test]
    fn low128_is_the_general_conversion() {
        let two = BigInt::from(2);
        let mut values: Vec<BigInt> = vec![BigInt::from(0), BigInt::from(-1), BigInt::from(7)];
        for e in [63u32, 64, 65, 126, 127, 128, 129, 200] {
            let p = two.pow(e);
            for d in [-1, 0, 1] {
                values.push(&p + d);
                values.push(-&p + d);
            }
        }
        for v in values {
            let general = match num_traits::ToPrimitive::to_i128(&v) {
                Some(x) => Some(x as u128),
                None => num_traits::ToPrimitive::to_u128(&v),
            };
            assert_eq!(low128(&v), general, "{v}");
        }
    }
}
