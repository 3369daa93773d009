//! The switch of a build with planted faults: which fault is active, which
//! sites were passed, and the catalogue.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::catalogue::{Fault, FAULTS};

/// No fault active.
const NONE: usize = 0;
/// `$DIOPTER_FAULT` not read yet.
const UNREAD: usize = usize::MAX;

/// The active fault's index in [`FAULTS`] plus one, [`NONE`] or [`UNREAD`].
static ACTIVE: AtomicUsize = AtomicUsize::new(UNREAD);

#[allow(clippy::declare_interior_mutable_const)]
const NOT_REACHED: AtomicBool = AtomicBool::new(false);
static REACHED: [AtomicBool; FAULTS.len()] = [NOT_REACHED; FAULTS.len()];

fn index(name: &str) -> Option<usize> {
    FAULTS.iter().position(|f| f.name == name)
}

fn active_index() -> usize {
    let a = ACTIVE.load(Ordering::Relaxed);
    if a != UNREAD {
        return a;
    }
    let from_env = match std::env::var("DIOPTER_FAULT") {
        Ok(name) if !name.is_empty() => match index(&name) {
            Some(i) => i + 1,
            // A typo must not look like a fault nobody finds.
            None => {
                eprintln!("diopter: $DIOPTER_FAULT names no planted fault: {name}");
                std::process::exit(2);
            }
        },
        _ => NONE,
    };
    // Another thread may have activated one meanwhile: keep that.
    match ACTIVE.compare_exchange(UNREAD, from_env, Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => from_env,
        Err(now) => now,
    }
}

/// Makes `name` the active fault (`None`: none), whatever `$DIOPTER_FAULT`
/// says. Unknown names are an error.
pub fn activate(name: Option<&str>) -> Result<(), String> {
    let v = match name {
        None => NONE,
        Some(n) => index(n).ok_or_else(|| format!("no planted fault is named {n}"))? + 1,
    };
    ACTIVE.store(v, Ordering::Relaxed);
    Ok(())
}

/// The active fault.
pub fn active() -> Option<&'static Fault> {
    active_index().checked_sub(1).map(|i| &FAULTS[i])
}

/// Called at a site (`site` caches its index) each time execution passes it: records the site as
/// reached and says whether its fault is the active one. Panics on a name
/// that is not catalogued (a planting mistake; `tests/faults_sites.rs`
/// catches it before any run).
pub fn on(site: &AtomicUsize, name: &'static str) -> bool {
    let mut i = site.load(Ordering::Relaxed);
    if i == usize::MAX {
        let Some(found) = index(name) else {
            panic!("planted!({name:?}): not in the catalogue (faults/src/catalogue.rs)")
        };
        site.store(found, Ordering::Relaxed);
        i = found;
    }
    if !REACHED[i].load(Ordering::Relaxed) && !REACHED[i].swap(true, Ordering::Relaxed) {
        note_reached(name);
    }
    active_index() == i + 1
}

/// Appends a site's name to `$DIOPTER_FAULT_REACHED` the first time it is
/// passed: a fuzz target killed by libFuzzer has no exit hook to write
/// the list, so it is written as it grows.
fn note_reached(name: &str) {
    if let Some(path) = std::env::var_os("DIOPTER_FAULT_REACHED") {
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(f, "{name}");
        }
    }
}

/// The faults whose sites this process has passed.
pub fn reached() -> Vec<&'static str> {
    FAULTS
        .iter()
        .zip(REACHED.iter())
        .filter(|(_, r)| r.load(Ordering::Relaxed))
        .map(|(f, _)| f.name)
        .collect()
}
