//! The fast evaluator against the reference interpreter, in one run so that
//! the ratio means something: the corpus expressions (each in one fixed
//! context) and generated expressions of 8 to 32 operations (each in the
//! context the generator made for it). Each iteration evaluates the whole
//! set; the fast evaluator's programs are compiled beforehand ("compile
//! once, evaluate many times") and share one `Scratch`.
//!
//!     cargo bench -p diopter-fast --bench eval -- --warm-up-time 1 --measurement-time 3
//!
//! Besides criterion's estimates it prints, at the end, the mean time per
//! iteration of each benchmark over everything it ran and the ratios.

#[path = "../tests/fast_support.rs"]
mod support;

use criterion::{black_box, Criterion};
use diopter_fast::{self as fast, Compiled, Scratch};
use diopter_gen::{Case, GenConfig};
use diopter_semantics::ast::Bare;
use diopter_semantics::check::{check_bare, BareInputs};
use diopter_semantics::context::Context;
use diopter_semantics::diag::Source;
use diopter_semantics::interp;
use diopter_semantics::syntax::parse_expr_file;
use diopter_semantics::types::{DataLayout, TypeTable};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use support::{context_for, input_bits, Placement, Rng};

/// One benchmark input: an expression, its environment's parts, a context.
struct Item {
    bare: Bare,
    types: TypeTable,
    inputs: BareInputs,
    ctx: Context,
}

impl Item {
    fn new(bare: Bare, types: TypeTable, ctx: Context) -> Item {
        let inputs = BareInputs::of(&bare, &ctx.datalayout, &types);
        Item {
            bare,
            types,
            inputs,
            ctx,
        }
    }
    fn reference(&self) -> interp::Outcome {
        let env = self
            .inputs
            .env(self.bare.expr.dialect, &self.ctx.datalayout, &self.types);
        interp::eval(&self.bare.expr, &env, &self.ctx)
    }
    fn compile(&self) -> Compiled {
        let env = self
            .inputs
            .env(self.bare.expr.dialect, &self.ctx.datalayout, &self.types);
        fast::compile(&self.bare.expr, &env).expect("checked")
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "expr") {
            out.push(p);
        }
    }
}

/// Every well-formed, not parse-only corpus expression, in a fixed context
/// (inputs placed in memory, entities, implicit values, composites and
/// multi-locations, chosen per input).
fn corpus_items() -> Vec<Item> {
    let mut paths = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus"),
        &mut paths,
    );
    let mut rng = Rng(42);
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a corpus file");
        let (file, _) = parse_expr_file(&Source::new(path.display().to_string(), text));
        let dl = file
            .datalayout
            .as_ref()
            .map_or_else(DataLayout::default, |(d, _)| d.clone());
        for e in file.entries.iter().filter(|e| !e.parse_only) {
            if check_bare(&e.bare, &dl, &file.types).is_err() {
                continue;
            }
            let (args, referrer) = input_bits(&e.bare, &file.types, &dl);
            let ctx = context_for(&dl, &args, referrer, Placement::Mixed, &mut rng);
            out.push(Item::new(e.bare.clone(), file.types.clone(), ctx));
        }
    }
    out
}

/// Generated well-formed expressions of 8 to 32 operations with their contexts.
fn generated_items(n: usize) -> Vec<Item> {
    let cfg = GenConfig {
        max_ops: 32,
        ..GenConfig::default()
    };
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < n {
        let c = Case::from_seed(seed, &cfg);
        seed += 1;
        let ops = c.bare.expr.ops.len();
        if !(8..=32).contains(&ops) || check_bare(&c.bare, c.datalayout(), &c.types).is_err() {
            continue;
        }
        out.push(Item::new(c.bare, c.types, c.ctx));
    }
    out
}

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
    // The fast evaluator is exact: check that before timing it.
    let mut scratch = Scratch::new();
    let mut ok = 0;
    for (item, p) in items.iter().zip(&programs) {
        let r = item.reference();
        assert_eq!(p.eval(&item.ctx, &mut scratch), r);
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
                for (item, p) in items.iter().zip(&programs) {
                    black_box(p.eval(&item.ctx, &mut scratch)).ok();
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
        b.iter_custom(|iters| {
            let t = Instant::now();
            for _ in 0..iters {
                for item in items {
                    let p = item.compile();
                    black_box(p.eval(&item.ctx, &mut scratch)).ok();
                }
            }
            let d = t.elapsed();
            record(&name, iters, d);
            d
        })
    });
    g.finish();
}

fn main() {
    let corpus = corpus_items();
    let generated = generated_items(300);
    let mut c = Criterion::default().configure_from_args();
    bench_set(&mut c, "corpus", &corpus);
    bench_set(&mut c, "generated", &generated);
    c.final_summary();
    for (set, n) in [("corpus", corpus.len()), ("generated", generated.len())] {
        if TOTALS.with(|t| !t.borrow().contains_key(&format!("{set}/fast"))) {
            continue; // filtered out on the command line
        }
        let r = per_iter(&format!("{set}/reference"));
        let f = per_iter(&format!("{set}/fast"));
        let fc = per_iter(&format!("{set}/fast+compile"));
        let each = |d: Duration| d.as_secs_f64() * 1e9 / n as f64;
        println!(
            "{set:>9}: {n} expressions; per evaluation: reference {:.0} ns, fast {:.0} ns, fast with compile {:.0} ns; fast is {:.1}x the reference ({:.1}x with compile)",
            each(r),
            each(f),
            each(fc),
            r.as_secs_f64() / f.as_secs_f64(),
            r.as_secs_f64() / fc.as_secs_f64()
        );
    }
}
