//! Reading bits: a form's value read onto the DWARF stack at the width the
//! reference reads (registers, memory, wide values in pieces), the address of
//! a location, and the word operations (extraction, sign and zero extension,
//! resizing) those reads are built from.

use super::*;

impl Lowerer<'_> {
    /// Pushes the value of type `t` read from `f` (see the module doc for
    /// `depth`: 0, `f`'s slot is on top or `f` is static; 1, one value
    /// already materialised lies on top of `f`'s slot, or above where a
    /// static `f`'s value must go). An integer of a width without a base
    /// type comes out sign-extended in its container ([`NARROW_CONTAINER`],
    /// or a wide one past 64 bits); so does one of at most 64 bits at a bit
    /// offset that is not a whole register or byte, before it is converted
    /// to its own base type ([`Self::extract_top`]).
    pub(super) fn read(&mut self, f: &Form, t: &Type, at: usize, depth: u8) -> R<BaseType> {
        let want = self.bt(t, at)?;
        let n = want.bits();
        // The value's own width: below the container's for a narrow integer.
        let w = self.value_width(t, want, at)?;
        let narrow = w != n;
        if f.is_slot() && depth == 1 {
            self.emit(DwOp::Swap);
        }
        match f {
            Form::Addr { space, lo, hi } => {
                self.check_interval(*space, lo, hi, at)?;
                if want.is_wide() {
                    // A wide container is the value's whole bytes: a byte
                    // holding one of its bits is in bounds exactly when that
                    // bit is.
                    self.load(*space, want, at);
                    self.sign_extend_top(want, w);
                } else if narrow {
                    // The whole bytes holding the w bits: a byte holding one
                    // of them is in bounds exactly when that bit is.
                    self.load_generic(*space, w.div_ceil(8) as u8, at);
                    self.extract_top(0, w);
                } else {
                    self.load(*space, want, at);
                }
            }
            Form::Val { bt, computed_float } => {
                // A narrow value is read at its own width: DIOpReinterpret
                // keeps bit sizes, and no other base type has a narrow size,
                // so `bt` is the container of `t` itself.
                if *bt != want {
                    if *computed_float && !want.is_float() {
                        return nl(
                            Some(at),
                            "the bits of a float computed by DWARF arithmetic: NaN payloads are unspecified",
                        );
                    }
                    if bt.bits() != want.bits() {
                        return nl(Some(at), "a value read at another width");
                    }
                    self.emit(DwOp::Reinterpret(want));
                }
            }
            Form::Reg { reg, bit } => {
                if *bit == 0 && !narrow {
                    self.emit(DwOp::RegvalType(*reg, want));
                    self.site(at, n);
                } else if want.is_wide() {
                    self.emit(DwOp::Regx(*reg));
                    self.read_wide_loc_bits(want, w, *bit, at)?;
                } else {
                    self.read_register_bits(*reg, *bit, w, at)?;
                    self.leave_container(want);
                }
            }
            Form::Mem { space, bit } => {
                if mod8(bit) == 0 && !narrow {
                    let a = self.static_address(*space, bit, at)?;
                    self.push_address(a);
                    self.load(*space, want, at);
                } else if want.is_wide() {
                    self.read_wide_memory_bits(*space, bit, want, w, at)?;
                } else {
                    self.read_memory_bits(*space, bit, w, at)?;
                    self.leave_container(want);
                }
            }
            Form::Const(bits, k) if bits.width() < w.saturating_add(*k) && self.ext => {
                // The reference's read fails (out of bounds); so does a read
                // of an empty implicit value, at this read site.
                self.emit(DwOp::ImplicitValue(Vec::new()));
                self.emit(DwOp::DerefType(want.bytes(), want));
                self.site(at, n);
            }
            Form::Const(bits, k) => {
                if bits.width() < w.saturating_add(*k) {
                    return nl(
                        Some(at),
                        format!(
                            "a read past the end of an implicit value ({w} bits at {k} of {}): DWARF 5 cannot read an implicit location",
                            bits.width()
                        ),
                    );
                }
                let v = bits.slice(*k, w);
                let v = if narrow { value::sext(&v, n) } else { v };
                self.emit(DwOp::ConstType(want, v.to_le_bytes()));
            }
            Form::Undef => {
                self.emit(DwOp::RegvalType(UNDEF_REG, want));
                self.site(at, w);
            }
            Form::ImplPtr(_) => {
                self.emit(DwOp::RegvalType(IMPLICIT_POINTER_REG, want));
                self.site(at, w);
            }
            Form::AddrOfSlot(_) => {
                // The checker lets only DIOpDeref consume DIOpAddrOf.
                return nl(Some(at), "not well-formed: a read of an implicit address");
            }
            Form::Loc { .. }
            | Form::LocMoved
            | Form::Composite(_)
            | Form::Deferred(_)
            | Form::Multi(_)
            | Form::ConstBefore(..)
                if self.ext =>
            {
                match f {
                    Form::Multi(loc) => self.multi_loc(loc, 0, at)?,
                    Form::ConstBefore(..) => self.emit(DwOp::ImplicitValue(Vec::new())),
                    Form::Loc { .. } | Form::LocMoved => {}
                    _ => {
                        self.composite_loc(f.clone(), at)?;
                    }
                }
                if want.is_wide() && narrow {
                    self.read_wide_loc_bits(want, w, 0, at)?;
                } else if narrow {
                    self.read_loc_bits(w, at)?;
                    self.leave_container(want);
                } else {
                    self.emit(DwOp::DerefType(want.bytes(), want));
                    self.site(at, n);
                }
            }
            Form::Loc { .. }
            | Form::LocMoved
            | Form::Composite(_)
            | Form::Deferred(_)
            | Form::Multi(_)
            | Form::ConstBefore(..) => {
                return nl(
                    Some(at),
                    "a value read from a composite: DWARF 5 reads only memory and registers",
                )
            }
        }
        if depth == 1 {
            self.emit(DwOp::Swap);
        }
        Ok(want)
    }

    /// Replaces the location on top by its first `w` (< 64) bits,
    /// sign-extended to an `int64_t`: a composite of those bits and zero
    /// padding to 64 bits, read whole (a read of the location's own 64 bits
    /// would fail where the reference's `w`-bit read does not).
    pub(super) fn read_loc_bits(&mut self, w: u64, at: usize) -> R<()> {
        if self.incomplete_open {
            return nl(
                Some(at),
                "a composite formed while another one's pieces are being added: its pieces would join that one",
            );
        }
        self.emit(DwOp::BitPiece(w, 0));
        self.emit(DwOp::ImplicitValue(vec![0; 8]));
        self.emit(DwOp::BitPiece(64 - w, 0));
        self.emit(DwOp::Llvm(LlvmDwOp::PieceEnd));
        self.emit(DwOp::DerefSize(8));
        self.site(at, 64);
        self.extract_top(0, w);
        Ok(())
    }

    /// Replaces the location on top by its `w` bits at bit `bit` as a value
    /// of the wide container `want`, sign-extended from `w` bits: a
    /// composite of those bits and zero padding to the container's width,
    /// read whole (the location's own bits past `w` may not exist). The
    /// piece's offset is not checked where it is made: like the reference's
    /// offset, it fails when read (the extension evaluator's decision 11).
    pub(super) fn read_wide_loc_bits(
        &mut self,
        want: BaseType,
        w: u64,
        bit: u64,
        at: usize,
    ) -> R<()> {
        if self.incomplete_open {
            return nl(
                Some(at),
                "a composite formed while another one's pieces are being added: its pieces would join that one",
            );
        }
        let n = want.bits();
        self.emit(DwOp::BitPiece(w, bit));
        if n > w {
            self.emit(DwOp::ImplicitValue(vec![0; (n - w).div_ceil(8) as usize]));
            self.emit(DwOp::BitPiece(n - w, 0));
        }
        self.emit(DwOp::Llvm(LlvmDwOp::PieceEnd));
        self.emit(DwOp::DerefType(want.bytes(), want));
        self.site(at, n);
        self.sign_extend_top(want, w);
        Ok(())
    }

    /// Pushes the `w` (> 64) bits of memory at bit offset `bit` of `space`
    /// as a value of the wide container `want`, sign-extended from `w`
    /// bits: the whole bytes holding them read as one wide unsigned integer
    /// (each holds one of the `w` bits, so the read is out of bounds exactly
    /// when the reference's is), shifted down to the first bit, converted
    /// (DW_OP_convert of an integer keeps its low bits).
    pub(super) fn read_wide_memory_bits(
        &mut self,
        space: u32,
        bit: &BigInt,
        want: BaseType,
        w: u64,
        at: usize,
    ) -> R<()> {
        let r = mod8(bit);
        let Some(whole) = wide_int(r + w, false) else {
            return nl(
                Some(at),
                format!("a {w}-bit value at bit {r} of a byte: it spans more than {WIDE_MAX_BYTES} bytes, the most DW_OP_deref_type reads"),
            );
        };
        let a = floor8(bit);
        self.check_interval(space, &a, &a, at)?;
        self.push_address(wrap64(&a));
        self.load(space, whole, at);
        if r != 0 {
            self.shift_by_const(DwOp::Shr, whole, r);
        }
        self.emit(DwOp::Convert(Some(want)));
        self.sign_extend_top(want, w);
        Ok(())
    }

    /// Pushes bits `bit..bit + w` of register `reg`, sign-extended to an
    /// `int64_t`: `DW_OP_bregx reg 0` reads the register's low `bit + w`
    /// bits as a generic value (the read site's width, so that an entity
    /// narrower than that fails as `OutOfBounds`, as the reference's read).
    pub(super) fn read_register_bits(&mut self, reg: u16, bit: u64, w: u64, at: usize) -> R<()> {
        // A bit offset near 2^64 (an offset applied to a register) must not
        // overflow here: saturate, it is refused either way.
        let end = bit.saturating_add(w);
        if end > 64 {
            return nl(
                Some(at),
                format!(
                    "a value read at bits {bit}..{end} of a register: a DWARF 5 register read (DW_OP_bregx) yields at most 64 bits"
                ),
            );
        }
        self.emit(DwOp::Bregx(reg, 0));
        self.site(at, bit + w);
        self.extract_top(bit, w);
        Ok(())
    }

    /// Pushes the `w` bits of memory at bit offset `bit` of `space`,
    /// sign-extended to an `int64_t`: the whole bytes holding them
    /// (`DW_OP_deref_size`/`DW_OP_xderef_size`; each holds one of the `w`
    /// bits, so the read is out of bounds exactly when the reference's is),
    /// then the bits selected by shifts.
    pub(super) fn read_memory_bits(
        &mut self,
        space: u32,
        bit: &BigInt,
        w: u64,
        at: usize,
    ) -> R<()> {
        let r = mod8(bit);
        if r + w > 64 {
            return nl(
                Some(at),
                format!(
                    "a {w}-bit value at bit {r} of a byte: it spans more than 8 bytes, and DW_OP_deref_size reads at most 8"
                ),
            );
        }
        let a = floor8(bit);
        self.check_interval(space, &a, &a, at)?;
        self.push_address(wrap64(&a));
        self.load_generic(space, (r + w).div_ceil(8) as u8, at);
        self.extract_top(r, w);
        Ok(())
    }

    /// Replaces the generic value on top, of which bits `r..r + w` are
    /// wanted (`r + w` ≤ 64), by those bits sign-extended to an `int64_t`:
    /// shift them to the top, then arithmetically back down.
    pub(super) fn extract_top(&mut self, r: u64, w: u64) {
        self.emit(DwOp::Reinterpret(BaseType::I64));
        if r + w < 64 {
            self.shift_by_const(DwOp::Shl, BaseType::I64, 64 - r - w);
        }
        if w < 64 {
            self.shift_by_const(DwOp::Shra, BaseType::I64, 64 - w);
        }
    }

    /// The `int64_t` on top, a value sign-extended from its width
    /// ([`Self::extract_top`]), becomes a value of its base type `want`.
    pub(super) fn leave_container(&mut self, want: BaseType) {
        match want {
            // A narrow integer stays in its container.
            BaseType::I64 => {}
            // Integers and pointers: the low bits (DW_OP_convert of an
            // integer truncates).
            BaseType::I8
            | BaseType::I16
            | BaseType::I32
            | BaseType::U8
            | BaseType::U16
            | BaseType::U32
            | BaseType::U64
            | BaseType::IW(_)
            | BaseType::UW(_) => self.emit(DwOp::Convert(Some(want))),
            BaseType::F32 => {
                self.emit(DwOp::Convert(Some(BaseType::I32)));
                self.emit(DwOp::Reinterpret(BaseType::F32));
            }
            BaseType::F64 => self.emit(DwOp::Reinterpret(BaseType::F64)),
            BaseType::F16 | BaseType::BF16 => {
                self.emit(DwOp::Convert(Some(BaseType::I16)));
                self.emit(DwOp::Reinterpret(want));
            }
            BaseType::F128 => {
                self.emit(DwOp::Convert(Some(BaseType::IW(16))));
                self.emit(DwOp::Reinterpret(want));
            }
            BaseType::F80 => {
                self.emit(DwOp::Convert(Some(BaseType::IW(10))));
                self.emit(DwOp::Reinterpret(want));
            }
        }
    }

    /// The `int64_t` on top, a `p`-bit pointer sign-extended
    /// ([`Self::extract_top`]), becomes its unsigned address as a generic value.
    pub(super) fn unsigned_address_top(&mut self, p: u64) {
        self.zero_extend_top(BaseType::I64, p);
        self.emit(DwOp::Convert(None));
    }

    /// Pushes the unsigned constant `v` as a generic value (an address, or
    /// an operand of generic values).
    pub(super) fn uconst(&mut self, v: u64) {
        if v < 32 {
            self.emit(DwOp::Lit(v as u8));
        } else {
            self.emit(DwOp::Constu(v));
        }
    }

    /// Shifts the value on top, of base type `t`, by the constant `v`: the
    /// amount is pushed of type `t` too, as DWARF 5 wants both operands of
    /// a binary operation of one type (§2.5.1.4; a generic amount beside a
    /// typed value is what GDB rejects as "Incompatible types on DWARF
    /// stack"). A narrow amount is a literal converted to `t`
    /// (DW_OP_convert, which more consumers read than DW_OP_const_type); a
    /// wide `t`'s, a DW_OP_const_type.
    pub(super) fn shift_by_const(&mut self, shift: DwOp, t: BaseType, v: u64) {
        if t.is_wide() {
            let mut bytes = v.to_le_bytes().to_vec();
            bytes.resize(usize::from(t.bytes()), 0);
            self.emit(DwOp::ConstType(t, bytes));
        } else {
            self.uconst(v);
            self.emit(DwOp::Convert(Some(t)));
        }
        self.emit(shift);
    }

    /// Re-establishes the container invariant of an `iN` after an operation
    /// whose result may leave the N-bit range: the integer on top, of the
    /// signed container `c`, becomes its low `n` bits sign-extended
    /// (`DW_OP_shl C-n; DW_OP_shra C-n`, C the container's width).
    pub(super) fn sign_extend_top(&mut self, c: BaseType, n: u64) {
        let cb = c.bits();
        if n < cb && !diopter_faults::planted!("lower-no-sign-extend") {
            self.shift_by_const(DwOp::Shl, c, cb - n);
            self.shift_by_const(DwOp::Shra, c, cb - n);
        }
    }

    /// The integer on top, of base type `c`, becomes its low `n` bits,
    /// zero-extended (an AND with a mask of type `c`: DW_OP_and wants both
    /// operands of one type).
    pub(super) fn zero_extend_top(&mut self, c: BaseType, n: u64) {
        if n < c.bits() {
            let n = n - u64::from(diopter_faults::planted!("lower-zext-mask-short"));
            self.emit(DwOp::ConstType(c, mask_bytes(n, c.bytes())));
            self.emit(DwOp::And);
        }
    }

    /// The integer (or pointer) of `n` bits on top, of base type `a`, becomes
    /// one of `m` bits and base type `b`, truncated or zero-extended
    /// (DESIGN.md's DIOpConvert, and DIOpZExt), a narrow result sign-extended
    /// in its container. A value is narrow when its base type is wider than it.
    pub(super) fn resize_int(&mut self, a: BaseType, n: u64, b: BaseType, m: u64) {
        if m > n {
            // Zero-extend: the n bits as a non-negative number, which any
            // wider container then holds as it is (also sign-extended from
            // m > n bits).
            let a = if a.bits() > n {
                self.zero_extend_top(a, n);
                a
            } else if a.is_signed() && !diopter_faults::planted!("lower-zext-via-signed-convert") {
                let u = BaseType::int(u64::from(a.bytes()), false).expect("an integer width");
                self.emit(DwOp::Reinterpret(u));
                u
            } else {
                a
            };
            if a != b {
                self.emit(DwOp::Convert(Some(b)));
            }
        } else {
            // Truncate: DW_OP_convert keeps the low bits of an integer (into
            // a container wider than m bits it extends, which the sign
            // extension from m bits then corrects).
            if a != b {
                self.emit(DwOp::Convert(Some(b)));
            }
            if m < n && b.bits() > m {
                self.sign_extend_top(b, m);
            }
        }
    }

    /// Pushes the generic address held by the `p`-bit pointer `f`.
    pub(super) fn read_address(&mut self, f: &Form, p: u64, at: usize, depth: u8) -> R<()> {
        if p > 64 || !p.is_multiple_of(8) || p == 0 {
            return nl(
                Some(at),
                format!("a {p}-bit pointer: DWARF addresses here are 8 bytes"),
            );
        }
        if f.is_slot() && depth == 1 {
            self.emit(DwOp::Swap);
        }
        match f {
            Form::Reg { reg, bit: 0 } => {
                // DW_OP_bregx gives the whole register: keep the pointer's
                // p bits (a generic AND, both operands generic).
                self.emit(DwOp::Bregx(*reg, 0));
                self.site(at, p);
                if p < 64 {
                    self.uconst((1u64 << p) - 1);
                    self.emit(DwOp::And);
                }
            }
            Form::Undef => {
                self.emit(DwOp::Bregx(UNDEF_REG, 0));
                self.site(at, p);
            }
            Form::ImplPtr(_) => {
                self.emit(DwOp::Bregx(IMPLICIT_POINTER_REG, 0));
                self.site(at, p);
            }
            Form::AddrOfSlot(_) => {
                return nl(Some(at), "not well-formed: a read of an implicit address");
            }
            Form::Const(bits, k) if bits.width() < p.saturating_add(*k) && self.ext => {
                self.emit(DwOp::ImplicitValue(Vec::new()));
                self.emit(DwOp::DerefSize(p as u8 / 8));
                self.site(at, p);
            }
            Form::Const(bits, k) => {
                if bits.width() < p.saturating_add(*k) {
                    return nl(
                        Some(at),
                        format!(
                            "a read past the end of an implicit value ({p} bits at {k} of {}): DWARF 5 cannot read an implicit location",
                            bits.width()
                        ),
                    );
                }
                let v = bits.slice(*k, p).to_u64().expect("at most 64 bits");
                self.push_address(v);
            }
            Form::Addr { space, lo, hi } => {
                self.check_interval(*space, lo, hi, at)?;
                self.load_generic(*space, p as u8 / 8, at);
            }
            Form::Mem { space, bit } if mod8(bit) != 0 => {
                // The bytes holding the pointer's bits, shifted into place.
                self.read_memory_bits(*space, bit, p, at)?;
                self.unsigned_address_top(p);
            }
            Form::Mem { space, bit } => {
                let a = self.static_address(*space, bit, at)?;
                self.push_address(a);
                self.load_generic(*space, p as u8 / 8, at);
            }
            // DIOpDeref of DIOpAddrOf gives a computed float back under any
            // type, a pointer too: its bits may not become an address.
            Form::Val {
                computed_float: true,
                ..
            } => {
                return nl(
                    Some(at),
                    "the bits of a float computed by DWARF arithmetic as an address: NaN payloads are unspecified",
                )
            }
            Form::Val { .. } => {
                let bt = BaseType::unsigned(p).expect("checked above");
                // A pointer-typed value (DIOpConvert to a pointer): zero-extend.
                if let Form::Val { bt: have, .. } = f {
                    if *have != bt {
                        if have.bits() != p {
                            return nl(Some(at), "a pointer value of another width");
                        }
                        self.emit(DwOp::Reinterpret(bt));
                    }
                }
                self.emit(DwOp::Convert(None));
            }
            Form::Reg { reg, bit } => {
                // The register's low bit + p bits, shifted into place.
                self.read_register_bits(*reg, *bit, p, at)?;
                self.unsigned_address_top(p);
            }
            Form::Multi(loc) => {
                self.multi_loc(loc, 0, at)?;
                self.emit(DwOp::DerefSize(p as u8 / 8));
                self.site(at, p);
            }
            Form::ConstBefore(..) if self.ext => {
                self.emit(DwOp::ImplicitValue(Vec::new()));
                self.emit(DwOp::DerefSize(p as u8 / 8));
                self.site(at, p);
            }
            Form::Loc { .. } | Form::LocMoved => {
                self.emit(DwOp::DerefSize(p as u8 / 8));
                self.site(at, p);
            }
            Form::Composite(_) | Form::Deferred(_) if self.ext => {
                self.composite_loc(f.clone(), at)?;
                self.emit(DwOp::DerefSize(p as u8 / 8));
                self.site(at, p);
            }
            Form::ConstBefore(..) => {
                return nl(
                    Some(at),
                    "a pointer read before the start of an implicit value: DWARF 5 cannot read an implicit location",
                )
            }
            Form::Composite(_) | Form::Deferred(_) => {
                return nl(
                    Some(at),
                    "a pointer read from a composite: DWARF 5 reads only memory and registers",
                )
            }
        }
        if depth == 1 {
            self.emit(DwOp::Swap);
        }
        Ok(())
    }

    /// The byte address of a static memory location (which must lie on a
    /// byte and satisfy [`Self::check_interval`]) modulo 2^64.
    pub(super) fn static_address(&self, space: u32, bit: &BigInt, at: usize) -> R<u64> {
        if mod8(bit) != 0 {
            return nl(
                Some(at),
                format!("a value read at a memory bit offset that is not on a byte ({bit})"),
            );
        }
        let a = floor8(bit);
        self.check_interval(space, &a, &a, at)?;
        Ok(wrap64(&a))
    }

    pub(super) fn push_address(&mut self, a: u64) {
        self.uconst(a);
    }

    /// The generic address on top becomes a memory location in `space`
    /// (`DW_OP_LLVM_form_aspace_address`, identifier = LLVM address space).
    pub(super) fn form_aspace_address(&mut self, space: u32) {
        self.push_address(u64::from(space));
        self.emit(DwOp::Llvm(LlvmDwOp::FormAspaceAddress));
    }

    /// DWARF's address arithmetic wraps modulo 2^64 where the spec's
    /// location offsets do not. A memory location whose real address may be
    /// anywhere in `lo..=hi` lowers only if wrapping cannot change what it
    /// means: no address reaches 2^64, and a negative one wraps to an address
    /// still outside the `p`-bit address space (so both are out of bounds);
    /// in an address space narrower than 64 bits, no address leaves
    /// `0..2^p` (AMD's extension truncates addresses to `p` bits).
    pub(super) fn check_interval(&self, space: u32, lo: &BigInt, hi: &BigInt, at: usize) -> R<()> {
        let p = self.ctx.datalayout.pointer_bits(space);
        let top = BigInt::one() << 64;
        if p > 64 {
            return nl(
                Some(at),
                format!(
                    "address space {space} has {p}-bit pointers: DWARF addresses here are 64 bits"
                ),
            );
        }
        if hi >= &top || *lo < (BigInt::one() << p) - &top {
            return nl(
                Some(at),
                format!(
                    "an address in address space {space} that may leave 0..2^64: DWARF's address arithmetic wraps, the spec's offsets do not"
                ),
            );
        }
        // AMD's extension defines DW_OP_xderef* through
        // DW_OP_LLVM_form_aspace_address, which truncates the address to the
        // space's p bits: an address outside 0..2^p would wrap into the space
        // there, where DWARF 5 (gimli) and the spec find it out of bounds.
        if p < 64 && (lo.sign() == num_bigint::Sign::Minus || hi >= &(BigInt::one() << p)) {
            return nl(
                Some(at),
                format!(
                    "an address in the {p}-bit address space {space} that may leave 0..2^{p}: AMD's DW_OP_LLVM_form_aspace_address truncates it to {p} bits, DWARF 5 does not"
                ),
            );
        }
        Ok(())
    }

    /// Replaces the address on top by the `want` value stored there.
    pub(super) fn load(&mut self, space: u32, want: BaseType, at: usize) {
        if space == 0 {
            self.emit(DwOp::DerefType(want.bytes(), want));
        } else {
            self.push_address(u64::from(space));
            self.emit(DwOp::Swap);
            self.emit(DwOp::XderefType(want.bytes(), want));
        }
        self.site(at, want.bits());
    }

    /// Replaces the address on top by the generic value of `size` bytes stored there.
    pub(super) fn load_generic(&mut self, space: u32, size: u8, at: usize) {
        if space == 0 {
            self.emit(DwOp::DerefSize(size));
        } else {
            self.push_address(u64::from(space));
            self.emit(DwOp::Swap);
            self.emit(DwOp::XderefSize(size));
        }
        self.site(at, u64::from(size) * 8);
    }
}
