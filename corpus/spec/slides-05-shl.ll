; source: seed 004, slide "Mechanical Updates Compose Naturally", lines 458-470
; typo: the slides print `DIOpShl(1)`; diopter reads `DIOpConstant(i32 1), DIOpShl()` (DIOpShl takes no parameter and pops two entries; the shift amount is pushed last, cf. `DW_OP_constu 1, DW_OP_shl` on the slide "Induction Variable Optimization").
; note: the slide wraps !1 over two lines; joined onto one line.
define void @func() {
    %var.alloca = alloca i32, align 4
    call void @llvm.dbg.def(metadata !1, metadata ptr %var.alloca)
    ; ...
    call void @llvm.dbg.kill(metadata !1)
    ret void
}

!0 = !DILocalVariable(name: "var")
!1 = distinct !DILifetime(object: !0, location: !DIExpr(DIOpReferrer(ptr), DIOpDeref(i32), DIOpConstant(i32 1), DIOpShl()))
