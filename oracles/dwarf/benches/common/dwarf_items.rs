//! The inputs and workloads of `benches/dwarf.rs`, shared with
//! `examples/profile_dwarf.rs` so that the profile runs exactly what the
//! benchmark times. Both include this file with `#[path]`.

use criterion::black_box;
use diopter_dwarf::eval::Machine;
use diopter_dwarf::{evaluate, lower, Lowered};
use diopter_fast::{self as fast, Compiled, Scratch};
use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_semantics::check::BareInputs;

pub struct Item {
    pub case: Case,
    pub compiled: Compiled,
    pub lowered: Lowered,
}

/// Generated cases (seeds 0.., at most 16 operations) that lower to DWARF,
/// the first 300, with their fast programs and DWARF bytes.
pub fn items() -> Vec<Item> {
    let cfg = GenConfig {
        max_ops: 16,
        ..GenConfig::default()
    };
    let mut out = Vec::new();
    for seed in 0..200_000u64 {
        if out.len() == 300 {
            break;
        }
        let case = Case::from_seed(seed, &cfg);
        let Ok(lowered) = lower(&case.bare, &case.types, &case.ctx) else {
            continue;
        };
        let inputs = BareInputs::of(&case.bare, &case.ctx.datalayout, &case.types);
        let env = inputs.env(case.bare.expr.dialect, &case.ctx.datalayout, &case.types);
        let compiled = fast::compile_unchecked(&case.bare.expr, &env);
        out.push(Item {
            case,
            compiled,
            lowered,
        });
    }
    out
}

/// `dwarf/fast`: the fast evaluator on every item, giving its own compact
/// result (`Compiled::run`: the location in machine words).
#[inline(never)]
pub fn run_fast(items: &[Item], scratch: &mut Scratch) {
    for i in items {
        black_box(&i.compiled.run(&i.case.ctx, scratch));
    }
}

/// `dwarf/fast+outcome`: the same, converted to the reference's `Outcome`
/// as the differential oracle does.
#[inline(never)]
pub fn run_fast_outcome(items: &[Item], scratch: &mut Scratch) {
    for i in items {
        black_box(i.compiled.eval(&i.case.ctx, scratch).is_ok());
    }
}

/// `dwarf/gimli`: the gimli oracle (`dwarf::evaluate`) on every item.
#[inline(never)]
pub fn run_gimli(items: &[Item]) {
    for i in items {
        black_box(evaluate(&i.lowered, &i.case.ctx).is_ok());
    }
}

/// `dwarf/gimli-only`: gimli's evaluation and the answers to its requests,
/// without mapping the pieces back to a location.
#[inline(never)]
pub fn run_gimli_only(items: &[Item]) {
    for i in items {
        let l = &i.lowered;
        let m = Machine {
            ctx: &i.case.ctx,
            registers: &l.registers,
            implicit_targets: &l.implicit_targets,
            extra_registers: &[],
        };
        let bits = |k: usize| l.read_sites.get(k).map_or(64, |s| s.bits);
        black_box(m.evaluate(&l.bytes, &bits).is_ok());
    }
}
