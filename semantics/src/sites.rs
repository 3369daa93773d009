//! Where each DIOp expression of a module is used, and so what its inputs
//! are: a lifetime's location (its argument objects and referrer), a debug
//! record's operands, a global variable's address. The lifetime rules
//! (`crate::lifetimes`) tell which kind of lifetime a `DILifetime` is, so
//! this sits above both the IR model and the lifetime analysis.

use crate::ast::{Expr, Span};
use crate::ir::*;
use crate::lifetimes::{self, LifetimeKind};
use std::collections::BTreeMap;

/// One DIOp expression of a module, where it is, and what its inputs are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprSite<'m> {
    pub expr: &'m Expr,
    /// The expression's text.
    pub span: Span,
    /// The metadata node whose definition holds the text (`!N = !DIExpr(...)`,
    /// or the `DILifetime` with an inline location); `None` for an expression
    /// written inside an instruction.
    pub node: Option<u64>,
    pub context: ExprContext,
}

/// What an expression's inputs are, by where it is used. An expression node
/// used in several places yields one site per use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprContext {
    /// The `location` of `DILifetime` `!lifetime`: `DIOpArg(i)` is
    /// `arg_objects[i]`, `DIOpReferrer` the referrer.
    Lifetime {
        lifetime: u64,
        /// `None` when the lifetime matches no single kind (ill-formed).
        kind: Option<LifetimeKind>,
        arg_objects: Vec<u64>,
        /// The referrer operands of a bounded lifetime's defs (as written,
        /// e.g. `i64 addrspace(5)* %x.addr`); for a default lifetime, the
        /// global (`@g`, typed `ptr addrspace(N)` when known). Empty otherwise.
        referrers: Vec<Operand>,
    },
    /// The expression of a debug record: `DIOpArg(i, T)` is `args[i]`.
    DbgRecord {
        kind: RecordKind,
        at: InstRef,
        args: Vec<Operand>,
        variable: Option<u64>,
        /// Whether this is `dbg.assign`'s address expression (its input is the address).
        address: bool,
    },
    /// The `expr:` of a `DIGlobalVariableExpression` attached to a global with
    /// `!dbg`: its input is the global's address.
    GlobalVariableExpression {
        node: u64,
        variable: Option<u64>,
        global: Option<Operand>,
    },
    /// An expression nothing diopter knows uses (an unreferenced expression
    /// node, or one nested in a node diopter does not interpret).
    Detached,
}

/// Every DIOp expression in the module with its context, in source order.
pub fn expressions(m: &Module) -> Vec<ExprSite<'_>> {
    let analysis = lifetimes::analyze(m);
    // Uses of expression nodes referenced by `!N`.
    let mut uses: BTreeMap<u64, Vec<ExprContext>> = BTreeMap::new();
    let mut out = Vec::new();

    let lifetime_context = |id: u64, l: &Lifetime<'_>| {
        let kind = analysis.kind(id);
        let referrers = match kind {
            Some(LifetimeKind::Bounded) => analysis
                .uses
                .get(&id)
                .map(|u| {
                    u.defs
                        .iter()
                        .filter_map(|r| match &m.inst(*r)?.kind {
                            InstKind::DbgDef { referrer, .. } => Some(referrer.clone()),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default(),
            Some(LifetimeKind::Default) => analysis
                .uses
                .get(&id)
                .map(|u| {
                    u.globals
                        .iter()
                        .filter_map(|g| m.globals.get(*g))
                        .map(Global::as_operand)
                        .collect()
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        ExprContext::Lifetime {
            lifetime: id,
            kind,
            arg_objects: l.arg_objects.clone().unwrap_or_default(),
            referrers,
        }
    };

    // Globals attached to each DIGlobalVariableExpression.
    let mut gve_globals: BTreeMap<u64, Vec<&Global>> = BTreeMap::new();
    for g in &m.globals {
        for d in g.dbg() {
            gve_globals.entry(d).or_default().push(g);
        }
    }

    for (id, node) in &m.metadata {
        let mut handled: Vec<*const Expr> = Vec::new();
        match node.kind(m) {
            MdKind::Lifetime(l) => {
                if let Some(loc) = l.location {
                    let ctx = lifetime_context(*id, &l);
                    match loc {
                        MdValue::Expr(e) => {
                            handled.push(e);
                            out.push(ExprSite {
                                expr: e,
                                span: e.span,
                                node: Some(*id),
                                context: ctx,
                            });
                        }
                        MdValue::Ref(n) => uses.entry(*n).or_default().push(ctx),
                        _ => {}
                    }
                }
            }
            MdKind::Opaque {
                name: Some("DIGlobalVariableExpression"),
            } => {
                let MdValue::Node(n) = &node.value else {
                    continue;
                };
                let variable = n.value("var").and_then(MdValue::as_ref_id);
                let globals = gve_globals.get(id).cloned().unwrap_or_default();
                let contexts: Vec<ExprContext> = if globals.is_empty() {
                    vec![ExprContext::GlobalVariableExpression {
                        node: *id,
                        variable,
                        global: None,
                    }]
                } else {
                    globals
                        .iter()
                        .map(|g| ExprContext::GlobalVariableExpression {
                            node: *id,
                            variable,
                            global: Some(g.as_operand()),
                        })
                        .collect()
                };
                match n.value("expr") {
                    Some(MdValue::Expr(e)) => {
                        handled.push(e);
                        for ctx in contexts {
                            out.push(ExprSite {
                                expr: e,
                                span: e.span,
                                node: Some(*id),
                                context: ctx,
                            });
                        }
                    }
                    Some(MdValue::Ref(r)) => uses.entry(*r).or_default().extend(contexts),
                    _ => {}
                }
            }
            _ => {}
        }
        // Expressions nested anywhere else in the node are detached.
        if !matches!(node.value, MdValue::Expr(_)) {
            let mut nested = Vec::new();
            collect_exprs(&node.value, &mut nested, 0);
            for e in nested {
                if !handled.contains(&(e as *const Expr)) {
                    out.push(ExprSite {
                        expr: e,
                        span: e.span,
                        node: Some(*id),
                        context: ExprContext::Detached,
                    });
                }
            }
        }
    }

    // Expressions written inline in named metadata (`!named = !{!DIExpression(...)}`,
    // as assembler tests do) are used by nothing diopter knows.
    for nm in &m.named_metadata {
        let mut nested = Vec::new();
        for v in &nm.items {
            collect_exprs(v, &mut nested, 0);
        }
        for e in nested {
            out.push(ExprSite {
                expr: e,
                span: e.span,
                node: None,
                context: ExprContext::Detached,
            });
        }
    }

    for (at, inst) in m.insts() {
        let InstKind::DbgRecord(r) = &inst.kind else {
            continue;
        };
        let mut parts = vec![(&r.expr, &r.location, false)];
        if let Some(a) = &r.assign {
            parts.push((&a.address_expr, &a.address, true));
        }
        for (v, loc, address) in parts {
            let ctx = ExprContext::DbgRecord {
                kind: r.kind,
                at,
                args: loc.operands(),
                variable: r.variable_id(),
                address,
            };
            match v {
                MdValue::Expr(e) => out.push(ExprSite {
                    expr: e,
                    span: e.span,
                    node: None,
                    context: ctx,
                }),
                MdValue::Ref(n) => uses.entry(*n).or_default().push(ctx),
                _ => {}
            }
        }
    }

    for (id, node) in &m.metadata {
        let MdValue::Expr(e) = &node.value else {
            continue;
        };
        let contexts = uses
            .remove(id)
            .unwrap_or_else(|| vec![ExprContext::Detached]);
        for ctx in contexts {
            out.push(ExprSite {
                expr: e,
                span: e.span,
                node: Some(*id),
                context: ctx,
            });
        }
    }
    out.sort_by_key(|s| (s.span.start, s.span.end));
    out
}

fn collect_exprs<'a>(v: &'a MdValue, out: &mut Vec<&'a Expr>, depth: usize) {
    if depth > 256 {
        return;
    }
    match v {
        MdValue::Expr(e) => out.push(e),
        MdValue::Tuple(vs) | MdValue::Braces(vs) => {
            vs.iter().for_each(|v| collect_exprs(v, out, depth + 1))
        }
        MdValue::Node(n) => n
            .fields
            .iter()
            .for_each(|f| collect_exprs(&f.value, out, depth + 1)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::module::parse_module;
    use crate::types::Type;

    fn parse(s: &str) -> Module {
        let (m, ds) = parse_module(s);
        assert!(ds.is_empty(), "{ds:?}");
        m
    }

    #[test]
    fn expression_contexts() {
        let m = parse(
            "@g = addrspace(1) global i32 0, !dbg !20\n\
             define void @f(ptr %p) {\n\
               call void @llvm.dbg.def(metadata !2, metadata ptr %p)\n\
               #dbg_assign(i32 0, !1, !9, !30, ptr %p, !DIExpression(DIOpArg(0, ptr), DIOpDeref(i32)), !31)\n\
               call void @llvm.dbg.value(metadata !DIArgList(i32 1, i32 poison), metadata !1, metadata !DIExpression(DIOpArg(1, i32))), !dbg !31\n\
               ret void\n\
             }\n\
             !1 = !DILocalVariable(name: \"x\")\n\
             !2 = distinct !DILifetime(object: !1, location: !9)\n\
             !3 = !DILocalVariable(name: \"y\")\n\
             !4 = distinct !DILifetime(object: !3, location: !9)\n\
             !9 = !DIExpr(DIOpReferrer(ptr), DIOpDeref(i32))\n\
             !10 = !DIExpr(DIOpConstant(i32 0))\n\
             !11 = !{!DIExpression(DIOpArg(0, i8))}\n\
             !20 = !DIGlobalVariableExpression(var: !21, expr: !DIExpression(DIOpArg(0, ptr addrspace(1)), DIOpDeref(i32)))\n\
             !21 = distinct !DIGlobalVariable(name: \"g\")\n\
             !22 = !DIGlobalVariableExpression(var: !21, expr: !DIExpression(DIOpArg(0, ptr), DIOpDeref(i32)))\n",
        );
        let sites = expressions(&m);
        let ctx: Vec<&ExprContext> = sites.iter().map(|s| &s.context).collect();
        assert_eq!(sites.len(), 9, "{sites:#?}");
        // Instructions first (source order): the assign's address expression, the value's.
        match ctx[0] {
            ExprContext::DbgRecord {
                kind: RecordKind::Assign,
                address: true,
                args,
                variable: Some(1),
                ..
            } => assert_eq!(args[0].value, Value::Local("p".into())),
            c => panic!("{c:?}"),
        }
        match ctx[1] {
            ExprContext::DbgRecord {
                kind: RecordKind::Value,
                args,
                ..
            } => assert!(args.len() == 2 && args[1].is_poison()),
            c => panic!("{c:?}"),
        }
        // !9 is used by two lifetimes and by the assign record.
        let nine: Vec<_> = sites
            .iter()
            .filter(|s| s.node == Some(9))
            .map(|s| &s.context)
            .collect();
        assert_eq!(nine.len(), 3, "{nine:#?}");
        assert!(nine.iter().any(|c| matches!(c, ExprContext::Lifetime { lifetime: 2, kind: Some(LifetimeKind::Bounded), referrers, .. } if referrers.len() == 1)));
        assert!(nine.iter().any(|c| matches!(c, ExprContext::Lifetime { lifetime: 4, kind: Some(LifetimeKind::Computed), referrers, .. } if referrers.is_empty())));
        assert!(nine.iter().any(|c| matches!(
            c,
            ExprContext::DbgRecord {
                kind: RecordKind::Assign,
                address: false,
                ..
            }
        )));
        let detached: Vec<_> = sites
            .iter()
            .filter(|s| s.context == ExprContext::Detached)
            .map(|s| s.node)
            .collect();
        assert_eq!(detached, vec![Some(10), Some(11)]);
        let gve: Vec<_> = sites
            .iter()
            .filter_map(|s| match &s.context {
                ExprContext::GlobalVariableExpression {
                    node,
                    variable,
                    global,
                } => Some((*node, *variable, global.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(gve.len(), 2);
        assert_eq!(gve[0].0, 20);
        assert_eq!(gve[0].1, Some(21));
        let g = gve[0].2.as_ref().unwrap();
        assert_eq!(
            (g.ty.clone(), g.value.clone()),
            (Some(Type::opaque_ptr(1)), Value::Global("g".into()))
        );
        assert_eq!(gve[1], (22, Some(21), None));
    }
}
