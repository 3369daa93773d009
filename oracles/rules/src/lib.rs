//! Rewrite rules: the rule-file language (`corpus/rules/*.rules`, see
//! `corpus/rules/README.md`), the constant-folding rules made by code, and
//! the [`Instance`]s the prover checks.
//!
//! A [`Rule`] is two postfix patterns ([`pattern::PatOp`]) with holes, type
//! variables of a [`Class`], conditions on types (decided when the variables
//! are bound) and preconditions on constants ([`term::TermPat`]), and the
//! relation it claims. The same `Rule` value serves two users: the prover
//! takes its [`Rule::instances`] (every variable bound over a finite set of
//! types and widths), the simplifier (`crate::simplify`) matches its
//! patterns against expressions of any width. There is no second copy of a
//! rule anywhere: what the prover proves is what the simplifier applies.

pub mod fold;
pub mod instance;
pub mod measure;
pub mod pattern;
pub mod simplify;
pub mod syntax;
pub mod term;
pub mod widths;

use diopter_semantics::ast::{Dialect, Expr, Literal, Op, Span};
use diopter_semantics::check::{self, ArgInfo, Env, ReferrerInfo};
use diopter_semantics::diag::{Diagnostic, Source};
use diopter_semantics::syntax::parser::Parser;
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use diopter_semantics::value::FloatKind;
use instance::{Hole, HoleKind, Instance, Relation, Term};
use pattern::{instantiate_op, subst_type, PatOp};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use term::{Elab, TermPat};

pub use syntax::parse_rules;

/// The integer widths instances are made for, unless the caller says
/// otherwise.
pub const DEFAULT_WIDTHS: &[u64] = &[1, 2, 3, 4, 7, 8, 16, 32, 33, 64];

/// The values parameter holes (`DIOpAddrOf(?n)`) take in instances.
pub const PARAM_VALUES: &[u64] = &[0, 1, 5];

/// What a type variable may stand for (`where T: int`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// `iN`.
    Int,
    /// `half`, `bfloat`, `float`, `double`, `fp128`, `x86_fp80` (instances
    /// are made at all six).
    Float,
    /// An integer or a float.
    Num,
    /// A pointer: opaque in any address space, or typed.
    Ptr,
    /// Any sized type.
    Any,
}

impl Class {
    pub const NAMES: &'static [(&'static str, Class)] = &[
        ("int", Class::Int),
        ("float", Class::Float),
        ("num", Class::Num),
        ("ptr", Class::Ptr),
        ("any", Class::Any),
    ];

    pub fn name(self) -> &'static str {
        Class::NAMES
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("any", |(n, _)| n)
    }

    /// Whether `t` belongs to the class (for the simplifier's matches).
    pub fn contains(self, t: &Type) -> bool {
        match self {
            Class::Int => t.is_int(),
            Class::Float => t.is_float(),
            Class::Num => t.is_int() || t.is_float(),
            Class::Ptr => t.is_ptr(),
            Class::Any => true,
        }
    }

    /// The types instances bind a variable of this class to.
    pub fn samples(self, dialect: Dialect, widths: &[u64]) -> Vec<Type> {
        let ints = || widths.iter().map(|w| Type::Int(*w)).collect::<Vec<_>>();
        let floats = || {
            [
                FloatKind::Half,
                FloatKind::BFloat,
                FloatKind::Float,
                FloatKind::Double,
                FloatKind::Fp128,
                FloatKind::X86Fp80,
            ]
            .into_iter()
            .map(Type::float)
            .collect::<Vec<_>>()
        };
        let ptrs = || {
            let mut v = vec![Type::opaque_ptr(0), Type::opaque_ptr(5)];
            if dialect == Dialect::DiExpr {
                v.push(Type::typed_ptr(Type::Int(32), 0));
                v.push(Type::typed_ptr(Type::Int(8), 5));
            }
            v
        };
        match self {
            Class::Int => ints(),
            Class::Float => floats(),
            Class::Num => {
                let mut v = ints();
                v.extend(floats());
                v
            }
            Class::Ptr => ptrs(),
            Class::Any => {
                let mut v: Vec<Type> = [1, 8, 32, 64]
                    .into_iter()
                    .filter(|w| widths.is_empty() || widths.contains(w) || *w == 32)
                    .map(Type::Int)
                    .collect();
                v.push(Type::float(FloatKind::Half));
                v.push(Type::float(FloatKind::Float));
                v.push(Type::float(FloatKind::Double));
                v.extend(ptrs());
                v.push(Type::Vector {
                    len: 2,
                    elem: Box::new(Type::Int(32)),
                });
                v.push(Type::Struct {
                    fields: vec![Type::Int(32), Type::Int(8)],
                    packed: false,
                });
                v
            }
        }
    }
}

/// Where a rule comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A rule file, with the 1-based line of `rule`.
    File { path: String, line: usize },
    /// Made by code ([`fold`]); the string says by what.
    Generated(String),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::File { path, line } => write!(f, "{path}:{line}"),
            Origin::Generated(s) => write!(f, "generated: {s}"),
        }
    }
}

/// Why a rule has no instance at a binding ([`Rule::instance_or_reason`]);
/// `at` names the binding (`T = i32, ?n = 1, diexpr`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoInstance {
    #[error("hole `?{0}` has no type")]
    UntypedHole(String),
    #[error("a condition at {at}: {source}")]
    Condition { at: String, source: term::TermError },
    #[error("the left side cannot be built at {0}")]
    LeftSide(String),
    #[error("the right side cannot be built at {0}")]
    RightSide(String),
    /// The checker's diagnostics of the left side (the first one shown).
    #[error(
        "the left side is not well-formed at {at}: {}",
        diagnostics.first().map_or("", |d| d.message.as_str())
    )]
    IllFormed {
        at: String,
        diagnostics: Vec<Diagnostic>,
    },
}

/// One rewrite rule.
#[derive(Clone, Debug)]
pub struct Rule {
    pub name: String,
    pub origin: Origin,
    pub relation: Relation,
    /// The dialects the rule is about (both unless the rule says `[diexpr]`
    /// or `[diexpression]`).
    pub dialects: Vec<Dialect>,
    /// Type variables and their classes, in order of declaration.
    pub vars: Vec<(String, Class)>,
    pub lhs: Vec<PatOp>,
    pub rhs: Vec<PatOp>,
    /// Conditions on types only (`width(T) >= 8`), decided when bound.
    pub type_conds: Vec<TermPat>,
    /// Preconditions on constant holes (`?c == 0`).
    pub pre: Vec<TermPat>,
    /// Whether the rule lives under a `refuted/` directory: it is known to be
    /// false, and the prover (and the concrete check) must refute it.
    pub refuted: bool,
    /// Written `lemma`: proved like any rule, never applied by the
    /// simplifier (so it need not shrink the expression).
    pub lemma: bool,
}

/// The bindings of one match or one instance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Binding {
    pub types: BTreeMap<String, Type>,
    pub nums: BTreeMap<String, u64>,
}

/// The width `width(T)` means: an integer's or float's bit width, otherwise
/// `bitsizeof` under `dl`.
pub fn type_width(t: &Type, dl: &DataLayout, types: &TypeTable) -> Option<u64> {
    match t {
        Type::Int(w) => Some(*w),
        Type::Float(k) => Some(k.0.width()),
        _ => dl.bitsizeof(t, types).ok(),
    }
}

/// Reads a literal's tokens at a concrete type.
pub fn parse_literal_at(
    toks: &[diopter_semantics::syntax::lexer::Token],
    ty: &Type,
) -> Option<Literal> {
    let end = toks.last().map_or(0, |t| t.span.end);
    let mut p = Parser::new(toks, end);
    let l = p.parse_literal(ty).ok()?;
    p.at_end().then_some(l)
}

impl Rule {
    /// Whether the rule is known to be false (it is under `refuted/`).
    pub fn expect_refuted(&self) -> bool {
        self.refuted
    }

    /// Why the simplifier does not apply this rule, if it does not: a
    /// lemma, a rule known to be false, or one that does not shrink the
    /// expression (which `load_rule_files` refuses; the prover takes it).
    pub fn not_applied(&self) -> Option<String> {
        if self.lemma {
            Some("a lemma".into())
        } else if self.refuted {
            Some("expected to be refuted".into())
        } else {
            measure::check_rule(self).err().map(|e| e.to_string())
        }
    }

    /// The class of type variable `v`.
    pub fn class_of(&self, v: &str) -> Option<Class> {
        self.vars.iter().find(|(n, _)| n == v).map(|(_, c)| *c)
    }

    /// Parameter holes (`?n` in `DIOpAddrOf(?n)`), in order of appearance.
    pub fn param_holes(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for p in &self.lhs {
            if let PatOp::Op { params, .. } = p {
                for (_, n) in params {
                    if !out.contains(n) {
                        out.push(n.clone());
                    }
                }
            }
        }
        out
    }

    /// Whether the type conditions hold for these bound types.
    pub fn type_conds_hold(&self, b: &Binding, dl: &DataLayout, types: &TypeTable) -> bool {
        self.type_conds.iter().all(|c| {
            let c = c.map_types(&|t| subst_type(t, &b.types));
            term::eval_type_cond(&c, &|t| type_width(t, dl, types))
                .is_some_and(|v| v != num_bigint::BigInt::from(0))
        })
    }

    /// Every instance over `widths` (integer variables) and the widths the
    /// rule's conditions and literals call for ([`widths::derived_widths`]),
    /// the float kinds,
    /// pointer types and a sample of other types, and parameter holes over
    /// [`PARAM_VALUES`]. Instances whose type conditions fail, or whose left
    /// side is not well-formed (so that the rule can never match), are
    /// dropped. Types are sized by LLVM's default data layout.
    pub fn instances(&self, widths: &[u64]) -> Vec<Instance> {
        self.instances_at(widths, false)
    }

    /// [`Rule::instances`], and with `every_width` each type variable that
    /// has derived widths (a type condition or a literal concerns it) also
    /// at every width of [`widths::all_widths`], the other variables at
    /// their samples (`diopter prove --all-widths=bounded`).
    pub fn instances_at(&self, widths: &[u64], every_width: bool) -> Vec<Instance> {
        let mut out = Vec::new();
        self.for_each_binding_at(widths, every_width, |inst| {
            if let Ok(i) = inst {
                out.push(i);
            }
            true
        });
        out
    }

    /// Why no binding at `widths` gives an instance, when some binding
    /// meets the type conditions but none makes a well-typed instance (a
    /// type-class mismatch such as `DIOpAdd` of pointers, or a condition
    /// that is not a boolean): the first binding's reason. `None` when an
    /// instance exists or no binding meets the type conditions.
    pub fn never_instantiates(&self, widths: &[u64]) -> Option<NoInstance> {
        let mut first_reason = None;
        let mut any = false;
        self.for_each_binding(widths, |inst| match inst {
            Ok(_) => {
                any = true;
                false
            }
            Err(m) => {
                first_reason.get_or_insert(m);
                true
            }
        });
        if any {
            None
        } else {
            first_reason
        }
    }

    /// Calls `f` with the instance, or why there is none, at every binding
    /// of the type variables (over `widths` and the derived widths) and
    /// parameter holes that meets
    /// the type conditions, until `f` returns false.
    fn for_each_binding(
        &self,
        widths: &[u64],
        f: impl FnMut(Result<Instance, NoInstance>) -> bool,
    ) {
        self.for_each_binding_at(widths, false, f)
    }

    /// [`Rule::for_each_binding`], with `every_width` as in
    /// [`Rule::instances_at`].
    fn for_each_binding_at(
        &self,
        widths: &[u64],
        every_width: bool,
        mut f: impl FnMut(Result<Instance, NoInstance>) -> bool,
    ) {
        let dl = DataLayout::llvm_default();
        let table = TypeTable::default();
        let params = self.param_holes();
        let mut derived = widths::derived_widths(self, widths);
        if every_width {
            let concerned = widths::derived_widths(self, &[]);
            for (v, ws) in concerned.per_var {
                if !ws.is_empty() {
                    derived.per_var.entry(v).or_default().extend(
                        widths::all_widths()
                            .into_iter()
                            .filter(|w| !widths.contains(w)),
                    );
                }
            }
        }
        for &dialect in &self.dialects {
            let base: Vec<Vec<Type>> = self
                .vars
                .iter()
                .map(|(_, c)| c.samples(dialect, widths))
                .collect();
            // The listed widths' product, then each variable at each of its
            // derived widths with the others at their samples, then the
            // bindings next to a condition's boundary (see `widths`).
            let mut specs: Vec<Vec<Vec<Type>>> = vec![base.clone()];
            for (i, (v, _)) in self.vars.iter().enumerate() {
                for w in derived.per_var.get(v).into_iter().flatten() {
                    let mut spec = base.clone();
                    spec[i] = vec![Type::Int(*w)];
                    specs.push(spec);
                }
            }
            for b in &derived.bindings {
                let mut spec = base.clone();
                for (i, (v, _)) in self.vars.iter().enumerate() {
                    if let Some(t) = b.get(v) {
                        spec[i] = vec![t.clone()];
                    }
                }
                specs.push(spec);
            }
            let mut seen: std::collections::HashSet<Vec<Type>> = Default::default();
            for choices in specs {
                if choices.iter().any(Vec::is_empty) {
                    continue;
                }
                let mut idx = vec![0usize; choices.len()];
                loop {
                    let tys: Vec<Type> = choices
                        .iter()
                        .zip(&idx)
                        .map(|(c, &i)| c[i].clone())
                        .collect();
                    if seen.insert(tys.clone()) {
                        let mut b = Binding::default();
                        for ((v, _), t) in self.vars.iter().zip(tys) {
                            b.types.insert(v.clone(), t);
                        }
                        if self.type_conds_hold(&b, &dl, &table) {
                            let mut pidx = vec![0usize; params.len()];
                            loop {
                                for (i, p) in params.iter().enumerate() {
                                    b.nums.insert(p.clone(), PARAM_VALUES[pidx[i]]);
                                }
                                if !f(self.instance_or_reason(dialect, &b, &dl, &table)) {
                                    return;
                                }
                                if !next_index(&mut pidx, &vec![PARAM_VALUES.len(); params.len()]) {
                                    break;
                                }
                            }
                        }
                    }
                    let lens: Vec<usize> = choices.iter().map(Vec::len).collect();
                    if !next_index(&mut idx, &lens) {
                        break;
                    }
                }
            }
        }
    }

    /// The instance at one binding, if its left side is well-formed.
    pub fn instance(
        &self,
        dialect: Dialect,
        b: &Binding,
        dl: &DataLayout,
        table: &TypeTable,
    ) -> Option<Instance> {
        self.instance_or_reason(dialect, b, dl, table).ok()
    }

    /// [`Rule::instance`], or why there is none at this binding.
    pub fn instance_or_reason(
        &self,
        dialect: Dialect,
        b: &Binding,
        dl: &DataLayout,
        table: &TypeTable,
    ) -> Result<Instance, NoInstance> {
        let at = || {
            let mut s: Vec<String> = b.types.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            s.extend(b.nums.iter().map(|(k, v)| format!("?{k} = {v}")));
            s.push(dialect.to_string());
            s.join(", ")
        };
        let mut holes: Vec<Hole> = Vec::new();
        let index = |holes: &Vec<Hole>, n: &str| holes.iter().position(|h| h.name == n);
        for p in &self.lhs {
            match p {
                PatOp::Hole { name, ty, .. } if index(&holes, name).is_none() => holes.push(Hole {
                    name: name.clone(),
                    ty: subst_type(
                        ty.as_ref()
                            .ok_or_else(|| NoInstance::UntypedHole(name.clone()))?,
                        &b.types,
                    ),
                    kind: HoleKind::Expr,
                }),
                PatOp::ConstHole { name, ty, .. } if index(&holes, name).is_none() => {
                    holes.push(Hole {
                        name: name.clone(),
                        ty: subst_type(ty, &b.types),
                        kind: HoleKind::Const,
                    })
                }
                _ => {}
            }
        }
        let lhs_holes = holes.len();
        let widths: Vec<u64> = holes
            .iter()
            .map(|h| type_width(&h.ty, dl, table).unwrap_or(0))
            .collect();
        let hole_fn = |n: &str| -> Option<(usize, u64)> {
            let k = holes[..lhs_holes]
                .iter()
                .position(|h| h.name == n && h.kind == HoleKind::Const)?;
            Some((k, widths[k]))
        };
        let width_fn = |t: &Type| type_width(t, dl, table);
        let elab = Elab {
            hole: &hole_fn,
            width: &width_fn,
        };
        let mut pre = Vec::new();
        for c in &self.pre {
            let c = c.map_types(&|t| subst_type(t, &b.types));
            pre.push(
                elab.bool(&c)
                    .map_err(|source| NoInstance::Condition { at: at(), source })?,
            );
        }
        let mut defs: Vec<(usize, Term)> = Vec::new();
        let mut computed: Vec<Hole> = Vec::new();
        let lhs = self
            .side(
                &self.lhs,
                dialect,
                b,
                &holes,
                &mut Vec::new(),
                &mut Vec::new(),
                &elab,
            )
            .ok_or_else(|| NoInstance::LeftSide(at()))?;
        let rhs = self
            .side(
                &self.rhs,
                dialect,
                b,
                &holes,
                &mut computed,
                &mut defs,
                &elab,
            )
            .ok_or_else(|| NoInstance::RightSide(at()))?;
        holes.extend(computed);
        // The rule can only ever match a well-formed left side.
        let args: Vec<ArgInfo> = holes
            .iter()
            .map(|h| ArgInfo {
                ty: Some(h.ty.clone()),
                bits: None,
                poison: false,
            })
            .collect();
        let env = Env {
            dialect,
            dl,
            types: table,
            args: Some(&args),
            referrer: &ReferrerInfo::Known {
                ty: None,
                bits: None,
            },
            var_bits: None,
        };
        if let Err(diagnostics) = check::check_expr(&lhs, &env) {
            return Err(NoInstance::IllFormed {
                at: at(),
                diagnostics,
            });
        }
        let mut binding: Vec<(String, String)> = b
            .types
            .iter()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect();
        binding.extend(b.nums.iter().map(|(k, v)| (format!("?{k}"), v.to_string())));
        Ok(Instance {
            rule: self.name.clone(),
            origin: self.origin.to_string(),
            relation: self.relation,
            dialect,
            binding,
            holes,
            types: table.clone(),
            lhs,
            rhs,
            pre,
            defs,
        })
    }

    /// One side as an expression: holes become `DIOpArg`s, computed
    /// constants new `Const` holes (appended to `computed`, numbered after
    /// `holes`) fixed by `defs`.
    #[allow(clippy::too_many_arguments)]
    fn side(
        &self,
        side: &[PatOp],
        dialect: Dialect,
        b: &Binding,
        holes: &[Hole],
        computed: &mut Vec<Hole>,
        defs: &mut Vec<(usize, Term)>,
        elab: &Elab,
    ) -> Option<Expr> {
        let mut ops = Vec::new();
        for p in side {
            match p {
                PatOp::Hole { name, .. } | PatOp::ConstHole { name, .. } => {
                    let k = holes.iter().position(|h| &h.name == name)?;
                    ops.push(Op::Arg(k as u64, holes[k].ty.clone()));
                }
                PatOp::Const { ty, lit, .. } => {
                    let ty = subst_type(ty, &b.types);
                    let l = parse_literal_at(lit, &ty)?;
                    ops.push(Op::Constant(ty, l));
                }
                PatOp::Computed { ty, term, .. } => {
                    let ty = subst_type(ty, &b.types);
                    let w = (elab.width)(&ty)?;
                    let t = elab
                        .term(&term.map_types(&|t| subst_type(t, &b.types)), Some(w))
                        .ok()?;
                    let k = holes.len() + computed.len();
                    computed.push(Hole {
                        name: format!("={}", computed.len()),
                        ty: ty.clone(),
                        kind: HoleKind::Const,
                    });
                    defs.push((k, t));
                    ops.push(Op::Arg(k as u64, ty));
                }
                PatOp::Op { op, params, .. } => {
                    ops.push(instantiate_op(op, params, &b.types, &b.nums));
                }
            }
        }
        Some(Expr::new(dialect, ops))
    }
}

/// Advances a mixed-radix counter; `false` when it wraps around.
pub(crate) fn next_index(idx: &mut [usize], lens: &[usize]) -> bool {
    for i in (0..idx.len()).rev() {
        idx[i] += 1;
        if idx[i] < lens[i] {
            return true;
        }
        idx[i] = 0;
    }
    false
}

/// Every `*.rules` file under `paths` (directories recursively), sorted.
pub fn rule_files(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)?
                .map(|e| e.map(|e| e.path()))
                .collect::<Result<_, _>>()?;
            entries.sort();
            for e in entries {
                if e.is_dir() || e.extension().is_some_and(|x| x == "rules") {
                    walk(&e, out)?;
                }
            }
        } else {
            out.push(p.to_path_buf());
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        walk(p, &mut out)?;
    }
    Ok(out)
}

/// Makes a diagnostic self-contained: its message starts with
/// `file:line:col:` and a note shows the source line with a caret, so that
/// it can be printed without the source.
pub fn locate(src: &Source, d: Diagnostic) -> Diagnostic {
    let (line, col) = src.line_col(d.span.start);
    let rendered = src.render(&d);
    let caret: Vec<&str> = rendered.lines().skip(1).take(3).collect();
    let mut out = Diagnostic::error(d.span, format!("{}:{line}:{col}: {}", src.name, d.message));
    out.notes.push(caret.join("\n"));
    out.notes.extend(d.notes);
    out
}

/// Prints located diagnostics ([`locate`]) as `file:line:col: error: ...`
/// with the source line and caret.
pub fn render_located(diags: &[Diagnostic]) -> String {
    let mut s = String::new();
    for d in diags {
        let (loc, msg) = d.message.split_once(": ").unwrap_or(("", &d.message));
        s += &format!("{loc}: error: {msg}\n");
        for n in &d.notes {
            s += n;
            s.push('\n');
        }
    }
    s
}

/// Loads every rule under `paths` (files, or directories read recursively
/// for `*.rules` in sorted order). A rule under a directory named `refuted`
/// is [`Rule::expect_refuted`]. Diagnostics are [`locate`]d (file, line,
/// column, caret); rule names must be unique across all files.
pub fn load_rule_files(paths: &[PathBuf]) -> Result<Vec<Rule>, Vec<Diagnostic>> {
    load_with(paths, syntax::Termination::Check)
}

/// The rules under `paths` as the prover takes them: like
/// [`load_rule_files`], except that a `rule` that does not shrink the
/// expression loads (its soundness is a question the prover answers; only
/// the simplifier needs termination, see [`Rule::not_applied`]).
pub fn load_rules_to_prove(paths: &[PathBuf]) -> Result<Vec<Rule>, Vec<Diagnostic>> {
    load_with(paths, syntax::Termination::Skip)
}

fn load_with(
    paths: &[PathBuf],
    termination: syntax::Termination,
) -> Result<Vec<Rule>, Vec<Diagnostic>> {
    let files = match rule_files(paths) {
        Ok(f) => f,
        Err(e) => {
            return Err(vec![Diagnostic::error(
                Span::default(),
                format!(
                    "reading {}: {e}",
                    paths
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )])
        }
    };
    let mut rules: Vec<Rule> = Vec::new();
    let mut diags = Vec::new();
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for f in files {
        let name = f.display().to_string();
        let text = match std::fs::read_to_string(&f) {
            Ok(t) => t,
            Err(e) => {
                diags.push(Diagnostic::error(Span::default(), format!("{name}: {e}")));
                continue;
            }
        };
        let refuted = f
            .parent()
            .is_some_and(|d| d.components().any(|c| c.as_os_str() == "refuted"));
        let src = Source::new(name.clone(), text);
        let (rs, ds) = syntax::parse_rules_spanned_with(&src.text, &name, termination);
        diags.extend(ds.into_iter().map(|d| locate(&src, d)));
        for (mut r, span) in rs {
            r.refuted = refuted;
            if let Some(prev) = seen.get(&r.name) {
                diags.push(locate(
                    &src,
                    Diagnostic::error(
                        span,
                        format!("rule `{}` is already defined at {prev}", r.name),
                    ),
                ));
                continue;
            }
            seen.insert(r.name.clone(), r.origin.to_string());
            rules.push(r);
        }
    }
    if diags.is_empty() {
        Ok(rules)
    } else {
        Err(diags)
    }
}

/// The constant-folding rules, made by code per operation (instantiated per
/// width like any rule): see [`fold`].
pub fn generated_rules() -> Vec<Rule> {
    fold::rules()
}
