#!/usr/bin/env bash
# The callgrind profiles behind reports/profiles.md: each criterion
# workload (benches/eval.rs, benches/dwarf.rs) run N times by its example
# binary, counting only the workload (--toggle-collect on the run_*
# functions, so building the inputs is not counted).
#
#   reports/profiles.sh [N]     (default 20 rounds of the whole set)
#
# Writes target/profiles/<workload>.out (open them with callgrind_annotate
# or kcachegrind) and prints, per workload, the instructions per evaluation
# and the inclusive share of the functions profiles.md discusses.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-20}"
out=target/profiles
mkdir -p "$out"
cargo build --release -p diopter-fast --example profile_eval \
    -p diopter-dwarf --example profile_dwarf >/dev/null 2>&1
ex=target/release/examples

# FILE EVALUATIONS: the instructions per evaluation, and the inclusive cost of
# the functions that say where the time goes (each function's own entry in
# callgrind_annotate's list, the one that names its object file).
summary() {
    python3 - "$1" "$2" <<'PY'
import re, subprocess, sys
path, evals = sys.argv[1], float(sys.argv[2])
text = subprocess.run(['callgrind_annotate', '--inclusive=yes', '--threshold=100',
                       '--auto=no', path], capture_output=True, text=True).stdout
total = int(re.search(r'([\d,]+) \(100.0%\)\s+PROGRAM TOTALS', text)[1].replace(',', ''))
wanted = [r'Compiled>::eval$', r'Machine<O>::run$', r'Machine<O>::outcome$', r'read_val$',
          r'fetch_bytes$', r'push_ctx$', r'Memory::span_u128$', r'words::to_bits$',
          r'alloc::fmt::format::format_inner$', r'^malloc$', r'^free$', r'^realloc$',
          r'interp::eval$', r'check::apply$', r'interp::binary$', r'access::read_at$',
          r'diopter_dwarf::evaluate$', r'eval::Machine::evaluate$',
          r'gimli::read::op::Evaluation<R,S>::evaluate$']
best = {}
for line in text.split('file:function', 1)[1].splitlines():
    m = re.match(r'\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*\])$', line)
    if not m:
        continue
    fn = re.sub(r' \[[^]]*\]$', '', m[2]).partition(':')[2]
    for w in wanted:
        if re.search(w, fn):
            best[w] = max(best.get(w, (0, ''))[0], int(m[1].replace(',', ''))), fn
print(f'  {total / evals:,.0f} instructions per evaluation')
for w in wanted:
    if w in best:
        c, fn = best[w]
        print(f'  {c / evals:9,.0f} {100 * c / total:5.1f}%  {fn[:100]}')
PY
}

run() { # NAME EVALUATIONS-PER-ROUND TOGGLE BINARY ARGS...
    local name=$1 per=$2 toggle=$3
    shift 3
    valgrind --tool=callgrind --callgrind-out-file="$out/$name.out" \
        --toggle-collect="$toggle" "$@" 2>/dev/null
    echo "$name ($((per * n)) evaluations)"
    summary "$out/$name.out" $((per * n))
}

for side in reference fast fast+compile; do
    run "corpus-$side" 287 'profile_eval::run_*' $ex/profile_eval corpus "$side" "$n"
    run "generated-$side" 300 'profile_eval::run_*' $ex/profile_eval generated "$side" "$n"
done
for side in fast gimli gimli-only; do
    run "dwarf-$side" 300 'profile_dwarf::items::run_*' $ex/profile_dwarf "$side" "$n"
done
