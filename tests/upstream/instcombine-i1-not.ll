define i8 @f(i1 %t, i8 %x, i8 %y) {
  %n = xor i1 %t, true
  %s = select i1 %n, i8 %x, i8 %y
  ret i8 %s
}
