; bdce-dead-operand.ll with the dead operand a call's result: BDCE sets
; the use of %c in `and i32 %c, 4` to 0 (bit 2 is shifted out) and the
; record of %a stays. The call is reached through the rewritten `and`, so
; it is a free value and the refutation stands (tests/upstream_cli.rs,
; a_call_whose_uses_the_pass_replaced_is_an_unknown_relation).
define i32 @f(i32 %x) {
entry:
  %c = call i32 @g()
  %a = and i32 %c, 4
  %o = or i32 %a, %x
  %s = shl i32 %o, 30
  ret i32 %s
}

declare i32 @g()
