//! Why generated cases do not lower: the lowering coverage of the 4,000
//! seeds `oracles/harness/tests/dwarf_gen.rs` and `oracles/harness/tests/dwarf_ext.rs` use (or `SEEDS`),
//! with a count per reason class, for DWARF 5 and with AMD's extensions
//! (`diopter_dwarf::coverage`, as `reports/lowering.md` measures it).
//!
//! `cargo run -p diopter-dwarf --example lower_reasons [SEEDS]`

use diopter_dwarf::coverage;
use diopter_gen::{Case, GenConfig, Generate};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(4000);
    for (name, ext) in [("DWARF 5", false), ("with AMD's extensions", true)] {
        let cfg = GenConfig {
            max_ops: coverage::GENERATED_MAX_OPS,
            ..GenConfig::default()
        };
        let c = coverage::generated((0..n).map(|seed| Case::from_seed(seed, &cfg)), ext);
        println!(
            "{name}: {} of {} lower ({:.1} %)",
            c.lowered,
            c.total,
            c.percent()
        );
        for (k, n) in c.ranked().iter().take(40) {
            println!("{n:6}  {k}");
        }
        println!();
    }
}
