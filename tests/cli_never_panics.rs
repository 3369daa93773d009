//! The whole CLI never panics: the `cli` fuzz target's body
//! (`diopter::fuzz_cli`) on the inputs it once failed on
//! (`fuzz/regressions/cli/`), on its seeds (`fuzz/corpus/cli/seed-*`), and in
//! a proptest over command lines built from pieces chosen to be awkward:
//! huge types and values, odd contexts, odd `--write` literals, empty input.

use diopter::run_in_process;
use proptest::prelude::*;
use std::path::PathBuf;

fn files(dir: &str, prefix: &str) -> Vec<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&d)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with(prefix) && !n.ends_with(".md"))
    });
    v.sort();
    v
}

#[test]
fn regressions_and_seeds_run_clean() {
    let mut n = 0;
    for p in files("fuzz/regressions/cli", "")
        .into_iter()
        .chain(files("fuzz/corpus/cli", "seed-"))
    {
        let data = std::fs::read(&p).unwrap();
        if let Err(m) = diopter::fuzz_cli::fuzz_one(&data) {
            panic!("{}: {m}", p.display());
        }
        n += 1;
    }
    assert!(n > 0, "no seed or regression input found");
}

/// The `transform` seeds reach the pass they name (not a parse error): the
/// command line names it, and in process it exits 0 (an equivalent
/// rewrite), as `diopter transform` on the same file does.
#[test]
fn transform_seeds_run_their_pass() {
    let seeds = files("fuzz/corpus/cli", "seed-hand-transform-");
    assert!(seeds.len() >= 4, "{seeds:?}");
    for p in seeds {
        let data = std::fs::read(&p).unwrap();
        let args = diopter::fuzz_cli::command_line(&data).expect("a command");
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let pass = name.trim_start_matches("seed-hand-transform-");
        assert_eq!(args[0], "transform", "{name}");
        assert_eq!(
            args[2..4],
            ["--pass".to_string(), pass.to_string()],
            "{name}"
        );
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = diopter::run_in_process(&args, &mut out, &mut err);
        assert_eq!(code, Some(0), "{name}: {}", String::from_utf8_lossy(&err));
        assert!(!out.is_empty(), "{name}: no IR printed");
    }
}

const EXPRS: &[&str] = &[
    "",
    "   ",
    "# only a comment",
    "[] DIOpConstant(i8388608 1), DIOpConstant(i8388608 1), DIOpAdd()",
    "[] DIOpConstant(<1000000 x i8> zeroinitializer)",
    "[] DIOpConstant(fp128 1.0), DIOpConvert(i8388608)",
    "[] DIOpConstant(float 1.5)",
    "[] DIOpConstant(double 0x7FF4000000000001)",
    "[] DIOpConstant(half 0xH7E01)",
    "[] DIOpConstant(x86_fp80 0xK7FFF8000000000000001)",
    "[] DIOpConstant(bfloat 0xR0001)",
    "[i32] DIOpArg(0, i32)",
    "[i32] -> i64 DIOpArg(0, i32), DIOpFragment(32, 32)",
    "[ptr addrspace(1)] DIOpArg(0, ptr addrspace(1)), DIOpDeref(i64)",
    "[ptr addrspace(1)] DIOpArg(0, ptr addrspace(1)), DIOpDeref(i8388608)",
    "[ptr] DIOpArg(0, ptr), DIOpDeref(<65536 x i64>)",
    "[i32] DIOpArg(0, i32), DIOpBitOffset(i64)",
    "[i32, i64] DIOpArg(0, i32), DIOpArg(1, i64), DIOpBitOffset(i64)",
    "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpComposite(2, i64)",
    "[i32] DIOpArg(0, i32), DIOpAddrOf(5), DIOpDeref(i32)",
    "[] DIOpConstant(i32 7), DIOpConstant(i64 3), DIOpAddrOf(5)",
    "[] DIOpConstant(i64 -1), DIOpConstant(i64 0), DIOpDiv()",
    "[] DIOpConstant(i18446744073709551615 0)",
    "[] DIOpConstant(i0 0)",
    "[i32] DIOpArg(4294967295, i32)",
    "[] DIOpUndefined(i8388608)",
    "[] DIOpConstant(i32 1), DIOpConstant(i32 2)",
    "DIOpArg(",
    "[] DIOpConstant([4294967295 x [4294967295 x i64]] zeroinitializer)",
];

const CONTEXTS: &[&str] = &[
    "",
    "arg 0 = mem(1, 0x1000) + 4\narg 1 = mem(1, 0x1000)\nmem 1 0x1000 = 01 02 03 04\n",
    "%r = i32 0x12345678\narg 0 = %r\narg 1 = %r - 8\n",
    "arg 0 = mem(1, 0xffffffffffffffff)\narg 1 = mem(1, -0x10)\n",
    "arg 0 = implicit(i8388608 0x1)\narg 1 = undef\n",
    "arg 0 = composite(%x : 16, implicit(i16 7) : 16) | undef\n%x = i16 0x1\n",
    "arg 0 = addrof(ptr addrspace(5), i32, %x)\n%x = i32 1\n",
    "datalayout \"p1:1024:8\"\narg 0 = mem(1, 0x1000000000000000000000000000000000)\n",
    "seed 18446744073709551615\nlane 18446744073709551615\narg 0 = mem(0, 0x0) + 18446744073709551615\n",
    "arg 0 = %nowhere\n",
    "this is not a context",
];

const WRITES: &[&str] = &[
    "0",
    "-1",
    "0x7",
    "1.5",
    "-2",
    "1e-3",
    "0xH3C00",
    "0x",
    "-",
    "99999999999999999999999999999999999999999",
    "-0x80000000",
];

fn run(args: &[String]) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = run_in_process(args, &mut out, &mut err).expect("an in-process command");
    assert!(code <= 2, "{args:?}: exit {code}");
    if args.iter().any(|a| a == "json") && code <= 1 && !out.is_empty() {
        let v: Result<serde_json::Value, _> = serde_json::from_slice(&out);
        assert!(
            v.is_ok(),
            "{args:?}: not JSON: {}",
            String::from_utf8_lossy(&out)
        );
    }
}

fn temp(name: &str, text: &str) -> String {
    let d = std::env::temp_dir().join(format!("diopter-never-panics-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn empty_input_is_an_error_for_every_command_taking_expressions() {
    for cmd in ["check", "eval", "lower", "simplify"] {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let code = run_in_process([cmd, "-e", ""], &mut out, &mut err).unwrap();
        assert_eq!(code, 2, "{cmd}");
        assert!(
            String::from_utf8_lossy(&err).contains("no expression"),
            "{cmd}: {}",
            String::from_utf8_lossy(&err)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn no_command_panics(
        cmd in 0usize..6,
        e in 0..EXPRS.len(),
        c in 0..CONTEXTS.len(),
        w in proptest::option::of(0..WRITES.len()),
        json in any::<bool>(),
        flag in any::<bool>(),
    ) {
        let expr = EXPRS[e];
        let ctx = temp(&format!("ctx-{c}.txt"), CONTEXTS[c]);
        let mut args: Vec<String> = Vec::new();
        let s = |x: &str| x.to_string();
        match cmd {
            0 => args.extend([s("check"), s("-e"), s(expr)]),
            1 => {
                args.extend([s("eval"), s("-e"), s(expr), s("--context"), ctx]);
                if let Some(w) = w {
                    args.push(format!("--write={}", WRITES[w]));
                }
                if flag {
                    args.push(s("--no-check"));
                }
            }
            2 => {
                args.extend([s("lower"), s("-e"), s(expr), s("--context"), ctx]);
                if flag {
                    args.push(s("--ext"));
                }
            }
            3 => args.extend([
                s("simplify"),
                s("-e"),
                s(expr),
                s("--rules"),
                s(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/rules")),
            ]),
            4 => {
                let case = temp(
                    &format!("case-{e}-{c}.txt"),
                    &format!("{expr}\n--- context\n{}\n", CONTEXTS[c]),
                );
                args.extend([s("replay"), case]);
            }
            _ => {
                let ll = temp("spec.ll", &std::fs::read_to_string(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/corpus/spec/slides-02-multiple-locations.ll"
                )).unwrap());
                args.extend([s("locations"), ll, s("--context"), ctx]);
            }
        }
        if json {
            args.extend([s("--format"), s("json")]);
        }
        run(&args);
    }
}
