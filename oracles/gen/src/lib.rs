//! Generators of random test cases: a well-typed expression of either
//! dialect with its inputs' types (a [`Bare`]), the named types it uses, and
//! an evaluation [`Context`] for it.
//!
//! Expressions are built bottom-up on a typed stack ([`expr`]), so the
//! checker accepts every one by construction; contexts place drawn bits in
//! every kind of storage ([`context`]); a per-case swarm configuration
//! ([`swarm`]) switches kinds of operations, types and storage on and off so
//! that rare combinations occur. Every choice is drawn through
//! [`entropy::Entropy`], so the same generator runs under libFuzzer
//! ([`Generate::from_bytes`], [`arbitrary_case`]), proptest ([`strategy`],
//! [`seed_strategy`]) and seeded loops ([`Generate::from_seed`]).
//! [`wild`] makes expressions that are *not* built to be well-typed, for
//! testing the checker itself; [`coverage`] counts what the generators
//! reach. Beside expressions: random control-flow graphs with lifetime
//! defs and kills ([`cfg`]) and programs built on them for the
//! transformations ([`program`]). The fuzz targets in `fuzz/` that drive them are in
//! `diopter_harness::targets`; the [`Case`]s they make are what the
//! differential framework (`diopter_diff`) hands to every oracle.
//!
//! Sizes stay bounded ([`GenConfig`]: types of at most 4096 bits, at most 64
//! operations by default) so that the reference interpreter, which is
//! written to be obviously right rather than fast, stays fast enough for
//! fuzzing. (The one exception is the final `DIOpComposite` that combines
//! the entries left on the stack: it can reach about twice the bound.)

pub mod cfg;
pub mod context;
pub mod coverage;
pub mod entropy;
pub mod expr;
pub mod program;
pub mod swarm;
pub mod types;
pub mod values;
pub mod wild;

use diopter_semantics::ast::{ArgDecl, Bare, Dialect, Expr, Span};
use diopter_semantics::types::DataLayout;
use entropy::{Bytes, Entropy, SplitMix};
use expr::{ExprGen, Shape};
use proptest::prelude::*;
use swarm::Swarm;
use types::TypeGen;

/// Bounds on what the generators make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// At most this many operations per expression (for `max_ops` of 3 or
    /// more).
    pub max_ops: usize,
    /// No type is larger than this many bits.
    pub max_type_bits: u64,
    /// At most this many arguments.
    pub max_args: usize,
    /// Only this dialect; `None`: both.
    pub dialect: Option<Dialect>,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            max_ops: 64,
            max_type_bits: 4096,
            max_args: 4,
            dialect: None,
        }
    }
}

/// Data layouts the cases are evaluated under: LLVM's default, AMDGPU's, and
/// two with small pointers (address space 5 of a 16-bit layout has 64 KiB of
/// memory, so reads run off its end).
pub const DATALAYOUTS: [&str; 4] = [
    "default",
    "amdgpu",
    "e-p:32:32-p5:16:16-i64:64",
    "e-p1:64:64-p3:32:32-p5:32:32-i128:128-f80:128-v32:32",
];

thread_local! {
    /// [`DATALAYOUTS`] parsed once per thread (parsing AMDGPU's string for
    /// every case would cost as much as generating the case).
    static LAYOUTS: Vec<DataLayout> = DATALAYOUTS
        .iter()
        .map(|s| DataLayout::from_name_or_string(s).expect("the built-in datalayouts parse"))
        .collect();
}

/// The `i`th of [`DATALAYOUTS`].
pub fn datalayout(i: usize) -> DataLayout {
    LAYOUTS.with(|l| l[i % l.len()].clone())
}

/// The test case the generators make; it is `diopter_semantics`', so that
/// the framework and the engines read cases without this crate.
pub use diopter_semantics::case::Case;

/// Drawing a [`Case`]: `Case::from_seed(..)` and the like with this trait
/// in scope. (A trait, as `Case` is defined in `diopter_semantics`.)
pub trait Generate: Sized {
    /// A case drawn from `e`.
    fn generate(e: &mut dyn Entropy, cfg: &GenConfig) -> Self;
    /// A case drawn from `e` with a given feature set.
    fn generate_with(e: &mut dyn Entropy, cfg: &GenConfig, swarm: &Swarm) -> Self;
    /// The case a seed gives (a splitmix64 stream).
    fn from_seed(seed: u64, cfg: &GenConfig) -> Self {
        Self::generate(&mut SplitMix(seed), cfg)
    }
    /// The case a byte string gives, read as libFuzzer's `Arbitrary` read
    /// it (the fuzz targets' input).
    fn from_bytes(data: &[u8], cfg: &GenConfig) -> Self {
        let mut u = arbitrary::Unstructured::new(data);
        Self::generate(&mut Bytes::new(&mut u), cfg)
    }
}

/// The case at the front of a fuzz input, the rest of `u` left for other
/// choices; what `Case::from_bytes` reads when nothing follows.
pub fn arbitrary_case(u: &mut arbitrary::Unstructured) -> Case {
    Case::generate(&mut Bytes::new(u), &GenConfig::default())
}

impl Generate for Case {
    fn generate(e: &mut dyn Entropy, cfg: &GenConfig) -> Case {
        let swarm = Swarm::draw(e);
        Self::generate_with(e, cfg, &swarm)
    }

    fn generate_with(e: &mut dyn Entropy, cfg: &GenConfig, swarm: &Swarm) -> Case {
        let dialect = cfg.dialect.unwrap_or(if e.chance(1, 2) {
            Dialect::DiExpr
        } else {
            Dialect::DiExpression
        });
        let i = e.index(DATALAYOUTS.len());
        // The thread's parsed layout, borrowed: the context clones it once.
        LAYOUTS.with(|l| generate_in(e, cfg, swarm, dialect, &l[i % l.len()]))
    }
}

/// The rest of [`Generate::generate_with`], under the data layout drawn.
fn generate_in(
    e: &mut dyn Entropy,
    cfg: &GenConfig,
    swarm: &Swarm,
    dialect: Dialect,
    dl: &DataLayout,
) -> Case {
    let table = types::named_types(e, dl, dialect, swarm, cfg.max_type_bits);
    let tg = TypeGen {
        dl,
        table: &table,
        dialect,
        swarm,
        max_bits: cfg.max_type_bits,
    };
    let nargs = e.below(cfg.max_args as u64 + 1) as usize;
    let args: Vec<(diopter_semantics::types::Type, bool)> = (0..nargs)
        .map(|_| (tg.any(e, 0), e.chance(1, 16)))
        .collect();
    let referrer = match dialect {
        Dialect::DiExpr if !e.chance(1, 5) => Some(tg.any(e, 0)),
        Dialect::DiExpression if e.chance(1, 8) => Some(tg.any(e, 0)),
        _ => None,
    };
    let var_type = e.chance(1, 4).then(|| tg.any(e, 0));
    let shape = Shape {
        dialect,
        args,
        referrer,
        var_type,
    };
    let cross = e.chance(swarm.cross_dialect, 16);
    let mut g = ExprGen::new(e, tg, swarm, cfg, &shape, cross);
    g.run();
    let ops = std::mem::take(&mut g.ops);
    let uses = std::mem::take(&mut g.uses);
    drop(g);
    // `[?]` (argument types unknown) now and then, where it can be said.
    let unknown_args = shape.referrer.is_none() && e.chance(1, 32);
    let bare = Bare {
        args: (!unknown_args).then(|| {
            shape
                .args
                .iter()
                .map(|(ty, poison)| ArgDecl {
                    ty: ty.clone(),
                    poison: *poison,
                    span: Span::default(),
                })
                .collect()
        }),
        referrer: shape.referrer.clone().map(|t| (t, Span::default())),
        var_type: shape.var_type.clone().map(|t| (t, Span::default())),
        expr: Expr::new(dialect, ops),
        explicit_dialect: dialect == Dialect::DiExpr || e.chance(1, 4),
        wrapped: e.chance(1, 4),
    };
    let ctx = context::CtxGen::new(e, swarm, &tg).run(&shape, &uses);
    Case {
        bare,
        types: table,
        ctx,
    }
}

/// Cases from byte strings proptest draws and shrinks: a shorter or smaller
/// byte string makes a simpler case (choices past the end are 0, the
/// simplest option).
pub fn strategy(cfg: GenConfig) -> impl Strategy<Value = Case> {
    proptest::collection::vec(any::<u8>(), 0..2048).prop_map(move |b| Case::from_bytes(&b, &cfg))
}

/// Cases from seeds: cheaper to draw than [`strategy`], but a failure
/// shrinks only to another seed.
pub fn seed_strategy(cfg: GenConfig) -> impl Strategy<Value = Case> {
    any::<u64>().prop_map(move |s| Case::from_seed(s, &cfg))
}
