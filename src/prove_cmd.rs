//! `diopter prove`: proves the rule library with Z3 (`diopter_smt::prove`),
//! every rule at every width of `--widths`, and refutes the rules under
//! `refuted/`. Prints per rule and instance the verdict and the time, an
//! Alive-style counterexample for a refutation, and writes the report to
//! `reports/proofs.json` and `reports/proofs.md`.
//!
//! Settled verdicts are kept in the proof cache (`crate::proof_cache`).
//! `--shard I/N` proves a deterministic share of the rules, and `--merge`
//! combines the shards' JSON into the report an unsharded run writes. Every
//! output (text, JSON, Markdown) is rendered from one JSON document, so a
//! merged run prints exactly what an unsharded one does.

use crate::proof_cache::{cacheable, ProofCache};
use crate::widths_arg::{parse_widths, WidthList};
use crate::Format;
use crate::{out, outln};
use diopter_rules::instance::{Instance, Relation};
use diopter_rules::widths::{self, describe_widths};
use diopter_rules::{self as rules, render_located, Rule};
use diopter_semantics::diag::Diagnostic;
use diopter_smt::prove::{prove_instance, Outcome, ProveConfig, UnknownKind, Verdict};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
        default_value_t = 10_000,
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
    #[arg(long, value_name = "DIR", default_value = "target/proof-cache")]
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

/// The rule loader: every well-formed rule, shrinking or not (termination
/// matters only to the simplifier; `Rule::not_applied` says which rules it
/// leaves out, and the reports say so).
fn load(paths: &[PathBuf]) -> Result<Vec<Rule>, Vec<Diagnostic>> {
    rules::load_rules_to_prove(paths)
}

/// What a rule's instances add up to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// As claimed: proved everywhere, or (under refuted/) refuted somewhere.
    Ok,
    Unknown,
    Fail,
}

impl Status {
    fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Unknown => "unknown",
            Status::Fail => "FAIL",
        }
    }
}

/// What an instance's verdict is counted as: its `Verdict::label`, except
/// that an `unknown` counts as its kind (`UnknownKind::label`), so that a
/// timeout, Z3 giving up, a memory limit and a budget are never folded
/// together. In report order.
const CATEGORIES: &[&str] = &[
    "proved",
    "refuted",
    "timeout",
    "gave-up",
    "memory-limit",
    "budget",
    "not-applicable",
    "invalid",
    "encoding-bug",
    "skipped",
];

/// An instance record's category (see [`CATEGORIES`]).
fn category(rec: &Value) -> &str {
    match rec["verdict"].as_str().unwrap_or("") {
        "unknown" => rec["unknown_kind"].as_str().unwrap_or("gave-up"),
        v => v,
    }
}

fn is_unknown(category: &str) -> bool {
    UnknownKind::ALL.iter().any(|k| k.label() == category)
}

/// How many instances fall in each category, as a JSON object with every
/// category (zero included).
fn count_categories<'a>(cats: impl Iterator<Item = &'a str>) -> Value {
    let mut m = serde_json::Map::new();
    for c in CATEGORIES {
        m.insert(c.to_string(), json!(0));
    }
    for c in cats {
        let n = m.get(c).and_then(Value::as_u64).unwrap_or(0);
        m.insert(c.to_string(), json!(n + 1));
    }
    Value::Object(m)
}

/// "144 proved, 0 refuted" and every other category that occurs.
fn describe_counts(counts: &Value) -> String {
    let n = |c: &str| counts[c].as_u64().unwrap_or(0);
    let mut parts = vec![
        format!("{} proved", n("proved")),
        format!("{} refuted", n("refuted")),
    ];
    for c in &CATEGORIES[2..] {
        if n(c) > 0 {
            parts.push(format!("{} {c}", n(c)));
        }
    }
    parts.join(", ")
}

/// A rule's status from its instances' categories ([`category`]).
fn rule_status(expect_refuted: bool, verdicts: &[&str]) -> (Status, String) {
    if verdicts.is_empty() {
        return (Status::Unknown, "no instance at these widths".into());
    }
    let count = |f: fn(&str) -> bool| verdicts.iter().filter(|v| f(v)).count();
    let refuted = count(|v| v == "refuted");
    let unknown = count(is_unknown);
    let bad = count(|v| v == "invalid" || v == "encoding-bug");
    let summary = describe_counts(&count_categories(verdicts.iter().copied()));
    if bad > 0 {
        return (Status::Fail, summary);
    }
    if verdicts.iter().all(|v| *v == "not-applicable") {
        return (Status::Unknown, "no instance applies".into());
    }
    let status = if expect_refuted {
        if refuted > 0 {
            Status::Ok
        } else if unknown > 0 {
            Status::Unknown
        } else {
            Status::Fail
        }
    } else if refuted > 0 {
        Status::Fail
    } else if unknown > 0 {
        Status::Unknown
    } else {
        Status::Ok
    };
    (status, summary)
}

/// The type variables' bindings of an instance, for [`coverage`].
fn binding_types(i: &Instance) -> Value {
    Value::Object(
        i.binding
            .iter()
            .filter(|(k, _)| !k.starts_with('?'))
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect(),
    )
}

/// The float kinds, in the order reports name them.
const FLOAT_KINDS: &[&str] = &["half", "bfloat", "float", "double", "fp128", "x86_fp80"];

/// What a rule's proofs cover: the integer widths, float kinds and other
/// types its type variables were bound to in the instances that were
/// proved. `text` is what the `ok` line and the report print.
fn coverage(rule: &Value) -> Value {
    let mut ints = std::collections::BTreeSet::new();
    let mut floats = std::collections::BTreeSet::new();
    let mut others = std::collections::BTreeSet::new();
    let mut vars = 0;
    for i in rule["instances"].as_array().into_iter().flatten() {
        if category(i) != "proved" {
            continue;
        }
        for (_, t) in i["types"].as_object().into_iter().flatten() {
            vars += 1;
            let t = t.as_str().unwrap_or("");
            match t.strip_prefix('i').and_then(|w| w.parse::<u64>().ok()) {
                Some(w) => {
                    ints.insert(w);
                }
                None if FLOAT_KINDS.contains(&t) => {
                    floats.insert(FLOAT_KINDS.iter().position(|k| *k == t).unwrap_or(0));
                }
                None => {
                    others.insert(t.to_string());
                }
            }
        }
    }
    let ints: Vec<u64> = ints.into_iter().collect();
    let floats: Vec<&str> = floats.into_iter().map(|k| FLOAT_KINDS[k]).collect();
    let others: Vec<String> = others.into_iter().collect();
    let mut parts = Vec::new();
    if !ints.is_empty() {
        parts.push(describe_widths(&ints));
    }
    if !floats.is_empty() {
        parts.push(floats.join(", "));
    }
    if !others.is_empty() {
        parts.push(others.join(", "));
    }
    let text = if parts.is_empty() && vars == 0 {
        // Proved instances without type variables: the rule names its
        // types itself.
        "as written (no type variables)".to_string()
    } else {
        parts.join("; ")
    };
    json!({ "int_widths": ints, "floats": floats, "other_types": others, "text": text })
}

fn binding(i: &Instance) -> String {
    let mut s: Vec<String> = i
        .binding
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    s.push(format!("{}", i.dialect));
    s.join(", ")
}

fn reason(v: &Verdict) -> Option<String> {
    match v {
        Verdict::Unknown(m)
        | Verdict::NotApplicable(m)
        | Verdict::Invalid(m)
        | Verdict::EncodingBug(m) => Some(m.clone()),
        Verdict::ProvedExhaustive(n) => Some(format!("exhaustive, {n} inputs")),
        _ => None,
    }
}

/// An instance's outcome as the reports and the cache keep it.
fn record(o: &Outcome) -> Value {
    let cex = match &o.verdict {
        Verdict::Refuted(c) => json!({
            "text": c.render(),
            "inputs": c.inputs.iter().map(|x| json!({
                "name": x.name,
                "type": x.ty.to_string(),
                "shape": x.shape,
                "location": x.location,
                "bits": x.bits.as_ref().map(|b| b.to_hex()).unwrap_or_else(|e| e.clone()),
                "value": x.bits.as_ref().ok().map(|b| diopter_semantics::show::value_view(Some(&x.ty), b)),
            })).collect::<Vec<_>>(),
            "memory": c.memory.iter().map(|(s, addr, b)| json!({"addrspace": s, "address": format!("0x{addr:x}"), "byte": b})).collect::<Vec<_>>(),
            "written": c.written.as_ref().map(|w| w.to_hex()),
            "left": c.lhs,
            "right": c.rhs,
            "left_location": c.left_location,
            "right_location": c.right_location,
            "differences": c.differences,
            "first_difference": c.first_difference,
            "context": c.context,
        }),
        _ => Value::Null,
    };
    json!({
        "verdict": o.verdict.label(),
        "unknown_kind": o.verdict.unknown_kind().map(UnknownKind::label),
        "millis": o.millis as u64,
        "reason": reason(&o.verdict),
        "counterexample": cex,
    })
}

/// The rules of share `i` of `n` (1-based): each rule whole in one share,
/// the largest rules first onto the least loaded share (ties: the lower
/// rule index, the lower share), so the split depends on the library alone.
fn shard_rules(sizes: &[usize], i: usize, n: usize) -> Vec<bool> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&k| (std::cmp::Reverse(sizes[k]), k));
    let mut load = vec![0usize; n];
    let mut mine = vec![false; sizes.len()];
    for k in order {
        let s = (0..n).min_by_key(|&s| (load[s], s)).expect("n >= 1");
        load[s] += sizes[k].max(1);
        mine[k] = s + 1 == i;
    }
    mine
}

/// Names and instance counts of the whole library, in order: two shards
/// belong to one run only if they agree on it.
fn library_fingerprint(rules: &[Rule], sizes: &[usize]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for (r, n) in rules.iter().zip(sizes) {
        h.update(format!("{}:{n}\n", r.name).as_bytes());
    }
    h.finalize()[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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

/// The widths every rule is tried at (each rule adds its own, see
/// `diopter_rules::widths`): `--widths`, and with `--all-widths` (for
/// every rule) every width from 1 to 64.
pub fn base_widths(a: &Args) -> Vec<u64> {
    let mut ws: Vec<u64> = a.widths.to_vec();
    if a.all_widths == Some(AllWidths::Every) {
        ws.extend(widths::all_widths());
        ws.sort_unstable();
        ws.dedup();
    }
    ws
}

/// Proves the rule library (`--transforms` is `prove_transforms_cmd::run`,
/// chosen by `main`).
pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

/// [`run`], printing to `wout` and `werr`; returns the exit status.
pub fn run_to(a: &Args, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    if !a.merge.is_empty() {
        return merge(a, wout, werr);
    }
    let paths = match crate::library::or_default(&a.paths) {
        Ok(p) => p,
        Err(e) => {
            outln!(werr, "error: {e}");
            return 2;
        }
    };
    for p in &paths {
        if !p.exists() {
            outln!(werr, "error: {}: no such file or directory", p.display());
            return 2;
        }
    }
    let mut rules = match load(&paths) {
        Ok(r) => r,
        Err(d) => {
            out!(werr, "{}", render_located(&d));
            return 2;
        }
    };
    if a.paths.is_empty() || a.generated {
        rules.extend(rules::generated_rules());
    }
    if !a.rule.is_empty() {
        rules.retain(|r| a.rule.iter().any(|f| r.name.contains(f.as_str())));
    }
    if rules.is_empty() {
        outln!(
            werr,
            "error: no rule to prove in {}{}: nothing was checked",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            if a.rule.is_empty() {
                String::new()
            } else {
                format!(" whose name contains {:?}", a.rule)
            }
        );
        return 2;
    }
    let base = base_widths(a);
    let start = Instant::now();
    let instances: Vec<Vec<Instance>> = rules
        .iter()
        .map(|r| r.instances_at(&base, a.all_widths == Some(AllWidths::Bounded)))
        .collect();
    let sizes: Vec<usize> = instances.iter().map(Vec::len).collect();
    let (si, sn) = a.shard.unwrap_or((1, 1));
    let mine = shard_rules(&sizes, si, sn);
    let work: Vec<(usize, Instance)> = instances
        .into_iter()
        .enumerate()
        .filter(|(k, _)| mine[*k])
        .flat_map(|(k, is)| is.into_iter().map(move |i| (k, i)))
        .collect();
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let cfg = ProveConfig {
        timeout_ms: a.timeout,
        split_first: false,
        deadline: a.time_limit.map(|t| start + t),
        values_first: false,
    };
    let cache = (!a.no_cache).then(|| ProofCache::new(&a.cache_dir));
    let keys: Vec<Option<String>> = work
        .iter()
        .map(|(_, i)| cache.as_ref().map(|c| c.key(i)))
        .collect();
    // An instance whose twin in the other dialect poses the same question
    // (`Instance::dialect_twin_key`) is not decided again: it takes its
    // twin's verdict once the workers are done (2298 of the library's 9019
    // instances are such twins).
    let twin_of: Vec<Option<usize>> = {
        let mut first: std::collections::HashMap<String, usize> = Default::default();
        work.iter()
            .enumerate()
            .map(|(i, (_, inst))| {
                let key = inst.dialect_twin_key()?;
                match first.get(&key) {
                    Some(&j) => Some(j),
                    None => {
                        first.insert(key, i);
                        None
                    }
                }
            })
            .collect()
    };
    let to_decide = twin_of.iter().filter(|t| t.is_none()).count();
    let results: Vec<Mutex<Option<Value>>> = work.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    // A rule expected to be refuted needs one refutation: its other
    // instances are skipped once one is refuted.
    let refuted_rules: Vec<std::sync::atomic::AtomicBool> = rules
        .iter()
        .map(|_| std::sync::atomic::AtomicBool::new(false))
        .collect();
    let done = AtomicUsize::new(0);
    let from_cache = AtomicUsize::new(0);
    let cache_errors = AtomicUsize::new(0);
    outln!(
        werr,
        "proving {} instances of {} rules{} (widths {:?}, timeout {} ms, {jobs} jobs{})",
        work.len(),
        mine.iter().filter(|m| **m).count(),
        a.shard
            .map(|(i, n)| format!(", shard {i}/{n} of {} rules", rules.len()))
            .unwrap_or_default(),
        base,
        a.timeout,
        if cache.is_some() {
            format!(", cache {}", a.cache_dir.display())
        } else {
            ", no cache".into()
        }
    );
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((k, inst)) = work.get(i) else { break };
                if twin_of[i].is_some() {
                    continue;
                }
                let expect_refuted = rules[*k].expect_refuted();
                let cached = match (&cache, &keys[i]) {
                    (Some(c), Some(key)) => c.get(key),
                    _ => None,
                };
                let rec = if let Some(mut v) = cached {
                    from_cache.fetch_add(1, Ordering::SeqCst);
                    v["cached"] = json!(true);
                    v
                } else if expect_refuted && refuted_rules[*k].load(Ordering::SeqCst) {
                    record(&Outcome {
                        verdict: Verdict::Skipped("the rule is already refuted".into()),
                        millis: 0,
                    })
                } else {
                    let v = record(&prove_instance(inst, &cfg));
                    if let (Some(c), Some(key)) = (&cache, &keys[i]) {
                        if cacheable(v["verdict"].as_str().unwrap_or("")) && c.put(key, &v).is_err()
                        {
                            cache_errors.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                    v
                };
                if expect_refuted && rec["verdict"] == "refuted" {
                    refuted_rules[*k].store(true, Ordering::SeqCst);
                }
                *results[i].lock().expect("not poisoned") = Some(rec);
                done.fetch_add(1, Ordering::SeqCst);
            });
        }
        // Progress for long runs.
        let mut last = Instant::now();
        while done.load(Ordering::SeqCst) < to_decide {
            std::thread::sleep(Duration::from_millis(100));
            if last.elapsed() >= Duration::from_secs(5) {
                outln!(
                    werr,
                    "  {}/{} instances ({} from the cache; {} more are dialect twins), {:.1} s",
                    done.load(Ordering::SeqCst),
                    to_decide,
                    from_cache.load(Ordering::SeqCst),
                    work.len() - to_decide,
                    start.elapsed().as_secs_f64()
                );
                last = Instant::now();
            }
        }
    });
    if cache_errors.load(Ordering::SeqCst) > 0 {
        outln!(
            werr,
            "warning: {} verdicts could not be written to the cache in {}",
            cache_errors.load(Ordering::SeqCst),
            a.cache_dir.display()
        );
    }
    let mut recs: Vec<Option<Value>> = results
        .into_iter()
        .map(|m| m.into_inner().expect("not poisoned"))
        .collect();
    for (i, t) in twin_of.iter().enumerate() {
        if let Some(j) = *t {
            let mut v = recs[j].clone().expect("every instance decided ran");
            // `cached` stays the twin's: this verdict came from the cache
            // exactly when the twin's did.
            v["millis"] = json!(0);
            v["twin_of"] = json!(binding(&work[j].1));
            recs[i] = Some(v);
        }
    }
    let recs: Vec<Value> = recs
        .into_iter()
        .map(|r| r.expect("every instance ran"))
        .collect();
    let total = start.elapsed();

    // One JSON document; everything else is rendered from it.
    let rules_json: Vec<Value> = rules
        .iter()
        .enumerate()
        .filter(|(k, _)| mine[*k])
        .map(|(k, r)| {
            let insts: Vec<Value> = work
                .iter()
                .zip(&recs)
                .filter(|((kk, _), _)| *kk == k)
                .map(|((_, inst), rec)| {
                    let mut v = rec.clone();
                    v["binding"] = json!(binding(inst));
                    v["types"] = binding_types(inst);
                    v
                })
                .collect();
            json!({
                "index": k,
                "name": r.name,
                "origin": r.origin.to_string(),
                "relation": match r.relation { Relation::Equivalent => "equivalent", Relation::ReadOnly => "read-only", Relation::Lossy => "lossy" },
                "expect": if r.expect_refuted() { "refuted" } else { "holds" },
                "kind": if r.lemma { "lemma" } else { "rule" },
                "simplifier": match r.not_applied() {
                    None => "applies".to_string(),
                    Some(why) => format!("not applied: {why}"),
                },
                "instances": insts,
            })
        })
        .collect();
    let mut doc = json!({
        "widths": base,
        "timeout_ms": a.timeout,
        "strict": a.strict,
        "total_seconds": total.as_secs_f64(),
        "jobs": jobs,
        "library": { "rules": rules.len(), "fingerprint": library_fingerprint(&rules, &sizes) },
        "shard": a.shard.map(|(i, n)| json!({"index": i, "count": n})),
        "rules": rules_json,
    });
    finish(a, &mut doc, wout, werr)
}

/// Adds each rule's status and the summary to `doc`, prints it, writes the
/// reports, and gives the gate's exit status.
fn finish(a: &Args, doc: &mut Value, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    let mut counts = [0usize; 3];
    let mut all_categories: Vec<String> = Vec::new();
    let mut instances = 0;
    let mut cached = 0;
    let mut failed = false;
    for r in doc["rules"].as_array_mut().into_iter().flatten() {
        let verdicts: Vec<String> = r["instances"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|i| category(i).to_string())
            .collect();
        let vs: Vec<&str> = verdicts.iter().map(String::as_str).collect();
        let (status, summary) = rule_status(r["expect"] == "refuted", &vs);
        all_categories.extend(verdicts.iter().cloned());
        r["counts"] = count_categories(vs.iter().copied());
        let covers = coverage(r);
        r["covers"] = covers;
        instances += vs.len();
        cached += r["instances"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|i| i["cached"] == true)
            .count();
        counts[status as usize] += 1;
        if status == Status::Fail || (status == Status::Unknown && a.strict) {
            failed = true;
        }
        r["status"] = json!(status.label());
        r["summary"] = json!(summary);
    }
    let instance_counts = count_categories(all_categories.iter().map(String::as_str));
    let summary_line = format!(
        "{} rules: {} ok, {} unknown, {} FAIL; {} instances ({}) in {:.1} s{}",
        counts.iter().sum::<usize>(),
        counts[Status::Ok as usize],
        counts[Status::Unknown as usize],
        counts[Status::Fail as usize],
        instances,
        describe_counts(&instance_counts),
        doc["total_seconds"].as_f64().unwrap_or(0.0),
        if cached > 0 {
            format!(" ({cached} from the cache)")
        } else {
            String::new()
        }
    );
    doc["summary"] = json!(summary_line);
    doc["counts"] = instance_counts;
    match a.format {
        Format::Text => out!(wout, "{}", render_text(doc, a.verbose)),
        Format::Json => outln!(
            wout,
            "{}",
            serde_json::to_string_pretty(doc).unwrap_or_default()
        ),
    }
    // A shard's report would be a fraction of the library's: only the merge
    // writes one.
    let whole_library = a.paths.is_empty() && a.rule.is_empty();
    let dir = a
        .report_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("reports"));
    if !a.no_report && a.shard.is_none() && (whole_library || a.report_dir.is_some()) {
        if let Err(e) = write_reports(&dir, doc) {
            outln!(
                werr,
                "warning: writing the reports in {}: {e}",
                dir.display()
            );
        }
    }
    u8::from(failed)
}

/// `--merge`: the shards' documents as one unsharded run's.
fn merge(a: &Args, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    let mut docs = Vec::new();
    for p in &a.merge {
        let doc = std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| e.to_string()));
        match doc {
            Ok(d) => docs.push((p, d)),
            Err(e) => {
                outln!(werr, "error: {}: {e}", p.display());
                return 2;
            }
        }
    }
    match merge_docs(&docs) {
        Ok(mut doc) => finish(a, &mut doc, wout, werr),
        Err(e) => {
            outln!(werr, "error: --merge: {e}");
            2
        }
    }
}

fn merge_docs(docs: &[(&PathBuf, Value)]) -> Result<Value, String> {
    let (first_path, first) = &docs[0];
    let same = ["widths", "timeout_ms", "strict", "library"];
    let count = first["shard"]["count"].as_u64().ok_or_else(|| {
        format!(
            "{}: not the JSON of a `prove --shard I/N` run",
            first_path.display()
        )
    })?;
    // The shards seen, not a flag per shard: `count` is read from the
    // user's JSON, and a vector of that many would be an allocation of any
    // size.
    let mut seen = std::collections::BTreeSet::new();
    let mut rules: Vec<Value> = Vec::new();
    let mut seconds: f64 = 0.0;
    for (p, d) in docs {
        for k in same {
            if d[k] != first[k] {
                return Err(format!(
                    "{} and {} differ in `{k}`: not shards of one run",
                    first_path.display(),
                    p.display()
                ));
            }
        }
        let (i, n) = (d["shard"]["index"].as_u64(), d["shard"]["count"].as_u64());
        let (Some(i), Some(n)) = (i, n) else {
            return Err(format!(
                "{}: not the JSON of a `prove --shard I/N` run",
                p.display()
            ));
        };
        if n != count || i == 0 || i > n {
            return Err(format!(
                "{}: shard {i}/{n} of a run of {count} shards",
                p.display()
            ));
        }
        if !seen.insert(i) {
            return Err(format!("shard {i}/{n} is given twice"));
        }
        let mine = d["rules"].as_array().cloned().unwrap_or_default();
        // `finish` sets each rule's status by key, which serde_json allows
        // only on an object.
        if mine.iter().any(|r| !r.is_object()) {
            return Err(format!(
                "{}: a rule that is not a JSON object: not the JSON of a `prove --shard I/N` run",
                p.display()
            ));
        }
        rules.extend(mine);
        seconds = seconds.max(d["total_seconds"].as_f64().unwrap_or(0.0));
    }
    // At most `docs.len()` shards are seen, so this looks at no more than
    // one more than that.
    if let Some(missing) = (1..=count).find(|k| !seen.contains(k)) {
        return Err(format!("shard {missing}/{count} is missing"));
    }
    rules.sort_by_key(|r| r["index"].as_u64());
    for r in &mut rules {
        if let Some(o) = r.as_object_mut() {
            o.remove("status");
            o.remove("summary");
        }
    }
    if rules.len() as u64 != first["library"]["rules"].as_u64().unwrap_or(0) {
        return Err(format!(
            "the shards hold {} rules, the library {}",
            rules.len(),
            first["library"]["rules"]
        ));
    }
    Ok(json!({
        "widths": first["widths"],
        "timeout_ms": first["timeout_ms"],
        "strict": first["strict"],
        "total_seconds": seconds,
        "library": first["library"],
        "shard": Value::Null,
        "merged_from": count,
        "rules": rules,
    }))
}

fn render_text(doc: &Value, verbose: bool) -> String {
    let mut s = String::new();
    for r in doc["rules"].as_array().into_iter().flatten() {
        let expect_refuted = r["expect"] == "refuted";
        let rel = if r["relation"] == "read-only" {
            "=>ro"
        } else {
            "=>"
        };
        // A rule the simplifier leaves out for another reason than being
        // known false says so: a user proving a lateral rule learns that it
        // is sound but will not be applied.
        let not_applied = match (r["simplifier"].as_str(), expect_refuted) {
            (Some(s), false) if s.starts_with("not applied") => {
                format!(
                    " ({})",
                    s.replace("not applied", "not applied by the simplifier")
                )
            }
            _ => String::new(),
        };
        s += &format!(
            "{} {} [{rel}] {}{}{not_applied}: {}{}\n",
            r["status"].as_str().unwrap_or(""),
            r["name"].as_str().unwrap_or(""),
            r["origin"].as_str().unwrap_or(""),
            if expect_refuted {
                " (expected refuted)"
            } else {
                ""
            },
            r["summary"].as_str().unwrap_or(""),
            covers_note(r)
        );
        let mut shown_cex = false;
        for i in r["instances"].as_array().into_iter().flatten() {
            let verdict = i["verdict"].as_str().unwrap_or("");
            // Without --verbose, an instance is listed only when it is not
            // as its rule claims, or when it shows a refuted rule's
            // counterexample: thousands of `proved` lines hide the one
            // that matters.
            let as_claimed = if expect_refuted {
                verdict != "refuted" || shown_cex
            } else {
                matches!(verdict, "proved" | "not-applicable" | "skipped")
            };
            if !verbose && as_claimed {
                continue;
            }
            // A proof by trying every input says so: `proved (exhaustive,
            // N inputs)`.
            let reason = i["reason"].as_str();
            let shown = match reason {
                Some(m) if verdict == "proved" => format!("proved ({m})"),
                _ => verdict.to_string(),
            };
            s += &format!(
                "    {:<14} {:>7} ms  {}",
                shown,
                i["millis"].as_u64().unwrap_or(0),
                i["binding"].as_str().unwrap_or("")
            );
            if let Some(m) = reason.filter(|_| verdict != "proved") {
                s += &format!("  ({})", m.lines().next().unwrap_or(""));
            }
            s.push('\n');
            // One counterexample per rule keeps the output readable; a
            // rule that claims to hold shows its first refutation.
            if verdict == "refuted" && !shown_cex {
                s += &indent(i["counterexample"]["text"].as_str().unwrap_or(""), "    ");
                shown_cex = true;
            } else if verdict == "encoding-bug" {
                s += &indent(i["reason"].as_str().unwrap_or(""), "      ");
            }
        }
    }
    s += doc["summary"].as_str().unwrap_or("");
    s.push('\n');
    s
}

/// `; proved at i1..i8, ...` for a rule with proved instances (what its
/// proof covers, and so what it does not), else nothing.
fn covers_note(r: &Value) -> String {
    if r["counts"]["proved"].as_u64().unwrap_or(0) == 0 {
        return String::new();
    }
    format!("; proved at {}", r["covers"]["text"].as_str().unwrap_or(""))
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}\n")).collect()
}

fn write_reports(dir: &Path, doc: &Value) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(
        dir.join("proofs.json"),
        serde_json::to_string_pretty(doc).unwrap_or_default() + "\n",
    )?;
    let mut md = String::from("# Proofs of the rule library\n\nGenerated by `diopter prove`; see `reports/proofs.json` for every instance.\n\n");
    md += &format!(
        "{}\n\nA proof covers the instances checked and nothing more: the last column names the integer widths, float kinds and other types the rule's type variables were proved at.\n\n| rule | expect | status | instances | slowest | proved at |\n|---|---|---|---|---|---|\n",
        doc["summary"].as_str().unwrap_or("")
    );
    for r in doc["rules"].as_array().into_iter().flatten() {
        let slowest = r["instances"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i["millis"].as_u64())
            .max()
            .unwrap_or(0);
        md += &format!(
            "| `{}` | {} | {} | {} | {} ms | {} |\n",
            r["name"].as_str().unwrap_or(""),
            r["expect"].as_str().unwrap_or(""),
            r["status"].as_str().unwrap_or(""),
            r["summary"].as_str().unwrap_or(""),
            slowest,
            covers_note(r).trim_start_matches("; proved at ")
        );
    }
    std::fs::write(dir.join("proofs.md"), md)
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
