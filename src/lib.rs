//! The `diopter` command line, as a library: `src/main.rs` calls [`main`],
//! and [`run_in_process`] runs the commands that print to a writer (what the
//! `cli` fuzz target and the CLI proptest drive, through the same code).

pub mod bugbench_cmd;
pub mod campaign_cmd;
pub mod check_cmd;
pub mod debuggers_cmd;
pub mod eval_cmd;
pub mod fuzz_cli;
pub mod inputs;
pub mod library;
pub mod locations_cmd;
pub mod lower_cmd;
pub mod minimize_cmd;
pub mod proof_cache;
pub mod prove_cmd;
pub mod prove_transforms_cmd;
pub mod replay_cmd;
pub mod report_cmd;
pub mod run_cmd;
pub mod simplify_cmd;
pub mod transform_cmd;
pub mod upstream_cmd;
pub mod upstream_reduce_cmd;
pub mod validate_cmd;
pub mod validate_ll;
pub mod validate_opt;
pub mod widths_arg;

use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

const ONE_LINE_HELP: &str = "\
THE ONE-LINE FORM (for -e and .expr files)
  [DIALECT] [ITEMS] [-> VARTYPE] OPS
    DIALECT  diexpr | diexpression (default diexpression)
    ITEMS    comma-separated, in brackets: argument types in DIOpArg order,
             each optionally followed by `poison`; `referrer: TYPE`; or `?`
    VARTYPE  the described variable's type (DIOpFragment must lie inside it)
    OPS      DIOps separated by commas, or !DIExpr(...) / !DIExpression(...)
  In diexpression, DIOpReferrer without `referrer:` refers to argument 0.

  Examples:
    [ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32)
    [ptr, i8 poison] -> i32 DIOpArg(0, ptr), DIOpDeref(i16), DIOpFragment(16, 16)
    diexpr [referrer: i64 addrspace(5)*] DIOpReferrer(i64 addrspace(5)*), DIOpDeref()

.EXPR FILES
  One expression per line; `#` comments; `%t = type { i32, ptr }` and
  `target datalayout = \"...\"` lines; directives for the next expression:
  `#! expect valid`, `#! expect invalid[: MESSAGE]`, `#! parse-only`,
  `#! source: TEXT`, `#! note: TEXT` (`#! parse-only file` for the whole file).";

#[derive(Parser)]
#[command(
    name = "diopter",
    version,
    about = "Certainty about LLVM DIOp debug-information expressions",
    long_about = "diopter reads the DIOp expression language of the AMDGPU heterogeneous-debugging \
extensions (the spec's !DIExpr and AMD's !DIExpression form), checks it against the spec's \
stack effects and well-formedness rules, and evaluates it with a reference interpreter.",
    after_help = ONE_LINE_HELP
)]
pub struct Cli {
    /// With no subcommand: `run` (the default job).
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check that expressions are well-formed (exit 0: all are as expected, 1: some are not, 2: a syntax error, unreadable or empty input).
    #[command(after_help = format!("{ONE_LINE_HELP}\n\n{}", check_cmd::CHECK_EXIT_HELP))]
    Check(check_cmd::Args),
    /// Evaluate one expression in a context and print the typed location it yields.
    #[command(after_help = eval_cmd::CONTEXT_HELP)]
    Eval(eval_cmd::Args),
    /// Replay a case file with each oracle and print the outcomes and the verdict (exit 0: no disagreement, 1: disagreement, 2: unreadable input).
    #[command(after_help = replay_cmd::CASE_FILE_HELP)]
    Replay(replay_cmd::Args),
    /// Lower expressions to DWARF 5: the operations in llvm-dwarfdump's syntax and the bytes in hex, or why not (exit 0: all lower, 1: some do not, 2: unreadable input).
    #[command(after_help = lower_cmd::LOWER_HELP)]
    Lower(lower_cmd::Args),
    /// Print each variable's location list over a function's instructions (and, with a context, its value at each).
    #[command(after_help = locations_cmd::LOCATIONS_HELP)]
    Locations(locations_cmd::Args),
    /// Apply a debug-information update of an optimization (sroa, mem2reg, spill, proven-constant, induction, flatten) and check it keeps every variable's location.
    #[command(after_help = transform_cmd::TRANSFORM_HELP)]
    Transform(transform_cmd::Args),
    /// Rewrite expressions to their canonical form with the proved rule library (exit 0: done, 1: an expression is not well-formed, 2: unreadable input or rules).
    #[command(after_help = simplify_cmd::SIMPLIFY_HELP)]
    Simplify(simplify_cmd::Args),
    /// Prove the rule library with Z3, every rule at every width (exit 0: all as claimed, 1: a rule is refuted or unproved, 2: unreadable rules).
    #[command(after_help = prove_cmd::PROVE_HELP)]
    Prove(prove_cmd::Args),
    /// Shrink a failing case file to a 1-minimal one that fails the same way (exit 0: minimized, 1: the case does not fail, 2: unreadable input).
    #[command(after_help = minimize_cmd::MINIMIZE_HELP)]
    Minimize(minimize_cmd::Args),
    /// The default job (also with no subcommand): check the corpus, prove the rules, a 60 s differential campaign, reports into a run directory under target/ (committed reports/ untouched).
    #[command(after_help = run_cmd::RUN_HELP)]
    Run(run_cmd::Args),
    /// Regenerate reports/ from the current code: proofs, spec errata, corpus conformance, benchmarks, index (exit 0: all passed, 1: a step failed).
    #[command(after_help = report_cmd::REPORT_HELP)]
    Report(report_cmd::Args),
    /// An overnight fuzzing campaign: the cargo-fuzz targets in fork mode, each artifact replayed, deduplicated and minimized, a report with plots under reports/campaigns/ (exit 0: report written, 1: writing it failed, 2: bad arguments or a target that does not build).
    #[command(after_help = campaign_cmd::CAMPAIGN_HELP)]
    Campaign(campaign_cmd::Args),
    /// Translation validation: does a pass's updated expression refine the
    /// one before, given how the pass changed the operands?
    #[command(after_help = validate_cmd_help())]
    Validate(validate_cmd::Args),
    /// Upstream LLVM under test: fuzz opt's passes, validate every debug record, reduce each finding with llvm-reduce (exit 0: no finding, 1: findings, 2: bad arguments or LLVM 19 missing).
    #[command(after_help = upstream_cmd::UPSTREAM_HELP)]
    Upstream(upstream_cmd::Args),
    /// The bug-finding benchmark: plant each of 33 faults in turn and measure how fast each search finds it (reports/bugbench.md).
    #[command(after_help = bugbench_cmd::BUGBENCH_HELP)]
    Bugbench(bugbench_cmd::Args),
    /// GDB and LLDB as oracles: generated cases in batches through gimli, GDB and LLDB against the reference, or case files through all of them (exit 0: all right, 1: a consumer differs, refuses or failed, 2: unreadable input or missing tools).
    #[command(after_help = debuggers_cmd::DEBUGGERS_HELP)]
    Debuggers(debuggers_cmd::Args),
    /// Print the stack-effect specification of every operation, as diopter parsed it (exit 0; it reads no input).
    #[command(
        after_help = "EXIT STATUS\n  0 always: it reads no input (the stack effects are built into diopter)."
    )]
    Specs {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

/// Runs one command line (without the program name) in this process,
/// printing to `out` and `err` through the same code the binary uses:
/// `check`, `eval`, `replay`, `lower`, `locations`, `simplify`,
/// `transform`, `prove` (the rule library, and `--merge`), `validate` (pairs
/// and IR files), `minimize` and `specs`. `None` for the others: `prove
/// --transforms`, `run`, `report` and `campaign` (they take no input but
/// paths and durations, run cargo and fuzzers, and write reports).
/// Returns the exit status; a command line clap rejects gives clap's
/// message and status.
pub fn run_in_process<I, T>(
    args: I,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> Option<u8>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let argv = std::iter::once(std::ffi::OsString::from("diopter"))
        .chain(args.into_iter().map(Into::into));
    let cli = match Cli::try_parse_from(argv) {
        Ok(c) => c,
        Err(e) => {
            out!(err, "{}", e.render());
            return Some(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    Some(match cli.command? {
        Command::Check(a) => check_cmd::run_to(&a, out, err),
        Command::Eval(a) => eval_cmd::run_to(&a, out, err),
        Command::Replay(a) => replay_cmd::run_to(&a, out, err),
        Command::Lower(a) => lower_cmd::run_to(&a, out, err),
        Command::Locations(a) => locations_cmd::run_to(&a, out, err),
        Command::Simplify(a) => simplify_cmd::run_to(&a, out, err),
        Command::Transform(a) => transform_cmd::run_to(&a, out, err),
        Command::Prove(a) if !a.transforms => prove_cmd::run_to(&a, out, err),
        Command::Validate(a) if a.passes.is_some() => validate_opt::run_to(&a, out, err),
        Command::Validate(a) if validate_ll::applies(&a) => validate_ll::run_to(&a, out, err),
        Command::Validate(a) => validate_cmd::run_to(&a, out, err),
        Command::Minimize(a) => minimize_cmd::run_to(&a, out, err),
        Command::Specs { format } => print_specs(format, out),
        _ => return None,
    })
}

/// The binary's `main`.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli
        .command
        .unwrap_or_else(|| Command::Run(run_cmd::default_args()));
    match command {
        Command::Check(a) => check_cmd::run(&a),
        Command::Eval(a) => eval_cmd::run(&a),
        Command::Replay(a) => replay_cmd::run(&a),
        Command::Lower(a) => lower_cmd::run(&a),
        Command::Locations(a) => locations_cmd::run(&a),
        Command::Transform(a) => transform_cmd::run(&a),
        Command::Simplify(a) => simplify_cmd::run(&a),
        Command::Prove(a) if a.transforms => prove_transforms_cmd::run(&a),
        Command::Prove(a) => prove_cmd::run(&a),
        Command::Minimize(a) => minimize_cmd::run(&a),
        Command::Run(a) => run_cmd::run(&a),
        Command::Report(a) => report_cmd::run(&a),
        Command::Campaign(a) => campaign_cmd::run(&a),
        Command::Debuggers(a) => debuggers_cmd::run(&a),
        Command::Upstream(a) => upstream_cmd::run(&a),
        Command::Bugbench(a) => bugbench_cmd::run(&a),
        Command::Validate(a) if a.passes.is_some() => validate_opt::run(&a),
        Command::Validate(a) if validate_ll::applies(&a) => validate_ll::run(&a),
        Command::Validate(a) => validate_cmd::run(&a),
        Command::Specs { format } => run_std(|o, _| print_specs(format, o)),
    }
}

fn print_specs(format: Format, out: &mut dyn std::io::Write) -> u8 {
    use diopter_semantics::specs::{self, Origin};
    let origin = |o: &Origin| match o {
        Origin::Seed { line } => format!("seed:{line}"),
        Origin::Amd => "amd".into(),
        Origin::Ours => "ours".into(),
    };
    match format {
        Format::Text => {
            for s in specs::all() {
                outln!(out, "{:<10} {}", origin(&s.origin), s);
            }
        }
        Format::Json => {
            let v: Vec<_> = specs::all()
                .iter()
                .map(|s| {
                    serde_json::json!({
                        "op": s.op,
                        "origin": origin(&s.origin),
                        "text": s.text,
                        "canonical": s.to_string(),
                        "params": s.params.iter().map(|p| serde_json::json!({"name": p.name, "kind": p.kind.as_str()})).collect::<Vec<_>>(),
                        "inputs": s.inputs.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
                        "variadic": s.variadic,
                        "outputs": s.outputs.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
                    })
                })
                .collect();
            outln!(
                out,
                "{}",
                serde_json::to_string_pretty(&v).unwrap_or_default()
            );
        }
    }
    0
}

/// `diopter validate --help`: the command and the pair file format.
fn validate_cmd_help() -> String {
    format!(
        "{}\n{}\n\n{}\n{}",
        validate_cmd::VALIDATE_HELP,
        diopter_tv::validate::FORMAT_HELP,
        diopter_tv::validate_ir::IR_HELP,
        validate_opt::OPT_HELP
    )
}

/// Writes to a writer, ignoring errors (a closed pipe must not panic).
#[macro_export]
macro_rules! out {
    ($w:expr, $($t:tt)*) => {{
        let _ = ::std::io::Write::write_fmt(&mut *$w, format_args!($($t)*));
    }};
}

/// Writes a line to a writer, ignoring errors (a closed pipe must not panic).
#[macro_export]
macro_rules! outln {
    ($w:expr) => {{
        let _ = ::std::io::Write::write_all(&mut *$w, b"\n");
    }};
    ($w:expr, $($t:tt)*) => {{
        let _ = ::std::io::Write::write_fmt(&mut *$w, format_args!("{}\n", format_args!($($t)*)));
    }};
}

/// A `--time-limit SECONDS` value: a finite number of seconds, at least 0
/// (what `Duration::from_secs_f64` would panic on is refused here).
pub fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    std::time::Duration::try_from_secs_f64(x)
        .map_err(|_| format!("`{s}`: need a finite number of seconds, at least 0"))
}

/// Runs a command body on the process's standard output and error.
pub fn run_std(
    body: impl FnOnce(&mut dyn std::io::Write, &mut dyn std::io::Write) -> u8,
) -> ExitCode {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = stderr.lock();
    let code = body(&mut out, &mut err);
    let _ = std::io::Write::flush(&mut out);
    ExitCode::from(code)
}
