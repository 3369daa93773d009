//! Swarm testing: per case, a random configuration that switches kinds of
//! operations, types and storage on or off and weights the ones left on.
//!
//! A generator that always draws every feature with fixed probabilities
//! rarely makes a case in which one feature dominates (eight shifts in a row,
//! a context made only of composites). Drawing the feature set per case
//! (Groce et al., "Swarm Testing", ISSTA 2012) makes such cases common while
//! every feature is still reached across cases.

use super::entropy::Entropy;
use diopter_semantics::context::splitmix64;

/// What the expression generator can produce: one kind per operation, with
/// the two spellings of `DIOpBitOffset` and `DIOpDeref` apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OpKind {
    Referrer,
    Arg,
    TypeObject,
    Constant,
    Convert,
    Reinterpret,
    Offset,
    BitOffsetSeed,
    BitOffsetTyped,
    ByteOffset,
    Composite,
    Extend,
    Select,
    AddrOf,
    DerefSeed,
    DerefTyped,
    Read,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    Shr,
    LShr,
    AShr,
    Shl,
    ZExt,
    SExt,
    PushLane,
    Fragment,
}

impl OpKind {
    pub const ALL: [OpKind; 33] = [
        OpKind::Referrer,
        OpKind::Arg,
        OpKind::TypeObject,
        OpKind::Constant,
        OpKind::Convert,
        OpKind::Reinterpret,
        OpKind::Offset,
        OpKind::BitOffsetSeed,
        OpKind::BitOffsetTyped,
        OpKind::ByteOffset,
        OpKind::Composite,
        OpKind::Extend,
        OpKind::Select,
        OpKind::AddrOf,
        OpKind::DerefSeed,
        OpKind::DerefTyped,
        OpKind::Read,
        OpKind::Add,
        OpKind::Sub,
        OpKind::Mul,
        OpKind::Div,
        OpKind::Mod,
        OpKind::And,
        OpKind::Or,
        OpKind::Xor,
        OpKind::Shr,
        OpKind::LShr,
        OpKind::AShr,
        OpKind::Shl,
        OpKind::ZExt,
        OpKind::SExt,
        OpKind::PushLane,
        OpKind::Fragment,
    ];

    /// The kind of an operation as written.
    pub fn of(op: &diopter_semantics::ast::Op) -> OpKind {
        use diopter_semantics::ast::Op;
        match op {
            Op::Referrer(_) => OpKind::Referrer,
            Op::Arg(..) => OpKind::Arg,
            Op::TypeObject(_) => OpKind::TypeObject,
            Op::Constant(..) => OpKind::Constant,
            Op::Convert(_) => OpKind::Convert,
            Op::Reinterpret(_) => OpKind::Reinterpret,
            Op::Offset => OpKind::Offset,
            Op::BitOffset(None) => OpKind::BitOffsetSeed,
            Op::BitOffset(Some(_)) => OpKind::BitOffsetTyped,
            Op::ByteOffset(_) => OpKind::ByteOffset,
            Op::Composite(..) => OpKind::Composite,
            Op::Extend(_) => OpKind::Extend,
            Op::Select => OpKind::Select,
            Op::AddrOf(_) => OpKind::AddrOf,
            Op::Deref(None) => OpKind::DerefSeed,
            Op::Deref(Some(_)) => OpKind::DerefTyped,
            Op::Read => OpKind::Read,
            Op::Add => OpKind::Add,
            Op::Sub => OpKind::Sub,
            Op::Mul => OpKind::Mul,
            Op::Div => OpKind::Div,
            Op::Mod => OpKind::Mod,
            Op::And => OpKind::And,
            Op::Or => OpKind::Or,
            Op::Xor => OpKind::Xor,
            Op::Shr => OpKind::Shr,
            Op::LShr => OpKind::LShr,
            Op::AShr => OpKind::AShr,
            Op::Shl => OpKind::Shl,
            Op::ZExt(_) => OpKind::ZExt,
            Op::SExt(_) => OpKind::SExt,
            Op::PushLane(_) => OpKind::PushLane,
            Op::Fragment(..) => OpKind::Fragment,
        }
    }

    /// The operation as the coverage table names it (`DIOpDeref()` and
    /// `DIOpDeref(T)` apart).
    pub fn label(self) -> &'static str {
        match self {
            OpKind::Referrer => "DIOpReferrer",
            OpKind::Arg => "DIOpArg",
            OpKind::TypeObject => "DIOpTypeObject",
            OpKind::Constant => "DIOpConstant",
            OpKind::Convert => "DIOpConvert",
            OpKind::Reinterpret => "DIOpReinterpret",
            OpKind::Offset => "DIOpOffset()",
            OpKind::BitOffsetSeed => "DIOpBitOffset()",
            OpKind::BitOffsetTyped => "DIOpBitOffset(T)",
            OpKind::ByteOffset => "DIOpByteOffset",
            OpKind::Composite => "DIOpComposite",
            OpKind::Extend => "DIOpExtend",
            OpKind::Select => "DIOpSelect",
            OpKind::AddrOf => "DIOpAddrOf",
            OpKind::DerefSeed => "DIOpDeref()",
            OpKind::DerefTyped => "DIOpDeref(T)",
            OpKind::Read => "DIOpRead",
            OpKind::Add => "DIOpAdd",
            OpKind::Sub => "DIOpSub",
            OpKind::Mul => "DIOpMul",
            OpKind::Div => "DIOpDiv",
            OpKind::Mod => "DIOpMod",
            OpKind::And => "DIOpAnd",
            OpKind::Or => "DIOpOr",
            OpKind::Xor => "DIOpXor",
            OpKind::Shr => "DIOpShr",
            OpKind::LShr => "DIOpLShr",
            OpKind::AShr => "DIOpAShr",
            OpKind::Shl => "DIOpShl",
            OpKind::ZExt => "DIOpZExt",
            OpKind::SExt => "DIOpSExt",
            OpKind::PushLane => "DIOpPushLane",
            OpKind::Fragment => "DIOpFragment",
        }
    }

    /// Whether the kind belongs to the spec's `diexpr` dialect only (its
    /// spelling has no parameters where the live dialect's has a type).
    pub fn seed_only(self) -> bool {
        matches!(
            self,
            OpKind::Offset | OpKind::BitOffsetSeed | OpKind::DerefSeed | OpKind::Shr
        )
    }

    /// Whether the kind exists only in AMD's live `diexpression` dialect.
    pub fn live_only(self) -> bool {
        matches!(
            self,
            OpKind::TypeObject
                | OpKind::BitOffsetTyped
                | OpKind::ByteOffset
                | OpKind::Extend
                | OpKind::Select
                | OpKind::DerefTyped
                | OpKind::Mod
                | OpKind::And
                | OpKind::Or
                | OpKind::Xor
                | OpKind::LShr
                | OpKind::AShr
                | OpKind::ZExt
                | OpKind::SExt
                | OpKind::PushLane
                | OpKind::Fragment
        )
    }

    /// Operations that take their operands from the stack and push a new
    /// entry (everything but the leaves and `DIOpFragment`).
    pub fn is_leaf(self) -> bool {
        matches!(
            self,
            OpKind::Referrer
                | OpKind::Arg
                | OpKind::TypeObject
                | OpKind::Constant
                | OpKind::PushLane
        )
    }
}

/// The kinds of types the generators draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TyKind {
    Int,
    /// Widths that are not a power of two, and widths above 128.
    OddInt,
    Float,
    Ptr,
    Vector,
    Array,
    Struct,
    Named,
}

impl TyKind {
    pub const ALL: [TyKind; 8] = [
        TyKind::Int,
        TyKind::OddInt,
        TyKind::Float,
        TyKind::Ptr,
        TyKind::Vector,
        TyKind::Array,
        TyKind::Struct,
        TyKind::Named,
    ];
}

/// The kinds of storage the context generator places values in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StorageKind {
    Memory,
    Entity,
    Implicit,
    ImplicitAddress,
    Undefined,
    Composite,
    /// Several single locations holding the same bits.
    MultiConsistent,
    /// Several single locations holding different bits: the reference must
    /// say `Inconsistent` when it reads them.
    MultiInconsistent,
}

impl StorageKind {
    pub const ALL: [StorageKind; 8] = [
        StorageKind::Memory,
        StorageKind::Entity,
        StorageKind::Implicit,
        StorageKind::ImplicitAddress,
        StorageKind::Undefined,
        StorageKind::Composite,
        StorageKind::MultiConsistent,
        StorageKind::MultiInconsistent,
    ];

    pub fn label(self) -> &'static str {
        match self {
            StorageKind::Memory => "memory",
            StorageKind::Entity => "entity",
            StorageKind::Implicit => "implicit",
            StorageKind::ImplicitAddress => "implicit address",
            StorageKind::Undefined => "undefined",
            StorageKind::Composite => "composite",
            StorageKind::MultiConsistent => "multi (consistent)",
            StorageKind::MultiInconsistent => "multi (inconsistent)",
        }
    }
}

fn zip<K: Copy>(kinds: &[K], w: Vec<u32>) -> Vec<(K, u32)> {
    kinds.iter().copied().zip(w).collect()
}

/// One case's feature set: a weight per feature, 0 meaning switched off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swarm {
    pub ops: Vec<(OpKind, u32)>,
    pub types: Vec<(TyKind, u32)>,
    pub storage: Vec<(StorageKind, u32)>,
    /// Out of 16: how often a value is an edge value (0, 1, -1, INT_MIN,
    /// a shift amount at least the width, a zero divisor, ...).
    pub edge: u64,
    /// Out of 16: how often an operation of the other dialect is allowed.
    pub cross_dialect: u64,
    /// Out of 16: how often a context leaves out something the expression
    /// asks for (an argument, the referrer, the object, the lane).
    pub omit: u64,
}

impl Swarm {
    /// Everything on with equal weights (what an exhausted input draws too).
    pub fn all_on() -> Swarm {
        Swarm {
            ops: OpKind::ALL.iter().map(|k| (*k, 4)).collect(),
            types: TyKind::ALL.iter().map(|k| (*k, 4)).collect(),
            storage: StorageKind::ALL.iter().map(|k| (*k, 4)).collect(),
            edge: 4,
            cross_dialect: 2,
            omit: 1,
        }
    }

    /// Draws a feature set. Each feature is off with probability 1/4 (never
    /// all of a group at once) and otherwise weighted 1 to 8.
    ///
    /// The whole set costs four 64-bit choices (the bits saying which
    /// features are off, and a seed for the weights), not one choice per
    /// feature: a fuzz input then spends its first ~30 bytes on the swarm
    /// and the rest on the case, and flipping one of those bits switches
    /// one feature.
    pub fn draw(e: &mut dyn Entropy) -> Swarm {
        // Bit i is 1 with probability 1/4; an exhausted input (all zeros)
        // switches nothing off.
        let off = e.bits64() & e.bits64();
        let seed = e.bits64();
        let mut bit = 0u32;
        let mut weights = |n: usize| -> Vec<u32> {
            let mut w: Vec<u32> = (0..n)
                .map(|_| {
                    let i = bit;
                    bit += 1;
                    if off >> i & 1 == 1 {
                        0
                    } else {
                        1 + (splitmix64(seed ^ u64::from(i)) % 8) as u32
                    }
                })
                .collect();
            if w.iter().all(|x| *x == 0) {
                w.iter_mut().for_each(|x| *x = 1);
            }
            w
        };
        let ops = zip(&OpKind::ALL, weights(OpKind::ALL.len()));
        let types = zip(&TyKind::ALL, weights(TyKind::ALL.len()));
        let storage = zip(&StorageKind::ALL, weights(StorageKind::ALL.len()));
        let knobs = e.bits64();
        Swarm {
            ops,
            types,
            storage,
            edge: knobs % 9,
            cross_dialect: (knobs >> 8) % 5,
            omit: if (knobs >> 16) % 4 == 3 {
                1 + (knobs >> 24) % 3
            } else {
                0
            },
        }
    }

    // The weight lists are in the order of the kinds' `ALL` (which is their
    // declaration order), so a kind's discriminant is its index.
    pub fn op_weight(&self, k: OpKind) -> u32 {
        self.ops.get(k as usize).map_or(0, |(_, w)| *w)
    }
    pub fn ty_weight(&self, k: TyKind) -> u32 {
        self.types.get(k as usize).map_or(0, |(_, w)| *w)
    }
    pub fn storage_weight(&self, k: StorageKind) -> u32 {
        self.storage.get(k as usize).map_or(0, |(_, w)| *w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_listed_in_declaration_order() {
        for (i, k) in OpKind::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
        for (i, k) in TyKind::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
        for (i, k) in StorageKind::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
    }
}
