//! Which integer widths a rule is instantiated at: the widths the user
//! lists (`--widths`, default [`crate::DEFAULT_WIDTHS`]) and, for each type
//! variable, every width at which the rule's own text can change meaning.
//!
//! A proof covers the instances it checked and nothing more, so a rule
//! whose meaning changes between two listed widths (`if width(I) >= 5`, or
//! the literal `16`, which reads as `-16` in `i5`) would be "proved" without
//! the width where it breaks. The widths added here ([`derived_widths`]):
//!
//! * **type conditions**: for each condition and each variable it mentions,
//!   with the other variables at each of their sample types, every width
//!   `w` where the condition's truth differs between `w` and `w + 1`, and
//!   the widths around it (`w - 1 ..= w + 2`): `width(T) >= k` gives
//!   `k - 2 ..= k + 1`; sums, products and comparisons of several widths
//!   are handled alike, since the condition is evaluated, not read;
//! * **literals** (in constants, conditions and computed terms): for the
//!   variables of the literal's own type, around the bit length `n` it
//!   needs (`n - 1 ..= n + 2`: where it stops fitting, and where its top
//!   bit becomes the sign bit); for every variable, around the literal
//!   itself when it is a shift amount or a bit offset (`v - 1 ..= v + 1`,
//!   where it reaches the width), and also around `8v` for a byte offset.
//!
//! The derived widths are added as a sum, not a product: a variable at a
//! derived width is tried with the other variables at their usual samples,
//! and a condition relating several variables adds the bindings next to
//! its boundary ([`Derived::bindings`]). So a rule of three variables does
//! not multiply its instances by the derived widths of each.
//!
//! Every derived width is at most [`DERIVED_WIDTH_LIMIT`]; a boundary above
//! it is not tried, and the report names the widths that were.

use crate::pattern::{subst_type, type_vars, PatOp};
use crate::term::{eval_type_cond, TermPat};
use crate::{type_width, Class, Rule};
use diopter_semantics::ast::Dialect;
use diopter_semantics::syntax::lexer::Tok;
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use std::collections::{BTreeMap, BTreeSet};

/// The widest integer `--widths` accepts, and the widest width a rule may
/// be instantiated at. Queries grow with the width (a multiplication is a
/// circuit quadratic in it); above this a single instance can take minutes
/// to build, which no timeout bounds.
pub const MAX_WIDTH: u64 = 256;

/// The widest width [`derived_widths`] adds.
pub const DERIVED_WIDTH_LIMIT: u64 = 128;

/// The widths `--all-widths` tries: every width from 1 to this.
pub const ALL_WIDTHS_UP_TO: u64 = 64;

/// Every width from 1 to [`ALL_WIDTHS_UP_TO`].
pub fn all_widths() -> Vec<u64> {
    (1..=ALL_WIDTHS_UP_TO).collect()
}

/// Reads a width list as the command line writes it: widths and inclusive
/// ranges separated by commas, `1..8,16,32,33,64`. Every width must lie in
/// `1..=MAX_WIDTH`; the result is sorted without duplicates.
pub fn parse_width_list(s: &str) -> Result<Vec<u64>, WidthListError> {
    let mut out = BTreeSet::new();
    let one = |t: &str| -> Result<u64, WidthListError> {
        let t = t.trim();
        let w: u64 = t
            .parse()
            .map_err(|_| WidthListError::NotAWidth(t.to_string()))?;
        if w == 0 || w > MAX_WIDTH {
            return Err(WidthListError::OutOfRange(w));
        }
        Ok(w)
    };
    for part in s.split(',') {
        if part.trim().is_empty() {
            return Err(WidthListError::Empty(s.to_string()));
        }
        match part.split_once("..") {
            Some((a, b)) => {
                let (a, b) = (one(a)?, one(b)?);
                if a > b {
                    return Err(WidthListError::Descending(part.trim().to_string()));
                }
                out.extend(a..=b);
            }
            None => {
                out.insert(one(part)?);
            }
        }
    }
    Ok(out.into_iter().collect())
}

/// Why a width list does not read ([`parse_width_list`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WidthListError {
    #[error("`{0}` is not a width (a whole number of bits)")]
    NotAWidth(String),
    #[error("width {0} is out of range: widths are 1 to {MAX_WIDTH} bits")]
    OutOfRange(u64),
    /// The whole list, which has an empty entry.
    #[error("`{0}`: an empty width in the list")]
    Empty(String),
    /// A range from high to low.
    #[error("`{0}`: a range runs from low to high")]
    Descending(String),
}

/// Writes sorted widths compactly: runs of three or more as `i1..i4`.
pub fn describe_widths(ws: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < ws.len() {
        let mut j = k;
        while j + 1 < ws.len() && ws[j + 1] == ws[j] + 1 {
            j += 1;
        }
        if j >= k + 2 {
            parts.push(format!("i{}..i{}", ws[k], ws[j]));
        } else {
            parts.extend(ws[k..=j].iter().map(|w| format!("i{w}")));
        }
        k = j + 1;
    }
    parts.join(", ")
}

/// Whether a variable of this class can be an integer (and so be bound at
/// derived widths).
fn takes_ints(c: Class) -> bool {
    matches!(c, Class::Int | Class::Num | Class::Any)
}

/// How a literal is used, which decides the widths it calls for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiteralUse {
    /// A shift amount or a bit offset: where it reaches the width.
    Amount,
    /// A byte offset: where it, or eight times it, reaches the width.
    ByteOffset,
    /// Anything else: only its bit length matters.
    Value,
}

/// One integer literal of a rule: its value, how it is used, and the type
/// variables of its own type (all int-capable ones for a term's literal).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleLiteral {
    pub value: BigInt,
    pub used_as: LiteralUse,
    pub vars: Vec<String>,
}

fn literal_use(next: Option<&PatOp>) -> LiteralUse {
    use diopter_semantics::ast::Op;
    match next {
        Some(PatOp::Op { op, .. }) => match op {
            Op::Shl | Op::Shr | Op::LShr | Op::AShr | Op::BitOffset(_) => LiteralUse::Amount,
            Op::Offset | Op::ByteOffset(_) => LiteralUse::ByteOffset,
            _ => LiteralUse::Value,
        },
        _ => LiteralUse::Value,
    }
}

/// The integer literals of a rule: in constants of either side, in
/// conditions, in computed constants.
pub fn rule_literals(r: &Rule) -> Vec<RuleLiteral> {
    let int_vars: Vec<String> = r
        .vars
        .iter()
        .filter(|(_, c)| takes_ints(*c))
        .map(|(v, _)| v.clone())
        .collect();
    let mut out = Vec::new();
    for side in [&r.lhs, &r.rhs] {
        for (k, p) in side.iter().enumerate() {
            match p {
                PatOp::Const { lit, ty, .. } => {
                    let mut vars = Vec::new();
                    type_vars(ty, &mut vars);
                    for t in lit {
                        if let Tok::Int(s) = &t.tok {
                            if let Ok(v) = s.parse::<BigInt>() {
                                out.push(RuleLiteral {
                                    value: v,
                                    used_as: literal_use(side.get(k + 1)),
                                    vars: vars.clone(),
                                });
                            }
                        }
                    }
                }
                PatOp::Computed { term, .. } => {
                    let mut vs = Vec::new();
                    term.lits(&mut vs);
                    out.extend(vs.into_iter().map(|v| RuleLiteral {
                        value: v,
                        used_as: LiteralUse::Value,
                        vars: int_vars.clone(),
                    }));
                }
                _ => {}
            }
        }
    }
    for c in r.type_conds.iter().chain(&r.pre) {
        let mut vs = Vec::new();
        c.lits(&mut vs);
        out.extend(vs.into_iter().map(|v| RuleLiteral {
            value: v,
            used_as: LiteralUse::Value,
            vars: int_vars.clone(),
        }));
    }
    out
}

fn around(out: &mut BTreeSet<u64>, c: i128, below: i128, above: i128) {
    for w in c - below..=c + above {
        if w >= 1 && w <= DERIVED_WIDTH_LIMIT as i128 {
            out.insert(w as u64);
        }
    }
}

/// The widths around which literal `v`'s bit length changes its meaning:
/// `n - 1 ..= n + 2` for the `n` bits it needs (unsigned for `v >= 0`,
/// whose top bit is the sign bit at width `n`; two's complement below).
pub fn bit_length_widths(v: &BigInt) -> BTreeSet<u64> {
    let n = if v.is_negative() {
        (-v - 1u8).bits() + 1
    } else {
        v.bits()
    };
    let mut out = BTreeSet::new();
    around(&mut out, n.min(u32::MAX as u64) as i128, 1, 2);
    out
}

/// The widths where literal `v`, used as `used_as`, reaches the width:
/// `v - 1 ..= v + 1` for an amount, and also `8v - 1 ..= 8v + 1` for a
/// byte offset.
pub fn reach_widths(v: &BigInt, used_as: LiteralUse) -> BTreeSet<u64> {
    let mut out = BTreeSet::new();
    let Some(a) = v.abs().to_i128() else {
        return out;
    };
    if used_as != LiteralUse::Value && a <= DERIVED_WIDTH_LIMIT as i128 + 1 {
        around(&mut out, a, 1, 1);
    }
    if used_as == LiteralUse::ByteOffset && a.saturating_mul(8) <= DERIVED_WIDTH_LIMIT as i128 + 1 {
        around(&mut out, a * 8, 1, 1);
    }
    out
}

/// What a rule's text asks for besides the listed widths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Derived {
    /// Per type variable, widths to try it at (each with the other
    /// variables at their usual samples).
    pub per_var: BTreeMap<String, BTreeSet<u64>>,
    /// Bindings of several variables at once, next to a condition's
    /// boundary (`width(T) == width(U) + 1` at `T = i9, U = i8`); the
    /// variables a binding leaves out take their usual samples.
    pub bindings: Vec<BTreeMap<String, Type>>,
}

/// For each type variable that can be an integer, the widths besides `base`
/// at which the rule's conditions or literals change meaning (see the
/// module doc).
pub fn derived_widths(r: &Rule, base: &[u64]) -> Derived {
    let mut d = Derived::default();
    let int_vars: Vec<&str> = r
        .vars
        .iter()
        .filter(|(_, c)| takes_ints(*c))
        .map(|(v, _)| v.as_str())
        .collect();
    for l in rule_literals(r) {
        let own = bit_length_widths(&l.value);
        let reach = reach_widths(&l.value, l.used_as);
        for v in &int_vars {
            let set = d.per_var.entry(v.to_string()).or_default();
            if l.vars.iter().any(|x| x == v) {
                set.extend(&own);
            }
            set.extend(&reach);
        }
    }
    let dl = DataLayout::llvm_default();
    let table = TypeTable::default();
    let dialect = r.dialects.first().copied().unwrap_or(Dialect::DiExpression);
    for c in &r.type_conds {
        let mut tys = Vec::new();
        c.types(&mut tys);
        let mut vs: Vec<String> = Vec::new();
        for (t, _) in &tys {
            type_vars(t, &mut vs);
        }
        vs.sort();
        vs.dedup();
        for v in vs.iter().filter(|v| int_vars.contains(&v.as_str())) {
            let others: Vec<(&String, Vec<Type>)> = vs
                .iter()
                .filter(|o| *o != v)
                .map(|o| {
                    let class = r.class_of(o).unwrap_or(Class::Any);
                    (o, class.samples(dialect, base))
                })
                .collect();
            for (w, at) in condition_flips(c, v, &others, &dl, &table) {
                for x in w.saturating_sub(1)..=w + 2 {
                    if !(1..=DERIVED_WIDTH_LIMIT).contains(&x) {
                        continue;
                    }
                    if at.is_empty() {
                        d.per_var.entry(v.clone()).or_default().insert(x);
                    } else {
                        let mut b = at.clone();
                        b.insert(v.clone(), Type::Int(x));
                        if !d.bindings.contains(&b) {
                            d.bindings.push(b);
                        }
                    }
                }
            }
        }
    }
    for set in d.per_var.values_mut() {
        set.retain(|w| !base.contains(w));
    }
    d.per_var.retain(|_, s| !s.is_empty());
    d
}

/// The widths `w < DERIVED_WIDTH_LIMIT` of `v` at which condition `c`
/// differs between `iw` and `i(w+1)`, each with the binding of `others`
/// (each variable over its types) where it does.
fn condition_flips(
    c: &TermPat,
    v: &str,
    others: &[(&String, Vec<Type>)],
    dl: &DataLayout,
    table: &TypeTable,
) -> Vec<(u64, BTreeMap<String, Type>)> {
    let mut flips = Vec::new();
    let mut idx = vec![0usize; others.len()];
    if others.iter().any(|(_, ts)| ts.is_empty()) {
        return flips;
    }
    loop {
        let at: BTreeMap<String, Type> = others
            .iter()
            .zip(&idx)
            .map(|((n, ts), &i)| ((*n).clone(), ts[i].clone()))
            .collect();
        let mut b = at.clone();
        let mut prev: Option<BigInt> = None;
        for w in 1..=DERIVED_WIDTH_LIMIT {
            b.insert(v.to_string(), Type::Int(w));
            let ct = c.map_types(&|t| subst_type(t, &b));
            let now = eval_type_cond(&ct, &|t| type_width(t, dl, table));
            if let (Some(p), Some(n)) = (&prev, &now) {
                if p != n {
                    flips.push((w - 1, at.clone()));
                }
            }
            prev = now;
        }
        let lens: Vec<usize> = others.iter().map(|(_, ts)| ts.len()).collect();
        if !crate::next_index(&mut idx, &lens) {
            break;
        }
    }
    flips
}

/// Every width variable `v` is tried at: `base` and its derived widths,
/// and those of the condition bindings that bind it (for reports and
/// tests).
pub fn widths_of(base: &[u64], d: &Derived, v: &str) -> Vec<u64> {
    let mut s: BTreeSet<u64> = base.iter().copied().collect();
    if let Some(x) = d.per_var.get(v) {
        s.extend(x);
    }
    for b in &d.bindings {
        if let Some(Type::Int(w)) = b.get(v) {
            s.insert(*w);
        }
    }
    s.into_iter().collect()
}
