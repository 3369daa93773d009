//! The oracles by name: the one place that knows which oracles exist, so
//! that the differential framework (`diopter_diff`) stays generic and the
//! CLI, campaigns and fuzz targets choose oracles by the names users type.

use diopter_diff::{Oracle, Reference};

/// The names [`oracle`] knows, the reference first.
pub const ORACLE_NAMES: [&str; 3] = ["reference", "fast", "dwarf"];

/// The oracle of a name in [`ORACLE_NAMES`].
pub fn oracle(name: &str) -> Option<Box<dyn Oracle>> {
    match name {
        "reference" => Some(Box::new(Reference)),
        "fast" => Some(Box::new(crate::adapters::Fast::default())),
        "dwarf" => Some(Box::new(crate::adapters::Dwarf)),
        // Not in ORACLE_NAMES (campaigns run it inside `dwarf_diff`); named
        // so that `diopter replay` can replay its case files.
        "dwarf-ext" => Some(Box::new(crate::adapters::DwarfExt)),
        _ => None,
    }
}

/// Every oracle, the reference first.
pub fn all_oracles() -> Vec<Box<dyn Oracle>> {
    ORACLE_NAMES.iter().filter_map(|n| oracle(n)).collect()
}
