//! The one-line form of a bare expression and the `.expr` files made of them.
//!
//! ```text
//! [DIALECT] '[' ITEMS ']' ['->' VARTYPE] OPS
//!   DIALECT := diexpr | diexpression            (default: diexpression)
//!   ITEMS   := ITEM (',' ITEM)* | '?' | (empty)
//!   ITEM    := TYPE ['poison']                  an argument, in DIOpArg index order
//!            | 'referrer' ':' TYPE              the referrer's type
//!   OPS     := DIOp (',' DIOp)*  |  !DIExpr(...)  |  !DIExpression(...)
//! ```
//!
//! In `diexpression`, `DIOpReferrer` without a `referrer:` item refers to
//! argument 0, as AMD's verifier does. `[?]` means the argument types are
//! unknown: such an expression can be parsed and printed but not checked.
//!
//! An `.expr` file holds one expression per line, `#` comments, `%t = type {...}`
//! definitions, `target datalayout = "..."`, and `#!` directives that attach
//! expectations to the next expression (see [`Directive`]).

use super::lexer::{lex, Tok, Token};
use super::parser::Parser;
use crate::ast::*;
use crate::diag::{Diagnostic, Source};
use crate::types::{DataLayout, TypeTable};

/// What a conformance file expects of the next expression.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Expect {
    Valid,
    /// With the reference verifier's message, when known (informational).
    Invalid(Option<String>),
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub bare: Bare,
    /// 1-based line of the expression.
    pub line: usize,
    pub span: Span,
    pub expect: Option<Expect>,
    pub parse_only: bool,
    pub source: Option<String>,
    pub note: Option<String>,
}

impl Entry {
    /// Whether the entry describes a location to evaluate or lower: not a
    /// parse-only line, nor one meant to be ill-formed (a verifier reject).
    pub fn describes_a_location(&self) -> bool {
        !self.parse_only && !matches!(self.expect, Some(Expect::Invalid(_)))
    }
}

#[derive(Clone, Debug, Default)]
pub struct ExprFile {
    pub types: TypeTable,
    pub datalayout: Option<(DataLayout, Span)>,
    pub entries: Vec<Entry>,
    /// Lines marked `#! expect invalid` that did not even parse: the expected
    /// outcome, kept apart from the file's real errors. (1-based line, why.)
    pub expected_failures: Vec<(usize, Diagnostic)>,
}

/// Parses one line (or any text holding exactly one bare expression).
/// `start..end` is the part of `text` to read; spans are offsets into `text`.
pub fn parse_bare_at(text: &str, start: usize, end: usize) -> Result<Bare, Diagnostic> {
    parse_bare_tokens_at(&lex(text, start, end), end)
}

/// [`parse_bare_at`] over tokens already lexed (their spans point into the
/// text they came from; `end` is where an error at the end of the input
/// points). `diopter validate` uses it to read a line whose type variables
/// were replaced by the tokens of concrete types.
pub fn parse_bare_tokens_at(toks: &[Token], end: usize) -> Result<Bare, Diagnostic> {
    let mut p = Parser::new(toks, end);
    let bare = parse_bare_tokens(&mut p)?;
    if !p.at_end() {
        return Err(p.error_here("`,` or end of line after the operation"));
    }
    Ok(bare)
}

pub fn parse_bare(text: &str) -> Result<Bare, Diagnostic> {
    parse_bare_at(text, 0, text.len())
}

fn parse_bare_tokens(p: &mut Parser) -> Result<Bare, Diagnostic> {
    let mut dialect = Dialect::DiExpression;
    let mut explicit_dialect = false;
    if p.eat_ident("diexpr") {
        dialect = Dialect::DiExpr;
        explicit_dialect = true;
    } else if p.eat_ident("diexpression") {
        explicit_dialect = true;
    }
    let open = p.span();
    p.expect(
        &Tok::LBracket,
        "`[` starting the argument list (write `[]` for none)",
    )?;
    let mut args = Some(Vec::new());
    let mut referrer = None;
    if p.peek() == Some(&Tok::Question) {
        p.bump();
        args = None;
        p.expect(&Tok::RBracket, "`]` after `?`")?;
    } else if !p.eat(&Tok::RBracket) {
        loop {
            let item_start = p.span();
            if matches!(p.peek(), Some(Tok::Ident(w)) if w == "referrer")
                && p.peek2() == Some(&Tok::Colon)
            {
                p.bump();
                p.bump();
                let t = p.parse_type()?;
                if referrer.is_some() {
                    return Err(Diagnostic::error(
                        item_start,
                        "the referrer's type is given twice",
                    ));
                }
                referrer = Some((t, item_start.to(p.prev_span())));
            } else {
                let ty = p.parse_type()?;
                let poison = p.eat_ident("poison");
                if let Some(a) = args.as_mut() {
                    a.push(ArgDecl {
                        ty,
                        poison,
                        span: item_start.to(p.prev_span()),
                    });
                }
            }
            if p.eat(&Tok::RBracket) {
                break;
            }
            if p.peek().is_none() {
                return Err(Diagnostic::error(open, "unclosed `[`"));
            }
            p.expect(&Tok::Comma, "`,` or `]` in the argument list")?;
        }
    }
    let var_type = if p.eat(&Tok::Arrow) {
        let s = p.span();
        let t = p.parse_type()?;
        Some((t, s.to(p.prev_span())))
    } else {
        None
    };
    let (expr, wrapped) = match p.peek() {
        Some(Tok::MetaName(n)) if n == "DIExpr" || n == "DIExpression" => {
            let e = p.parse_wrapped_expr()?;
            if explicit_dialect && e.dialect != dialect {
                return Err(Diagnostic::error(
                    e.span,
                    format!(
                        "the line says `{dialect}` but the expression is a `!{}`",
                        e.dialect.node_name()
                    ),
                ));
            }
            (e, true)
        }
        _ => {
            let s = p.span();
            let ops = p.parse_ops()?;
            let span = ops
                .first()
                .map_or(s, |f| f.span.to(ops.last().map_or(s, |l| l.span)));
            (Expr { dialect, ops, span }, false)
        }
    };
    Ok(Bare {
        args,
        referrer,
        var_type,
        explicit_dialect: explicit_dialect || (wrapped && expr.dialect != Dialect::DiExpression),
        expr,
        wrapped,
    })
}

/// Parses an `.expr` file. Diagnostics are collected per line; a bad line does
/// not stop the rest of the file from being read.
pub fn parse_expr_file(src: &Source) -> (ExprFile, Vec<Diagnostic>) {
    let text = &src.text;
    let mut file = ExprFile::default();
    let mut diags = Vec::new();
    let mut pending = Pending::default();
    let mut file_parse_only = false;
    let mut offset = 0;
    for (lineno, raw) in text.split('\n').enumerate() {
        let line_start = offset;
        offset += raw.len() + 1;
        let trimmed = raw.trim();
        let lead = raw.len() - raw.trim_start().len();
        let start = line_start + lead;
        let end = start + trimmed.len();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(d) = trimmed.strip_prefix("#!") {
            let d = d.trim();
            let span = Span::new(start, end);
            match parse_directive(d) {
                Ok(Directive::ParseOnlyFile) if file.entries.is_empty() => file_parse_only = true,
                Ok(Directive::ParseOnlyFile) => diags.push(Diagnostic::error(
                    span,
                    "`#! parse-only file` must come before the first expression",
                )),
                Ok(Directive::ParseOnly) => pending.parse_only = true,
                Ok(Directive::Expect(e)) => pending.expect = Some(e),
                Ok(Directive::Source(s)) => pending.source = Some(s),
                Ok(Directive::Note(s)) => pending.note = Some(s),
                Err(e) => diags.push(Diagnostic::error(span, e.to_string())),
            }
            continue;
        }
        if trimmed.starts_with('#') {
            continue;
        }
        if trimmed.starts_with('%') || trimmed.starts_with("target") {
            match parse_header_line(text, start, end, &mut file.types) {
                Ok(Some(dl)) => file.datalayout = Some((dl, Span::new(start, end))),
                Ok(None) => {}
                Err(d) => diags.push(d),
            }
            continue;
        }
        match parse_bare_at(text, start, end) {
            Ok(bare) => {
                let p = std::mem::take(&mut pending);
                file.entries.push(Entry {
                    bare,
                    line: lineno + 1,
                    span: Span::new(start, end),
                    expect: p.expect,
                    parse_only: p.parse_only || file_parse_only,
                    source: p.source,
                    note: p.note,
                });
            }
            Err(d) => {
                let p = std::mem::take(&mut pending);
                if matches!(p.expect, Some(Expect::Invalid(_))) {
                    file.expected_failures.push((lineno + 1, d));
                } else {
                    diags.push(d);
                }
            }
        }
    }
    (file, diags)
}

#[derive(Default)]
struct Pending {
    expect: Option<Expect>,
    parse_only: bool,
    source: Option<String>,
    note: Option<String>,
}

/// `#!` directives of `.expr` files.
#[derive(Debug, PartialEq, Eq)]
pub enum Directive {
    /// `#! expect valid`, `#! expect invalid`, `#! expect invalid: MESSAGE`.
    Expect(Expect),
    /// `#! parse-only`: the next expression is parsed and printed, not checked.
    ParseOnly,
    /// `#! parse-only file`, before the first expression: the whole file.
    ParseOnlyFile,
    /// `#! source: TEXT`.
    Source(String),
    /// `#! note: TEXT`.
    Note(String),
}

/// A `#!` line that is no [`Directive`] (the text after `#!`, trimmed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown directive `#! {0}` (known: `expect valid`, `expect invalid[: MESSAGE]`, `parse-only`, `parse-only file`, `source: TEXT`, `note: TEXT`)"
)]
pub struct UnknownDirective(pub String);

/// The directive `d` (the text after `#!`, trimmed) names.
pub fn parse_directive(d: &str) -> Result<Directive, UnknownDirective> {
    if d == "expect valid" {
        return Ok(Directive::Expect(Expect::Valid));
    }
    if d == "expect invalid" {
        return Ok(Directive::Expect(Expect::Invalid(None)));
    }
    if let Some(m) = d.strip_prefix("expect invalid:") {
        return Ok(Directive::Expect(Expect::Invalid(Some(
            m.trim().to_string(),
        ))));
    }
    if d == "parse-only" {
        return Ok(Directive::ParseOnly);
    }
    if d == "parse-only file" {
        return Ok(Directive::ParseOnlyFile);
    }
    if let Some(s) = d.strip_prefix("source:") {
        return Ok(Directive::Source(s.trim().to_string()));
    }
    if let Some(s) = d.strip_prefix("note:") {
        return Ok(Directive::Note(s.trim().to_string()));
    }
    Err(UnknownDirective(d.to_string()))
}

/// A `%name = type BODY` definition (recorded in `types`) or a
/// `target datalayout = "..."` line (returned); `target triple` and other
/// `target` lines are accepted and ignored.
pub fn parse_header_line(
    text: &str,
    start: usize,
    end: usize,
    types: &mut TypeTable,
) -> Result<Option<DataLayout>, Diagnostic> {
    let toks = lex(text, start, end);
    let mut p = Parser::new(&toks, end);
    let first = p.span();
    let result = match p.bump().map(|t| &t.tok) {
        Some(Tok::Local(name)) => {
            p.expect(&Tok::Eq, "`=` after the type name")?;
            if !p.eat_ident("type") {
                return Err(p.error_here("`type`"));
            }
            let body = if p.eat_ident("opaque") {
                None
            } else {
                Some(p.parse_type()?)
            };
            if types.named.contains_key(name) {
                return Err(Diagnostic::error(
                    first,
                    format!("type `%{name}` is defined twice"),
                ));
            }
            types.define(name, body);
            None
        }
        Some(Tok::Ident(w)) if w == "target" => {
            if p.eat_ident("datalayout") {
                p.expect(&Tok::Eq, "`=`")?;
                let s = p.span();
                match p.bump().map(|t| &t.tok) {
                    Some(Tok::Str(dl)) => {
                        Some(DataLayout::parse(dl).map_err(|e| Diagnostic::error(s, e.0))?)
                    }
                    _ => return Err(Diagnostic::error(s, "expected the datalayout string")),
                }
            } else {
                // target triple = "...": irrelevant to sizes.
                while p.bump().is_some() {}
                None
            }
        }
        _ => {
            return Err(Diagnostic::error(
                first,
                "expected `%name = type ...` or `target datalayout = \"...\"`",
            ))
        }
    };
    if !p.at_end() {
        return Err(p.error_here("end of line"));
    }
    Ok(result)
}
