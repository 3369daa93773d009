//! The DWARF extension evaluator (`dwarf::ext`): against gimli's evaluator
//! on the plain DWARF 5 subset (the lowering of generated cases), never a
//! panic on random bytes or random operation sequences, and each extension
//! operation on a small hand-checked example.

use diopter_diff::{self as diff, Verdict};
use diopter_dwarf::ext::{self, AspaceMap, ExtMachine, DW_OP_LLVM_USER};
use diopter_dwarf::{evaluate, lower, lower_ext};
use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_harness::adapters::dwarf::{compare_with, observation_of, DwarfVerdict};
use diopter_semantics::access;
use diopter_semantics::context::Context;
use diopter_semantics::interp::ErrorKind;
use diopter_semantics::location::LocDesc;
use proptest::prelude::*;

/// gimli's evaluator and the extension evaluator on the same lowered bytes:
/// the same reads, writes and error classes (at the same DIOp operation).
fn same_as_gimli(case: &Case) -> Result<bool, String> {
    let Ok(l) = lower(&case.bare, &case.types, &case.ctx) else {
        return Ok(false);
    };
    let g = observation_of(case, evaluate(&l, &case.ctx));
    let x = observation_of(case, ext::evaluate_lowered(&l, &case.ctx));
    match diff::classify(&[g.clone(), x.clone()]) {
        Verdict::Agree | Verdict::BothError { .. } => Ok(true),
        v => Err(format!(
            "{}\nbytes: {}\ngimli: {:?}\next:   {:?}\nverdict: {v:?}\n{}",
            case.expr_line(),
            diopter_dwarf::ops::hex(&l.bytes),
            g.outcome,
            x.outcome,
            case.ctx
        )),
    }
}

#[test]
fn agrees_with_gimli_on_4000_generated_lowerings() {
    let cfg = GenConfig {
        max_ops: 16,
        ..GenConfig::default()
    };
    let mut compared = 0;
    let mut lowered_ext = 0;
    for seed in 0..4000 {
        let case = Case::from_seed(seed, &cfg);
        match same_as_gimli(&case) {
            Ok(true) => compared += 1,
            Ok(false) => {}
            Err(m) => panic!("seed {seed}: {m}"),
        }
        // And against the reference, as the fuzz target runs it: the
        // lowering with AMD's extensions.
        match compare_with(&case, lower_ext, ext::evaluate_lowered) {
            DwarfVerdict::Disagree(d) => {
                panic!(
                    "seed {seed}: the reference and dwarf-ext disagree: {d:?}\n{}\n{}",
                    case.expr_line(),
                    case.ctx
                )
            }
            DwarfVerdict::NotLowerable(_) => {}
            _ => lowered_ext += 1,
        }
    }
    eprintln!("{compared} of 4000 lower to DWARF 5, {lowered_ext} with AMD's extensions");
    assert!(compared >= 400, "only {compared} cases lowered");
    assert!(lowered_ext >= compared, "the extensions lower fewer cases");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn agrees_with_gimli_on_random_lowerings(seed in any::<u64>()) {
        let cfg = GenConfig { max_ops: 12, ..GenConfig::default() };
        let case = Case::from_seed(seed, &cfg);
        prop_assert!(same_as_gimli(&case).is_ok(), "{}", same_as_gimli(&case).unwrap_err());
        let v = compare_with(&case, lower_ext, ext::evaluate_lowered);
        prop_assert!(!matches!(v, DwarfVerdict::Disagree(_)), "{v:?}\n{}\n{}", case.expr_line(), case.ctx);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..48), lane in 0u64..70) {
        let ctx = small_context(lane);
        let regs = regs();
        for aspaces in [AspaceMap::Identity, AspaceMap::Amdgpu] {
            let m = machine(&ctx, &regs, aspaces);
            let r = m.evaluate(&bytes, &|_| 32);
            // Either a location or an error with a message; nothing else.
            if let Err(e) = r {
                prop_assert!(!e.message.is_empty());
            }
        }
    }

    #[test]
    fn random_operation_sequences_never_panic(
        ops in proptest::collection::vec((0usize..OP_ALPHABET, any::<u16>(), any::<u8>()), 0..24),
        lane in 0u64..70,
    ) {
        let mut bytes = Vec::new();
        for (k, a, b) in ops {
            encode_random_op(&mut bytes, k, a, b);
        }
        let ctx = small_context(lane);
        let regs = regs();
        for aspaces in [AspaceMap::Identity, AspaceMap::Amdgpu] {
            let m = machine(&ctx, &regs, aspaces);
            if let Ok(loc) = m.evaluate(&bytes, &|_| 32) {
                // Whatever came out can be read and written without a panic.
                let _ = access::read(&ctx, &loc, 32);
                let mut after = ctx.clone();
                let _ = access::write(&mut after, &loc, &diopter_semantics::value::Bits::from_u64(32, 0x1234_5678));
            }
        }
    }
}

const OP_ALPHABET: usize = 22;

/// One operation of a small alphabet mixing values, locations and every
/// extension operation, with operands from `a` and `b`.
fn encode_random_op(out: &mut Vec<u8>, k: usize, a: u16, b: u8) {
    let user = |out: &mut Vec<u8>, sub: u8| {
        out.push(DW_OP_LLVM_USER);
        out.push(sub);
    };
    match k {
        0 => out.push(0x30 + (b % 32)), // lit
        1 => out.extend([0x90, b % 4]), // regx
        2 => user(out, 0x03),           // push_lane
        3 => user(out, 0x04),           // offset
        4 => {
            user(out, 0x05); // offset_uconst
            out.push(b & 0x7f);
        }
        5 => user(out, 0x06), // bit_offset
        6 => user(out, 0x02), // form_aspace_address
        7 => user(out, 0x08), // undefined
        8 => user(out, 0x0a), // piece_end
        9 => {
            user(out, 0x0b); // extend
            out.extend([b & 0x7f, (a as u8) & 0x0f]);
        }
        10 => {
            user(out, 0x0c); // select_bit_piece
            out.extend([b & 0x7f, (a as u8) & 0x0f]);
        }
        11 => out.extend([0x93, b & 0x0f]), // piece
        12 => out.extend([0x9d, b & 0x3f, (a as u8) & 0x3f]), // bit_piece
        13 => out.extend([0x94, b % 9]),    // deref_size
        14 => out.push(0x9f),               // stack_value
        15 => out.push(0x12),               // dup
        16 => out.push(0x16),               // swap
        17 => out.push(0x13),               // drop
        18 => out.push(0x1e),               // mul
        19 => out.push(0x22),               // plus
        20 => {
            user(out, 0x07); // call_frame_entry_reg
            out.push(b % 4);
        }
        _ => {
            user(out, 0x09); // aspace_bregx
            out.extend([b % 4, (a as u8) & 0x3f]);
        }
    }
}

fn regs() -> Vec<String> {
    vec!["$v0".into(), "$v1".into(), "$s0".into(), "$s1".into()]
}

/// Two 4-lane "VGPRs" of 128 bits and two 32-bit "SGPRs".
fn small_context(lane: u64) -> Context {
    let text = format!(
        "datalayout amdgpu\nseed 7\nlane {lane}\n\
         $v0 = i128 0x44444444333333332222222211111111\n\
         $v1 = i128 0xdddddddd_cccccccc_bbbbbbbb_aaaaaaaa\n\
         $s0 = i32 0x100\n$s1 = i32 0xfffffff0\n"
    )
    .replace('_', "");
    Context::parse(&text).expect("the test context parses")
}

fn machine<'a>(ctx: &'a Context, regs: &'a [String], aspaces: AspaceMap) -> ExtMachine<'a> {
    ExtMachine {
        aspaces,
        debug_addr: &[0x40, 0x80],
        ..ExtMachine::new(ctx, regs)
    }
}

fn run(bytes: &[u8], lane: u64, aspaces: AspaceMap) -> Result<LocDesc, ext::ExtStop> {
    let ctx = small_context(lane);
    let regs = regs();
    machine(&ctx, &regs, aspaces).evaluate(bytes, &|_| 32)
}

fn read_hex(loc: &LocDesc, lane: u64, bits: u64) -> String {
    let ctx = small_context(lane);
    match access::read(&ctx, loc, bits) {
        Ok(b) => b.to_hex(),
        Err(e) => format!("{:?}", e.kind),
    }
}

const USER: u8 = DW_OP_LLVM_USER;

/// AMD's VGPR pattern `DW_OP_regx V, DW_OP_LLVM_push_lane, DW_OP_lit4,
/// DW_OP_mul, DW_OP_LLVM_offset`: lane `l`'s dword at byte `4 l`.
#[test]
fn push_lane_selects_the_lanes_dword() {
    let bytes = [0x90, 0, USER, 0x03, 0x34, 0x1e, USER, 0x04];
    for (lane, want) in [(0, "0x11111111"), (2, "0x33333333"), (3, "0x44444444")] {
        let loc = run(&bytes, lane, AspaceMap::Identity).expect("evaluates");
        assert_eq!(loc, LocDesc::entity("$v0", 32 * lane));
        assert_eq!(read_hex(&loc, lane, 32), want);
    }
    // Lane 4 of a 4-lane register: the offset leaves the storage.
    let e = run(&bytes, 4, AspaceMap::Identity).unwrap_err();
    assert_eq!(e.kind, ErrorKind::OutOfBounds);
}

#[test]
fn offsets_are_checked_against_the_storage() {
    // regx $s0; lit3; offset: byte 3 of 4 is fine, 4 is not (decision 2).
    let ok = run(&[0x90, 2, 0x33, USER, 0x04], 0, AspaceMap::Identity).expect("inside");
    assert_eq!(ok, LocDesc::entity("$s0", 24));
    let e = run(&[0x90, 2, 0x34, USER, 0x04], 0, AspaceMap::Identity).unwrap_err();
    assert_eq!(e.kind, ErrorKind::OutOfBounds);
    // A negative displacement (consts -1) below bit 0.
    let e = run(&[0x90, 2, 0x11, 0x7f, USER, 0x04], 0, AspaceMap::Identity).unwrap_err();
    assert_eq!(e.kind, ErrorKind::OutOfBounds);
    // offset_uconst 2 then bit_offset 3: bit 19.
    let l = run(
        &[0x90, 2, USER, 0x05, 2, 0x33, USER, 0x06],
        0,
        AspaceMap::Identity,
    )
    .expect("ok");
    assert_eq!(l, LocDesc::entity("$s0", 19));
    // An undefined location stays undefined whatever the offset.
    let l = run(&[USER, 0x08, 0x3f, USER, 0x04], 0, AspaceMap::Identity).expect("ok");
    assert_eq!(l, LocDesc::undefined());
    assert_eq!(read_hex(&l, 0, 8), "Undefined");
}

#[test]
fn form_aspace_address_maps_identifiers() {
    // lit8, lit5, form_aspace_address.
    let bytes = [0x38, 0x35, USER, 0x02];
    assert_eq!(
        run(&bytes, 0, AspaceMap::Identity).unwrap(),
        LocDesc::memory(5, 8)
    );
    assert_eq!(
        run(&bytes, 0, AspaceMap::Amdgpu).unwrap(),
        LocDesc::memory(5, 8)
    );
    // DW_ASPACE_none is global memory on AMDGPU, generic (1) is LLVM's 0.
    let none = [0x38, 0x30, USER, 0x02];
    assert_eq!(
        run(&none, 0, AspaceMap::Amdgpu).unwrap(),
        LocDesc::memory(1, 8)
    );
    let generic = [0x38, 0x31, USER, 0x02];
    assert_eq!(
        run(&generic, 0, AspaceMap::Amdgpu).unwrap(),
        LocDesc::memory(0, 8)
    );
    // private_wave is not modelled; private_lane<n> only for the context's lane.
    assert!(run(&[0x38, 0x36, USER, 0x02], 0, AspaceMap::Amdgpu).is_err());
    let lane3 = [0x38, 0x10, 0x23, USER, 0x02];
    assert_eq!(
        run(&lane3, 3, AspaceMap::Amdgpu).unwrap(),
        LocDesc::memory(5, 8)
    );
    assert!(run(&lane3, 2, AspaceMap::Amdgpu).is_err());
    // The address is truncated to the space's 32 bits (decision 4):
    // constu 0x1_0000_0008, lit5.
    let wide = [0x10, 0x88, 0x80, 0x80, 0x80, 0x10, 0x35, USER, 0x02];
    assert_eq!(
        run(&wide, 0, AspaceMap::Identity).unwrap(),
        LocDesc::memory(5, 8)
    );
}

#[test]
fn regx_pushes_a_location_that_deref_reads() {
    // AMD's frame-pointer pattern: regx $s0 (0x100), deref_size 4, lit6, shr,
    // lit8, plus, lit5, form_aspace_address → private byte 0x100/64 + 8 = 12.
    let bytes = [0x90, 2, 0x94, 4, 0x36, 0x25, 0x38, 0x22, 0x35, USER, 0x02];
    assert_eq!(
        run(&bytes, 0, AspaceMap::Amdgpu).unwrap(),
        LocDesc::memory(5, 12)
    );
    // deref_size 4 of an implicit location (lit8, stack_value) reads its
    // low 4 bytes; stack_value makes the value a location again.
    let e = run(&[0x38, 0x9f, 0x94, 4, 0x9f], 0, AspaceMap::Identity).map(|l| read_hex(&l, 0, 32));
    assert_eq!(e.unwrap(), "0x00000008");
    // regx of a 32-bit register, deref_size 8: past the register's end.
    let e = run(&[0x90, 2, 0x94, 8], 0, AspaceMap::Identity).unwrap_err();
    assert_eq!(e.kind, ErrorKind::OutOfBounds);
}

#[test]
fn composites_pieces_and_piece_end() {
    // regx $s0, piece 4, regx $s1, piece 4, piece_end, offset_uconst 4: the
    // second part.
    let bytes = [
        0x90, 2, 0x93, 4, 0x90, 3, 0x93, 4, USER, 0x0a, USER, 0x05, 4,
    ];
    let l = run(&bytes, 0, AspaceMap::Identity).unwrap();
    assert_eq!(read_hex(&l, 0, 32), "0xfffffff0");
    // Without piece_end, offset_uconst would take an incomplete composite.
    let bad = [0x90, 2, 0x93, 4, USER, 0x05, 4];
    assert_eq!(
        run(&bad, 0, AspaceMap::Identity).unwrap_err().kind,
        ErrorKind::IllFormed
    );
    // AMD's fragment idiom: lit0, <composite>, swap, drop, piece 4.
    let frag = [
        0x30, 0x90, 2, 0x93, 4, 0x90, 3, 0x93, 4, USER, 0x0a, 0x16, 0x13, 0x93, 4,
    ];
    let l = run(&frag, 0, AspaceMap::Identity).unwrap();
    assert_eq!(read_hex(&l, 0, 32), "0x00000100");
    // piece on an empty stack: an undefined part; bit_piece 8 8 of $s1.
    let l = run(&[0x93, 1, 0x90, 3, 0x9d, 8, 8], 0, AspaceMap::Identity).unwrap();
    assert_eq!(read_hex(&l, 0, 8), "Undefined");
    let tail = l.with_bit_offset(&8.into());
    assert_eq!(read_hex(&tail, 0, 8), "0xff");
}

#[test]
fn extend_and_select_bit_piece() {
    // regx $v0, extend 8 3: three copies of its low byte.
    let l = run(&[0x90, 0, USER, 0x0b, 8, 3], 0, AspaceMap::Identity).unwrap();
    assert_eq!(read_hex(&l, 0, 24), "0x111111");
    // L0 = $v0, L1 = $v1, mask 0b0110, select 32 4: lanes 1, 2 from $v1.
    let sel = [0x90, 0, 0x90, 1, 0x36, USER, 0x0c, 32, 4];
    let l = run(&sel, 0, AspaceMap::Identity).unwrap();
    assert_eq!(read_hex(&l, 0, 128), "0x44444444ccccccccbbbbbbbb11111111");
    // Zero size or count, and a count beyond the mask's bits, are ill-formed.
    assert!(run(&[0x90, 0, USER, 0x0b, 0, 3], 0, AspaceMap::Identity).is_err());
    let wide = [0x90, 0, 0x90, 1, 0x36, USER, 0x0c, 1, 65];
    assert_eq!(
        run(&wide, 0, AspaceMap::Identity).unwrap_err().kind,
        ErrorKind::IllFormed
    );
}

#[test]
fn other_extension_operations() {
    // call_frame_entry_reg 3: the register itself (decision 5).
    assert_eq!(
        run(&[USER, 0x07, 3], 0, AspaceMap::Identity).unwrap(),
        LocDesc::entity("$s1", 0)
    );
    // lit5, aspace_bregx $s0 +4: private byte 0x104.
    assert_eq!(
        run(&[0x35, USER, 0x09, 2, 4], 0, AspaceMap::Identity).unwrap(),
        LocDesc::memory(5, 0x104)
    );
    // push_lane without a lane in the context is an error.
    let ctx = Context::parse("seed 1\n").unwrap();
    let regs = regs();
    let e = machine(&ctx, &regs, AspaceMap::Identity)
        .evaluate(&[USER, 0x03], &|_| 64)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::NoLane);
    // addrx 1 is .debug_addr[1] in the default space.
    assert_eq!(
        run(&[0xa1, 1], 0, AspaceMap::Identity).unwrap(),
        LocDesc::memory(0, 0x80)
    );
    assert!(run(&[0xa1, 2], 0, AspaceMap::Identity).is_err());
}

#[test]
fn malformed_and_unknown_operations_are_errors() {
    for bytes in [
        &[USER][..],                     // no sub-opcode
        &[USER, 0x00],                   // 0 is reserved
        &[USER, 0x0d, 0x01],             // not an operation the document defines
        &[USER, 0x05],                   // offset_uconst without its operand
        &[USER, 0x0b, 8],                // extend without a count
        &[0xe1],                         // an opcode gimli does not know
        &[0x2f, 0x01, 0x00, 0x10, 0x05], // skip into the middle of constu
        &[0x16],                         // swap on an empty stack
        // piece of 2^61 bytes: 2^64 bits (gimli's `8 * size` would overflow)
        &[0x93, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20],
    ] {
        let e = run(bytes, 0, AspaceMap::Identity).unwrap_err();
        assert_eq!(e.kind, ErrorKind::IllFormed, "{bytes:02x?}: {e:?}");
    }
}

/// The lowering with AMD's extensions (`lower_ext`): what DWARF 5 cannot
/// say, checked by hand and by the extension evaluator against the
/// reference.
#[test]
fn lower_ext_uses_push_lane_and_form_aspace_address() {
    use diopter_diff::read_case_file;
    use diopter_dwarf::ops::print_ops;
    let case = |text: &str| read_case_file(text).expect("case parses");
    // DIOpPushLane(i32) in lane 5: push_lane, convert to the i32 base type.
    let c = case("[] DIOpPushLane(i32)\n--- context\ndatalayout amdgpu\nlane 5\n");
    assert!(lower(&c.bare, &c.types, &c.ctx).is_err());
    let l = lower_ext(&c.bare, &c.types, &c.ctx).expect("lowers with the extensions");
    assert_eq!(
        print_ops(&l.ops),
        "DW_OP_LLVM_user DW_OP_LLVM_push_lane, DW_OP_convert (0x00000003 \"int32_t\"), DW_OP_stack_value"
    );
    assert!(l.uses_extensions);
    let r = ext::evaluate_lowered(&l, &c.ctx).expect("evaluates");
    assert_eq!(
        access::read(&c.ctx, &r.loc, 32).unwrap().to_hex(),
        "0x00000005"
    );
    assert!(matches!(
        compare_with(&c, lower_ext, ext::evaluate_lowered),
        DwarfVerdict::Agree
    ));
    // A lane that does not fit the type is the reference's error: not lowered.
    let c = case("[] DIOpPushLane(i8)\n--- context\nlane 300\n");
    assert!(lower_ext(&c.bare, &c.types, &c.ctx).is_err());
    // A private pointer's target: a memory location in address space 5.
    let c = case(
        "[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32)\n--- context\ndatalayout amdgpu\narg 0 = implicit(ptr addrspace(5) 0x40)\n",
    );
    assert!(lower(&c.bare, &c.types, &c.ctx).is_err());
    let l = lower_ext(&c.bare, &c.types, &c.ctx).expect("lowers with the extensions");
    assert!(
        print_ops(&l.ops).ends_with("DW_OP_lit5, DW_OP_LLVM_user DW_OP_LLVM_form_aspace_address"),
        "{}",
        print_ops(&l.ops)
    );
    let r = ext::evaluate_lowered(&l, &c.ctx).expect("evaluates");
    assert_eq!(r.loc, LocDesc::memory(5, 0x40));
    assert!(matches!(
        compare_with(&c, lower_ext, ext::evaluate_lowered),
        DwarfVerdict::Agree
    ));
}

/// `DIOpExtend(N)` of a location known when lowering: N pieces of it, DWARF
/// 5 that gimli and the extension evaluator both read as the reference does.
#[test]
fn extend_lowers_to_repeated_pieces() {
    use diopter_diff::read_case_file;
    use diopter_dwarf::ops::print_ops;
    use diopter_harness::adapters::dwarf::compare;
    let c = read_case_file(
        "[i16] DIOpArg(0, i16), DIOpExtend(3)\n--- context\n%x = i32 0x12345678\narg 0 = %x + 8\n",
    )
    .expect("case parses");
    let l = lower(&c.bare, &c.types, &c.ctx).expect("lowers");
    assert_eq!(
        print_ops(&l.ops),
        "DW_OP_regx 0x0, DW_OP_bit_piece 0x10 0x8, DW_OP_regx 0x0, DW_OP_bit_piece 0x10 0x8, DW_OP_regx 0x0, DW_OP_bit_piece 0x10 0x8"
    );
    assert_eq!(compare(&c), DwarfVerdict::Agree);
    assert!(matches!(
        compare_with(&c, lower_ext, ext::evaluate_lowered),
        DwarfVerdict::Agree
    ));
    let r = ext::evaluate_lowered(&l, &c.ctx).expect("evaluates");
    assert_eq!(
        access::read(&c.ctx, &r.loc, 48).unwrap().to_hex(),
        "0x345634563456"
    );
}
