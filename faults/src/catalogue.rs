//! The planted faults: each a realistic one-line mistake at one site
//! (`planted!("name")` in the engine's code), in the component the
//! benchmark's report groups it under. The descriptions were written from
//! reading the code, not the generator: a fault says what a programmer
//! could get wrong there, not what a search is known to find.

/// One planted fault.
#[derive(Clone, Copy, Debug)]
pub struct Fault {
    pub name: &'static str,
    /// fast, simplifier, lowering, ext, tv, parse-print.
    pub component: &'static str,
    /// The file (and function) of its site.
    pub site: &'static str,
    /// What the mistake is.
    pub mistake: &'static str,
}

const fn f(
    name: &'static str,
    component: &'static str,
    site: &'static str,
    mistake: &'static str,
) -> Fault {
    Fault {
        name,
        component,
        site,
        mistake,
    }
}

/// Every planted fault.
pub const FAULTS: [Fault; 33] = [
    f(
        "fast-sdiv-unsigned",
        "fast",
        "oracles/fast/src/arith.rs int_lane",
        "DIOpDiv on a lane of at most 128 bits divides the operands as unsigned numbers (the sign extension forgotten)",
    ),
    f(
        "fast-srem-euclid",
        "fast",
        "oracles/fast/src/arith.rs int_lane",
        "DIOpMod takes the Euclidean remainder (never negative) instead of the truncating one (sign of the dividend)",
    ),
    f(
        "fast-ashr-oversize-sign",
        "fast",
        "oracles/fast/src/arith.rs int_lane",
        "DIOpAShr by the width or more gives 0 for a negative value (should be all ones, the sign fill)",
    ),
    f(
        "fast-shl-unmasked",
        "fast",
        "oracles/fast/src/arith.rs int_lane",
        "DIOpShl on a lane narrower than 128 bits keeps the bits shifted past the width (the mask forgotten)",
    ),
    f(
        "fast-float-to-int-bound",
        "fast",
        "oracles/fast/src/arith.rs float_to_int",
        "float to iN conversion accepts 2^(N-1) and more (only the lower bound checked): out of range is no longer an error",
    ),
    f(
        "fast-wide-sub-borrow",
        "fast",
        "oracles/fast/src/arith.rs wide_int",
        "DIOpSub on integers wider than 128 bits drops the borrow out of subtracting the incoming borrow",
    ),
    f(
        "fast-offset-zext",
        "fast",
        "oracles/fast/src/exec.rs Machine::step (Offset)",
        "DIOpOffset/DIOpBitOffset/DIOpByteOffset read a displacement of at most 128 bits zero-extended: negative offsets become huge",
    ),
    f(
        "fast-sext-as-zext",
        "fast",
        "oracles/fast/src/exec.rs Machine::step (Ext)",
        "DIOpSExt to at most 128 bits zero-extends",
    ),
    f(
        "fast-select-inverted",
        "fast",
        "oracles/fast/src/exec.rs Machine::step (Select)",
        "DIOpSelect takes the part from the other location than the mask bit says",
    ),
    f(
        "simplify-applies-refuted",
        "simplifier",
        "oracles/rules/src/simplify/mod.rs Simplifier::new",
        "a wrong rule slipped past the prover: the rules under corpus/rules/refuted/ (which the prover refutes) are applied too",
    ),
    f(
        "simplify-ignores-preconditions",
        "simplifier",
        "oracles/rules/src/simplify/mod.rs Simplifier::rewrite",
        "a rule is applied without its `where` preconditions on the matched constants",
    ),
    f(
        "simplify-ignores-type-conditions",
        "simplifier",
        "oracles/rules/src/simplify/mod.rs Simplifier::rewrite",
        "a rule is applied without its conditions on the matched types (widths, sizes)",
    ),
    f(
        "simplify-const-hole-recurs",
        "simplifier",
        "oracles/rules/src/simplify/mod.rs match_node",
        "a constant hole that occurs twice in a rule's left side matches two different constants",
    ),
    f(
        "simplify-expr-hole-recurs",
        "simplifier",
        "oracles/rules/src/simplify/mod.rs match_node",
        "a value hole that occurs twice in a rule's left side matches two different subexpressions",
    ),
    f(
        "simplify-fold-sext-as-zext",
        "simplifier",
        "oracles/rules/src/term.rs eval_term",
        "folding a proved rule's term, sign extension is computed as zero extension (a wrong application of a right rule)",
    ),
    f(
        "lower-no-sign-extend",
        "lowering",
        "oracles/dwarf/src/lower/read.rs Lowering::sign_extend_top",
        "a narrow integer (iN in a wider container) is not sign-extended again after an operation that may leave the N-bit range",
    ),
    f(
        "lower-zext-mask-short",
        "lowering",
        "oracles/dwarf/src/lower/read.rs Lowering::zero_extend_top",
        "the mask that zero-extends a narrow integer keeps one bit too few",
    ),
    f(
        "lower-zext-via-signed-convert",
        "lowering",
        "oracles/dwarf/src/lower/read.rs Lowering::resize_int",
        "zero extension of a full-width signed container converts it as signed (DW_OP_convert then sign-extends)",
    ),
    f(
        "lower-offset-in-bits",
        "lowering",
        "oracles/dwarf/src/lower/mod.rs Lowering::lower_node (offsets)",
        "DIOpOffset (a byte displacement) is lowered as a bit displacement",
    ),
    f(
        "lower-mem-piece-bit-dropped",
        "lowering",
        "oracles/dwarf/src/lower/pieces.rs Lowering::piece",
        "a composite part in memory at a bit offset that is not a whole byte loses that bit offset (DW_OP_piece instead of DW_OP_bit_piece)",
    ),
    f(
        "lower-narrow-lshr-no-zext",
        "lowering",
        "oracles/dwarf/src/lower/arith.rs Lowering (narrow LShr)",
        "a narrow logical shift right shifts the sign-extended container: a negative iN brings ones into its bits",
    ),
    f(
        "ext-offset-unscaled",
        "ext",
        "oracles/dwarf/src/ext.rs llvm (DW_OP_LLVM_offset)",
        "DW_OP_LLVM_offset adds its byte displacement as bits",
    ),
    f(
        "ext-select-swapped",
        "ext",
        "oracles/dwarf/src/ext.rs llvm (DW_OP_LLVM_select_bit_piece)",
        "DW_OP_LLVM_select_bit_piece takes a part from the first location where the mask bit is set (the operands' order read backwards)",
    ),
    f(
        "ext-bit-piece-offset-ignored",
        "ext",
        "oracles/dwarf/src/ext.rs Run::piece",
        "DW_OP_bit_piece ignores its offset operand",
    ),
    f(
        "ext-extend-one-short",
        "ext",
        "oracles/dwarf/src/ext.rs llvm (DW_OP_LLVM_extend)",
        "DW_OP_LLVM_extend makes one copy too few",
    ),
    f(
        "ext-aspace-address-untruncated",
        "ext",
        "oracles/dwarf/src/ext.rs Run::form_aspace_address",
        "DW_OP_LLVM_form_aspace_address keeps address bits beyond the address space's pointer size",
    ),
    f(
        "tv-reinterpret-dropped",
        "tv",
        "oracles/tv/src/validate.rs substitute",
        "substituting a mapping for DIOpArg(k, T) whose T differs from the operand's declared type drops the DIOpReinterpret(T)",
    ),
    f(
        "tv-deleted-arg-kept",
        "tv",
        "oracles/tv/src/validate.rs substitute",
        "an old argument the pass deleted (`argK := undefined`) is taken to be new argument K unchanged instead of undefined",
    ),
    f(
        "tv-every-arg-a-value",
        "tv",
        "oracles/tv/src/validate.rs instance",
        "every new argument is taken to be a plain value (a constant hole), not only those the pair says are: storage shapes a location operand can have are never tried",
    ),
    f(
        "print-poison-dropped",
        "parse-print",
        "semantics/src/syntax/printer.rs print_bare",
        "the one-line form drops the `poison` marker of an argument",
    ),
    f(
        "print-vector-as-array",
        "parse-print",
        "semantics/src/syntax/printer.rs print_literal",
        "a vector constant is printed with an array's brackets",
    ),
    f(
        "parse-fragment-swapped",
        "parse-print",
        "semantics/src/syntax/parser.rs Parser (DIOpFragment)",
        "DIOpFragment's offset and size are read in the wrong order",
    ),
    f(
        "parse-int-literal-unsigned",
        "parse-print",
        "semantics/src/syntax/parser.rs Parser::parse_literal_depth",
        "a negative integer literal is stored as its unsigned bit pattern (i8 -1 as 255), which prints back differently",
    ),
];
