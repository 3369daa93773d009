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
hand validate-generic '\007\002[T] DIOpArg(0, T)\000[T] DIOpArg(0, T), DIOpConstant(T 1), DIOpAdd()\000where T: int\narg0 := DIOpArg(0, T), DIOpConstant(T 1), DIOpAdd()'
# validate_diff: SROA's split (oracles/harness/src/targets.rs, sroa_pair).
# Each seed is the bytes the case generator reads for one expression (found
# by search: operand 0 an integer of even width, the generator stopping
# before the end), then the target's choices: kind (which mistake: 0
# pieces swapped, 1 low piece only, 2 high piece misplaced), wrong, c, an
# 8-byte trial seed, and split (bit 0: split; bit 1: the variable in an
# alloca). The expressions:
#   a: [i32, i48, [3 x i33], [3 x i31], referrer: i2] -> i65 DIOpArg(0, i32), DIOpArg(0, i32), DIOpOr(), ...
#   b: [i16, x86_fp80, i8] -> fp128 !DIExpression(DIOpArg(0, i16), DIOpPushLane(i16), ...)
sroa_a='\xec\x32\x5e\x6f\x0a\xe7\x45\x2a\x26\xbf\x24\x8d\xcd\x59\x2d\x93\x16\x41\x8e\xb1\x3d\x11\x7b\x59\x34\x93\x17\xd2\x64\xa5\xa2\x5d\xd6\x8d\x72\x20\x9a\x12\xd6\x06\x1f\x1d\x89\xd6\xb6\x0a\xa4\x44\x96\x14\x56\xe0\xe3\x07\x25\xc7\x02\xf8\x28\x67\xab\x46\xe7\xc3\x55\xc3\xf1\xf9\x22\x63\xc6\x42\x7e\x27\x6b\xa4\x14\xf6\x10\xb3\x29\x73\x0a\xf8\x4d\x28\x65\xf2\x8a\xf4\xa6\x81\x27\xeb\xf6\xb6\x76\x38\x29\xf7\xb9\x01\xd8\xe2\x2e\x47\x6b\xe9\x09\xb8\x40\xe2\x52\x72\xc0\x73\xe2\xd7\xa7\xdf\xb2\x15\xaa\xf0\xf3\xdb\xec\x20\xa0\x2c\x63\x83\x09\x3d\xad\xac\xc5\x50\x0f\xa8\x62\x1c\x33\xc9\x5b\x45\x70\xe5\x18\x53\x62\xa5\x0a\xe7\x2a\x0c\xdf\x8c\x52\xff\x90\xe3\xcb\x67\x67\x91\x41\x69\xa4\x4c\xd0\x85\xd1\xba\xb5\x39\x92\xaf\x15\x2c\xc7\xf5\xd4\xf3\x2c\x05\x44\x8a\xe8\x82\xfd\x90'
sroa_b='\xc6\xec\x55\x57\x0c\xec\x79\x58\x25\x44\x40\x2f\x51\x01\xb5\x98\x09\xa5\x84\x1e\x59\xea\x68\x8e\xb0\x13\xf9\x7f\x8a\x61\xe6\x67\xf0\x9b\x78\xbc\x36\xda\xf3\x59\x9b\xb9\xa9\xe4\xfe\xec\xe8\xb2\x43\x27\x04\x16\x22\x5a\x64\x29\x43\xa2\xb6\x1d\xb0\x10\xdf\x26\x0c\xd0\x68\x1c\xa7\x15\x91\x36\xd1\x18\xe9\xfe\x35\x10\x50\xa7\xe3\xcf\xd6\xc2\x6c\x99\x17\xb0\x0c\xda\xaa\x88\xd8\x3b\x14\x70\x73\x59\x76\xd4\x8d\x99\x32\x6a\xa8\xbf\xf3\x13\x54\xda\x37\xef\xa2\x36\x71\x22\xd3\x1d\xba\x84\x7a\xe0\x8b\x1e\x9e\x41\x36\xd5\xfd\x22\x77\x86\x37\x18\xc6\x8c\x25\xcb\x00\x2d\x43\x87\x1c\xe8\xc5\x78\x52\x46\x33\xe7\x66\x99\xbc\x4a\xe5\x4c\xd5\x70\x06\x0a\x3e\xa3\xed\x4d\x6e\x3d\x0b\xdd\xcd\x23\xd3\xa1\xed\xfa\x89\xfa\xa1\xe3\x6b\xc2\x34\xfb\x0b\x3a\x66\x73'
# shellcheck disable=SC2059
sroa() { printf "$2$3"'\000\000\000\000\000\000\000\000'"$4" > "corpus/validate_diff/seed-hand-sroa-$1"; }
sroa a-correct "$sroa_a" '\000\000\001' '\001'
sroa a-correct-alloca "$sroa_a" '\000\000\001' '\003'
sroa a-swapped "$sroa_a" '\000\001\001' '\001'
sroa a-low-only-alloca "$sroa_a" '\001\001\001' '\003'
sroa a-high-misplaced "$sroa_a" '\002\001\001' '\001'
sroa b-correct-alloca "$sroa_b" '\000\000\001' '\003'
sroa b-swapped-alloca "$sroa_b" '\000\001\001' '\003'
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
