//! Terms over constant holes (`rules::instance::Term`: preconditions and
//! computed constants) as Z3 bit-vectors, booleans being width 1.

use super::bv::{self, num};
use super::EncodeError;
use diopter_rules::instance::{BinOp, FloatTermOp, ResizeOp, Term, UnOp};
use diopter_semantics::value::FloatKind;
use z3::ast::BV;

fn unsupported<T>(m: impl Into<String>) -> Result<T, EncodeError> {
    Err(EncodeError::Unsupported(m.into()))
}

fn boolean(b: z3::ast::Bool) -> BV {
    b.ite(&bv::num_u(1, 1), &bv::num_u(0, 1))
}

fn kind_of(kind: &str) -> Result<FloatKind, EncodeError> {
    FloatKind::from_name(kind)
        .ok_or_else(|| EncodeError::Unsupported(format!("unknown float kind `{kind}` in a term")))
}

/// The value of `t`, with `hole(k)` giving constant hole `k`'s bits.
pub fn encode(t: &Term, hole: &dyn Fn(usize) -> Option<BV>) -> Result<BV, EncodeError> {
    let go = |t: &Term| encode(t, hole);
    Ok(match t {
        Term::Hole(k) => match hole(*k) {
            Some(v) => v,
            None => return unsupported(format!("a term names hole {k}, which is not a constant")),
        },
        Term::Lit { value, width } => {
            if *width == 0 {
                return unsupported("a zero-width literal in a term");
            }
            num(value, *width)
        }
        Term::Un(op, a) => {
            let a = go(a)?;
            match op {
                UnOp::Not => a.bvnot(),
                UnOp::Neg => a.bvneg(),
            }
        }
        Term::Bin(op, a, b) => {
            let (a, b) = (go(a)?, go(b)?);
            if a.get_size() != b.get_size() {
                return unsupported(format!(
                    "a term combines widths {} and {}",
                    a.get_size(),
                    b.get_size()
                ));
            }
            match op {
                BinOp::Add => a.bvadd(&b),
                BinOp::Sub => a.bvsub(&b),
                BinOp::Mul => a.bvmul(&b),
                BinOp::SDiv => a.bvsdiv(&b),
                BinOp::SRem => a.bvsrem(&b),
                BinOp::And => a.bvand(&b),
                BinOp::Or => a.bvor(&b),
                BinOp::Xor => a.bvxor(&b),
                BinOp::Shl => a.bvshl(&b),
                BinOp::LShr => a.bvlshr(&b),
                BinOp::AShr => a.bvashr(&b),
                BinOp::Eq => boolean(a.eq(&b)),
                BinOp::Ne => boolean(a.eq(&b).not()),
                BinOp::Ult => boolean(a.bvult(&b)),
                BinOp::Ule => boolean(a.bvule(&b)),
                BinOp::Slt => boolean(a.bvslt(&b)),
                BinOp::Sle => boolean(a.bvsle(&b)),
            }
        }
        Term::Resize(op, w, a) => {
            let a = go(a)?;
            if *w == 0 {
                return unsupported("a resize to zero bits");
            }
            match op {
                ResizeOp::Zext => bv::resize(&a, *w as u32, false),
                ResizeOp::Sext => bv::resize(&a, *w as u32, true),
                ResizeOp::Trunc => bv::resize(&a, *w as u32, false),
            }
        }
        Term::Ite(c, a, b) => {
            let (c, a, b) = (go(c)?, go(a)?, go(b)?);
            c.eq(bv::num_u(1, c.get_size() as u64)).ite(&a, &b)
        }
        Term::Float { op, kind, args } => {
            let k = kind_of(kind)?;
            let args: Vec<BV> = args.iter().map(go).collect::<Result<_, _>>()?;
            let arg = |i: usize| {
                args.get(i)
                    .cloned()
                    .ok_or_else(|| EncodeError::Unsupported("a float term lacks an operand".into()))
            };
            match op {
                FloatTermOp::Add | FloatTermOp::Sub | FloatTermOp::Mul | FloatTermOp::Div => {
                    let o = match op {
                        FloatTermOp::Add => bv::FpOp::Add,
                        FloatTermOp::Sub => bv::FpOp::Sub,
                        FloatTermOp::Mul => bv::FpOp::Mul,
                        _ => bv::FpOp::Div,
                    };
                    bv::float_bin(o, &arg(0)?, &arg(1)?, k)
                }
                FloatTermOp::FromSInt => bv::float_of_sint(&arg(0)?, k),
                FloatTermOp::ToSInt { width } => bv::float_to_sint(&arg(0)?, k, *width as u32).0,
                FloatTermOp::Convert { to } => {
                    let g = kind_of(to)?;
                    // Exact, NaN payloads included (as the encoding's
                    // DIOpConvert).
                    bv::float_convert(&arg(0)?, k, g)
                }
                FloatTermOp::IsNaN => boolean(bv::float_is_nan(&arg(0)?, k)),
                FloatTermOp::FitsSInt { width } => {
                    boolean(bv::float_to_sint(&arg(0)?, k, *width as u32).1)
                }
            }
        }
    })
}
