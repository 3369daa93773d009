//! An expression of an IR or MIR file checked in the environment its place
//! gives it ([`check_site`]): a lifetime's argObjects and referrer, a debug
//! record's location operands, a global's address; for MIR, the operands'
//! register widths, with AMD's reading of a MIR file where only those
//! widths fail ([`unchecked_widths`]). `diopter check` reports the verdicts.

use crate::check::{check_expr, ArgInfo, Checked, Env, ReferrerInfo};
use crate::diag::Diagnostic;
use crate::ir::{object_bits, Module, Operand};
use crate::lifetimes::LifetimeKind;
use crate::sites::{ExprContext, ExprSite};
use crate::types::DataLayout;
use std::collections::HashMap;

/// The note on a MIR expression accepted although an operand's register is
/// not as wide as its `DIOpArg` type.
pub const MIR_WIDTH_NOTE: &str = "accepted as AMD reads a MIR file: its MIR reader checks no DIOp expression against its operands (the IR verifier would reject the same expression with an IR operand of that width)";

/// For a MIR file's expression that is not well-formed against its operands'
/// register widths (`mir_bits`): the result when it is well-formed without
/// them. `None` for an IR file, or when the widths are not what fails.
pub fn unchecked_widths(
    m: &Module,
    site: &ExprSite,
    dl: &DataLayout,
    mir_bits: &HashMap<usize, u64>,
) -> Option<Checked> {
    if mir_bits.is_empty() {
        return None;
    }
    check_site(m, site, dl, &HashMap::new()).ok()
}

/// `site`'s expression checked in the environment its place gives it, with
/// the MIR operands' register widths `mir_bits`.
pub fn check_site(
    m: &Module,
    site: &ExprSite,
    dl: &DataLayout,
    mir_bits: &HashMap<usize, u64>,
) -> Result<Checked, Vec<Diagnostic>> {
    let (args, referrer, var_bits) = site_inputs(m, &site.context, dl, mir_bits);
    let env = Env {
        dialect: site.expr.dialect,
        dl,
        types: &m.types,
        args: args.as_deref(),
        referrer: &referrer,
        var_bits,
    };
    check_expr(site.expr, &env)
}

/// What `DIOpArg` and `DIOpReferrer` refer to at an expression's place.
fn site_inputs(
    m: &Module,
    c: &ExprContext,
    dl: &DataLayout,
    mir_bits: &HashMap<usize, u64>,
) -> (Option<Vec<ArgInfo>>, ReferrerInfo, Option<u64>) {
    let operand = |o: &Operand| ArgInfo {
        ty: o.ty.clone(),
        bits: mir_bits.get(&o.span.start).copied(),
        poison: o.is_poison(),
    };
    // An `undef` referrer "specifies the undefined location description": it
    // has no size to compare with.
    let referrer_of = |o: Option<&Operand>| match o {
        Some(o) if !o.is_undef() && !o.is_poison() => ReferrerInfo::Known {
            ty: o.ty.clone(),
            bits: mir_bits.get(&o.span.start).copied(),
        },
        _ => ReferrerInfo::Known {
            ty: None,
            bits: None,
        },
    };
    match c {
        ExprContext::Lifetime {
            kind,
            arg_objects,
            referrers,
            ..
        } => {
            let args = arg_objects
                .iter()
                .map(|o| ArgInfo {
                    ty: None,
                    bits: object_bits(m, *o, dl),
                    poison: false,
                })
                .collect();
            let referrer = match kind {
                // "A computed lifetime segment does not have a referrer."
                Some(LifetimeKind::Computed) => ReferrerInfo::Forbidden,
                _ => referrer_of(referrers.first()),
            };
            (Some(args), referrer, None)
        }
        ExprContext::DbgRecord { args, variable, .. } => (
            Some(args.iter().map(operand).collect()),
            referrer_of(args.first()),
            variable.and_then(|v| object_bits(m, v, dl)),
        ),
        ExprContext::GlobalVariableExpression {
            variable, global, ..
        } => (
            Some(global.iter().map(operand).collect()),
            referrer_of(global.as_ref()),
            variable.and_then(|v| object_bits(m, v, dl)),
        ),
        ExprContext::Detached => (
            None,
            ReferrerInfo::Known {
                ty: None,
                bits: None,
            },
            None,
        ),
    }
}
