//! AMD's expected DWARF as the corpus gives it: the rows of
//! `amd-dwarf.tsv` and `llvm-dwarfdump`'s syntax read back into operations
//! (with AMD's `DW_OP_LLVM_*` extensions and FileCheck wildcards). Below
//! both the comparison ([`super::amd`]) and the contexts it is compared in
//! ([`super::amd_ext`]).

use super::ops::{DwOp, LlvmDwOp};

/// One row of `amd-dwarf.tsv` and how the comparison came out.
#[derive(Clone, Debug)]
pub struct Row {
    /// 1-based data row.
    pub row: usize,
    pub expression: String,
    pub expected: String,
    pub operand: String,
    /// `same`, `different`, `not-comparable`.
    pub verdict: &'static str,
    pub detail: String,
    /// diopter's lowering (or why not) in the comparison context.
    pub diopter: String,
    /// AMD's operations as diopter prints and encodes them.
    pub amd_bytes: String,
}

fn parse_num(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// The entity an AMD register name stands for: `SGPR42` is `$sgpr42`;
/// `SGPR32_LO16` is `$sgpr32` (a 16-bit half shares its register's DWARF
/// number, and llvm-dwarfdump prints one name per number); the `k`th
/// FileCheck wildcard of a row (`SGPR*`, `VGPR*`, `*`) is `$sgpr_any<k>`,
/// `$vgpr_any<k>`, `$reg_any<k>`: a distinct register each.
fn amd_entity(name: &str, wildcards: &mut usize) -> String {
    let lower = name.to_ascii_lowercase();
    if let Some(file) = lower.strip_suffix('*') {
        let k = *wildcards;
        *wildcards += 1;
        let file = if file.is_empty() { "reg" } else { file };
        return format!("${file}_any{k}");
    }
    let base = lower.strip_suffix("_lo16").unwrap_or(&lower);
    format!("${base}")
}

/// The register number of an entity in the comparison's numbering.
fn amd_register(entity: String, regs: &mut Vec<(u16, String)>) -> u16 {
    if let Some((n, _)) = regs.iter().find(|(_, e)| *e == entity) {
        return *n;
    }
    let n = 0x8000 + regs.len() as u16;
    regs.push((n, entity));
    n
}

/// One extension operation from its name (with or without the
/// `DW_OP_LLVM_user` prefix: the older rows print the bare name) and its
/// operands.
fn llvm_op(name: &str, arg: &dyn Fn(usize) -> Option<u64>, sarg: Option<i64>) -> Option<LlvmDwOp> {
    Some(match name {
        "DW_OP_LLVM_form_aspace_address" => LlvmDwOp::FormAspaceAddress,
        "DW_OP_LLVM_push_lane" => LlvmDwOp::PushLane,
        "DW_OP_LLVM_offset" => LlvmDwOp::Offset,
        "DW_OP_LLVM_offset_uconst" => LlvmDwOp::OffsetUconst(arg(0)?),
        "DW_OP_LLVM_bit_offset" => LlvmDwOp::BitOffset,
        "DW_OP_LLVM_call_frame_entry_reg" => {
            LlvmDwOp::CallFrameEntryReg(u16::try_from(arg(0)?).ok()?)
        }
        "DW_OP_LLVM_undefined" => LlvmDwOp::Undefined,
        "DW_OP_LLVM_aspace_bregx" => LlvmDwOp::AspaceBregx(u16::try_from(arg(0)?).ok()?, sarg?),
        "DW_OP_LLVM_piece_end" => LlvmDwOp::PieceEnd,
        "DW_OP_LLVM_extend" => LlvmDwOp::Extend(arg(0)?, arg(1)?),
        "DW_OP_LLVM_select_bit_piece" => LlvmDwOp::SelectBitPiece(arg(0)?, arg(1)?),
        _ => return None,
    })
}

/// Parses `llvm-dwarfdump`'s text of a location expression, AMD's
/// `DW_OP_LLVM_*` operations included. `regs` receives each named
/// register's number and entity (`DW_OP_reg6 RBP` keeps number 6). `Err`
/// lists what cannot be read: an operation the extension document does not
/// define, or a FileCheck wildcard standing for operations (`* ...`).
pub fn parse_dwarfdump(
    text: &str,
    regs: &mut Vec<(u16, String)>,
) -> Result<Vec<DwOp>, Vec<String>> {
    let mut ops = Vec::new();
    let mut bad = Vec::new();
    let mut wildcards = 0usize;
    let text = text.trim();
    if text == "<empty>" || text.is_empty() {
        return Ok(ops);
    }
    for item in text.split(", ") {
        let mut words: Vec<&str> = item.split_whitespace().collect();
        if words.first() == Some(&"DW_OP_LLVM_user") {
            words.remove(0);
        }
        let name = words.first().copied().unwrap_or("");
        let arg = |i: usize| words.get(i).copied().and_then(parse_num);
        let op = match name {
            "*" => None,
            n if n.starts_with("DW_OP_LLVM_") => {
                let sarg = words.get(2).and_then(|w| w.parse().ok());
                llvm_op(n, &|i| arg(i + 1), sarg).map(DwOp::Llvm)
            }
            n if n.starts_with("DW_OP_lit") => n[9..].parse().ok().map(DwOp::Lit),
            n if n.starts_with("DW_OP_reg") && n[9..].parse::<u16>().is_ok() => {
                let r: u16 = n[9..].parse().unwrap_or(0);
                let entity = amd_entity(words.get(1).copied().unwrap_or(n), &mut wildcards);
                if !regs.iter().any(|(k, _)| *k == r) {
                    regs.push((r, entity));
                }
                Some(DwOp::Reg(r))
            }
            "DW_OP_stack_value" => Some(DwOp::StackValue),
            "DW_OP_plus" => Some(DwOp::Plus),
            "DW_OP_minus" => Some(DwOp::Minus),
            "DW_OP_mul" => Some(DwOp::Mul),
            "DW_OP_shr" => Some(DwOp::Shr),
            "DW_OP_shl" => Some(DwOp::Shl),
            "DW_OP_swap" => Some(DwOp::Swap),
            "DW_OP_rot" => Some(DwOp::Rot),
            "DW_OP_over" => Some(DwOp::Over),
            "DW_OP_ge" => Some(DwOp::Ge),
            "DW_OP_lt" => Some(DwOp::Lt),
            "DW_OP_neg" => Some(DwOp::Neg),
            "DW_OP_drop" => Some(DwOp::Drop),
            "DW_OP_dup" => Some(DwOp::Dup),
            "DW_OP_deref" => Some(DwOp::Deref),
            "DW_OP_constu" => arg(1).map(DwOp::Constu),
            "DW_OP_consts" => words.get(1).and_then(|w| w.parse().ok()).map(DwOp::Consts),
            "DW_OP_addr" => arg(1).map(DwOp::Addr),
            "DW_OP_addrx" => arg(1).map(DwOp::Addrx),
            "DW_OP_deref_size" => arg(1).map(|n| DwOp::DerefSize(n as u8)),
            "DW_OP_piece" => arg(1).map(DwOp::Piece),
            "DW_OP_bit_piece" => arg(1).zip(arg(2)).map(|(s, o)| DwOp::BitPiece(s, o)),
            "DW_OP_regx" => words
                .get(1)
                .map(|r| DwOp::Regx(amd_register(amd_entity(r, &mut wildcards), regs))),
            _ => None,
        };
        match op {
            Some(o) => ops.push(o),
            None => bad.push(item.to_string()),
        }
    }
    if bad.is_empty() {
        Ok(ops)
    } else {
        Err(bad)
    }
}
