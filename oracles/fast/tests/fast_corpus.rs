//! Brute force over the corpus: every expression line of `corpus/**/*.expr`
//! that is not parse-only, evaluated by the reference and the fast evaluator
//! in many contexts (random seeds; inputs in memory, entities, implicit
//! values, composites, consistent and inconsistent multi-locations,
//! undefined; missing inputs), must give the same whole outcome. The spec's
//! hand-written contexts (`corpus/spec/contexts/*.ctx`) with the expression
//! each names are run too.

#[path = "fast_support.rs"]
mod support;

use diopter_fast as fast;
use diopter_semantics::check::{check_bare, BareInputs};
use diopter_semantics::context::Context;
use diopter_semantics::diag::Source;
use diopter_semantics::syntax::{parse_bare, parse_expr_file};
use diopter_semantics::types::{DataLayout, TypeTable};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use support::{agree, context_for, files, input_bits, Rng, PLACEMENTS};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// How many contexts of each placement every expression is run in.
const ROUNDS: u64 = 4;

#[test]
fn corpus_expressions_agree_in_many_contexts() {
    let mut paths = Vec::new();
    files(&corpus(), "expr", &mut paths);
    assert!(
        !paths.is_empty(),
        "no .expr files under {}",
        corpus().display()
    );
    let mut scratch = fast::Scratch::new();
    let mut rng = Rng(0x5eed);
    let (mut exprs, mut runs) = (0usize, 0usize);
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("a corpus file");
        let (file, _diags) = parse_expr_file(&Source::new(path.display().to_string(), text));
        let dl = file
            .datalayout
            .as_ref()
            .map_or_else(DataLayout::default, |(d, _)| d.clone());
        for entry in file.entries.iter().filter(|e| !e.parse_only) {
            exprs += 1;
            let b = &entry.bare;
            // `compile` accepts exactly what the checker accepts.
            let inputs = BareInputs::of(b, &dl, &file.types);
            let env = inputs.env(b.expr.dialect, &dl, &file.types);
            if check_bare(b, &dl, &file.types).is_ok() {
                fast::compile(&b.expr, &env).unwrap_or_else(|e| {
                    panic!("{}:{}: checked, but: {e}", path.display(), entry.line)
                });
            }
            let (args, referrer) = input_bits(b, &file.types, &dl);
            for how in PLACEMENTS {
                for _ in 0..ROUNDS {
                    let ctx = context_for(&dl, &args, referrer, how, &mut rng);
                    let o = agree(b, &file.types, &ctx, &mut scratch);
                    runs += 1;
                    let k = match o {
                        Ok(_) => "Ok".to_string(),
                        Err(e) => format!("{:?}", e.kind),
                    };
                    *kinds.entry(k).or_default() += 1;
                }
            }
        }
    }
    eprintln!("{exprs} corpus expressions, {runs} evaluations agree: {kinds:?}");
    assert!(exprs > 200, "only {exprs} expressions");
    assert!(
        kinds.get("Ok").copied().unwrap_or(0) > runs / 5,
        "{kinds:?}"
    );
}

#[test]
fn spec_contexts_agree() {
    let mut paths = Vec::new();
    files(&corpus().join("spec/contexts"), "ctx", &mut paths);
    assert!(paths.len() > 20);
    let mut ok = 0;
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("a context file");
        // The first line names the expression: `# NN  diexpr [...] DIOp...`.
        let first = text.lines().next().expect("a first line");
        let line = first
            .trim_start_matches('#')
            .trim_start()
            .split_once(char::is_whitespace)
            .expect("a number, then the expression")
            .1
            .trim();
        let b = parse_bare(line).unwrap_or_else(|d| panic!("{}: {}", path.display(), d.message));
        let ctx = Context::parse(&text).unwrap_or_else(|d| panic!("{}: {d:?}", path.display()));
        if agree(&b, &TypeTable::default(), &ctx, &mut fast::Scratch::new()).is_ok() {
            ok += 1;
        }
    }
    assert!(ok > paths.len() / 2, "only {ok} of {} succeed", paths.len());
}
