define i64 @f(i64 %a, i64 %b) {
  %c = icmp ult i64 %a, %b
  %u = icmp ult i64 %a, 5
  ret i64 %a
}
