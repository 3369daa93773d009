//! Error messages kept as their arguments and written only when asked.
//!
//! Half of the generated expressions fail, and a debugger at a stop, or a
//! fuzz loop that compares error classes, rarely needs the text. So a
//! failing run records a [`Msg`] (a few machine words: the numbers, table
//! indices and arena positions the message is made of) and
//! [`Machine::message`] writes the reference's exact text from it later,
//! while the run's arenas are still alive (the compact result borrows
//! them). Paths that are rare and would need owned data to describe (offsets
//! beyond `i128`, values wider than 128 bits) format at once, as
//! [`Msg::Owned`].

use super::exec::{Machine, St};
use super::offset::Off;
use diopter_semantics::location::{print_entity_name, MAX_LOC_NODES};
use num_bigint::BigInt;
use num_traits::One;
use std::fmt::Write;

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
    /// Written when the error happened.
    Owned(String),
    NoArg(u64),
    /// A location of this many single locations would be built.
    LocNodes(u64),
    /// `DIOpPushLane`: the lane does not fit the type (`Compiled::types`).
    LaneRange {
        lane: u64,
        ty: u32,
    },
    /// `DIOpConvert`: the float (raw bits of `from_w`) has no integer value.
    ConvertRange {
        from_ty: u32,
        to_ty: u32,
        raw: u128,
        from_w: u64,
    },
    ReadUndef(u64),
    /// The entity of the machine's `fault` storage is not in the context.
    NotInContext,
    /// Bits `off..off+n` of the machine's `fault` storage, of `size` bits.
    OutOfBounds {
        off: i128,
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
}

/// `describe` of the reference's read errors: the storage, in words.
pub(crate) fn describe(st: &St) -> String {
    match st {
        St::Mem(a) => format!("the memory of address space {a}"),
        St::Ent(name, _) | St::EntW(name, ..) => format!("entity {}", print_entity_name(name)),
        St::Imp(_, w) => format!("an implicit value of {w} bits"),
        St::ImpW(_, w) => format!("an implicit value of {w} bits"),
        St::Addr(_) => "an implicit address".to_string(),
        St::Undef => "undefined storage".to_string(),
        St::Comp(_, len) => format!("a composite of {len} parts"),
    }
}

/// The out-of-bounds message for bits `from..to` (decimal text).
pub(crate) fn out_of_bounds(st: &St, from: &str, to: &str, size: Size) -> String {
    format!(
        "reading bits {from}..{to} of {}, which has {} bits",
        describe(st),
        size.decimal()
    )
}

impl<'a, O: Off> Machine<'a, O> {
    /// The reference's text of the error `m` of this run.
    pub(crate) fn message(&self, m: &Msg) -> String {
        let types = &self.prog.types;
        match m {
            Msg::Text(t) => (*t).to_string(),
            Msg::Prog(i) => self.prog.msgs[*i as usize].clone(),
            Msg::Owned(s) => s.clone(),
            Msg::NoArg(n) => format!("the context gives no arg {n}"),
            Msg::LocNodes(nodes) => format!(
                "a location description of {nodes} single locations, over diopter's limit of {MAX_LOC_NODES}"
            ),
            Msg::LaneRange { lane, ty } => {
                format!("lane {lane} does not fit in `{}`", types[*ty as usize])
            }
            Msg::ConvertRange {
                from_ty,
                to_ty,
                raw,
                from_w,
            } => format!(
                "`{}` {} is NaN, infinite or out of the range of `{}`",
                types[*from_ty as usize],
                diopter_semantics::value::Bits::from_u128(*from_w, *raw).to_hex(),
                types[*to_ty as usize]
            ),
            Msg::ReadUndef(n) => format!("reading {n} bits of undefined storage"),
            Msg::NotInContext => format!("{} is not in the context", describe(&self.fault)),
            Msg::OutOfBounds { off, n, size } => {
                let end = i128::checked_add(*off, i128::from(*n));
                let (from, to) = match end {
                    Some(e) => (off.to_string(), e.to_string()),
                    None => (off.to_string(), (BigInt::from(*off) + *n).to_string()),
                };
                out_of_bounds(&self.fault, &from, &to, *size)
            }
            Msg::Inconsistent {
                first,
                other,
                j,
                a,
                b,
            } => {
                let mut message = String::from("the single locations disagree: #0 (");
                self.show_single(&self.singles[*first as usize], &mut message);
                let _ = write!(message, ") reads 0x{a:x}, #{j} (");
                self.show_single(&self.singles[*other as usize], &mut message);
                let _ = write!(message, ") reads 0x{b:x}");
                message
            }
        }
    }
}
