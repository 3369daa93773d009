//! The default job (`diopter run`), `diopter report` and `diopter minimize`
//! through the real binary: exit codes, the files they promise, and that a
//! planted disagreement comes out as a minimized, replayable finding.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::diopter;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("diopter-run-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn run_with_a_planted_bug_reports_a_minimized_finding_and_fails() {
    let dir = tmp("planted");
    let out = diopter(&[
        "run",
        "--no-prove",
        "--time",
        "4s",
        "--seed",
        "1",
        "--plant",
        "add-off-by-one",
        "--reports",
        dir.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a finding fails the run:\n{stdout}"
    );
    assert!(stdout.contains("== summary"), "{stdout}");
    assert!(stdout.contains("Where to look"), "{stdout}");
    let campaign = text(&dir.join("campaign.md"));
    assert!(
        campaign.contains("fast+add-off-by-one @ DIOpAdd"),
        "{campaign}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&text(&dir.join("campaign.json"))).expect("campaign.json is JSON");
    assert_eq!(json["seed"], 1);
    let findings = json["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    for f in findings {
        let min = PathBuf::from(f["minimized"].as_str().unwrap());
        let min_text = text(&min);
        assert!(min_text.contains("--- context"), "{min_text}");
        assert!(f["min_ops"].as_u64().unwrap() <= f["ops"].as_u64().unwrap());
    }
    // The reports and their index.
    for f in [
        "README.md",
        "errata.md",
        "errata.json",
        "conformance.md",
        "conformance.json",
        "benchmarks.md",
    ] {
        assert!(dir.join(f).is_file(), "{f} written");
    }
    let index = text(&dir.join("README.md"));
    assert!(index.contains("(errata.md)") && index.contains("(conformance.md)"));
    let errata = text(&dir.join("errata.md"));
    assert!(errata.contains("`bits_are_little_endian`"), "{errata}");
    assert!(errata.contains("DIOpComposite"));

    // `diopter minimize` on the planted finding's original case.
    let case = PathBuf::from(
        findings
            .iter()
            .find(|f| f["signature"].as_str().unwrap().contains("DIOpAdd"))
            .unwrap()["case"]
            .as_str()
            .unwrap(),
    );
    let out_file = dir.join("again.min.case");
    let out = diopter(&[
        "minimize",
        case.to_str().unwrap(),
        "--oracle",
        "fast",
        "--plant",
        "add-off-by-one",
        "-o",
        out_file.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("(1-minimal)"), "{stdout}");
    assert!(stdout.contains("expression: "), "{stdout}");
    assert!(stdout.contains("reproduce: "), "{stdout}");
    assert!(text(&out_file).contains("DIOpAdd()"));
    // Without the plant the reference and fast agree: nothing to minimize.
    let out = diopter(&["minimize", case.to_str().unwrap(), "--oracle", "fast"]);
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_a_diagnostic_not_a_panic() {
    let dir = tmp("bad");
    let bad = dir.join("bad.case");
    std::fs::write(&bad, "[i32] DIOpArg(0, i32), DIOpFoo()\n--- context\n").unwrap();
    let out = diopter(&["minimize", bad.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bad.case:1:"), "{stderr}");
    assert!(stderr.contains('^'), "{stderr}");
    let out = diopter(&["minimize", dir.join("missing.case").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = diopter(&["minimize", bad.to_str().unwrap(), "--plant", "nonsense"]);
    assert_eq!(out.status.code(), Some(2));
    let out = diopter(&["run", "--time", "soon"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--time"));
    // A number too large for a duration is bad input too.
    let huge = format!("1{}", "0".repeat(400));
    let out = diopter(&["run", "--time", &huge]);
    assert_eq!(out.status.code(), Some(2));
    for t in ["0", "soon", "-1", "1e999"] {
        let out = diopter(&["run", &format!("--case-timeout={t}")]);
        assert_eq!(out.status.code(), Some(2), "--case-timeout {t}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--case-timeout"));
    }
    let out = diopter(&["campaign", "--time", "1x"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn report_regenerates_the_index() {
    let dir = tmp("report");
    let out = diopter(&["report", "--no-prove", "--dir", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let conf: serde_json::Value =
        serde_json::from_str(&text(&dir.join("conformance.json"))).unwrap();
    assert_eq!(conf["check_exit_code"], 0, "the corpus conforms");
    assert!(conf["round_trips"]
        .as_array()
        .is_some_and(|r| !r.is_empty()));
    let index = text(&dir.join("README.md"));
    assert!(index.contains("Campaigns"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C (SIGINT) during the default job's campaign stops the campaign,
/// not the process: the run still writes the campaign's report (marked as
/// stopped), regenerates the others and prints its summary. The campaign
/// is given an hour, so only the signal can have ended it.
#[test]
fn ctrl_c_stops_the_campaign_and_still_writes_the_report() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = tmp("ctrlc");
    let mut child = Command::new(env!("CARGO_BIN_EXE_diopter"))
        .args([
            "run",
            "--no-prove",
            "--time",
            "1h",
            "--seed",
            "3",
            "--reports",
            dir.to_str().unwrap(),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let started = line.starts_with("== 3/4 campaign");
        seen.push(line);
        if started {
            break;
        }
    }
    assert!(
        seen.last()
            .is_some_and(|l| l.starts_with("== 3/4 campaign")),
        "{seen:?}"
    );
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().unwrap();
    let stdout = rest.join("\n");
    assert!(stdout.contains("stopped by Ctrl-C"), "{stdout}");
    assert!(stdout.contains("== summary"), "{stdout}");
    // No finding was made (the oracles agree), so the run passes.
    assert_eq!(status.code(), Some(0), "{stdout}");
    let campaign = text(&dir.join("campaign.md"));
    assert!(campaign.contains("Stopped early"), "{campaign}");
    let json: serde_json::Value = serde_json::from_str(&text(&dir.join("campaign.json"))).unwrap();
    assert_eq!(json["stopped_early"], true);
    assert!(json["rss_end_kib"].as_u64().is_some_and(|k| k > 0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every file under `dir`, with its bytes, in path order.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The default job (no `--reports`) writes what it measures into a new run
/// directory under `target/`, printed at the end, and leaves the committed
/// `reports/` byte for byte as they were; its reports keep the measured
/// figures it did not measure itself (criterion's, the cold prover time)
/// rather than "not run", and the errata quote the design document.
#[test]
fn the_default_job_writes_a_run_directory_and_leaves_reports_alone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let before = snapshot(&root.join("reports"));
    let out = diopter(&["run", "--no-prove", "--time", "2s", "--seed", "5"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{stdout}");
    let dir = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Where to look (this run's directory: "))
        .and_then(|l| l.strip_suffix("/):"))
        .unwrap_or_else(|| panic!("no run directory printed:\n{stdout}"));
    // Printed relative to the checkout (the working directory here).
    let dir = root.join(dir);
    assert!(
        dir.starts_with(root.join("target/diopter-run")),
        "{}",
        dir.display()
    );
    assert!(
        stdout.contains("The committed reports/ are unchanged"),
        "{stdout}"
    );
    for f in [
        "campaign.md",
        "conformance.md",
        "errata.md",
        "benchmarks.md",
        "README.md",
    ] {
        assert!(dir.join(f).is_file(), "{f} not in {}", dir.display());
    }
    let bench = text(&dir.join("benchmarks.md"));
    assert!(!bench.contains("Criterion: not run"), "{bench}");
    assert!(!bench.contains("no unsharded"), "{bench}");
    let errata = text(&dir.join("errata.md"));
    assert!(!errata.contains("not found"), "{errata}");
    assert!(errata.contains("Little-endian"), "{errata}");
    assert!(
        snapshot(&root.join("reports")) == before,
        "the default job changed reports/"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `diopter prove FILE` (or `--rule`) proves part of a library: it leaves
/// the committed report of the whole library alone unless `--report-dir`
/// asks for one.
#[test]
fn proving_a_users_file_leaves_the_library_report_alone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let before = std::fs::read(root.join("reports/proofs.json")).unwrap();
    let out = diopter(&[
        "prove",
        "docs/examples/my.rules",
        "--widths",
        "8",
        "--no-cache",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let out = diopter(&["prove", "--rule", "add-zero", "--widths", "8", "--no-cache"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(std::fs::read(root.join("reports/proofs.json")).unwrap() == before);
    let dir = tmp("prove-report-dir");
    let out = diopter(&[
        "prove",
        "docs/examples/my.rules",
        "--widths",
        "8",
        "--no-cache",
        "--report-dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&dir.join("proofs.md")).contains("2 rules: 1 ok, 0 unknown, 1 FAIL"));
    let _ = std::fs::remove_dir_all(&dir);
}
