//! The `--widths LIST` argument of `diopter prove` and `diopter validate`:
//! widths and inclusive ranges (`1..8,16,32,33,64`), each in
//! `1..=diopter_rules::widths::MAX_WIDTH`, enforced when the command line
//! is read (`diopter_rules::widths::parse_width_list`).

use diopter_rules::widths::WidthListError;
use std::fmt;
use std::ops::Deref;

/// A parsed `--widths`: sorted, without duplicates, never empty.
#[derive(Clone, PartialEq, Eq)]
pub struct WidthList(pub Vec<u64>);

impl Deref for WidthList {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        &self.0
    }
}

impl fmt::Debug for WidthList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// clap's value parser for `--widths`.
pub fn parse_widths(s: &str) -> Result<WidthList, WidthListError> {
    diopter_rules::widths::parse_width_list(s).map(WidthList)
}

/// What `--help` says about the list, shared by both commands.
pub const WIDTHS_DOC: &str =
    "Integer widths: a comma-separated list of widths and inclusive ranges \
(1..8,16,32), each from 1 to 256 bits.";

#[cfg(test)]
mod tests {
    use super::parse_widths;

    #[test]
    fn ranges_and_single_widths_make_one_sorted_list() {
        assert_eq!(
            parse_widths("16,1..4,8,3").unwrap().0,
            vec![1, 2, 3, 4, 8, 16]
        );
    }

    #[test]
    fn out_of_range_and_malformed_lists_are_refused_with_the_reason() {
        for (arg, says) in [
            ("0", "out of range"),
            ("100000", "out of range"),
            ("257", "out of range"),
            ("1..300", "out of range"),
            ("8..4", "low to high"),
            ("8,,16", "empty width"),
            ("x", "not a width"),
            ("", "empty width"),
        ] {
            let e = parse_widths(arg).expect_err(arg).to_string();
            assert!(e.contains(says), "{arg}: {e}");
        }
        assert_eq!(parse_widths("256").unwrap().0, vec![256]);
    }
}
