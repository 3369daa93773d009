//! The compiler's own typing (`compile_typed`, on small type codes) must
//! make exactly the program of the checker's typing
//! (`compile_checked_types`) whenever it accepts an expression, and must
//! accept the well-formed expressions of the usual types: every corpus
//! expression, generated cases, wild (ill-typed) cases and byte-string
//! cases are compiled both ways.

#[path = "fast_support.rs"]
mod support;

use diopter_fast as fast;
use diopter_gen::Generate;
use diopter_gen::{self as gen, entropy::SplitMix, Case, GenConfig};
use diopter_semantics::ast::Bare;
use diopter_semantics::check::{check_bare, BareInputs};
use diopter_semantics::diag::Source;
use diopter_semantics::syntax::{parse_expr_file, print_bare};
use diopter_semantics::types::{DataLayout, TypeTable};
use proptest::prelude::*;
use std::path::Path;
use support::files;

/// Compiles `b` both ways; whether the typed compiler took it.
fn same_program(b: &Bare, dl: &DataLayout, types: &TypeTable) -> bool {
    let inputs = BareInputs::of(b, dl, types);
    let env = inputs.env(b.expr.dialect, dl, types);
    let checked = fast::compile_checked_types(&b.expr, &env);
    // Compiling into the buffers of the previous expression's program gives
    // the program `compile_unchecked` gives.
    thread_local! {
        static LAST: std::cell::RefCell<Option<fast::Compiled>> = const { std::cell::RefCell::new(None) };
    }
    let fresh = fast::compile_unchecked(&b.expr, &env);
    let reused = LAST.with(|last| {
        let mut last = last.borrow_mut();
        let p = last.get_or_insert_with(|| fresh.clone());
        p.recompile_unchecked(&b.expr, &env);
        format!("{p:?}")
    });
    assert_eq!(
        reused,
        format!("{fresh:?}"),
        "\nexpression: {}",
        print_bare(b)
    );
    match fast::compile_typed(&b.expr, &env) {
        Some(typed) => {
            assert_eq!(
                format!("{typed:?}"),
                format!("{checked:?}"),
                "\nexpression: {}",
                print_bare(b)
            );
            true
        }
        None => false,
    }
}

#[test]
fn corpus_programs_are_the_same() {
    let mut paths = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus"),
        "expr",
        &mut paths,
    );
    let (mut wf, mut wf_typed, mut ill, mut ill_typed) = (0, 0, 0, 0);
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("a corpus file");
        let (file, _) = parse_expr_file(&Source::new(path.display().to_string(), text));
        let dl = file
            .datalayout
            .as_ref()
            .map_or_else(DataLayout::default, |(d, _)| d.clone());
        for e in file.entries.iter().filter(|e| !e.parse_only) {
            let typed = same_program(&e.bare, &dl, &file.types);
            if check_bare(&e.bare, &dl, &file.types).is_ok() {
                wf += 1;
                wf_typed += usize::from(typed);
            } else {
                ill += 1;
                ill_typed += usize::from(typed);
            }
        }
    }
    eprintln!(
        "corpus: {wf_typed} of {wf} well-formed and {ill_typed} of {ill} ill-formed expressions typed on codes"
    );
    assert!(wf > 200 && wf_typed * 100 >= wf * 99, "{wf_typed} of {wf}");
}

#[test]
fn generated_programs_are_the_same() {
    let cfg = GenConfig {
        max_ops: 32,
        ..GenConfig::default()
    };
    let (mut wf, mut wf_typed) = (0, 0);
    for seed in 0..3000 {
        let c = Case::from_seed(seed, &cfg);
        let typed = same_program(&c.bare, c.datalayout(), &c.types);
        if check_bare(&c.bare, c.datalayout(), &c.types).is_ok() {
            wf += 1;
            wf_typed += usize::from(typed);
            if !typed && std::env::var("SHOW").is_ok() {
                eprintln!("untyped: {}", print_bare(&c.bare));
            }
        }
    }
    eprintln!("generated: {wf_typed} of {wf} well-formed cases typed on codes");
    assert!(wf_typed * 100 >= wf * 99, "{wf_typed} of {wf}");
}

#[test]
fn wild_programs_are_the_same() {
    let cfg = GenConfig::default();
    let mut typed = 0;
    for seed in 0..3000u64 {
        let c = gen::wild::case(&mut SplitMix(seed), &cfg);
        typed += usize::from(same_program(&c.bare, c.datalayout(), &c.types));
    }
    eprintln!("wild: {typed} of 3000 typed on codes");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn proptest_programs_are_the_same(c in gen::strategy(GenConfig::default())) {
        same_program(&c.bare, c.datalayout(), &c.types);
    }
}
