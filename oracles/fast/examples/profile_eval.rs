//! One workload of `benches/eval.rs`, run N times without criterion, for a
//! profiler (reports/profiles.md):
//!
//!     cargo build --release -p diopter-fast --example profile_eval
//!     valgrind --tool=callgrind --toggle-collect='profile_eval::run*' \
//!         target/release/examples/profile_eval generated fast 20
//!
//! `SET` is `corpus` or `generated`; `SIDE` is `reference`, `fast`,
//! `fast+outcome` or `fast+compile` (the four benchmarks of a group), or
//! `fast-lazy` (`fast` in contexts not prepared beforehand). Building the inputs is
//! outside the `run_*` functions, so `--toggle-collect` counts the workload
//! alone. It prints the set's size and mean operation count, which turn the
//! instruction counts into per-evaluation and per-operation figures.

#[path = "../benches/common/eval_items.rs"]
mod items;
#[path = "../tests/fast_support.rs"]
mod support;

use diopter_fast::{Compiled, PreparedContext, Scratch};
use items::{corpus_items, generated_items, Item};
use std::hint::black_box;

#[inline(never)]
fn run_reference(items: &[Item], n: usize) {
    for _ in 0..n {
        for item in items {
            black_box(item.reference()).ok();
        }
    }
}

#[inline(never)]
fn run_fast(prepared: &[PreparedContext], programs: &[Compiled], n: usize) {
    let mut scratch = Scratch::new();
    for _ in 0..n {
        for (ctx, p) in prepared.iter().zip(programs) {
            black_box(&p.run_prepared(ctx, &mut scratch));
        }
    }
}

#[inline(never)]
fn run_fast_lazy(items: &[Item], programs: &[Compiled], n: usize) {
    let mut scratch = Scratch::new();
    for _ in 0..n {
        for (item, p) in items.iter().zip(programs) {
            black_box(&p.run(&item.ctx, &mut scratch));
        }
    }
}

#[inline(never)]
fn run_fast_outcome(prepared: &[PreparedContext], programs: &[Compiled], n: usize) {
    let mut scratch = Scratch::new();
    for _ in 0..n {
        for (ctx, p) in prepared.iter().zip(programs) {
            black_box(p.eval_prepared(ctx, &mut scratch)).ok();
        }
    }
}

#[inline(never)]
fn run_fast_compile(items: &[Item], mut p: Compiled, n: usize) {
    let mut scratch = Scratch::new();
    for _ in 0..n {
        for item in items {
            item.compile_once(&mut p);
            black_box(&p.run(&item.ctx, &mut scratch));
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage =
        "usage: profile_eval corpus|generated reference|fast|fast-lazy|fast+outcome|fast+compile N";
    let (set, side, n) = match args.as_slice() {
        [_, set, side, n] => (set.as_str(), side.as_str(), n.parse().expect(usage)),
        _ => panic!("{usage}"),
    };
    let items = match set {
        "corpus" => corpus_items(),
        "generated" => generated_items(300),
        _ => panic!("{usage}"),
    };
    let ops: usize = items.iter().map(|i| i.bare.expr.ops.len()).sum();
    eprintln!(
        "{set}: {} expressions, {:.2} operations each on average; {side} x {n}",
        items.len(),
        ops as f64 / items.len() as f64
    );
    let t = std::time::Instant::now();
    let d = match side {
        "reference" => timed(|| run_reference(&items, n)),
        "fast" => {
            let programs: Vec<Compiled> = items.iter().map(Item::compile).collect();
            let prepared: Vec<PreparedContext> = items.iter().map(Item::prepare).collect();
            timed(|| run_fast(&prepared, &programs, n))
        }
        "fast-lazy" => {
            let programs: Vec<Compiled> = items.iter().map(Item::compile).collect();
            timed(|| run_fast_lazy(&items, &programs, n))
        }
        "fast+outcome" => {
            let programs: Vec<Compiled> = items.iter().map(Item::compile).collect();
            let prepared: Vec<PreparedContext> = items.iter().map(Item::prepare).collect();
            timed(|| run_fast_outcome(&prepared, &programs, n))
        }
        "fast+compile" => {
            let p = items[0].compile();
            timed(|| run_fast_compile(&items, p, n))
        }
        _ => panic!("{usage}"),
    };
    // The workload's wall time (what `--toggle-collect` counts): a quick
    // check between criterion runs, not a benchmark.
    eprintln!(
        "{:.1} ns per evaluation (wall, the workload alone; {:.2} s in all)",
        d.as_secs_f64() * 1e9 / (n * items.len()) as f64,
        t.elapsed().as_secs_f64()
    );
}

fn timed(f: impl FnOnce()) -> std::time::Duration {
    let t = std::time::Instant::now();
    f();
    t.elapsed()
}
