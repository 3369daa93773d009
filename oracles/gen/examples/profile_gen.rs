//! The generator's share of an `eval_diff` execution, run alone for a
//! profiler: `N` cases read from byte strings as libFuzzer's `Arbitrary`
//! reads them (`Case::from_bytes`, the eval_diff target's first step), the
//! byte strings pseudo-random of 64 to 1,024 bytes. Generated types are not
//! cross-checked, as in the fuzz target.
//!
//!     cargo build --release -p diopter-gen --example profile_gen
//!     valgrind --tool=callgrind --toggle-collect='profile_gen::run*' \
//!         target/release/examples/profile_gen 2000
//!
//! It prints a digest of the cases' one-line forms and contexts (computed
//! outside the profiled function), and one of the cases `Case::from_seed`
//! makes from the seeds 0..N, so that a change meant to make the generator
//! cheaper can be shown to generate the same cases.

use diopter_gen::{Case, GenConfig, Generate};
use diopter_semantics::context::splitmix64;
use std::hash::{Hash, Hasher};
use std::hint::black_box;
use std::sync::atomic::Ordering;

/// The inputs: `n` byte strings from a fixed seed.
fn inputs(n: u64) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| {
            let len = 64 + splitmix64(i) % 961;
            (0..len).map(|j| splitmix64(i << 20 ^ j) as u8).collect()
        })
        .collect()
}

#[inline(never)]
fn run_generate(inputs: &[Vec<u8>]) -> Vec<Case> {
    inputs
        .iter()
        .map(|d| Case::from_bytes(d, &GenConfig::default()))
        .map(black_box)
        .collect()
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .map_or(2000, |a| a.parse().expect("usage: profile_gen [N]"));
    diopter_gen::expr::CROSS_CHECK.store(false, Ordering::Relaxed);
    let inputs = inputs(n);
    let cases = run_generate(&inputs);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut ops = 0;
    for c in &cases {
        c.expr_line().hash(&mut h);
        c.ctx.to_string().hash(&mut h);
        ops += c.bare.expr.ops.len();
    }
    // The seeded driver (splitmix64) too: the same cases from the same
    // seeds.
    let mut hs = std::collections::hash_map::DefaultHasher::new();
    for seed in 0..n {
        let c = Case::from_seed(seed, &GenConfig::default());
        c.expr_line().hash(&mut hs);
        c.ctx.to_string().hash(&mut hs);
    }
    println!(
        "{} cases, {:.2} operations each, digest {:016x}; from seeds 0..{n}: digest {:016x}",
        cases.len(),
        ops as f64 / cases.len().max(1) as f64,
        h.finish(),
        hs.finish()
    );
}
