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
//! The run's arenas and its outcome stay in the `Scratch`, where the run
//! left them (the next run on that scratch reuses them); dropping the
//! `Evaluation` hands back the one vector a run may have taken (its `refs`).

use super::compile::Compiled;
use super::exec::{recycle, Arena, Loc, Machine, Ref, Sgl, St, Stop, View};
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

/// One evaluation's result, borrowing the program, the context and the
/// scratch (see the module documentation). The run's arenas and its
/// result stay in the scratch, where the run left them: the evaluation is
/// a few words, and reading it builds a view of them (`exec::View`).
pub struct Evaluation<'a> {
    prog: &'a Compiled,
    /// The prepared context the run read, if it did (its arenas come first).
    pre: Option<&'a PreparedContext<'a>>,
    scratch: &'a mut Scratch,
    /// The run's own entity and type references (they borrow the program
    /// or the context; handed back to the scratch when dropped).
    refs: Vec<Ref<'a>>,
    /// An offset outgrew `i128`: the result is the repeated run's, with
    /// `BigInt` offsets (`Scratch::big`).
    big: bool,
}

/// Runs `body` on a view of the run's arenas and its result, whichever
/// offsets it used.
macro_rules! on_view {
    ($e:expr, |$m:ident, $r:ident| $body:expr) => {
        if $e.big {
            let ($m, $r) = (&$e.view_big(), $e.scratch.big.finished());
            $body
        } else {
            let ($m, $r) = (&$e.view_small(), $e.scratch.bufs.finished());
            $body
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
        if let [ins] = &self.code[..] {
            if let Some(slot) = pre.loaded_slot(ins) {
                return self.just_slot(pre, slot, scratch);
            }
        }
        self.start(pre.ctx, Some(pre), scratch)
    }

    /// The evaluation of a program that only names a location the prepared
    /// context loaded (`slot`: its range in the prepared arenas): that
    /// location, without a machine. Most expressions in real debug
    /// information are this one operation (`DIOpArg(0)`: the variable is
    /// where the context says), and a run's setup is most of their cost.
    /// Inline where `run_prepared` is: a call's frame was a third of it.
    #[inline(always)]
    fn just_slot<'a>(
        &'a self,
        pre: &'a PreparedContext<'_>,
        (start, len): (u32, u32),
        scratch: &'a mut Scratch,
    ) -> Evaluation<'a> {
        let b = &mut scratch.bufs;
        // What a run leaves: its result as the stack's one entry, arenas
        // holding the prepared context's words and nothing of the run's own.
        b.begin(&pre.words);
        b.stack.push(if len == 1 {
            Loc::One(pre.singles[start as usize])
        } else {
            Loc::Many(start, len)
        });
        b.done = Ok(());
        Evaluation {
            prog: self,
            pre: Some(pre),
            scratch,
            refs: Vec::new(),
            big: false,
        }
    }

    #[inline(always)]
    fn start<'a>(
        &'a self,
        ctx: &'a Context,
        pre: Option<&'a PreparedContext<'a>>,
        scratch: &'a mut Scratch,
    ) -> Evaluation<'a> {
        let Scratch {
            bufs,
            big,
            refs: home,
            run,
        } = &mut *scratch;
        let mut m = Machine::new(self, ctx, bufs, home, run, pre);
        if let Some(pre) = pre {
            m.singles.pre = &pre.singles;
            m.parts.pre = &pre.parts;
            m.addrs.pre = &pre.addrs;
            m.refs.pre = &pre.refs;
        }
        m.run();
        let (refs, repeated) = if let Err((_, Stop::Bail)) = m.done {
            // The small run's references are of no use to the repeated
            // run, which loads the context again; their vector is.
            let mut refs = std::mem::take(&mut m.refs.own);
            refs.clear();
            let mut b: Machine<'a, '_, BigInt> =
                Machine::new(self, ctx, big, m.refs_home, m.run, None);
            b.refs.own = refs;
            b.run();
            assert!(
                !matches!(b.done, Err((_, Stop::Bail))),
                "BigInt offsets do not overflow"
            );
            (b.refs.own, true)
        } else {
            (m.refs.own, false)
        };
        Evaluation {
            prog: self,
            pre,
            scratch,
            refs,
            big: repeated,
        }
    }
}

impl Drop for Evaluation<'_> {
    #[inline]
    fn drop(&mut self) {
        if self.refs.capacity() != 0 {
            self.scratch.refs = recycle(std::mem::take(&mut self.refs));
        }
    }
}

impl<'a> Evaluation<'a> {
    /// The arenas of a run with `i128` offsets: the prepared context's,
    /// then the run's.
    fn view_small(&self) -> View<'_, i128> {
        let b = &self.scratch.bufs;
        let p = match self.pre {
            Some(pre) => (
                &pre.singles[..],
                &pre.parts[..],
                &pre.addrs[..],
                &pre.refs[..],
            ),
            None => (&[][..], &[][..], &[][..], &[][..]),
        };
        View {
            prog: self.prog,
            singles: Arena {
                pre: p.0,
                own: &b.singles,
            },
            parts: Arena {
                pre: p.1,
                own: &b.parts,
            },
            addrs: Arena {
                pre: p.2,
                own: &b.addrs,
            },
            words: &b.words,
            refs: Arena {
                pre: p.3,
                own: &self.refs,
            },
            fault: &b.fault,
        }
    }

    /// The arenas of the run repeated with `BigInt` offsets (it read no
    /// prepared context).
    fn view_big(&self) -> View<'_, BigInt> {
        let b = &self.scratch.big;
        View {
            prog: self.prog,
            singles: Arena {
                pre: &[],
                own: &b.singles,
            },
            parts: Arena {
                pre: &[],
                own: &b.parts,
            },
            addrs: Arena {
                pre: &[],
                own: &b.addrs,
            },
            words: &b.words,
            refs: Arena {
                pre: &[],
                own: &self.refs,
            },
            fault: &b.fault,
        }
    }
}

/// A failed evaluation: the error class, the operation, the message on demand.
pub struct EvalFailure<'v> {
    kind: ErrorKind,
    op_index: usize,
    text: Text<'v>,
}

/// Whatever writes the message: the failed run's arenas and its `Msg`.
enum Text<'v> {
    Small(View<'v, i128>, &'v Msg),
    Big(View<'v, BigInt>, &'v Msg),
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
            Text::Small(ref m, msg) => m.message(msg),
            Text::Big(ref m, msg) => m.message(msg),
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

fn single_ref<'v, O: Off>(m: &View<'v, O>, s: &Sgl<O>) -> SingleRef<'v> {
    let words: &'v [u64] = m.words;
    let value = |start: u32, bits: u64| Value::Words {
        words: &words[start as usize..start as usize + bits.div_ceil(64) as usize],
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
        if self.big {
            self.scratch.big.done.is_ok()
        } else {
            self.scratch.bufs.done.is_ok()
        }
    }

    /// The result's type (`None` on failure).
    pub fn ty(&self) -> Option<&'a Type> {
        let p: &'a Compiled = self.prog;
        p.result.as_ref().filter(|_| self.is_ok()).map(|(t, _)| t)
    }

    /// `bitsizeof` of the result's type (`None` on failure).
    pub fn bits(&self) -> Option<u64> {
        self.is_ok().then(|| self.prog.result_bits())
    }

    /// The `DIOpFragment(offset, size)` of the expression, if any (`None`
    /// on failure too).
    pub fn fragment(&self) -> Option<(u64, u64)> {
        self.prog.fragment.filter(|_| self.is_ok())
    }

    /// The failure, if the evaluation failed.
    pub fn failure(&self) -> Option<EvalFailure<'_>> {
        let (k, kind, text) = if self.big {
            let Err((k, Stop::Fail(kind, msg))) = &self.scratch.big.done else {
                return None;
            };
            (k, kind, Text::Big(self.view_big(), msg))
        } else {
            let Err((k, Stop::Fail(kind, msg))) = &self.scratch.bufs.done else {
                return None;
            };
            (k, kind, Text::Small(self.view_small(), msg))
        };
        Some(EvalFailure {
            kind: *kind,
            op_index: self.prog.op_index(*k),
            text,
        })
    }

    /// The single locations of the result (empty on failure, or for a
    /// location description with none). Collects them into a `Vec`;
    /// [`Evaluation::single`] reads one without allocating.
    pub fn singles(&self) -> Vec<SingleRef<'_>> {
        on_view!(self, |m, r| match r {
            Ok(loc) => m.singles_of(loc).iter().map(|s| single_ref(m, s)).collect(),
            Err(_) => Vec::new(),
        })
    }

    /// The number of single locations of the result (0 on failure).
    pub fn single_count(&self) -> usize {
        on_view!(self, |m, r| r.as_ref().map_or(0, |l| m.singles_of(l).len()))
    }

    /// Single location `i` of the result.
    pub fn single(&self, i: usize) -> Option<SingleRef<'_>> {
        on_view!(self, |m, r| r
            .as_ref()
            .ok()
            .and_then(|l| m.singles_of(l).get(i))
            .map(|s| single_ref(m, s)))
    }

    /// The result's location in the reference's form (allocates).
    pub fn to_locdesc(&self) -> Option<LocDesc> {
        on_view!(self, |m, r| r.as_ref().ok().map(|l| m.to_locdesc(l)))
    }

    /// The result in the reference's form (allocates; `None` on failure).
    pub fn to_located(&self) -> Option<Located> {
        self.to_outcome().ok()
    }

    /// The reference's `Outcome` of this evaluation (allocates: the
    /// location as a `LocDesc`, the type cloned, the message written).
    pub fn to_outcome(&self) -> Outcome {
        on_view!(self, |m, r| m
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
