# diopter_stops(table, n): for each of the n stops of the table, load the
# general registers rax, rdx, rcx, rbx, rsi, rdi, r8-r15 (DWARF registers 0-5
# and 8-15, 8 bytes each) and xmm0-xmm15 (DWARF 17-32, 16 bytes each) from
# the stop's 368 bytes, and pass diopter_stop, where the debugger has its
# breakpoint. rsp and rbp keep the frame; the loop's state lives in memory
# because every other register is the cases'.
        .text
        .globl  diopter_stops
        .type   diopter_stops, @function
diopter_stops:
        .cfi_startproc
        pushq   %rbx
        .cfi_def_cfa_offset 16
        pushq   %rbp
        .cfi_def_cfa_offset 24
        pushq   %r12
        .cfi_def_cfa_offset 32
        pushq   %r13
        .cfi_def_cfa_offset 40
        pushq   %r14
        .cfi_def_cfa_offset 48
        pushq   %r15
        .cfi_def_cfa_offset 56
        .cfi_offset %rbx, -16
        .cfi_offset %rbp, -24
        .cfi_offset %r12, -32
        .cfi_offset %r13, -40
        .cfi_offset %r14, -48
        .cfi_offset %r15, -56
        movq    %rdi, diopter_cur(%rip)
        movq    %rsi, diopter_left(%rip)
1:
        cmpq    $0, diopter_left(%rip)
        je      2f
        movq    diopter_cur(%rip), %rax
        movdqu  112(%rax), %xmm0
        movdqu  128(%rax), %xmm1
        movdqu  144(%rax), %xmm2
        movdqu  160(%rax), %xmm3
        movdqu  176(%rax), %xmm4
        movdqu  192(%rax), %xmm5
        movdqu  208(%rax), %xmm6
        movdqu  224(%rax), %xmm7
        movdqu  240(%rax), %xmm8
        movdqu  256(%rax), %xmm9
        movdqu  272(%rax), %xmm10
        movdqu  288(%rax), %xmm11
        movdqu  304(%rax), %xmm12
        movdqu  320(%rax), %xmm13
        movdqu  336(%rax), %xmm14
        movdqu  352(%rax), %xmm15
        movq    8(%rax), %rdx
        movq    16(%rax), %rcx
        movq    24(%rax), %rbx
        movq    32(%rax), %rsi
        movq    40(%rax), %rdi
        movq    48(%rax), %r8
        movq    56(%rax), %r9
        movq    64(%rax), %r10
        movq    72(%rax), %r11
        movq    80(%rax), %r12
        movq    88(%rax), %r13
        movq    96(%rax), %r14
        movq    104(%rax), %r15
        movq    0(%rax), %rax
        .globl  diopter_stop
diopter_stop:
        nop
        addq    $368, diopter_cur(%rip)
        decq    diopter_left(%rip)
        jmp     1b
2:
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbp
        popq    %rbx
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .globl  diopter_stops_end
diopter_stops_end:
        .size   diopter_stops, diopter_stops_end - diopter_stops

        .bss
        .p2align 3
diopter_cur:
        .zero   8
diopter_left:
        .zero   8
        .section .note.GNU-stack,"",@progbits
