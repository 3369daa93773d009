//! Every example expression of the spec and the slides
//! (`corpus/spec/expressions.expr`) evaluates, in a context written for it
//! (`corpus/spec/contexts/`), to the outcome derived by hand in
//! `corpus/spec/expected.txt` (whose header documents the format): the result
//! type, the single locations, the value read and the effect of a write.

use diopter_semantics::check::check_bare;
use diopter_semantics::context::Context;
use diopter_semantics::diag::Source;
use diopter_semantics::interp::{eval_bare, read_value, write_value};
use diopter_semantics::syntax::{parse_bare, parse_expr_file, ExprFile};
use diopter_semantics::value::Bits;
use num_bigint::BigUint;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn spec_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/spec")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// What reading the result gives.
#[derive(Debug, Default)]
enum ValueOutcome {
    #[default]
    Missing,
    Hex(String),
    Error(String),
}

/// What writing through the result does.
#[derive(Debug)]
enum WriteOutcome {
    /// Context-format lines that, applied to the context, give the context after the write.
    Changes(Vec<String>),
    Refused(String),
}

/// One block of `expected.txt`.
#[derive(Debug, Default)]
struct Block {
    /// 1-based line of `expr:` in expected.txt.
    line: usize,
    expr: String,
    context: String,
    error: Option<String>,
    ty: Option<String>,
    locations: Vec<String>,
    value: ValueOutcome,
    write: Option<String>,
    write_outcome: Option<WriteOutcome>,
    why: Vec<String>,
}

impl Block {
    fn name(&self) -> String {
        format!(
            "expected.txt:{} (context {}): {}",
            self.line, self.context, self.expr
        )
    }
}

fn parse_expected(text: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut current: Option<Block> = None;
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if let Some(b) = current.take() {
                blocks.push(b);
            }
            continue;
        }
        let (key, val) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("expected.txt:{lineno}: `key: value` expected: {line}"));
        let val = val.trim().to_string();
        if key == "expr" {
            if let Some(b) = current.take() {
                blocks.push(b);
            }
            current = Some(Block {
                line: lineno,
                expr: val,
                ..Block::default()
            });
            continue;
        }
        let b = current
            .as_mut()
            .unwrap_or_else(|| panic!("expected.txt:{lineno}: `{key}:` before any `expr:`"));
        let dup = |what: &str| panic!("expected.txt:{lineno}: a second `{what}:` in the block");
        match key {
            "context" if b.context.is_empty() => b.context = val,
            "error" if b.error.is_none() => b.error = Some(val),
            "type" if b.ty.is_none() => b.ty = Some(val),
            "location" => b.locations.push(val),
            "value" if matches!(b.value, ValueOutcome::Missing) => b.value = ValueOutcome::Hex(val),
            "value error" if matches!(b.value, ValueOutcome::Missing) => {
                b.value = ValueOutcome::Error(val)
            }
            "write" if b.write.is_none() => b.write = Some(val),
            "changes" => match &mut b.write_outcome {
                None => b.write_outcome = Some(WriteOutcome::Changes(vec![val])),
                Some(WriteOutcome::Changes(c)) => c.push(val),
                Some(WriteOutcome::Refused(_)) => {
                    panic!("expected.txt:{lineno}: `changes:` after `refused:`")
                }
            },
            "refused" if b.write_outcome.is_none() => {
                b.write_outcome = Some(WriteOutcome::Refused(val))
            }
            "why" => b.why.push(val),
            "context" | "error" | "type" | "value" | "value error" | "write" | "refused" => {
                dup(key)
            }
            _ => panic!("expected.txt:{lineno}: unknown key `{key}`"),
        }
    }
    if let Some(b) = current.take() {
        blocks.push(b);
    }
    for b in &blocks {
        let n = b.name();
        assert!(!b.context.is_empty(), "{n}: no `context:`");
        assert!(!b.why.is_empty(), "{n}: no `why:` (the hand derivation)");
        if b.error.is_some() {
            assert!(
                b.ty.is_none()
                    && b.locations.is_empty()
                    && matches!(b.value, ValueOutcome::Missing)
                    && b.write.is_none()
                    && b.write_outcome.is_none(),
                "{n}: `error:` excludes type, location, value and write"
            );
        } else {
            assert!(b.ty.is_some(), "{n}: no `type:`");
            assert!(!b.locations.is_empty(), "{n}: no `location:`");
            assert!(
                !matches!(b.value, ValueOutcome::Missing),
                "{n}: no `value:`"
            );
            assert_eq!(
                b.write.is_some(),
                b.write_outcome.is_some(),
                "{n}: `write:` needs `changes:` or `refused:` and the other way round"
            );
        }
    }
    blocks
}

/// The expressions of expressions.expr: (the line's text, parse-only), in order.
fn spec_expressions() -> (ExprFile, Vec<(String, bool)>) {
    let path = spec_dir().join("expressions.expr");
    let src = Source::new(path.display().to_string(), read(&path));
    let (file, diags) = parse_expr_file(&src);
    assert!(
        diags.is_empty(),
        "{}",
        diags
            .iter()
            .map(|d| src.render(d))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let lines = file
        .entries
        .iter()
        .map(|e| (src.line_text(e.line).trim().to_string(), e.parse_only))
        .collect();
    (file, lines)
}

fn expected_blocks() -> Vec<Block> {
    parse_expected(&read(&spec_dir().join("expected.txt")))
}

/// `0x...` as an unsigned integer.
fn hex(s: &str) -> Option<BigUint> {
    let h = s.strip_prefix("0x")?;
    BigUint::parse_bytes(h.as_bytes(), 16)
}

fn load_context(name: &str) -> Result<Context, String> {
    let path = spec_dir().join("contexts").join(name);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Context::parse(&text).map_err(|ds| {
        let src = Source::new(path.display().to_string(), text);
        ds.iter()
            .map(|d| src.render(d))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// Checks one block; the problems found, each naming the block.
fn check_block(b: &Block, file: &ExprFile) -> Vec<String> {
    let n = b.name();
    let mut out = Vec::new();
    let bare = match parse_bare(&b.expr) {
        Ok(x) => x,
        Err(d) => return vec![format!("{n}: does not parse: {}", d.message)],
    };
    let ctx = match load_context(&b.context) {
        Ok(c) => c,
        Err(e) => return vec![format!("{n}: the context does not load:\n{e}")],
    };
    let checked = match check_bare(&bare, &ctx.datalayout, &file.types) {
        Ok(c) => c,
        Err(ds) => {
            let ms: Vec<String> = ds.iter().map(|d| d.message.clone()).collect();
            return vec![format!("{n}: not well-formed: {ms:?}")];
        }
    };
    let outcome = eval_bare(&bare, &file.types, &ctx);
    let located = match (&b.error, outcome) {
        (Some(want), Err(e)) => {
            let got = format!("{:?}", e.kind);
            if &got != want {
                out.push(format!(
                    "{n}: evaluation error {got} ({e}), expected {want}"
                ));
            }
            return out;
        }
        (Some(want), Ok(r)) => {
            return vec![format!(
                "{n}: evaluated to `{}` : {}, expected the error {want}",
                r.loc, r.ty
            )]
        }
        (None, Err(e)) => return vec![format!("{n}: evaluation failed: {e}")],
        (None, Ok(r)) => r,
    };
    // The type: the interpreter's and the checker's.
    let ty = located.ty.to_string();
    if Some(&ty) != b.ty.as_ref() {
        out.push(format!(
            "{n}: type `{ty}`, expected `{}`",
            b.ty.as_deref().unwrap_or("")
        ));
    }
    if checked.result != located.ty {
        out.push(format!(
            "{n}: the checker's type `{}` differs from the interpreter's `{ty}`",
            checked.result
        ));
    }
    // The single locations, in order.
    let singles: Vec<String> = located.loc.singles.iter().map(|s| s.to_string()).collect();
    if singles != b.locations {
        out.push(format!(
            "{n}: single locations {singles:?}, expected {:?}",
            b.locations
        ));
    }
    // The value read.
    let read = read_value(&ctx, &located);
    match (&b.value, &read) {
        (ValueOutcome::Hex(want), Ok(v)) => {
            if &v.to_hex() != want {
                out.push(format!("{n}: reads {}, expected {want}", v.to_hex()));
            }
        }
        (ValueOutcome::Error(want), Err(e)) => {
            let got = format!("{:?}", e.kind);
            if &got != want {
                out.push(format!("{n}: read error {got} ({e}), expected {want}"));
            }
        }
        (ValueOutcome::Hex(want), Err(e)) => out.push(format!(
            "{n}: read error {:?} ({e}), expected {want}",
            e.kind
        )),
        (ValueOutcome::Error(want), Ok(v)) => out.push(format!(
            "{n}: reads {}, expected the read error {want}",
            v.to_hex()
        )),
        (ValueOutcome::Missing, _) => unreachable!("parse_expected requires a value"),
    }
    // The write.
    let (Some(w), Some(effect)) = (&b.write, &b.write_outcome) else {
        return out;
    };
    let Some(wv) = hex(w) else {
        out.push(format!("{n}: `write: {w}` is not 0x-hex"));
        return out;
    };
    if wv.bits() > located.bits {
        out.push(format!(
            "{n}: `write: {w}` does not fit in {} bits",
            located.bits
        ));
        return out;
    }
    let value = Bits::from_biguint(located.bits, &wv);
    let mut written = ctx.clone();
    let result = write_value(&mut written, &located, &value);
    match (effect, result) {
        (WriteOutcome::Refused(want), Err(e)) => {
            let got = format!("{:?}", e.kind);
            if &got != want {
                out.push(format!(
                    "{n}: write refused with {got} ({e}), expected {want}"
                ));
            }
            let diff = ctx.state_diff(&written);
            if !diff.is_empty() {
                out.push(format!(
                    "{n}: the refused write changed the context: {diff:?}"
                ));
            }
        }
        (WriteOutcome::Refused(want), Ok(())) => out.push(format!(
            "{n}: the write succeeded ({:?}), expected it refused with {want}",
            ctx.state_diff(&written)
        )),
        (WriteOutcome::Changes(_), Err(e)) => out.push(format!(
            "{n}: the write was refused ({:?}: {e}), expected it to succeed",
            e.kind
        )),
        (WriteOutcome::Changes(lines), Ok(())) => {
            // The expected context: the original with exactly the listed lines applied.
            let changes = match Context::parse(&lines.join("\n")) {
                Ok(c) => c,
                Err(ds) => {
                    let ms: Vec<String> = ds.iter().map(|d| d.message.clone()).collect();
                    out.push(format!("{n}: `changes:` lines do not parse: {ms:?}"));
                    return out;
                }
            };
            let mut want = ctx.clone();
            for (a, addr, byte) in changes.state.memory.iter() {
                want.set_byte(a, addr, byte);
            }
            for (name, bits) in &changes.state.entities {
                if ctx.entity(name).is_none() {
                    out.push(format!("{n}: `changes:` names {name}, not in the context"));
                }
                want.set_entity(name, bits.clone());
            }
            let diff = written.state_diff(&want);
            if !diff.is_empty() {
                out.push(format!(
                    "{n}: after the write, context vs expected: {diff:?}; the write changed {:?}",
                    ctx.state_diff(&written)
                ));
            }
            if ctx.state_diff(&written).is_empty() {
                out.push(format!(
                    "{n}: the write changed nothing; choose a value that differs"
                ));
            }
        }
    }
    out
}

#[test]
fn spec_examples_evaluate_as_derived_by_hand() {
    let (file, _) = spec_expressions();
    let blocks = expected_blocks();
    assert!(blocks.len() >= 25, "too few blocks: {}", blocks.len());
    let failures: Vec<String> = blocks.iter().flat_map(|b| check_block(b, &file)).collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_spec_expression_has_a_block_and_every_block_an_expression() {
    let (_, exprs) = spec_expressions();
    let blocks = expected_blocks();
    let mut failures = Vec::new();
    for b in &blocks {
        let n = b.name();
        // The context's leading number is the expression's 1-based position.
        let digits: String = b.context.chars().take_while(char::is_ascii_digit).collect();
        let Ok(pos) = digits.parse::<usize>() else {
            failures.push(format!(
                "{n}: the context's name does not start with a number"
            ));
            continue;
        };
        match exprs.get(pos.wrapping_sub(1)) {
            Some((text, parse_only)) if *text == b.expr => {
                if *parse_only {
                    failures.push(format!("{n}: the expression is parse-only"));
                }
            }
            Some((text, _)) => failures.push(format!(
                "{n}: expression #{pos} of expressions.expr is `{text}`"
            )),
            None => failures.push(format!("{n}: expressions.expr has no expression #{pos}")),
        }
    }
    for (i, (text, parse_only)) in exprs.iter().enumerate() {
        if !parse_only && !blocks.iter().any(|b| &b.expr == text) {
            failures.push(format!(
                "expression #{} of expressions.expr has no block in expected.txt: {text}",
                i + 1
            ));
        }
    }
    // Every context file is used by some block.
    let used: BTreeSet<&str> = blocks.iter().map(|b| b.context.as_str()).collect();
    for e in std::fs::read_dir(spec_dir().join("contexts")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".ctx") && !used.contains(name.as_str()) {
            failures.push(format!("contexts/{name} is used by no block"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
