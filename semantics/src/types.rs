//! LLVM types and the data layout that gives them sizes.
//!
//! `bitsizeof` in the spec is LLVM's `DataLayout::getTypeSizeInBits`: the size of
//! an integer is its width, a struct's size includes the padding that aligns each
//! field to its ABI alignment and the tail padding, an array is `len` times its
//! element's allocation size. The rules here follow the LLVM Language Reference's
//! "Data Layout" section; a datalayout string overrides the defaults.

use crate::value::FloatKind;
use std::collections::BTreeMap;
use std::fmt;

/// The widest integer LLVM accepts: `iN` needs `1 <= N <= 2^23`.
pub const MAX_INT_WIDTH: u64 = 1 << 23;

/// Resource limit: no type may be larger than this many bits (32 MiB). Values of
/// types this large are materialised by the reference interpreter, so the limit
/// is what keeps `<1000000 x i8388608>` from asking for terabytes.
pub const MAX_TYPE_BITS: u64 = 1 << 28;

/// Resource limit on how deeply types may nest (`<2 x <2 x ...>>`, `i8****...`).
pub const MAX_TYPE_DEPTH: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `iN`.
    Int(u64),
    Float(FloatKindOrd),
    /// `ptr addrspace(N)` when `pointee` is `None`, else the typed pointer `T addrspace(N)*`.
    Ptr {
        addrspace: u32,
        pointee: Option<Box<Type>>,
    },
    /// `<N x T>`.
    Vector {
        len: u64,
        elem: Box<Type>,
    },
    /// `[N x T]`.
    Array {
        len: u64,
        elem: Box<Type>,
    },
    /// `{ T, ... }` or, packed, `<{ T, ... }>`.
    Struct {
        fields: Vec<Type>,
        packed: bool,
    },
    /// `%name`, defined in a [`TypeTable`].
    Named(String),
    /// `target("name", T..., N...)`: a target extension type. Its size and
    /// alignment are those of its layout type ([`Type::target_layout`]) where
    /// LLVM gives it one diopter can represent; otherwise every size question
    /// about it is an error.
    Target {
        name: String,
        types: Vec<Type>,
        ints: Vec<u64>,
    },
}

/// `FloatKind` with a total order so that `Type` can derive `Ord` (types are map keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatKindOrd(pub FloatKind);

impl PartialOrd for FloatKindOrd {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for FloatKindOrd {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.0 as u8).cmp(&(other.0 as u8))
    }
}

impl Type {
    /// The layout type of a target extension type: what LLVM's
    /// `TargetExtType::getLayoutType` gives (`getTargetTypeInfo` in
    /// `llvm/lib/IR/Type.cpp`, AMD's fork included), for the names whose
    /// layout diopter can represent. `None` for any other type, for a name
    /// whose layout is `void` or scalable (unsized), and for a name LLVM does
    /// not know (its layout is `void`).
    pub fn target_layout(&self) -> Option<Type> {
        let Type::Target { name, types, ints } = self else {
            return None;
        };
        let n = name.as_str();
        let ptr0 = Some(Type::opaque_ptr(0));
        match n {
            // AMD's fork: one value per lane of a wavefront,
            // `[WFSize x LaneType]` (the debug type of a whole VGPR).
            "amdgpu.debug.whole.vreg" => match (types.as_slice(), ints.as_slice()) {
                ([lane], [lanes]) => Some(Type::Array {
                    len: *lanes,
                    elem: Box::new(lane.clone()),
                }),
                _ => None,
            },
            "amdgcn.named.barrier" => Some(Type::Vector {
                len: 4,
                elem: Box::new(Type::Int(32)),
            }),
            "spirv.Padding" | "dx.Padding" => ints.first().map(|k| Type::Array {
                len: *k,
                elem: Box::new(Type::Int(8)),
            }),
            "spirv.Type" => match ints.as_slice() {
                [_, size, align] if *size > 0 && *align > 0 => Some(Type::Array {
                    len: size * 8 / align,
                    elem: Box::new(Type::Int(*align)),
                }),
                [_, _, _] => Some(Type::Int(32)),
                _ => None,
            },
            "spirv.IntegralConstant" | "spirv.Literal" => None,
            "wasm.funcref" | "wasm.externref" => ptr0,
            _ if n.starts_with("spirv.") || n.starts_with("dx.") => ptr0,
            _ => None,
        }
    }

    pub fn float(k: FloatKind) -> Type {
        Type::Float(FloatKindOrd(k))
    }
    pub fn opaque_ptr(addrspace: u32) -> Type {
        Type::Ptr {
            addrspace,
            pointee: None,
        }
    }
    pub fn typed_ptr(pointee: Type, addrspace: u32) -> Type {
        Type::Ptr {
            addrspace,
            pointee: Some(Box::new(pointee)),
        }
    }
    pub fn float_kind(&self) -> Option<FloatKind> {
        match self {
            Type::Float(k) => Some(k.0),
            _ => None,
        }
    }
    pub fn int_width(&self) -> Option<u64> {
        match self {
            Type::Int(w) => Some(*w),
            _ => None,
        }
    }
    pub fn is_int(&self) -> bool {
        matches!(self, Type::Int(_))
    }
    pub fn is_float(&self) -> bool {
        matches!(self, Type::Float(_))
    }
    pub fn is_ptr(&self) -> bool {
        matches!(self, Type::Ptr { .. })
    }
    pub fn addrspace(&self) -> Option<u32> {
        match self {
            Type::Ptr { addrspace, .. } => Some(*addrspace),
            _ => None,
        }
    }
    /// The scalar type of a vector, else the type itself.
    pub fn scalar(&self) -> &Type {
        match self {
            Type::Vector { elem, .. } => elem,
            t => t,
        }
    }
    /// Whether the type is what the spec calls "equivalent to a `DIBasicType`":
    /// an integer, a float, or a pointer (pointers are DW_ATE_address base types).
    pub fn is_basic(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Float(_) | Type::Ptr { .. })
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int(w) => write!(f, "i{w}"),
            Type::Float(k) => f.write_str(k.0.name()),
            Type::Ptr {
                addrspace,
                pointee: None,
            } => {
                if *addrspace == 0 {
                    f.write_str("ptr")
                } else {
                    write!(f, "ptr addrspace({addrspace})")
                }
            }
            Type::Ptr {
                addrspace,
                pointee: Some(p),
            } => {
                // `ptr addrspace(N)*` would read back as a pointer to an opaque
                // pointer in address space N; spell the inner one out.
                if **p == Type::opaque_ptr(0) {
                    return if *addrspace == 0 {
                        f.write_str("ptr addrspace(0)*")
                    } else {
                        write!(f, "ptr addrspace(0) addrspace({addrspace})*")
                    };
                }
                if *addrspace == 0 {
                    write!(f, "{p}*")
                } else {
                    write!(f, "{p} addrspace({addrspace})*")
                }
            }
            Type::Vector { len, elem } => write!(f, "<{len} x {elem}>"),
            Type::Array { len, elem } => write!(f, "[{len} x {elem}]"),
            Type::Struct { fields, packed } => {
                if *packed {
                    f.write_str("<")?;
                }
                if fields.is_empty() {
                    f.write_str("{}")?;
                } else {
                    f.write_str("{ ")?;
                    for (i, t) in fields.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{t}")?;
                    }
                    f.write_str(" }")?;
                }
                if *packed {
                    f.write_str(">")?;
                }
                Ok(())
            }
            Type::Named(n) => write!(f, "%{}", crate::syntax::print_local_name(n)),
            Type::Target { name, types, ints } => {
                write!(f, "target(\"{}\"", crate::syntax::escape_string(name))?;
                for t in types {
                    write!(f, ", {t}")?;
                }
                for i in ints {
                    write!(f, ", {i}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Named struct types (`%t = type { i32, ptr }`); `None` is `type opaque`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeTable {
    pub named: BTreeMap<String, Option<Type>>,
}

impl TypeTable {
    pub fn define(&mut self, name: &str, body: Option<Type>) {
        self.named.insert(name.to_string(), body);
    }
}

/// One alignment entry of a datalayout string, in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AlignSpec {
    size: u64,
    abi: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PtrSpec {
    size: u64,
    abi: u64,
}

/// The parts of an LLVM data layout that decide sizes and ABI alignments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataLayout {
    pub text: String,
    big_endian: bool,
    ints: Vec<AlignSpec>,
    floats: Vec<AlignSpec>,
    vectors: Vec<AlignSpec>,
    aggregate_abi: u64,
    pointers: BTreeMap<u32, PtrSpec>,
    /// What `pointers` gives address spaces 0 to 7 (their own entry, else
    /// address space 0's): sizes are asked for per operation, and a map
    /// lookup (two for an address space the layout does not name) cost
    /// more than the rest of sizing a pointer. A function of `pointers`,
    /// so it changes no comparison.
    low_pointers: [PtrSpec; 8],
}

/// Why a type has no size, or a datalayout string is not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutError(pub String);

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LayoutError {}

impl Default for DataLayout {
    fn default() -> Self {
        Self::llvm_default()
    }
}

impl DataLayout {
    /// LLVM's defaults (LangRef, "Data Layout"): every pointer 64 bits, `i64:32:64`
    /// (ABI alignment 32), `f16:16`, `f32:32`, `f64:64`, `f128:128`, `v64:64`, `v128:128`.
    pub fn llvm_default() -> DataLayout {
        let a = |size, abi| AlignSpec { size, abi };
        let mut pointers = BTreeMap::new();
        pointers.insert(0, PtrSpec { size: 64, abi: 64 });
        DataLayout {
            text: String::new(),
            big_endian: false,
            ints: vec![a(1, 8), a(8, 8), a(16, 16), a(32, 32), a(64, 32)],
            floats: vec![a(16, 16), a(32, 32), a(64, 64), a(128, 128)],
            vectors: vec![a(64, 64), a(128, 128)],
            aggregate_abi: 8,
            pointers,
            low_pointers: [PtrSpec { size: 64, abi: 64 }; 8],
        }
    }

    /// The AMDGPU preset: AMD's datalayout for amdgcn, where address spaces 3
    /// (LDS) and 5 (private/scratch) have 32-bit pointers.
    pub fn amdgpu() -> DataLayout {
        Self::parse(AMDGPU_DATALAYOUT).expect("the built-in AMDGPU datalayout parses")
    }

    /// `default`, `amdgpu`, or a datalayout string.
    pub fn from_name_or_string(s: &str) -> Result<DataLayout, LayoutError> {
        match s {
            "" | "default" => Ok(Self::llvm_default()),
            "amdgpu" | "amdgcn" => Ok(Self::amdgpu()),
            _ => Self::parse(s),
        }
    }

    /// Parses an LLVM datalayout string. Components diopter does not need for sizes
    /// (mangling, native widths, stack and program address spaces, …) are accepted
    /// and ignored; malformed ones are errors.
    pub fn parse(s: &str) -> Result<DataLayout, LayoutError> {
        let mut dl = Self::llvm_default();
        dl.text = s.to_string();
        if s.is_empty() {
            return Ok(dl);
        }
        let err = |c: &str, why: &str| LayoutError(format!("datalayout component `{c}`: {why}"));
        for comp in s.split('-') {
            if comp.is_empty() {
                return Err(err(comp, "empty component"));
            }
            // Split after the first character (not byte: the string may hold anything).
            let cut = comp.chars().next().map_or(0, char::len_utf8);
            let (head, rest) = comp.split_at(cut);
            match head {
                "e" if rest.is_empty() => dl.big_endian = false,
                "E" if rest.is_empty() => dl.big_endian = true,
                "p" => {
                    // p[n]:size:abi[:pref[:idx]]
                    let mut parts = rest.split(':');
                    let as_text = parts.next().unwrap_or("");
                    let addrspace: u32 = if as_text.is_empty() {
                        0
                    } else {
                        as_text
                            .parse()
                            .map_err(|_| err(comp, "bad address space"))?
                    };
                    let size = parse_bits(parts.next(), comp)?;
                    let abi = parse_bits(parts.next(), comp)?;
                    for extra in parts {
                        parse_bits(Some(extra), comp)?;
                    }
                    if size == 0 || size > 1024 {
                        return Err(err(comp, "pointer size must be 1 to 1024 bits"));
                    }
                    check_align(abi, comp)?;
                    dl.pointers.insert(addrspace, PtrSpec { size, abi });
                }
                "i" | "f" | "v" => {
                    let mut parts = rest.split(':');
                    let size = parse_bits(parts.next(), comp)?;
                    let abi = parse_bits(parts.next(), comp)?;
                    for extra in parts {
                        parse_bits(Some(extra), comp)?;
                    }
                    check_align(abi, comp)?;
                    let list = match head {
                        "i" => &mut dl.ints,
                        "f" => &mut dl.floats,
                        _ => &mut dl.vectors,
                    };
                    list.retain(|a| a.size != size);
                    list.push(AlignSpec { size, abi });
                    list.sort_by_key(|a| a.size);
                }
                "a" => {
                    let mut parts = rest.trim_start_matches(':').split(':');
                    let abi = parse_bits(parts.next(), comp)?;
                    if abi != 0 {
                        check_align(abi, comp)?;
                    }
                    dl.aggregate_abi = abi.max(8);
                }
                // Stack alignment, program/alloca/global address spaces, mangling,
                // native integer widths, function pointer alignment, non-integral
                // address spaces: irrelevant to sizes. `s` is the deprecated
                // stack-object alignment that LLVM's own parser still reads
                // and ignores (LLVM's tests carry `s0:64:64`).
                "S" | "P" | "A" | "G" | "m" | "n" | "F" | "s" => {}
                _ => return Err(err(comp, "unknown component")),
            }
        }
        for a in 0..dl.low_pointers.len() {
            dl.low_pointers[a] = dl.pointer_spec(a as u32);
        }
        Ok(dl)
    }

    /// Address space `a`'s pointer size and alignment, from the map.
    fn pointer_spec(&self, a: u32) -> PtrSpec {
        self.pointers
            .get(&a)
            .or_else(|| self.pointers.get(&0))
            .copied()
            .unwrap_or(PtrSpec { size: 64, abi: 64 })
    }

    /// [`DataLayout::pointer_spec`], from the table for low address spaces.
    #[inline]
    fn pointer(&self, a: u32) -> PtrSpec {
        match self.low_pointers.get(a as usize) {
            Some(p) => *p,
            None => self.pointer_spec(a),
        }
    }

    pub fn is_big_endian(&self) -> bool {
        self.big_endian
    }

    /// Pointer width in bits for an address space; address spaces the layout does
    /// not name use address space 0's.
    #[inline]
    pub fn pointer_bits(&self, addrspace: u32) -> u64 {
        self.pointer(addrspace).size
    }

    fn pointer_abi(&self, addrspace: u32) -> u64 {
        self.pointer(addrspace).abi
    }

    /// `bitsizeof(T)`.
    pub fn bitsizeof(&self, t: &Type, table: &TypeTable) -> Result<u64, LayoutError> {
        self.size_in_bits(t, table, 0)
    }

    /// ABI alignment in bits.
    pub fn abi_align(&self, t: &Type, table: &TypeTable) -> Result<u64, LayoutError> {
        self.align_bits(t, table, 0)
    }

    /// Bits a value of `t` occupies in memory including tail padding (`getTypeAllocSizeInBits`).
    pub fn alloc_bits(&self, t: &Type, table: &TypeTable) -> Result<u64, LayoutError> {
        self.alloc_size(t, table, 0)
    }

    /// Bit offsets of the fields of a struct type (after resolving names).
    pub fn struct_field_offsets(
        &self,
        t: &Type,
        table: &TypeTable,
    ) -> Result<Vec<u64>, LayoutError> {
        match resolve(t, table, 0)? {
            Type::Struct { fields, packed } => {
                Ok(self.struct_layout(&fields, packed, table, 0, true)?.offsets)
            }
            other => Err(LayoutError(format!("`{other}` is not a struct type"))),
        }
    }

    fn size_in_bits(&self, t: &Type, table: &TypeTable, depth: usize) -> Result<u64, LayoutError> {
        if depth > MAX_TYPE_DEPTH {
            return Err(LayoutError(format!(
                "type nests more than {MAX_TYPE_DEPTH} levels deep (or is recursive)"
            )));
        }
        let bits = match t {
            Type::Int(w) => *w,
            Type::Float(k) => k.0.width(),
            Type::Ptr { addrspace, .. } => self.pointer_bits(*addrspace),
            Type::Vector { len, elem } => {
                let e = self.size_in_bits(elem, table, depth + 1)?;
                checked_mul(*len, e, t)?
            }
            Type::Array { len, elem } => {
                let e = self.alloc_size(elem, table, depth + 1)?;
                checked_mul(*len, e, t)?
            }
            Type::Struct { fields, packed } => {
                self.struct_layout(fields, *packed, table, depth + 1, false)?
                    .size
            }
            Type::Named(_) => {
                let body = resolve_ref(t, table, depth)?;
                self.size_in_bits(body, table, depth + 1)?
            }
            Type::Target { .. } => match t.target_layout() {
                Some(l) => self.size_in_bits(&l, table, depth + 1)?,
                None => {
                    return Err(LayoutError(format!(
                        "target extension type `{t}` has no size diopter knows"
                    )))
                }
            },
        };
        if bits > MAX_TYPE_BITS {
            return Err(LayoutError(format!(
                "type `{t}` is {bits} bits, over diopter's limit of {MAX_TYPE_BITS} bits"
            )));
        }
        Ok(bits)
    }

    fn alloc_size(&self, t: &Type, table: &TypeTable, depth: usize) -> Result<u64, LayoutError> {
        // `store_size` then `align_bits`, in one walk of `t`.
        let (size, align) = self.size_align(t, table, depth);
        let store = size?.div_ceil(8) * 8;
        let align = align?;
        Ok(store.div_ceil(align) * align)
    }

    fn align_bits(&self, t: &Type, table: &TypeTable, depth: usize) -> Result<u64, LayoutError> {
        if depth > MAX_TYPE_DEPTH {
            return Err(LayoutError(format!(
                "type nests more than {MAX_TYPE_DEPTH} levels deep (or is recursive)"
            )));
        }
        Ok(match t {
            Type::Int(w) => {
                // LangRef: no exact entry -> the smallest larger integer entry,
                // else the largest one.
                match self.ints.iter().find(|a| a.size >= *w) {
                    Some(a) => a.abi,
                    None => self.ints.last().map_or(8, |a| a.abi),
                }
            }
            Type::Float(k) => {
                let w = k.0.width();
                match self.floats.iter().find(|a| a.size == w) {
                    Some(a) => a.abi,
                    // LLVM falls back to the store size rounded up to a power of two.
                    None => (w.div_ceil(8)).next_power_of_two() * 8,
                }
            }
            Type::Ptr { addrspace, .. } => self.pointer_abi(*addrspace),
            Type::Vector { .. } => {
                let size = self.size_in_bits(t, table, depth)?;
                match self.vectors.iter().find(|a| a.size == size) {
                    Some(a) => a.abi,
                    None => (size.div_ceil(8)).max(1).next_power_of_two() * 8,
                }
            }
            Type::Array { elem, .. } => self.align_bits(elem, table, depth + 1)?,
            Type::Struct { fields, packed } => {
                self.struct_layout(fields, *packed, table, depth + 1, false)?
                    .align
            }
            Type::Named(_) => {
                let body = resolve_ref(t, table, depth)?;
                self.align_bits(body, table, depth + 1)?
            }
            Type::Target { .. } => match t.target_layout() {
                Some(l) => self.align_bits(&l, table, depth + 1)?,
                None => {
                    return Err(LayoutError(format!(
                        "target extension type `{t}` has no alignment diopter knows"
                    )))
                }
            },
        })
    }

    fn struct_layout(
        &self,
        fields: &[Type],
        packed: bool,
        table: &TypeTable,
        depth: usize,
        want_offsets: bool,
    ) -> Result<StructLayout, LayoutError> {
        let mut offset = 0u64;
        let mut align = if packed { 8 } else { self.aggregate_abi.max(8) };
        // Sizes and alignments are asked for far more often than offsets:
        // only collect them when asked.
        let mut offsets = Vec::with_capacity(if want_offsets { fields.len() } else { 0 });
        for f in fields {
            // A field's size and alignment at once (see `size_align`); the
            // errors come in the order `align_bits` then `alloc_size` (just
            // `alloc_size` when packed) would give them.
            let (size, field_align) = self.size_align(f, table, depth);
            let fa = if packed { 8 } else { field_align.clone()? };
            offset = offset.div_ceil(fa) * fa;
            if want_offsets {
                offsets.push(offset);
            }
            let store = size?.div_ceil(8) * 8;
            let a = field_align?;
            offset = offset
                .checked_add(store.div_ceil(a) * a)
                .filter(|o| *o <= MAX_TYPE_BITS)
                .ok_or_else(|| LayoutError("struct type is too large".into()))?;
            align = align.max(fa);
        }
        let size = offset.div_ceil(align) * align;
        Ok(StructLayout {
            size,
            align,
            offsets,
        })
    }
}

impl DataLayout {
    /// `bitsizeof(t)` for the plain types (integers, floats, pointers,
    /// vectors of those, and arrays, structs and named types of plain
    /// types), without
    /// the error values the full walk carries at every level: `None` when
    /// `t` is anything else or has no size, and then [`DataLayout::bitsizeof`]
    /// says which. A compiler sizing a type per operation (the fast
    /// evaluator) takes this first; a test holds it to `bitsizeof`.
    pub fn bitsizeof_quick(&self, t: &Type, table: &TypeTable) -> Option<u64> {
        self.quick_size_align(t, table, 0).map(|(size, _)| size)
    }

    /// `size_align` for plain types, `None` for the rest and for errors.
    fn quick_size_align(&self, t: &Type, table: &TypeTable, depth: usize) -> Option<(u64, u64)> {
        // Deep nesting is left to the full walk and its depth limit.
        if depth > 16 {
            return None;
        }
        let (size, align) = match t {
            Type::Int(_) | Type::Float(_) | Type::Ptr { .. } => self.quick_scalar(t)?,
            Type::Vector { len, elem } => {
                let (e, _) = self.quick_scalar(elem)?;
                if e > MAX_TYPE_BITS {
                    return None;
                }
                let size = len.checked_mul(e)?;
                let align = match self.vectors.iter().find(|a| a.size == size) {
                    Some(a) => a.abi,
                    None => (size.div_ceil(8)).max(1).next_power_of_two() * 8,
                };
                (size, align)
            }
            Type::Array { len, elem } => {
                let (s, a) = self.quick_size_align(elem, table, depth + 1)?;
                let store = s.div_ceil(8) * 8;
                (len.checked_mul(store.div_ceil(a) * a)?, a)
            }
            Type::Struct { fields, packed } => {
                let mut offset = 0u64;
                let mut align = if *packed {
                    8
                } else {
                    self.aggregate_abi.max(8)
                };
                for f in fields {
                    // Scalar fields (most of them) without a call.
                    let (size, a) = match f {
                        Type::Int(_) | Type::Float(_) | Type::Ptr { .. } => self.quick_scalar(f)?,
                        _ => self.quick_size_align(f, table, depth + 1)?,
                    };
                    let fa = if *packed { 8 } else { a };
                    offset = offset.div_ceil(fa) * fa;
                    let store = size.div_ceil(8) * 8;
                    offset = offset
                        .checked_add(store.div_ceil(a) * a)
                        .filter(|o| *o <= MAX_TYPE_BITS)?;
                    align = align.max(fa);
                }
                (offset.div_ceil(align) * align, align)
            }
            Type::Named(_) => {
                let body = resolve_ref(t, table, depth).ok()?;
                self.quick_size_align(body, table, depth + 1)?
            }
            Type::Target { .. } => return None,
        };
        (size <= MAX_TYPE_BITS).then_some((size, align))
    }

    /// Size and alignment of an integer, float or pointer type.
    #[inline(always)]
    fn quick_scalar(&self, t: &Type) -> Option<(u64, u64)> {
        Some(match t {
            Type::Int(w) => {
                let align = match self.ints.iter().find(|a| a.size >= *w) {
                    Some(a) => a.abi,
                    None => self.ints.last().map_or(8, |a| a.abi),
                };
                (*w, align)
            }
            Type::Float(k) => {
                let w = k.0.width();
                let align = match self.floats.iter().find(|a| a.size == w) {
                    Some(a) => a.abi,
                    None => (w.div_ceil(8)).next_power_of_two() * 8,
                };
                (w, align)
            }
            Type::Ptr { addrspace, .. } => {
                let p = self.pointer(*addrspace);
                (p.size, p.abi)
            }
            _ => return None,
        })
    }

    /// `(size_in_bits(t), align_bits(t))` computed together: a nested
    /// aggregate's layout is worked out once for both, rather than once for
    /// its size and twice more for its alignment at every level of nesting
    /// (which made deeply nested structs cost exponential time). Each result
    /// is exactly what the separate function gives, error included.
    #[allow(clippy::type_complexity)]
    fn size_align(
        &self,
        t: &Type,
        table: &TypeTable,
        depth: usize,
    ) -> (Result<u64, LayoutError>, Result<u64, LayoutError>) {
        if depth > MAX_TYPE_DEPTH {
            return (
                self.size_in_bits(t, table, depth),
                self.align_bits(t, table, depth),
            );
        }
        match t {
            Type::Struct { fields, packed } => {
                match self.struct_layout(fields, *packed, table, depth + 1, false) {
                    Ok(l) => (within_limit(t, l.size), Ok(l.align)),
                    Err(e) => (Err(e.clone()), Err(e)),
                }
            }
            Type::Array { len, elem } => {
                let (es, ea) = self.size_align(elem, table, depth + 1);
                // `alloc_size(elem)`: its store size, then its alignment.
                let size = match (es, &ea) {
                    (Err(e), _) => Err(e),
                    (Ok(_), Err(e)) => Err(e.clone()),
                    (Ok(s), Ok(a)) => {
                        let store = s.div_ceil(8) * 8;
                        checked_mul(*len, store.div_ceil(*a) * a, t)
                            .and_then(|bits| within_limit(t, bits))
                    }
                };
                (size, ea)
            }
            Type::Named(_) => match resolve_ref(t, table, depth) {
                Ok(body) => {
                    let (s, a) = self.size_align(body, table, depth + 1);
                    (s.and_then(|bits| within_limit(t, bits)), a)
                }
                Err(e) => (Err(e.clone()), Err(e)),
            },
            _ => (
                self.size_in_bits(t, table, depth),
                self.align_bits(t, table, depth),
            ),
        }
    }
}

/// `size_in_bits`'s final check.
fn within_limit(t: &Type, bits: u64) -> Result<u64, LayoutError> {
    if bits > MAX_TYPE_BITS {
        return Err(LayoutError(format!(
            "type `{t}` is {bits} bits, over diopter's limit of {MAX_TYPE_BITS} bits"
        )));
    }
    Ok(bits)
}

struct StructLayout {
    size: u64,
    align: u64,
    offsets: Vec<u64>,
}

/// Follows `%name` to its body.
pub fn resolve(t: &Type, table: &TypeTable, depth: usize) -> Result<Type, LayoutError> {
    resolve_ref(t, table, depth).cloned()
}

/// [`resolve`] without copying the body out of the table.
fn resolve_ref<'t>(
    t: &'t Type,
    table: &'t TypeTable,
    depth: usize,
) -> Result<&'t Type, LayoutError> {
    let mut cur = t;
    let mut steps = depth;
    while let Type::Named(n) = cur {
        steps += 1;
        if steps > MAX_TYPE_DEPTH {
            return Err(LayoutError(format!(
                "named type `%{n}` is defined in a cycle"
            )));
        }
        cur = match table.named.get(n) {
            Some(Some(body)) => body,
            Some(None) => {
                return Err(LayoutError(format!(
                    "named type `%{n}` is opaque and has no size"
                )))
            }
            None => return Err(LayoutError(format!("named type `%{n}` is not defined"))),
        };
    }
    Ok(cur)
}

fn checked_mul(len: u64, e: u64, t: &Type) -> Result<u64, LayoutError> {
    len.checked_mul(e)
        .filter(|b| *b <= MAX_TYPE_BITS)
        .ok_or_else(|| {
            LayoutError(format!(
                "type `{t}` is over diopter's limit of {MAX_TYPE_BITS} bits"
            ))
        })
}

fn parse_bits(s: Option<&str>, comp: &str) -> Result<u64, LayoutError> {
    let s = s.ok_or_else(|| LayoutError(format!("datalayout component `{comp}`: missing size")))?;
    s.parse::<u64>()
        .ok()
        .filter(|v| *v <= 1 << 24)
        .ok_or_else(|| {
            LayoutError(format!(
                "datalayout component `{comp}`: `{s}` is not a size"
            ))
        })
}

fn check_align(abi: u64, comp: &str) -> Result<(), LayoutError> {
    if abi == 0 || !abi.is_multiple_of(8) || !(abi / 8).is_power_of_two() {
        return Err(LayoutError(format!(
            "datalayout component `{comp}`: alignment {abi} is not a power-of-two number of bytes"
        )));
    }
    Ok(())
}

/// The datalayout of AMD's amdgcn target (LLVM 17+ spelling).
pub const AMDGPU_DATALAYOUT: &str = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9";

#[cfg(test)]
mod tests {
    use super::*;

    fn t() -> TypeTable {
        TypeTable::default()
    }

    #[test]
    fn scalar_sizes() {
        let dl = DataLayout::default();
        assert_eq!(dl.bitsizeof(&Type::Int(1), &t()).unwrap(), 1);
        assert_eq!(dl.bitsizeof(&Type::Int(33), &t()).unwrap(), 33);
        assert_eq!(
            dl.bitsizeof(&Type::float(FloatKind::X86Fp80), &t())
                .unwrap(),
            80
        );
        assert_eq!(dl.bitsizeof(&Type::opaque_ptr(5), &t()).unwrap(), 64);
        let amd = DataLayout::amdgpu();
        assert_eq!(amd.bitsizeof(&Type::opaque_ptr(5), &t()).unwrap(), 32);
        assert_eq!(amd.bitsizeof(&Type::opaque_ptr(3), &t()).unwrap(), 32);
        assert_eq!(amd.bitsizeof(&Type::opaque_ptr(1), &t()).unwrap(), 64);
        // An address space the layout does not name takes address space 0's size.
        assert_eq!(amd.bitsizeof(&Type::opaque_ptr(42), &t()).unwrap(), 64);
    }

    #[test]
    fn struct_padding_follows_abi_alignment() {
        let dl = DataLayout::default();
        // { i8, i32 }: i32 aligned to 32 bits -> offsets 0, 32; size 64.
        let s = Type::Struct {
            fields: vec![Type::Int(8), Type::Int(32)],
            packed: false,
        };
        assert_eq!(dl.bitsizeof(&s, &t()).unwrap(), 64);
        assert_eq!(dl.struct_field_offsets(&s, &t()).unwrap(), vec![0, 32]);
        // Packed: no padding.
        let p = Type::Struct {
            fields: vec![Type::Int(8), Type::Int(32)],
            packed: true,
        };
        assert_eq!(dl.bitsizeof(&p, &t()).unwrap(), 40);
        // { i16, float }: 16 + pad 16 + 32 = 64.
        let s2 = Type::Struct {
            fields: vec![Type::Int(16), Type::float(FloatKind::Float)],
            packed: false,
        };
        assert_eq!(dl.bitsizeof(&s2, &t()).unwrap(), 64);
        // { i32, i64 } with the default i64:32 ABI alignment: 96 bits; with
        // AMDGPU's i64:64, 128 bits.
        let s3 = Type::Struct {
            fields: vec![Type::Int(32), Type::Int(64)],
            packed: false,
        };
        assert_eq!(dl.bitsizeof(&s3, &t()).unwrap(), 96);
        assert_eq!(DataLayout::amdgpu().bitsizeof(&s3, &t()).unwrap(), 128);
        // { i8 } tail: size 8.  { i32, i8 }: tail padded to 64.
        let s4 = Type::Struct {
            fields: vec![Type::Int(32), Type::Int(8)],
            packed: false,
        };
        assert_eq!(dl.bitsizeof(&s4, &t()).unwrap(), 64);
    }

    #[test]
    fn arrays_use_alloc_size_vectors_do_not() {
        let dl = DataLayout::default();
        let a = Type::Array {
            len: 3,
            elem: Box::new(Type::Int(1)),
        };
        assert_eq!(dl.bitsizeof(&a, &t()).unwrap(), 24);
        let v = Type::Vector {
            len: 3,
            elem: Box::new(Type::Int(1)),
        };
        assert_eq!(dl.bitsizeof(&v, &t()).unwrap(), 3);
        let v2 = Type::Vector {
            len: 2,
            elem: Box::new(Type::Int(32)),
        };
        assert_eq!(dl.bitsizeof(&v2, &t()).unwrap(), 64);
    }

    #[test]
    fn named_types_resolve_and_cycles_are_errors() {
        let dl = DataLayout::default();
        let mut tt = TypeTable::default();
        tt.define(
            "t",
            Some(Type::Struct {
                fields: vec![Type::Int(32), Type::Int(32)],
                packed: false,
            }),
        );
        tt.define(
            "u",
            Some(Type::Struct {
                fields: vec![Type::Named("t".into()), Type::Int(32)],
                packed: false,
            }),
        );
        assert_eq!(dl.bitsizeof(&Type::Named("u".into()), &tt).unwrap(), 96);
        tt.define(
            "loop",
            Some(Type::Struct {
                fields: vec![Type::Named("loop".into())],
                packed: false,
            }),
        );
        assert!(dl.bitsizeof(&Type::Named("loop".into()), &tt).is_err());
        tt.define("opq", None);
        assert!(dl.bitsizeof(&Type::Named("opq".into()), &tt).is_err());
        assert!(dl.bitsizeof(&Type::Named("nope".into()), &tt).is_err());
    }

    #[test]
    fn huge_types_are_refused_not_allocated() {
        let dl = DataLayout::default();
        let v = Type::Vector {
            len: 1_000_000_000,
            elem: Box::new(Type::Int(MAX_INT_WIDTH)),
        };
        let e = dl.bitsizeof(&v, &t()).unwrap_err();
        assert!(e.0.contains("limit"), "{e}");
    }

    #[test]
    fn typed_pointers_to_opaque_pointers_print_unambiguously() {
        let t = Type::typed_ptr(Type::opaque_ptr(0), 5);
        assert_eq!(t.to_string(), "ptr addrspace(0) addrspace(5)*");
        let b = crate::syntax::parse_bare(&format!("[{t}] DIOpArg(0, {t})")).unwrap();
        assert_eq!(b.args.unwrap()[0].ty, t);
        assert_eq!(
            Type::typed_ptr(Type::opaque_ptr(3), 0).to_string(),
            "ptr addrspace(3)*"
        );
    }

    #[test]
    fn datalayout_strings() {
        let dl = DataLayout::parse("e-p:32:32-p5:16:16-i64:64").unwrap();
        assert_eq!(dl.pointer_bits(0), 32);
        assert_eq!(dl.pointer_bits(5), 16);
        assert_eq!(dl.pointer_bits(7), 32);
        assert!(DataLayout::parse("e-q:1").is_err());
        assert!(DataLayout::parse("p:64:3").is_err());
        assert!(DataLayout::parse("e--").is_err());
        assert!(DataLayout::parse("é-p:32:32").is_err());
        assert!(DataLayout::parse("e-pé:32").is_err());
        assert!(DataLayout::parse(AMDGPU_DATALAYOUT).is_ok());
        // The x86-64 layout LLVM's tests use.
        assert!(DataLayout::parse(
            "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
        )
        .is_ok());
        // The deprecated stack-object component older LLVM tests carry
        // (LLVM ignores it): sizes as without it.
        let old = DataLayout::parse("e-p:64:64:64-i64:64:64-s0:64:64-n8:16:32:64-S128").unwrap();
        assert_eq!(old.pointer_bits(0), 64);
    }
}

/// The layout functions as they were before `size_align` (which works out a
/// nested aggregate's layout once per question), kept to check that the
/// faster ones give the same sizes, alignments and errors.
#[cfg(test)]
mod layout_equivalence {
    use super::*;
    use crate::value::FloatKind;

    impl DataLayout {
        fn old_size_in_bits(
            &self,
            t: &Type,
            table: &TypeTable,
            depth: usize,
        ) -> Result<u64, LayoutError> {
            if depth > MAX_TYPE_DEPTH {
                return Err(LayoutError(format!(
                    "type nests more than {MAX_TYPE_DEPTH} levels deep (or is recursive)"
                )));
            }
            let bits = match t {
                Type::Int(w) => *w,
                Type::Float(k) => k.0.width(),
                Type::Ptr { addrspace, .. } => self.pointer_bits(*addrspace),
                Type::Vector { len, elem } => {
                    let e = self.old_size_in_bits(elem, table, depth + 1)?;
                    checked_mul(*len, e, t)?
                }
                Type::Array { len, elem } => {
                    let e = self.old_alloc_size(elem, table, depth + 1)?;
                    checked_mul(*len, e, t)?
                }
                Type::Struct { fields, packed } => {
                    self.old_struct_layout(fields, *packed, table, depth + 1)?
                        .size
                }
                Type::Named(_) => {
                    let body = resolve(t, table, depth)?;
                    self.old_size_in_bits(&body, table, depth + 1)?
                }
                Type::Target { .. } => match t.target_layout() {
                    Some(l) => self.old_size_in_bits(&l, table, depth + 1)?,
                    None => {
                        return Err(LayoutError(format!(
                            "target extension type `{t}` has no size diopter knows"
                        )))
                    }
                },
            };
            if bits > MAX_TYPE_BITS {
                return Err(LayoutError(format!(
                    "type `{t}` is {bits} bits, over diopter's limit of {MAX_TYPE_BITS} bits"
                )));
            }
            Ok(bits)
        }

        fn old_store_size(
            &self,
            t: &Type,
            table: &TypeTable,
            depth: usize,
        ) -> Result<u64, LayoutError> {
            Ok(self.old_size_in_bits(t, table, depth)?.div_ceil(8) * 8)
        }

        fn old_alloc_size(
            &self,
            t: &Type,
            table: &TypeTable,
            depth: usize,
        ) -> Result<u64, LayoutError> {
            let store = self.old_store_size(t, table, depth)?;
            let align = self.old_align_bits(t, table, depth)?;
            Ok(store.div_ceil(align) * align)
        }

        fn old_align_bits(
            &self,
            t: &Type,
            table: &TypeTable,
            depth: usize,
        ) -> Result<u64, LayoutError> {
            if depth > MAX_TYPE_DEPTH {
                return Err(LayoutError(format!(
                    "type nests more than {MAX_TYPE_DEPTH} levels deep (or is recursive)"
                )));
            }
            Ok(match t {
                Type::Int(w) => {
                    // LangRef: no exact entry -> the smallest larger integer entry,
                    // else the largest one.
                    match self.ints.iter().find(|a| a.size >= *w) {
                        Some(a) => a.abi,
                        None => self.ints.last().map_or(8, |a| a.abi),
                    }
                }
                Type::Float(k) => {
                    let w = k.0.width();
                    match self.floats.iter().find(|a| a.size == w) {
                        Some(a) => a.abi,
                        // LLVM falls back to the store size rounded up to a power of two.
                        None => (w.div_ceil(8)).next_power_of_two() * 8,
                    }
                }
                Type::Ptr { addrspace, .. } => self.pointer_abi(*addrspace),
                Type::Vector { .. } => {
                    let size = self.old_size_in_bits(t, table, depth)?;
                    match self.vectors.iter().find(|a| a.size == size) {
                        Some(a) => a.abi,
                        None => (size.div_ceil(8)).max(1).next_power_of_two() * 8,
                    }
                }
                Type::Array { elem, .. } => self.old_align_bits(elem, table, depth + 1)?,
                Type::Struct { fields, packed } => {
                    self.old_struct_layout(fields, *packed, table, depth + 1)?
                        .align
                }
                Type::Named(_) => {
                    let body = resolve(t, table, depth)?;
                    self.old_align_bits(&body, table, depth + 1)?
                }
                Type::Target { .. } => match t.target_layout() {
                    Some(l) => self.old_align_bits(&l, table, depth + 1)?,
                    None => {
                        return Err(LayoutError(format!(
                            "target extension type `{t}` has no alignment diopter knows"
                        )))
                    }
                },
            })
        }

        fn old_struct_layout(
            &self,
            fields: &[Type],
            packed: bool,
            table: &TypeTable,
            depth: usize,
        ) -> Result<StructLayout, LayoutError> {
            let mut offset = 0u64;
            let mut align = if packed { 8 } else { self.aggregate_abi.max(8) };
            let mut offsets = Vec::with_capacity(fields.len());
            for f in fields {
                let fa = if packed {
                    8
                } else {
                    self.old_align_bits(f, table, depth)?
                };
                offset = offset.div_ceil(fa) * fa;
                offsets.push(offset);
                offset = offset
                    .checked_add(self.old_alloc_size(f, table, depth)?)
                    .filter(|o| *o <= MAX_TYPE_BITS)
                    .ok_or_else(|| LayoutError("struct type is too large".into()))?;
                align = align.max(fa);
            }
            let size = offset.div_ceil(align) * align;
            Ok(StructLayout {
                size,
                align,
                offsets,
            })
        }
    }

    /// A small deterministic generator of types, named types included
    /// (opaque, undefined, cyclic), with target types, huge arrays, packed
    /// structs and deep nesting now and then.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            crate::context::splitmix64(self.0) % n.max(1)
        }
    }

    fn ty(r: &mut Rng, depth: usize) -> Type {
        let leaf = depth > 6 || r.below(3) == 0;
        match if leaf { r.below(5) } else { 5 + r.below(5) } {
            0 => Type::Int([1, 7, 8, 16, 32, 33, 64, 128, 1 << 29][r.below(9) as usize]),
            1 => Type::float(
                [
                    FloatKind::Half,
                    FloatKind::Float,
                    FloatKind::Double,
                    FloatKind::X86Fp80,
                    FloatKind::Fp128,
                ][r.below(5) as usize],
            ),
            2 => Type::opaque_ptr([0, 1, 3, 5, 7][r.below(5) as usize]),
            3 => Type::Named(format!("n{}", r.below(6))),
            4 if r.below(8) == 0 => Type::Target {
                name: "t".into(),
                types: vec![],
                ints: vec![],
            },
            4 => Type::Int(24),
            5 => Type::Vector {
                len: [1, 2, 3, 4, 1 << 26][r.below(5) as usize],
                elem: Box::new(ty(r, 99)),
            },
            6 | 7 => Type::Array {
                len: [0, 1, 3, 5, 1 << 26][r.below(5) as usize],
                elem: Box::new(ty(r, depth + 1)),
            },
            _ => Type::Struct {
                fields: (0..r.below(5)).map(|_| ty(r, depth + 1)).collect(),
                packed: r.below(4) == 0,
            },
        }
    }

    fn table(r: &mut Rng) -> TypeTable {
        let mut t = TypeTable::default();
        for i in 0..5 {
            match r.below(6) {
                0 => {}
                1 => t.define(&format!("n{i}"), None),
                // Cycles now and then: a name for another name.
                2 => t.define(
                    &format!("n{i}"),
                    Some(Type::Named(format!("n{}", r.below(6)))),
                ),
                _ => {
                    let body = ty(r, 3);
                    t.define(&format!("n{i}"), Some(body));
                }
            }
        }
        t
    }

    /// Structs and arrays nested `n` deep.
    fn deep(n: usize) -> Type {
        let mut t = Type::Int(8);
        for i in 0..n {
            t = if i % 2 == 0 {
                Type::Struct {
                    fields: vec![Type::Int(1), t],
                    packed: false,
                }
            } else {
                Type::Array {
                    len: 2,
                    elem: Box::new(t),
                }
            };
        }
        t
    }

    #[test]
    fn size_align_agrees_with_the_separate_walks() {
        let layouts: Vec<DataLayout> = [
            "default",
            "amdgpu",
            "e-p:32:32-p5:16:16-i64:64",
            "e-p1:64:64-p3:32:32-p5:32:32-i128:128-f80:128-v32:32",
            "e-a:64",
        ]
        .iter()
        .map(|s| DataLayout::from_name_or_string(s).expect("parses"))
        .collect();
        let mut r = Rng(7);
        for i in 0..2_000 {
            let tab = table(&mut r);
            // (The old walks take exponential time in the nesting depth.)
            let t = if i % 250 == 0 {
                deep(4 + (i / 250) % 6)
            } else {
                ty(&mut r, 0)
            };
            for dl in &layouts {
                assert_eq!(
                    dl.bitsizeof(&t, &tab),
                    dl.old_size_in_bits(&t, &tab, 0),
                    "size of {t}"
                );
                assert_eq!(
                    dl.abi_align(&t, &tab),
                    dl.old_align_bits(&t, &tab, 0),
                    "align of {t}"
                );
                if let Some(bits) = dl.bitsizeof_quick(&t, &tab) {
                    assert_eq!(dl.bitsizeof(&t, &tab), Ok(bits), "quick size of {t}");
                }
                assert_eq!(
                    dl.alloc_bits(&t, &tab),
                    dl.old_alloc_size(&t, &tab, 0),
                    "alloc size of {t}"
                );
                if let Type::Struct { fields, packed } = &t {
                    assert_eq!(
                        dl.struct_layout(fields, *packed, &tab, 0, true)
                            .map(|l| (l.size, l.align, l.offsets)),
                        dl.old_struct_layout(fields, *packed, &tab, 0)
                            .map(|l| (l.size, l.align, l.offsets)),
                        "layout of {t}"
                    );
                }
            }
        }
    }
}
