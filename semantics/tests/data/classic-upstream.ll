; ModuleID = 'classic.c'
source_filename = "classic.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.S = type { i32, ptr }
%struct.Callback = type { void (i32)* }
%struct.Opaque = type opaque

$inline_fn = comdat any

@table = dso_local global [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 16, !dbg !0

; An upstream file with classic DW_OP expressions: they are kept as written.
define dso_local i32 @sum(ptr noundef %s, i32 noundef %n) #0 !dbg !12 {
entry:
  call void @llvm.dbg.value(metadata ptr %s, metadata !18, metadata !DIExpression()), !dbg !21
  tail call void @llvm.dbg.declare(metadata ptr %s, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 4, DW_OP_deref)), !dbg !21
  %cmp = icmp sgt i32 %n, 0
  br i1 %cmp, label %loop, label %done

loop:                                             ; preds = %loop, %entry
  %i = phi i32 [ 0, %entry ], [ %inc, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %add, %loop ]
    #dbg_value(!DIArgList(i32 %i, i32 %acc), !20, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !21)
    #dbg_value(i64 0, !20, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !21)
    #dbg_value({ ptr, i64, i64 } poison, !20, !DIExpression(), !21)
  %add = add nsw i32 %acc, %i
  %inc = add nuw nsw i32 %i, 1
  %exit = icmp eq i32 %inc, %n
  br i1 %exit, label %done, label %loop, !llvm.loop !22

done:                                             ; preds = %loop, %entry
  %r = phi i32 [ 0, %entry ], [ %add, %loop ]
  ret i32 %r
}

define void @empty() { ret void }

declare void @llvm.dbg.declare(metadata, metadata, metadata)

attributes #0 = { nounwind uwtable "frame-pointer"="all" }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!9, !10, !11}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "table", scope: !2, file: !3, line: 1, type: !5, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "clang version 18.1.0", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "classic.c", directory: "/src")
!4 = !{!0}
!5 = !DICompositeType(tag: DW_TAG_array_type, baseType: !6, size: 128, elements: !7)
!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !{!8}
!8 = !DISubrange(count: 4)
!9 = !{i32 7, !"Dwarf Version", i32 5}
!10 = !{i32 2, !"Debug Info Version", i32 3}
!11 = !{i32 1, !"wchar_size", i32 4}
!12 = distinct !DISubprogram(name: "sum", scope: !3, file: !3, line: 3, type: !13, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !17)
!13 = !DISubroutineType(types: !14)
!14 = !{!6, !15, !6}
!15 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !16, size: 64)
!16 = !DIDerivedType(tag: DW_TAG_typedef, name: "S", file: !3, line: 2, baseType: !6)
!17 = !{!18, !19, !20}
!18 = !DILocalVariable(name: "s", arg: 1, scope: !12, file: !3, line: 3, type: !15)
!19 = !DILocalVariable(name: "t", scope: !12, file: !3, line: 4, type: !16)
!20 = !DILocalVariable(name: "acc", scope: !12, file: !3, line: 5, type: !6)
!21 = !DILocation(line: 0, scope: !12)
!22 = distinct !{!22, !23}
!23 = !{!"llvm.loop.mustprogress"}
