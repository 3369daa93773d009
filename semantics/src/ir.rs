//! The data model of an LLVM IR file as diopter reads it.
//!
//! diopter reads real `.ll` files from LLVM's test suite and the spec's
//! pseudo-IR examples. Most of such a file is irrelevant to debug expressions,
//! so the model interprets only what the expression language and the lifetime
//! rules need — metadata nodes (with typed views of `DILifetime`, `DIFragment`,
//! variables, types, `DICompileUnit` and DIOp expressions), globals' `!dbg` and
//! `!dbg.default` attachments, and the debug instructions and control flow of
//! function bodies — and keeps everything else as the text it was written as.
//!
//! Equality of the model ignores source positions (every [`Pos`] compares
//! equal), so `parse(print(parse(x))) == parse(x)` is a meaningful property.
//! Parsing is in [`crate::syntax::module`], printing in
//! [`crate::syntax::module_print`], the lifetime rules in [`crate::lifetimes`], where each expression is used in
//! [`crate::sites`].

use crate::ast::{Expr, Span};
use crate::types::{DataLayout, Type, TypeTable};
use std::collections::BTreeMap;
use std::ops::Deref;

/// A source span that every other `Pos` equals: model equality ignores
/// positions, while diagnostics still find them (`Pos` derefs to [`Span`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Pos(pub Span);

impl PartialEq for Pos {
    fn eq(&self, _: &Pos) -> bool {
        true
    }
}
impl Eq for Pos {}

impl Deref for Pos {
    type Target = Span;
    fn deref(&self) -> &Span {
        &self.0
    }
}

/// Name of the implicit function that collects instruction lines written at
/// top level, outside any `define` (the spec's examples are not wrapped in
/// functions).
pub const IMPLICIT_FUNCTION: &str = "<top-level>";

/// One IR file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Module {
    /// The top-level entities in file order; printing follows it.
    pub items: Vec<Item>,
    pub datalayout: Option<(DataLayout, Pos)>,
    /// The `target triple` string, if given (the line itself is an opaque item).
    pub triple: Option<String>,
    pub types: TypeTable,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    /// Numbered metadata `!N = ...`, by `N`.
    pub metadata: BTreeMap<u64, MdNode>,
    /// `!llvm.dbg.cu = !{!0}` and the like.
    pub named_metadata: Vec<NamedMd>,
}

/// A top-level entity, in file order. The indices point into [`Module`]'s vectors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// `target datalayout = "..."` ([`Module::datalayout`]).
    Datalayout,
    /// `%name = type ...` ([`Module::types`]).
    TypeDef(String),
    Global(usize),
    /// A `define`d function.
    Function(usize),
    /// A line of the implicit function ([`Module::implicit_function`]): the
    /// label of `block` (`inst: None`) or an instruction. Top-level lines keep
    /// their place among the other items, so printing them does not move
    /// them next to each other.
    TopLevel {
        block: usize,
        inst: Option<usize>,
    },
    NamedMd(usize),
    Metadata(u64),
    /// A line diopter does not interpret (`target triple`, `source_filename`,
    /// `declare`, `attributes`, comdats, a type it cannot read): printed as written.
    Opaque {
        text: String,
        span: Pos,
    },
}

/// `@name = ...`: everything but the debug attachments is kept as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Global {
    pub name: String,
    /// The text after `=`, without the `!dbg`/`!dbg.default` attachments.
    pub body: String,
    /// `!dbg !N`, `!dbg.default !N` (the spec's default lifetime) and
    /// `!dbg.def !N` (AMD's implementation: the global's `DIFragment`)
    /// attachments, in order: (name without `!`, N).
    pub attachments: Vec<(String, u64)>,
    /// Whether the attachments were written after a comma (LLVM's syntax) or,
    /// like the spec's `@g = i64 !dbg.default !2`, without one.
    pub comma: bool,
    /// The address space of the global's address, when the line is a real
    /// global definition (has `global`/`constant`); `None` for pseudo IR.
    pub address_space: Option<u32>,
    pub span: Pos,
}

impl Global {
    /// The `!dbg.default` attachments (the spec allows one).
    pub fn dbg_default(&self) -> impl Iterator<Item = u64> + '_ {
        self.attachments
            .iter()
            .filter(|(k, _)| k == "dbg.default")
            .map(|(_, n)| *n)
    }
    /// The `!dbg` attachments (`DIGlobalVariableExpression`s in LLVM).
    pub fn dbg(&self) -> impl Iterator<Item = u64> + '_ {
        self.attachments
            .iter()
            .filter(|(k, _)| k == "dbg")
            .map(|(_, n)| *n)
    }
    /// The global as a value: `@name`, typed `ptr addrspace(N)` when known.
    pub fn as_operand(&self) -> Operand {
        Operand {
            ty: self.address_space.map(Type::opaque_ptr),
            value: Value::Global(self.name.clone()),
            span: self.span,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// `@name` without the sigil, or [`IMPLICIT_FUNCTION`].
    pub name: String,
    /// The `define ...` line up to (not including) the `{`; `None` for the
    /// implicit function.
    pub header: Option<String>,
    /// The function's `!dbg !N` attachment (its `DISubprogram`).
    pub dbg: Option<u64>,
    pub blocks: Vec<Block>,
    /// Whether this is the implicit function of top-level instruction lines.
    pub implicit: bool,
    pub span: Pos,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// `entry`, `bb1`, `5` (without `:`); `None` for an unlabelled block.
    pub label: Option<String>,
    pub insts: Vec<Inst>,
    /// Indices of successor blocks in the function: the terminator's targets;
    /// a block without a terminator falls through to the next block (the
    /// spec's pseudo IR has no terminators).
    pub succs: Vec<usize>,
    pub span: Pos,
}

/// Where an instruction is: function, block and position in the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InstRef {
    pub function: usize,
    pub block: usize,
    pub inst: usize,
}

#[derive(Clone, Debug)]
pub struct Inst {
    pub kind: InstKind,
    /// The instruction's text as read (without a trailing comment). Raw-printed
    /// kinds print it; the debug instructions print canonically.
    pub text: String,
    pub span: Pos,
}

/// Equality compares the text only where it is what gets printed.
impl PartialEq for Inst {
    fn eq(&self, other: &Inst) -> bool {
        self.kind == other.kind && (!self.kind.prints_raw() || self.text == other.text)
    }
}
impl Eq for Inst {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstKind {
    /// `call void @llvm.dbg.def(metadata !L, metadata T V)` or `DBG_DEF !L, V`.
    DbgDef {
        lifetime: u64,
        referrer: Operand,
        form: Form,
    },
    /// `call void @llvm.dbg.kill(metadata !L)` or `DBG_KILL !L`.
    DbgKill { lifetime: u64, form: Form },
    /// `#dbg_value`/`#dbg_declare`/`#dbg_assign` records and the
    /// `llvm.dbg.value`/`declare`/`assign` intrinsics.
    DbgRecord(Box<DbgRecord>),
    /// A terminator with successors (`br`, `switch`, `invoke`, ...): the label
    /// names its `label %x` operands give.
    Branch { targets: Vec<String> },
    /// A terminator without successors (`ret`, `unreachable`, MIR `RETURN`).
    Exit,
    /// Anything else.
    Opaque,
}

impl InstKind {
    /// Whether the instruction prints as the text it was read as.
    pub fn prints_raw(&self) -> bool {
        matches!(
            self,
            InstKind::Branch { .. } | InstKind::Exit | InstKind::Opaque
        )
    }
    pub fn is_terminator(&self) -> bool {
        matches!(self, InstKind::Branch { .. } | InstKind::Exit)
    }
}

/// How a debug instruction was written, with the text around its operands
/// that diopter keeps as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// `PREFIX(metadata ..., ...)TRAILER`: the prefix is `call void @llvm.dbg.def`
    /// (or `tail call ...`), the trailer e.g. `, !dbg !7`.
    Call { prefix: String, trailer: String },
    /// `#dbg_value(...)TRAILER`.
    Record { trailer: String },
    /// MIR `DBG_DEF !L, V TRAILER`.
    Mir { trailer: String },
}

impl Form {
    pub fn trailer(&self) -> &str {
        match self {
            Form::Call { trailer, .. } | Form::Record { trailer } | Form::Mir { trailer } => {
                trailer
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    Value,
    Declare,
    Assign,
}

impl RecordKind {
    pub fn name(self) -> &'static str {
        match self {
            RecordKind::Value => "value",
            RecordKind::Declare => "declare",
            RecordKind::Assign => "assign",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbgRecord {
    pub kind: RecordKind,
    pub form: Form,
    pub location: DbgLocation,
    /// Normally `!N`, a `DILocalVariable`.
    pub variable: MdValue,
    /// An inline expression ([`MdValue::Expr`] for DIOps, a `DIExpression`
    /// [`MdValue::Node`] for classic `DW_OP`s) or a reference `!N`.
    pub expr: MdValue,
    /// The extra operands of `dbg.assign`.
    pub assign: Option<AssignParts>,
    /// The record's `DILocation` (last operand of `#dbg_*`), if any.
    pub dbg_loc: Option<MdValue>,
}

impl DbgRecord {
    pub fn variable_id(&self) -> Option<u64> {
        match self.variable {
            MdValue::Ref(n) => Some(n),
            _ => None,
        }
    }
}

/// `dbg.assign`'s `!DIAssignID`, address and address expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssignParts {
    pub id: MdValue,
    pub address: DbgLocation,
    pub address_expr: MdValue,
}

/// The location operand(s) of a debug record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbgLocation {
    /// `TYPE VALUE`.
    Value(Operand),
    /// `!DIArgList(TYPE VALUE, ...)`.
    ArgList(Vec<Operand>),
    /// Other metadata, such as the empty `!{}` of a killed location.
    Md(MdValue),
}

impl DbgLocation {
    /// The operands `DIOpArg(i, T)` indexes.
    pub fn operands(&self) -> Vec<Operand> {
        match self {
            DbgLocation::Value(o) => vec![o.clone()],
            DbgLocation::ArgList(os) => os.clone(),
            DbgLocation::Md(_) => Vec::new(),
        }
    }
}

/// A value operand with its type as written (`i64 addrspace(5)* %x.addr`);
/// MIR operands (`$r0`, `%frame.index.0`) have no type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    pub ty: Option<Type>,
    pub value: Value,
    pub span: Pos,
}

impl Operand {
    pub fn is_poison(&self) -> bool {
        self.value == Value::Poison
    }
    pub fn is_undef(&self) -> bool {
        self.value == Value::Undef
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `%name`.
    Local(String),
    /// `@name`.
    Global(String),
    /// MIR `$name`.
    Reg(String),
    Undef,
    Poison,
    /// Any other constant (`0`, `null`, `getelementptr (...)`, the spec's `...`), as written.
    Const(String),
}

/// `!name = !{...}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedMd {
    pub name: String,
    pub items: Vec<MdValue>,
    pub span: Pos,
}

/// `!N = [distinct] VALUE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdNode {
    pub id: u64,
    pub distinct: bool,
    pub value: MdValue,
    /// From `!N` to the end of the value.
    pub span: Pos,
}

/// A metadata value, as written: every shape metadata text takes, with
/// DIOp expressions parsed and anything else kept as text ([`MdValue::Raw`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MdValue {
    /// `!N`.
    Ref(u64),
    /// `!"text"`.
    MdString(String),
    /// `"text"` (field values such as `name: "x"`).
    Str(String),
    /// A number as written (`32`, `-1`, `0x1F`).
    Num(String),
    /// A bare word: `DW_TAG_base_type`, `true`, `null`, `FullDebug`.
    Ident(String),
    /// `DIFlagArtificial | DIFlagPrototyped`.
    Flags(Vec<String>),
    /// `!{...}`.
    Tuple(Vec<MdValue>),
    /// `{...}` (the spec's `argObjects: {!3, !5}`).
    Braces(Vec<MdValue>),
    /// `!Name(fields)`, other than a DIOp expression.
    Node(Box<Node>),
    /// `!DIExpr(...)` or `!DIExpression(...)` holding DIOps.
    Expr(Expr),
    /// `...` (the spec's placeholder).
    Ellipsis,
    /// Anything else (`i32 2` in a module-flags tuple, `ptr @f`), as written.
    Raw(String),
}

impl MdValue {
    pub fn as_ref_id(&self) -> Option<u64> {
        match self {
            MdValue::Ref(n) => Some(*n),
            _ => None,
        }
    }
    /// A non-negative integer value.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            MdValue::Num(s) => parse_u64(s),
            _ => None,
        }
    }
    pub fn as_ident(&self) -> Option<&str> {
        match self {
            MdValue::Ident(s) => Some(s),
            _ => None,
        }
    }
    /// The elements of `!{...}` or `{...}`.
    pub fn as_list(&self) -> Option<&[MdValue]> {
        match self {
            MdValue::Tuple(v) | MdValue::Braces(v) => Some(v),
            _ => None,
        }
    }
}

fn parse_u64(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// `!Name(key: value, positional, ...)`.
#[derive(Clone, Debug)]
pub struct Node {
    pub name: String,
    pub fields: Vec<Field>,
    /// The node's text as read; nodes diopter does not interpret print from it.
    pub raw: String,
    pub span: Pos,
}

/// Equality ignores the raw text: it is how the node was spelled, not what it says.
impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        self.name == other.name && self.fields == other.fields
    }
}
impl Eq for Node {}

impl Node {
    pub fn field(&self, key: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.key.as_deref() == Some(key))
    }
    pub fn value(&self, key: &str) -> Option<&MdValue> {
        self.field(key).map(|f| &f.value)
    }
    /// Whether diopter interprets this node kind (and prints it canonically).
    pub fn is_known(&self) -> bool {
        KNOWN_NODES.contains(&self.name.as_str())
    }
}

/// Node kinds with typed views; they print canonically, all others as written.
pub const KNOWN_NODES: &[&str] = &[
    "DILifetime",
    "DIFragment",
    "DILocalVariable",
    "DIGlobalVariable",
    "DIBasicType",
    "DIDerivedType",
    "DICompositeType",
    "DICompileUnit",
];

/// `key: value` or a positional value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub key: Option<String>,
    pub value: MdValue,
    pub span: Pos,
}

/// The typed view of a metadata node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MdKind<'a> {
    Lifetime(Lifetime<'a>),
    Fragment,
    LocalVariable {
        name: Option<&'a str>,
        ty: Option<u64>,
    },
    GlobalVariable {
        name: Option<&'a str>,
        ty: Option<u64>,
    },
    BasicType {
        size: Option<u64>,
    },
    DerivedType {
        tag: Option<&'a str>,
        size: Option<u64>,
        base_type: Option<u64>,
    },
    /// `data_location`, `associated` and `rank` may name a type lifetime segment.
    CompositeType {
        tag: Option<&'a str>,
        size: Option<u64>,
        elements: Option<&'a MdValue>,
        data_location: Option<&'a Field>,
        associated: Option<&'a Field>,
        rank: Option<&'a Field>,
    },
    CompileUnit {
        globals: Option<&'a MdValue>,
    },
    /// A DIOp expression node (`!N = !DIExpr(...)`).
    Expr(&'a Expr),
    Tuple(&'a [MdValue]),
    /// Any other node or value; `name` is the node's name when it is one.
    Opaque {
        name: Option<&'a str>,
    },
}

/// The typed view of a `DILifetime`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lifetime<'a> {
    pub node: &'a Node,
    /// `object: !N`.
    pub object: Option<u64>,
    /// The `location:` value: an inline expression or a reference to one.
    pub location: Option<&'a MdValue>,
    /// `argObjects: {!a, !b}` (also `!{...}` or a reference to a tuple node);
    /// `None` when omitted. Entries that are not `!N` are left out (the parser
    /// reports them).
    pub arg_objects: Option<Vec<u64>>,
}

impl MdNode {
    /// The node's name (`DILifetime`) when its value is a node.
    pub fn name(&self) -> Option<&str> {
        match &self.value {
            MdValue::Node(n) => Some(&n.name),
            MdValue::Expr(e) => Some(e.dialect.node_name()),
            _ => None,
        }
    }

    /// The typed view; `m` resolves `argObjects: !N` references to tuples.
    pub fn kind<'a>(&'a self, m: &'a Module) -> MdKind<'a> {
        let node = match &self.value {
            MdValue::Node(n) => n,
            MdValue::Expr(e) => return MdKind::Expr(e),
            MdValue::Tuple(t) => return MdKind::Tuple(t),
            _ => return MdKind::Opaque { name: None },
        };
        let u64_of = |k: &str| node.value(k).and_then(MdValue::as_u64);
        let ref_of = |k: &str| node.value(k).and_then(MdValue::as_ref_id);
        let str_of = |k: &str| match node.value(k) {
            Some(MdValue::Str(s)) | Some(MdValue::MdString(s)) => Some(s.as_str()),
            _ => None,
        };
        match node.name.as_str() {
            "DILifetime" => {
                let arg_objects = node.value("argObjects").map(|v| {
                    let list = match v {
                        MdValue::Ref(n) => match m.metadata.get(n).map(|t| &t.value) {
                            Some(MdValue::Tuple(t)) => t.as_slice(),
                            _ => &[],
                        },
                        v => v.as_list().unwrap_or(&[]),
                    };
                    list.iter().filter_map(MdValue::as_ref_id).collect()
                });
                MdKind::Lifetime(Lifetime {
                    node,
                    object: ref_of("object"),
                    location: node.value("location"),
                    arg_objects,
                })
            }
            "DIFragment" => MdKind::Fragment,
            "DILocalVariable" => MdKind::LocalVariable {
                name: str_of("name"),
                ty: ref_of("type"),
            },
            "DIGlobalVariable" => MdKind::GlobalVariable {
                name: str_of("name"),
                ty: ref_of("type"),
            },
            "DIBasicType" => MdKind::BasicType {
                size: u64_of("size"),
            },
            "DIDerivedType" => MdKind::DerivedType {
                tag: node.value("tag").and_then(MdValue::as_ident),
                size: u64_of("size"),
                base_type: ref_of("baseType"),
            },
            "DICompositeType" => MdKind::CompositeType {
                tag: node.value("tag").and_then(MdValue::as_ident),
                size: u64_of("size"),
                elements: node.value("elements"),
                data_location: node.field("dataLocation"),
                associated: node.field("associated"),
                rank: node.field("rank"),
            },
            "DICompileUnit" => MdKind::CompileUnit {
                globals: node.value("globals"),
            },
            _ => MdKind::Opaque {
                name: Some(&node.name),
            },
        }
    }
}

impl Module {
    /// The implicit function of top-level instruction lines, if the file has any.
    pub fn implicit_function(&self) -> Option<&Function> {
        self.functions.iter().find(|f| f.implicit)
    }

    /// The typed view of node `!id`, if it is defined.
    pub fn kind(&self, id: u64) -> Option<MdKind<'_>> {
        self.metadata.get(&id).map(|n| n.kind(self))
    }

    /// The `DILifetime` `!id`.
    pub fn lifetime(&self, id: u64) -> Option<Lifetime<'_>> {
        match self.kind(id)? {
            MdKind::Lifetime(l) => Some(l),
            _ => None,
        }
    }

    /// Every `DILifetime` node, in id order.
    pub fn lifetimes(&self) -> impl Iterator<Item = (u64, Lifetime<'_>)> + '_ {
        self.metadata
            .iter()
            .filter_map(move |(id, n)| match n.kind(self) {
                MdKind::Lifetime(l) => Some((*id, l)),
                _ => None,
            })
    }

    /// Whether `!id` is a `DIObject`: a `DILocalVariable`, `DIGlobalVariable` or `DIFragment`.
    pub fn is_object(&self, id: u64) -> bool {
        matches!(
            self.kind(id),
            Some(MdKind::LocalVariable { .. } | MdKind::GlobalVariable { .. } | MdKind::Fragment)
        )
    }

    /// Whether `!id` is a `DIVariable` (a root of the reachable lifetime graph).
    pub fn is_variable(&self, id: u64) -> bool {
        matches!(
            self.kind(id),
            Some(MdKind::LocalVariable { .. } | MdKind::GlobalVariable { .. })
        )
    }

    /// The DIOp expression a `location:`/`expr:` value denotes: inline, or a
    /// reference to an expression node.
    pub fn resolve_expr<'a>(&'a self, v: &'a MdValue) -> Option<&'a Expr> {
        match v {
            MdValue::Expr(e) => Some(e),
            MdValue::Ref(n) => match &self.metadata.get(n)?.value {
                MdValue::Expr(e) => Some(e),
                _ => None,
            },
            _ => None,
        }
    }

    /// The expression of lifetime `!id`'s `location`.
    pub fn lifetime_expr(&self, id: u64) -> Option<&Expr> {
        self.resolve_expr(self.lifetime(id)?.location?)
    }

    pub fn inst(&self, r: InstRef) -> Option<&Inst> {
        self.functions
            .get(r.function)?
            .blocks
            .get(r.block)?
            .insts
            .get(r.inst)
    }

    /// Every instruction with its place.
    pub fn insts(&self) -> impl Iterator<Item = (InstRef, &Inst)> + '_ {
        self.functions.iter().enumerate().flat_map(|(f, func)| {
            func.blocks.iter().enumerate().flat_map(move |(b, block)| {
                block.insts.iter().enumerate().map(move |(i, inst)| {
                    (
                        InstRef {
                            function: f,
                            block: b,
                            inst: i,
                        },
                        inst,
                    )
                })
            })
        })
    }
}

// ------------------------------------------------------------------ sizes

/// The size in bits of a `DIObject`: a variable's type's `size:`, following
/// `DIDerivedType` typedefs and qualifiers to their base type; a pointer or
/// reference without a size has the datalayout's address-space-0 pointer
/// size. `None` when unknown (no type, as in the spec's examples, or a
/// `DIFragment`, which has no type).
pub fn object_bits(m: &Module, obj: u64, dl: &DataLayout) -> Option<u64> {
    match m.kind(obj)? {
        MdKind::LocalVariable { ty, .. } | MdKind::GlobalVariable { ty, .. } => {
            type_bits(m, ty?, dl, 0)
        }
        _ => None,
    }
}

/// The size in bits of a debug-info type node.
pub fn type_bits(m: &Module, ty: u64, dl: &DataLayout, depth: usize) -> Option<u64> {
    // Bounded: a typedef chain could be cyclic in a malformed file.
    if depth > 64 {
        return None;
    }
    match m.kind(ty)? {
        MdKind::BasicType { size } => size,
        MdKind::CompositeType { size, .. } => size,
        MdKind::DerivedType {
            tag,
            size,
            base_type,
        } => {
            if let Some(s) = size.filter(|s| *s > 0) {
                return Some(s);
            }
            match tag? {
                "DW_TAG_pointer_type"
                | "DW_TAG_reference_type"
                | "DW_TAG_rvalue_reference_type" => Some(dl.pointer_bits(0)),
                "DW_TAG_ptr_to_member_type" => None,
                _ => type_bits(m, base_type?, dl, depth + 1),
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::module::parse_module;

    fn parse(s: &str) -> Module {
        let (m, ds) = parse_module(s);
        assert!(ds.is_empty(), "{ds:?}");
        m
    }

    #[test]
    fn equality_ignores_positions() {
        let a = parse("!1 = !DILocalVariable(name: \"x\")\n");
        let b = parse("\n\n!1 =   !DILocalVariable(name:\"x\")\n");
        assert_eq!(a, b);
        assert_ne!(a, parse("!1 = !DILocalVariable(name: \"y\")\n"));
        assert_eq!(Pos(Span::new(1, 2)), Pos(Span::new(5, 9)));
        assert_eq!(Pos(Span::new(1, 2)).start, 1);
    }

    #[test]
    fn object_sizes() {
        let m = parse(
            "!1 = !DILocalVariable(name: \"a\", type: !10)\n\
             !2 = !DILocalVariable(name: \"b\", type: !11)\n\
             !3 = !DIGlobalVariable(name: \"c\", type: !12)\n\
             !4 = !DILocalVariable(name: \"d\", type: !13)\n\
             !5 = !DILocalVariable(\"e\", ...)\n\
             !6 = distinct !DIFragment()\n\
             !7 = !DILocalVariable(name: \"f\", type: !15)\n\
             !8 = !DILocalVariable(name: \"g\", type: !16)\n\
             !10 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)\n\
             !11 = !DIDerivedType(tag: DW_TAG_typedef, name: \"T\", baseType: !14)\n\
             !12 = !DICompositeType(tag: DW_TAG_structure_type, size: 96)\n\
             !13 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !10)\n\
             !14 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !10)\n\
             !15 = !DIDerivedType(tag: DW_TAG_typedef, name: \"L\", baseType: !15)\n\
             !16 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !10, size: 32)\n",
        );
        let dl = DataLayout::default();
        assert_eq!(object_bits(&m, 1, &dl), Some(32));
        assert_eq!(object_bits(&m, 2, &dl), Some(32));
        assert_eq!(object_bits(&m, 3, &dl), Some(96));
        assert_eq!(object_bits(&m, 4, &dl), Some(64));
        assert_eq!(
            object_bits(&m, 4, &DataLayout::parse("p:32:32").unwrap()),
            Some(32)
        );
        assert_eq!(object_bits(&m, 5, &dl), None);
        assert_eq!(object_bits(&m, 6, &dl), None);
        assert_eq!(
            object_bits(&m, 7, &dl),
            None,
            "a cyclic typedef has no size"
        );
        assert_eq!(object_bits(&m, 8, &dl), Some(32));
        assert_eq!(object_bits(&m, 99, &dl), None);
    }
}
