//! `DIOpConvert`: integer and float conversions between DWARF base types.

use super::*;

impl Lowerer<'_> {
    pub(super) fn lower_convert(&mut self, f: &Form, from: &Type, to: &Type, at: usize) -> R<Form> {
        if raw_bits(from, self.ext) || raw_bits(to, self.ext) {
            return nl(
                Some(at),
                format!("DIOpConvert from `{from}` to `{to}`: the evaluators convert integers and IEEE floats only (its bits are only moved; gimli has no half or bfloat)"),
            );
        }
        let a = self.read(f, from, at, 0)?;
        let computed_in = matches!(
            f,
            Form::Val {
                computed_float: true,
                ..
            }
        );
        let b = self.bt(to, at)?;
        let computed_float = match (from, to) {
            (Type::Float(_), Type::Float(_)) => {
                self.emit(DwOp::Convert(Some(b)));
                true
            }
            (Type::Int(_), Type::Float(_)) if a.is_wide() => {
                return nl(
                    Some(at),
                    "DIOpConvert from an integer wider than 64 bits to a float: the extension evaluator converts no wide integer to a float",
                )
            }
            (Type::Int(_), Type::Float(_)) => {
                self.signed_to_float(a, b);
                false
            }
            (Type::Float(_), _) => {
                return nl(
                    Some(at),
                    "DIOpConvert from a float to an integer: DW_OP_convert has no out-of-range error",
                )
            }
            _ if narrow_width(from).is_some() || narrow_width(to).is_some() => {
                // Keep the bits, truncated or zero-extended, where one side
                // is an integer of a width without a base type.
                let n = self.bitsizeof(from, Some(at))?;
                let m = self.bitsizeof(to, Some(at))?;
                self.resize_int(a, n, b, m);
                false
            }
            _ => {
                // Integers and pointers: keep the bits, truncated or
                // zero-extended (pointers are unsigned; a widening integer
                // conversion, diexpr only, zero-extends).
                if a != b {
                    if a.bits() < b.bits() && a.is_signed() {
                        self.emit(DwOp::Reinterpret(
                            BaseType::int(u64::from(a.bytes()), false).expect("an integer width"),
                        ));
                    }
                    self.emit(DwOp::Convert(Some(b)));
                }
                computed_in && b.is_float()
            }
        };
        Ok(Form::Val {
            bt: b,
            computed_float,
        })
    }

    /// The signed integer on top, of base type `a` (a narrow one
    /// sign-extended in its container), becomes the float `b` nearest to it
    /// (ties to even), as the reference's DIOpConvert. gimli's (and so the
    /// extension evaluator's) DW_OP_convert reads every integer as an
    /// unsigned 64-bit number, which is right for non-negative values only;
    /// a negative one is negated first (as an int64_t: INT64_MIN stays
    /// itself, whose unsigned reading 2^63 is its magnitude), converted and
    /// negated back (round to nearest even is symmetric).
    pub(super) fn signed_to_float(&mut self, a: BaseType, b: BaseType) {
        if a != BaseType::I64 {
            self.emit(DwOp::Convert(Some(BaseType::I64)));
        }
        self.emit(DwOp::Dup);
        self.emit(DwOp::ConstType(BaseType::I64, vec![0; 8]));
        self.emit(DwOp::Lt);
        let positive = [DwOp::Convert(Some(b))];
        let negative = [DwOp::Neg, DwOp::Convert(Some(b)), DwOp::Neg];
        let len = |ops: &[DwOp]| encode(ops).len() as i16;
        let skip = DwOp::Skip(len(&negative));
        self.emit(DwOp::Bra(len(&positive) + len(std::slice::from_ref(&skip))));
        self.ops.extend(positive);
        self.emit(skip);
        self.ops.extend(negative);
    }
}
