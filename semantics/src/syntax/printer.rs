//! Printing expressions back to text in the dialect they were read in.
//! `parse(print(x)) == x` and `print(parse(print(x))) == print(x)` are tested
//! properties, so the printer emits only what the parser reads.

use crate::ast::*;
use crate::value;
use std::fmt::Write;

pub fn print_literal(ty: &crate::types::Type, l: &Literal) -> String {
    match l {
        Literal::Int(v) => v.to_string(),
        Literal::Float(bits) => match ty.float_kind() {
            Some(k) => value::format_float_literal(k, bits),
            None => "<float literal of non-float type>".into(),
        },
        Literal::Undef => "undef".into(),
        Literal::Poison => "poison".into(),
        Literal::Null => "null".into(),
        Literal::ZeroInitializer => "zeroinitializer".into(),
        Literal::Vector(es) | Literal::Array(es) => {
            let (open, close) = if matches!(l, Literal::Vector(_))
                && !diopter_faults::planted!("print-vector-as-array")
            {
                ("<", ">")
            } else {
                ("[", "]")
            };
            let inner: Vec<String> = es
                .iter()
                .map(|(t, e)| format!("{t} {}", print_literal(t, e)))
                .collect();
            format!("{open}{}{close}", inner.join(", "))
        }
    }
}

pub fn print_op(op: &Op) -> String {
    let name = op.name();
    match op {
        Op::Referrer(t)
        | Op::TypeObject(t)
        | Op::Convert(t)
        | Op::Reinterpret(t)
        | Op::BitOffset(Some(t))
        | Op::ByteOffset(t)
        | Op::Deref(Some(t))
        | Op::ZExt(t)
        | Op::SExt(t)
        | Op::PushLane(t) => format!("{name}({t})"),
        Op::Arg(n, t) => format!("{name}({n}, {t})"),
        Op::Constant(t, l) => format!("{name}({t} {})", print_literal(t, l)),
        Op::Composite(n, t) => format!("{name}({n}, {t})"),
        Op::Extend(n) | Op::AddrOf(n) => format!("{name}({n})"),
        Op::Fragment(o, s) => format!("{name}({o}, {s})"),
        _ => format!("{name}()"),
    }
}

/// The operations, comma-separated, as inside the parentheses of `!DIExpr(...)`.
pub fn print_ops(e: &Expr) -> String {
    let mut s = String::new();
    for (i, n) in e.ops.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&print_op(&n.op));
    }
    s
}

/// `!DIExpr(...)` or `!DIExpression(...)`.
pub fn print_expr(e: &Expr) -> String {
    format!("!{}({})", e.dialect.node_name(), print_ops(e))
}

/// The one-line form.
pub fn print_bare(b: &Bare) -> String {
    let mut s = String::new();
    if b.explicit_dialect || b.expr.dialect == Dialect::DiExpr {
        let _ = write!(s, "{} ", b.expr.dialect.keyword());
    }
    s.push('[');
    let mut items = Vec::new();
    match &b.args {
        None => items.push("?".to_string()),
        Some(args) => {
            for a in args {
                items.push(
                    if a.poison && !diopter_faults::planted!("print-poison-dropped") {
                        format!("{} poison", a.ty)
                    } else {
                        a.ty.to_string()
                    },
                );
            }
        }
    }
    if let Some((t, _)) = &b.referrer {
        items.push(format!("referrer: {t}"));
    }
    s.push_str(&items.join(", "));
    s.push(']');
    if let Some((t, _)) = &b.var_type {
        let _ = write!(s, " -> {t}");
    }
    s.push(' ');
    if b.wrapped {
        s.push_str(&print_expr(&b.expr));
    } else {
        s.push_str(&print_ops(&b.expr));
    }
    s.trim_end().to_string()
}

/// `%name` needs quotes when it has characters outside LLVM's unquoted set.
pub fn print_local_name(n: &str) -> String {
    let plain = !n.is_empty()
        && n.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b'-'))
        && !n.as_bytes()[0].is_ascii_digit()
        || (!n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()));
    if plain {
        n.to_string()
    } else {
        format!("\"{}\"", escape_string(n))
    }
}

/// LLVM string escaping: `\\` and `\XX` for quotes and non-printable bytes.
pub fn escape_string(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\22"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:02X}");
            }
        }
    }
    out
}
