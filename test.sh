#!/usr/bin/env bash
# The project's test command: formatting, lints, the whole test suite, and the
# corpus conformance run of the CLI. Nothing here may be skipped.
set -euo pipefail
cd "$(dirname "$0")"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
cargo run --release --quiet -- check corpus/ --quiet
