//! What a user reads when an expression cannot be encoded: the prover
//! prints these messages beside an `unknown` or `invalid` verdict.

use diopter_smt::EncodeError;

#[test]
fn encode_errors_say_where_and_why() {
    let e = EncodeError::IllFormed {
        op: 3,
        message: "DIOpAdd of a pointer".into(),
    };
    assert_eq!(
        e.to_string(),
        "ill-formed at operation #3: DIOpAdd of a pointer"
    );
    let e = EncodeError::Unsupported("a conversion to i0".into());
    assert_eq!(
        e.to_string(),
        "not supported by the encoding: a conversion to i0"
    );
}

/// A composite read at a symbolic offset is split into one case per
/// offset; up to `MAX_SYMBOLIC_COMPOSITE_BITS` bits of composite that is
/// done, beyond it the encoding says it cannot (an `unknown`, never a
/// wrong verdict).
#[test]
fn symbolic_offsets_into_composites_stop_at_the_size_limit() {
    use diopter_semantics::types::{DataLayout, TypeTable};
    use diopter_smt::{Encoder, SLoc, SSingle, SStorage, MAX_SYMBOLIC_COMPOSITE_BITS};
    use z3::ast::BV;
    let enc = Encoder::new(DataLayout::llvm_default(), TypeTable::default(), 64);
    let implicit = |bits: u64| {
        let single = SSingle {
            storage: SStorage::Implicit(BV::from_u64(0, bits as u32)),
            offset: BV::from_u64(0, 64),
        };
        (SLoc::one(vec![single]), bits)
    };
    let composite = |bits: u64| {
        SLoc::one(vec![SSingle {
            storage: SStorage::Composite(vec![implicit(bits / 2), implicit(bits - bits / 2)]),
            offset: BV::new_const("o", 64),
        }])
    };
    let st = enc.initial_state();
    let at_limit = enc.read(&st, &composite(MAX_SYMBOLIC_COMPOSITE_BITS), 8);
    assert!(at_limit.is_ok(), "{:?}", at_limit.err());
    match enc.read(&st, &composite(MAX_SYMBOLIC_COMPOSITE_BITS + 2), 8) {
        Err(EncodeError::Unsupported(m)) => {
            assert!(m.contains("composite accessed at a symbolic offset"), "{m}")
        }
        other => panic!("{:?}", other.err()),
    }
}
