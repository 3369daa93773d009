//! Planted bugs: a test aid, never a real oracle. The reference and the fast
//! evaluator agree, so the minimizer and the campaign driver are tested on
//! an oracle that wraps another one and deliberately mis-evaluates one
//! operation. The bug is planted by rewriting the expression before the
//! wrapped oracle sees it (`DIOpAdd` of `i32` becomes `DIOpAdd(),
//! DIOpConstant(i32 1), DIOpAdd()`), and error positions are mapped back to
//! the original operations, so the wrapped oracle's code is untouched.

use super::tree;
use diopter_diff::Oracle;
use diopter_gen::Case;
use diopter_semantics::ast::{Bare, Expr, Literal, Op};
use diopter_semantics::check::check_bare;
use diopter_semantics::interp::Outcome;
use diopter_semantics::types::Type;
use num_bigint::BigInt;

/// The bugs that can be planted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plant {
    /// `DIOpAdd` whose result is an `i32` adds one more.
    AddOffByOne,
    /// The offset operand of `DIOpBitOffset` (the top of the stack) is one
    /// more than it is.
    BitOffsetOffByOne,
    /// Any expression with `DIOpMul` panics (an oracle crash).
    PanicOnMul,
}

/// Every plant, by its command-line name.
pub const PLANTS: [(&str, Plant); 3] = [
    ("add-off-by-one", Plant::AddOffByOne),
    ("bitoffset-off-by-one", Plant::BitOffsetOffByOne),
    ("panic-on-mul", Plant::PanicOnMul),
];

impl Plant {
    pub fn from_name(name: &str) -> Option<Plant> {
        PLANTS.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
    }
    pub fn name(self) -> &'static str {
        PLANTS
            .iter()
            .find(|(_, p)| *p == self)
            .map_or("?", |(n, _)| n)
    }
}

/// An oracle with a planted bug. Its name is the wrapped oracle's with the
/// plant appended (`fast+add-off-by-one`), so that no report mistakes it for
/// the real one.
pub struct Planted {
    inner: Box<dyn Oracle>,
    plant: Plant,
    name: String,
}

impl Planted {
    pub fn new(inner: Box<dyn Oracle>, plant: Plant) -> Planted {
        let name = format!("{}+{}", inner.name(), plant.name());
        Planted { inner, plant, name }
    }
}

/// The type the subexpression `start..=end` of `b` yields, by the checker.
pub(crate) fn range_type(case: &Case, start: usize, end: usize) -> Option<Type> {
    let sub = Bare {
        args: case.bare.args.clone(),
        referrer: case.bare.referrer.clone(),
        var_type: None,
        expr: Expr::new(
            case.bare.expr.dialect,
            case.bare.expr.ops[start..=end]
                .iter()
                .map(|n| n.op.clone())
                .collect(),
        ),
        explicit_dialect: case.bare.explicit_dialect,
        wrapped: false,
    };
    check_bare(&sub, case.datalayout(), &case.types)
        .ok()
        .map(|c| c.result)
}

/// The planted rewrite of `case`, with for each new operation the original
/// operation it stands for.
fn rewrite(case: &Case, plant: Plant) -> (Case, Vec<usize>) {
    let ops: Vec<Op> = case.bare.expr.ops().cloned().collect();
    let (nodes, _) = tree::build(&ops, case.bare.expr.dialect);
    // Insertions after an operation index: (after, ops to insert).
    let mut after: Vec<Vec<Op>> = vec![Vec::new(); ops.len()];
    for (i, op) in ops.iter().enumerate() {
        match (plant, op) {
            (Plant::AddOffByOne, Op::Add)
                if range_type(case, nodes[i].start, i) == Some(Type::Int(32)) =>
            {
                after[i].push(Op::Constant(Type::Int(32), Literal::Int(BigInt::from(1))));
                after[i].push(Op::Add);
            }
            (Plant::BitOffsetOffByOne, Op::BitOffset(_)) => {
                // The offset is the operand on top of the stack (the last
                // pushed), as the reference reads it.
                if let Some(&b) = nodes[i].children.last() {
                    if nodes[i].children.len() == 2 {
                        if let Some(t @ Type::Int(_)) = range_type(case, nodes[b].start, b) {
                            after[b].push(Op::Constant(t, Literal::Int(BigInt::from(1))));
                            after[b].push(Op::Add);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut new_ops = Vec::with_capacity(ops.len());
    let mut origin = Vec::with_capacity(ops.len());
    for (i, op) in ops.into_iter().enumerate() {
        new_ops.push(op);
        origin.push(i);
        for extra in after[i].drain(..) {
            new_ops.push(extra);
            origin.push(i);
        }
    }
    let mut c = case.clone();
    c.bare.expr = Expr::new(case.bare.expr.dialect, new_ops);
    (c, origin)
}

impl Oracle for Planted {
    fn name(&self) -> &str {
        &self.name
    }
    fn eval(&self, case: &Case) -> Outcome {
        if self.plant == Plant::PanicOnMul && case.bare.expr.ops().any(|o| *o == Op::Mul) {
            panic!("planted panic: DIOpMul");
        }
        let (rewritten, origin) = rewrite(case, self.plant);
        let n = case.bare.expr.ops.len();
        self.inner.eval(&rewritten).map_err(|mut e| {
            e.op_index = origin.get(e.op_index).copied().unwrap_or(n);
            e
        })
    }
    fn not_applicable(&self, case: &Case) -> Option<String> {
        self.inner.not_applicable(case)
    }
    fn exact_locations(&self) -> bool {
        self.inner.exact_locations()
    }
}
