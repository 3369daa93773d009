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

use super::exec::{St, View};
use super::failure::{Msg, Size};
use super::offset::Off;
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
            Msg::Owned(s) => s.clone(),
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
            Msg::NotInContext => format!("{} is not in the context", self.describe(&self.fault)),
            Msg::OutOfBounds { off, n, size } => {
                let end = i128::checked_add(*off, i128::from(*n));
                let (from, to) = match end {
                    Some(e) => (off.to_string(), e.to_string()),
                    None => (off.to_string(), (BigInt::from(*off) + *n).to_string()),
                };
                self.out_of_bounds(&self.fault, &from, &to, *size)
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
