//! The stack effects of every DIOp operation, as data.
//!
//! The spec (`seeds/000_1994fad33ac38a46.txt`, section "DIExpr") opens every
//! operation with a *specification line* such as
//!
//! ```text
//! DIOpAdd() { L1:T L2:T -> L:T }
//! ```
//!
//! giving the operation's parameters, the stack entries it pops (inputs) and
//! the ones it pushes (outputs). This module keeps those lines as text in one
//! file, `specs/stack-effects.txt`, parses them with a grammar written from the
//! spec's BNF (`specs.pest`), and exposes the parsed [`Signature`]s. The
//! checker and the reference interpreter derive arity, type bindings, equality
//! assertions and result types from them instead of hard-coding them, so a
//! stack effect is written once, in the spec's own notation.
//!
//! # Reading a signature
//!
//! * `inputs` and `outputs` list the top of the stack first, as the spec does.
//! * Every binding identifier (`L1`, `T`, `T'`, `N`) is a meta-syntactic
//!   variable. Reading the line left to right (parameters, then inputs, then
//!   outputs), the first mention binds it and every later mention asserts that
//!   it is the identical entity: in `DIOpAdd() { L1:T L2:T -> L:T }` both
//!   operands must have one type and the result has that type too.
//! * A type pattern is a variable, `<N x T>` (a vector of `N` elements of `T`,
//!   `N` itself a variable) or `ptr addrspace(N)` (an opaque pointer into
//!   address space `N`).
//! * **Variadic inputs.** `DIOpComposite(N:index, T:type) { L1:T1 L2:T2 ...
//!   LN:TN -> L:T }` pops `N` entries. It is represented as
//!   `inputs = [L1:T1, L2:T2]` (the elements written before the ellipsis) and
//!   `variadic = Some("N")` (the index parameter giving the count). The last
//!   element `LN:TN` is not stored but checked when parsing: it must be the
//!   same location and type prefixes (`L`, `T`) followed by the parameter's
//!   name; [`Signature::variadic_last`] rebuilds it and [`Signature::inputs_for`]
//!   generates the `N` inputs `L1:T1 … LN:TN` for a concrete count. Each `TM`
//!   is a distinct variable, so the elements' types are bound independently.
//!
//! # The data file
//!
//! One specification per line, prefixed by its origin: `[seed:LINE]` (copied
//! verbatim from the spec; `LINE` is the line of the stack-effects half),
//! `[amd]` (the live `diexpression` dialect, as AMD's newer document prints
//! it) or `[ours]` (lines no document gives, written per DESIGN.md). `#`
//! starts a comment line. An operation may have several lines (the seed's
//! `DIOpDeref()` and the live `DIOpDeref(T:type)`); they are told apart by
//! name and parameter count, and where even those agree (`DIOpAddrOf`) the
//! seed's comes first: [`lookup`] returns the first in file order and
//! [`lookup_all`] returns every match.
//!
//! # Two grammars
//!
//! The spec's BNF does not accept the spec's own lines. `specs.pest` is the
//! corrected grammar every line here is parsed with; each correction is listed
//! with its reason in [`CORRECTIONS`]:
//!
//! 1. Rule-name typos: `<operation-identifier>` is used but
//!    `<operation-identifer>` is defined; `<binding-identifer>` throughout.
//! 2. `<parameter-binding> ( "," <parameter-binding-list> )+` derives only
//!    lists in which every parameter is followed by a comma; we accept a
//!    separated list without a trailing comma (one parameter, or several).
//! 3. Parameters may also be separated by blanks alone (the spec's
//!    `DIOpConstant(T:type V:literal)`).
//! 4. `<stack-binding> ( " " <stack-binding-list> )+` demands a space after
//!    every binding; we accept a blank-separated list without one.
//! 5. Optional blanks between tokens (the BNF has none, every printed line
//!    has them).
//! 6. The ellipsis `L1:T1 L2:T2 ... LN:TN` in an input list.
//! 7. Parenthesised bindings `(L:T)`, AMD's spelling.
//! 8. Type patterns `<N x T>` and `ptr addrspace(N)` in the type position.
//! 9. The parameter kind `unsigned` (AMD's `DIOpExtend(N:unsigned)`).
//!
//! `specs_as_printed.pest` transcribes the printed BNF as literally as pest
//! allows; [`accepted_by_printed_bnf`] runs it, and a test records which data
//! lines it rejects (every line with a parameter, every line in AMD's
//! spelling) for the spec-errata report.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use pest::error::LineColLocation;
use pest::iterators::Pair;
use pest::Parser;

// Each grammar gets its own module because pest_derive generates a `Rule`
// enum next to the parser struct.
mod corrected {
    #[derive(pest_derive::Parser)]
    #[grammar = "specs.pest"]
    pub struct SpecParser;
}

mod printed {
    #[derive(pest_derive::Parser)]
    #[grammar = "specs_as_printed.pest"]
    pub struct PrintedParser;
}

use corrected::{Rule, SpecParser};

/// The data file, compiled in so that the signatures cannot go missing at run
/// time and a change to the file rebuilds the crate.
const DATA: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/specs/stack-effects.txt"
));

/// Where the data file lives, for messages.
const DATA_PATH: &str = "specs/stack-effects.txt";

/// Every difference between the BNF the spec prints and the grammar this
/// module parses with (`specs.pest`): what the spec prints, and what we accept
/// instead and why.
pub const CORRECTIONS: &[(&str, &str)] = &[
    (
        "<syntax> ::= <operation-identifier> \"(\" ...  /  <operation-identifer> ::= [A-Za-z]+",
        "One rule, `operation_identifier`: the rule used is spelled differently from the rule \
         defined, so read literally <operation-identifier> is undefined and nothing parses.",
    ),
    (
        "<binding-identifer> (used and defined so; the prose says <binding-identifier>)",
        "One rule, `binding_identifier`, with the same definition [A-Z][A-Z0-9]* \"'\"*: a \
         spelling slip, consistent within the BNF, so it changes no accepted line.",
    ),
    (
        "<parameter-binding-list> ::= \"\" | <parameter-binding> ( \",\" <parameter-binding-list> )+",
        "Zero or more parameters separated by \",\", no trailing comma. As printed, every \
         parameter must be followed by at least one \",\" (the innermost list can only be \
         \"\"), so `T:type,` parses but the spec's own `(T:type)` and `(N:index, T:type)` do not.",
    ),
    (
        "\",\" as the only separator between parameters",
        "A \",\" or blanks alone: the spec prints `DIOpConstant(T:type V:literal)` with no comma, \
         and that line is kept verbatim in the data file.",
    ),
    (
        "<stack-binding-list> ::= \"\" | <stack-binding> ( \" \" <stack-binding-list> )+",
        "Zero or more bindings separated by blanks, no trailing separator. As printed, every \
         binding must be followed by a space; the spec's lines satisfy that only because a \
         blank happens to precede \"->\" and \"}\", and `{ L:T->L:T }` would be rejected.",
    ),
    (
        "no whitespace anywhere except the \" \" between stack bindings",
        "Optional blanks between any two tokens (outside identifiers), at least one blank \
         between stack bindings and around the ellipsis: every printed line has blanks after \
         \"{\", around \"->\" and after \",\", and puts the stack effects on a new line.",
    ),
    (
        "DIOpComposite(N:index, T:type) { L1:T1 L2:T2 ... LN:TN -> L:T } (no \"...\" in the BNF)",
        "An input list may end in `... LN:TN`: the elements written first are `L1:T1`, \
         `L2:T2`, …, and the last names the index parameter (`N`) giving the number of \
         inputs. Only inputs: the one variadic operation pushes a single entry.",
    ),
    (
        "<stack-binding> ::= <binding-identifer> \":\" <binding-identifer>",
        "A binding may be parenthesised, `(L:T)`: AMD's newer document writes every binding so \
         (`DIOpTypeObject(T:type) { -> (L:T) }`).",
    ),
    (
        "a <binding-identifer> as the type of a stack binding",
        "A type pattern: a binding identifier, `<N x T>` (a vector of N elements of T, N an \
         identifier; the element a variable or a pointer) or `ptr addrspace(N)`: AMD's lines \
         for DIOpExtend, DIOpSelect, DIOpAddrOf and DIOpDeref constrain the type's shape.",
    ),
    (
        "<parameter-binding-kind> ::= \"type\" | \"index\" | \"literal\" | \"addrspace\"",
        "Also \"unsigned\": AMD's `DIOpExtend(N:unsigned)` (a positive element count).",
    ),
];

/// The kind of argument a parameter accepts (`<parameter-binding-kind>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamKind {
    /// `type`: an LLVM type.
    Type,
    /// `index`: a non-negative literal integer.
    Index,
    /// `literal`: an LLVM literal value expression.
    Literal,
    /// `addrspace`: a target-specific address space identifier.
    Addrspace,
    /// `unsigned`: an unsigned integer (AMD's `DIOpExtend(N:unsigned)`).
    Unsigned,
}

impl ParamKind {
    /// The keyword as written in a specification line.
    pub fn as_str(self) -> &'static str {
        match self {
            ParamKind::Type => "type",
            ParamKind::Index => "index",
            ParamKind::Literal => "literal",
            ParamKind::Addrspace => "addrspace",
            ParamKind::Unsigned => "unsigned",
        }
    }

    fn from_keyword(keyword: &str) -> ParamKind {
        match keyword {
            "type" => ParamKind::Type,
            "index" => ParamKind::Index,
            "literal" => ParamKind::Literal,
            "addrspace" => ParamKind::Addrspace,
            "unsigned" => ParamKind::Unsigned,
            // The grammar admits exactly the keywords above.
            other => unreachable!("grammar admitted parameter kind {other:?}"),
        }
    }
}

/// A positional parameter: `N:index`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The binding identifier the argument is bound to (`N`, `T'`).
    pub name: String,
    /// What the argument may be.
    pub kind: ParamKind,
}

/// The type position of a stack binding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypePat {
    /// A type variable: `T`, `T'`, `TM`.
    Var(String),
    /// `<N x T>`: a vector of `count` elements of `elem`; `count` is a
    /// binding identifier (bound by a parameter or an earlier mention).
    Vector { count: String, elem: Box<TypePat> },
    /// `ptr addrspace(N)`: an opaque pointer into the address space bound to
    /// `addrspace`.
    Ptr { addrspace: String },
}

/// One stack entry: `L:T` binds `loc` to the entry's location description and
/// matches its type against `ty`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackBinding {
    pub loc: String,
    pub ty: TypePat,
}

/// Where a specification line comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The spec; `line` is the 1-based line of the stack-effects half in
    /// `seeds/000_1994fad33ac38a46.txt`.
    Seed { line: usize },
    /// AMD's newer document (the live `diexpression` dialect).
    Amd,
    /// Written by us; also every line given to [`parse_spec_line`].
    Ours,
}

/// One parsed specification line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The operation's name, e.g. `"DIOpAdd"`.
    pub op: String,
    pub params: Vec<Param>,
    /// In the spec's order: top of stack first.
    pub inputs: Vec<StackBinding>,
    /// `Some(param_name)` when the inputs are `L1:T1 ... LN:TN`: then `inputs`
    /// holds the pattern's first element(s) as written and the count comes
    /// from that index parameter.
    pub variadic: Option<String>,
    /// In the spec's order: top of stack first.
    pub outputs: Vec<StackBinding>,
    pub origin: Origin,
    /// The line exactly as in the data file (without the tag).
    pub text: String,
}

impl Signature {
    /// The parameter named `name`, if any.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// For a variadic signature, the prefixes of its element names: `("L",
    /// "T")` for `L1:T1 ... LN:TN`.
    pub fn variadic_prefixes(&self) -> Option<(&str, &str)> {
        self.variadic.as_ref()?;
        let first = self.inputs.first()?;
        let TypePat::Var(ty) = &first.ty else {
            return None;
        };
        Some((split_index(&first.loc)?.0, split_index(ty)?.0))
    }

    /// For a variadic signature, its last element as written (`LN:TN`).
    pub fn variadic_last(&self) -> Option<StackBinding> {
        let count = self.variadic.as_ref()?;
        let (loc, ty) = self.variadic_prefixes()?;
        Some(StackBinding {
            loc: format!("{loc}{count}"),
            ty: TypePat::Var(format!("{ty}{count}")),
        })
    }

    /// The inputs of one use of the operation, top of stack first. For a
    /// variadic signature whose count argument is `count`, the `count`
    /// bindings `L1:T1 … Lcount:Tcount`; otherwise `inputs` (and `count` is
    /// ignored).
    pub fn inputs_for(&self, count: usize) -> Vec<StackBinding> {
        match self.variadic_prefixes() {
            Some((loc, ty)) => (1..=count)
                .map(|m| StackBinding {
                    loc: format!("{loc}{m}"),
                    ty: TypePat::Var(format!("{ty}{m}")),
                })
                .collect(),
            None => self.inputs.clone(),
        }
    }
}

impl fmt::Display for ParamKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.name, self.kind)
    }
}

impl fmt::Display for TypePat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypePat::Var(name) => f.write_str(name),
            TypePat::Vector { count, elem } => write!(f, "<{count} x {elem}>"),
            TypePat::Ptr { addrspace } => write!(f, "ptr addrspace({addrspace})"),
        }
    }
}

/// `L:T`, unparenthesised.
impl fmt::Display for StackBinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.loc, self.ty)
    }
}

/// The canonical form of the line: parameters separated by `", "`, bindings
/// in the spec's bare `L:T` form when every type is a variable, and all in
/// AMD's `(L:T)` form when some type is a vector or pointer pattern (where
/// the blank inside the type would otherwise read like a separator). The
/// output parses back to an equal signature.
impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let params: Vec<String> = self.params.iter().map(Param::to_string).collect();
        write!(f, "{}({}) {{ ", self.op, params.join(", "))?;
        let parenthesise = self
            .inputs
            .iter()
            .chain(&self.outputs)
            .any(|b| !matches!(b.ty, TypePat::Var(_)));
        let show = |b: &StackBinding| {
            if parenthesise {
                format!("({b})")
            } else {
                b.to_string()
            }
        };
        let mut inputs: Vec<String> = self.inputs.iter().map(show).collect();
        if let Some(last) = self.variadic_last() {
            inputs.push("...".to_string());
            inputs.push(show(&last));
        }
        for input in &inputs {
            write!(f, "{input} ")?;
        }
        f.write_str("-> ")?;
        for output in &self.outputs {
            write!(f, "{} ", show(output))?;
        }
        f.write_str("}")
    }
}

/// Every specification in the data file, in file order. Parsed once. The data
/// file is part of the program: a line that does not parse is a bug, so this
/// panics with the line and pest's message (a test makes sure it cannot).
pub fn all() -> &'static [Signature] {
    static ALL: OnceLock<Vec<Signature>> = OnceLock::new();
    ALL.get_or_init(|| parse_data(DATA).unwrap_or_else(|message| panic!("{message}")))
}

/// The first signature in file order for operation `op` (`"DIOpAdd"`) with
/// `nparams` parameters.
pub fn lookup(op: &str, nparams: usize) -> Option<&'static Signature> {
    all()
        .iter()
        .find(|s| s.op == op && s.params.len() == nparams)
}

/// Every signature for `op` with `nparams` parameters, in file order (the
/// seed's before the live dialect's where both exist).
pub fn lookup_all(op: &str, nparams: usize) -> &'static [&'static Signature] {
    // An index of the parsed table, built with it: the lines themselves are
    // still read from the specs file only.
    type Index = HashMap<&'static str, HashMap<usize, Vec<&'static Signature>>>;
    static INDEX: OnceLock<Index> = OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut m: Index = HashMap::new();
        for s in all() {
            m.entry(s.op.as_str())
                .or_default()
                .entry(s.params.len())
                .or_default()
                .push(s);
        }
        m
    });
    index
        .get(op)
        .and_then(|by_count| by_count.get(&nparams))
        .map_or(&[], Vec::as_slice)
}

/// Why a specification line does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Against the grammar: where (1-based, in the trimmed line), and
    /// pest's message with the line and a caret under the place.
    #[error("{rendered}")]
    Syntax {
        line: usize,
        column: usize,
        rendered: String,
    },
    /// The variadic inputs (`L1:T1 ... LN:TN`), which the grammar reads as
    /// any bindings around an ellipsis, do not continue one pattern.
    #[error("`...` needs elements before it")]
    NoElements,
    #[error("variadic element `{0}` is not of the form L1:T1 (names ending in an index)")]
    NotIndexed(StackBinding),
    /// Element `position` (1-based) is `found`, not `expected`.
    #[error("variadic element {position} is `{found}`, expected `{expected}`")]
    Element {
        position: usize,
        found: StackBinding,
        expected: String,
    },
    #[error("the element after `...` is `{found}`, expected `{expected}`")]
    Tail {
        found: StackBinding,
        expected: String,
    },
    #[error("the count `{count}` after `...` is a {kind} parameter, not an index")]
    CountNotIndex { count: String, kind: ParamKind },
    #[error("the count `{count}` after `...` is not a parameter of the operation")]
    CountNotParameter { count: String },
}

/// Parses one specification line (without a `[tag]`) with the corrected
/// grammar. The result's origin is [`Origin::Ours`] and its `text` the line
/// without surrounding blanks.
pub fn parse_spec_line(line: &str) -> Result<Signature, SpecError> {
    let text = line.trim();
    let mut pairs = SpecParser::parse(Rule::specification, text).map_err(|e| {
        let (line, column) = match e.line_col {
            LineColLocation::Pos(at) | LineColLocation::Span(at, _) => at,
        };
        SpecError::Syntax {
            line,
            column,
            rendered: e.renamed_rules(describe_rule).to_string(),
        }
    })?;
    let spec = pairs.next().expect("pest returns the specification pair");
    build_signature(spec, text)
}

/// Whether the BNF exactly as the spec prints it (`specs_as_printed.pest`,
/// read charitably where it is silent: see that file) accepts `line`.
pub fn accepted_by_printed_bnf(line: &str) -> bool {
    printed::PrintedParser::parse(printed::Rule::specification, line).is_ok()
}

/// Names for pest's "expected ..." messages that a reader of the spec knows.
fn describe_rule(rule: &Rule) -> String {
    match rule {
        Rule::operation_identifier => "an operation name such as `DIOpAdd`",
        Rule::binding_identifier => "a binding identifier such as `L1` or `T'`",
        Rule::parameter_binding_kind => {
            "a parameter kind (`type`, `index`, `literal`, `addrspace`, `unsigned`)"
        }
        Rule::parameter_binding => "a parameter binding such as `N:index`",
        Rule::stack_binding => "a stack binding such as `L:T` or `(L:T)`",
        Rule::type_pattern => "a type pattern (`T`, `<N x T>`, `ptr addrspace(N)`)",
        Rule::type_variable => "a type variable such as `T`",
        Rule::vector_type => "a vector pattern `<N x T>`",
        Rule::pointer_type => "a pointer pattern `ptr addrspace(N)`",
        Rule::ellipsis => "`...`",
        Rule::syntax => "the operation's syntax, e.g. `DIOpAdd()`",
        Rule::stack_effects => "stack effects `{ inputs -> outputs }`",
        Rule::EOI => "end of line",
        other => return format!("{other:?}"),
    }
    .to_string()
}

/// Parses the whole data file; `Err` names the first bad line.
fn parse_data(data: &str) -> Result<Vec<Signature>, String> {
    let mut signatures = Vec::new();
    for (index, raw) in data.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: String| format!("{DATA_PATH}:{}: {raw}\n{message}", index + 1);
        let (origin, spec) = split_tag(line).map_err(bad)?;
        let mut signature = parse_spec_line(spec).map_err(|e| bad(e.to_string()))?;
        signature.origin = origin;
        signatures.push(signature);
    }
    Ok(signatures)
}

/// Splits `[tag] specification` into the origin and the specification.
fn split_tag(line: &str) -> Result<(Origin, &str), String> {
    let rest = line
        .strip_prefix('[')
        .ok_or("a specification line starts with a tag: [seed:LINE], [amd] or [ours]")?;
    let (tag, spec) = rest.split_once(']').ok_or("unterminated tag")?;
    let origin = match tag {
        "amd" => Origin::Amd,
        "ours" => Origin::Ours,
        _ => {
            let number = tag
                .strip_prefix("seed:")
                .ok_or_else(|| format!("unknown tag [{tag}]"))?;
            let line = number
                .parse()
                .map_err(|_| format!("[seed:LINE] needs a line number, not {number:?}"))?;
            Origin::Seed { line }
        }
    };
    Ok((origin, spec.trim()))
}

fn build_signature(spec: Pair<'_, Rule>, text: &str) -> Result<Signature, SpecError> {
    let mut op = String::new();
    let mut params = Vec::new();
    let mut inputs = Vec::new();
    let mut variadic_tail = None;
    let mut outputs = Vec::new();
    for part in spec.into_inner() {
        match part.as_rule() {
            Rule::syntax => {
                for piece in part.into_inner() {
                    match piece.as_rule() {
                        Rule::operation_identifier => op = piece.as_str().to_string(),
                        Rule::parameter_binding_list => {
                            params = piece.into_inner().map(build_param).collect()
                        }
                        other => unreachable!("syntax holds {other:?}"),
                    }
                }
            }
            Rule::stack_effects => {
                for list in part.into_inner() {
                    // `inputs` and `outputs` each hold exactly one list.
                    let is_inputs = list.as_rule() == Rule::inputs;
                    let list = list.into_inner().next().expect("a binding list");
                    let mut bindings = Vec::new();
                    let mut after_ellipsis = false;
                    for item in list.into_inner() {
                        match item.as_rule() {
                            Rule::ellipsis => after_ellipsis = true,
                            Rule::stack_binding if after_ellipsis => {
                                variadic_tail = Some(build_binding(item))
                            }
                            Rule::stack_binding => bindings.push(build_binding(item)),
                            other => unreachable!("binding list holds {other:?}"),
                        }
                    }
                    if is_inputs {
                        inputs = bindings;
                    } else {
                        outputs = bindings;
                    }
                }
            }
            Rule::EOI => {}
            other => unreachable!("specification holds {other:?}"),
        }
    }
    let variadic = match variadic_tail {
        Some(tail) => Some(check_variadic(&inputs, &tail, &params)?),
        None => None,
    };
    Ok(Signature {
        op,
        params,
        inputs,
        variadic,
        outputs,
        origin: Origin::Ours,
        text: text.to_string(),
    })
}

fn build_param(pair: Pair<'_, Rule>) -> Param {
    let mut inner = pair.into_inner();
    let name = inner.next().expect("parameter name").as_str().to_string();
    let kind = ParamKind::from_keyword(inner.next().expect("parameter kind").as_str());
    Param { name, kind }
}

fn build_binding(pair: Pair<'_, Rule>) -> StackBinding {
    let mut inner = pair.into_inner();
    let loc = inner.next().expect("location name").as_str().to_string();
    let ty = build_type(inner.next().expect("type pattern"));
    StackBinding { loc, ty }
}

/// Builds a `TypePat` from a `type_pattern` or one of its alternatives (a
/// vector's element type is an alternative without the wrapper).
fn build_type(pair: Pair<'_, Rule>) -> TypePat {
    match pair.as_rule() {
        Rule::type_pattern => build_type(pair.into_inner().next().expect("a type")),
        Rule::type_variable => TypePat::Var(pair.as_str().to_string()),
        Rule::pointer_type => TypePat::Ptr {
            addrspace: pair
                .into_inner()
                .next()
                .expect("an address space")
                .as_str()
                .to_string(),
        },
        Rule::vector_type => {
            let mut inner = pair.into_inner();
            let count = inner.next().expect("a count").as_str().to_string();
            let elem = Box::new(build_type(inner.next().expect("an element type")));
            TypePat::Vector { count, elem }
        }
        other => unreachable!("type position holds {other:?}"),
    }
}

/// `"L12"` -> `("L", "12")`: an identifier's trailing decimal index.
fn split_index(name: &str) -> Option<(&str, &str)> {
    let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit());
    (!prefix.is_empty() && prefix.len() < name.len()).then(|| name.split_at(prefix.len()))
}

/// Checks that `written ... tail` is `P1:Q1 P2:Q2 ... PN:QN` with `N` an index
/// (or unsigned) parameter, and returns `N`. The grammar only knows there is
/// an ellipsis; whether the names continue a pattern is checked here.
fn check_variadic(
    written: &[StackBinding],
    tail: &StackBinding,
    params: &[Param],
) -> Result<String, SpecError> {
    let element = |b: &StackBinding| -> Option<(String, String, String, String)> {
        let TypePat::Var(ty) = &b.ty else { return None };
        let (loc_prefix, loc_index) = split_index(&b.loc)?;
        let (ty_prefix, ty_index) = split_index(ty)?;
        Some((
            loc_prefix.to_string(),
            loc_index.to_string(),
            ty_prefix.to_string(),
            ty_index.to_string(),
        ))
    };
    let (loc_prefix, ty_prefix) = {
        let first = written.first().ok_or(SpecError::NoElements)?;
        let (loc, _, ty, _) = element(first).ok_or_else(|| SpecError::NotIndexed(first.clone()))?;
        (loc, ty)
    };
    for (position, binding) in written.iter().enumerate() {
        let expected = (position + 1).to_string();
        match element(binding) {
            Some((loc, li, ty, ti))
                if loc == loc_prefix && ty == ty_prefix && li == expected && ti == expected => {}
            _ => {
                return Err(SpecError::Element {
                    position: position + 1,
                    found: binding.clone(),
                    expected: format!("{loc_prefix}{expected}:{ty_prefix}{expected}"),
                })
            }
        }
    }
    let count = tail
        .loc
        .strip_prefix(loc_prefix.as_str())
        .filter(|count| tail.ty == TypePat::Var(format!("{ty_prefix}{count}")))
        .ok_or_else(|| SpecError::Tail {
            found: tail.clone(),
            expected: format!("{loc_prefix}N:{ty_prefix}N"),
        })?;
    match params.iter().find(|p| p.name == count) {
        Some(Param {
            kind: ParamKind::Index | ParamKind::Unsigned,
            ..
        }) => Ok(count.to_string()),
        Some(p) => Err(SpecError::CountNotIndex {
            count: count.to_string(),
            kind: p.kind,
        }),
        None => Err(SpecError::CountNotParameter {
            count: count.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn var(name: &str) -> TypePat {
        TypePat::Var(name.to_string())
    }

    fn binding(loc: &str, ty: TypePat) -> StackBinding {
        StackBinding {
            loc: loc.to_string(),
            ty,
        }
    }

    /// The 17 operations the spec defines, in the order it defines them.
    const SEED_OPS: [&str; 17] = [
        "DIOpReferrer",
        "DIOpArg",
        "DIOpConstant",
        "DIOpConvert",
        "DIOpReinterpret",
        "DIOpOffset",
        "DIOpBitOffset",
        "DIOpComposite",
        "DIOpAddrOf",
        "DIOpDeref",
        "DIOpRead",
        "DIOpAdd",
        "DIOpSub",
        "DIOpMul",
        "DIOpDiv",
        "DIOpShr",
        "DIOpShl",
    ];

    #[test]
    fn every_data_line_parses() {
        let signatures = parse_data(DATA).unwrap_or_else(|message| panic!("{message}"));
        let count =
            |pred: fn(&Origin) -> bool| signatures.iter().filter(|s| pred(&s.origin)).count();
        assert_eq!(count(|o| matches!(o, Origin::Seed { .. })), 17);
        assert_eq!(count(|o| *o == Origin::Amd), 8);
        assert_eq!(count(|o| *o == Origin::Ours), 9);
        assert_eq!(all(), &signatures[..]);
    }

    #[test]
    fn text_is_the_data_line_without_its_tag() {
        let data_lines: Vec<&str> = DATA
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with('['))
            .collect();
        assert_eq!(data_lines.len(), all().len());
        for (line, signature) in data_lines.iter().zip(all()) {
            assert!(line.ends_with(&format!("] {}", signature.text)), "{line}");
        }
    }

    #[test]
    fn every_seed_operation_is_present_with_its_line() {
        let seeds: Vec<&Signature> = all()
            .iter()
            .filter(|s| matches!(s.origin, Origin::Seed { .. }))
            .collect();
        let ops: Vec<&str> = seeds.iter().map(|s| s.op.as_str()).collect();
        assert_eq!(ops, SEED_OPS);
        let mut previous = 0;
        for s in seeds {
            let Origin::Seed { line } = s.origin else {
                unreachable!()
            };
            // The spec defines the operations in this order, so their lines
            // increase; all lie in the DIExpr section (lines 589..960).
            assert!(line > previous && (589..960).contains(&line), "{s:?}");
            previous = line;
            assert!(s.text.starts_with(&format!("{}(", s.op)), "{}", s.text);
            assert!(s.text.contains('{'), "{}", s.text);
        }
    }

    #[test]
    fn display_reparses_to_an_equal_signature() {
        for signature in all() {
            let shown = signature.to_string();
            let reparsed =
                parse_spec_line(&shown).unwrap_or_else(|e| panic!("{shown} does not parse:\n{e}"));
            assert_eq!(
                Signature {
                    origin: signature.origin,
                    text: signature.text.clone(),
                    ..reparsed
                },
                *signature,
                "{shown}"
            );
        }
    }

    #[test]
    fn display_of_seed_lines_is_the_seed_text_but_for_constants_comma() {
        for s in all()
            .iter()
            .filter(|s| matches!(s.origin, Origin::Seed { .. }))
        {
            if s.op == "DIOpConstant" {
                assert_eq!(s.to_string(), "DIOpConstant(T:type, V:literal) { -> L:T }");
            } else {
                assert_eq!(s.to_string(), s.text);
            }
        }
    }

    #[test]
    fn add_is_binary_on_one_type() {
        let add = lookup("DIOpAdd", 0).expect("DIOpAdd");
        assert_eq!(add.origin, Origin::Seed { line: 874 });
        assert_eq!(
            add.inputs,
            [binding("L1", var("T")), binding("L2", var("T"))]
        );
        assert_eq!(add.outputs, [binding("L", var("T"))]);
        assert_eq!(add.variadic, None);
        assert!(lookup("DIOpAdd", 1).is_none());
    }

    #[test]
    fn composite_is_variadic_on_n() {
        let composite = lookup("DIOpComposite", 2).expect("DIOpComposite");
        assert_eq!(composite.variadic.as_deref(), Some("N"));
        assert_eq!(
            composite.params[0],
            Param {
                name: "N".into(),
                kind: ParamKind::Index
            }
        );
        assert_eq!(
            composite.inputs,
            [binding("L1", var("T1")), binding("L2", var("T2"))]
        );
        assert_eq!(composite.variadic_prefixes(), Some(("L", "T")));
        assert_eq!(composite.variadic_last(), Some(binding("LN", var("TN"))));
        assert_eq!(
            composite.inputs_for(3),
            [
                binding("L1", var("T1")),
                binding("L2", var("T2")),
                binding("L3", var("T3"))
            ]
        );
        assert_eq!(composite.inputs_for(1), [binding("L1", var("T1"))]);
        assert_eq!(composite.outputs, [binding("L", var("T"))]);
        // Non-variadic signatures ignore the count.
        let add = lookup("DIOpAdd", 0).unwrap();
        assert_eq!(add.inputs_for(7), add.inputs);
        assert_eq!(add.variadic_last(), None);
    }

    #[test]
    fn both_deref_forms_are_kept() {
        let seed = lookup("DIOpDeref", 0).expect("seed DIOpDeref()");
        assert_eq!(seed.origin, Origin::Seed { line: 842 });
        assert_eq!(seed.inputs, [binding("L", var("T"))]);
        let amd = lookup("DIOpDeref", 1).expect("live DIOpDeref(T:type)");
        assert_eq!(amd.origin, Origin::Amd);
        assert_eq!(
            amd.inputs,
            [binding(
                "L",
                TypePat::Ptr {
                    addrspace: "N".into()
                }
            )]
        );
        assert_eq!(amd.outputs, [binding("L'", var("T"))]);
    }

    #[test]
    fn extend_makes_a_vector() {
        let extend = lookup("DIOpExtend", 1).expect("DIOpExtend");
        assert_eq!(extend.origin, Origin::Amd);
        assert_eq!(extend.params[0].kind, ParamKind::Unsigned);
        assert_eq!(
            extend.outputs,
            [binding(
                "L'",
                TypePat::Vector {
                    count: "N".into(),
                    elem: Box::new(var("T"))
                }
            )]
        );
    }

    #[test]
    fn addrof_has_two_lines_seed_first() {
        let both = lookup_all("DIOpAddrOf", 1);
        assert_eq!(both.len(), 2);
        assert_eq!(both[0].origin, Origin::Seed { line: 813 });
        assert_eq!(both[1].origin, Origin::Amd);
        assert_eq!(lookup("DIOpAddrOf", 1), Some(both[0]));
        assert_eq!(both[0].outputs, [binding("L'", var("T'"))]);
        assert_eq!(
            both[1].outputs,
            [binding(
                "L'",
                TypePat::Ptr {
                    addrspace: "N".into()
                }
            )]
        );
    }

    #[test]
    fn operations_with_two_forms_are_exactly_the_expected_ones() {
        // (name, parameter count) pairs listed more than once: a new one
        // would make `lookup` silently prefer one line, so it must be intended.
        let mut seen = HashSet::new();
        let mut repeated = Vec::new();
        for s in all() {
            if !seen.insert((s.op.as_str(), s.params.len())) {
                repeated.push((s.op.as_str(), s.params.len()));
            }
        }
        // Select: AMD's printed line and ours with the verifier's operand order
        // (the checker picks ours explicitly).
        assert_eq!(repeated, [("DIOpSelect", 0), ("DIOpAddrOf", 1)]);
        // Same name, different parameter count: seed and live forms.
        for op in ["DIOpBitOffset", "DIOpDeref"] {
            assert_eq!(lookup(op, 0).unwrap().params.len(), 0);
            assert_eq!(lookup(op, 1).unwrap().origin, Origin::Amd);
        }
    }

    #[test]
    fn ours_lines_have_the_designed_shapes() {
        for op in ["DIOpZExt", "DIOpSExt"] {
            let s = lookup(op, 1).expect(op);
            assert_eq!(s.origin, Origin::Ours);
            assert_eq!(s.params[0].name, "T'");
            assert_eq!(s.inputs, [binding("L", var("T"))]);
            assert_eq!(s.outputs, [binding("L'", var("T'"))]);
        }
        let add = lookup("DIOpAdd", 0).unwrap();
        for op in [
            "DIOpLShr", "DIOpAShr", "DIOpAnd", "DIOpOr", "DIOpXor", "DIOpMod",
        ] {
            let s = lookup(op, 0).expect(op);
            assert_eq!(s.origin, Origin::Ours);
            assert_eq!((&s.inputs, &s.outputs), (&add.inputs, &add.outputs), "{op}");
        }
        assert!(all().iter().all(|s| s.op != "DIOpFragment"));
    }

    #[test]
    fn corrected_grammar_accepts_the_documented_variants() {
        let accepted = [
            "DIOpX(T:type) { L:T -> L:T }",
            "DIOpX( A:type ,B:index  C:literal ) {L:T->L:T}",
            "DIOpX() { -> }",
            "DIOpX() { (L1 : T) L2:T -> (L:<N x ptr addrspace(A)>) }",
            "DIOpX(N:unsigned) { L1:T1 ... LN:TN -> }",
            "DIOpX(K:index) { M1:U1 M2:U2 M3:U3 ... MK:UK -> L:T }",
            "\tDIOpX() { -> L:T }  ",
        ];
        for line in accepted {
            parse_spec_line(line).unwrap_or_else(|e| panic!("{line}:\n{e}"));
        }
        let s = parse_spec_line("DIOpX( A:type ,B:index  C:literal ) {L:T->L:T}").unwrap();
        let names: Vec<&str> = s.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "C"]);
    }

    #[test]
    fn corrected_grammar_rejects_what_it_should() {
        let rejected = [
            ("DIOpX(T:type,) { -> L:T }", "trailing comma"),
            ("DIOpX(T:kind) { -> L:T }", "unknown parameter kind"),
            ("DIOpX(t:type) { -> L:T }", "lower-case binding identifier"),
            ("DIOpX() { L:TL2:T -> L:T }", "bindings not separated"),
            ("DIOpX() { -> L:T ... LN:TN }", "ellipsis among outputs"),
            (
                "DIOpX(N:index) { ... LN:TN -> }",
                "ellipsis with nothing before",
            ),
            (
                "DIOpX(N:index) { L1:T1 L3:T3 ... LN:TN -> }",
                "index skipped",
            ),
            (
                "DIOpX(N:index) { L1:T1 ... LN:TM -> }",
                "type does not follow N",
            ),
            (
                "DIOpX(N:index) { L1:T ... LN:TN -> }",
                "element type has no index",
            ),
            ("DIOpX(N:type) { L1:T1 ... LN:TN -> }", "count is a type"),
            ("DIOpX() { L1:T1 ... LN:TN -> }", "count is not a parameter"),
            ("DIOpX() { -> L:<N x <M x T>> }", "vector of vectors"),
            ("DIOpX() { -> L:ptr }", "pointer without address space"),
            ("DIOpX() { -> L:T } extra", "trailing text"),
            ("DIOpX() -> L:T", "no braces"),
            ("DIOp_X() { -> L:T }", "underscore in operation name"),
        ];
        for (line, why) in rejected {
            assert!(parse_spec_line(line).is_err(), "accepted {line} ({why})");
        }
    }

    #[test]
    fn parse_errors_say_where_and_what() {
        let error = parse_spec_line("DIOpX(T:kind) { -> L:T }").unwrap_err();
        assert!(
            matches!(
                error,
                SpecError::Syntax {
                    line: 1,
                    column: 9,
                    ..
                }
            ),
            "{error:?}"
        );
        let message = error.to_string();
        assert!(message.contains("1:9"), "{message}");
        assert!(message.contains("parameter kind"), "{message}");
        let error = parse_spec_line("DIOpX() { L1:T1 ... LN:TN -> }").unwrap_err();
        assert!(
            matches!(&error, SpecError::CountNotParameter { count } if count == "N"),
            "{error:?}"
        );
        let message = error.to_string();
        assert!(message.contains("not a parameter"), "{message}");
        let message = parse_data("[amd] DIOpX(T:kind) { -> L:T }").unwrap_err();
        assert!(
            message.starts_with("specs/stack-effects.txt:1: [amd]"),
            "{message}"
        );
        assert!(
            parse_data("DIOpX() { -> L:T }").is_err(),
            "line without a tag"
        );
        assert!(
            parse_data("[seed] DIOpX() { -> L:T }").is_err(),
            "seed tag needs a line"
        );
        assert!(
            parse_data("[mine] DIOpX() { -> L:T }").is_err(),
            "unknown tag"
        );
    }

    #[test]
    fn corrections_are_documented() {
        assert_eq!(CORRECTIONS.len(), 10);
        for (printed, accepted) in CORRECTIONS {
            assert!(!printed.is_empty() && !accepted.is_empty());
        }
    }

    /// Which data lines the BNF as printed rejects. Each reason was checked by
    /// hand against the printed BNF (see specs_as_printed.pest for what its
    /// recursion derives). This list belongs in the spec-errata report.
    #[test]
    fn lines_the_printed_bnf_rejects() {
        // A parameter list as printed must end with ","; one without, or with
        // a blank as separator, is rejected.
        const PARAM: &str = "every parameter must be followed by \",\"";
        // AMD's spelling: a binding is <binding-identifer> ":" <binding-identifer>.
        const PARENS: &str = "parenthesised bindings `(L:T)`";
        const EXPECTED_REJECTED: &[(&str, &str)] = &[
            ("DIOpReferrer(T:type) { -> L:T }", PARAM),
            ("DIOpArg(N:index, T:type) { -> L:T }", PARAM),
            (
                "DIOpConstant(T:type V:literal) { -> L:T }",
                "no \",\" after either parameter (nor between them)",
            ),
            ("DIOpConvert(T':type) { L:T -> L':T' }", PARAM),
            ("DIOpReinterpret(T':type) { L:T -> L:T' }", PARAM),
            (
                "DIOpComposite(N:index, T:type) { L1:T1 L2:T2 ... LN:TN -> L:T }",
                "parameters; and `...` is not a stack binding",
            ),
            ("DIOpAddrOf(N:addrspace) { L:T -> L':T' }", PARAM),
            (
                "DIOpTypeObject(T:type) { -> (L:T) }",
                "parameter; parentheses",
            ),
            (
                "DIOpBitOffset(T':type) { (B:I) (L:T) -> (L':T') }",
                "parameter; parentheses",
            ),
            (
                "DIOpByteOffset(T':type) { (B:I) (L:T) -> (L':T') }",
                "parameter; parentheses",
            ),
            (
                "DIOpExtend(N:unsigned) { (L:T) -> (L':<N x T>) }",
                "parameter; kind `unsigned`; parentheses; `<N x T>` is not an identifier",
            ),
            (
                "DIOpSelect() { (LM:TM) (L1:<N x T>) (L0:<N x T>) -> (L:<N x T>) }",
                "parentheses; `<N x T>` is not an identifier",
            ),
            (
                "DIOpSelect() { (L1:<N x T>) (L0:<N x T>) (LM:TM) -> (L:<N x T>) }",
                "parentheses; `<N x T>` is not an identifier",
            ),
            (
                "DIOpAddrOf(N:addrspace) { (L:T) -> (L':ptr addrspace(N)) }",
                "parameter; parentheses; `ptr addrspace(N)` is not an identifier",
            ),
            (
                "DIOpDeref(T:type) { (L:ptr addrspace(N)) -> (L':T) }",
                "parameter; parentheses; `ptr addrspace(N)` is not an identifier",
            ),
            (
                "DIOpPushLane(T:type) { -> (L:T) }",
                "parameter; parentheses",
            ),
            (
                "DIOpZExt(T':type) { (L:T) -> (L':T') }",
                "parameter; parentheses",
            ),
            (
                "DIOpSExt(T':type) { (L:T) -> (L':T') }",
                "parameter; parentheses",
            ),
            ("DIOpLShr() { (L1:T) (L2:T) -> (L:T) }", PARENS),
            ("DIOpAShr() { (L1:T) (L2:T) -> (L:T) }", PARENS),
            ("DIOpAnd() { (L1:T) (L2:T) -> (L:T) }", PARENS),
            ("DIOpOr() { (L1:T) (L2:T) -> (L:T) }", PARENS),
            ("DIOpXor() { (L1:T) (L2:T) -> (L:T) }", PARENS),
            ("DIOpMod() { (L1:T) (L2:T) -> (L:T) }", PARENS),
        ];
        let mut rejected = Vec::new();
        for s in all() {
            let accepted = accepted_by_printed_bnf(&s.text);
            println!(
                "{:<8} {:<12} {}",
                if accepted { "accepts" } else { "REJECTS" },
                match s.origin {
                    Origin::Seed { line } => format!("[seed:{line}]"),
                    Origin::Amd => "[amd]".to_string(),
                    Origin::Ours => "[ours]".to_string(),
                },
                s.text
            );
            if !accepted {
                rejected.push(s.text.as_str());
            }
        }
        let expected: Vec<&str> = EXPECTED_REJECTED.iter().map(|(line, _)| *line).collect();
        assert_eq!(rejected, expected);
        // What is left: the spec's parameterless lines, each of whose bindings
        // is followed by a blank.
        let accepted: Vec<&str> = all()
            .iter()
            .filter(|s| accepted_by_printed_bnf(&s.text))
            .map(|s| s.op.as_str())
            .collect();
        assert_eq!(
            accepted,
            [
                "DIOpOffset",
                "DIOpBitOffset",
                "DIOpDeref",
                "DIOpRead",
                "DIOpAdd",
                "DIOpSub",
                "DIOpMul",
                "DIOpDiv",
                "DIOpShr",
                "DIOpShl"
            ]
        );
    }

    /// The transcription behaves as the printed recursion does: the quirks
    /// that make it reject the spec's lines are the BNF's, not pest's.
    #[test]
    fn printed_bnf_transcription_follows_the_printed_recursion() {
        let accepted = [
            "DIOpX(T:type,) { -> L:T }",
            "DIOpX(N:index, T:type,) { L1:T L2:T -> L:T }",
            "DIOpX(T:type,,) { -> L:T }",
            "DIOpX(T:type,)\n{ -> L:T }",
            "DIOpX() { -> }",
            "DIOpX() {-> L:T }",
            "DIOpX() { L:T\t ->L:T }",
        ];
        for line in accepted {
            assert!(accepted_by_printed_bnf(line), "should accept {line:?}");
        }
        let rejected = [
            ("DIOpX(T:type) { -> L:T }", "no comma after the parameter"),
            (
                "DIOpX(N:index, T:type) { -> L:T }",
                "no comma after the last",
            ),
            ("DIOpX(,) { -> }", "a list cannot start with a comma"),
            ("DIOpX() { -> L:T}", "no space after the binding"),
            ("DIOpX() { L:T-> L:T }", "no space after the binding"),
            ("DIOpX() { L:T\t-> L:T }", "a tab is not the \" \" token"),
            ("DIOpX(N:unsigned,) { -> L:T }", "no kind `unsigned`"),
            ("DIOpX() { -> (L:T) }", "no parentheses"),
        ];
        for (line, why) in rejected {
            assert!(!accepted_by_printed_bnf(line), "accepted {line:?} ({why})");
        }
    }

    /// Exhaustively compares the printed parameter and stack-binding lists
    /// with what the printed recursion derives in closed form: every
    /// parameter followed by one or more commas, every stack binding followed
    /// by blanks holding a space. Guards against PEG's ordered, greedy choice
    /// accepting a different language from the BNF's.
    #[test]
    fn printed_lists_match_their_closed_forms() {
        fn sequences(tokens: &[&'static str], max: usize) -> Vec<Vec<&'static str>> {
            let mut all = vec![vec![]];
            let mut frontier = vec![vec![]];
            for _ in 0..max {
                let mut next = Vec::new();
                for seq in &frontier {
                    for token in tokens {
                        let mut longer: Vec<&str> = seq.clone();
                        longer.push(token);
                        next.push(longer);
                    }
                }
                all.extend(next.iter().cloned());
                frontier = next;
            }
            all
        }
        for seq in sequences(&["T:type", ",", " "], 6) {
            let list = seq.concat();
            // Blanks are free around tokens; drop them, then the list must be
            // (param ","+)*.
            let tokens: Vec<&str> = seq.iter().copied().filter(|t| *t != " ").collect();
            let closed = tokens.is_empty()
                || (tokens[0] == "T:type"
                    && tokens.last() == Some(&",")
                    && tokens.windows(2).all(|w| w != ["T:type", "T:type"]));
            let line = format!("DIOpX({list}) {{ -> }}");
            assert_eq!(accepted_by_printed_bnf(&line), closed, "{line:?}");
        }
        for seq in sequences(&["L:T", " ", "\t"], 6) {
            let list = seq.concat();
            // (binding, blanks holding a space)*: split at bindings.
            // The blanks before the first binding are free (after "{").
            let closed = list.split("L:T").skip(1).all(|gap| gap.contains(' '));
            let line = format!("DIOpX() {{ {list}-> }}");
            assert_eq!(accepted_by_printed_bnf(&line), closed, "{line:?}");
        }
    }
}
