//! The classic translation's open conventions as values a pair can be
//! built with (`validate_ir::build`): free, as the sound reading, or fixed,
//! to ask which one a refutation needs (`reading`). Apart from both so that
//! neither imports the other.

use serde::{Deserialize, Serialize};

/// The convention a refutation needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reading {
    /// Equivalent once every narrow operand's upper register bits are zero
    /// (or all copies of its sign bit): the after-record lets those bits
    /// into the value the variable shows.
    UpperBits,
    /// Equivalent under one fixed signedness of the generic type: the
    /// records agree only if the debugger picks that one.
    Signedness,
    /// Equivalent only with both fixed.
    UpperBitsAndSignedness,
}

impl Reading {
    pub fn label(self) -> &'static str {
        match self {
            Reading::UpperBits => "upper bits of a narrow operand",
            Reading::Signedness => "signedness of the generic type",
            Reading::UpperBitsAndSignedness => {
                "upper bits of a narrow operand and signedness of the generic type"
            }
        }
    }
}

/// What a narrow operand's upper register bits are taken to be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Upper {
    /// Any bits: the sound reading, and the default.
    #[default]
    Free,
    Zero,
    /// Copies of the operand's sign bit.
    SignCopies,
}

/// The classic translation's open inputs, free or fixed, for one build of
/// a pair (`validate_ir::build`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conventions {
    pub upper: Upper,
    /// The generic type's signedness (1 signed, 0 unsigned); `None`: free.
    pub signedness: Option<u64>,
    /// `upper` fixes the before-record's holes only; the after-record's
    /// stay free roots of their own.
    pub before_only: bool,
}

/// The fixings tried, in order, each with the reading it reveals: the
/// upper bits alone (as zeros, then as sign copies), the signedness alone,
/// then both. Registers hold narrow values either way on real targets.
pub const VARIANTS: [(Reading, Conventions); 8] = {
    const fn c(upper: Upper, signedness: Option<u64>) -> Conventions {
        Conventions {
            upper,
            signedness,
            before_only: false,
        }
    }
    [
        (Reading::UpperBits, c(Upper::Zero, None)),
        (Reading::UpperBits, c(Upper::SignCopies, None)),
        (Reading::Signedness, c(Upper::Free, Some(0))),
        (Reading::Signedness, c(Upper::Free, Some(1))),
        (Reading::UpperBitsAndSignedness, c(Upper::Zero, Some(0))),
        (Reading::UpperBitsAndSignedness, c(Upper::Zero, Some(1))),
        (
            Reading::UpperBitsAndSignedness,
            c(Upper::SignCopies, Some(0)),
        ),
        (
            Reading::UpperBitsAndSignedness,
            c(Upper::SignCopies, Some(1)),
        ),
    ]
};

/// Witnesses that an after-record refines its before-record although they
/// differ: the before-record's narrow operands' upper register bits fixed
/// (as zeros, then as sign copies), the after-record's left free. LLVM
/// leaves those bits unspecified, so a before-record shows *some* value
/// for every choice of them; when one fixed choice makes the two records
/// agree on every input and every after-side choice, every value the
/// after-record shows is one the before-record could have shown.
pub const REFINEMENT_WITNESSES: [Conventions; 2] = [
    Conventions {
        upper: Upper::Zero,
        signedness: None,
        before_only: true,
    },
    Conventions {
        upper: Upper::SignCopies,
        signedness: None,
        before_only: true,
    },
];
