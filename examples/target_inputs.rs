//! Runs one fuzz target's body on saved inputs outside libFuzzer, through
//! the campaign's in-process replay (`campaign_cmd::other_target_failure`,
//! every target but eval_diff, which has `eval_diff_inputs` in
//! diopter-harness), and prints each input's time and failure signature:
//! for timing a slow unit without a fuzz build.
//!
//!     cargo run --release --example target_inputs -- validate_diff FILE...

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(target) = args.next() else {
        eprintln!("usage: target_inputs TARGET FILE...");
        std::process::exit(2);
    };
    for f in args {
        let data = match std::fs::read(&f) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{f}: {e}");
                std::process::exit(2);
            }
        };
        let t = Instant::now();
        let failure = diopter::campaign_cmd::other_target_failure(&target, &data);
        println!(
            "{f}: {:.3} s, {}",
            t.elapsed().as_secs_f64(),
            failure.as_deref().unwrap_or("ok")
        );
    }
}
