//! How values and locations are shown to people and to scripts: the one
//! place the CLI's commands (`eval`, `replay`, `locations`, `lower`,
//! `validate`, `prove`) take their text and JSON forms from.
//!
//! The JSON forms are the structs below serialized with serde; their schema
//! is `docs/schema/location.json` (the README documents it).
//!
//! Bit ranges are written `LO..HI` everywhere: bits `LO` up to but not
//! including `HI`, bit 0 the least significant (half-open, as Rust writes
//! ranges).
//!
//! Values wider than [`FULL_BITS`] are abbreviated: the first and last 16 hex
//! digits and the width (`0x0123…cdef (8388608 bits)`), and no decimal
//! readings (converting millions of bits to decimal takes minutes).

use crate::location::{print_entity_name, LocDesc, Single, Storage};
use crate::types::Type;
use crate::value::{describe_float, Bits, FloatView};
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::ToPrimitive;
use serde::Serialize;

/// Values up to this many bits are shown whole.
pub const FULL_BITS: u64 = 4096;

/// The one bit-range notation: `LO..HI`, half-open.
pub const BIT_RANGE_HELP: &str =
    "Bit ranges are written LO..HI: bits LO up to but not including HI, \
bit 0 the least significant (half-open).";

/// A value: `{ bits, hex, unsigned, signed, float }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueView {
    /// The width in bits.
    pub bits: u64,
    /// `0x` and `ceil(bits / 4)` hex digits, or abbreviated (see the module doc).
    pub hex: String,
    /// The unsigned reading in decimal; `null` when abbreviated.
    pub unsigned: Option<String>,
    /// The two's complement reading in decimal; `null` when abbreviated.
    pub signed: Option<String>,
    /// For a value of a floating-point type: its reading.
    pub float: Option<FloatView>,
}

/// The hex digits of `b`, abbreviated when it is wider than [`FULL_BITS`].
pub fn hex_abbrev(b: &Bits) -> String {
    let w = b.width();
    if w <= FULL_BITS {
        return b.to_hex();
    }
    let digits = w.div_ceil(4);
    let top = b.slice(4 * (digits - 16), 64).to_u64().unwrap_or(0);
    let low = b.slice(0, 64).to_u64().unwrap_or(0);
    format!("0x{top:016x}…{low:016x} ({w} bits)")
}

/// The value `b`, read as type `ty` when it is a floating-point type of
/// `b`'s width (`ty` is `None` when the type is not known).
pub fn value_view(ty: Option<&Type>, b: &Bits) -> ValueView {
    let whole = b.width() <= FULL_BITS;
    let float = match ty {
        Some(Type::Float(k)) if k.0.width() == b.width() => Some(describe_float(k.0, b)),
        _ => None,
    };
    ValueView {
        bits: b.width(),
        hex: hex_abbrev(b),
        unsigned: whole.then(|| b.to_biguint().to_string()),
        signed: whole.then(|| b.to_bigint().to_string()),
        float,
    }
}

impl ValueView {
    /// One line: `1.5 (float 0x3fc00000)`, `nan (quiet, payload 0x0; 0x7fc00000)`,
    /// `0x0000002a (unsigned 42, signed 42)`, `0x0123…cdef (8388608 bits)`.
    pub fn text(&self) -> String {
        if let Some(f) = &self.float {
            return match (f.quiet, &f.payload) {
                (Some(q), Some(p)) => format!(
                    "{} ({}, payload {p}; {} {})",
                    f.decimal,
                    if q { "quiet" } else { "signalling" },
                    f.kind,
                    self.hex
                ),
                _ => format!("{} ({} {})", f.decimal, f.kind, self.hex),
            };
        }
        match (&self.unsigned, &self.signed) {
            (Some(u), Some(s)) => format!("{} (unsigned {u}, signed {s})", self.hex),
            _ => self.hex.clone(),
        }
    }
}

/// A bit offset: a JSON integer when it fits in 64 bits, else a decimal string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Offset {
    Small(i64),
    Big(String),
}

fn offset(o: &BigInt) -> Offset {
    match o.to_i64() {
        Some(v) => Offset::Small(v),
        None => Offset::Big(o.to_string()),
    }
}

/// One single location description:
/// `{ kind, text, bit_offset, bit_size, writable, ... }` and, by kind,
/// `address_space` and `address` (memory), `entity`, `value` (implicit),
/// `parts` (composite), `pointer_type`, `target_type` and `target`
/// (implicit address).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SingleView {
    /// `memory`, `entity`, `implicit`, `implicit_address`, `undefined`, `composite`.
    pub kind: &'static str,
    /// How the text output names it (see [`single_text`]).
    pub text: String,
    /// The bit offset into the storage (for memory: 8 × address + the bits
    /// beyond the byte).
    pub bit_offset: Offset,
    /// How many bits are read or written there: the size of the type.
    pub bit_size: u64,
    /// Whether a write may change it (memory, entity, and composites of
    /// those); implicit values, implicit addresses and undefined storage are
    /// read-only.
    pub writable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address_space: Option<u32>,
    /// Memory: the byte address (`0x...`; negative offsets give `-0x...`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
    /// Implicit: the value it holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<ValueView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<PartView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Vec<SingleView>>,
}

/// One part of a composite: `bits` bits at `location` (its single locations).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartView {
    pub bits: u64,
    pub location: Vec<SingleView>,
}

/// Composites and implicit-address targets are shown this deep; below,
/// only their kind.
const MAX_DEPTH: usize = 8;
/// At most this many parts of a composite, single locations of a
/// description, are listed.
const MAX_LIST: usize = 64;

fn writable(s: &Storage) -> bool {
    match s {
        Storage::Memory { .. } | Storage::Entity { .. } => true,
        Storage::Implicit { .. } | Storage::ImplicitAddress { .. } | Storage::Undefined => false,
        Storage::Composite { parts } => parts
            .iter()
            .all(|p| p.loc.singles.iter().all(|s| writable(&s.storage))),
    }
}

/// `s` seen as holding `bit_size` bits of type `ty` (the type decides how an
/// implicit value reads).
pub fn single_view(s: &Single, ty: Option<&Type>, bit_size: u64) -> SingleView {
    single_view_at(s, ty, bit_size, 0)
}

fn single_view_at(s: &Single, ty: Option<&Type>, bit_size: u64, depth: usize) -> SingleView {
    let mut v = SingleView {
        kind: "",
        text: single_text_at(s, ty, depth),
        bit_offset: offset(&s.offset),
        bit_size,
        writable: writable(&s.storage),
        address_space: None,
        address: None,
        entity: None,
        value: None,
        parts: None,
        pointer_type: None,
        target_type: None,
        target: None,
    };
    match &s.storage {
        Storage::Memory { addrspace } => {
            v.kind = "memory";
            v.address_space = Some(*addrspace);
            let (address, _) = s.offset.div_mod_floor(&BigInt::from(8));
            v.address = Some(signed_hex(&address));
        }
        Storage::Entity { name } => {
            v.kind = "entity";
            v.entity = Some(print_entity_name(name));
        }
        Storage::Implicit { value } => {
            v.kind = "implicit";
            v.value = Some(value_view(ty, value));
        }
        Storage::Undefined => v.kind = "undefined",
        Storage::ImplicitAddress {
            target,
            target_ty,
            ptr_ty,
            ..
        } => {
            v.kind = "implicit_address";
            v.pointer_type = Some(ptr_ty.to_string());
            v.target_type = Some(target_ty.to_string());
            if depth < MAX_DEPTH {
                v.target = Some(
                    target
                        .singles
                        .iter()
                        .take(MAX_LIST)
                        .map(|t| single_view_at(t, Some(target_ty), 0, depth + 1))
                        .collect(),
                );
            }
        }
        Storage::Composite { parts } => {
            v.kind = "composite";
            if depth < MAX_DEPTH {
                v.parts = Some(
                    parts
                        .iter()
                        .take(MAX_LIST)
                        .map(|p| PartView {
                            bits: p.bits,
                            location: p
                                .loc
                                .singles
                                .iter()
                                .take(MAX_LIST)
                                .map(|t| single_view_at(t, None, p.bits, depth + 1))
                                .collect(),
                        })
                        .collect(),
                );
            }
        }
    }
    v
}

fn signed_hex(v: &BigInt) -> String {
    if v.sign() == Sign::Minus {
        format!("-0x{:x}", -v)
    } else {
        format!("0x{v:x}")
    }
}

/// A bit offset in the text form: ` +4 bits`, ` -8 bits`, or nothing at 0.
fn offset_text(o: &BigInt) -> String {
    match o.sign() {
        Sign::NoSign => String::new(),
        Sign::Plus => format!(" +{o} bits"),
        Sign::Minus => format!(" -{} bits", -o),
    }
}

/// How the text output names a single location, as the context file names
/// its storage: `as1 @0x1000 +4 bits` (memory of address space 1, byte
/// 0x1000, 4 bits in), `%r +8 bits` (an entity), `implicit 1.5 (float
/// 0x3fc00000)`, `undefined`, `implicit address of (%x) as ptr
/// addrspace(5)`, `composite [0..16: %x, 16..32: implicit 0x0007]`.
pub fn single_text(s: &Single, ty: Option<&Type>) -> String {
    single_text_at(s, ty, 0)
}

fn single_text_at(s: &Single, ty: Option<&Type>, depth: usize) -> String {
    match &s.storage {
        Storage::Memory { addrspace } => {
            let (address, bits) = s.offset.div_mod_floor(&BigInt::from(8));
            format!(
                "as{addrspace} @{}{}",
                signed_hex(&address),
                offset_text(&bits)
            )
        }
        Storage::Entity { name } => {
            format!("{}{}", print_entity_name(name), offset_text(&s.offset))
        }
        Storage::Implicit { value } => format!(
            "implicit {}{}",
            value_view(ty, value).text(),
            offset_text(&s.offset)
        ),
        Storage::Undefined => format!("undefined{}", offset_text(&s.offset)),
        Storage::ImplicitAddress {
            target,
            target_ty,
            ptr_ty,
            ..
        } => {
            let inner = if depth < MAX_DEPTH {
                loc_text_at(target, Some(target_ty), depth + 1)
            } else {
                "…".to_string()
            };
            format!(
                "implicit address of ({inner}) as {ptr_ty}{}",
                offset_text(&s.offset)
            )
        }
        Storage::Composite { parts } => {
            if depth >= MAX_DEPTH {
                return format!(
                    "composite of {} parts{}",
                    parts.len(),
                    offset_text(&s.offset)
                );
            }
            let mut lo: u128 = 0;
            let mut items = Vec::new();
            for p in parts.iter().take(MAX_LIST) {
                let hi = lo + u128::from(p.bits);
                items.push(format!(
                    "{lo}..{hi}: {}",
                    loc_text_at(&p.loc, None, depth + 1)
                ));
                lo = hi;
            }
            if parts.len() > MAX_LIST {
                items.push(format!("… ({} parts)", parts.len()));
            }
            format!("composite [{}]{}", items.join(", "), offset_text(&s.offset))
        }
    }
}

/// A location description in the text form: its single locations separated
/// by ` | `.
pub fn loc_text(l: &LocDesc, ty: Option<&Type>) -> String {
    loc_text_at(l, ty, 0)
}

fn loc_text_at(l: &LocDesc, ty: Option<&Type>, depth: usize) -> String {
    if l.singles.is_empty() {
        return "no location".to_string();
    }
    let mut items: Vec<String> = l
        .singles
        .iter()
        .take(MAX_LIST)
        .map(|s| single_text_at(s, ty, depth))
        .collect();
    if l.singles.len() > MAX_LIST {
        items.push(format!("… ({} single locations)", l.singles.len()));
    }
    items.join(" | ")
}

/// The single locations of `l`, each holding `bit_size` bits of `ty`.
pub fn loc_views(l: &LocDesc, ty: Option<&Type>, bit_size: u64) -> Vec<SingleView> {
    l.singles
        .iter()
        .take(MAX_LIST)
        .map(|s| single_view(s, ty, bit_size))
        .collect()
}

/// Memory bytes a read used that the context does not list (they read as
/// the seeded pseudo-random bytes): `{ address_space, first, bytes }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnlistedView {
    pub address_space: u32,
    /// The first byte's address, `0x...`.
    pub first: String,
    /// How many bytes from there on.
    pub bytes: u64,
}

impl UnlistedView {
    pub fn text(&self) -> String {
        format!(
            "as{} @{} ({} byte{})",
            self.address_space,
            self.first,
            self.bytes,
            if self.bytes == 1 { "" } else { "s" }
        )
    }
}

/// The ranges `access::read_noting_unlisted` reports, as views.
pub fn unlisted_views(r: &[(u32, num_bigint::BigUint, u64)]) -> Vec<UnlistedView> {
    r.iter()
        .map(|(a, first, n)| UnlistedView {
            address_space: *a,
            first: format!("0x{first:x}"),
            bytes: *n,
        })
        .collect()
}

/// Why a value could not be read: `{ kind, message }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorView {
    pub kind: String,
    pub message: String,
}

/// The typed location an expression yields, and the value read through it:
/// `{ type, bit_size, fragment, singles, value, read_error, unlisted_memory }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LocatedView {
    #[serde(rename = "type")]
    pub ty: String,
    pub bit_size: u64,
    /// `DIOpFragment`: which bits of the variable this describes.
    pub fragment: Option<FragmentView>,
    /// The single location descriptions (all hold the same object).
    pub singles: Vec<SingleView>,
    /// The value read; `null` when it could not be read or was not read.
    pub value: Option<ValueView>,
    /// Why the value could not be read.
    pub read_error: Option<ErrorView>,
    /// Memory the read used that the context does not list.
    pub unlisted_memory: Vec<UnlistedView>,
}

/// `{ offset, size }` in bits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FragmentView {
    pub offset: u64,
    pub size: u64,
}

impl LocatedView {
    /// `r`, with what reading it gave (if it was read) and the unlisted
    /// memory the read used.
    pub fn new(
        r: &crate::interp::Located,
        read: Option<&Result<Bits, crate::location::ReadError>>,
        unlisted: &[(u32, num_bigint::BigUint, u64)],
    ) -> LocatedView {
        LocatedView {
            ty: r.ty.to_string(),
            bit_size: r.bits,
            fragment: r
                .fragment
                .map(|(offset, size)| FragmentView { offset, size }),
            singles: loc_views(&r.loc, Some(&r.ty), r.bits),
            value: match read {
                Some(Ok(v)) => Some(value_view(Some(&r.ty), v)),
                _ => None,
            },
            read_error: match read {
                Some(Err(e)) => Some(ErrorView {
                    kind: format!("{:?}", e.kind),
                    message: e.message.clone(),
                }),
                _ => None,
            },
            unlisted_memory: unlisted_views(unlisted),
        }
    }

    /// The text form, each line prefixed with `indent`: type, location(s),
    /// fragment, value, unlisted memory.
    pub fn text(&self, r: &crate::interp::Located, indent: &str) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "{indent}type:     {} ({} bits)\n",
            self.ty, self.bit_size
        ));
        let n = r.loc.singles.len();
        s.push_str(&format!(
            "{indent}location: {n} single location{}\n",
            if n == 1 { "" } else { "s" }
        ));
        for v in &self.singles {
            s.push_str(&format!(
                "{indent}          {}{}\n",
                v.text,
                if v.writable { "" } else { " (read-only)" }
            ));
        }
        if n > self.singles.len() {
            s.push_str(&format!("{indent}          … ({n} single locations)\n"));
        }
        if let Some(f) = &self.fragment {
            s.push_str(&format!(
                "{indent}fragment: bits {}..{} of the variable ({} bits)\n",
                f.offset,
                u128::from(f.offset) + u128::from(f.size),
                f.size
            ));
        }
        match (&self.value, &self.read_error) {
            (Some(v), _) => s.push_str(&format!("{indent}value:    {}\n", v.text())),
            (None, Some(e)) => s.push_str(&format!(
                "{indent}value:    unreadable: {}: {}\n",
                e.kind, e.message
            )),
            (None, None) => {}
        }
        if !self.unlisted_memory.is_empty() {
            let list: Vec<String> = self
                .unlisted_memory
                .iter()
                .take(8)
                .map(|u| u.text())
                .collect();
            s.push_str(&format!(
                "{indent}unlisted: the context does not list memory {}{}: it read as pseudo-random bytes (seed)\n",
                list.join(", "),
                if self.unlisted_memory.len() > 8 { ", …" } else { "" }
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::FloatKind;

    fn float(k: FloatKind, raw: u128) -> ValueView {
        value_view(
            Some(&Type::Float(crate::types::FloatKindOrd(k))),
            &Bits::from_u128(k.width(), raw),
        )
    }

    #[test]
    fn floats_print_shortest_decimal_and_hex() {
        assert_eq!(
            float(FloatKind::Float, 0x3fc0_0000).text(),
            "1.5 (float 0x3fc00000)"
        );
        // 0.1 as a float is 0x3dcccccd; "0.1" reads back as it.
        assert_eq!(
            float(FloatKind::Float, 0x3dcc_cccd).text(),
            "0.1 (float 0x3dcccccd)"
        );
        assert_eq!(
            float(FloatKind::Double, 0x8000_0000_0000_0000)
                .float
                .unwrap()
                .decimal,
            "-0.0"
        );
        // half 0x3c01 = 1 + 2^-10 = 1.0009765625; 4 digits tell it from its
        // neighbours 1.0 and 1.001953125.
        assert_eq!(
            float(FloatKind::Half, 0x3c01).float.unwrap().decimal,
            "1.001"
        );
        assert_eq!(
            float(FloatKind::BFloat, 0x3f80).float.unwrap().decimal,
            "1.0"
        );
        let inf = float(FloatKind::Float, 0xff80_0000).float.unwrap();
        assert_eq!((inf.decimal.as_str(), inf.class), ("-inf", "infinity"));
    }

    #[test]
    fn nans_say_quiet_or_signalling_and_their_payload() {
        let q = float(FloatKind::Float, 0x7fc0_0001).float.unwrap();
        assert_eq!((q.quiet, q.payload.as_deref()), (Some(true), Some("0x1")));
        let s = float(FloatKind::Double, 0x7ff4_0000_0000_0001)
            .float
            .unwrap();
        assert_eq!(
            (s.quiet, s.payload.as_deref()),
            (Some(false), Some("0x4000000000001"))
        );
        // x87: explicit integer bit 63, quiet bit 62.
        let x = float(FloatKind::X86Fp80, 0x7fff_c000_0000_0000_0005)
            .float
            .unwrap();
        assert_eq!(
            (x.class, x.quiet, x.payload.as_deref()),
            ("nan", Some(true), Some("0x5"))
        );
    }

    #[test]
    fn huge_values_are_abbreviated() {
        let b = Bits::from_u128(8_388_608, 2);
        let v = value_view(None, &b);
        assert_eq!(v.hex, "0x0000000000000000…0000000000000002 (8388608 bits)");
        assert_eq!(v.unsigned, None);
        let v = value_view(None, &Bits::from_u128(4096, 1));
        assert_eq!(v.hex.len(), 2 + 1024);
        assert_eq!(v.unsigned.as_deref(), Some("1"));
    }

    #[test]
    fn memory_and_entities_are_named_as_the_context_names_them() {
        let s = Single {
            storage: Storage::Memory { addrspace: 1 },
            offset: BigInt::from(0x1000 * 8 + 4),
        };
        assert_eq!(single_text(&s, None), "as1 @0x1000 +4 bits");
        let v = single_view(&s, None, 32);
        assert_eq!(
            (v.kind, v.address.as_deref(), v.writable),
            ("memory", Some("0x1000"), true)
        );
        let e = Single {
            storage: Storage::Entity { name: "%r".into() },
            offset: BigInt::from(-8),
        };
        assert_eq!(single_text(&e, None), "%r -8 bits");
    }
}
