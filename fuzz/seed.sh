#!/usr/bin/env bash
# Seeds the fuzz corpora from the expressions of corpus/ (a small,
# deterministic, commit-friendly set; `.gitignore` keeps only `seed-*` files
# of fuzz/corpus/, not what a fuzzing run adds).
#
#   fuzz/seed.sh [MAX_PER_TARGET]      (default 64)
#
# Every expression line of corpus/**/*.expr becomes one seed, preceded by
# its file's `%name = type` and `target datalayout` lines so that it reads
# on its own. Of the distinct seeds, MAX_PER_TARGET evenly spread ones are
# written as
#   fuzz/corpus/parse_roundtrip/seed-NNN   the text
#   fuzz/corpus/check_eval/seed-NNN        byte 2 (text mode), then the text
#   fuzz/corpus/eval_diff/seed-NNN         the text's bytes (they drive the
#                                          case generator like any bytes)
#   fuzz/corpus/simplify_diff/seed-NNN     the same bytes as eval_diff's
#   fuzz/corpus/dwarf_diff/seed-NNN        the same bytes as eval_diff's
#   fuzz/corpus/validate_diff/seed-NNN     the same bytes as eval_diff's
set -euo pipefail
cd "$(dirname "$0")"
max="${1:-64}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# One seed per expression line, with its file's header lines.
find ../corpus -name '*.expr' | LC_ALL=C sort | while read -r f; do
  awk -v out="$tmp/seed" -v tag="$(basename "$f" .expr)" '
    /^[[:space:]]*(%|target )/ { header = header $0 "\n"; next }
    /^[[:space:]]*(#|$)/ { next }
    { n++; printf "%s%s\n", header, $0 > (out "-" tag "-" sprintf("%04d", n)); close(out "-" tag "-" sprintf("%04d", n)) }
  ' "$f"
done

# Distinct contents, in a stable order (by content hash).
for s in "$tmp"/seed-*; do
  printf '%s %s\n' "$(sha1sum < "$s" | cut -c1-40)" "$s"
done | LC_ALL=C sort -u -k1,1 | cut -d' ' -f2 > "$tmp/list"
total="$(wc -l < "$tmp/list")"
step=$(( total > max ? total / max : 1 ))

for t in parse_roundtrip check_eval eval_diff simplify_diff dwarf_diff validate_diff; do
  mkdir -p "corpus/$t"
  rm -f "corpus/$t"/seed-*
done
i=0
n=0
while read -r s; do
  if (( i % step == 0 && n < max )); then
    name="seed-$(printf '%03d' "$n")"
    cp "$s" "corpus/parse_roundtrip/$name"
    { printf '\002'; cat "$s"; } > "corpus/check_eval/$name"
    cp "$s" "corpus/eval_diff/$name"
    cp "$s" "corpus/simplify_diff/$name"
    cp "$s" "corpus/dwarf_diff/$name"
    cp "$s" "corpus/validate_diff/$name"
    n=$(( n + 1 ))
  fi
  i=$(( i + 1 ))
done < "$tmp/list"
echo "seed.sh: $n seeds per target (of $total distinct expressions) in fuzz/corpus/{parse_roundtrip,check_eval,eval_diff,simplify_diff,dwarf_diff,validate_diff}/"
