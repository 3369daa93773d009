//! Reading an IR file (a real `.ll` file, MIR-like text, or the spec's
//! pseudo IR) into an [`ir::Module`](crate::ir::Module).
//!
//! The file is lexed once; top-level entities and instructions are read line
//! by line, metadata nodes ignore newlines (the slides wrap `DILifetime` over
//! several lines). Instruction lines outside any `define` go, in order, into
//! one implicit function ([`IMPLICIT_FUNCTION`]). Whatever diopter does not
//! interpret is kept as its text. Errors never stop the reader: each becomes a
//! diagnostic and reading resumes at the next line; a line that could not be
//! read is kept as written, so printing the module reproduces it.

use super::bare::parse_header_line;
use super::lexer::{lex, Tok, Token};
use super::parser::{PResult, Parser};
use crate::ast::Span;
use crate::diag::{Diagnostic, Severity};
use crate::ir::*;
use std::collections::HashMap;

/// Resource limit: metadata nodes per file.
pub const MAX_NODES: usize = 1_000_000;
/// Resource limit: instructions per file.
pub const MAX_INSTS: usize = 1_000_000;
/// Resource limit: how deeply metadata values may nest (`!{!{...}}`, nodes in nodes).
pub const MAX_MD_DEPTH: usize = 64;

const DBG_CALLS: &[&str] = &[
    "llvm.dbg.def",
    "llvm.dbg.kill",
    "llvm.dbg.value",
    "llvm.dbg.declare",
    "llvm.dbg.assign",
];

/// Resource limits of the reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub nodes: usize,
    pub insts: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            nodes: MAX_NODES,
            insts: MAX_INSTS,
        }
    }
}

/// Parses an IR file. Spans in the module and the diagnostics are byte
/// offsets into `text` (render them with [`crate::diag::Source`]).
pub fn parse_module(text: &str) -> (Module, Vec<Diagnostic>) {
    parse_module_with(text, Limits::default())
}

/// [`parse_module`] with other resource limits.
pub fn parse_module_with(text: &str, limits: Limits) -> (Module, Vec<Diagnostic>) {
    parse_module_range(text, 0, text.len(), limits)
}

/// [`parse_module_with`] of `text[start..end]` (the IR document of a MIR
/// file); spans stay offsets into the whole `text`.
pub fn parse_module_range(
    text: &str,
    start: usize,
    end: usize,
    limits: Limits,
) -> (Module, Vec<Diagnostic>) {
    // The text ends where the range does: "end of input" is the range's end.
    let text = &text[..end];
    let toks = lex(text, start, end);
    let mut r = Reader {
        text,
        toks: &toks,
        pos: 0,
        m: Module::default(),
        diags: Vec::new(),
        func: None,
        implicit: None,
        insts: 0,
        limits,
        stop: false,
    };
    r.run();
    (r.m, r.diags)
}

/// A function being read.
struct FnBuilder {
    func: Function,
    /// Index reserved in `Module::functions`.
    index: usize,
    /// Whether the last block ended with a terminator (the next instruction
    /// starts a new, unlabelled block).
    terminated: bool,
}

impl FnBuilder {
    fn new(
        name: String,
        header: Option<String>,
        dbg: Option<u64>,
        index: usize,
        span: Span,
    ) -> FnBuilder {
        FnBuilder {
            func: Function {
                implicit: header.is_none(),
                name,
                header,
                dbg,
                blocks: Vec::new(),
                span: Pos(span),
            },
            index,
            terminated: false,
        }
    }

    /// Starts a block; returns its index.
    fn label(&mut self, label: String, span: Span) -> usize {
        self.func.blocks.push(Block {
            label: Some(label),
            insts: Vec::new(),
            succs: Vec::new(),
            span: Pos(span),
        });
        self.terminated = false;
        self.func.blocks.len() - 1
    }

    /// Appends an instruction; returns its block and index in the block.
    fn push(&mut self, inst: Inst) -> (usize, usize) {
        if self.func.blocks.is_empty() || self.terminated {
            self.func.blocks.push(Block {
                label: None,
                insts: Vec::new(),
                succs: Vec::new(),
                span: inst.span,
            });
        }
        self.terminated = inst.kind.is_terminator();
        let block = self.func.blocks.len() - 1;
        let b = &mut self.func.blocks[block];
        b.insts.push(inst);
        (block, b.insts.len() - 1)
    }

    /// Resolves branch targets into successor lists.
    fn finish(mut self, diags: &mut Vec<Diagnostic>) -> (usize, Function) {
        let mut labels: HashMap<String, usize> = HashMap::new();
        for (i, b) in self.func.blocks.iter().enumerate() {
            if let Some(l) = &b.label {
                if labels.insert(l.clone(), i).is_some() {
                    diags.push(Diagnostic::error(
                        *b.span,
                        format!("label `{l}` is defined twice in this function"),
                    ));
                }
            }
        }
        let n = self.func.blocks.len();
        for i in 0..n {
            let mut succs = Vec::new();
            match self.func.blocks[i].insts.last() {
                Some(Inst {
                    kind: InstKind::Branch { targets },
                    span,
                    ..
                }) => {
                    for t in targets {
                        match labels.get(t) {
                            Some(&j) => {
                                if !succs.contains(&j) {
                                    succs.push(j)
                                }
                            }
                            None => diags.push(Diagnostic::error(
                                **span,
                                format!("branch to `%{t}`, which is not a label of this function"),
                            )),
                        }
                    }
                }
                Some(Inst {
                    kind: InstKind::Exit,
                    ..
                }) => {}
                _ if i + 1 < n => succs.push(i + 1),
                _ => {}
            }
            self.func.blocks[i].succs = succs;
        }
        (self.index, self.func)
    }
}

struct Reader<'t> {
    text: &'t str,
    toks: &'t [Token],
    pos: usize,
    m: Module,
    diags: Vec<Diagnostic>,
    /// The open `define`.
    func: Option<FnBuilder>,
    /// The implicit function of top-level instruction lines, once one is seen.
    implicit: Option<FnBuilder>,
    insts: usize,
    limits: Limits,
    stop: bool,
}

fn is_nl(t: &Token) -> bool {
    t.tok == Tok::Newline
}

impl<'t> Reader<'t> {
    fn run(&mut self) {
        while !self.stop {
            while self.pos < self.toks.len() && is_nl(&self.toks[self.pos]) {
                self.pos += 1;
            }
            if self.pos >= self.toks.len() {
                break;
            }
            let start = self.pos;
            let end = self.line_end(start);
            if self.func.is_some() {
                self.function_line(start, end);
            } else {
                self.top_line(start, end);
            }
        }
        if let Some(f) = self.func.take() {
            if !self.stop {
                self.diags.push(Diagnostic::error(
                    *f.func.span,
                    format!("function @{} has no closing `}}`", f.func.name),
                ));
            }
            self.finish(f);
        }
        if let Some(f) = self.implicit.take() {
            self.finish(f);
        }
    }

    fn finish(&mut self, f: FnBuilder) {
        let (i, func) = f.finish(&mut self.diags);
        self.m.functions[i] = func;
    }

    // ------------------------------------------------------------ lines

    /// Index of the newline token ending the line that starts at `from` (or the end).
    fn line_end(&self, from: usize) -> usize {
        let mut e = from;
        while e < self.toks.len() && !is_nl(&self.toks[e]) {
            e += 1;
        }
        e
    }

    fn span_of(&self, a: usize, b: usize) -> Span {
        if a >= b {
            let at = self.toks.get(a).map_or(self.text.len(), |t| t.span.start);
            return Span::new(at, at);
        }
        Span::new(self.toks[a].span.start, self.toks[b - 1].span.end)
    }

    fn text_of(&self, a: usize, b: usize) -> String {
        let s = self.span_of(a, b);
        self.text[s.start..s.end].to_string()
    }

    fn tok(&self, i: usize) -> Option<&'t Tok> {
        self.toks.get(i).map(|t| &t.tok)
    }

    /// Open minus closed brackets of the tokens `a..b`.
    fn balance(&self, a: usize, b: usize) -> i64 {
        self.toks[a..b]
            .iter()
            .map(|t| match t.tok {
                Tok::LParen | Tok::LBracket | Tok::LBrace => 1,
                Tok::RParen | Tok::RBracket | Tok::RBrace => -1,
                _ => 0,
            })
            .sum()
    }

    /// Whether the line starting at token `i` starts a top-level entity (where
    /// a runaway multi-line construct must stop).
    fn starts_entity(&self, i: usize, rbrace: bool) -> bool {
        match (self.tok(i), self.tok(i + 1)) {
            (Some(Tok::RBrace), _) => rbrace,
            (Some(Tok::MetaId(_) | Tok::MetaName(_) | Tok::Global(_)), Some(Tok::Eq)) => true,
            (Some(Tok::Ident(w)), _) => w == "define" || w == "declare",
            _ => false,
        }
    }

    /// Extends the line `start..end` over following lines while its brackets
    /// are open (a `switch` table, a wrapped call), up to a line that starts a
    /// top-level entity.
    /// A bracket that never closes does not swallow the lines after it: the
    /// line then stands alone.
    fn extend(&self, start: usize, end: usize, rbrace_stops: bool) -> usize {
        let mut depth = self.balance(start, end);
        let mut e = end;
        while depth > 0 && e < self.toks.len() {
            let mut ns = e;
            while ns < self.toks.len() && is_nl(&self.toks[ns]) {
                ns += 1;
            }
            if ns >= self.toks.len() || self.starts_entity(ns, rbrace_stops) {
                break;
            }
            let ne = self.line_end(ns);
            depth += self.balance(ns, ne);
            e = ne;
        }
        if depth > 0 {
            end
        } else {
            e
        }
    }

    fn is_label(&self, start: usize, end: usize) -> Option<String> {
        if end != start + 2 || self.tok(start + 1) != Some(&Tok::Colon) {
            return None;
        }
        match self.tok(start)? {
            Tok::Ident(w) => Some(w.clone()),
            Tok::Int(s) if !s.starts_with('-') => Some(s.clone()),
            Tok::Str(s) => Some(s.clone()),
            _ => None,
        }
    }

    fn opaque_item(&mut self, start: usize, end: usize) {
        let span = self.span_of(start, end);
        self.m.items.push(Item::Opaque {
            text: self.text_of(start, end),
            span: Pos(span),
        });
    }

    // -------------------------------------------------------- top level

    fn top_line(&mut self, start: usize, end: usize) {
        self.pos = end;
        if let Some(l) = self.is_label(start, end) {
            let span = self.span_of(start, end);
            let block = self.implicit_fn(span).label(l, span);
            self.m.items.push(Item::TopLevel { block, inst: None });
            return;
        }
        let t1 = if start + 1 < end {
            self.tok(start + 1)
        } else {
            None
        };
        let t2 = if start + 2 < end {
            self.tok(start + 2)
        } else {
            None
        };
        match (&self.toks[start].tok, t1) {
            (Tok::Ident(w), _) if w == "target" => self.header_line(start, end),
            (Tok::Local(name), Some(Tok::Eq)) if matches!(t2, Some(Tok::Ident(w)) if w == "type") =>
            {
                let e = self.extend(start, end, false);
                self.pos = e;
                self.type_def(name.clone(), start, e);
            }
            (Tok::Global(name), Some(Tok::Eq)) => self.global(name.clone(), start, end),
            (Tok::MetaId(_), Some(Tok::Eq)) => self.metadata(start),
            (Tok::MetaName(_), Some(Tok::Eq)) => self.named_metadata(start),
            (Tok::Ident(w), _) if w == "define" => self.define(start, end),
            (Tok::Ident(w), _)
                if matches!(
                    w.as_str(),
                    "declare"
                        | "attributes"
                        | "source_filename"
                        | "module"
                        | "uselistorder"
                        | "uselistorder_bb"
                ) =>
            {
                let e = self.extend(start, end, false);
                self.pos = e;
                self.opaque_item(start, e);
            }
            (Tok::Dollar(_), Some(Tok::Eq)) if matches!(t2, Some(Tok::Ident(w)) if w == "comdat") => {
                self.opaque_item(start, end)
            }
            (Tok::RBrace, _) => {
                self.diags.push(Diagnostic::error(
                    self.toks[start].span,
                    "`}` outside a function",
                ));
                self.opaque_item(start, end);
            }
            _ => {
                let e = self.extend(start, end, false);
                self.pos = e;
                let inst = self.parse_inst(start, e);
                let span = *inst.span;
                let (block, inst) = self.implicit_fn(span).push(inst);
                self.m.items.push(Item::TopLevel {
                    block,
                    inst: Some(inst),
                });
                self.count_inst(span);
            }
        }
    }

    fn implicit_fn(&mut self, span: Span) -> &mut FnBuilder {
        if self.implicit.is_none() {
            let index = self.m.functions.len();
            let f = FnBuilder::new(IMPLICIT_FUNCTION.to_string(), None, None, index, span);
            self.m.functions.push(f.func.clone());
            self.implicit = Some(f);
        }
        self.implicit.as_mut().expect("just created")
    }

    fn count_inst(&mut self, span: Span) {
        self.insts += 1;
        if self.insts > self.limits.insts {
            self.diags.push(Diagnostic::error(
                span,
                format!(
                    "more than {} instructions (diopter's limit); the rest of the file is not read",
                    self.limits.insts
                ),
            ));
            self.stop = true;
        }
    }

    /// `target datalayout = "..."`, `target triple = "..."`.
    fn header_line(&mut self, start: usize, end: usize) {
        let span = self.span_of(start, end);
        // `DataLayout::parse` splits components at byte offsets: give it ASCII only.
        if let Some(t) = self.toks[start..end]
            .iter()
            .find(|t| matches!(&t.tok, Tok::Str(s) if !s.is_ascii()))
        {
            self.diags
                .push(Diagnostic::error(t.span, "a `target` string must be ASCII"));
            self.opaque_item(start, end);
            return;
        }
        match parse_header_line(self.text, span.start, span.end, &mut self.m.types) {
            Ok(Some(dl)) if self.m.datalayout.is_none() => {
                self.m.datalayout = Some((dl, Pos(span)));
                self.m.items.push(Item::Datalayout);
            }
            Ok(Some(_)) => {
                self.diags.push(Diagnostic::error(
                    span,
                    "a second `target datalayout`; the first one is kept",
                ));
                self.opaque_item(start, end);
            }
            Ok(None) => {
                if matches!(self.tok(start + 1), Some(Tok::Ident(w)) if w == "triple") {
                    if let Some(Tok::Str(s)) = self.toks[start..end]
                        .iter()
                        .map(|t| &t.tok)
                        .find(|t| matches!(t, Tok::Str(_)))
                    {
                        self.m.triple = Some(s.clone());
                    }
                }
                self.opaque_item(start, end);
            }
            Err(d) => {
                self.diags.push(d);
                self.opaque_item(start, end);
            }
        }
    }

    fn type_def(&mut self, name: String, start: usize, end: usize) {
        let span = self.span_of(start, end);
        match parse_header_line(self.text, span.start, span.end, &mut self.m.types) {
            Ok(_) => self.m.items.push(Item::TypeDef(name)),
            Err(mut d) => {
                // A type diopter cannot model (a function pointer, say) is no
                // fault of the file: keep the line, warn.
                d.severity = Severity::Warning;
                d.message = format!("type `%{name}` is kept as written: {}", d.message);
                self.diags.push(d);
                self.opaque_item(start, end);
            }
        }
    }

    /// `@name = ... [, !dbg !N] [, !dbg.default !N]`.
    fn global(&mut self, name: String, start: usize, end: usize) {
        // The attachments are taken out of the line; text the lexer could not
        // read might then swallow them when printed back, so such a line is
        // kept whole.
        if let Some(Token {
            tok: Tok::Error(msg),
            span,
        }) = self.toks[start..end]
            .iter()
            .find(|t| matches!(t.tok, Tok::Error(_)))
        {
            self.diags.push(Diagnostic::error(*span, msg.clone()));
            self.opaque_item(start, end);
            return;
        }
        let body_start = start + 2;
        let (body, attachments, comma) = global_parts(self.text, &self.toks[body_start..end]);
        // The attachments print after the body; check that the printed line
        // reads back the same (a stray comma, say, could move into the body).
        let g = Global {
            name: name.clone(),
            body: body.clone(),
            attachments: attachments.clone(),
            comma,
            address_space: None,
            span: Pos::default(),
        };
        let printed = super::module_print::print_global(&g);
        let ptoks = lex(&printed, 0, printed.len());
        let same = ptoks.len() >= 2
            && global_parts(&printed, &ptoks[2..]) == (body.clone(), attachments.clone(), comma);
        if !same {
            self.diags.push(Diagnostic::error(
                self.span_of(body_start, end),
                "diopter cannot separate this global's `!dbg` attachments from the rest of the line",
            ));
            self.opaque_item(start, end);
            return;
        }
        let toks: Vec<&Tok> = self.toks[body_start..end].iter().map(|t| &t.tok).collect();
        let address_space = toks
            .iter()
            .position(|t| matches!(t, Tok::Ident(w) if w == "global" || w == "constant"))
            .map(|g| {
                toks[..g]
                    .windows(4)
                    .find_map(|w| match w {
                        [Tok::Ident(a), Tok::LParen, Tok::Int(n), Tok::RParen]
                            if a == "addrspace" =>
                        {
                            n.parse().ok()
                        }
                        _ => None,
                    })
                    .unwrap_or(0)
            });
        let index = self.m.globals.len();
        self.m.globals.push(Global {
            name,
            body,
            attachments,
            comma,
            address_space,
            span: Pos(self.span_of(start, end)),
        });
        self.m.items.push(Item::Global(index));
    }

    /// Skips a metadata definition that could not be read: to the end of its
    /// line, and on while its brackets are open.
    fn skip_entity(&self, start: usize) -> usize {
        let end = self.line_end(start);
        self.extend(start, end, false)
    }

    /// `!N = [distinct] VALUE`, possibly over several lines.
    fn metadata(&mut self, start: usize) {
        let Some(Tok::MetaId(id)) = self.tok(start) else {
            return;
        };
        let id = *id;
        let mut p = Parser::new(self.toks, self.text.len());
        p.pos = start + 2;
        // The value starts on the line of its `=`.
        p.newlines = true;
        let distinct = p.eat_ident("distinct");
        let on_line = !matches!(p.peek(), None | Some(Tok::Newline));
        p.newlines = false;
        let result = if on_line {
            md_value(&mut p, self.text, &mut self.diags, 0)
        } else {
            p.newlines = true;
            let d = p.error_here("a metadata value after `=`");
            p.newlines = false;
            Err(d)
        };
        let result = result.and_then(|v| {
            if matches!(
                p.toks.get(p.pos),
                None | Some(Token {
                    tok: Tok::Newline,
                    ..
                })
            ) {
                Ok(v)
            } else {
                Err(p.error_here("end of line after the metadata node"))
            }
        });
        match result {
            Ok(value) => {
                let span = Span::new(self.toks[start].span.start, p.prev_span().end);
                self.pos = p.pos;
                if self.m.metadata.contains_key(&id) {
                    self.diags.push(Diagnostic::error(
                        span,
                        format!("metadata !{id} is defined more than once; the first definition is kept"),
                    ));
                    self.opaque_item(start, p.pos);
                    return;
                }
                if self.m.metadata.len() >= self.limits.nodes {
                    self.diags.push(Diagnostic::error(
                        span,
                        format!(
                            "more than {} metadata nodes (diopter's limit); the rest of the file is not read",
                            self.limits.nodes
                        ),
                    ));
                    self.stop = true;
                    return;
                }
                validate(id, &value, &mut self.diags);
                self.m.metadata.insert(
                    id,
                    MdNode {
                        id,
                        distinct,
                        value,
                        span: Pos(span),
                    },
                );
                self.m.items.push(Item::Metadata(id));
            }
            Err(d) => {
                self.diags.push(d);
                let e = self.skip_entity(start);
                self.pos = e;
                self.opaque_item(start, e);
            }
        }
    }

    /// `!name = !{...}`.
    fn named_metadata(&mut self, start: usize) {
        let Some(Tok::MetaName(name)) = self.tok(start) else {
            return;
        };
        let mut p = Parser::new(self.toks, self.text.len());
        p.pos = start + 2;
        let result = (|| {
            if !(p.toks.get(p.pos).map(|t| &t.tok) == Some(&Tok::Bang)
                && p.peek2() == Some(&Tok::LBrace))
            {
                return Err(p.error_here("`!{` starting the named metadata's list"));
            }
            p.bump();
            p.bump();
            let items = md_list(
                &mut p,
                self.text,
                &mut self.diags,
                &Tok::RBrace,
                "`,` or `}` in the list",
                0,
            )?;
            if !matches!(
                p.toks.get(p.pos),
                None | Some(Token {
                    tok: Tok::Newline,
                    ..
                })
            ) {
                return Err(p.error_here("end of line after the named metadata"));
            }
            Ok(items)
        })();
        match result {
            Ok(items) => {
                let span = Span::new(self.toks[start].span.start, p.prev_span().end);
                self.pos = p.pos;
                let index = self.m.named_metadata.len();
                self.m.named_metadata.push(NamedMd {
                    name: name.clone(),
                    items,
                    span: Pos(span),
                });
                self.m.items.push(Item::NamedMd(index));
            }
            Err(d) => {
                self.diags.push(d);
                let e = self.skip_entity(start);
                self.pos = e;
                self.opaque_item(start, e);
            }
        }
    }

    // -------------------------------------------------------- functions

    /// `define ... @name(...) ... {`.
    fn define(&mut self, start: usize, end: usize) {
        let name_at = (start..end.saturating_sub(1)).find(|&i| {
            matches!(self.tok(i), Some(Tok::Global(_))) && self.tok(i + 1) == Some(&Tok::LParen)
        });
        let Some(name_at) = name_at else {
            self.diags.push(Diagnostic::error(
                self.span_of(start, end),
                "expected the function's `@name(` in this `define`",
            ));
            self.opaque_item(start, end);
            return;
        };
        let Some(Tok::Global(name)) = self.tok(name_at) else {
            return;
        };
        // Past the parameter list, the first `{` outside brackets opens the body.
        let mut depth = 0i64;
        let mut params_end = None;
        for i in name_at + 1..end {
            match self.toks[i].tok {
                Tok::LParen => depth += 1,
                Tok::RParen => {
                    depth -= 1;
                    if depth == 0 {
                        params_end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let brace = params_end.and_then(|pe| {
            let mut d = 0i64;
            (pe + 1..end).find(|&i| {
                match self.toks[i].tok {
                    Tok::LParen | Tok::LBracket => d += 1,
                    Tok::RParen | Tok::RBracket => d -= 1,
                    Tok::LBrace if d == 0 => return true,
                    _ => {}
                }
                false
            })
        });
        let (Some(params_end), Some(brace)) = (params_end, brace) else {
            self.diags.push(Diagnostic::error(
                self.toks[end - 1].span,
                "expected `{` starting the function body at the end of the `define` line",
            ));
            self.opaque_item(start, end);
            return;
        };
        let dbg = (params_end..brace).find_map(|i| match (self.tok(i), self.tok(i + 1)) {
            (Some(Tok::MetaName(a)), Some(Tok::MetaId(n))) if a == "dbg" => Some(*n),
            _ => None,
        });
        let index = self.m.functions.len();
        let span = self.span_of(start, brace + 1);
        let f = FnBuilder::new(
            name.clone(),
            Some(self.text_of(start, brace)),
            dbg,
            index,
            span,
        );
        self.m.functions.push(f.func.clone());
        self.m.items.push(Item::Function(index));
        self.func = Some(f);
        // A body written on the header line: `define void @f() { ret void }`.
        if brace + 1 < end {
            let mut d = 0i64;
            let close = (brace + 1..end).find(|&i| {
                match self.toks[i].tok {
                    Tok::LBrace => d += 1,
                    Tok::RBrace if d == 0 => return true,
                    Tok::RBrace => d -= 1,
                    _ => {}
                }
                false
            });
            // The rest of the line reads as a line of the body would.
            let Some(c) = close else {
                self.function_line(brace + 1, end);
                return;
            };
            if c > brace + 1 {
                if let Some(l) = self.is_label(brace + 1, c) {
                    let span = self.span_of(brace + 1, c);
                    if let Some(f) = self.func.as_mut() {
                        f.label(l, span);
                    }
                } else {
                    self.body_inst(brace + 1, c);
                }
            }
            if c + 1 < end {
                self.diags.push(Diagnostic::error(
                    self.toks[c + 1].span,
                    "unexpected text after the function's `}`",
                ));
            }
            if let Some(f) = self.func.take() {
                self.finish(f);
            }
        }
    }

    fn function_line(&mut self, start: usize, end: usize) {
        self.pos = end;
        if self.toks[start].tok == Tok::RBrace {
            if start + 1 < end {
                self.diags.push(Diagnostic::error(
                    self.toks[start + 1].span,
                    "unexpected text after the function's `}`",
                ));
            }
            if let Some(f) = self.func.take() {
                self.finish(f);
            }
            return;
        }
        if let Some(l) = self.is_label(start, end) {
            let span = self.span_of(start, end);
            if let Some(f) = self.func.as_mut() {
                f.label(l, span);
            }
            return;
        }
        let e = self.extend(start, end, true);
        self.pos = e;
        self.body_inst(start, e);
    }

    fn body_inst(&mut self, start: usize, end: usize) {
        let inst = self.parse_inst(start, end);
        let span = *inst.span;
        if let Some(f) = self.func.as_mut() {
            f.push(inst);
        }
        self.count_inst(span);
    }

    // ------------------------------------------------------ instructions

    fn parse_inst(&mut self, start: usize, end: usize) -> Inst {
        let span = self.span_of(start, end);
        let text = self.text_of(start, end);
        let toks = &self.toks[start..end];
        let mut i = 0;
        if toks.len() >= 2
            && matches!(toks[0].tok, Tok::Local(_) | Tok::Dollar(_))
            && toks[1].tok == Tok::Eq
        {
            i = 2;
        }
        let result: PResult<InstKind> = match toks.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(w))
                if matches!(w.as_str(), "call" | "tail" | "musttail" | "notail") =>
            {
                let callee = toks[i..]
                    .iter()
                    .position(|t| matches!(t.tok, Tok::Global(_)))
                    .map(|j| i + j);
                match callee.map(|j| (j, &toks[j].tok)) {
                    Some((j, Tok::Global(name)))
                        if DBG_CALLS.contains(&name.as_str())
                            && toks.get(j + 1).map(|t| &t.tok) == Some(&Tok::LParen) =>
                    {
                        self.dbg_call(name, start, start + j, end)
                    }
                    _ => Ok(InstKind::Opaque),
                }
            }
            Some(Tok::Hash(w))
                if matches!(w.as_str(), "dbg_value" | "dbg_declare" | "dbg_assign") =>
            {
                self.dbg_record(w, start + i, end)
            }
            Some(Tok::Ident(w)) if w == "DBG_DEF" || w == "DBG_KILL" => {
                self.mir(w == "DBG_DEF", start + i, end)
            }
            Some(Tok::Ident(w))
                if matches!(
                    w.as_str(),
                    "br" | "switch"
                        | "indirectbr"
                        | "invoke"
                        | "callbr"
                        | "catchswitch"
                        | "catchret"
                        | "cleanupret"
                ) =>
            {
                let targets = toks
                    .windows(2)
                    .filter_map(|w| match (&w[0].tok, &w[1].tok) {
                        (Tok::Ident(l), Tok::Local(n)) if l == "label" => Some(n.clone()),
                        _ => None,
                    })
                    .collect();
                Ok(InstKind::Branch { targets })
            }
            Some(Tok::Ident(w))
                if matches!(
                    w.as_str(),
                    "ret"
                        | "unreachable"
                        | "resume"
                        | "return"
                        | "RETURN"
                        | "SI_RETURN"
                        | "S_ENDPGM"
                ) =>
            {
                Ok(InstKind::Exit)
            }
            _ => Ok(InstKind::Opaque),
        };
        let kind = result.unwrap_or_else(|d| {
            self.diags.push(d);
            InstKind::Opaque
        });
        Inst {
            kind,
            text,
            span: Pos(span),
        }
    }

    /// The text after `after` (the last operand read) to the end of the line
    /// ending before token `end`: what diopter keeps as written, e.g. `, !dbg !7`.
    fn trailer(&self, after: Span, end: usize) -> String {
        let line_end = self.span_of(0, end).end;
        self.text
            .get(after.end..line_end.max(after.end))
            .unwrap_or("")
            .to_string()
    }

    /// `call void @llvm.dbg.X(metadata ..., ...)`.
    fn dbg_call(
        &mut self,
        name: &str,
        start: usize,
        callee: usize,
        end: usize,
    ) -> PResult<InstKind> {
        let line = self.span_of(start, end);
        let mut p = Parser::new(&self.toks[callee + 1..end], line.end);
        let text = self.text;
        let diags = &mut self.diags;
        p.expect(&Tok::LParen, "`(`")?;
        let short = name.trim_start_matches("llvm.");
        let kind = match short {
            "dbg.def" | "dbg.kill" => {
                expect_metadata(&mut p, &format!("the DILifetime argument of llvm.{short}"))?;
                let lifetime = expect_lifetime(&mut p, &format!("llvm.{short}"))?;
                if short == "dbg.def" {
                    p.expect(&Tok::Comma, "`,` and the referrer argument of llvm.dbg.def")?;
                    expect_metadata(&mut p, "the referrer argument of llvm.dbg.def")?;
                    let referrer = operand(&mut p, text, true)?;
                    (lifetime, Some(referrer))
                } else {
                    (lifetime, None)
                }
            }
            _ => {
                let record = call_record(&mut p, text, diags, short)?;
                let close = p.expect(&Tok::RParen, "`)` closing the call's arguments")?;
                let form = Form::Call {
                    prefix: text[line.start..self.toks[callee].span.end].to_string(),
                    trailer: self.trailer(close, end),
                };
                return Ok(InstKind::DbgRecord(Box::new(DbgRecord { form, ..record })));
            }
        };
        let close = p.expect(&Tok::RParen, "`)` closing the call's arguments")?;
        let form = Form::Call {
            prefix: text[line.start..self.toks[callee].span.end].to_string(),
            trailer: self.trailer(close, end),
        };
        Ok(match kind {
            (lifetime, Some(referrer)) => InstKind::DbgDef {
                lifetime,
                referrer,
                form,
            },
            (lifetime, None) => InstKind::DbgKill { lifetime, form },
        })
    }

    /// `#dbg_value(LOCATION, !var, EXPR, !loc)` and its kin.
    fn dbg_record(&mut self, name: &str, at: usize, end: usize) -> PResult<InstKind> {
        let line_end = self.span_of(at, end).end;
        let mut p = Parser::new(&self.toks[at + 1..end], line_end);
        let text = self.text;
        let diags = &mut self.diags;
        p.expect(&Tok::LParen, &format!("`(` after `#{name}`"))?;
        let kind = match name {
            "dbg_value" => RecordKind::Value,
            "dbg_declare" => RecordKind::Declare,
            _ => RecordKind::Assign,
        };
        let loc = location(&mut p, text, diags)?;
        p.expect(&Tok::Comma, "`,` and the variable")?;
        let variable = md_value(&mut p, text, diags, 0)?;
        p.expect(&Tok::Comma, "`,` and the expression")?;
        let expr = md_value(&mut p, text, diags, 0)?;
        let assign = if kind == RecordKind::Assign {
            p.expect(&Tok::Comma, "`,` and the DIAssignID")?;
            let id = md_value(&mut p, text, diags, 0)?;
            p.expect(&Tok::Comma, "`,` and the address")?;
            let address = location(&mut p, text, diags)?;
            p.expect(&Tok::Comma, "`,` and the address expression")?;
            let address_expr = md_value(&mut p, text, diags, 0)?;
            Some(AssignParts {
                id,
                address,
                address_expr,
            })
        } else {
            None
        };
        let dbg_loc = if p.eat(&Tok::Comma) {
            Some(md_value(&mut p, text, diags, 0)?)
        } else {
            None
        };
        let close = p.expect(&Tok::RParen, &format!("`)` closing `#{name}`"))?;
        // A record is the whole line: text after it is a typo, not a
        // trailer to keep (a call's `, !dbg !7` is; a record has none).
        if !p.at_end() {
            return Err(p.error_here(&format!("the end of the line after `#{name}(...)`")));
        }
        Ok(InstKind::DbgRecord(Box::new(DbgRecord {
            kind,
            form: Form::Record {
                trailer: self.trailer(close, end),
            },
            location: loc,
            variable,
            expr,
            assign,
            dbg_loc,
        })))
    }

    /// MIR `DBG_DEF !L, VALUE` and `DBG_KILL !L`.
    fn mir(&mut self, def: bool, at: usize, end: usize) -> PResult<InstKind> {
        let line_end = self.span_of(at, end).end;
        let mut p = Parser::new(&self.toks[at + 1..end], line_end);
        let what = if def { "DBG_DEF" } else { "DBG_KILL" };
        p.eat_ident("metadata");
        let lifetime = expect_lifetime(&mut p, what)?;
        if def {
            p.expect(&Tok::Comma, "`,` and the referrer of DBG_DEF")?;
            let referrer = operand(&mut p, self.text, false)?;
            let trailer = self.trailer(p.prev_span(), end);
            Ok(InstKind::DbgDef {
                lifetime,
                referrer,
                form: Form::Mir { trailer },
            })
        } else {
            let trailer = self.trailer(p.prev_span(), end);
            Ok(InstKind::DbgKill {
                lifetime,
                form: Form::Mir { trailer },
            })
        }
    }
}

/// Splits the text after `@name =` into the body and the `!dbg`,
/// `!dbg.default` and `!dbg.def` attachments (and whether they follow a comma).
fn global_parts(text: &str, toks: &[Token]) -> (String, Vec<(String, u64)>, bool) {
    let mut removed: Vec<(usize, usize)> = Vec::new();
    let mut attachments = Vec::new();
    let mut comma = false;
    let mut k = 0;
    while k + 1 < toks.len() {
        if let (Tok::MetaName(a), Tok::MetaId(id)) = (&toks[k].tok, &toks[k + 1].tok) {
            if matches!(a.as_str(), "dbg" | "dbg.default" | "dbg.def") {
                let with_comma = k > 0 && toks[k - 1].tok == Tok::Comma;
                if attachments.is_empty() {
                    comma = with_comma;
                }
                removed.push((if with_comma { k - 1 } else { k }, k + 2));
                attachments.push((a.clone(), *id));
                k += 2;
                continue;
            }
        }
        k += 1;
    }
    let mut body = String::new();
    let mut a = 0;
    for &(from, to) in removed
        .iter()
        .chain(std::iter::once(&(toks.len(), toks.len())))
    {
        if from > a {
            if !body.is_empty() && toks[a].tok != Tok::Comma {
                body.push(' ');
            }
            body.push_str(&text[toks[a].span.start..toks[from - 1].span.end]);
        }
        a = to;
    }
    (body, attachments, comma)
}

// ------------------------------------------------------- operand helpers

fn expect_metadata(p: &mut Parser, what: &str) -> PResult<()> {
    if p.eat_ident("metadata") {
        Ok(())
    } else {
        Err(p.error_here(&format!("`metadata` before {what}")))
    }
}

fn expect_lifetime(p: &mut Parser, what: &str) -> PResult<u64> {
    match p.peek() {
        Some(Tok::MetaId(n)) => {
            let n = *n;
            p.bump();
            Ok(n)
        }
        _ => Err(p.error_here(&format!(
            "`!N` naming a DILifetime (the first argument of {what})"
        ))),
    }
}

/// The operands of `llvm.dbg.value`/`declare`/`assign` after the `(`.
fn call_record(
    p: &mut Parser,
    text: &str,
    diags: &mut Vec<Diagnostic>,
    short: &str,
) -> PResult<DbgRecord> {
    let kind = match short {
        "dbg.value" => RecordKind::Value,
        "dbg.declare" => RecordKind::Declare,
        _ => RecordKind::Assign,
    };
    expect_metadata(p, &format!("the location argument of llvm.{short}"))?;
    let loc = location(p, text, diags)?;
    p.expect(&Tok::Comma, "`,` and the variable argument")?;
    expect_metadata(p, &format!("the variable argument of llvm.{short}"))?;
    let variable = md_value(p, text, diags, 0)?;
    p.expect(&Tok::Comma, "`,` and the expression argument")?;
    expect_metadata(p, &format!("the expression argument of llvm.{short}"))?;
    let expr = md_value(p, text, diags, 0)?;
    let assign = if kind == RecordKind::Assign {
        p.expect(&Tok::Comma, "`,` and the DIAssignID argument")?;
        expect_metadata(p, "the DIAssignID argument of llvm.dbg.assign")?;
        let id = md_value(p, text, diags, 0)?;
        p.expect(&Tok::Comma, "`,` and the address argument")?;
        expect_metadata(p, "the address argument of llvm.dbg.assign")?;
        let address = location(p, text, diags)?;
        p.expect(&Tok::Comma, "`,` and the address expression argument")?;
        expect_metadata(p, "the address expression argument of llvm.dbg.assign")?;
        let address_expr = md_value(p, text, diags, 0)?;
        Some(AssignParts {
            id,
            address,
            address_expr,
        })
    } else {
        None
    };
    Ok(DbgRecord {
        kind,
        form: Form::Record {
            trailer: String::new(),
        },
        location: loc,
        variable,
        expr,
        assign,
        dbg_loc: None,
    })
}

/// A debug record's location: `TYPE VALUE`, `!DIArgList(...)` or other metadata.
fn location(p: &mut Parser, text: &str, diags: &mut Vec<Diagnostic>) -> PResult<DbgLocation> {
    match p.peek() {
        Some(Tok::MetaName(n)) if n == "DIArgList" => {
            p.bump();
            p.expect(&Tok::LParen, "`(` after `!DIArgList`")?;
            let mut ops = Vec::new();
            if !p.eat(&Tok::RParen) {
                loop {
                    ops.push(operand(p, text, true)?);
                    if p.eat(&Tok::RParen) {
                        break;
                    }
                    p.expect(&Tok::Comma, "`,` or `)` in `!DIArgList`")?;
                }
            }
            Ok(DbgLocation::ArgList(ops))
        }
        Some(Tok::MetaId(_) | Tok::Bang | Tok::MetaName(_) | Tok::MetaString(_)) => {
            Ok(DbgLocation::Md(md_value(p, text, diags, 0)?))
        }
        _ => {
            p.peek();
            let save = p.pos;
            if let Err(mut d) = p.parse_type() {
                // A type diopter cannot model (`void (i32)*`): keep the
                // operand as written; the record is still read.
                p.pos = save;
                let v = raw(p, text)?;
                d.severity = Severity::Warning;
                d.message = format!("location operand `{v}` is kept as written: {}", d.message);
                diags.push(d);
                return Ok(DbgLocation::Md(MdValue::Raw(v)));
            }
            p.pos = save;
            Ok(DbgLocation::Value(operand(p, text, true)?))
        }
    }
}

/// `TYPE VALUE`, or just `VALUE` (MIR).
fn operand(p: &mut Parser, text: &str, typed: bool) -> PResult<Operand> {
    let s = p.span();
    let ty = if typed { Some(p.parse_type()?) } else { None };
    let value = value(p, text)?;
    Ok(Operand {
        ty,
        value,
        span: Pos(s.to(p.prev_span())),
    })
}

fn value(p: &mut Parser, text: &str) -> PResult<Value> {
    let v = match p.peek() {
        Some(Tok::Local(n)) => Value::Local(n.clone()),
        Some(Tok::Global(n)) => Value::Global(n.clone()),
        Some(Tok::Dollar(n)) => Value::Reg(n.clone()),
        Some(Tok::Ident(w)) if w == "undef" => Value::Undef,
        Some(Tok::Ident(w)) if w == "poison" => Value::Poison,
        None | Some(Tok::Comma | Tok::RParen | Tok::Newline) => return Err(p.error_here("a value")),
        _ => return Ok(Value::Const(raw(p, text)?)),
    };
    p.bump();
    Ok(v)
}

// ------------------------------------------------------------- metadata

/// The `k`-th token from the parser's position, newlines skipped as the parser does.
fn nth<'a>(p: &Parser<'a>, k: usize) -> Option<&'a Tok> {
    p.toks[p.pos.min(p.toks.len())..]
        .iter()
        .filter(|t| p.newlines || t.tok != Tok::Newline)
        .nth(k)
        .map(|t| &t.tok)
}

/// Whether the next token ends a value (without skipping a newline: at top
/// level the end of the line ends the value).
fn at_delimiter(p: &Parser) -> bool {
    matches!(
        p.toks.get(p.pos).map(|t| &t.tok),
        None | Some(Tok::Newline | Tok::Comma | Tok::RParen | Tok::RBrace | Tok::RBracket)
    )
}

/// Consumes a value diopter keeps as text: tokens up to a `,` or closing
/// bracket outside brackets, or the end of the line.
fn raw(p: &mut Parser, text: &str) -> PResult<String> {
    p.peek();
    let first = p.pos;
    let start = p.span();
    let mut depth = 0i64;
    let mut end = start.start;
    while let Some(t) = p.toks.get(p.pos) {
        match &t.tok {
            // Text the lexer could not read (an unterminated string) would
            // swallow what follows it once printed back.
            Tok::Error(msg) => return Err(Diagnostic::error(t.span, msg.clone())),
            // Kept text stays on its line: a bracket left open must not
            // swallow the entities on the lines after it.
            Tok::Newline if depth == 0 => break,
            Tok::Newline => {
                return Err(Diagnostic::error(
                    start,
                    "a bracket in this value is not closed on its line",
                ))
            }
            Tok::Comma | Tok::RParen | Tok::RBrace | Tok::RBracket | Tok::Gt if depth == 0 => break,
            Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::Lt => depth += 1,
            Tok::RParen | Tok::RBracket | Tok::RBrace | Tok::Gt => depth -= 1,
            _ => {}
        }
        if t.tok != Tok::Newline {
            end = t.span.end;
        }
        p.pos += 1;
    }
    if p.pos == first {
        return Err(p.error_here("a value"));
    }
    if depth > 0 {
        return Err(Diagnostic::error(
            start,
            "a bracket in this value is never closed",
        ));
    }
    Ok(text[start.start..end].to_string())
}

/// Whether the token at `i` starts a line that starts a top-level entity.
fn entity_line_at(toks: &[Token], i: usize) -> bool {
    let tok = |k: usize| toks.get(k).map(|t| &t.tok);
    match (tok(i), tok(i + 1)) {
        (Some(Tok::MetaId(_) | Tok::MetaName(_) | Tok::Global(_)), Some(Tok::Eq)) => true,
        (Some(Tok::Ident(w)), _) => w == "define" || w == "declare",
        _ => false,
    }
}

/// Skips `(` ... matching `)`, but not into a line that starts a top-level entity.
fn skip_parens(p: &mut Parser) -> PResult<()> {
    let open = p.span();
    p.expect(&Tok::LParen, "`(`")?;
    let mut depth = 1;
    while let Some(t) = p.toks.get(p.pos) {
        p.pos += 1;
        if t.tok == Tok::Newline {
            let next = (p.pos..p.toks.len()).find(|&k| p.toks[k].tok != Tok::Newline);
            if next.is_some_and(|k| entity_line_at(p.toks, k)) {
                break;
            }
            continue;
        }
        match t.tok {
            Tok::LParen => depth += 1,
            Tok::RParen => {
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            }
            _ => {}
        }
    }
    Err(Diagnostic::error(open, "this `(` is never closed"))
}

/// One metadata value. Soft errors (an expression that does not parse) go to
/// `diags` and the value is kept as text; structural errors are returned.
pub fn md_value(
    p: &mut Parser,
    text: &str,
    diags: &mut Vec<Diagnostic>,
    depth: usize,
) -> PResult<MdValue> {
    if depth > MAX_MD_DEPTH {
        return Err(Diagnostic::error(
            p.span(),
            format!("metadata nests more than {MAX_MD_DEPTH} levels deep (diopter's limit)"),
        ));
    }
    p.peek();
    let first = p.pos;
    let v = match p.peek() {
        None => return Err(p.error_here("a metadata value")),
        Some(Tok::MetaId(n)) => MdValue::Ref(*n),
        Some(Tok::MetaString(s)) => MdValue::MdString(s.clone()),
        Some(Tok::Str(s)) => MdValue::Str(s.clone()),
        Some(Tok::Int(s) | Tok::Float(s)) => MdValue::Num(s.clone()),
        Some(Tok::Ellipsis) => MdValue::Ellipsis,
        Some(Tok::Ident(w)) => {
            let w = w.clone();
            p.bump();
            // Not `peek`: it would step over the end of a top-level line.
            if p.toks.get(p.pos).map(|t| &t.tok) == Some(&Tok::Pipe) {
                let mut flags = vec![w];
                while p.eat(&Tok::Pipe) {
                    match p.peek() {
                        Some(Tok::Ident(f)) => {
                            flags.push(f.clone());
                            p.bump();
                        }
                        _ => return Err(p.error_here("a flag after `|`")),
                    }
                }
                return finish_value(p, text, first, MdValue::Flags(flags));
            }
            return finish_value(p, text, first, MdValue::Ident(w));
        }
        Some(Tok::Bang) if p.peek2() == Some(&Tok::LBrace) => {
            p.bump();
            p.bump();
            let items = md_list(
                p,
                text,
                diags,
                &Tok::RBrace,
                "`,` or `}` in the tuple",
                depth,
            )?;
            return finish_value(p, text, first, MdValue::Tuple(items));
        }
        Some(Tok::LBrace) => {
            p.bump();
            let items = md_list(
                p,
                text,
                diags,
                &Tok::RBrace,
                "`,` or `}` in the list",
                depth,
            )?;
            return finish_value(p, text, first, MdValue::Braces(items));
        }
        Some(Tok::MetaName(_)) if p.peek2() == Some(&Tok::LParen) => {
            let v = md_node(p, text, diags, depth)?;
            return finish_value(p, text, first, v);
        }
        Some(Tok::Error(_)) => return Err(p.error_here("a metadata value")),
        _ => return Ok(MdValue::Raw(raw(p, text)?)),
    };
    p.bump();
    finish_value(p, text, first, v)
}

/// A value must be followed by a delimiter; otherwise it is one of the many
/// forms diopter keeps as text (`i32 2`, `ptr @f`), read again as such.
fn finish_value(p: &mut Parser, text: &str, first: usize, v: MdValue) -> PResult<MdValue> {
    if at_delimiter(p) {
        return Ok(v);
    }
    p.pos = first;
    Ok(MdValue::Raw(raw(p, text)?))
}

fn md_list(
    p: &mut Parser,
    text: &str,
    diags: &mut Vec<Diagnostic>,
    close: &Tok,
    what: &str,
    depth: usize,
) -> PResult<Vec<MdValue>> {
    let mut v = Vec::new();
    if p.eat(close) {
        return Ok(v);
    }
    loop {
        v.push(md_value(p, text, diags, depth + 1)?);
        if p.eat(close) {
            return Ok(v);
        }
        p.expect(&Tok::Comma, what)?;
    }
}

/// `!Name(...)`: a DIOp expression, or a node with fields.
fn md_node(
    p: &mut Parser,
    text: &str,
    diags: &mut Vec<Diagnostic>,
    depth: usize,
) -> PResult<MdValue> {
    let start = p.span();
    let Some(Tok::MetaName(name)) = p.peek() else {
        return Err(p.error_here("a metadata node"));
    };
    let name = name.clone();
    let diops = name == "DIExpr"
        || (name == "DIExpression"
            && matches!(nth(p, 2), Some(Tok::Ident(w)) if w.starts_with("DIOp")));
    if diops {
        let save = p.pos;
        match p.parse_wrapped_expr() {
            Ok(e) => return Ok(MdValue::Expr(e)),
            Err(d) => {
                // Keep the expression as text; the rest of the node still reads.
                diags.push(d);
                p.pos = save;
                p.bump();
                skip_parens(p)?;
                return Ok(MdValue::Raw(
                    text[start.start..p.prev_span().end].to_string(),
                ));
            }
        }
    }
    p.bump();
    p.expect(&Tok::LParen, "`(`")?;
    let mut fields = Vec::new();
    if !p.eat(&Tok::RParen) {
        loop {
            let fs = p.span();
            let key = match (p.peek(), p.peek2()) {
                (Some(Tok::Ident(k)), Some(Tok::Colon)) => {
                    let k = k.clone();
                    p.bump();
                    p.bump();
                    Some(k)
                }
                _ => None,
            };
            let value = md_value(p, text, diags, depth + 1)?;
            fields.push(Field {
                key,
                value,
                span: Pos(fs.to(p.prev_span())),
            });
            if p.eat(&Tok::RParen) {
                break;
            }
            p.expect(&Tok::Comma, &format!("`,` or `)` in `!{name}(...)`"))?;
        }
    }
    let span = start.to(p.prev_span());
    // The spec names variables positionally: `!DILocalVariable("x", ...)`.
    let named = fields.iter().any(|f| f.key.as_deref() == Some("name"));
    if (name == "DILocalVariable" || name == "DIGlobalVariable") && !named {
        if let Some(f) = fields.first_mut() {
            if f.key.is_none() && matches!(f.value, MdValue::Str(_) | MdValue::MdString(_)) {
                f.key = Some("name".into());
            }
        }
    }
    Ok(MdValue::Node(Box::new(Node {
        name,
        fields,
        raw: text[span.start..span.end].to_string(),
        span: Pos(span),
    })))
}

/// Shape checks of the fields of the nodes diopter interprets, at parse time
/// (which kinds the references point to is for [`crate::lifetimes`]).
fn validate(id: u64, v: &MdValue, diags: &mut Vec<Diagnostic>) {
    let MdValue::Node(n) = v else { return };
    match n.name.as_str() {
        "DILifetime" => {
            for f in &n.fields {
                let ok = match f.key.as_deref() {
                    Some("object") => matches!(f.value, MdValue::Ref(_)),
                    Some("location") => matches!(
                        f.value,
                        MdValue::Ref(_) | MdValue::Expr(_) | MdValue::Raw(_)
                    ),
                    Some("argObjects") => match &f.value {
                        MdValue::Ref(_) => true,
                        MdValue::Tuple(vs) | MdValue::Braces(vs) => {
                            vs.iter().all(|v| matches!(v, MdValue::Ref(_)))
                        }
                        _ => false,
                    },
                    Some(k) => {
                        diags.push(Diagnostic::error(
                            *f.span,
                            format!("DILifetime !{id} has an unknown field `{k}` (its fields are `object`, `location` and `argObjects`)"),
                        ));
                        continue;
                    }
                    None => {
                        diags.push(Diagnostic::error(
                            *f.span,
                            format!("DILifetime !{id} has a positional field; write `object:`, `location:` or `argObjects:`"),
                        ));
                        continue;
                    }
                };
                if !ok {
                    let want = match f.key.as_deref() {
                        Some("object") => "a reference `!N` to a DIObject",
                        Some("location") => "a `!DIExpr(...)` or a reference `!N` to one",
                        _ => "a tuple of references `{!a, !b}`",
                    };
                    diags.push(Diagnostic::error(
                        *f.span,
                        format!(
                            "`{}` of DILifetime !{id} must be {want}",
                            f.key.as_deref().unwrap_or("")
                        ),
                    ));
                }
            }
            let mut keys: Vec<&str> = n.fields.iter().filter_map(|f| f.key.as_deref()).collect();
            keys.sort_unstable();
            if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
                diags.push(Diagnostic::error(
                    *n.span,
                    format!("DILifetime !{id} has the field `{}` twice", w[0]),
                ));
            }
        }
        "DIFragment" => {
            if let Some(f) = n.fields.first() {
                diags.push(Diagnostic::error(
                    *f.span,
                    format!("DIFragment !{id} takes no fields"),
                ));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Dialect, Op};
    use crate::diag::Source;
    use crate::syntax::module_print::print_module;
    use crate::types::Type;

    fn parse(s: &str) -> (Module, Vec<Diagnostic>) {
        parse_module(s)
    }

    fn errors(s: &str) -> Vec<String> {
        let src = Source::new("t.ll", s);
        parse(s)
            .1
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| src.render(d))
            .collect()
    }

    /// `line:col` of a diagnostic.
    fn at(s: &str, d: &Diagnostic) -> (usize, usize) {
        Source::new("t.ll", s).line_col(d.span.start)
    }

    fn insts(m: &Module) -> Vec<&Inst> {
        m.insts().map(|(_, i)| i).collect()
    }

    #[test]
    fn spec_pseudo_ir_goes_into_the_implicit_function() {
        let s = "%x = i64 ...\ncall void @llvm.dbg.def(metadata !2, metadata i64 %x)\n...\ncall void @llvm.dbg.kill(metadata !2)\n\n!1 = !DILocalVariable(\"x\", ...)\n!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64)))\n";
        let (m, ds) = parse(s);
        assert!(ds.is_empty(), "{ds:?}");
        assert_eq!(m.functions.len(), 1);
        let f = &m.functions[0];
        assert!(f.implicit);
        assert_eq!(f.name, IMPLICIT_FUNCTION);
        assert_eq!(f.blocks.len(), 1);
        let i = &f.blocks[0].insts;
        assert_eq!(i.len(), 4);
        assert_eq!(i[0].kind, InstKind::Opaque);
        assert_eq!(i[0].text, "%x = i64 ...");
        match &i[1].kind {
            InstKind::DbgDef {
                lifetime: 2,
                referrer,
                ..
            } => {
                assert_eq!(referrer.ty, Some(Type::Int(64)));
                assert_eq!(referrer.value, Value::Local("x".into()));
            }
            k => panic!("{k:?}"),
        }
        assert!(matches!(i[3].kind, InstKind::DbgKill { lifetime: 2, .. }));
        // Positional name, literal `...`.
        let MdValue::Node(n) = &m.metadata[&1].value else {
            panic!()
        };
        assert_eq!(n.fields[0].key.as_deref(), Some("name"));
        assert_eq!(n.fields[1].value, MdValue::Ellipsis);
        assert_eq!(
            m.kind(1),
            Some(MdKind::LocalVariable {
                name: Some("x"),
                ty: None
            })
        );
        let l = m.lifetime(2).unwrap();
        assert_eq!(l.object, Some(1));
        assert_eq!(l.arg_objects, None);
        let e = m.lifetime_expr(2).unwrap();
        assert_eq!(e.dialect, Dialect::DiExpr);
        assert_eq!(
            e.ops().cloned().collect::<Vec<_>>(),
            vec![Op::Referrer(Type::Int(64))]
        );
        assert!(m.metadata[&2].distinct);
        assert_eq!(m.items.len(), 6, "{:?}", m.items);
        assert_eq!(
            m.items[1],
            Item::TopLevel {
                block: 0,
                inst: Some(1)
            }
        );
    }

    #[test]
    fn missing_metadata_keyword_points_at_the_argument() {
        // The spec's Induction Variable example, as printed.
        let s =
            "call void @llvm.dbg.def(metadata !4, i64 %y)\ncall void @llvm.dbg.kill(metadata !4)\n";
        let (m, ds) = parse(s);
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert_eq!(at(s, &ds[0]), (1, 38));
        assert!(
            ds[0].message.contains(
                "expected `metadata` before the referrer argument of llvm.dbg.def, found `i64`"
            ),
            "{}",
            ds[0].message
        );
        // The line is kept as written and the next one is read.
        let i = insts(&m);
        assert_eq!(i[0].kind, InstKind::Opaque);
        assert!(matches!(i[1].kind, InstKind::DbgKill { lifetime: 4, .. }));
        assert_eq!(print_module(&m), s);
    }

    #[test]
    fn swapped_def_arguments_are_diagnosed() {
        // The spec's CSE example prints the lifetime second.
        let s = "define void @f(i32* %bar) {\nentry:\n  call void @llvm.dbg.def(metadata i32* %bar, metadata !19), !dbg !19\n  ret void\n}\n";
        let (_, ds) = parse(s);
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert_eq!(at(s, &ds[0]), (3, 36));
        assert!(
            ds[0].message.contains("`!N` naming a DILifetime"),
            "{}",
            ds[0].message
        );
        let kill = "call void @llvm.dbg.kill(!2)\n";
        let (_, ds) = parse(kill);
        assert_eq!(at(kill, &ds[0]), (1, 26));
        let mir = "DBG_DEF !2 $r0\nDBG_KILL %x\n";
        let (_, ds) = parse(mir);
        assert_eq!(ds.len(), 2, "{ds:?}");
        assert_eq!(at(mir, &ds[0]), (1, 12));
        assert_eq!(at(mir, &ds[1]), (2, 10));
    }

    #[test]
    fn a_bad_expression_keeps_its_node_and_the_rest_of_the_file() {
        let s = "!1 = !DILocalVariable(\"x\", ...)\n!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpConstant(i64 ...)))\n!3 = !DIExpr(DIOpAdd())\n";
        let (m, ds) = parse(s);
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert!(ds[0].message.contains("placeholder"), "{}", ds[0].message);
        assert_eq!(at(s, &ds[0]), (2, 74));
        let l = m.lifetime(2).unwrap();
        assert_eq!(
            l.location,
            Some(&MdValue::Raw("!DIExpr(DIOpConstant(i64 ...))".into()))
        );
        assert!(matches!(m.kind(3), Some(MdKind::Expr(_))));
    }

    #[test]
    fn multi_line_nodes_and_recovery_after_a_broken_one() {
        let s = "!0 = !DILocalVariable(name: \"var\")\n!1 = distinct !DILifetime(object: !0\n  location: !DIExpr(DIOpReferrer(i32)))\n!2 = distinct !DILifetime(object: !0,\n  ; comment\n  location: !DIExpr(DIOpReferrer(i32)))\n!3 = distinct !DIFragment()\n";
        let (m, ds) = parse(s);
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert_eq!(at(s, &ds[0]), (3, 3));
        assert!(
            ds[0]
                .message
                .contains("expected `,` or `)` in `!DILifetime(...)`"),
            "{}",
            ds[0].message
        );
        assert!(!m.metadata.contains_key(&1));
        assert!(m.lifetime(2).is_some());
        assert_eq!(m.kind(3), Some(MdKind::Fragment));
        // The broken node is kept as written.
        let p = print_module(&m);
        assert!(
            p.contains("!1 = distinct !DILifetime(object: !0\n  location:"),
            "{p}"
        );
        assert!(
            p.contains(
                "!2 = distinct !DILifetime(object: !0, location: !DIExpr(DIOpReferrer(i32)))\n"
            ),
            "{p}"
        );
    }

    #[test]
    fn duplicate_metadata_ids_keep_the_first() {
        let s = "!21 = distinct !DIFragment()\n!21 = !DILocalVariable(name: \"x\")\n";
        let (m, ds) = parse(s);
        assert_eq!(ds.len(), 1);
        assert_eq!(at(s, &ds[0]), (2, 1));
        assert_eq!(m.kind(21), Some(MdKind::Fragment));
    }

    #[test]
    fn blocks_successors_and_multi_line_switch() {
        let s = "define i32 @f(i32 %n) {\nentry:\n  br i1 %c, label %a, label %5\na:\n  switch i32 %n, label %5 [\n    i32 0, label %a\n    i32 1, label %\"quoted name\"\n  ]\n\"quoted name\":\n  %x = add i32 1, 2\n5:\n  ret i32 0\n}\n";
        let (m, ds) = parse(s);
        assert!(ds.is_empty(), "{ds:?}");
        let f = &m.functions[0];
        assert!(!f.implicit);
        let labels: Vec<_> = f.blocks.iter().map(|b| b.label.clone().unwrap()).collect();
        assert_eq!(labels, ["entry", "a", "quoted name", "5"]);
        let succs: Vec<_> = f.blocks.iter().map(|b| b.succs.clone()).collect();
        assert_eq!(succs, vec![vec![1, 3], vec![3, 1, 2], vec![3], vec![]]);
        assert!(f.blocks[1].insts[0]
            .text
            .contains("i32 1, label %\"quoted name\"\n  ]"));
        let p = print_module(&m);
        assert!(p.contains("\n\"quoted name\":\n"), "{p}");
    }

    #[test]
    fn implicit_function_falls_through_and_splits_after_terminators() {
        let s = "DBG_DEF !2, $r0\nRETURN\nDBG_KILL !2\nbb:\nDBG_KILL !2\n";
        let (m, ds) = parse(s);
        assert!(ds.is_empty(), "{ds:?}");
        let f = &m.functions[0];
        assert_eq!(f.blocks.len(), 3);
        assert_eq!(f.blocks[0].succs, Vec::<usize>::new());
        assert_eq!(f.blocks[1].label, None);
        assert_eq!(f.blocks[1].succs, vec![2]);
        assert_eq!(f.blocks[2].label.as_deref(), Some("bb"));
    }

    #[test]
    fn undefined_branch_targets_and_unclosed_functions() {
        let (_, ds) = parse("define void @f() {\nentry:\n  br label %nowhere\n");
        assert_eq!(ds.len(), 2, "{ds:?}");
        assert!(ds.iter().any(|d| d.message.contains("no closing `}`")));
        assert!(ds
            .iter()
            .any(|d| d.message.contains("`%nowhere`, which is not a label")));
        assert_eq!(errors("}\n").len(), 1);
    }

    #[test]
    fn define_headers() {
        let s = "define hidden spir_kernel void @k() addrspace(4) !dbg !11 !max_work_group_size !17 {\n  ret void\n}\ndefine { i32, i32 } @pair({ i32, i32 } %p) { ret { i32, i32 } %p }\ndefine void @g() {\n}\n";
        let (m, ds) = parse(s);
        assert!(ds.is_empty(), "{ds:?}");
        assert_eq!(m.functions.len(), 3);
        assert_eq!(m.functions[0].name, "k");
        assert_eq!(m.functions[0].dbg, Some(11));
        assert_eq!(m.functions[0].header.as_deref(), Some("define hidden spir_kernel void @k() addrspace(4) !dbg !11 !max_work_group_size !17"));
        assert_eq!(m.functions[1].name, "pair");
        assert_eq!(
            m.functions[1].blocks[0].insts[0].text,
            "ret { i32, i32 } %p"
        );
        assert!(m.functions[2].blocks.is_empty());
        let (_, ds) = parse("define void @f()\n");
        assert_eq!(ds.len(), 1, "{ds:?}");
    }

    #[test]
    fn globals_and_their_attachments() {
        let s = "@counter = hidden addrspace(1) externally_initialized global i32 0, align 4, !dbg !0, !type !5\n@g = i64 !dbg.default !2\n@h = global i32 6, !dbg.def !2\n";
        let (m, ds) = parse(s);
        assert!(ds.is_empty(), "{ds:?}");
        let g = &m.globals[0];
        assert_eq!(g.name, "counter");
        assert_eq!(
            g.body,
            "hidden addrspace(1) externally_initialized global i32 0, align 4, !type !5"
        );
        assert_eq!(g.attachments, vec![("dbg".to_string(), 0)]);
        assert!(g.comma);
        assert_eq!(g.address_space, Some(1));
        let g = &m.globals[1];
        assert_eq!(
            (g.body.as_str(), g.comma, g.address_space),
            ("i64", false, None)
        );
        assert_eq!(g.dbg_default().collect::<Vec<_>>(), vec![2]);
        assert_eq!(m.globals[2].address_space, Some(0));
        assert_eq!(
            print_module(&m),
            "@counter = hidden addrspace(1) externally_initialized global i32 0, align 4, !type !5, !dbg !0\n@g = i64 !dbg.default !2\n@h = global i32 6, !dbg.def !2\n"
        );
    }

    #[test]
    fn debug_records_and_intrinsics() {
        let s = "define void @f(ptr %a, i64 %b) {\n    #dbg_value(!DIArgList(ptr %a, i64 %b), !5, !DIExpression(DIOpArg(0, ptr), DIOpArg(1, i64), DIOpByteOffset(i8)), !9)\n    #dbg_value(ptr poison, !5, !DIExpression(), !9)\n    #dbg_declare(ptr %a, !5, !7, !9)\n    #dbg_assign(i32 0, !5, !DIExpression(DIOpArg(0, i32)), !10, ptr %a, !DIExpression(DIOpArg(0, ptr), DIOpDeref(i32)), !9)\n  tail call void @llvm.dbg.value(metadata !{}, metadata !5, metadata !DIExpression(DW_OP_LLVM_fragment, 0, 32)), !dbg !9\n  call void @llvm.dbg.value(metadata void (i32)* @cb, metadata !5, metadata !DIExpression()), !dbg !9\n  ret void\n}\n!7 = !DIExpression(DIOpArg(0, ptr), DIOpDeref(i64))\n";
        let (m, ds) = parse(s);
        let errs: Vec<_> = ds
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(ds.len(), 1, "one warning for `void (i32)*`: {ds:?}");
        let i = insts(&m);
        let rec = |k: usize| match &i[k].kind {
            InstKind::DbgRecord(r) => r.clone(),
            k => panic!("{k:?}"),
        };
        let r = rec(0);
        assert_eq!(r.kind, RecordKind::Value);
        let ops = r.location.operands();
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[1].ty, Some(Type::Int(64)));
        assert!(matches!(r.expr, MdValue::Expr(_)));
        assert_eq!(r.variable_id(), Some(5));
        assert_eq!(r.dbg_loc, Some(MdValue::Ref(9)));
        assert!(rec(1).location.operands()[0].is_poison());
        // A classic (empty) DIExpression is an opaque node.
        assert!(matches!(&rec(1).expr, MdValue::Node(n) if n.name == "DIExpression"));
        assert_eq!(rec(2).expr, MdValue::Ref(7));
        assert!(m.resolve_expr(&rec(2).expr).is_some());
        let a = rec(3);
        assert!(matches!(
            a.assign.as_ref().unwrap().address_expr,
            MdValue::Expr(_)
        ));
        let c = rec(4);
        assert!(
            matches!(&c.form, Form::Call { prefix, trailer } if prefix == "tail call void @llvm.dbg.value" && trailer == ", !dbg !9")
        );
        assert_eq!(c.location, DbgLocation::Md(MdValue::Tuple(vec![])));
        assert!(matches!(rec(5).location, DbgLocation::Md(MdValue::Raw(_))));
        let p = print_module(&m);
        assert!(p.contains("  #dbg_value(!DIArgList(ptr %a, i64 %b), !5, !DIExpression(DIOpArg(0, ptr), DIOpArg(1, i64), DIOpByteOffset(i8)), !9)\n"), "{p}");
        assert!(p.contains("  tail call void @llvm.dbg.value(metadata !{}, metadata !5, metadata !DIExpression(DW_OP_LLVM_fragment, 0, 32)), !dbg !9\n"), "{p}");
        assert!(p.contains("metadata void (i32)* @cb,"), "{p}");
    }

    #[test]
    fn metadata_values() {
        let s = "!llvm.module.flags = !{!0, !1}\n!0 = !{i32 7, !\"Dwarf Version\", i32 5}\n!1 = !{null}\n!2 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed, flags: DIFlagArtificial | DIFlagPrototyped)\n!3 = !DIGlobalVariableExpression(var: !4, expr: !DIExpression(DIOpArg(0, ptr addrspace(1)), DIOpDeref(i32)))\n!4 = distinct !DILifetime(object: !5, location: !DIExpr(), argObjects: {})\n!5 = !DICompositeType(tag: DW_TAG_array_type, elements: !{!DISubrange(count: 4, lowerBound: -1)}, dwoId: 0x1F)\n";
        let (m, ds) = parse(s);
        assert!(ds.is_empty(), "{ds:?}");
        assert_eq!(m.named_metadata[0].name, "llvm.module.flags");
        assert_eq!(
            m.named_metadata[0].items,
            vec![MdValue::Ref(0), MdValue::Ref(1)]
        );
        assert_eq!(
            m.metadata[&0].value,
            MdValue::Tuple(vec![
                MdValue::Raw("i32 7".into()),
                MdValue::MdString("Dwarf Version".into()),
                MdValue::Raw("i32 5".into())
            ])
        );
        assert_eq!(
            m.metadata[&1].value,
            MdValue::Tuple(vec![MdValue::Ident("null".into())])
        );
        let MdValue::Node(n) = &m.metadata[&2].value else {
            panic!()
        };
        assert_eq!(
            n.value("flags"),
            Some(&MdValue::Flags(vec![
                "DIFlagArtificial".into(),
                "DIFlagPrototyped".into()
            ]))
        );
        assert_eq!(m.kind(2), Some(MdKind::BasicType { size: Some(32) }));
        let MdValue::Node(n) = &m.metadata[&3].value else {
            panic!()
        };
        assert!(matches!(n.value("expr"), Some(MdValue::Expr(_))));
        let l = m.lifetime(4).unwrap();
        assert_eq!(l.arg_objects, Some(vec![]));
        assert_eq!(m.lifetime_expr(4).map(|e| e.ops.len()), Some(0));
        let MdValue::Node(n) = &m.metadata[&5].value else {
            panic!()
        };
        assert_eq!(n.value("dwoId"), Some(&MdValue::Num("0x1F".into())));
    }

    #[test]
    fn header_lines() {
        let s = "target datalayout = \"e-p:64:64-p5:32:32\"\ntarget triple = \"amdgcn-amd-amdhsa\"\n%t = type { i32, ptr }\n%o = type opaque\n%f = type { void ()* }\nsource_filename = \"x.c\"\n$c = comdat any\nattributes #0 = { nounwind\n  \"x\"=\"y\" }\n";
        let (m, ds) = parse(s);
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert_eq!(ds[0].severity, Severity::Warning);
        assert_eq!(m.datalayout.as_ref().unwrap().0.pointer_bits(5), 32);
        assert_eq!(m.triple.as_deref(), Some("amdgcn-amd-amdhsa"));
        assert!(m.types.named.contains_key("t"));
        assert_eq!(m.types.named.get("o"), Some(&None));
        assert_eq!(
            print_module(&m),
            "target datalayout = \"e-p:64:64-p5:32:32\"\ntarget triple = \"amdgcn-amd-amdhsa\"\n\n%t = type { i32, ptr }\n%o = type opaque\n\n%f = type { void ()* }\nsource_filename = \"x.c\"\n$c = comdat any\nattributes #0 = { nounwind\n  \"x\"=\"y\" }\n"
        );
        assert_eq!(
            errors("target datalayout = \"e\"\ntarget datalayout = \"E\"\n").len(),
            1
        );
        assert_eq!(errors("target datalayout = \"q\"\n").len(), 1);
    }

    #[test]
    fn nesting_and_resource_limits() {
        let deep = format!(
            "!0 = {}{}\n!1 = distinct !DIFragment()\n",
            "!{".repeat(200),
            "}".repeat(200)
        );
        let (m, ds) = parse(&deep);
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert!(ds[0].message.contains("nests more than 64"));
        assert_eq!(m.kind(1), Some(MdKind::Fragment));
        let lim = Limits { nodes: 3, insts: 2 };
        let (m, ds) = parse_module_with("!0 = !{}\n!1 = !{}\n!2 = !{}\n!3 = !{}\n!4 = !{}\n", lim);
        assert_eq!(ds.len(), 1);
        assert_eq!(m.metadata.len(), 3);
        let (m, ds) = parse_module_with("a\nb\nc\nd\n", lim);
        assert_eq!(ds.len(), 1);
        assert_eq!(m.insts().count(), 3);
    }

    #[test]
    fn text_after_a_debug_record_is_an_error() {
        let s = "define void @f(i32 %a) {\n  #dbg_value(i32 %a, !5, !DIExpression(DIOpArg(0, i32)), !9) junk\n  ret void\n}\n";
        let (_, d) = parse(s);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(
            d[0].message,
            "expected the end of the line after `#dbg_value(...)`, found `junk`"
        );
        assert_eq!(at(s, &d[0]), (2, 62));
        // A comment after the record is not text.
        let ok = "define void @f(i32 %a) {\n  #dbg_value(i32 %a, !5, !DIExpression(DIOpArg(0, i32)), !9) ; note\n  ret void\n}\n";
        assert!(parse(ok).1.is_empty(), "{:?}", parse(ok).1);
    }

    #[test]
    fn garbage_never_panics() {
        for s in [
            "!", "!1", "!1 =", "!1 = !", "!1 = !{", "!1 = !DIExpr(", "!1 = !DIExpr(DIOpArg(", "define", "define void @f(",
            "define void @f() {", "@", "@g =", "%t = type {", "#dbg_value(", "call void @llvm.dbg.def(", "call void @llvm.dbg.def(metadata",
            "DBG_DEF", "\"unterminated", "!1 = !{€}", "€", "!x = !{!1", "}\n}\n", "!1 = distinct", "!99999999999999999999999 = !{}",
            "!1 = !DILifetime(object: \"x\", location: !DIExpr(), argObjects: !{!1, \"y\"}, extra: 1, 3)",
            "!1 = !DIFragment(x: 1)\n!2 = !DILifetime(object: !1, object: !1, location: !DIExpr())",
        ] {
            let (m, _) = parse(s);
            let p = print_module(&m);
            let (m2, _) = parse(&p);
            assert_eq!(print_module(&m2), p, "{s:?}");
        }
    }

    #[test]
    fn lifetime_field_shapes_are_checked_at_parse_time() {
        let s = "!1 = distinct !DILifetime(object: \"x\", location: !DIExpr(), argObjects: !{!1, \"y\"}, extra: 1, 3)\n!2 = distinct !DIFragment(x: 1)\n";
        let (_, ds) = parse(s);
        let msgs: Vec<_> = ds.iter().map(|d| d.message.clone()).collect();
        assert_eq!(msgs.len(), 5, "{msgs:#?}");
        assert!(msgs[0].contains("`object` of DILifetime !1 must be a reference"));
        assert!(msgs[1].contains("`argObjects` of DILifetime !1 must be a tuple"));
        assert!(msgs[2].contains("unknown field `extra`"));
        assert!(msgs[3].contains("positional field"));
        assert!(msgs[4].contains("DIFragment !2 takes no fields"));
    }
}
