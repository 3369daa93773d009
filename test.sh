#!/usr/bin/env bash
# The project's test command: formatting, lints, the whole test suite, the
# corpus conformance run of the CLI, and a short smoke run of every fuzz
# target. Nothing here may be skipped.
set -euo pipefail
cd "$(dirname "$0")"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
cargo run --release --quiet -- check corpus/ --quiet

# Fuzz smoke: each target 30 s on the stable toolchain (sanitizers off).
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
fuzz/seed.sh
for t in eval_diff parse_roundtrip check_eval; do
  dict=()
  [ "$t" != eval_diff ] && dict=(-dict=fuzz/dict/diop.dict)
  echo "== fuzz smoke: $t (30 s)"
  cargo fuzz run "$t" -s none -- -max_total_time=30 -print_final_stats=1 "${dict[@]}" 2>&1 | tail -n 4
done
