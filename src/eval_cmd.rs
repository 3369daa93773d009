//! `diopter eval`: evaluate one expression in a context with the reference
//! interpreter and print the typed location it yields, the value read, and
//! (with `--write`) what assigning through it changes.

use crate::inputs;
use crate::Format;
use crate::{out, outln};
use diopter_semantics::access::read_noting_unlisted;
use diopter_semantics::ast::Bare;
use diopter_semantics::check::check_bare;
use diopter_semantics::context::Context;
use diopter_semantics::diag::{Diagnostic, Source};
use diopter_semantics::interp::{eval_bare, write_value, Located};
use diopter_semantics::show::{value_view, LocatedView};
use diopter_semantics::syntax::{parse_expr_file, print_bare};
use diopter_semantics::types::DataLayout;
use diopter_semantics::value::parse_float_literal;
use diopter_semantics::value::Bits;
use num_bigint::{BigInt, BigUint};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

pub const CONTEXT_HELP: &str = "\
CONTEXT FILES (--context)
  Line-oriented, `#` comments, lines in any order:
    datalayout default | amdgpu | \"<LLVM datalayout string>\"
    seed N                 unspecified memory bytes read as a hash of (seed, AS, address)
    lane N                 the current lane, for DIOpPushLane
    mem AS ADDR = BYTES    memory bytes (hex pairs) from ADDR upwards in address space AS
    %x = TYPE VALUE        an entity (also $reg, @global) holding bitsizeof(TYPE) bits
    arg N = LOCS           the location of argument N
    referrer = LOCS        the referrer's location
    object = LOCS          DIOpTypeObject's object
  LOCS is one or more single locations separated by `|`, each
    mem(AS, ADDR) | %x | implicit(TYPE VALUE) | undef
    | composite(LOCS : BITS, ...) | addrof(PTRTYPE, TYPE, LOCS)
  optionally followed by `+ BITS` or `- BITS` (a bit offset).

  Example:
    datalayout amdgpu
    mem 5 0x100 = 78 56 34 12
    %x = i32 0x12345678
    arg 0 = mem(5, 0x100) | %x       # two single locations holding the same i32
    arg 1 = composite(%x : 16, implicit(i16 7) : 16)

OUTPUT
  text: the type and its size; each single location as the context names its
  storage, `(read-only)` where a write cannot change it:
    as1 @0x1000 +4 bits    memory of address space 1, byte 0x1000, 4 bits in
    %r +8 bits             an entity, 8 bits in
    implicit 1.5 (float 0x3fc00000)
    undefined, implicit address of (LOC) as PTRTYPE,
    composite [0..16: LOC, 16..32: LOC]
  then the fragment, the value read and, where the read used memory bytes the
  context does not list (they read as pseudo-random bytes from `seed`), an
  `unlisted:` line naming them. Values: integers and other types as hex,
  unsigned and signed decimal; floating-point types as the shortest decimal
  that reads back exactly, the kind and the hex bits; NaNs as quiet or
  signalling with their payload. Values over 4096 bits print abbreviated: the
  first and last 16 hex digits and the size, `0x0000…0002 (8388608 bits)`.
  Bit ranges are written LO..HI: bits LO up to but not including HI, bit 0
  the least significant (half-open), here and in every diopter output.
  json: {expression, location, write}: location is the object of
  docs/schema/location.json (type, bit_size, fragment, singles [{kind,
  text, bit_offset, bit_size, writable, address_space, address, entity,
  value, parts, ...}], value {bits, hex, unsigned, signed, float}, read_error,
  unlisted_memory); write is {value, changes} or {value, refused {kind,
  message}}; an evaluation error is {expression, error}.

--write VALUE
  a literal of the location's type: for floating-point types a decimal
  (`1.5`, `-2`, `1e-3`) or LLVM hex float literal (`0x3FF8000000000000`,
  `0xH3C00`), or else an integer bit pattern; for other types an integer,
  decimal or 0x-hex, negative in two's complement, that fits in the type's
  bits as an unsigned or a signed number.

EXIT STATUS
  0 the expression evaluated to a location (and a --write was done); 1 it
  is not well-formed, its evaluation failed, or the write was refused (the
  reason is printed); 2 unreadable input, no expression, or a --write literal
  that is not one of the type.";

#[derive(clap::Args)]
pub struct Args {
    /// An `.expr` file holding the expression (the first one, or the one on --line).
    pub file: Option<PathBuf>,
    /// The expression in the one-line form (see `diopter check --help`).
    #[arg(
        short = 'e',
        long = "expr",
        value_name = "ONE-LINE",
        conflicts_with = "file"
    )]
    pub expr: Option<String>,
    /// Which expression of FILE to evaluate, by its line number (from 1).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub line: Option<usize>,
    /// The evaluation context (see below). Without one: no arguments, no referrer,
    /// memory filled from seed 0.
    #[arg(short, long, value_name = "FILE")]
    pub context: Option<PathBuf>,
    /// Data layout, overriding the context's: `default`, `amdgpu` or a datalayout string.
    #[arg(long, value_name = "LAYOUT")]
    pub datalayout: Option<String>,
    /// After evaluating, write this value (a literal of the result's type:
    /// integer, 0x-hex, negative, or for floating-point types a float literal;
    /// see below) through the result, as a debugger assigning to the variable
    /// would, and print what changed (exit 1 when the write is refused).
    #[arg(long, value_name = "VALUE", allow_hyphen_values = true)]
    pub write: Option<String>,
    /// Evaluate even if the checker says the expression is not well-formed.
    #[arg(long)]
    pub no_check: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

fn fail(werr: &mut dyn Write, msg: String) -> u8 {
    outln!(werr, "diopter eval: {msg}");
    2
}

fn print_diags(werr: &mut dyn Write, src: &Source, ds: &[Diagnostic]) {
    for d in ds {
        out!(werr, "{}", src.render(d));
    }
}

pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

/// [`run`], printing to `out` and `err`; returns the exit status.
pub fn run_to(a: &Args, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    // The expression.
    let src = match (&a.expr, &a.file) {
        (Some(e), _) => Source::new("<-e>", e.clone()),
        (None, Some(f)) => match inputs::read(f) {
            Ok(t) => Source::new(f.display().to_string(), t),
            Err(e) => return fail(werr, e),
        },
        (None, None) => {
            return fail(
                werr,
                "give an expression with -e 'ONE-LINE' or an .expr FILE (see --help)".into(),
            )
        }
    };
    let (file, diags) = parse_expr_file(&src);
    if !diags.is_empty() {
        print_diags(werr, &src, &diags);
        return 2;
    }
    let entry = match a.line {
        Some(l) => file.entries.iter().find(|e| e.line == l),
        None => file.entries.first(),
    };
    let Some(entry) = entry else {
        return fail(
            werr,
            format!(
                "{}: no expression{}",
                src.name,
                a.line.map(|l| format!(" on line {l}")).unwrap_or_default()
            ),
        );
    };
    let bare = &entry.bare;

    // The context.
    let mut ctx = match &a.context {
        None => Context::default(),
        Some(p) => {
            let text = match inputs::read(p) {
                Ok(t) => t,
                Err(e) => return fail(werr, e),
            };
            match Context::parse(&text) {
                Ok(c) => c,
                Err(ds) => {
                    print_diags(werr, &Source::new(p.display().to_string(), text), &ds);
                    return 2;
                }
            }
        }
    };
    match a.datalayout.as_deref().map(DataLayout::from_name_or_string) {
        Some(Ok(dl)) => ctx.datalayout = dl,
        Some(Err(e)) => return fail(werr, format!("--datalayout: {e}")),
        None => {
            if a.context.is_none() {
                if let Some((dl, _)) = &file.datalayout {
                    ctx.datalayout = dl.clone();
                }
            }
        }
    }
    if !a.no_check {
        if let Err(ds) = check_bare(bare, &ctx.datalayout, &file.types) {
            print_diags(werr, &src, &ds);
            outln!(
                werr,
                "diopter eval: the expression is not well-formed (--no-check evaluates it anyway)"
            );
            return 1;
        }
    }
    let outcome = eval_bare(bare, &file.types, &ctx);
    report(
        wout,
        werr,
        a.format,
        bare,
        &mut ctx,
        outcome,
        a.write.as_deref(),
    )
}

fn parse_int(s: &str) -> Result<BigInt, String> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let v = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) => BigUint::parse_bytes(h.as_bytes(), 16),
        None => BigUint::parse_bytes(body.as_bytes(), 10),
    }
    .ok_or_else(|| format!("`{s}` is not a decimal or 0x-hex integer"))?;
    let v = BigInt::from(v);
    Ok(if neg { -v } else { v })
}

/// The `--write` literal as `ty`'s `bits` bits: for a floating-point
/// type a decimal (`1.5`, `-2`, `1e-3`) or LLVM hex float literal, else a bit
/// pattern; for other types an integer (decimal, `0x` hex, negative: two's
/// complement) that fits in `bits` bits as an unsigned or a signed number.
fn parse_write(s: &str, ty: &diopter_semantics::types::Type, bits: u64) -> Result<Bits, String> {
    if let diopter_semantics::types::Type::Float(k) = ty {
        if k.0.width() == bits {
            if let Ok(v) = parse_float_literal(k.0, s) {
                return Ok(v);
            }
        }
    }
    let v = parse_int(s).map_err(|e| format!("{e}, nor a literal of type {ty}"))?;
    let fits = if v.sign() == num_bigint::Sign::Minus {
        bits > 0 && -&v <= (BigInt::from(1) << (bits - 1))
    } else {
        v.bits() <= bits
    };
    if !fits {
        return Err(format!("`{s}` does not fit in {bits} bits (type {ty})"));
    }
    Ok(Bits::from_bigint(bits, &v))
}

#[allow(clippy::too_many_arguments)]
fn report(
    wout: &mut dyn Write,
    werr: &mut dyn Write,
    format: Format,
    bare: &Bare,
    ctx: &mut Context,
    outcome: diopter_semantics::interp::Outcome,
    write: Option<&str>,
) -> u8 {
    let r: Located = match outcome {
        Ok(r) => r,
        Err(e) => {
            match format {
                Format::Json => outln!(
                    wout,
                    "{}",
                    serde_json::json!({
                        "expression": print_bare(bare),
                        "error": { "kind": format!("{:?}", e.kind), "op_index": e.op_index, "message": e.message },
                    })
                ),
                Format::Text => {
                    let op = bare
                        .expr
                        .ops
                        .get(e.op_index)
                        .map(|n| format!(" ({})", diopter_semantics::syntax::print_op(&n.op)))
                        .unwrap_or_default();
                    outln!(
                        wout,
                        "evaluation error at operation #{}{op}: {:?}: {}",
                        e.op_index,
                        e.kind,
                        e.message
                    );
                }
            }
            return 1;
        }
    };
    let write = match write.map(|w| parse_write(w, &r.ty, r.bits)) {
        None => None,
        Some(Ok(v)) => Some(v),
        Some(Err(e)) => return fail(werr, format!("--write: {e}")),
    };
    let (value, unlisted) = read_noting_unlisted(ctx, &r.loc, r.bits);
    let view = LocatedView::new(&r, Some(&value), &unlisted);
    let before = ctx.clone();
    let written = write.map(|bits| {
        let shown = value_view(Some(&r.ty), &bits);
        (
            shown,
            write_value(ctx, &r, &bits)
                .map(|()| before.state_diff_first(ctx, crate::replay_cmd::JSON_CHANGES)),
        )
    });
    match format {
        Format::Json => {
            let mut out = serde_json::json!({
                "expression": print_bare(bare),
                "location": view,
            });
            if let Some((shown, w)) = &written {
                out["write"] = match w {
                    Ok((changes, total)) => serde_json::json!({
                        "value": shown,
                        "changes": changes,
                        "changes_total": total,
                    }),
                    Err(e) => serde_json::json!({
                        "value": shown,
                        "refused": { "kind": format!("{:?}", e.kind), "message": e.message },
                    }),
                };
            }
            outln!(
                wout,
                "{}",
                serde_json::to_string_pretty(&out).unwrap_or_default()
            );
        }
        Format::Text => {
            out!(wout, "{}", view.text(&r, ""));
            match &written {
                None => {}
                Some((shown, Ok((_, 0)))) => {
                    outln!(wout, "write:    {}: done, nothing changed", shown.text())
                }
                Some((shown, Ok((changes, total)))) => {
                    outln!(
                        wout,
                        "write:    {}: done; changed (before -> after):",
                        shown.text()
                    );
                    for c in changes.iter().take(64) {
                        outln!(wout, "          {c}");
                    }
                    if *total > 64 {
                        outln!(wout, "          … ({total} changes)");
                    }
                }
                Some((shown, Err(e))) => {
                    outln!(
                        wout,
                        "write:    {}: refused: {:?}: {}",
                        shown.text(),
                        e.kind,
                        e.message
                    )
                }
            }
        }
    }
    match &written {
        Some((_, Err(e))) => {
            outln!(werr, "diopter eval: the write was refused: {}", e.message);
            1
        }
        _ => 0,
    }
}
