//! `diopter minimize CASE --oracle NAME`: shrinks a failing case file to a
//! 1-minimal one that fails the same way (`diopter_harness::minimize`), and
//! prints the minimized case file's path, its one-line form and the command
//! that replays it.

use crate::inputs;
use crate::{out, outln};
use diopter_diff::{self as diff, Oracle};
use diopter_gen::Case;
use diopter_gen::Generate;
use diopter_harness::minimize::plant::{Plant, Planted, PLANTS};
use diopter_harness::minimize::{self, Failure, Options};
use diopter_harness::registry::{oracle, ORACLE_NAMES};
use diopter_semantics::diag::Source;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub const MINIMIZE_HELP: &str = "\
WHAT IT KEEPS
  The failure is the same oracle disagreement as the input's (the same
  oracle differs from the reference in the same class: location, type,
  read, write, outcome, error), or the same oracle panic; \"some error\" is
  never enough. Every candidate is well-formed (the checker accepts it) and
  is tested as the case file it prints to.

WHAT IT TRIES (to a fixpoint: 1-minimal)
  replace a subexpression by a fresh argument (its location as the
  reference computes it) or a constant; hoist a child over its parent; drop
  an operand of DIOpComposite or a DIOpFragment; constants towards 0, 1, -1;
  smaller integer widths; composite -> part, entity/memory -> implicit;
  drop single locations, memory bytes, entities, unused arguments.

PLANTED BUGS (a test aid, not a real oracle)
  --plant NAME wraps the --oracle with a deliberate bug, to try the
  minimizer and the campaign on a known disagreement (the reference and the
  fast evaluator agree): add-off-by-one (DIOpAdd of i32 adds one more),
  bitoffset-off-by-one (DIOpBitOffset's offset is one more), panic-on-mul
  (any DIOpMul panics). `diopter replay` does not know planted oracles.

EXIT STATUS
  0 minimized; 1 the case does not fail with these oracles; 2 unreadable input.";

#[derive(clap::Args)]
pub struct Args {
    /// The case file (as written by the fuzzers, `diopter campaign` or the tests).
    pub case: PathBuf,
    /// The oracle compared with the reference: fast, dwarf, ... (default: the
    /// case file's `# oracles:` line after the reference, else fast).
    #[arg(long, value_name = "NAME")]
    pub oracle: Option<String>,
    /// Plant a bug in the oracle (test aid; see below).
    #[arg(long, value_name = "BUG")]
    pub plant: Option<String>,
    /// Where to write the minimized case file (default: CASE with `.min.case`).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// CASE is a raw fuzz input of `eval_diff` (or `eval_diff_planted`): the
    /// bytes that drive the case generator, as libFuzzer saves them in
    /// `fuzz/artifacts/`.
    #[arg(long)]
    pub bytes: bool,
    /// Give up after this many seconds with the smallest case so far.
    #[arg(long, value_name = "SECONDS", value_parser = crate::parse_seconds)]
    pub time_limit: Option<Duration>,
    /// With --bytes: the generator's cap on operations the input was
    /// fuzzed with (`$DIOPTER_MAX_OPS` of `eval_diff_planted`; the same
    /// bytes make another case under another cap; 1 to 1000000, the
    /// parser's limit on operations).
    #[arg(long, value_name = "N", requires = "bytes",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub max_ops: Option<usize>,
}

fn fail(werr: &mut dyn Write, msg: String) -> u8 {
    outln!(werr, "diopter minimize: {msg}");
    2
}

/// The oracle named `name`, with `plant` planted when given.
pub fn oracle_with_plant(name: &str, plant: Option<&str>) -> Result<Box<dyn Oracle>, String> {
    let inner = oracle(name).ok_or_else(|| {
        format!(
            "unknown oracle `{name}` (known: {})",
            ORACLE_NAMES.join(", ")
        )
    })?;
    match plant {
        None => Ok(inner),
        Some(p) => {
            let plant = Plant::from_name(p).ok_or_else(|| {
                format!(
                    "unknown plant `{p}` (known: {})",
                    PLANTS.map(|(n, _)| n).join(", ")
                )
            })?;
            Ok(Box::new(Planted::new(inner, plant)))
        }
    }
}

/// The default output path: `x.case` -> `x.min.case`.
fn default_output(case: &Path) -> PathBuf {
    let stem = case
        .file_name()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "case".into());
    let stem = stem.strip_suffix(".case").unwrap_or(&stem).to_string();
    case.with_file_name(format!("{stem}.min.case"))
}

pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

/// [`run`], printing to `wout` and `werr`; returns the exit status.
pub fn run_to(a: &Args, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    let (text, case) = if a.bytes {
        match std::fs::read(&a.case) {
            Ok(data) => (
                String::new(),
                Case::from_bytes(&data, &{
                    let mut cfg = diopter_gen::GenConfig::default();
                    cfg.max_ops = a.max_ops.unwrap_or(cfg.max_ops);
                    cfg
                }),
            ),
            Err(e) => return fail(werr, format!("{}: {e}", a.case.display())),
        }
    } else {
        let text = match inputs::read(&a.case) {
            Ok(t) => t,
            Err(e) => return fail(werr, e),
        };
        match diff::read_case_file(&text) {
            Ok(c) => (text, c),
            Err(ds) => {
                let src = Source::new(a.case.display().to_string(), text);
                for d in &ds {
                    out!(werr, "{}", src.render(d));
                }
                return 2;
            }
        }
    };
    let name = a.oracle.clone().unwrap_or_else(|| {
        diff::case_file_oracles(&text)
            .into_iter()
            .find(|n| n != "reference" && oracle(n).is_some())
            .unwrap_or_else(|| "fast".into())
    });
    let other = match oracle_with_plant(&name, a.plant.as_deref()) {
        Ok(o) => o,
        Err(e) => return fail(werr, e),
    };
    let reference = diff::Reference;
    let oracles: [&dyn Oracle; 2] = [&reference, other.as_ref()];
    let opts = Options {
        time_limit: a.time_limit,
    };
    let t0 = Instant::now();
    let result = minimize::quiet_panics(|| minimize::minimize_failure(&case, &oracles, &opts));
    let elapsed = t0.elapsed();
    let Some((want, m)) = result else {
        outln!(werr,
            "diopter minimize: {}: the reference and {} do not disagree on this case (nothing to minimize)",
            a.case.display(),
            other.name()
        );
        return 1;
    };
    let out = a.output.clone().unwrap_or_else(|| default_output(&a.case));
    let names = ["reference", other.name()];
    // Quiet as the minimization: a panicking oracle (a real bug or
    // `--plant panic-on-mul`) is caught and is the failure shown, and the
    // panic hook must not print it (or, in the fuzzer, abort).
    let verdict = minimize::quiet_panics(|| minimize::guarded_run(&m.case, &oracles).ok());
    let file_text = diff::case_file_text(&m.case, &names, verdict.as_ref());
    if let Err(e) = diopter_report::write_atomic(&out, &file_text) {
        return fail(werr, format!("writing {}: {e}", out.display()));
    }
    let (ops0, bytes0) = minimize::size(&case);
    let (ops1, bytes1) = minimize::size(&m.case);
    let what = match &want {
        Failure::Disagree { oracle, class } => format!("{oracle} differs in {class}"),
        Failure::Panic { oracle, message } => format!("{oracle} panics: {message}"),
    };
    outln!(wout, "failure:    {what}");
    outln!(wout,
        "minimized:  {ops0} -> {ops1} operations, {bytes0} -> {bytes1} bytes, {} reductions kept of {} tried, {:.3} s{}",
        m.steps,
        m.tries,
        elapsed.as_secs_f64(),
        if m.one_minimal {
            " (1-minimal)"
        } else {
            " (time limit: not 1-minimal)"
        }
    );
    if let Some(sig) = minimize::quiet_panics(|| minimize::signature(&m.case, &oracles)) {
        outln!(wout, "signature:  {sig}");
    }
    outln!(wout, "case file:  {}", out.display());
    outln!(wout, "expression: {}", m.case.expr_line());
    if a.plant.is_some() {
        outln!(wout,
            "reproduce:  cargo run --release -- minimize {} --oracle {name} --plant {} (a planted bug: `replay` shows agreement)",
            out.display(),
            a.plant.as_deref().unwrap_or("")
        );
    } else {
        outln!(wout, "reproduce:  {}", diff::repro_command(&out));
    }
    0
}
