define i32 @f(i32 %c, i32 %x) {
  %a = and i32 %c, 4
  %o = or i32 %a, %x
  %s = shl i32 %o, 30
  ret i32 %s
}
