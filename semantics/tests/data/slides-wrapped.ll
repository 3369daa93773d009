; The slides' layout: metadata nodes wrapped over several lines, with a
; comment line inside a node, and opaque pointers.
define void @func() {
    %var.alloca.lo = alloca i16
    call void @llvm.dbg.def(metadata !3, metadata ptr %var.alloca.lo)
    %var.alloca.hi = alloca i16
    call void @llvm.dbg.def(metadata !5, metadata ptr %var.alloca.hi)
    ret void
}

!0 = !DILocalVariable(name: "var")
!1 = distinct !DILifetime(
    object: !0,
    ; the high half is argument 1
    location: !DIExpr(DIOpArg(1, i16), DIOpArg(0, i16),
                      DIOpComposite(2, i32)),
    argObjects: {!2, !4})
!2 = distinct !DIFragment()
!3 = distinct !DILifetime(object: !2,
    location: !DIExpr(DIOpReferrer(ptr), DIOpDeref(i16)))
!4 = distinct !DIFragment()
!5 = distinct !DILifetime(object: !4,
    location: !DIExpr(DIOpReferrer(ptr), DIOpDeref(i16)))
