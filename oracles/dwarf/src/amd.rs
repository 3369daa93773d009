//! The real-world check: AMD's expected DWARF for some of its expressions
//! (`corpus/amd/amd-dwarf.tsv`, `amd-dwarf.operands.tsv`) against diopter's
//! lowering, compared by meaning: both byte sequences are evaluated with
//! gimli on generated contexts in which the expression's operand lives where
//! AMD's test put it, and what reading and writing through the two
//! locations does is compared (DESIGN.md's equivalence). The reference
//! interpreter's meaning is compared with AMD's too.
//!
//! A row whose expected operations include AMD-only `DW_OP_LLVM_*` operations
//! (or a FileCheck wildcard, or `DW_OP_addrx` into a `.debug_addr` the test
//! does not show) is not comparable. [`report`] builds the rows;
//! `oracles/dwarf/tests/dwarf_amd.rs` checks them and writes
//! `reports/dwarf-amd.md` and `.json`.

use super::eval::{DwarfPiece, Machine};
use super::ops::{encode, print_ops, DwOp};
use super::{evaluate, lower};
use diopter_diff::write_pattern;
use diopter_semantics::access;
use diopter_semantics::ast::Bare;
use diopter_semantics::context::{splitmix64, Context};
use diopter_semantics::diag::Source;
use diopter_semantics::interp::{self, Located};
use diopter_semantics::location::LocDesc;
use diopter_semantics::syntax::parse_expr_file;
use diopter_semantics::types::TypeTable;
use diopter_semantics::value::Bits;

/// Contexts per comparable row.
pub const CONTEXTS: u64 = 32;

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
}

fn parse_num(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// The register number of an AMD register name (`SGPR42`, `RBP`) in the
/// comparison's numbering, and the entity it is.
fn amd_register(name: &str, regs: &mut Vec<(u16, String)>) -> u16 {
    let entity = format!("${}", name.to_ascii_lowercase());
    if let Some((n, _)) = regs.iter().find(|(_, e)| *e == entity) {
        return *n;
    }
    let n = 0x8000 + regs.len() as u16;
    regs.push((n, entity));
    n
}

/// Parses `llvm-dwarfdump`'s text of a location expression. `Err` lists
/// what cannot be evaluated with standard DWARF 5 (AMD-only operations,
/// wildcards, indexed addresses).
pub fn parse_dwarfdump(
    text: &str,
    regs: &mut Vec<(u16, String)>,
) -> Result<Vec<DwOp>, Vec<String>> {
    let mut ops = Vec::new();
    let mut bad = Vec::new();
    let text = text.trim();
    if text == "<empty>" || text.is_empty() {
        return Ok(ops);
    }
    for item in text.split(", ") {
        let words: Vec<&str> = item.split_whitespace().collect();
        let name = words.first().copied().unwrap_or("");
        let arg = |i: usize| words.get(i).copied().and_then(parse_num);
        let op = match name {
            n if n.starts_with("DW_OP_lit") => n[9..].parse().ok().map(DwOp::Lit),
            "DW_OP_stack_value" => Some(DwOp::StackValue),
            "DW_OP_plus" => Some(DwOp::Plus),
            "DW_OP_minus" => Some(DwOp::Minus),
            "DW_OP_mul" => Some(DwOp::Mul),
            "DW_OP_shr" => Some(DwOp::Shr),
            "DW_OP_shl" => Some(DwOp::Shl),
            "DW_OP_swap" => Some(DwOp::Swap),
            "DW_OP_drop" => Some(DwOp::Drop),
            "DW_OP_dup" => Some(DwOp::Dup),
            "DW_OP_constu" => arg(1).map(DwOp::Constu),
            "DW_OP_consts" => words.get(1).and_then(|w| w.parse().ok()).map(DwOp::Consts),
            "DW_OP_addr" => arg(1).map(DwOp::Addr),
            "DW_OP_deref_size" => arg(1).map(|n| DwOp::DerefSize(n as u8)),
            "DW_OP_piece" => arg(1).map(DwOp::Piece),
            "DW_OP_bit_piece" => arg(1).zip(arg(2)).map(|(s, o)| DwOp::BitPiece(s, o)),
            // A FileCheck wildcard register (`SGPR*`) is some register of that file.
            "DW_OP_regx" => words
                .get(1)
                .map(|r| DwOp::Regx(amd_register(&r.replace('*', "_any"), regs))),
            _ => None,
        };
        match op {
            Some(o) if !item.contains('*') || name == "DW_OP_regx" => ops.push(o),
            _ => bad.push(item.to_string()),
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

/// The location of argument 0 the operand description gives, for the rows
/// whose expected DWARF is standard: a register (`$sgpr42_lo16` is the low
/// half of `$sgpr42`) or a null constant.
fn operand_binding(desc: &str, arg_type: &str) -> Option<(String, Option<String>)> {
    if desc.contains("constant ptr null") || desc.contains("constant ptr addrspace(3) null") {
        return Some((format!("implicit({arg_type} 0)"), None));
    }
    let at = desc.find("arg0 = $")? + "arg0 = ".len();
    let name: String = desc[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '$' || *c == '_')
        .collect();
    let base = name.strip_suffix("_lo16").unwrap_or(&name).to_string();
    if base.contains('_') {
        return None;
    }
    Some((base.clone(), Some(base)))
}

fn read_and_write(ctx: &Context, loc: &LocDesc, bits: u64) -> String {
    let r = match access::read(ctx, loc, bits) {
        Ok(b) => format!("reads {}", b.to_hex()),
        Err(e) => format!("read fails ({:?})", e.kind),
    };
    let mut after = ctx.clone();
    let w = match access::write(&mut after, loc, &write_pattern(bits)) {
        Ok(()) => {
            let d = ctx.state_diff(&after);
            format!("write changes [{}]", d.join(", "))
        }
        Err(e) => format!("write refused ({:?})", e.kind),
    };
    format!("{r}; {w}")
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
        };
        compare_row(&mut row, &header, args);
        rows.push(row);
    }
    rows
}

fn compare_row(row: &mut Row, header: &str, args: &str) {
    let mut regs = Vec::new();
    let amd_ops = match parse_dwarfdump(&row.expected, &mut regs) {
        Ok(o) => o,
        Err(bad) => {
            let llvm: Vec<&String> = bad.iter().filter(|b| b.contains("DW_OP_LLVM")).collect();
            row.detail = if !llvm.is_empty() {
                let mut names: Vec<String> = llvm
                    .iter()
                    .map(|b| b.split_whitespace().last().unwrap_or("").to_string())
                    .collect();
                names.dedup();
                format!("AMD-only operations: {}", names.join(", "))
            } else {
                format!("not standard DWARF 5 text: {}", bad.join("; "))
            };
            return;
        }
    };
    let (file, diags) = parse_expr_file(&Source::new(
        "amd-dwarf.tsv",
        format!("{header}{}\n", row.expression),
    ));
    let Some(entry) = file.entries.first().filter(|_| diags.is_empty()) else {
        row.detail = format!(
            "diopter does not parse the expression: {}",
            diags.first().map_or(String::new(), |d| d.message.clone())
        );
        return;
    };
    let dl = file
        .datalayout
        .as_ref()
        .map(|(d, _)| d.clone())
        .unwrap_or_default();
    // AMD's bytes alone first: gimli may refuse them whatever the operand.
    let mut probe = String::new();
    for (_, e) in &regs {
        probe.push_str(&format!("{e} = i32 7\n"));
    }
    if let (Ok(c), false) = (Context::parse(&probe), amd_ops.is_empty()) {
        let m = Machine {
            ctx: &c,
            registers: &[],
            implicit_targets: &[],
            extra_registers: &regs,
        };
        if let Err(e) = m.evaluate(&encode(&amd_ops), &|_| 64) {
            row.verdict = "different";
            row.detail = format!(
                "AMD's sequence is not a valid DWARF 5 expression: gimli stops with {e:?} (it relies on AMD's extension in which DW_OP_regx pushes a location that later operations read); a DWARF 5 consumer cannot evaluate it"
            );
            return;
        }
    }
    let first_arg = args.split(',').next().unwrap_or("").to_string();
    let Some((binding, entity)) = operand_binding(&row.operand, &first_arg) else {
        row.detail = format!(
            "the operand ({}) is not a register or constant a context can hold",
            row.operand
        );
        return;
    };
    compare_contexts(
        row,
        &entry.bare,
        &file.types,
        &dl,
        &binding,
        entity,
        &amd_ops,
        &regs,
    );
}

#[allow(clippy::too_many_arguments)]
fn compare_contexts(
    row: &mut Row,
    bare: &Bare,
    types: &TypeTable,
    dl: &diopter_semantics::types::DataLayout,
    binding: &str,
    entity: Option<String>,
    amd_ops: &[DwOp],
    regs: &[(u16, String)],
) {
    let amd_bytes = encode(amd_ops);
    let mut diopter_text = None;
    let mut same_lowered = 0;
    let mut same_reference = 0;
    for seed in 0..CONTEXTS {
        let mut text = format!("seed {seed}\narg 0 = {binding}\n");
        if let Some(e) = &entity {
            text.push_str(&format!("{e} = i32 0x{:x}\n", splitmix64(seed) as u32));
        }
        for (_, e) in regs {
            if Some(e) != entity.as_ref() {
                text.push_str(&format!(
                    "{e} = i32 0x{:x}\n",
                    splitmix64(seed ^ 0x55) as u32
                ));
            }
        }
        let mut ctx = match Context::parse(&text) {
            Ok(c) => c,
            Err(d) => {
                row.detail = format!(
                    "context: {}",
                    d.first().map_or(String::new(), |d| d.message.clone())
                );
                return;
            }
        };
        ctx.datalayout = dl.clone();
        // AMD's bytes in gimli.
        let machine = Machine {
            ctx: &ctx,
            registers: &[],
            implicit_targets: &[],
            extra_registers: regs,
        };
        let reference = interp::eval_bare(bare, types, &ctx);
        let bits_of = |r: &Located| r.fragment.map_or(r.bits, |f| f.1);
        let amd_loc: Result<LocDesc, String> = if amd_bytes.is_empty() {
            // An empty DWARF expression: the object is optimized out.
            Ok(LocDesc::undefined())
        } else {
            match machine.evaluate(&amd_bytes, &|_| 64) {
                Ok(p) => machine.location(&p, &diopter_semantics::types::Type::Int(64), 64),
                Err(e) => Err(format!("{e:?}")),
            }
        };
        let amd_loc = match amd_loc {
            Ok(l) => l,
            Err(e) => {
                row.verdict = "different";
                row.detail = format!(
                    "AMD's sequence is not a valid DWARF 5 expression: gimli stops with {e} (it relies on AMD's extension in which DW_OP_regx pushes a location that later operations read)"
                );
                return;
            }
        };
        let Ok(r) = &reference else {
            row.detail = format!("the reference fails: {}", reference.unwrap_err());
            return;
        };
        let bits = bits_of(r);
        let amd_says = read_and_write(&ctx, &amd_loc, bits);
        let ref_says = read_and_write(&ctx, &r.loc, bits);
        let lowered = lower(bare, types, &ctx);
        match &lowered {
            Ok(l) => {
                if diopter_text.is_none() {
                    diopter_text = Some(format!(
                        "{}   [{}]",
                        print_ops(&l.ops),
                        super::ops::hex(&l.bytes)
                    ));
                }
                let ours = evaluate(l, &ctx).map(|x| read_and_write(&ctx, &x.loc, bits));
                match ours {
                    Ok(s) if s == amd_says => same_lowered += 1,
                    Ok(s) => {
                        row.verdict = "different";
                        row.detail = format!(
                            "context `{}`: diopter's DWARF {s}, AMD's {amd_says} ({bits} bits)",
                            text.trim().replace('\n', "; ")
                        );
                        row.diopter = diopter_text.unwrap_or_default();
                        return;
                    }
                    Err(e) => {
                        row.verdict = "different";
                        row.detail = format!("diopter's DWARF fails in gimli: {e}");
                        return;
                    }
                }
            }
            Err(e) => row.diopter = format!("not lowerable: {e}"),
        }
        if ref_says == amd_says {
            same_reference += 1;
        } else if lowered.is_err() {
            row.verdict = "different";
            row.detail = format!(
                "diopter does not lower it; against the reference interpreter: in context `{}` the reference {ref_says}, AMD's DWARF {amd_says} ({bits} bits)",
                text.trim().replace('\n', "; ")
            );
            return;
        }
    }
    if let Some(t) = diopter_text {
        row.diopter = t;
    }
    if same_lowered == CONTEXTS {
        row.verdict = "same";
        row.detail = format!(
            "same reads and writes in {CONTEXTS} contexts (and the reference interpreter agrees in {same_reference})"
        );
    } else {
        row.detail = format!(
            "diopter does not lower it ({}); the reference interpreter means the same as AMD's DWARF in {same_reference} of {CONTEXTS} contexts",
            row.diopter
        );
    }
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
                "  {{\"row\": {}, \"expression\": {}, \"operand\": {}, \"amd_expected\": {}, \"diopter\": {}, \"verdict\": {}, \"detail\": {}}}",
                r.row,
                json_str(&r.expression),
                json_str(&r.operand),
                json_str(&r.expected),
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
    s.push_str("# diopter's DWARF lowering vs AMD's expected DWARF\n\n");
    s.push_str(
        "Generated by `DIOPTER_WRITE_REPORTS=1 cargo test -p diopter-dwarf --test dwarf_amd` \
from `corpus/amd/amd-dwarf.tsv` (AMD's expected `llvm-dwarfdump` operations), \
`corpus/amd/amd-dwarf.operands.tsv` (where the operand lives) and `corpus/amd/dwarf.expr` \
(types, data layout). Do not edit by hand.\n\n",
    );
    s.push_str(&format!(
        "Method: for each row whose expected operations are standard DWARF 5, argument 0 is placed \
where AMD's test put it (a register `$sgprN` holding a random i32, or the null constant), \
{CONTEXTS} contexts are generated (seeds 0..{CONTEXTS}), AMD's bytes and diopter's lowering are both \
evaluated with gimli, and the two locations are compared by what reading and writing through them \
does (the fragment's bits when the row has a `DIOpFragment`, since AMD's row is that fragment's \
piece). The reference interpreter's location is compared with AMD's the same way. Rows with \
AMD-only `DW_OP_LLVM_*` operations cannot be evaluated by a DWARF 5 consumer and are not \
comparable.\n\n"
    ));
    s.push_str(&format!(
        "Summary: {} rows; **same meaning: {}**, **different meaning: {}**, not comparable: {}.\n\n",
        rows.len(),
        count("same"),
        count("different"),
        count("not-comparable")
    ));
    s.push_str(
        "| row | expression | operand | AMD's DWARF | diopter's DWARF | verdict | detail |\n",
    );
    s.push_str("|---|---|---|---|---|---|---|\n");
    let cell = |x: &str| x.replace('|', "\\|");
    for r in rows {
        s.push_str(&format!(
            "| {} | `{}` | {} | `{}` | {} | **{}** | {} |\n",
            r.row,
            cell(&r.expression),
            cell(&r.operand),
            cell(&r.expected),
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
