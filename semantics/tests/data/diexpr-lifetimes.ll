; The spec's DIExpr dialect in a real function: typed pointers, bounded
; lifetimes defined and killed across blocks (one killed inside a loop), a
; computed lifetime over two DIFragments, a lifetime whose location is a
; separate !DIExpr node, a default lifetime of a global, and a type lifetime
; of an array type. The DILifetime !2 is wrapped over two lines, as the
; slides print it.
target datalayout = "e-p:64:64-p1:64:64-p5:32:32-A5"

@g = addrspace(1) global i64 0, !dbg.default !11

define void @f(i32 %c, i64 %v) {
entry:
  %x.addr = alloca i64, addrspace(5)
  call void @llvm.dbg.def(metadata !2, metadata i64 addrspace(5)* %x.addr)
  %x.lo = trunc i64 %v to i32
  call void @llvm.dbg.def(metadata !5, metadata i32 %x.lo)
  %cond = icmp eq i32 %c, 0
  br i1 %cond, label %then, label %exit

then:
  call void @llvm.dbg.def(metadata !7, metadata i32 undef)
  br label %loop

loop:
  call void @llvm.dbg.kill(metadata !7)
  br i1 %cond, label %loop, label %exit

exit:
  call void @llvm.dbg.kill(metadata !5)
  call void @llvm.dbg.kill(metadata !2)
  ret void
}

declare void @llvm.dbg.def(metadata, metadata)
declare void @llvm.dbg.kill(metadata)

!1 = !DILocalVariable(name: "x", type: !20)
!2 = distinct !DILifetime(object: !1,
                          location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref()))
!3 = !DILocalVariable(name: "y", type: !20)
!4 = distinct !DIFragment()
!5 = distinct !DILifetime(object: !4, location: !6)
!6 = !DIExpr(DIOpReferrer(i32))
!7 = distinct !DILifetime(object: !8, location: !DIExpr(DIOpReferrer(i32)))
!8 = distinct !DIFragment()
!9 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpArg(1, i32), DIOpArg(0, i32), DIOpComposite(2, i64)), argObjects: {!4, !8})
!10 = !DIGlobalVariable(name: "g", type: !20)
!11 = distinct !DILifetime(object: !10, location: !DIExpr(DIOpReferrer(i64 addrspace(1)*), DIOpDeref()))
!12 = !DILocalVariable(name: "arr", type: !13)
!13 = !DICompositeType(tag: DW_TAG_array_type, baseType: !20, size: 256, dataLocation: !14)
!14 = distinct !DILifetime(location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref()))
!20 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
