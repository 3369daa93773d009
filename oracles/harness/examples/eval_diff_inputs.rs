//! Runs the `eval_diff` fuzz target's body (`diopter_harness::targets::eval_diff`) on
//! saved fuzz inputs, outside libFuzzer: to profile it on a fixed set of
//! inputs (e.g. under `valgrind --tool=callgrind`) or to time its phases.
//!
//!     cargo run --release -p diopter-harness --example eval_diff_inputs -- \
//!         [--reps N] [--phases] FILE_OR_DIR...
//!
//! Without `--phases` it runs the target body on every input `N` times
//! (default 1) and prints the number of executions. With `--phases` it also
//! times generating the case, the reference, the fast evaluator and the
//! whole differential run separately, and prints the case sizes (operations,
//! context size) next to the input sizes.

use diopter_diff::{self as diff, Oracle, Reference};
use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_harness::adapters::Fast;
use diopter_harness::targets;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn collect(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut es: Vec<PathBuf> = std::fs::read_dir(p)
            .expect("a directory")
            .map(|e| e.expect("an entry").path())
            .collect();
        es.sort();
        for e in es {
            collect(&e, out);
        }
    } else {
        out.push(p.to_path_buf());
    }
}

fn main() {
    let mut reps = 1usize;
    let mut phases = false;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|n| n.parse().ok()).expect("--reps N"),
            "--phases" => phases = true,
            _ => collect(Path::new(&a), &mut paths),
        }
    }
    // As the fuzz target's `init`.
    diopter_gen::expr::CROSS_CHECK.store(false, Ordering::Relaxed);
    let inputs: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| std::fs::read(p).expect("an input"))
        .collect();
    let fast = Fast::default();
    if !phases {
        let t = Instant::now();
        let mut bad = 0;
        for _ in 0..reps {
            for d in &inputs {
                if let Err(m) = targets::eval_diff(d, &fast, None) {
                    bad += 1;
                    eprintln!("{m}");
                }
            }
        }
        let n = reps * inputs.len();
        let el = t.elapsed();
        println!(
            "{n} executions of {} inputs, {bad} failing, {:.1} µs each",
            inputs.len(),
            el.as_secs_f64() * 1e6 / n.max(1) as f64
        );
        return;
    }
    let cfg = GenConfig::default();
    let (mut tg, mut tr, mut tf, mut td) = (
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
    );
    let (mut bytes, mut ops, mut ctx_lines) = (0usize, 0usize, 0usize);
    for _ in 0..reps {
        for d in &inputs {
            let t = Instant::now();
            let case = Case::from_bytes(d, &cfg);
            tg += t.elapsed();
            let t = Instant::now();
            let _ = Reference.eval(&case);
            tr += t.elapsed();
            let t = Instant::now();
            let _ = fast.eval(&case);
            tf += t.elapsed();
            let t = Instant::now();
            let _ = diff::run_case(&case, &[&Reference, &fast]);
            td += t.elapsed();
            bytes += d.len();
            ops += case.bare.expr.ops.len();
            ctx_lines += case.ctx.to_string().lines().count();
        }
    }
    let n = (reps * inputs.len()).max(1) as f64;
    let us = |d: Duration| d.as_secs_f64() * 1e6 / n;
    println!(
        "{} inputs x {reps}: mean input {:.0} bytes, {:.1} operations, {:.1} context lines",
        inputs.len(),
        bytes as f64 / n,
        ops as f64 / n,
        ctx_lines as f64 / n
    );
    println!(
        "µs per input: generate {:.1}, reference {:.1}, fast {:.1}, run_case {:.1}",
        us(tg),
        us(tr),
        us(tf),
        us(td)
    );
}
