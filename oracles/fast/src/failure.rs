//! What a failure of the fast evaluator says, kept as its arguments: the
//! message is written only when asked (`msg.rs`), so a failing run in the
//! fuzz loop formats nothing.

use diopter_semantics::value::FloatKind;
use num_bigint::BigInt;
use num_traits::One;
/// A storage's size in bits.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Size {
    Bits(u128),
    /// Memory: `8 · 2^p` bits for `p`-bit pointers.
    Mem(u64),
}

impl Size {
    pub(crate) fn to_bigint(self) -> BigInt {
        match self {
            Size::Bits(b) => BigInt::from(b),
            Size::Mem(p) => BigInt::one() << (p + 3),
        }
    }
    /// The size in decimal, as `BigInt`'s `Display` writes it.
    pub(crate) fn decimal(self) -> String {
        match self {
            Size::Bits(b) => b.to_string(),
            Size::Mem(p) if p + 3 < 128 => (1u128 << (p + 3)).to_string(),
            Size::Mem(_) => self.to_bigint().to_string(),
        }
    }
}

/// The arguments of an evaluation error's message.
#[derive(Clone, Debug)]
pub(crate) enum Msg {
    Text(&'static str),
    /// The program's message table (`Compiled::msgs`).
    Prog(u32),
    NoArg(u64),
    /// A location of this many single locations would be built.
    LocNodes(u64),
    /// `DIOpPushLane`: the lane does not fit the type, `iW`.
    LaneRange {
        lane: u64,
        w: u64,
    },
    /// `DIOpConvert`: the float of kind `kind` (raw bits of `from_w`) has
    /// no `iW` value. The types are known from these, so the program keeps
    /// no `Type` for them.
    ConvertRange {
        kind: FloatKind,
        w: u64,
        raw: u128,
        from_w: u64,
    },
    ReadUndef(u64),
    /// The entity of the machine's `fault` storage is not in the context.
    NotInContext,
    /// Bits `off..off+n` of the machine's `fault` storage, of `size` bits
    /// (`off`: the fault's offset).
    OutOfBounds {
        n: u64,
        size: Size,
    },
    /// Single locations `first` and `other` (`singles` arena positions;
    /// `other` is #`j`) read `a` and `b` (at most 128 bits).
    Inconsistent {
        first: u32,
        other: u32,
        j: u32,
        a: u128,
        b: u128,
    },
    /// `Inconsistent` for values wider than 128 bits, `n` bits each: they
    /// are left in the words arena (the run stops at its first failure, so
    /// nothing writes there again), #0's at bit `at` and #`j`'s `j * stride`
    /// bits further.
    InconsistentWide {
        first: u32,
        other: u32,
        j: u32,
        at: u64,
        stride: u64,
        n: u64,
    },
}
