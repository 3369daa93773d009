//! The campaign's checks beside the oracle pairs hold on correct code: no
//! generated case fails the round trip or the validation check (a failure
//! here would be a false alarm in every `diopter run`).

use diopter_gen::{Case, GenConfig, Generate};
use diopter_harness::campaign::checks;

#[test]
fn generated_cases_read_back_as_written() {
    let c = checks::roundtrip();
    let cfg = GenConfig::default();
    for seed in 0..1500u64 {
        let case = Case::from_seed(seed, &cfg);
        if let Err(m) = (c.check)(&case, seed) {
            panic!("seed {seed}: {m}");
        }
    }
}

#[test]
fn correct_updates_validate_and_wrong_ones_are_caught() {
    let c = checks::validate(1);
    let cfg = GenConfig::default();
    for seed in 0..150u64 {
        let case = Case::from_seed(seed, &cfg);
        if let Err(m) = (c.check)(&case, seed) {
            panic!("seed {seed}: {m}");
        }
    }
}
