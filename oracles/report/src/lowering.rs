//! `reports/lowering.md`: how much of the language the DWARF lowering
//! covers, against the goals (the corpus's expressions and generated cases,
//! with AMD's extensions), and for everything that does not lower, why.
//! The figures come from `diopter_dwarf::coverage`, run on the current
//! code; the reasons' explanations are written here, and the report says so
//! when a reason has none (the report test then fails).

use crate::{cell, corpus_expr_files, Report};
use diopter_dwarf::coverage::{self, Coverage};
use diopter_gen::{Case, GenConfig, Generate};
use serde_json::json;
use std::fmt::Write;
use std::path::Path;

/// The seeds of generated cases measured (those `oracles/harness/tests/dwarf_gen.rs` and
/// `oracles/harness/tests/dwarf_ext.rs` compare against gimli and the reference).
pub const GENERATED_SEEDS: u64 = 4000;
/// The goals (percent, with AMD's extensions): corpus, generated.
pub const GOALS: (f64, f64) = (95.0, 60.0);

/// Why a reason class stays: (prefix of the class, why). The first
/// matching prefix explains it.
pub const WHY: &[(&str, &str)] = &[
    ("an iN value", "integer values wider than 255 bytes: the extension evaluator computes in integer base types of any size (its decision 13; gimli's values, and so DWARF 5 here, stop at 64 bits), but `DW_OP_const_type` gives its constant's length and `DW_OP_deref_type` its size in one byte, so no wider value can be made or read"),
    ("a half value", "half without AMD's extensions: gimli computes IEEE single and double only (the extension evaluator has a half base type, its decision 14)"),
    ("a bfloat value", "bfloat without AMD's extensions: as half; DWARF has no encoding telling bfloat from half (the extension evaluator's base type is told by its name, `__bf16`)"),
    ("a fpN value", "fp128 without AMD's extensions: gimli computes IEEE single and double only (the extension evaluator has a binary128 base type, its decision 14)"),
    ("a xN_fpN value", "x86_fp80 without AMD's extensions: gimli computes IEEE single and double only (the extension evaluator has an x87 base type, its decision 15)"),
    ("a `", "aggregates and vectors as values of no bits, or wider than 255 bytes (64 bits without the extensions): a vector, array or struct value is held as its bits in an integer base type (the unsigned one of its size, or as a narrow integer in a signed container), and none is that wide (their locations lower)"),
    ("DIOpPushLane", "the lane does not fit the type (the spec's error `ConvertOutOfRange`, which no DWARF operation has), or the context has no lane"),
    ("a N-bit pointer", "pointers wider than 64 bits: DWARF addresses are 64 bits here"),
    ("an implicit pointer to a location computed at run time", "`DW_OP_implicit_pointer` names a DIE; a location computed at run time would need a DIE whose location is that computation, evaluated in the referring expression's context"),
    ("DIOpConvert from a float to an integer", "`DW_OP_convert` has no out-of-range error where the spec fails on NaN, infinities and values that do not fit"),
    ("DIOpConvert from an integer wider than N bits to a float", "the extension evaluator converts no wide integer to a float (its decision 13: gimli's conversion, which it shares for 64-bit values, has no wide side)"),
    ("a composite formed while another one's pieces are being added", "every piece joins the open composite on top of the stack: a second composite cannot be formed inside the first one's pieces"),
    ("a run-time offset while a composite's pieces are being added", "the guard of a run-time offset forms a composite outside the storage, which would join the open one"),
    ("a composite whose parts read or divide at run time", "a DIOpComposite read mid-expression is formed when read, after later operations: its parts' failures would come in another order than the spec's"),
    ("the context gives", "the reference fails (`NoObject`, `NoArgument`, ...); DWARF has no operation failing so"),
    ("a float computed by DWARF arithmetic", "the NaN payloads of DWARF float arithmetic are unspecified, so its bits may not be exposed"),
    ("a bit offset computed at run time", "into a computed address whose range is unknown (DWARF's address arithmetic wraps where the spec's offsets do not), or into a location already moved at run time"),
    ("a byte offset computed at run time", "into a location already moved at run time, or one of several places (each single location would need its own guard)"),
    ("an address in", "DWARF's address arithmetic wraps modulo 2^64 (AMD's form_aspace_address truncates to the space's width) where the spec's offsets do not: an address that may leave its space is not lowered"),
    ("a bit offset that is not on a byte, into a computed memory location", "a computed address moves by whole bytes: a constant bit offset that is not on a byte into it would need DW_OP_LLVM_bit_offset of a location whose range is unknown"),
    ("an offset to bit", "AMD's offset operations fail at once outside the storage, where the spec fails only when the location is read"),
    ("a location at bit", "AMD's offset operations fail at once outside the storage, where the spec fails only when the location is read"),
    ("one of several single locations", "a location-list entry is a DWARF expression, which cannot leave its storage"),
    ("a location computed at run time where one known when lowering is needed", "an implicit pointer's object is a DIE: its location must be known when lowering"),
    ("DIOpExtend", "DWARF 5 cannot repeat a stack entry (with AMD's extensions DW_OP_LLVM_extend does)"),
    ("DIOpSelect", "needs DW_OP_LLVM_select_bit_piece (AMD's extensions)"),
    ("DIOpAddrOf", "DW_OP_implicit_pointer needs a DIE for the object"),
    ("a value read at bits", "a register read (`DW_OP_bregx`) yields at most the register's low 64 bits: a value whose bits end past the 64th is beyond it"),
    ("a N-bit value at bit N of a byte", "the value's bits span more than 8 bytes of memory, and `DW_OP_deref_size` reads at most 8"),
    ("a value read", "DWARF 5 reads only memory and registers (AMD's extensions read any location)"),
    ("a pointer read", "DWARF 5 reads only memory and registers (AMD's extensions read any location)"),
    ("a memory location in address space", "DWARF 5 memory locations have no address space (AMD's DW_OP_LLVM_form_aspace_address)"),
    ("an input with", "DWARF 5 describes one location per expression (AMD's extensions: a location list of all the places)"),
    ("arithmetic on `", "arithmetic on vectors of floats (and on half and bfloat without the extensions): a float lane computed by DWARF arithmetic and put back among the vector's bits would expose a NaN payload DWARF leaves unspecified, so these values' bits are only moved (read, reinterpreted, the result); integer vectors are computed lane by lane"),
    ("DIOpConvert from `", "a conversion from or to a vector or an aggregate (or half and bfloat without the extensions): DW_OP_convert converts scalars, and these values' bits are only moved"),
    ("a N-bit value computed in a N-bit base type, as a location", "a value whose base type is wider than its type, as a location: the object of `DIOpAddrOf` when narrow (`DIOpDeref` could retype it and read past its bits), or a value retyped by `DIOpAddrOf` and `DIOpDeref` to a narrower type (its location is all its base type's bits); elsewhere a narrow value's location is a composite of its bits and an empty implicit value"),
    ("address space N has N-bit pointers", "pointers wider than 64 bits: DWARF addresses are 64 bits here"),
    ("a composite part of another size than its parts", "the pieces of a composite input's part would not add up to the part's size"),
    ("a result of no bits", "DWARF has no empty piece list"),
    ("a negative bit offset into a register", "a `DW_OP_bit_piece` offset is unsigned, and AMD's offsets fail at once outside the register"),
    ("the bits of a float computed by DWARF arithmetic", "the NaN payloads of DWARF float arithmetic are unspecified, so its bits may not be exposed"),
    ("an offset into a float computed by DWARF arithmetic", "the NaN payloads of DWARF float arithmetic are unspecified, so its bits may not be exposed"),
    ("a N-bit implicit value as a location", "`DW_OP_implicit_value` holds whole bytes: a value whose width is not a multiple of 8 would be padded, and reads past it would succeed"),
    ("a run-time offset into a location already on the stack", "the guard's outside branch must fail as the storage does (a write to implicit storage is refused as implicit, elsewhere out of bounds), and a location on the stack does not say which storage it is"),
    ("a location moved by an offset computed at run time as a composite part", "the guard of a run-time offset makes a location outside its storage one that fails every read, but a part starting before its storage reaches back into it, which a later offset into the composite reads in the spec"),
    ("a composite part reaching from before the start of an implicit value", "a `DW_OP_bit_piece` offset is unsigned: a part starting before an implicit value cannot be a piece of it, and an empty one would fail reads the spec lets reach into the value"),
    ("a composite part reading past the end of a N-bit implicit value", "`DW_OP_implicit_value` holds whole bytes: the part would read padding bits where the reference fails"),
    ("reading past the end of a N-bit implicit value", "`DW_OP_implicit_value` holds whole bytes: the result would read padding bits where the reference fails"),
    ("a location before the start of an implicit value, offset", "AMD's offset operations fail at once outside the storage, where the spec fails only when the location is read"),
    ("an offset into a location moved by an offset computed at run time", "the location may have left its storage (the guard's other branch) and would come back, which AMD's checked offsets cannot say"),
    ("an offset into an implicit pointer", "an implicit pointer has no storage DWARF can offset"),
    ("a read past the end of an implicit value", "DWARF 5 cannot read an implicit location (AMD's extensions can)"),
    ("a byte offset beyond N bits", "a constant byte offset beyond 64 bits: DWARF's constants and addresses are 64 bits"),
    ("an implicit value at bit offset N outside it", "an offset of 2^64 bits or more: DWARF's piece offsets are 64-bit constants"),
    ("an implicit pointer as a lane location", "an implicit pointer has no storage DWARF can offset lane by lane"),
    ("a run-time offset into an empty storage or from outside it", "the guard needs a storage of known, non-zero size and a start inside it"),
];

/// A reason class with every run of digits replaced by `N`, so that the
/// same reason at other widths or offsets counts as one.
pub fn key(class: &str) -> String {
    let mut out = String::new();
    let mut in_digits = false;
    for ch in class.chars() {
        if ch.is_ascii_digit() {
            if !in_digits {
                out.push('N');
            }
            in_digits = true;
        } else {
            out.push(ch);
            in_digits = false;
        }
    }
    out
}

/// `c`'s reasons grouped by [`key`], most frequent first.
fn grouped(c: &Coverage) -> Vec<(String, usize)> {
    let mut m: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for (k, n) in &c.reasons {
        *m.entry(key(k)).or_default() += n;
    }
    let mut v: Vec<(String, usize)> = m.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

/// The explanation of a reason class, if there is one.
pub fn why(class: &str) -> Option<&'static str> {
    WHY.iter()
        .find(|(p, _)| class.starts_with(p))
        .map(|(_, w)| *w)
}

/// The report, measured now.
pub fn report(root: &Path) -> Report {
    let sources: Vec<(String, String)> = corpus_expr_files(root)
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(root).unwrap_or(&f).display().to_string();
            (rel, std::fs::read_to_string(&f).unwrap_or_default())
        })
        .collect();
    let corpus5 = coverage::corpus(&sources, false);
    let corpus_x = coverage::corpus(&sources, true);
    let cfg = GenConfig {
        max_ops: coverage::GENERATED_MAX_OPS,
        ..GenConfig::default()
    };
    let cases = || (0..GENERATED_SEEDS).map(|seed| Case::from_seed(seed, &cfg));
    let gen5 = coverage::generated(cases(), false);
    let gen_x = coverage::generated(cases(), true);
    render(&corpus5, &corpus_x, &gen5, &gen_x)
}

fn render(corpus5: &Coverage, corpus_x: &Coverage, gen5: &Coverage, gen_x: &Coverage) -> Report {
    let met = |p: f64, goal: f64| if p >= goal { "**met**" } else { "not met" };
    let mut md = String::new();
    md.push_str("# Lowering coverage\n\n");
    md.push_str("Generated by `diopter report` (`diopter_dwarf::coverage`). Do not edit.\n\n");
    md.push_str(
        "The share of expressions `diopter lower` lowers, to DWARF 5 and with AMD's \
         `DW_OP_LLVM_*` extensions (`--ext`). Corpus: every expression of `corpus/**/*.expr` but \
         parse-only lines and those meant to be ill-formed, its inputs in registers \
         (`diopter lower` without `--context`; lane 0 with the extensions). Generated: the \
         seeds 0..4000 of the generator (16 operations at most), each in its own context; the \
         same seeds `oracles/harness/tests/dwarf_ext.rs` evaluates against gimli and the \
         reference interpreter. Every lowering is checked against the reference by those tests \
         and by the `dwarf_diff` fuzz target; a case that lowers is not counted as agreeing, \
         only as lowered.\n\n",
    );
    md.push_str("| set | expressions | DWARF 5 | with AMD's extensions | goal | |\n|---|---:|---:|---:|---:|---|\n");
    let _ = writeln!(
        md,
        "| corpus | {} | {:.1} % ({}) | {:.1} % ({}) | {:.0} % | {} |",
        corpus_x.total,
        corpus5.percent(),
        corpus5.lowered,
        corpus_x.percent(),
        corpus_x.lowered,
        GOALS.0,
        met(corpus_x.percent(), GOALS.0)
    );
    let _ = writeln!(
        md,
        "| generated | {} | {:.1} % ({}) | {:.1} % ({}) | {:.0} % | {} |",
        gen_x.total,
        gen5.percent(),
        gen5.lowered,
        gen_x.percent(),
        gen_x.lowered,
        GOALS.1,
        met(gen_x.percent(), GOALS.1)
    );
    md.push_str(
        "\n## What does not lower with the extensions, and why\n\n\
         Each reason class (`NotLowerable::class`: the reason up to its first colon, numbers \
         written N) with how many corpus expressions and generated cases it stops, most \
         frequent first.\n\n\
         | reason | corpus | generated | why it stays |\n|---|---:|---:|---|\n",
    );
    let (gen_g, corpus_g) = (grouped(gen_x), grouped(corpus_x));
    let mut classes: Vec<(String, usize, usize)> = Vec::new();
    for (k, n) in &gen_g {
        let c = corpus_g
            .iter()
            .find(|(ck, _)| ck == k)
            .map_or(0, |(_, n)| *n);
        classes.push((k.clone(), c, *n));
    }
    for (k, n) in &corpus_g {
        if !gen_g.iter().any(|(gk, _)| gk == k) {
            classes.push((k.clone(), *n, 0));
        }
    }
    let mut unexplained = Vec::new();
    for (k, c, g) in &classes {
        let w = why(k).unwrap_or_else(|| {
            unexplained.push(k.clone());
            "(no explanation yet)"
        });
        let _ = writeln!(md, "| {} | {c} | {g} | {} |", cell(k), cell(w));
    }
    let summary = format!(
        "corpus {:.1} % with the extensions (goal {:.0} %), generated {:.1} % (goal {:.0} %)",
        corpus_x.percent(),
        GOALS.0,
        gen_x.percent(),
        GOALS.1
    );
    let side = |c: &Coverage| {
        json!({
            "total": c.total,
            "lowered": c.lowered,
            "percent": (c.percent() * 10.0).round() / 10.0,
            "reasons": c.reasons,
        })
    };
    let json = json!({
        "goals": {"corpus_percent": GOALS.0, "generated_percent": GOALS.1},
        "corpus": {"dwarf5": side(corpus5), "ext": side(corpus_x)},
        "generated": {"seeds": GENERATED_SEEDS, "dwarf5": side(gen5), "ext": side(gen_x)},
        "why": classes.iter().map(|(k, _, _)| json!({"reason": k, "why": why(k)})).collect::<Vec<_>>(),
        "unexplained": unexplained,
    });
    Report {
        stem: "lowering".into(),
        title: "Lowering coverage (`diopter lower`, DWARF 5 and AMD's extensions)".into(),
        summary,
        markdown: md,
        json,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Measured on this repository: every reason that stops a corpus
    /// expression or a generated case is explained, both goals hold,
    /// and the extensions lower at least what DWARF 5 does.
    #[test]
    fn the_lowering_report_explains_every_reason() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let r = report(&root);
        assert_eq!(r.json["unexplained"], json!([]), "{}", r.markdown);
        let pct = |set: &str, side: &str| r.json[set][side]["percent"].as_f64().unwrap();
        assert!(pct("corpus", "ext") >= GOALS.0, "{}", r.markdown);
        assert!(pct("generated", "ext") >= GOALS.1, "{}", r.markdown);
        assert!(pct("corpus", "ext") >= pct("corpus", "dwarf5"));
        assert!(pct("generated", "ext") >= pct("generated", "dwarf5"));
        assert_eq!(r.json["generated"]["ext"]["total"], json!(GENERATED_SEEDS));
        assert!(r.markdown.contains("| corpus | "), "{}", r.markdown);
    }

    #[test]
    fn why_matches_by_prefix() {
        assert!(why(&key("an i128 value")).is_some());
        assert_eq!(key("reading 32 bits at 4"), "reading N bits at N");
        assert!(why("a bfloat value").unwrap().contains("bfloat"));
        assert!(why("something new").is_none());
    }
}
