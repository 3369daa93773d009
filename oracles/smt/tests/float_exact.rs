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
//! from fixed seeds. Anything other than agreement (a disagreement, or a
//! case the encoding calls unsupported) fails the test, except that an
//! x86_fp80 case the encoding refuses as unsupported is counted apart (the
//! encoding does not model x86_fp80 yet; the prover answers `unknown` there).

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
    fn specials(&self) -> Vec<u128> {
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
    /// A float of `k` whose exponent is near `to`'s range half of the time.
    fn float_near(&mut self, k: &Kind, to_e: u32) -> u128 {
        let raw = self.bits(k.width());
        if self.next().is_multiple_of(2) || to_e >= k.e {
            return raw;
        }
        let span = 1u128 << (to_e + 1);
        let lo = k.bias().saturating_sub(span);
        let exp = lo + u128::from(self.next()) % (2 * span);
        let frac = self.bits(k.m);
        k.make(self.next().is_multiple_of(2), exp.min(k.max_exp()), frac)
    }
}

struct Tally {
    agree: u64,
    /// x86_fp80 cases the encoding calls unsupported: counted and printed,
    /// not failed, until the encoding models x86_fp80 (issue #15, part 2c).
    fp80_unsupported: u64,
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
            Comparison::Agree => self.agree += 1,
            Comparison::Unsupported(why)
                if line.contains("x86_fp80") && why.contains("x86_fp80") =>
            {
                self.fp80_unsupported += 1
            }
            other => self
                .failures
                .push(format!("{line} on {}: {other:?}", inputs.join(", "))),
        }
    }
}

fn report(t: &Tally, what: &str) {
    eprintln!(
        "{what}: {} agree ({} random inputs), {} x86_fp80 cases unsupported, {} fail",
        t.agree,
        t.random,
        t.fp80_unsupported,
        t.failures.len()
    );
    let mut shown: Vec<&String> = t
        .failures
        .iter()
        .filter(|f| !f.contains("x86_fp80"))
        .collect();
    shown.extend(t.failures.iter().filter(|f| f.contains("x86_fp80")));
    for f in shown.into_iter().take(40) {
        eprintln!("  {f}");
    }
    assert!(
        t.failures.is_empty(),
        "{what}: {} failures",
        t.failures.len()
    );
}

fn tally() -> Tally {
    Tally {
        agree: 0,
        fp80_unsupported: 0,
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
