//! The tree structure of a postfix DIOp list: which contiguous range of
//! operations computes each stack entry, and which entries each operation
//! consumes. The minimizer's structural reductions (drop, hoist, replace)
//! work on these ranges, so that a candidate stays a sequence of complete
//! subexpressions.

use diopter_semantics::ast::{Dialect, Op};
use diopter_semantics::check::arity;

/// One operation as a tree node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The first operation of the subexpression this operation ends (the
    /// subexpression is `start..=index`).
    pub start: usize,
    /// The indices of the operations that computed its operands, the first
    /// pushed first.
    pub children: Vec<usize>,
    /// The operation that consumes its result, if any.
    pub parent: Option<usize>,
    /// Whether it pushes nothing (`DIOpFragment`, which is metadata).
    pub metadata: bool,
}

/// The nodes of `ops` (one per operation) and the roots (what is left on
/// the stack at the end, bottom first). An operation that would pop an
/// empty stack (an ill-formed list) takes what there is: the ranges stay
/// contiguous and in bounds either way.
pub fn build(ops: &[Op], dialect: Dialect) -> (Vec<Node>, Vec<usize>) {
    let mut nodes: Vec<Node> = Vec::with_capacity(ops.len());
    let mut stack: Vec<usize> = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        if matches!(op, Op::Fragment(..)) {
            nodes.push(Node {
                start: i,
                children: vec![],
                parent: None,
                metadata: true,
            });
            continue;
        }
        let k = arity(op, dialect).min(stack.len());
        let children: Vec<usize> = stack.split_off(stack.len() - k);
        // The subexpression starts where its first operand's does; a
        // metadata node between operands lies inside the range too.
        let start = children.first().map_or(i, |&c| nodes[c].start);
        for &c in &children {
            nodes[c].parent = Some(i);
        }
        nodes.push(Node {
            start,
            children,
            parent: None,
            metadata: false,
        });
        stack.push(i);
    }
    (nodes, stack)
}

#[cfg(test)]
mod tests {
    use super::*;
    use diopter_semantics::syntax::parse_bare;

    #[test]
    fn ranges_of_a_nested_expression() {
        let b = parse_bare(
            "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpConstant(i32 1), DIOpAdd(), DIOpSub()",
        )
        .unwrap();
        let ops: Vec<Op> = b.expr.ops().cloned().collect();
        let (nodes, roots) = build(&ops, b.expr.dialect);
        assert_eq!(roots, vec![4]);
        assert_eq!(nodes[3].start, 1);
        assert_eq!(nodes[3].children, vec![1, 2]);
        assert_eq!(nodes[4].children, vec![0, 3]);
        assert_eq!(nodes[4].start, 0);
        assert_eq!(nodes[1].parent, Some(3));
    }
}
