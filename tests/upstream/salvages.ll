; Instructions whose results LLVM 19's instcombine deletes (all dead) and
; salvages into the debug records debugify gives them. Written for diopter's
; tests; each salvage below was checked by hand (tests/upstream_cli.rs).
define void @ok(i64 %x, i32 %w, i8 %b, i16 %h) {
entry:
  %add = add i64 %x, 5
  %mul = mul i64 %x, 3
  %sub = sub i32 %w, 7
  %mul32 = mul i32 %w, 6
  %sext = sext i32 %w to i64
  %zext = zext i8 %b to i32
  %trunc = trunc i64 %x to i16
  %sum = add i32 %w, %sub
  %or = or disjoint i16 %h, 1
  %not = xor i8 %b, -1
  %shl = shl i32 %w, 3
  ret void
}

; Salvages of operations whose value depends on the bits above a narrow
; value, or on the signedness of the comparison.
define void @suspect(i32 %w, i8 %b) {
entry:
  %slt = icmp slt i32 %w, -3
  %ult = icmp ult i8 %b, 200
  %ashr = ashr i32 %w, 3
  %sdiv = sdiv i32 %w, 4
  ret void
}
