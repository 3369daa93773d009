//! `diopter report`: regenerates `reports/` from the current code: the proof
//! report (by running the prover, `diopter_proving`), the spec-errata report, the
//! corpus conformance report, the benchmark figures, and the index
//! `reports/README.md` that links them and every campaign report.

use diopter_report::write_atomic;
use diopter_report::{self as report, Report};
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

pub const REPORT_HELP: &str = "\
WHAT IT WRITES (each .md with a .json twin)
  proofs       every rule at every width, counterexamples for the refuted
               set (written by `diopter prove`, which this runs)
  errata       DESIGN.md's decisions and the tests that pin them, the spec
               lines its BNF rejects, the examples' typos
  conformance  `diopter check corpus/` verdicts per directory, AMD verifier
               expectations, print/parse round trips of every expression
  benchmarks   criterion's last estimates and the speed goals' ratios, eval_diff
               exec/s per libFuzzer setting (reports/libfuzzer-settings.json,
               from reports/libfuzzer-settings.sh), the campaign's cases/s
  validation   `diopter validate corpus/amd/amd-rewrites.map`: a verdict for
               every row of AMD's before/after pairs, with the explanations of
               corpus/amd/validation-findings.md
  README.md    the index, with the campaign reports under campaigns/ and
               the minimizer measurement (minimizer.md)

  A figure this tree did not measure (criterion has not run here, the
  prover ran from its cache) is the last measured one, kept from the
  committed reports, never replaced by \"not run\".

EXIT STATUS
  0 every report was written and every step passed; 1 a step failed (the
  prover refuted or did not prove a rule, the corpus does not check, a
  validation met an encoding bug, docs/design.md is missing) or a report
  could not be written (each step's line says which).";

#[derive(clap::Args, Clone)]
pub struct Args {
    /// Where the reports go.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub dir: PathBuf,
    /// Do not run the prover (the proof report stays as it is).
    #[arg(long)]
    pub no_prove: bool,
}

/// The workspace root: the current directory when it holds the corpus,
/// else where this binary was built from.
pub fn root() -> PathBuf {
    let here = PathBuf::from(".");
    if here.join("corpus").is_dir() && here.join("Cargo.toml").is_file() {
        here
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }
}

/// One step's outcome, for the run summary.
pub struct Step {
    pub name: String,
    pub ok: bool,
    pub line: String,
}

/// Proves the whole rule library as `diopter prove` with no argument does
/// (`diopter_proving`; it prints per rule and writes `proofs.md` and
/// `proofs.json` into `dir`).
pub fn prove(dir: &Path) -> Step {
    let ok = prove_library(dir);
    let summary = std::fs::read_to_string(dir.join("proofs.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .map(|v| {
            let s = &v["summary"];
            if s.is_null() {
                "see proofs.md".to_string()
            } else {
                s.to_string()
            }
        })
        .unwrap_or_else(|| "no proofs.json written".into());
    Step {
        name: "prove".into(),
        ok,
        line: format!(
            "{} ({summary})",
            if ok {
                "every rule as claimed"
            } else {
                "some rule refuted or unproved"
            }
        ),
    }
}

/// Whether every rule is as claimed; what the prover says goes to the
/// standard output and error, as `diopter prove`'s does.
fn prove_library(dir: &Path) -> bool {
    let rules = match crate::library::rules_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return false;
        }
    };
    let cache = crate::proof_cache::at(Path::new(diopter_proving::DEFAULT_CACHE_DIR));
    let req = diopter_proving::Request::whole_library(rules, Some(cache));
    let proofs = match diopter_proving::prove(&req, &mut |e| eprintln!("{e}")) {
        Ok(p) => p,
        Err(e) => {
            eprint!("{}", e.render());
            return false;
        }
    };
    print!("{}", proofs.text(false));
    if let Err(e) = proofs.write_reports(dir) {
        eprintln!("warning: {e}");
    }
    !proofs.failed
}

/// The conformance report: the checker's verdicts on the corpus (run as
/// `diopter check corpus --format json` in a child process of this same
/// binary: the checker's file-level driver is private to `check_cmd`, and
/// its JSON is the interface scripts use anyway), the AMD verifier's
/// expectations and the round trips.
pub fn conformance(root: &Path) -> (Report, bool) {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("diopter"));
    let out = Command::new(exe)
        .args(["check", "--quiet", "--format", "json"])
        .arg(root.join("corpus"))
        .output();
    let v: Value = out
        .as_ref()
        .ok()
        .and_then(|o| serde_json::from_slice(&o.stdout).ok())
        .unwrap_or(Value::Null);
    let mut md = String::from("# Corpus conformance\n\nGenerated by `diopter report` (`diopter check corpus/ --format json` and a print/parse round trip of every `.expr` expression). Do not edit.\n\n");
    let ok_check = v["exit_code"].as_i64() == Some(0);
    if v.is_null() {
        md.push_str("The checker could not be run.\n");
    } else {
        let s = &v["summary"];
        let _ = writeln!(
            md,
            "**{}**: {} expressions in {} files: {} valid, {} invalid as expected, {} not well-formed, {} unexpectedly valid, {} parse-only, {} syntax errors.\n",
            if ok_check { "PASS" } else { "FAIL" },
            s["expressions"], s["files"], s["valid"], s["expected_invalid"], s["invalid"],
            s["unexpected_valid"], s["parse_only"], s["syntax_errors"]
        );
        // Per directory.
        let mut per: std::collections::BTreeMap<String, [u64; 3]> = Default::default();
        for e in v["expressions"].as_array().into_iter().flatten() {
            let file = e["file"].as_str().unwrap_or("");
            let rel = Path::new(file)
                .strip_prefix(root)
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| file.to_string());
            let key = if rel.contains("verifier.expr") {
                "corpus/amd/verifier.expr (AMD verifier tests)".to_string()
            } else {
                Path::new(&rel)
                    .parent()
                    .map_or(rel.clone(), |p| p.display().to_string())
            };
            let slot = per.entry(key).or_default();
            slot[0] += 1;
            match e["verdict"].as_str() {
                Some("valid") | Some("expected-invalid") | Some("parse-only") => slot[1] += 1,
                _ => slot[2] += 1,
            }
        }
        md.push_str(
            "| where | expressions | as expected | not as expected |\n|---|---:|---:|---:|\n",
        );
        for (k, [n, good, bad]) in &per {
            let _ = writeln!(md, "| `{k}` | {n} | {good} | {bad} |");
        }
        let bad: Vec<&Value> = v["expressions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| {
                !matches!(
                    e["verdict"].as_str(),
                    Some("valid") | Some("expected-invalid") | Some("parse-only")
                )
            })
            .collect();
        if !bad.is_empty() {
            md.push_str("\n## Not as expected\n\n");
            for e in &bad {
                let _ = writeln!(
                    md,
                    "- {}:{}: {} `{}`",
                    e["file"].as_str().unwrap_or(""),
                    e["line"],
                    e["verdict"].as_str().unwrap_or(""),
                    e["text"].as_str().unwrap_or("")
                );
            }
        }
    }
    let rt = report::round_trips(root);
    let total: usize = rt.iter().map(|(_, n, _)| n).sum();
    let failed: usize = rt.iter().map(|(_, _, b)| b.len()).sum();
    let _ = writeln!(
        md,
        "\n## Round trips\n\nEvery expression printed in the one-line form and read back: {} of {total} give the same expression and the same print.\n\n| file | expressions | round-trip failures |\n|---|---:|---:|",
        total - failed
    );
    for (f, n, b) in &rt {
        let _ = writeln!(md, "| `{f}` | {n} | {} |", b.len());
    }
    for (f, _, b) in &rt {
        for line in b {
            let _ = writeln!(md, "- `{f}` {line}");
        }
    }
    let ok = ok_check && failed == 0;
    let summary = if v.is_null() {
        "checker not run".to_string()
    } else {
        format!(
            "{}: {} expressions checked, {} of {total} round trips",
            if ok { "PASS" } else { "FAIL" },
            v["summary"]["expressions"],
            total - failed
        )
    };
    (
        Report {
            stem: "conformance".into(),
            title: "Corpus conformance".into(),
            summary,
            markdown: md,
            json: json!({
                "check": v["summary"].clone(),
                "check_exit_code": v["exit_code"].clone(),
                "round_trips": rt.iter().map(|(f, n, b)| json!({"file": f, "expressions": n, "failures": b})).collect::<Vec<_>>(),
            }),
        },
        ok,
    )
}

/// The index `reports/README.md`.
pub fn write_index(dir: &Path, reports: &[(String, String, String)]) -> std::io::Result<()> {
    let mut md = String::from(
        "# reports/\n\nGenerated by `diopter report` (the default job, `cargo run --release`, writes \
         the same reports into its run directory under `target/diopter-run/` instead); every \
         report is Markdown with a JSON twin. Do not edit: regenerate.\n\n| report | what | status |\n|---|---|---|\n",
    );
    for (file, title, summary) in reports {
        let _ = writeln!(
            md,
            "| [{title}]({file}) | {} | {summary} |",
            file.replace(".md", ".json")
        );
    }
    // Campaigns, newest first.
    let mut camps: Vec<String> = std::fs::read_dir(dir.join("campaigns"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("summary.md").is_file())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    camps.sort();
    camps.reverse();
    md.push_str("\n## Campaigns (`diopter campaign`)\n\n");
    if camps.is_empty() {
        md.push_str("None yet.\n");
    }
    for c in &camps {
        let _ = writeln!(md, "- [{c}](campaigns/{c}/summary.md)");
    }
    write_atomic(&dir.join("README.md"), &md)
}

/// Regenerates everything except the proofs and the campaign; returns the
/// steps' outcomes (for `diopter run`).
pub fn regenerate(dir: &Path) -> Vec<Step> {
    let root = root();
    let mut steps = Vec::new();
    let mut index: Vec<(String, String, String)> = Vec::new();
    let mut put = |r: &Report, ok: bool, steps: &mut Vec<Step>| {
        let res = report::write(dir, r);
        steps.push(Step {
            name: r.stem.clone(),
            ok: ok && res.is_ok(),
            line: match res {
                Ok(()) => format!("{}/{}.md: {}", dir.display(), r.stem, r.summary),
                Err(e) => format!("writing {}/{}.md: {e}", dir.display(), r.stem),
            },
        });
        index.push((format!("{}.md", r.stem), r.title.clone(), r.summary.clone()));
    };
    let (c, ok) = conformance(&root);
    put(&c, ok, &mut steps);
    let design = root.join(report::DESIGN).is_file();
    put(&report::errata(&root), design, &mut steps);
    put(&report::benchmark_report(&root, dir), true, &mut steps);
    put(&report::lowering::report(&root), true, &mut steps);
    // Translation validation of AMD's updates: refutations are findings
    // (explained in the report), an encoding bug is a failure.
    match crate::validate_cmd::write_report(&root, dir) {
        Ok(line) => {
            steps.push(Step {
                name: "validation".into(),
                ok: line.contains(", 0 encoding bug"),
                line: format!("{}/validation.md: {line}", dir.display()),
            });
            index.push((
                "validation.md".into(),
                "Translation validation of AMD's DIOp updates (`diopter validate`)".into(),
                line,
            ));
        }
        Err(e) => steps.push(Step {
            name: "validation".into(),
            ok: false,
            line: format!("validation: {e}"),
        }),
    }
    // Reports other commands write: listed when present, with their
    // summary line where they have one (the line holding `marker`).
    for (file, title, marker) in [
        (
            "proofs.md",
            "Proofs of the rule library (`diopter prove`)",
            Some(" rules: "),
        ),
        (
            "transforms.md",
            "Proofs of SRoA and mem2reg (`diopter prove --transforms`)",
            None,
        ),
        (
            "campaign.md",
            "Last in-process campaign (`diopter run`)",
            None,
        ),
        (
            "bugbench.md",
            "How fast planted bugs are found (`diopter bugbench`)",
            Some(" faults found by at least one search"),
        ),
        (
            "minimizer.md",
            "Minimizer against `cargo fuzz tmin` (`reports/minimizer.sh`)",
            None,
        ),
        (
            "dwarf-amd.md",
            "AMD's expected DWARF (with its DW_OP_LLVM_* extensions) vs diopter's semantics \
             (`DIOPTER_WRITE_REPORTS=1 cargo test -p diopter-dwarf --test dwarf_amd`)",
            Some("Summary: "),
        ),
    ] {
        let status = match std::fs::read_to_string(dir.join(file)) {
            Err(_) => "not run yet".to_string(),
            Ok(text) => marker
                .and_then(|m| text.lines().find(|l| l.contains(m)))
                .map_or_else(|| "present".to_string(), |l| l.replace("**", "")),
        };
        index.push((file.to_string(), title.to_string(), status));
    }
    if let Err(e) = write_index(dir, &index) {
        steps.push(Step {
            name: "index".into(),
            ok: false,
            line: format!("writing {}/README.md: {e}", dir.display()),
        });
    }
    // The README's figures follow the committed reports, and only them: a
    // run directory's reports leave the README alone.
    if same_dir(dir, &root.join("reports")) {
        steps.push(readme_figures(&root));
    }
    steps
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Rewrites the README's generated block from `reports/`.
fn readme_figures(root: &Path) -> Step {
    let path = root.join("README.md");
    let res = std::fs::read_to_string(&path)
        .map_err(|e| e.to_string())
        .and_then(|t| {
            let block = report::readme::figures(&root.join("reports"));
            match report::readme::with_figures(&t, &block) {
                Some(n) if n == t => Ok("README.md figures unchanged".to_string()),
                Some(n) => write_atomic(&path, &n)
                    .map(|()| "README.md figures rewritten from reports/".to_string())
                    .map_err(|e| e.to_string()),
                None => Err("README.md has no figures block".to_string()),
            }
        });
    Step {
        name: "readme".into(),
        ok: res.is_ok(),
        line: res.unwrap_or_else(|e| e),
    }
}

pub fn run(a: &Args) -> ExitCode {
    let mut steps = Vec::new();
    if !a.no_prove {
        steps.push(prove(&a.dir));
    }
    steps.extend(regenerate(&a.dir));
    let mut ok = true;
    for s in &steps {
        println!(
            "{:<12} {} {}",
            s.name,
            if s.ok { "ok  " } else { "FAIL" },
            s.line
        );
        ok &= s.ok;
    }
    println!("index        {}/README.md", a.dir.display());
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
