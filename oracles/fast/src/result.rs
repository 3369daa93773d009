//! The fast evaluator's own result: what one evaluation gives, in machine
//! words, borrowed from the program, the context and the scratch buffers.
//!
//! [`Compiled::run`] returns an [`Evaluation`]: the result's type (borrowed
//! from the program, never cloned), size and fragment, and its location as
//! the machine left it (single locations of storages and `i128` bit
//! offsets, implicit values as `u128`s or runs of words); or an error
//! class, the operation index, and the message's arguments, written by
//! [`EvalFailure::message`] only when asked. Nothing is converted or
//! allocated to make it. A debugger can keep one [`Scratch`] and look at each
//! stop's `Evaluation`; the differential oracle turns it into the
//! reference's `Outcome` ([`Evaluation::to_outcome`]) on its own side, so
//! the evaluation itself never pays for the reference's types.
//!
//! The run's arenas are the `Scratch`'s, borrowed; dropping the `Evaluation`
//! hands back the one vector a run may have taken (its `refs`).

use super::compile::Compiled;
use super::exec::{Loc, Machine, Sgl, St, Stop};
use super::failure::Msg;
use super::offset::Off;
use super::words;
use super::{PreparedContext, Scratch};
use diopter_semantics::context::Context;
use diopter_semantics::interp::{ErrorKind, Located, Outcome};
use diopter_semantics::location::LocDesc;
use diopter_semantics::types::Type;
use num_bigint::BigInt;
use std::fmt;

type Finished<'a, O> = Result<Loc<O>, (usize, Stop)>;

// The usual variant stays inline: boxing it would allocate at every evaluation.
#[allow(clippy::large_enum_variant)]
enum Inner<'a> {
    /// The usual run, with `i128` offsets and the scratch's buffers.
    Small(Machine<'a, 'a, i128>, Finished<'a, i128>),
    /// An offset outgrew `i128`: the run repeated with `BigInt` offsets.
    Big(Box<(Machine<'a, 'a, BigInt>, Finished<'a, BigInt>)>),
    /// Between the two (never seen outside `Compiled::run`).
    Gone,
}

/// One evaluation's result, borrowing the program, the context and the
/// scratch (see the module documentation).
pub struct Evaluation<'a> {
    inner: Inner<'a>,
}

/// Runs `f` on the machine and its result, whichever offsets it used.
macro_rules! on_machine {
    ($e:expr, |$m:ident, $r:ident| $body:expr) => {
        match &$e.inner {
            Inner::Small($m, $r) => $body,
            Inner::Big(b) => {
                let ($m, $r) = (&b.0, &b.1);
                $body
            }
            Inner::Gone => unreachable!("a finished run"),
        }
    };
}

impl Compiled {
    /// Evaluates the expression in `ctx`, with the buffers of `scratch`:
    /// the compact result. [`Compiled::eval`] gives the reference's
    /// `Outcome` instead.
    #[inline]
    pub fn run<'a>(&'a self, ctx: &'a Context, scratch: &'a mut Scratch) -> Evaluation<'a> {
        self.start(ctx, None, scratch)
    }

    /// [`Compiled::run`] in a prepared context: the same result, without
    /// loading the context's locations or looking up what it knows.
    #[inline]
    pub fn run_prepared<'a>(
        &'a self,
        pre: &'a PreparedContext<'_>,
        scratch: &'a mut Scratch,
    ) -> Evaluation<'a> {
        if pre.lazy {
            return self.run(pre.ctx, scratch);
        }
        self.start(pre.ctx, Some(pre), scratch)
    }

    #[inline(always)]
    fn start<'a>(
        &'a self,
        ctx: &'a Context,
        pre: Option<&'a PreparedContext<'a>>,
        scratch: &'a mut Scratch,
    ) -> Evaluation<'a> {
        // The machine is made and run where the result keeps it: moving it
        // into the result afterwards was one more copy per run.
        let Scratch {
            bufs,
            big,
            refs,
            run,
        } = scratch;
        let mut ev = Evaluation {
            inner: Inner::Small(
                Machine::new(self, ctx, bufs, refs, run, pre),
                Err((0, Stop::Bail)),
            ),
        };
        let Inner::Small(m, r) = &mut ev.inner else {
            unreachable!("made small")
        };
        if let Some(pre) = pre {
            m.singles.pre = &pre.singles;
            m.parts.pre = &pre.parts;
            m.addrs.pre = &pre.addrs;
            m.refs.pre = &pre.refs;
            m.words.extend_from_slice(&pre.words);
        }
        m.stack.reserve(self.max_depth);
        *r = m.run();
        if let Err((_, Stop::Bail)) = r {
            let Inner::Small(mut m, _) = std::mem::replace(&mut ev.inner, Inner::Gone) else {
                unreachable!("made small")
            };
            m.give_back_refs();
            let mut big: Machine<'a, 'a, BigInt> =
                Machine::new(self, ctx, big, m.refs_home, m.run, None);
            let r = big.run();
            assert!(
                !matches!(r, Err((_, Stop::Bail))),
                "BigInt offsets do not overflow"
            );
            ev.inner = Inner::Big(Box::new((big, r)));
        }
        ev
    }
}

impl Drop for Evaluation<'_> {
    fn drop(&mut self) {
        match &mut self.inner {
            Inner::Small(m, _) => m.give_back_refs(),
            Inner::Big(b) => b.0.give_back_refs(),
            Inner::Gone => {}
        }
    }
}

/// A failed evaluation: the error class, the operation, the message on demand.
pub struct EvalFailure<'v> {
    kind: ErrorKind,
    op_index: usize,
    text: Text<'v>,
}

/// Whatever writes the message: the machine that failed and its `Msg`.
enum Text<'v> {
    Small(&'v Machine<'v, 'v, i128>, &'v Msg),
    Big(&'v Machine<'v, 'v, BigInt>, &'v Msg),
}

impl EvalFailure<'_> {
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
    /// The index of the operation that failed (the number of operations for
    /// a failure after the last one), as `EvalError::op_index`.
    pub fn op_index(&self) -> usize {
        self.op_index
    }
    /// The reference's message, written now.
    pub fn message(&self) -> String {
        match self.text {
            Text::Small(m, msg) => m.message(msg),
            Text::Big(m, msg) => m.message(msg),
        }
    }
}

impl fmt::Display for EvalFailure<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} at operation #{}: {}",
            self.kind,
            self.op_index,
            self.message()
        )
    }
}

impl fmt::Debug for EvalFailure<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// An implicit value: inline when it has at most 128 bits, else the
/// little-endian words of the run (bit `i` is bit `i % 64` of word `i / 64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'v> {
    Small { value: u128, bits: u32 },
    Words { words: &'v [u64], bits: u64 },
}

impl Value<'_> {
    /// Its width in bits.
    pub fn bits(&self) -> u64 {
        match *self {
            Value::Small { bits, .. } => u64::from(bits),
            Value::Words { bits, .. } => bits,
        }
    }
    /// Bit `i` (`false` beyond the width).
    pub fn bit(&self, i: u64) -> bool {
        if i >= self.bits() {
            return false;
        }
        match *self {
            Value::Small { value, .. } => (value >> i) & 1 == 1,
            Value::Words { words: w, .. } => words::get(w, i, 1) == 1,
        }
    }
}

/// The storage of one single location of the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageRef<'v> {
    Memory {
        addrspace: u32,
    },
    /// An entity by its name in the context.
    Entity {
        name: &'v str,
    },
    Implicit(Value<'v>),
    Undefined,
    /// Made by `DIOpAddrOf`: [`Evaluation::to_located`] gives the target.
    ImplicitAddress,
    /// Of this many parts: [`Evaluation::to_located`] gives them.
    Composite {
        parts: u32,
    },
}

/// One single location of the result: a storage and a bit offset
/// (`None` when the offset does not fit an `i128`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SingleRef<'v> {
    pub storage: StorageRef<'v>,
    pub bit_offset: Option<i128>,
}

fn single_ref<'v, O: Off>(m: &'v Machine<'_, '_, O>, s: &'v Sgl<O>) -> SingleRef<'v> {
    let value = |start: u32, bits: u64| Value::Words {
        words: &m.words[start as usize..start as usize + bits.div_ceil(64) as usize],
        bits,
    };
    let storage = match s.st {
        St::Mem(addrspace) => StorageRef::Memory { addrspace },
        St::Ent(r) | St::EntS(r, ..) | St::EntW(r, ..) => StorageRef::Entity {
            name: m.entity(r).0,
        },
        St::Imp(value, bits) => StorageRef::Implicit(Value::Small { value, bits }),
        St::ImpW(start, bits) => StorageRef::Implicit(value(start, bits)),
        St::Undef => StorageRef::Undefined,
        St::Addr(_) => StorageRef::ImplicitAddress,
        St::Comp(_, parts) => StorageRef::Composite { parts },
    };
    SingleRef {
        storage,
        bit_offset: s.off.to_i128(),
    }
}

impl<'a> Evaluation<'a> {
    pub fn is_ok(&self) -> bool {
        on_machine!(self, |_m, r| r.is_ok())
    }

    /// The result's type (`None` on failure).
    pub fn ty(&self) -> Option<&'a Type> {
        let p = on_machine!(self, |m, r| r.is_ok().then_some(m.prog))?;
        p.result.as_ref().map(|(t, _)| t)
    }

    /// `bitsizeof` of the result's type (`None` on failure).
    pub fn bits(&self) -> Option<u64> {
        on_machine!(self, |m, r| r.is_ok().then(|| m.prog.result_bits()))
    }

    /// The `DIOpFragment(offset, size)` of the expression, if any (`None`
    /// on failure too).
    pub fn fragment(&self) -> Option<(u64, u64)> {
        on_machine!(self, |m, r| r.as_ref().ok().and(m.prog.fragment))
    }

    /// The failure, if the evaluation failed.
    pub fn failure(&self) -> Option<EvalFailure<'_>> {
        match &self.inner {
            Inner::Small(m, Err((k, Stop::Fail(kind, msg)))) => Some(EvalFailure {
                kind: *kind,
                op_index: m.prog.op_index(*k),
                text: Text::Small(m, msg),
            }),
            Inner::Big(b) => match &b.1 {
                Err((k, Stop::Fail(kind, msg))) => Some(EvalFailure {
                    kind: *kind,
                    op_index: b.0.prog.op_index(*k),
                    text: Text::Big(&b.0, msg),
                }),
                _ => None,
            },
            _ => None,
        }
    }

    /// The single locations of the result (empty on failure, or for a
    /// location description with none). Collects them into a `Vec`;
    /// [`Evaluation::single`] reads one without allocating.
    pub fn singles(&self) -> Vec<SingleRef<'_>> {
        on_machine!(self, |m, r| match r {
            Ok(loc) => m.singles_of(loc).iter().map(|s| single_ref(m, s)).collect(),
            Err(_) => Vec::new(),
        })
    }

    /// The number of single locations of the result (0 on failure).
    pub fn single_count(&self) -> usize {
        on_machine!(self, |m, r| r.as_ref().map_or(0, |l| m.singles_of(l).len()))
    }

    /// Single location `i` of the result.
    pub fn single(&self, i: usize) -> Option<SingleRef<'_>> {
        on_machine!(self, |m, r| r
            .as_ref()
            .ok()
            .and_then(|l| m.singles_of(l).get(i))
            .map(|s| single_ref(m, s)))
    }

    /// The result's location in the reference's form (allocates).
    pub fn to_locdesc(&self) -> Option<LocDesc> {
        on_machine!(self, |m, r| r.as_ref().ok().map(|l| m.to_locdesc(l)))
    }

    /// The result in the reference's form (allocates; `None` on failure).
    pub fn to_located(&self) -> Option<Located> {
        self.to_outcome().ok()
    }

    /// The reference's `Outcome` of this evaluation (allocates: the
    /// location as a `LocDesc`, the type cloned, the message written).
    pub fn to_outcome(&self) -> Outcome {
        on_machine!(self, |m, r| m
            .outcome(r)
            .expect("a finished run did not bail out"))
    }
}

impl Compiled {
    fn result_bits(&self) -> u64 {
        self.result.as_ref().map_or(0, |(_, b)| *b)
    }
}

impl fmt::Debug for Evaluation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.failure() {
            Some(e) => write!(f, "Evaluation(failed: {e})"),
            None => write!(
                f,
                "Evaluation(`{}` at {:?})",
                self.ty().map_or(String::new(), |t| t.to_string()),
                self.singles()
            ),
        }
    }
}
