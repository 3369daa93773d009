//! Terms of the rule language: preconditions (`if ?c == 0`), computed
//! constants (`DIOpConstant(T {?a + ?b})`) and type conditions
//! (`if width(T) >= 8`), as written ([`TermPat`]), elaborated at one binding
//! of the type variables into the prover's [`Term`], and evaluated
//! concretely on [`Bits`] ([`eval_term`]) so that the simplifier applies
//! exactly the term the prover proves.
//!
//! A rule term is untyped as written: a literal takes the width of the
//! operand it meets (`?c == 0` compares at `?c`'s width), a hole has its
//! type's width, `zext(t, T)`/`sext`/`trunc` change width to `width(T)`.
//! A condition that mentions no constant hole is a *type condition*,
//! decided once the type variables are bound (at instantiation, or when the
//! simplifier matches); it is evaluated on unbounded integers.

use super::instance::{BinOp, FloatTermOp, ResizeOp, Term, UnOp};
use diopter_semantics::ast::Span;
use diopter_semantics::types::Type;
use diopter_semantics::value::{self, Bits, FloatKind, FloatOp};
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// A term as written in a rule file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TermPat {
    /// `?name`: a constant hole.
    Hole(String, Span),
    /// A decimal integer.
    Lit(BigInt, Span),
    /// `width(T)`: the bit size of a type, an integer literal in a term.
    Width(Type, Span),
    /// `-t`.
    Neg(Box<TermPat>),
    /// `a + b`, `a == b`, ...; comparisons `<`, `<=`, `>`, `>=` are signed.
    Bin(BinOp, Box<TermPat>, Box<TermPat>),
    /// `!cond`.
    Not(Box<TermPat>),
    /// A function: `sdiv(a, b)`, `zext(a, T)`, `add_nsw(a, b)`, ... (see
    /// [`FUNCTIONS`]); type arguments are [`TermPat::Type`].
    Call(String, Vec<TermPat>, Span),
    /// A type argument of a function.
    Type(Type, Span),
    /// IEEE arithmetic on encodings of the float type `kind`; made by code
    /// (the generated folding rules), not written in rule files.
    Float {
        op: FloatFn,
        kind: Type,
        args: Vec<TermPat>,
    },
}

/// The float functions of [`TermPat::Float`]; types may be type variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FloatFn {
    Add,
    Sub,
    Mul,
    Div,
    /// The signed integer argument as a `kind`.
    FromSInt,
    /// The `kind` argument truncated to a signed integer of this type.
    ToSInt(Type),
    /// The `kind` argument converted to this float type.
    Convert(Type),
    IsNaN,
    /// Whether `ToSInt` of this type is defined for the argument.
    FitsSInt(Type),
}

/// The functions a term may call, with their arity and what they mean.
pub const FUNCTIONS: &[(&str, usize, &str)] = &[
    (
        "sdiv",
        2,
        "signed division, truncating (the divisor must be non-zero where it is used)",
    ),
    ("srem", 2, "signed remainder, the sign of the dividend"),
    ("and", 2, "bitwise and"),
    ("or", 2, "bitwise or"),
    ("xor", 2, "bitwise exclusive or"),
    ("shl", 2, "shift left; an amount >= the width gives 0"),
    (
        "lshr",
        2,
        "logical shift right; an amount >= the width gives 0",
    ),
    (
        "ashr",
        2,
        "arithmetic shift right; an amount >= the width gives the sign fill",
    ),
    ("not", 1, "bitwise not"),
    (
        "zext",
        2,
        "zero-extend or truncate to the width of a type: zext(t, T)",
    ),
    (
        "sext",
        2,
        "sign-extend or truncate to the width of a type: sext(t, T)",
    ),
    ("trunc", 2, "the low bits: trunc(t, T)"),
    ("ult", 2, "unsigned a < b"),
    ("ule", 2, "unsigned a <= b"),
    ("add_nsw", 2, "a + b does not overflow as signed integers"),
    ("add_nuw", 2, "a + b does not overflow as unsigned integers"),
    ("sub_nsw", 2, "a - b does not overflow as signed integers"),
    ("mul_nsw", 2, "a * b does not overflow as signed integers"),
];

impl TermPat {
    pub fn span(&self) -> Span {
        match self {
            TermPat::Hole(_, s)
            | TermPat::Lit(_, s)
            | TermPat::Width(_, s)
            | TermPat::Call(_, _, s)
            | TermPat::Type(_, s) => *s,
            TermPat::Neg(a) | TermPat::Not(a) => a.span(),
            TermPat::Bin(_, a, b) => a.span().to(b.span()),
            TermPat::Float { args, .. } => args.first().map_or(Span::default(), |a| a.span()),
        }
    }

    /// Every constant hole the term mentions.
    pub fn holes(&self, out: &mut Vec<String>) {
        match self {
            TermPat::Hole(n, _) => out.push(n.clone()),
            TermPat::Lit(..) | TermPat::Width(..) | TermPat::Type(..) => {}
            TermPat::Neg(a) | TermPat::Not(a) => a.holes(out),
            TermPat::Bin(_, a, b) => {
                a.holes(out);
                b.holes(out);
            }
            TermPat::Call(_, args, _) | TermPat::Float { args, .. } => {
                args.iter().for_each(|a| a.holes(out))
            }
        }
    }

    /// Every integer literal the term mentions (for the widths a rule is
    /// tried at, `crate::widths`).
    pub fn lits(&self, out: &mut Vec<BigInt>) {
        match self {
            TermPat::Lit(v, _) => out.push(v.clone()),
            TermPat::Hole(..) | TermPat::Width(..) | TermPat::Type(..) => {}
            TermPat::Neg(a) | TermPat::Not(a) => a.lits(out),
            TermPat::Bin(_, a, b) => {
                a.lits(out);
                b.lits(out);
            }
            TermPat::Call(_, args, _) | TermPat::Float { args, .. } => {
                args.iter().for_each(|a| a.lits(out))
            }
        }
    }

    /// Every type the term mentions (for checking type variables).
    pub fn types(&self, out: &mut Vec<(Type, Span)>) {
        match self {
            TermPat::Width(t, s) | TermPat::Type(t, s) => out.push((t.clone(), *s)),
            TermPat::Hole(..) | TermPat::Lit(..) => {}
            TermPat::Neg(a) | TermPat::Not(a) => a.types(out),
            TermPat::Bin(_, a, b) => {
                a.types(out);
                b.types(out);
            }
            TermPat::Call(_, args, _) => args.iter().for_each(|a| a.types(out)),
            TermPat::Float { kind, args, .. } => {
                out.push((kind.clone(), Span::default()));
                args.iter().for_each(|a| a.types(out))
            }
        }
    }

    /// The term with every type passed through `f` (type-variable
    /// substitution).
    pub fn map_types(&self, f: &dyn Fn(&Type) -> Type) -> TermPat {
        match self {
            TermPat::Width(t, s) => TermPat::Width(f(t), *s),
            TermPat::Type(t, s) => TermPat::Type(f(t), *s),
            TermPat::Hole(..) | TermPat::Lit(..) => self.clone(),
            TermPat::Neg(a) => TermPat::Neg(Box::new(a.map_types(f))),
            TermPat::Not(a) => TermPat::Not(Box::new(a.map_types(f))),
            TermPat::Bin(o, a, b) => {
                TermPat::Bin(*o, Box::new(a.map_types(f)), Box::new(b.map_types(f)))
            }
            TermPat::Call(n, args, s) => {
                TermPat::Call(n.clone(), args.iter().map(|a| a.map_types(f)).collect(), *s)
            }
            TermPat::Float { op, kind, args } => TermPat::Float {
                op: match op {
                    FloatFn::ToSInt(t) => FloatFn::ToSInt(f(t)),
                    FloatFn::Convert(t) => FloatFn::Convert(f(t)),
                    FloatFn::FitsSInt(t) => FloatFn::FitsSInt(f(t)),
                    o => o.clone(),
                },
                kind: f(kind),
                args: args.iter().map(|a| a.map_types(f)).collect(),
            },
        }
    }
}

/// Why a term of a rule does not elaborate into a prover term ([`Elab`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TermError {
    #[error("unknown constant hole `?{0}`")]
    UnknownHole(String),
    /// A type unsized here (an unbound or unsized type).
    #[error("`{0}` has no width here")]
    NoWidth(Type),
    /// `zext`/`sext`/`trunc` without a type as their second argument.
    #[error("`{0}` takes a term and a type")]
    TermAndType(String),
    #[error("a term made of literals only has no width: compare it with a hole")]
    LiteralsOnly,
    #[error("type `{0}` where a term is expected")]
    TypeAsTerm(Type),
    #[error("a comparison of literals only has no width")]
    ComparisonOfLiterals,
    #[error("`{0}` is not a float type")]
    NotFloat(Type),
    #[error("`{0}` is not an integer type")]
    NotInteger(Type),
    /// A condition of this many bits (not 1).
    #[error("a condition must be a comparison, not a {0}-bit term")]
    NotACondition(u64),
    #[error("unknown function `{0}`")]
    UnknownFunction(String),
    #[error("`{name}` takes {arity} argument(s)")]
    Arity { name: String, arity: usize },
    /// A two-operand function of literals only.
    #[error("`{0}` of literals only has no width")]
    CallOfLiterals(String),
}

/// What elaboration needs to know: each constant hole's index and width,
/// and the width of a (concrete) type.
pub struct Elab<'a> {
    pub hole: &'a dyn Fn(&str) -> Option<(usize, u64)>,
    pub width: &'a dyn Fn(&Type) -> Option<u64>,
}

fn is_cmp(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Ult | BinOp::Ule | BinOp::Slt | BinOp::Sle
    )
}

impl Elab<'_> {
    /// The width a term has by itself (`None` for literals and
    /// `width(T)`, which take their neighbour's).
    fn natural_width(&self, t: &TermPat) -> Result<Option<u64>, TermError> {
        Ok(match t {
            TermPat::Hole(n, _) => Some(
                (self.hole)(n)
                    .ok_or_else(|| TermError::UnknownHole(n.clone()))?
                    .1,
            ),
            TermPat::Lit(..) | TermPat::Width(..) | TermPat::Type(..) => None,
            TermPat::Neg(a) => self.natural_width(a)?,
            TermPat::Not(_) => Some(1),
            TermPat::Float { op, kind, .. } => {
                let w = |t: &Type| (self.width)(t).ok_or_else(|| TermError::NoWidth(t.clone()));
                Some(match op {
                    FloatFn::IsNaN | FloatFn::FitsSInt(_) => 1,
                    FloatFn::ToSInt(t) | FloatFn::Convert(t) => w(t)?,
                    _ => w(kind)?,
                })
            }
            TermPat::Bin(op, _, _) if is_cmp(*op) => Some(1),
            TermPat::Bin(_, a, b) => match self.natural_width(a)? {
                Some(w) => Some(w),
                None => self.natural_width(b)?,
            },
            TermPat::Call(name, args, _) => match name.as_str() {
                "zext" | "sext" | "trunc" => match args.get(1) {
                    Some(TermPat::Type(ty, _)) => {
                        Some((self.width)(ty).ok_or_else(|| TermError::NoWidth(ty.clone()))?)
                    }
                    _ => return Err(TermError::TermAndType(name.clone())),
                },
                "ult" | "ule" | "add_nsw" | "add_nuw" | "sub_nsw" | "mul_nsw" => Some(1),
                _ => {
                    let mut w = None;
                    for a in args {
                        if let Some(x) = self.natural_width(a)? {
                            w = Some(x);
                            break;
                        }
                    }
                    w
                }
            },
        })
    }

    /// The prover's term for `t` at width `want` (where the term's width is
    /// not fixed by itself). Booleans are width 1.
    pub fn term(&self, t: &TermPat, want: Option<u64>) -> Result<Term, TermError> {
        let w = match self.natural_width(t)? {
            Some(w) => w,
            None => want.ok_or(TermError::LiteralsOnly)?,
        };
        Ok(match t {
            TermPat::Hole(n, _) => Term::Hole((self.hole)(n).expect("checked by natural_width").0),
            TermPat::Lit(v, _) => Term::Lit {
                value: v.clone(),
                width: w,
            },
            TermPat::Width(ty, _) => Term::Lit {
                value: BigInt::from(
                    (self.width)(ty).ok_or_else(|| TermError::NoWidth(ty.clone()))?,
                ),
                width: w,
            },
            TermPat::Type(ty, _) => return Err(TermError::TypeAsTerm(ty.clone())),
            TermPat::Neg(a) => Term::Un(UnOp::Neg, Box::new(self.term(a, Some(w))?)),
            TermPat::Not(a) => Term::Un(UnOp::Not, Box::new(self.bool(a)?)),
            TermPat::Bin(op, a, b) => {
                // Both operands at one width: the width of whichever fixes it.
                let ow = if is_cmp(*op) {
                    match self.natural_width(a)? {
                        Some(x) => Some(x),
                        None => self.natural_width(b)?,
                    }
                } else {
                    Some(w)
                };
                let ow = ow.ok_or(TermError::ComparisonOfLiterals)?;
                Term::Bin(
                    *op,
                    Box::new(self.term(a, Some(ow))?),
                    Box::new(self.term(b, Some(ow))?),
                )
            }
            TermPat::Call(name, args, _) => self.call(name, args, w)?,
            TermPat::Float { op, kind, args } => {
                let k = kind
                    .float_kind()
                    .ok_or_else(|| TermError::NotFloat(kind.clone()))?;
                let kw = k.width();
                let int_w = |t: &Type| {
                    t.int_width()
                        .ok_or_else(|| TermError::NotInteger(t.clone()))
                };
                let (fop, arg_w) = match op {
                    FloatFn::Add => (FloatTermOp::Add, kw),
                    FloatFn::Sub => (FloatTermOp::Sub, kw),
                    FloatFn::Mul => (FloatTermOp::Mul, kw),
                    FloatFn::Div => (FloatTermOp::Div, kw),
                    FloatFn::IsNaN => (FloatTermOp::IsNaN, kw),
                    FloatFn::FromSInt => (FloatTermOp::FromSInt, 0),
                    FloatFn::ToSInt(t) => (FloatTermOp::ToSInt { width: int_w(t)? }, kw),
                    FloatFn::FitsSInt(t) => (FloatTermOp::FitsSInt { width: int_w(t)? }, kw),
                    FloatFn::Convert(t) => (
                        FloatTermOp::Convert {
                            to: t
                                .float_kind()
                                .ok_or_else(|| TermError::NotFloat(t.clone()))?
                                .name()
                                .to_string(),
                        },
                        kw,
                    ),
                };
                let args = args
                    .iter()
                    .map(|a| self.term(a, (arg_w > 0).then_some(arg_w)))
                    .collect::<Result<Vec<_>, _>>()?;
                Term::Float {
                    op: fop,
                    kind: k.name().to_string(),
                    args,
                }
            }
        })
    }

    /// A width-1 term (a condition).
    pub fn bool(&self, t: &TermPat) -> Result<Term, TermError> {
        match self.natural_width(t)? {
            Some(1) | None => self.term(t, Some(1)),
            Some(w) => Err(TermError::NotACondition(w)),
        }
    }

    fn call(&self, name: &str, args: &[TermPat], w: u64) -> Result<Term, TermError> {
        let arity = FUNCTIONS
            .iter()
            .find(|f| f.0 == name)
            .ok_or_else(|| TermError::UnknownFunction(name.to_string()))?
            .1;
        if args.len() != arity {
            return Err(TermError::Arity {
                name: name.to_string(),
                arity,
            });
        }
        let pair_width = || -> Result<u64, TermError> {
            match self.natural_width(&args[0])? {
                Some(x) => Ok(x),
                None => self
                    .natural_width(&args[1])?
                    .ok_or_else(|| TermError::CallOfLiterals(name.to_string())),
            }
        };
        let bin = |op: BinOp, ow: u64| -> Result<Term, TermError> {
            Ok(Term::Bin(
                op,
                Box::new(self.term(&args[0], Some(ow))?),
                Box::new(self.term(&args[1], Some(ow))?),
            ))
        };
        Ok(match name {
            "sdiv" => bin(BinOp::SDiv, w)?,
            "srem" => bin(BinOp::SRem, w)?,
            "and" => bin(BinOp::And, w)?,
            "or" => bin(BinOp::Or, w)?,
            "xor" => bin(BinOp::Xor, w)?,
            "shl" => bin(BinOp::Shl, w)?,
            "lshr" => bin(BinOp::LShr, w)?,
            "ashr" => bin(BinOp::AShr, w)?,
            "not" => Term::Un(UnOp::Not, Box::new(self.term(&args[0], Some(w))?)),
            "ult" => bin(BinOp::Ult, pair_width()?)?,
            "ule" => bin(BinOp::Ule, pair_width()?)?,
            "zext" | "sext" | "trunc" => {
                let inner = self.term(&args[0], None)?;
                let op = match name {
                    "zext" => ResizeOp::Zext,
                    "sext" => ResizeOp::Sext,
                    _ => ResizeOp::Trunc,
                };
                resize(op, w, inner, self.natural_width(&args[0])?.unwrap_or(w))
            }
            "add_nsw" | "sub_nsw" | "mul_nsw" | "add_nuw" => {
                // No overflow: the operation at one more bit (twice the
                // bits for `*`) agrees with the wrapped one, extended.
                let ow = pair_width()?;
                let a = self.term(&args[0], Some(ow))?;
                let b = self.term(&args[1], Some(ow))?;
                let (op, ext, wide) = match name {
                    "add_nsw" => (BinOp::Add, ResizeOp::Sext, ow + 1),
                    "sub_nsw" => (BinOp::Sub, ResizeOp::Sext, ow + 1),
                    "mul_nsw" => (BinOp::Mul, ResizeOp::Sext, 2 * ow),
                    _ => (BinOp::Add, ResizeOp::Zext, ow + 1),
                };
                let big = |t: Term| Term::Resize(ext, wide, Box::new(t));
                Term::Bin(
                    BinOp::Eq,
                    Box::new(Term::Bin(
                        op,
                        Box::new(big(a.clone())),
                        Box::new(big(b.clone())),
                    )),
                    Box::new(big(Term::Bin(op, Box::new(a), Box::new(b)))),
                )
            }
            _ => unreachable!("FUNCTIONS lists every name"),
        })
    }
}

/// `Resize` to `to` bits of a `from`-bit term, as the prover wants it
/// (`Trunc` never widens, `Zext`/`Sext` never narrow; equal widths are the
/// term itself).
fn resize(op: ResizeOp, to: u64, t: Term, from: u64) -> Term {
    match to.cmp(&from) {
        std::cmp::Ordering::Equal => t,
        std::cmp::Ordering::Less => Term::Resize(ResizeOp::Trunc, to, Box::new(t)),
        std::cmp::Ordering::Greater if op == ResizeOp::Trunc => {
            Term::Resize(ResizeOp::Zext, to, Box::new(t))
        }
        std::cmp::Ordering::Greater => Term::Resize(op, to, Box::new(t)),
    }
}

/// Evaluates a type condition (one that mentions no constant hole) on
/// unbounded integers; comparisons give 0 or 1.
pub fn eval_type_cond(t: &TermPat, width: &dyn Fn(&Type) -> Option<u64>) -> Option<BigInt> {
    let b = |x: bool| BigInt::from(x as u8);
    Some(match t {
        TermPat::Lit(v, _) => v.clone(),
        TermPat::Width(ty, _) => BigInt::from(width(ty)?),
        TermPat::Neg(a) => -eval_type_cond(a, width)?,
        TermPat::Not(a) => b(eval_type_cond(a, width)?.is_zero()),
        TermPat::Bin(op, x, y) => {
            let x = eval_type_cond(x, width)?;
            let y = eval_type_cond(y, width)?;
            match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Eq => b(x == y),
                BinOp::Ne => b(x != y),
                BinOp::Slt | BinOp::Ult => b(x < y),
                BinOp::Sle | BinOp::Ule => b(x <= y),
                BinOp::And => b(!x.is_zero() && !y.is_zero()),
                BinOp::Or => b(!x.is_zero() || !y.is_zero()),
                _ => return None,
            }
        }
        TermPat::Hole(..) | TermPat::Call(..) | TermPat::Type(..) | TermPat::Float { .. } => {
            return None
        }
    })
}

/// The width of a concrete term.
pub fn term_width(t: &Term, holes: &[u64]) -> u64 {
    match t {
        Term::Hole(k) => holes.get(*k).copied().unwrap_or(0),
        Term::Lit { width, .. } => *width,
        Term::Un(_, a) => term_width(a, holes),
        Term::Bin(op, a, _) if is_cmp(*op) => {
            let _ = a;
            1
        }
        Term::Bin(_, a, _) => term_width(a, holes),
        Term::Resize(_, w, _) => *w,
        Term::Float { op, kind, args } => match op {
            FloatTermOp::IsNaN | FloatTermOp::FitsSInt { .. } => 1,
            FloatTermOp::ToSInt { width } => *width,
            FloatTermOp::Convert { to } => FloatKind::from_name(to).map_or(0, FloatKind::width),
            FloatTermOp::FromSInt => FloatKind::from_name(kind).map_or(0, FloatKind::width),
            _ => args.first().map_or(0, |a| term_width(a, holes)),
        },
        Term::Ite(_, a, _) => term_width(a, holes),
    }
}

fn boolean(x: bool) -> Bits {
    Bits::from_u64(1, x as u64)
}

/// Whether `a` encodes a NaN of kind `k`, as the reference interpreter
/// reads it: the exponent all ones and a non-zero fraction, and for
/// `x86_fp80` also every encoding `APFloat` reads as a NaN (the
/// pseudo-infinity, pseudo-NaNs and unnormals), as the SMT encoding's
/// `isnan` does.
pub fn is_nan(k: FloatKind, a: &Bits) -> bool {
    a.width() == k.width() && value::float_is_nan(k, a)
}

/// Evaluates a term on concrete hole values (`holes[k]` for `Term::Hole(k)`).
/// `None` when the term is undefined there: a division by zero, a float
/// conversion out of range, a hole without a value, an unknown float kind.
pub fn eval_term(t: &Term, holes: &[Option<Bits>]) -> Option<Bits> {
    Some(match t {
        Term::Hole(k) => holes.get(*k)?.clone()?,
        Term::Lit { value, width } => Bits::from_bigint(*width, value),
        Term::Un(UnOp::Not, a) => {
            let a = eval_term(a, holes)?;
            value::xor(&a, &Bits::ones(a.width()))
        }
        Term::Un(UnOp::Neg, a) => {
            let a = eval_term(a, holes)?;
            value::sub(&Bits::zero(a.width()), &a)
        }
        Term::Bin(op, a, b) => {
            let a = eval_term(a, holes)?;
            let b = eval_term(b, holes)?;
            if a.width() != b.width() {
                return None;
            }
            match op {
                BinOp::Add => value::add(&a, &b),
                BinOp::Sub => value::sub(&a, &b),
                BinOp::Mul => value::mul(&a, &b),
                BinOp::SDiv => value::sdiv(&a, &b)?,
                BinOp::SRem => value::srem(&a, &b)?,
                BinOp::And => value::and(&a, &b),
                BinOp::Or => value::or(&a, &b),
                BinOp::Xor => value::xor(&a, &b),
                BinOp::Shl => value::shl(&a, &b),
                BinOp::LShr => value::lshr(&a, &b),
                BinOp::AShr => value::ashr(&a, &b),
                BinOp::Eq => boolean(a == b),
                BinOp::Ne => boolean(a != b),
                BinOp::Ult => boolean(a.to_biguint() < b.to_biguint()),
                BinOp::Ule => boolean(a.to_biguint() <= b.to_biguint()),
                BinOp::Slt => boolean(a.to_bigint() < b.to_bigint()),
                BinOp::Sle => boolean(a.to_bigint() <= b.to_bigint()),
            }
        }
        Term::Resize(op, w, a) => {
            let a = eval_term(a, holes)?;
            match op {
                ResizeOp::Trunc => value::trunc(&a, (*w).min(a.width())),
                ResizeOp::Zext => value::trunc(&a, *w),
                ResizeOp::Sext if diopter_faults::planted!("simplify-fold-sext-as-zext") => {
                    value::trunc(&a, *w)
                }
                ResizeOp::Sext => Bits::from_bigint(*w, &a.to_bigint()),
            }
        }
        Term::Float { op, kind, args } => {
            let k = FloatKind::from_name(kind)?;
            let arg = |i: usize| -> Option<Bits> { eval_term(args.get(i)?, holes) };
            match op {
                FloatTermOp::Add | FloatTermOp::Sub | FloatTermOp::Mul | FloatTermOp::Div => {
                    let fop = match op {
                        FloatTermOp::Add => FloatOp::Add,
                        FloatTermOp::Sub => FloatOp::Sub,
                        FloatTermOp::Mul => FloatOp::Mul,
                        _ => FloatOp::Div,
                    };
                    value::float_binop(k, fop, &arg(0)?, &arg(1)?)
                }
                FloatTermOp::FromSInt => value::int_to_float(k, &arg(0)?),
                FloatTermOp::ToSInt { width } => value::float_to_int(k, &arg(0)?, *width)?,
                FloatTermOp::Convert { to } => {
                    value::float_to_float(k, FloatKind::from_name(to)?, &arg(0)?)
                }
                FloatTermOp::IsNaN => boolean(is_nan(k, &arg(0)?)),
                FloatTermOp::FitsSInt { width } => {
                    boolean(value::float_to_int(k, &arg(0)?, *width).is_some())
                }
            }
        }
        Term::Ite(c, a, b) => {
            if eval_term(c, holes)?.is_zero() {
                eval_term(b, holes)?
            } else {
                eval_term(a, holes)?
            }
        }
    })
}

/// Whether every precondition holds (evaluates to 1) for these values.
pub fn preconditions_hold(pre: &[Term], holes: &[Option<Bits>]) -> bool {
    pre.iter()
        .all(|p| eval_term(p, holes).is_some_and(|b| b == Bits::from_bigint(1, &BigInt::one())))
}
