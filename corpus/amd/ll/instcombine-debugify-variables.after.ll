; AFTER: written by hand from the DIOP-DBGINFO CHECK lines of AMD's test llvm/test/Transforms/InstCombine/debuginfo-variables.ll
; (RadeonOpenCompute/llvm-project, commit f2f33aa5cd0504209eabed6758fa411c5a0c3481) for the before file's functions.
; FileCheck variables: [[C2]] -> %c2, {{.*}} (the variable) -> the before file's variable in CHECK order.
; The before file is corpus/amd/ll/instcombine-debugify-variables.before.ll.

define i64 @test_sext_zext(i16 %A) !dbg !3 {
  %c2 = zext i16 %A to i64
    #dbg_value(i64 %c2, !6, !DIExpression(DIOpArg(0, i64), DIOpConvert(i32)), !9)
    #dbg_value(i64 %c2, !7, !DIExpression(DIOpArg(0, i64)), !9)
  ret i64 %c2
}

define void @test_sub_neg(i64 %A) !dbg !10 {
    #dbg_value(i64 %A, !11, !DIExpression(DIOpArg(0, i64), DIOpConstant(i64 -1), DIOpSub()), !12)
  ret void
}

define void @test_shl(i64 %A) !dbg !13 {
    #dbg_value(i64 %A, !14, !DIExpression(DIOpArg(0, i64), DIOpConstant(i64 7), DIOpShl()), !15)
  ret void
}

define void @test_srem(i64 %A) !dbg !16 {
    #dbg_value(i64 poison, !17, !DIExpression(DIOpArg(0, i64)), !18)
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "debugify", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.ll", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "test_sext_zext", linkageName: "test_sext_zext", scope: null, file: !1, line: 1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!4 = !DISubroutineType(types: !5)
!5 = !{}
!6 = !DILocalVariable(name: "1", scope: !3, file: !1, line: 1, type: !8)
!7 = !DILocalVariable(name: "2", scope: !3, file: !1, line: 2, type: !19)
!8 = !DIBasicType(name: "ty32", size: 32, encoding: DW_ATE_unsigned)
!9 = !DILocation(line: 1, column: 1, scope: !3)
!10 = distinct !DISubprogram(name: "test_sub_neg", linkageName: "test_sub_neg", scope: null, file: !1, line: 4, type: !4, scopeLine: 4, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!11 = !DILocalVariable(name: "4", scope: !10, file: !1, line: 4, type: !19)
!12 = !DILocation(line: 4, column: 1, scope: !10)
!13 = distinct !DISubprogram(name: "test_shl", linkageName: "test_shl", scope: null, file: !1, line: 6, type: !4, scopeLine: 6, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!14 = !DILocalVariable(name: "6", scope: !13, file: !1, line: 6, type: !19)
!15 = !DILocation(line: 6, column: 1, scope: !13)
!16 = distinct !DISubprogram(name: "test_srem", linkageName: "test_srem", scope: null, file: !1, line: 8, type: !4, scopeLine: 8, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!17 = !DILocalVariable(name: "8", scope: !16, file: !1, line: 8, type: !19)
!18 = !DILocation(line: 8, column: 1, scope: !16)
!19 = !DIBasicType(name: "ty64", size: 64, encoding: DW_ATE_unsigned)
