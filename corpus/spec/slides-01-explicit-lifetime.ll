; source: seed 004, slide "Supports Explicit Lifetime of Variables", lines 316-328
; typo: the slides print `!1 = distinct !DILifetime(object: !0` / `location: ...` with no comma between `object: !0` and `location:`; diopter reads `object: !0, location: ...`.
; note: the slide wraps !1 over two lines; joined onto one line. Trailing whitespace of the slide text removed.
define void @func() {
    %var.alloca = alloca i32
    call void @llvm.dbg.def(metadata !1, metadata ptr %var.alloca)
    ; ...
    call void @llvm.dbg.kill(metadata !1)
    ret void
}

!0 = !DILocalVariable(name: "var")
!1 = distinct !DILifetime(object: !0, location: !DIExpr(DIOpReferrer(ptr), DIOpDeref(i32)))
