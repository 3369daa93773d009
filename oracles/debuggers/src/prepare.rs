//! One case made ready for a batch: lowered to DWARF 5, evaluated by the
//! reference and by gimli, its registers classed (general or xmm), the
//! memory pages it reads collected with their bytes; or the reason why
//! the debuggers cannot be asked about it, which is counted and reported,
//! never taken for agreement.

use crate::baseline::{compare, DwarfVerdict};
use crate::elf::{self, PAGE};
use diopter_diff::{self as diff, Reference};
use diopter_dwarf::lower::{IMPLICIT_POINTER_REG, UNDEF_REG};
use diopter_dwarf::ops::DwOp;
use diopter_dwarf::{eval::trace_memory, lower, Lowered, NotLowerable};
use diopter_semantics::case::Case;
use diopter_semantics::interp::ErrorKind;
use diopter_semantics::location::{LocDesc, ReadErrorKind, Storage};
use diopter_semantics::value::Bits;
use num_bigint::{BigInt, BigUint};
use num_traits::ToPrimitive;
use std::collections::{BTreeMap, BTreeSet};

/// Where the pages of a case may lie: above the program's own image and
/// heap, below the shared libraries and the stack.
pub const MAP_LOW: u64 = 0x1000_0000;
pub const MAP_HIGH: u64 = 0x7000_0000_0000;
/// At most this many pages per case.
pub const MAX_PAGES: usize = 64;

/// The machine register an expression register needs, with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    Gpr(u64),
    Xmm(u128),
}

#[derive(Clone, Debug)]
pub struct Prepared {
    pub case: Case,
    pub lowered: Lowered,
    /// The variable's size: the result's bits, whole bytes.
    pub bytes: u64,
    pub registers: Vec<Reg>,
    /// Page address → its bytes.
    pub pages: BTreeMap<u64, Vec<u8>>,
    /// The reference's read, or why it fails.
    pub reference: Result<Bits, String>,
    pub gimli: DwarfVerdict,
    /// The DWARF operations of the expression, by name.
    pub ops: BTreeSet<String>,
}

impl Prepared {
    /// Whether two byte strings of the result are NaNs whose payloads may differ.
    pub fn nan_test(&self) -> Option<impl Fn(&[u8]) -> bool + '_> {
        if !self.lowered.computed_float_result {
            return None;
        }
        let ty = self.lowered.ty.clone();
        let bits = self.lowered.bits;
        Some(move |b: &[u8]| diff::is_nan(&ty, &Bits::from_le_bytes(bits, b)))
    }
}

/// The name of a DWARF operation (its printout's first word).
pub fn op_name(op: &DwOp) -> String {
    op.to_string()
        .split_whitespace()
        .next()
        .unwrap_or("?")
        .to_string()
}

/// Why the debuggers cannot be asked about a case ([`prepare`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Inapplicable {
    #[error("not lowerable: {0}")]
    NotLowerable(NotLowerable),
    #[error("uses AMD's extensions")]
    Extensions,
    /// An operation the program writer does not write (which one).
    #[error("not written into the program yet: {0}")]
    Unwritten(&'static str),
    #[error("a result of {0} bits: a debugger shows whole bytes")]
    PartBytes(u64),
    #[error("reads a register with no value (undefined storage or an implicit pointer's bits): every register of a live frame has one")]
    ValuelessRegister,
    #[error("the register entity {0} is not in the context")]
    MissingRegister(String),
    #[error("the entity {name} has {bits} bits; a machine register 64 or 128")]
    RegisterWidth { name: String, bits: u64 },
    #[error("needs more registers than the machine has")]
    TooManyRegisters,
    /// The reference fails in a way a debugger cannot be compared with.
    #[error("the reference: {0:?}")]
    Reference(ErrorKind),
    #[error("the reference: inconsistent context")]
    Inconsistent,
    #[error("the reference gives no read")]
    NoRead,
    /// Memory at a bit offset that is no address.
    #[error("reads memory at bit offset {0}")]
    BitOffset(BigInt),
    #[error("memory at 0x{0:x} runs past 2^64")]
    PastTheEnd(u64),
    #[error("reads memory at 0x{0:x}, outside the mappable 0x{MAP_LOW:x}..0x{MAP_HIGH:x}")]
    Unmappable(u64),
    #[error("reads {0} pages of memory")]
    TooManyPages(usize),
}

fn pages_of(pages: &mut BTreeSet<u64>, addr: u64, len: u64) -> Result<(), Inapplicable> {
    let end = addr
        .checked_add(len.max(1))
        .ok_or(Inapplicable::PastTheEnd(addr))?;
    if addr < MAP_LOW || end > MAP_HIGH {
        return Err(Inapplicable::Unmappable(addr));
    }
    let mut p = addr / PAGE * PAGE;
    while p < end {
        pages.insert(p);
        p += PAGE;
    }
    Ok(())
}

/// The memory (address space 0) a location's reads touch: every single
/// location's first `bits` bits, parts of composites at their own sizes.
fn loc_pages(pages: &mut BTreeSet<u64>, loc: &LocDesc, bits: u64) -> Result<(), Inapplicable> {
    for s in &loc.singles {
        match &s.storage {
            Storage::Memory { addrspace: 0 } => {
                let start = s.offset.clone() >> 3u8;
                let Some(a) = start.to_u64() else {
                    return Err(Inapplicable::BitOffset(s.offset.clone()));
                };
                pages_of(pages, a, bits.div_ceil(8) + 1)?;
            }
            Storage::Composite { parts } => {
                for p in parts {
                    loc_pages(pages, &p.loc, p.bits)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Prepares `case`, or says why the debuggers cannot be asked about it.
pub fn prepare(case: Case) -> Result<Prepared, Inapplicable> {
    let lowered = lower(&case.bare, &case.types, &case.ctx).map_err(Inapplicable::NotLowerable)?;
    if lowered.uses_extensions {
        return Err(Inapplicable::Extensions);
    }
    if let Some(why) = lowered.ops.iter().find_map(elf::unsupported) {
        return Err(Inapplicable::Unwritten(why));
    }
    if lowered.bits == 0 || lowered.bits % 8 != 0 {
        return Err(Inapplicable::PartBytes(lowered.bits));
    }
    let reads_nothing = |r: u16| r >= UNDEF_REG.min(IMPLICIT_POINTER_REG);
    let special = lowered.ops.iter().any(|op| match op {
        DwOp::Reg(r)
        | DwOp::Regx(r)
        | DwOp::Breg(r, _)
        | DwOp::Bregx(r, _)
        | DwOp::RegvalType(r, _) => reads_nothing(*r),
        _ => false,
    });
    if special {
        return Err(Inapplicable::ValuelessRegister);
    }
    let mut registers = Vec::new();
    for name in &lowered.registers {
        let v = case
            .ctx
            .entity(name)
            .ok_or_else(|| Inapplicable::MissingRegister(name.clone()))?;
        registers.push(match v.width() {
            64 => Reg::Gpr(v.to_u64().unwrap_or(0)),
            128 => Reg::Xmm(v.to_u128().unwrap_or(0)),
            bits => {
                return Err(Inapplicable::RegisterWidth {
                    name: name.clone(),
                    bits,
                })
            }
        });
    }
    let gpr = registers
        .iter()
        .filter(|r| matches!(r, Reg::Gpr(_)))
        .count();
    if gpr > elf::GPRS.len() || registers.len() - gpr > elf::XMMS {
        return Err(Inapplicable::TooManyRegisters);
    }
    let observed = diff::observe(&case, &Reference);
    let reference = match (&observed.outcome, &observed.read) {
        (Err(e), _) if e.kind == ErrorKind::Inconsistent || e.kind == ErrorKind::ResourceLimit => {
            return Err(Inapplicable::Reference(e.kind))
        }
        (Err(e), _) => Err(format!(
            "{:?} at operation #{}: {}",
            e.kind, e.op_index, e.message
        )),
        (Ok(_), Some(Err(e))) if e.kind == ReadErrorKind::Inconsistent => {
            return Err(Inapplicable::Inconsistent)
        }
        (Ok(_), Some(Err(e))) => Err(format!("read fails ({:?}): {}", e.kind, e.message)),
        (Ok(_), Some(Ok(b))) => Ok(b.clone()),
        (Ok(_), None) => return Err(Inapplicable::NoRead),
    };
    let (gimli, requests) = trace_memory(|| compare(&case));
    let mut pages = BTreeSet::new();
    for (space, addr, size) in requests {
        if space == 0 {
            pages_of(&mut pages, addr, u64::from(size))?;
        }
    }
    if let Ok(r) = &observed.outcome {
        loc_pages(&mut pages, &r.loc, r.bits)?;
    }
    if pages.len() > MAX_PAGES {
        return Err(Inapplicable::TooManyPages(pages.len()));
    }
    let pages = pages
        .into_iter()
        .map(|p| {
            let bytes = (p..p + PAGE)
                .map(|a| case.ctx.byte(0, &BigUint::from(a)))
                .collect();
            (p, bytes)
        })
        .collect();
    let ops = lowered.ops.iter().map(op_name).collect();
    Ok(Prepared {
        bytes: lowered.bits / 8,
        case,
        lowered,
        registers,
        pages,
        reference,
        gimli,
        ops,
    })
}
