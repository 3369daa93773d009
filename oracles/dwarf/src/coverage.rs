//! How much of the language the lowering covers: the share of the corpus's
//! expressions and of generated cases that lower, to DWARF 5 and with AMD's
//! extensions, with a count per reason for the rest. `diopter lower`, the
//! `lower_reasons` example and `reports/lowering.md` (`diopter report`)
//! measure it the same way: corpus expressions in the register context
//! below, generated cases in their own contexts.

use crate::{lower, lower_ext, LowerFn};
use diopter_semantics::ast::{Bare, Op};
use diopter_semantics::case::Case;
use diopter_semantics::context::Context;
use diopter_semantics::diag::Source;
use diopter_semantics::location::LocDesc;
use diopter_semantics::syntax::parse_expr_file;
use diopter_semantics::types::DataLayout;
use std::collections::BTreeMap;

/// The context that puts every input of `b` in a register named after it
/// (argument N in `%argN`, the referrer in `%referrer`, the object in
/// `%object`), without values: what `diopter lower` assumes without
/// `--context`. With AMD's extensions the lane is 0.
pub fn register_context(b: &Bare, dl: &DataLayout, ext: bool) -> Context {
    let mut ctx = Context::new(dl.clone());
    let mut max_arg = b.args.as_ref().map_or(0, |a| a.len() as u64);
    for op in b.expr.ops() {
        if let Op::Arg(i, _) = op {
            max_arg = max_arg.max(i.saturating_add(1));
        }
    }
    for i in 0..max_arg.min(4096) {
        ctx.args.insert(i, LocDesc::entity(&format!("%arg{i}"), 0));
    }
    ctx.referrer = Some(LocDesc::entity("%referrer", 0));
    ctx.object = Some(LocDesc::entity("%object", 0));
    if ext {
        ctx.lane = Some(0);
    }
    ctx
}

/// How many expressions lowered, of how many, and why the others did not
/// (by [`crate::NotLowerable::class`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub total: usize,
    pub lowered: usize,
    pub reasons: BTreeMap<String, usize>,
}

impl Coverage {
    pub fn percent(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            100.0 * self.lowered as f64 / self.total as f64
        }
    }

    /// The reasons, most frequent first (ties by name).
    pub fn ranked(&self) -> Vec<(String, usize)> {
        let mut v: Vec<(String, usize)> =
            self.reasons.iter().map(|(k, n)| (k.clone(), *n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        v
    }

    fn count(&mut self, r: Result<(), crate::NotLowerable>) {
        self.total += 1;
        match r {
            Ok(()) => self.lowered += 1,
            Err(e) => *self.reasons.entry(e.class()).or_default() += 1,
        }
    }
}

/// The coverage of the `.expr` files `sources` (name, text): every entry
/// but parse-only lines and those meant to be ill-formed, each in the
/// register context of its file's data layout. Files that do not parse
/// are skipped (`diopter check` reports them).
pub fn corpus(sources: &[(String, String)], ext: bool) -> Coverage {
    let f: LowerFn = if ext { lower_ext } else { lower };
    let mut c = Coverage::default();
    for (name, text) in sources {
        let src = Source::new(name.clone(), text.clone());
        let (file, diags) = parse_expr_file(&src);
        if !diags.is_empty() {
            continue;
        }
        let dl = file
            .datalayout
            .as_ref()
            .map(|(d, _)| d.clone())
            .unwrap_or_default();
        for e in &file.entries {
            if !e.describes_a_location() {
                continue;
            }
            let ctx = register_context(&e.bare, &dl, ext);
            c.count(f(&e.bare, &file.types, &ctx).map(|_| ()));
        }
    }
    c
}

/// The generator's cap on operations the coverage of generated cases is
/// measured with (the cases that `oracles/harness/tests/dwarf_gen.rs` and
/// `dwarf_ext.rs` compare against gimli and the reference): the callers
/// make the cases, so that this crate needs no generator.
pub const GENERATED_MAX_OPS: usize = 16;

/// The coverage of generated cases (seeds `0..n` at
/// [`GENERATED_MAX_OPS`]), each in its own context.
pub fn generated(cases: impl IntoIterator<Item = Case>, ext: bool) -> Coverage {
    let f: LowerFn = if ext { lower_ext } else { lower };
    let mut c = Coverage::default();
    for case in cases {
        c.count(f(&case.bare, &case.types, &case.ctx).map(|_| ()));
    }
    c
}
