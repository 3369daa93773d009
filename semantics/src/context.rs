//! The evaluation context of an expression, and its text format.
//!
//! A context is everything an expression's evaluation looks at outside the
//! expression itself: the data layout, the contents of memory (per address
//! space), the values of named entities (LLVM values, registers, stack slots),
//! the locations of the arguments, the referrer and the type object, and the
//! current lane. It also holds the *mutable* state that writes change (memory
//! bytes, entity bits), so that writing through a location is observable and
//! two contexts can be compared after writes ([`Context::same_state`],
//! [`Context::state_diff`]): DESIGN.md's equivalence asks for "the same effect
//! on the context for every value written".
//!
//! Memory never runs out: a byte the context does not give reads as
//! [`seeded_byte`]`(seed, address space, address)`, a splitmix64 hash, so that
//! generated contexts need to list only the bytes they care about.
//!
//! # Format
//!
//! Line-oriented; `#` starts a comment (outside quotes); blank lines are
//! ignored; lines may come in any order (the `datalayout` line applies to the
//! whole file). Put blanks around `+`, `-`, `|` and `:` (`%x-8` would be read
//! as the name `x-8`).
//!
//! ```text
//! LINE     := ITEM? COMMENT?
//! ITEM     := 'datalayout' ('default' | 'amdgpu' | STRING)   at most once; default: `default`
//!           | 'seed' UINT                                     at most once; default: 0
//!           | 'lane' UINT                                     at most once; DIOpPushLane needs it
//!           | 'mem' AS ADDR '=' HEXBYTES                      bytes from ADDR upwards
//!           | ENTITY '=' TYPE VALUE                           an entity holding bitsizeof(TYPE) bits
//!           | 'arg' UINT '=' LOCS                             the location of argument N
//!           | 'referrer' '=' LOCS                             the referrer's location
//!           | 'object' '=' LOCS                               DIOpTypeObject's object
//! ENTITY   := '%' NAME | '$' NAME | '@' NAME                  NAME may be quoted: %"a b"
//! VALUE    := a literal of TYPE as in DIOpConstant (`1.5`, `<i32 1, i32 2>`,
//!             `zeroinitializer`, `null`, `true`), or, for an integer or pointer
//!             TYPE, a decimal or 0x-hex integer (negative: two's complement)
//! LOCS     := SINGLE ('|' SINGLE)*                            several single locations
//! SINGLE   := BASE (('+' | '-') INT)?                         plus or minus a bit offset
//! BASE     := 'mem' '(' AS ',' ADDR ')'                       memory of AS at byte address ADDR
//!           | ENTITY                                          an entity, at bit 0
//!           | 'implicit' '(' TYPE VALUE ')'                   an implicit value (read-only)
//!           | 'undef'                                         the undefined location
//!           | 'composite' '(' (PART (',' PART)*)? ')'         parts from bit 0 upwards
//!           | 'addrof' '(' PTRTYPE ',' TYPE ',' LOCS ')'      an implicit address of LOCS:TYPE
//! PART     := LOCS ':' UINT                                   a part of UINT bits
//! HEXBYTES := hex digit pairs, optionally grouped by blanks (`deadbeef` = `de ad be ef`),
//!             the first pair at ADDR, the next at ADDR+1, ...
//! UINT, AS, ADDR, INT := decimal or 0x-hex; ADDR in `mem(...)` and INT may be negative
//! ```
//!
//! Every entity a location names must have an `ENTITY = ...` line. Bytes of a
//! `mem` line must lie inside the address space (2^(pointer bits) bytes) and
//! may be given only once.
//!
//! # Example
//!
//! ```text
//! # A variable spilled to scratch and still live in a register.
//! datalayout amdgpu
//! seed 42
//! lane 3
//! mem 5 0x100 = 78 56 34 12          # little-endian i32 0x12345678 at 0x100
//! mem 1 0x2000 = deadbeef
//! %x = i32 0x12345678
//! $r0 = float 1.5
//! %frame.index.0 = <2 x i16> <i16 1, i16 -1>
//! arg 0 = mem(5, 0x100) | %x          # two single locations holding the same i32
//! arg 1 = composite($r0 : 32, implicit(i32 7) : 32)
//! arg 2 = %frame.index.0 + 16         # its second element
//! arg 3 = undef
//! referrer = mem(1, 0x2000)
//! object = addrof(ptr addrspace(5), i32, mem(5, 0x100))
//! ```
//!
//! [`Context`]'s `Display` prints this format; parsing the printout gives an
//! equal context (entity values print as `iN 0x...` of their bits, memory as
//! runs of bytes).

use crate::ast::Span;
use crate::diag::Diagnostic;
use crate::location::{self, LocDesc, Part};
use crate::memory::Memory;
use crate::syntax::lexer::{lex, Tok};
use crate::syntax::parser::{check_int_fits, Parser};
use crate::types::{DataLayout, Type, TypeTable};
use crate::value::Bits;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, ToPrimitive, Zero};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// An evaluation context. `Clone` takes a snapshot. The default has the
/// default data layout, seed 0 and nothing else.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Context {
    pub datalayout: DataLayout,
    /// Memory bytes not in `state.memory` read as `seeded_byte(seed, AS, address)`.
    pub seed: u64,
    /// The current lane, for `DIOpPushLane`.
    pub lane: Option<u64>,
    /// `arg N`: the location of the expression's `N`th input.
    pub args: BTreeMap<u64, LocDesc>,
    pub referrer: Option<LocDesc>,
    /// The object `DIOpTypeObject` refers to.
    pub object: Option<LocDesc>,
    /// What writes change.
    pub state: State,
}

/// The mutable part of a context.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    /// Memory bytes given by the context or written, by (address space, address).
    pub memory: Memory,
    /// Entity values by name (with sigil: `%x`, `$r0`, `@g`).
    pub entities: BTreeMap<String, Bits>,
}

/// splitmix64's output function (Steele, Lea, Flood 2014).
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The byte memory holds at `address` of `addrspace` when the context does not
/// say: `h = splitmix64(seed)`, `h = splitmix64(h ^ addrspace)`, then
/// `h = splitmix64(h ^ limb)` for each 64-bit limb of the address from the
/// least significant (one limb for addresses below 2^64), and the byte is the
/// low 8 bits of `h`.
pub fn seeded_byte(seed: u64, addrspace: u32, address: &BigUint) -> u8 {
    let mut h = splitmix64(seed);
    h = splitmix64(h ^ u64::from(addrspace));
    let limbs = address.to_u64_digits();
    if limbs.is_empty() {
        h = splitmix64(h);
    }
    for limb in limbs {
        h = splitmix64(h ^ limb);
    }
    (h & 0xff) as u8
}

impl Context {
    pub fn new(datalayout: DataLayout) -> Context {
        Context {
            datalayout,
            ..Context::default()
        }
    }

    /// The number of bytes of an address space's memory: 2^(pointer bits).
    pub fn memory_bytes(&self, addrspace: u32) -> BigUint {
        BigUint::one() << self.datalayout.pointer_bits(addrspace)
    }

    /// The size in bits of an address space's memory storage.
    pub fn memory_bits(&self, addrspace: u32) -> BigInt {
        BigInt::from(self.memory_bytes(addrspace)) * 8
    }

    /// The byte at `address` (given, written, or seeded). The caller checks the bounds.
    pub fn byte(&self, addrspace: u32, address: &BigUint) -> u8 {
        match self.state.memory.get(addrspace, address) {
            Some(b) => b,
            None => seeded_byte(self.seed, addrspace, address),
        }
    }

    pub fn set_byte(&mut self, addrspace: u32, address: BigUint, value: u8) {
        self.state.memory.insert(addrspace, &address, value);
    }

    /// Sets `bytes` from `address` upwards.
    pub fn set_memory(&mut self, addrspace: u32, address: impl Into<BigUint>, bytes: &[u8]) {
        self.state
            .memory
            .insert_bytes(addrspace, &address.into(), bytes);
    }

    /// An entity's value; `name` includes the sigil (`%x`).
    pub fn entity(&self, name: &str) -> Option<&Bits> {
        self.state.entities.get(name)
    }

    pub fn set_entity(&mut self, name: &str, value: Bits) {
        self.state.entities.insert(name.to_string(), value);
    }

    /// Whether the mutable state of the two contexts is the same: every memory
    /// byte and every entity reads the same. Bytes neither context lists are
    /// the seed's in both, so the seeds must agree too.
    pub fn same_state(&self, other: &Context) -> bool {
        self.state_diff(other).is_empty()
    }

    /// The differences between the two contexts' states, one line each.
    pub fn state_diff(&self, other: &Context) -> Vec<String> {
        self.state_diff_first(other, usize::MAX).0
    }

    /// The first `limit` lines of [`Self::state_diff`] and how many there
    /// are in all: a write of a wide value changes up to a million bytes,
    /// which are counted, not all printed (each line names its address).
    pub fn state_diff_first(&self, other: &Context, limit: usize) -> (Vec<String>, usize) {
        let mut out = Vec::new();
        let mut total = 0usize;
        let mut push = |line: &dyn Fn() -> String| {
            if out.len() < limit {
                out.push(line());
            }
            total += 1;
        };
        if self.seed != other.seed {
            push(&|| format!("seed {} -> {}", self.seed, other.seed));
        }
        let addresses: BTreeSet<(u32, BigUint)> = self
            .state
            .memory
            .iter()
            .chain(other.state.memory.iter())
            .map(|(a, addr, _)| (a, addr))
            .collect();
        for (a, addr) in &addresses {
            let (x, y) = (self.byte(*a, addr), other.byte(*a, addr));
            if x != y {
                push(&|| format!("mem {a} 0x{addr:x}: {x:02x} -> {y:02x}"));
            }
        }
        let names: BTreeSet<&String> = self
            .state
            .entities
            .keys()
            .chain(other.state.entities.keys())
            .collect();
        for n in names {
            let (x, y) = (self.entity(n), other.entity(n));
            if x != y {
                let show = |v: Option<&Bits>| {
                    v.map_or("absent".to_string(), location::print_implicit_value)
                };
                push(&|| {
                    format!(
                        "{}: {} -> {}",
                        location::print_entity_name(n),
                        show(x),
                        show(y)
                    )
                });
            }
        }
        (out, total)
    }

    /// Parses the context format. All diagnostics of the text are returned,
    /// with spans into `text`.
    pub fn parse(text: &str) -> Result<Context, Vec<Diagnostic>> {
        ContextParser::new(text).run()
    }
}

// -------------------------------------------------------------------- parser

/// One non-blank line: the byte range of its content (comment removed).
struct Line {
    start: usize,
    end: usize,
}

/// Splits `text` into lines without their `#` comments; `#` inside a quoted
/// string or name does not start a comment.
fn content_lines(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut offset = 0;
    for raw in text.split('\n') {
        let line_start = offset;
        offset += raw.len() + 1;
        let mut in_quote = false;
        let mut end = raw.len();
        for (i, c) in raw.char_indices() {
            match c {
                '"' => in_quote = !in_quote,
                '#' if !in_quote => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let content = &raw[..end];
        let lead = content.len() - content.trim_start().len();
        let trimmed = content.trim();
        if !trimmed.is_empty() {
            let start = line_start + lead;
            out.push(Line {
                start,
                end: start + trimmed.len(),
            });
        }
    }
    out
}

/// An integer written as a decimal (`Int`) or `0x` hex (lexed as `Float`) token.
fn int_of_token(t: &Tok) -> Option<BigInt> {
    match t {
        Tok::Int(s) => s.parse().ok(),
        Tok::Float(s) => {
            let (neg, rest) = match s.strip_prefix('-') {
                Some(r) => (true, r),
                None => (false, s.as_str()),
            };
            let hex = rest.strip_prefix("0x")?;
            if hex.is_empty() || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            let v = BigInt::parse_bytes(hex.as_bytes(), 16)?;
            Some(if neg { -v } else { v })
        }
        _ => None,
    }
}

fn entity_name(t: &Tok) -> Option<String> {
    match t {
        Tok::Local(n) => Some(format!("%{n}")),
        Tok::Dollar(n) => Some(format!("${n}")),
        Tok::Global(n) => Some(format!("@{n}")),
        _ => None,
    }
}

struct ContextParser<'t> {
    text: &'t str,
    ctx: Context,
    types: TypeTable,
    diags: Vec<Diagnostic>,
    /// Entities named in locations, checked against the definitions at the end.
    refs: Vec<(String, Span)>,
    /// Where each entity, argument, byte and singleton line was defined.
    entity_spans: BTreeMap<String, Span>,
    seen: BTreeMap<String, Span>,
    /// `mem` lines, checked against the address space's size at the end.
    mem_lines: Vec<(u32, BigUint, usize, Span)>,
}

type PResult<T> = Result<T, Diagnostic>;

impl<'t> ContextParser<'t> {
    fn new(text: &'t str) -> Self {
        ContextParser {
            text,
            ctx: Context::default(),
            types: TypeTable::default(),
            diags: Vec::new(),
            refs: Vec::new(),
            entity_spans: BTreeMap::new(),
            seen: BTreeMap::new(),
            mem_lines: Vec::new(),
        }
    }

    fn run(mut self) -> Result<Context, Vec<Diagnostic>> {
        let lines = content_lines(self.text);
        // The data layout decides sizes everywhere, whichever line gives it.
        for l in &lines {
            if self.text[l.start..l.end].split_whitespace().next() == Some("datalayout") {
                if let Err(d) = self.datalayout_line(l) {
                    self.diags.push(d);
                }
            }
        }
        for l in &lines {
            if self.text[l.start..l.end].split_whitespace().next() == Some("datalayout") {
                continue;
            }
            if let Err(d) = self.line(l) {
                self.diags.push(d);
            }
        }
        self.finish();
        if self.diags.is_empty() {
            Ok(self.ctx)
        } else {
            Err(self.diags)
        }
    }

    /// Checks what needs the whole file: entity references, memory bounds.
    fn finish(&mut self) {
        for (name, span) in &self.refs {
            if !self.ctx.state.entities.contains_key(name) {
                self.diags.push(
                    Diagnostic::error(
                        *span,
                        format!(
                            "entity `{}` is not defined",
                            location::print_entity_name(name)
                        ),
                    )
                    .note(format!(
                        "give it a value: `{} = i32 0`",
                        location::print_entity_name(name)
                    )),
                );
            }
        }
        for (a, addr, len, span) in &self.mem_lines {
            let size = self.ctx.memory_bytes(*a);
            if addr + BigUint::from(*len) > size {
                self.diags.push(Diagnostic::error(
                    *span,
                    format!(
                        "bytes 0x{addr:x}..0x{:x} are outside address space {a}, which has 0x{size:x} bytes ({}-bit pointers)",
                        addr + BigUint::from(*len),
                        self.ctx.datalayout.pointer_bits(*a)
                    ),
                ));
            }
        }
    }

    fn once(&mut self, key: &str, span: Span) -> PResult<()> {
        if let Some(prev) = self.seen.get(key) {
            let (line, _) = line_col(self.text, prev.start);
            return Err(Diagnostic::error(
                span,
                format!("{key} is given twice (first on line {line})"),
            ));
        }
        self.seen.insert(key.to_string(), span);
        Ok(())
    }

    fn datalayout_line(&mut self, l: &Line) -> PResult<()> {
        let toks = lex(self.text, l.start, l.end);
        let mut p = Parser::new(&toks, l.end);
        let first = p.span();
        p.bump();
        self.once("datalayout", first)?;
        let span = p.span();
        let dl = match p.bump().map(|t| &t.tok) {
            Some(Tok::Ident(w)) if w == "default" => DataLayout::default(),
            Some(Tok::Ident(w)) if w == "amdgpu" => DataLayout::amdgpu(),
            Some(Tok::Str(s)) => DataLayout::parse(s).map_err(|e| Diagnostic::error(span, e.0))?,
            _ => {
                return Err(Diagnostic::error(
                    span,
                    "expected `default`, `amdgpu` or a datalayout string",
                ))
            }
        };
        end_of_line(&mut p)?;
        self.ctx.datalayout = dl;
        Ok(())
    }

    fn line(&mut self, l: &Line) -> PResult<()> {
        let toks = lex(self.text, l.start, l.end);
        let mut p = Parser::new(&toks, l.end);
        let first = p.span();
        let head = p.peek().cloned();
        match head {
            Some(Tok::Ident(w)) if w == "seed" => {
                p.bump();
                self.once("seed", first)?;
                let v = uint(&mut p, "the seed")?;
                self.ctx.seed = v.to_u64().ok_or_else(|| Diagnostic::error(p.prev_span(), "the seed must fit in 64 bits"))?;
                end_of_line(&mut p)
            }
            Some(Tok::Ident(w)) if w == "lane" => {
                p.bump();
                self.once("lane", first)?;
                let v = uint(&mut p, "the lane")?;
                self.ctx.lane = Some(v.to_u64().ok_or_else(|| Diagnostic::error(p.prev_span(), "the lane must fit in 64 bits"))?);
                end_of_line(&mut p)
            }
            Some(Tok::Ident(w)) if w == "mem" => self.mem_line(&mut p, l),
            Some(Tok::Ident(w)) if w == "arg" => {
                p.bump();
                let n = uint(&mut p, "the argument number")?;
                let n = n.to_u64().ok_or_else(|| Diagnostic::error(p.prev_span(), "argument number too large"))?;
                self.once(&format!("arg {n}"), first.to(p.prev_span()))?;
                p.expect(&Tok::Eq, "`=` after `arg N`")?;
                let loc = self.locs(&mut p)?;
                end_of_line(&mut p)?;
                self.ctx.args.insert(n, loc);
                Ok(())
            }
            Some(Tok::Ident(w)) if w == "referrer" || w == "object" => {
                p.bump();
                self.once(&w, first)?;
                p.expect(&Tok::Eq, &format!("`=` after `{w}`"))?;
                let loc = self.locs(&mut p)?;
                end_of_line(&mut p)?;
                if w == "referrer" {
                    self.ctx.referrer = Some(loc);
                } else {
                    self.ctx.object = Some(loc);
                }
                Ok(())
            }
            Some(t) if entity_name(&t).is_some() => {
                let name = entity_name(&t).expect("checked");
                p.bump();
                if let Some(prev) = self.entity_spans.get(&name) {
                    let (line, _) = line_col(self.text, prev.start);
                    return Err(Diagnostic::error(
                        first,
                        format!("entity `{}` is defined twice (first on line {line})", location::print_entity_name(&name)),
                    ));
                }
                p.expect(&Tok::Eq, "`=` after the entity's name")?;
                let ty = p.parse_type()?;
                let vspan = p.span();
                let value = match self.value(&mut p, &ty)? {
                    Value::Bits(b) => b,
                    Value::Literal(lit) => location::literal_bits(&ty, &lit, &self.ctx.datalayout, &self.types)
                        .map_err(|e| Diagnostic::error(vspan.to(p.prev_span()), e.to_string()))?,
                };
                end_of_line(&mut p)?;
                self.entity_spans.insert(name.clone(), first);
                self.ctx.set_entity(&name, value);
                Ok(())
            }
            _ => Err(Diagnostic::error(
                first,
                "expected `datalayout`, `seed`, `lane`, `mem`, `arg N =`, `referrer =`, `object =` or an entity (`%x = i32 0`)",
            )),
        }
    }

    /// `mem AS ADDR = HEXBYTES`; the bytes are read from the raw text.
    fn mem_line(&mut self, p: &mut Parser, l: &Line) -> PResult<()> {
        let first = p.span();
        p.bump();
        let a = uint(p, "the address space")?;
        let a = a
            .to_u32()
            .filter(|a| *a < 1 << 24)
            .ok_or_else(|| Diagnostic::error(p.prev_span(), "address space must be below 2^24"))?;
        let addr = uint(p, "the address")?;
        let eq = p.expect(&Tok::Eq, "`=` before the bytes")?;
        let bytes_start = eq.end;
        let mut bytes = Vec::new();
        let raw = &self.text[bytes_start..l.end];
        let mut pos = bytes_start;
        for group in raw.split(|c: char| c.is_ascii_whitespace()) {
            let gstart = self.text[pos..].find(group).map_or(pos, |i| pos + i);
            pos = gstart + group.len();
            if group.is_empty() {
                continue;
            }
            let gspan = Span::new(gstart, gstart + group.len());
            if group.len() % 2 != 0 || !group.bytes().all(|c| c.is_ascii_hexdigit()) {
                return Err(Diagnostic::error(
                    gspan,
                    format!("`{group}` is not a whole number of hex bytes (write pairs of hex digits: `de ad` or `dead`)"),
                ));
            }
            for i in (0..group.len()).step_by(2) {
                bytes.push(u8::from_str_radix(&group[i..i + 2], 16).expect("two hex digits"));
            }
        }
        if bytes.is_empty() {
            return Err(Diagnostic::error(
                Span::new(bytes_start, l.end.max(bytes_start)),
                "expected hex bytes after `=`",
            ));
        }
        let span = first.to(Span::new(l.end, l.end));
        for (i, b) in bytes.iter().enumerate() {
            let key = (a, &addr + BigUint::from(i));
            if self.ctx.state.memory.contains(key.0, &key.1) {
                return Err(Diagnostic::error(
                    span,
                    format!(
                        "the byte at 0x{:x} of address space {a} is given twice",
                        key.1
                    ),
                ));
            }
            self.ctx.state.memory.insert(key.0, &key.1, *b);
        }
        self.mem_lines.push((a, addr, bytes.len(), span));
        Ok(())
    }

    /// A value of type `ty`: an integer (decimal or hex) for integer and
    /// pointer types, else an LLVM literal.
    fn value(&mut self, p: &mut Parser, ty: &Type) -> PResult<Value> {
        let span = p.span();
        if let Some(v) = p.peek().and_then(int_of_token) {
            let width = match ty {
                Type::Int(w) => Some(*w),
                Type::Ptr { .. } => Some(
                    self.ctx
                        .datalayout
                        .pointer_bits(ty.addrspace().unwrap_or(0)),
                ),
                _ => None,
            };
            if let Some(w) = width {
                p.bump();
                check_int_fits(&v, w).map_err(|e| Diagnostic::error(span, e.to_string()))?;
                return Ok(Value::Bits(location::list_to_bits(
                    &location::twos_complement(&v, w),
                )));
            }
        }
        Ok(Value::Literal(p.parse_literal(ty)?))
    }

    /// `LOCS := SINGLE ('|' SINGLE)*`
    fn locs(&mut self, p: &mut Parser) -> PResult<LocDesc> {
        let mut singles = self.single(p)?.singles;
        while p.eat(&Tok::Pipe) {
            singles.extend(self.single(p)?.singles);
        }
        Ok(LocDesc { singles })
    }

    /// `SINGLE := BASE (('+' | '-') INT)?`; a base may stand for several
    /// single locations (an `implicit` of a partly undefined literal), the bit
    /// offset applies to all of them.
    fn single(&mut self, p: &mut Parser) -> PResult<LocDesc> {
        let base = self.base(p)?;
        let delta = match p.peek() {
            Some(Tok::Plus) => {
                p.bump();
                int(p, "a bit offset after `+`")?
            }
            Some(Tok::Minus) => {
                p.bump();
                -int(p, "a bit offset after `-`")?
            }
            // `%x -8` lexes the offset as one negative integer.
            Some(Tok::Int(s)) if s.starts_with('-') => int(p, "a bit offset")?,
            _ => return Ok(base),
        };
        Ok(base.with_bit_offset(&delta))
    }

    fn base(&mut self, p: &mut Parser) -> PResult<LocDesc> {
        let start = p.span();
        let head = p.peek().cloned();
        if let Some(name) = head.as_ref().and_then(entity_name) {
            p.bump();
            self.refs.push((name.clone(), start));
            return Ok(LocDesc::entity(&name, 0));
        }
        let word = match head {
            Some(Tok::Ident(w)) => w,
            _ => return Err(p.error_here("a location (`mem(AS, ADDR)`, `%x`, `implicit(T V)`, `undef`, `composite(...)`, `addrof(...)`)")),
        };
        p.bump();
        match word.as_str() {
            "undef" => Ok(LocDesc::undefined()),
            "mem" => {
                p.expect(&Tok::LParen, "`(` after `mem`")?;
                let a = uint(p, "the address space")?;
                let a = a
                    .to_u32()
                    .filter(|a| *a < 1 << 24)
                    .ok_or_else(|| Diagnostic::error(p.prev_span(), "address space must be below 2^24"))?;
                p.expect(&Tok::Comma, "`,` after the address space")?;
                let addr = int(p, "the byte address")?;
                p.expect(&Tok::RParen, "`)` closing `mem(`")?;
                Ok(LocDesc::memory(a, addr))
            }
            "implicit" => {
                p.expect(&Tok::LParen, "`(` after `implicit`")?;
                let ty = p.parse_type()?;
                let vspan = p.span();
                let loc = match self.value(p, &ty)? {
                    Value::Bits(b) => LocDesc::implicit(b),
                    Value::Literal(lit) => location::literal_location(&ty, &lit, &self.ctx.datalayout, &self.types)
                        .map_err(|e| Diagnostic::error(vspan.to(p.prev_span()), e.to_string()))?,
                };
                p.expect(&Tok::RParen, "`)` closing `implicit(`")?;
                Ok(loc)
            }
            "composite" => {
                p.expect(&Tok::LParen, "`(` after `composite`")?;
                let mut parts = Vec::new();
                if !p.eat(&Tok::RParen) {
                    loop {
                        let loc = self.locs(p)?;
                        p.expect(&Tok::Colon, "`:` and the part's size in bits")?;
                        let bits = uint(p, "the part's size in bits")?;
                        let bits = bits
                            .to_u64()
                            .filter(|b| *b <= crate::types::MAX_TYPE_BITS)
                            .ok_or_else(|| Diagnostic::error(p.prev_span(), "part size too large"))?;
                        parts.push(Part { loc, bits });
                        if p.eat(&Tok::RParen) {
                            break;
                        }
                        p.expect(&Tok::Comma, "`,` or `)` after a part")?;
                    }
                }
                Ok(LocDesc::composite(parts))
            }
            "addrof" => {
                p.expect(&Tok::LParen, "`(` after `addrof`")?;
                let pspan = p.span();
                let ptr_ty = p.parse_type()?;
                if !ptr_ty.is_ptr() {
                    return Err(Diagnostic::error(pspan.to(p.prev_span()), format!("`{ptr_ty}` is not a pointer type")));
                }
                let bits = self
                    .ctx
                    .datalayout
                    .bitsizeof(&ptr_ty, &self.types)
                    .map_err(|e| Diagnostic::error(pspan.to(p.prev_span()), e.0))?;
                p.expect(&Tok::Comma, "`,` after the pointer type")?;
                let target_ty = p.parse_type()?;
                p.expect(&Tok::Comma, "`,` after the referenced type")?;
                let target = self.locs(p)?;
                p.expect(&Tok::RParen, "`)` closing `addrof(`")?;
                Ok(LocDesc::implicit_address(target, target_ty, ptr_ty, bits))
            }
            _ => Err(Diagnostic::error(
                start,
                format!("`{word}` is not a location (expected `mem(AS, ADDR)`, `%x`, `implicit(T V)`, `undef`, `composite(...)`, `addrof(...)`)"),
            )),
        }
    }
}

enum Value {
    Bits(Bits),
    Literal(crate::ast::Literal),
}

fn int(p: &mut Parser, what: &str) -> PResult<BigInt> {
    match p.peek().and_then(int_of_token) {
        Some(v) => {
            p.bump();
            Ok(v)
        }
        None => Err(p.error_here(&format!("{what} (decimal or 0x-hex)"))),
    }
}

fn uint(p: &mut Parser, what: &str) -> PResult<BigUint> {
    let span = p.span();
    let v = int(p, what)?;
    v.to_biguint()
        .ok_or_else(|| Diagnostic::error(span, format!("{what} must not be negative")))
}

fn end_of_line(p: &mut Parser) -> PResult<()> {
    if p.at_end() {
        Ok(())
    } else {
        Err(p.error_here("end of line"))
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    crate::diag::Source::new("", text).line_col(offset)
}

// ------------------------------------------------------------------- printer

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.datalayout == DataLayout::default() {
            writeln!(f, "datalayout default")?;
        } else if self.datalayout == DataLayout::amdgpu() {
            writeln!(f, "datalayout amdgpu")?;
        } else {
            writeln!(
                f,
                "datalayout \"{}\"",
                crate::syntax::escape_string(&self.datalayout.text)
            )?;
        }
        writeln!(f, "seed {}", self.seed)?;
        if let Some(l) = self.lane {
            writeln!(f, "lane {l}")?;
        }
        // Runs of consecutive bytes, at most 16 to a line.
        let mut run: Option<(u32, BigUint, Vec<u8>)> = None;
        let flush = |f: &mut fmt::Formatter<'_>,
                     run: &mut Option<(u32, BigUint, Vec<u8>)>|
         -> fmt::Result {
            if let Some((a, start, bytes)) = run.take() {
                let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
                writeln!(f, "mem {a} 0x{start:x} = {}", hex.join(" "))?;
            }
            Ok(())
        };
        for (a, addr, b) in self.state.memory.iter() {
            let extends = matches!(&run, Some((ra, start, bytes))
                if *ra == a && start + BigUint::from(bytes.len()) == addr && bytes.len() < 16);
            if !extends {
                flush(f, &mut run)?;
                run = Some((a, addr, Vec::new()));
            }
            if let Some((_, _, bytes)) = run.as_mut() {
                bytes.push(b);
            }
        }
        flush(f, &mut run)?;
        for (name, v) in &self.state.entities {
            let n = location::print_entity_name(name);
            if v.width() == 0 {
                writeln!(f, "{n} = {{}} zeroinitializer")?;
            } else {
                let mut u = BigUint::zero();
                for i in (0..v.width()).rev() {
                    u <<= 1u8;
                    if v.bit(i) {
                        u += 1u8;
                    }
                }
                writeln!(f, "{n} = i{} 0x{u:x}", v.width())?;
            }
        }
        for (n, l) in &self.args {
            writeln!(f, "arg {n} = {l}")?;
        }
        if let Some(l) = &self.referrer {
            writeln!(f, "referrer = {l}")?;
        }
        if let Some(l) = &self.object {
            writeln!(f, "object = {l}")?;
        }
        Ok(())
    }
}
