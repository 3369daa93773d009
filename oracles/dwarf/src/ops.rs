//! DWARF 5 expression operations as data: the subset the lowering emits (and
//! the few more AMD's expected output uses), their byte encoding, and their
//! spelling in `llvm-dwarfdump`'s syntax.
//!
//! The bytes are written here rather than with `gimli::write::Expression`
//! because gimli's writer refers to base types by `UnitEntryId`, which needs a
//! whole `write::Unit` around every expression; the opcodes and forms come
//! from `gimli::constants`, and the tests parse every sequence back with
//! gimli's reader (`gimli::read::Operation::parse`).
//!
//! Base types are referred to by a fixed, synthetic compilation unit: the
//! unit offsets in [`BaseType::die_offset`] (1..=14 for the fourteen scalar
//! types, [`WIDE_DIE_BASE`] up for the wide integers). The evaluators answer
//! gimli's `RequiresBaseType` from the same table; gimli's own evaluator
//! knows no wide integer (its `Value` stops at 64 bits) and no half,
//! bfloat, binary128 or x87 80-bit float, so only AMD's extension
//! evaluator ([`super::ext`]) reads those.

use gimli::constants as c;
use std::fmt;

/// The first unit offset of the wide integer base types: `IW(n)` is at
/// `WIDE_DIE_BASE + 2n`, `UW(n)` at `WIDE_DIE_BASE + 2n + 1` (above the
/// lowering's implicit-pointer and location-list DIEs).
pub const WIDE_DIE_BASE: u64 = 0x0200_0000;

/// The widest wide integer, in bytes: `DW_OP_const_type` gives its
/// constant's length and `DW_OP_deref_type` its size in one byte.
pub const WIDE_MAX_BYTES: u8 = 255;

/// The base types the lowering uses: DWARF's `DW_ATE_signed`,
/// `DW_ATE_unsigned` and `DW_ATE_float` of 1, 2, 4 and 8 bytes (float and
/// double only for floats), and signed and unsigned integers of 9 to 255
/// bytes (DWARF 5 puts no bound on a base type's size; these are what an
/// `iN` wider than 64 bits is computed in, with AMD's extensions only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BaseType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    /// `DW_ATE_float` of 2 bytes named `half`: IEEE binary16 (AMD's
    /// extensions only: gimli's `Value` has no such float).
    F16,
    /// `DW_ATE_float` of 2 bytes named `__bf16` (bfloat16; DWARF has no
    /// encoding telling it from half, so the name does, as GDB reads it).
    BF16,
    /// `DW_ATE_float` of 16 bytes named `__float128`: IEEE binary128.
    F128,
    /// `DW_ATE_float` of 10 bytes named `__float80`: the x87 80-bit
    /// extended float (LLVM's `x86_fp80`, explicit integer bit). 10 bytes
    /// are the value's own 80 bits (LLVM's `bitsizeof(x86_fp80)`); a
    /// debugger's `long double` DIE often says 16 with 6 of padding, but
    /// the lowering moves exactly the 80 bits.
    F80,
    /// A signed integer of `n` bytes, 9 ≤ `n` ≤ [`WIDE_MAX_BYTES`].
    IW(u8),
    /// An unsigned integer of `n` bytes, 9 ≤ `n` ≤ [`WIDE_MAX_BYTES`].
    UW(u8),
}

impl BaseType {
    pub const ALL: [BaseType; 14] = [
        BaseType::I8,
        BaseType::I16,
        BaseType::I32,
        BaseType::I64,
        BaseType::U8,
        BaseType::U16,
        BaseType::U32,
        BaseType::U64,
        BaseType::F32,
        BaseType::F64,
        BaseType::F16,
        BaseType::BF16,
        BaseType::F128,
        BaseType::F80,
    ];

    /// The unit offset of this base type's DIE in the synthetic unit.
    pub fn die_offset(self) -> u64 {
        match self {
            BaseType::IW(n) => WIDE_DIE_BASE + 2 * u64::from(n),
            BaseType::UW(n) => WIDE_DIE_BASE + 2 * u64::from(n) + 1,
            _ => {
                BaseType::ALL
                    .iter()
                    .position(|b| *b == self)
                    .expect("in ALL") as u64
                    + 1
            }
        }
    }

    pub fn from_die_offset(off: u64) -> Option<BaseType> {
        if let Some(rel) = off.checked_sub(WIDE_DIE_BASE) {
            let n = u8::try_from(rel / 2).ok().filter(|n| *n > 8)?;
            return Some(if rel % 2 == 0 {
                BaseType::IW(n)
            } else {
                BaseType::UW(n)
            });
        }
        usize::try_from(off)
            .ok()
            .and_then(|o| o.checked_sub(1))
            .and_then(|i| BaseType::ALL.get(i).copied())
    }

    pub fn bytes(self) -> u8 {
        match self {
            BaseType::I8 | BaseType::U8 => 1,
            BaseType::I16 | BaseType::U16 | BaseType::F16 | BaseType::BF16 => 2,
            BaseType::I32 | BaseType::U32 | BaseType::F32 => 4,
            BaseType::I64 | BaseType::U64 | BaseType::F64 => 8,
            BaseType::IW(n) | BaseType::UW(n) => n,
            BaseType::F128 => 16,
            BaseType::F80 => 10,
        }
    }

    /// A wide integer (more than 8 bytes): no gimli value type.
    pub fn is_wide(self) -> bool {
        matches!(self, BaseType::IW(_) | BaseType::UW(_))
    }

    /// A signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            BaseType::I8 | BaseType::I16 | BaseType::I32 | BaseType::I64 | BaseType::IW(_)
        )
    }

    /// The integer type of `bytes` bytes (1, 2, 4, 8 or 9..=255), signed or not.
    pub fn int(bytes: u64, signed: bool) -> Option<BaseType> {
        match bytes {
            9..=255 if signed => Some(BaseType::IW(bytes as u8)),
            9..=255 => Some(BaseType::UW(bytes as u8)),
            _ if signed => BaseType::signed(bytes * 8),
            _ => BaseType::unsigned(bytes * 8),
        }
    }

    pub fn bits(self) -> u64 {
        u64::from(self.bytes()) * 8
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            BaseType::F32
                | BaseType::F64
                | BaseType::F16
                | BaseType::BF16
                | BaseType::F128
                | BaseType::F80
        )
    }

    /// The signed integer type of `bits` bits (8, 16, 32, 64).
    pub fn signed(bits: u64) -> Option<BaseType> {
        match bits {
            8 => Some(BaseType::I8),
            16 => Some(BaseType::I16),
            32 => Some(BaseType::I32),
            64 => Some(BaseType::I64),
            _ => None,
        }
    }

    /// The unsigned integer type of `bits` bits (8, 16, 32, 64).
    pub fn unsigned(bits: u64) -> Option<BaseType> {
        match bits {
            8 => Some(BaseType::U8),
            16 => Some(BaseType::U16),
            32 => Some(BaseType::U32),
            64 => Some(BaseType::U64),
            _ => None,
        }
    }

    /// gimli's value type for this base type (none for a wide integer).
    pub fn value_type(self) -> Option<gimli::read::ValueType> {
        use gimli::read::ValueType as V;
        Some(match self {
            BaseType::I8 => V::I8,
            BaseType::I16 => V::I16,
            BaseType::I32 => V::I32,
            BaseType::I64 => V::I64,
            BaseType::U8 => V::U8,
            BaseType::U16 => V::U16,
            BaseType::U32 => V::U32,
            BaseType::U64 => V::U64,
            BaseType::F32 => V::F32,
            BaseType::F64 => V::F64,
            BaseType::IW(_)
            | BaseType::UW(_)
            | BaseType::F16
            | BaseType::BF16
            | BaseType::F128
            | BaseType::F80 => return None,
        })
    }

    /// A C-like name, as `llvm-dwarfdump` shows a base type's `DW_AT_name`.
    pub fn name(self) -> String {
        match self {
            BaseType::F32 => "float".into(),
            BaseType::F64 => "double".into(),
            BaseType::F16 => "half".into(),
            BaseType::BF16 => "__bf16".into(),
            BaseType::F128 => "__float128".into(),
            BaseType::F80 => "__float80".into(),
            b if b.is_signed() => format!("int{}_t", b.bits()),
            b => format!("uint{}_t", b.bits()),
        }
    }
}

/// One DWARF expression operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DwOp {
    /// `DW_OP_lit0` .. `DW_OP_lit31`.
    Lit(u8),
    Addr(u64),
    Constu(u64),
    Consts(i64),
    /// `DW_OP_const_type`: a typed constant (its bytes, little-endian).
    ConstType(BaseType, Vec<u8>),
    /// `DW_OP_reg0` .. `DW_OP_reg31`.
    Reg(u16),
    Regx(u16),
    /// `DW_OP_breg0` .. `DW_OP_breg31`.
    Breg(u16, i64),
    Bregx(u16, i64),
    RegvalType(u16, BaseType),
    DerefSize(u8),
    DerefType(u8, BaseType),
    XderefSize(u8),
    XderefType(u8, BaseType),
    /// `DW_OP_convert`; `None` converts to the generic type.
    Convert(Option<BaseType>),
    Reinterpret(BaseType),
    Dup,
    Drop,
    Swap,
    Rot,
    /// `DW_OP_over`.
    Over,
    /// `DW_OP_pick`: a copy of the entry this many below the top.
    Pick(u8),
    /// `DW_OP_ge`, `DW_OP_lt`: 1 or 0 (signed for signed base types).
    Ge,
    Lt,
    /// `DW_OP_bra`, `DW_OP_skip`: a byte offset from the end of the operation.
    Bra(i16),
    Skip(i16),
    Plus,
    PlusUconst(u64),
    Minus,
    /// `DW_OP_neg`.
    Neg,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Shra,
    StackValue,
    ImplicitValue(Vec<u8>),
    /// `DW_OP_implicit_pointer` to the DIE at this `.debug_info` offset, plus a byte offset.
    ImplicitPointer(u32, i64),
    /// `DW_OP_call4` of the DIE at this unit offset.
    Call4(u32),
    Piece(u64),
    BitPiece(u64, u64),
    /// `DW_OP_addrx`: an index into `.debug_addr`.
    Addrx(u64),
    /// `DW_OP_deref`.
    Deref,
    /// AMD's extension operations, encoded `DW_OP_LLVM_user` + the vendor
    /// extension opcode (see [`user`] and `super::ext`).
    Llvm(LlvmDwOp),
}

/// The `DW_OP_LLVM_user` operations (AMD's heterogeneous-debugging
/// extensions), with their operands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LlvmDwOp {
    FormAspaceAddress,
    PushLane,
    Offset,
    OffsetUconst(u64),
    BitOffset,
    CallFrameEntryReg(u16),
    Undefined,
    AspaceBregx(u16, i64),
    PieceEnd,
    Extend(u64, u64),
    SelectBitPiece(u64, u64),
}

impl LlvmDwOp {
    /// The vendor extension opcode (the document's table, Dwarf.def).
    pub fn sub_opcode(&self) -> u64 {
        match self {
            LlvmDwOp::FormAspaceAddress => user::FORM_ASPACE_ADDRESS,
            LlvmDwOp::PushLane => user::PUSH_LANE,
            LlvmDwOp::Offset => user::OFFSET,
            LlvmDwOp::OffsetUconst(_) => user::OFFSET_UCONST,
            LlvmDwOp::BitOffset => user::BIT_OFFSET,
            LlvmDwOp::CallFrameEntryReg(_) => user::CALL_FRAME_ENTRY_REG,
            LlvmDwOp::Undefined => user::UNDEFINED,
            LlvmDwOp::AspaceBregx(..) => user::ASPACE_BREGX,
            LlvmDwOp::PieceEnd => user::PIECE_END,
            LlvmDwOp::Extend(..) => user::EXTEND,
            LlvmDwOp::SelectBitPiece(..) => user::SELECT_BIT_PIECE,
        }
    }

    /// The operation's name without operands (`DW_OP_LLVM_offset`).
    pub fn name(&self) -> &'static str {
        match self {
            LlvmDwOp::FormAspaceAddress => "DW_OP_LLVM_form_aspace_address",
            LlvmDwOp::PushLane => "DW_OP_LLVM_push_lane",
            LlvmDwOp::Offset => "DW_OP_LLVM_offset",
            LlvmDwOp::OffsetUconst(_) => "DW_OP_LLVM_offset_uconst",
            LlvmDwOp::BitOffset => "DW_OP_LLVM_bit_offset",
            LlvmDwOp::CallFrameEntryReg(_) => "DW_OP_LLVM_call_frame_entry_reg",
            LlvmDwOp::Undefined => "DW_OP_LLVM_undefined",
            LlvmDwOp::AspaceBregx(..) => "DW_OP_LLVM_aspace_bregx",
            LlvmDwOp::PieceEnd => "DW_OP_LLVM_piece_end",
            LlvmDwOp::Extend(..) => "DW_OP_LLVM_extend",
            LlvmDwOp::SelectBitPiece(..) => "DW_OP_LLVM_select_bit_piece",
        }
    }
}

fn uleb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn sleb(out: &mut Vec<u8>, mut v: i64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        if done {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

impl DwOp {
    /// Appends the operation's encoding (DWARF 5, 32-bit format, 8-byte
    /// addresses) to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            DwOp::Lit(n) => out.push(c::DW_OP_lit0.0 + n.min(&31)),
            DwOp::Addr(a) => {
                out.push(c::DW_OP_addr.0);
                out.extend_from_slice(&a.to_le_bytes());
            }
            DwOp::Constu(v) => {
                out.push(c::DW_OP_constu.0);
                uleb(out, *v);
            }
            DwOp::Consts(v) => {
                out.push(c::DW_OP_consts.0);
                sleb(out, *v);
            }
            DwOp::ConstType(b, bytes) => {
                out.push(c::DW_OP_const_type.0);
                uleb(out, b.die_offset());
                out.push(bytes.len() as u8);
                out.extend_from_slice(bytes);
            }
            DwOp::Reg(r) => out.push(c::DW_OP_reg0.0 + (*r).min(31) as u8),
            DwOp::Regx(r) => {
                out.push(c::DW_OP_regx.0);
                uleb(out, u64::from(*r));
            }
            DwOp::Breg(r, off) => {
                out.push(c::DW_OP_breg0.0 + (*r).min(31) as u8);
                sleb(out, *off);
            }
            DwOp::Bregx(r, off) => {
                out.push(c::DW_OP_bregx.0);
                uleb(out, u64::from(*r));
                sleb(out, *off);
            }
            DwOp::RegvalType(r, b) => {
                out.push(c::DW_OP_regval_type.0);
                uleb(out, u64::from(*r));
                uleb(out, b.die_offset());
            }
            DwOp::DerefSize(n) => {
                out.push(c::DW_OP_deref_size.0);
                out.push(*n);
            }
            DwOp::DerefType(n, b) => {
                out.push(c::DW_OP_deref_type.0);
                out.push(*n);
                uleb(out, b.die_offset());
            }
            DwOp::XderefSize(n) => {
                out.push(c::DW_OP_xderef_size.0);
                out.push(*n);
            }
            DwOp::XderefType(n, b) => {
                out.push(c::DW_OP_xderef_type.0);
                out.push(*n);
                uleb(out, b.die_offset());
            }
            DwOp::Convert(b) => {
                out.push(c::DW_OP_convert.0);
                uleb(out, b.map_or(0, |b| b.die_offset()));
            }
            DwOp::Reinterpret(b) => {
                out.push(c::DW_OP_reinterpret.0);
                uleb(out, b.die_offset());
            }
            DwOp::Dup => out.push(c::DW_OP_dup.0),
            DwOp::Drop => out.push(c::DW_OP_drop.0),
            DwOp::Swap => out.push(c::DW_OP_swap.0),
            DwOp::Rot => out.push(c::DW_OP_rot.0),
            DwOp::Over => out.push(c::DW_OP_over.0),
            DwOp::Pick(i) => {
                out.push(c::DW_OP_pick.0);
                out.push(*i);
            }
            DwOp::Ge => out.push(c::DW_OP_ge.0),
            DwOp::Lt => out.push(c::DW_OP_lt.0),
            DwOp::Neg => out.push(c::DW_OP_neg.0),
            DwOp::Bra(d) => {
                out.push(c::DW_OP_bra.0);
                out.extend_from_slice(&d.to_le_bytes());
            }
            DwOp::Skip(d) => {
                out.push(c::DW_OP_skip.0);
                out.extend_from_slice(&d.to_le_bytes());
            }
            DwOp::Plus => out.push(c::DW_OP_plus.0),
            DwOp::PlusUconst(v) => {
                out.push(c::DW_OP_plus_uconst.0);
                uleb(out, *v);
            }
            DwOp::Minus => out.push(c::DW_OP_minus.0),
            DwOp::Mul => out.push(c::DW_OP_mul.0),
            DwOp::Div => out.push(c::DW_OP_div.0),
            DwOp::Mod => out.push(c::DW_OP_mod.0),
            DwOp::And => out.push(c::DW_OP_and.0),
            DwOp::Or => out.push(c::DW_OP_or.0),
            DwOp::Xor => out.push(c::DW_OP_xor.0),
            DwOp::Shl => out.push(c::DW_OP_shl.0),
            DwOp::Shr => out.push(c::DW_OP_shr.0),
            DwOp::Shra => out.push(c::DW_OP_shra.0),
            DwOp::StackValue => out.push(c::DW_OP_stack_value.0),
            DwOp::ImplicitValue(bytes) => {
                out.push(c::DW_OP_implicit_value.0);
                uleb(out, bytes.len() as u64);
                out.extend_from_slice(bytes);
            }
            DwOp::Call4(die) => {
                out.push(c::DW_OP_call4.0);
                out.extend_from_slice(&die.to_le_bytes());
            }
            DwOp::ImplicitPointer(die, off) => {
                out.push(c::DW_OP_implicit_pointer.0);
                out.extend_from_slice(&die.to_le_bytes());
                sleb(out, *off);
            }
            DwOp::Piece(n) => {
                out.push(c::DW_OP_piece.0);
                uleb(out, *n);
            }
            DwOp::BitPiece(size, off) => {
                out.push(c::DW_OP_bit_piece.0);
                uleb(out, *size);
                uleb(out, *off);
            }
            DwOp::Addrx(i) => {
                out.push(c::DW_OP_addrx.0);
                uleb(out, *i);
            }
            DwOp::Deref => out.push(c::DW_OP_deref.0),
            DwOp::Llvm(op) => {
                out.push(DW_OP_LLVM_USER);
                uleb(out, op.sub_opcode());
                match op {
                    LlvmDwOp::OffsetUconst(v) => uleb(out, *v),
                    LlvmDwOp::CallFrameEntryReg(r) => uleb(out, u64::from(*r)),
                    LlvmDwOp::AspaceBregx(r, off) => {
                        uleb(out, u64::from(*r));
                        sleb(out, *off);
                    }
                    LlvmDwOp::Extend(a, b) | LlvmDwOp::SelectBitPiece(a, b) => {
                        uleb(out, *a);
                        uleb(out, *b);
                    }
                    _ => {}
                }
            }
        }
    }
}

/// The bytes of a sequence of operations.
pub fn encode(ops: &[DwOp]) -> Vec<u8> {
    let mut out = Vec::new();
    for op in ops {
        op.encode(&mut out);
    }
    out
}

/// `llvm-dwarfdump`'s spelling: the opcode name, then its operands in hex
/// (signed ones in decimal, as dwarfdump prints `DW_OP_consts` and
/// `DW_OP_breg` offsets). A base-type operand prints as dwarfdump prints it,
/// the DIE offset then the type's name in parentheses.
impl fmt::Display for DwOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bt = |b: &BaseType| format!("0x{:08x} \"{}\"", b.die_offset(), b.name());
        let hex_bytes = |bytes: &[u8]| {
            bytes
                .iter()
                .map(|b| format!("0x{b:02x}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        match self {
            DwOp::Lit(n) => write!(f, "DW_OP_lit{n}"),
            DwOp::Addr(a) => write!(f, "DW_OP_addr 0x{a:x}"),
            DwOp::Constu(v) => write!(f, "DW_OP_constu 0x{v:x}"),
            DwOp::Consts(v) => write!(f, "DW_OP_consts {v:+}"),
            DwOp::ConstType(b, bytes) => write!(
                f,
                "DW_OP_const_type ({}) 0x{:02x} {}",
                bt(b),
                bytes.len(),
                hex_bytes(bytes)
            ),
            DwOp::Reg(r) => write!(f, "DW_OP_reg{r}"),
            DwOp::Regx(r) => write!(f, "DW_OP_regx 0x{r:x}"),
            DwOp::Breg(r, o) => write!(f, "DW_OP_breg{r} {o:+}"),
            DwOp::Bregx(r, o) => write!(f, "DW_OP_bregx 0x{r:x} {o:+}"),
            DwOp::RegvalType(r, b) => write!(f, "DW_OP_regval_type 0x{r:x} ({})", bt(b)),
            DwOp::DerefSize(n) => write!(f, "DW_OP_deref_size 0x{n:x}"),
            DwOp::DerefType(n, b) => write!(f, "DW_OP_deref_type 0x{n:x} ({})", bt(b)),
            DwOp::XderefSize(n) => write!(f, "DW_OP_xderef_size 0x{n:x}"),
            DwOp::XderefType(n, b) => write!(f, "DW_OP_xderef_type 0x{n:x} ({})", bt(b)),
            DwOp::Convert(None) => write!(f, "DW_OP_convert 0x0"),
            DwOp::Convert(Some(b)) => write!(f, "DW_OP_convert ({})", bt(b)),
            DwOp::Reinterpret(b) => write!(f, "DW_OP_reinterpret ({})", bt(b)),
            DwOp::Dup => f.write_str("DW_OP_dup"),
            DwOp::Drop => f.write_str("DW_OP_drop"),
            DwOp::Swap => f.write_str("DW_OP_swap"),
            DwOp::Rot => f.write_str("DW_OP_rot"),
            DwOp::Over => f.write_str("DW_OP_over"),
            DwOp::Pick(i) => write!(f, "DW_OP_pick 0x{i:x}"),
            DwOp::Ge => f.write_str("DW_OP_ge"),
            DwOp::Lt => f.write_str("DW_OP_lt"),
            DwOp::Neg => f.write_str("DW_OP_neg"),
            DwOp::Bra(d) => write!(f, "DW_OP_bra {d}"),
            DwOp::Skip(d) => write!(f, "DW_OP_skip {d}"),
            DwOp::Plus => f.write_str("DW_OP_plus"),
            DwOp::PlusUconst(v) => write!(f, "DW_OP_plus_uconst 0x{v:x}"),
            DwOp::Minus => f.write_str("DW_OP_minus"),
            DwOp::Mul => f.write_str("DW_OP_mul"),
            DwOp::Div => f.write_str("DW_OP_div"),
            DwOp::Mod => f.write_str("DW_OP_mod"),
            DwOp::And => f.write_str("DW_OP_and"),
            DwOp::Or => f.write_str("DW_OP_or"),
            DwOp::Xor => f.write_str("DW_OP_xor"),
            DwOp::Shl => f.write_str("DW_OP_shl"),
            DwOp::Shr => f.write_str("DW_OP_shr"),
            DwOp::Shra => f.write_str("DW_OP_shra"),
            DwOp::StackValue => f.write_str("DW_OP_stack_value"),
            DwOp::ImplicitValue(bytes) if bytes.is_empty() => {
                f.write_str("DW_OP_implicit_value 0x0")
            }
            DwOp::ImplicitValue(bytes) => write!(
                f,
                "DW_OP_implicit_value 0x{:x} {}",
                bytes.len(),
                hex_bytes(bytes)
            ),
            DwOp::ImplicitPointer(die, o) => write!(f, "DW_OP_implicit_pointer 0x{die:x} {o:+}"),
            DwOp::Call4(die) => write!(f, "DW_OP_call4 0x{die:08x}"),
            DwOp::Piece(n) => write!(f, "DW_OP_piece 0x{n:x}"),
            DwOp::BitPiece(s, o) => write!(f, "DW_OP_bit_piece 0x{s:x} 0x{o:x}"),
            DwOp::Addrx(i) => write!(f, "DW_OP_addrx 0x{i:x}"),
            DwOp::Deref => f.write_str("DW_OP_deref"),
            // As llvm-dwarfdump prints them: the prefix, then the operation.
            DwOp::Llvm(op) => {
                write!(f, "DW_OP_LLVM_user {}", op.name())?;
                match op {
                    LlvmDwOp::OffsetUconst(v) => write!(f, " 0x{v:x}"),
                    LlvmDwOp::CallFrameEntryReg(r) => write!(f, " 0x{r:x}"),
                    LlvmDwOp::AspaceBregx(r, o) => write!(f, " 0x{r:x} {o:+}"),
                    LlvmDwOp::Extend(a, b) | LlvmDwOp::SelectBitPiece(a, b) => {
                        write!(f, " 0x{a:x} 0x{b:x}")
                    }
                    _ => Ok(()),
                }
            }
        }
    }
}

/// The operations joined as `llvm-dwarfdump` joins them (`, `).
pub fn print_ops(ops: &[DwOp]) -> String {
    ops.iter()
        .map(|o| o.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Bytes as lowercase hex pairs separated by blanks.
pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `DW_OP_LLVM_user`.
pub const DW_OP_LLVM_USER: u8 = 0xe9;

/// The `DW_OP_LLVM_user` vendor extension opcodes (document table
/// "DWARF DW_OP_LLVM_user Vendor Extension Operation Encodings", Dwarf.def).
pub mod user {
    pub const NOP: u64 = 0x01;
    pub const FORM_ASPACE_ADDRESS: u64 = 0x02;
    pub const PUSH_LANE: u64 = 0x03;
    pub const OFFSET: u64 = 0x04;
    pub const OFFSET_UCONST: u64 = 0x05;
    pub const BIT_OFFSET: u64 = 0x06;
    pub const CALL_FRAME_ENTRY_REG: u64 = 0x07;
    pub const UNDEFINED: u64 = 0x08;
    pub const ASPACE_BREGX: u64 = 0x09;
    pub const PIECE_END: u64 = 0x0a;
    pub const EXTEND: u64 = 0x0b;
    pub const SELECT_BIT_PIECE: u64 = 0x0c;
}
