//! `diopter transform`: apply one of the spec's debug-information updates to
//! an IR file, print the result, and check that every variable's location is
//! kept at every program instruction in random contexts.
//!
//! The passes and the check are `diopter_transforms`.

use crate::inputs;
use diopter_semantics::diag::{Severity, Source};
use diopter_semantics::syntax::module::parse_module;
use diopter_transforms::{apply, check_equivalent, PASSES};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

pub const TRANSFORM_HELP: &str = "\
PASSES
  sroa     a bounded DIOpReferrer(iN) lifetime of %x becomes a computed
           DIOpComposite of two DIFragments with bounded lifetimes on %x.lo
           and %x.hi (spec \"Variable Broken Into Two Scalars\")
  mem2reg  a DIOpReferrer(<stack slot>), DIOpDeref lifetime of %a becomes
           DIOpReferrer(T) of the promoted value %a.val (spec \"Variable
           Promoted To An SSA Register\")
  spill    beside a DIOpReferrer(T) lifetime of %x, a second bounded lifetime
           locates the variable in the spill slot %x.spill too (spec
           \"Multiple Live Ranges\", \"Spilling\")
  proven-constant
           a DIOpReferrer(iN) lifetime of %x, where the program says
           `%x = iN K` or `%x = add iN A, B` of literals, becomes
           DIOpConstant(iN K) with an `undef` referrer (spec \"Proven
           Constant\"); a read-only refinement: the variable can no longer
           be assigned, which the check allows for this pass only
  induction
           a DIOpReferrer(iN) lifetime of %i, where the program says
           `%i = add iN %x, %y` and %x, %y are the referrers of other
           variables' lifetimes active wherever i's is, becomes
           DIOpArg(0, iN), DIOpArg(1, iN), DIOpAdd() over those variables
           with an `undef` referrer (spec \"Induction Variable\"); a
           read-only refinement
  flatten  a computed lifetime whose argument is a DIFragment described only
           by another computed lifetime takes that expression in place of
           the argument; the fragment and its lifetime are removed (undoing
           the spec's \"shallow update\", \"Further Decomposition\")
  cse      a load `%b = load T, P %p` repeating `%a = load T, P %p` of the
           same block, with nothing between that may write memory (a store,
           a call, a volatile load, an instruction diopter does not know), is
           deleted and %b replaced by %a; every lifetime def'd with %a or %b
           (each must be DIOpReferrer(T)) becomes DIOpReferrer(T), DIOpRead()
           of %a (spec \"Common Subexpression Elimination (CSE)\"); a
           read-only refinement
  Only lifetimes with exactly one llvm.dbg.def whose object has no other
  lifetime are rewritten (flatten: computed ones; cse: every lifetime of
  the two loaded values). Program instructions are left alone, except the
  load cse deletes.

CHECK
  For N random contexts of the original program (entities of the defs'
  referrers random, memory seeded), the optimized program's context is
  derived (the halves of %x, the value in the slot, the spill slot's copy;
  two loads of one pointer with no store between give one value), and at
  every program instruction (debug intrinsics excluded; a load cse deleted
  has no counterpart) every variable is read before and after, and a
  pattern is written through it: both writes must be accepted or both
  refused (a read-only refinement may refuse what the original accepts),
  and the written original context, mapped, must equal the optimized
  program's written context on the storage the optimized program still has
  (the entities its defs name; memory except promoted stack slots).

EXAMPLES
  The spec's before-programs elide the values the passes look at
  (`%x = i64 ...`); corpus/transforms/ has them written out:
    diopter transform --pass sroa corpus/transforms/sroa-before.ll
    diopter transform --pass proven-constant corpus/transforms/proven-constant-before.ll
    diopter transform --pass induction corpus/transforms/induction-before.ll
    diopter transform --pass cse corpus/transforms/cse-before.ll

EXIT STATUS
  0 the result is equivalent; 1 a location changed (the mismatches are on
  stderr); 2 unreadable input, or the pass finds nothing to rewrite.";

/// A file of the corpus each pass rewrites. The spec's own before-programs
/// of sroa, proven-constant and induction elide what the pass needs to see
/// (`%x = i64 ...`), so those passes find nothing in them; these files are
/// the same programs with it written out.
fn example_of(pass: &str) -> Option<&'static str> {
    Some(match pass {
        "sroa" => "corpus/transforms/sroa-before.ll",
        "proven-constant" => "corpus/transforms/proven-constant-before.ll",
        "induction" => "corpus/transforms/induction-before.ll",
        "mem2reg" => "corpus/spec/01-alloca.ll",
        "spill" => "corpus/spec/03-mem2reg-canonical.ll",
        "cse" => "corpus/transforms/cse-before.ll",
        "flatten" => "corpus/spec/13-further-decomposition-after.ll",
        _ => return None,
    })
}

/// The most random contexts `--contexts` takes: each costs a run of both
/// programs, and more than this many is no longer a check that ends.
pub const MAX_CONTEXTS: u64 = 100_000;

#[derive(clap::Args)]
pub struct Args {
    /// An IR file (.ll/.mir).
    pub file: PathBuf,
    /// The pass (see below).
    #[arg(long, value_name = "NAME")]
    pub pass: String,
    /// How many random contexts the check uses (1 to 100000).
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u64).range(1..=MAX_CONTEXTS))]
    pub contexts: u64,
    /// Rewrite at most this many lifetimes (at least 1; default: all).
    #[arg(long, value_name = "N", default_value_t = usize::MAX,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub limit: usize,
}

pub fn run(a: &Args) -> ExitCode {
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    ExitCode::from(run_to(a, &mut out, &mut err))
}

/// [`run`] writing to `wout` and `werr` (so that the `cli` fuzz target runs
/// it in process); the exit status.
pub fn run_to(a: &Args, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    let text = match inputs::read(&a.file) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(werr, "diopter transform: {e}");
            return 2;
        }
    };
    let src = Source::new(a.file.display().to_string(), text);
    let (_, ds) = parse_module(&src.text);
    let mut unreadable = false;
    for d in &ds {
        let _ = write!(werr, "{}", src.render(d));
        unreadable |= d.severity == Severity::Error;
    }
    if unreadable {
        return 2;
    }
    if !PASSES.contains(&a.pass.as_str()) {
        let _ = writeln!(
            werr,
            "diopter transform: unknown pass `{}` (passes: {})",
            a.pass,
            PASSES.join(", ")
        );
        return 2;
    }
    let t = match apply(&a.pass, &src.text, a.limit) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(werr, "diopter transform: {}: {e}", src.name);
            if let Some(example) = example_of(&a.pass) {
                let _ = writeln!(
                    werr,
                    "  (what `{}` rewrites is under PASSES in `diopter transform --help`; \
                     {example} is a file it rewrites)",
                    a.pass
                );
            }
            return 2;
        }
    };
    let _ = write!(wout, "{}", t.text);
    let _ = writeln!(werr, "{}", t.summary);
    match check_equivalent(&src.text, &t, a.contexts) {
        Ok(()) if t.read_only_refinement => {
            let _ = writeln!(
                werr,
                "read-only refinement: every variable reads alike at every program instruction in {} random contexts, and every write the result accepts has the same effect",
                a.contexts
            );
            0
        }
        Ok(()) => {
            let _ = writeln!(
                werr,
                "equivalent: every variable reads and writes alike at every program instruction in {} random contexts",
                a.contexts
            );
            0
        }
        Err(ms) => {
            for m in ms.iter().take(20) {
                let _ = writeln!(werr, "NOT EQUIVALENT: {m}");
            }
            if ms.len() > 20 {
                let _ = writeln!(werr, "... and {} more", ms.len() - 20);
            }
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn args(file: &str, pass: &str) -> Args {
        Args {
            file: Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
            pass: pass.into(),
            contexts: 4,
            limit: usize::MAX,
        }
    }

    /// 0 when the rewrite is equivalent, 2 when nothing applies, the pass is
    /// unknown or the file is missing (a mismatch, exit 1, cannot come from
    /// the passes as written; `oracles/transforms/tests/transform_spec.rs` plants them).
    #[test]
    fn exit_codes() {
        assert_eq!(
            run(&args(
                "corpus/spec/13-further-decomposition-after.ll",
                "flatten"
            )),
            ExitCode::SUCCESS
        );
        assert_eq!(
            run(&args("corpus/spec/03-mem2reg-canonical.ll", "sroa")),
            ExitCode::SUCCESS
        );
        assert_eq!(
            run(&args("corpus/transforms/cse-before.ll", "cse")),
            ExitCode::SUCCESS
        );
        assert_eq!(
            run(&args("corpus/spec/21-cse-expected.ll", "cse")),
            ExitCode::from(2)
        );
        assert_eq!(
            run(&args("corpus/spec/01-alloca.ll", "spill")),
            ExitCode::from(2)
        );
        assert_eq!(
            run(&args("corpus/spec/01-alloca.ll", "nope")),
            ExitCode::from(2)
        );
        assert_eq!(
            run(&args("corpus/spec/no-such-file.ll", "sroa")),
            ExitCode::from(2)
        );
    }
}
