//! `diopter debuggers`: GDB and LLDB as oracles. `run` is the campaign
//! (generated cases in batches, each consumer against the reference, the
//! matrix of DWARF operations x consumers, findings kept as case files);
//! `case` puts case files through every consumer as one batch (the replay
//! of a finding).

use crate::outln;
use crate::Format;
use diopter_debuggers::{batch, prepare, Tools};
use diopter_harness::debuggers::{self as camp, Campaign, Counts, CONSUMERS};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const DEBUGGERS_HELP: &str = "\
WHAT IT DOES
  Each case is lowered to DWARF 5 and becomes a variable (unsigned char[N])
  of one small program per batch, written with gimli::write and object and
  linked by clang-19 (or gcc): the program maps the case's memory pages at
  their addresses, sets the registers the case's entities are in, and stops
  at one address where every variable is live. gdb (gdb -batch with a
  Python script) and lldb-19 (its Python API) are started once per batch
  and print every variable's bytes or their error; gimli evaluates the same
  bytes; each answer is compared with the reference interpreter's read.
  Generated cases are first moved where a process can map them (memory of
  address space 0 to a 1 MiB window per case from 0x10000000, entities
  widened to 64 or 128 bits): docs/debuggers.md.

CLASSES
  agree, nan-payload, both-error (the reference fails and the debugger shows
  no value), refuses (the debugger does not implement an operation),
  differs, failed (the debugger crashed, hung or printed something
  unparseable: never agreement); gimli also `declines` the cases its known
  bug would decide (docs/known-issues.md).

OUTPUT
  run: progress on stderr, then the counts per consumer and class, the
  matrix of DWARF operations x consumers and the findings (each a case file
  under DIR/findings with its replay command); --report also writes
  reports/debuggers.json and reports/debuggers.md (the findings' hand attribution is
  reports/debuggers-findings.md, written by hand).
  case: per file, each consumer's class and answer.
  --format json: the same as one JSON object.

EXIT STATUS
  0 done, every consumer right on every case; 1 some consumer differs,
  refuses or failed; 2 unreadable input, a missing tool, or a batch that
  could not be built or run.

INSTALLING THE DEBUGGERS
  apt-get install gdb lldb-19 clang-19   (Debian; any gcc also links)";

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

#[derive(clap::Subcommand)]
pub enum What {
    /// The campaign: generated cases in batches through gimli, GDB and LLDB.
    Run {
        /// Stop after this many compared cases.
        #[arg(long, default_value_t = 1000)]
        cases: u64,
        /// Cases per batch (one program, one run of each debugger).
        #[arg(long, default_value_t = 500)]
        batch: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Where programs, logs and findings go.
        #[arg(long, default_value = "target/debuggers")]
        dir: PathBuf,
        /// Minimize each new finding (a debugger run per step).
        #[arg(long)]
        minimize: bool,
        /// At most this many findings kept per (consumer, class, signature).
        #[arg(long, default_value_t = 1)]
        keep: usize,
        /// Also write reports/debuggers.{json,md}.
        #[arg(long)]
        report: bool,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Case files (as `diopter replay` reads them) through every consumer, as one batch.
    Case {
        files: Vec<PathBuf>,
        #[arg(long, default_value = "target/debuggers/case")]
        dir: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

pub fn run(a: &Args) -> ExitCode {
    let mut out = std::io::stdout();
    let mut err = std::io::stderr();
    ExitCode::from(run_to(a, &mut out, &mut err))
}

fn tools_or_say(err: &mut dyn Write) -> Option<Tools> {
    let tools = Tools::find();
    let missing = tools.missing();
    if missing.is_empty() {
        Some(tools)
    } else {
        outln!(
            err,
            "diopter debuggers: not run: missing {} (apt-get install gdb lldb-19 clang-19)",
            missing.join(", ")
        );
        None
    }
}

pub fn run_to(a: &Args, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match &a.what {
        What::Case { files, dir, format } => case(files, dir, *format, out, err),
        What::Run {
            cases,
            batch,
            seed,
            dir,
            minimize,
            keep,
            report,
            format,
        } => {
            let Some(tools) = tools_or_say(err) else {
                return 2;
            };
            if *batch == 0 {
                outln!(err, "diopter debuggers: --batch must be at least 1");
                return 2;
            }
            let opts = camp::Options {
                cases: *cases,
                seed: *seed,
                batch: *batch,
                dir: dir.clone(),
                minimize: *minimize,
                keep_per_signature: *keep,
            };
            let mut progress = |c: &Counts| {
                outln!(
                    err,
                    "debuggers: {} generated, {} compared in {} batches, {:.1} s",
                    c.generated,
                    c.compared,
                    c.batches,
                    c.wall_seconds
                );
            };
            let result = match camp::run(&opts, &tools, &mut progress) {
                Ok(r) => r,
                Err(e) => {
                    outln!(err, "diopter debuggers: {e}");
                    return 2;
                }
            };
            let command = format!(
                "diopter debuggers run --cases {cases} --batch {batch} --seed {seed}{}",
                if *minimize { " --minimize" } else { "" }
            );
            if *report {
                if let Err(e) = write_report(&result, &command) {
                    outln!(err, "diopter debuggers: {e}");
                    return 2;
                }
            }
            match format {
                Format::Json => outln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(&result).unwrap_or_default()
                ),
                Format::Text => print_text(&result, out),
            }
            let all_right = result.findings.is_empty();
            u8::from(!all_right)
        }
    }
}

fn case(
    files: &[PathBuf],
    dir: &Path,
    format: Format,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let mut cases = Vec::new();
    for f in files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                outln!(err, "{}: {e}", f.display());
                return 2;
            }
        };
        match diopter_diff::read_case_file(&text) {
            Ok(c) => cases.push(c),
            Err(diags) => {
                let src = diopter_semantics::diag::Source::new(f.display().to_string(), text);
                for d in diags {
                    outln!(err, "{}", src.render(&d));
                }
                return 2;
            }
        }
    }
    let Some(tools) = tools_or_say(err) else {
        return 2;
    };
    let mut prepared = Vec::new();
    for (f, c) in files.iter().zip(cases) {
        match prepare(c) {
            Ok(p) => prepared.push(p),
            Err(why) => {
                outln!(
                    err,
                    "{}: the debuggers cannot be asked about this case: {why}",
                    f.display()
                );
                return 2;
            }
        }
    }
    let (results, _) = match batch::run(&prepared, &tools, &batch::Options::new(dir)) {
        Ok(r) => r,
        Err(e) => {
            outln!(err, "diopter debuggers: {e}");
            return 2;
        }
    };
    let mut wrong = false;
    let mut json = Vec::new();
    for ((f, r), p) in files.iter().zip(&results).zip(&prepared) {
        let reference = match &p.reference {
            Ok(b) => format!("reads {}", hex(&b.to_le_bytes()[..p.bytes as usize])),
            Err(e) => format!("fails: {e}"),
        };
        let gimli = camp::gimli_class(&p.gimli);
        wrong |= gimli == "differs";
        let mut consumers = serde_json::Map::new();
        consumers.insert(
            "gimli".into(),
            serde_json::json!({"class": gimli, "detail": format!("{:?}", p.gimli)}),
        );
        if format == Format::Text {
            outln!(out, "{}: the reference {reference}", f.display());
            outln!(out, "  gimli: {gimli}");
        }
        for (d, (answer, class)) in &r.answers {
            wrong |= !class.is_right();
            if format == Format::Text {
                outln!(out, "  {}: {} {}", d.name(), class.label(), class.detail());
            }
            consumers.insert(
                d.name().into(),
                serde_json::json!({"class": class.label(), "detail": class.detail(), "answer": format!("{answer:?}")}),
            );
        }
        json.push(serde_json::json!({"file": f.display().to_string(), "reference": reference, "consumers": consumers}));
    }
    if format == Format::Json {
        outln!(
            out,
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        );
    }
    u8::from(wrong)
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// consumer -> "agree/differs/refuses" counts of one matrix row.
fn cell(
    row: &std::collections::BTreeMap<String, std::collections::BTreeMap<String, u64>>,
    consumer: &str,
) -> String {
    let Some(c) = row.get(consumer) else {
        return "-".into();
    };
    let get = |k: &str| c.get(k).copied().unwrap_or(0);
    let right = get("agree") + get("both-error") + get("nan-payload");
    format!(
        "{right} / {} / {}",
        get("differs") + get("failed"),
        get("refuses") + get("declines")
    )
}

fn print_text(r: &Campaign, out: &mut dyn Write) {
    let c = &r.counts;
    outln!(
        out,
        "{} generated, {} compared in {} batches ({:.1} s)",
        c.generated,
        c.compared,
        c.batches,
        c.wall_seconds
    );
    for consumer in CONSUMERS {
        let classes = c.classes.get(consumer).cloned().unwrap_or_default();
        let parts: Vec<String> = classes.iter().map(|(k, n)| format!("{k} {n}")).collect();
        outln!(out, "  {consumer}: {}", parts.join(", "));
    }
    outln!(out, "matrix (right / differs / refuses):");
    for (op, row) in &c.matrix {
        outln!(
            out,
            "  {op:<22} {}",
            CONSUMERS
                .map(|k| format!("{k} {:<20}", cell(row, k)))
                .join(" ")
        );
    }
    for f in &r.findings {
        outln!(
            out,
            "finding: {} {} x{} [{}]: {}\n  {}",
            f.consumer,
            f.class,
            f.count,
            f.signature,
            f.detail,
            f.replay
        );
    }
}

fn write_report(r: &Campaign, command: &str) -> Result<(), String> {
    let dir = Path::new("reports");
    let c = &r.counts;
    let json = serde_json::json!({
        "command": command,
        "counts": c,
        "findings": r.findings,
        "attribution": "reports/debuggers-findings.md",
    });
    std::fs::write(
        dir.join("debuggers.json"),
        serde_json::to_string_pretty(&json).unwrap_or_default() + "\n",
    )
    .map_err(|e| format!("reports/debuggers.json: {e}"))?;
    let mut md = String::new();
    md.push_str("# Real debuggers as oracles: gimli, GDB and LLDB against the reference\n\n");
    md.push_str("Generated by `");
    md.push_str(command);
    md.push_str(" --report` (see docs/debuggers.md); the findings' attribution below is written by hand (reports/debuggers-findings.md).\n\n");
    md.push_str(&format!(
        "{} cases generated, {} compared per consumer in {} batches; {:.1} s in all: building the programs {:.1} s, ",
        c.generated, c.compared, c.batches, c.wall_seconds, c.build_seconds
    ));
    let per: Vec<String> = c
        .debugger_seconds
        .iter()
        .map(|(d, s)| {
            format!(
                "{d} {s:.1} s ({:.0} cases/s)",
                c.compared as f64 / s.max(1e-9)
            )
        })
        .collect();
    md.push_str(&per.join(", "));
    md.push_str(" (the two debuggers run at the same time, one process each, on 2 cores).\n\n");
    md.push_str("## Counts per consumer\n\n| consumer | class | cases |\n|---|---|---|\n");
    for consumer in CONSUMERS {
        for (k, n) in c.classes.get(consumer).cloned().unwrap_or_default() {
            md.push_str(&format!("| {consumer} | {k} | {n} |\n"));
        }
    }
    md.push_str("\n## Cases not compared, by reason\n\n| reason | cases |\n|---|---|\n");
    for (k, n) in &c.not_applicable {
        md.push_str(&format!("| {} | {n} |\n", k.replace('|', "\\|")));
    }
    md.push_str("\n## DWARF operations x consumers\n\nEach cell: compared cases whose expression has the operation, right (agree, both-error, nan-payload) / differs (or failed) / refuses (gimli: declines, its known bug).\n\n| operation | gimli | gdb | lldb |\n|---|---|---|---|\n");
    for (op, row) in &c.matrix {
        md.push_str(&format!(
            "| `{op}` | {} | {} | {} |\n",
            cell(row, "gimli"),
            cell(row, "gdb"),
            cell(row, "lldb")
        ));
    }
    md.push_str("\n## Findings of this run (case files under the run's directory)\n\n| consumer | class | cases | signature |\n|---|---|---|---|\n");
    for f in &r.findings {
        md.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            f.consumer,
            f.class,
            f.count,
            f.signature.replace('|', "\\|")
        ));
    }
    md.push_str("\nEach finding above is minimized, attributed by hand and written up as a bug report (with the DWARF 5 standard's text) in [debuggers-findings.md](debuggers-findings.md).\n");
    std::fs::write(dir.join("debuggers.md"), md).map_err(|e| format!("reports/debuggers.md: {e}"))
}

/// The default job's opt-in row: `cases` generated cases (0: off).
/// Returns whether it passed (no tool failure; findings are reported, the
/// known ones do not fail the job) and the summary line.
pub fn run_row(cases: u64, dir: &Path) -> (bool, String) {
    let tools = Tools::find();
    let missing = tools.missing();
    if cases == 0 {
        let why = if missing.is_empty() {
            String::new()
        } else {
            format!("; and missing {}", missing.join(", "))
        };
        return (
            true,
            format!("off (opt-in: diopter run --debuggers 1000{why})"),
        );
    }
    if !missing.is_empty() {
        return (
            true,
            format!(
                "skipped: missing {} (apt-get install gdb lldb-19 clang-19)",
                missing.join(", ")
            ),
        );
    }
    let opts = camp::Options {
        cases,
        seed: 0,
        batch: 500,
        dir: dir.to_path_buf(),
        minimize: false,
        keep_per_signature: 1,
    };
    match camp::run(&opts, &tools, &mut |_| {}) {
        Ok(r) => (
            true,
            format!(
                "{} cases compared, {} finding signatures (diopter debuggers run --cases {cases}; reports/debuggers-findings.md)",
                r.counts.compared,
                r.findings.len()
            ),
        ),
        Err(e) => (false, e.to_string()),
    }
}
