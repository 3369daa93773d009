define i32 @f(i32 %x) {
  %sub = sub i32 %x, 5
  %shl = shl i32 %sub, 10
  ret i32 %shl
}
