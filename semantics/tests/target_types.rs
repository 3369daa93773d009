//! Target extension types take the size of their layout type where LLVM
//! gives them one (`TargetExtType::getLayoutType`): AMD's whole-VGPR debug
//! type is `[lanes x lane type]`, so `DIOpArg` of it is sized, as AMD's
//! MIR test `heterogeneous-dwarf-diop-diexpression-subregs.mir` needs.

use diopter_semantics::types::{DataLayout, Type, TypeTable};

fn target(name: &str, types: Vec<Type>, ints: Vec<u64>) -> Type {
    Type::Target {
        name: name.into(),
        types,
        ints,
    }
}

#[test]
fn known_target_types_have_their_layouts_size() {
    let dl = DataLayout::llvm_default();
    let t = TypeTable::default();
    let size = |ty: &Type| dl.bitsizeof(ty, &t);
    // 32 lanes of i32 (wave32) and 64 lanes (wave64).
    let w32 = target("amdgpu.debug.whole.vreg", vec![Type::Int(32)], vec![32]);
    assert_eq!(size(&w32), Ok(1024));
    let w64 = target("amdgpu.debug.whole.vreg", vec![Type::Int(32)], vec![64]);
    assert_eq!(size(&w64), Ok(2048));
    // <4 x i32>.
    assert_eq!(
        size(&target("amdgcn.named.barrier", vec![], vec![0])),
        Ok(128)
    );
    // [N x i8].
    assert_eq!(size(&target("spirv.Padding", vec![], vec![3])), Ok(24));
    // An opaque pointer of address space 0 (64 bits in LLVM's default layout).
    assert_eq!(size(&target("spirv.Image", vec![], vec![])), Ok(64));
}

#[test]
fn unknown_or_malformed_target_types_stay_unsized() {
    let dl = DataLayout::llvm_default();
    let t = TypeTable::default();
    for ty in [
        target("my.own.type", vec![], vec![]),
        target("spirv.Literal", vec![], vec![]),
        // Missing the lane count.
        target("amdgpu.debug.whole.vreg", vec![Type::Int(32)], vec![]),
    ] {
        let e = dl.bitsizeof(&ty, &t).expect_err("no size");
        assert!(e.0.contains("no size diopter knows"), "{}", e.0);
    }
}
