//! Recursive-descent parsing of types, literals and DIOp lists over the token
//! stream, shared by the one-line form and the IR reader.
//!
//! Written by hand rather than with pest because real `.ll` files are mostly
//! text diopter must skip (opaque instructions, attributes), and a hand-written
//! parser recovers at line boundaries with precise spans. The stack-effect
//! specification lines, a closed little language, are parsed with pest
//! (`specs.rs`).

use super::lexer::{Tok, Token};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::types::{Type, MAX_INT_WIDTH, MAX_TYPE_DEPTH};
use crate::value::{self, FloatKind};
use num_bigint::BigInt;

/// Resource limit: at most this many operations in one expression.
pub const MAX_OPS: usize = 1 << 21;

pub type PResult<T> = Result<T, Diagnostic>;

pub struct Parser<'a> {
    pub toks: &'a [Token],
    pub pos: usize,
    /// Whether `Newline` tokens are visible to `peek` (instruction bodies) or skipped.
    pub newlines: bool,
    /// End of input, for diagnostics at EOF.
    pub eof: Span,
}

impl<'a> Parser<'a> {
    pub fn new(toks: &'a [Token], eof: usize) -> Parser<'a> {
        Parser {
            toks,
            pos: 0,
            newlines: false,
            eof: Span::new(eof, eof),
        }
    }

    fn skip_nl(&mut self) {
        if !self.newlines {
            while matches!(
                self.toks.get(self.pos),
                Some(Token {
                    tok: Tok::Newline,
                    ..
                })
            ) {
                self.pos += 1;
            }
        }
    }

    pub fn peek(&mut self) -> Option<&'a Tok> {
        self.skip_nl();
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    /// The token after the next one (newlines skipped the same way).
    pub fn peek2(&mut self) -> Option<&'a Tok> {
        self.skip_nl();
        let mut p = self.pos + 1;
        if !self.newlines {
            while matches!(
                self.toks.get(p),
                Some(Token {
                    tok: Tok::Newline,
                    ..
                })
            ) {
                p += 1;
            }
        }
        self.toks.get(p).map(|t| &t.tok)
    }

    pub fn span(&mut self) -> Span {
        self.skip_nl();
        self.toks.get(self.pos).map_or(self.eof, |t| t.span)
    }

    /// Span of the last consumed token.
    pub fn prev_span(&self) -> Span {
        self.pos
            .checked_sub(1)
            .and_then(|p| self.toks.get(p))
            .map_or(self.eof, |t| t.span)
    }

    pub fn bump(&mut self) -> Option<&'a Token> {
        self.skip_nl();
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    pub fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    pub fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub fn eat_ident(&mut self, word: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Ident(w)) if w == word) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub fn error_here(&mut self, what: &str) -> Diagnostic {
        let span = self.span();
        let found = match self.peek() {
            None => "end of input".to_string(),
            Some(Tok::Error(msg)) => return Diagnostic::error(span, msg.clone()),
            Some(t) => describe(t),
        };
        Diagnostic::error(span, format!("expected {what}, found {found}"))
    }

    pub fn expect(&mut self, t: &Tok, what: &str) -> PResult<Span> {
        if self.eat(t) {
            Ok(self.prev_span())
        } else {
            Err(self.error_here(what))
        }
    }

    /// A non-negative integer that fits in `u64`.
    pub fn expect_u64(&mut self, what: &str) -> PResult<u64> {
        match self.peek() {
            Some(Tok::Int(s)) if !s.starts_with('-') => {
                let span = self.span();
                self.pos += 1;
                s.parse::<u64>()
                    .map_err(|_| Diagnostic::error(span, format!("{what} `{s}` is too large")))
            }
            _ => Err(self.error_here(what)),
        }
    }

    // ---------------------------------------------------------------- types

    pub fn parse_type(&mut self) -> PResult<Type> {
        self.parse_type_depth(0)
    }

    fn parse_type_depth(&mut self, depth: usize) -> PResult<Type> {
        if depth > MAX_TYPE_DEPTH {
            return Err(Diagnostic::error(
                self.span(),
                format!("type nests more than {MAX_TYPE_DEPTH} levels deep"),
            ));
        }
        let start = self.span();
        let mut t = match self.peek() {
            Some(Tok::Ident(w)) => {
                let w = w.clone();
                self.pos += 1;
                self.parse_named_base(&w, start, depth)?
            }
            Some(Tok::Local(n)) => {
                let n = n.clone();
                self.pos += 1;
                Type::Named(n)
            }
            Some(Tok::Lt) => {
                self.pos += 1;
                if self.peek() == Some(&Tok::LBrace) {
                    let t = self.parse_struct_body(depth, true)?;
                    self.expect(&Tok::Gt, "`>` closing the packed struct")?;
                    t
                } else {
                    let len = self.expect_u64("vector length")?;
                    if len == 0 {
                        return Err(Diagnostic::error(
                            self.prev_span(),
                            "a vector needs at least one element",
                        ));
                    }
                    if !self.eat_ident("x") {
                        return Err(self.error_here("`x` in `<N x T>`"));
                    }
                    let espan = self.span();
                    let elem = self.parse_type_depth(depth + 1)?;
                    // LLVM: "The elements of a vector are integer, floating-point or pointer values."
                    if !matches!(elem, Type::Int(_) | Type::Float(_) | Type::Ptr { .. }) {
                        return Err(Diagnostic::error(
                            espan.to(self.prev_span()),
                            format!("vector elements must be integers, floats or pointers, not `{elem}`"),
                        ));
                    }
                    self.expect(&Tok::Gt, "`>` closing the vector type")?;
                    Type::Vector {
                        len,
                        elem: Box::new(elem),
                    }
                }
            }
            Some(Tok::LBracket) => {
                self.pos += 1;
                let len = self.expect_u64("array length")?;
                if !self.eat_ident("x") {
                    return Err(self.error_here("`x` in `[N x T]`"));
                }
                let elem = self.parse_type_depth(depth + 1)?;
                self.expect(&Tok::RBracket, "`]` closing the array type")?;
                Type::Array {
                    len,
                    elem: Box::new(elem),
                }
            }
            Some(Tok::LBrace) => self.parse_struct_body(depth, false)?,
            _ => return Err(self.error_here("a type")),
        };
        // Typed-pointer suffixes: `T*`, `T addrspace(N)*`.
        let mut stars = 0;
        loop {
            if self.eat(&Tok::Star) {
                t = Type::typed_ptr(t, 0);
            } else if matches!(self.peek(), Some(Tok::Ident(w)) if w == "addrspace")
                && matches!(self.peek2(), Some(Tok::LParen))
            {
                let save = self.pos;
                self.pos += 1;
                let n = self.parse_addrspace_parens()?;
                if !self.eat(&Tok::Star) {
                    // `T addrspace(N)` without `*` is not a type suffix (it may be an
                    // alloca's address space): leave it for the caller.
                    self.pos = save;
                    break;
                }
                t = Type::typed_ptr(t, n);
            } else {
                break;
            }
            stars += 1;
            if stars > MAX_TYPE_DEPTH {
                return Err(Diagnostic::error(start, "too many levels of pointer"));
            }
        }
        Ok(t)
    }

    fn parse_addrspace_parens(&mut self) -> PResult<u32> {
        self.expect(&Tok::LParen, "`(` after `addrspace`")?;
        let n = self.expect_u64("address space number")?;
        let n = u32::try_from(n)
            .ok()
            .filter(|n| *n < (1 << 24))
            .ok_or_else(|| {
                Diagnostic::error(
                    self.prev_span(),
                    "address space number is too large (LLVM allows < 2^24)",
                )
            })?;
        self.expect(&Tok::RParen, "`)` after the address space")?;
        Ok(n)
    }

    fn parse_struct_body(&mut self, depth: usize, packed: bool) -> PResult<Type> {
        self.expect(&Tok::LBrace, "`{`")?;
        let mut fields = Vec::new();
        if !self.eat(&Tok::RBrace) {
            loop {
                fields.push(self.parse_type_depth(depth + 1)?);
                if self.eat(&Tok::RBrace) {
                    break;
                }
                self.expect(&Tok::Comma, "`,` or `}` in a struct type")?;
            }
        }
        Ok(Type::Struct { fields, packed })
    }

    fn parse_named_base(&mut self, w: &str, start: Span, depth: usize) -> PResult<Type> {
        Ok(match w {
            "half" => Type::float(FloatKind::Half),
            "bfloat" => Type::float(FloatKind::BFloat),
            "float" => Type::float(FloatKind::Float),
            "double" => Type::float(FloatKind::Double),
            "fp128" => Type::float(FloatKind::Fp128),
            "x86_fp80" => Type::float(FloatKind::X86Fp80),
            "ptr" => {
                let n = if matches!(self.peek(), Some(Tok::Ident(a)) if a == "addrspace") {
                    self.pos += 1;
                    self.parse_addrspace_parens()?
                } else {
                    0
                };
                Type::opaque_ptr(n)
            }
            "target" => self.parse_target_type(depth)?,
            _ if w.starts_with('i') && w.len() > 1 && w[1..].bytes().all(|c| c.is_ascii_digit()) => {
                let n: u64 = w[1..].parse().unwrap_or(u64::MAX);
                if n == 0 || n > MAX_INT_WIDTH {
                    return Err(Diagnostic::error(
                        start,
                        format!("integer width must be 1 to {MAX_INT_WIDTH} (2^23) bits, found `{w}`"),
                    ));
                }
                Type::Int(n)
            }
            "void" | "label" | "metadata" | "token" | "opaque" | "ppc_fp128" | "x86_amx" | "x86_mmx" => {
                return Err(Diagnostic::error(
                    start,
                    format!("`{w}` is not a type a debug expression can use (it has no size diopter models)"),
                ))
            }
            _ => return Err(Diagnostic::error(start, format!("expected a type, found `{w}`"))),
        })
    }

    fn parse_target_type(&mut self, depth: usize) -> PResult<Type> {
        self.expect(&Tok::LParen, "`(` after `target`")?;
        let name = match self.bump() {
            Some(Token {
                tok: Tok::Str(s), ..
            }) => s.clone(),
            _ => {
                return Err(Diagnostic::error(
                    self.prev_span(),
                    "expected the target type's name as a string",
                ))
            }
        };
        let mut types = Vec::new();
        let mut ints = Vec::new();
        while self.eat(&Tok::Comma) {
            if matches!(self.peek(), Some(Tok::Int(_))) {
                ints.push(self.expect_u64("integer parameter")?);
            } else if ints.is_empty() {
                types.push(self.parse_type_depth(depth + 1)?);
            } else {
                return Err(self.error_here("an integer parameter (types come before integers)"));
            }
        }
        self.expect(&Tok::RParen, "`)` closing the target type")?;
        Ok(Type::Target { name, types, ints })
    }

    // ------------------------------------------------------------- literals

    /// A literal of type `ty` as written after the type in `DIOpConstant(T lit)`.
    pub fn parse_literal(&mut self, ty: &Type) -> PResult<Literal> {
        self.parse_literal_depth(ty, 0)
    }

    fn parse_literal_depth(&mut self, ty: &Type, depth: usize) -> PResult<Literal> {
        if depth > MAX_TYPE_DEPTH {
            return Err(Diagnostic::error(self.span(), "literal nests too deeply"));
        }
        let span = self.span();
        match self.peek() {
            Some(Tok::Ident(w)) => {
                let lit = match w.as_str() {
                    "undef" => Literal::Undef,
                    "poison" => Literal::Poison,
                    "null" if ty.is_ptr() => Literal::Null,
                    "zeroinitializer" => Literal::ZeroInitializer,
                    "true" | "false" if *ty == Type::Int(1) => {
                        Literal::Int(BigInt::from((w == "true") as u8))
                    }
                    _ => {
                        return Err(Diagnostic::error(
                            span,
                            format!("`{w}` is not a literal of type `{ty}`"),
                        ))
                    }
                };
                self.pos += 1;
                Ok(lit)
            }
            Some(Tok::Int(s)) => {
                self.pos += 1;
                match ty {
                    Type::Int(w) => {
                        let v: BigInt = s
                            .parse()
                            .map_err(|_| Diagnostic::error(span, format!("bad integer literal `{s}`")))?;
                        check_int_fits(&v, *w).map_err(|e| Diagnostic::error(span, e.to_string()))?;
                        if diopter_faults::planted!("parse-int-literal-unsigned") && v.sign() == num_bigint::Sign::Minus {
                            return Ok(Literal::Int(v + (BigInt::from(1) << *w)));
                        }
                        Ok(Literal::Int(v))
                    }
                    Type::Float(_) => Err(Diagnostic::error(
                        span,
                        format!("floating-point constant `{s}` needs a decimal point or hex form (LLVM rejects `{ty} {s}`)"),
                    )),
                    _ => Err(Diagnostic::error(span, format!("integer literal for non-integer type `{ty}`"))),
                }
            }
            Some(Tok::Float(s)) => {
                self.pos += 1;
                match ty.float_kind() {
                    Some(k) => value::parse_float_literal(k, s)
                        .map(Literal::Float)
                        .map_err(|m| {
                            Diagnostic::error(span, format!("bad `{ty}` literal `{s}`: {m}"))
                        }),
                    None => Err(Diagnostic::error(
                        span,
                        format!("floating-point literal for non-float type `{ty}`"),
                    )),
                }
            }
            Some(Tok::Lt) => {
                let Type::Vector { len, elem } = ty else {
                    return Err(Diagnostic::error(
                        span,
                        format!("vector literal for non-vector type `{ty}`"),
                    ));
                };
                self.pos += 1;
                let elems = self.parse_elements(elem, &Tok::Gt, depth)?;
                if elems.len() as u64 != *len {
                    return Err(Diagnostic::error(
                        span.to(self.prev_span()),
                        format!(
                            "vector literal has {} elements, its type `{ty}` has {len}",
                            elems.len()
                        ),
                    ));
                }
                Ok(Literal::Vector(elems))
            }
            Some(Tok::LBracket) => {
                let Type::Array { len, elem } = ty else {
                    return Err(Diagnostic::error(
                        span,
                        format!("array literal for non-array type `{ty}`"),
                    ));
                };
                self.pos += 1;
                let elems = self.parse_elements(elem, &Tok::RBracket, depth)?;
                if elems.len() as u64 != *len {
                    return Err(Diagnostic::error(
                        span.to(self.prev_span()),
                        format!(
                            "array literal has {} elements, its type `{ty}` has {len}",
                            elems.len()
                        ),
                    ));
                }
                Ok(Literal::Array(elems))
            }
            Some(Tok::Ellipsis) => Err(Diagnostic::error(
                span,
                "`...` is a placeholder in the spec's examples, not a literal: write a value",
            )),
            _ => Err(self.error_here(&format!("a literal of type `{ty}`"))),
        }
    }

    fn parse_elements(
        &mut self,
        elem: &Type,
        close: &Tok,
        depth: usize,
    ) -> PResult<Vec<(Type, Literal)>> {
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            let tspan = self.span();
            let t = self.parse_type_depth(depth + 1)?;
            if t != *elem {
                return Err(Diagnostic::error(
                    tspan,
                    format!("element type `{t}` differs from `{elem}`"),
                ));
            }
            let l = self.parse_literal_depth(&t, depth + 1)?;
            out.push((t, l));
            if self.eat(close) {
                return Ok(out);
            }
            self.expect(&Tok::Comma, "`,` between elements")?;
        }
    }

    // ------------------------------------------------------------ operations

    /// A comma-separated list of DIOps up to (not including) `)` or end of input.
    pub fn parse_ops(&mut self) -> PResult<Vec<OpNode>> {
        let mut ops = Vec::new();
        if matches!(self.peek(), None | Some(Tok::RParen)) {
            return Ok(ops);
        }
        loop {
            if ops.len() >= MAX_OPS {
                return Err(Diagnostic::error(
                    self.span(),
                    format!("expression has more than {MAX_OPS} operations (diopter's limit)"),
                ));
            }
            ops.push(self.parse_op()?);
            if !self.eat(&Tok::Comma) {
                return Ok(ops);
            }
        }
    }

    pub fn parse_op(&mut self) -> PResult<OpNode> {
        let start = self.span();
        let name = match self.peek() {
            Some(Tok::Ident(w)) => w.clone(),
            _ => return Err(self.error_here("a DIOp operation")),
        };
        self.pos += 1;
        if !Op::NAMES.contains(&name.as_str()) {
            let mut d = Diagnostic::error(start, format!("unknown operation `{name}`"));
            if let Some(s) = Op::NAMES.iter().find(|n| n.eq_ignore_ascii_case(&name)) {
                d = d.note(format!(
                    "operation names are case-sensitive: did you mean `{s}`?"
                ));
            } else if name.starts_with("DW_OP") {
                d = d
                    .note("DW_OP operations belong to classic DIExpressions, not DIOp expressions");
            }
            return Err(d);
        }
        self.expect(&Tok::LParen, &format!("`(` after `{name}`"))?;
        let op = match name.as_str() {
            "DIOpReferrer" => Op::Referrer(self.parse_type()?),
            "DIOpArg" => {
                let n = self.expect_u64("argument index")?;
                self.expect(&Tok::Comma, "`,` after the argument index")?;
                Op::Arg(n, self.parse_type()?)
            }
            "DIOpTypeObject" => Op::TypeObject(self.parse_type()?),
            "DIOpConstant" => {
                let t = self.parse_type()?;
                // The seed prints no comma between type and literal; a stray one is tolerated? No:
                // LLVM's syntax has none, so a comma is an error that says so.
                if self.peek() == Some(&Tok::Comma) {
                    return Err(Diagnostic::error(self.span(), "no `,` between a constant's type and its literal (write `DIOpConstant(i32 0)`)"));
                }
                let l = self.parse_literal(&t)?;
                Op::Constant(t, l)
            }
            "DIOpConvert" => Op::Convert(self.parse_type()?),
            "DIOpReinterpret" => Op::Reinterpret(self.parse_type()?),
            "DIOpOffset" => Op::Offset,
            "DIOpBitOffset" => Op::BitOffset(self.parse_opt_type()?),
            "DIOpByteOffset" => Op::ByteOffset(self.parse_type()?),
            "DIOpComposite" => {
                let n = self.expect_u64("number of parts")?;
                self.expect(&Tok::Comma, "`,` after the number of parts")?;
                Op::Composite(n, self.parse_type()?)
            }
            "DIOpExtend" => Op::Extend(self.expect_u64("element count")?),
            "DIOpSelect" => Op::Select,
            "DIOpAddrOf" => {
                let n = self.expect_u64("address space")?;
                if n >= 1 << 24 {
                    return Err(Diagnostic::error(
                        self.prev_span(),
                        "address space number is too large (LLVM allows < 2^24)",
                    ));
                }
                Op::AddrOf(n)
            }
            "DIOpDeref" => Op::Deref(self.parse_opt_type()?),
            "DIOpRead" => Op::Read,
            "DIOpAdd" => Op::Add,
            "DIOpSub" => Op::Sub,
            "DIOpMul" => Op::Mul,
            "DIOpDiv" => Op::Div,
            "DIOpMod" => Op::Mod,
            "DIOpAnd" => Op::And,
            "DIOpOr" => Op::Or,
            "DIOpXor" => Op::Xor,
            "DIOpShr" => Op::Shr,
            "DIOpLShr" => Op::LShr,
            "DIOpAShr" => Op::AShr,
            "DIOpShl" => Op::Shl,
            "DIOpZExt" => Op::ZExt(self.parse_type()?),
            "DIOpSExt" => Op::SExt(self.parse_type()?),
            "DIOpPushLane" => Op::PushLane(self.parse_type()?),
            "DIOpFragment" => {
                let off = self.expect_u64("fragment bit offset")?;
                self.expect(&Tok::Comma, "`,` after the fragment offset")?;
                let size = self.expect_u64("fragment bit size")?;
                if diopter_faults::planted!("parse-fragment-swapped") {
                    Op::Fragment(size, off)
                } else {
                    Op::Fragment(off, size)
                }
            }
            _ => unreachable!("every name in Op::NAMES is handled"),
        };
        if self.peek() != Some(&Tok::RParen) {
            let what = if op.param_count() == 0 {
                format!("`)`: `{name}` takes no parameters here")
            } else {
                format!("`)` closing `{name}`")
            };
            return Err(self.error_here(&what));
        }
        self.pos += 1;
        Ok(OpNode {
            op,
            span: start.to(self.prev_span()),
        })
    }

    fn parse_opt_type(&mut self) -> PResult<Option<Type>> {
        if self.peek() == Some(&Tok::RParen) {
            Ok(None)
        } else {
            Ok(Some(self.parse_type()?))
        }
    }

    /// `!DIExpr(...)` or `!DIExpression(...)` whose contents are DIOps; the
    /// current token is the `!DIExpr`/`!DIExpression` name.
    pub fn parse_wrapped_expr(&mut self) -> PResult<Expr> {
        let start = self.span();
        let dialect = match self.peek() {
            Some(Tok::MetaName(n)) if n == "DIExpr" => Dialect::DiExpr,
            Some(Tok::MetaName(n)) if n == "DIExpression" => Dialect::DiExpression,
            _ => return Err(self.error_here("`!DIExpr(` or `!DIExpression(`")),
        };
        self.pos += 1;
        self.expect(&Tok::LParen, "`(`")?;
        let ops = self.parse_ops()?;
        self.expect(&Tok::RParen, "`,` or `)` in the expression")?;
        Ok(Expr {
            dialect,
            ops,
            span: start.to(self.prev_span()),
        })
    }
}

/// An integer literal too wide for its type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("integer literal {value} does not fit in i{width}")]
pub struct IntTooWide {
    pub value: BigInt,
    pub width: u64,
}

/// Integer literals may be written signed or unsigned: `i8 -1` and `i8 255` both fit.
pub fn check_int_fits(v: &BigInt, width: u64) -> Result<(), IntTooWide> {
    let bits = v.bits();
    let fits = if v.sign() == num_bigint::Sign::Minus {
        // -2^(w-1) <= v
        let m = -v - 1u8;
        m.bits() < width
    } else {
        bits <= width
    };
    if fits {
        Ok(())
    } else {
        Err(IntTooWide {
            value: v.clone(),
            width,
        })
    }
}

pub fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(w) => format!("`{w}`"),
        Tok::Local(n) => format!("`%{n}`"),
        Tok::Global(n) => format!("`@{n}`"),
        Tok::MetaId(n) => format!("`!{n}`"),
        Tok::MetaName(n) => format!("`!{n}`"),
        Tok::MetaString(s) => format!("`!\"{s}\"`"),
        Tok::Dollar(n) => format!("`${n}`"),
        Tok::Hash(n) => format!("`#{n}`"),
        Tok::Int(s) | Tok::Float(s) => format!("`{s}`"),
        Tok::Str(s) => format!("string \"{s}\""),
        Tok::LParen => "`(`".into(),
        Tok::RParen => "`)`".into(),
        Tok::LBracket => "`[`".into(),
        Tok::RBracket => "`]`".into(),
        Tok::LBrace => "`{`".into(),
        Tok::RBrace => "`}`".into(),
        Tok::Lt => "`<`".into(),
        Tok::Gt => "`>`".into(),
        Tok::Comma => "`,`".into(),
        Tok::Colon => "`:`".into(),
        Tok::Eq => "`=`".into(),
        Tok::Star => "`*`".into(),
        Tok::Bang => "`!`".into(),
        Tok::Ellipsis => "`...`".into(),
        Tok::Arrow => "`->`".into(),
        Tok::Pipe => "`|`".into(),
        Tok::Plus => "`+`".into(),
        Tok::Question => "`?`".into(),
        Tok::Minus => "`-`".into(),
        Tok::Newline => "end of line".into(),
        Tok::Error(m) => m.clone(),
    }
}
