; ModuleID = 'poison.ll'
source_filename = "poison.ll"

define i32 @g(i8 %x, i32 %y) !dbg !5 {
  %z = sext i8 %x to i32, !dbg !14
    #dbg_value(i32 %z, !9, !DIExpression(), !14)
    #dbg_value(i32 %y, !11, !DIExpression(DW_OP_plus_uconst, 2, DW_OP_stack_value), !15)
  %r = add i32 %z, %y, !dbg !18
  %r2 = add i32 %r, 1, !dbg !18
  ret i32 %r2, !dbg !18
}

!llvm.dbg.cu = !{!0}
!llvm.debugify = !{!2, !3}
!llvm.module.flags = !{!4}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "debugify", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "poison.ll", directory: "/")
!2 = !{i32 5}
!3 = !{i32 4}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "g", linkageName: "g", scope: null, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !8)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !{!9, !11}
!9 = !DILocalVariable(name: "1", scope: !5, file: !1, line: 1, type: !10)
!10 = !DIBasicType(name: "ty32", size: 32, encoding: DW_ATE_unsigned)
!11 = !DILocalVariable(name: "2", scope: !5, file: !1, line: 2, type: !10)
!14 = !DILocation(line: 1, column: 1, scope: !5)
!15 = !DILocation(line: 2, column: 1, scope: !5)
!18 = !DILocation(line: 5, column: 1, scope: !5)
