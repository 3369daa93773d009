; ModuleID = 'tests/upstream/bdce-shifted-out.before.ll'
source_filename = "tests/upstream/bdce-shifted-out.ll"

define i32 @f(i32 %x, i32 %c) !dbg !5 {
  %a = and i32 0, 4, !dbg !13
    #dbg_value(i32 %a, !9, !DIExpression(), !13)
  %o = or i32 %a, %x, !dbg !14
    #dbg_value(i32 %o, !11, !DIExpression(), !14)
  %s = ashr i32 %o, 4, !dbg !15
    #dbg_value(i32 %s, !12, !DIExpression(), !15)
  ret i32 %s, !dbg !16
}

!llvm.dbg.cu = !{!0}
!llvm.debugify = !{!2, !3}
!llvm.module.flags = !{!4}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "debugify", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "tests/upstream/bdce-shifted-out.ll", directory: "/")
!2 = !{i32 4}
!3 = !{i32 3}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", linkageName: "f", scope: null, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !8)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !{!9, !11, !12}
!9 = !DILocalVariable(name: "1", scope: !5, file: !1, line: 1, type: !10)
!10 = !DIBasicType(name: "ty32", size: 32, encoding: DW_ATE_unsigned)
!11 = !DILocalVariable(name: "2", scope: !5, file: !1, line: 2, type: !10)
!12 = !DILocalVariable(name: "3", scope: !5, file: !1, line: 3, type: !10)
!13 = !DILocation(line: 1, column: 1, scope: !5)
!14 = !DILocation(line: 2, column: 1, scope: !5)
!15 = !DILocation(line: 3, column: 1, scope: !5)
!16 = !DILocation(line: 4, column: 1, scope: !5)
