//! Translation validation of whole IR files (`diopter validate BEFORE.ll
//! AFTER.ll`): the debug records of each variable are matched between the two
//! versions of a function, each record's operands are related to values both
//! files share, and each matched pair becomes a [`Pair`] for
//! [`crate::validate::validate`].
//!
//! **Operands.** Every operand of a matched pair of records is *resolved* to a
//! DIOp expression over **roots**, the values both files share; the roots are
//! the query's holes (every storage shape of `diopter prove`):
//!
//! * a function parameter with the same name and type in both headers, a
//!   global (`@g`), or an instruction both files define with the same name
//!   and the same text whose operands are themselves shared (loads, calls,
//!   phis and other instructions whose value depends on where they are are
//!   never shared): a root, the same on both sides;
//! * a constant: `DIOpConstant(T c)` (a constant diopter cannot read as a
//!   literal is a root of its own, shared by its text);
//! * `poison`/`undef`: the undefined location (before: the mapping
//!   `undefined`; after: `DIOpConstant(T undef)`);
//! * a `--map` entry for the name (before side): its expression, over new
//!   operands which are resolved on the after side;
//! * otherwise a value the side defines by an instruction diopter translates
//!   (integer arithmetic with a DIOp counterpart, `zext`/`sext`/`trunc`,
//!   `ptrtoint`/`inttoptr`/`bitcast`, `addrspacecast`): that instruction's
//!   value over its own operands, resolved the same way (a value: read-only);
//! * otherwise, on the before side, **undefined** (the pass deleted or
//!   redefined it and nothing says how it relates to the new operands: only
//!   "optimized out" refines it), and on the after side an unconstrained root
//!   of its own.
//!
//! Each resolution is reported ([`OperandNote`]), so that the verdict can be
//! read with what it assumed.
//!
//! **Matching.** Variables are identified by their `DILocalVariable`'s name,
//! `arg:` and scope (the subprogram's name, or the lexical block's line and
//! its own scope), not by metadata numbers. In a function both files define,
//! a variable's records are paired (1) kind with kind (`#dbg_value` with
//! `#dbg_value`, ...) in order; (2) a remaining before-record with the first
//! remaining after-record whose operands resolve to the same roots; (3) with
//! the first remaining after-record. Records left over are reported; a
//! variable with records before and none after is a coverage loss.

use crate::conventions::{Conventions, Reading, Upper, REFINEMENT_WITNESSES, VARIANTS};
use crate::paths::{self, Fact};
use crate::poison;
use crate::validate::{self, MapRhs, Outcome, Pair};
use diopter_semantics::ast::{ArgDecl, Bare, Dialect, Expr, Literal, Op, OpNode, Span};
use diopter_semantics::classic::{self, Hole, RecordUse};
use diopter_semantics::diag::Diagnostic;
use diopter_semantics::ir::{
    object_bits, DbgLocation, DbgRecord, Function, InstKind, MdKind, MdValue, Module, Node,
    Operand, RecordKind, Value,
};
use diopter_semantics::syntax::bare::parse_bare_at;
use diopter_semantics::syntax::classic::parse_classic;
use diopter_semantics::syntax::lexer::{lex, Tok, Token};
use diopter_semantics::syntax::parser::Parser;
use diopter_semantics::syntax::print_ops;
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use diopter_smt::prove::ProveConfig;
use std::collections::{BTreeMap, BTreeSet};

/// The rules, for `diopter validate --help`.
pub const IR_HELP: &str = "\
WHOLE IR FILES
  diopter validate BEFORE.ll AFTER.ll [--map '[@FN] %OLD := ...']...

  Matches each variable's debug records (#dbg_value/#dbg_declare/#dbg_assign
  and the llvm.dbg.* calls) between the two versions of every function both
  files define, and validates each matched pair as above. Variables are
  identified by their DILocalVariable's name, arg: and scope (subprogram
  name, lexical block line), not by metadata numbers. A variable's records
  are paired kind with kind in order; a record left over is paired with the
  first left-over record of the other file whose operands resolve to the same
  values, else with the first left-over one (the kinds are then reported).
  Records left over are listed; a variable with records before and none after
  is a COVERAGE LOSS.

  Each record operand is resolved to a DIOp expression over the values both
  files share (the query's new operands), and the output says how:
    same value     a parameter with the same name and type in both headers,
                   a global, or an instruction both files define with the
                   same name and text over shared operands: a pure one,
                   or a load or call the pass left unchanged (taken to give
                   the same value: the pass preserves the program's
                   meaning); never a phi, whose text names blocks
    constant       DIOpConstant(T c); poison/undef: the undefined location
    --map          `%old := [T %new, ...] DIOp...` (DIOpArg(K) is the K-th
                   listed new operand, resolved in AFTER) or `%old :=
                   undefined`; `@fn %old := ...` applies in @fn only
    derived        a value the file defines by `add sub mul sdiv srem shl
                   lshr ashr and or xor` (DIOpAdd ... DIOpXor), `zext`/`sext`
                   (DIOpZExt/DIOpSExt), `trunc` (DIOpConvert), `ptrtoint`/
                   `inttoptr`/`bitcast` (DIOpReinterpret + DIOpRead when the
                   sizes agree, else DIOpConvert), `addrspacecast`
                   (DIOpConvert), over its own operands resolved the same way;
                   flags (nuw, nsw, exact, disjoint, nneg) and division by
                   zero are preconditions: a pair is decided where neither
                   side's derived values are poison (a pass may put anything
                   in place of poison; a flag a pass added is taken as a fact
                   it proved). Classic records' operands are plain values
    undefined      (BEFORE) any other operand the after file does not share:
                   deleted or redefined with no known relation; only
                   \"optimized out\" refines it. Supply --map to say more.
    unconstrained  (AFTER) any other new operand: a free value
  A verdict that depends on an undefined or unconstrained operand says so.
  A parameter's range(iN lo, hi) attribute is a precondition (outside it
  the value is poison). A value both files define alike by a pure
  instruction is derived through
  that definition (up to 64 definitions a record), so a fold that rests on
  it (a zext's zero upper bits) is not refuted for it.

  A refuted classic record is asked again with the translation's open
  inputs fixed (docs/classic.md, decisions 2 and 4): a narrow operand's
  upper register bits as zeros or as sign copies, the generic signedness as
  unsigned or signed. One that then holds says so (text: `[only under the
  sound reading of ...]`; JSON: `refuted_only_under`): a value a debugger
  can show, but one mistake of that kind, not a record wrong under every
  reading (`null`). One that holds with only the before-record's upper bits
  fixed (the after-record's left free) is a refinement instead: LLVM leaves
  those register bits unspecified, so every value the after-record shows is
  one the before-record could show (an i1 compare salvaged to a 0/1 value).

  Exit status as above; also 2 for an IR file that does not parse.
";

/// A `--map` entry for whole files.
#[derive(Clone, Debug)]
pub struct UserMap {
    /// `@fn`: only in this function.
    pub function: Option<String>,
    /// The old operand's name (without `%`).
    pub name: String,
    /// `None`: `undefined`.
    pub rhs: Option<(Bare, Vec<String>)>,
    pub text: String,
}

/// Parses `[@fn] %name := [T %v, ...] OPS` or `... := undefined` at
/// `start..end` of `text`; diagnostics point into `text`.
pub fn parse_user_map(text: &str, start: usize, end: usize) -> Result<UserMap, Diagnostic> {
    let line = &text[start..end];
    let span = Span::new(start, end);
    let Some(eq) = line.find(":=") else {
        return Err(Diagnostic::error(span, "expected `[@fn] %name := ...`"));
    };
    let head: Vec<&str> = line[..eq].split_whitespace().collect();
    let (function, name) = match head.as_slice() {
        [n] => (None, *n),
        [f, n] if f.starts_with('@') => (Some(f[1..].to_string()), *n),
        _ => {
            return Err(Diagnostic::error(
                Span::new(start, start + eq),
                "expected `%name :=` or `@function %name :=` before `:=`",
            ))
        }
    };
    let Some(name) = name.strip_prefix('%').filter(|n| !n.is_empty()) else {
        return Err(Diagnostic::error(
            Span::new(start, start + eq),
            format!("expected an IR value `%name`, found `{name}`"),
        ));
    };
    let name = name.trim_matches('"').to_string();
    let rhs_start = start + eq + 2;
    let rhs = text[rhs_start..end].trim();
    if rhs == "undefined" {
        return Ok(UserMap {
            function,
            name,
            rhs: None,
            text: line.to_string(),
        });
    }
    // Parse a copy of `text` in which everything but the types of the
    // operand list and the operations is blanked, so that spans stay those
    // of `text`.
    let mut shadow: Vec<u8> = text.as_bytes().to_vec();
    for b in &mut shadow[start..rhs_start] {
        *b = b' ';
    }
    let lead = text[rhs_start..end].len() - text[rhs_start..end].trim_start().len();
    let rs = rhs_start + lead;
    let mut names = Vec::new();
    let bstart;
    if text[rs..end].starts_with('[') {
        let close = match text[rs..end].find(']') {
            Some(i) => rs + i,
            None => return Err(Diagnostic::error(span, "`[` without `]`")),
        };
        // Each item is `TYPE %name`: record and blank the name.
        let mut item_start = rs + 1;
        let mut depth = 0i32;
        let mut cuts = Vec::new();
        for (i, c) in text[rs + 1..close].char_indices() {
            let at = rs + 1 + i;
            match c {
                '(' | '{' | '<' => depth += 1,
                ')' | '}' | '>' => depth -= 1,
                ',' if depth == 0 => {
                    cuts.push((item_start, at));
                    item_start = at + 1;
                }
                _ => {}
            }
        }
        if !text[item_start..close].trim().is_empty() {
            cuts.push((item_start, close));
        }
        for (a, b) in cuts {
            let item = &text[a..b];
            let Some(p) = item.rfind('%') else {
                return Err(Diagnostic::error(
                    Span::new(a, b),
                    "a new operand is `TYPE %name`",
                ));
            };
            names.push(item[p + 1..].trim().trim_matches('"').to_string());
            for byte in &mut shadow[a + p..b] {
                *byte = b' ';
            }
        }
        bstart = rs;
    } else {
        // No operand list: `[]` in place of `:=`.
        shadow[start + eq] = b'[';
        shadow[start + eq + 1] = b']';
        bstart = start + eq;
    }
    let shadow = String::from_utf8(shadow).map_err(|_| Diagnostic::error(span, "not UTF-8"))?;
    let b = parse_bare_at(&shadow, bstart, end)?;
    if b.expr.ops.is_empty() {
        return Err(Diagnostic::error(
            span,
            "an empty mapping (write `undefined`?)",
        ));
    }
    if b.args.as_ref().map_or(0, |a| a.len()) != names.len() {
        return Err(Diagnostic::error(span, "every new operand needs a `%name`"));
    }
    Ok(UserMap {
        function,
        name,
        rhs: Some((b, names)),
        text: line.to_string(),
    })
}

/// How one record operand was resolved.
#[derive(Clone, Debug)]
pub struct OperandNote {
    /// `before` or `after`.
    pub side: &'static str,
    /// The operand as written (`ptr %x`).
    pub operand: String,
    /// `same value`, `constant`, `--map`, `derived`, `undefined`,
    /// `unconstrained`, `poison`.
    pub how: &'static str,
    /// The resolution, over the roots (`arg0` ... as in the pair's
    /// after-expression), and where it came from.
    pub detail: String,
}

/// The root keys of a classic translation's inputs.
const UPPER: &str = "upper bits of ";
const SIGNEDNESS: &str = "generic signedness (1 signed, 0 unsigned)";

/// A shared value: one hole of the query.
#[derive(Clone, Debug)]
pub struct Root {
    pub key: String,
    pub ty: Type,
}

/// One matched pair of records.
#[derive(Clone, Debug)]
pub struct Matched {
    pub function: String,
    pub variable: String,
    pub before_kind: RecordKind,
    pub after_kind: RecordKind,
    /// Byte offsets of the records in their files.
    pub before_at: usize,
    pub after_at: usize,
    /// How the records were paired: `kind and position`, `operands`,
    /// `position`.
    pub matched_by: &'static str,
    pub operands: Vec<OperandNote>,
    pub roots: Vec<Root>,
    /// The pair to validate, or why there is none (a classic expression).
    pub pair: Result<Pair, String>,
    /// Whether the verdict rests on an undefined (deleted, unmapped) or
    /// unconstrained operand.
    pub assumes_unknown: bool,
    /// Why a classic expression has no pair, pointing into the file named
    /// by the side (`before`/`after`).
    pub diagnostic: Option<(&'static str, Diagnostic)>,
    /// The pair built again with the classic translation's open inputs
    /// fixed, each with the reading it tests (`reading::VARIANTS`); empty
    /// when the pair has none.
    pub variants: Vec<(Reading, Pair)>,
    /// The pair built again with only the before-record's upper bits fixed
    /// (`conventions::REFINEMENT_WITNESSES`); empty when it has none.
    pub witnesses: Vec<Pair>,
}

/// A record no record of the other file was paired with.
#[derive(Clone, Debug)]
pub struct Unmatched {
    pub function: String,
    pub variable: String,
    pub kind: RecordKind,
    pub at: usize,
}

/// The comparison of two files.
#[derive(Clone, Debug, Default)]
pub struct FileComparison {
    pub matched: Vec<Matched>,
    pub unmatched_before: Vec<Unmatched>,
    pub unmatched_after: Vec<Unmatched>,
    /// `(function, variable, number of before-records)`.
    pub coverage_losses: Vec<(String, String, usize)>,
    /// Functions of BEFORE that AFTER does not define.
    pub functions_removed: Vec<String>,
    pub functions_added: Vec<String>,
}

/// The data layout a module implies: its `target datalayout`, else
/// AMDGPU's for an `amdgcn` triple, else LLVM's default.
pub fn module_layout(m: &Module) -> DataLayout {
    if let Some((dl, _)) = &m.datalayout {
        return dl.clone();
    }
    if m.triple.as_deref().is_some_and(|t| t.starts_with("amdgcn")) {
        return DataLayout::amdgpu();
    }
    DataLayout::llvm_default()
}

/// The identity of a variable across files: name, `arg:`, scope chain.
fn variable_key(m: &Module, id: u64) -> String {
    let Some(node) = md_node(m, id) else {
        return format!("!{id}");
    };
    let name = match m.kind(id) {
        Some(MdKind::LocalVariable { name, .. }) => name.unwrap_or("?").to_string(),
        _ => node
            .value("name")
            .and_then(md_str)
            .unwrap_or("?")
            .to_string(),
    };
    let arg = node
        .value("arg")
        .and_then(|v| v.as_u64())
        .map(|a| format!(" arg {a}"))
        .unwrap_or_default();
    let scope = node
        .value("scope")
        .and_then(|v| v.as_ref_id())
        .map(|s| scope_desc(m, s, 0))
        .unwrap_or_default();
    format!("{name}{arg} in {scope}")
}

fn md_node(m: &Module, id: u64) -> Option<&diopter_semantics::ir::Node> {
    match &m.metadata.get(&id)?.value {
        MdValue::Node(n) => Some(n),
        _ => None,
    }
}

fn md_str(v: &MdValue) -> Option<&str> {
    match v {
        MdValue::Str(s) | MdValue::MdString(s) => Some(s),
        _ => None,
    }
}

fn scope_desc(m: &Module, id: u64, depth: usize) -> String {
    let Some(n) = md_node(m, id) else {
        return format!("!{id}");
    };
    if depth > 16 {
        return n.name.clone();
    }
    let own = match n.name.as_str() {
        "DISubprogram" => n
            .value("name")
            .and_then(md_str)
            .unwrap_or("<anonymous>")
            .to_string(),
        other => format!(
            "{other}(line {})",
            n.value("line").and_then(|v| v.as_u64()).unwrap_or(0)
        ),
    };
    match (
        n.name.as_str(),
        n.value("scope").and_then(|v| v.as_ref_id()),
    ) {
        ("DISubprogram", _) | (_, None) => own,
        (_, Some(p)) => format!("{own} in {}", scope_desc(m, p, depth + 1)),
    }
}

/// A function's debug records, in order, with the variable's key.
fn records<'m>(m: &'m Module, f: &'m Function) -> Vec<(String, &'m DbgRecord, usize)> {
    let mut out = Vec::new();
    for b in &f.blocks {
        for i in &b.insts {
            if let InstKind::DbgRecord(r) = &i.kind {
                let mut key = match r.variable_id() {
                    Some(id) => variable_key(m, id),
                    None => "?".into(),
                };
                // A variable's fragments are described separately.
                if let Some((off, size)) = classic_fragment(m, r) {
                    key = format!("{key} bits {off}..{}", off + size);
                }
                out.push((key, &**r, i.span.start));
            }
        }
    }
    out
}

/// What one side of a function defines: parameters and instructions.
struct Side {
    params: BTreeMap<String, (String, Type)>,
    /// Parameter names by position.
    param_order: Vec<String>,
    /// Instruction text (up to its metadata attachments) by result name.
    defs: BTreeMap<String, String>,
}

fn lexed(text: &str) -> Vec<Token> {
    lex(text, 0, text.len())
}

/// `(name, (param text without the name, type))` of a `define` header.
/// The parameters in order: name, (text up to the name, type).
fn header_params(header: &str) -> Vec<(String, (String, Type))> {
    let toks = lexed(header);
    let mut out = Vec::new();
    let Some(open) = toks
        .iter()
        .position(|t| matches!(t.tok, Tok::Global(_)))
        .map(|g| g + 1)
    else {
        return out;
    };
    if !matches!(toks.get(open).map(|t| &t.tok), Some(Tok::LParen)) {
        return out;
    }
    let mut i = open + 1;
    while i < toks.len() {
        if matches!(toks[i].tok, Tok::RParen) {
            break;
        }
        let start = toks[i].span.start;
        let mut p = Parser::new(&toks[i..], header.len());
        let Ok(ty) = p.parse_type() else { break };
        let mut j = i + p.pos;
        let mut depth = 0i32;
        let mut name = None;
        while j < toks.len() {
            match &toks[j].tok {
                Tok::LParen => depth += 1,
                Tok::RParen if depth == 0 => break,
                Tok::RParen => depth -= 1,
                Tok::Comma if depth == 0 => break,
                Tok::Local(n) if depth == 0 => name = Some((n.clone(), toks[j].span.start)),
                _ => {}
            }
            j += 1;
        }
        if let Some((n, at)) = name {
            out.push((n, (header[start..at].trim().to_string(), ty)));
        }
        if matches!(toks.get(j).map(|t| &t.tok), Some(Tok::Comma)) {
            j += 1;
        }
        i = j;
    }
    out
}

fn strip_attachments(text: &str) -> String {
    let t = text.trim();
    match t.find(", !") {
        Some(i) => t[..i].trim().to_string(),
        None => t.to_string(),
    }
}

impl Side {
    fn new(f: &Function) -> Side {
        let mut defs = BTreeMap::new();
        for b in &f.blocks {
            for i in &b.insts {
                if !matches!(i.kind, InstKind::Opaque) {
                    continue;
                }
                let toks = lexed(&i.text);
                if let (Some(Tok::Local(n)), Some(Tok::Eq)) =
                    (toks.first().map(|t| &t.tok), toks.get(1).map(|t| &t.tok))
                {
                    defs.insert(n.clone(), strip_attachments(&i.text));
                }
            }
        }
        let params = f.header.as_deref().map(header_params).unwrap_or_default();
        Side {
            param_order: params.iter().map(|(n, _)| n.clone()).collect(),
            params: params.into_iter().collect(),
            defs,
        }
    }
}

/// An integer constant as IR writes it (`-3`, `true`, `false`).
fn int_constant(c: &str) -> Option<num_bigint::BigInt> {
    match c {
        "true" => Some(1.into()),
        "false" => Some(0.into()),
        c => c.parse().ok(),
    }
}

/// `hole == c1 || hole == c2 ...` over the constants a caller passes, read
/// at the parameter's type; `None` if one is not an integer of it.
fn one_of(k: usize, ty: &Type, consts: &[String]) -> Option<diopter_rules::instance::Term> {
    use diopter_rules::instance::{BinOp, Term};
    let w = ty.int_width()?;
    let mut out: Option<Term> = None;
    for c in consts {
        let value = int_constant(c)?;
        let eq = Term::Bin(
            BinOp::Eq,
            Box::new(Term::Hole(k)),
            Box::new(Term::Lit { value, width: w }),
        );
        out = Some(match out {
            None => eq,
            Some(o) => Term::Bin(BinOp::Or, Box::new(o), Box::new(eq)),
        });
    }
    out
}

/// The precondition a parameter attribute `range(iN lo, hi)` puts on hole
/// `k`: `lo <= x < hi` unsigned, wrapping when `hi <= lo` (LangRef's
/// `ConstantRange`); `None` without one (or one diopter does not read).
fn param_range(text: &str, k: usize) -> Option<diopter_rules::instance::Term> {
    use diopter_rules::instance::{BinOp, Term, UnOp};
    let inner = text.split_once("range(")?.1.split_once(')')?.0;
    let (ty, rest) = inner.trim().split_once(' ')?;
    let w: u64 = ty.strip_prefix('i')?.parse().ok()?;
    let (lo, hi) = rest.split_once(',')?;
    let wrap = |v: &str| -> Option<num_bigint::BigInt> {
        let v: num_bigint::BigInt = v.trim().parse().ok()?;
        let m = num_bigint::BigInt::from(1) << w;
        Some(((v % &m) + &m) % &m)
    };
    let (lo, hi) = (wrap(lo)?, wrap(hi)?);
    let lit = |v: num_bigint::BigInt| Term::Lit { value: v, width: w };
    let x = || Term::Hole(k);
    let bin = |op, a, b| Term::Bin(op, Box::new(a), Box::new(b));
    let at_least_lo = Term::Un(UnOp::Not, Box::new(bin(BinOp::Ult, x(), lit(lo.clone()))));
    let below_hi = bin(BinOp::Ult, x(), lit(hi.clone()));
    Some(if lo < hi {
        bin(BinOp::And, at_least_lo, below_hi)
    } else {
        bin(BinOp::Or, at_least_lo, below_hi)
    })
}

/// The range a call `def` (`%r = [tail] call range(iN lo, hi) iN @f(...)`)
/// promises for its result, hole `k` of type `ty`: its return attribute
/// (poison outside it, LangRef), else for `@llvm.ctlz/cttz/ctpop.iN` the
/// count's own range, 0 to N.
fn call_range(def: &str, k: usize, ty: &Type) -> Option<diopter_rules::instance::Term> {
    let rhs = def.split_once('=')?.1.trim_start();
    let op = opcode(def)?;
    if !matches!(op.as_str(), "call" | "tail" | "musttail" | "notail") {
        return None;
    }
    // The return attributes come before the callee; an argument's after it.
    let head = rhs.split_once('@')?.0;
    if head.contains("range(") {
        return param_range(head, k);
    }
    let callee = rhs.split_once('@')?.1;
    let w = ty.int_width()?;
    ["llvm.ctlz.", "llvm.cttz.", "llvm.ctpop."]
        .iter()
        .any(|c| callee.starts_with(c))
        .then(|| param_range(&format!("range(i{w} 0, {})", w + 1), k))
        .flatten()
}

/// Opcodes whose value does not depend on where the instruction is.
const PURE: &[&str] = &[
    "alloca",
    "add",
    "sub",
    "mul",
    "udiv",
    "sdiv",
    "urem",
    "srem",
    "shl",
    "lshr",
    "ashr",
    "and",
    "or",
    "xor",
    "fadd",
    "fsub",
    "fmul",
    "fdiv",
    "frem",
    "fneg",
    "icmp",
    "fcmp",
    "select",
    "zext",
    "sext",
    "trunc",
    "fptrunc",
    "fpext",
    "fptoui",
    "fptosi",
    "uitofp",
    "sitofp",
    "ptrtoint",
    "inttoptr",
    "bitcast",
    "addrspacecast",
    "getelementptr",
    "extractvalue",
    "insertvalue",
    "extractelement",
    "insertelement",
    "shufflevector",
    "freeze",
];

/// Opcodes whose value depends on the memory or the program's state where
/// the instruction runs (loads and calls). One whose text, operands
/// included, the pass left unchanged is taken to give the same value: the
/// pass preserves the program's meaning, and the instruction's uses (the
/// record among them) read the value it computes. A changed one is two
/// values, as for every opcode.
const UNCHANGED_ALIKE: &[&str] = &["load", "call", "tail", "musttail", "notail"];

/// The same value in both files when its text is the same in both.
fn same_when_unchanged(def: &str) -> bool {
    opcode(def).is_some_and(|o| PURE.contains(&o.as_str()) || UNCHANGED_ALIKE.contains(&o.as_str()))
}

fn opcode(def: &str) -> Option<String> {
    let toks = lexed(def);
    match toks.get(2).map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w.clone()),
        _ => None,
    }
}

fn locals_in(def: &str) -> Vec<String> {
    lexed(def)
        .iter()
        .skip(1)
        .filter_map(|t| match &t.tok {
            Tok::Local(n) => Some(n.clone()),
            _ => None,
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    Before,
    After,
}

struct Ctx<'a> {
    before: Side,
    after: Side,
    function: String,
    dl: &'a DataLayout,
    types: &'a TypeTable,
    maps: &'a [UserMap],
    roots: Vec<Root>,
    notes: Vec<OperandNote>,
    assumes_unknown: bool,
    shared: BTreeMap<String, bool>,
    /// Roots the before side's resolutions use.
    before_uses: BTreeSet<usize>,
    /// Roots the after side's resolutions use.
    after_uses: BTreeSet<usize>,
    /// Roots that are themselves an operand of the before-record (not
    /// reached through a derivation).
    before_direct: BTreeSet<usize>,
    side_now: Which,
    /// Where the derived values of both sides are not poison (`poison`).
    pre: Vec<diopter_rules::instance::Term>,
    /// How many more shared definitions `derive_shared` may expand (0:
    /// shared values are roots, as for matching records by operands).
    shared_budget: usize,
    /// `derive_shared`'s answer per name and type, so that both sides
    /// resolve a shared value alike whatever the budget left.
    shared_memo: BTreeMap<String, Option<(Vec<OpNode>, String)>>,
    /// The definition `derive_shared` is deriving (a value both files
    /// define alike), while it does.
    shared_def: Option<String>,
    /// Free or fixed upper bits and signedness (`hole_maps`).
    conventions: Conventions,
    /// The constants every caller passes, by parameter position
    /// (`callsites::constant_args` of the before function).
    caller_args: BTreeMap<usize, Vec<String>>,
    /// Roots that are constants diopter does not read (a constant
    /// expression), and which sides use them: `[before, after]`.
    opaque: BTreeMap<usize, [bool; 2]>,
}

/// Shared definitions one record's resolution may expand.
const SHARED_BUDGET: usize = 64;

fn node(op: Op) -> OpNode {
    OpNode {
        op,
        span: Span::default(),
    }
}

fn expr(ops: Vec<OpNode>) -> Expr {
    Expr {
        dialect: Dialect::DiExpression,
        ops,
        span: Span::default(),
    }
}

/// A resolution: the operations, and how.
type Res = Result<(Vec<OpNode>, &'static str, String), (&'static str, String)>;

impl<'a> Ctx<'a> {
    fn side(&self, w: Which) -> &Side {
        match w {
            Which::Before => &self.before,
            Which::After => &self.after,
        }
    }

    fn root(&mut self, key: String, ty: &Type) -> Vec<OpNode> {
        let k = match self.roots.iter().position(|r| r.key == key && r.ty == *ty) {
            Some(k) => k,
            None => {
                self.roots.push(Root {
                    key,
                    ty: ty.clone(),
                });
                self.roots.len() - 1
            }
        };
        self.note_use(k);
        vec![node(Op::Arg(k as u64, ty.clone()))]
    }

    /// Records that the side being resolved reads root `k`.
    fn note_use(&mut self, k: usize) {
        match self.side_now {
            Which::Before => self.before_uses.insert(k),
            Which::After => self.after_uses.insert(k),
        };
    }

    /// Whether `%name` (of type `ty`) is the same value in both files.
    fn is_shared(&mut self, name: &str, ty: &Type) -> bool {
        if let Some(s) = self.shared.get(name) {
            return *s;
        }
        // Provisional `false` breaks cycles (phis are not pure anyway).
        self.shared.insert(name.to_string(), false);
        let s = match (self.before.params.get(name), self.after.params.get(name)) {
            (Some((a, ta)), Some((b, tb))) => a == b && ta == ty && tb == ty,
            (None, None) => match (self.before.defs.get(name), self.after.defs.get(name)) {
                (Some(a), Some(b)) if a == b => {
                    let a = a.clone();
                    same_when_unchanged(&a) && locals_in(&a).iter().all(|n| self.is_shared_any(n))
                }
                _ => false,
            },
            _ => false,
        };
        self.shared.insert(name.to_string(), s);
        s
    }

    /// Shared regardless of type (an operand inside an instruction's text,
    /// whose type the identical texts already agree on).
    fn is_shared_any(&mut self, name: &str) -> bool {
        if let Some(s) = self.shared.get(name) {
            return *s;
        }
        let ty = self
            .before
            .params
            .get(name)
            .map(|(_, t)| t.clone())
            .unwrap_or(Type::Int(0));
        if self.before.params.contains_key(name) {
            return self.is_shared(name, &ty);
        }
        // An instruction: its own type does not enter the comparison of texts.
        self.shared.insert(name.to_string(), false);
        let s = match (self.before.defs.get(name), self.after.defs.get(name)) {
            (Some(a), Some(b)) if a == b => {
                let a = a.clone();
                same_when_unchanged(&a) && locals_in(&a).iter().all(|n| self.is_shared_any(n))
            }
            _ => false,
        };
        self.shared.insert(name.to_string(), s);
        s
    }

    fn constant(&mut self, ty: &Type, text: &str) -> (Vec<OpNode>, &'static str, String) {
        let toks = lexed(text);
        let mut p = Parser::new(&toks, text.len());
        if let Ok(lit) = p.parse_literal(ty) {
            if p.pos == toks.len() && !matches!(lit, Literal::Undef | Literal::Poison) {
                let ops = vec![node(Op::Constant(ty.clone(), lit))];
                let d = print_ops(&expr(ops.clone()));
                return (ops, "constant", d);
            }
        }
        let ops = self.root(format!("{ty} {text}"), ty);
        if let Some(Op::Arg(k, _)) = ops.first().map(|o| &o.op) {
            let sides = self.opaque.entry(*k as usize).or_default();
            sides[usize::from(self.side_now == Which::After)] = true;
        }
        (
            ops,
            "constant",
            format!("a constant diopter does not read: a value shared by its text ({ty} {text})"),
        )
    }

    /// Each of a record's operands resolved on side `w`, as the pair's
    /// operand mapping, with a note of how; a before-operand left undefined
    /// marks the verdict as resting on an unknown operand.
    fn map_operands(&mut self, w: Which, ops: &[(Type, Operand)]) -> Vec<(u64, MapRhs, Span)> {
        let side = match w {
            Which::Before => "before",
            Which::After => "after",
        };
        let mut map = Vec::new();
        for (k, (t, o)) in ops.iter().enumerate() {
            let (rhs, how, detail) = match self.resolve(w, t, &o.value, 0) {
                Ok((ops, how, d)) => {
                    if let (Which::Before, "same value", [one]) = (w, how, &ops[..]) {
                        if let Op::Arg(k, _) = one.op {
                            self.before_direct.insert(k as usize);
                        }
                    }
                    (MapRhs::Expr(expr(ops)), how, d)
                }
                Err((how, d)) => (MapRhs::Undefined, how, d),
            };
            if w == Which::Before && how == "undefined" {
                self.assumes_unknown = true;
            }
            self.notes.push(OperandNote {
                side,
                operand: print_operand(o),
                how,
                detail,
            });
            map.push((k as u64, rhs, Span::default()));
        }
        map
    }

    /// A branch condition that holds at the before-record, as a
    /// precondition over the roots; left out when its value does not
    /// resolve to shared values (fewer facts only make the check stricter).
    fn path_fact(&mut self, f: &Fact) {
        use diopter_rules::instance::{BinOp, Term};
        let ty = Type::Int(f.width);
        let Ok((ops, _, _)) = self.resolve(Which::Before, &ty, &Value::Local(f.name.clone()), 0)
        else {
            return;
        };
        let Some((t, w)) = poison::term(&ops) else {
            return;
        };
        let Some(value) = int_constant(&f.constant) else {
            return;
        };
        let op = if f.equal { BinOp::Eq } else { BinOp::Ne };
        let c = Term::Bin(op, Box::new(t), Box::new(Term::Lit { value, width: w }));
        if !self.pre.contains(&c) {
            self.pre.push(c);
        }
    }

    fn resolve(&mut self, w: Which, ty: &Type, v: &Value, depth: usize) -> Res {
        match v {
            Value::Poison | Value::Undef => Err(("poison", "the undefined location".into())),
            Value::Const(c) => Ok(self.constant(ty, c)),
            Value::Global(g) => {
                let ops = self.root(format!("@{g}"), ty);
                Ok((ops, "same value", format!("@{g} (a global)")))
            }
            Value::Reg(r) => Err(("undefined", format!("${r}: a MIR register (IR files only)"))),
            Value::Local(n) => self.resolve_local(w, ty, n, depth),
        }
    }

    fn resolve_local(&mut self, w: Which, ty: &Type, n: &str, depth: usize) -> Res {
        if w == Which::Before {
            let f = self.function.clone();
            if let Some(m) = self
                .maps
                .iter()
                .find(|m| m.name == n && m.function.as_ref().is_none_or(|g| *g == f))
                .cloned()
            {
                return self.user_map(&m);
            }
        }
        if self.is_shared(n, ty) {
            if let Some(r) = self.derive_shared(w, ty, n, depth) {
                return Ok(r);
            }
            let ops = self.root(format!("%{n}"), ty);
            if let (Some((text, _)), Some(Op::Arg(k, _))) =
                (self.before.params.get(n), ops.first().map(|o| &o.op))
            {
                // A parameter's `range(iN lo, hi)`: outside it the value is
                // poison, which constrains nothing (as a flag does).
                if let Some(t) = param_range(text, *k as usize) {
                    if !self.pre.contains(&t) {
                        self.pre.push(t);
                    }
                }
                // A local function's callers are all in the module: the
                // constants they pass are all it takes (`callsites`).
                let pos = self.before.param_order.iter().position(|p| p == n);
                if let Some(consts) = pos.and_then(|p| self.caller_args.get(&p)) {
                    if let Some(t) = one_of(*k as usize, ty, consts) {
                        if !self.pre.contains(&t) {
                            self.pre.push(t);
                        }
                    }
                }
            }
            if let (Some(def), Some(Op::Arg(k, _))) =
                (self.before.defs.get(n), ops.first().map(|o| &o.op))
            {
                // A call's return `range(iN lo, hi)` and the ranges of the
                // bit-counting intrinsics: what passes read off the call.
                if let Some(t) = call_range(def, *k as usize, ty) {
                    if !self.pre.contains(&t) {
                        self.pre.push(t);
                    }
                }
            }
            let what = if self.before.params.contains_key(n) {
                "a parameter of both"
            } else if self
                .before
                .defs
                .get(n)
                .and_then(|d| opcode(d))
                .is_some_and(|o| UNCHANGED_ALIKE.contains(&o.as_str()))
            {
                "a load or call the pass left unchanged"
            } else {
                "defined alike in both"
            };
            return Ok((ops, "same value", format!("%{n} ({what})")));
        }
        if depth < 16 {
            if let Some(def) = self.side(w).defs.get(n).cloned() {
                if let Some(ops) = self.derive(w, ty, &def, depth) {
                    let d = print_ops(&expr(ops.clone()));
                    return Ok((ops, "derived", format!("{d}   from `{def}`")));
                }
            }
        }
        match w {
            Which::Before => {
                let why = if self.after.defs.contains_key(n) || self.after.params.contains_key(n) {
                    format!("%{n} is defined differently after the pass, and nothing relates the two (--map)")
                } else {
                    format!(
                        "%{n} is not in the after file, and nothing relates it to the new operands (--map)"
                    )
                };
                Err(("undefined", why))
            }
            Which::After => {
                let ops = self.root(format!("new %{n}"), ty);
                Ok((
                    ops,
                    "unconstrained",
                    format!("%{n}: a new value, any value (related to the before file only by a --map that names it)"),
                ))
            }
        }
    }

    /// A value both files define alike, derived through its (pure)
    /// definition rather than taken as a free root, while the budget
    /// lasts: a pass may rely on what the definition implies (a `zext`'s
    /// zero upper bits, an `and`'s mask) when it folds a user, and a root
    /// forgets that, which made correct folds look wrong
    /// (correlated-propagation folding `udiv %v, -1` to 0 where `%v` is a
    /// zero-extended `i16`). The same definition gives the same term on both
    /// sides, so this adds facts, never a difference. Loads, calls, phis and
    /// parameters stay roots; so does everything once `shared_budget`
    /// definitions have been expanded for this record (a DAG of shared
    /// values would otherwise grow as a tree).
    fn derive_shared(
        &mut self,
        w: Which,
        ty: &Type,
        n: &str,
        depth: usize,
    ) -> Option<(Vec<OpNode>, &'static str, String)> {
        let key = format!("%{n} {ty}");
        if let Some(m) = self.shared_memo.get(&key).cloned() {
            let (ops, detail) = m?;
            for o in &ops {
                if let Op::Arg(k, _) = o.op {
                    self.note_use(k as usize);
                }
            }
            return Some((ops, "same value", detail));
        }
        let derived = (|| {
            if self.shared_budget == 0 || depth >= 16 {
                return None;
            }
            let def = self.side(w).defs.get(n).cloned()?;
            if !opcode(&def).is_some_and(|o| PURE.contains(&o.as_str())) {
                return None;
            }
            self.shared_budget -= 1;
            let outer = self.shared_def.replace(def.clone());
            let ops = self.derive(w, ty, &def, depth);
            self.shared_def = outer;
            let ops = ops?;
            let d = print_ops(&expr(ops.clone()));
            Some((
                ops,
                format!("%{n} (defined alike in both, derived: {d}   from `{def}`)"),
            ))
        })();
        self.shared_memo.insert(key, derived.clone());
        derived.map(|(ops, d)| (ops, "same value", d))
    }

    /// The roots of a classic translation's holes, appended to `map` after
    /// the operands: the upper bits of an operand are a root of their own,
    /// shared by every record whose operand resolves alike (the same
    /// register contents); the generic signedness is one root (one debugger
    /// reads both records). A fixed [`Conventions`] puts a value in their
    /// place instead.
    fn hole_maps(&mut self, holes: &[Hole], map: &mut Vec<(u64, MapRhs, Span)>) {
        let base = map.len();
        for (j, h) in holes.iter().enumerate() {
            let ops = match h {
                Hole::UpperBits { operand, bits } => {
                    let of = match map.get(*operand) {
                        Some((_, MapRhs::Expr(e), _)) => Some(e.ops.clone()),
                        _ => None,
                    };
                    let width = of.as_deref().and_then(poison::term).map(|(_, w)| w);
                    let upper = if self.conventions.before_only && self.side_now != Which::Before {
                        Upper::Free
                    } else {
                        self.conventions.upper
                    };
                    match (upper, of, width) {
                        // A boolean's register holds 0 or 1 (LLVM's
                        // ZeroOrOneBooleanContent), never sign copies.
                        (Upper::Zero, _, _) | (Upper::SignCopies, _, Some(1)) => {
                            vec![node(Op::Constant(Type::Int(*bits), Literal::Int(0.into())))]
                        }
                        // Bits `w..w+bits` of the operand sign-extended.
                        (Upper::SignCopies, Some(mut of), Some(w)) => {
                            let wide = Type::Int(w + bits);
                            of.push(node(Op::SExt(wide.clone())));
                            of.push(node(Op::Constant(wide, Literal::Int(w.into()))));
                            of.push(node(Op::AShr));
                            of.push(node(Op::Convert(Type::Int(*bits))));
                            of
                        }
                        (_, of, _) => {
                            let of = match of {
                                Some(o) => print_ops(&expr(o)),
                                None => format!("an undefined operand {operand}"),
                            };
                            self.root(format!("{UPPER}{of}"), &Type::Int(*bits))
                        }
                    }
                }
                Hole::Signedness => match self.conventions.signedness {
                    Some(v) => vec![node(Op::Constant(Type::Int(1), Literal::Int(v.into())))],
                    None => self.root(SIGNEDNESS.to_string(), &Type::Int(1)),
                },
            };
            map.push(((base + j) as u64, MapRhs::Expr(expr(ops)), Span::default()));
        }
    }

    fn user_map(&mut self, m: &UserMap) -> Res {
        let Some((b, names)) = &m.rhs else {
            return Err(("--map", format!("{} (by hand)", m.text.trim())));
        };
        let args = b.args.clone().unwrap_or_default();
        let mut map = Vec::new();
        for (k, (a, name)) in args.iter().zip(names).enumerate() {
            let r = self.resolve(Which::After, &a.ty, &Value::Local(name.clone()), 0);
            map.push((
                k as u64,
                match r {
                    Ok((ops, _, _)) => MapRhs::Expr(expr(ops)),
                    Err(_) => MapRhs::Undefined,
                },
                Span::default(),
            ));
        }
        let tmp = Pair {
            name: String::new(),
            before: b.clone(),
            after: None,
            map,
            dl: self.dl.clone(),
            notes: Vec::new(),
            source: None,
            span: Span::default(),
            value_args: Vec::new(),
            pre: Vec::new(),
        };
        let ops = validate::substitute(&tmp).ops;
        Ok((ops, "--map", format!("{} (by hand)", m.text.trim())))
    }

    /// Two operands `T a, b` of a comparison or binary instruction.
    fn two(
        &mut self,
        w: Which,
        p: &mut Parser,
        def: &str,
        depth: usize,
    ) -> Option<(Type, Vec<OpNode>, Vec<OpNode>)> {
        let t = p.parse_type().ok()?;
        let a = value_tok(p, def)?;
        if !p.eat(&Tok::Comma) {
            return None;
        }
        let b = value_tok(p, def)?;
        if p.peek().is_some() {
            return None;
        }
        let (a, _, _) = self.resolve(w, &t, &a, depth + 1).ok()?;
        let (b, _, _) = self.resolve(w, &t, &b, depth + 1).ok()?;
        Some((t, a, b))
    }

    /// `icmp PRED iN a, b` or `icmp PRED ptr a, b` (every predicate) as an `i1`.
    fn derive_icmp(
        &mut self,
        w: Which,
        ty: &Type,
        p: &mut Parser,
        def: &str,
        depth: usize,
    ) -> Option<Vec<OpNode>> {
        let pred = match p.peek()? {
            Tok::Ident(x) => x.clone(),
            _ => return None,
        };
        p.bump();
        let (t, mut a, mut b) = self.two(w, p, def, depth)?;
        if *ty != Type::Int(1) {
            return None;
        }
        // Pointers compare as their addresses, integers of the address
        // space's pointer width (as the classic translation reads a pointer
        // operand), so that a compare a pass sinks and salvages over the
        // same pointers relates to them (`icmp ne ptr %p, null`). Only a
        // compare both files define alike: one the pass folded may rest on
        // what diopter does not model (a load or store through `%p`, an
        // `alloca`, a `nonnull` attribute: then `%p` is not null), and
        // left undefined it keeps such a fold inconclusive.
        let wd = match t.int_width() {
            Some(wd) => wd,
            None if t.is_ptr() && self.shared_def.as_deref() == Some(def) => {
                let wd = self.dl.bitsizeof(&t, self.types).ok()?;
                a.push(node(Op::Reinterpret(Type::Int(wd))));
                b.push(node(Op::Reinterpret(Type::Int(wd))));
                wd
            }
            None => return None,
        };
        use classic::{flip, less_than, not_equal};
        let v = match pred.as_str() {
            "eq" => flip(not_equal(&a, &b, wd), wd),
            "ne" => not_equal(&a, &b, wd),
            "ult" | "slt" => less_than(&a, &b, wd, pred == "slt"),
            "ugt" | "sgt" => less_than(&b, &a, wd, pred == "sgt"),
            "ule" | "sle" => flip(less_than(&b, &a, wd, pred == "sle"), wd),
            "uge" | "sge" => flip(less_than(&a, &b, wd, pred == "sge"), wd),
            _ => return None,
        };
        let mut v = v;
        if wd > 1 {
            v.push(node(Op::Convert(Type::Int(1))));
        }
        Some(v)
    }

    /// `select i1 c, iN a, iN b`.
    fn derive_select(
        &mut self,
        w: Which,
        ty: &Type,
        p: &mut Parser,
        def: &str,
        depth: usize,
    ) -> Option<Vec<OpNode>> {
        let ct = p.parse_type().ok()?;
        let c = value_tok(p, def)?;
        if ct != Type::Int(1) || !p.eat(&Tok::Comma) {
            return None;
        }
        // `select i1 %c, T %a, T %b`: each arm with its type.
        let t = p.parse_type().ok()?;
        let a = value_tok(p, def)?;
        if !p.eat(&Tok::Comma) || p.parse_type().ok()? != t {
            return None;
        }
        let b = value_tok(p, def)?;
        if p.peek().is_some() || t != *ty {
            return None;
        }
        let wd = t.int_width()?;
        let (a, _, _) = self.resolve(w, &t, &a, depth + 1).ok()?;
        let (b, _, _) = self.resolve(w, &t, &b, depth + 1).ok()?;
        let (c, _, _) = self.resolve(w, &ct, &c, depth + 1).ok()?;
        Some(classic::select(&c, &a, &b, wd))
    }

    /// `getelementptr [flags] T, ptr p, iK c, ...` with constant indices: the
    /// address plus the constant byte offset the data layout gives.
    fn derive_gep(
        &mut self,
        w: Which,
        ty: &Type,
        p: &mut Parser,
        def: &str,
        depth: usize,
    ) -> Option<Vec<OpNode>> {
        while matches!(p.peek(), Some(Tok::Ident(f)) if matches!(f.as_str(), "inbounds" | "nuw" | "nusw"))
        {
            p.bump();
        }
        let elem = p.parse_type().ok()?;
        if !p.eat(&Tok::Comma) {
            return None;
        }
        let pt = p.parse_type().ok()?;
        if !pt.is_ptr() || pt != *ty {
            return None;
        }
        let base = value_tok(p, def)?;
        let mut idx: Vec<i128> = Vec::new();
        while p.eat(&Tok::Comma) {
            let it = p.parse_type().ok()?;
            it.int_width()?;
            match value_tok(p, def)? {
                Value::Const(c) => idx.push(c.parse().ok()?),
                _ => return None,
            }
        }
        if p.peek().is_some() {
            return None;
        }
        // Byte offset: the first index steps over whole elements, the others
        // into arrays and struct fields.
        let size = |t: &Type| {
            self.dl
                .alloc_bits(t, self.types)
                .ok()
                .map(|b| i128::from(b / 8))
        };
        let mut off: i128 = idx.first().copied().unwrap_or(0) * size(&elem)?;
        let mut cur = elem.clone();
        for &i in idx.iter().skip(1) {
            let next = match diopter_semantics::types::resolve(&cur, self.types, 0).ok()? {
                Type::Array { elem, .. } | Type::Vector { elem, .. } => {
                    off += i * size(&elem)?;
                    (*elem).clone()
                }
                Type::Struct { fields, .. } => {
                    let k = usize::try_from(i).ok()?;
                    let offs = self.dl.struct_field_offsets(&cur, self.types).ok()?;
                    off += i128::from(*offs.get(k)? / 8);
                    fields.get(k)?.clone()
                }
                _ => return None,
            };
            cur = next;
        }
        let pb = self.dl.bitsizeof(&pt, self.types).ok()?;
        let (mut v, _, _) = self.resolve(w, &pt, &base, depth + 1).ok()?;
        let modulus = 1i128.checked_shl(pb as u32).unwrap_or(0);
        let off = if modulus > 0 {
            off.rem_euclid(modulus)
        } else {
            off
        };
        v.push(node(Op::Reinterpret(Type::Int(pb))));
        v.push(node(Op::Constant(Type::Int(pb), Literal::Int(off.into()))));
        v.push(node(Op::Add));
        v.push(node(Op::Reinterpret(pt)));
        Some(v)
    }

    /// Records where `op [flags] a, b` (or the cast of `a` to `to`) at
    /// width `wd` yields a value (`poison::conditions`); nothing for
    /// operands outside `poison::term`'s subset.
    fn guard(
        &mut self,
        op: &str,
        flags: &[String],
        a: &[OpNode],
        b: Option<&[OpNode]>,
        wd: u64,
        to: Option<&Type>,
    ) {
        let Some((ta, wa)) = poison::term(a) else {
            return;
        };
        let tb = match b.map(poison::term) {
            Some(Some((t, wb))) if wb == wa => Some(t),
            Some(_) => return,
            None => None,
        };
        if wa == wd {
            self.pre
                .extend(poison::conditions(op, flags, &ta, tb.as_ref(), wd, to));
        }
    }

    /// The value an instruction computes, over its operands' resolutions.
    fn derive(&mut self, w: Which, ty: &Type, def: &str, depth: usize) -> Option<Vec<OpNode>> {
        let toks = lexed(def);
        let op = match toks.get(2)?.tok {
            Tok::Ident(ref o) => o.clone(),
            _ => return None,
        };
        let mut p = Parser::new(&toks[3..], def.len());
        match op.as_str() {
            "icmp" => return self.derive_icmp(w, ty, &mut p, def, depth),
            "select" => return self.derive_select(w, ty, &mut p, def, depth),
            "freeze" => {
                // The frozen value of a value diopter reads as defined.
                let t = p.parse_type().ok()?;
                let v = value_tok(&mut p, def)?;
                if t != *ty || p.peek().is_some() {
                    return None;
                }
                return self.resolve(w, &t, &v, depth + 1).ok().map(|r| r.0);
            }
            "getelementptr" => return self.derive_gep(w, ty, &mut p, def, depth),
            _ => {}
        }
        let flags = ["nuw", "nsw", "exact", "disjoint", "nneg"];
        let mut seen: Vec<String> = Vec::new();
        while let Some(Tok::Ident(f)) = p.peek() {
            if !flags.contains(&f.as_str()) {
                break;
            }
            seen.push(f.clone());
            p.bump();
        }
        let src_ty = p.parse_type().ok()?;
        let first = value_tok(&mut p, def)?;
        let bin = match op.as_str() {
            "add" => Some(Op::Add),
            "sub" => Some(Op::Sub),
            "mul" => Some(Op::Mul),
            "sdiv" => Some(Op::Div),
            "srem" => Some(Op::Mod),
            "shl" => Some(Op::Shl),
            "lshr" => Some(Op::LShr),
            "ashr" => Some(Op::AShr),
            "and" => Some(Op::And),
            "or" => Some(Op::Or),
            "xor" => Some(Op::Xor),
            _ => None,
        };
        if matches!(op.as_str(), "udiv" | "urem") {
            let wd = src_ty.int_width()?;
            if !p.eat(&Tok::Comma) || src_ty != *ty {
                return None;
            }
            let second = value_tok(&mut p, def)?;
            if p.peek().is_some() {
                return None;
            }
            let (a, _, _) = self.resolve(w, &src_ty, &first, depth + 1).ok()?;
            let (b, _, _) = self.resolve(w, &src_ty, &second, depth + 1).ok()?;
            self.guard(&op, &seen, &a, Some(&b), wd, None);
            let o = if op == "udiv" { Op::Div } else { Op::Mod };
            return Some(classic::unsigned_binary(&a, &b, wd, o));
        }
        if let Some(bop) = bin {
            if !p.eat(&Tok::Comma) || src_ty != *ty || !src_ty.is_int() {
                return None;
            }
            let second = value_tok(&mut p, def)?;
            if p.peek().is_some() {
                return None;
            }
            let (mut a, _, _) = self.resolve(w, &src_ty, &first, depth + 1).ok()?;
            let (b, _, _) = self.resolve(w, &src_ty, &second, depth + 1).ok()?;
            if let Some(wd) = src_ty.int_width() {
                self.guard(&op, &seen, &a, Some(&b), wd, None);
            }
            a.extend(b);
            a.push(node(bop));
            return Some(a);
        }
        if !p.eat_ident("to") {
            return None;
        }
        let to = p.parse_type().ok()?;
        if to != *ty || p.peek().is_some() {
            return None;
        }
        let (mut a, _, _) = self.resolve(w, &src_ty, &first, depth + 1).ok()?;
        if let Some(wd) = src_ty.int_width() {
            self.guard(&op, &seen, &a, None, wd, Some(&to));
        }
        let bits = |t: &Type| self.dl.bitsizeof(t, self.types).ok();
        match op.as_str() {
            "zext" if src_ty.is_int() && to.is_int() => a.push(node(Op::ZExt(to))),
            "sext" if src_ty.is_int() && to.is_int() => a.push(node(Op::SExt(to))),
            "trunc" if src_ty.is_int() && to.is_int() => a.push(node(Op::Convert(to))),
            "addrspacecast" if src_ty.is_ptr() && to.is_ptr() => a.push(node(Op::Convert(to))),
            "ptrtoint" | "inttoptr" | "bitcast" => {
                let (sb, tb) = (bits(&src_ty)?, bits(&to)?);
                if sb == tb {
                    a.push(node(Op::Reinterpret(to)));
                    a.push(node(Op::Read));
                } else if op != "bitcast" {
                    a.push(node(Op::Convert(to)));
                } else {
                    return None;
                }
            }
            _ => return None,
        }
        Some(a)
    }
}

/// A value in an instruction's text: `%x`, `@g`, a constant word or number.
fn value_tok(p: &mut Parser, _text: &str) -> Option<Value> {
    let v = match p.peek()? {
        Tok::Local(n) => Value::Local(n.clone()),
        Tok::Global(n) => Value::Global(n.clone()),
        Tok::Ident(w) if w == "poison" => Value::Poison,
        Tok::Ident(w) if w == "undef" => Value::Undef,
        Tok::Ident(w) if matches!(w.as_str(), "true" | "false" | "null" | "zeroinitializer") => {
            Value::Const(w.clone())
        }
        Tok::Int(n) => Value::Const(n.clone()),
        _ => return None,
    };
    p.bump();
    Some(v)
}

fn print_operand(o: &Operand) -> String {
    diopter_semantics::syntax::module_print::print_operand(o)
}

/// A record's expression as DIOps over its operands (then its holes), or
/// why it has none.
struct SideExpr {
    args: Vec<ArgDecl>,
    expr: Expr,
    holes: Vec<Hole>,
    classic: bool,
}

/// Why a record has no expression to compare: a message, and for a classic
/// expression the diagnostic pointing into its file.
type SideErr = (String, Option<Diagnostic>);

/// The classic `!DIExpression(DW_OP_...)` node a record names, if any.
pub fn classic_node<'m>(m: &'m Module, v: &'m MdValue) -> Option<&'m Node> {
    let n = match v {
        MdValue::Node(n) => n,
        MdValue::Ref(id) => match &m.metadata.get(id)?.value {
            MdValue::Node(n) => n,
            _ => return None,
        },
        _ => return None,
    };
    (n.name == "DIExpression").then_some(&**n)
}

/// Every classic expression of a module's debug records read, with the
/// diagnostics of those LLVM's reader or verifier rejects.
pub fn classic_errors(m: &Module) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for f in &m.functions {
        for b in &f.blocks {
            for i in &b.insts {
                if let InstKind::DbgRecord(r) = &i.kind {
                    let exprs =
                        std::iter::once(&r.expr).chain(r.assign.as_ref().map(|a| &a.address_expr));
                    for e in exprs {
                        if let Some(n) = classic_node(m, e) {
                            if let Err(d) = parse_classic(&n.raw, n.span.start) {
                                if !out.iter().any(|x: &Diagnostic| x.span == d.span) {
                                    out.push(d);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// The `DW_OP_LLVM_fragment` of a record's classic expression, for telling
/// a variable's fragments apart.
fn classic_fragment(m: &Module, r: &DbgRecord) -> Option<(u64, u64)> {
    let n = classic_node(m, &r.expr)?;
    parse_classic(&n.raw, n.span.start).ok()?.fragment()
}

fn side_expr(m: &Module, r: &DbgRecord, dl: &DataLayout) -> Result<SideExpr, SideErr> {
    let decl = |o: &Operand| o.ty.clone().map(|t| (t, o.is_poison() || o.is_undef()));
    if let Some(n) = classic_node(m, &r.expr) {
        let e = parse_classic(&n.raw, n.span.start).map_err(|d| {
            (
                format!("a classic expression LLVM rejects: {}", d.message),
                Some(d),
            )
        })?;
        let ops: Option<Vec<(Type, bool)>> = r.location.operands().iter().map(decl).collect();
        let ops = ops.ok_or_else(|| ("an operand without a type".to_string(), None))?;
        let var = r
            .variable_id()
            .and_then(|v| object_bits(m, v, dl))
            .ok_or_else(|| {
                (
                    "the variable's size is unknown (no sized type)".to_string(),
                    None,
                )
            })?;
        let use_ = match r.kind {
            RecordKind::Declare => RecordUse::Declare,
            _ => RecordUse::Value,
        };
        let t = classic::translate(&e, use_, &ops, var, dl, &m.types, *n.span)
            .map_err(|d| (format!("no meaning given: {}", d.message), Some(d)))?;
        return Ok(SideExpr {
            args: t.bare.args.clone().unwrap_or_default(),
            expr: t.bare.expr,
            holes: t.holes,
            classic: true,
        });
    }
    let e = m
        .resolve_expr(&r.expr)
        .ok_or_else(|| ("no DIOp expression".to_string(), None))?;
    let args = r
        .location
        .operands()
        .iter()
        .filter_map(|o| {
            o.ty.clone().map(|ty| ArgDecl {
                ty,
                poison: o.is_poison(),
                span: Span::default(),
            })
        })
        .collect();
    Ok(SideExpr {
        args,
        expr: e.clone(),
        holes: Vec::new(),
        classic: false,
    })
}

fn all_poison(r: &DbgRecord) -> bool {
    let ops = r.location.operands();
    !ops.is_empty() && ops.iter().all(|o| o.is_poison() || o.is_undef())
        || matches!(r.location, DbgLocation::Md(_))
}

/// A built pair: the pair or why not, the operand notes, the roots, whether
/// it assumes an unknown operand, and a classic expression's diagnostic.
type Built = (
    Result<Pair, String>,
    Vec<OperandNote>,
    Vec<Root>,
    bool,
    Option<(&'static str, Diagnostic)>,
);

/// Builds the pair of one matched couple of records.
#[allow(clippy::too_many_arguments)]
fn build(
    before: (&Module, &Function),
    after: (&Module, &Function),
    rb: &DbgRecord,
    ra: &DbgRecord,
    name: String,
    dl: &DataLayout,
    maps: &[UserMap],
    conventions: Conventions,
    facts: &[Fact],
) -> Built {
    let types = &before.0.types;
    let mut cx = Ctx {
        before: Side::new(before.1),
        after: Side::new(after.1),
        function: before.1.name.clone(),
        dl,
        types,
        maps,
        roots: Vec::new(),
        notes: Vec::new(),
        assumes_unknown: false,
        shared: BTreeMap::new(),
        before_uses: BTreeSet::new(),
        after_uses: BTreeSet::new(),
        before_direct: BTreeSet::new(),
        side_now: Which::After,
        pre: Vec::new(),
        shared_budget: SHARED_BUDGET,
        shared_memo: BTreeMap::new(),
        shared_def: None,
        conventions,
        caller_args: crate::callsites::constant_args(before.0, before.1),
        opaque: BTreeMap::new(),
    };
    let fail = |why: String, d: Option<Diagnostic>, side: &'static str| {
        (
            Err(why),
            Vec::new(),
            Vec::new(),
            false,
            d.map(|d| (side, d)),
        )
    };
    let sb = match side_expr(before.0, rb, dl) {
        Ok(e) => e,
        Err((why, d)) => return fail(format!("before-record: {why}"), d, "before"),
    };
    // After: the expression, unless the record is killed (all operands poison,
    // or a classic expression over poison): poisoned.
    let sa = match side_expr(after.0, ra, dl) {
        Ok(e) if e.classic && all_poison(ra) => None,
        Ok(e) => Some(e),
        Err(_) if all_poison(ra) => None,
        Err((why, d)) => return fail(format!("after-record: {why}"), d, "after"),
    };
    // Both records classic (or the after one killed): see `value_args` below.
    let classic = sb.classic && sa.as_ref().is_none_or(|a| a.classic);
    if let (Some(fb), Some(fa)) = (
        classic_fragment(before.0, rb),
        classic_fragment(after.0, ra),
    ) {
        if fb != fa {
            return fail(format!("the records describe different fragments of the variable ({fb:?} and {fa:?} bits)"), None, "before");
        }
    }
    // Operands, each with its type.
    let typed = |ops: Vec<Operand>, side: &str| -> Result<Vec<(Type, Operand)>, String> {
        ops.into_iter()
            .map(|o| match &o.ty {
                Some(t) => Ok((t.clone(), o)),
                None => Err(format!("{side}-record: an operand without a type")),
            })
            .collect()
    };
    let ob = match typed(rb.location.operands(), "before") {
        Ok(o) => o,
        Err(e) => return fail(e, None, "before"),
    };
    let oa = match typed(ra.location.operands(), "after") {
        Ok(o) => o,
        Err(e) => return fail(e, None, "after"),
    };
    // After-operands first, so that the after-record's own operands are the
    // first roots.
    let mut amap = Vec::new();
    if let Some(sa) = &sa {
        amap = cx.map_operands(Which::After, &oa);
        cx.hole_maps(&sa.holes, &mut amap);
    }
    cx.side_now = Which::Before;
    let mut bmap = cx.map_operands(Which::Before, &ob);
    cx.hole_maps(&sb.holes, &mut bmap);
    // What the branches on the way to the before-record established
    // (`paths`); preconditions, like flags, only under classic records.
    if classic {
        for f in facts {
            cx.path_fact(f);
        }
    }
    // An unconstrained new operand that no before-operand is related to.
    if cx
        .roots
        .iter()
        .enumerate()
        .any(|(k, r)| r.key.starts_with("new ") && !cx.before_uses.contains(&k))
    {
        cx.assumes_unknown = true;
    }
    // A constant diopter does not read (`getelementptr (...)`, `ptrtoint
    // (ptr @f to i64)`) on one side only: nothing relates it to the other
    // side's values (a fold of it into another form would be "refuted").
    if cx.opaque.values().any(|[b, a]| b != a) {
        cx.assumes_unknown = true;
    }
    // A load or call both files keep, which is itself an operand of the
    // before-record and which the after-record no longer reads: the pass
    // replaced the value's uses by what it knows of the callee or the
    // memory (a library function's value at constant arguments, a stored
    // value), which diopter does not model, so a difference rests on an
    // unknown relation. (A call reached through a rewritten instruction
    // stays a free value: BDCE's `and i32 %call, 4` -> `and i32 0, 4` is
    // a rewrite diopter judges.)
    if cx.before_direct.difference(&cx.after_uses).any(|&k| {
        cx.roots[k]
            .key
            .strip_prefix('%')
            .and_then(|n| cx.before.defs.get(n))
            .and_then(|d| opcode(d))
            .is_some_and(|o| UNCHANGED_ALIKE.contains(&o.as_str()))
    }) {
        cx.assumes_unknown = true;
    }
    let bare = |args: Vec<ArgDecl>, e: Expr| Bare {
        args: Some(args),
        referrer: None,
        var_type: None,
        expr: e,
        explicit_dialect: false,
        wrapped: false,
    };
    let after = sa.map(|sa| {
        let tmp = Pair {
            name: String::new(),
            before: bare(sa.args, sa.expr),
            after: None,
            map: amap,
            dl: dl.clone(),
            notes: Vec::new(),
            source: None,
            span: Span::default(),
            value_args: Vec::new(),
            pre: Vec::new(),
        };
        let e = validate::substitute(&tmp);
        // Every root is a hole of the after-expression, also those only the
        // before side names (a user map naming a new operand the
        // after-record does not use).
        let roots = cx
            .roots
            .iter()
            .map(|r| ArgDecl {
                ty: r.ty.clone(),
                poison: false,
                span: Span::default(),
            })
            .collect();
        bare(roots, e)
    });
    // Under classic expressions every root is a plain value (an implicit
    // location holding any value of its type), not a location of every
    // storage shape: upstream LLVM's operand is an SSA value that the
    // expression computes with (DW_OP_* read it as a value), the question is
    // the value the record shows, and a debugger's write is outside what
    // LLVM's records promise. Over every shape, a pair that reads an operand
    // the other side does not was "refuted" by that operand's location
    // failing to read (memory out of bounds) with the values equal (BDCE
    // dropping an `and` whose bits a later `ashr` shifts out), or by a write
    // alone, and each such query took Z3 seconds. Records in the DIOp
    // dialect keep locations of every shape: AMD's DIOpArg is the operand's
    // location, writes included. The classic translation's own inputs
    // (upper bits of a narrow register, the generic type's signedness) are
    // values in both.
    let value_args = cx
        .roots
        .iter()
        .enumerate()
        .filter(|(_, r)| classic || r.key.starts_with(UPPER) || r.key == SIGNEDNESS)
        .map(|(k, _)| k as u64)
        .collect();
    let pair = Pair {
        name,
        before: bare(sb.args, sb.expr),
        after,
        map: bmap,
        dl: dl.clone(),
        notes: Vec::new(),
        source: None,
        span: Span::default(),
        value_args,
        // Preconditions need every hole a value: classic records only.
        pre: if classic { cx.pre } else { Vec::new() },
    };
    (Ok(pair), cx.notes, cx.roots, cx.assumes_unknown, None)
}

/// The roots a record's operands resolve to (for matching by operands).
fn operand_roots(
    before: (&Module, &Function),
    after: (&Module, &Function),
    r: &DbgRecord,
    w: Which,
    dl: &DataLayout,
    maps: &[UserMap],
) -> BTreeSet<String> {
    let mut cx = Ctx {
        before: Side::new(before.1),
        after: Side::new(after.1),
        function: before.1.name.clone(),
        dl,
        types: &before.0.types,
        maps,
        roots: Vec::new(),
        notes: Vec::new(),
        assumes_unknown: false,
        shared: BTreeMap::new(),
        before_uses: BTreeSet::new(),
        after_uses: BTreeSet::new(),
        before_direct: BTreeSet::new(),
        side_now: Which::After,
        pre: Vec::new(),
        shared_budget: 0,
        shared_memo: BTreeMap::new(),
        shared_def: None,
        conventions: Conventions::default(),
        // Matching needs no preconditions.
        caller_args: BTreeMap::new(),
        opaque: BTreeMap::new(),
    };
    for o in r.location.operands() {
        if let Some(t) = &o.ty {
            let _ = cx.resolve(w, t, &o.value, 0);
        }
    }
    cx.roots
        .iter()
        .filter(|r| !r.key.starts_with("new "))
        .map(|r| r.key.clone())
        .collect()
}

/// Matches and builds the pairs of two modules.
pub fn compare(
    before: &Module,
    after: &Module,
    dl: &DataLayout,
    maps: &[UserMap],
) -> FileComparison {
    let mut out = FileComparison::default();
    let real = |m: &Module| -> Vec<usize> {
        (0..m.functions.len())
            .filter(|&i| !m.functions[i].implicit || !m.functions[i].blocks.is_empty())
            .collect()
    };
    let after_fns = real(after);
    for fi in real(before) {
        let fb = &before.functions[fi];
        let Some(fa) = after_fns
            .iter()
            .map(|&i| &after.functions[i])
            .find(|f| f.name == fb.name)
        else {
            out.functions_removed.push(fb.name.clone());
            for (var, r, at) in records(before, fb) {
                out.unmatched_before.push(Unmatched {
                    function: fb.name.clone(),
                    variable: var,
                    kind: r.kind,
                    at,
                });
            }
            continue;
        };
        let rb = records(before, fb);
        let ra = records(after, fa);
        let mut vars: Vec<String> = Vec::new();
        for (v, _, _) in rb.iter().chain(ra.iter()) {
            if !vars.contains(v) {
                vars.push(v.clone());
            }
        }
        for var in vars {
            let bs: Vec<&(String, &DbgRecord, usize)> =
                rb.iter().filter(|(v, _, _)| *v == var).collect();
            let as_: Vec<&(String, &DbgRecord, usize)> =
                ra.iter().filter(|(v, _, _)| *v == var).collect();
            if !bs.is_empty() && as_.is_empty() {
                out.coverage_losses
                    .push((fb.name.clone(), var.clone(), bs.len()));
            }
            let mut used_a = vec![false; as_.len()];
            let mut pairs: Vec<(usize, usize, &'static str)> = Vec::new();
            let mut left_b = Vec::new();
            // (1) kind with kind, in order.
            for kind in [RecordKind::Value, RecordKind::Declare, RecordKind::Assign] {
                let b_k: Vec<usize> = (0..bs.len()).filter(|&i| bs[i].1.kind == kind).collect();
                let a_k: Vec<usize> = (0..as_.len()).filter(|&i| as_[i].1.kind == kind).collect();
                for (n, &i) in b_k.iter().enumerate() {
                    match a_k.get(n) {
                        Some(&j) => {
                            used_a[j] = true;
                            pairs.push((i, j, "kind and position"));
                        }
                        None => left_b.push(i),
                    }
                }
            }
            left_b.sort();
            // (2) same operands, (3) first left over.
            for i in left_b {
                let want =
                    operand_roots((before, fb), (after, fa), bs[i].1, Which::Before, dl, maps);
                let by_ops = (0..as_.len()).find(|&j| {
                    !used_a[j]
                        && !want.is_empty()
                        && operand_roots(
                            (before, fb),
                            (after, fa),
                            as_[j].1,
                            Which::After,
                            dl,
                            maps,
                        ) == want
                });
                let j = by_ops.map(|j| (j, "operands")).or_else(|| {
                    (0..as_.len())
                        .find(|&j| !used_a[j])
                        .map(|j| (j, "position"))
                });
                match j {
                    Some((j, how)) => {
                        used_a[j] = true;
                        pairs.push((i, j, how));
                    }
                    None => out.unmatched_before.push(Unmatched {
                        function: fb.name.clone(),
                        variable: var.clone(),
                        kind: bs[i].1.kind,
                        at: bs[i].2,
                    }),
                }
            }
            for (j, used) in used_a.iter().enumerate() {
                if !used {
                    out.unmatched_after.push(Unmatched {
                        function: fb.name.clone(),
                        variable: var.clone(),
                        kind: as_[j].1.kind,
                        at: as_[j].2,
                    });
                }
            }
            pairs.sort();
            for (n, (i, j, how)) in pairs.into_iter().enumerate() {
                let name = format!("@{} {} #{}", fb.name, var, n);
                let facts = paths::facts_at(fb, bs[i].2);
                let one = |c: Conventions| {
                    build(
                        (before, fb),
                        (after, fa),
                        bs[i].1,
                        as_[j].1,
                        name.clone(),
                        dl,
                        maps,
                        c,
                        &facts,
                    )
                };
                let (pair, operands, roots, assumes_unknown, diagnostic) =
                    one(Conventions::default());
                let upper = roots.iter().any(|r| r.key.starts_with(UPPER));
                let open = upper || roots.iter().any(|r| r.key == SIGNEDNESS);
                let variants = if open && pair.is_ok() {
                    VARIANTS
                        .iter()
                        .filter_map(|(r, c)| Some((*r, one(*c).0.ok()?)))
                        .collect()
                } else {
                    Vec::new()
                };
                let witnesses = if upper && pair.is_ok() {
                    REFINEMENT_WITNESSES
                        .iter()
                        .filter_map(|c| one(*c).0.ok())
                        .collect()
                } else {
                    Vec::new()
                };
                out.matched.push(Matched {
                    function: fb.name.clone(),
                    variable: var.clone(),
                    before_kind: bs[i].1.kind,
                    after_kind: as_[j].1.kind,
                    before_at: bs[i].2,
                    after_at: as_[j].2,
                    matched_by: how,
                    operands,
                    roots,
                    pair,
                    assumes_unknown,
                    diagnostic,
                    variants,
                    witnesses,
                });
            }
        }
    }
    for &i in &after_fns {
        let f = &after.functions[i];
        if !before.functions.iter().any(|g| g.name == f.name) {
            out.functions_added.push(f.name.clone());
        }
    }
    out
}

/// Why a matched pair was not validated ([`validate_matched`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotValidated {
    /// The records give no pair ([`Matched::pair`]'s reason).
    #[error("{0}")]
    NoPair(String),
    /// The pair does not check: the checker's diagnostics, their messages
    /// shown.
    #[error(
        "{}",
        .0.iter().map(|d| d.message.as_str()).collect::<Vec<_>>().join("; ")
    )]
    IllFormed(Vec<Diagnostic>),
}

/// Validates a matched pair (checked first: a pair that does not check is
/// reported with the checker's messages).
pub fn validate_matched(
    m: &Matched,
    cfg: &ProveConfig,
    types: &TypeTable,
) -> Result<Outcome, NotValidated> {
    let p = m
        .pair
        .as_ref()
        .map_err(|e| NotValidated::NoPair(e.clone()))?;
    validate::check_pair(p, types).map_err(NotValidated::IllFormed)?;
    Ok(validate::validate(p, types, cfg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calls_range_comes_from_its_return_attribute_or_the_counting_intrinsics() {
        let i32t = Type::Int(32);
        // The return attribute, not the argument's.
        let t = call_range(
            "%lz = tail call range(i32 0, 33) i32 @f(i32 range(i32 5, 6) %x)",
            0,
            &i32t,
        );
        assert_eq!(t, param_range("range(i32 0, 33)", 0));
        assert!(t.is_some());
        assert_eq!(
            call_range("%p = call i32 @llvm.ctpop.i32(i32 %x)", 2, &i32t),
            param_range("range(i32 0, 33)", 2)
        );
        // Any other call, or an argument's range alone, says nothing.
        assert_eq!(
            call_range("%r = call i32 @f(i32 range(i32 5, 6) %x)", 0, &i32t),
            None
        );
        assert_eq!(call_range("%r = add i32 %a, 1", 0, &i32t), None);
    }
}
