; instsimplify knows atanf(-0.0) is -0.0 and gives the call's users the
; constant, keeping the call (it may set errno). diopter does not model
; library functions: the record's refutation rests on the call's value,
; an unknown relation (tests/upstream_cli.rs,
; a_call_whose_uses_the_pass_replaced_is_an_unknown_relation).
define float @f() {
entry:
  %call = call float @atanf(float -0.0)
  ret float %call
}

declare float @atanf(float)
