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
use diopter_dwarf::{eval::trace_memory, lower, Lowered};
use diopter_semantics::case::Case;
use diopter_semantics::interp::ErrorKind;
use diopter_semantics::location::{LocDesc, ReadErrorKind, Storage};
use diopter_semantics::value::Bits;
use num_bigint::BigUint;
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

fn pages_of(pages: &mut BTreeSet<u64>, addr: u64, len: u64) -> Result<(), String> {
    let end = addr
        .checked_add(len.max(1))
        .ok_or_else(|| format!("memory at 0x{addr:x} runs past 2^64"))?;
    if addr < MAP_LOW || end > MAP_HIGH {
        return Err(format!(
            "reads memory at 0x{addr:x}, outside the mappable 0x{MAP_LOW:x}..0x{MAP_HIGH:x}"
        ));
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
fn loc_pages(pages: &mut BTreeSet<u64>, loc: &LocDesc, bits: u64) -> Result<(), String> {
    for s in &loc.singles {
        match &s.storage {
            Storage::Memory { addrspace: 0 } => {
                let start = s.offset.clone() >> 3u8;
                let Some(a) = start.to_u64() else {
                    return Err(format!("reads memory at bit offset {}", s.offset));
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
pub fn prepare(case: Case) -> Result<Prepared, String> {
    let lowered =
        lower(&case.bare, &case.types, &case.ctx).map_err(|e| format!("not lowerable: {e}"))?;
    if lowered.uses_extensions {
        return Err("uses AMD's extensions".into());
    }
    if let Some(why) = lowered.ops.iter().find_map(elf::unsupported) {
        return Err(format!("not written into the program yet: {why}"));
    }
    if lowered.bits == 0 || lowered.bits % 8 != 0 {
        return Err(format!(
            "a result of {} bits: a debugger shows whole bytes",
            lowered.bits
        ));
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
        return Err("reads a register with no value (undefined storage or an implicit pointer's bits): every register of a live frame has one".into());
    }
    let mut registers = Vec::new();
    for name in &lowered.registers {
        let v = case
            .ctx
            .entity(name)
            .ok_or_else(|| format!("the register entity {name} is not in the context"))?;
        registers.push(match v.width() {
            64 => Reg::Gpr(v.to_u64().unwrap_or(0)),
            128 => Reg::Xmm(v.to_u128().unwrap_or(0)),
            w => {
                return Err(format!(
                    "the entity {name} has {w} bits; a machine register 64 or 128"
                ))
            }
        });
    }
    let gpr = registers
        .iter()
        .filter(|r| matches!(r, Reg::Gpr(_)))
        .count();
    if gpr > elf::GPRS.len() || registers.len() - gpr > elf::XMMS {
        return Err("needs more registers than the machine has".into());
    }
    let observed = diff::observe(&case, &Reference);
    let reference = match (&observed.outcome, &observed.read) {
        (Err(e), _) if e.kind == ErrorKind::Inconsistent || e.kind == ErrorKind::ResourceLimit => {
            return Err(format!("the reference: {:?}", e.kind))
        }
        (Err(e), _) => Err(format!(
            "{:?} at operation #{}: {}",
            e.kind, e.op_index, e.message
        )),
        (Ok(_), Some(Err(e))) if e.kind == ReadErrorKind::Inconsistent => {
            return Err("the reference: inconsistent context".into())
        }
        (Ok(_), Some(Err(e))) => Err(format!("read fails ({:?}): {}", e.kind, e.message)),
        (Ok(_), Some(Ok(b))) => Ok(b.clone()),
        (Ok(_), None) => return Err("the reference gives no read".into()),
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
        return Err(format!("reads {} pages of memory", pages.len()));
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
