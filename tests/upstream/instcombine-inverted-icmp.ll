define i8 @f(i64 %a, i64 %b, i8 %x, i8 %y, ptr %p) {
  %c = icmp ugt i64 %a, %b
  %n = xor i1 %c, true
  store i1 %n, ptr %p
  %s = select i1 %c, i8 %x, i8 %y
  ret i8 %s
}
