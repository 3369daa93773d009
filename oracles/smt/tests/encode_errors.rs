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
    let e = EncodeError::Unsupported("x86_fp80 arithmetic".into());
    assert_eq!(
        e.to_string(),
        "not supported by the encoding: x86_fp80 arithmetic"
    );
}
