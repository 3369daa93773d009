; source: seed 004, slide "Original Expression Mechanically Updated with Dependencies" (first version), lines 411-431
; typo: the slides print `DIOpArg(!1, i16), DIOpArg(!0, i16)`; diopter reads `DIOpArg(1, i16), DIOpArg(0, i16)` (the DIOpArg index is a literal position in argObjects, not a metadata reference).
; typo: the slides print `DIOpComposite(2, i32)` and `DIOpAddr(0)` on consecutive lines with no comma between them; diopter reads `DIOpComposite(2, i32), DIOpAddrOf(0)`.
; typo: the slides print `DIOpAddr(0)`; diopter reads `DIOpAddrOf(0)` (no operation DIOpAddr exists; the referrer alloca was replaced by the composite, hence AddrOf then Deref).
; note: the slide wraps !1, !3 and !5 over several lines; joined onto one line each.
define void @func() {
    %var.alloca.lo = alloca i16
    call void @llvm.dbg.def(metadata !3, metadata ptr %var.alloca.lo)
    %var.alloca.hi = alloca i16
    call void @llvm.dbg.def(metadata !5, metadata ptr %var.alloca.hi)
    ret void
}

!0 = !DILocalVariable(name: "var")
!1 = distinct !DILifetime(object: !0, location: !DIExpr(DIOpArg(1, i16), DIOpArg(0, i16), DIOpComposite(2, i32), DIOpAddrOf(0), DIOpDeref(i32)), argObjects: {!2, !4})
!2 = distinct !DIFragment()
!3 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpReferrer(ptr), DIOpDeref(i16)))
!4 = distinct !DIFragment()
!5 = distinct !DILifetime(object: !4, location: !DIExpr(DIOpReferrer(ptr), DIOpDeref(i16)))
