//! The inputs of `benches/eval.rs`, shared with `examples/profile_eval.rs`
//! so that the profile runs exactly the benchmark's workload. Both include
//! this file (and `tests/fast_support.rs` as `support`) with `#[path]`.

use crate::support::{context_for, files, input_bits, Placement, Rng};
use diopter_fast::{self as fast, Compiled, PreparedContext};
use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_semantics::ast::Bare;
use diopter_semantics::check::{check_bare, BareInputs};
use diopter_semantics::context::Context;
use diopter_semantics::diag::Source;
use diopter_semantics::interp;
use diopter_semantics::syntax::parse_expr_file;
use diopter_semantics::types::{DataLayout, TypeTable};
use std::path::Path;

/// One benchmark input: an expression, its environment's parts, a context.
pub struct Item {
    pub bare: Bare,
    pub types: TypeTable,
    pub inputs: BareInputs,
    pub ctx: Context,
}

impl Item {
    pub fn new(bare: Bare, types: TypeTable, ctx: Context) -> Item {
        let inputs = BareInputs::of(&bare, &ctx.datalayout, &types);
        Item {
            bare,
            types,
            inputs,
            ctx,
        }
    }
    pub fn reference(&self) -> interp::Outcome {
        let env = self
            .inputs
            .env(self.bare.expr.dialect, &self.ctx.datalayout, &self.types);
        interp::eval(&self.bare.expr, &env, &self.ctx)
    }
    /// The compile step of one evaluation, as the differential oracle and a
    /// debugger at a stop take it: `compile_unchecked` (it gives the
    /// reference's outcome for any expression, so it does not run the
    /// checker first).
    ///
    /// Into `p`, the previous expression's program: a caller compiling one
    /// expression after another reuses the program's buffers as it reuses
    /// a `Scratch` (`Compiled::recompile_unchecked`).
    pub fn compile_once(&self, p: &mut Compiled) {
        let env = self
            .inputs
            .env(self.bare.expr.dialect, &self.ctx.datalayout, &self.types);
        p.recompile_unchecked(&self.bare.expr, &env);
    }
    /// The context prepared once, as a debugger prepares a stop's context
    /// for the expressions it evaluates there.
    pub fn prepare(&self) -> PreparedContext<'_> {
        PreparedContext::new(&self.ctx)
    }
    pub fn compile(&self) -> Compiled {
        let env = self
            .inputs
            .env(self.bare.expr.dialect, &self.ctx.datalayout, &self.types);
        fast::compile(&self.bare.expr, &env).expect("checked")
    }
}

/// Every well-formed, not parse-only corpus expression, in a fixed context
/// (inputs placed in memory, entities, implicit values, composites and
/// multi-locations, chosen per input).
pub fn corpus_items() -> Vec<Item> {
    let mut paths = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus"),
        "expr",
        &mut paths,
    );
    let mut rng = Rng(42);
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a corpus file");
        let (file, _) = parse_expr_file(&Source::new(path.display().to_string(), text));
        let dl = file
            .datalayout
            .as_ref()
            .map_or_else(DataLayout::default, |(d, _)| d.clone());
        for e in file.entries.iter().filter(|e| !e.parse_only) {
            if check_bare(&e.bare, &dl, &file.types).is_err() {
                continue;
            }
            let (args, referrer) = input_bits(&e.bare, &file.types, &dl);
            let ctx = context_for(&dl, &args, referrer, Placement::Mixed, &mut rng);
            out.push(Item::new(e.bare.clone(), file.types.clone(), ctx));
        }
    }
    out
}

/// Generated well-formed expressions of 8 to 32 operations with their contexts.
pub fn generated_items(n: usize) -> Vec<Item> {
    let cfg = GenConfig {
        max_ops: 32,
        ..GenConfig::default()
    };
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < n {
        let c = Case::from_seed(seed, &cfg);
        seed += 1;
        let ops = c.bare.expr.ops.len();
        if !(8..=32).contains(&ops) || check_bare(&c.bare, c.datalayout(), &c.types).is_err() {
            continue;
        }
        out.push(Item::new(c.bare, c.types, c.ctx));
    }
    out
}
