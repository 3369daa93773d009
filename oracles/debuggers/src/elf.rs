//! The batch program: its debug information written with `gimli::write`
//! into an ELF object with `object::write`, linked with the runtime
//! (`runtime/main.c`, `runtime/stops.S`) by `clang-19` (or `gcc`).
//!
//! Every case is a variable of the function `diopter_stops`, of type
//! `unsigned char[N]` (its N bytes are what the debugger prints). Its
//! location is the case's lowered DWARF 5 expression, rebuilt operation by
//! operation with `gimli::write::Expression` so that base types are real
//! `DW_TAG_base_type` DIEs and registers the machine's (the lowering numbers
//! them per expression). A variable marked `loclist` gets a location list of
//! three ranges instead: the case's expression only on the one instruction
//! at `diopter_stop`, and a decoy (implicit bytes 0xee) before and after,
//! so a debugger that picks the wrong entry shows it.

use diopter_dwarf::ops::{BaseType, DwOp};
use gimli::write::{
    Address, AttributeValue, DwarfUnit, EndianVec, Expression, Location, LocationList,
    RelocateWriter, Relocation, RelocationTarget, Sections, UnitEntryId,
};
use gimli::{Encoding, Format, LittleEndian, Register};
use object::write::{Object, StandardSection, Symbol, SymbolId, SymbolSection};
use object::{
    Architecture, BinaryFormat, Endianness, RelocationEncoding, RelocationFlags, RelocationKind,
    SectionKind, SymbolFlags, SymbolKind, SymbolScope,
};
use std::collections::BTreeMap;

/// The page size of the machine the program runs on (x86-64 Linux).
pub const PAGE: u64 = 4096;

/// The general registers a stop sets, as DWARF numbers (x86-64 psABI):
/// rax, rdx, rcx, rbx, rsi, rdi, r8-r15. rbp (6), rsp (7) and the return
/// address (16) keep the frame.
pub const GPRS: [u16; 14] = [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15];
/// xmm0-xmm15.
pub const XMM_BASE: u16 = 17;
pub const XMMS: usize = 16;
/// Bytes of one stop of the register table (runtime/stops.S).
pub const STOP_BYTES: usize = GPRS.len() * 8 + XMMS * 16;

/// One variable of the batch.
#[derive(Clone, Debug)]
pub struct Variable {
    pub name: String,
    pub bytes: u64,
    pub ops: Vec<DwOp>,
    /// The machine register of the expression's register `i`.
    pub registers: Vec<u16>,
    pub loclist: bool,
}

/// The register values of one stop: the general registers in [`GPRS`]
/// order, then the xmm registers.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    pub gpr: [u64; GPRS.len()],
    pub xmm: [u128; XMMS],
}

impl Stop {
    fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(STOP_BYTES);
        for g in self.gpr {
            out.extend_from_slice(&g.to_le_bytes());
        }
        for x in self.xmm {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }
}

/// The code symbols the debug information refers to (defined by stops.S).
const CODE_SYMBOLS: [&str; 3] = ["diopter_stops", "diopter_stop", "diopter_stops_end"];

fn code(i: usize, addend: i64) -> Address {
    Address::Symbol { symbol: i, addend }
}

/// Records relocations beside the bytes, for `object` to emit.
#[derive(Clone)]
struct RelocWriter {
    data: EndianVec<LittleEndian>,
    relocs: Vec<Relocation>,
}

impl RelocWriter {
    fn new() -> Self {
        RelocWriter {
            data: EndianVec::new(LittleEndian),
            relocs: Vec::new(),
        }
    }
}

impl RelocateWriter for RelocWriter {
    type Writer = EndianVec<LittleEndian>;
    fn writer(&self) -> &Self::Writer {
        &self.data
    }
    fn writer_mut(&mut self) -> &mut Self::Writer {
        &mut self.data
    }
    fn relocate(&mut self, relocation: Relocation) {
        self.relocs.push(relocation);
    }
}

/// Base-type DIEs, made on first use.
struct BaseTypes {
    ids: BTreeMap<String, UnitEntryId>,
}

impl BaseTypes {
    fn id(&mut self, unit: &mut DwarfUnit, bt: BaseType) -> UnitEntryId {
        let name = bt.name();
        if let Some(id) = self.ids.get(&name) {
            return *id;
        }
        let root = unit.unit.root();
        let id = unit.unit.add(root, gimli::DW_TAG_base_type);
        let e = unit.unit.get_mut(id);
        e.set(
            gimli::DW_AT_name,
            AttributeValue::String(name.clone().into_bytes()),
        );
        let enc = if bt.is_float() {
            gimli::DW_ATE_float
        } else if bt.is_signed() {
            gimli::DW_ATE_signed
        } else {
            gimli::DW_ATE_unsigned
        };
        e.set(gimli::DW_AT_encoding, AttributeValue::Encoding(enc));
        e.set(
            gimli::DW_AT_byte_size,
            AttributeValue::Udata(u64::from(bt.bytes())),
        );
        self.ids.insert(name, id);
        id
    }
}

/// Why a lowered expression cannot be put into the program.
pub fn unsupported(op: &DwOp) -> Option<&'static str> {
    match op {
        DwOp::ImplicitPointer(..) => Some("DW_OP_implicit_pointer (its DIE is not written)"),
        DwOp::Call4(_) => Some("DW_OP_call4"),
        DwOp::Addrx(_) => Some("DW_OP_addrx (no .debug_addr)"),
        DwOp::Llvm(_) => Some("AMD's extension operations"),
        _ => None,
    }
}

/// The byte offset at which each operation starts, and the total length.
fn op_offsets(ops: &[DwOp]) -> (Vec<usize>, usize) {
    let mut at = 0;
    let mut starts = Vec::with_capacity(ops.len());
    for op in ops {
        starts.push(at);
        let mut b = Vec::new();
        op.encode(&mut b);
        at += b.len();
    }
    (starts, at)
}

/// `ops` as a `gimli::write` expression, registers mapped to the machine's.
fn expression(
    v: &Variable,
    unit: &mut DwarfUnit,
    types: &mut BaseTypes,
) -> Result<Expression, String> {
    use gimli::constants as c;
    let (starts, end) = op_offsets(&v.ops);
    let reg = |r: &u16| -> Result<Register, String> {
        v.registers
            .get(usize::from(*r))
            .map(|m| Register(*m))
            .ok_or_else(|| format!("{}: register {r} has no machine register", v.name))
    };
    let mut e = Expression::new();
    // (index of the branch operation, target byte offset)
    let mut branches = Vec::new();
    for (i, op) in v.ops.iter().enumerate() {
        match op {
            DwOp::Lit(n) => e.op(gimli::DwOp(c::DW_OP_lit0.0 + (*n).min(31))),
            DwOp::Addr(a) => e.op_addr(Address::Constant(*a)),
            DwOp::Constu(x) => e.op_constu(*x),
            DwOp::Consts(x) => e.op_consts(*x),
            DwOp::ConstType(bt, b) => {
                let id = types.id(unit, *bt);
                e.op_const_type(id, b.clone().into_boxed_slice())
            }
            DwOp::Reg(r) | DwOp::Regx(r) => e.op_reg(reg(r)?),
            DwOp::Breg(r, o) | DwOp::Bregx(r, o) => e.op_breg(reg(r)?, *o),
            DwOp::RegvalType(r, bt) => {
                let id = types.id(unit, *bt);
                e.op_regval_type(reg(r)?, id)
            }
            DwOp::Deref => e.op_deref(),
            DwOp::DerefSize(n) => e.op_deref_size(*n),
            DwOp::DerefType(n, bt) => {
                let id = types.id(unit, *bt);
                e.op_deref_type(*n, id)
            }
            DwOp::XderefSize(n) => e.op_xderef_size(*n),
            DwOp::XderefType(n, bt) => {
                let id = types.id(unit, *bt);
                e.op_xderef_type(*n, id)
            }
            DwOp::Convert(bt) => {
                let id = bt.map(|b| types.id(unit, b));
                e.op_convert(id)
            }
            DwOp::Reinterpret(bt) => {
                let id = types.id(unit, *bt);
                e.op_reinterpret(Some(id))
            }
            DwOp::Dup => e.op(c::DW_OP_dup),
            DwOp::Drop => e.op(c::DW_OP_drop),
            DwOp::Swap => e.op(c::DW_OP_swap),
            DwOp::Rot => e.op(c::DW_OP_rot),
            DwOp::Over => e.op(c::DW_OP_over),
            DwOp::Pick(n) => e.op_pick(*n),
            DwOp::Ge => e.op(c::DW_OP_ge),
            DwOp::Lt => e.op(c::DW_OP_lt),
            DwOp::Plus => e.op(c::DW_OP_plus),
            DwOp::PlusUconst(x) => e.op_plus_uconst(*x),
            DwOp::Minus => e.op(c::DW_OP_minus),
            DwOp::Neg => e.op(c::DW_OP_neg),
            DwOp::Mul => e.op(c::DW_OP_mul),
            DwOp::Div => e.op(c::DW_OP_div),
            DwOp::Mod => e.op(c::DW_OP_mod),
            DwOp::And => e.op(c::DW_OP_and),
            DwOp::Or => e.op(c::DW_OP_or),
            DwOp::Xor => e.op(c::DW_OP_xor),
            DwOp::Shl => e.op(c::DW_OP_shl),
            DwOp::Shr => e.op(c::DW_OP_shr),
            DwOp::Shra => e.op(c::DW_OP_shra),
            DwOp::StackValue => e.op(c::DW_OP_stack_value),
            DwOp::ImplicitValue(b) => e.op_implicit_value(b.clone().into_boxed_slice()),
            DwOp::Piece(n) => e.op_piece(*n),
            DwOp::BitPiece(s, o) => e.op_bit_piece(*s, *o),
            DwOp::Bra(off) | DwOp::Skip(off) => {
                let k = if matches!(op, DwOp::Bra(_)) {
                    e.op_bra()
                } else {
                    e.op_skip()
                };
                let next = starts.get(i + 1).copied().unwrap_or(end);
                let target = next as i64 + i64::from(*off);
                branches.push((k, target));
            }
            other => {
                return Err(format!(
                    "{}: {} cannot be written",
                    v.name,
                    unsupported(other).unwrap_or("an operation")
                ))
            }
        }
    }
    for (k, target) in branches {
        let t = if target == end as i64 {
            Some(v.ops.len())
        } else {
            starts.iter().position(|s| *s as i64 == target)
        };
        match t {
            // gimli::write numbers operations as `ops` are (one each).
            Some(t) if t != k => e.set_target(k, t),
            _ => {
                return Err(format!(
                    "{}: a branch to byte {target}, not the start of an operation",
                    v.name
                ))
            }
        }
    }
    Ok(e)
}

fn set_all(
    unit: &mut DwarfUnit,
    id: UnitEntryId,
    attrs: impl IntoIterator<Item = (gimli::DwAt, AttributeValue)>,
) {
    let e = unit.unit.get_mut(id);
    for (a, v) in attrs {
        e.set(a, v);
    }
}

/// The batch's ELF object: the debug information of `vars`, the register
/// table of `stops` and the memory `pages` (address, [`PAGE`] bytes).
pub fn batch_object(
    vars: &[Variable],
    stops: &[Stop],
    pages: &[(u64, Vec<u8>)],
) -> Result<Vec<u8>, String> {
    let encoding = Encoding {
        format: Format::Dwarf32,
        version: 5,
        address_size: 8,
    };
    let mut unit = DwarfUnit::new(encoding);
    let root = unit.unit.root();
    let name = |n: &str| AttributeValue::String(n.as_bytes().to_vec());
    let range = [
        (gimli::DW_AT_low_pc, AttributeValue::Address(code(0, 0))),
        (gimli::DW_AT_high_pc, AttributeValue::Address(code(2, 0))),
    ];
    set_all(
        &mut unit,
        root,
        [
            (gimli::DW_AT_producer, name("diopter debuggers")),
            (
                gimli::DW_AT_language,
                AttributeValue::Language(gimli::DW_LANG_C11),
            ),
            (gimli::DW_AT_name, name("diopter-batch.c")),
        ]
        .into_iter()
        .chain(range.clone()),
    );
    let uchar = unit.unit.add(root, gimli::DW_TAG_base_type);
    set_all(
        &mut unit,
        uchar,
        [
            (gimli::DW_AT_name, name("unsigned char")),
            (
                gimli::DW_AT_encoding,
                AttributeValue::Encoding(gimli::DW_ATE_unsigned_char),
            ),
            (gimli::DW_AT_byte_size, AttributeValue::Udata(1)),
        ],
    );
    let func = unit.unit.add(root, gimli::DW_TAG_subprogram);
    let mut frame_base = Expression::new();
    frame_base.op(gimli::DW_OP_call_frame_cfa);
    set_all(
        &mut unit,
        func,
        [
            (gimli::DW_AT_name, name("diopter_stops")),
            (gimli::DW_AT_external, AttributeValue::Flag(true)),
            (gimli::DW_AT_frame_base, AttributeValue::Exprloc(frame_base)),
        ]
        .into_iter()
        .chain(range),
    );
    let mut arrays: BTreeMap<u64, UnitEntryId> = BTreeMap::new();
    let mut types = BaseTypes {
        ids: BTreeMap::new(),
    };
    for v in vars {
        let ty = match arrays.get(&v.bytes) {
            Some(t) => *t,
            None => {
                let a = unit.unit.add(root, gimli::DW_TAG_array_type);
                unit.unit
                    .get_mut(a)
                    .set(gimli::DW_AT_type, AttributeValue::UnitRef(uchar));
                let s = unit.unit.add(a, gimli::DW_TAG_subrange_type);
                unit.unit
                    .get_mut(s)
                    .set(gimli::DW_AT_count, AttributeValue::Udata(v.bytes));
                arrays.insert(v.bytes, a);
                a
            }
        };
        let expr = expression(v, &mut unit, &mut types)?;
        let location = if v.loclist {
            let decoy = || {
                let mut d = Expression::new();
                d.op_implicit_value(vec![0xee; v.bytes as usize].into_boxed_slice());
                d
            };
            let list = LocationList(vec![
                Location::StartEnd {
                    begin: code(0, 0),
                    end: code(1, 0),
                    data: decoy(),
                },
                Location::StartEnd {
                    begin: code(1, 0),
                    end: code(1, 1),
                    data: expr,
                },
                Location::StartEnd {
                    begin: code(1, 1),
                    end: code(2, 0),
                    data: decoy(),
                },
            ]);
            AttributeValue::LocationListRef(unit.unit.locations.add(list))
        } else {
            AttributeValue::Exprloc(expr)
        };
        let var = unit.unit.add(func, gimli::DW_TAG_variable);
        let e = unit.unit.get_mut(var);
        e.set(
            gimli::DW_AT_name,
            AttributeValue::String(v.name.clone().into_bytes()),
        );
        e.set(gimli::DW_AT_type, AttributeValue::UnitRef(ty));
        e.set(gimli::DW_AT_location, location);
    }
    let mut sections = Sections::new(RelocWriter::new());
    unit.write(&mut sections)
        .map_err(|e| format!("gimli cannot write the debug information: {e}"))?;

    let mut obj = Object::new(BinaryFormat::Elf, Architecture::X86_64, Endianness::Little);
    let code_syms: Vec<SymbolId> = CODE_SYMBOLS
        .iter()
        .map(|n| {
            obj.add_symbol(Symbol {
                name: n.as_bytes().to_vec(),
                value: 0,
                size: 0,
                kind: SymbolKind::Text,
                scope: SymbolScope::Linkage,
                weak: false,
                section: SymbolSection::Undefined,
                flags: SymbolFlags::None,
            })
        })
        .collect();
    // Debug sections first, then their relocations (which may point at
    // each other).
    let mut ids = BTreeMap::new();
    sections
        .for_each(|id, w| -> Result<(), String> {
            if !w.data.slice().is_empty() {
                let s = obj.add_section(
                    Vec::new(),
                    id.name().as_bytes().to_vec(),
                    SectionKind::Debug,
                );
                obj.set_section_data(s, w.data.slice().to_vec(), 1);
                ids.insert(id, s);
            }
            Ok(())
        })
        .map_err(|e: String| e)?;
    let mut relocs = Vec::new();
    sections
        .for_each(|id, w| -> Result<(), String> {
            for r in &w.relocs {
                relocs.push((id, *r));
            }
            Ok(())
        })
        .map_err(|e: String| e)?;
    for (id, r) in relocs {
        let section = ids[&id];
        let symbol = match r.target {
            RelocationTarget::Symbol(i) => code_syms[i],
            RelocationTarget::Section(s) => {
                let target = *ids
                    .get(&s)
                    .ok_or_else(|| format!("a relocation to the empty section {}", s.name()))?;
                obj.section_symbol(target)
            }
        };
        obj.add_relocation(
            section,
            object::write::Relocation {
                offset: r.offset as u64,
                symbol,
                addend: r.addend,
                flags: RelocationFlags::Generic {
                    kind: RelocationKind::Absolute,
                    encoding: RelocationEncoding::Generic,
                    size: r.size * 8,
                },
            },
        )
        .map_err(|e| format!("object: {e}"))?;
    }
    let rodata = obj.section_id(StandardSection::ReadOnlyData);
    let data = |obj: &mut Object, name: &str, bytes: Vec<u8>| {
        let s = obj.add_symbol(Symbol {
            name: name.as_bytes().to_vec(),
            value: 0,
            size: 0,
            kind: SymbolKind::Data,
            scope: SymbolScope::Linkage,
            weak: false,
            section: SymbolSection::Undefined,
            flags: SymbolFlags::None,
        });
        obj.add_symbol_data(s, rodata, &bytes, 16);
    };
    data(
        &mut obj,
        "diopter_nstops",
        (stops.len() as u64).to_le_bytes().to_vec(),
    );
    data(
        &mut obj,
        "diopter_table",
        stops
            .iter()
            .flat_map(Stop::bytes)
            .chain([0u8; 16])
            .collect(),
    );
    data(
        &mut obj,
        "diopter_npages",
        (pages.len() as u64).to_le_bytes().to_vec(),
    );
    let mut blob = Vec::with_capacity(pages.len() * (8 + PAGE as usize) + 16);
    for (a, bytes) in pages {
        blob.extend_from_slice(&a.to_le_bytes());
        blob.extend_from_slice(bytes);
    }
    blob.extend_from_slice(&[0u8; 16]);
    data(&mut obj, "diopter_pages", blob);
    obj.write().map_err(|e| format!("object: {e}"))
}
