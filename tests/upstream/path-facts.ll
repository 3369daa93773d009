; ModuleID = 'g0.ll'
source_filename = "g.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @quot(i32 noundef %x) #0 !dbg !10 {
entry:
    #dbg_value(i32 %x, !15, !DIExpression(), !16)
  %div = sdiv i32 %x, 42, !dbg !17
    #dbg_value(i32 %div, !18, !DIExpression(), !16)
  %0 = add i32 %x, 41, !dbg !19
  %spec.select = icmp ult i32 %0, 83, !dbg !19
    #dbg_value(i1 %spec.select, !20, !DIExpression(DW_OP_LLVM_convert, 1, DW_ATE_unsigned, DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_stack_value), !16)
  %cond = select i1 %spec.select, i32 %div, i32 24, !dbg !21
  ret i32 %cond, !dbg !22
}

; Function Attrs: noinline nounwind uwtable
define dso_local signext i16 @guarded(i16 noundef signext %x) #0 !dbg !23 {
entry:
    #dbg_value(i16 %x, !27, !DIExpression(), !28)
  %0 = add i16 %x, 42, !dbg !29
  %or.cond = icmp ult i16 %0, 85, !dbg !29
  br i1 %or.cond, label %if.then, label %return, !dbg !29

if.then:                                          ; preds = %entry
  %1 = sdiv i16 %x, 42, !dbg !31
    #dbg_value(i16 %1, !33, !DIExpression(), !34)
  %conv7 = sext i16 %1 to i32, !dbg !35
  call void @use(i32 noundef %conv7) #2, !dbg !36
  br label %return, !dbg !37

return:                                           ; preds = %entry, %if.then
  %retval.0 = phi i16 [ %1, %if.then ], [ 24, %entry ], !dbg !28
  ret i16 %retval.0, !dbg !38
}

declare void @use(i32 noundef) #1

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @sw(i32 noundef %k, i32 noundef %j) #0 !dbg !39 {
entry:
    #dbg_value(i32 %k, !42, !DIExpression(), !43)
    #dbg_value(i32 %j, !44, !DIExpression(), !43)
  switch i32 %k, label %sw.default [
    i32 5, label %sw.bb
    i32 9, label %sw.bb1
  ], !dbg !45

sw.bb:                                            ; preds = %entry
  %mul = mul nsw i32 %k, %j, !dbg !46
    #dbg_value(i32 %mul, !49, !DIExpression(), !50)
  call void @use(i32 noundef %mul) #2, !dbg !51
  br label %return, !dbg !52

sw.bb1:                                           ; preds = %entry
  call void @use(i32 noundef %k) #2, !dbg !53
  br label %return, !dbg !54

sw.default:                                       ; preds = %entry
  %add = add nsw i32 %k, %j, !dbg !55
    #dbg_value(i32 %add, !57, !DIExpression(), !58)
  call void @use(i32 noundef %add) #2, !dbg !59
  br label %return, !dbg !60

return:                                           ; preds = %sw.default, %sw.bb1, %sw.bb
  %retval.0 = phi i32 [ %add, %sw.default ], [ 3, %sw.bb1 ], [ %mul, %sw.bb ], !dbg !61
  ret i32 %retval.0, !dbg !62
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "g.c", directory: "", checksumkind: CSK_MD5, checksum: "926f7edcf26b26cbe030cce3c571fb05")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!10 = distinct !DISubprogram(name: "quot", scope: !1, file: !1, line: 2, type: !11, scopeLine: 2, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!11 = !DISubroutineType(types: !12)
!12 = !{!13, !13}
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = !{}
!15 = !DILocalVariable(name: "x", arg: 1, scope: !10, file: !1, line: 2, type: !13)
!16 = !DILocation(line: 0, scope: !10)
!17 = !DILocation(line: 3, column: 20, scope: !10)
!18 = !DILocalVariable(name: "quotient", scope: !10, file: !1, line: 3, type: !13)
!19 = !DILocation(line: 4, column: 27, scope: !10)
!20 = !DILocalVariable(name: "in_range", scope: !10, file: !1, line: 4, type: !13)
!21 = !DILocation(line: 5, column: 10, scope: !10)
!22 = !DILocation(line: 5, column: 3, scope: !10)
!23 = distinct !DISubprogram(name: "guarded", scope: !1, file: !1, line: 7, type: !24, scopeLine: 7, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!24 = !DISubroutineType(types: !25)
!25 = !{!26, !26}
!26 = !DIBasicType(name: "short", size: 16, encoding: DW_ATE_signed)
!27 = !DILocalVariable(name: "x", arg: 1, scope: !23, file: !1, line: 7, type: !26)
!28 = !DILocation(line: 0, scope: !23)
!29 = !DILocation(line: 8, column: 15, scope: !30)
!30 = distinct !DILexicalBlock(scope: !23, file: !1, line: 8, column: 7)
!31 = !DILocation(line: 9, column: 17, scope: !32)
!32 = distinct !DILexicalBlock(scope: !30, file: !1, line: 8, column: 26)
!33 = !DILocalVariable(name: "q", scope: !32, file: !1, line: 9, type: !26)
!34 = !DILocation(line: 0, scope: !32)
!35 = !DILocation(line: 10, column: 9, scope: !32)
!36 = !DILocation(line: 10, column: 5, scope: !32)
!37 = !DILocation(line: 11, column: 5, scope: !32)
!38 = !DILocation(line: 14, column: 1, scope: !23)
!39 = distinct !DISubprogram(name: "sw", scope: !1, file: !1, line: 15, type: !40, scopeLine: 15, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!40 = !DISubroutineType(types: !41)
!41 = !{!13, !13, !13}
!42 = !DILocalVariable(name: "k", arg: 1, scope: !39, file: !1, line: 15, type: !13)
!43 = !DILocation(line: 0, scope: !39)
!44 = !DILocalVariable(name: "j", arg: 2, scope: !39, file: !1, line: 15, type: !13)
!45 = !DILocation(line: 16, column: 3, scope: !39)
!46 = !DILocation(line: 17, column: 23, scope: !47)
!47 = distinct !DILexicalBlock(scope: !48, file: !1, line: 17, column: 11)
!48 = distinct !DILexicalBlock(scope: !39, file: !1, line: 16, column: 14)
!49 = !DILocalVariable(name: "m", scope: !47, file: !1, line: 17, type: !13)
!50 = !DILocation(line: 0, scope: !47)
!51 = !DILocation(line: 17, column: 28, scope: !47)
!52 = !DILocation(line: 17, column: 36, scope: !47)
!53 = !DILocation(line: 18, column: 11, scope: !48)
!54 = !DILocation(line: 18, column: 19, scope: !48)
!55 = !DILocation(line: 19, column: 24, scope: !56)
!56 = distinct !DILexicalBlock(scope: !48, file: !1, line: 19, column: 12)
!57 = !DILocalVariable(name: "n", scope: !56, file: !1, line: 19, type: !13)
!58 = !DILocation(line: 0, scope: !56)
!59 = !DILocation(line: 19, column: 29, scope: !56)
!60 = !DILocation(line: 19, column: 37, scope: !56)
!61 = !DILocation(line: 0, scope: !48)
!62 = !DILocation(line: 21, column: 1, scope: !39)
