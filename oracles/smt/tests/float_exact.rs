//! Exact float semantics of the encoding (issue #15, part 2): one-operation
//! expressions (`DIOpConvert`, `DIOpReinterpret`, float arithmetic) on
//! concrete inputs, evaluated through the encoding and through the reference
//! interpreter (`smt::concrete::compare_with_reference`), must give the same
//! outcome bit for bit: NaN payloads and quieting, signed zeros, subnormals,
//! rounding ties, out-of-range float→int errors.
//!
//! Inputs are the special values of each kind (±0, ±inf, quiet and
//! signalling NaNs with the smallest and largest payloads, the smallest and
//! largest subnormals and normals, values at rounding ties for every target
//! precision, integers at the edges of every range) plus random bit patterns
//! from fixed seeds. For x86_fp80 every special comes also with its integer
//! bit flipped, which gives the encodings the 387 refuses: pseudo-infinities,
//! pseudo-NaNs, unnormals and pseudo-denormals. Anything other than
//! agreement (a disagreement, or a case the encoding calls unsupported)
//! fails the test.

use diopter_semantics::context::Context;
use diopter_semantics::location::LocDesc;
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::{DataLayout, TypeTable};
use diopter_semantics::value::Bits;
use diopter_smt::concrete::{compare_with_reference, Comparison};

/// A float kind's name and layout: exponent bits, stored fraction bits, and
/// whether the integer bit is explicit (x86_fp80).
#[derive(Clone, Copy, Debug)]
struct Kind {
    name: &'static str,
    e: u32,
    m: u32,
    explicit: bool,
}

const KINDS: [Kind; 6] = [
    Kind {
        name: "half",
        e: 5,
        m: 10,
        explicit: false,
    },
    Kind {
        name: "bfloat",
        e: 8,
        m: 7,
        explicit: false,
    },
    Kind {
        name: "float",
        e: 8,
        m: 23,
        explicit: false,
    },
    Kind {
        name: "double",
        e: 11,
        m: 52,
        explicit: false,
    },
    Kind {
        name: "fp128",
        e: 15,
        m: 112,
        explicit: false,
    },
    Kind {
        name: "x86_fp80",
        e: 15,
        m: 63,
        explicit: true,
    },
];

const INT_WIDTHS: [u32; 7] = [1, 2, 8, 16, 32, 64, 128];

impl Kind {
    fn width(&self) -> u32 {
        1 + self.e + self.m + u32::from(self.explicit)
    }
    /// The significand's precision, the integer bit included.
    fn precision(&self) -> u32 {
        self.m + 1
    }
    fn bias(&self) -> u128 {
        (1u128 << (self.e - 1)) - 1
    }
    fn max_exp(&self) -> u128 {
        (1u128 << self.e) - 1
    }
    /// The encoding of sign, biased exponent and fraction (for x86_fp80 the
    /// integer bit is set exactly when the exponent is not zero, unless
    /// `raw` is used).
    fn make(&self, neg: bool, exp: u128, frac: u128) -> u128 {
        let frac = frac & ((1u128 << self.m) - 1);
        let int_bit = if self.explicit && exp != 0 {
            1u128 << self.m
        } else {
            0
        };
        (u128::from(neg) << (self.width() - 1))
            | (exp << (self.m + u32::from(self.explicit)))
            | int_bit
            | frac
    }
    /// The special values; for x86_fp80 each also with its integer bit
    /// flipped (see the module docs).
    fn specials(&self) -> Vec<u128> {
        let v = self.ieee_specials();
        if !self.explicit {
            return v;
        }
        let int_bit = 1u128 << self.m;
        v.iter().flat_map(|x| [*x, x ^ int_bit]).collect()
    }
    fn ieee_specials(&self) -> Vec<u128> {
        let m = self.m;
        let top = 1u128 << (m - 1); // the quiet bit
        let all = (1u128 << m) - 1;
        let me = self.max_exp();
        let mut v = Vec::new();
        for neg in [false, true] {
            v.push(self.make(neg, 0, 0)); // zero
            v.push(self.make(neg, me, 0)); // infinity
            v.push(self.make(neg, me, top)); // qNaN, payload 0
            v.push(self.make(neg, me, top | 1)); // qNaN, smallest payload
            v.push(self.make(neg, me, all)); // qNaN, largest payload
            v.push(self.make(neg, me, 1)); // sNaN, smallest payload
            v.push(self.make(neg, me, top - 1)); // sNaN, largest payload
            v.push(self.make(neg, me, top >> 1)); // sNaN, the next bit only
            v.push(self.make(neg, 0, 1)); // smallest subnormal
            v.push(self.make(neg, 0, all)); // largest subnormal
            v.push(self.make(neg, 1, 0)); // smallest normal
            v.push(self.make(neg, me - 1, all)); // largest normal
            v.push(self.make(neg, self.bias(), 0)); // 1
            v.push(self.make(neg, self.bias() - 1, 0)); // 0.5
            v.push(self.make(neg, self.bias(), top)); // 1.5
        }
        v
    }
    /// Values of `self` that lie at or next to a rounding tie of `to` (when
    /// `to` is less precise), at a normal exponent, at `to`'s largest
    /// exponent and around `to`'s subnormal range.
    fn ties_for(&self, to: &Kind) -> Vec<u128> {
        let mut v = Vec::new();
        if to.m >= self.m {
            return v;
        }
        let d = self.m - to.m; // the fraction bits `to` drops
        let half = 1u128 << (d - 1);
        let lsb = 1u128 << d;
        let tb = to.bias() as i128;
        let sb = self.bias() as i128;
        let mut exps: Vec<i128> = vec![
            0,
            tb,
            -tb + 1,
            -tb,
            -tb - 1,
            -tb - 2,
            -tb - (to.m as i128) + 1,
        ];
        exps.retain(|x| {
            let b = x + sb;
            b > 0 && b < self.max_exp() as i128
        });
        for x in exps {
            let be = (x + sb) as u128;
            for frac in [
                half,
                half + 1,
                half - 1,
                lsb | half,
                (lsb | half) + 1,
                ((1u128 << self.m) - 1) & !(lsb - 1) | half,
            ] {
                for neg in [false, true] {
                    v.push(self.make(neg, be, frac));
                }
            }
        }
        v
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn bits(&mut self, w: u32) -> u128 {
        let x = (u128::from(self.next()) << 64) | u128::from(self.next());
        if w >= 128 {
            x
        } else {
            x & ((1u128 << w) - 1)
        }
    }
    /// A float of `k` whose exponent is near `to`'s range half of the time
    /// (for x86_fp80, with the integer bit not the canonical one a quarter
    /// of those times).
    fn float_near(&mut self, k: &Kind, to_e: u32) -> u128 {
        let raw = self.bits(k.width());
        if self.next().is_multiple_of(2) || to_e >= k.e {
            return raw;
        }
        let span = 1u128 << (to_e + 1);
        let lo = k.bias().saturating_sub(span);
        let exp = lo + u128::from(self.next()) % (2 * span);
        let frac = self.bits(k.m);
        let x = k.make(self.next().is_multiple_of(2), exp.min(k.max_exp()), frac);
        if k.explicit && self.next().is_multiple_of(4) {
            x ^ (1u128 << k.m)
        } else {
            x
        }
    }
}

struct Tally {
    agree: u64,
    /// Cases with an x86_fp80 operand or result among `agree`.
    fp80: u64,
    random: u64,
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, line: &str, args: &[Bits]) {
        let bare = parse_bare(line).unwrap_or_else(|d| panic!("{line}: {d}"));
        let mut ctx = Context::new(DataLayout::llvm_default());
        for (i, a) in args.iter().enumerate() {
            ctx.args.insert(i as u64, LocDesc::implicit(a.clone()));
        }
        let inputs: Vec<String> = args.iter().map(|a| a.to_hex()).collect();
        match compare_with_reference(&bare, &TypeTable::default(), &ctx) {
            Comparison::Agree => {
                self.agree += 1;
                self.fp80 += u64::from(line.contains("x86_fp80"));
            }
            other => self
                .failures
                .push(format!("{line} on {}: {other:?}", inputs.join(", "))),
        }
    }
}

fn report(t: &Tally, what: &str) {
    eprintln!(
        "{what}: {} agree ({} random inputs, {} with x86_fp80), {} fail",
        t.agree,
        t.random,
        t.fp80,
        t.failures.len()
    );
    for f in t.failures.iter().take(40) {
        eprintln!("  {f}");
    }
    assert!(
        t.fp80 > 0,
        "{what}: no x86_fp80 case was checked (and agreed)"
    );
    assert!(
        t.failures.is_empty(),
        "{what}: {} failures",
        t.failures.len()
    );
}

fn tally() -> Tally {
    Tally {
        agree: 0,
        fp80: 0,
        random: 0,
        failures: Vec::new(),
    }
}

/// The kinds the test covers.
fn kinds() -> Vec<Kind> {
    KINDS.to_vec()
}

#[test]
fn float_to_float_is_exact() {
    let mut t = tally();
    let mut rng = Rng(0x15_0002);
    for from in kinds() {
        for to in kinds() {
            let line = format!(
                "[{0}] DIOpArg(0, {0}), DIOpConvert({1})",
                from.name, to.name
            );
            let mut inputs = from.specials();
            inputs.extend(from.ties_for(&to));
            for x in inputs {
                t.check(&line, &[Bits::from_u128(from.width() as u64, x)]);
            }
            for _ in 0..60 {
                let x = rng.float_near(&from, to.e);
                t.random += 1;
                t.check(&line, &[Bits::from_u128(from.width() as u64, x)]);
            }
        }
    }
    report(&t, "float -> float");
}

/// Integers at the edges of `to`'s precision (ties of int→float rounding)
/// and of its range.
fn int_specials(w: u32, to: &Kind) -> Vec<u128> {
    let mask = if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    };
    let mut v: Vec<u128> = vec![
        0,
        1,
        mask,
        mask >> 1,
        (mask >> 1) + 1,
        (mask >> 1).wrapping_sub(1),
        2,
        3,
    ];
    for x in v.iter_mut() {
        *x &= mask;
    }
    let p = to.precision();
    // 2^p + 1 (tie to even, down), 2^p + 3 (tie, up), and the same shifted.
    for sh in [0u32, 1, 7, 30, 60, 100] {
        for base in [1u128, 3, 5] {
            if p + 1 + sh < w.min(127) {
                let x = ((1u128 << (p + 1)) + base) << sh;
                v.push(x & mask);
                v.push(x.wrapping_neg() & mask);
            }
        }
    }
    v
}

#[test]
fn int_to_float_is_exact() {
    let mut t = tally();
    let mut rng = Rng(0x15_0003);
    for w in INT_WIDTHS {
        for to in kinds() {
            let line = format!("[i{w}] DIOpArg(0, i{w}), DIOpConvert({})", to.name);
            for x in int_specials(w, &to) {
                t.check(&line, &[Bits::from_u128(w as u64, x)]);
            }
            for _ in 0..20 {
                let x = rng.bits(w);
                // Random magnitudes too, not only full-width patterns.
                let sh = (rng.next() % u64::from(w)) as u32;
                t.random += 2;
                t.check(&line, &[Bits::from_u128(w as u64, x)]);
                t.check(&line, &[Bits::from_u128(w as u64, x >> sh)]);
            }
        }
    }
    report(&t, "int -> float");
}

#[test]
fn float_to_int_is_exact() {
    let mut t = tally();
    let mut rng = Rng(0x15_0004);
    for from in kinds() {
        for w in INT_WIDTHS {
            let line = format!("[{0}] DIOpArg(0, {0}), DIOpConvert(i{w})", from.name);
            let mut inputs = from.specials();
            // ±2^(w-1) and their neighbours, ±(2^(w-1) ± 0.5 and 1).
            for k in [w as i128 - 1, w as i128 - 2, w as i128] {
                let be = k + from.bias() as i128;
                if be <= 0 || be >= from.max_exp() as i128 {
                    continue;
                }
                for neg in [false, true] {
                    let x = from.make(neg, be as u128, 0);
                    inputs.push(x);
                    inputs.push(x + 1);
                    inputs.push(x - 1);
                    inputs.push(from.make(neg, be as u128, 1u128 << (from.m - 1)));
                }
            }
            for x in inputs {
                t.check(&line, &[Bits::from_u128(from.width() as u64, x)]);
            }
            for _ in 0..20 {
                // Exponents around the integer's range.
                let e = u32::min(from.e, 8);
                let x = rng.float_near(&from, e);
                t.random += 1;
                t.check(&line, &[Bits::from_u128(from.width() as u64, x)]);
            }
        }
    }
    report(&t, "float -> int");
}

#[test]
fn reinterpret_is_exact() {
    let mut t = tally();
    let mut rng = Rng(0x15_0005);
    for k in kinds() {
        let w = k.width();
        let mut lines = vec![
            format!("[{0}] DIOpArg(0, {0}), DIOpReinterpret(i{w})", k.name),
            format!("[i{w}] DIOpArg(0, i{w}), DIOpReinterpret({})", k.name),
            // The integer's bits read as a float (for x86_fp80, every
            // encoding, valid or not, as i80 holds them).
            format!(
                "[i{w}] DIOpArg(0, i{w}), DIOpReinterpret({}), DIOpConvert(double)",
                k.name
            ),
        ];
        for other in kinds() {
            if other.width() == w && other.name != k.name {
                lines.push(format!(
                    "[{0}] DIOpArg(0, {0}), DIOpReinterpret({1}), DIOpConvert(float)",
                    k.name, other.name
                ));
            }
        }
        for line in &lines {
            let mut inputs = k.specials();
            for _ in 0..10 {
                inputs.push(rng.bits(w));
                t.random += 1;
            }
            for x in inputs {
                t.check(line, &[Bits::from_u128(w as u64, x)]);
            }
        }
    }
    report(&t, "reinterpret");
}

#[test]
fn float_arithmetic_is_exact() {
    let mut t = tally();
    let mut rng = Rng(0x15_0006);
    for k in kinds() {
        let w = k.width() as u64;
        let mut specials = k.specials();
        specials.retain(|x| (x >> (k.width() - 1)) == 0 || specials_keep_negative(*x, &k));
        for op in ["DIOpAdd", "DIOpSub", "DIOpMul", "DIOpDiv"] {
            let line = format!(
                "[{0}, {0}] DIOpArg(0, {0}), DIOpArg(1, {0}), {op}()",
                k.name
            );
            for a in &specials {
                for b in &specials {
                    t.check(&line, &[Bits::from_u128(w, *a), Bits::from_u128(w, *b)]);
                }
            }
            for _ in 0..40 {
                let (a, b) = (rng.float_near(&k, 4), rng.float_near(&k, 4));
                t.random += 1;
                t.check(&line, &[Bits::from_u128(w, a), Bits::from_u128(w, b)]);
            }
        }
    }
    report(&t, "float arithmetic");
}

/// The negative specials kept for the arithmetic test: -0, -inf and one
/// negative sNaN and qNaN (payloads are the positive ones').
fn specials_keep_negative(x: u128, k: &Kind) -> bool {
    let pos = x & !(1u128 << (k.width() - 1));
    let me = k.max_exp();
    pos == k.make(false, 0, 0)
        || pos == k.make(false, me, 0)
        || pos == k.make(false, me, 1)
        || pos == k.make(false, me, (1u128 << (k.m - 1)) | 1)
}

// ------------------------------------------------ x86_fp80 through the solver
//
// The tests above evaluate the encoding on numerals, which Z3's simplifier
// folds; a proof or a counterexample instead comes from the solver, which
// bit-blasts the same terms. Here the solver picks x86_fp80 inputs itself,
// inside each class of encodings (partly fixed by random hints so that the
// models differ), and every model it gives must be confirmed by the
// reference's float algebra: the output bits it chose, from the inputs it
// chose.

mod solver {
    use super::Rng;
    use diopter_semantics::value::{self, Bits, FloatKind, FloatOp};
    use diopter_smt::bv;
    use z3::ast::{Bool, BV};
    use z3::{SatResult, Solver};

    const X87: FloatKind = FloatKind::X86Fp80;

    /// Classes of x86_fp80 encodings, as constraints on the 80 bits.
    const CLASSES: [&str; 8] = [
        "normal",
        "denormal",
        "pseudo-denormal",
        "unnormal",
        "pseudo-nan-or-inf",
        "nan",
        "near-one",
        "any",
    ];

    fn field(x: &BV, hi: u32, lo: u32) -> BV {
        x.extract(hi, lo)
    }

    fn n(v: u128, w: u32) -> BV {
        bv::num(&num_bigint::BigInt::from(v), w as u64)
    }

    /// `x` in class `class`, with some low fraction bits and the sign
    /// fixed at random.
    fn x87_in(s: &Solver, x: &BV, class: &str, rng: &mut Rng) {
        let e = field(x, 78, 64);
        let i = field(x, 63, 63);
        let frac = field(x, 62, 0);
        let e_zero = e.eq(n(0, 15));
        let e_ones = e.eq(n(0x7fff, 15));
        let c = match class {
            "normal" => Bool::and(&[&e_zero.not(), &e_ones.not(), &i.eq(n(1, 1))]),
            "denormal" => Bool::and(&[&e_zero, &i.eq(n(0, 1)), &frac.eq(n(0, 63)).not()]),
            "pseudo-denormal" => Bool::and(&[&e_zero, &i.eq(n(1, 1))]),
            "unnormal" => Bool::and(&[&e_zero.not(), &e_ones.not(), &i.eq(n(0, 1))]),
            "pseudo-nan-or-inf" => Bool::and(&[&e_ones, &i.eq(n(0, 1))]),
            "nan" => Bool::and(&[&e_ones, &i.eq(n(1, 1)), &frac.eq(n(0, 63)).not()]),
            "near-one" => Bool::and(&[
                &e.bvuge(n(16383 - 70, 15)),
                &e.bvule(n(16383 + 130, 15)),
                &i.eq(n(1, 1)),
            ]),
            _ => Bool::from_bool(true),
        };
        s.assert(&c);
        s.assert(field(x, 79, 79).eq(n(u128::from(rng.next() % 2), 1)));
        if !rng.next().is_multiple_of(4) {
            // Mostly an exponent too, where the class allows it: anywhere,
            // or near 1 (integers), or where half, float and bfloat, or
            // double become subnormal.
            let r = rng.next();
            let bias = 16383u64;
            let exp = match r % 5 {
                0 => r >> 8,
                1 => bias - 70 + (r >> 8) % 200,
                2 => bias - 14 - (r >> 8) % 12,
                3 => bias - 126 - (r >> 8) % 26,
                _ => bias - 1022 - (r >> 8) % 55,
            };
            hint(s, &e, u128::from(exp));
        }
        random_bits(s, &frac, rng);
    }

    /// Asserts `x == v` (cut to `x`'s width) unless that makes `s`
    /// unsatisfiable.
    fn hint(s: &Solver, x: &BV, v: u128) {
        let w = x.get_size();
        let v = if w >= 128 { v } else { v & ((1u128 << w) - 1) };
        let c = x.eq(n(v, w));
        if s.check_assumptions(std::slice::from_ref(&c)) == SatResult::Sat {
            s.assert(&c);
        }
    }

    /// Fixes `x`'s lowest 16 bits at random, and each further chunk of 16
    /// bits with probability 1/2, so that the solver's models are not all
    /// zeros where nothing constrains them.
    fn random_bits(s: &Solver, x: &BV, rng: &mut Rng) {
        let w = x.get_size();
        let mut lo = 0;
        while lo < w {
            let hi = (lo + 15).min(w - 1);
            if lo == 0 || rng.next().is_multiple_of(2) {
                let v = u128::from(rng.next());
                hint(s, &x.extract(hi, lo), v);
            }
            lo = hi + 1;
        }
    }

    fn value_of(m: &z3::Model, x: &BV) -> Bits {
        let v = m.eval(x, true).expect("a model value");
        let u = bv::as_biguint(&v).expect("a numeral");
        Bits::from_biguint(x.get_size() as u64, &u)
    }

    struct Check {
        models: u64,
        failures: Vec<String>,
    }

    impl Check {
        /// Asks `s` for a model, and checks `reference(inputs) == output`.
        fn model(
            &mut self,
            s: &Solver,
            what: &str,
            inputs: &[&BV],
            output: &BV,
            reference: impl Fn(&[Bits]) -> Bits,
        ) {
            assert_eq!(s.check(), SatResult::Sat, "{what}: the class is empty");
            let m = s.get_model().expect("a model");
            let ins: Vec<Bits> = inputs.iter().map(|x| value_of(&m, x)).collect();
            let got = value_of(&m, output);
            let want = reference(&ins);
            self.models += 1;
            if got != want {
                let shown: Vec<String> = ins.iter().map(Bits::to_hex).collect();
                self.failures.push(format!(
                    "{what} on {}: the model says {}, the reference {}",
                    shown.join(", "),
                    got.to_hex(),
                    want.to_hex()
                ));
            }
        }
    }

    /// 1 when the reference converts to an integer, then the integer's bits
    /// (0 when it fails): what the encoding's `(value, ok)` is compared with.
    fn to_int_outcome(k: FloatKind, x: &Bits, w: u64) -> Bits {
        match value::float_to_int(k, x, w) {
            Some(v) => Bits::concat(&v, &Bits::from_u64(1, 1)),
            None => Bits::zero(w + 1),
        }
    }

    #[test]
    fn solver_models_of_x86_fp80_are_confirmed() {
        let mut rng = Rng(0x15_0080);
        let mut c = Check {
            models: 0,
            failures: Vec::new(),
        };
        for class in CLASSES {
            for round in 0..4 {
                // x86_fp80 to every kind.
                for to in FloatKind::ALL {
                    let s = Solver::new();
                    let x = BV::fresh_const("x", 80);
                    x87_in(&s, &x, class, &mut rng);
                    let y = bv::float_convert(&x, X87, to);
                    c.model(&s, &format!("{class} -> {}", to.name()), &[&x], &y, |i| {
                        value::float_to_float(X87, to, &i[0])
                    });
                }
                // Every kind to x86_fp80 (inputs the solver picks freely,
                // low bits fixed).
                for from in FloatKind::ALL {
                    if from == X87 || round % 2 == 1 {
                        continue;
                    }
                    let w = from.width() as u32;
                    let s = Solver::new();
                    let x = BV::fresh_const("x", w);
                    random_bits(&s, &x, &mut rng);
                    let y = bv::float_convert(&x, from, X87);
                    c.model(
                        &s,
                        &format!("{} -> x86_fp80", from.name()),
                        &[&x],
                        &y,
                        |i| value::float_to_float(from, X87, &i[0]),
                    );
                }
                // To integers and back.
                for w in [8u32, 64, 128] {
                    let s = Solver::new();
                    let x = BV::fresh_const("x", 80);
                    x87_in(&s, &x, class, &mut rng);
                    let (v, ok) = bv::float_to_sint(&x, X87, w);
                    let out = ok.ite(&n(1, 1), &n(0, 1)).concat(ok.ite(&v, &n(0, w)));
                    c.model(&s, &format!("{class} -> i{w}"), &[&x], &out, |i| {
                        to_int_outcome(X87, &i[0], u64::from(w))
                    });
                    let s = Solver::new();
                    let v = BV::fresh_const("v", w);
                    random_bits(&s, &v, &mut rng);
                    let y = bv::float_of_sint(&v, X87);
                    c.model(&s, &format!("i{w} -> x86_fp80"), &[&v], &y, |i| {
                        value::int_to_float(X87, &i[0])
                    });
                }
            }
            // Arithmetic, against every other class.
            for other in CLASSES {
                for (op, fop, name) in [
                    (bv::FpOp::Add, FloatOp::Add, "add"),
                    (bv::FpOp::Sub, FloatOp::Sub, "sub"),
                    (bv::FpOp::Mul, FloatOp::Mul, "mul"),
                    (bv::FpOp::Div, FloatOp::Div, "div"),
                ] {
                    let s = Solver::new();
                    let (a, b) = (BV::fresh_const("a", 80), BV::fresh_const("b", 80));
                    x87_in(&s, &a, class, &mut rng);
                    x87_in(&s, &b, other, &mut rng);
                    let y = bv::float_bin(op, &a, &b, X87);
                    c.model(&s, &format!("{class} {name} {other}"), &[&a, &b], &y, |i| {
                        value::float_binop(X87, fop, &i[0], &i[1])
                    });
                }
            }
        }
        eprintln!(
            "x86_fp80 through the solver: {} models, {} not confirmed",
            c.models,
            c.failures.len()
        );
        for f in &c.failures {
            eprintln!("  {f}");
        }
        assert!(
            c.failures.is_empty(),
            "{} models not confirmed",
            c.failures.len()
        );
    }
}
