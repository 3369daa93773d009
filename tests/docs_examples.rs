//! Every example in the README and the `docs/` pages runs: each line of a
//! ```` ```text ```` block that starts with `$ diopter ` is run (from the
//! repository root, through the built binary), and the block's lines after
//! it, up to the next `$ ` line or the block's end, are what it must print
//! (standard output then standard error), line for line; a line `...`
//! (indented or not) stands for any number of lines. An example that should fail says so
//! with a last line `[exit N]`. The design document (`docs/design.md`, a
//! text kept as it was written) and `docs/known-issues.md` (findings, with
//! their own replay commands) are not example pages.

use std::path::{Path, PathBuf};

/// One example: where it is, the command line, the expected lines and exit.
struct Example {
    at: String,
    args: Vec<String>,
    expected: Vec<String>,
    exit: i32,
}

/// Splits a command line as a POSIX shell would for the quoting the
/// examples use: single quotes, double quotes, backslash-newline-free.
fn split(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut any = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, ' ') => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    assert!(quote.is_none(), "unclosed quote in `{line}`");
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The examples of one Markdown page.
fn examples(page: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(page).unwrap();
    let mut out: Vec<Example> = Vec::new();
    let mut in_text = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_text = !in_text && line.trim() == "```text";
            continue;
        }
        if !in_text {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ diopter ") {
            out.push(Example {
                at: format!("{}:{}", page.display(), i + 1),
                args: split(cmd),
                expected: Vec::new(),
                exit: 0,
            });
        } else if line.starts_with("$ ") {
            // Another program's command (cat, echo): shown, not run.
            out.push(Example {
                at: String::new(),
                args: Vec::new(),
                expected: Vec::new(),
                exit: 0,
            });
        } else if let Some(e) = out.last_mut() {
            if let Some(code) = line
                .strip_prefix("[exit ")
                .and_then(|r| r.strip_suffix(']'))
            {
                e.exit = code.parse().unwrap();
            } else {
                e.expected.push(line.to_string());
            }
        }
    }
    out.retain(|e| !e.args.is_empty());
    out
}

/// Whether `got` matches `want`, where a `...` line of `want` matches any
/// run of lines.
fn matches(want: &[String], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((w, rest)) if w.trim() == "..." => (0..=got.len()).any(|k| matches(rest, &got[k..])),
        Some((w, rest)) => got
            .split_first()
            .is_some_and(|(g, grest)| g.trim_end() == w.trim_end() && matches(rest, grest)),
    }
}

fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| !p.ends_with("design.md") && !p.ends_with("known-issues.md"))
        .collect();
    docs.sort();
    v.extend(docs);
    v
}

#[test]
fn every_example_of_the_readme_and_the_docs_prints_what_it_shows() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in pages() {
        for e in examples(&page) {
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_diopter"))
                .args(&e.args)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .unwrap();
            ran += 1;
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            let got: Vec<&str> = text.lines().collect();
            if o.status.code() != Some(e.exit) || !matches(&e.expected, &got) {
                failures.push(format!(
                    "{}: diopter {}\n  exit {:?} (want {})\n  printed:\n{text}\n  shown:\n{}",
                    e.at,
                    e.args.join(" "),
                    o.status.code(),
                    e.exit,
                    e.expected.join("\n")
                ));
            }
        }
    }
    assert!(ran >= 10, "only {ran} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_matcher_and_the_splitter() {
    let w = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(matches(&w(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(&w(&["a", "..."]), &["a"]));
    assert!(!matches(&w(&["a", "d"]), &["a", "b", "d"]));
    assert!(!matches(&w(&["a"]), &["a", "b"]));
    assert_eq!(
        split("simplify -e '[i32] DIOpArg(0, i32)' --explain"),
        ["simplify", "-e", "[i32] DIOpArg(0, i32)", "--explain"]
    );
    assert_eq!(split("x \"\" y"), ["x", "", "y"]);
}
