//! The abstract syntax of DIOp expressions, shared by both dialects.
//!
//! One operation enum is the union of the spec's operations (`diexpr`) and those
//! of AMD's shipped `DIExpression` form (`diexpression`). Where the two spell an
//! operation differently (seed `DIOpDeref()` vs live `DIOpDeref(T)`), the AST keeps
//! the spelling, so that an expression prints back in the form it was read.

use crate::types::Type;
use num_bigint::BigInt;
use std::fmt;

/// Byte range in a source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// The spec's `!DIExpr(...)`, evaluated inside a `DILifetime`.
    DiExpr,
    /// AMD's fork: DIOps inside `!DIExpression(...)`, arguments are the debug
    /// intrinsic's location operands.
    DiExpression,
}

impl Dialect {
    pub fn keyword(self) -> &'static str {
        match self {
            Dialect::DiExpr => "diexpr",
            Dialect::DiExpression => "diexpression",
        }
    }
    pub fn node_name(self) -> &'static str {
        match self {
            Dialect::DiExpr => "DIExpr",
            Dialect::DiExpression => "DIExpression",
        }
    }
}

/// A constant's literal, as written in `DIOpConstant(T literal)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    /// An integer (also `true`/`false` for `i1`), read at the constant's width.
    Int(BigInt),
    /// A floating-point literal, kept as its exact bits in the constant's format.
    Float(crate::value::Bits),
    Undef,
    Poison,
    /// `null` (pointers) and `zeroinitializer` (anything): all bits zero.
    Null,
    ZeroInitializer,
    /// `<T a, T b, ...>` for vectors and `[T a, ...]` for arrays; each element
    /// carries its type as written.
    Vector(Vec<(Type, Literal)>),
    Array(Vec<(Type, Literal)>),
}

/// One DIOp.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Referrer(Type),
    Arg(u64, Type),
    TypeObject(Type),
    Constant(Type, Literal),
    Convert(Type),
    Reinterpret(Type),
    /// Seed `DIOpOffset()`: byte offset, result keeps the input location's type.
    Offset,
    /// Seed `DIOpBitOffset()` when `None`, live `DIOpBitOffset(T)` otherwise.
    BitOffset(Option<Type>),
    ByteOffset(Type),
    Composite(u64, Type),
    Extend(u64),
    Select,
    AddrOf(u64),
    /// Seed `DIOpDeref()` when `None` (result: the typed pointer's pointee), live
    /// `DIOpDeref(T)` otherwise.
    Deref(Option<Type>),
    Read,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    /// Seed `DIOpShr()`; diopter reads it as `LShr` (DESIGN.md).
    Shr,
    LShr,
    AShr,
    Shl,
    ZExt(Type),
    SExt(Type),
    PushLane(Type),
    /// `DIOpFragment(offset, size)` in bits: metadata on the expression, not a
    /// stack operation.
    Fragment(u64, u64),
}

impl Op {
    /// The operation's name as written (`DIOpAdd`).
    pub fn name(&self) -> &'static str {
        match self {
            Op::Referrer(_) => "DIOpReferrer",
            Op::Arg(..) => "DIOpArg",
            Op::TypeObject(_) => "DIOpTypeObject",
            Op::Constant(..) => "DIOpConstant",
            Op::Convert(_) => "DIOpConvert",
            Op::Reinterpret(_) => "DIOpReinterpret",
            Op::Offset => "DIOpOffset",
            Op::BitOffset(_) => "DIOpBitOffset",
            Op::ByteOffset(_) => "DIOpByteOffset",
            Op::Composite(..) => "DIOpComposite",
            Op::Extend(_) => "DIOpExtend",
            Op::Select => "DIOpSelect",
            Op::AddrOf(_) => "DIOpAddrOf",
            Op::Deref(_) => "DIOpDeref",
            Op::Read => "DIOpRead",
            Op::Add => "DIOpAdd",
            Op::Sub => "DIOpSub",
            Op::Mul => "DIOpMul",
            Op::Div => "DIOpDiv",
            Op::Mod => "DIOpMod",
            Op::And => "DIOpAnd",
            Op::Or => "DIOpOr",
            Op::Xor => "DIOpXor",
            Op::Shr => "DIOpShr",
            Op::LShr => "DIOpLShr",
            Op::AShr => "DIOpAShr",
            Op::Shl => "DIOpShl",
            Op::ZExt(_) => "DIOpZExt",
            Op::SExt(_) => "DIOpSExt",
            Op::PushLane(_) => "DIOpPushLane",
            Op::Fragment(..) => "DIOpFragment",
        }
    }

    /// How many parameters the operation is written with; with the name this
    /// selects the operation's specification line.
    pub fn param_count(&self) -> usize {
        match self {
            Op::Offset | Op::BitOffset(None) | Op::Deref(None) | Op::Select | Op::Read => 0,
            op if op.is_binary() => 0,
            Op::Arg(..) | Op::Constant(..) | Op::Composite(..) | Op::Fragment(..) => 2,
            _ => 1,
        }
    }

    /// The type the operation is written with (`DIOpConvert(T)`'s `T`), for
    /// the operations that take one. The one place that lists them: every
    /// crate that walks an expression's types asks here.
    pub fn type_param(&self) -> Option<&Type> {
        match self {
            Op::Referrer(t)
            | Op::Arg(_, t)
            | Op::TypeObject(t)
            | Op::Constant(t, _)
            | Op::Convert(t)
            | Op::Reinterpret(t)
            | Op::BitOffset(Some(t))
            | Op::ByteOffset(t)
            | Op::Composite(_, t)
            | Op::Deref(Some(t))
            | Op::ZExt(t)
            | Op::SExt(t)
            | Op::PushLane(t) => Some(t),
            // Listed, not `_`, so that a new operation has to say.
            Op::Offset
            | Op::BitOffset(None)
            | Op::Extend(_)
            | Op::Select
            | Op::AddrOf(_)
            | Op::Deref(None)
            | Op::Read
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
            | Op::Shl
            | Op::Fragment(..) => None,
        }
    }

    /// The binary operations of the `DIOpAdd` family: two values of one
    /// integer type (or vectors of it; floats too for the
    /// [`arithmetic`](Op::is_arithmetic) four), one result of that type.
    pub fn is_binary(&self) -> bool {
        self.is_arithmetic()
            || matches!(
                self,
                Op::Mod | Op::And | Op::Or | Op::Xor | Op::Shr | Op::LShr | Op::AShr | Op::Shl
            )
    }

    /// `DIOpAdd`, `DIOpSub`, `DIOpMul`, `DIOpDiv`: the binary operations
    /// defined on floats as well as integers.
    pub fn is_arithmetic(&self) -> bool {
        matches!(self, Op::Add | Op::Sub | Op::Mul | Op::Div)
    }

    /// The shifts: `DIOpShr` (read as `DIOpLShr`), `DIOpLShr`, `DIOpAShr`,
    /// `DIOpShl`.
    pub fn is_shift(&self) -> bool {
        matches!(self, Op::Shr | Op::LShr | Op::AShr | Op::Shl)
    }

    /// Every operation name diopter knows, for diagnostics and fuzz dictionaries.
    pub const NAMES: &'static [&'static str] = &[
        "DIOpReferrer",
        "DIOpArg",
        "DIOpTypeObject",
        "DIOpConstant",
        "DIOpConvert",
        "DIOpReinterpret",
        "DIOpOffset",
        "DIOpBitOffset",
        "DIOpByteOffset",
        "DIOpComposite",
        "DIOpExtend",
        "DIOpSelect",
        "DIOpAddrOf",
        "DIOpDeref",
        "DIOpRead",
        "DIOpAdd",
        "DIOpSub",
        "DIOpMul",
        "DIOpDiv",
        "DIOpMod",
        "DIOpAnd",
        "DIOpOr",
        "DIOpXor",
        "DIOpShr",
        "DIOpLShr",
        "DIOpAShr",
        "DIOpShl",
        "DIOpZExt",
        "DIOpSExt",
        "DIOpPushLane",
        "DIOpFragment",
    ];
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OpNode {
    pub op: Op,
    pub span: Span,
}

/// An expression: the operations of one `!DIExpr(...)` / `!DIExpression(...)`.
#[derive(Clone, Debug)]
pub struct Expr {
    pub dialect: Dialect,
    pub ops: Vec<OpNode>,
    pub span: Span,
}

/// Equality ignores source positions: `parse(print(e)) == e`.
impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        self.dialect == other.dialect
            && self.ops.len() == other.ops.len()
            && self.ops.iter().zip(&other.ops).all(|(a, b)| a.op == b.op)
    }
}
impl Eq for Expr {}

impl Expr {
    pub fn new(dialect: Dialect, ops: Vec<Op>) -> Expr {
        Expr {
            dialect,
            ops: ops
                .into_iter()
                .map(|op| OpNode {
                    op,
                    span: Span::default(),
                })
                .collect(),
            span: Span::default(),
        }
    }
    pub fn ops(&self) -> impl Iterator<Item = &Op> {
        self.ops.iter().map(|n| &n.op)
    }
}

/// One input of a bare expression: a location operand (`diexpression`) or an
/// `argObjects` entry (`diexpr`), by its type.
#[derive(Clone, Debug)]
pub struct ArgDecl {
    pub ty: Type,
    /// AMD's verifier skips size checks for poison operands.
    pub poison: bool,
    pub span: Span,
}

/// The one-line form `[DIALECT] [ARGS] [-> VARTYPE] OPS`: an expression with the
/// types of what it refers to.
#[derive(Clone, Debug)]
pub struct Bare {
    /// `None` for `[?]`: argument types unknown.
    pub args: Option<Vec<ArgDecl>>,
    /// `referrer: T`.
    pub referrer: Option<(Type, Span)>,
    /// `-> T`: the described variable's type.
    pub var_type: Option<(Type, Span)>,
    pub expr: Expr,
    /// Whether the line named its dialect, and how the ops were written
    /// (`!DIExpr(...)` wrapper or bare list), so it prints back the same way.
    pub explicit_dialect: bool,
    pub wrapped: bool,
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// Equality ignores source positions.
impl PartialEq for ArgDecl {
    fn eq(&self, other: &Self) -> bool {
        self.ty == other.ty && self.poison == other.poison
    }
}
impl Eq for ArgDecl {}

/// Equality ignores source positions: `parse(print(b)) == b`.
impl PartialEq for Bare {
    fn eq(&self, other: &Self) -> bool {
        self.args == other.args
            && self.referrer.as_ref().map(|r| &r.0) == other.referrer.as_ref().map(|r| &r.0)
            && self.var_type.as_ref().map(|r| &r.0) == other.var_type.as_ref().map(|r| &r.0)
            && self.expr == other.expr
            && self.explicit_dialect == other.explicit_dialect
            && self.wrapped == other.wrapped
    }
}
impl Eq for Bare {}
