//! The text of locations in error messages, written from the compact form.
//!
//! `Inconsistent` messages print the disagreeing single locations as the
//! reference's `Display` for `Single` does (`mem(1, 0x10) + 3`,
//! `composite(%x : 32, undef : 8)`, `implicit(i32 0x7)`, ...). Converting to
//! `LocDesc` and using that `Display` would be exact but slow (it prints
//! implicit values bit by bit), so this writes the same text directly; the
//! differential tests compare whole messages.

use super::exec::{Loc, Sgl, St, View};
use super::offset::Off;
use super::words;
use diopter_semantics::location::print_entity_name;
use std::fmt::Write;

/// `n` bits at `pos` in lowercase hex without leading zeros (`0` for zero),
/// as `BigUint`'s `{:x}` writes them.
pub(crate) fn hex(w: &[u64], pos: u64, n: u64) -> String {
    let mut digits = String::new();
    let nw = n.div_ceil(64);
    for i in (0..nw).rev() {
        let len = (n - i * 64).min(64);
        let v = words::get(w, pos + i * 64, len);
        if digits.is_empty() {
            if v != 0 {
                let _ = write!(digits, "{v:x}");
            }
        } else {
            let _ = write!(digits, "{v:016x}");
        }
    }
    if digits.is_empty() {
        digits.push('0');
    }
    digits
}

impl<O: Off> View<'_, O> {
    /// A location description as the reference's `Display` for `LocDesc`.
    pub(crate) fn show_loc(&self, loc: &Loc<O>, out: &mut String) {
        let singles = self.singles_of(loc);
        if singles.is_empty() {
            out.push_str("<no location>");
        }
        for (i, s) in singles.iter().enumerate() {
            if i > 0 {
                out.push_str(" | ");
            }
            self.show_single(s, out);
        }
    }

    /// A single location as the reference's `Display` for `Single`.
    pub(crate) fn show_single(&self, s: &Sgl<O>, out: &mut String) {
        let Some(off) = s.off.to_i128() else {
            // An offset beyond i128 (after a bail-out): the reference's text.
            let _ = write!(out, "{}", self.to_single(s));
            return;
        };
        let mut rest = off;
        match s.st {
            St::Mem(a) => {
                // The byte address, and the bits beyond it (0..8).
                let address = off.div_euclid(8);
                rest = off.rem_euclid(8);
                if address < 0 {
                    let _ = write!(out, "mem({a}, -0x{:x})", address.unsigned_abs());
                } else {
                    let _ = write!(out, "mem({a}, 0x{address:x})");
                }
            }
            St::Ent(r) | St::EntS(r, ..) | St::EntW(r, ..) => {
                out.push_str(&print_entity_name(self.entity(r).0))
            }
            St::Imp(_, 0) => out.push_str("implicit({} zeroinitializer)"),
            St::Imp(v, w) => {
                let _ = write!(out, "implicit(i{w} 0x{v:x})");
            }
            St::ImpW(start, w) => {
                let _ = write!(
                    out,
                    "implicit(i{w} 0x{})",
                    hex(self.words, u64::from(start) * 64, w)
                );
            }
            St::Undef => out.push_str("undef"),
            St::Addr(k) => {
                let a = &self.addrs[k as usize];
                let _ = write!(
                    out,
                    "addrof({}, {}, ",
                    self.addr_ty(a.ptr_ty),
                    self.addr_ty(a.target_ty)
                );
                self.show_loc(&a.target, out);
                out.push(')');
            }
            St::Comp(start, len) => {
                out.push_str("composite(");
                for (i, p) in self.parts[start as usize..(start + len) as usize]
                    .iter()
                    .enumerate()
                {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.show_loc(&p.loc, out);
                    let _ = write!(out, " : {}", p.bits);
                }
                out.push(')');
            }
        }
        if rest > 0 {
            let _ = write!(out, " + {rest}");
        } else if rest < 0 {
            let _ = write!(out, " - {}", rest.unsigned_abs());
        }
    }
}
