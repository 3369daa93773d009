#!/usr/bin/env bash
# Builds the fuzz targets for ClusterFuzzLite and OSS-Fuzz and packages them
# as those engines expect. The one build script of both: `.clusterfuzzlite/build.sh`
# and `fuzz/oss-fuzz/build.sh` only call it, and `fuzz/oss-fuzz/check-build.sh`
# runs it locally (what CI does through ./test.sh).
#
# Environment (the base image `gcr.io/oss-fuzz-base/base-builder-rust` sets
# the first three; the local check sets them to temporary directories):
#   OUT        where the fuzzer binaries and their files go (required)
#   WORK       scratch space (default: a temporary directory)
#   SANITIZER  address (the image's default for Rust) builds with cargo-fuzz's
#              default `-s address` (nightly; the image has it); coverage is
#              the image's coverage build (its `cargo` wrapper turns
#              `cargo fuzz build` into an instrumented `cargo build --bins`);
#              none builds with `-s none`, which the stable toolchain can do
#              (the local check); any other value is passed as `-s VALUE`.
#   CARGO_FUZZ_FLAGS  extra flags for `cargo fuzz build`, split on spaces
#              (e.g. `--no-trace-compares`; default none).
#
# What lands in $OUT, for each target of fuzz/Cargo.toml except those in
# EXCLUDED below:
#   TARGET                  the libFuzzer binary (`cargo fuzz build -O --debug-assertions`:
#                           optimized, with overflow checks, as `cargo fuzz run` builds it)
#   TARGET_seed_corpus.zip  fuzz/corpus/TARGET/* (the seeds fuzz/seed.sh made, and what
#                           local runs added) and fuzz/regressions/TARGET/* (as
#                           regression-NAME); only when there is at least one file
#   TARGET.dict             fuzz/dict/diop.dict, for the targets whose input is text
#   TARGET.options          libFuzzer options in the engines' INI form
set -euo pipefail

: "${OUT:?set OUT to the output directory}"
# The repository: the physical path (no symlink in it), so that a build
# started through another path reuses fuzz/target.
repo="$(cd -P "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
if [ -n "${WORK:-}" ]; then
  work="$WORK"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$OUT" "$work"

# Targets left out, with why:
#   eval_diff_planted  a test aid with a bug planted on purpose: it fails by
#                      design (fuzz/README.md, test.sh)
#   simplify_diff      it loads the rule library at run time from the source
#                      tree it was built in (`CARGO_MANIFEST_DIR/../corpus/rules`),
#                      which the engines' runners do not have: its binary aborts at
#                      start there. Take it off this list once it carries its rules
#                      in the binary.
#   validate_diff      it runs Z3, and so needs libz3.so.4, which the engines'
#                      runner images do not have (and Debian ships no static
#                      libz3 to link instead). Take it off this list once Z3 is
#                      linked statically or the runner image carries it.
#   cli                the CLI as a library: it links Z3 (libz3.so.4) as
#                      validate_diff does, and its `simplify` runs load the rule
#                      library from the source tree, as simplify_diff's do.
EXCLUDED=" eval_diff_planted simplify_diff validate_diff cli "

# Every [[bin]] of fuzz/Cargo.toml, so that a new target is built (and run by
# the local check) without editing this script.
targets=()
while read -r t; do
  case "$EXCLUDED" in *" $t "*) continue ;; esac
  targets+=("$t")
done < <(awk '
  /^\[/ { inbin = ($0 == "[[bin]]") }
  inbin && /^name *=/ { gsub(/^name *= *"|" *$/, ""); print }
' fuzz/Cargo.toml)
if [ "${#targets[@]}" -eq 0 ]; then
  echo "build-fuzzers.sh: no fuzz target found in fuzz/Cargo.toml" >&2
  exit 1
fi

# The targets whose input is text (or starts with text): the dictionary of
# DIOp keywords applies (as test.sh and the README run them).
uses_dict() { case "$1" in parse_roundtrip | check_eval) return 0 ;; esac; return 1; }

# libFuzzer's -max_len per target. The generator-driven targets read bytes
# only until their case is complete (eval_diff kept no input over 1.6 KB in
# a run allowed 64 KB); the lifetime and transform targets draw a CFG of at
# most 6 blocks of 4 instructions and a few choices on top.
max_len() {
  case "$1" in
    lifetimes_diff | transform_diff) echo 1024 ;;
    *) echo 4096 ;;
  esac
}

sanitizer_flags=()
case "${SANITIZER:-address}" in
  address | coverage) ;;
  none) sanitizer_flags=(-s none) ;;
  *) sanitizer_flags=(-s "$SANITIZER") ;;
esac
# shellcheck disable=SC2206 # split on spaces on purpose
extra_flags=(${CARGO_FUZZ_FLAGS:-})

bin_dir=fuzz/target/x86_64-unknown-linux-gnu/release
for t in "${targets[@]}"; do
  echo "== build-fuzzers.sh: $t"
  cargo fuzz build -O --debug-assertions "${sanitizer_flags[@]}" "${extra_flags[@]}" "$t"
  cp "$bin_dir/$t" "$OUT/$t"

  seeds="$work/seeds/$t"
  rm -rf "$seeds"
  mkdir -p "$seeds"
  if [ -d "fuzz/corpus/$t" ]; then
    find "fuzz/corpus/$t" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$seeds/" \;
  fi
  if [ -d "fuzz/regressions/$t" ]; then
    for f in "fuzz/regressions/$t"/*; do
      case "$(basename "$f")" in .* | *.md) continue ;; esac
      [ -f "$f" ] && cp "$f" "$seeds/regression-$(basename "$f")"
    done
  fi
  rm -f "$OUT/${t}_seed_corpus.zip"
  if [ -n "$(ls -A "$seeds")" ]; then
    (cd "$seeds" && find . -type f | LC_ALL=C sort | zip -q -X "$OUT/${t}_seed_corpus.zip" -@)
  fi

  {
    echo "[libfuzzer]"
    echo "max_len = $(max_len "$t")"
    # As `diopter campaign` runs the targets: an input slower than 30 s is a finding.
    echo "timeout = 30"
    if uses_dict "$t"; then echo "dict = $t.dict"; fi
  } > "$OUT/$t.options"
  if uses_dict "$t"; then
    cp fuzz/dict/diop.dict "$OUT/$t.dict"
  else
    rm -f "$OUT/$t.dict"
  fi
done
echo "build-fuzzers.sh: ${#targets[@]} targets in $OUT: ${targets[*]}"
