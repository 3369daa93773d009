//! Planted faults: realistic one-line mistakes kept in the engines' code,
//! for the bug-finding benchmark (`diopter bugbench`, `reports/bugbench.md`).
//!
//! A fault is a site in an engine written as
//!
//! ```ignore
//! if diopter_faults::planted!("fast-shl-amount-mask") { /* the mistake */ } else { /* the code */ }
//! ```
//!
//! In a normal build (no `--cfg diopter_faults`) [`planted!`] expands to
//! `false` and the fault's name does not even reach the compiler's output:
//! the mistake is dead code removed by the optimizer, and no binary can be
//! talked into it (`tests/faults_absent.rs` looks for every name in the
//! `diopter` binary). Only a build with `RUSTFLAGS="--cfg diopter_faults"`
//! (the benchmark makes its own under `target/bugbench/`) has the switch:
//! at most one fault is active at a time, chosen by `$DIOPTER_FAULT` when
//! the process starts or by [`activate`]. That build also records which
//! sites were passed ([`reached`]), so that the benchmark can tell a fault
//! a search never executes from one it executes and misses.
//!
//! The catalogue of faults ([`catalogue::FAULTS`]: where each one is and
//! what it gets wrong) is data that normal code never uses; the driver
//! reads it from the faults build (`diopter bugbench catalogue`).
//! `tests/faults_sites.rs` checks that every site names a catalogued fault
//! and every fault has exactly one site.

/// `true` where the named fault is planted and active; `false`, without the
/// name, in a normal build.
#[macro_export]
macro_rules! planted {
    ($name:literal) => {{
        #[cfg(diopter_faults)]
        let on = {
            // The site's index in the catalogue, looked up once.
            static SITE: ::core::sync::atomic::AtomicUsize =
                ::core::sync::atomic::AtomicUsize::new(usize::MAX);
            $crate::on(&SITE, $name)
        };
        #[cfg(not(diopter_faults))]
        let on = false;
        on
    }};
}

pub mod catalogue;
#[cfg(diopter_faults)]
mod switch;
#[cfg(diopter_faults)]
pub use switch::{activate, active, on, reached};

/// Whether this build has the planted faults (`--cfg diopter_faults`).
pub const BUILT_WITH_FAULTS: bool = cfg!(diopter_faults);

#[cfg(test)]
mod tests {
    #[test]
    fn a_normal_build_never_takes_a_planted_branch() {
        // Whatever the environment says.
        std::env::set_var("DIOPTER_FAULT", "fast-shl-amount-mask");
        if !super::BUILT_WITH_FAULTS {
            assert!(!planted!("fast-shl-amount-mask"));
        }
    }
}
