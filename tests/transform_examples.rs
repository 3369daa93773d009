//! The file `diopter transform` names for each pass (when a pass finds
//! nothing to rewrite, and in `--help`'s EXAMPLES) is one that pass
//! rewrites, with every variable's location kept; and the spec's own
//! before-programs, which elide what sroa, proven-constant and induction
//! look at, are refused with that pointer rather than silently.

mod common;
use common::{diopter, stderr};

#[test]
fn each_pass_rewrites_its_example() {
    for (pass, file, verdict) in [
        ("sroa", "corpus/transforms/sroa-before.ll", "equivalent"),
        (
            "proven-constant",
            "corpus/transforms/proven-constant-before.ll",
            "read-only refinement",
        ),
        (
            "induction",
            "corpus/transforms/induction-before.ll",
            "read-only refinement",
        ),
        ("mem2reg", "corpus/spec/01-alloca.ll", "equivalent"),
        ("spill", "corpus/spec/03-mem2reg-canonical.ll", "equivalent"),
        (
            "cse",
            "corpus/transforms/cse-before.ll",
            "read-only refinement",
        ),
        (
            "flatten",
            "corpus/spec/13-further-decomposition-after.ll",
            "equivalent",
        ),
    ] {
        let o = diopter(&["transform", "--pass", pass, file]);
        assert_eq!(o.status.code(), Some(0), "{pass} {file}: {}", stderr(&o));
        assert!(stderr(&o).contains(verdict), "{pass}: {}", stderr(&o));
    }
}

#[test]
fn the_spec_before_programs_point_at_the_examples() {
    for (pass, spec) in [
        ("sroa", "corpus/spec/10-two-scalars-before.ll"),
        (
            "proven-constant",
            "corpus/spec/19-proven-constant-before.ll",
        ),
        ("induction", "corpus/spec/17-induction-variable-before.ll"),
    ] {
        let o = diopter(&["transform", "--pass", pass, spec]);
        assert_eq!(o.status.code(), Some(2), "{pass}");
        let e = stderr(&o);
        assert!(e.contains("finds nothing to rewrite"), "{e}");
        assert!(
            e.contains(&format!(
                "corpus/transforms/{pass}-before.ll is a file it rewrites"
            )),
            "{e}"
        );
    }
}
