//! Why generated cases do not lower: the lowering coverage of the 4,000
//! seeds `tests/dwarf_gen.rs` and `tests/dwarf_ext.rs` use, with a count per
//! reason class (`NotLowerable::class`), for DWARF 5 and with AMD's
//! extensions.
//!
//! `cargo run -p diopter-dwarf --example lower_reasons [SEEDS]`

use diopter_dwarf::{lower, lower_ext, LowerFn};
use diopter_gen::{Case, GenConfig};
use std::collections::BTreeMap;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(4000);
    let cfg = GenConfig {
        max_ops: 16,
        ..GenConfig::default()
    };
    let cases: Vec<Case> = (0..n).map(|seed| Case::from_seed(seed, &cfg)).collect();
    let forms: [(&str, LowerFn); 2] = [("DWARF 5", lower), ("with AMD's extensions", lower_ext)];
    for (name, f) in forms {
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        let mut ok = 0;
        for case in &cases {
            match f(&case.bare, &case.types, &case.ctx) {
                Ok(_) => ok += 1,
                Err(e) => *reasons.entry(e.class()).or_default() += 1,
            }
        }
        let mut v: Vec<_> = reasons.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        println!(
            "{name}: {ok} of {n} lower ({:.1} %)",
            100.0 * ok as f64 / n.max(1) as f64
        );
        for (k, c) in v.iter().take(40) {
            println!("{c:6}  {k}");
        }
        println!();
    }
}
