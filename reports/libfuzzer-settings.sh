#!/usr/bin/env bash
# Measures libFuzzer's settings on one fuzz target instead of guessing them:
# each configuration runs SECS seconds on one core (-fork excepted) from the
# same seed corpus (a fresh copy each time, -seed=1), and the table gives
# executions per second and the coverage reached (libFuzzer's `cov:` edges
# and `ft:` features) at 1/4, 1/2 and the end of the run, so that a setting
# that runs faster but learns less shows it.
#
#   reports/libfuzzer-settings.sh [TARGET] [SECS]   (default eval_diff 300)
#
# Writes reports/libfuzzer-settings.{md,json} (and the raw logs to $LOGDIR,
# default a temporary directory). The configurations:
#   default        cargo fuzz's build and libFuzzer's defaults (entropic on)
#   entropic=0     the plain power schedule instead of the entropic one
#   value-profile  -entropic=0 -use_value_profile=1
#   dict           -entropic=0 -dict=fuzz/dict/diop.dict
#   no-trace-cmp   -entropic=0 on a build without comparison tracing
#                  (cargo fuzz build --no-trace-compares, its own target dir)
#   fork=2         -entropic=0 -fork=2: two worker processes (two cores)
# CONFIGS="entropic0 dict" runs only those (the table then shows the others
# from earlier logs in the same $LOGDIR, or "-").
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-eval_diff}"
secs="${2:-300}"
logdir="${LOGDIR:-$(mktemp -d)}"
mkdir -p "$logdir"
out=reports/libfuzzer-settings.md

(cd fuzz && cargo fuzz build -s none "$target" >/dev/null 2>&1)
(cd fuzz && cargo fuzz build -s none --no-trace-compares --target-dir target-notrace "$target" >/dev/null 2>&1)
bin=fuzz/target/x86_64-unknown-linux-gnu/release/$target
bin_notrace=fuzz/target-notrace/x86_64-unknown-linux-gnu/release/$target

# One run: NAME BINARY FLAGS... ; the status lines get the seconds since the
# start in front, so coverage can be read at fixed times.
run() {
  local name=$1 b=$2
  shift 2
  local corp="$logdir/corpus-$name"
  rm -rf "$corp"
  mkdir -p "$corp"
  cp "fuzz/corpus/$target"/* "$corp/"
  echo "== $name: $b $* ($secs s)" >&2
  local start=$SECONDS
  # Artifacts (a crash, a slow unit) go to the log directory, not the checkout.
  "$b" -seed=1 -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$logdir/$name-" "$@" "$corp" 2>&1 |
    while IFS= read -r line; do echo "$((SECONDS - start)) $line"; done > "$logdir/$name.log" || true
}

# The last status line at or before second T: "cov ft".
cov_at() {
  [ -f "$1" ] || { echo "- / -"; return; }
  awk -v t="$2" '$1 <= t && / cov: / {
      for (i = 1; i <= NF; i++) { if ($i == "cov:") c = $(i+1); if ($i == "ft:") f = $(i+1) }
    } END { printf "%s / %s", (c == "" ? "-" : c), (f == "" ? "-" : f) }' "$1"
}

# Executions per second: the final stats (a -fork run prints none: its
# last status line's exec/s then, which counts all workers).
execs() {
  local v
  [ -f "$1" ] || { echo -; return; }
  # $1 of each line is the seconds the script put in front.
  v=$(awk '/stat::average_exec_per_sec/ {print $3}' "$1" | tail -n 1)
  if [ -z "$v" ]; then
    v=$(awk '/ exec\/s: / { for (i = 1; i <= NF; i++) if ($i == "exec/s:") e = $(i+1) }
      END { print (e == "" ? "-" : e) }' "$1")
  fi
  echo "$v"
}

all="default entropic0 value-profile dict no-trace-cmp fork2"
for n in ${CONFIGS:-$all}; do
  case "$n" in
    default) run default "$bin" ;;
    entropic0) run entropic0 "$bin" -entropic=0 ;;
    value-profile) run value-profile "$bin" -entropic=0 -use_value_profile=1 ;;
    dict) run dict "$bin" -entropic=0 -dict=fuzz/dict/diop.dict ;;
    no-trace-cmp) run no-trace-cmp "$bin_notrace" -entropic=0 ;;
    fork2) run fork2 "$bin" -entropic=0 -fork=2 ;;
    *) echo "unknown configuration $n (of: $all)" >&2; exit 2 ;;
  esac
done

q=$((secs / 4)) h=$((secs / 2))
{
  echo "# libFuzzer settings for \`$target\`, measured"
  echo
  echo "Each row ran $secs s from the same $(find "fuzz/corpus/$target" -type f | wc -l) seeds with -seed=1"
  echo "(\`reports/libfuzzer-settings.sh $target $secs\`, $(date -u +%Y-%m-%d), $(nproc) cores,"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)). Coverage is libFuzzer's"
  echo "\`cov:\` (edges) / \`ft:\` (features) at the time; features are not comparable"
  echo "across rows that change what counts as one (value profile). fork=2 uses two cores."
  echo
  echo "| configuration | exec/s | cov / ft at ${q} s | at ${h} s | at ${secs} s |"
  echo "|---|---:|---:|---:|---:|"
  for n in $all; do
    f="$logdir/$n.log"
    echo "| $n | $(execs "$f") | $(cov_at "$f" "$q") | $(cov_at "$f" "$h") | $(cov_at "$f" "$secs") |"
  done
} > "$out"
# The same figures for `diopter report` (reports/benchmarks.md).
{
  printf '{"target": "%s", "seconds": %s, "date": "%s", "load": "%s", "configurations": [' \
    "$target" "$secs" "$(date -u +%Y-%m-%d)" "$(cut -d' ' -f1-3 /proc/loadavg)"
  sep=
  for n in $all; do
    f="$logdir/$n.log"
    e=$(execs "$f")
    cf=$(cov_at "$f" "$secs")
    cov=${cf%% /*} ft=${cf##*/ }
    printf '%s{"name": "%s", "exec_per_s": %s, "cov": %s, "ft": %s}' "$sep" "$n" \
      "${e/#-/null}" "${cov/#-/null}" "${ft/#-/null}"
    sep=', '
  done
  echo ']}'
} > "${out%.md}.json"
cat "$out"
echo "logs: $logdir" >&2
