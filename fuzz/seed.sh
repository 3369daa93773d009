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
#   fuzz/corpus/cli/seed-NNN               a selector byte (command and flags, see
#                                          src/fuzz_cli.rs), the text, a NUL and a
#                                          context; every fourth one in generator
#                                          mode instead (the same bytes drive the
#                                          case generator); and fuzz/corpus/cli/seed-hand-*,
#                                          huge types and values, odd contexts
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

for t in parse_roundtrip check_eval eval_diff simplify_diff dwarf_diff validate_diff cli; do
  mkdir -p "corpus/$t"
  rm -f "corpus/$t"/seed-*
done
cli_ctx='mem 1 0x1000 = 01 02 03 04
%x = i32 0x12345678
arg 0 = mem(1, 0x1000) + 4
arg 1 = %x
arg 2 = composite(%x : 16, implicit(i16 7) : 16)
'
# cli: hand-made seeds (selector byte, expression, NUL, context[, NUL, --write literal]).
# The seed text is the format on purpose: printf turns its octal escapes
# (\001, \241, ...) into bytes, which %b would not do for \241.
# shellcheck disable=SC2059
hand() { printf "$2" > "corpus/cli/seed-hand-$1"; }
hand eval-huge-add '\001[] DIOpConstant(i8388608 1), DIOpConstant(i8388608 1), DIOpAdd()'
hand eval-huge-vector-json '\011[] DIOpConstant(<1000000 x i8> zeroinitializer)'
hand eval-fp128-convert '\001[] DIOpConstant(fp128 1.0), DIOpConvert(i8388608)'
hand eval-float-write '\241[] DIOpConstant(float 1.5)\000\0002.5'
hand eval-nan-json '\011[] DIOpConstant(double 0x7FF4000000000001)'
hand eval-mem-write '\251[i32] DIOpArg(0, i32)\000mem 1 0x1000 = 01 02 03 04\narg 0 = mem(1, 0x1000) + 4\n\000-1'
hand eval-deref-huge '\201[ptr addrspace(1)] DIOpArg(0, ptr addrspace(1)), DIOpDeref(i65536)\000arg 0 = mem(1, 0x1000)\nmem 1 0x1000 = 00 20\n'
hand eval-wide-pointer '\201[ptr addrspace(1)] DIOpArg(0, ptr addrspace(1))\000datalayout "p1:1024:8"\narg 0 = mem(1, 0x1000000000000000000000000000000000) - 3\n'
hand eval-addrof '\311[] DIOpConstant(i32 7), DIOpConstant(i64 3), DIOpAddrOf(5)'
hand lower-context '\212[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpComposite(2, i64)\000arg 0 = %x\narg 1 = implicit(i32 0x1)\n%x = i32 5\n'
hand check-empty '\000'
hand simplify-huge '\013[] DIOpConstant(i8388608 0), DIOpConstant(i8388608 0), DIOpAdd()'
hand replay-json '\015[i32] DIOpArg(0, i32)\000arg 0 = undef\n'
hand locations-ll '\214define void @f() {\n  ret void\n}\n'
hand specs-json '\017'
# transform (selector 6): IR files of corpus/ through the pass named after
# the second NUL. Written with cat: IR text has `%` in it.
for t in sroa:spec/03-mem2reg-canonical.ll cse:transforms/cse-before.ll flatten:spec/13-further-decomposition-after.ll mem2reg:spec/01-alloca.ll spill:spec/11-two-scalars-after.ll; do
  { printf '\006'; cat "../corpus/${t#*:}"; printf '\000\000%s' "${t%%:*}"; } > "corpus/cli/seed-hand-transform-${t%%:*}"
done
# Selector 7 with a second byte (src/fuzz_cli.rs, MORE): 1 prove, 2 validate
# (a pair), 3 validate (two IR files), 4 minimize, 5 prove --merge. In
# generator mode (bit 4, selector \027 or \067) the bytes after the second
# make a rule or a pair.
hand prove-rule '\007\001rule add-zero: ?x:T, DIOpConstant(T 0), DIOpAdd() => ?x, DIOpRead()   where T: int\n'
hand prove-refuted-json '\017\001rule drop-y: ?x:T, ?y:T, DIOpAdd() => ?x, DIOpRead()   where T: int\n'
hand prove-generated '\027\001generated rule: these bytes drive the case generator 0123456789'
hand prove-generated-refute '\067\001generated rule: these bytes drive the case generator 0123456789'
hand validate-pair '\007\002[i64] DIOpArg(0, i64)\000[i64] DIOpArg(0, i64), DIOpConstant(i64 7), DIOpShl()\000arg0 := DIOpArg(0, i64), DIOpConstant(i64 7), DIOpShl()'
hand validate-pair-json '\217\002[i64] DIOpArg(0, i64), DIOpConstant(i64 8), DIOpAdd()\000[i64] DIOpArg(0, i64), DIOpConstant(i64 8), DIOpAdd()\000arg0 := DIOpArg(0, i64)'
hand validate-generated '\027\002generated pair: these bytes drive the case generator 0123456789'
hand minimize-planted '\047\004[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()\000arg 0 = implicit(i32 1)\narg 1 = implicit(i32 2)\n\000fast add-off-by-one'
hand minimize-agree '\007\004[i32] DIOpArg(0, i32)\000arg 0 = implicit(i32 1)\n\000fast'
hand prove-merge '\007\005{"widths":[8],"timeout_ms":100,"strict":false,"total_seconds":0.1,"library":{"rules":1,"fingerprint":"0"},"shard":{"index":1,"count":1},"rules":[{"index":0,"name":"r","origin":"r.rules:1","relation":"equivalent","expect":"holds","kind":"rule","simplifier":"applies","instances":[{"verdict":"proved","millis":1,"reason":null,"counterexample":null,"binding":"T = i8, diexpression"}]}]}'
# validate (two IR files): AMD's pass tests, written with cat (IR has `%`).
for t in sroa-poison instcombine-lower-dbg-declare; do
  { printf '\007\003'; cat "../corpus/amd/ll/$t.before.ll"; printf '\000'; cat "../corpus/amd/ll/$t.after.ll"; } > "corpus/cli/seed-hand-validate-ll-$t"
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
    # cli: command n mod 7, JSON every other 7, a context always, --write
    # every third, generator mode (bit 4) every fourth.
    sel=$(( (n % 7) | ((n / 7) % 2) * 8 | 128 | (n % 3 == 0 ? 32 : 0) | (n % 4 == 3 ? 16 : 0) ))
    # shellcheck disable=SC2059 # an octal escape made on purpose
    { printf "\\$(printf '%03o' "$sel")"; cat "$s"; printf '\000%s' "$cli_ctx"; } > "corpus/cli/$name"
    n=$(( n + 1 ))
  fi
  i=$(( i + 1 ))
done < "$tmp/list"
echo "seed.sh: $n seeds per target (of $total distinct expressions) in fuzz/corpus/{parse_roundtrip,check_eval,eval_diff,simplify_diff,dwarf_diff,validate_diff,cli}/ (and cli/seed-hand-*)"
