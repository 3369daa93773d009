//! Error messages kept as their arguments and written only when asked.
//!
//! Half of the generated expressions fail, and a debugger at a stop, or a
//! fuzz loop that compares error classes, rarely needs the text. So a
//! failing run records a [`Msg`] (a few machine words: the numbers, table
//! indices and arena positions the message is made of) and
//! [`View::message`] writes the reference's exact text from it later, from
//! the run's arenas, which stay in the scratch until the next run (the
//! compact result borrows them): values wider than 128 bits are left in the
//! words arena, and an offset beyond `i128` is kept as a `BigInt`.

use super::exec::{St, View};
use super::failure::{Msg, Size};
use super::offset::Off;
use super::show::hex;
use diopter_semantics::location::{print_entity_name, MAX_LOC_NODES};
use diopter_semantics::types::{FloatKindOrd, Type};
use num_bigint::BigInt;
use std::fmt::Write;

impl<O: Off> View<'_, O> {
    /// `describe` of the reference's read errors: the storage, in words.
    pub(crate) fn describe(&self, st: &St) -> String {
        match *st {
            St::Mem(a) => format!("the memory of address space {a}"),
            St::Ent(r) | St::EntS(r, ..) | St::EntW(r, ..) => {
                format!("entity {}", print_entity_name(self.entity(r).0))
            }
            St::Imp(_, w) => format!("an implicit value of {w} bits"),
            St::ImpW(_, w) => format!("an implicit value of {w} bits"),
            St::Addr(_) => "an implicit address".to_string(),
            St::Undef => "undefined storage".to_string(),
            St::Comp(_, len) => format!("a composite of {len} parts"),
        }
    }

    /// The message of single locations `first` and #`j`, `other`, that
    /// read `a` and `b` (hexadecimal digits).
    fn disagree(
        &self,
        first: u32,
        other: u32,
        j: u32,
        a: std::fmt::Arguments,
        b: std::fmt::Arguments,
    ) -> String {
        let mut message = String::from("the single locations disagree: #0 (");
        self.show_single(&self.singles[first as usize], &mut message);
        let _ = write!(message, ") reads 0x{a}, #{j} (");
        self.show_single(&self.singles[other as usize], &mut message);
        let _ = write!(message, ") reads 0x{b}");
        message
    }

    /// The out-of-bounds message for bits `from..to` (decimal text).
    pub(crate) fn out_of_bounds(&self, st: &St, from: &str, to: &str, size: Size) -> String {
        format!(
            "reading bits {from}..{to} of {}, which has {} bits",
            self.describe(st),
            size.decimal()
        )
    }

    /// The reference's text of the error `m` of this run.
    pub(crate) fn message(&self, m: &Msg) -> String {
        match m {
            Msg::Text(t) => (*t).to_string(),
            Msg::Prog(i) => self.prog.msgs[*i as usize].clone(),
            Msg::NoArg(n) => format!("the context gives no arg {n}"),
            Msg::LocNodes(nodes) => format!(
                "a location description of {nodes} single locations, over diopter's limit of {MAX_LOC_NODES}"
            ),
            Msg::LaneRange { lane, w } => {
                format!("lane {lane} does not fit in `{}`", Type::Int(*w))
            }
            Msg::ConvertRange {
                kind,
                w,
                raw,
                from_w,
            } => format!(
                "`{}` {} is NaN, infinite or out of the range of `{}`",
                Type::Float(FloatKindOrd(*kind)),
                diopter_semantics::value::Bits::from_u128(*from_w, *raw).to_hex(),
                Type::Int(*w)
            ),
            Msg::ReadUndef(n) => format!("reading {n} bits of undefined storage"),
            Msg::NotInContext => {
                format!("{} is not in the context", self.describe(&self.fault.st))
            }
            Msg::OutOfBounds { n, size } => {
                // Decimal offsets, as `BigInt`'s `Display` writes them.
                let (from, to) = match self.fault.off.to_i128() {
                    Some(off) => match off.checked_add(i128::from(*n)) {
                        Some(e) => (off.to_string(), e.to_string()),
                        None => (off.to_string(), (BigInt::from(off) + *n).to_string()),
                    },
                    None => {
                        let off = self.fault.off.to_bigint();
                        let to = &off + BigInt::from(*n);
                        (off.to_string(), to.to_string())
                    }
                };
                self.out_of_bounds(&self.fault.st, &from, &to, *size)
            }
            Msg::Inconsistent {
                first,
                other,
                j,
                a,
                b,
            } => self.disagree(*first, *other, *j, format_args!("{a:x}"), format_args!("{b:x}")),
            Msg::InconsistentWide {
                first,
                other,
                j,
                at,
                stride,
                n,
            } => {
                let a = hex(self.words, *at, *n);
                let b = hex(self.words, at + u64::from(*j) * stride, *n);
                self.disagree(*first, *other, *j, format_args!("{a}"), format_args!("{b}"))
            }
        }
    }
}
