//! The fast evaluator against the reference interpreter, in one run so that
//! the ratio means something: the corpus expressions (each in one fixed
//! context) and generated expressions of 8 to 32 operations (each in the
//! context the generator made for it). Each iteration evaluates the whole
//! set; the fast evaluator's programs are compiled beforehand ("compile
//! once, evaluate many times") and share one `Scratch`. `fast` gives the
//! evaluator's own compact result (`Compiled::run_prepared`) in each item's
//! context **prepared beforehand** (`PreparedContext::new`, outside the
//! timed loop: a debugger prepares a stop's context once and evaluates many
//! expressions in it), `fast+outcome` converts that result to the
//! reference's `Outcome` as the differential oracle does. `fast+compile` is
//! the one-shot path, the expression and the raw `Context` in and the
//! result out: compiling (`Compiled::recompile_unchecked`, the
//! `compile_unchecked` of each expression into the buffers of the previous
//! program, as the `Scratch` is reused) and one `Compiled::run` in the
//! unprepared context (which loads only the locations the expression
//! names: cheaper for a single evaluation than preparing the context).
//!
//!     cargo bench -p diopter-fast --bench eval -- --warm-up-time 1 --measurement-time 3
//!
//! Besides criterion's estimates it prints, at the end, the mean time per
//! iteration of each benchmark over everything it ran and the ratios, and
//! (when no filter is given) the same ratios timed in alternation
//! (`interleaved`), which a machine whose speed drifts does not skew.

#[path = "common/eval_items.rs"]
mod items;
#[path = "../tests/fast_support.rs"]
mod support;

use criterion::{black_box, Criterion};
use diopter_fast::{Compiled, PreparedContext, Scratch};
use items::{corpus_items, generated_items, Item};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

thread_local! {
    /// Per benchmark: total iterations and time, over every sample.
    static TOTALS: RefCell<BTreeMap<String, (u64, Duration)>> = const { RefCell::new(BTreeMap::new()) };
}

fn record(name: &str, iters: u64, d: Duration) {
    TOTALS.with(|t| {
        let mut t = t.borrow_mut();
        let e = t.entry(name.to_string()).or_default();
        e.0 += iters;
        e.1 += d;
    });
}

fn per_iter(name: &str) -> Duration {
    TOTALS.with(|t| {
        let t = t.borrow();
        let (n, d) = t[name];
        d / u32::try_from(n.max(1)).unwrap_or(u32::MAX)
    })
}

fn bench_set(c: &mut Criterion, set: &str, items: &[Item]) {
    let programs: Vec<Compiled> = items.iter().map(Item::compile).collect();
    let prepared: Vec<PreparedContext> = items.iter().map(Item::prepare).collect();
    // The fast evaluator is exact: check that before timing it.
    let mut scratch = Scratch::new();
    let mut ok = 0;
    for ((item, p), pre) in items.iter().zip(&programs).zip(&prepared) {
        let r = item.reference();
        assert_eq!(p.eval(&item.ctx, &mut scratch), r);
        assert_eq!(p.eval_prepared(pre, &mut scratch), r);
        ok += usize::from(r.is_ok());
    }
    eprintln!(
        "{set}: {} expressions, {ok} evaluate without error",
        items.len()
    );
    let mut g = c.benchmark_group(set);
    let name = format!("{set}/reference");
    g.bench_function("reference", |b| {
        b.iter_custom(|iters| {
            let t = Instant::now();
            for _ in 0..iters {
                for item in items {
                    black_box(item.reference()).ok();
                }
            }
            let d = t.elapsed();
            record(&name, iters, d);
            d
        })
    });
    let name = format!("{set}/fast");
    g.bench_function("fast", |b| {
        let mut scratch = Scratch::new();
        b.iter_custom(|iters| {
            let t = Instant::now();
            for _ in 0..iters {
                for (pre, p) in prepared.iter().zip(&programs) {
                    black_box(&p.run_prepared(pre, &mut scratch));
                }
            }
            let d = t.elapsed();
            record(&name, iters, d);
            d
        })
    });
    let name = format!("{set}/fast+outcome");
    g.bench_function("fast+outcome", |b| {
        let mut scratch = Scratch::new();
        b.iter_custom(|iters| {
            let t = Instant::now();
            for _ in 0..iters {
                for (pre, p) in prepared.iter().zip(&programs) {
                    black_box(p.eval_prepared(pre, &mut scratch)).ok();
                }
            }
            let d = t.elapsed();
            record(&name, iters, d);
            d
        })
    });
    let name = format!("{set}/fast+compile");
    g.bench_function("fast+compile", |b| {
        let mut scratch = Scratch::new();
        // The buffers the first program grows are reused by the next.
        let mut p = items[0].compile();
        b.iter_custom(|iters| {
            let t = Instant::now();
            for _ in 0..iters {
                for item in items {
                    item.compile_once(&mut p);
                    black_box(&p.run(&item.ctx, &mut scratch));
                }
            }
            let d = t.elapsed();
            record(&name, iters, d);
            d
        })
    });
    g.finish();
}

/// The reference and the fast evaluator (prepared contexts; and with
/// compilation) timed in alternation, 21 rounds of about 0.2 s each: the
/// median per-evaluation times and their ratios. Criterion measures one
/// benchmark after another, so a machine whose speed drifts over seconds
/// (a shared host) moves one side of a ratio and not the other; here both
/// sides see the same drift.
fn interleaved(set: &str, items: &[Item]) {
    let programs: Vec<Compiled> = items.iter().map(Item::compile).collect();
    let prepared: Vec<PreparedContext> = items.iter().map(Item::prepare).collect();
    let mut scratch = Scratch::new();
    let mut p = items[0].compile();
    // Per-evaluation nanoseconds of `reps` passes over the set.
    let mut time = |side: usize, reps: u32| {
        let t = Instant::now();
        for _ in 0..reps {
            match side {
                0 => items.iter().for_each(|i| {
                    black_box(i.reference()).ok();
                }),
                1 => prepared.iter().zip(&programs).for_each(|(pre, p)| {
                    black_box(&p.run_prepared(pre, &mut scratch));
                }),
                _ => items.iter().for_each(|i| {
                    i.compile_once(&mut p);
                    black_box(&p.run(&i.ctx, &mut scratch));
                }),
            }
        }
        t.elapsed().as_secs_f64() * 1e9 / f64::from(reps) / items.len() as f64
    };
    // Passes per side so that each takes about 0.2 s.
    let reps: Vec<u32> = (0..3)
        .map(|side| {
            (0.2e9 / (time(side, 3) * items.len() as f64))
                .ceil()
                .max(1.0) as u32
        })
        .collect();
    let mut ns = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..21 {
        for side in 0..3 {
            ns[side].push(time(side, reps[side]));
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let [r, f, fc] = ns.map(|mut v| median(&mut v));
    println!(
        "{set:>9} interleaved (21 rounds, medians): reference {r:.0} ns, fast {f:.1} ns, fast with compile {fc:.0} ns per evaluation; fast is {:.1}x the reference, {:.1}x with compile",
        r / f,
        r / fc
    );
}

fn main() {
    let corpus = corpus_items();
    let generated = generated_items(300);
    let mut c = Criterion::default().configure_from_args();
    bench_set(&mut c, "corpus", &corpus);
    bench_set(&mut c, "generated", &generated);
    c.final_summary();
    // Not when a filter picked some benchmarks (`cargo bench -- corpus/fast`);
    // options and their numbers (`--measurement-time 3`) are no filter.
    if std::env::args()
        .skip(1)
        .all(|a| a.starts_with('-') || a.parse::<f64>().is_ok())
    {
        interleaved("corpus", &corpus);
        interleaved("generated", &generated);
    }
    for (set, n) in [("corpus", corpus.len()), ("generated", generated.len())] {
        if TOTALS.with(|t| !t.borrow().contains_key(&format!("{set}/fast"))) {
            continue; // filtered out on the command line
        }
        let r = per_iter(&format!("{set}/reference"));
        let f = per_iter(&format!("{set}/fast"));
        let fc = per_iter(&format!("{set}/fast+compile"));
        let fo = per_iter(&format!("{set}/fast+outcome"));
        let each = |d: Duration| d.as_secs_f64() * 1e9 / n as f64;
        println!(
            "{set:>9}: {n} expressions; per evaluation: reference {:.0} ns, fast {:.0} ns, fast with the Outcome {:.0} ns, fast with compile {:.0} ns; fast is {:.1}x the reference ({:.1}x with the Outcome, {:.1}x with compile)",
            each(r),
            each(f),
            each(fo),
            each(fc),
            r.as_secs_f64() / f.as_secs_f64(),
            r.as_secs_f64() / fo.as_secs_f64(),
            r.as_secs_f64() / fc.as_secs_f64()
        );
    }
}
