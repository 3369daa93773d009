//! A rule instance: one rule with every type variable and parameter hole
//! bound to something concrete, in the form the prover checks.
//!
//! This is the interface between the rule language (`rules`, which parses
//! rule files and enumerates instances) and the prover (`smt`, which decides
//! whether an instance's two sides are related as the rule claims). Neither
//! side knows the other's internals: the rule language never sees Z3, and
//! the prover never sees rule syntax.
//!
//! An instance's two sides are ordinary expressions. Each value hole `?x:T`
//! of the rule becomes `DIOpArg(k, T)` where `k` is the hole's index in
//! [`Instance::holes`]; the prover gives that argument every storage shape
//! (memory, entity, implicit, undefined, implicit address, composite,
//! several single locations, or a failing subexpression). A constant hole
//! (`DIOpConstant(T ?c)`) also becomes `DIOpArg(k, T)`, but its hole has
//! [`HoleKind::Const`]: its only shape is an implicit location holding a
//! symbolic value, which is exactly what `DIOpConstant` pushes. A computed
//! constant on the right side (constant folding) is a `Const` hole whose
//! value is fixed by a [`Term`] over the other constant holes
//! ([`Instance::defs`]).

use diopter_semantics::ast::{Dialect, Expr};
use diopter_semantics::types::{Type, TypeTable};
use num_bigint::BigInt;

/// The relation a rule claims between its left and right side (DESIGN.md,
/// "Equivalence").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `=>`: same failure, type, bits read and effect of every write.
    Equivalent,
    /// `=>ro`: as `Equivalent` for failure, type and reads; the right side
    /// may refuse a write the left side accepts (it must not accept a write
    /// the left side refuses, nor write differently).
    ReadOnly,
    /// Translation validation (`diopter validate`): the right side (a
    /// compiler's updated expression) may lose information: fail, read
    /// nothing, or refuse a write, wherever the left side succeeds. It must
    /// never give a value the left side does not (a value where the left
    /// side fails, a different type, different bits), nor accept a write the
    /// left side refuses or write differently. No rule file declares it.
    Lossy,
}

/// What a hole stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HoleKind {
    /// `?x:T`: any subexpression pushing one entry of type `T`.
    Expr,
    /// `?c` inside a literal: an implicit location holding any value of `T`
    /// (or the value its [`Instance::defs`] term computes).
    Const,
}

/// One hole of an instance; its index in [`Instance::holes`] is its
/// `DIOpArg` index in both sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hole {
    /// The name as written, without `?`.
    pub name: String,
    pub ty: Type,
    pub kind: HoleKind,
}

/// A term over the constant holes, for preconditions (`if ?c == 0`) and
/// computed constants (constant folding). Every term has a width in bits;
/// booleans are width 1. Integer operations wrap; division and remainder
/// are signed and truncating, as DESIGN.md fixes for `DIOpDiv`/`DIOpMod`.
/// Float operations read their operands as IEEE encodings of the kind and
/// round to nearest even.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// The value of constant hole `k` (its bits, `bitsizeof` of its type).
    Hole(usize),
    /// A literal of the given width (the value is reduced modulo 2^width).
    Lit {
        value: BigInt,
        width: u64,
    },
    Un(UnOp, Box<Term>),
    Bin(BinOp, Box<Term>, Box<Term>),
    /// Width change: `Zext`, `Sext` or `Trunc` to `width` bits.
    Resize(ResizeOp, u64, Box<Term>),
    /// IEEE arithmetic on encodings of `kind` (a `value::FloatKind` name:
    /// `half`, `bfloat`, `float`, `double`, `fp128`, `x86_fp80`).
    Float {
        op: FloatTermOp,
        kind: String,
        args: Vec<Term>,
    },
    /// `cond ? a : b`.
    Ite(Box<Term>, Box<Term>, Box<Term>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    SDiv,
    SRem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
    /// Comparisons give width 1.
    Eq,
    Ne,
    Ult,
    Ule,
    Slt,
    Sle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResizeOp {
    Zext,
    Sext,
    Trunc,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FloatTermOp {
    Add,
    Sub,
    Mul,
    Div,
    /// Signed integer (the operand's width) to float `kind`.
    FromSInt,
    /// Float `kind` to a signed integer of `width` bits, truncating; the
    /// term is only meaningful where [`Term`] preconditions exclude NaN and
    /// out-of-range inputs.
    ToSInt {
        width: u64,
    },
    /// Float `kind` to float `to`.
    Convert {
        to: String,
    },
    /// Width-1 predicates that preconditions need.
    IsNaN,
    /// Whether `ToSInt { width }` is defined for the operand.
    FitsSInt {
        width: u64,
    },
}

/// One rule with everything bound.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The rule's name.
    pub rule: String,
    /// Where the rule was written (`file:line`), or `generated: ...`.
    pub origin: String,
    pub relation: Relation,
    pub dialect: Dialect,
    /// What was bound, for reports: `T = i32`, `?n = 5`.
    pub binding: Vec<(String, String)>,
    pub holes: Vec<Hole>,
    /// Named types the sides use.
    pub types: TypeTable,
    pub lhs: Expr,
    pub rhs: Expr,
    /// Every precondition must hold (width 1, value 1) for the rule to
    /// apply; width and type preconditions are already decided when the
    /// instance is made, so only conditions on constants remain.
    pub pre: Vec<Term>,
    /// `(k, t)`: constant hole `k` holds the value of `t` (computed
    /// constants of the right side; `t` mentions left-side holes only).
    pub defs: Vec<(usize, Term)>,
}

impl Instance {
    /// For an instance whose two sides mean the same in both dialects
    /// ([`diopter_semantics::check::dialect_neutral`]), a key that its twin
    /// in the other dialect shares: everything the instance poses except
    /// its dialect. `None` when a side is not neutral. Two instances with
    /// the same key pose the same question, so a prover may decide one and
    /// give the other its verdict.
    pub fn dialect_twin_key(&self) -> Option<String> {
        use diopter_semantics::check::dialect_neutral;
        if !(dialect_neutral(&self.lhs) && dialect_neutral(&self.rhs)) {
            return None;
        }
        let ops = |e: &Expr| e.ops().map(|o| format!("{o:?}")).collect::<Vec<_>>();
        Some(format!(
            "{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
            self.rule,
            self.origin,
            self.relation,
            self.binding,
            self.holes,
            self.types.named,
            ops(&self.lhs),
            ops(&self.rhs),
            self.pre,
            self.defs
        ))
    }
}
