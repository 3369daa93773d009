//! Every `.expr` file of the corpus parses, prints back to a fixpoint that
//! re-parses to an equal AST, and (unless parse-only) meets its `#! expect`.

use diopter_semantics::check::check_bare;
use diopter_semantics::diag::Source;
use diopter_semantics::syntax::{parse_bare, parse_expr_file, print_bare, Expect};
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

fn expr_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![corpus()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "expr") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn corpus_expressions_round_trip_and_meet_expectations() {
    let files = expr_files();
    assert!(files.len() >= 5, "corpus .expr files missing: {files:?}");
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in &files {
        let src = Source::new(f.display().to_string(), std::fs::read_to_string(f).unwrap());
        let (file, diags) = parse_expr_file(&src);
        for d in &diags {
            failures.push(src.render(d));
        }
        let dl = file
            .datalayout
            .as_ref()
            .map(|(d, _)| d.clone())
            .unwrap_or_default();
        for e in &file.entries {
            let printed = print_bare(&e.bare);
            let again = parse_bare(&printed).unwrap_or_else(|d| {
                panic!(
                    "{}:{}: reprint does not parse: {printed}: {d}",
                    src.name, e.line
                )
            });
            assert_eq!(
                again, e.bare,
                "{}:{}: round trip changed the AST",
                src.name, e.line
            );
            assert_eq!(
                print_bare(&again),
                printed,
                "{}:{}: printing is not a fixpoint",
                src.name,
                e.line
            );
            if e.parse_only {
                continue;
            }
            checked += 1;
            let verdict = check_bare(&e.bare, &dl, &file.types);
            let want_valid = !matches!(e.expect, Some(Expect::Invalid(_)));
            if verdict.is_ok() != want_valid {
                failures.push(format!(
                    "{}:{}: expected {}, got {}: {printed}\n  {:?}",
                    src.name,
                    e.line,
                    if want_valid { "valid" } else { "invalid" },
                    if verdict.is_ok() { "valid" } else { "invalid" },
                    verdict
                        .err()
                        .map(|d| d.iter().map(|d| d.message.clone()).collect::<Vec<_>>())
                ));
            }
        }
    }
    assert!(checked > 100, "too few expressions checked: {checked}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
