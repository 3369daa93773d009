//! The end of the expression and its pieces: the root's form made the final
//! location, `DW_OP_piece`s of a `DIOpComposite` (its parts lowered one after
//! another from an empty stack, or, with AMD's extensions, formed on the
//! stack first and copied with `DW_OP_pick`), a multi-location as a location
//! list, `DIOpSelect`'s select-bit piece, and the lowerer's snapshot, to try
//! one way and fall back on another.

use super::*;

impl Lowerer<'_> {
    /// Ends the expression so that its location is `form`'s.
    pub(super) fn terminate(&mut self, form: Form, bits: u64, root: usize) -> R<()> {
        let at = self.nodes[root].op_index;
        if bits == 0 {
            return nl(
                Some(at),
                "a result of no bits: DWARF has no empty piece list",
            );
        }
        match form {
            Form::Composite(parts) => {
                for (f, b) in parts {
                    self.piece(f, b, at)?;
                }
                Ok(())
            }
            Form::Deferred(id) => self.deferred_or_picked(id, true),
            Form::Undef => {
                // A piece with nothing on the stack is an empty location.
                self.emit(if bits.is_multiple_of(8) && bits > 0 {
                    DwOp::Piece(bits / 8)
                } else {
                    DwOp::BitPiece(bits, 0)
                });
                Ok(())
            }
            Form::Reg { reg, bit } => {
                self.emit(DwOp::Regx(reg));
                if bit != 0 {
                    self.emit(DwOp::BitPiece(bits, bit));
                }
                Ok(())
            }
            Form::Mem { space, bit } => {
                self.memory_terminal(space, &bit, at)?;
                let r = mod8(&bit);
                if r != 0 && !diopter_faults::planted!("lower-mem-piece-bit-dropped") {
                    self.emit(DwOp::BitPiece(bits, r));
                }
                Ok(())
            }
            Form::Const(v, k) => self.implicit_terminal(&v, k, bits, at),
            Form::Val { bt, .. } if bt.bits() > bits => {
                // A narrow integer: the container's low `bits` bits are the
                // value, the rest its sign extension; the result presents
                // exactly the value's bits.
                self.emit(DwOp::StackValue);
                self.emit(DwOp::BitPiece(bits, 0));
                Ok(())
            }
            f => self.single_terminal(&f, at),
        }
    }

    /// The result `v` at bit offset `k`, read as `n` bits:
    /// `DW_OP_implicit_value` of its bytes, and a bit piece selecting the
    /// `n` bits at `k` when that is not all of them. The bytes must be
    /// exactly the value's bits unless the read stays inside them (padding
    /// bits would be read where the reference fails).
    pub(super) fn implicit_terminal(&mut self, v: &Bits, k: u64, n: u64, at: usize) -> R<()> {
        let w = v.width();
        if !w.is_multiple_of(8) && k.saturating_add(n) > w {
            return nl(
                Some(at),
                format!("reading past the end of a {w}-bit implicit value: DW_OP_implicit_value holds whole bytes"),
            );
        }
        self.emit(DwOp::ImplicitValue(v.to_le_bytes()));
        if k != 0 || n != w {
            self.emit(DwOp::BitPiece(n, k));
        }
        Ok(())
    }

    /// The location of a memory location known when lowering (space 0 only).
    pub(super) fn memory_terminal(&mut self, space: u32, bit: &BigInt, at: usize) -> R<()> {
        if space != 0 && self.ext {
            let a = floor8(bit);
            self.check_interval(space, &a, &a, at)?;
            self.push_address(wrap64(&a));
            self.form_aspace_address(space);
            return Ok(());
        }
        if space != 0 {
            return nl(
                Some(at),
                format!("a memory location in address space {space}: DWARF 5 locations have no address space (AMD uses DW_OP_LLVM_form_aspace_address)"),
            );
        }
        // Round toward minus infinity: the byte holding the first bit.
        let a = floor8(bit);
        self.check_interval(space, &a, &a, at)?;
        self.emit(DwOp::Addr(wrap64(&a)));
        Ok(())
    }

    /// The location-forming operations for a slot or static form (no piece).
    pub(super) fn single_terminal(&mut self, f: &Form, at: usize) -> R<()> {
        match f {
            Form::Addr { space, lo, hi } if *space != 0 && self.ext => {
                self.check_interval(*space, lo, hi, at)?;
                self.form_aspace_address(*space);
                Ok(())
            }
            Form::Addr { space, lo, hi } => {
                if *space != 0 {
                    return nl(
                        Some(at),
                        format!("a memory location in address space {space}: DWARF 5 locations have no address space (AMD uses DW_OP_LLVM_form_aspace_address)"),
                    );
                }
                self.check_interval(*space, lo, hi, at)
            }
            Form::Val { .. } => {
                self.emit(DwOp::StackValue);
                Ok(())
            }
            Form::Reg { reg, .. } => {
                self.emit(DwOp::Regx(*reg));
                Ok(())
            }
            Form::Mem { space, bit } => self.memory_terminal(*space, bit, at),
            Form::Const(v, _) => {
                self.emit(DwOp::ImplicitValue(v.to_le_bytes()));
                Ok(())
            }
            Form::Undef => Ok(()),
            Form::ImplPtr(k) => {
                let die = IMPLICIT_DIE_BASE + 0x10 * (*k as u32);
                self.emit(DwOp::ImplicitPointer(die, 0));
                Ok(())
            }
            Form::Composite(_) | Form::Deferred(_) => {
                nl(Some(at), "a composite inside a composite part")
            }
            Form::AddrOfSlot(_) => nl(
                Some(at),
                "an implicit pointer to a location computed at run time, in the result: DW_OP_implicit_pointer names a DIE, whose location would have to be that computation",
            ),
            Form::Loc { .. } | Form::LocMoved => Ok(()),
            Form::Multi(loc) => self.multi_loc(loc, 0, at),
            Form::ConstBefore(..) => {
                self.emit(DwOp::ImplicitValue(Vec::new()));
                Ok(())
            }
        }
    }

    /// Pushes the location `loc` of several single locations (`DW_OP_call4`
    /// of a new location-list DIE), when every single location and an offset
    /// `span` bits further stay inside its storage (a location-list entry is
    /// a DWARF expression, which cannot leave its storage; and see
    /// `Form::Loc`).
    pub(super) fn multi_loc(&mut self, loc: &LocDesc, span: u64, at: usize) -> R<()> {
        for s in &loc.singles {
            if s.storage == Storage::Undefined {
                continue;
            }
            let Some(size) = diopter_semantics::access::storage_bits(self.ctx, &s.storage) else {
                return nl(
                    Some(at),
                    "a single location whose storage the context does not give",
                );
            };
            if s.offset.sign() == num_bigint::Sign::Minus || &s.offset + span >= size {
                return nl(
                    Some(at),
                    format!("one of several single locations at bit {} of a {size}-bit storage: a location-list entry cannot leave its storage", s.offset),
                );
            }
        }
        let k = self.location_lists.len();
        let Some(die) = u32::try_from(k)
            .ok()
            .and_then(|k| k.checked_mul(0x10))
            .and_then(|o| o.checked_add(LOCLIST_DIE_BASE))
        else {
            return nl(Some(at), "too many location lists");
        };
        self.location_lists.push(loc.clone());
        self.emit(DwOp::Call4(die));
        Ok(())
    }

    /// `DIOpSelect` (AMD's extensions): `DW_OP_LLVM_select_bit_piece` of
    /// the two vectors' locations and the mask, whose lane `i` is the
    /// location the mask's bit `i` chooses, offset by `i` lanes.
    pub(super) fn lower_select(&mut self, children: &[usize], ty: &Type, at: usize) -> R<Form> {
        let Type::Vector { len, elem } = ty else {
            return nl(Some(at), "not well-formed: DIOpSelect of a non-vector");
        };
        let n = *len;
        if n == 0 || n > 256 {
            return nl(Some(at), "DIOpSelect of no or more than 256 lanes");
        }
        let w = self.bitsizeof(elem, Some(at))?;
        if w == 0 {
            return nl(Some(at), "DIOpSelect of lanes of no bits");
        }
        let (cm, c0, c1) = (children[0], children[1], children[2]);
        let mty = self.nodes[cm].ty.clone();
        let mw = self.bitsizeof(&mty, Some(at))?;
        let fm = self.lower_node(cm)?;
        let f0 = self.lower_node(c0)?;
        let f1 = self.lower_node(c1)?;
        let (t0, t1) = (self.nodes[c0].ty.clone(), self.nodes[c1].ty.clone());
        // The reference's lane i is its top input (c1) where the mask's bit
        // i is set, else c0; select_bit_piece takes the set-bit location
        // from the second entry below the mask: the stack must be
        // [c0's location, c1's location, mask].
        let span = (n - 1) * w;
        match (f0.is_slot(), f1.is_slot()) {
            (false, false) => {
                self.loc_on_top(&f0, &t0, span, at)?;
                self.loc_on_top(&f1, &t1, span, at)?;
            }
            (true, false) => {
                self.loc_on_top(&f0, &t0, span, at)?;
                self.loc_on_top(&f1, &t1, span, at)?;
            }
            (false, true) => {
                self.loc_on_top(&f1, &t1, span, at)?;
                self.loc_on_top(&f0, &t0, span, at)?;
                self.emit(DwOp::Swap);
            }
            (true, true) => {
                self.loc_on_top(&f1, &t1, span, at)?;
                self.emit(DwOp::Swap);
                self.loc_on_top(&f0, &t0, span, at)?;
                self.emit(DwOp::Swap);
            }
        }
        if fm.is_slot() {
            // [mask, l0, l1] -> [l0, l1, mask]
            self.emit(DwOp::Rot);
            self.emit(DwOp::Rot);
        }
        // The mask's bits as an integer of its width (the reference reads
        // `bitsizeof` of its type).
        self.read(&fm, &Type::Int(mw), at, 0)?;
        self.emit(DwOp::Llvm(LlvmDwOp::SelectBitPiece(w, n)));
        Ok(Form::Loc {
            size: n * w,
            bit: 0,
        })
    }

    /// One piece of a composite: `f`'s location then `DW_OP_piece` (or
    /// `DW_OP_bit_piece` when the part is not whole bytes or starts inside
    /// its storage).
    pub(super) fn piece(&mut self, f: Form, bits: u64, at: usize) -> R<()> {
        match f {
            Form::Composite(parts) => {
                let total: u64 = parts.iter().map(|p| p.1).sum();
                if total != bits {
                    return nl(Some(at), "a composite part of another size than its parts");
                }
                for (pf, pb) in parts {
                    self.piece(pf, pb, at)?;
                }
                return Ok(());
            }
            Form::Deferred(id) => {
                return self.deferred_or_picked(id, false);
            }
            _ => {}
        }
        // A part of no bits is still a piece (`DW_OP_piece 0`): its location
        // was computed, and after a piece only another piece may follow.
        no_computed_float_part(&f, at)?;
        let offset = match &f {
            Form::Reg { bit, .. } => *bit,
            Form::Mem { bit, .. } => mod8(bit),
            Form::Const(v, k) => {
                // DW_OP_implicit_value holds whole bytes: a part reaching
                // into the padding would read bits the reference does not
                // have.
                if !v.width().is_multiple_of(8) && k.saturating_add(bits) > v.width() {
                    return nl(
                        Some(at),
                        format!("a composite part reading past the end of a {}-bit implicit value: DW_OP_implicit_value holds whole bytes", v.width()),
                    );
                }
                *k
            }
            Form::ConstBefore(_, k) => {
                // The empty implicit value fails every read, right only for
                // a part whose bits all lie before the value: one reaching
                // into it reads those bits in the spec (through a later
                // offset into the composite).
                if k + BigInt::from(bits) > BigInt::zero() {
                    return nl(
                        Some(at),
                        "a composite part reaching from before the start of an implicit value into it: DW_OP_bit_piece offsets are unsigned",
                    );
                }
                0
            }
            // The guard of a run-time offset gives a location outside its
            // storage one that fails every read; but a part starting before
            // its storage reaches back into it, and a later offset into the
            // composite reads those bits in the spec.
            Form::LocMoved => {
                return nl(
                    Some(at),
                    "a location moved by an offset computed at run time as a composite part: it may start before its storage and reach back into it, which the guard's outside branch cannot say",
                )
            }
            _ => 0,
        };
        if self.explicit_undef && matches!(f, Form::Undef) {
            self.emit(DwOp::Llvm(LlvmDwOp::Undefined));
        }
        self.single_terminal(&f, at)?;
        if offset == 0 && bits.is_multiple_of(8) {
            self.emit(DwOp::Piece(bits / 8));
        } else {
            self.emit(DwOp::BitPiece(bits, offset));
        }
        self.incomplete_open = true;
        Ok(())
    }

    /// The pieces of a `DIOpComposite` entry: each part lowered in push
    /// order (the deepest first, at bit 0), from an empty DWARF stack.
    /// [`Self::deferred_pieces`]; with AMD's extensions, where a part needs
    /// a composite (or a guard's piece) of its own while the parts' pieces
    /// are open, [`Self::picked_pieces`] instead.
    pub(super) fn deferred_or_picked(&mut self, id: usize, root: bool) -> R<()> {
        if !self.ext {
            return self.deferred_pieces(id);
        }
        let snap = self.snapshot();
        match self.deferred_pieces(id) {
            Err(e)
                if e.reason
                    .starts_with("a composite formed while another one's pieces")
                    || e.reason
                        .starts_with("a run-time offset while a composite's pieces") =>
            {
                self.restore(snap);
                self.picked_pieces(id, root)
            }
            r => r,
        }
    }

    /// The parts of a `DIOpComposite` entry as locations on the stack first,
    /// in push order (each part's own composites formed while no piece is
    /// open), then the composite from copies of them (`DW_OP_pick`), closed
    /// by `DW_OP_LLVM_piece_end`, and the originals dropped. Not at the
    /// root, the composite is then one piece of the enclosing one.
    pub(super) fn picked_pieces(&mut self, id: usize, root: bool) -> R<()> {
        let children = self.nodes[id].children.clone();
        let at = self.nodes[id].op_index;
        let n = children.len();
        if n == 0 || n > 200 {
            return nl(
                Some(at),
                "a composite of no or more than 200 parts, formed from copies",
            );
        }
        // Something other than an incomplete composite below the parts, so
        // that the first part's own composite does not join an open one.
        let outer_open = self.incomplete_open;
        if outer_open {
            self.emit(DwOp::Lit(0));
        }
        self.incomplete_open = false;
        let mut sizes = Vec::new();
        for &c in &children {
            let f = self.lower_node(c)?;
            let cty = self.nodes[c].ty.clone();
            let b = self.bitsizeof(&cty, Some(at))?;
            no_computed_float_part(&f, at)?;
            if !matches!(f, Form::Loc { .. } | Form::LocMoved) {
                self.loc_on_top(&f, &cty, 0, at)?;
            }
            sizes.push(b);
        }
        for (i, b) in sizes.iter().enumerate() {
            // Part i lies n - 1 - i entries below the top, and one more once
            // the incomplete composite is there.
            let depth = n - 1 - i + usize::from(i > 0);
            self.emit(DwOp::Pick(depth as u8));
            if b.is_multiple_of(8) {
                self.emit(DwOp::Piece(b / 8));
            } else {
                self.emit(DwOp::BitPiece(*b, 0));
            }
        }
        self.emit(DwOp::Llvm(LlvmDwOp::PieceEnd));
        for _ in 0..n + usize::from(outer_open) {
            self.emit(DwOp::Swap);
            self.emit(DwOp::Drop);
        }
        self.incomplete_open = outer_open;
        if !root {
            let total: u64 = sizes.iter().sum();
            if total.is_multiple_of(8) {
                self.emit(DwOp::Piece(total / 8));
            } else {
                self.emit(DwOp::BitPiece(total, 0));
            }
            self.incomplete_open = true;
        }
        Ok(())
    }

    /// The lowering's state, to try one way and fall back on another.
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            ops: self.ops.len(),
            div_ops: self.div_ops.len(),
            registers: self.registers.len(),
            implicit_targets: self.implicit_targets.len(),
            location_lists: self.location_lists.len(),
            read_sites: self.read_sites.len(),
            assumed_register_bits: self.assumed_register_bits.len(),
            explicit_undef: self.explicit_undef,
            incomplete_open: self.incomplete_open,
        }
    }

    pub(super) fn restore(&mut self, s: Snapshot) {
        // Every list only grows while lowering: cutting it back restores it.
        self.ops.truncate(s.ops);
        self.div_ops.truncate(s.div_ops);
        self.registers.truncate(s.registers);
        self.implicit_targets.truncate(s.implicit_targets);
        self.location_lists.truncate(s.location_lists);
        self.read_sites.truncate(s.read_sites);
        self.assumed_register_bits.truncate(s.assumed_register_bits);
        self.explicit_undef = s.explicit_undef;
        self.incomplete_open = s.incomplete_open;
    }

    pub(super) fn deferred_pieces(&mut self, id: usize) -> R<()> {
        let children = self.nodes[id].children.clone();
        let at = self.nodes[id].op_index;
        for c in children {
            let f = self.lower_node(c)?;
            let cty = self.nodes[c].ty.clone();
            let b = self.bitsizeof(&cty, Some(at))?;
            self.piece(f, b, at)?;
        }
        Ok(())
    }
}

/// A float computed by DWARF arithmetic may not be a composite's part:
/// DWARF leaves its NaN payload unspecified, so the part's bits are not
/// the reference's.
fn no_computed_float_part(f: &Form, at: usize) -> R<()> {
    if let Form::Val {
        computed_float: true,
        ..
    } = f
    {
        return nl(
            Some(at),
            "a float computed by DWARF arithmetic as a composite part: NaN payloads are unspecified",
        );
    }
    Ok(())
}
