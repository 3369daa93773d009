//! The well-formedness checker of expressions, driven by the parsed stack-effect
//! signatures.
//!
//! For every operation the checker takes its specification line from
//! `specs/stack-effects.txt` (via [`signature_for`]), binds the parameters, pops
//! as many entries as the line lists, unifies each entry's type with the line's
//! type pattern (first mention binds, later mentions assert identity: this is
//! where "DIOpAdd requires identical type inputs" comes from), and builds the
//! result type from the output binding. Only what the signature cannot say is
//! hand-written, one function per operation ([`prose_rules`]): the spec's
//! sentences such as "If `I` is not an integral type then the expression is not
//! well-formed", and AMD's verifier rules for the live dialect.
//!
//! The interpreter uses the same engine ([`arity`], [`result_type`],
//! [`passes_location`]) for its stack handling, so the two cannot drift apart.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::specs::{self, Origin, ParamKind, Signature, StackBinding, TypePat};
use crate::types::{DataLayout, Type, TypeTable};
use std::borrow::Cow;
use std::sync::OnceLock;

/// What an expression's `DIOpArg(N, T)` refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgInfo {
    /// The argument's type, when known (bare expressions, `#dbg_value` operands).
    pub ty: Option<Type>,
    /// The argument's size in bits, when known (for a `DIObject`, from its debug type).
    pub bits: Option<u64>,
    /// AMD's verifier skips size checks for poison operands.
    pub poison: bool,
}

/// What `DIOpReferrer` refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReferrerInfo {
    /// No referrer is known (a bare `diexpr` expression without `referrer:`).
    Absent,
    /// A computed lifetime segment: using `DIOpReferrer` is ill-formed.
    Forbidden,
    Known {
        ty: Option<Type>,
        bits: Option<u64>,
    },
}

/// Everything the checker needs to know about where an expression stands.
pub struct Env<'a> {
    pub dialect: Dialect,
    pub dl: &'a DataLayout,
    pub types: &'a TypeTable,
    /// `None`: argument types unknown; `DIOpArg` then only checks its own type.
    pub args: Option<&'a [ArgInfo]>,
    /// Borrowed: an environment is built for each evaluation, and a typed
    /// pointer's type would be cloned (a `Box`) every time.
    pub referrer: &'a ReferrerInfo,
    /// Size of the described variable, for `DIOpFragment`.
    pub var_bits: Option<u64>,
}

/// A well-formed expression's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub result: Type,
    pub fragment: Option<(u64, u64)>,
    /// Whether the result is the implicit address made by a `DIOpAddrOf`
    /// (allowed: the spec's implicit-pointer example ends that way).
    pub result_is_addrof: bool,
}

/// The specification line that governs `op` in `dialect`; `None` only for
/// `DIOpFragment`, which is metadata rather than a stack operation.
pub fn signature_for(op: &Op, dialect: Dialect) -> Option<&'static Signature> {
    if matches!(op, Op::Fragment(..)) {
        return None;
    }
    // The answer depends only on the variant, the parameter count and the
    // dialect, and every consumer (checker, reference, fast compiler, case
    // generator) asks for every operation: remember it per slot rather than
    // hashing the name each time.
    static MEMO: [OnceLock<Option<&'static Signature>>; SIG_SLOTS] =
        [const { OnceLock::new() }; SIG_SLOTS];
    *MEMO[sig_slot(op, dialect)].get_or_init(|| signature_uncached(op, dialect))
}

/// Whether `e` means the same in both dialects: none of its operations is
/// one whose meaning the dialect changes (`DIOpReferrer`, which defaults to
/// argument 0 in the live dialect; `DIOpConvert`, which may not widen an
/// integer there), and each of them is governed by the same specification
/// line in both ([`signature_for`]: `DIOpAddrOf` is not). These are every
/// place the checker, the reference interpreter and the SMT encoding read
/// the dialect, so the two dialects' instances of such an expression pose
/// the same question (`diopter prove` decides it once;
/// `tests/dialect_neutral.rs` checks the claim against the reference).
pub fn dialect_neutral(e: &Expr) -> bool {
    e.ops().all(|op| {
        !matches!(op, Op::Referrer(_) | Op::Convert(_))
            && match (
                signature_for(op, Dialect::DiExpr),
                signature_for(op, Dialect::DiExpression),
            ) {
                (Some(a), Some(b)) => std::ptr::eq(a, b),
                (None, None) => true,
                _ => false,
            }
    })
}

/// The number of [`sig_slot`]s.
const SIG_SLOTS: usize = 32 * 3 * 2;

/// A dense index of what [`signature_for`] depends on: the variant, the
/// parameter count (0 to 2) and the dialect.
fn sig_slot(op: &Op, dialect: Dialect) -> usize {
    let variant = match op {
        Op::Referrer(_) => 0,
        Op::Arg(..) => 1,
        Op::TypeObject(_) => 2,
        Op::Constant(..) => 3,
        Op::Convert(_) => 4,
        Op::Reinterpret(_) => 5,
        Op::Offset => 6,
        Op::BitOffset(_) => 7,
        Op::ByteOffset(_) => 8,
        Op::Composite(..) => 9,
        Op::Extend(_) => 10,
        Op::Select => 11,
        Op::AddrOf(_) => 12,
        Op::Deref(_) => 13,
        Op::Read => 14,
        Op::Add => 15,
        Op::Sub => 16,
        Op::Mul => 17,
        Op::Div => 18,
        Op::Mod => 19,
        Op::And => 20,
        Op::Or => 21,
        Op::Xor => 22,
        Op::Shr => 23,
        Op::LShr => 24,
        Op::AShr => 25,
        Op::Shl => 26,
        Op::ZExt(_) => 27,
        Op::SExt(_) => 28,
        Op::PushLane(_) => 29,
        Op::Fragment(..) => 30,
    };
    let d = match dialect {
        Dialect::DiExpr => 0,
        Dialect::DiExpression => 1,
    };
    // Three slots per variant: a fourth parameter count would share the
    // next variant's slot.
    assert!(
        op.param_count() < 3,
        "sig_slot: {} parameters",
        op.param_count()
    );
    (variant * 3 + op.param_count()) * 2 + d
}

/// [`signature_for`] without the memo.
fn signature_uncached(op: &Op, dialect: Dialect) -> Option<&'static Signature> {
    let cands = specs::lookup_all(op.name(), op.param_count());
    let pick = |want: fn(&Origin) -> bool| cands.iter().copied().find(|s| want(&s.origin));
    match op {
        // The verifier's operand order (our line), see stack-effects.txt.
        Op::Select => pick(|o| matches!(o, Origin::Ours)),
        // The seed's AddrOf yields a pointer to T (typed, in the spec's dialect);
        // the live dialect's yields an opaque `ptr addrspace(N)`.
        Op::AddrOf(_) => match dialect {
            Dialect::DiExpr => pick(|o| matches!(o, Origin::Seed { .. })),
            Dialect::DiExpression => pick(|o| matches!(o, Origin::Amd)),
        },
        _ => cands.first().copied(),
    }
}

/// How many stack entries `op` pops.
pub fn arity(op: &Op, dialect: Dialect) -> usize {
    match (op, signature_for(op, dialect)) {
        (_, None) => 0,
        // The variadic line `L1:T1 ... LN:TN` pops N entries; the list is only
        // materialised once the stack is known to hold them (N may be 10^9).
        (Op::Composite(n, _), Some(s)) if s.variadic.is_some() => {
            usize::try_from(*n).unwrap_or(usize::MAX)
        }
        (_, Some(s)) => s.inputs.len(),
    }
}

/// When the output binding names the same location as an input (Reinterpret's
/// `{ L:T -> L:T' }`), the index of that input (top first).
pub fn passes_location(op: &Op, dialect: Dialect) -> Option<usize> {
    let sig = signature_for(op, dialect)?;
    let out = sig.outputs.first()?;
    sig.inputs.iter().position(|b| b.loc == out.loc)
}

/// A bound meta-syntactic variable.
/// (Types are borrowed from the operation and its inputs where they can be:
/// binding copies nothing.)
#[derive(Clone, Debug, PartialEq, Eq)]
enum Bound<'s> {
    Type(Cow<'s, Type>),
    Int(u64),
}

/// The bindings of one application of a signature, keyed by the names in
/// the signature (borrowed: binding allocates nothing for the name).
#[derive(Default, Debug)]
struct Bindings<'s> {
    // A signature mentions a handful of variables: a list is the right map.
    vars: Vec<(&'s str, Bound<'s>)>,
}

impl<'s> Bindings<'s> {
    fn get(&self, v: &str) -> Option<&Bound<'s>> {
        self.vars.iter().find(|(k, _)| *k == v).map(|(_, b)| b)
    }
    fn ty(&self, v: &str) -> Option<&Type> {
        match self.get(v) {
            Some(Bound::Type(t)) => Some(t.as_ref()),
            _ => None,
        }
    }
    fn int(&self, v: &str) -> Option<u64> {
        match self.get(v) {
            Some(Bound::Int(n)) => Some(*n),
            _ => None,
        }
    }
    /// First mention binds; later mentions assert identity.
    fn bind(&mut self, v: &'s str, b: Bound<'s>) -> Result<(), ()> {
        match self.get(v) {
            None => {
                self.vars.push((v, b));
                Ok(())
            }
            Some(old) if *old == b => Ok(()),
            Some(_) => Err(()),
        }
    }
}

/// Why an application of a signature failed.
#[derive(Debug)]
enum Mismatch {
    /// Two mentions of one variable bound different things.
    NotIdentical { var: String },
    /// An entry's type does not have the pattern's shape.
    Shape {
        input: usize,
        want: String,
        got: Type,
    },
}

fn unify<'s>(
    pat: &'s TypePat,
    t: &'s Type,
    input: usize,
    b: &mut Bindings<'s>,
) -> Result<(), Mismatch> {
    match pat {
        TypePat::Var(v) => b
            .bind(v, Bound::Type(Cow::Borrowed(t)))
            .map_err(|_| Mismatch::NotIdentical { var: v.clone() }),
        TypePat::Vector { count, elem } => match t {
            Type::Vector { len, elem: e } => {
                b.bind(count, Bound::Int(*len))
                    .map_err(|_| Mismatch::NotIdentical { var: count.clone() })?;
                unify(elem, e, input, b)
            }
            _ => Err(Mismatch::Shape {
                input,
                want: "a vector".into(),
                got: t.clone(),
            }),
        },
        TypePat::Ptr { addrspace } => match t {
            Type::Ptr { addrspace: a, .. } => {
                b.bind(addrspace, Bound::Int(u64::from(*a)))
                    .map_err(|_| Mismatch::NotIdentical {
                        var: addrspace.clone(),
                    })
            }
            _ => Err(Mismatch::Shape {
                input,
                want: "a pointer".into(),
                got: t.clone(),
            }),
        },
    }
}

/// Builds a type from an output pattern; `None` when a variable is unbound (the
/// operation's prose must then supply it).
fn instantiate(pat: &TypePat, b: &Bindings) -> Option<Type> {
    match pat {
        TypePat::Var(v) => b.ty(v).cloned(),
        TypePat::Vector { count, elem } => Some(Type::Vector {
            len: b.int(count)?,
            elem: Box::new(instantiate(elem, b)?),
        }),
        TypePat::Ptr { addrspace } => {
            Some(Type::opaque_ptr(u32::try_from(b.int(addrspace)?).ok()?))
        }
    }
}

/// Binds the operation's parameters by the signature's parameter list.
fn bind_params<'s>(op: &'s Op, sig: &'s Signature, b: &mut Bindings<'s>) {
    // An operation has at most one type and one integer parameter.
    let mut ty = op.type_param();
    let mut int = match op {
        Op::Arg(n, _) | Op::Composite(n, _) | Op::Extend(n) | Op::AddrOf(n) => Some(*n),
        _ => None,
    };
    for p in &sig.params {
        match p.kind {
            ParamKind::Type => {
                if let Some(t) = ty.take() {
                    let _ = b.bind(&p.name, Bound::Type(Cow::Borrowed(t)));
                }
            }
            ParamKind::Index | ParamKind::Addrspace | ParamKind::Unsigned => {
                if let Some(n) = int.take() {
                    let _ = b.bind(&p.name, Bound::Int(n));
                }
            }
            ParamKind::Literal => {}
        }
    }
}

/// Why an operation is ill-formed on its inputs: the checker's message,
/// and the input (top of stack first) it is about, if one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct IllFormed {
    pub message: String,
    pub input: Option<usize>,
}

/// The result type of `op` applied to `inputs` (top of stack first), from the
/// signature and the operation's prose rules.
pub fn result_type(
    op: &Op,
    dialect: Dialect,
    inputs_top_first: &[Type],
    dl: &DataLayout,
    types: &TypeTable,
) -> Result<Type, IllFormed> {
    let env = Env {
        dialect,
        dl,
        types,
        args: None,
        referrer: &ReferrerInfo::Known {
            ty: None,
            bits: None,
        },
        var_bits: None,
    };
    apply(op, inputs_top_first, &env).map_err(|(message, input)| IllFormed { message, input })
}

/// One application: `Err((message, input index the message is about))`.
fn apply(op: &Op, inputs: &[Type], env: &Env) -> Result<Type, (String, Option<usize>)> {
    let name = op.name();
    let Some(sig) = signature_for(op, env.dialect) else {
        return Err((format!("{name} has no stack effect"), None));
    };
    let n = arity(op, env.dialect);
    if inputs.len() != n {
        return Err((
            format!("{name} requires {n} inputs, got {}", inputs.len()),
            None,
        ));
    }
    let pats: Cow<[StackBinding]> = match op {
        Op::Composite(k, _) => Cow::Owned(sig.inputs_for(*k as usize)),
        _ => Cow::Borrowed(&sig.inputs),
    };
    let mut b = Bindings::default();
    bind_params(op, sig, &mut b);
    for (i, (pat, t)) in pats.iter().zip(inputs).enumerate() {
        unify(&pat.ty, t, i, &mut b).map_err(|m| match m {
            Mismatch::NotIdentical { var } => (
                format!(
                    "{name} requires identical type inputs (`{var}` is bound twice: `{}` vs `{t}`)",
                    describe_binding(&b, &var)
                ),
                Some(i),
            ),
            Mismatch::Shape { input, want, got } => (
                format!("{name} requires input {input} to be {want}, found `{got}`"),
                Some(input),
            ),
        })?;
    }
    let out = sig.outputs.first().ok_or_else(|| {
        (
            format!("{name}: its specification line has no output"),
            None,
        )
    })?;
    prose_rules(op, inputs, &mut b, env, &out.ty)?;
    let t = instantiate(&out.ty, &b)
        .ok_or_else(|| (format!("{name}: the result type is not determined"), None))?;
    sized(&t, env).map_err(|m| (format!("{name}: {m}"), None))?;
    Ok(t)
}

fn describe_binding(b: &Bindings, var: &str) -> String {
    match b.get(var) {
        Some(Bound::Type(t)) => t.to_string(),
        Some(Bound::Int(n)) => n.to_string(),
        None => "?".into(),
    }
}

fn sized(t: &Type, env: &Env) -> Result<u64, String> {
    env.dl.bitsizeof(t, env.types).map_err(|e| e.0)
}

fn int_width(t: &Type) -> Option<u64> {
    t.int_width()
}

fn is_int_or_int_vector(t: &Type) -> bool {
    t.scalar().is_int()
}

fn is_arith(t: &Type) -> bool {
    let s = t.scalar();
    s.is_int() || s.is_float()
}

/// The sentences of each operation's prose that the signature cannot express,
/// plus AMD's verifier rules for the live dialect. May bind output variables the
/// signature leaves open (seed `Deref()`'s pointee, seed `AddrOf`'s pointer).
fn prose_rules<'s>(
    op: &Op,
    inputs: &'s [Type],
    b: &mut Bindings<'s>,
    env: &Env,
    out: &'s TypePat,
) -> Result<(), (String, Option<usize>)> {
    let name = op.name();
    let e0 = |m: String| Err((m, Some(0)));
    match op {
        Op::Referrer(t) | Op::TypeObject(t) | Op::PushLane(t) | Op::Arg(_, t) => {
            sized(t, env).map_err(|m| (format!("{name}: {m}"), None))?;
            if matches!(op, Op::PushLane(_)) && !t.is_int() {
                return Err((
                    format!("{name} requires integer result type, found `{t}`"),
                    None,
                ));
            }
        }
        Op::Constant(t, _) => {
            sized(t, env).map_err(|m| (format!("{name}: {m}"), None))?;
        }
        Op::Convert(to) => {
            let from = &inputs[0];
            // "The expression is not well-formed if T or T' are not equivalent
            // to DIBasicType types."
            if !from.is_basic() {
                return e0(format!("{name} requires a basic (integer, floating-point or pointer) input, found `{from}`"));
            }
            if !to.is_basic() {
                return Err((format!("{name} requires a basic (integer, floating-point or pointer) result type, found `{to}`"), None));
            }
            match (from, to) {
                (Type::Int(a), Type::Int(b2)) if b2 > a && env.dialect == Dialect::DiExpression => {
                    return e0(format!(
                        "{name} on integers requires result type to be no wider than input type (`{from}` to `{to}`; use DIOpZExt or DIOpSExt)"
                    ));
                }
                (Type::Float(_), Type::Ptr { .. }) | (Type::Ptr { .. }, Type::Float(_)) => {
                    return e0(format!("{name} between `{from}` and `{to}` has no meaning (DW_OP_convert does not convert addresses to floats)"));
                }
                _ => {}
            }
        }
        Op::Reinterpret(to) => {
            let from = &inputs[0];
            let (a, c) = (
                sized(from, env).map_err(|m| (m, Some(0)))?,
                sized(to, env).map_err(|m| (m, None))?,
            );
            if a != c {
                return e0(format!(
                    "{name} must not alter bitsize of child (`{from}` is {a} bits, `{to}` is {c})"
                ));
            }
        }
        Op::Offset | Op::BitOffset(_) | Op::ByteOffset(_) => {
            // "If I is not an integral type then the expression is not well-defined."
            if !inputs[0].is_int() {
                return e0(format!(
                    "{name} requires first input be integer typed, found `{}`",
                    inputs[0]
                ));
            }
            sized(&inputs[1], env).map_err(|m| (m, Some(1)))?;
        }
        Op::Composite(_, t) => {
            // "If the sum of bitsizeof(TM) for M from 1 to N does not equal
            // bitsizeof(T) then the expression is not well-formed."
            let mut sum: u64 = 0;
            for (i, p) in inputs.iter().enumerate() {
                sum = sum.saturating_add(sized(p, env).map_err(|m| (m, Some(i)))?);
            }
            let want = sized(t, env).map_err(|m| (m, None))?;
            if sum != want {
                return Err((
                    format!("{name} bitsize does not match sum of child bitsizes ({sum} bits of parts, `{t}` is {want})"),
                    None,
                ));
            }
        }
        Op::Extend(n) => {
            if !inputs[0].is_basic() {
                return e0(format!(
                    "{name} child must have integer, floating point, or ptr type, found `{}`",
                    inputs[0]
                ));
            }
            if *n == 0 {
                return Err((format!("{name} needs at least one element"), None));
            }
        }
        Op::Select => {
            // Our line: (L1:<N x T>) (L0:<N x T>) (LM:TM). The mask selects lane
            // i from L1 when its bit i is set, so it needs N bits.
            // LLVM vectors hold integers, floats or pointers; the parser
            // enforces it for text, this for expressions built in code.
            if !inputs[0].scalar().is_basic() {
                return e0(format!(
                    "{name} requires vectors of integers, floats or pointers, found `{}`",
                    inputs[0]
                ));
            }
            let mask = &inputs[2];
            let n = b.int("N").unwrap_or(0);
            match mask.int_width() {
                Some(w) if w >= n => {}
                _ => {
                    return Err((
                        format!("{name} requires an integer mask of at least {n} bits (one per lane), found `{mask}`"),
                        Some(2),
                    ))
                }
            }
        }
        Op::AddrOf(n) => {
            let t = &inputs[0];
            sized(t, env).map_err(|m| (m, Some(0)))?;
            let a = u32::try_from(*n)
                .map_err(|_| (format!("{name}: address space {n} is too large"), None))?;
            // Seed: "T' is a pointer to T in address space N". The live line's
            // output pattern (`ptr addrspace(N)`) is complete already.
            if let TypePat::Var(v) = out {
                if b.ty(v).is_none() {
                    let _ = b.bind(v, Bound::Type(Cow::Owned(Type::typed_ptr(t.clone(), a))));
                }
            }
        }
        Op::Deref(None) => {
            // Seed: "T is a pointer to T' in address space N. If T is not a
            // pointer type then the expression is not well-formed."
            match &inputs[0] {
                Type::Ptr { pointee: Some(p), .. } => {
                    if let TypePat::Var(v) = out {
                        let _ = b.bind(v, Bound::Type(Cow::Borrowed(&**p)));
                    }
                }
                Type::Ptr { pointee: None, .. } => {
                    return e0(format!(
                        "{name}() needs a typed pointer to know its result type, found opaque `{}` (write DIOpDeref(T))",
                        inputs[0]
                    ))
                }
                t => return e0(format!("{name} requires input to be pointer typed, found `{t}`")),
            }
        }
        Op::Deref(Some(t)) => {
            sized(t, env).map_err(|m| (m, None))?;
        }
        Op::Read => {
            sized(&inputs[0], env).map_err(|m| (m, Some(0)))?;
        }
        Op::Add | Op::Sub | Op::Mul | Op::Div => {
            if !is_arith(&inputs[0]) {
                return e0(format!("{name} requires integer or floating-point inputs (or vectors of them), found `{}`", inputs[0]));
            }
        }
        Op::Mod | Op::And | Op::Or | Op::Xor | Op::Shr | Op::LShr | Op::AShr | Op::Shl => {
            // Seed Shr/Shl: "If T is not an integral type the expression is not well-formed."
            if !is_int_or_int_vector(&inputs[0]) {
                return e0(format!(
                    "{name} requires all integer inputs, found `{}`",
                    inputs[0]
                ));
            }
        }
        Op::ZExt(to) | Op::SExt(to) => {
            let Some(w) = int_width(&inputs[0]) else {
                return e0(format!(
                    "{name} requires integer typed input, found `{}`",
                    inputs[0]
                ));
            };
            match to.int_width() {
                Some(w2) if w2 > w => {}
                Some(_) => {
                    return e0(format!(
                        "{name} requires result type to be wider than input type (`{}` to `{to}`)",
                        inputs[0]
                    ))
                }
                None => {
                    return Err((
                        format!("{name} requires an integer result type, found `{to}`"),
                        None,
                    ))
                }
            }
        }
        Op::Fragment(..) => {}
    }
    Ok(())
}

/// One stack entry during checking.
#[derive(Clone)]
struct Entry {
    ty: Type,
    /// The operation that pushed it, when that was a `DIOpAddrOf`.
    addrof: Option<usize>,
}

/// Checks an expression; on success returns its result type.
pub fn check_expr(e: &Expr, env: &Env) -> Result<Checked, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut stack: Vec<Entry> = Vec::new();
    let mut fragment: Option<(u64, u64)> = None;
    // The operations are typed in the expression's own dialect.
    let env_here = Env {
        dialect: e.dialect,
        dl: env.dl,
        types: env.types,
        args: env.args,
        referrer: env.referrer,
        var_bits: env.var_bits,
    };
    for (i, node) in e.ops.iter().enumerate() {
        let op = &node.op;
        let err = |m: String| Diagnostic::error(node.span, m).at_op(i);
        // Inputs the stack effect cannot see: the referrer and the arguments.
        if let Err(m) = check_inputs(op, env) {
            diags.push(err(m));
        }
        if let Op::Fragment(off, size) = op {
            if fragment.is_some() {
                diags.push(err("an expression may have only one DIOpFragment".into()));
            }
            if *size == 0 {
                diags.push(err("DIOpFragment must have a non-zero size".into()));
            }
            if let Some(v) = env.var_bits {
                if off.checked_add(*size).is_none_or(|end| end > v) {
                    diags.push(err(format!(
                        "DIOpFragment must be contained within variable (bits {off}..{} of a {v}-bit variable)",
                        off.saturating_add(*size)
                    )));
                }
            }
            fragment = Some((*off, *size));
            continue;
        }
        let n = arity(op, e.dialect);
        if stack.len() < n {
            diags.push(err(format!(
                "{} requires more inputs: it pops {n}, the stack holds {}",
                op.name(),
                stack.len()
            )));
            return Err(diags);
        }
        let popped: Vec<Entry> = stack.drain(stack.len() - n..).rev().collect();
        // "If DIOpDeref is applied to the resulting L':T' then it will result in
        // L:T. If any other operation is applied then the expression is not
        // well-formed."
        if !matches!(op, Op::Deref(_)) {
            if let Some(j) = popped.iter().find_map(|p| p.addrof) {
                diags.push(err(format!(
                    "{} is applied to the result of DIOpAddrOf (operation #{j}); only DIOpDeref may consume it",
                    op.name()
                )));
            }
        }
        let tys: Vec<Type> = popped.iter().map(|p| p.ty.clone()).collect();
        match apply(op, &tys, &env_here) {
            Ok(t) => stack.push(Entry {
                ty: t,
                addrof: matches!(op, Op::AddrOf(_)).then_some(i),
            }),
            Err((m, _)) => {
                diags.push(err(m));
                return Err(diags);
            }
        }
    }
    if stack.len() != 1 {
        diags.push(
            Diagnostic::error(
                e.span,
                format!(
                    "DIOp expression requires one element on stack after evaluating, found {}",
                    stack.len()
                ),
            )
            .note("an expression must leave exactly one typed location on the stack"),
        );
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let top = stack.pop().expect("one entry, checked above");
    Ok(Checked {
        result: top.ty,
        fragment,
        result_is_addrof: top.addrof.is_some(),
    })
}

/// The rules on `DIOpReferrer` and `DIOpArg` that depend on the surroundings.
fn check_inputs(op: &Op, env: &Env) -> Result<(), String> {
    match op {
        Op::Referrer(t) => {
            let Ok(tb) = sized(t, env) else { return Ok(()) };
            match &env.referrer {
                ReferrerInfo::Forbidden => Err(
                    "DIOpReferrer is not allowed in a computed lifetime segment (it has no referrer)".into(),
                ),
                ReferrerInfo::Absent => Err(
                    "DIOpReferrer needs a referrer: in the one-line form write `referrer: TYPE` in the brackets".into(),
                ),
                ReferrerInfo::Known { ty, bits } => {
                    let rb = bits.or_else(|| ty.as_ref().and_then(|t| sized(t, env).ok()));
                    match rb {
                        Some(rb) if rb != tb => Err(format!(
                            "DIOpReferrer type must be same size in bits as argument (`{t}` is {tb} bits, the referrer{} is {rb})",
                            ty.as_ref().map(|t| format!(" `{t}`")).unwrap_or_default()
                        )),
                        _ => Ok(()),
                    }
                }
            }
        }
        Op::Arg(n, t) => {
            let Some(args) = env.args else { return Ok(()) };
            let Some(a) = usize::try_from(*n).ok().and_then(|i| args.get(i)) else {
                return Err(format!(
                    "DIOpArg index out of range: index {n}, the expression has {} argument{}",
                    args.len(),
                    if args.len() == 1 { "" } else { "s" }
                ));
            };
            if a.poison {
                return Ok(());
            }
            let Ok(tb) = sized(t, env) else { return Ok(()) };
            let ab = a
                .bits
                .or_else(|| a.ty.as_ref().and_then(|t| sized(t, env).ok()));
            match ab {
                Some(ab) if ab != tb => Err(format!(
                    "DIOpArg type must be same size in bits as argument (`{t}` is {tb} bits, argument {n}{} is {ab})",
                    a.ty.as_ref().map(|t| format!(" `{t}`")).unwrap_or_default()
                )),
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

/// What a one-line expression's brackets say about its inputs: the argument
/// types, the referrer (`referrer: T`, or in `diexpression` argument 0, as
/// AMD's verifier has it), and the described variable's size (`-> T`).
/// The checker and the interpreter both take their [`Env`] from here.
pub struct BareInputs {
    pub args: Option<Vec<ArgInfo>>,
    pub referrer: ReferrerInfo,
    pub var_bits: Option<u64>,
}

impl BareInputs {
    pub fn of(b: &Bare, dl: &DataLayout, types: &TypeTable) -> BareInputs {
        let args: Option<Vec<ArgInfo>> = b.args.as_ref().map(|a| {
            a.iter()
                .map(|d| ArgInfo {
                    ty: Some(d.ty.clone()),
                    bits: None,
                    poison: d.poison,
                })
                .collect()
        });
        let referrer = match (&b.referrer, b.expr.dialect, &args) {
            (Some((t, _)), _, _) => ReferrerInfo::Known {
                ty: Some(t.clone()),
                bits: None,
            },
            // A poison operand has no size to compare with (AMD's verifier
            // skips size checks for poison operands).
            (None, Dialect::DiExpression, Some(a)) if !a.is_empty() => ReferrerInfo::Known {
                ty: if a[0].poison { None } else { a[0].ty.clone() },
                bits: None,
            },
            // `[?]`: nothing is known about the inputs.
            (None, Dialect::DiExpression, None) => ReferrerInfo::Known {
                ty: None,
                bits: None,
            },
            _ => ReferrerInfo::Absent,
        };
        let var_bits = b
            .var_type
            .as_ref()
            .and_then(|(t, _)| dl.bitsizeof(t, types).ok());
        BareInputs {
            args,
            referrer,
            var_bits,
        }
    }

    pub fn env<'a>(
        &'a self,
        dialect: Dialect,
        dl: &'a DataLayout,
        types: &'a TypeTable,
    ) -> Env<'a> {
        Env {
            dialect,
            dl,
            types,
            args: self.args.as_deref(),
            referrer: &self.referrer,
            var_bits: self.var_bits,
        }
    }
}

/// Checks a one-line expression. Argument and variable types that have no
/// size are reported here, at their place in the brackets.
pub fn check_bare(
    b: &Bare,
    dl: &DataLayout,
    types: &TypeTable,
) -> Result<Checked, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    for d in b.args.iter().flatten().filter(|d| !d.poison) {
        if let Err(e) = dl.bitsizeof(&d.ty, types) {
            diags.push(Diagnostic::error(d.span, format!("argument type: {e}")));
        }
    }
    if let Some((t, s)) = &b.var_type {
        if let Err(e) = dl.bitsizeof(t, types) {
            diags.push(Diagnostic::error(*s, format!("variable type: {e}")));
        }
    }
    let inputs = BareInputs::of(b, dl, types);
    match check_expr(&b.expr, &inputs.env(b.expr.dialect, dl, types)) {
        Ok(c) if diags.is_empty() => Ok(c),
        Ok(_) => Err(diags),
        Err(mut d) => {
            diags.append(&mut d);
            Err(diags)
        }
    }
}
