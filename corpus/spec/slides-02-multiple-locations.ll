; source: seed 004, slide "Supports Multiple Locations", lines 332-349
; typo: the slides print `!1 = distinct !DILifetime(object: !0 location: !DIExpr(...))` and the same for !2, with no comma between `object: !0` and `location:`; diopter reads `object: !0, location: ...`.
; typo: the slides print `!DIExpr(...)` for both lifetimes and `call void @llvm.dbg.def(metadata !1, ...)` / `(metadata !2, ...)` (placeholders); diopter reads the instantiation below, chosen after the slide "Multiple Locations" (value in memory and in a register at once): !1 = `!DIExpr(DIOpReferrer(ptr), DIOpDeref(i32))` defined with `metadata ptr %var.alloca`, !2 = `!DIExpr(DIOpReferrer(i32))` defined with `metadata i32 %var`.
; note: instantiation adds two opaque lines that define the referrers: `%var.alloca = alloca i32` (as in the neighbouring slides) and `%var = load i32, ptr %var.alloca`. The metadata lines stand outside the code box on the slide. Trailing whitespace removed.
define void @func() {
    %var.alloca = alloca i32
    call void @llvm.dbg.def(metadata !1, metadata ptr %var.alloca)
    ; ...
    %var = load i32, ptr %var.alloca
    call void @llvm.dbg.def(metadata !2, metadata i32 %var)
    ; ...
    call void @llvm.dbg.kill(metadata !1)
    ; ...
    call void @llvm.dbg.kill(metadata !2)
    ret void
}

!0 = !DILocalVariable(name: "var")

!1 = distinct !DILifetime(object: !0, location: !DIExpr(DIOpReferrer(ptr), DIOpDeref(i32)))

!2 = distinct !DILifetime(object: !0, location: !DIExpr(DIOpReferrer(i32)))
