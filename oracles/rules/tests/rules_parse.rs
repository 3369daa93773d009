//! The rule language: the library parses, bad rule files give diagnostics
//! at the right line and column (with a caret), and the checks that make a
//! rule meaningful (holes and type variables bound by the left side, the
//! termination measure) reject what they should.

use diopter_rules::instance::Relation;
use diopter_rules::pattern::PatOp;
use diopter_rules::simplify::Simplifier;
use diopter_rules::{
    generated_rules, load_rule_files, load_rules_to_prove, locate, parse_rules, render_located,
    Class, Origin,
};
use diopter_semantics::ast::Dialect;
use diopter_semantics::diag::Source;
use std::path::PathBuf;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/rules")
}

/// The one diagnostic of `text`, rendered (`x.rules:LINE:COL: error: ...`).
fn error_of(text: &str) -> String {
    let diags = parse_rules(text, "x.rules").expect_err("the text has an error");
    assert_eq!(diags.len(), 1, "{diags:?}");
    Source::new("x.rules", text).render(&diags[0])
}

#[test]
fn the_library_parses_and_is_large_enough() {
    let rules = load_rule_files(&[corpus()]).unwrap_or_else(|d| panic!("{}", render_located(&d)));
    let library: Vec<_> = rules.iter().filter(|r| !r.expect_refuted()).collect();
    let refuted: Vec<_> = rules.iter().filter(|r| r.expect_refuted()).collect();
    let generated = generated_rules();
    assert!(
        library.len() + generated.len() >= 40,
        "{} + {}",
        library.len(),
        generated.len()
    );
    assert!(library.len() >= 40, "{} hand-written rules", library.len());
    assert!(refuted.len() >= 10);
    // Every refuted rule lives under refuted/, and no library rule does.
    for r in &rules {
        let Origin::File { path, .. } = &r.origin else {
            panic!("{} has no file", r.name)
        };
        assert_eq!(path.contains("/refuted/"), r.expect_refuted(), "{}", r.name);
    }
    // Names are unique, generated ones included.
    let mut names: Vec<&str> = rules.iter().map(|r| r.name.as_str()).collect();
    names.extend(generated.iter().map(|r| r.name.as_str()));
    let n = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), n, "duplicate rule names");
}

#[test]
fn the_issue_examples_parse_as_written() {
    let text = "\
rule addrof-deref:   ?x:T, DIOpAddrOf(?n), DIOpDeref(T) => ?x      where T: any
rule add-zero:       ?x:T, DIOpConstant(T 0), DIOpAdd() => ?x, DIOpRead()   where T: int
";
    let rules = parse_rules(text, "x.rules").unwrap();
    assert_eq!(rules.len(), 2);
    let r = &rules[0];
    assert_eq!(r.name, "addrof-deref");
    assert_eq!(r.relation, Relation::Equivalent);
    assert_eq!(r.vars, vec![("T".to_string(), Class::Any)]);
    assert_eq!(r.dialects, vec![Dialect::DiExpr, Dialect::DiExpression]);
    assert_eq!(r.param_holes(), vec!["n".to_string()]);
    assert!(matches!(&r.lhs[0], PatOp::Hole { name, ty: Some(_), .. } if name == "x"));
    assert_eq!(
        r.origin,
        Origin::File {
            path: "x.rules".into(),
            line: 1
        }
    );
    assert_eq!(
        rules[1].origin,
        Origin::File {
            path: "x.rules".into(),
            line: 2
        }
    );
    assert!(matches!(&rules[1].lhs[1], PatOp::Const { .. }));
}

#[test]
fn relations_dialects_conditions_and_continuation_lines() {
    let text = "\
# a comment
rule r1 [diexpr]: ?x:T, DIOpRead() =>ro ?x, DIOpRead(), DIOpRead()   where T: any

rule r2:
    ?x:T, DIOpConstant(I ?a), DIOpOffset(), DIOpConstant(I ?b), DIOpOffset()
    => ?x, DIOpConstant(I {?a + ?b}), DIOpOffset()   # merged
    where T: any, I: int
    if add_nsw(?a, ?b), width(I) >= 8
";
    // r1 grows the expression: rejected by the measure; take it out.
    let d = error_of(text);
    assert!(
        d.starts_with("x.rules:2:6: error: the rule does not shrink"),
        "{d}"
    );
    let text = text.replace(
        "rule r1 [diexpr]: ?x:T, DIOpRead() =>ro ?x, DIOpRead(), DIOpRead()",
        "rule r1 [diexpr]: ?x:T, DIOpRead(), DIOpRead() =>ro ?x, DIOpRead()",
    );
    let rules = parse_rules(&text, "x.rules").unwrap();
    assert_eq!(rules[0].relation, Relation::ReadOnly);
    assert_eq!(rules[0].dialects, vec![Dialect::DiExpr]);
    let r2 = &rules[1];
    assert_eq!(
        r2.origin,
        Origin::File {
            path: "x.rules".into(),
            line: 4
        }
    );
    assert_eq!(r2.pre.len(), 1, "add_nsw is a precondition on constants");
    assert_eq!(r2.type_conds.len(), 1, "width(I) >= 8 is a type condition");
    assert!(matches!(r2.rhs[1], PatOp::Computed { .. }));
}

#[test]
fn parse_errors_carry_line_column_and_caret() {
    let cases: &[(&str, &str)] = &[
        // (text, expected start of the rendering)
        (
            "rule a: ?x:T => ?x",
            "x.rules:1:12: error: unknown type `T`: declare a type variable",
        ),
        (
            "rule a: ?x:i32, DIOpRead() ?x",
            "x.rules:1:9: error: expected `=>`",
        ),
        (
            "\n\nrule a: ?x:i32, DIOpRead() =>rw ?x, DIOpRead()",
            "x.rules:3:30: error: unknown relation `=>rw`",
        ),
        (
            "rule a: ?x:T, DIOpReed() => ?x   where T: any",
            "x.rules:1:15: error: unknown operation `DIOpReed`",
        ),
        (
            "rule a: ?x:T, DIOpRead(), DIOpRead() => ?x, DIOpRead()   where T: integer",
            "x.rules:1:67: error: unknown class `integer`",
        ),
        (
            "rule a: ?x:i32, DIOpRead(), DIOpRead() => ?y, DIOpRead()",
            "x.rules:1:43: error: hole `?y` is not on the left side",
        ),
        (
            "rule a: ?x, DIOpRead(), DIOpRead() => ?x, DIOpRead()",
            "x.rules:1:9: error: hole `?x` needs a type",
        ),
        (
            "rule a: ?x:i32, ?y:i32, DIOpAdd() => ?x, ?x, DIOpAdd()",
            "x.rules:1:6: error: the right side uses `?x` 2 times",
        ),
        (
            "rule a: ?x:i32, DIOpConstant(i32 ?c), DIOpAdd() => ?x, DIOpRead()  if ?d == 0",
            "x.rules:1:71: error: `?d` in a term must be a constant hole",
        ),
        (
            "rule a: ?x:i32, DIOpConstant(i32 zero), DIOpAdd() => ?x, DIOpRead()",
            "x.rules:1:34: error: `zero` is not a literal of type `i32`",
        ),
        (
            "  rule a: ?x:i32 => ?x",
            "x.rules:1:1: error: an indented line continues a rule",
        ),
        (
            "rules a: ?x:i32 => ?x",
            "x.rules:1:1: error: expected `rule NAME: LHS => RHS`",
        ),
        (
            "rule a ?x:i32 => ?x",
            "x.rules:1:8: error: expected `:` after the rule's name",
        ),
        (
            "rule a [llvm]: ?x:i32 => ?x",
            "x.rules:1:9: error: expected `diexpr` or `diexpression`",
        ),
        (
            "rule a: ?x:i32, DIOpRead(), DIOpRead() => ?x, DIOpRead()  if frob(?x)",
            "x.rules:1:62: error: unknown function `frob`",
        ),
        (
            // at the operation that names it
            "rule a: ?x:i32, DIOpRead() => ?x, DIOpConvert(U), DIOpRead()  where U: int",
            "x.rules:1:35: error: type variable `U` does not occur on the left side",
        ),
        (
            "rule a: ?x:T, DIOpRead(), DIOpRead() => ?x, DIOpRead()  where T: any, U: int",
            "x.rules:1:6: error: type variable `U` does not occur on the left side",
        ),
        (
            "rule a: DIOpConstant(i32 {1}), DIOpRead() => DIOpConstant(i32 1)",
            "x.rules:1:26: error: a computed constant `{...}` may only appear on the right side",
        ),
        (
            "rule a: ?x:i32, DIOpRead(), DIOpRead() => ?x, DIOpAddrOf(?n), DIOpDeref(i32)",
            "x.rules:1:58: error: parameter hole `?n` is not on the left side",
        ),
    ];
    for (text, want) in cases {
        let got = error_of(text);
        assert!(
            got.starts_with(want),
            "for {text:?}\n  want: {want}\n  got:  {got}"
        );
        assert!(got.contains(" | "), "no source line: {got}");
        assert!(got.contains('^'), "no caret: {got}");
    }
}

#[test]
fn load_errors_name_the_file_and_every_bad_rule() {
    let dir = std::env::temp_dir().join(format!("diopter-rules-test-{}", std::process::id()));
    let sub = dir.join("refuted");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(
        dir.join("a.rules"),
        "rule ok: ?x:T, DIOpReinterpret(T) => ?x  where T: any\nrule bad: ?x:T => ?x\n",
    )
    .unwrap();
    std::fs::write(
        sub.join("b.rules"),
        "rule ok: ?x:T, DIOpRead() => ?x  where T: any\n",
    )
    .unwrap();
    std::fs::write(dir.join("ignored.txt"), "not rules").unwrap();
    let d = load_rule_files(std::slice::from_ref(&dir)).unwrap_err();
    let text = render_located(&d);
    let a = dir.join("a.rules").display().to_string();
    let b = sub.join("b.rules").display().to_string();
    assert!(
        text.contains(&format!("{a}:2:14: error: unknown type `T`")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{b}:1:6: error: rule `ok` is already defined at {a}:1"
        )),
        "{text}"
    );
    assert!(text.contains("2 | rule bad: ?x:T => ?x"), "{text}");
    // Fixed, the refuted/ rule is marked as such.
    std::fs::write(
        dir.join("a.rules"),
        "rule ok: ?x:T, DIOpReinterpret(T) => ?x  where T: any\n",
    )
    .unwrap();
    std::fs::write(
        sub.join("b.rules"),
        "rule drop: ?x:T, DIOpRead() => ?x  where T: any\n",
    )
    .unwrap();
    let rules = load_rule_files(std::slice::from_ref(&dir)).unwrap();
    assert_eq!(rules.len(), 2);
    assert!(!rules[0].expect_refuted());
    assert!(rules[1].expect_refuted());
    std::fs::remove_dir_all(&dir).unwrap();
    // `locate` keeps file, line, column and caret on the diagnostic itself.
    let src = Source::new("f.rules", "rule a: ?x:Q => ?x");
    let raw = parse_rules(&src.text, "f.rules").unwrap_err();
    let located = locate(&src, raw[0].clone());
    assert!(
        located
            .message
            .starts_with("f.rules:1:12: unknown type `Q`"),
        "{}",
        located.message
    );
    assert!(located.notes[0].contains('^'));
}

#[test]
fn no_input_panics_the_rule_parser() {
    // Every prefix of a rule file, and some token soup: errors, never panics.
    let text = std::fs::read_to_string(corpus().join("offsets.rules")).unwrap();
    for end in (0..text.len()).filter(|i| text.is_char_boundary(*i)) {
        let _ = parse_rules(&text[..end], "p.rules");
    }
    for soup in [
        "rule",
        "rule :",
        "rule a:",
        "rule a: =>",
        "rule a: ? => ?",
        "rule a: DIOpConstant(",
        "rule a: ?x:T => ?x where",
        "rule a: ?x:T => ?x where T",
        "rule a: ?x:T => ?x if",
        "rule a: ?x:i8, DIOpConstant(i8 {?c}) => ?x",
        "rule a: ?x:i8 => ?x if ((((",
        "rule a: ?x:<2 x T> => ?x where T: int",
        "rule a: ?x:i8, DIOpAddrOf(?) => ?x",
    ] {
        assert!(parse_rules(soup, "s.rules").is_err(), "{soup}");
    }
}

// ------------------------------------------------------- lemmas and lateral rules

const COMMUTE: &str =
    "rule mul-commutes: ?x:T, ?y:T, DIOpMul() => ?y, ?x, DIOpMul()   where T: int\n";

#[test]
fn a_non_shrinking_rule_loads_for_the_prover_but_not_for_the_simplifier() {
    let dir = std::env::temp_dir().join(format!("diopter-lemma-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("user.rules");
    std::fs::write(&f, format!("# user rules\n{COMMUTE}")).unwrap();
    // The simplifier's loader refuses it, at the rule's name, and says what to write.
    let d = load_rule_files(std::slice::from_ref(&f)).expect_err("a lateral `rule` does not load");
    let text = render_located(&d);
    assert!(
        text.contains("user.rules:2:6: error: the rule does not shrink"),
        "{text}"
    );
    assert!(text.contains("write `lemma` instead of `rule`"), "{text}");
    assert!(
        text.contains("     ^^^^^^^^^^^"),
        "a caret under the name: {text}"
    );
    // The prover's loader takes it, and knows the simplifier will not apply it.
    let rules = load_rules_to_prove(std::slice::from_ref(&f)).expect("the prover takes it");
    assert_eq!(rules.len(), 1);
    assert!(!rules[0].lemma);
    let why = rules[0].not_applied().expect("not applied");
    assert!(why.contains("does not shrink"), "{why}");
}

#[test]
fn a_lemma_is_proved_and_never_applied() {
    let text = COMMUTE.replacen("rule", "lemma", 1)
        + "rule add-zero: ?x:T, DIOpConstant(T 0), DIOpAdd() => ?x, DIOpRead()   where T: int\n";
    let rules = parse_rules(&text, "x.rules").expect("a lemma need not shrink");
    assert_eq!(rules.len(), 2);
    assert!(rules[0].lemma && !rules[1].lemma);
    assert_eq!(rules[0].not_applied().as_deref(), Some("a lemma"));
    assert_eq!(rules[1].not_applied(), None);
    let s = Simplifier::new(rules);
    assert!(
        s.rules.iter().all(|r| r.name != "mul-commutes"),
        "lemmas are not applied"
    );
    assert!(s.rules.iter().any(|r| r.name == "add-zero"));
    // A misspelt keyword names both.
    let d = error_of("lema x: ?x:T => ?x   where T: int\n");
    assert!(
        d.contains("expected `rule NAME: LHS => RHS` or `lemma NAME: LHS => RHS`, found `lema`"),
        "{d}"
    );
}

#[test]
fn holes_on_each_side() {
    // Twice on the right (a growing lemma): loads; the prover decides it.
    let twice =
        "lemma double: ?x:T, DIOpConstant(T 2), DIOpMul() => ?x, ?x, DIOpAdd()   where T: int\n";
    assert!(parse_rules(twice, "x.rules").is_ok());
    // Only on the left: loads (dropping a subexpression is the prover's question).
    let dropped = "rule drop: ?x:T, ?y:T, DIOpAdd() => ?x, DIOpRead()   where T: int\n";
    assert!(parse_rules(dropped, "x.rules").is_ok());
    // Twice on the left: loads (both occurrences must match the same subexpression).
    let same = "rule sub-self: ?x:T, ?x:T, DIOpSub() => DIOpConstant(T 0)   where T: int\n";
    assert!(parse_rules(same, "x.rules").is_ok());
    // Fresh on the right: refused at the hole, saying why.
    let fresh = "lemma fresh: ?x:T => ?x, ?y, DIOpAdd()   where T: int\n";
    let d = error_of(fresh);
    assert!(
        d.starts_with("x.rules:1:26: error: hole `?y` is not on the left side"),
        "{d}"
    );
    assert!(
        d.contains("a fresh one would stand for nothing a rewrite can produce"),
        "{d}"
    );
}

#[test]
fn negated_functions_parse_and_ill_typed_rules_are_errors() {
    // `!` before a function or a number (the IR lexer's metadata tokens).
    for cond in ["!ult(?c, 4)", "!add_nsw(?c, ?c)", "!(?c == 0)", "?c != 0"] {
        let text = format!(
            "lemma n: ?x:T, DIOpConstant(T ?c), DIOpMul() => ?x, DIOpConstant(T ?c), DIOpMul()   where T: int   if {cond}\n"
        );
        let rules = parse_rules(&text, "x.rules").unwrap_or_else(|d| panic!("{cond}: {d:?}"));
        assert!(!rules[0].instances(&[8]).is_empty(), "{cond}");
    }
    // A condition that is not a boolean: an error at the name, not a rule
    // with nothing to prove.
    let d =
        error_of("lemma f: ?x:T, DIOpConstant(T ?c), DIOpMul() => ?x   where T: int   if !?c\n");
    assert!(
        d.starts_with("x.rules:1:7: error: the rule never applies: a condition at T = i8")
            && d.contains("a condition must be a comparison, not a 8-bit term"),
        "{d}"
    );
    // A type-class mismatch: DIOpAdd of pointers is ill-typed at every binding.
    let d = error_of("rule g: ?x:T, ?y:T, DIOpAdd() => ?x, DIOpRead()   where T: ptr\n");
    assert!(
        d.starts_with(
            "x.rules:1:6: error: the rule never applies: the left side is not well-formed"
        ),
        "{d}"
    );
}
