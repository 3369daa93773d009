//! Locations on the DWARF stack: a form turned into a location where DWARF
//! needs one (implicit values, composites, runtime offsets into memory and
//! registers), and a form's static location when it is known while lowering.

use super::*;

impl Lowerer<'_> {
    /// Puts `f`'s location on top of the stack as a location description
    /// (a slot form must already be on top), where offsets up to `span`
    /// bits further stay inside its storage (AMD's offsets fail at once
    /// outside it; see `Form::Loc`).
    pub(super) fn loc_on_top(&mut self, f: &Form, t: &Type, span: u64, at: usize) -> R<()> {
        let outside = |s: &Self, size: &BigInt, bit: &BigInt| -> R<()> {
            if bit.sign() == num_bigint::Sign::Minus || &(bit + span) >= size {
                return nl(
                    Some(at),
                    format!("a location at bit {bit} of a {size}-bit storage, offset {span} bits further: AMD's offsets fail at once outside the storage, the spec only when it is read"),
                );
            }
            let _ = s;
            Ok(())
        };
        match f {
            Form::Val {
                computed_float: true,
                ..
            } => return nl(
                Some(at),
                "a float computed by DWARF arithmetic as a location: NaN payloads are unspecified",
            ),
            Form::Val { bt, .. } => {
                let size = self.value_loc(t, *bt, at)?;
                outside(self, &BigInt::from(size), &BigInt::zero())?;
            }
            Form::Loc { size, bit } => outside(self, &BigInt::from(*size), &BigInt::from(*bit))?,
            Form::Addr { space, lo, hi } => {
                self.check_interval(*space, lo, hi, at)?;
                let size = self.ctx.memory_bits(*space);
                outside(self, &size, &(lo * 8))?;
                outside(self, &size, &(hi * 8))?;
                self.form_aspace_address(*space);
            }
            Form::Mem { space, bit } => {
                let size = self.ctx.memory_bits(*space);
                outside(self, &size, bit)?;
                let a = floor8(bit);
                self.check_interval(*space, &a, &a, at)?;
                self.push_address(wrap64(&a));
                self.form_aspace_address(*space);
                let r = mod8(bit);
                if r != 0 {
                    self.emit(DwOp::Lit(r as u8));
                    self.emit(DwOp::Llvm(LlvmDwOp::BitOffset));
                }
            }
            Form::Reg { reg, bit } => {
                let size = self.register_bits(*reg, at)?;
                outside(self, &BigInt::from(size), &BigInt::from(*bit))?;
                self.emit(DwOp::Regx(*reg));
                self.offset_loc(size, 0, &BigInt::from(*bit), at)?;
            }
            Form::Const(v, k) => {
                if !v.width().is_multiple_of(8) {
                    return nl(
                        Some(at),
                        format!("a {}-bit implicit value as a location: DW_OP_implicit_value holds whole bytes", v.width()),
                    );
                }
                outside(self, &BigInt::from(v.width()), &BigInt::from(*k))?;
                self.emit(DwOp::ImplicitValue(v.to_le_bytes()));
                self.offset_loc(v.width(), 0, &BigInt::from(*k), at)?;
            }
            Form::Undef => self.emit(DwOp::Llvm(LlvmDwOp::Undefined)),
            Form::Composite(_) | Form::Deferred(_) => {
                let size = self.composite_loc(f.clone(), at)?;
                outside(self, &BigInt::from(size), &BigInt::zero())?;
            }
            Form::ImplPtr(_) | Form::AddrOfSlot(_) => {
                return nl(Some(at), "an implicit pointer as a lane location")
            }
            Form::ConstBefore(..) => {
                return nl(
                    Some(at),
                    "a location before the start of an implicit value, offset: AMD's offsets fail at once outside the storage",
                )
            }
            Form::LocMoved => {
                return nl(
                    Some(at),
                    "a location moved by an offset computed at run time, offset again",
                )
            }
            Form::Multi(loc) => self.multi_loc(loc, span, at)?,
        }
        Ok(())
    }

    /// A bit offset computed at run time into memory (AMD's extensions): the
    /// address moves by the whole bytes (`t >> 3`, by DWARF's address
    /// arithmetic, checked not to wrap as byte offsets are), and
    /// `DW_OP_LLVM_bit_offset` adds the rest (`t & 7`) to the memory
    /// location, which stays inside the address space. Not offset again
    /// (see `Form::LocMoved`).
    pub(super) fn runtime_bit_offset_memory(
        &mut self,
        fl: Form,
        fb: &Form,
        bty: &Type,
        bw: u64,
        at: usize,
    ) -> R<Form> {
        let (space, lo, hi, r0) = match &fl {
            Form::Addr { space, lo, hi } => (*space, lo.clone(), hi.clone(), 0),
            Form::Mem { space, bit } => {
                let a = floor8(bit);
                (*space, a.clone(), a, mod8(bit))
            }
            _ => return nl(Some(at), "not a memory location"),
        };
        if bw >= 64 && r0 != 0 {
            return nl(
                Some(at),
                "a 64-bit bit offset from inside a byte: the sum could overflow DWARF's 64-bit arithmetic",
            );
        }
        let ob = self.read(fb, bty, at, 0)?;
        if let Form::Mem { .. } = fl {
            // The address below the offset.
            self.push_address(wrap64(&lo));
            self.emit(DwOp::Swap);
        }
        if ob != BaseType::I64 {
            self.emit(DwOp::Convert(Some(BaseType::I64)));
        }
        let i64c = |v: i64| DwOp::ConstType(BaseType::I64, v.to_le_bytes().to_vec());
        if r0 != 0 {
            self.emit(i64c(r0 as i64));
            self.emit(DwOp::Plus);
        }
        // [a, t] -> [t & 7, a + (t >> 3)]
        self.emit(DwOp::Dup);
        self.shift_by_const(DwOp::Shra, BaseType::I64, 3);
        self.emit(DwOp::Convert(None));
        self.emit(DwOp::Rot);
        self.emit(i64c(7));
        self.emit(DwOp::And);
        self.emit(DwOp::Rot);
        self.emit(DwOp::Plus);
        // The real address lies in lo + floor(t_min / 8) ..= hi + floor(t_max / 8).
        use num_integer::Integer;
        let half = BigInt::one() << (bw - 1);
        let tmin: BigInt = BigInt::from(r0) - &half;
        let tmax: BigInt = BigInt::from(r0) + &half - 1;
        let lo = &lo + tmin.div_floor(&BigInt::from(8));
        let hi = &hi + tmax.div_floor(&BigInt::from(8));
        self.check_interval(space, &lo, &hi, at)?;
        self.form_aspace_address(space);
        self.emit(DwOp::Swap);
        self.emit(DwOp::Llvm(LlvmDwOp::BitOffset));
        Ok(Form::LocMoved)
    }

    /// The size of register `reg`: its entity's in the context, or the
    /// input's it was bound to (see `assumed_register_bits`).
    pub(super) fn register_bits(&self, reg: u16, at: usize) -> R<u64> {
        let name = &self.registers[usize::from(reg)];
        if let Some(b) = self.ctx.entity(name) {
            return Ok(b.width());
        }
        match self.assumed_register_bits.iter().find(|(r, _)| *r == reg) {
            Some((_, bits)) => Ok(*bits),
            None => nl(Some(at), "a register the context does not give"),
        }
    }

    /// The node of the operation at `op_index`.
    pub(super) fn node_of(&self, op_index: usize) -> usize {
        self.nodes
            .iter()
            .position(|n| n.op_index == op_index)
            .expect("every operation has a node")
    }

    /// An offset computed at run time into a location other than memory
    /// (AMD's extensions). `DW_OP_LLVM_offset` fails at once where the
    /// location leaves its storage, where the spec fails only when it is
    /// read; so the offset is checked at run time (`DW_OP_bra`), and outside
    /// the storage the result is the location moved past its end by a
    /// `DW_OP_bit_piece` offset (not range-checked, ext.rs decision 11),
    /// which fails when read or written as the spec's does. Nothing may
    /// offset the result again (it could come back inside the storage).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn runtime_offset_loc(
        &mut self,
        fl: &Form,
        lty: &Type,
        fb: &Form,
        bty: &Type,
        scale: i64,
        ty: &Type,
        at: usize,
    ) -> R<Form> {
        let (size, bit) = match fl {
            Form::Reg { reg, bit } => (self.register_bits(*reg, at)?, *bit),
            Form::Const(v, k) => (v.width(), *k),
            Form::Val { bt, .. } => (bt.bits(), 0),
            // A location on the stack does not say whether its storage is
            // implicit, which the guard's outside branch must know (the
            // spec refuses a write there as implicit, not out of bounds).
            Form::Loc { .. } => {
                return nl(
                    Some(at),
                    "a run-time offset into a location already on the stack: its storage may be implicit, which the guard's outside branch would have to know",
                )
            }
            Form::Composite(parts) => (parts.iter().map(|p| p.1).sum(), 0),
            Form::Deferred(id) => {
                let t = self.nodes[*id].ty.clone();
                (self.bitsizeof(&t, Some(at))?, 0)
            }
            _ => return nl(Some(at), "not a location other than memory"),
        };
        let n = self.bitsizeof(ty, Some(at))?;
        if self.incomplete_open {
            return nl(
                Some(at),
                "a run-time offset while a composite's pieces are being added: the guard's piece would join it",
            );
        }
        if size == 0 || n == 0 || size > i64::MAX as u64 / 2 || bit >= size {
            return nl(
                Some(at),
                "a run-time offset into an empty storage or from outside it",
            );
        }
        // The location, then the offset, on top.
        let put_loc = |s: &mut Self| s.loc_on_top(fl, lty, 0, at);
        match (fl.is_slot(), fb.is_slot()) {
            (false, true) => {
                put_loc(self)?;
                self.emit(DwOp::Swap);
            }
            (true, true) => {
                self.emit(DwOp::Swap);
                put_loc(self)?;
                self.emit(DwOp::Swap);
            }
            _ => put_loc(self)?,
        }
        // The offset as an int64_t, or in its own wide signed container (a
        // wider offset must be compared whole), on top.
        let ob = self.read(fb, bty, at, 0)?;
        let cmp = if ob.is_wide() { ob } else { BaseType::I64 };
        if ob != cmp {
            self.emit(DwOp::Convert(Some(cmp)));
        }
        // Inside exactly when lo <= v < hi (bit + scale·v in 0..size).
        let (b, sz, sc) = (bit as i64, size as i64, scale);
        let lo = -(b.div_euclid(sc));
        let hi = (sz - b - 1).div_euclid(sc) + 1;
        let i64c = |v: i64| {
            let bits = Bits::from_bigint(cmp.bits(), &BigInt::from(v));
            DwOp::ConstType(cmp, bits.to_le_bytes())
        };
        self.emit(DwOp::Dup);
        self.emit(i64c(lo));
        self.emit(DwOp::Ge);
        self.emit(DwOp::Over);
        self.emit(i64c(hi));
        self.emit(DwOp::Lt);
        self.emit(DwOp::And);
        // Outside an implicit value the spec's location refuses writes as
        // implicit storage does and fails reads as out of bounds: an empty
        // implicit value does both. Elsewhere the location moved past the
        // storage's end by a piece offset.
        let outside = if matches!(fl, Form::Const(..) | Form::Val { .. }) {
            vec![DwOp::Drop, DwOp::Drop, DwOp::ImplicitValue(Vec::new())]
        } else {
            vec![
                DwOp::Drop,
                DwOp::BitPiece(n, size),
                DwOp::Llvm(LlvmDwOp::PieceEnd),
            ]
        };
        let inside = DwOp::Llvm(if scale == 8 {
            LlvmDwOp::Offset
        } else {
            LlvmDwOp::BitOffset
        });
        let len = |ops: &[DwOp]| encode(ops).len() as i16;
        let skip = DwOp::Skip(len(std::slice::from_ref(&inside)));
        let out_len = len(&outside) + len(std::slice::from_ref(&skip));
        self.emit(DwOp::Bra(out_len));
        for o in outside {
            self.emit(o);
        }
        self.emit(skip);
        self.emit(inside);
        Ok(Form::LocMoved)
    }

    /// The value of type `t` on top, held in base type `bt`, becomes a
    /// location on top (AMD's extensions) that reads and writes as the
    /// spec's implicit location of its bits does; its size in bits. A value
    /// as wide as `bt`: its implicit location (`DW_OP_stack_value`). A
    /// narrow integer (`w` bits of a wider container): a composite of its
    /// `w` bits and [`VALUE_LOC_GAP`] bits of an empty implicit value, so
    /// that a read past the value fails as out of bounds (the empty value
    /// has no bits) and a write anywhere fails as one to implicit storage,
    /// as the spec's; an offset may move into the gap as the spec's may go
    /// past the value's end (the reads there fail alike), and no further
    /// (`Form::Loc`'s checked offsets).
    pub(super) fn value_loc(&mut self, t: &Type, bt: BaseType, at: usize) -> R<u64> {
        let w = self.bitsizeof(t, Some(at))?;
        if w == bt.bits() {
            self.emit(DwOp::StackValue);
            return Ok(w);
        }
        // Only a narrow integer in its own container: a value retyped by
        // DIOpAddrOf and DIOpDeref is its whole base type's bits.
        let narrow = self.bt(t, at).ok() == Some(bt) && self.value_width(t, bt, at)? < bt.bits();
        if !self.ext || !narrow {
            return self.same_width_as_container(t, bt, at).map(|_| w);
        }
        if self.incomplete_open {
            return nl(
                Some(at),
                "a composite formed while another one's pieces are being added: its pieces would join that one",
            );
        }
        self.emit(DwOp::StackValue);
        self.emit(DwOp::BitPiece(w, 0));
        self.emit(DwOp::ImplicitValue(Vec::new()));
        self.emit(DwOp::BitPiece(VALUE_LOC_GAP, 0));
        self.emit(DwOp::Llvm(LlvmDwOp::PieceEnd));
        Ok(w + VALUE_LOC_GAP)
    }

    /// A value of type `t` held in base type `bt` becomes an implicit
    /// location of `bt`'s size (`DW_OP_stack_value`): only right when `t`
    /// is as wide (a narrow integer lives in a wider container).
    pub(super) fn same_width_as_container(&self, t: &Type, bt: BaseType, at: usize) -> R<()> {
        let bits = self.bitsizeof(t, Some(at))?;
        if bits != bt.bits() {
            return nl(
                Some(at),
                format!("a {bits}-bit value computed in a {}-bit base type, as a location: its implicit location would be the base type's size", bt.bits()),
            );
        }
        Ok(())
    }

    /// Forms the composite `f` (`Form::Composite` or `Form::Deferred`) as a
    /// location on top of the stack, with `DW_OP_LLVM_piece_end` (AMD's
    /// extensions); its size in bits.
    pub(super) fn composite_loc(&mut self, f: Form, at: usize) -> R<u64> {
        let bits = match &f {
            Form::Composite(parts) => parts.iter().map(|p| p.1).sum(),
            Form::Deferred(id) => {
                let ty = self.nodes[*id].ty.clone();
                self.bitsizeof(&ty, Some(at))?
            }
            _ => return nl(Some(at), "not a composite"),
        };
        if bits == 0 {
            return nl(
                Some(at),
                "a composite of no bits: DWARF has no empty piece list",
            );
        }
        if self.incomplete_open {
            return nl(
                Some(at),
                "a composite formed while another one's pieces are being added: its pieces would join that one",
            );
        }
        let deferred = matches!(f, Form::Deferred(_));
        let (reads, divs) = (self.read_sites.len(), self.div_ops.len());
        let was = std::mem::replace(&mut self.explicit_undef, true);
        let r = self.piece(f, bits, at);
        self.explicit_undef = was;
        r?;
        // A DIOpComposite's parts are lowered here, later than where the
        // reference evaluates them: a read or division among them could
        // fail after (or instead of) a failure the reference meets first.
        if deferred && (self.read_sites.len() > reads || self.div_ops.len() > divs) {
            return nl(
                Some(at),
                "a composite whose parts read or divide at run time, formed after later operations: its failures would come in another order than the spec's",
            );
        }
        self.emit(DwOp::Llvm(LlvmDwOp::PieceEnd));
        self.incomplete_open = false;
        Ok(bits)
    }

    /// Offsets the location on top (`Form::Loc` of `size` bits at `bit`) by
    /// the constant `v` bits, when the result stays inside its storage
    /// (see `Form::Loc`).
    pub(super) fn offset_loc(&mut self, size: u64, bit: u64, v: &BigInt, at: usize) -> R<Form> {
        let new = BigInt::from(bit) + v;
        let Some(nb) = new.to_u64().filter(|n| *n < size) else {
            return nl(
                Some(at),
                format!("an offset to bit {new} of a {size}-bit computed location: AMD's DW_OP_LLVM_offset fails at once outside the storage, the spec only when it is read"),
            );
        };
        if v.is_zero() {
            return Ok(Form::Loc { size, bit: nb });
        }
        if mod8(v) == 0 && v.sign() == num_bigint::Sign::Plus {
            self.emit(DwOp::Llvm(LlvmDwOp::OffsetUconst(
                floor8(v).to_u64().expect("below the size"),
            )));
        } else {
            let c = v.to_i64().expect("below the size");
            self.emit(DwOp::Consts(c));
            self.emit(DwOp::Llvm(LlvmDwOp::BitOffset));
        }
        Ok(Form::Loc { size, bit: nb })
    }

    /// The location a static form stands for, as the reference's location
    /// description (`ty`: the form's type, for an implicit pointer's).
    pub(super) fn static_location(&mut self, f: &Form, ty: &Type, at: usize) -> R<LocDesc> {
        Ok(match f {
            Form::Reg { reg, bit } => LocDesc::entity(&self.registers[usize::from(*reg)], *bit),
            Form::Mem { space, bit } => {
                LocDesc::single(Storage::Memory { addrspace: *space }, bit.clone())
            }
            Form::Const(v, k) => {
                LocDesc::single(Storage::Implicit { value: v.clone() }, BigInt::from(*k))
            }
            Form::Undef => LocDesc::undefined(),
            Form::Multi(loc) => loc.clone(),
            Form::ConstBefore(v, k) => {
                LocDesc::single(Storage::Implicit { value: v.clone() }, k.clone())
            }
            Form::ImplPtr(k) => {
                let t = self.implicit_targets[*k].clone();
                let bits = self.bitsizeof(ty, Some(at))?;
                LocDesc::implicit_address(t.loc, t.ty, ty.clone(), bits)
            }
            Form::Composite(parts) => {
                let mut out = Vec::new();
                for (pf, pb) in parts {
                    if matches!(pf, Form::ImplPtr(_)) {
                        return nl(Some(at), "an implicit pointer inside a composite input, as a location known when lowering");
                    }
                    let loc = self.static_location(pf, ty, at)?;
                    out.push(Part { loc, bits: *pb });
                }
                LocDesc::composite(out)
            }
            Form::Deferred(id) => {
                let children = self.nodes[*id].children.clone();
                let mut out = Vec::new();
                for c in children {
                    let cf = self.lower_node(c)?;
                    let cty = self.nodes[c].ty.clone();
                    let bits = self.bitsizeof(&cty, Some(at))?;
                    let loc = self.static_location(&cf, &cty, at)?;
                    out.push(Part { loc, bits });
                }
                LocDesc::composite(out)
            }
            Form::Addr { .. }
            | Form::Val { .. }
            | Form::AddrOfSlot(_)
            | Form::Loc { .. }
            | Form::LocMoved => {
                return nl(
                    Some(at),
                    "a location computed at run time where one known when lowering is needed",
                )
            }
        })
    }
}
