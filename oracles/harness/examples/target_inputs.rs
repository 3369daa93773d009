//! Runs one fuzz target's body (`diopter_harness::targets`) on saved inputs
//! outside libFuzzer and prints each input's time and outcome: for timing a
//! slow unit without a fuzz build (`cargo run --release -p diopter-harness
//! --example target_inputs -- validate_diff FILE...`).

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(target) = args.next() else {
        eprintln!("usage: target_inputs TARGET FILE... (TARGET: validate_diff)");
        std::process::exit(2);
    };
    let body: fn(&[u8]) -> Result<(), String> = match target.as_str() {
        "validate_diff" => diopter_harness::targets::validate_diff,
        other => {
            eprintln!("unknown target `{other}`");
            std::process::exit(2);
        }
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
        let r = body(&data);
        println!(
            "{f}: {:.3} s, {}",
            t.elapsed().as_secs_f64(),
            match r {
                Ok(()) => "ok".to_string(),
                Err(m) => format!("finding: {}", m.lines().next().unwrap_or("")),
            }
        );
    }
}
