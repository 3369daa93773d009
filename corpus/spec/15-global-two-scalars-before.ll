; source: seed 000, section "Global Variable Broken Into Two Scalars", lines 1349-1354
; typo: the spec prints `DIDeref()`; diopter reads `DIOpDeref()` (no operation DIDeref exists).
; note: `@g = i64 !dbg.default !2` is pseudo IR (no addrspace(1) although the referrer type is `i64 addrspace(1)*`); left as printed.
@g = i64 !dbg.default !2

!1 = !DIGlobalVariable("g")
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64 addrspace(1)*), DIOpDeref()))
