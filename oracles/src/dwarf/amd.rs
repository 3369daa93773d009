//! The real-world check: AMD's expected DWARF for some of its expressions
//! (`corpus/amd/amd-dwarf.tsv`, `amd-dwarf.operands.tsv`), AMD's
//! `DW_OP_LLVM_*` operations included, evaluated by the extension evaluator
//! ([`super::ext`]) in contexts in which the expression's operand lives
//! where AMD's test put it, and compared by meaning (what reading and
//! writing through the location does, DESIGN.md's equivalence) with the
//! reference interpreter; diopter's own lowering is compared with AMD's too
//! ([`super::amd_ext`] builds the contexts and compares).
//!
//! A row is not comparable only when its text has an operation the
//! extension document does not define or a FileCheck wildcard standing for
//! operations. [`report`] builds the rows; `oracles/tests/dwarf_amd.rs`
//! checks them and writes `reports/dwarf-amd.md` and `.json`.

use super::eval::{DwarfPiece, Machine};
use super::ops::{encode, DwOp, LlvmDwOp};
use diopter_semantics::context::Context;
use diopter_semantics::value::Bits;

pub use super::amd_ext::CONTEXTS;

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

/// The one-line form of a TSV row (`diexpr` rows with `DIOpReferrer` name the referrer).
fn one_line(dialect: &str, args: &str, expr: &str) -> String {
    let items = if dialect == "diexpr" && expr.contains("DIOpReferrer") {
        format!("referrer: {args}")
    } else if args == "-" {
        String::new()
    } else {
        args.replace(',', ", ")
    };
    format!("{dialect} [{items}] {expr}")
}

/// Builds every row's comparison from the corpus files' texts.
pub fn report(tsv: &str, operands: &str, dwarf_expr: &str) -> Vec<Row> {
    // Named types and the data layout come from corpus/amd/dwarf.expr.
    let header: String = dwarf_expr
        .lines()
        .filter(|l| l.starts_with('%') || l.starts_with("target datalayout"))
        .map(|l| format!("{l}\n"))
        .collect();
    let descs: Vec<&str> = operands.lines().collect();
    let mut rows = Vec::new();
    for (i, line) in tsv.lines().enumerate() {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 4 {
            continue;
        }
        let (dialect, args, expr, expected) = (cols[0], cols[1], cols[2], cols[3]);
        let operand = descs
            .get(i)
            .and_then(|d| d.split_once('\t'))
            .map_or("", |(_, d)| d)
            .to_string();
        let mut row = Row {
            row: i + 1,
            expression: one_line(dialect, args, expr),
            expected: expected.to_string(),
            operand: operand.clone(),
            verdict: "not-comparable",
            detail: String::new(),
            diopter: String::new(),
            amd_bytes: String::new(),
        };
        super::amd_ext::compare_row(&mut row, &header, dialect, args, expr);
        rows.push(row);
    }
    rows
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The rows as JSON (an array of objects).
pub fn to_json(rows: &[Row]) -> String {
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "  {{\"row\": {}, \"expression\": {}, \"operand\": {}, \"amd_expected\": {}, \"amd_bytes\": {}, \"diopter\": {}, \"verdict\": {}, \"detail\": {}}}",
                r.row,
                json_str(&r.expression),
                json_str(&r.operand),
                json_str(&r.expected),
                json_str(&r.amd_bytes),
                json_str(&r.diopter),
                json_str(r.verdict),
                json_str(&r.detail)
            )
        })
        .collect();
    format!("[\n{}\n]\n", items.join(",\n"))
}

/// The rows as the Markdown report.
pub fn to_markdown(rows: &[Row]) -> String {
    let count = |v: &str| rows.iter().filter(|r| r.verdict == v).count();
    let mut s = String::new();
    s.push_str("# AMD's expected DWARF vs diopter's semantics\n\n");
    s.push_str(
        "Generated by `DIOPTER_WRITE_REPORTS=1 cargo test -p diopter-oracles --test dwarf_amd` \
from `corpus/amd/amd-dwarf.tsv` (AMD's expected `llvm-dwarfdump` operations), \
`corpus/amd/amd-dwarf.operands.tsv` (where the operand lives) and `corpus/amd/dwarf.expr` \
(types, data layout). Do not edit by hand.\n\n",
    );
    s.push_str(&format!(
        "Method: AMD's operations, its `DW_OP_LLVM_*` extensions included, are encoded (with the \
`DW_OP_LLVM_user` prefix; the older rows print the bare names, whose pre-`DW_OP_LLVM_user` \
opcodes the document does not give) and evaluated by diopter's evaluator for DWARF with AMD's \
heterogeneous-debugging extensions (`oracles/src/dwarf/ext.rs`, written from \
`AMDGPUDwarfExtensionsForHeterogeneousDebugging.rst`; AMDGPUUsage's address spaces). The \
expression's operand is placed where AMD's test put it (`oracles/src/dwarf/amd_ext.rs`: SGPRs as \
32-bit registers, VGPRs and AGPRs as wave-size × 32-bit registers whose lane `l` is the dword at \
byte `4 l`, private allocas at `(frame register >> log2(wave size)) + frame offset`, globals at an \
address that `DW_OP_addr`'s relocation and `.debug_addr` give), in {CONTEXTS} contexts (lane 0 \
with zero registers, the last lane with all-ones registers, lane 1 with distinct small values, \
then random ones), and what reading and writing through AMD's location does is compared with \
the reference interpreter's location (the fragment's bits when the row has a `DIOpFragment`). \
The first differing context is the counterexample (the edge cases come first). diopter's own \
lowering (`lower_ext`: DWARF 5, with AMD's extensions only where DWARF 5 has no operation; its \
address-space identifiers are LLVM's, diopter's convention, where AMD's are AMDGPUUsage's) is \
evaluated by the extension evaluator, and by gimli when it is DWARF 5, in the same contexts and \
compared with AMD's. A row is not comparable only when its text has an operation the extension document \
does not define or a FileCheck wildcard hiding operations.\n\n"
    ));
    s.push_str(&format!(
        "Summary: {} rows; **same meaning: {}**, **different meaning: {}**, not comparable: {}.\n\n",
        rows.len(),
        count("same"),
        count("different"),
        count("not-comparable")
    ));
    s.push_str("## Findings\n\n");
    for r in rows {
        if let Some(a) = super::amd_ext::analysis(r.row) {
            s.push_str(&format!("- **Row {} ({})**: {a}\n", r.row, r.verdict));
        }
    }
    s.push_str(super::amd_ext::CANDIDATE_BUG);
    s.push_str("\n## Rows\n\n");
    s.push_str(
        "| row | expression | operand | AMD's DWARF (test text) | AMD's DWARF re-encoded [bytes] | diopter's DWARF [bytes] | verdict | detail |\n",
    );
    s.push_str("|---|---|---|---|---|---|---|---|\n");
    let cell = |x: &str| x.replace('|', "\\|");
    for r in rows {
        s.push_str(&format!(
            "| {} | `{}` | {} | `{}` | {} | {} | **{}** | {} |\n",
            r.row,
            cell(&r.expression),
            cell(&r.operand),
            cell(&r.expected),
            if r.amd_bytes.is_empty() {
                String::new()
            } else {
                format!("`{}`", cell(&r.amd_bytes))
            },
            if r.diopter.is_empty() {
                String::new()
            } else {
                format!("`{}`", cell(&r.diopter))
            },
            r.verdict,
            cell(&r.detail)
        ));
    }
    s
}

/// The bits of `b` as hex, for tests.
pub fn hex_bits(b: &Bits) -> String {
    b.to_hex()
}

/// The pieces AMD's expected text gives in `ctx` (for tests).
pub fn evaluate_text(text: &str, ctx: &Context) -> Result<Vec<DwarfPiece>, String> {
    let mut regs = Vec::new();
    let ops = parse_dwarfdump(text, &mut regs).map_err(|b| b.join("; "))?;
    let m = Machine {
        ctx,
        registers: &[],
        implicit_targets: &[],
        extra_registers: &regs,
    };
    m.evaluate(&encode(&ops), &|_| 64)
        .map_err(|e| format!("{e:?}"))
}
