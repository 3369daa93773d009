//! The body of the `classic_roundtrip` fuzz target: any UTF-8 text as the
//! element list of a classic `!DIExpression(...)`. The reader never panics
//! and its diagnostics point inside the text; an expression it accepts
//! prints and reads back equal (printing is a fixpoint); its translation
//! into DIOps (for operand types, variable size and record kind drawn from
//! the input) is well-formed and the reference interpreter evaluates it
//! without panicking.

use diopter_semantics::check::check_bare;
use diopter_semantics::classic::{translate, RecordUse};
use diopter_semantics::context::Context;
use diopter_semantics::interp::{eval_bare, read_value};
use diopter_semantics::location::LocDesc;
use diopter_semantics::syntax::classic::{parse_classic, print_classic};
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use diopter_semantics::value::Bits;

/// One input; `Err` says what broke.
pub fn classic_roundtrip(data: &[u8]) -> Result<(), String> {
    let Ok(text) = std::str::from_utf8(data) else {
        return Ok(());
    };
    let wrapped = if text.starts_with("!DIExpression") {
        text.to_string()
    } else {
        format!("!DIExpression({text})")
    };
    let e = match parse_classic(&wrapped, 0) {
        Ok(e) => e,
        Err(d) => {
            if d.span.start > d.span.end || d.span.end > wrapped.len() || d.message.is_empty() {
                return Err(format!(
                    "diagnostic outside the input: {d:?} for {wrapped:?}"
                ));
            }
            return Ok(());
        }
    };
    let printed = print_classic(&e);
    let again = parse_classic(&printed, 0)
        .map_err(|d| format!("`{printed}` does not read back: {}", d.message))?;
    if again != e || print_classic(&again) != printed {
        return Err(format!("round trip: `{wrapped}` printed `{printed}`"));
    }
    // Operands, variable size and record kind from the input's bytes.
    let h = data
        .iter()
        .fold(0u64, |a, &b| a.wrapping_mul(31).wrapping_add(u64::from(b)));
    let tys = [
        Type::Int(64),
        Type::Int(32),
        Type::opaque_ptr(0),
        Type::Int(8),
    ];
    let ops: Vec<(Type, bool)> = (0..2)
        .map(|k| (tys[((h >> (2 * k)) & 3) as usize].clone(), false))
        .collect();
    let var = [64, 32, 8, 16][((h >> 4) & 3) as usize];
    let use_ = if h & 64 == 0 {
        RecordUse::Value
    } else {
        RecordUse::Declare
    };
    let dl = if h & 128 == 0 {
        DataLayout::llvm_default()
    } else {
        DataLayout::from_name_or_string("e-p:32:32").map_err(|e| e.0)?
    };
    let types = TypeTable::default();
    let Ok(t) = translate(&e, use_, &ops, var, &dl, &types, Default::default()) else {
        return Ok(());
    };
    if let Err(d) = check_bare(&t.bare, &dl, &types) {
        return Err(format!(
            "`{printed}` translates to an ill-formed expression: {:?}",
            d.first().map(|d| &d.message)
        ));
    }
    let mut ctx = Context::new(dl.clone());
    ctx.seed = h;
    for (k, a) in t.bare.args.iter().flatten().enumerate() {
        let name = format!("%a{k}");
        let bits = dl.bitsizeof(&a.ty, &types).map_err(|e| e.0)?;
        ctx.set_entity(&name, Bits::from_u64(bits, h.rotate_left(k as u32 * 7)));
        ctx.args.insert(k as u64, LocDesc::entity(&name, 0));
    }
    if let Ok(r) = eval_bare(&t.bare, &types, &ctx) {
        let _ = read_value(&ctx, &r);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn salvages_and_garbage_pass() {
        for s in [
            "DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_lt, DW_OP_LLVM_convert, 1, DW_ATE_unsigned, DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_stack_value",
            "DW_OP_plus_uconst, 8, DW_OP_deref, DW_OP_LLVM_fragment, 0, 8",
            "DW_OP_constu, 3, DW_OP_dup, DW_OP_over, DW_OP_swap, DW_OP_mod, DW_OP_div, DW_OP_stack_value",
            "DW_OP_LLVM_extract_bits_sext, 3, 5",
            "DW_OP_,,,",
            ")(",
            "!DIExpression(DW_OP_deref_size, 200)",
        ] {
            classic_roundtrip(s.as_bytes()).unwrap();
        }
    }
}
