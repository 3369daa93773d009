; ptr-compare.before.ll after the pass: @sunk's record salvaged as
; InstCombine 19 writes it when it sinks the compare into %taken (right),
; @wrong's with DW_OP_eq for `icmp ne` (wrong for every pointer).
define i1 @sunk(ptr %a) !dbg !5 {
entry:
    #dbg_value(!DIArgList(ptr %a, ptr null), !9, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_ne, DW_OP_stack_value), !12)
  br label %taken

taken:
  %cmp = icmp ne ptr %a, null, !dbg !12
  ret i1 %cmp
}

define i1 @wrong(ptr %a) !dbg !13 {
entry:
    #dbg_value(!DIArgList(ptr %a, ptr null), !14, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_eq, DW_OP_stack_value), !15)
  br label %taken

taken:
  %cmp = icmp ne ptr %a, null, !dbg !15
  ret i1 %cmp
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "debugify", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "ptr-compare.ll", directory: "/")
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "sunk", linkageName: "sunk", scope: null, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !7)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DIBasicType(name: "ty8", size: 8, encoding: DW_ATE_unsigned)
!9 = !DILocalVariable(name: "1", scope: !5, file: !1, line: 1, type: !8)
!12 = !DILocation(line: 1, column: 1, scope: !5)
!13 = distinct !DISubprogram(name: "wrong", linkageName: "wrong", scope: null, file: !1, line: 2, type: !6, scopeLine: 2, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !7)
!14 = !DILocalVariable(name: "2", scope: !13, file: !1, line: 2, type: !8)
!15 = !DILocation(line: 2, column: 1, scope: !13)
