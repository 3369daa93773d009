//! Helpers the prover's tests share: expressions and types from their
//! one-line text.

#![allow(dead_code)]

use diopter_semantics::ast::Expr;
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::Type;

/// The operations `ops` as an expression (hole arguments `[?]`).
pub fn expr(ops: &str) -> Expr {
    parse_bare(&format!("[?] {ops}"))
        .unwrap_or_else(|d| panic!("{ops}: {}", d.message))
        .expr
}

/// The type written `s`.
pub fn ty(s: &str) -> Type {
    let b = parse_bare(&format!("[{s}] DIOpArg(0, {s})")).expect("a type");
    b.args.expect("args")[0].ty.clone()
}
