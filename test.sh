#!/usr/bin/env bash
# The project's test command: formatting, lints, the whole test suite, the
# corpus conformance run of the CLI, the rule-proof gate, and a short smoke
# run of every fuzz target. Nothing here may be skipped.
set -euo pipefail
cd "$(dirname "$0")"

# System packages: Debian's Z3, which the prover links (z3-sys's bindings
# are pregenerated: no libclang); zip, unzip and shellcheck for the
# ClusterFuzzLite/OSS-Fuzz build check; LLVM 19 and clang-19 (upstream LLVM
# in the loop: tests/upstream_cli.rs, tests/validate_classic.rs) and GDB and
# LLDB 19 (the debugger oracles' tests and smoke). Installed here when missing (as
# root), so that this script alone is the set-up on a fresh machine.
missing=()
[ -f /usr/include/z3.h ] || missing+=(libz3-dev)
for tool in zip unzip shellcheck gdb; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
for pair in opt-19:llvm-19 clang-19:clang-19 lldb-19:lldb-19; do
  command -v "${pair%%:*}" >/dev/null || missing+=("${pair##*:}")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update && apt-get install -y "${missing[@]}"
  else
    echo "test.sh: missing system packages: ${missing[*]} (apt-get install -y ${missing[*]})" >&2
    exit 2
  fi
fi
# Each phase's start, with the seconds since the script began (CI has 30
# minutes on 2 cores; this shows where they go).
phase() { echo "== [$SECONDS s] $*" >&2; }
phase fmt
cargo fmt --all -- --check
phase clippy
cargo clippy --workspace --all-targets -- -D warnings
phase test
cargo test --workspace
# The CLI phases below run the dev-profile binary that `cargo test` built
# (its prover and reference crates are optimized: Cargo.toml), not a release
# build: a second build of every crate cost CI 240 s of its 30 minutes. The
# binary itself, not `cargo run`: that resolves features for the root
# package alone and rebuilt a third of the crates (105 s).
diopter="${CARGO_TARGET_DIR:-target}/debug/diopter"
[ -x "$diopter" ] || cargo build --quiet --bin diopter
phase corpus check
"$diopter" check corpus/ --quiet
phase debuggers smoke
# Debugger smoke (docs/debuggers.md): 200 generated cases through gimli, GDB and LLDB; exit 1 = findings (known), 2 = broken.
if command -v gdb >/dev/null && command -v lldb-19 >/dev/null; then s=0; "$diopter" debuggers run --cases 200 --batch 200 --dir target/debuggers-smoke >/dev/null || s=$?; [ "$s" -le 1 ]; else echo "debuggers smoke: skipped (apt-get install gdb lldb-19)"; fi

# The rule-proof gate: every rule of the library proved at the default
# widths and at the widths its text calls for, and at every width from 1 to
# 64 for the type variables that a type condition or a literal concerns
# (docs/proof-coverage.md); every rule under corpus/rules/refuted/ refuted
# (diopter prove's exit status); the report is not rewritten here.
phase rule-proof gate
"$diopter" prove --all-widths=bounded --no-report --format text | tail -n 6

# Fuzz smoke: each target 10 s on the stable toolchain (sanitizers off).
# eval_diff_planted is left out: it carries a planted bug on purpose (it
# makes artifacts for reports/minimizer.sh) and fails by design.
phase fuzz smoke
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
fuzz/seed.sh
for t in eval_diff parse_roundtrip check_eval simplify_diff dwarf_diff lifetimes_diff transform_diff validate_diff classic_roundtrip cli; do
  dict=()
  case "$t" in parse_roundtrip | check_eval | cli) dict=(-dict=fuzz/dict/diop.dict) ;; esac
  echo "== fuzz smoke: $t (10 s)"
  cargo fuzz run "$t" -s none -- -max_total_time=10 -print_final_stats=1 "${dict[@]}" 2>&1 | tail -n 4
done

# ClusterFuzzLite / OSS-Fuzz: lint the workflows and build scripts, build the
# targets as the engines' images do (reusing the smoke's builds), check $OUT
# (seed zips, dictionaries, options) and run each binary 3 s from it.
phase OSS-Fuzz build check
fuzz/oss-fuzz/check-build.sh 3
phase finished
