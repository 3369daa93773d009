//! A batch of hand-built cases whose bytes were worked out by hand, read by
//! gimli, GDB and LLDB in one program (register pieces, memory through a
//! pointer and as a location, implicit values, a computed value, a float
//! -0.0 in a register, location lists with three ranges). Skips, saying
//! so, when the debuggers or a C compiler are missing.

use diopter_debuggers::baseline::DwarfVerdict;
use diopter_debuggers::{batch, prepare, Answer, Class, Debugger, Tools};

/// (case file text, the bytes worked out by hand)
const CASES: &[(&str, &[u8])] = &[
    // Two register pieces: DIOpComposite's last-pushed part (argument 1)
    // lies above the first (DESIGN.md "Composite"): the low 32 bits of %a,
    // then the low 32 bits of %b.
    (
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpComposite(2, i64)
--- context
%a = i64 0x1111111144332211
%b = i64 0x2222222288776655
arg 0 = %a
arg 1 = %b
",
        &[0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88],
    ),
    // A variable in memory: the four bytes at 0x10000000.
    (
        "[i32] DIOpArg(0, i32)
--- context
mem 0 0x10000000 = 78 56 34 12
arg 0 = mem(0, 0x10000000)
",
        &[0x78, 0x56, 0x34, 0x12],
    ),
    // A pointer in a register, dereferenced: the bytes at 0x10001010.
    (
        "[ptr] DIOpArg(0, ptr), DIOpDeref(i32)
--- context
mem 0 0x10001010 = ef be ad de
%p = i64 0x10001010
arg 0 = %p
",
        &[0xef, 0xbe, 0xad, 0xde],
    ),
    // An implicit value.
    (
        "[i32] DIOpArg(0, i32)
--- context
arg 0 = implicit(i32 0x01020304)
",
        &[0x04, 0x03, 0x02, 0x01],
    ),
    // A computed value: 10 + 5 from a register.
    (
        "[i32] DIOpArg(0, i32), DIOpConstant(i32 5), DIOpAdd()
--- context
%a = i64 0x700000000000000a
arg 0 = %a
",
        &[0x0f, 0, 0, 0],
    ),
    // A float -0.0 in a register, multiplied by 1.0: -0.0.
    (
        "[float] DIOpArg(0, float), DIOpConstant(float 1.0), DIOpMul()
--- context
%f = i64 0x80000000
arg 0 = %f
",
        &[0, 0, 0, 0x80],
    ),
];

#[test]
fn hand_built_batch_reads_the_same_in_every_consumer() {
    let tools = Tools::find();
    if !tools.missing().is_empty() {
        eprintln!(
            "SKIPPED: the debugger oracle needs {}",
            tools.missing().join(", ")
        );
        return;
    }
    let prepared: Vec<_> = CASES
        .iter()
        .map(|(text, want)| {
            let case = diopter_diff::read_case_file(text).expect("the case parses");
            let p = prepare::prepare(case).expect("the case is applicable");
            // The reference reads what was worked out by hand.
            assert_eq!(
                p.reference
                    .as_ref()
                    .map(diopter_semantics::value::Bits::to_le_bytes),
                Ok(want.to_vec()),
                "reference on {text}"
            );
            p
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("diopter-dbg-hand-{}", std::process::id()));
    let (results, _) =
        batch::run(&prepared, &tools, &batch::Options::new(&dir)).expect("the batch runs");
    for (i, (r, p)) in results.iter().zip(&prepared).enumerate() {
        let want = CASES[i].1;
        // gimli agrees, except on case 5: gimli 0.31 reads a float register
        // by DW_OP_regval_type as the register plus +0.0, which turns -0.0
        // into +0.0 (docs/known-issues.md); the gimli oracle declines it.
        match (i, &p.gimli) {
            (5, DwarfVerdict::Skipped(why)) => assert!(why.contains("adds +0.0"), "{why}"),
            (_, v) => assert_eq!(*v, DwarfVerdict::Agree, "gimli on case {i}"),
        }
        // GDB reads every case's bytes.
        let (a, c) = &r.answers[&Debugger::Gdb];
        assert_eq!(
            *a,
            Answer::Bytes(want.iter().map(|b| Some(*b)).collect()),
            "gdb on case {i}"
        );
        assert_eq!(*c, Class::Agree);
        // LLDB 19 reads the locations, but refuses DW_OP_const_type, which
        // the lowering uses for the typed constants of cases 4 and 5.
        let (a, c) = &r.answers[&Debugger::Lldb];
        match i {
            4 | 5 => {
                assert_eq!(
                    *a,
                    Answer::Error("Unhandled opcode DW_OP_const_type in DWARFExpression".into())
                );
                assert_eq!(c.label(), "refuses");
            }
            _ => {
                assert_eq!(
                    *a,
                    Answer::Bytes(want.iter().map(|b| Some(*b)).collect()),
                    "lldb on case {i}"
                );
                assert_eq!(*c, Class::Agree);
            }
        }
    }
    // Every other variable has a location list (decoy, the case, decoy).
    assert!(results.iter().filter(|r| r.loclist).count() == CASES.len() / 2);
    if std::env::var_os("DIOPTER_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
