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

/// The seeds of the commands selector 7 reaches with a second byte
/// (`diopter::fuzz_cli::MORE`) run their command for real: the command line
/// names it, it exits with the status the input calls for (the proof, the
/// validation or the minimization is done, not refused as unreadable), and
/// it prints something.
#[test]
fn prove_validate_minimize_seeds_run_their_command() {
    // (seed name, command, a fragment of the arguments, the exit statuses
    // it may have, a fragment of its output). Where Z3 decides within the
    // seed's 100 ms timeout on an idle machine, a loaded one may leave the
    // instance `unknown` (status 0): such seeds allow both.
    let table: &[(&str, &str, &str, &[u8], &str)] = &[
        ("prove-rule", "prove", "--time-limit", &[0], "ok add-zero"),
        (
            "prove-refuted-json",
            "prove",
            "json",
            &[1, 0],
            "\"name\": \"drop-y\"",
        ),
        ("prove-generated", "prove", "--no-cache", &[0], "lemma"),
        (
            "prove-generated-refute",
            "prove",
            "--no-report",
            &[1, 0],
            "fuzz",
        ),
        ("prove-merge", "prove", "--merge", &[0], "1 rules: 1 ok"),
        (
            "validate-pair",
            "validate",
            "--map=arg0 := DIOpArg(0, i64), DIOpConstant(i64 7), DIOpShl()",
            &[0],
            "1 pairs",
        ),
        (
            "validate-pair-json",
            "validate",
            "amdgpu",
            &[0],
            "\"verdict\"",
        ),
        (
            "validate-generic",
            "validate",
            "--where=T: int",
            &[0],
            "1 pairs",
        ),
        (
            "validate-generated",
            "validate",
            "--time-limit",
            &[0],
            "1 pairs",
        ),
        (
            "validate-ll-sroa-poison",
            "validate",
            "--time-limit",
            &[1, 0],
            "matched record pairs",
        ),
        (
            "validate-ll-instcombine-lower-dbg-declare",
            "validate",
            "--timeout",
            &[0],
            "matched record pairs",
        ),
        (
            "minimize-planted",
            "minimize",
            "add-off-by-one",
            &[0],
            "minimized:",
        ),
        (
            "minimize-agree",
            "minimize",
            "fast",
            &[1],
            "stderr:do not disagree",
        ),
    ];
    let seeds = files("fuzz/corpus/cli", "seed-hand-");
    for (name, cmd, arg, want, shows) in table {
        let p = seeds
            .iter()
            .find(|p| p.file_name().unwrap().to_string_lossy() == format!("seed-hand-{name}"))
            .unwrap_or_else(|| panic!("no seed-hand-{name} (fuzz/seed.sh makes it)"));
        let data = std::fs::read(p).unwrap();
        let args = diopter::fuzz_cli::command_line(&data).expect("a command");
        assert_eq!(args[0], *cmd, "{name}: {args:?}");
        assert!(args.iter().any(|a| a.contains(arg)), "{name}: {args:?}");
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run_in_process(&args, &mut out, &mut err);
        let (o, e) = (String::from_utf8_lossy(&out), String::from_utf8_lossy(&err));
        assert!(
            code.is_some_and(|c| want.contains(&c)),
            "{name}: {args:?}: exit {code:?}, want one of {want:?}\n{o}\n{e}"
        );
        // A case the oracles agree on says so on standard error.
        let (printed, shows) = match shows.strip_prefix("stderr:") {
            Some(s) => (&e, s),
            None => (&o, *shows),
        };
        assert!(printed.contains(shows), "{name}: no `{shows}` in\n{o}\n{e}");
        assert!(diopter::fuzz_cli::fuzz_one(&data).is_ok(), "{name}");
    }
}

/// Shard JSON is user input: `prove --merge` refuses what is not a shard
/// (a shard count of 2^64 - 1, a rule that is not an object) with a
/// message and status 2, where it once panicked (allocating a flag per
/// shard; setting a key on a number).
#[test]
fn merge_refuses_malformed_shards() {
    for (name, msg) in [
        ("prove-merge-huge-shard-count", "is missing"),
        ("prove-merge-rule-not-object", "not a JSON object"),
    ] {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/regressions/cli")
            .join(name);
        let data = std::fs::read(&p).unwrap();
        let args = diopter::fuzz_cli::command_line(&data).expect("a command");
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(run_in_process(&args, &mut out, &mut err), Some(2), "{name}");
        let err = String::from_utf8_lossy(&err);
        assert!(err.contains(msg), "{name}: {err}");
    }
}

/// `--time-limit` bounds `validate` of a pair whose operands are wide (an
/// `i4096`, a `<16 x i256>`), and `prove` of a rule that writes a wide
/// composite through a chain of stores. The pairs took 12 s in the release
/// build, most of it relating the thousands of bytes read from memory
/// pairwise before Z3 saw the query (`diopter_smt::MAX_INITIAL_BYTES` now
/// refuses such a query as not encodable, and the random contexts stop at
/// the time limit); the rule took more than the fuzzer's 30 s building its
/// query (the encoder now stops at the deadline, `Encoder::deadline`).
#[test]
fn wide_operands_keep_the_time_limit() {
    for (name, cmd, shows) in [
        ("slow-validate-unused-i4096-operand", "validate", "1 pairs"),
        ("slow-validate-unused-vector-operand", "validate", "1 pairs"),
        ("timeout-prove-wide-composite-write", "prove", "1 rules"),
    ] {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/regressions/cli")
            .join(name);
        let data = std::fs::read(&p).unwrap();
        let args = diopter::fuzz_cli::command_line(&data).expect("a command");
        assert_eq!(args[0], cmd, "{name}");
        let t = std::time::Instant::now();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(run_in_process(&args, &mut out, &mut err), Some(0), "{name}");
        // The limit is 0.3 s; the rest is slack for a debug build on a
        // loaded machine.
        assert!(t.elapsed().as_secs() < 10, "{name}: {:?}", t.elapsed());
        let out = String::from_utf8_lossy(&out);
        assert!(out.contains(shows), "{name}: {out}");
    }
}

/// A panicking oracle (`--plant panic-on-mul`) is the failure `minimize`
/// shows, caught and quiet after the minimization as during it: this input
/// reached the panic hook once the case was minimized (re-running the
/// oracles for the case file and the signature), which in the fuzzer
/// aborts. The hook here records a panic that reaches it on this thread.
#[test]
fn minimize_keeps_a_planted_panic_quiet() {
    thread_local! {
        static HOOKED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    let old = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| HOOKED.with(|h| h.set(true))));
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions/cli/crash-minimize-planted-panic-after-minimizing");
    let data = std::fs::read(&p).unwrap();
    let args = diopter::fuzz_cli::command_line(&data).expect("a command");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run_in_process(&args, &mut out, &mut err);
    let _ = std::panic::take_hook();
    std::panic::set_hook(old);
    assert!(args.iter().any(|a| a == "panic-on-mul"), "{args:?}");
    assert_eq!(code, Some(0), "{}", String::from_utf8_lossy(&err));
    assert!(String::from_utf8_lossy(&out).contains("panics: planted panic"));
    assert!(!HOOKED.with(|h| h.get()), "a panic reached the hook");
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
