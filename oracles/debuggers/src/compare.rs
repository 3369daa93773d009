//! How a debugger's answer for a variable relates to the reference's read
//! of the same case, in the classes of the report's matrix:
//!
//! * `agree`: the same bytes;
//! * `nan-payload`: both a NaN of the result's float type, computed by
//!   DWARF arithmetic (payloads unspecified, as for the gimli oracle);
//! * `both-error`: the reference fails (evaluation or read) and the
//!   debugger shows no value: an error, or bytes it calls optimized out or
//!   unavailable (a debugger may show the readable bytes of a partly
//!   undefined composite, the reference fails the whole read);
//! * `refuses`: the reference reads a value and the debugger says it does
//!   not implement an operation of the expression;
//! * `differs`: anything else (other bytes, a value where the reference
//!   fails, an error or unavailable bytes where it reads a value);
//! * `failed`: the debugger crashed, hung or printed something unparseable
//!   for the batch: never agreement.

use crate::drive::Answer;
use diopter_semantics::value::Bits;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Class {
    Agree,
    NanPayload,
    BothError(String),
    Refuses(String),
    Differs(String),
    Failed(String),
}

impl Class {
    pub fn label(&self) -> &'static str {
        match self {
            Class::Agree => "agree",
            Class::NanPayload => "nan-payload",
            Class::BothError(_) => "both-error",
            Class::Refuses(_) => "refuses",
            Class::Differs(_) => "differs",
            Class::Failed(_) => "failed",
        }
    }

    pub fn detail(&self) -> &str {
        match self {
            Class::Agree | Class::NanPayload => "",
            Class::BothError(d) | Class::Refuses(d) | Class::Differs(d) | Class::Failed(d) => d,
        }
    }

    /// Counts as the consumer getting the case right.
    pub fn is_right(&self) -> bool {
        matches!(self, Class::Agree | Class::NanPayload | Class::BothError(_))
    }
}

/// Whether an error message says the debugger does not implement something
/// (rather than that the evaluation failed).
pub fn is_refusal(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    [
        "unhandled",
        "unsupported",
        "not supported",
        "not implemented",
        "unimplemented",
        "unknown opcode",
        "unrecognized",
    ]
    .iter()
    .any(|p| m.contains(p))
}

fn hex(bytes: &[Option<u8>]) -> String {
    bytes
        .iter()
        .map(|b| b.map_or("??".to_string(), |b| format!("{b:02x}")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The reference's read, as whole little-endian bytes.
pub fn reference_bytes(bits: &Bits) -> Vec<Option<u8>> {
    let mut b = bits.to_le_bytes();
    b.truncate(bits.width().div_ceil(8) as usize);
    b.into_iter().map(Some).collect()
}

/// Tells whether a byte string of the result is a NaN.
pub type NanTest<'a> = &'a dyn Fn(&[u8]) -> bool;

/// `nan` tells whether two byte strings are NaNs of the result's float
/// type whose payloads may differ (`None`: the result is not such a float).
pub fn classify(reference: &Result<Bits, String>, nan: Option<NanTest>, answer: &Answer) -> Class {
    match (reference, answer) {
        (Ok(bits), Answer::Bytes(got)) => {
            let want = reference_bytes(bits);
            if *got == want {
                return Class::Agree;
            }
            if let Some(is_nan) = nan {
                let all: Option<Vec<u8>> = got.iter().copied().collect();
                let w: Vec<u8> = want.iter().flatten().copied().collect();
                if all.is_some_and(|g| is_nan(&g)) && is_nan(&w) {
                    return Class::NanPayload;
                }
            }
            Class::Differs(format!(
                "shows {} where the reference reads {} (?? = optimized out or unavailable)",
                hex(got),
                hex(&want)
            ))
        }
        (Ok(bits), Answer::Error(e)) if is_refusal(e) => Class::Refuses(format!(
            "{e} (the reference reads {})",
            hex(&reference_bytes(bits))
        )),
        (Ok(bits), Answer::Error(e)) => Class::Differs(format!(
            "error `{e}` where the reference reads {}",
            hex(&reference_bytes(bits))
        )),
        (Err(r), Answer::Bytes(got)) if got.iter().any(Option::is_none) => {
            Class::BothError(format!("shows {} ; the reference: {r}", hex(got)))
        }
        (Err(r), Answer::Bytes(got)) => {
            Class::Differs(format!("shows {} where the reference fails: {r}", hex(got)))
        }
        (Err(r), Answer::Error(e)) => Class::BothError(format!("`{e}`; the reference: {r}")),
    }
}
