#!/usr/bin/env bash
# The callgrind profiles behind reports/profiles.md: each criterion
# workload (benches/eval.rs, benches/dwarf.rs) run N times by its example
# binary, counting only the workload (--toggle-collect on the run_*
# functions, so building the inputs is not counted). `fast` runs in
# contexts prepared beforehand, as the bench's row does; `fast-lazy` is
# the same on the raw contexts.
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
# the functions that say where the time goes. A function's inclusive cost is
# the cost of the calls into it (callgrind's call arcs, from
# callgrind_annotate --tree=caller): the per-file lines of the plain
# inclusive list split a function by the files of its inlined code.
summary() {
    python3 - "$1" "$2" <<'PY'
import collections, re, subprocess, sys
path, evals = sys.argv[1], float(sys.argv[2])
text = subprocess.run(['callgrind_annotate', '--inclusive=yes', '--tree=caller',
                       '--threshold=100', '--auto=no', path],
                      capture_output=True, text=True).stdout
total = int(re.search(r'([\d,]+) \(100.0%\)\s+PROGRAM TOTALS', text)[1].replace(',', ''))
calls, callers = collections.Counter(), []
for line in text.split('file:function', 1)[1].splitlines():
    m = re.match(r'\s*([\d,]+) \(\s*[\d.]+%\)\s+([<*>])\s+(.*)$', line)
    if not m:
        callers = []
        continue
    fn = re.sub(r' \[[^]]*\]| \([\d,]+x\)$', '', m[3]).partition(':')[2]
    if m[2] == '<':
        callers.append((fn, int(m[1].replace(',', ''))))
    elif m[2] == '*':
        # A recursive call is inside the outer call's cost already.
        calls[fn] += sum(c for f, c in callers if f != fn)
        callers = []
wanted = [r'Compiled>::eval$', r'Compiled>::run_prepared$', r'recompile_unchecked$', r'Machine<O>::run$', r'Machine<O>::outcome$', r'read_val$',
          r'read_into$', r'fetch_bytes$', r'push_ctx$', r'Memory::span_u128$',
          r'words::to_bits$', r'core::fmt::write$', r'^malloc$', r'^free$',
          r'interp::eval$', r'check::apply$', r'interp::binary$', r'access::read_at$',
          r'diopter_dwarf::evaluate$', r'eval::Machine::evaluate$', r'eval::convert_piece$',
          r'gimli::read::op::Evaluation<R,S>::evaluate$']
print(f'  {total / evals:,.0f} instructions per evaluation')
for w in wanted:
    hits = sorted(((c, f) for f, c in calls.items() if re.search(w, f)), reverse=True)
    if hits:
        c, f = hits[0]
        print(f'  {c / evals:9,.0f} {100 * c / total:5.1f}%  {f[:100]}')
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

for side in reference fast fast-lazy fast+compile; do
    run "corpus-$side" 287 'profile_eval::run_*' $ex/profile_eval corpus "$side" "$n"
    run "generated-$side" 300 'profile_eval::run_*' $ex/profile_eval generated "$side" "$n"
done
for side in fast gimli gimli-only; do
    run "dwarf-$side" 300 'profile_dwarf::items::run_*' $ex/profile_dwarf "$side" "$n"
done
