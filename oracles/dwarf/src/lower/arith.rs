//! Arithmetic: `DIOpOffset`/`DIOpBitOffset`/`DIOpByteOffset` (static where
//! the offset is known, computed otherwise) and the binary operations of the
//! `DIOpAdd` family, lane by lane for vectors, in narrow containers for small
//! integers.

use super::*;

impl Lowerer<'_> {
    pub(super) fn lower_offset(&mut self, l: usize, b: usize, scale: i64, at: usize) -> R<Form> {
        let fl = self.lower_node(l)?;
        let fb = self.lower_node(b)?;
        let bty = self.nodes[b].ty.clone();
        let Type::Int(bw) = bty else {
            return nl(Some(at), "not well-formed: a non-integer offset");
        };
        // A constant offset is folded; any other is read (the reference reads
        // it, and the read may fail).
        let known = match &fb {
            Form::Const(bits, k) if bits.width() >= bw.saturating_add(*k) => {
                Some(bits.slice(*k, bw).to_bigint() * BigInt::from(scale))
            }
            _ => None,
        };
        if let Some(v) = known {
            return match fl {
                Form::Reg { reg, bit } => match (BigInt::from(bit) + &v).to_u64() {
                    Some(bit) => Ok(Form::Reg { reg, bit }),
                    None => nl(
                        Some(at),
                        "a negative bit offset into a register: DWARF registers have no negative offsets",
                    ),
                },
                Form::Mem { space, bit } => Ok(Form::Mem {
                    space,
                    bit: bit + v,
                }),
                Form::Addr { space, lo, hi } => {
                    if mod8(&v) != 0 {
                        return nl(
                            Some(at),
                            "a bit offset that is not on a byte, into a computed memory location",
                        );
                    }
                    let bytes = floor8(&v);
                    let Some(c) = bytes.to_i64() else {
                        return nl(Some(at), "a byte offset beyond 64 bits");
                    };
                    if c >= 0 {
                        self.emit(DwOp::PlusUconst(c as u64));
                    } else {
                        self.emit(DwOp::Consts(c));
                        self.emit(DwOp::Plus);
                    }
                    Ok(Form::Addr {
                        space,
                        lo: lo + &bytes,
                        hi: hi + &bytes,
                    })
                }
                // Past the end is a location still (the spec fails only when
                // it is read, and so does DW_OP_bit_piece's unchecked offset,
                // ext.rs decision 11); before the start, no DWARF piece says.
                Form::Const(bits, k) => match (BigInt::from(k) + &v).to_u64() {
                    Some(k) => Ok(Form::Const(bits, k)),
                    None => Ok(Form::ConstBefore(bits, BigInt::from(k) + v)),
                },
                Form::ConstBefore(bits, k) => match (&k + &v).to_u64() {
                    Some(k) => Ok(Form::Const(bits, k)),
                    None => Ok(Form::ConstBefore(bits, k + v)),
                },
                Form::Undef => Ok(Form::Undef),
                Form::Val {
                    computed_float: true,
                    ..
                } => nl(
                    Some(at),
                    "an offset into a float computed by DWARF arithmetic: NaN payloads are unspecified",
                ),
                Form::Val { bt, .. } if self.ext => {
                    // DW_OP_stack_value mid-expression: the value's implicit
                    // location (AMD's extensions).
                    let lty = self.nodes[l].ty.clone();
                    let size = self.value_loc(&lty, bt, at)?;
                    self.offset_loc(size, 0, &v, at)
                }
                Form::Loc { size, bit } => self.offset_loc(size, bit, &v, at),
                Form::Multi(loc) => Ok(Form::Multi(loc.with_bit_offset(&v))),
                Form::LocMoved => nl(
                    Some(at),
                    "an offset into a location moved by an offset computed at run time: it may have left its storage and come back, which AMD's checked offsets cannot say",
                ),
                Form::Composite(_) | Form::Deferred(_) if self.ext => {
                    let size = self.composite_loc(fl, at)?;
                    self.offset_loc(size, 0, &v, at)
                }
                Form::Val { .. } => nl(
                    Some(at),
                    "an offset into a computed value: DWARF cannot offset an implicit value",
                ),
                Form::ImplPtr(_) | Form::AddrOfSlot(_) => {
                    nl(Some(at), "an offset into an implicit pointer")
                }
                Form::Composite(_) | Form::Deferred(_) => nl(
                    Some(at),
                    "an offset into a composite: DWARF pieces cannot be offset",
                ),
            };
        }
        if self.ext
            && matches!(
                fl,
                Form::Reg { .. }
                    | Form::Const(..)
                    | Form::Val { .. }
                    | Form::Loc { .. }
                    | Form::Composite(_)
                    | Form::Deferred(_)
            )
        {
            let lty = self.nodes[l].ty.clone();
            let ty = self.nodes[self.node_of(at)].ty.clone();
            return self.runtime_offset_loc(&fl, &lty, &fb, &bty, scale, &ty, at);
        }
        if scale != 8 && self.ext && matches!(fl, Form::Addr { .. } | Form::Mem { .. }) {
            return self.runtime_bit_offset_memory(fl, &fb, &bty, bw, at);
        }
        if scale != 8 {
            return nl(
                Some(at),
                "a bit offset computed at run time: DW_OP_bit_piece offsets are constants",
            );
        }
        match &fl {
            Form::Addr { .. } | Form::Mem { .. } | Form::Undef => {}
            _ => {
                return nl(
                    Some(at),
                    "a byte offset computed at run time into a register or value: DWARF offsets only addresses",
                )
            }
        }
        // The offset's value, sign-extended to a generic value, on top.
        self.read(&fb, &bty, at, 0)?;
        self.emit(DwOp::Convert(None));
        let half = BigInt::one() << (bw - 1);
        match fl {
            Form::Undef => {
                self.emit(DwOp::Drop);
                Ok(Form::Undef)
            }
            Form::Mem { space, bit } => {
                let a = self.static_address(space, &bit, at)?;
                self.push_address(a);
                self.emit(DwOp::Plus);
                let a = bit / 8;
                Ok(Form::Addr {
                    space,
                    lo: &a - &half,
                    hi: &a + &half - 1,
                })
            }
            Form::Addr { space, lo, hi } => {
                self.emit(DwOp::Plus);
                Ok(Form::Addr {
                    space,
                    lo: lo - &half,
                    hi: hi + &half - 1,
                })
            }
            _ => unreachable!("filtered above"),
        }
    }

    pub(super) fn lower_binary(
        &mut self,
        op: &Op,
        c2: usize,
        c1: usize,
        ty: &Type,
        at: usize,
    ) -> R<Form> {
        // c2 was pushed first (V2, the deeper), c1 is the top (V1).
        let lanes = int_vector(ty);
        for t in [&self.nodes[c1].ty, &self.nodes[c2].ty, ty] {
            if raw_bits(t, self.ext) && lanes.is_none() {
                return nl(
                    Some(at),
                    format!("arithmetic on `{t}`: the evaluators compute with integers and IEEE single and double only (its bits are only moved; integer vectors are computed lane by lane)"),
                );
            }
        }
        let f2 = self.lower_node(c2)?;
        let f1 = self.lower_node(c1)?;
        let t1 = self.nodes[c1].ty.clone();
        let t2 = self.nodes[c2].ty.clone();
        // The reference reads V1 (the top) first, then V2.
        let b1 = self.read(&f1, &t1, at, 0)?;
        let b2 = self.read(&f2, &t2, at, 1)?;
        if let Some((n, elem)) = lanes {
            return self.lanewise_binary(op, n, &elem, b2, at);
        }
        self.scalar_binary(op, b1, b2, &t2, at)
    }

    /// An integer vector operation on two vectors of `n` lanes of `elem`,
    /// held as their bits in the unsigned `u` (V1 on top, V2 below), lane
    /// by lane as the reference computes (lane `i` in bits `i·E..(i+1)·E`,
    /// lane 0 first, so a division by zero fails at the reference's lane):
    /// each lane of V2 and V1 taken out into its element's container (a
    /// logical shift down, DW_OP_convert keeping the low bits, the sign
    /// extension of a narrow element), the element's operation
    /// ([`Self::scalar_binary`]), the result's E bits put back in place and
    /// OR-ed into the result.
    pub(super) fn lanewise_binary(
        &mut self,
        op: &Op,
        n: u64,
        elem: &Type,
        held: BaseType,
        at: usize,
    ) -> R<Form> {
        let e = self.bitsizeof(elem, Some(at))?;
        let c = self.bt(elem, at)?;
        let total = n.saturating_mul(e);
        if total > held.bits() || n > 64 {
            return nl(
                Some(at),
                format!("arithmetic on a vector of {n} lanes of {e} bits held in {} bits: lanes and container disagree, or too many lanes", held.bits()),
            );
        }
        let cu = BaseType::int(u64::from(c.bytes()), false).expect("an integer width");
        // A vector of a width no base type has is held sign-extended in a
        // signed container (`raw_narrow_container`): its lanes are taken
        // out of, and put back into, the unsigned reading of its bits.
        let u = BaseType::int(u64::from(held.bytes()), false).expect("an integer width");
        if u != held {
            self.emit(DwOp::Reinterpret(u));
            self.emit(DwOp::Swap);
            self.emit(DwOp::Reinterpret(u));
            self.emit(DwOp::Swap);
        }
        // [V2, V1] -> [V2, V1, 0]
        self.emit(DwOp::ConstType(u, vec![0; usize::from(u.bytes())]));
        for i in 0..n {
            for _ in 0..2 {
                // [.., acc] -> [.., acc, V2's lane] -> [.., acc, a, V1's lane]
                self.emit(DwOp::Pick(2));
                if i > 0 {
                    self.shift_by_const(DwOp::Shr, u, i * e);
                }
                if c != u {
                    self.emit(DwOp::Convert(Some(c)));
                }
                self.sign_extend_top(c, e);
            }
            let r = self.scalar_binary(op, c, c, elem, at)?;
            let Form::Val { bt: rb, .. } = r else {
                return nl(Some(at), "a lane's result is not a value");
            };
            self.zero_extend_top(rb, e);
            if rb.is_signed() {
                self.emit(DwOp::Reinterpret(cu));
            }
            if cu != u {
                self.emit(DwOp::Convert(Some(u)));
            }
            if i > 0 {
                self.shift_by_const(DwOp::Shl, u, i * e);
            }
            self.emit(DwOp::Or);
        }
        // [V2, V1, acc] -> [acc]
        self.emit(DwOp::Rot);
        self.emit(DwOp::Drop);
        self.emit(DwOp::Drop);
        if u != held {
            self.emit(DwOp::Reinterpret(held));
            self.sign_extend_top(held, total);
        }
        Ok(Form::Val {
            bt: held,
            computed_float: false,
        })
    }

    /// The operation on the two values on top (V1, of base type `b1`, on
    /// top; V2, of `b2` and type `t2`, below): their result.
    pub(super) fn scalar_binary(
        &mut self,
        op: &Op,
        b1: BaseType,
        b2: BaseType,
        t2: &Type,
        at: usize,
    ) -> R<Form> {
        let is_float = b2.is_float();
        let computed_float = is_float;
        let int_only = |s: &Self| -> R<()> {
            if is_float {
                let _ = s;
                return nl(Some(at), "not well-formed: an integer operation on floats");
            }
            Ok(())
        };
        if let Some(w) = narrow_width(t2) {
            return self.narrow_binary(op, w, b2, at);
        }
        match op {
            Op::Add => self.emit(DwOp::Plus),
            Op::Sub => self.emit(DwOp::Minus),
            Op::Mul => self.emit(DwOp::Mul),
            Op::Div => {
                self.emit(DwOp::Div);
                if !is_float {
                    self.div_ops.push((self.ops.len() - 1, at));
                }
            }
            Op::Mod => {
                int_only(self)?;
                self.emit(DwOp::Mod);
                self.div_ops.push((self.ops.len() - 1, at));
            }
            Op::And => {
                int_only(self)?;
                self.emit(DwOp::And)
            }
            Op::Or => {
                int_only(self)?;
                self.emit(DwOp::Or)
            }
            Op::Xor => {
                int_only(self)?;
                self.emit(DwOp::Xor)
            }
            Op::Shl | Op::Shr | Op::LShr | Op::AShr => {
                int_only(self)?;
                self.full_width_shift(op, b1, b2);
            }
            _ => return nl(Some(at), "not a binary operation"),
        }
        Ok(Form::Val {
            bt: b2,
            computed_float,
        })
    }

    /// A shift of V2 (below, of base type `b2`) by V1 (on top, of `b1`, the
    /// same width: DIOp shifts take two operands of one type). The amount is
    /// unsigned (DESIGN.md), and DWARF 5 wants both operands of one type
    /// (§2.5.1.4: "Operands of an operation with two operands must have the
    /// same type"; GDB enforces it), so each shift runs with both operands
    /// in the unsigned type `u` of that width. An arithmetic shift, which
    /// DW_OP_shra gives only for a signed value, is the logical one of
    /// V2 ^ s, XOR-ed with s again (s = V2's sign fill, V2 >> (w - 1)
    /// arithmetically, both operands of V2's signed type): an amount of `w`
    /// or more then gives the sign fill, as the reference's.
    pub(super) fn full_width_shift(&mut self, op: &Op, b1: BaseType, b2: BaseType) {
        let u = BaseType::int(u64::from(b2.bytes()), false).expect("an integer width");
        let st = BaseType::int(u64::from(b2.bytes()), true).expect("an integer width");
        debug_assert_eq!(b1.bytes(), b2.bytes(), "a shift's operands have one type");
        let to = |s: &mut Self, from: BaseType, to: BaseType| {
            if from != to {
                s.emit(DwOp::Reinterpret(to));
            }
        };
        match op {
            Op::Shl | Op::Shr | Op::LShr => {
                // [V2, V1] -> [V2u, V1u] -> [V2u op V1u] -> back to b2
                to(self, b1, u);
                self.emit(DwOp::Swap);
                to(self, b2, u);
                self.emit(DwOp::Swap);
                self.emit(if matches!(op, Op::Shl) {
                    DwOp::Shl
                } else {
                    DwOp::Shr
                });
                to(self, u, b2);
            }
            _ => {
                // [V2, V1] -> [V1, V2s, V2s] -> [V1, V2s, s] -> [V1, s, V2s ^ s]
                self.emit(DwOp::Swap);
                to(self, b2, st);
                self.emit(DwOp::Dup);
                self.shift_by_const(DwOp::Shra, st, st.bits() - 1);
                self.emit(DwOp::Swap);
                self.emit(DwOp::Pick(1));
                self.emit(DwOp::Xor);
                // -> [V1, s, y u] -> [s, y u, V1] -> [s, y u >> V1 u] -> [s ^ that]
                to(self, st, u);
                self.emit(DwOp::Rot);
                self.emit(DwOp::Rot);
                to(self, b1, u);
                self.emit(DwOp::Shr);
                to(self, u, st);
                self.emit(DwOp::Xor);
                to(self, st, b2);
            }
        }
    }

    /// A binary operation on two `iN` values of a narrow width `w`, each
    /// sign-extended in the signed container `c` (V1 on top, V2 below): the
    /// container's operation, then the sign extension from `w` bits where
    /// the result may leave the w-bit range. Shift amounts are unsigned
    /// w-bit numbers (DESIGN.md): zero-extended first, so that an amount of
    /// at least `w` shifts every bit out (DWARF's shifts give 0, or the sign
    /// fill, for amounts of the container's width and more).
    pub(super) fn narrow_binary(&mut self, op: &Op, w: u64, c: BaseType, at: usize) -> R<Form> {
        let u = BaseType::int(u64::from(c.bytes()), false).expect("an integer width");
        match op {
            Op::Add | Op::Sub | Op::Mul => {
                self.emit(match op {
                    Op::Add => DwOp::Plus,
                    Op::Sub => DwOp::Minus,
                    _ => DwOp::Mul,
                });
                self.sign_extend_top(c, w);
            }
            Op::Div => {
                // Signed and truncating on the sign-extended values; only
                // INT_MIN / -1 (2^(w-1)) leaves the range, and wraps back.
                self.emit(DwOp::Div);
                self.div_ops.push((self.ops.len() - 1, at));
                self.sign_extend_top(c, w);
            }
            Op::Mod => {
                // |V2 mod V1| < |V1|: always in range.
                self.emit(DwOp::Mod);
                self.div_ops.push((self.ops.len() - 1, at));
            }
            // Bitwise operations keep sign-extended values sign-extended.
            Op::And => self.emit(DwOp::And),
            Op::Or => self.emit(DwOp::Or),
            Op::Xor => self.emit(DwOp::Xor),
            Op::Shl => {
                self.zero_extend_top(c, w);
                self.emit(DwOp::Shl);
                self.sign_extend_top(c, w);
            }
            Op::AShr => {
                // The sign-extended V2 shifted arithmetically is V2's sign
                // fill from bit w up: still sign-extended.
                self.zero_extend_top(c, w);
                self.emit(DwOp::Shra);
            }
            Op::Shr | Op::LShr => {
                // DW_OP_shr shifts unsigned values only: V2's w bits as an
                // unsigned number of the container's width, shifted by V1's
                // (of that type too: DWARF 5 §2.5.1.4), back into the
                // container.
                self.zero_extend_top(c, w);
                self.emit(DwOp::Reinterpret(u));
                self.emit(DwOp::Swap);
                if !diopter_faults::planted!("lower-narrow-lshr-no-zext") {
                    self.zero_extend_top(c, w);
                }
                self.emit(DwOp::Reinterpret(u));
                self.emit(DwOp::Swap);
                self.emit(DwOp::Shr);
                self.emit(DwOp::Reinterpret(c));
                self.sign_extend_top(c, w);
            }
            _ => return nl(Some(at), "not a binary operation"),
        }
        Ok(Form::Val {
            bt: c,
            computed_float: false,
        })
    }
}
