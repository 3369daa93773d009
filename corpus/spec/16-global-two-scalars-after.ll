; source: seed 000, section "Global Variable Broken Into Two Scalars", lines 1358-1368
; typo: the spec prints `DIDeref()` (in !4 and !6); diopter reads `DIOpDeref()` (no operation DIDeref exists).
@g.lo = i32 !dbg.default !4
@g.hi = i32 !dbg.default !6

!1 = !DIGlobalVariable("g")
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(1, i32), DIOpArg(0, i32), DIOpComposite(2, i64)), argObjects: {!3, !5})
!3 = distinct !DIFragment()
!4 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpReferrer(i32 addrspace(1)*), DIOpDeref()))
!5 = distinct !DIFragment()
!6 = distinct !DILifetime(object: !5, location: !DIExpr(DIOpReferrer(i32 addrspace(1)*), DIOpDeref()))
