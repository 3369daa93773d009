//! The generators reach every operation of both dialects and every storage
//! kind within a few thousand cases. Run with `--nocapture` to see the
//! coverage table.

use diopter_gen::coverage::coverage;
use diopter_gen::GenConfig;

#[test]
fn every_operation_and_storage_kind_is_generated() {
    let cov = coverage(5000, 0, &GenConfig::default());
    println!("{cov}");
    assert!(
        cov.missing_ops().is_empty(),
        "never generated: {:?}",
        cov.missing_ops()
    );
    assert!(
        cov.missing_storage().is_empty(),
        "never in a context: {:?}",
        cov.missing_storage()
    );
    for w in [
        "i1",
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "i2..i7",
        "i9..i63 (odd)",
        "i65..i127",
        "i129..i256",
        "i257+",
    ] {
        assert!(cov.widths.contains_key(w), "no integer of width {w}");
    }
    for t in [
        "half",
        "bfloat",
        "float",
        "double",
        "fp128",
        "x86_fp80",
        "vector",
        "array",
        "struct",
        "packed struct",
        "named struct",
        "typed pointer",
        "opaque pointer",
    ] {
        assert!(cov.types.contains_key(t), "no {t}");
    }
    for l in [
        "int",
        "float",
        "vector",
        "array",
        "undef",
        "poison",
        "null",
        "zeroinitializer",
    ] {
        assert!(cov.literals.contains_key(l), "no {l} literal");
    }
    for e in [
        "constant 0",
        "constant 1",
        "constant -1 (all ones)",
        "constant INT_MIN",
        "shift amount >= width",
        "zero divisor",
        "division by zero (evaluated)",
    ] {
        assert!(cov.edges.contains_key(e), "no edge value: {e}");
    }
    assert_eq!(cov.dialects.len(), 2);
    assert!(cov.max_ops <= 64);
}
