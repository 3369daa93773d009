//! The fast evaluator against the gimli oracle on the same expressions, in
//! one run so that the ratio means something: generated cases (seeds 0..,
//! at most 16 operations) that lower to DWARF, up to 300 of them, each in
//! the context the generator made for it. Each iteration evaluates the
//! whole set. The fast evaluator's programs are compiled beforehand, and so
//! are the DWARF bytes: `fast` gives the evaluator's compact result,
//! `fast+outcome` converts it to the reference's `Outcome`; `gimli` is `dwarf::evaluate` (gimli's evaluation,
//! answering its requests, mapping the pieces back to a location);
//! `gimli-only` is gimli's evaluation and the requests alone.
//!
//!     cargo bench -p diopter-dwarf --bench dwarf -- --warm-up-time 1 --measurement-time 3
//!
//! At the end it prints the mean time per iteration of each and the ratios
//! (the goal: the fast evaluator at least 3× gimli).

#[path = "common/dwarf_items.rs"]
mod items;

use criterion::Criterion;
use diopter_fast::Scratch;
use items::{items, run_fast, run_fast_outcome, run_gimli, run_gimli_only};
use std::time::Instant;

fn mean_secs(f: &mut dyn FnMut(), iters: u32) -> f64 {
    let t = Instant::now();
    for _ in 0..iters {
        f();
    }
    t.elapsed().as_secs_f64() / f64::from(iters)
}

fn main() {
    let items = items();
    let mut c = Criterion::default().configure_from_args();
    let mut scratch = Scratch::default();
    c.bench_function("dwarf/fast", |b| b.iter(|| run_fast(&items, &mut scratch)));
    c.bench_function("dwarf/fast+outcome", |b| {
        b.iter(|| run_fast_outcome(&items, &mut scratch))
    });
    c.bench_function("dwarf/gimli", |b| b.iter(|| run_gimli(&items)));
    c.bench_function("dwarf/gimli-only", |b| b.iter(|| run_gimli_only(&items)));
    c.final_summary();
    // One more timing in the same run, for the ratio.
    let fast_t = mean_secs(&mut || run_fast(&items, &mut scratch), 200);
    let gimli_t = mean_secs(&mut || run_gimli(&items), 200);
    let only_t = mean_secs(&mut || run_gimli_only(&items), 200);
    println!(
        "{} lowered expressions: fast {:.1} µs, gimli oracle {:.1} µs ({:.2}× slower than fast), gimli evaluation alone {:.1} µs ({:.2}×)",
        items.len(),
        fast_t * 1e6,
        gimli_t * 1e6,
        gimli_t / fast_t,
        only_t * 1e6,
        only_t / fast_t
    );
}
