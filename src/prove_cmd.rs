//! `diopter prove`: the command line of the rule library's proofs. The
//! proving is `diopter_proving` (the library, shards, the proof cache, the
//! verdict model and its renderings); this reads the arguments, calls it,
//! prints what it returns, and writes the reports where the arguments say.
//! `--transforms` is `prove_transforms_cmd`, chosen by `main`.

use crate::widths_arg::{parse_widths, WidthList};
use crate::Format;
use crate::{out, outln};
use diopter_proving::{library, Proofs, Request};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

pub const PROVE_HELP: &str = "\
Every rule is instantiated at every width of --widths (integer type
variables) and at every width where the rule's own text can change meaning:
around each type condition's boundary (`width(T) >= 5` adds 3, 4, 5, 6;
sums, products and comparisons of widths alike), around each literal's
signed and unsigned bit length, and where a literal used as a shift amount
or offset reaches the width (the literal, and eight times it), up to 128
bits. Float variables take every float kind the reference evaluates (half,
bfloat, float, double, fp128, x86_fp80); pointers and a sample of other
types besides. Each instance is one Z3 query: \"are there inputs, each hole in any storage
(memory in address spaces 0 and 5, entity, implicit, undefined, implicit
address, composite, two single locations, a failing subexpression), on which
the two sides differ in failure, type, bits read or the effect of a write?\"
(DESIGN.md, Equivalence; `=>ro` rules may refuse writes the left side
accepts). A refutation prints the counterexample, re-evaluated by the
reference interpreter. A rule is instantiated in both dialects; where
neither side uses an operation whose meaning the dialect changes
(DIOpReferrer, DIOpConvert, DIOpAddrOf), the two instances pose the same
query, which is decided once (the JSON's `twin_of` names the one decided).

WHAT A PROOF COVERS
  A proof covers the instances that were checked and nothing more. Every
  `ok` line and every row of reports/proofs.md names them: \"proved at
  i1..i8, i16, i32, i33, i64; half, bfloat, float, double, fp128,
  x86_fp80\" means the rule was proved with its integer type variables at
  those widths and its float variables at those kinds, not at any other
  width. --all-widths adds every width from 1 to 64 (--all-widths=bounded:
  only to the type variables that a type condition or a literal concerns,
  as CI runs it).

VERDICTS
  Each instance is proved, refuted, or one of: timeout (Z3 ran out of
  --timeout), gave-up (Z3 said unknown for another reason, or the
  encoding cannot express the instance), memory-limit (Z3's memory, or
  the encoder's work budget), budget (not tried: --time-limit had run
  out), not-applicable (the left side is not well-formed there), invalid,
  encoding-bug, skipped (a rule expected to be refuted already was). Each
  has its own count in the summary and in the JSON (`counts`).

Rules under a directory named `refuted/` are expected to be refuted. With no
FILES, the library is corpus/rules plus the generated constant-folding rules.
Any well-formed rule is proved or refuted, whether it shrinks the expression
or not; a `lemma`, and a `rule` that does not shrink the expression, are
marked as not applied by the simplifier (corpus/rules/README.md).

Exit status: 0 when every rule that claims to hold is proved at every
instance and every rule under refuted/ is refuted (a timeout, gave-up,
memory-limit or budget verdict is tolerated unless --strict); 1 otherwise
(and for any encoding bug: a difference Z3 found that the reference
interpreter does not confirm); 2 when a rule file cannot be read or parsed,
when the files (after --rule) hold no rule at all, so that nothing would be
checked, or when an option is out of range (--widths 1 to 256 bits,
--timeout 1 to 3600000 ms, --jobs 1 to 1024).

PROOF CACHE
  Verdicts that do not depend on time (proved, refuted, not applicable,
  invalid) are kept per instance under --cache-dir, keyed by a SHA-256 of
  the instance (its sides, holes, types and conditions; not the rule's name
  or line), of the prover's and the semantics' sources and of Z3's version.
  Editing one rule re-proves only that rule; --no-cache decides everything
  again (and writes nothing to the cache).

SHARDS (CI)
  --shard I/N proves the I-th of N shares of the rules (1 <= I <= N), each
  rule whole in one share, shares balanced by instance count; the split is
  a function of the loaded library alone. Run the N shards anywhere with
  --format json > shard-I.json, then
      diopter prove --merge shard-1.json ... shard-N.json
  checks that they are the N shares of one library at the same widths and
  timeout, writes reports/proofs.{md,json} as an unsharded run would, and
  exits with the unsharded run's status.";

/// `--widths`' default as the command line writes it (`prove` and
/// `validate`): `diopter_rules::DEFAULT_WIDTHS`, which a test holds it to.
pub const DEFAULT_WIDTHS: &str = "1,2,3,4,7,8,16,32,33,64";

#[derive(clap::Args)]
pub struct Args {
    /// Rule files or directories (read recursively for *.rules). Default:
    /// corpus/rules and the generated constant-folding rules.
    pub paths: Vec<PathBuf>,
    /// Integer widths to instantiate type variables with, besides those each
    /// rule's conditions and literals call for: widths and inclusive ranges,
    /// `1..8,16,32`, each from 1 to 256 bits.
    #[arg(
        long,
        value_name = "LIST",
        default_value = DEFAULT_WIDTHS,
        value_parser = parse_widths
    )]
    pub widths: WidthList,
    /// Also every width from 1 to 64: for every rule (`--all-widths`), or
    /// only for the type variables that a type condition or a literal
    /// concerns, whose meaning can change with a width
    /// (`--all-widths=bounded`; what CI runs).
    #[arg(
        long,
        value_name = "WHICH",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "every",
        value_enum
    )]
    pub all_widths: Option<AllWidths>,
    /// Timeout of one Z3 query, in milliseconds (1 to 3600000); a timeout
    /// is `unknown` (timeout).
    #[arg(
        long,
        value_name = "MS",
        default_value_t = diopter_proving::DEFAULT_TIMEOUT_MS,
        value_parser = clap::value_parser!(u32).range(1..=3_600_000)
    )]
    pub timeout: u32,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Count `unknown` as a failure.
    #[arg(long)]
    pub strict: bool,
    /// Queries run in parallel, 1 to 1024 (default: the number of CPUs).
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub jobs: Option<usize>,
    /// Only rules whose name contains this (may be repeated).
    #[arg(long, value_name = "TEXT")]
    pub rule: Vec<String>,
    /// With FILES: also the generated constant-folding rules.
    #[arg(long)]
    pub generated: bool,
    /// Do not write reports/proofs.json and reports/proofs.md.
    #[arg(long)]
    pub no_report: bool,
    /// Where the reports go (default reports/). The committed report is
    /// the whole library's: with FILES or --rule, a report is written only
    /// where this names.
    #[arg(long, value_name = "DIR")]
    pub report_dir: Option<PathBuf>,
    /// Prove the transformations' rewrites (corpus/transforms, SRoA and
    /// mem2reg) instead, into reports/transforms.{md,json}.
    #[arg(long)]
    pub transforms: bool,
    /// Text output: list every instance with its verdict and time, not only
    /// those that are not as the rule claims (and one counterexample of
    /// each refuted rule).
    #[arg(long, short)]
    pub verbose: bool,
    /// Where settled verdicts are kept (see PROOF CACHE below).
    #[arg(long, value_name = "DIR", default_value = diopter_proving::DEFAULT_CACHE_DIR)]
    pub cache_dir: PathBuf,
    /// Decide every instance again; neither read nor write the cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Prove only share I of N of the rules (see SHARDS below).
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Give up after this many seconds: instances not begun by then are
    /// `unknown` (a query under way runs its --timeout).
    #[arg(long, value_name = "SECONDS", value_parser = crate::parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Merge the JSON outputs of the N shards of one run (no proving).
    #[arg(long, value_name = "JSON", num_args = 1.., conflicts_with_all = ["shard", "paths"])]
    pub merge: Vec<PathBuf>,
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("`{s}`: expected I/N, e.g. 2/4"))?;
    let i: usize = i
        .trim()
        .parse()
        .map_err(|_| format!("`{i}` is not a shard number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a shard count"))?;
    if n == 0 || i == 0 || i > n {
        return Err(format!("shard {i}/{n}: need 1 <= I <= N"));
    }
    Ok((i, n))
}

/// Which rules `--all-widths` tries at every width from 1 to 64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AllWidths {
    /// Every rule.
    Every,
    /// The type variables that a type condition or a literal concerns
    /// (those with derived widths, `diopter_rules::widths::derived_widths`),
    /// each with the other variables at their samples.
    Bounded,
}

impl From<AllWidths> for library::AllWidths {
    fn from(w: AllWidths) -> library::AllWidths {
        match w {
            AllWidths::Every => library::AllWidths::Every,
            AllWidths::Bounded => library::AllWidths::Bounded,
        }
    }
}

/// The widths every rule is tried at (`diopter_proving::library::base_widths`).
pub fn base_widths(a: &Args) -> Vec<u64> {
    library::base_widths(&a.widths, a.all_widths.map(Into::into))
}

/// What the arguments ask to prove, in the rule files `paths` (the
/// arguments' or the default library).
fn request(a: &Args, paths: Vec<PathBuf>) -> Request {
    Request {
        paths,
        generated: a.paths.is_empty() || a.generated,
        rule_filters: a.rule.clone(),
        widths: a.widths.to_vec(),
        all_widths: a.all_widths.map(Into::into),
        timeout_ms: a.timeout,
        strict: a.strict,
        jobs: a.jobs,
        cache: (!a.no_cache).then(|| crate::proof_cache::at(&a.cache_dir)),
        shard: a.shard,
        time_limit: a.time_limit,
    }
}

/// Proves the rule library (`--transforms` is `prove_transforms_cmd::run`,
/// chosen by `main`).
pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

/// [`run`], printing to `wout` and `werr`; returns the exit status.
pub fn run_to(a: &Args, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    let proofs = if a.merge.is_empty() {
        let paths = match crate::library::or_default(&a.paths) {
            Ok(p) => p,
            Err(e) => {
                outln!(werr, "error: {e}");
                return 2;
            }
        };
        diopter_proving::prove(&request(a, paths), &mut |e| outln!(werr, "{e}"))
    } else {
        diopter_proving::merge(&a.merge, a.strict)
    };
    let proofs: Proofs = match proofs {
        Ok(p) => p,
        Err(e) => {
            out!(werr, "{}", e.render());
            return 2;
        }
    };
    match a.format {
        Format::Text => out!(wout, "{}", proofs.text(a.verbose)),
        Format::Json => outln!(wout, "{}", proofs.json()),
    }
    // A shard's report would be a fraction of the library's: only the merge
    // writes one.
    let whole_library = a.paths.is_empty() && a.rule.is_empty();
    if !a.no_report && a.shard.is_none() && (whole_library || a.report_dir.is_some()) {
        let dir = a
            .report_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("reports"));
        if let Err(e) = proofs.write_reports(&dir) {
            outln!(werr, "warning: {e}");
        }
    }
    u8::from(proofs.failed)
}

#[cfg(test)]
mod default_widths_tests {
    #[test]
    fn the_command_lines_default_widths_are_the_rules_ones() {
        let parsed: Vec<u64> = super::DEFAULT_WIDTHS
            .split(',')
            .map(|w| w.parse().expect("a width"))
            .collect();
        assert_eq!(parsed, diopter_rules::DEFAULT_WIDTHS);
    }
}
