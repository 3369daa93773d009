//! The YAML that MIR files are written in, and no more: documents split by
//! `---`/`...`, block mappings and sequences, flow mappings and sequences on
//! a line (`- { id: 0, class: vgpr_32 }`), plain and quoted scalars, `#`
//! comments, and literal block scalars (`body: |`, `--- |`) whose text is
//! kept as a byte range of the file, so that what is read from it (the IR
//! module, a machine function's body) has diagnostics at the file's own
//! lines and columns.
//!
//! Anchors, aliases, tags, multi-line plain scalars and complex keys do not
//! occur in MIR; they are reported as errors with a caret rather than
//! guessed at.

use crate::ast::Span;
use crate::diag::Diagnostic;
use std::collections::HashSet;

/// Resource limit: how deeply flow and block collections may nest.
pub const MAX_YAML_DEPTH: usize = 64;

/// One YAML node, with the span of its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A plain or quoted scalar, quotes removed.
    Scalar(String, Span),
    /// A literal or folded block scalar: its content lines' byte range in the
    /// file (indentation included; what reads it skips indentation).
    Block(Span),
    Map(Vec<(String, Span, Node)>),
    Seq(Vec<Node>, Span),
}

impl Node {
    /// The value of `key` in a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(es) => es.iter().find(|(k, _, _)| k == key).map(|(_, _, v)| v),
            _ => None,
        }
    }
    pub fn scalar(&self) -> Option<&str> {
        match self {
            Node::Scalar(s, _) => Some(s),
            _ => None,
        }
    }
    pub fn span(&self) -> Span {
        match self {
            Node::Scalar(_, s) | Node::Block(s) | Node::Seq(_, s) => *s,
            Node::Map(es) => match (es.first(), es.last()) {
                (Some(a), Some(b)) => Span::new(a.1.start, b.2.span().end.max(b.1.end)),
                _ => Span::default(),
            },
        }
    }
}

/// One `---` document.
#[derive(Clone, Debug)]
pub struct Document {
    /// The `---` marker.
    pub marker: Span,
    /// `--- |`: the document is a block scalar (MIR's IR module).
    pub block: Option<Span>,
    /// Otherwise its content (a mapping for a machine function); `None` when empty.
    pub root: Option<Node>,
}

/// One line of the file.
#[derive(Clone, Copy, Debug)]
struct Line {
    /// Byte offset of the line's first character.
    start: usize,
    /// Byte offset of its end (before the newline).
    end: usize,
    /// Spaces before the content.
    indent: usize,
}

impl Line {
    fn content<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start + self.indent..self.end]
    }
    /// Blank or only a comment.
    fn is_blank(&self, text: &str) -> bool {
        let c = self.content(text);
        c.is_empty() || c.starts_with('#')
    }
}

/// Splits `text` into documents and reads each; never panics. Errors are
/// diagnostics; reading resumes at the next line it can make sense of.
pub fn parse_documents(text: &str) -> (Vec<Document>, Vec<Diagnostic>) {
    let mut lines = Vec::new();
    let mut at = 0;
    for l in text.split_inclusive('\n') {
        let body = l.trim_end_matches('\n').trim_end_matches('\r');
        let indent = body.len() - body.trim_start_matches(' ').len();
        lines.push(Line {
            start: at,
            end: at + body.len(),
            indent,
        });
        at += l.len();
    }
    let mut r = YamlReader {
        text,
        lines,
        i: 0,
        diags: Vec::new(),
    };
    let docs = r.documents();
    (docs, r.diags)
}

struct YamlReader<'t> {
    text: &'t str,
    lines: Vec<Line>,
    i: usize,
    diags: Vec<Diagnostic>,
}

fn is_marker(c: &str, m: &str) -> bool {
    c == m || c.starts_with(&format!("{m} ")) || c.starts_with(&format!("{m}\t"))
}

impl<'t> YamlReader<'t> {
    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn line_span(&self, l: &Line) -> Span {
        Span::new(l.start + l.indent, l.end.max(l.start + l.indent))
    }

    /// Whether line `i` is a document marker (`---` or `...` at column 0).
    fn at_marker(&self, i: usize) -> bool {
        let l = &self.lines[i];
        l.indent == 0 && {
            let c = l.content(self.text);
            is_marker(c, "---") || is_marker(c, "...")
        }
    }

    fn documents(&mut self) -> Vec<Document> {
        let mut docs = Vec::new();
        // Before the first `---`: comments (`# RUN: ...`) and blank lines.
        while self.i < self.lines.len() && !self.at_marker(self.i) {
            let l = self.lines[self.i];
            if !l.is_blank(self.text) && !self.tab_indent(&l) {
                self.err(
                    self.line_span(&l),
                    "expected `---` starting a YAML document (MIR files are YAML documents; only comments may come before the first)",
                );
                // One diagnostic is enough: skip to the first marker.
                while self.i < self.lines.len() && !self.at_marker(self.i) {
                    self.i += 1;
                }
                break;
            }
            self.i += 1;
        }
        while self.i < self.lines.len() {
            let l = self.lines[self.i];
            let c = l.content(self.text);
            if is_marker(c, "...") {
                self.i += 1;
                continue;
            }
            if !is_marker(c, "---") {
                // Only blank lines and comments can be here (after `...`).
                if !l.is_blank(self.text) {
                    self.err(
                        self.line_span(&l),
                        "expected `---` starting the next YAML document after `...`",
                    );
                }
                self.i += 1;
                continue;
            }
            let marker = Span::new(l.start, l.start + 3);
            let rest = c[3..].trim_start();
            let rest_at = l.end - c[3..].trim_start().len();
            self.i += 1;
            let end = (self.i..self.lines.len())
                .find(|&k| self.at_marker(k))
                .unwrap_or(self.lines.len());
            if rest.starts_with('|') || rest.starts_with('>') {
                self.indicator(rest, rest_at);
                let block = self.block_content(end, None);
                docs.push(Document {
                    marker,
                    block: Some(block),
                    root: None,
                });
            } else {
                if !rest.is_empty() && !rest.starts_with('#') {
                    self.err(
                        Span::new(rest_at, l.end),
                        "unexpected text after `---` (a document starts on the next line, or is a block scalar `--- |`)",
                    );
                }
                let root = self.node(end, 0, 0);
                docs.push(Document {
                    marker,
                    block: None,
                    root,
                });
            }
            // Anything left before the next marker could not be read.
            self.skip_blank(end);
            if self.i < end {
                let l = self.lines[self.i];
                self.err(
                    self.line_span(&l),
                    "this line does not belong to the YAML structure above it (check its indentation)",
                );
                self.i = end;
            }
        }
        docs
    }

    fn tab_indent(&mut self, l: &Line) -> bool {
        let after = &self.text[l.start + l.indent..l.end];
        if after.starts_with('\t') {
            self.err(
                Span::new(l.start + l.indent, l.start + l.indent + 1),
                "a tab in YAML indentation (indent with spaces)",
            );
            return true;
        }
        false
    }

    fn skip_blank(&mut self, end: usize) {
        while self.i < end && self.lines[self.i].is_blank(self.text) {
            self.i += 1;
        }
    }

    /// Checks a block scalar indicator (`|`, `|-`, `>+`, `|2`).
    fn indicator(&mut self, s: &str, at: usize) {
        let word = s.split_whitespace().next().unwrap_or("");
        let ok = word.len() <= 3
            && word[1..]
                .chars()
                .all(|c| c == '-' || c == '+' || c.is_ascii_digit());
        let rest = s[word.len()..].trim_start();
        if !ok || !(rest.is_empty() || rest.starts_with('#')) {
            self.err(
                Span::new(at, at + s.len()),
                "a block scalar indicator (`|`, `|-`, `|+`, `>`) must end its line",
            );
        }
    }

    /// The lines of a block scalar from line `self.i`: those indented more
    /// than `parent` (any when `None`), blank lines included; up to `end`.
    fn block_content(&mut self, end: usize, parent: Option<usize>) -> Span {
        let first = self.i;
        let mut last = None;
        while self.i < end {
            let l = self.lines[self.i];
            let blank = l.content(self.text).is_empty();
            if !blank && parent.is_some_and(|p| l.indent <= p) {
                break;
            }
            if !blank {
                last = Some(self.i);
            }
            self.i += 1;
        }
        // Trailing blank lines belong to what follows.
        if let Some(k) = last {
            self.i = k + 1;
            Span::new(self.lines[first].start, self.lines[k].end)
        } else {
            self.i = first;
            let at = self.lines.get(first).map_or(self.text.len(), |l| l.start);
            Span::new(at, at)
        }
    }

    /// A block node whose lines are indented at least `min`, up to line `end`.
    fn node(&mut self, end: usize, min: usize, depth: usize) -> Option<Node> {
        self.skip_blank(end);
        if self.i >= end {
            return None;
        }
        let l = self.lines[self.i];
        if self.tab_indent(&l) {
            self.i += 1;
            return self.node(end, min, depth);
        }
        if l.indent < min {
            return None;
        }
        if depth > MAX_YAML_DEPTH {
            self.err(
                self.line_span(&l),
                format!("YAML nests more than {MAX_YAML_DEPTH} levels deep (diopter's limit)"),
            );
            self.i = end;
            return None;
        }
        let c = l.content(self.text);
        if c == "-" || c.starts_with("- ") {
            Some(self.sequence(end, l.indent, depth))
        } else {
            Some(self.mapping(end, l.indent, depth))
        }
    }

    /// Where `key:` ends in `c` (the index of the colon), outside quotes and
    /// brackets; `None` when the line is not a `key: value` pair.
    fn key_colon(c: &str) -> Option<usize> {
        let b = c.as_bytes();
        if matches!(b.first(), Some(b'{' | b'[' | b'\'' | b'"')) {
            // A quoted key.
            if let Some(q @ (b'\'' | b'"')) = b.first().copied() {
                let close = c[1..].find(q as char)? + 1;
                return (b.get(close + 1) == Some(&b':')
                    && matches!(b.get(close + 2), None | Some(b' ')))
                .then_some(close + 1);
            }
            return None;
        }
        let mut k = 0;
        while k < b.len() {
            if b[k] == b':' && matches!(b.get(k + 1), None | Some(b' ')) {
                return Some(k);
            }
            if b[k] == b'#' && k > 0 && b[k - 1] == b' ' {
                return None;
            }
            k += 1;
        }
        None
    }

    fn mapping(&mut self, end: usize, indent: usize, depth: usize) -> Node {
        let mut entries: Vec<(String, Span, Node)> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        loop {
            self.skip_blank(end);
            if self.i >= end {
                break;
            }
            let l = self.lines[self.i];
            if self.tab_indent(&l) {
                self.i += 1;
                continue;
            }
            if l.indent != indent {
                if l.indent > indent {
                    self.err(
                        self.line_span(&l),
                        "this line is indented more than the mapping key before it; expected a `key: value` at the mapping's indentation",
                    );
                    self.i += 1;
                    continue;
                }
                break;
            }
            let c = l.content(self.text);
            if c == "-" || c.starts_with("- ") {
                break;
            }
            let at = l.start + l.indent;
            let Some(colon) = Self::key_colon(c) else {
                self.err(
                    self.line_span(&l),
                    "expected `key: value` (a YAML mapping entry); this line has no `:` after a key",
                );
                self.i += 1;
                continue;
            };
            let raw_key = &c[..colon];
            let key = unquote(raw_key.trim());
            let key_span = Span::new(at, at + colon);
            if !seen.insert(key.clone()) {
                self.err(
                    key_span,
                    format!("the key `{key}` appears twice in this mapping"),
                );
            }
            let value_text = &c[colon + 1..];
            let value_at = at + colon + 1 + (value_text.len() - value_text.trim_start().len());
            let value = self.value_after_key(
                value_text.trim_start(),
                value_at,
                end,
                indent,
                depth,
                key_span,
            );
            entries.push((key, key_span, value));
        }
        Node::Map(entries)
    }

    /// The value after `key:` (or `- `) on a line, read on and after it.
    fn value_after_key(
        &mut self,
        v: &str,
        v_at: usize,
        end: usize,
        indent: usize,
        depth: usize,
        key_span: Span,
    ) -> Node {
        let v = strip_comment(v);
        self.i += 1;
        if v.is_empty() {
            // The value is on the following lines: more indented, or a
            // sequence at the same indentation.
            let save = self.i;
            self.skip_blank(end);
            if self.i < end {
                let l = self.lines[self.i];
                let c = l.content(self.text);
                let seq_here = l.indent == indent && (c == "-" || c.starts_with("- "));
                if l.indent > indent || seq_here {
                    if let Some(n) = self.node(end, l.indent, depth + 1) {
                        return n;
                    }
                }
            }
            self.i = save;
            return Node::Scalar(String::new(), Span::new(key_span.end, key_span.end));
        }
        if v.starts_with('|') || v.starts_with('>') {
            self.indicator(v, v_at);
            return Node::Block(self.block_content(end, Some(indent)));
        }
        if v.starts_with('&') || v.starts_with('*') || v.starts_with('!') {
            self.err(
                Span::new(v_at, v_at + v.len()),
                "YAML anchors, aliases and tags do not occur in MIR",
            );
            return Node::Scalar(v.to_string(), Span::new(v_at, v_at + v.len()));
        }
        // A flow collection or scalar, possibly wrapped over lines while its
        // brackets are open.
        let mut text_end = v_at + v.len();
        if v.starts_with('{') || v.starts_with('[') {
            while bracket_depth(&self.text[v_at..text_end]) > 0 && self.i < end {
                let l = self.lines[self.i];
                if l.indent <= indent && !l.content(self.text).is_empty() {
                    break;
                }
                text_end = l.start + l.indent + strip_comment(l.content(self.text)).len();
                self.i += 1;
            }
        }
        let mut f = Flow {
            text: self.text,
            pos: v_at,
            end: text_end,
            diags: &mut self.diags,
            flow: 0,
        };
        let n = f.value(depth);
        f.skip_ws();
        if f.pos < f.end {
            let span = Span::new(f.pos, f.end);
            self.err(span, "unexpected text after the YAML value");
        }
        n
    }

    fn sequence(&mut self, end: usize, indent: usize, depth: usize) -> Node {
        let mut items = Vec::new();
        let start = self.lines[self.i].start + indent;
        let mut last_end = start;
        loop {
            self.skip_blank(end);
            if self.i >= end {
                break;
            }
            let l = self.lines[self.i];
            let c = l.content(self.text);
            if l.indent != indent || !(c == "-" || c.starts_with("- ")) {
                if l.indent > indent {
                    self.err(
                        self.line_span(&l),
                        "this line is indented more than the sequence item before it",
                    );
                    self.i += 1;
                    continue;
                }
                break;
            }
            let at = l.start + l.indent;
            let rest = c[1..].trim_start();
            let rest_at = l.end - rest.len();
            let item = if !rest.is_empty()
                && Self::key_colon(rest).is_some()
                && !rest.starts_with('{')
            {
                // `- key: value` starts a block mapping indented at the key.
                let inner = rest_at - l.start;
                self.mapping_at(end, inner, depth + 1)
            } else {
                self.value_after_key(rest, rest_at, end, indent, depth + 1, Span::new(at, at + 1))
            };
            last_end = item.span().end.max(at + 1);
            items.push(item);
        }
        Node::Seq(items, Span::new(start, last_end))
    }

    /// A mapping whose first key is mid-line (after `- `) at column `indent`.
    fn mapping_at(&mut self, end: usize, indent: usize, depth: usize) -> Node {
        // Pretend the first line is indented at the key: the rest of the
        // mapping is.
        let at = self.i;
        let saved = self.lines[at].indent;
        self.lines[at].indent = indent;
        let n = self.mapping(end, indent, depth);
        self.lines[at].indent = saved;
        n
    }
}

/// `#` starts a comment at the start or after a space, outside quotes.
fn strip_comment(s: &str) -> &str {
    let b = s.as_bytes();
    let mut quote = None;
    for (k, &c) in b.iter().enumerate() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'\'' || c == b'"' => quote = Some(c),
            None if c == b'#' && (k == 0 || b[k - 1] == b' ') => return s[..k].trim_end(),
            None => {}
        }
    }
    s.trim_end()
}

fn bracket_depth(s: &str) -> i64 {
    let mut d = 0;
    let mut quote = None;
    for c in s.bytes() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                b'\'' | b'"' => quote = Some(c),
                b'{' | b'[' => d += 1,
                b'}' | b']' => d -= 1,
                _ => {}
            },
        }
    }
    d
}

fn unquote(s: &str) -> String {
    if s.len() >= 2 && s.starts_with('\'') && s.ends_with('\'') {
        s[1..s.len() - 1].replace("''", "'")
    } else if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
        s[1..s.len() - 1].to_string()
    } else {
        s.to_string()
    }
}

/// A flow value: `{ k: v, ... }`, `[ a, ... ]` or a scalar.
struct Flow<'a, 't> {
    text: &'t str,
    pos: usize,
    end: usize,
    diags: &'a mut Vec<Diagnostic>,
    /// How many flow collections are open.
    flow: usize,
}

impl Flow<'_, '_> {
    fn peek(&self) -> Option<u8> {
        (self.pos < self.end).then(|| self.text.as_bytes()[self.pos])
    }
    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c == b' ' || c == b'\n' || c == b'\r' {
                self.pos += 1;
            } else if c == b'#'
                && (self.pos == 0 || matches!(self.text.as_bytes()[self.pos - 1], b' ' | b'\n'))
            {
                while self.peek().is_some_and(|c| c != b'\n') {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }
    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// The span of the character at `pos` (empty at the end).
    fn char_span(&self, pos: usize) -> Span {
        let len = self.text[pos..self.end.max(pos)]
            .chars()
            .next()
            .map_or(0, char::len_utf8);
        Span::new(pos, pos + len)
    }

    fn value(&mut self, depth: usize) -> Node {
        self.skip_ws();
        let start = self.pos;
        if depth > MAX_YAML_DEPTH {
            self.err(
                self.char_span(start),
                format!("YAML nests more than {MAX_YAML_DEPTH} levels deep (diopter's limit)"),
            );
            self.pos = self.end;
            return Node::Scalar(String::new(), Span::new(start, start));
        }
        match self.peek() {
            Some(b'{') => self.collection(b'}', depth, true),
            Some(b'[') => self.collection(b']', depth, false),
            Some(q @ (b'\'' | b'"')) => {
                self.pos += 1;
                let mut out = String::new();
                loop {
                    match self.peek() {
                        None | Some(b'\n') => {
                            self.err(
                                Span::new(start, start + 1),
                                "this quoted YAML string is never closed",
                            );
                            return Node::Scalar(out, Span::new(start, self.pos));
                        }
                        Some(c) if c == q => {
                            self.pos += 1;
                            if q == b'\'' && self.peek() == Some(b'\'') {
                                out.push('\'');
                                self.pos += 1;
                                continue;
                            }
                            return Node::Scalar(out, Span::new(start, self.pos));
                        }
                        Some(b'\\') if q == b'"' => {
                            self.pos += 1;
                            if let Some(c) = self.peek() {
                                out.push(c as char);
                                self.pos += 1;
                            }
                        }
                        Some(_) => {
                            let ch = self.text[self.pos..].chars().next().unwrap_or(' ');
                            out.push(ch);
                            self.pos += ch.len_utf8();
                        }
                    }
                }
            }
            _ => {
                // A plain scalar: up to a flow delimiter (inside a
                // collection) or a comment.
                while let Some(c) = self.peek() {
                    if (self.flow > 0 && matches!(c, b',' | b'}' | b']'))
                        || c == b'\n'
                        || (c == b'#'
                            && self.pos > start
                            && self.text.as_bytes()[self.pos - 1] == b' ')
                    {
                        break;
                    }
                    if c == b':'
                        && self.flow > 0
                        && matches!(self.text.as_bytes().get(self.pos + 1), Some(b' '))
                    {
                        break;
                    }
                    self.pos += self.text[self.pos..]
                        .chars()
                        .next()
                        .map_or(1, char::len_utf8);
                }
                let s = self.text[start..self.pos].trim_end();
                Node::Scalar(s.to_string(), Span::new(start, start + s.len()))
            }
        }
    }

    /// `{ k: v, ... }` (`map`) or `[ a, ... ]`, from its opening bracket.
    fn collection(&mut self, close: u8, depth: usize, map: bool) -> Node {
        let open = self.pos;
        self.pos += 1;
        self.flow += 1;
        let mut entries = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None => {
                    self.err(
                        Span::new(open, open + 1),
                        format!(
                            "this `{}` is never closed",
                            self.text.as_bytes()[open] as char
                        ),
                    );
                    break;
                }
                Some(c) if c == close => {
                    self.pos += 1;
                    break;
                }
                _ => {}
            }
            let before = self.pos;
            if map {
                let key = self.value(depth + 1);
                self.skip_ws();
                let (k, ks) = match &key {
                    Node::Scalar(s, sp) => (s.clone(), *sp),
                    n => {
                        self.err(n.span(), "a YAML mapping key must be a scalar");
                        (String::new(), n.span())
                    }
                };
                let value = if self.peek() == Some(b':') {
                    self.pos += 1;
                    self.value(depth + 1)
                } else {
                    self.err(
                        self.char_span(self.pos),
                        format!("expected `:` after the key `{k}` in this flow mapping"),
                    );
                    Node::Scalar(String::new(), Span::new(self.pos, self.pos))
                };
                if !seen.insert(k.clone()) {
                    self.err(ks, format!("the key `{k}` appears twice in this mapping"));
                }
                entries.push((k, ks, value));
            } else {
                items.push(self.value(depth + 1));
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(c) if c == close => {}
                None => {}
                Some(_) => {
                    self.err(
                        self.char_span(self.pos),
                        format!(
                            "expected `,` or `{}` in this flow collection",
                            close as char
                        ),
                    );
                    // Resynchronize at the next delimiter (ASCII: a character boundary).
                    while self.peek().is_some_and(|c| c != b',' && c != close) {
                        self.pos += 1;
                    }
                    if self.peek() == Some(b',') {
                        self.pos += 1;
                    }
                }
            }
            if self.pos == before {
                self.pos += self.char_span(self.pos).end.saturating_sub(self.pos).max(1);
            }
        }
        self.flow -= 1;
        if map {
            Node::Map(entries)
        } else {
            Node::Seq(items, Span::new(open, self.pos))
        }
    }
}
