; ModuleID = 'src.ll'
source_filename = "s.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local zeroext i16 @f(i16 noundef signext %a, i32 noundef %c) #0 !dbg !12 {
entry:
    #dbg_value(i16 %a, !18, !DIExpression(), !19)
    #dbg_value(i32 %c, !20, !DIExpression(), !19)
    #dbg_value(i16 %a, !21, !DIExpression(DW_OP_LLVM_convert, 16, DW_ATE_signed, DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_stack_value), !19)
  %tobool.not = icmp eq i32 %c, 0, !dbg !23
  %conv2 = select i1 %tobool.not, i16 %a, i16 109, !dbg !24
    #dbg_value(i16 %conv2, !25, !DIExpression(DW_OP_LLVM_convert, 16, DW_ATE_unsigned, DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_stack_value), !19)
  ret i16 %conv2, !dbg !26
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4, !5, !6, !7, !8, !9, !10}
!llvm.ident = !{!11}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !2, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "s.c", directory: "/tmp/h", checksumkind: CSK_MD5, checksum: "8a533057499aec628b5c394647df0905")
!2 = !{!3}
!3 = !DIBasicType(name: "unsigned short", size: 16, encoding: DW_ATE_unsigned)
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !{i32 1, !"wchar_size", i32 4}
!7 = !{i32 8, !"PIC Level", i32 2}
!8 = !{i32 7, !"PIE Level", i32 2}
!9 = !{i32 7, !"uwtable", i32 2}
!10 = !{i32 7, !"frame-pointer", i32 2}
!11 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!12 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !13, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !17)
!13 = !DISubroutineType(types: !14)
!14 = !{!3, !15, !16}
!15 = !DIBasicType(name: "short", size: 16, encoding: DW_ATE_signed)
!16 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!17 = !{}
!18 = !DILocalVariable(name: "a", arg: 1, scope: !12, file: !1, line: 1, type: !15)
!19 = !DILocation(line: 0, scope: !12)
!20 = !DILocalVariable(name: "c", arg: 2, scope: !12, file: !1, line: 1, type: !16)
!21 = !DILocalVariable(name: "conv", scope: !12, file: !1, line: 2, type: !22)
!22 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!23 = !DILocation(line: 3, column: 22, scope: !12)
!24 = !DILocation(line: 4, column: 10, scope: !12)
!25 = !DILocalVariable(name: "sel", scope: !12, file: !1, line: 3, type: !22)
!26 = !DILocation(line: 4, column: 3, scope: !12)
