; The input of the spec's CSE example (seed 000, "Common Subexpression
; Elimination (CSE)", l. 1465-1673) in the extensions' form, for
; `diopter transform --pass cse` (oracles/tests/transform_spec.rs checks the
; result against corpus/spec/21-cse-expected.ll).
;
; The spec prints no such input: it prints the program after SROA+mem2reg
; (l. 1488-1511) and the i386 EarlyCSE input of the modified source
; (l. 1610-1631) with llvm.dbg.value, and the expected result (l. 1645-1670)
; with llvm.dbg.def. This file is that result before EarlyCSE: the two loads
; of `*bar` that `int redundant = *bar; int loaded = *bar;` compile to, each
; value def'ing its variable's lifetime (`redundant` !17 in %0 by !22,
; `loaded` !18 in %1 by !23), both writable `DIOpReferrer(i32)`, and
; `%add = add nsw i32 %more, %1` as in l. 1500. Metadata numbers, the
; argument order of llvm.dbg.def and the lifetimes follow
; 21-cse-expected.ll (with its typo corrections); the stale `!dbg`/`!tbaa`
; attachments are left out, and the dead `and`/store/reload of the source
; are not modelled (the expected result has none of them).
define dso_local i32 @foo(i32* %bar, i32 %arg, i32 %more) #0 {
entry:
  call void @llvm.dbg.def(metadata !19, metadata i32* %bar)
  call void @llvm.dbg.def(metadata !20, metadata i32 %arg)
  call void @llvm.dbg.def(metadata !21, metadata i32 %more)
  %0 = load i32, i32* %bar, align 4
  call void @llvm.dbg.def(metadata !22, metadata i32 %0)
  %1 = load i32, i32* %bar, align 4
  call void @llvm.dbg.def(metadata !23, metadata i32 %1)
  %add = add nsw i32 %more, %1
  ret i32 %add
}

!14 = !DILocalVariable("bar", ...)
!15 = !DILocalVariable("arg", ...)
!16 = !DILocalVariable("more", ...)
!17 = !DILocalVariable("redundant", ...)
!18 = !DILocalVariable("loaded", ...)
!19 = distinct !DILifetime(object: !14, location: !DIExpr(DIOpReferrer(i32*)))
!20 = distinct !DILifetime(object: !15, location: !DIExpr(DIOpReferrer(i32)))
!21 = distinct !DILifetime(object: !16, location: !DIExpr(DIOpReferrer(i32)))
!22 = distinct !DILifetime(object: !17, location: !DIExpr(DIOpReferrer(i32)))
!23 = distinct !DILifetime(object: !18, location: !DIExpr(DIOpReferrer(i32)))
