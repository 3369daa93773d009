//! diopter's lowering against AMD's expected DWARF (corpus/amd/amd-dwarf.tsv),
//! compared by meaning with gimli (see `diopter_dwarf::amd`). With
//! `DIOPTER_WRITE_REPORTS=1` the test also writes `reports/dwarf-amd.md` and
//! `reports/dwarf-amd.json`.

use diopter_dwarf::amd::{evaluate_text, parse_dwarfdump, report, to_json, to_markdown};
use diopter_dwarf::eval::DwarfLocation;
use diopter_semantics::context::Context;
use std::path::Path;

fn corpus(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/amd")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn dwarfdump_text_parses_and_llvm_ops_are_refused() {
    let mut regs = Vec::new();
    let ops = parse_dwarfdump("DW_OP_regx SGPR42, DW_OP_bit_piece 0x1e 0x0", &mut regs).unwrap();
    assert_eq!(ops.len(), 2);
    assert_eq!(regs, [(0x8000, "$sgpr42".to_string())]);
    let bad = parse_dwarfdump(
        "DW_OP_regx VGPR42, DW_OP_LLVM_user DW_OP_LLVM_push_lane",
        &mut regs,
    )
    .unwrap_err();
    assert_eq!(bad, ["DW_OP_LLVM_user DW_OP_LLVM_push_lane"]);
    // AMD's `lit0, stack_value` is the value 0 in gimli.
    let p = evaluate_text("DW_OP_lit0, DW_OP_stack_value", &Context::default()).unwrap();
    assert!(matches!(&p[..], [x] if matches!(&x.location, DwarfLocation::Value(v) if v.is_zero())));
}

#[test]
fn amd_expected_dwarf_compared_by_meaning() {
    let rows = report(
        &corpus("amd-dwarf.tsv"),
        &corpus("amd-dwarf.operands.tsv"),
        &corpus("dwarf.expr"),
    );
    assert_eq!(rows.len(), 73);
    let verdict = |n: usize| rows[n - 1].verdict;
    // A register operand: `DW_OP_regx SGPR42` both ways.
    for n in [16, 23, 29, 30, 35] {
        assert_eq!(verdict(n), "same", "row {n}: {}", rows[n - 1].detail);
    }
    // The null constant: AMD's `lit0, stack_value`, ours an implicit value.
    for n in [8, 9] {
        assert_eq!(verdict(n), "same", "row {n}: {}", rows[n - 1].detail);
    }
    // A register location followed by DW_OP_deref_size is not DWARF 5.
    assert_eq!(verdict(10), "different", "{}", rows[9].detail);
    // Every row with DW_OP_LLVM_* operations is not comparable.
    for r in &rows {
        if r.expected.contains("DW_OP_LLVM") {
            assert_eq!(r.verdict, "not-comparable", "row {}", r.row);
        }
    }
    if std::env::var_os("DIOPTER_WRITE_REPORTS").is_some() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../reports");
        std::fs::write(dir.join("dwarf-amd.md"), to_markdown(&rows)).unwrap();
        std::fs::write(dir.join("dwarf-amd.json"), to_json(&rows)).unwrap();
    }
}
