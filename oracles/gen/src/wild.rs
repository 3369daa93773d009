//! Expressions that are *not* built to be well-typed: generated expressions
//! with a few mutations, or random operations with random parameters from a
//! small pool of types (odd ones included: `{}`, named structs, typed
//! pointers), for testing the checker. Whatever
//! `check_bare` accepts among them must evaluate in the reference without an
//! `IllFormed` error: the checker is sound.
//!
//! Each expression is printed and parsed back before use, so it is one the
//! parser can produce (an AST the parser cannot produce says nothing about
//! the checker).

use super::context::{context_for, ContextFor};
use super::entropy::Entropy;
use super::swarm::Swarm;
use super::types::ADDRSPACES;
use super::values::{self, Hint};
use super::{datalayout, Case, GenConfig, DATALAYOUTS};
use crate::Generate;
use diopter_semantics::ast::{ArgDecl, Bare, Dialect, Expr, Op, Span};
use diopter_semantics::check;
use diopter_semantics::syntax::{parse_bare, print_bare};
use diopter_semantics::types::{Type, TypeTable};
use diopter_semantics::value::FloatKind;

/// The pool of types wild expressions draw from.
fn pool() -> Vec<Type> {
    let i = Type::Int;
    let v = |n, t: Type| Type::Vector {
        len: n,
        elem: Box::new(t),
    };
    let s = |f: Vec<Type>| Type::Struct {
        fields: f,
        packed: false,
    };
    vec![
        i(1),
        i(8),
        i(16),
        i(32),
        i(64),
        i(3),
        i(128),
        Type::float(FloatKind::Float),
        Type::float(FloatKind::Double),
        Type::float(FloatKind::Half),
        Type::opaque_ptr(0),
        Type::opaque_ptr(5),
        Type::typed_ptr(i(32), 0),
        Type::typed_ptr(i(64), 5),
        v(2, i(32)),
        v(4, i(8)),
        v(2, Type::float(FloatKind::Float)),
        v(2, Type::opaque_ptr(0)),
        Type::Array {
            len: 2,
            elem: Box::new(i(32)),
        },
        s(vec![i(32), i(32)]),
        s(vec![]),
        Type::Named("w".into()),
    ]
}

/// A wild case: half the time a generated (well-typed) case with a few
/// mutations (an operation replaced, dropped, duplicated or moved, a type
/// parameter swapped for one from the pool), else random operations with
/// random parameters; and a context for it.
pub fn case(e: &mut dyn Entropy, cfg: &GenConfig) -> Case {
    if e.chance(1, 2) {
        mutant(e, cfg)
    } else {
        random(e, cfg)
    }
}

/// A generated case with 1 to 3 mutations of its operations.
pub fn mutant(e: &mut dyn Entropy, cfg: &GenConfig) -> Case {
    let original = Case::generate(e, cfg);
    let mut c = original.clone();
    let pool = pool();
    let mut ops: Vec<Op> = c.bare.expr.ops().cloned().collect();
    for _ in 0..e.range(1, 3) {
        if ops.is_empty() {
            break;
        }
        let i = e.index(ops.len());
        match e.below(5) {
            0 => {
                ops.remove(i);
            }
            1 => {
                let op = ops[i].clone();
                ops.insert(i, op);
            }
            2 => {
                let op = ops.remove(i);
                let j = e.index(ops.len() + 1);
                ops.insert(j, op);
            }
            3 => {
                let t = e.pick(&pool).clone();
                retype(&mut ops[i], t);
            }
            _ => {
                let j = e.index(ops.len());
                ops.swap(i, j);
            }
        }
    }
    c.bare.expr = Expr::new(c.bare.expr.dialect, ops);
    // Only what the parser can produce: print and read back (a mutation the
    // parser refuses leaves the generated case as it was).
    match parse_bare(&print_bare(&c.bare)) {
        Ok(b) => c.bare = b,
        Err(_) => return original,
    }
    c
}

/// Replaces the type parameter of an operation that has one.
fn retype(op: &mut Op, t: Type) {
    match op {
        Op::Referrer(x)
        | Op::TypeObject(x)
        | Op::Convert(x)
        | Op::Reinterpret(x)
        | Op::BitOffset(Some(x))
        | Op::ByteOffset(x)
        | Op::Deref(Some(x))
        | Op::ZExt(x)
        | Op::SExt(x)
        | Op::PushLane(x)
        | Op::Arg(_, x)
        | Op::Composite(_, x) => *x = t,
        Op::Extend(n) | Op::AddrOf(n) => *n += 1,
        // A constant keeps its type: its literal must match it.
        _ => {}
    }
}

/// Random operations with random parameters from the pool.
pub fn random(e: &mut dyn Entropy, cfg: &GenConfig) -> Case {
    let pool = pool();
    let mut table = TypeTable::default();
    table.define(
        "w",
        Some(Type::Struct {
            fields: vec![Type::Int(16), Type::Int(16)],
            packed: false,
        }),
    );
    let dialect = if e.chance(1, 2) {
        Dialect::DiExpr
    } else {
        Dialect::DiExpression
    };
    let dl = datalayout(e.index(DATALAYOUTS.len()));
    let swarm = Swarm::all_on();
    // A third of the expressions draw from just two types of the pool (one
    // of them an integer), so that operands often match where an operation
    // needs identical types.
    let ints: Vec<Type> = pool[..7].to_vec();
    let pool: Vec<Type> = if e.chance(1, 3) {
        vec![e.pick(&pool).clone(), e.pick(&ints).clone()]
    } else {
        pool
    };
    let ty = |e: &mut dyn Entropy| e.pick(&pool).clone();
    let args: Vec<(Type, bool)> = (0..e.below(4)).map(|_| (ty(e), e.chance(1, 8))).collect();
    let referrer = e.chance(1, 2).then(|| ty(e));
    let var_type = e.chance(1, 4).then(|| ty(e));
    // Short expressions are accepted far more often: every operation of a
    // long wild one must fit for the checker to accept it.
    let n = if e.chance(1, 2) {
        e.range(1, 2)
    } else {
        e.range(1, cfg.max_ops.clamp(1, 12) as u64)
    };
    let mut ops = Vec::new();
    // The depth the stack would have, so that operations mostly find the
    // entries they pop (types are still wild).
    let mut depth = 0usize;
    for _ in 0..n {
        let t = ty(e);
        let operand = t.clone();
        // Half the time an operation gets fresh constant operands first, of
        // the shapes its stack effect names (one wild type where it wants
        // identical types, an integer where it wants a mask or an offset):
        // wild types, plausible stack.
        let snippet = e.chance(1, 2);
        let which = if (depth == 0 && !snippet) || e.chance(1, 3) {
            // A leaf.
            *e.pick(&[0, 1, 2, 3, 4, 5, 29])
        } else {
            e.below(31)
        };
        let op = match which {
            0 => Op::Referrer(t),
            1 => Op::Arg(e.below(4), t),
            2 => Op::TypeObject(t),
            3..=5 => {
                let lit = values::literal(e, &t, Hint::None, 4, 2);
                Op::Constant(t, lit)
            }
            6 => Op::Convert(t),
            7 => Op::Reinterpret(t),
            8 => Op::Offset,
            9 => Op::BitOffset(e.chance(1, 2).then_some(t)),
            10 => Op::ByteOffset(t),
            11 => Op::Composite(e.below(4), t),
            12 => Op::Extend(e.below(5)),
            13 => Op::Select,
            14 => Op::AddrOf(u64::from(*e.pick(&ADDRSPACES))),
            15 => Op::Deref(e.chance(1, 2).then_some(t)),
            16 => Op::Read,
            17 => Op::Add,
            18 => Op::Sub,
            19 => Op::Mul,
            20 => Op::Div,
            21 => Op::Mod,
            22 => Op::And,
            23 => Op::Or,
            24 => Op::Xor,
            25 => Op::Shr,
            26 => Op::LShr,
            27 => Op::AShr,
            28 => e
                .pick(&[Op::Shl, Op::ZExt(t.clone()), Op::SExt(t.clone())])
                .clone(),
            29 => Op::PushLane(t),
            _ => Op::Fragment(8 * e.below(4), 8 * e.below(5)),
        };
        let arity = check::arity(&op, dialect);
        if arity > 0 && arity <= 3 && snippet {
            let int = e.pick(&ints).clone();
            let shapes: Vec<Type> = match op {
                Op::Select => vec![int, operand.clone(), operand],
                Op::Offset | Op::BitOffset(_) | Op::ByteOffset(_) => vec![operand, int],
                _ => vec![operand; arity],
            };
            for st in shapes {
                let lit = values::literal(e, &st, Hint::None, 4, 1);
                ops.push(Op::Constant(st, lit));
                depth += 1;
            }
        }
        let pops = arity.min(depth);
        let pushes = usize::from(!matches!(op, Op::Fragment(..)));
        depth = depth - pops + pushes;
        ops.push(op);
    }
    // Close with a composite of what is left now and then.
    if depth > 1 && e.chance(1, 2) {
        let t = ty(e);
        ops.push(Op::Composite(depth as u64, t));
    }
    let unknown = referrer.is_none() && e.chance(1, 16);
    let bare = Bare {
        args: (!unknown).then(|| {
            args.iter()
                .map(|(t, p)| ArgDecl {
                    ty: t.clone(),
                    poison: *p,
                    span: Span::default(),
                })
                .collect()
        }),
        referrer: referrer.clone().map(|t| (t, Span::default())),
        var_type: var_type.clone().map(|t| (t, Span::default())),
        expr: Expr::new(dialect, ops),
        explicit_dialect: true,
        wrapped: false,
    };
    // Only what the parser can produce: print and read back (an expression
    // the parser refuses says nothing about the checker).
    let Ok(bare) = parse_bare(&print_bare(&bare)) else {
        return mutant(e, cfg);
    };
    let ctx = context_for(
        e,
        &ContextFor {
            bare: &bare,
            types: &table,
            dl: &dl,
            swarm: &swarm,
            max_bits: cfg.max_type_bits,
        },
    );
    Case {
        bare,
        types: table,
        ctx,
    }
}
