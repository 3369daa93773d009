//! The reports under `reports/`, regenerated from the current code and
//! corpus by `diopter report` (and the default job): each is Markdown with
//! a JSON twin. This module gathers the data that lives in this workspace
//! (spec errata, round trips of the corpus, benchmark estimates) and
//! renders it; the CLI adds what only it can run (the corpus checker, the
//! prover).
//!
//! Nothing here invents a figure: a source that is missing (criterion never
//! ran, `docs/design.md` deleted) is reported as missing.

pub mod locations;
pub mod lowering;
pub mod readme;

use diopter_semantics::diag::Source;
use diopter_semantics::specs::{self, Origin};
use diopter_semantics::syntax::{parse_bare, parse_expr_file, print_bare};
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// A report: its file stem, Markdown and JSON.
pub struct Report {
    pub stem: String,
    pub title: String,
    /// One line for the index.
    pub summary: String,
    pub markdown: String,
    pub json: Value,
}

/// Markdown table cell: no pipes or newlines.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Writes `text` to `path` atomically: a reader (or a rerun after `kill
/// -9`) sees the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)?;
        }
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

// ------------------------------------------------------------ errata

/// DESIGN.md's decisions, by the bold title that opens each bullet, with
/// the words that name the `semantics/tests/errata.rs` tests pinning them.
/// (The test names follow the decisions' wording; a decision whose words
/// match no test is reported as not pinned.)
const DECISIONS: &[(&str, &[&str])] = &[
    ("Bits", &["little_endian"]),
    ("Types", &["integer_widths", "bitsizeof"]),
    ("Storage kinds", &["refuse_writes"]),
    (
        "Reading",
        &["reading_undefined", "reading_outside", "inconsistent"],
    ),
    ("Writing", &["writing_updates", "read_makes"]),
    (
        "Integers are signless bit vectors",
        &["wrap", "div_and_mod", "division_by_zero", "shift", "shr"],
    ),
    ("Offsets", &["offsets_are"]),
    ("Floats", &["convert", "floats_round"]),
    ("Reinterpret", &["reinterpret"]),
    ("Deref", &["deref", "implicit_address"]),
    ("Composite(N, T)", &["composite"]),
    ("Select", &["select"]),
    ("Lifetimes", &["lifetime", "active"]),
];

/// The test functions of a Rust test file, in order.
fn test_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut next_is_test = false;
    for line in text.lines() {
        let t = line.trim();
        if t == "#[test]" {
            next_is_test = true;
            continue;
        }
        if next_is_test {
            if let Some(rest) = t.strip_prefix("fn ") {
                if let Some(name) = rest.split('(').next() {
                    out.push(name.trim().to_string());
                }
                next_is_test = false;
            }
        }
    }
    out
}

/// The text of each DESIGN.md decision bullet, by its bold title.
fn design_decisions(design: &str) -> Vec<(String, String)> {
    let Some(start) = design.find("## Decisions") else {
        return vec![];
    };
    let body = &design[start..];
    let end = body[3..].find("\n## ").map_or(body.len(), |e| e + 3);
    let mut out: Vec<(String, String)> = Vec::new();
    for line in body[..end].lines() {
        if let Some(rest) = line.strip_prefix("- **") {
            if let Some((title, text)) = rest.split_once("**") {
                let title = title.trim_end_matches('.').to_string();
                out.push((title, text.trim().to_string()));
            }
        } else if let Some(last) = out.last_mut() {
            if !line.trim().is_empty() {
                last.1.push(' ');
                last.1.push_str(line.trim());
            }
        }
    }
    out
}

/// The "Errata corrected" table of `corpus/spec/NOTES.md`: (file, printed,
/// read, why).
fn notes_errata(notes: &str) -> Vec<[String; 4]> {
    let Some(start) = notes.find("## Errata corrected") else {
        return vec![];
    };
    notes[start..]
        .lines()
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .filter_map(|l| {
            // Split on unescaped pipes.
            let cols: Vec<&str> = l.trim().trim_matches('|').split(" | ").collect();
            (cols.len() == 4).then(|| {
                [
                    cols[0].trim().to_string(),
                    cols[1].trim().to_string(),
                    cols[2].trim().to_string(),
                    cols[3].trim().to_string(),
                ]
            })
        })
        .collect()
}

/// The design document (DESIGN.md), in the repository: the errata quote
/// its decisions.
pub const DESIGN: &str = "docs/design.md";

/// The spec-errata report: every DESIGN.md decision with the tests that pin
/// it, the specification lines the spec's BNF rejects as printed, our own
/// stack-effect lines, and the spec examples' typos with what diopter reads.
pub fn errata(root: &Path) -> Report {
    let design_path = root.join(DESIGN);
    let design = std::fs::read_to_string(&design_path).ok();
    let errata_rs =
        std::fs::read_to_string(root.join("semantics/tests/errata.rs")).unwrap_or_default();
    let tests = test_names(&errata_rs);
    let notes = std::fs::read_to_string(root.join("corpus/spec/NOTES.md")).unwrap_or_default();
    let decisions: Vec<(String, String)> = match &design {
        Some(d) => design_decisions(d),
        None => DECISIONS
            .iter()
            .map(|(t, _)| (t.to_string(), format!("({DESIGN} not found)")))
            .collect(),
    };
    let mut md = String::new();
    let _ = writeln!(md, "# Spec errata and decisions\n");
    let _ = writeln!(
        md,
        "Generated by `diopter report` from the design document (`docs/design.md`), \
         `semantics/tests/errata.rs`, `semantics/src/specs/stack-effects.txt` (through \
         `specs::all()` and `specs::accepted_by_printed_bnf`) and `corpus/spec/NOTES.md`. Do not \
         edit.\n"
    );
    let _ = writeln!(
        md,
        "## Decisions where the spec is silent, ambiguous or wrong\n"
    );
    let _ = writeln!(
        md,
        "| decision | what diopter does | pinned by (`semantics/tests/errata.rs`) |"
    );
    let _ = writeln!(md, "|---|---|---|");
    let mut jdec = Vec::new();
    let mut used = vec![false; tests.len()];
    let mut unpinned = 0;
    for (title, text) in &decisions {
        let words: &[&str] = DECISIONS
            .iter()
            .find(|(t, _)| t == title)
            .map_or(&[], |(_, w)| *w);
        let pins: Vec<String> = tests
            .iter()
            .enumerate()
            .filter(|(_, t)| words.iter().any(|w| t.contains(w)))
            .map(|(i, t)| {
                used[i] = true;
                t.clone()
            })
            .collect();
        if pins.is_empty() {
            unpinned += 1;
        }
        let pin_text = if pins.is_empty() {
            "**NOT PINNED**".to_string()
        } else {
            pins.iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            md,
            "| **{}** | {} | {} |",
            cell(title),
            cell(text),
            pin_text
        );
        jdec.push(json!({"decision": title, "text": text, "tests": pins}));
    }
    let others: Vec<&String> = tests
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(t, _)| t)
        .collect();
    if !others.is_empty() {
        let _ = writeln!(
            md,
            "\nOther tests of errata.rs: {}.",
            others
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    // The spec's own lines against its BNF as printed.
    let _ = writeln!(
        md,
        "\n## Specification lines the spec's BNF rejects as printed\n"
    );
    let _ = writeln!(
        md,
        "diopter parses them with a corrected grammar (`semantics/src/specs.pest`); the grammar as \
         printed is `semantics/src/specs_as_printed.pest`. Pinned by \
         `semantics::specs::tests::lines_the_printed_bnf_rejects`.\n"
    );
    let _ = writeln!(md, "| origin | line | accepted as printed |");
    let _ = writeln!(md, "|---|---|---|");
    let mut jlines = Vec::new();
    let mut rejected = 0;
    for s in specs::all() {
        let origin = match &s.origin {
            Origin::Seed { line } => format!("seed l. {line}"),
            Origin::Amd => "AMD".into(),
            Origin::Ours => "ours".into(),
        };
        let ok = specs::accepted_by_printed_bnf(&s.text);
        if !ok {
            rejected += 1;
        }
        let _ = writeln!(
            md,
            "| {origin} | `{}` | {} |",
            cell(&s.text),
            if ok { "yes" } else { "**no**" }
        );
        jlines.push(json!({"origin": origin, "line": s.text, "accepted_as_printed": ok}));
    }
    // The examples' typos.
    let typos = notes_errata(&notes);
    let _ = writeln!(md, "\n## Typos in the spec's and the slides' examples\n");
    let _ = writeln!(
        md,
        "From `corpus/spec/NOTES.md`; each corrected file is checked by `diopter check corpus/` \
         and evaluated by `semantics/tests/spec_examples.rs`; the unreadable expressions as \
         printed are `corpus/spec/errata.expr` (`#! expect invalid`).\n"
    );
    let _ = writeln!(md, "| file | the text prints | diopter reads | why |");
    let _ = writeln!(md, "|---|---|---|---|");
    let mut jtypos = Vec::new();
    for [f, p, r, w] in &typos {
        let _ = writeln!(md, "| {f} | {p} | {r} | {w} |");
        jtypos.push(json!({"file": f, "printed": p, "reads": r, "why": w}));
    }
    // x86_fp80's encodings outside IEEE-754 (semantics/src/value.rs).
    let _ = writeln!(
        md,
        "\n## x86_fp80: encodings outside IEEE-754\n\n\
         DESIGN.md says floats follow IEEE-754; x86_fp80 has encodings IEEE-754 does not \
         (an explicit integer bit). The reference reads them as LLVM's `APFloat` does \
         (`rustc_apfloat`), and the SMT encoding reproduces that bit for bit.\n"
    );
    let _ = writeln!(md, "| decision | what diopter does | pinned by |");
    let _ = writeln!(md, "|---|---|---|");
    let mut jfp80 = Vec::new();
    for (title, text, test) in diopter_semantics::value::X86_FP80_DECISIONS {
        let _ = writeln!(md, "| **{}** | {} | `{}` |", cell(title), cell(text), test);
        jfp80.push(json!({"decision": title, "text": text, "test": test}));
    }
    // The DWARF extension document (oracles/dwarf/src/ext.rs).
    let _ = writeln!(
        md,
        "\n## DWARF extension document: decisions where it is silent or ambiguous\n"
    );
    let _ = writeln!(
        md,
        "`AMDGPUDwarfExtensionsForHeterogeneousDebugging.rst` as `oracles/dwarf/src/ext.rs` \
         evaluates it (its module doc has the full text); pinned by the tests of \
         `oracles/harness/tests/dwarf_ext.rs`.\n"
    );
    let _ = writeln!(md, "| decision | what diopter does | pinned by |");
    let _ = writeln!(md, "|---|---|---|");
    let mut jext = Vec::new();
    for (title, text, test) in diopter_dwarf::ext::DECISIONS {
        let _ = writeln!(md, "| **{}** | {} | `{}` |", cell(title), cell(text), test);
        jext.push(json!({"decision": title, "text": text, "test": test}));
    }
    // Upstream LLVM's classic DIExpression (semantics/src/classic.rs).
    let _ = writeln!(
        md,
        "\n## Classic DIExpression: conventions DWARF and LLVM leave open\n"
    );
    let _ = writeln!(
        md,
        "Upstream LLVM's `!DIExpression(DW_OP_...)` as diopter translates it into DIOps \
         (`semantics/src/classic.rs`, `docs/classic.md`), each reading chosen to be sound \
         for what a debugger shows; pinned by the tests of `semantics/tests/classic.rs`.\n"
    );
    let _ = writeln!(md, "| decision | what diopter does | pinned by |");
    let _ = writeln!(md, "|---|---|---|");
    let mut jclassic = Vec::new();
    for (title, text, test) in diopter_semantics::classic::DECISIONS {
        let _ = writeln!(md, "| **{}** | {} | `{}` |", cell(title), cell(text), test);
        jclassic.push(json!({"decision": title, "text": text, "test": test}));
    }
    let summary = format!(
        "{} decisions ({} not pinned in errata.rs), {} of {} specification lines rejected by the printed BNF, {} example typos, {} DWARF-extension decisions, {} classic-DIExpression decisions",
        decisions.len(),
        unpinned,
        rejected,
        specs::all().len(),
        typos.len(),
        diopter_dwarf::ext::DECISIONS.len(),
        diopter_semantics::classic::DECISIONS.len()
    );
    Report {
        stem: "errata".into(),
        title: "Spec errata and decisions".into(),
        summary,
        markdown: md,
        json: json!({
            "x86_fp80": jfp80,
            "classic": jclassic,
            "design": design.is_some(),
            "decisions": jdec,
            "other_errata_tests": others,
            "spec_lines": jlines,
            "example_typos": jtypos,
            "dwarf_extension_decisions": jext,
        }),
    }
}

// ------------------------------------------------------- round trips

/// The corpus's `.expr` files, in sorted order.
pub fn corpus_expr_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(d) else {
            return;
        };
        let mut es: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        es.sort();
        for p in es {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "expr") {
                out.push(p);
            }
        }
    }
    walk(&root.join("corpus"), &mut files);
    files
}

/// For every expression of the corpus's `.expr` files: does printing it and
/// reading the print back give the same expression? (file, total, failures)
pub fn round_trips(root: &Path) -> Vec<(String, usize, Vec<String>)> {
    corpus_expr_files(root)
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            let (file, _) = parse_expr_file(&Source::new(f.display().to_string(), text));
            let mut bad = Vec::new();
            for e in &file.entries {
                let p = print_bare(&e.bare);
                match parse_bare(&p) {
                    Ok(b) if b == e.bare && print_bare(&b) == p => {}
                    _ => bad.push(format!("line {}: {p}", e.line)),
                }
            }
            let rel = f.strip_prefix(root).unwrap_or(f).display().to_string();
            (rel, file.entries.len(), bad)
        })
        .collect()
}

// -------------------------------------------------------- benchmarks

/// Criterion's estimates under `target/criterion` (or `$CARGO_TARGET_DIR`):
/// (benchmark id, mean in ns, standard error in ns).
pub fn benchmarks(root: &Path) -> Vec<(String, f64, f64)> {
    let mut dirs = vec![root.join("target/criterion")];
    if let Some(t) = std::env::var_os("CARGO_TARGET_DIR") {
        dirs.insert(0, PathBuf::from(t).join("criterion"));
    }
    let mut out = Vec::new();
    fn walk(d: &Path, base: &Path, out: &mut Vec<(String, f64, f64)>) {
        let Ok(rd) = std::fs::read_dir(d) else {
            return;
        };
        let mut es: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        es.sort();
        for p in es {
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == "new") {
                    let est = p.join("estimates.json");
                    if let Ok(t) = std::fs::read_to_string(&est) {
                        if let Ok(v) = serde_json::from_str::<Value>(&t) {
                            let mean = v["mean"]["point_estimate"].as_f64();
                            let se = v["mean"]["standard_error"].as_f64().unwrap_or(0.0);
                            if let Some(m) = mean {
                                let id = p
                                    .parent()
                                    .and_then(|q| q.strip_prefix(base).ok())
                                    .map_or_else(String::new, |q| q.display().to_string());
                                out.push((id, m, se));
                            }
                        }
                    }
                } else if p.file_name().is_none_or(|n| n != "base" && n != "report") {
                    walk(&p, base, out);
                }
            }
        }
    }
    for d in dirs {
        walk(&d, &d, &mut out);
        if !out.is_empty() {
            break;
        }
    }
    out
}

/// A speed goal of the project (fast evaluator against the reference or
/// against gimli), and where `reports/profiles.md` explains a miss.
struct RatioGoal {
    what: &'static str,
    /// The slower benchmark (criterion's id).
    slow: &'static str,
    /// The faster benchmark.
    fast: &'static str,
    goal: f64,
    /// The section of `reports/profiles.md` that profiles both sides.
    anchor: &'static str,
    /// What that profile found, in one sentence (a measurement write-up
    /// is by hand; this summarises it, and the figures around it come from
    /// the estimates).
    why: &'static str,
}

const RATIOS: [RatioGoal; 6] = [
    RatioGoal {
        what: "fast evaluator vs reference, generated expressions",
        slow: "generated/reference",
        fast: "generated/fast",
        goal: 20.0,
        anchor: "sixth-round-part-2",
        why: "in a context prepared beforehand (`PreparedContext`: a debugger \
              prepares a stop's context once for the expressions it evaluates there; the \
              bench's `fast` row runs so, the preparation outside the timed loop) a run is \
              about 2,360 instructions per evaluation in callgrind against the reference's \
              49,870 (21.1×; 19.8× before the sixth round), and the time ratio on this \
              machine moves by more than that margin (19.5× to 22.6× over the round's four \
              criterion runs, the reference's own mean by half between runs); the \
              expressions furthest below the goal are the runs repeated with `BigInt` \
              offsets (7 of the 300, 3.7× to 7.5×), a vector of sixteen `i129` lanes \
              (8.3×) and the contexts that cannot be prepared",
    },
    RatioGoal {
        what: "fast evaluator vs reference, corpus expressions",
        slow: "corpus/reference",
        fast: "corpus/fast",
        goal: 20.0,
        anchor: "where-the-time-goes-now",
        why: "in a context prepared beforehand a run of a corpus expression (2.75 \
              operations on average) is about 474 instructions, the reference about 9,590 \
              (20.2×; 18.3× before the sixth round), and the time ratio on this machine \
              moves by more than the margin left (19.0× to 22.0× over the round's four \
              criterion runs; the interleaved medians 19.8× to 20.9×). What is left is \
              flat: the expressions that read through memory, composites and \
              multi-locations are three fifths of the fast side's instructions (the seed's \
              hash gives most of the bytes they read, about 15 instructions a byte), and a \
              machine run's setup (about 90 instructions) much of the rest",
    },
    RatioGoal {
        what: "fast evaluator with compilation vs reference, generated expressions",
        slow: "generated/reference",
        fast: "generated/fast+compile",
        goal: 5.0,
        anchor: "compilation-fast-compile-vs-reference",
        why: "compiling each expression into the previous program's buffers \
              (`Compiled::recompile_unchecked`, as a debugger or a fuzz loop reuses a \
              `Scratch`; the bench's `fast+compile` does so) and running it once on the raw \
              context is about 6,680 instructions per 14-operation expression (8,730 before \
              the fifth round), 7.5× fewer than the reference: the typing loop's dispatch, \
              sizing aggregates and the run",
    },
    RatioGoal {
        what: "fast evaluator with compilation vs reference, corpus expressions",
        slow: "corpus/reference",
        fast: "corpus/fast+compile",
        goal: 5.0,
        anchor: "compilation-fast-compile-vs-reference",
        why: "compiling into the previous program's buffers and running once on \
              the raw context is about 1,580 instructions (2,165 before the fifth round), \
              6.1× fewer than the reference's 9,590 (the environment both sides build no \
              longer clones the referrer's type); the context entity lookups by name \
              (about 45) are the largest single cost left; the compile path's \
              mispredictions make its time ratio run below the instruction ratio",
    },
    RatioGoal {
        what: "fast evaluator vs gimli, the same lowered DWARF",
        // Criterion names an ungrouped benchmark's directory with `_` for `/`.
        slow: "dwarf_gimli",
        fast: "dwarf_fast",
        goal: 3.0,
        anchor: "lowered-dwarf-fast-vs-gimli",
        why: "the gimli oracle maps gimli's pieces back to a location; see the profile",
    },
    RatioGoal {
        what: "fast evaluator vs gimli's evaluation alone (pieces, no mapping back)",
        slow: "dwarf_gimli-only",
        fast: "dwarf_fast",
        goal: 3.0,
        anchor: "lowered-dwarf-fast-vs-gimli",
        why: "gimli decodes the bytes on each evaluation and answers requests through our \
              callbacks; the fast evaluator's machine and result are compared in the profile",
    },
];

/// The fuzzing throughput goal (executions per second of `eval_diff`).
const EXEC_GOAL: f64 = 20_000.0;

/// The benchmark report: criterion's estimates and the ratios the goals
/// are about, the libFuzzer settings' figures
/// (`reports/libfuzzer-settings.json`, written by
/// `reports/libfuzzer-settings.sh`) and the default job's campaign rate
/// (`campaign.json`), written into `dir`. A figure this build tree did not
/// measure is the last measured one, kept in the committed reports (never
/// "not run" over a measured figure); "not run" only when nothing was ever
/// measured.
pub fn benchmark_report(root: &Path, dir: &Path) -> Report {
    let mut b = benchmarks(root);
    if b.is_empty() {
        b = kept_benchmarks(root);
    }
    benchmark_report_from(root, dir, b)
}

/// A JSON input of the reports: `dir`'s own (what this run wrote) when it
/// has one, else the committed `reports/` one.
fn report_input(root: &Path, dir: &Path, name: &str) -> Option<Value> {
    [dir.join(name), root.join("reports").join(name)]
        .iter()
        .find_map(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str(&t).ok())
}

/// The criterion estimates the committed `reports/benchmarks.json` keeps
/// (the last `cargo bench` run's), for a build tree where criterion has not
/// run.
fn kept_benchmarks(root: &Path) -> Vec<(String, f64, f64)> {
    let v = report_input(root, &root.join("reports"), "benchmarks.json").unwrap_or(Value::Null);
    v["benchmarks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| {
            Some((
                b["id"].as_str()?.to_string(),
                b["mean_ns"].as_f64()?,
                b["stderr_ns"].as_f64().unwrap_or(0.0),
            ))
        })
        .collect()
}

/// The prover's time on the rule library (issue goal: at most 60 s cold on
/// 2 cores), from the last `diopter prove` run's `proofs.json`: cold when
/// no instance came from the proof cache. A warm run does not replace the
/// last cold figure (kept in `benchmarks.json`'s `prover_cold`): both are
/// given.
fn prover_section(root: &Path, dir: &Path) -> (String, Value) {
    const GOAL_S: f64 = 60.0;
    let mut md = String::from("\n## Prover\n\n");
    let doc: Option<Value> = report_input(root, dir, "proofs.json");
    let kept_cold = [dir, &root.join("reports")]
        .iter()
        .filter_map(|d| std::fs::read_to_string(d.join("benchmarks.json")).ok())
        .filter_map(|t| serde_json::from_str::<Value>(&t).ok())
        .map(|v| v["prover_cold"].clone())
        .find(|c| c.is_object())
        .unwrap_or(Value::Null);
    let Some(d) = doc.filter(|d| d["shard"].is_null() && d["total_seconds"].is_f64()) else {
        md.push_str(
            "Not run: no unsharded `reports/proofs.json`. Run \
             `cargo run --release -- prove --no-cache`, then `diopter report`.\n",
        );
        return (md, kept_cold);
    };
    let secs = d["total_seconds"].as_f64().unwrap_or(0.0);
    let insts: Vec<&Value> = d["rules"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["instances"].as_array().into_iter().flatten())
        .collect();
    let cached = insts.iter().filter(|i| i["cached"] == true).count();
    let jobs = d["jobs"]
        .as_u64()
        .map_or("an unrecorded number of".to_string(), |j| j.to_string());
    let _ = write!(
        md,
        "The rule library (`corpus/rules` and the generated folding rules, {} rules, {} \
         instances at widths {}): **{secs:.1} s** wall with {jobs} jobs",
        d["library"]["rules"],
        insts.len(),
        d["widths"]
    );
    if cached == 0 {
        let _ = writeln!(
            md,
            ", cold (no proof cache). Goal ≤ {GOAL_S:.0} s cold on 2 cores: {}.",
            if secs <= GOAL_S { "met" } else { "not met" }
        );
        let cold = json!({"seconds": secs, "jobs": d["jobs"], "rules": d["library"]["rules"],
                          "instances": insts.len(), "widths": d["widths"]});
        return (md, cold);
    }
    let _ = writeln!(
        md,
        ", {cached} instances from the proof cache (not a cold run: the cold figure comes \
         from `cargo run --release -- prove --no-cache`)."
    );
    if let Some(s) = kept_cold["seconds"].as_f64() {
        let _ = writeln!(
            md,
            "\nThe last cold run ({} rules, {} instances): **{s:.1} s** wall with {} jobs. \
             Goal ≤ {GOAL_S:.0} s cold on 2 cores: {}.",
            kept_cold["rules"],
            kept_cold["instances"],
            kept_cold["jobs"],
            if s <= GOAL_S { "met" } else { "not met" }
        );
    }
    (md, kept_cold)
}

/// [`benchmark_report`] on the given criterion estimates.
fn benchmark_report_from(root: &Path, dir: &Path, b: Vec<(String, f64, f64)>) -> Report {
    let mean = |id: &str| b.iter().find(|(i, _, _)| i == id).map(|(_, m, _)| *m);
    let mut md = String::from("# Benchmarks\n\n");
    let mut ratios = Vec::new();
    if b.is_empty() {
        md.push_str(
            "Criterion: not run (no estimates under `target/criterion/`). Run \
             `cargo bench -p diopter-fast --bench eval -- --warm-up-time 1 --measurement-time 3` \
             and `cargo bench -p diopter-dwarf --bench dwarf`, then `diopter report`.\n",
        );
    } else {
        md.push_str(
            "## Ratios\n\nFrom criterion's estimates below (the last `cargo bench` run of each \
             bench on this machine: `target/criterion/`, or when this build tree has none, the \
             estimates kept in `reports/benchmarks.json`; a ratio is the slower mean over the \
             faster one).\n\n\
             | ratio | value | goal | met |\n|---|---:|---:|---|\n",
        );
        let mut misses = Vec::new();
        for g in &RATIOS {
            let RatioGoal {
                what,
                slow,
                fast,
                goal,
                ..
            } = *g;
            match (mean(slow), mean(fast)) {
                (Some(s), Some(f)) if f > 0.0 => {
                    let r = s / f;
                    let _ = writeln!(
                        md,
                        "| {what} (`{slow}` / `{fast}`) | {r:.1}× | ≥ {goal}× | {} |",
                        if r >= goal { "yes" } else { "no" }
                    );
                    ratios.push(json!({"what": what, "slower": slow, "faster": fast, "ratio": r, "goal": goal}));
                    if r < goal {
                        misses.push((g, s, f, r));
                    }
                }
                _ => {
                    let _ = writeln!(md, "| {what} | not run | ≥ {goal}× | |");
                }
            }
        }
        if !misses.is_empty() {
            md.push_str(
                "\n### Why the goals are not met\n\nEach paragraph summarises the profile of both \
                 sides in [profiles.md](profiles.md) (callgrind instruction counts per evaluation, \
                 the top functions, the floor of the current design).\n",
            );
        }
        for (g, s, f, r) in misses {
            let _ = writeln!(
                md,
                "\n**{}**: {r:.1}× against a goal of {}× ({:.0}% of it). To meet it, `{}` would \
                 have to take at most {} (now {}) with `{}` unchanged. The profile: {}. See \
                 [profiles.md](profiles.md#{}).",
                g.what,
                g.goal,
                100.0 * r / g.goal,
                g.fast,
                human_ns(s / g.goal),
                human_ns(f),
                g.slow,
                g.why,
                g.anchor
            );
        }
        md.push_str(
            "\n## Criterion estimates\n\nMean with standard error. Reproduce with \
             `cargo bench -p diopter-fast --bench eval` and `cargo bench -p diopter-dwarf --bench dwarf`. \
             `fast` is the evaluator's own compact result in a context prepared beforehand \
             (`PreparedContext`, outside the timed loop; `Compiled::run_prepared`), \
             `fast+outcome` that result converted to the reference's `Outcome` (what the \
             differential oracle compares), `fast+compile` the one-shot path on the raw \
             context: `compile_unchecked` into the previous program's buffers \
             (`Compiled::recompile_unchecked`) and one `Compiled::run`.\n\n\
             | benchmark | mean | ± |\n|---|---:|---:|\n",
        );
        for (id, m, se) in &b {
            let _ = writeln!(md, "| `{id}` | {} | {} |", human_ns(*m), human_ns(*se));
        }
    }
    // Fuzzing throughput, from the settings script's last run.
    md.push_str("\n## Fuzzing throughput\n\n");
    let lf: Option<Value> = report_input(root, dir, "libfuzzer-settings.json");
    match &lf {
        Some(v) => {
            let _ = writeln!(
                md,
                "`{}`, {} s per configuration on {} (load {}), from \
                 [libfuzzer-settings.md](libfuzzer-settings.md) \
                 (`reports/libfuzzer-settings.sh`); goal ≥ {EXEC_GOAL} exec/s.\n\n\
                 | configuration | exec/s | edges | features |\n|---|---:|---:|---:|",
                v["target"].as_str().unwrap_or("?"),
                v["seconds"],
                v["date"].as_str().unwrap_or("?"),
                v["load"].as_str().unwrap_or("?"),
            );
            for c in v["configurations"].as_array().into_iter().flatten() {
                let cell = |k: &str| c[k].as_u64().map_or("-".to_string(), |n| n.to_string());
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} |",
                    c["name"].as_str().unwrap_or("?"),
                    cell("exec_per_s"),
                    cell("cov"),
                    cell("ft")
                );
            }
            let best = v["configurations"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| Some((c["name"].as_str()?, c["exec_per_s"].as_f64()?)))
                .max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((name, x)) = best.filter(|b| b.1 < EXEC_GOAL) {
                let _ = writeln!(
                    md,
                    "\n**Why the goal is not met**: the best configuration, `{name}`, runs {x:.0} \
                     exec/s, {:.0}% of the goal. Under callgrind an execution is millions of \
                     instructions of which diopter's own code is under a third: the rest is \
                     libFuzzer (mostly its entropic schedule) and the comparison tracing and \
                     coverage instrumentation of our code, whose uninstrumented body is about \
                     126 k instructions per input. See \
                     [profiles.md](profiles.md#fuzzing-throughput-eval_diff-execs).",
                    100.0 * x / EXEC_GOAL
                );
            }
        }
        None => md.push_str(
            "Not run: no `reports/libfuzzer-settings.json`. Run \
             `reports/libfuzzer-settings.sh eval_diff 300`, then `diopter report`.\n",
        ),
    }
    // The default job's in-process campaign.
    md.push_str("\n## In-process campaign\n\n");
    let camp: Option<Value> = report_input(root, dir, "campaign.json");
    let rate = camp.as_ref().and_then(|c| {
        let n = c["cases"].as_f64()?;
        let t = c["elapsed_s"].as_f64().filter(|t| *t > 0.0)?;
        Some((n, t, n / t))
    });
    match rate {
        Some((n, t, r)) => {
            let _ = writeln!(
                md,
                "`diopter run` (the default job, [campaign.md](campaign.md)): {n:.0} cases in {t:.1} s, \
                 **{r:.0} cases/s** through every oracle."
            );
        }
        None => md.push_str("Not run: no `reports/campaign.json` (`cargo run --release`).\n"),
    }
    let (prover_md, prover_cold) = prover_section(root, dir);
    md.push_str(&prover_md);
    Report {
        stem: "benchmarks".into(),
        title: "Benchmarks".into(),
        summary: if b.is_empty() {
            "criterion not run".into()
        } else {
            format!("{} criterion benchmarks, {} ratios", b.len(), ratios.len())
        },
        markdown: md,
        json: json!({
            "run": !b.is_empty(),
            "benchmarks": b.iter().map(|(id, m, se)| json!({"id": id, "mean_ns": m, "stderr_ns": se})).collect::<Vec<_>>(),
            "ratios": ratios,
            "libfuzzer": lf,
            "campaign_cases_per_s": rate.map(|r| r.2),
            "prover_cold": prover_cold,
        }),
    }
}

fn human_ns(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// Writes a report's two files atomically.
pub fn write(dir: &Path, r: &Report) -> std::io::Result<()> {
    write_atomic(&dir.join(format!("{}.md", r.stem)), &r.markdown)?;
    let j = serde_json::to_string_pretty(&r.json).unwrap_or_default();
    write_atomic(&dir.join(format!("{}.json", r.stem)), &(j + "\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_test_names_and_decisions() {
        let t = "#[test]\nfn a_b() {}\nfn helper() {}\n#[test]\nfn c() {}\n";
        assert_eq!(test_names(t), vec!["a_b", "c"]);
        let d = "x\n## Decisions here\n\n- **Bits.** Little\n  endian.\n- **Types** are\n## Next\n- **No.** x";
        let ds = design_decisions(d);
        assert_eq!(ds.len(), 2);
        assert_eq!(ds[0], ("Bits".to_string(), "Little endian.".to_string()));
        assert_eq!(ds[1].0, "Types");
    }

    #[test]
    fn reads_the_notes_table() {
        let n = "## Errata corrected (x)\n\n| File | a | b | c |\n|---|---|---|---|\n| `f` | p | r | w |\n\n## Next";
        let rows = notes_errata(n);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0][0], "`f`");
        assert_eq!(rows[0][3], "w");
    }

    /// A build tree without criterion estimates and a warm prover run (the
    /// default job on a fresh clone) keep the measured figures of the
    /// committed reports: the criterion table of `benchmarks.json` and its
    /// last cold prover time, never "not run" in their place.
    #[test]
    fn benchmark_report_keeps_measured_figures_it_did_not_measure() {
        let root = std::env::temp_dir().join(format!("diopter-bench-kept-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let run = root.join("target/run");
        std::fs::create_dir_all(root.join("reports")).unwrap();
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(
            root.join("reports/benchmarks.json"),
            json!({"benchmarks": [{"id": "corpus/fast", "mean_ns": 100.0, "stderr_ns": 1.0},
                                  {"id": "corpus/reference", "mean_ns": 380.0, "stderr_ns": 2.0}],
                   "prover_cold": {"seconds": 44.8, "jobs": 2, "rules": 108, "instances": 8464}})
            .to_string(),
        )
        .unwrap();
        std::fs::write(
            run.join("proofs.json"),
            json!({"total_seconds": 2.5, "jobs": 2, "shard": null, "widths": [8],
                   "library": {"rules": 1},
                   "rules": [{"instances": [{"verdict": "proved", "cached": true}]}]})
            .to_string(),
        )
        .unwrap();
        // `benchmarks(root)` finds nothing under this scratch root's target/.
        let r = benchmark_report(&root, &run);
        let _ = std::fs::remove_dir_all(&root);
        // (The fixture keeps two estimates and no libFuzzer figures: the
        // other ratios and that section are "not run", as nothing measured
        // them.)
        assert!(!r.markdown.contains("Criterion: not run"), "{}", r.markdown);
        assert!(!r.markdown.contains("no unsharded"), "{}", r.markdown);
        assert!(
            r.markdown.contains("| 3.8× | ≥ 20× | no |"),
            "{}",
            r.markdown
        );
        assert!(
            r.markdown
                .contains("| `corpus/reference` | 380 ns | 2 ns |"),
            "{}",
            r.markdown
        );
        assert!(
            r.markdown.contains(
                "The last cold run (108 rules, 8464 instances): **44.8 s** wall with 2 jobs. \
                 Goal ≤ 60 s cold on 2 cores: met."
            ),
            "{}",
            r.markdown
        );
        assert_eq!(r.json["prover_cold"]["seconds"].as_f64(), Some(44.8));
    }

    /// The ratios come from the criterion means, and the goals are judged
    /// on them; the libFuzzer and campaign figures are copied from their
    /// files. Built in a scratch root, so no earlier run is read.
    #[test]
    fn benchmark_report_computes_the_ratios_and_reads_the_figures() {
        let root =
            std::env::temp_dir().join(format!("diopter-bench-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        // Criterion's estimates as `benchmarks` reads them (id, mean, error).
        let b: Vec<(String, f64, f64)> = [
            ("corpus/fast", 100.0),
            ("corpus/reference", 300.0),
            ("dwarf_fast", 100.0),
            ("dwarf_gimli", 330.0),
            ("generated/fast", 100.0),
            ("generated/reference", 2500.0),
        ]
        .into_iter()
        .map(|(id, m)| (id.to_string(), m, 1.0))
        .collect();
        std::fs::create_dir_all(root.join("reports")).unwrap();
        std::fs::write(
            root.join("reports/libfuzzer-settings.json"),
            r#"{"target": "eval_diff", "seconds": 300, "date": "2026-11-25", "load": "1 1 1",
                "configurations": [{"name": "default", "exec_per_s": 3000, "cov": 10, "ft": 20},
                                   {"name": "fork2", "exec_per_s": null, "cov": null, "ft": null}]}"#,
        )
        .unwrap();
        std::fs::write(
            root.join("reports/campaign.json"),
            r#"{"cases": 1000, "elapsed_s": 4.0}"#,
        )
        .unwrap();
        let proofs = |cached: bool, secs: f64| {
            std::fs::write(
                root.join("reports/proofs.json"),
                json!({"total_seconds": secs, "jobs": 2, "shard": null, "widths": [8, 64],
                       "library": {"rules": 2},
                       "rules": [{"instances": [{"verdict": "proved"}, {"verdict": "proved", "cached": cached}]},
                                 {"instances": [{"verdict": "refuted"}]}]})
                .to_string(),
            )
            .unwrap();
        };
        proofs(true, 3.5);
        let warm = prover_section(&root, &root.join("reports")).0;
        proofs(false, 61.0);
        let slow = prover_section(&root, &root.join("reports")).0;
        proofs(false, 59.5);
        let r = benchmark_report_from(&root, &root.join("reports"), b);
        let _ = std::fs::remove_dir_all(&root);
        assert!(
            warm.contains(
                "**3.5 s** wall with 2 jobs, 1 instances from the proof cache (not a cold run"
            ),
            "{warm}"
        );
        assert!(slow.contains("**61.0 s** wall with 2 jobs, cold (no proof cache). Goal ≤ 60 s cold on 2 cores: not met."), "{slow}");
        assert!(
            r.markdown.contains("2 rules, 3 instances at widths [8,64]): **59.5 s** wall with 2 jobs, cold (no proof cache). Goal ≤ 60 s cold on 2 cores: met."),
            "{}",
            r.markdown
        );
        let ratios = r.json["ratios"].as_array().unwrap();
        assert_eq!(ratios.len(), 3);
        assert_eq!(ratios[0]["ratio"].as_f64(), Some(25.0));
        assert_eq!(ratios[1]["ratio"].as_f64(), Some(3.0));
        assert!((ratios[2]["ratio"].as_f64().unwrap() - 3.3).abs() < 1e-9);
        assert!(
            r.markdown.contains("| 25.0× | ≥ 20× | yes |"),
            "{}",
            r.markdown
        );
        assert!(
            r.markdown.contains("| 3.0× | ≥ 20× | no |"),
            "{}",
            r.markdown
        );
        assert!(
            r.markdown.contains("| 3.3× | ≥ 3× | yes |"),
            "{}",
            r.markdown
        );
        // Only the missed goals are explained, with the figures of this run.
        assert!(r.markdown.contains("### Why the goals are not met"));
        assert!(
            r.markdown.contains(
                "**fast evaluator vs reference, corpus expressions**: 3.0× against a goal of 20× \
                 (15% of it). To meet it, `corpus/fast` would have to take at most 15 ns (now 100 ns) \
                 with `corpus/reference` unchanged."
            ),
            "{}",
            r.markdown
        );
        assert!(r.markdown.contains("(profiles.md#where-the-time-goes-now)"));
        assert!(!r.markdown.contains("profiles.md#sixth-round-part-2"));
        assert!(!r.markdown.contains("profiles.md#lowered-dwarf"));
        assert!(
            r.markdown.contains(
                "**Why the goal is not met**: the best configuration, `default`, runs 3000 exec/s, \
                 15% of the goal."
            ),
            "{}",
            r.markdown
        );
        assert!(r
            .markdown
            .contains("(profiles.md#fuzzing-throughput-eval_diff-execs)"));
        assert!(r.markdown.contains("| default | 3000 | 10 | 20 |"));
        assert!(r.markdown.contains("| fork2 | - | - | - |"));
        assert!(r.markdown.contains("**250 cases/s**"));
        assert_eq!(r.json["campaign_cases_per_s"].as_f64(), Some(250.0));
    }
}
