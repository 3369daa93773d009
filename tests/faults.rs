//! The planted faults of the bug-finding benchmark (`faults/`): every site
//! names a catalogued fault, every catalogued fault has exactly one site
//! (in the file the catalogue says), and a normal build carries none of
//! them: no fault's name is anywhere in the `diopter` binary.

use diopter_faults::catalogue::FAULTS;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name();
        if p.is_dir() {
            if name != "target" && name != ".git" {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every `planted!("name")` in the workspace's sources: name -> files.
fn sites() -> BTreeMap<String, Vec<String>> {
    let mut files = Vec::new();
    for d in ["semantics", "oracles", "src"] {
        rust_files(&root().join(d), &mut files);
    }
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let marker = "planted!(\"";
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let rel = f
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .to_string();
        let mut rest = text.as_str();
        while let Some(i) = rest.find(marker) {
            rest = &rest[i + marker.len()..];
            let end = rest.find('"').unwrap();
            out.entry(rest[..end].to_string())
                .or_default()
                .push(rel.clone());
        }
    }
    out
}

#[test]
fn every_site_is_catalogued_and_every_fault_has_one_site() {
    let sites = sites();
    assert!(FAULTS.len() >= 30, "the benchmark wants at least 30 faults");
    for (name, files) in &sites {
        let f = FAULTS.iter().find(|f| f.name == name.as_str());
        let f = f.unwrap_or_else(|| panic!("planted!({name:?}) in {files:?} is not catalogued"));
        assert_eq!(files.len(), 1, "{name}: more than one site: {files:?}");
        assert!(
            f.site.starts_with(&files[0]),
            "{name}: the catalogue says {}, the site is in {}",
            f.site,
            files[0]
        );
    }
    for f in FAULTS {
        assert!(
            sites.contains_key(f.name),
            "{}: catalogued, no site",
            f.name
        );
    }
    let mut names: Vec<&str> = FAULTS.iter().map(|f| f.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), FAULTS.len(), "two faults share a name");
}

// A build with the faults (the benchmark's) carries them, of course.
#[cfg(not(diopter_faults))]
#[test]
fn a_normal_build_carries_no_planted_fault() {
    let bin = std::fs::read(env!("CARGO_BIN_EXE_diopter")).unwrap();
    // One pass for every name (the binary is hundreds of megabytes).
    let any = |names: &[&str]| {
        let alts: Vec<String> = names.iter().map(|n| regex::escape(n)).collect();
        let re = regex::bytes::Regex::new(&alts.join("|")).unwrap();
        re.find(&bin)
            .map(|m| String::from_utf8_lossy(m.as_bytes()).to_string())
    };
    let names: Vec<&str> = FAULTS.iter().map(|f| f.name).collect();
    if let Some(name) = any(&names) {
        panic!("the diopter binary holds the name of fault {name}");
    }
    // The search finds a text that is there.
    assert!(any(&["Certainty about LLVM DIOp"]).is_some());
}

#[cfg(not(diopter_faults))]
#[test]
fn a_normal_build_refuses_to_run_a_fault() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_diopter"))
        .args(["bugbench", "worker", "--seed", "1", "--limit", "1"])
        .args(["--rules", "corpus/rules", "--out"])
        .arg(std::env::temp_dir().join("diopter-faults-refused"))
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("has no planted faults"), "{err}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_diopter"))
        .args(["bugbench", "catalogue"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}
