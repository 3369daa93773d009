define i32 @f(i32 %x, i32 %c) {
  %a = and i32 %c, 4
  %o = or i32 %a, %x
  %s = ashr i32 %o, 4
  ret i32 %s
}
