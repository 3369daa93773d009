//! Tokens of LLVM-IR-like text: expressions, metadata, types and instructions.
//!
//! The lexer never fails: text it cannot read becomes an [`Tok::Error`] token that
//! the parser turns into a diagnostic at that position. Newlines are tokens,
//! because instruction bodies are line-oriented; expression parsing skips them.

use crate::ast::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// Bare word: keywords, type names (`i32`), operation names (`DIOpArg`).
    Ident(String),
    /// `%name`, `%0`, `%"quoted name"`.
    Local(String),
    /// `@name`.
    Global(String),
    /// `!12`.
    MetaId(u64),
    /// `!name`, `!DIExpr`, `!llvm.dbg.cu`, `!dbg.default`.
    MetaName(String),
    /// `!"text"`.
    MetaString(String),
    /// `$r0` (MIR registers).
    Dollar(String),
    /// `#dbg_value`, `#0`.
    Hash(String),
    /// Decimal integer, possibly negative, as written.
    Int(String),
    /// Decimal float (`1.0`, `-2.5e+00`) or hex float (`0x3FF0...`, `0xH3C00`), as written.
    Float(String),
    /// `"text"` with escapes resolved.
    Str(String),
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Lt,
    Gt,
    Comma,
    Colon,
    Eq,
    Star,
    /// `!` not followed by a name, number or string (as in `!{`).
    Bang,
    Ellipsis,
    Arrow,
    Pipe,
    Plus,
    /// `?` (unknown argument types in the one-line form).
    Question,
    Minus,
    Newline,
    /// Something the lexer could not read; the string says what.
    Error(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'.'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'$'
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'$' || c == b'-'
}

/// Splits `text[start..end]` into tokens; spans are offsets into `text`.
/// `;` starts a comment to the end of the line.
pub fn lex(text: &str, start: usize, end: usize) -> Vec<Token> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        let c = b[i];
        let s = i;
        let push = |out: &mut Vec<Token>, tok, e| {
            out.push(Token {
                tok,
                span: Span::new(s, e),
            })
        };
        match c {
            b'\n' => {
                push(&mut out, Tok::Newline, i + 1);
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b';' => {
                while i < end && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => {
                push(&mut out, Tok::LParen, i + 1);
                i += 1
            }
            b')' => {
                push(&mut out, Tok::RParen, i + 1);
                i += 1
            }
            b'[' => {
                push(&mut out, Tok::LBracket, i + 1);
                i += 1
            }
            b']' => {
                push(&mut out, Tok::RBracket, i + 1);
                i += 1
            }
            b'{' => {
                push(&mut out, Tok::LBrace, i + 1);
                i += 1
            }
            b'}' => {
                push(&mut out, Tok::RBrace, i + 1);
                i += 1
            }
            b'<' => {
                push(&mut out, Tok::Lt, i + 1);
                i += 1
            }
            b'>' => {
                push(&mut out, Tok::Gt, i + 1);
                i += 1
            }
            b',' => {
                push(&mut out, Tok::Comma, i + 1);
                i += 1
            }
            b':' => {
                push(&mut out, Tok::Colon, i + 1);
                i += 1
            }
            b'=' => {
                push(&mut out, Tok::Eq, i + 1);
                i += 1
            }
            b'*' => {
                push(&mut out, Tok::Star, i + 1);
                i += 1
            }
            b'|' => {
                push(&mut out, Tok::Pipe, i + 1);
                i += 1
            }
            b'+' => {
                push(&mut out, Tok::Plus, i + 1);
                i += 1
            }
            b'?' => {
                push(&mut out, Tok::Question, i + 1);
                i += 1
            }
            b'.' if b[i..end].starts_with(b"...") => {
                push(&mut out, Tok::Ellipsis, i + 3);
                i += 3
            }
            b'-' if i + 1 < end && b[i + 1] == b'>' => {
                push(&mut out, Tok::Arrow, i + 2);
                i += 2
            }
            b'-' if i + 1 < end && b[i + 1].is_ascii_digit() => {
                i = lex_number(text, i, end, &mut out);
            }
            b'-' => {
                push(&mut out, Tok::Minus, i + 1);
                i += 1
            }
            b'0'..=b'9' => {
                i = lex_number(text, i, end, &mut out);
            }
            b'"' => {
                let (tok, e) = lex_string(text, i + 1, end);
                push(&mut out, tok, e);
                i = e;
            }
            b'%' | b'@' | b'$' | b'#' => {
                let (name, e) = lex_name(text, i + 1, end);
                let tok = match (c, name) {
                    (_, Err(msg)) => Tok::Error(msg),
                    (b'%', Ok(n)) => Tok::Local(n),
                    (b'@', Ok(n)) => Tok::Global(n),
                    (b'$', Ok(n)) => Tok::Dollar(n),
                    (_, Ok(n)) => Tok::Hash(n),
                };
                push(&mut out, tok, e);
                i = e;
            }
            b'!' => {
                let j = i + 1;
                if j < end && b[j] == b'"' {
                    let (tok, e) = lex_string(text, j + 1, end);
                    let tok = match tok {
                        Tok::Str(s) => Tok::MetaString(s),
                        other => other,
                    };
                    push(&mut out, tok, e);
                    i = e;
                } else if j < end && b[j].is_ascii_digit() {
                    let mut e = j;
                    while e < end && b[e].is_ascii_digit() {
                        e += 1;
                    }
                    let tok = match text[j..e].parse::<u64>() {
                        Ok(n) => Tok::MetaId(n),
                        Err(_) => {
                            Tok::Error(format!("metadata number `{}` is too large", &text[j..e]))
                        }
                    };
                    push(&mut out, tok, e);
                    i = e;
                } else if j < end && (b[j].is_ascii_alphabetic() || b[j] == b'_' || b[j] == b'.') {
                    let mut e = j;
                    while e < end && is_name_char(b[e]) {
                        e += 1;
                    }
                    push(&mut out, Tok::MetaName(text[j..e].to_string()), e);
                    i = e;
                } else {
                    push(&mut out, Tok::Bang, j);
                    i = j;
                }
            }
            c if is_ident_start(c) => {
                let mut e = i + 1;
                while e < end && is_ident_char(b[e]) {
                    e += 1;
                }
                // A block label may hold `-` (`for.cond-split:`), as LLVM's
                // lexer reads a label before a keyword: a word of name
                // characters right before `:` is one token.
                let mut l = e;
                while l < end && is_name_char(b[l]) {
                    l += 1;
                }
                if l > e && l < end && b[l] == b':' {
                    e = l;
                }
                push(&mut out, Tok::Ident(text[i..e].to_string()), e);
                i = e;
            }
            _ => {
                // One whole character, so that spans stay on char boundaries.
                let ch = text[i..].chars().next().map_or(1, |c| c.len_utf8());
                let shown = &text[i..i + ch];
                push(
                    &mut out,
                    Tok::Error(format!("unexpected character `{shown}`")),
                    i + ch,
                );
                i += ch;
            }
        }
    }
    out
}

fn lex_number(text: &str, s: usize, end: usize, out: &mut Vec<Token>) -> usize {
    let b = text.as_bytes();
    let mut i = s;
    if b[i] == b'-' {
        i += 1;
    }
    // Hex floats: 0x, 0xH, 0xK, 0xL, 0xM, 0xR followed by hex digits.
    if b[i] == b'0' && i + 1 < end && b[i + 1] == b'x' {
        let mut e = i + 2;
        if e < end && matches!(b[e], b'H' | b'K' | b'L' | b'M' | b'R') {
            e += 1;
        }
        let digits = e;
        while e < end && b[e].is_ascii_hexdigit() {
            e += 1;
        }
        let tok = if e == digits {
            Tok::Error("hexadecimal literal without digits".into())
        } else {
            Tok::Float(text[s..e].to_string())
        };
        out.push(Token {
            tok,
            span: Span::new(s, e),
        });
        return e;
    }
    let mut e = i;
    while e < end && b[e].is_ascii_digit() {
        e += 1;
    }
    let mut is_float = false;
    if e < end && b[e] == b'.' && !(e + 2 < end && b[e + 1] == b'.' && b[e + 2] == b'.') {
        is_float = true;
        e += 1;
        while e < end && b[e].is_ascii_digit() {
            e += 1;
        }
    }
    if is_float && e < end && (b[e] == b'e' || b[e] == b'E') {
        let mut f = e + 1;
        if f < end && (b[f] == b'+' || b[f] == b'-') {
            f += 1;
        }
        if f < end && b[f].is_ascii_digit() {
            while f < end && b[f].is_ascii_digit() {
                f += 1;
            }
            e = f;
        }
    }
    let tok = if is_float {
        Tok::Float(text[s..e].to_string())
    } else {
        Tok::Int(text[s..e].to_string())
    };
    out.push(Token {
        tok,
        span: Span::new(s, e),
    });
    e
}

/// Reads a string body after the opening quote; LLVM escapes are `\\` and `\XX`.
fn lex_string(text: &str, start: usize, end: usize) -> (Tok, usize) {
    let b = text.as_bytes();
    let mut bytes = Vec::new();
    let mut i = start;
    while i < end {
        match b[i] {
            b'"' => {
                return (
                    Tok::Str(String::from_utf8_lossy(&bytes).into_owned()),
                    i + 1,
                );
            }
            b'\n' => break,
            b'\\' if i + 1 < end && b[i + 1] == b'\\' => {
                bytes.push(b'\\');
                i += 2;
            }
            b'\\'
                if i + 2 < end && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() =>
            {
                let v = u8::from_str_radix(&text[i + 1..i + 3], 16).unwrap_or(0);
                bytes.push(v);
                i += 3;
            }
            c => {
                bytes.push(c);
                i += 1;
            }
        }
    }
    (Tok::Error("unterminated string".into()), i)
}

fn lex_name(text: &str, start: usize, end: usize) -> (Result<String, String>, usize) {
    let b = text.as_bytes();
    if start < end && b[start] == b'"' {
        return match lex_string(text, start + 1, end) {
            (Tok::Str(s), e) => (Ok(s), e),
            (_, e) => (Err("unterminated quoted name".into()), e),
        };
    }
    let mut e = start;
    while e < end && is_name_char(b[e]) {
        e += 1;
    }
    if e == start {
        return (Err("a name must follow this sigil".into()), start);
    }
    (Ok(text[start..e].to_string()), e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s, 0, s.len()).into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn a_label_may_hold_a_dash_and_words_elsewhere_stop_at_it() {
        assert_eq!(
            toks("for.cond2thread-pre-split:"),
            vec![Tok::Ident("for.cond2thread-pre-split".into()), Tok::Colon]
        );
        // Not before a colon: the dash is its own token, as before.
        assert_eq!(toks("a-b")[0], Tok::Ident("a".into()));
    }

    #[test]
    fn expression_tokens() {
        assert_eq!(
            toks("DIOpArg(0, ptr addrspace(5)), DIOpConstant(i64 -1)"),
            vec![
                Tok::Ident("DIOpArg".into()),
                Tok::LParen,
                Tok::Int("0".into()),
                Tok::Comma,
                Tok::Ident("ptr".into()),
                Tok::Ident("addrspace".into()),
                Tok::LParen,
                Tok::Int("5".into()),
                Tok::RParen,
                Tok::RParen,
                Tok::Comma,
                Tok::Ident("DIOpConstant".into()),
                Tok::LParen,
                Tok::Ident("i64".into()),
                Tok::Int("-1".into()),
                Tok::RParen,
            ]
        );
    }

    #[test]
    fn metadata_and_sigils() {
        assert_eq!(
            toks("!2 = distinct !DILifetime(object: !1, argObjects: {!3})"),
            vec![
                Tok::MetaId(2),
                Tok::Eq,
                Tok::Ident("distinct".into()),
                Tok::MetaName("DILifetime".into()),
                Tok::LParen,
                Tok::Ident("object".into()),
                Tok::Colon,
                Tok::MetaId(1),
                Tok::Comma,
                Tok::Ident("argObjects".into()),
                Tok::Colon,
                Tok::LBrace,
                Tok::MetaId(3),
                Tok::RBrace,
                Tok::RParen,
            ]
        );
        assert_eq!(
            toks("%x.addr $r0 @g #dbg_value !\"s\" !{ ..."),
            vec![
                Tok::Local("x.addr".into()),
                Tok::Dollar("r0".into()),
                Tok::Global("g".into()),
                Tok::Hash("dbg_value".into()),
                Tok::MetaString("s".into()),
                Tok::Bang,
                Tok::LBrace,
                Tok::Ellipsis,
            ]
        );
    }

    #[test]
    fn numbers_and_floats() {
        assert_eq!(
            toks("1.000000e+00 0x3FF0000000000000 0xH3C00 2.0 -7"),
            vec![
                Tok::Float("1.000000e+00".into()),
                Tok::Float("0x3FF0000000000000".into()),
                Tok::Float("0xH3C00".into()),
                Tok::Float("2.0".into()),
                Tok::Int("-7".into()),
            ]
        );
    }

    #[test]
    fn garbage_becomes_error_tokens() {
        let t = toks("€ \"open");
        assert!(matches!(t[0], Tok::Error(_)));
        assert!(matches!(t[1], Tok::Error(_)));
    }
}
