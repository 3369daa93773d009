#!/usr/bin/env bash
# Measures `diopter minimize` against `cargo fuzz tmin` on real libFuzzer
# artifacts and writes reports/minimizer.md and reports/minimizer.json.
#
#   reports/minimizer.sh [SEEDS]     (default 3)
#
# The reference and the fast evaluator agree, so the artifacts come from the
# test-aid target `eval_diff_planted` (eval_diff with `DIOpAdd` of i32 off by
# one planted into the fast evaluator, `diopter minimize --help`). Two kinds
# of artifact per libFuzzer seed:
#   * first: the first crash from an empty corpus with -len_control=0 (from
#     the seed corpus the first crash is already 3 operations);
#   * large: the goal is stated for a 100-operation case, and first crashes
#     are 10-40 operations, so the generator's cap is raised to 128
#     operations ($DIOPTER_MAX_OPS) and the target runs in fork mode for
#     $LARGE_TIME seconds from the seed corpus, keeping every crash; the
#     artifact whose case is nearest to 100 operations (the smallest of at
#     least 95, else the largest) and not taken for an earlier seed is taken
#     (the seed corpus holds crashing inputs, found by every seed).
# On each artifact:
#   * tmin: what `cargo fuzz tmin` runs, the fuzzer binary with
#     -minimize_crash=1 -runs=255 (its default), called directly so that no
#     cargo start-up or rebuild is timed; the result is read back as a case
#     (`diopter minimize --bytes` prints its size);
#   * diopter minimize --bytes on the same artifact.
# Sizes are operations and bytes of the case file the input generates; times
# are wall clock on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-3}"
large_time="${LARGE_TIME:-60}"
large_cap=128
td="${CARGO_TARGET_DIR:-target}"
ftd="${FUZZ_TARGET_DIR:-fuzz/target}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet
diopter="$td/release/diopter"
ftd="$(realpath -m "$ftd")"
(cd fuzz && cargo fuzz build -s none eval_diff_planted --target-dir "$ftd")
bin="$ftd/x86_64-unknown-linux-gnu/release/eval_diff_planted"

now() { date +%s.%N; }
# Operations of the case an input makes under the cap $2.
ops_of() {
  "$diopter" minimize --bytes "$1" --max-ops "$2" --oracle fast --plant add-off-by-one \
    --time-limit 0 -o "$work/ops.case" 2>/dev/null | sed -n 's/^minimized: *\([0-9]*\) ->.*/\1/p'
}

rows=()
json=()
used=""
measure() { # kind seed artifact cap
  local kind=$1 seed=$2 art=$3 cap=$4 d="$work/$1-$2"
  local in_bytes out tmin_time tmin_in_bytes tmin_ops tmin_case_bytes
  local orig_ops orig_case_bytes our_ops our_case_bytes our_time minimal expr third fast
  in_bytes=$(stat -c %s "$art")
  local t0 t1
  t0=$(now)
  DIOPTER_MAX_OPS=$cap "$bin" -minimize_crash=1 -runs=255 -exact_artifact_path="$d/tmin.out" "$art" \
    >"$d/tmin.log" 2>&1 || true
  t1=$(now)
  tmin_time=$(printf '%.2f' "$(echo "$t1 - $t0" | bc)")
  tmin_in_bytes=$(stat -c %s "$d/tmin.out")
  out="$("$diopter" minimize --bytes "$d/tmin.out" --max-ops "$cap" --oracle fast --plant add-off-by-one -o "$d/tmin.min.case")"
  tmin_ops=$(echo "$out" | sed -n 's/^minimized: *\([0-9]*\) ->.*/\1/p')
  tmin_case_bytes=$(echo "$out" | sed -n 's/.*operations, \([0-9]*\) ->.*/\1/p')

  out="$("$diopter" minimize --bytes "$art" --max-ops "$cap" --oracle fast --plant add-off-by-one -o "$d/diopter.min.case")"
  orig_ops=$(echo "$out" | sed -n 's/^minimized: *\([0-9]*\) ->.*/\1/p')
  orig_case_bytes=$(echo "$out" | sed -n 's/.*operations, \([0-9]*\) ->.*/\1/p')
  our_ops=$(echo "$out" | sed -n 's/^minimized: *[0-9]* -> \([0-9]*\) operations.*/\1/p')
  our_case_bytes=$(echo "$out" | sed -n 's/.*operations, *[0-9]* -> \([0-9]*\) bytes.*/\1/p')
  our_time=$(echo "$out" | sed -n 's/.* tried, \([0-9.]*\) s.*/\1/p')
  minimal=$(echo "$out" | grep -c '(1-minimal)' || true)
  expr=$(echo "$out" | sed -n 's/^expression: //p')
  # The goal: at most a third of tmin's operations. An addition needs its
  # two operands, so 3 operations is the least any result can have: where
  # tmin already reaches it a third is impossible and both are minimal.
  if [ $(( our_ops * 3 )) -le "$tmin_ops" ]; then third=yes
  elif [ "$tmin_ops" -le 3 ]; then third="impossible: tmin also reaches 3 ops, the least an addition has"
  else third=no; fi
  fast=$( [ "$(echo "$our_time <= 1" | bc)" = 1 ] && echo yes || echo no )
  rows+=("| $kind | $seed | $orig_ops ops, $orig_case_bytes B ($in_bytes B input) | $tmin_ops ops, $tmin_case_bytes B ($tmin_in_bytes B input) | ${tmin_time} s | $our_ops ops, $our_case_bytes B | ${our_time} s | $( [ "$minimal" = 1 ] && echo yes || echo no ) | $fast | $third | \`$expr\` |")
  json+=("{\"kind\": \"$kind\", \"seed\": $seed, \"max_ops\": $cap, \"original\": {\"ops\": $orig_ops, \"case_bytes\": $orig_case_bytes, \"input_bytes\": $in_bytes}, \"tmin\": {\"ops\": $tmin_ops, \"case_bytes\": $tmin_case_bytes, \"input_bytes\": $tmin_in_bytes, \"seconds\": $tmin_time}, \"diopter\": {\"ops\": $our_ops, \"case_bytes\": $our_case_bytes, \"seconds\": $our_time, \"one_minimal\": $( [ "$minimal" = 1 ] && echo true || echo false ), \"within_1s\": $( [ "$fast" = yes ] && echo true || echo false )}, \"third_of_tmin\": \"$third\"}")
}

for seed in $(seq 1 "$n"); do
  # First crash from an empty corpus, the generator's default cap (64).
  d="$work/first-$seed"
  mkdir -p "$d/corpus"
  "$bin" -seed="$seed" -artifact_prefix="$d/" -max_total_time=120 \
    -len_control=0 -max_len=4096 "$d/corpus" >/dev/null 2>&1 || true
  art="$(ls "$d"/crash-* 2>/dev/null | head -n1 || true)"
  if [ -n "$art" ]; then measure first "$seed" "$art" 64; else echo "seed $seed: no first crash in 120 s"; fi

  # About 100 operations: fork mode from the seed corpus (read only; new
  # inputs go to the first, empty directory), every crash kept.
  d="$work/large-$seed"
  mkdir -p "$d/corpus" "$d/art"
  DIOPTER_MAX_OPS=$large_cap "$bin" -seed="$seed" -artifact_prefix="$d/art/" \
    -max_total_time="$large_time" -fork=1 -ignore_crashes=1 -len_control=0 -max_len=8192 \
    "$d/corpus" fuzz/corpus/eval_diff >/dev/null 2>&1 || true
  best="" best_ops=0
  for a in "$d"/art/crash-*; do
    [ -e "$a" ] || continue
    case " $used " in *" $(basename "$a") "*) continue ;; esac
    o=$(ops_of "$a" "$large_cap")
    [ -n "$o" ] || continue
    if [ "$o" -ge 95 ]; then
      if [ "$best_ops" -lt 95 ] || [ "$o" -lt "$best_ops" ]; then best=$a best_ops=$o; fi
    elif [ "$best_ops" -lt 95 ] && [ "$o" -gt "$best_ops" ]; then best=$a best_ops=$o; fi
  done
  if [ -n "$best" ]; then used="$used $(basename "$best")"; measure large "$seed" "$best" "$large_cap"; else echo "seed $seed: no crash in fork mode"; fi
done

{
  echo "# Minimizer against \`cargo fuzz tmin\`"
  echo
  echo "Generated by \`reports/minimizer.sh\` ($(date -u +%Y-%m-%d), this machine: 2 cores shared with other jobs, so times are upper bounds). Do not edit."
  echo
  echo "Artifacts of \`fuzz/fuzz_targets/eval_diff_planted.rs\` (eval_diff with DIOpAdd of i32 off by one planted into the fast evaluator), two per libFuzzer seed 1..$n: *first* is the first crash from an empty corpus with \`-len_control=0 -max_len=4096\` (10-40 operations); *large* is, of every crash of a ${large_time} s fork-mode run from the seed corpus with the generator's cap raised to $large_cap operations (\`DIOPTER_MAX_OPS\`), the one nearest to 100 operations (the smallest of at least 95) not taken for an earlier seed. Sizes are of the case the input generates: operations, and bytes of its case file. \`tmin\` is what \`cargo fuzz tmin\` runs with its defaults, the fuzzer binary with \`-minimize_crash=1 -runs=255\` (called directly: no cargo start-up or rebuild in its time; libFuzzer's minimization is randomized, so its result varies with the run); \`diopter\` is \`diopter minimize --bytes ARTIFACT [--max-ops 128] --oracle fast --plant add-off-by-one\` (time is the minimization alone)."
  echo
  echo "The goal: 1-minimal in at most 1 s on a 100-operation case, and at most a third of tmin's size (in operations). An addition needs two operands, so no result is below 3 operations: where tmin reaches 3 too, a third is impossible and both are minimal."
  echo
  echo "| kind | seed | artifact | tmin result | tmin time | diopter result | diopter time | 1-minimal | ≤ 1 s | ≤ ⅓ of tmin | diopter's expression |"
  echo "|---|---|---|---|---:|---|---:|---|---|---|---|"
  for r in "${rows[@]}"; do echo "$r"; done
} > reports/minimizer.md
{
  echo "["
  for i in "${!json[@]}"; do
    sep=","; [ "$i" = $(( ${#json[@]} - 1 )) ] && sep=""
    echo "  ${json[$i]}$sep"
  done
  echo "]"
} > reports/minimizer.json
cat reports/minimizer.md
