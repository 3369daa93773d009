; Two assumptions make a signed division an unsigned one: x <= 0 and
; y >= 0 give x / y = -((0 - x) /u y). correlated-propagation rewrites
; it so, and the record of %q follows (tests/upstream_cli.rs,
; an_assumption_before_a_record_is_a_fact).
define i8 @f(i8 %x, i8 %y) {
entry:
  %c0 = icmp sle i8 %x, 0
  call void @llvm.assume(i1 %c0)
  %c1 = icmp sge i8 %y, 0
  call void @llvm.assume(i1 %c1)
  %q = sdiv i8 %x, %y
  ret i8 %q
}

declare void @llvm.assume(i1)
