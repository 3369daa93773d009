//! When a value the validator derives from the IR is poison (or the
//! instruction computing it is undefined behaviour), as preconditions over
//! the query's value holes.
//!
//! LLVM lets a pass replace a poison value by anything, and a program that
//! divides by zero never reaches the record. So a before-record whose value
//! is poison on some input constrains nothing there: the pair is decided
//! only where every instruction the before-value was derived through
//! (`derive` in `validate_ir`) yields a value, each condition one of
//! LangRef's poison or UB rules for the instruction's flags. The after
//! side's conditions are assumed too: the validator takes the pass's
//! rewrite of the program as correct (as it does for loads and calls it
//! left unchanged), and a flag the pass put on an instruction is a fact it
//! proved about every execution (correlated-propagation turning `sext` into
//! `zext nneg` where the operand is known non-negative); an input that
//! breaks it is one the program never sees. Whether the pass was right to
//! add the flag is a question about the program, not its debug records.
//!
//! A derivation is a DIOp sequence over the holes (`DIOpArg(k, T)`: hole
//! k); [`term`] reads the integer subset of it as a rules `Term`. An
//! operation outside that subset leaves the condition out: fewer
//! preconditions only make the check stricter (a refutation may then rest on
//! a poison input, never a proof on a missing one).

use diopter_rules::instance::{BinOp, ResizeOp, Term};
use diopter_semantics::ast::{Literal, Op, OpNode};
use diopter_semantics::types::Type;
use num_bigint::BigInt;

/// A term and its width in bits.
pub type SizedTerm = (Term, u64);

/// The integer DIOp sequence `ops` as a term, or `None` when it uses an
/// operation or type outside the subset.
pub fn term(ops: &[OpNode]) -> Option<SizedTerm> {
    let mut st: Vec<SizedTerm> = Vec::new();
    for n in ops {
        let t = match &n.op {
            Op::Arg(k, ty) => (Term::Hole(*k as usize), ty.int_width()?),
            Op::Constant(ty, Literal::Int(v)) => {
                let w = ty.int_width()?;
                (lit(v.clone(), w), w)
            }
            Op::ZExt(to) | Op::SExt(to) | Op::Convert(to) => {
                let (a, w) = st.pop()?;
                let to_w = to.int_width()?;
                let op = match &n.op {
                    Op::SExt(_) => ResizeOp::Sext,
                    Op::Convert(_) if to_w < w => ResizeOp::Trunc,
                    Op::Convert(_) if to_w == w => {
                        st.push((a, w));
                        continue;
                    }
                    _ => ResizeOp::Zext,
                };
                (Term::Resize(op, to_w, Box::new(a)), to_w)
            }
            op => {
                let b = match op {
                    Op::Add => BinOp::Add,
                    Op::Sub => BinOp::Sub,
                    Op::Mul => BinOp::Mul,
                    Op::Div => BinOp::SDiv,
                    Op::And => BinOp::And,
                    Op::Or => BinOp::Or,
                    Op::Xor => BinOp::Xor,
                    Op::Shl => BinOp::Shl,
                    Op::LShr => BinOp::LShr,
                    Op::AShr => BinOp::AShr,
                    _ => return None,
                };
                let (y, wy) = st.pop()?;
                let (x, wx) = st.pop()?;
                if wx != wy {
                    return None;
                }
                (bin(b, x, y), wx)
            }
        };
        st.push(t);
    }
    match (st.pop(), st.is_empty()) {
        (Some(t), true) => Some(t),
        _ => None,
    }
}

fn lit(v: BigInt, width: u64) -> Term {
    Term::Lit { value: v, width }
}

fn bin(op: BinOp, a: Term, b: Term) -> Term {
    Term::Bin(op, Box::new(a), Box::new(b))
}

fn resize(op: ResizeOp, w: u64, a: &Term) -> Term {
    Term::Resize(op, w, Box::new(a.clone()))
}

fn eq(a: Term, b: Term) -> Term {
    bin(BinOp::Eq, a, b)
}

/// The conditions under which `op [flags] T a, b` (a binary instruction;
/// `b` absent for a cast, then `to` is the cast's type) yields a value, over
/// the operands' terms of width `w`. Empty when the instruction always does.
pub fn conditions(
    op: &str,
    flags: &[String],
    a: &Term,
    b: Option<&Term>,
    w: u64,
    to: Option<&Type>,
) -> Vec<Term> {
    let has = |f: &str| flags.iter().any(|x| x == f);
    let zero = || lit(BigInt::from(0), w);
    let mut out = Vec::new();
    let Some(b) = b else {
        // Casts.
        match (op, to.and_then(|t| t.int_width())) {
            ("zext", _) if has("nneg") => out.push(bin(BinOp::Sle, zero(), a.clone())),
            ("trunc", Some(tw)) if tw < w => {
                let t = resize(ResizeOp::Trunc, tw, a);
                if has("nuw") {
                    out.push(eq(resize(ResizeOp::Zext, w, &t), a.clone()));
                }
                if has("nsw") {
                    out.push(eq(resize(ResizeOp::Sext, w, &t), a.clone()));
                }
            }
            _ => {}
        }
        return out;
    };
    let (a, b) = (a.clone(), b.clone());
    // The operation at width `k` > w on extended operands equals the
    // extended result: no wrap.
    let no_wrap = |bop: BinOp, ext: ResizeOp, k: u64| {
        eq(
            bin(bop, resize(ext, k, &a), resize(ext, k, &b)),
            resize(ext, k, &bin(bop, a.clone(), b.clone())),
        )
    };
    let int_min = lit(BigInt::from(1) << (w - 1), w);
    let minus_one = lit((BigInt::from(1) << w) - 1, w);
    match op {
        "add" | "sub" | "mul" => {
            let bop = match op {
                "add" => BinOp::Add,
                "sub" => BinOp::Sub,
                _ => BinOp::Mul,
            };
            let k = if op == "mul" { 2 * w } else { w + 1 };
            if has("nuw") {
                out.push(no_wrap(bop, ResizeOp::Zext, k));
            }
            if has("nsw") {
                out.push(no_wrap(bop, ResizeOp::Sext, k));
            }
        }
        "udiv" | "urem" | "sdiv" | "srem" => {
            // Division by zero is undefined behaviour: not reached.
            out.push(bin(BinOp::Ne, b.clone(), zero()));
            if op.starts_with('s') {
                out.push(Term::Un(
                    diopter_rules::instance::UnOp::Not,
                    Box::new(bin(
                        BinOp::And,
                        eq(a.clone(), int_min),
                        eq(b.clone(), minus_one),
                    )),
                ));
            }
            if has("exact") {
                // The remainder is zero: unsigned, in one more bit.
                let (x, y, k) = if op == "udiv" {
                    (
                        resize(ResizeOp::Zext, w + 1, &a),
                        resize(ResizeOp::Zext, w + 1, &b),
                        w + 1,
                    )
                } else {
                    (a.clone(), b.clone(), w)
                };
                out.push(eq(bin(BinOp::SRem, x, y), lit(BigInt::from(0), k)));
            }
        }
        "shl" | "lshr" | "ashr" => {
            out.push(bin(BinOp::Ult, b.clone(), lit(BigInt::from(w), w)));
            let shifted = |s: BinOp| bin(s, a.clone(), b.clone());
            match op {
                "shl" => {
                    if has("nuw") {
                        out.push(eq(
                            bin(BinOp::LShr, shifted(BinOp::Shl), b.clone()),
                            a.clone(),
                        ));
                    }
                    if has("nsw") {
                        out.push(eq(
                            bin(BinOp::AShr, shifted(BinOp::Shl), b.clone()),
                            a.clone(),
                        ));
                    }
                }
                _ if has("exact") => {
                    let s = if op == "lshr" {
                        BinOp::LShr
                    } else {
                        BinOp::AShr
                    };
                    out.push(eq(bin(BinOp::Shl, shifted(s), b.clone()), a.clone()));
                }
                _ => {}
            }
        }
        "or" if has("disjoint") => out.push(eq(bin(BinOp::And, a, b), zero())),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    //! Each condition evaluated by hand at the edge of LangRef's rule.
    use super::*;
    use diopter_rules::term::eval_term;
    use diopter_semantics::value::Bits;

    /// Whether every condition of `op [flags] a, b` holds at width `w`.
    fn holds(op: &str, flags: &[&str], w: u64, a: u64, b: Option<u64>, to: Option<Type>) -> bool {
        let flags: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
        let holes = [
            Some(Bits::from_bigint(w, &BigInt::from(a))),
            b.map(|b| Bits::from_bigint(w, &BigInt::from(b))),
        ];
        let tb = b.map(|_| Term::Hole(1));
        conditions(op, &flags, &Term::Hole(0), tb.as_ref(), w, to.as_ref())
            .iter()
            .all(|c| eval_term(c, &holes) == Some(Bits::from_bigint(1, &BigInt::from(1))))
    }

    #[test]
    fn each_flag_is_poison_exactly_where_langref_says() {
        // zext nneg i8: poison for a negative operand. trunc nuw/nsw i16 to
        // i8: 0x00ff keeps its unsigned value, not its signed one; 0xffff the
        // other way round.
        let cast = |op: &str, flag: &str, w: u64, a: u64, to: u64| {
            holds(op, &[flag], w, a, None, Some(Type::Int(to)))
        };
        assert!(cast("zext", "nneg", 8, 0x7f, 32));
        assert!(!cast("zext", "nneg", 8, 0x80, 32));
        assert!(cast("trunc", "nuw", 16, 0x00ff, 8));
        assert!(!cast("trunc", "nsw", 16, 0x00ff, 8));
        assert!(cast("trunc", "nsw", 16, 0xffff, 8));
        assert!(!cast("trunc", "nuw", 16, 0xffff, 8));
        // add i8: 100 + 100 = 200 wraps signed only; 200 + 100 wraps unsigned.
        assert!(holds("add", &["nuw"], 8, 100, Some(100), None));
        assert!(!holds("add", &["nsw"], 8, 100, Some(100), None));
        assert!(!holds("add", &["nuw"], 8, 200, Some(100), None));
        // sub nuw i8: 3 - 5 wraps; nsw: -128 - 1 wraps.
        assert!(!holds("sub", &["nuw"], 8, 3, Some(5), None));
        assert!(holds("sub", &["nsw"], 8, 3, Some(5), None));
        assert!(!holds("sub", &["nsw"], 8, 0x80, Some(1), None));
        // mul i8: 16 * 16 = 256 wraps both ways; 0xff * 0xff is 1 signed.
        assert!(!holds("mul", &["nuw"], 8, 16, Some(16), None));
        assert!(holds("mul", &["nsw"], 8, 0xff, Some(0xff), None));
        assert!(!holds("mul", &["nuw"], 8, 0xff, Some(0xff), None));
        // shl i8: 0x40 << 1 = 0x80 keeps every bit (nuw) but not the sign
        // (nsw); an amount of 8 is poison with no flag at all.
        assert!(holds("shl", &["nuw"], 8, 0x40, Some(1), None));
        assert!(!holds("shl", &["nsw"], 8, 0x40, Some(1), None));
        assert!(!holds("shl", &[], 8, 1, Some(8), None));
        // lshr/ashr exact: no one bit shifted out.
        assert!(holds("lshr", &["exact"], 8, 12, Some(2), None));
        assert!(!holds("lshr", &["exact"], 8, 13, Some(2), None));
        assert!(!holds("ashr", &["exact"], 8, 0x81, Some(1), None));
        // Division: by zero is UB, INT_MIN / -1 too (signed only), exact
        // needs a zero remainder (udiv of 0xff by 5 is exact: 255 = 5 * 51).
        assert!(!holds("udiv", &[], 8, 7, Some(0), None));
        assert!(!holds("srem", &[], 8, 0x80, Some(0xff), None));
        assert!(holds("udiv", &[], 8, 0x80, Some(0xff), None));
        assert!(holds("udiv", &["exact"], 8, 0xff, Some(5), None));
        assert!(!holds("udiv", &["exact"], 8, 6, Some(4), None));
        assert!(!holds("sdiv", &["exact"], 8, 0xfa, Some(4), None));
        assert!(holds("sdiv", &["exact"], 8, 0xf8, Some(4), None));
        // or disjoint: no common bit.
        assert!(holds("or", &["disjoint"], 8, 0xf0, Some(0x0f), None));
        assert!(!holds("or", &["disjoint"], 8, 0xf1, Some(0x01), None));
    }

    #[test]
    fn a_derivation_reads_as_a_term_or_not_at_all() {
        use diopter_semantics::syntax::bare::parse_bare_at;
        let ops = |text: &str| parse_bare_at(text, 0, text.len()).expect("parses").expr.ops;
        let (t, w) = term(&ops(
            "[i32] DIOpArg(0, i32), DIOpConstant(i32 3), DIOpAdd(), DIOpConvert(i8)",
        ))
        .expect("a term");
        assert_eq!(w, 8);
        let holes = [Some(Bits::from_bigint(32, &BigInt::from(0x1fe)))];
        assert_eq!(
            eval_term(&t, &holes),
            Some(Bits::from_bigint(8, &BigInt::from(1)))
        );
        // DIOpMod is outside the subset: no term, so no condition.
        assert!(term(&ops(
            "[i32] DIOpArg(0, i32), DIOpConstant(i32 3), DIOpMod()"
        ))
        .is_none());
    }
}
