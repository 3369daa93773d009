//! Every `.ll` file of the corpus and of `tests/data/` parses, prints back to
//! a fixpoint, and re-parses to an equal module. diopter's own test inputs
//! (`tests/data/`) must also parse without errors and satisfy the lifetime rules
//! unless their name says `invalid`.

use diopter_semantics::diag::{Severity, Source};
use diopter_semantics::lifetimes::check_lifetimes;
use diopter_semantics::sites::{expressions, ExprContext};
use diopter_semantics::syntax::module::parse_module;
use diopter_semantics::syntax::module_print::print_module;
use std::path::{Path, PathBuf};

fn ll_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "ll") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Parse, print, re-parse, re-print; returns the rendered parse errors.
fn round_trip(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let src = Source::new(path.display().to_string(), text.clone());
    let (m1, d1) = parse_module(&text);
    let errors: Vec<String> = d1
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| src.render(d))
        .collect();
    let p1 = print_module(&m1);
    let (m2, d2) = parse_module(&p1);
    let p2 = print_module(&m2);
    if p1 != p2 {
        return Err(format!(
            "{}: printing is not a fixpoint\n--- first\n{p1}\n--- second\n{p2}",
            path.display()
        ));
    }
    if m1 != m2 {
        return Err(format!(
            "{}: the re-parsed module differs\n{p1}",
            path.display()
        ));
    }
    // Printing loses nothing that was read without error.
    if d2.len() > d1.len() {
        let src2 = Source::new("printed", p1.clone());
        let r: Vec<String> = d2.iter().map(|d| src2.render(d)).collect();
        return Err(format!(
            "{}: the printed text has new diagnostics:\n{}",
            path.display(),
            r.join("")
        ));
    }
    Ok(errors)
}

#[test]
fn own_test_inputs_parse_cleanly_and_round_trip() {
    let files = ll_files(&manifest().join("tests/data"));
    assert!(files.len() >= 6, "test inputs missing: {files:?}");
    let mut failures = Vec::new();
    for f in &files {
        match round_trip(f) {
            Ok(errors) => failures.extend(errors),
            Err(e) => failures.push(e),
        }
        let text = std::fs::read_to_string(f).unwrap();
        let (m, _) = parse_module(&text);
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let ds = check_lifetimes(&m);
        if !name.contains("invalid") && !ds.is_empty() {
            let src = Source::new(name.clone(), text.clone());
            failures.push(ds.iter().map(|d| src.render(d)).collect());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_ll_files_round_trip() {
    let files = ll_files(&manifest().join("../corpus"));
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for f in &files {
        match round_trip(f) {
            Ok(errors) if errors.is_empty() => report.push(format!("ok      {}", f.display())),
            Ok(errors) => {
                report.push(format!("errors  {}", f.display()));
                failures.extend(errors);
            }
            Err(e) => failures.push(e),
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_expression_of_the_data_files_has_a_context() {
    let text = std::fs::read_to_string(manifest().join("tests/data/amd-diexpression.ll")).unwrap();
    let (m, ds) = parse_module(&text);
    assert!(ds.is_empty(), "{ds:?}");
    let sites = expressions(&m);
    assert!(sites.len() >= 4, "{sites:#?}");
    assert!(
        sites
            .iter()
            .all(|s| !matches!(s.context, ExprContext::Detached)),
        "{sites:#?}"
    );
    // Source order.
    assert!(sites.windows(2).all(|w| w[0].span.start <= w[1].span.start));
}

/// Mutated inputs (deleted, duplicated and inserted pieces) never panic the
/// reader, and printing what was read is still a fixpoint.
#[test]
fn mutated_inputs_never_panic_and_still_round_trip() {
    const PIECES: &[&str] = &[
        "(",
        ")",
        "{",
        "}",
        "!",
        "\n",
        ",",
        "metadata ",
        "!DIExpr(",
        "\"",
        ";",
        "define void @f() {\n",
        "}\n",
        "!7",
        "=",
        "distinct ",
        "!{",
        "DIOpArg(",
        "label %",
        ":",
        "#dbg_value(",
        "DBG_DEF ",
        "...",
        "€",
        "\\",
        "@",
        "%",
        "$",
    ];
    let mut files = ll_files(&manifest().join("tests/data"));
    files.extend(ll_files(&manifest().join("../corpus")));
    let mut seed: u64 = std::env::var("DIOPTER_IR_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x9e37_79b9_7f4a_7c15);
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    // DIOPTER_IR_MUTATIONS=N runs N mutations per file instead of 60;
    // DIOPTER_IR_SEED=S starts from another seed.
    let rounds: usize = std::env::var("DIOPTER_IR_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for _ in 0..rounds {
            let mut t = text.clone();
            for _ in 0..1 + next(3) {
                let mut a = next(t.len() + 1);
                while !t.is_char_boundary(a) {
                    a -= 1;
                }
                let mut b = (a + next(40)).min(t.len());
                while !t.is_char_boundary(b) {
                    b -= 1;
                }
                match next(3) {
                    0 => t.replace_range(a..b, ""),
                    1 => {
                        let dup = t[a..b].to_string();
                        t.insert_str(b, &dup)
                    }
                    _ => t.insert_str(a, PIECES[next(PIECES.len())]),
                }
            }
            let (m1, _) = parse_module(&t);
            let p1 = print_module(&m1);
            let (m2, _) = parse_module(&p1);
            let p2 = print_module(&m2);
            if p1 != p2 || m1 != m2 {
                failures.push(format!(
                    "--- input\n{t}\n--- first print\n{p1}\n--- second print\n{p2}"
                ));
            }
        }
    }
    if let Some(f) = failures.first() {
        let _ = std::fs::write(
            std::env::temp_dir().join("diopter-ir-mutation-failure.txt"),
            f,
        );
    }
    assert!(
        failures.is_empty(),
        "{} failures; first:\n{}",
        failures.len(),
        failures[0]
    );
}
