; A MIR-like body after register allocation, in the spec's DBG_DEF/DBG_KILL
; form: a value lives in a register, is spilled (both locations live at once),
; the register is clobbered, and the stack slot dies in a later block.
define void @spill() {
bb.0:
  $vgpr0 = V_MOV_B32_e32 7, implicit $exec
  DBG_DEF !2, $vgpr0
  SCRATCH_STORE_DWORD_SADDR $vgpr0, %stack.0, 0, 0, implicit $exec
  DBG_DEF !3, %stack.0
  $vgpr0 = V_MOV_B32_e32 0, implicit $exec ; clobber
  DBG_KILL !2
  br label %bb.1

bb.1:
  DBG_KILL !3
  RETURN
}

!1 = !DILocalVariable(name: "x", type: !4)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))
!3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(ptr addrspace(5)), DIOpDeref(i32)))
!4 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
