; ModuleID = 'clz0.ll'
source_filename = "call-range.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @bytes_full(i32 noundef %x) #0 !dbg !10 {
entry:
    #dbg_value(i32 %x, !16, !DIExpression(), !17)
  %0 = call i32 @llvm.ctlz.i32(i32 %x, i1 true), !dbg !18
    #dbg_value(i32 %0, !19, !DIExpression(), !17)
  %shr = ashr i32 %0, 3, !dbg !20
    #dbg_value(i32 %shr, !21, !DIExpression(), !17)
  %cmp = icmp eq i32 %shr, 5, !dbg !22
  %conv = zext i1 %cmp to i32, !dbg !22
    #dbg_value(i32 %conv, !23, !DIExpression(), !17)
  call void @use(i32 noundef %conv), !dbg !24
  ret i32 %conv, !dbg !25
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.ctlz.i32(i32, i1 immarg) #1

declare void @use(i32 noundef) #2

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "call-range.c", directory: "", checksumkind: CSK_MD5, checksum: "8721d6cddef935521da1b95f3299ab04")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!10 = distinct !DISubprogram(name: "bytes_full", scope: !1, file: !1, line: 2, type: !11, scopeLine: 2, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !15)
!11 = !DISubroutineType(types: !12)
!12 = !{!13, !14}
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!15 = !{}
!16 = !DILocalVariable(name: "x", arg: 1, scope: !10, file: !1, line: 2, type: !14)
!17 = !DILocation(line: 0, scope: !10)
!18 = !DILocation(line: 3, column: 12, scope: !10)
!19 = !DILocalVariable(name: "lz", scope: !10, file: !1, line: 3, type: !13)
!20 = !DILocation(line: 4, column: 18, scope: !10)
!21 = !DILocalVariable(name: "bytes", scope: !10, file: !1, line: 4, type: !13)
!22 = !DILocation(line: 5, column: 19, scope: !10)
!23 = !DILocalVariable(name: "all", scope: !10, file: !1, line: 5, type: !13)
!24 = !DILocation(line: 6, column: 3, scope: !10)
!25 = !DILocation(line: 7, column: 3, scope: !10)
