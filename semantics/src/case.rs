//! A test case: one expression with its inputs' types, the named types it
//! uses and a context to evaluate it in. The generators (`diopter_gen`)
//! make cases, the differential framework (`diopter_diff`) hands them to
//! every oracle, and engines that evaluate a case themselves (the debugger
//! oracles, the rules' empirical check) read them; it lives here, beside the
//! types it is made of, so that none of those needs another for it.

use crate::ast::Bare;
use crate::context::Context;
use crate::syntax::print_bare;
use crate::types::{DataLayout, TypeTable};
use crate::value::Bits;

/// One test case: an expression with its inputs' types, the named types it
/// uses, and a context to evaluate it in (the context holds the data layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub bare: Bare,
    pub types: TypeTable,
    pub ctx: Context,
}

impl Case {
    /// The expression in the one-line form.
    pub fn expr_line(&self) -> String {
        print_bare(&self.bare)
    }

    pub fn datalayout(&self) -> &DataLayout {
        &self.ctx.datalayout
    }
}

/// The bits written through every result when oracles' locations are
/// compared: no two neighbouring bytes alike, no period a small offset error
/// could hide behind. Defined here, with the reference's `write_value`, so
/// that every comparison of a write's effect writes the same pattern.
pub fn write_pattern(bits: u64) -> Bits {
    let bytes: Vec<u8> = (0..bits.div_ceil(8))
        .map(|i| (crate::context::splitmix64(i ^ 0xd10b) & 0xff) as u8)
        .collect();
    Bits::from_le_bytes(bits, &bytes)
}
