//! Reading and printing upstream LLVM's classic `!DIExpression(DW_OP_...)`
//! (the third input dialect, DESIGN.md "Two dialects, one language").
//!
//! The reader takes the text LLVM 19 prints and its `LLParser` accepts
//! (operation names, unsigned decimal operands, `DW_ATE_*` encodings) and
//! then applies the structural checks of LLVM 19's `DIExpression::isValid`,
//! which the IR verifier runs: an expression the verifier rejects gets a
//! diagnostic with the offending operation's span, never a meaning. What the
//! accepted operations mean is [`crate::classic`]'s business.

use crate::ast::Span;
use crate::diag::Diagnostic;

/// How a classic operation is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DwOpInfo {
    pub name: &'static str,
    /// Operands after the operation (LLVM's `ExprOperand::getSize() - 1`).
    pub args: usize,
    /// Whether LLVM 19's `DIExpression::isValid` accepts it.
    pub valid: bool,
}

const fn op(name: &'static str, args: usize, valid: bool) -> DwOpInfo {
    DwOpInfo { name, args, valid }
}

/// The DWARF operations LLVM's reader knows by name, with the operand counts
/// and the verdicts of LLVM 19's `DIExpression::getSize`/`isValid`. Names
/// not listed (`DW_OP_foo`) are unknown to LLVM's reader as well. Operations
/// the verifier rejects are listed (so the diagnostic can say so) with the
/// operand count LLVM's `getSize` gives them (one element: no operands).
pub const DW_OPS: &[DwOpInfo] = &[
    op("DW_OP_LLVM_fragment", 2, true),
    op("DW_OP_LLVM_convert", 2, true),
    op("DW_OP_LLVM_extract_bits_sext", 2, true),
    op("DW_OP_LLVM_extract_bits_zext", 2, true),
    op("DW_OP_LLVM_tag_offset", 1, true),
    op("DW_OP_LLVM_entry_value", 1, true),
    op("DW_OP_LLVM_implicit_pointer", 0, true),
    op("DW_OP_LLVM_arg", 1, true),
    op("DW_OP_constu", 1, true),
    op("DW_OP_consts", 1, true),
    op("DW_OP_plus_uconst", 1, true),
    op("DW_OP_deref_size", 1, true),
    op("DW_OP_regx", 1, true),
    op("DW_OP_bregx", 2, true),
    op("DW_OP_stack_value", 0, true),
    op("DW_OP_swap", 0, true),
    op("DW_OP_plus", 0, true),
    op("DW_OP_minus", 0, true),
    op("DW_OP_mul", 0, true),
    op("DW_OP_div", 0, true),
    op("DW_OP_mod", 0, true),
    op("DW_OP_or", 0, true),
    op("DW_OP_and", 0, true),
    op("DW_OP_xor", 0, true),
    op("DW_OP_shl", 0, true),
    op("DW_OP_shr", 0, true),
    op("DW_OP_shra", 0, true),
    op("DW_OP_deref", 0, true),
    op("DW_OP_xderef", 0, true),
    op("DW_OP_lit0", 0, true),
    op("DW_OP_not", 0, true),
    op("DW_OP_dup", 0, true),
    op("DW_OP_push_object_address", 0, true),
    op("DW_OP_over", 0, true),
    op("DW_OP_eq", 0, true),
    op("DW_OP_ne", 0, true),
    op("DW_OP_gt", 0, true),
    op("DW_OP_ge", 0, true),
    op("DW_OP_lt", 0, true),
    op("DW_OP_le", 0, true),
    // Known DWARF operations LLVM 19's verifier rejects in a DIExpression.
    op("DW_OP_addr", 0, false),
    op("DW_OP_const1u", 0, false),
    op("DW_OP_const1s", 0, false),
    op("DW_OP_const2u", 0, false),
    op("DW_OP_const2s", 0, false),
    op("DW_OP_const4u", 0, false),
    op("DW_OP_const4s", 0, false),
    op("DW_OP_const8u", 0, false),
    op("DW_OP_const8s", 0, false),
    op("DW_OP_drop", 0, false),
    op("DW_OP_pick", 0, false),
    op("DW_OP_rot", 0, false),
    op("DW_OP_abs", 0, false),
    op("DW_OP_neg", 0, false),
    op("DW_OP_bra", 0, false),
    op("DW_OP_skip", 0, false),
    op("DW_OP_fbreg", 0, false),
    op("DW_OP_piece", 0, false),
    op("DW_OP_bit_piece", 0, false),
    op("DW_OP_xderef_size", 0, false),
    op("DW_OP_nop", 0, false),
    op("DW_OP_call2", 0, false),
    op("DW_OP_call4", 0, false),
    op("DW_OP_call_ref", 0, false),
    op("DW_OP_form_tls_address", 0, false),
    op("DW_OP_call_frame_cfa", 0, false),
    op("DW_OP_implicit_value", 0, false),
    op("DW_OP_implicit_pointer", 0, false),
    op("DW_OP_addrx", 0, false),
    op("DW_OP_constx", 0, false),
    op("DW_OP_entry_value", 0, false),
    op("DW_OP_const_type", 0, false),
    op("DW_OP_regval_type", 0, false),
    op("DW_OP_deref_type", 0, false),
    op("DW_OP_xderef_type", 0, false),
    op("DW_OP_convert", 0, false),
    op("DW_OP_reinterpret", 0, false),
    op("DW_OP_GNU_push_tls_address", 0, false),
    op("DW_OP_GNU_entry_value", 0, false),
    op("DW_OP_GNU_addr_index", 0, false),
    op("DW_OP_GNU_const_index", 0, false),
];

/// `DW_OP_lit1` ... `DW_OP_lit31`, `DW_OP_reg0` ... and `DW_OP_breg0` ...:
/// numbered families. LLVM 19 accepts `DW_OP_regN`/`DW_OP_bregN` (the
/// latter with one operand) and rejects `DW_OP_lit1` ... `DW_OP_lit31`.
fn family(name: &str) -> Option<DwOpInfo> {
    let num = |p: &str| {
        name.strip_prefix(p)
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| *n <= 31 && name.len() > p.len())
    };
    if let Some(n) = num("DW_OP_lit") {
        // Names must be `'static`; the family's members share one entry.
        return Some(op(LIT_NAMES[n as usize], 0, n == 0));
    }
    if num("DW_OP_breg").is_some() {
        return Some(op("DW_OP_bregN", 1, true));
    }
    if num("DW_OP_reg").is_some() {
        return Some(op("DW_OP_regN", 0, true));
    }
    None
}

const LIT_NAMES: [&str; 32] = [
    "DW_OP_lit0",
    "DW_OP_lit1",
    "DW_OP_lit2",
    "DW_OP_lit3",
    "DW_OP_lit4",
    "DW_OP_lit5",
    "DW_OP_lit6",
    "DW_OP_lit7",
    "DW_OP_lit8",
    "DW_OP_lit9",
    "DW_OP_lit10",
    "DW_OP_lit11",
    "DW_OP_lit12",
    "DW_OP_lit13",
    "DW_OP_lit14",
    "DW_OP_lit15",
    "DW_OP_lit16",
    "DW_OP_lit17",
    "DW_OP_lit18",
    "DW_OP_lit19",
    "DW_OP_lit20",
    "DW_OP_lit21",
    "DW_OP_lit22",
    "DW_OP_lit23",
    "DW_OP_lit24",
    "DW_OP_lit25",
    "DW_OP_lit26",
    "DW_OP_lit27",
    "DW_OP_lit28",
    "DW_OP_lit29",
    "DW_OP_lit30",
    "DW_OP_lit31",
];

/// What LLVM knows about an operation name.
pub fn op_info(name: &str) -> Option<DwOpInfo> {
    DW_OPS
        .iter()
        .find(|o| o.name == name)
        .copied()
        .or_else(|| family(name))
}

/// `DW_ATE_*` encodings LLVM's reader accepts as operands, with their codes.
pub const DW_ATES: &[(&str, u64)] = &[
    ("DW_ATE_address", 0x1),
    ("DW_ATE_boolean", 0x2),
    ("DW_ATE_complex_float", 0x3),
    ("DW_ATE_float", 0x4),
    ("DW_ATE_signed", 0x5),
    ("DW_ATE_signed_char", 0x6),
    ("DW_ATE_unsigned", 0x7),
    ("DW_ATE_unsigned_char", 0x8),
    ("DW_ATE_imaginary_float", 0x9),
    ("DW_ATE_packed_decimal", 0xa),
    ("DW_ATE_numeric_string", 0xb),
    ("DW_ATE_edited", 0xc),
    ("DW_ATE_signed_fixed", 0xd),
    ("DW_ATE_unsigned_fixed", 0xe),
    ("DW_ATE_decimal_float", 0xf),
    ("DW_ATE_UTF", 0x10),
    ("DW_ATE_UCS", 0x11),
    ("DW_ATE_ASCII", 0x12),
];

/// One operation with its operands.
#[derive(Clone, Debug)]
pub struct ClassicOp {
    /// The name as LLVM spells it (`DW_OP_plus_uconst`, `DW_OP_breg7`).
    pub name: String,
    pub args: Vec<u64>,
    /// From the name to the last operand.
    pub span: Span,
}

impl PartialEq for ClassicOp {
    fn eq(&self, o: &ClassicOp) -> bool {
        self.name == o.name && self.args == o.args
    }
}
impl Eq for ClassicOp {}

/// A classic expression: `!DIExpression(op, args..., op, ...)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassicExpr {
    pub ops: Vec<ClassicOp>,
}

impl ClassicExpr {
    /// `(offset, size)` in bits of a trailing `DW_OP_LLVM_fragment`.
    pub fn fragment(&self) -> Option<(u64, u64)> {
        self.ops
            .last()
            .filter(|o| o.name == "DW_OP_LLVM_fragment")
            .map(|o| (o.args[0], o.args[1]))
    }
}

/// Limits on what is read (an expression is data; its size is bounded).
pub const MAX_ELEMENTS: usize = 4096;

enum Item {
    Name(String),
    Num(u64),
}

/// Reads `!DIExpression(...)` (or just the parenthesised list, or the bare
/// element list) from `text`, whose first byte is at offset `base` of the
/// file; spans are file offsets. Applies LLVM 19's `isValid` checks.
pub fn parse_classic(text: &str, base: usize) -> Result<ClassicExpr, Diagnostic> {
    let at = |a: usize, b: usize| Span::new(base + a, base + b);
    let mut body_start = 0;
    let mut body_end = text.len();
    let t = text.trim_end();
    if let Some(rest) = text.strip_prefix("!DIExpression") {
        let open = text.len() - rest.len();
        if !rest.starts_with('(') {
            return Err(Diagnostic::error(
                at(0, open),
                "expected `(` after `!DIExpression`",
            ));
        }
        if !t.ends_with(')') {
            return Err(Diagnostic::error(
                at(0, text.len()),
                "`!DIExpression(` without its closing `)`",
            ));
        }
        body_start = open + 1;
        body_end = t.len() - 1;
    }
    // Elements: comma-separated words and unsigned integers.
    let mut items: Vec<(Item, usize, usize)> = Vec::new();
    let body = &text[body_start..body_end];
    let mut expect_item = true;
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let s = body_start + i;
        if c == b',' {
            if expect_item {
                return Err(Diagnostic::error(
                    at(s, s + 1),
                    "expected an operation or an operand before `,`",
                ));
            }
            expect_item = true;
            i += 1;
            continue;
        }
        if !expect_item {
            return Err(Diagnostic::error(
                at(s, s + 1),
                "expected `,` between elements",
            ));
        }
        let mut j = i;
        while j < bytes.len()
            && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_' || bytes[j] == b'-')
        {
            j += 1;
        }
        if j == i {
            return Err(Diagnostic::error(
                at(s, s + 1),
                format!(
                    "unexpected `{}` in a DIExpression",
                    &body[i..].chars().next().unwrap_or(' ')
                ),
            ));
        }
        let word = &body[i..j];
        let e = body_start + j;
        if word.as_bytes()[0].is_ascii_digit() || word.starts_with('-') {
            match word.parse::<u64>() {
                Ok(n) => items.push((Item::Num(n), s, e)),
                Err(_) => {
                    return Err(Diagnostic::error(
                        at(s, e),
                        format!("expected an unsigned 64-bit integer, found `{word}` (LLVM's reader takes only unsigned operands)"),
                    ))
                }
            }
        } else if let Some((_, code)) = DW_ATES.iter().find(|(n, _)| *n == word) {
            items.push((Item::Num(*code), s, e));
        } else {
            items.push((Item::Name(word.to_string()), s, e));
        }
        if items.len() > MAX_ELEMENTS {
            return Err(Diagnostic::error(
                at(s, e),
                format!("more than {MAX_ELEMENTS} elements in one DIExpression"),
            ));
        }
        expect_item = false;
        i = j;
    }
    if expect_item && !items.is_empty() {
        let e = body_end;
        return Err(Diagnostic::error(at(e, e), "expected an element after `,`"));
    }
    // Group into operations.
    let mut ops = Vec::new();
    let mut k = 0;
    while k < items.len() {
        let (item, s, e) = &items[k];
        let name = match item {
            Item::Name(n) => n.clone(),
            Item::Num(_) => {
                return Err(Diagnostic::error(
                    at(*s, *e),
                    "expected a DW_OP_* operation, found an operand (too many operands for the operation before it?)",
                ))
            }
        };
        let Some(info) = op_info(&name) else {
            let what = if name.starts_with("DW_OP_") {
                format!("unknown DWARF operation `{name}` (not a DW_OP_* LLVM knows)")
            } else {
                format!("expected a DW_OP_* operation, found `{name}`")
            };
            return Err(Diagnostic::error(at(*s, *e), what));
        };
        if !info.valid {
            return Err(Diagnostic::error(
                at(*s, *e),
                format!("`{name}` is not allowed in a DIExpression: LLVM 19's verifier (DIExpression::isValid) rejects it"),
            ));
        }
        let mut args = Vec::new();
        let mut end = *e;
        for n in 0..info.args {
            match items.get(k + 1 + n) {
                Some((Item::Num(v), _, ae)) => {
                    args.push(*v);
                    end = *ae;
                }
                Some((Item::Name(w), ws, we)) => {
                    return Err(Diagnostic::error(
                        at(*ws, *we),
                        format!("`{name}` takes {} operand(s); found `{w}` in place of operand {}", info.args, n + 1),
                    ))
                }
                None => {
                    return Err(Diagnostic::error(
                        at(*s, end),
                        format!("`{name}` takes {} operand(s), found {n}: the expression ends (LLVM's verifier: invalid expression)", info.args),
                    ))
                }
            }
        }
        ops.push(ClassicOp {
            name,
            args,
            span: at(*s, end),
        });
        k += 1 + info.args;
    }
    let expr = ClassicExpr { ops };
    verify(&expr)?;
    Ok(expr)
}

/// LLVM 19's `DIExpression::isValid` placement rules.
fn verify(e: &ClassicExpr) -> Result<(), Diagnostic> {
    let n = e.ops.len();
    for (i, o) in e.ops.iter().enumerate() {
        let last = i + 1 == n;
        match o.name.as_str() {
            "DW_OP_LLVM_fragment" if !last => {
                return Err(Diagnostic::error(o.span, "DW_OP_LLVM_fragment must be the last operation (LLVM's verifier: invalid expression)"));
            }
            "DW_OP_stack_value"
                if !(last || i + 2 == n && e.ops[i + 1].name == "DW_OP_LLVM_fragment") =>
            {
                return Err(Diagnostic::error(o.span, "DW_OP_stack_value must be last or followed only by DW_OP_LLVM_fragment (LLVM's verifier: invalid expression)"));
            }
            "DW_OP_swap" if n == 1 => {
                return Err(Diagnostic::error(
                    o.span,
                    "DW_OP_swap alone has nothing to swap (LLVM's verifier: invalid expression)",
                ));
            }
            "DW_OP_LLVM_entry_value" => {
                let first = usize::from(e.ops[0].name == "DW_OP_LLVM_arg" && e.ops[0].args[0] == 0);
                if i != first || o.args[0] != 1 {
                    return Err(Diagnostic::error(o.span, "DW_OP_LLVM_entry_value must come first (or right after `DW_OP_LLVM_arg, 0`) and cover 1 operation (LLVM's verifier: invalid expression)"));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Prints the expression as LLVM 19 does (`DW_ATE_*` names for
/// `DW_OP_LLVM_convert`'s encoding).
pub fn print_classic(e: &ClassicExpr) -> String {
    let mut parts = Vec::new();
    for o in &e.ops {
        parts.push(o.name.clone());
        for (k, a) in o.args.iter().enumerate() {
            let ate = (o.name == "DW_OP_LLVM_convert" && k == 1)
                .then(|| DW_ATES.iter().find(|(_, c)| c == a).map(|(n, _)| *n))
                .flatten();
            parts.push(ate.map_or_else(|| a.to_string(), str::to_string));
        }
    }
    format!("!DIExpression({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> (String, usize, usize) {
        let d = parse_classic(s, 0).unwrap_err();
        (d.message, d.span.start, d.span.end)
    }

    #[test]
    fn reads_what_llvm_19_prints() {
        let s = "!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_lt, DW_OP_LLVM_convert, 1, DW_ATE_unsigned, DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_stack_value)";
        let e = parse_classic(s, 0).unwrap();
        assert_eq!(e.ops.len(), 6);
        assert_eq!(e.ops[3].args, vec![1, 7]);
        assert_eq!(print_classic(&e), s);
        let e = parse_classic("!DIExpression()", 0).unwrap();
        assert!(e.ops.is_empty());
        let e = parse_classic(
            "!DIExpression(DW_OP_breg7, 8, DW_OP_stack_value, DW_OP_LLVM_fragment, 0, 32)",
            10,
        )
        .unwrap();
        assert_eq!(e.fragment(), Some((0, 32)));
        assert_eq!(e.ops[0].span, Span::new(24, 36));
    }

    #[test]
    fn bad_input_points_at_the_element() {
        let s = "!DIExpression(DW_OP_plus_uconst, 8, DW_OP_frob)";
        assert_eq!(
            err(s),
            (
                "unknown DWARF operation `DW_OP_frob` (not a DW_OP_* LLVM knows)".into(),
                36,
                46
            )
        );
        let (m, a, _) = err("!DIExpression(DW_OP_neg)");
        assert!(m.contains("DW_OP_neg") && m.contains("isValid"), "{m}");
        assert_eq!(a, 14);
        let (m, a, b) = err("!DIExpression(DW_OP_constu)");
        assert!(m.contains("takes 1 operand"), "{m}");
        assert_eq!((a, b), (14, 26));
        for (input, needle) in [
            ("!DIExpression(DW_OP_plus_uconst, 1, 2)", "found an operand"),
            (
                "!DIExpression(DW_OP_LLVM_fragment, 0, 8, DW_OP_deref)",
                "last",
            ),
            (
                "!DIExpression(DW_OP_stack_value, DW_OP_deref)",
                "stack_value",
            ),
            ("!DIExpression(DW_OP_swap)", "swap"),
            (
                "!DIExpression(DW_OP_deref, DW_OP_LLVM_entry_value, 1)",
                "entry_value",
            ),
            ("!DIExpression(DW_OP_constu, -1)", "unsigned"),
            ("!DIExpression(DW_OP_constu, 1,)", "after `,`"),
            ("!DIExpression(DW_OP_lit5)", "isValid"),
            ("!DIExpression(DW_OP_constu 1)", "`,`"),
        ] {
            let (m, _, _) = err(input);
            assert!(m.contains(needle), "{input}: {m}");
        }
    }
}
