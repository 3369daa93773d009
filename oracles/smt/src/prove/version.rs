//! The version of the Z3 library the prover is linked with: part of what
//! decides a verdict (the proof cache keys on it).

use std::ffi::CStr;

/// Z3's full version string, e.g. `4.8.12.0`.
pub fn solver_version() -> String {
    // SAFETY: Z3_get_full_version takes no context and returns a pointer to
    // a static NUL-terminated string owned by the library.
    unsafe {
        let p = z3_sys::Z3_get_full_version();
        if p.is_null() {
            return "unknown".into();
        }
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}
