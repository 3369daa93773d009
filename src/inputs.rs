//! Finding and reading input files, with the size limit every input obeys.

use std::path::{Path, PathBuf};

/// Resource limit: inputs larger than this are refused before they are read.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// File kinds diopter reads, by extension.
pub fn is_input(p: &Path) -> bool {
    matches!(
        p.extension().and_then(|e| e.to_str()),
        Some("expr" | "ll" | "mir")
    )
}

/// Expands directories (recursively, sorted) into the input files below them.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            let mut found = Vec::new();
            while let Some(d) = stack.pop() {
                let rd = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
                for e in rd {
                    let e = e.map_err(|e| format!("{}: {e}", d.display()))?;
                    let path = e.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if is_input(&path) {
                        found.push(path);
                    }
                }
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Reads a file as UTF-8 text, refusing files over [`MAX_INPUT_BYTES`].
pub fn read(p: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
    if meta.len() > MAX_INPUT_BYTES {
        return Err(format!(
            "{}: {} bytes is over diopter's input limit of {MAX_INPUT_BYTES} bytes",
            p.display(),
            meta.len()
        ));
    }
    let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (byte {})",
            p.display(),
            e.utf8_error().valid_up_to()
        )
    })
}
