; ModuleID = 'before.ll'
source_filename = "min.ll"

define i32 @f(i32 %x) !dbg !5 {
    #dbg_value(i32 %x, !9, !DIExpression(DW_OP_plus_uconst, 4194299, DW_OP_stack_value), !12)
  %sub = shl i32 %x, 10, !dbg !13
  %shl = add i32 %sub, -5120, !dbg !13
    #dbg_value(i32 %shl, !11, !DIExpression(), !13)
  ret i32 %shl, !dbg !14
}

!llvm.dbg.cu = !{!0}
!llvm.debugify = !{!2, !3}
!llvm.module.flags = !{!4}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "debugify", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "min.ll", directory: "/")
!2 = !{i32 3}
!3 = !{i32 2}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", linkageName: "f", scope: null, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !8)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !{!9, !11}
!9 = !DILocalVariable(name: "1", scope: !5, file: !1, line: 1, type: !10)
!10 = !DIBasicType(name: "ty32", size: 32, encoding: DW_ATE_unsigned)
!11 = !DILocalVariable(name: "2", scope: !5, file: !1, line: 2, type: !10)
!12 = !DILocation(line: 1, column: 1, scope: !5)
!13 = !DILocation(line: 2, column: 1, scope: !5)
!14 = !DILocation(line: 3, column: 1, scope: !5)
