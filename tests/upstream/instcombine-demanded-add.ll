define i1 @f(i32 %a) {
  %v = add nuw i32 %a, -16
  %t = trunc i32 %v to i1
  ret i1 %t
}
