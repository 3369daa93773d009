//! The simplifier: applies the rule library (`corpus/rules/*.rules`, the
//! files the prover proves, plus the generated constant-folding rules) to an
//! expression until no rule applies.
//!
//! * **Matching.** The expression is read as a tree: every operation pops
//!   its stack-effect arity (`check::arity`) and pushes one entry, so each
//!   operation is the root of the subexpression ending at it. A rule's left
//!   side is a tree too; a hole `?x:T` matches any subtree whose type
//!   (computed by the checker's engine, `check::result_type`) unifies with
//!   `T`, a constant hole any constant of that type whose bits are all
//!   defined (an `undef` constant is not a value: `DIOpConstant(i32 undef),
//!   DIOpRead()` fails where `DIOpConstant(i32 undef)` does not), a literal
//!   any constant with the same bits. Type variables must fall in their
//!   class and the rule's type conditions and preconditions must hold; a
//!   computed constant is the rule's term evaluated on the matched
//!   constants (`rules::term::eval_term`).
//! * **Strategy.** The leftmost-innermost match first (operations in
//!   order, rules in library order); the rewritten expression must still
//!   type, else the match is passed over.
//! * **Termination.** Every rule decreases the measure of
//!   `rules::measure` (checked when the rule is loaded), a natural number,
//!   so there are at most `measure(e)` rewrites.
//! * **Canonical form.** The result is the fixpoint of that deterministic
//!   strategy: no rule applies to it, so simplifying it again gives it back.
//!
//! `DIOpFragment` is metadata, not a stack operation: it is set aside and
//! appended to the result.

use crate::pattern::{instantiate_op, subst_type, unify_op, unify_type, PatOp};
use crate::term::{eval_term, preconditions_hold, Elab};
use crate::{self as rules, measure, parse_literal_at, type_width, Binding, Rule};
use diopter_semantics::ast::{Dialect, Expr, Literal, Op};
use diopter_semantics::check as typing;
use diopter_semantics::diag::Diagnostic;
use diopter_semantics::location::literal_bits;
use diopter_semantics::syntax::print_op;
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use diopter_semantics::value::Bits;
use num_bigint::BigInt;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One rewrite, for `--explain`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub rule: String,
    /// Where the rule was written (`file:line`) or `generated: ...`.
    pub origin: String,
    /// The index of the first rewritten operation.
    pub at: usize,
    /// The rewritten operations, printed, and what replaced them.
    pub before: String,
    pub after: String,
    /// The whole expression after the step.
    pub result: String,
    /// The measure after the step.
    pub measure: u64,
}

#[derive(Clone, Debug)]
pub struct Simplified {
    pub expr: Expr,
    pub steps: Vec<Step>,
}

/// The rules the simplifier applies.
pub struct Simplifier {
    pub rules: Vec<Rule>,
    /// Each rule's left side as a tree, per dialect (`None` where the rule
    /// is not about the dialect): `[diexpr, diexpression]`.
    lhs_trees: Vec<[Option<Vec<Vec<usize>>>; 2]>,
}

fn dialect_index(d: Dialect) -> usize {
    match d {
        Dialect::DiExpr => 0,
        Dialect::DiExpression => 1,
    }
}

/// A parsed tree over an operation list: node `i` is operation `i`.
struct Tree {
    /// Child node indices, in push order (the last one was on top).
    children: Vec<Vec<usize>>,
    /// First operation of the subexpression rooted at each node.
    start: Vec<usize>,
    ty: Vec<Type>,
}

/// The tree of `ops` when it is one well-typed expression, else `None`.
fn tree(ops: &[Op], dialect: Dialect, dl: &DataLayout, types: &TypeTable) -> Option<Tree> {
    let mut children = Vec::with_capacity(ops.len());
    let mut start = Vec::with_capacity(ops.len());
    let mut ty: Vec<Type> = Vec::with_capacity(ops.len());
    let mut stack: Vec<usize> = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let n = typing::arity(op, dialect);
        if stack.len() < n {
            return None;
        }
        let kids: Vec<usize> = stack.split_off(stack.len() - n);
        let inputs: Vec<Type> = kids.iter().rev().map(|k| ty[*k].clone()).collect();
        let t = typing::result_type(op, dialect, &inputs, dl, types).ok()?;
        start.push(kids.first().map_or(i, |k| start[*k]));
        children.push(kids);
        ty.push(t);
        stack.push(i);
    }
    (stack.len() == 1).then_some(Tree {
        children,
        start,
        ty,
    })
}

/// A left side as a tree of pattern elements: `(element, children)`.
fn pattern_tree(side: &[PatOp], dialect: Dialect) -> Option<Vec<Vec<usize>>> {
    let mut children = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    for (i, p) in side.iter().enumerate() {
        let n = match p {
            PatOp::Op { op, .. } => typing::arity(op, dialect),
            _ => 0,
        };
        if stack.len() < n {
            return None;
        }
        children.push(stack.split_off(stack.len() - n));
        stack.push(i);
    }
    (stack.len() == 1).then_some(children)
}

/// What a match binds besides types and numbers.
#[derive(Default)]
struct Match {
    b: Binding,
    /// Value holes: the operations of the subexpression.
    exprs: BTreeMap<String, Vec<Op>>,
    /// Constant holes: the constant's bits.
    consts: BTreeMap<String, Bits>,
}

/// The bits of a constant literal with no undefined bit.
fn constant_bits(ty: &Type, lit: &Literal, dl: &DataLayout, types: &TypeTable) -> Option<Bits> {
    literal_bits(ty, lit, dl, types).ok()
}

/// A literal of type `ty` holding `b`, where one can be written.
pub fn literal_from_bits(ty: &Type, b: &Bits) -> Option<Literal> {
    match ty {
        Type::Int(w) if b.width() == *w => Some(Literal::Int(if *w == 1 {
            BigInt::from(b.to_biguint())
        } else {
            b.to_bigint()
        })),
        Type::Float(k) if b.width() == k.0.width() => Some(Literal::Float(b.clone())),
        Type::Ptr { .. } if b.is_zero() => Some(Literal::Null),
        _ => None,
    }
}

struct Ctx<'a> {
    ops: &'a [Op],
    tree: &'a Tree,
    dl: &'a DataLayout,
    types: &'a TypeTable,
}

fn match_node(
    c: &Ctx,
    side: &[PatOp],
    pk: &[Vec<usize>],
    p: usize,
    n: usize,
    m: &mut Match,
) -> bool {
    let op = &c.ops[n];
    match &side[p] {
        PatOp::Hole { name, ty, .. } => {
            let Some(ty) = ty else { return false };
            if !unify_type(ty, &c.tree.ty[n], &mut m.b.types) {
                return false;
            }
            let sub = c.ops[c.tree.start[n]..=n].to_vec();
            match m.exprs.get(name) {
                Some(prev) => *prev == sub || diopter_faults::planted!("simplify-expr-hole-recurs"),
                None => {
                    m.exprs.insert(name.clone(), sub);
                    true
                }
            }
        }
        PatOp::ConstHole { name, ty, .. } => {
            let Op::Constant(t, lit) = op else {
                return false;
            };
            if !unify_type(ty, t, &mut m.b.types) {
                return false;
            }
            let Some(bits) = constant_bits(t, lit, c.dl, c.types) else {
                return false;
            };
            // A constant hole that recurs matches only the same bits.
            match m.consts.get(name) {
                Some(prev) => {
                    *prev == bits || diopter_faults::planted!("simplify-const-hole-recurs")
                }
                None => {
                    m.consts.insert(name.clone(), bits);
                    true
                }
            }
        }
        PatOp::Const { ty, lit, .. } => {
            let Op::Constant(t, l) = op else { return false };
            if !unify_type(ty, t, &mut m.b.types) {
                return false;
            }
            let want = parse_literal_at(lit, t).and_then(|pl| constant_bits(t, &pl, c.dl, c.types));
            match (want, constant_bits(t, l, c.dl, c.types)) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            }
        }
        PatOp::Computed { .. } => false,
        PatOp::Op {
            op: pop, params, ..
        } => {
            if !unify_op(pop, params, op, &mut m.b.types, &mut m.b.nums) {
                return false;
            }
            let kids = &c.tree.children[n];
            kids.len() == pk[p].len()
                && pk[p]
                    .iter()
                    .zip(kids)
                    .all(|(pc, ec)| match_node(c, side, pk, *pc, *ec, m))
        }
    }
}

impl Simplifier {
    /// A simplifier applying `rules` (lemmas and rules expected to be
    /// refuted are left out) and then the generated folding rules.
    pub fn new(rules: Vec<Rule>) -> Simplifier {
        let mut rules: Vec<Rule> = rules
            .into_iter()
            .filter(|r| {
                (!r.expect_refuted() || diopter_faults::planted!("simplify-applies-refuted"))
                    && !r.lemma
            })
            .collect();
        rules.extend(rules::generated_rules());
        let lhs_trees = rules
            .iter()
            .map(|r| {
                [Dialect::DiExpr, Dialect::DiExpression].map(|d| {
                    r.dialects
                        .contains(&d)
                        .then(|| pattern_tree(&r.lhs, d))
                        .flatten()
                })
            })
            .collect();
        Simplifier { rules, lhs_trees }
    }

    /// [`Simplifier::new`] over the rule files under `paths`.
    pub fn load(paths: &[PathBuf]) -> Result<Simplifier, Vec<Diagnostic>> {
        Ok(Simplifier::new(rules::load_rule_files(paths)?))
    }

    /// The fixpoint of rewriting `e` (see the module doc); `dl` and `types`
    /// size the types (for typing subexpressions and `width(T)`).
    pub fn simplify(&self, e: &Expr, dl: &DataLayout, types: &TypeTable) -> Simplified {
        let fragments: Vec<Op> = e
            .ops()
            .filter(|o| matches!(o, Op::Fragment(..)))
            .cloned()
            .collect();
        let mut ops: Vec<Op> = e
            .ops()
            .filter(|o| !matches!(o, Op::Fragment(..)))
            .cloned()
            .collect();
        let mut steps = Vec::new();
        while let Some((new_ops, step)) = self.step(&ops, e.dialect, dl, types) {
            // Every rule shrinks the measure (checked at load); this guard
            // makes termination independent of that check being right.
            if measure::measure(&new_ops) >= measure::measure(&ops) {
                break;
            }
            ops = new_ops;
            steps.push(step);
        }
        ops.extend(fragments);
        let mut out = Expr::new(e.dialect, ops);
        out.span = e.span;
        Simplified { expr: out, steps }
    }

    /// The first rewrite that applies, if any.
    fn step(
        &self,
        ops: &[Op],
        dialect: Dialect,
        dl: &DataLayout,
        types: &TypeTable,
    ) -> Option<(Vec<Op>, Step)> {
        let t = tree(ops, dialect, dl, types)?;
        let c = Ctx {
            ops,
            tree: &t,
            dl,
            types,
        };
        let di = dialect_index(dialect);
        for n in 0..ops.len() {
            for (r, trees) in self.rules.iter().zip(&self.lhs_trees) {
                let Some(pk) = &trees[di] else { continue };
                let mut m = Match::default();
                if !match_node(&c, &r.lhs, pk, r.lhs.len() - 1, n, &mut m) {
                    continue;
                }
                let Some(rhs) = self.rewrite(r, &m, dl, types) else {
                    continue;
                };
                let start = t.start[n];
                let mut new_ops: Vec<Op> = ops[..start].to_vec();
                new_ops.extend(rhs.iter().cloned());
                new_ops.extend(ops[n + 1..].iter().cloned());
                // The rewrite must keep the expression typed (and the
                // subexpression's type: rules are sound only then).
                let Some(t2) = tree(&new_ops, dialect, dl, types) else {
                    continue;
                };
                if t2.ty[start + rhs.len() - 1] != t.ty[n] {
                    continue;
                }
                let print = |v: &[Op]| v.iter().map(print_op).collect::<Vec<_>>().join(", ");
                let step = Step {
                    rule: r.name.clone(),
                    origin: r.origin.to_string(),
                    at: start,
                    before: print(&ops[start..=n]),
                    after: print(&rhs),
                    result: print(&new_ops),
                    measure: measure::measure(&new_ops),
                };
                return Some((new_ops, step));
            }
        }
        None
    }

    /// The right side for a match, if the match satisfies the rule's
    /// classes and conditions and every computed constant is defined.
    fn rewrite(&self, r: &Rule, m: &Match, dl: &DataLayout, types: &TypeTable) -> Option<Vec<Op>> {
        for (v, class) in &r.vars {
            if !class.contains(m.b.types.get(v)?) {
                return None;
            }
        }
        if !r.type_conds_hold(&m.b, dl, types)
            && !diopter_faults::planted!("simplify-ignores-type-conditions")
        {
            return None;
        }
        let names: Vec<&String> = m.consts.keys().collect();
        let values: Vec<Option<Bits>> = m.consts.values().cloned().map(Some).collect();
        let hole = |n: &str| -> Option<(usize, u64)> {
            let k = names.iter().position(|x| x.as_str() == n)?;
            Some((k, values[k].as_ref()?.width()))
        };
        let width = |t: &Type| type_width(t, dl, types);
        let elab = Elab {
            hole: &hole,
            width: &width,
        };
        let subst = |t: &Type| subst_type(t, &m.b.types);
        let mut pre = Vec::new();
        for c in &r.pre {
            pre.push(elab.bool(&c.map_types(&subst)).ok()?);
        }
        if !preconditions_hold(&pre, &values)
            && !diopter_faults::planted!("simplify-ignores-preconditions")
        {
            return None;
        }
        let mut out = Vec::new();
        for p in &r.rhs {
            match p {
                PatOp::Hole { name, .. } => match m.exprs.get(name) {
                    Some(sub) => out.extend(sub.iter().cloned()),
                    // A constant hole used as a value on the right.
                    None => {
                        let ty = const_type(r, name, &m.b)?;
                        out.push(Op::Constant(
                            ty.clone(),
                            literal_from_bits(&ty, m.consts.get(name)?)?,
                        ));
                    }
                },
                PatOp::ConstHole { name, ty, .. } => {
                    let ty = subst(ty);
                    out.push(Op::Constant(
                        ty.clone(),
                        literal_from_bits(&ty, m.consts.get(name)?)?,
                    ));
                }
                PatOp::Const { ty, lit, .. } => {
                    let ty = subst(ty);
                    let l = parse_literal_at(lit, &ty)?;
                    out.push(Op::Constant(ty, l));
                }
                PatOp::Computed { ty, term, .. } => {
                    let ty = subst(ty);
                    let w = type_width(&ty, dl, types)?;
                    let t = elab.term(&term.map_types(&subst), Some(w)).ok()?;
                    let v = eval_term(&t, &values)?;
                    out.push(Op::Constant(ty.clone(), literal_from_bits(&ty, &v)?));
                }
                PatOp::Op { op, params, .. } => {
                    out.push(instantiate_op(op, params, &m.b.types, &m.b.nums))
                }
            }
        }
        Some(out)
    }
}

/// The type of constant hole `name` on the rule's left side, bound.
fn const_type(r: &Rule, name: &str, b: &Binding) -> Option<Type> {
    r.lhs.iter().find_map(|p| match p {
        PatOp::ConstHole { name: n, ty, .. } if n == name => Some(subst_type(ty, &b.types)),
        _ => None,
    })
}
