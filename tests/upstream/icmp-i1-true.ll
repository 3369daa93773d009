; An i1 compared with `true`: when dce deletes %n, salvageDebugInfo writes
; its record as `%c, DW_OP_constu 0xffffffffffffffff, DW_OP_ne`, the i1
; constant sign-extended. At c = 1 the source's n is false and the DWARF
; compares 1 with all ones: true (reports/upstream-triage.md, class 12).
define void @f(i1 %c) {
entry:
  %n = icmp ne i1 %c, true
  ret void
}
