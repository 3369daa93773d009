//! The workspace's architecture as a test: crates depend on each other in
//! one direction only (the layers below), and no two source files import
//! each other. A change that needs to break either should move the shared
//! piece below both instead (README.md, "Layout").

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each workspace crate's directory and its layer: a crate may depend only
/// on crates of a lower layer.
const LAYERS: &[(&str, u32)] = &[
    // Planted faults (the bug-finding benchmark): below everything they
    // are planted in.
    ("faults", 0),
    ("semantics", 1),
    ("oracles/gen", 2),
    ("oracles/lifetimes", 2),
    ("oracles/diff", 3),
    // The engines evaluate cases on the semantics alone: their oracle
    // adapters and fuzz bodies are the harness's.
    ("oracles/fast", 2),
    ("oracles/dwarf", 2),
    ("oracles/debuggers", 5),
    ("oracles/rules", 4),
    // The rules and the simplifier checked on the reference in generated
    // contexts: above the rules, so that they need no generator.
    ("oracles/empirical", 5),
    ("oracles/smt", 5),
    ("oracles/report", 5),
    ("oracles/tv", 6),
    ("oracles/proving", 6),
    ("oracles/transforms", 6),
    ("oracles/harness", 7),
    ("oracles/campaign", 8),
    // Its fuzz search uses the campaign's libFuzzer settings.
    ("oracles/bugbench", 9),
    (".", 10),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The lines of a manifest's `[dependencies]` section, trimmed (not
/// dev-dependencies: a test may use a crate above its own).
fn dependency_lines(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("manifest reads");
    let mut in_deps = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
        } else if in_deps && !line.is_empty() && !line.starts_with('#') {
            out.push(line.to_string());
        }
    }
    out
}

/// The names of the packages a manifest's `[dependencies]` lists.
fn dep_names(manifest: &Path) -> Vec<String> {
    dependency_lines(manifest)
        .iter()
        .filter_map(|l| l.split_once('=').map(|(name, _)| name.trim().to_string()))
        .collect()
}

/// The directories of a manifest's `path = "..."` `[dependencies]`.
fn path_deps(manifest: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for line in dependency_lines(manifest) {
        if let Some(i) = line.find("path = \"") {
            let rest = &line[i + 8..];
            let end = rest.find('"').expect("closing quote");
            let dir = manifest.parent().unwrap().join(&rest[..end]);
            out.push(dir.canonicalize().expect("dependency directory exists"));
        }
    }
    out
}

#[test]
fn crates_depend_downwards_only() {
    let layer: BTreeMap<PathBuf, (&str, u32)> = LAYERS
        .iter()
        .map(|(d, l)| (root().join(d).canonicalize().unwrap(), (*d, *l)))
        .collect();
    let mut wrong = Vec::new();
    for (dir, (name, l)) in &layer {
        for dep in path_deps(&dir.join("Cargo.toml")) {
            let (dep_name, dl) = layer
                .get(&dep)
                .unwrap_or_else(|| panic!("{name} depends on {dep:?}, which LAYERS does not list"));
            if dl >= l {
                wrong.push(format!("{name} (layer {l}) -> {dep_name} (layer {dl})"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "dependencies that do not point down: {wrong:#?}"
    );
    // Every workspace member has a layer.
    let top = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    for (d, _) in LAYERS.iter().filter(|(d, _)| *d != ".") {
        assert!(
            top.contains(&format!("\"{d}\"")),
            "{d} is not a workspace member"
        );
    }
}

/// Removes `//` comments and every `#[cfg(test)]` item: a test module may
/// import what the code beside it may not.
fn code_only(text: &str) -> String {
    let mut t: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    while let Some(i) = t.find("#[cfg(test)]") {
        let (open, semi) = (t[i..].find('{'), t[i..].find(';'));
        let end = match (open, semi) {
            (_, Some(s)) if open.is_none_or(|o| s < o) => i + s + 1,
            (Some(o), _) => {
                let mut depth = 0;
                let mut end = t.len();
                for (k, c) in t[i + o..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = i + o + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            _ => t.len(),
        };
        t.replace_range(i..end, "");
    }
    t
}

/// A source file's crate directory and module path (`["syntax", "module"]`).
fn module_of(file: &Path) -> (PathBuf, Vec<String>) {
    let comps: Vec<String> = file
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let src = comps.iter().rposition(|c| c == "src").expect("under src/");
    let krate: PathBuf = comps[..src].iter().collect();
    let mut m: Vec<String> = comps[src + 1..].to_vec();
    let last = m.pop().unwrap();
    let stem = last.trim_end_matches(".rs").to_string();
    if !matches!(stem.as_str(), "mod" | "lib" | "main") {
        m.push(stem);
    }
    (krate, m)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Paths named after `prefix` (`crate::` or `super::`), split at `::`.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let segs: Vec<String> = path
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if !segs.is_empty() {
            out.push(segs);
        }
    }
    out
}

#[test]
fn no_two_files_import_each_other() {
    let mut files = Vec::new();
    for (d, _) in LAYERS {
        rust_files(&root().join(d).join("src"), &mut files);
    }
    let rel: Vec<PathBuf> = files
        .iter()
        .map(|f| f.strip_prefix(root()).unwrap().to_path_buf())
        .collect();
    let modules: BTreeMap<(PathBuf, Vec<String>), usize> = rel
        .iter()
        .enumerate()
        .map(|(i, f)| (module_of(f), i))
        .collect();
    let mut edges: BTreeSet<(usize, usize)> = BTreeSet::new();
    for (i, f) in rel.iter().enumerate() {
        let (krate, me) = module_of(f);
        let code = code_only(&std::fs::read_to_string(&files[i]).unwrap());
        // `super` of `a/b.rs` and of `a/b/mod.rs` alike is `a`.
        let parent = me[..me.len().saturating_sub(1)].to_vec();
        let mut targets = paths_after(&code, "crate::");
        targets.extend(paths_after(&code, "super::").into_iter().map(|p| {
            let mut full = parent.clone();
            full.extend(p);
            full
        }));
        for t in targets {
            // The longest prefix that is a module of this crate.
            for k in (1..=t.len()).rev() {
                if let Some(&j) = modules.get(&(krate.clone(), t[..k].to_vec())) {
                    if j != i {
                        edges.insert((i, j));
                    }
                    break;
                }
            }
        }
    }
    let circles: Vec<String> = edges
        .iter()
        .filter(|(a, b)| a < b && edges.contains(&(*b, *a)))
        .map(|(a, b)| format!("{} <-> {}", rel[*a].display(), rel[*b].display()))
        .collect();
    assert!(
        circles.is_empty(),
        "files that import each other: {circles:#?}"
    );
    // The scan sees imports at all: semantics' interpreter imports its locations.
    let interp = modules[&(PathBuf::from("semantics"), vec!["interp".to_string()])];
    let access = modules[&(PathBuf::from("semantics"), vec!["access".to_string()])];
    assert!(edges.contains(&(interp, access)));
}

/// The engine crates: they evaluate, lower, prove or rewrite.
const ENGINES: &[&str] = &[
    "semantics",
    "oracles/fast",
    "oracles/dwarf",
    "oracles/rules",
    "oracles/smt",
    "oracles/transforms",
    "oracles/lifetimes",
    "oracles/tv",
];

/// The engines evaluate, lower, prove or rewrite; what generates their
/// inputs and compares their outputs (the generators, the differential
/// framework, the empirical checks built on both, and the fuzzing and
/// property-testing libraries) is above them, so an engine builds, and
/// changes, without them. Their tests may use all of it (dev-dependencies,
/// which `dep_names` does not read).
#[test]
fn engines_do_not_know_they_are_fuzzed() {
    const TESTING: &[&str] = &[
        "diopter-gen",
        "diopter-diff",
        "diopter-empirical",
        "arbitrary",
        "proptest",
        "libfuzzer-sys",
        "quickcheck",
    ];
    // Named exceptions: (engine, package, why).
    const EXCEPTIONS: &[(&str, &str, &str)] = &[(
        "oracles/tv",
        "diopter-empirical",
        "a pair Z3 gives up on, and a reading, are judged by the rules' \
         concrete check in random contexts: that is part of tv's verdict",
    )];
    let mut wrong = Vec::new();
    for engine in ENGINES {
        for dep in dep_names(&root().join(engine).join("Cargo.toml")) {
            let excepted = EXCEPTIONS.iter().any(|(e, p, _)| e == engine && *p == dep);
            if TESTING.contains(&dep.as_str()) && !excepted {
                wrong.push(format!("{engine} -> {dep}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "engines that depend on the testing machinery: {wrong:#?}"
    );
    // The scan sees dependencies at all, but not dev-dependencies (semantics'
    // tests use proptest), and every exception is still needed.
    assert!(dep_names(&root().join("oracles/smt/Cargo.toml")).contains(&"diopter-rules".into()));
    let semantics = root().join("semantics/Cargo.toml");
    assert!(std::fs::read_to_string(&semantics)
        .unwrap()
        .contains("proptest"));
    assert!(!dep_names(&semantics).contains(&"proptest".into()));
    for (e, p, _) in EXCEPTIONS {
        assert!(
            dep_names(&root().join(e).join("Cargo.toml")).contains(&p.to_string()),
            "{e} no longer lists {p}: drop the exception"
        );
    }
}

/// The return type of each `pub fn` in `code` (whitespace collapsed), by
/// the name of the function: the text after its `->` up to the body, a
/// `;` or a `where` clause, at bracket depth 0 (so `[T; 2]` is one type).
fn pub_fn_returns(code: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("pub fn ") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "pub fn ".len()..];
        // `pub(crate) fn` is no boundary, nor is `xpub fn`.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ')') {
            continue;
        }
        let mut depth = 0i32;
        let mut end = rest.len();
        for (k, c) in rest.char_indices() {
            match c {
                '(' | '[' | '<' => depth += 1,
                ')' | ']' => depth -= 1,
                // Not the `>` of `->`.
                '>' if !rest[..k].ends_with('-') => depth -= 1,
                '{' | ';' if depth == 0 => {
                    end = k;
                    break;
                }
                _ => {}
            }
        }
        let sig = rest[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        let name: String = sig
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if let Some((_, ret)) = sig.split_once(" -> ") {
            let ret = ret.split(" where ").next().unwrap_or(ret).trim();
            out.push((name, ret.to_string()));
        }
    }
    out
}

/// Whether a return type is `Result<_, String>`.
fn is_string_result(ret: &str) -> bool {
    let Some(inner) = ret
        .strip_prefix("Result<")
        .or_else(|| ret.strip_prefix("std::result::Result<"))
        .and_then(|r| r.strip_suffix('>'))
    else {
        return false;
    };
    // The last argument at depth 0.
    let mut depth = 0i32;
    let mut last = 0;
    for (k, c) in inner.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => depth -= 1,
            ',' if depth == 0 => last = k + 1,
            _ => {}
        }
    }
    matches!(inner[last..].trim(), "String" | "std::string::String")
}

/// An engine's public functions fail with a typed error of its crate (a
/// `thiserror` type whose variants keep what the caller may act on, a
/// diagnostic's span among it), never with a bare `String`: a caller above
/// can match on the error, and the message stays in its `Display`.
#[test]
fn engines_fail_with_typed_errors() {
    let mut wrong = Vec::new();
    let mut seen = 0;
    for engine in ENGINES {
        let mut files = Vec::new();
        rust_files(&root().join(engine).join("src"), &mut files);
        for f in files {
            let code = code_only(&std::fs::read_to_string(&f).unwrap());
            for (name, ret) in pub_fn_returns(&code) {
                seen += 1;
                if is_string_result(&ret) {
                    let rel = f.strip_prefix(root()).unwrap().display().to_string();
                    wrong.push(format!("{rel}: {name} -> {ret}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "engine functions that fail with a String: {wrong:#?}"
    );
    // The scan sees public functions at all, and reads their types whole.
    assert!(seen > 100, "{seen} public functions");
    let sig = "pub fn f(a: [u8; 2]) -> Result<Vec<(u8, String)>, String> { 1 }";
    assert_eq!(
        pub_fn_returns(sig),
        vec![(
            "f".to_string(),
            "Result<Vec<(u8, String)>, String>".to_string()
        )]
    );
    assert!(is_string_result("Result<Vec<(u8, String)>, String>"));
    assert!(!is_string_result("Result<String, Error>"));
    assert!(pub_fn_returns("pub(crate) fn g() -> Result<(), String>;").is_empty());
}
