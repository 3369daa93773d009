//! One workload of `benches/dwarf.rs`, run N times without criterion's
//! timing, for a profiler (reports/profiles.md):
//!
//!     cargo build --release -p diopter-dwarf --example profile_dwarf
//!     valgrind --tool=callgrind --toggle-collect='profile_dwarf::items::run*' \
//!         target/release/examples/profile_dwarf fast 20
//!
//! `SIDE` is `fast`, `fast+outcome`, `gimli` or `gimli-only` (the four
//! benchmarks). The
//! inputs are built outside the `run_*` functions, so `--toggle-collect`
//! counts the workload alone.

#[path = "../benches/common/dwarf_items.rs"]
mod items;

use diopter_fast::Scratch;
use items::{items, run_fast, run_fast_outcome, run_gimli, run_gimli_only};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: profile_dwarf fast|fast+outcome|gimli|gimli-only N";
    let (side, n): (&str, usize) = match args.as_slice() {
        [_, side, n] => (side.as_str(), n.parse().expect(usage)),
        _ => panic!("{usage}"),
    };
    let items = items();
    let ops: usize = items.iter().map(|i| i.case.bare.expr.ops.len()).sum();
    let bytes: usize = items.iter().map(|i| i.lowered.bytes.len()).sum();
    eprintln!(
        "{} lowered expressions, {:.2} DIOp operations and {:.2} DWARF bytes each on average; {side} x {n}",
        items.len(),
        ops as f64 / items.len() as f64,
        bytes as f64 / items.len() as f64
    );
    let mut scratch = Scratch::default();
    for _ in 0..n {
        match side {
            "fast" => run_fast(&items, &mut scratch),
            "fast+outcome" => run_fast_outcome(&items, &mut scratch),
            "gimli" => run_gimli(&items),
            "gimli-only" => run_gimli_only(&items),
            _ => panic!("{usage}"),
        }
    }
}
