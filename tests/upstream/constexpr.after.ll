; A record over a GEP that SCCP folds into a constant expression (hand-written).
%Ty = type { i32, i32 }
@X2 = global %Ty zeroinitializer

define ptr @field() !dbg !5 {
    #dbg_value(ptr getelementptr inbounds (i8, ptr @X2, i64 4), !9, !DIExpression(), !14)
  ret ptr getelementptr inbounds (i8, ptr @X2, i64 4), !dbg !15
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "hand", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "constexpr.ll", directory: "/")
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "field", linkageName: "field", scope: null, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !8)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !{!9}
!9 = !DILocalVariable(name: "p", scope: !5, file: !1, line: 1, type: !10)
!10 = !DIBasicType(name: "ty64", size: 64, encoding: DW_ATE_unsigned)
!14 = !DILocation(line: 1, column: 1, scope: !5)
!15 = !DILocation(line: 2, column: 1, scope: !5)
