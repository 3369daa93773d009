//! The rule-file parser. The language (documented for users in
//! `corpus/rules/README.md`):
//!
//! ```text
//! # a comment line
//! rule NAME [DIALECT]: LHS => RHS  where VAR: CLASS, ...  if COND, ...
//!     (indented lines continue the rule above)
//!
//! NAME     [A-Za-z0-9_.-]+
//! DIALECT  '[diexpr]' | '[diexpression]'          (default: both)
//! =>       equivalent;  =>ro  read-only refinement
//! LHS/RHS  ELEM (',' ELEM)*
//! ELEM     '?x:TYPE'                               a subexpression pushing one TYPE
//!        | '?x'                                    (right side: the left side's ?x)
//!        | 'DIOpConstant(TYPE ?c)'                 any defined constant (a constant hole)
//!        | 'DIOpConstant(TYPE {TERM})'             (right side) a computed constant
//!        | any DIOp, types may use variables, numbers may be holes: DIOpAddrOf(?n)
//! CLASS    int | float | num | ptr | any
//! COND     a TERM: ?c == 0, width(T) >= 8, add_nsw(?a, ?b), ...
//! ```
//!
//! Types, literals and operations are read by the expression parser of
//! `diopter_semantics` over the same token stream (type variables turned
//! into `%"?T"` names first), so everything that is valid in an expression
//! is valid in a rule and positions are exact. Every error is a diagnostic
//! at a span of the file.

use super::instance::{BinOp, Relation};
use super::pattern::{param_sentinel, tvar, type_vars, PatOp};
use super::term::{TermPat, FUNCTIONS};
use super::{Class, Origin, Rule};
use diopter_semantics::ast::{Dialect, Op, Span};
use diopter_semantics::diag::Diagnostic;
use diopter_semantics::syntax::lexer::{lex, Tok, Token};
use diopter_semantics::syntax::parser::Parser;
use diopter_semantics::types::Type;
use num_bigint::BigInt;

type PResult<T> = Result<T, Diagnostic>;

/// Parses a rule file's text; `file_name` is recorded as the rules' origin.
pub fn parse_rules(text: &str, file_name: &str) -> Result<Vec<Rule>, Vec<Diagnostic>> {
    let (rules, diags) = parse_rules_spanned(text, file_name);
    if diags.is_empty() {
        Ok(rules.into_iter().map(|(r, _)| r).collect())
    } else {
        Err(diags)
    }
}

/// The widths a rule is tried at when it loads: a rule whose left side is
/// ill-typed at every binding of these (a type-class mismatch) is an error
/// at its name, not a rule the prover silently has nothing to prove of.
const PROBE_WIDTHS: [u64; 3] = [8, 32, 64];

/// Whether a `rule` (not a `lemma`) must shrink the expression to load:
/// the simplifier needs it, the prover does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Check,
    Skip,
}

/// The rules of a file that parse, each with its name's span (for
/// duplicate-name errors), and the diagnostics of those that do not.
pub fn parse_rules_spanned(text: &str, file_name: &str) -> (Vec<(Rule, Span)>, Vec<Diagnostic>) {
    parse_rules_spanned_with(text, file_name, Termination::Check)
}

/// [`parse_rules_spanned`], with the termination check chosen.
pub fn parse_rules_spanned_with(
    text: &str,
    file_name: &str,
    termination: Termination,
) -> (Vec<(Rule, Span)>, Vec<Diagnostic>) {
    let mut rules = Vec::new();
    let mut diags = Vec::new();
    // Group lines: an unindented line starts an item, indented lines continue
    // it; comment lines and blank lines belong to nothing.
    let mut items: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
    let mut offset = 0;
    for (lineno, raw) in text.split('\n').enumerate() {
        let start = offset;
        offset += raw.len() + 1;
        let code = raw.split('#').next().unwrap_or("");
        if code.trim().is_empty() {
            continue;
        }
        let end = start + code.trim_end().len();
        let indented = raw.starts_with([' ', '\t']);
        match items.last_mut() {
            Some(item) if indented => item.1.push((start, end)),
            _ if indented => diags.push(Diagnostic::error(
                Span::new(start, end),
                "an indented line continues a rule, but no rule comes before it",
            )),
            _ => items.push((lineno + 1, vec![(start, end)])),
        }
    }
    for (line, ranges) in items {
        match parse_rule(text, &ranges, file_name, line) {
            Ok((r, span)) if r.never_instantiates(&PROBE_WIDTHS).is_some() => {
                let why = r
                    .never_instantiates(&PROBE_WIDTHS)
                    .map_or_else(String::new, |e| e.to_string());
                diags.push(err(span, format!("the rule never applies: {why}")));
            }
            Ok((r, span)) => match super::measure::check_rule(&r) {
                Err(m) if termination == Termination::Check && !r.lemma => diags.push(err(
                    span,
                    format!("{m} (write `lemma` instead of `rule` to prove it without the simplifier applying it)"),
                )),
                _ => rules.push((r, span)),
            },
            Err(d) => diags.push(d),
        }
    }
    (rules, diags)
}

fn err(span: Span, m: impl Into<String>) -> Diagnostic {
    Diagnostic::error(span, m)
}

fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')
}

/// One rule: `ranges` are the byte ranges of its lines (comments cut off).
fn parse_rule(
    text: &str,
    ranges: &[(usize, usize)],
    file: &str,
    line: usize,
) -> PResult<(Rule, Span)> {
    let (s0, e0) = ranges[0];
    let b = text.as_bytes();
    let first = &text[s0..e0];
    let keyword = ["rule", "lemma"].into_iter().find(|k| {
        first.starts_with(k)
            && first
                .as_bytes()
                .get(k.len())
                .is_none_or(|c| c.is_ascii_whitespace())
    });
    let Some(keyword) = keyword else {
        let w = first.split_whitespace().next().unwrap_or("");
        return Err(err(
            Span::new(s0, s0 + w.len().max(1)),
            format!("expected `rule NAME: LHS => RHS` or `lemma NAME: LHS => RHS`, found `{w}`"),
        ));
    };
    // The name.
    let mut i = s0 + keyword.len();
    while i < e0 && b[i].is_ascii_whitespace() {
        i += 1;
    }
    let ns = i;
    while i < e0 && is_name_byte(b[i]) {
        i += 1;
    }
    let name_span = Span::new(ns, i.max(ns + 1).min(e0.max(ns + 1)));
    if i == ns {
        return Err(err(
            Span::new(ns, ns + 1),
            format!("expected the rule's name after `{keyword}`"),
        ));
    }
    let name = text[ns..i].to_string();
    // The tokens of the rest, over every line of the rule.
    let mut toks: Vec<Token> = lex(text, i, e0);
    for &(s, e) in &ranges[1..] {
        toks.extend(lex(text, s, e));
    }
    toks.retain(|t| t.tok != Tok::Newline);
    let toks = split_bangs(toks);
    let eof = ranges.last().map_or(e0, |r| r.1);
    if let Some(t) = toks.iter().find(|t| matches!(t.tok, Tok::Error(_))) {
        let Tok::Error(m) = &t.tok else {
            unreachable!()
        };
        return Err(err(t.span, m.clone()));
    }
    let mut pos = 0;
    // Optional `[diexpr]` / `[diexpression]`.
    let mut dialects = vec![Dialect::DiExpr, Dialect::DiExpression];
    if toks.first().map(|t| &t.tok) == Some(&Tok::LBracket) {
        let d = match toks.get(1).map(|t| &t.tok) {
            Some(Tok::Ident(w)) if w == "diexpr" => Dialect::DiExpr,
            Some(Tok::Ident(w)) if w == "diexpression" => Dialect::DiExpression,
            _ => {
                let s = toks.get(1).map_or(Span::new(eof, eof), |t| t.span);
                return Err(err(
                    s,
                    "expected `diexpr` or `diexpression` in `[...]` after the rule's name",
                ));
            }
        };
        if toks.get(2).map(|t| &t.tok) != Some(&Tok::RBracket) {
            let s = toks.get(2).map_or(Span::new(eof, eof), |t| t.span);
            return Err(err(s, "expected `]` after the dialect"));
        }
        dialects = vec![d];
        pos = 3;
    }
    match toks.get(pos) {
        Some(t) if t.tok == Tok::Colon => pos += 1,
        Some(t) => return Err(err(t.span, "expected `:` after the rule's name")),
        None => {
            return Err(err(
                Span::new(eof, eof),
                "expected `:` after the rule's name",
            ))
        }
    }
    let body = &toks[pos..];
    // Split at the top level: LHS `=>`[`ro`] RHS (`where` ... | `if` ...)*.
    let mut depth = 0i32;
    let mut arrow = None;
    let mut clauses: Vec<usize> = Vec::new();
    for (k, t) in body.iter().enumerate() {
        match &t.tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
            Tok::RParen | Tok::RBracket | Tok::RBrace => depth -= 1,
            Tok::Eq if depth == 0 && arrow.is_none() => {
                if let Some(n) = body.get(k + 1) {
                    if n.tok == Tok::Gt && n.span.start == t.span.end {
                        arrow = Some(k);
                    }
                }
            }
            Tok::Ident(w) if depth == 0 && arrow.is_some() && (w == "where" || w == "if") => {
                clauses.push(k)
            }
            _ => {}
        }
    }
    let Some(arrow) = arrow else {
        return Err(err(
            body.first().map_or(Span::new(eof, eof), |t| t.span),
            "expected `=>` (equivalent) or `=>ro` (read-only refinement) between the two sides",
        ));
    };
    let mut rhs_start = arrow + 2;
    let mut relation = Relation::Equivalent;
    if let Some(Token {
        tok: Tok::Ident(w),
        span,
    }) = body.get(rhs_start)
    {
        if span.start == body[arrow + 1].span.end {
            if w == "ro" {
                relation = Relation::ReadOnly;
                rhs_start += 1;
            } else {
                return Err(err(
                    *span,
                    format!("unknown relation `=>{w}` (known: `=>`, `=>ro`)"),
                ));
            }
        }
    }
    let rhs_end = clauses.first().copied().unwrap_or(body.len());
    // Clauses first: the sides need to know the type variables.
    let mut vars: Vec<(String, Class)> = Vec::new();
    let mut conds: Vec<TermPat> = Vec::new();
    for (ci, &c) in clauses.iter().enumerate() {
        let end = clauses.get(ci + 1).copied().unwrap_or(body.len());
        let part = &body[c + 1..end];
        let kw_span = body[c].span;
        if part.is_empty() {
            return Err(err(kw_span, "nothing after this clause keyword"));
        }
        if matches!(&body[c].tok, Tok::Ident(w) if w == "where") {
            parse_where(part, &mut vars, kw_span)?;
        }
    }
    let var_names: Vec<String> = vars.iter().map(|v| v.0.clone()).collect();
    for (ci, &c) in clauses.iter().enumerate() {
        let end = clauses.get(ci + 1).copied().unwrap_or(body.len());
        if matches!(&body[c].tok, Tok::Ident(w) if w == "if") {
            let part = substitute_vars(&body[c + 1..end], &var_names);
            let mut p = Parser::new(&part, end_of(&part, eof));
            loop {
                conds.push(parse_cond(&mut p)?);
                if p.at_end() {
                    break;
                }
                p.expect(
                    &Tok::Comma,
                    "`,` between conditions, or the end of the rule",
                )?;
            }
        }
    }
    let lhs_toks = &body[..arrow];
    let rhs_toks = &body[rhs_start..rhs_end];
    if lhs_toks.is_empty() {
        return Err(err(body[arrow].span, "the left side is empty"));
    }
    if rhs_toks.is_empty() {
        return Err(err(body[arrow].span, "the right side is empty"));
    }
    let mut params: Vec<String> = Vec::new();
    let lhs = parse_side(&substitute_vars(lhs_toks, &var_names), &mut params, true)?;
    let rhs = parse_side(&substitute_vars(rhs_toks, &var_names), &mut params, false)?;
    let (type_conds, pre): (Vec<TermPat>, Vec<TermPat>) = conds.into_iter().partition(|c| {
        let mut h = Vec::new();
        c.holes(&mut h);
        h.is_empty()
    });
    let rule = Rule {
        name,
        origin: Origin::File {
            path: file.to_string(),
            line,
        },
        relation,
        dialects,
        vars,
        lhs,
        rhs,
        type_conds,
        pre,
        refuted: false,
        lemma: keyword == "lemma",
    };
    validate(&rule, name_span)?;
    Ok((rule, name_span))
}

/// The IR lexer reads `!name` and `!0` as metadata; rules have no
/// metadata, so there they are `!` (not) before a function or a number.
fn split_bangs(toks: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(toks.len());
    for t in toks {
        let rest = match &t.tok {
            Tok::MetaName(n) => Tok::Ident(n.clone()),
            Tok::MetaId(n) => Tok::Int(n.to_string()),
            _ => {
                out.push(t);
                continue;
            }
        };
        let (s, e) = (t.span.start, t.span.end);
        out.push(Token {
            tok: Tok::Bang,
            span: Span::new(s, s + 1),
        });
        out.push(Token {
            tok: rest,
            span: Span::new(s + 1, e),
        });
    }
    out
}

fn end_of(toks: &[Token], eof: usize) -> usize {
    toks.last().map_or(eof, |t| t.span.end)
}

/// `T: int, U: any` (the tokens after `where`; `kw` is the span of
/// `where`). Also reads the `where` lines of `diopter validate`'s generic
/// pairs, so that both languages declare type variables alike.
pub fn parse_where(part: &[Token], vars: &mut Vec<(String, Class)>, kw: Span) -> PResult<()> {
    let mut k = 0;
    loop {
        let (name, span) = match part.get(k) {
            Some(Token {
                tok: Tok::Ident(w),
                span,
            }) => (w.clone(), *span),
            Some(t) => return Err(err(t.span, "expected a type variable name")),
            None => return Err(err(kw, "expected a type variable after `where`")),
        };
        if Type::Int(1).to_string() == name || is_type_word(&name) {
            return Err(err(
                span,
                format!("`{name}` is a type, not a type variable name"),
            ));
        }
        match part.get(k + 1) {
            Some(t) if t.tok == Tok::Colon => {}
            Some(t) => {
                return Err(err(
                    t.span,
                    format!("expected `:` and a class after `{name}`"),
                ))
            }
            None => {
                return Err(err(
                    span,
                    format!("expected `:` and a class after `{name}`"),
                ))
            }
        }
        let class = match part.get(k + 2) {
            Some(Token {
                tok: Tok::Ident(c),
                span: cs,
            }) => Class::NAMES
                .iter()
                .find(|(n, _)| n == c)
                .map(|(_, c)| *c)
                .ok_or_else(|| {
                    err(
                        *cs,
                        format!("unknown class `{c}` (known: int, float, num, ptr, any)"),
                    )
                })?,
            Some(t) => return Err(err(t.span, "expected a class: int, float, num, ptr or any")),
            None => return Err(err(span, "expected a class: int, float, num, ptr or any")),
        };
        if vars.iter().any(|v| v.0 == name) {
            return Err(err(
                span,
                format!("type variable `{name}` is declared twice"),
            ));
        }
        vars.push((name, class));
        k += 3;
        match part.get(k) {
            None => return Ok(()),
            Some(t) if t.tok == Tok::Comma => k += 1,
            Some(t) => return Err(err(t.span, "expected `,` or the end of the `where` clause")),
        }
    }
}

fn is_type_word(w: &str) -> bool {
    matches!(
        w,
        "half" | "bfloat" | "float" | "double" | "fp128" | "x86_fp80" | "ptr" | "x"
    ) || (w.starts_with('i') && w.len() > 1 && w[1..].bytes().all(|c| c.is_ascii_digit()))
}

/// The tokens with every type variable turned into the named type `%"?T"`
/// (a hole's name after `?` is left alone).
fn substitute_vars(toks: &[Token], vars: &[String]) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for (k, t) in toks.iter().enumerate() {
        let after_q = k > 0 && toks[k - 1].tok == Tok::Question;
        match &t.tok {
            Tok::Ident(w) if !after_q && vars.contains(w) => out.push(Token {
                tok: Tok::Local(match tvar(w) {
                    Type::Named(n) => n,
                    _ => unreachable!(),
                }),
                span: t.span,
            }),
            _ => out.push(t.clone()),
        }
    }
    out
}

/// A side: `ELEM (, ELEM)*`. `params` collects parameter hole names (the
/// right side may only use those of the left).
fn parse_side(toks: &[Token], params: &mut Vec<String>, lhs: bool) -> PResult<Vec<PatOp>> {
    let eof = end_of(toks, 0);
    let mut p = Parser::new(toks, eof);
    let mut out = Vec::new();
    loop {
        let start = p.span();
        match p.peek() {
            Some(Tok::Question) => {
                p.bump();
                let name = hole_name(&mut p)?;
                let ty = if p.eat(&Tok::Colon) {
                    Some(parse_type(&mut p)?)
                } else {
                    None
                };
                out.push(PatOp::Hole {
                    name,
                    ty,
                    span: start.to(p.prev_span()),
                });
            }
            Some(Tok::Ident(w)) if w == "DIOpConstant" && p.peek2() == Some(&Tok::LParen) => {
                p.bump();
                p.bump();
                let ty = parse_type(&mut p)?;
                match p.peek() {
                    Some(Tok::Question) => {
                        p.bump();
                        let name = hole_name(&mut p)?;
                        p.expect(&Tok::RParen, "`)` after the constant hole")?;
                        out.push(PatOp::ConstHole {
                            name,
                            ty,
                            span: start.to(p.prev_span()),
                        });
                    }
                    Some(Tok::LBrace) => {
                        let brace = p.span();
                        p.bump();
                        if lhs {
                            return Err(err(
                                brace,
                                "a computed constant `{...}` may only appear on the right side",
                            ));
                        }
                        let term = parse_cond(&mut p)?;
                        p.expect(&Tok::RBrace, "`}` closing the computed constant")?;
                        p.expect(&Tok::RParen, "`)` closing `DIOpConstant`")?;
                        out.push(PatOp::Computed {
                            ty,
                            term,
                            span: start.to(p.prev_span()),
                        });
                    }
                    _ => {
                        // The literal's tokens up to the matching `)`.
                        let from = p.pos;
                        let mut depth = 0;
                        loop {
                            match p.peek() {
                                None => return Err(err(start, "unclosed `DIOpConstant(`")),
                                Some(Tok::RParen) if depth == 0 => break,
                                Some(Tok::LParen | Tok::LBracket | Tok::Lt | Tok::LBrace) => {
                                    depth += 1
                                }
                                Some(Tok::RParen | Tok::RBracket | Tok::Gt | Tok::RBrace) => {
                                    depth -= 1
                                }
                                _ => {}
                            }
                            p.bump();
                        }
                        let lit = toks[from..p.pos].to_vec();
                        if lit.is_empty() {
                            return Err(err(p.span(), "expected a literal, `?name` or `{term}`"));
                        }
                        // A literal of a concrete type is checked now.
                        let mut tv = Vec::new();
                        type_vars(&ty, &mut tv);
                        if tv.is_empty() {
                            let end = lit.last().map_or(0, |t| t.span.end);
                            let mut lp = Parser::new(&lit, end);
                            lp.parse_literal(&ty)?;
                            if !lp.at_end() {
                                return Err(lp.error_here("`)` after the literal"));
                            }
                        }
                        p.bump();
                        out.push(PatOp::Const {
                            ty,
                            lit,
                            span: start.to(p.prev_span()),
                        });
                    }
                }
            }
            Some(Tok::Ident(_)) => {
                // The operation's tokens, parameter holes made sentinels.
                let from = p.pos;
                let mut depth = 0;
                let mut to = from;
                while let Some(t) = toks.get(to) {
                    match t.tok {
                        Tok::LParen => depth += 1,
                        Tok::RParen => {
                            depth -= 1;
                            if depth == 0 {
                                to += 1;
                                break;
                            }
                        }
                        Tok::Comma if depth == 0 => break,
                        _ => {}
                    }
                    to += 1;
                }
                let mut op_toks: Vec<Token> = Vec::new();
                let mut these: Vec<(usize, String)> = Vec::new();
                let mut k = from;
                while k < to {
                    if toks[k].tok == Tok::Question {
                        let Some(Token {
                            tok: Tok::Ident(n),
                            span,
                        }) = toks.get(k + 1)
                        else {
                            return Err(err(toks[k].span, "expected a name after `?`"));
                        };
                        let idx = match params.iter().position(|q| q == n) {
                            Some(i) => i,
                            None if lhs => {
                                params.push(n.clone());
                                params.len() - 1
                            }
                            None => {
                                return Err(err(
                                    toks[k].span.to(*span),
                                    format!("parameter hole `?{n}` is not on the left side"),
                                ))
                            }
                        };
                        these.push((idx, n.clone()));
                        op_toks.push(Token {
                            tok: Tok::Int(param_sentinel(idx).to_string()),
                            span: toks[k].span.to(*span),
                        });
                        k += 2;
                    } else {
                        op_toks.push(toks[k].clone());
                        k += 1;
                    }
                }
                let mut op_p = Parser::new(&op_toks, end_of(&op_toks, eof));
                let node = op_p.parse_op()?;
                if !op_p.at_end() {
                    return Err(op_p.error_here("`,` after the operation"));
                }
                if matches!(node.op, Op::Constant(..)) {
                    return Err(err(node.span, "`DIOpConstant` needs `(TYPE literal)`"));
                }
                p.pos = to;
                out.push(PatOp::Op {
                    op: node.op,
                    params: these,
                    span: node.span,
                });
            }
            _ => return Err(p.error_here("a hole `?x:T` or a DIOp operation")),
        }
        if p.at_end() {
            return Ok(out);
        }
        p.expect(&Tok::Comma, "`,` between the elements of a side")?;
    }
}

fn hole_name(p: &mut Parser) -> PResult<String> {
    match p.peek() {
        Some(Tok::Ident(n)) => {
            let n = n.clone();
            p.bump();
            Ok(n)
        }
        _ => Err(p.error_here("a hole name after `?`")),
    }
}

/// A type; an unknown capitalised word is most likely an undeclared type
/// variable, and says so.
fn parse_type(p: &mut Parser) -> PResult<Type> {
    if let Some(Tok::Ident(w)) = p.peek() {
        if w.chars().next().is_some_and(|c| c.is_ascii_uppercase()) {
            let s = p.span();
            return Err(err(
                s,
                format!("unknown type `{w}`: declare a type variable with `where {w}: CLASS`"),
            ));
        }
    }
    p.parse_type()
}

/// A condition or term: comparisons over sums over products over unary
/// terms (see [`TermPat`]).
fn parse_cond(p: &mut Parser) -> PResult<TermPat> {
    let a = parse_sum(p)?;
    let op = match (p.peek(), p.peek2()) {
        (Some(Tok::Eq), Some(Tok::Eq)) => Some((BinOp::Eq, false, 2)),
        (Some(Tok::Bang), Some(Tok::Eq)) => Some((BinOp::Ne, false, 2)),
        (Some(Tok::Lt), Some(Tok::Eq)) => Some((BinOp::Sle, false, 2)),
        (Some(Tok::Gt), Some(Tok::Eq)) => Some((BinOp::Sle, true, 2)),
        (Some(Tok::Lt), _) => Some((BinOp::Slt, false, 1)),
        (Some(Tok::Gt), _) => Some((BinOp::Slt, true, 1)),
        _ => None,
    };
    let Some((op, swap, n)) = op else {
        return Ok(a);
    };
    for _ in 0..n {
        p.bump();
    }
    let b = parse_sum(p)?;
    Ok(if swap {
        TermPat::Bin(op, Box::new(b), Box::new(a))
    } else {
        TermPat::Bin(op, Box::new(a), Box::new(b))
    })
}

fn parse_sum(p: &mut Parser) -> PResult<TermPat> {
    let mut a = parse_prod(p)?;
    loop {
        let op = match p.peek() {
            Some(Tok::Plus) => BinOp::Add,
            Some(Tok::Minus) => BinOp::Sub,
            // `?a -1`: the lexer read `-1` as one number.
            Some(Tok::Int(s)) if s.starts_with('-') => {
                let span = p.span();
                let v: BigInt = s[1..].parse().map_err(|_| err(span, "bad integer"))?;
                p.bump();
                a = TermPat::Bin(BinOp::Sub, Box::new(a), Box::new(TermPat::Lit(v, span)));
                continue;
            }
            _ => return Ok(a),
        };
        p.bump();
        let b = parse_prod(p)?;
        a = TermPat::Bin(op, Box::new(a), Box::new(b));
    }
}

fn parse_prod(p: &mut Parser) -> PResult<TermPat> {
    let mut a = parse_unary(p)?;
    while p.eat(&Tok::Star) {
        let b = parse_unary(p)?;
        a = TermPat::Bin(BinOp::Mul, Box::new(a), Box::new(b));
    }
    Ok(a)
}

fn parse_unary(p: &mut Parser) -> PResult<TermPat> {
    if p.eat(&Tok::Minus) {
        return Ok(TermPat::Neg(Box::new(parse_unary(p)?)));
    }
    if p.eat(&Tok::Bang) {
        return Ok(TermPat::Not(Box::new(parse_unary(p)?)));
    }
    let span = p.span();
    match p.peek() {
        Some(Tok::Question) => {
            p.bump();
            let n = hole_name(p)?;
            Ok(TermPat::Hole(n, span.to(p.prev_span())))
        }
        Some(Tok::Int(s)) => {
            let v: BigInt = s
                .parse()
                .map_err(|_| err(span, format!("bad integer `{s}`")))?;
            p.bump();
            Ok(TermPat::Lit(v, span))
        }
        Some(Tok::LParen) => {
            p.bump();
            let t = parse_cond(p)?;
            p.expect(&Tok::RParen, "`)`")?;
            Ok(t)
        }
        Some(Tok::Ident(w)) if w == "width" => {
            p.bump();
            p.expect(&Tok::LParen, "`(` after `width`")?;
            let t = parse_type(p)?;
            p.expect(&Tok::RParen, "`)` closing `width(`")?;
            Ok(TermPat::Width(t, span.to(p.prev_span())))
        }
        Some(Tok::Ident(w)) => {
            let w = w.clone();
            let Some(&(_, arity, _)) = FUNCTIONS.iter().find(|f| f.0 == w) else {
                let known: Vec<&str> = FUNCTIONS.iter().map(|f| f.0).collect();
                return Err(err(
                    span,
                    format!(
                        "unknown function `{w}` (known: width, {})",
                        known.join(", ")
                    ),
                ));
            };
            p.bump();
            p.expect(&Tok::LParen, &format!("`(` after `{w}`"))?;
            let mut args = Vec::new();
            for k in 0..arity {
                if k > 0 {
                    p.expect(&Tok::Comma, &format!("`,`: `{w}` takes {arity} arguments"))?;
                }
                if k == 1 && matches!(w.as_str(), "zext" | "sext" | "trunc") {
                    let ts = p.span();
                    let t = parse_type(p)?;
                    args.push(TermPat::Type(t, ts.to(p.prev_span())));
                } else {
                    args.push(parse_cond(p)?);
                }
            }
            p.expect(
                &Tok::RParen,
                &format!("`)`: `{w}` takes {arity} argument(s)"),
            )?;
            Ok(TermPat::Call(w, args, span.to(p.prev_span())))
        }
        _ => Err(p.error_here("a term: `?c`, a number, `width(T)`, `(...)` or a function")),
    }
}

/// The checks that make a rule meaningful and the simplifier terminate:
/// holes and variables are bound by the left side, and the rule shrinks the
/// expression (see [`crate::measure`]).
fn validate(r: &Rule, name_span: Span) -> PResult<()> {
    let declared: Vec<&str> = r.vars.iter().map(|v| v.0.as_str()).collect();
    // Type variables: declared ones are used on the left, used ones declared.
    let mut lhs_vars = Vec::new();
    let mut all_types: Vec<(Type, Span)> = Vec::new();
    for (side, is_lhs) in [(&r.lhs, true), (&r.rhs, false)] {
        for p in side.iter() {
            let mut ts: Vec<Type> = Vec::new();
            match p {
                PatOp::Hole { ty: Some(t), .. }
                | PatOp::ConstHole { ty: t, .. }
                | PatOp::Const { ty: t, .. } => ts.push(t.clone()),
                PatOp::Computed { ty, term, .. } => {
                    ts.push(ty.clone());
                    let mut v = Vec::new();
                    term.types(&mut v);
                    ts.extend(v.into_iter().map(|x| x.0));
                }
                PatOp::Op { op, .. } => {
                    ts.extend(super::pattern::op_parts(op).0.into_iter().cloned())
                }
                PatOp::Hole { ty: None, .. } => {}
            }
            for t in ts {
                if is_lhs {
                    type_vars(&t, &mut lhs_vars);
                }
                all_types.push((t, p.span()));
            }
        }
    }
    for c in r.type_conds.iter().chain(&r.pre) {
        c.types(&mut all_types);
    }
    for (t, span) in &all_types {
        let mut v = Vec::new();
        type_vars(t, &mut v);
        for x in v {
            if !declared.contains(&x.as_str()) {
                return Err(err(
                    *span,
                    format!("type variable `{x}` is not declared (`where {x}: CLASS`)"),
                ));
            }
            if !lhs_vars.contains(&x) {
                return Err(err(
                    *span,
                    format!("type variable `{x}` does not occur on the left side"),
                ));
            }
        }
    }
    for (v, _) in &r.vars {
        if !lhs_vars.contains(v) {
            return Err(err(
                name_span,
                format!("type variable `{v}` does not occur on the left side"),
            ));
        }
    }
    // Holes: typed at their first occurrence on the left, right-side holes
    // bound on the left, terms over constant holes of the left.
    let mut value_holes: Vec<(String, Option<Type>)> = Vec::new();
    let mut const_holes: Vec<String> = Vec::new();
    let mut const_types: Vec<(String, Type)> = Vec::new();
    for p in &r.lhs {
        match p {
            PatOp::Hole { name, ty, span } => {
                if const_holes.contains(name) {
                    return Err(err(*span, format!("`?{name}` is a constant hole already")));
                }
                match (value_holes.iter().find(|h| &h.0 == name), ty) {
                    (None, None) => {
                        return Err(err(
                            *span,
                            format!("hole `?{name}` needs a type: `?{name}:T`"),
                        ))
                    }
                    (None, Some(t)) => value_holes.push((name.clone(), Some(t.clone()))),
                    (Some((_, Some(t0))), Some(t)) if t0 != t => {
                        return Err(err(*span, format!("hole `?{name}` has two types")))
                    }
                    _ => {}
                }
            }
            PatOp::ConstHole { name, span, ty } => {
                if value_holes.iter().any(|h| &h.0 == name) {
                    return Err(err(*span, format!("`?{name}` is a value hole already")));
                }
                // A constant hole may recur, as a value hole may: the rule
                // then matches only equal constants (one input to the
                // prover). Its type must be the same at each occurrence.
                match const_types.iter().find(|(n, _)| n == name) {
                    Some((_, t0)) if t0 != ty => {
                        return Err(err(*span, format!("constant hole `?{name}` has two types")))
                    }
                    Some(_) => {}
                    None => {
                        const_types.push((name.clone(), ty.clone()));
                        const_holes.push(name.clone());
                    }
                }
            }
            _ => {}
        }
    }
    for p in &r.rhs {
        match p {
            PatOp::Hole { name, span, .. } | PatOp::ConstHole { name, span, .. }
                if !value_holes.iter().any(|h| &h.0 == name) && !const_holes.contains(name) =>
            {
                return Err(err(
                    *span,
                    format!("hole `?{name}` is not on the left side: a hole on the right stands for what the left side matched, and a fresh one would stand for nothing a rewrite can produce"),
                ));
            }
            PatOp::Computed { term, span, .. } => check_term_holes(term, &const_holes, *span)?,
            _ => {}
        }
    }
    for c in &r.pre {
        check_term_holes(c, &const_holes, c.span())?;
    }
    Ok(())
}

fn check_term_holes(t: &TermPat, const_holes: &[String], span: Span) -> PResult<()> {
    let mut hs = Vec::new();
    t.holes(&mut hs);
    for h in hs {
        if !const_holes.contains(&h) {
            return Err(err(
                span,
                format!("`?{h}` in a term must be a constant hole of the left side (`DIOpConstant(T ?{h})`)"),
            ));
        }
    }
    Ok(())
}
