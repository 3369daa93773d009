//! One batch: prepared cases packed into stops (each stop sets the
//! registers of the cases read there, so cases whose registers do not
//! clash share a stop), one program built, every available debugger run
//! once on it (the debuggers in parallel, one process each), and every
//! case's answers classified against the reference.

use crate::compare::{classify, Class};
use crate::drive::{self, Answer, Debugger, Plan};
use crate::elf::{self, Stop, Variable, GPRS, XMMS, XMM_BASE};
use crate::link;
use crate::prepare::{Prepared, Reg};
use crate::tools::Tools;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a batch runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Where the program, the plans and the debuggers' logs go.
    pub dir: PathBuf,
    /// The time limit of one debugger run: `base + per_case * cases`.
    pub timeout_base: Duration,
    pub timeout_per_case: Duration,
    /// Every other variable gets a three-range location list (see [`elf`]).
    pub loclists: bool,
}

impl Options {
    pub fn new(dir: &Path) -> Options {
        Options {
            dir: dir.to_path_buf(),
            timeout_base: Duration::from_secs(60),
            timeout_per_case: Duration::from_millis(100),
            loclists: true,
        }
    }
}

/// A case's result: the variable's name and each debugger's class.
#[derive(Clone, Debug)]
pub struct CaseResult {
    pub var: String,
    pub answers: BTreeMap<Debugger, (Answer, Class)>,
    pub loclist: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Timing {
    pub build: Duration,
    pub debugger: BTreeMap<Debugger, Duration>,
}

/// Packs the cases into stops: cases go into the last stop while its
/// general and xmm registers last. Returns each case's stop and machine
/// registers, and the stops' register values.
fn pack(cases: &[Prepared]) -> (Vec<(usize, Vec<u16>)>, Vec<Stop>) {
    let mut stops: Vec<(Stop, usize, usize)> = vec![(Stop::default(), 0, 0)];
    let mut placed = Vec::with_capacity(cases.len());
    for c in cases {
        let g = c
            .registers
            .iter()
            .filter(|r| matches!(r, Reg::Gpr(_)))
            .count();
        let x = c.registers.len() - g;
        let fits = |s: &(Stop, usize, usize)| s.1 + g <= GPRS.len() && s.2 + x <= XMMS;
        if !fits(stops.last().expect("one stop")) {
            stops.push((Stop::default(), 0, 0));
        }
        let k = stops.len() - 1;
        let s = &mut stops[k];
        let mut machine = Vec::with_capacity(c.registers.len());
        for r in &c.registers {
            match *r {
                Reg::Gpr(v) => {
                    s.0.gpr[s.1] = v;
                    machine.push(GPRS[s.1]);
                    s.1 += 1;
                }
                Reg::Xmm(v) => {
                    s.0.xmm[s.2] = v;
                    machine.push(XMM_BASE + s.2 as u16);
                    s.2 += 1;
                }
            }
        }
        placed.push((k, machine));
    }
    (placed, stops.into_iter().map(|s| s.0).collect())
}

/// Why a batch's program was not built.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("no C compiler to build the batch program")]
    NoCompiler,
    /// Case `case` needs other bytes than an earlier one in one page.
    #[error("case {case} holds other bytes than an earlier case in the page at 0x{page:x}")]
    PagesClash { case: usize, page: u64 },
    /// The object file (the ELF writer's reason).
    #[error("{0}")]
    Object(String),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Link(#[from] link::LinkError),
}

/// Runs one batch. `Err` when the program cannot be built or the cases'
/// pages clash; a debugger that fails gives every case the class `failed`.
pub fn run(
    cases: &[Prepared],
    tools: &Tools,
    opts: &Options,
) -> Result<(Vec<CaseResult>, Timing), BatchError> {
    let cc = tools.cc.as_ref().ok_or(BatchError::NoCompiler)?;
    let t0 = Instant::now();
    let (placed, stops) = pack(cases);
    let mut pages: BTreeMap<u64, &Vec<u8>> = BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        for (a, bytes) in &c.pages {
            if let Some(old) = pages.insert(*a, bytes) {
                if old != bytes {
                    return Err(BatchError::PagesClash { case: i, page: *a });
                }
            }
        }
    }
    let vars: Vec<Variable> = cases
        .iter()
        .zip(&placed)
        .enumerate()
        .map(|(i, (c, (_, machine)))| Variable {
            name: format!("c{i}"),
            bytes: c.bytes,
            ops: c.lowered.ops.clone(),
            registers: machine.clone(),
            loclist: opts.loclists && i % 2 == 1,
        })
        .collect();
    let pages: Vec<(u64, Vec<u8>)> = pages.into_iter().map(|(a, b)| (a, b.clone())).collect();
    let obj = elf::batch_object(&vars, &stops, &pages).map_err(BatchError::Object)?;
    let dir = &opts.dir;
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BatchError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let obj_path = dir.join("batch.o");
    std::fs::write(&obj_path, obj).map_err(io(&obj_path))?;
    let runtime = link::runtime(cc, &dir.join("runtime"))?;
    let quiet = link::quiet_syslog(cc, &dir.join("runtime"))?;
    let exe = dir.join("batch");
    link::link(cc, &runtime, &obj_path, &exe)?;
    let build = t0.elapsed();
    let mut plan: Plan = vec![Vec::new(); stops.len()];
    for (v, (stop, _)) in vars.iter().zip(&placed) {
        plan[*stop].push((v.name.clone(), v.bytes));
    }
    let timeout = opts.timeout_base + opts.timeout_per_case * cases.len() as u32;
    type Run = (Debugger, Result<BTreeMap<String, Answer>, String>, Duration);
    let runs: Vec<Run> = std::thread::scope(|s| {
        let handles: Vec<_> = Debugger::ALL
            .iter()
            .filter_map(|d| {
                let tool = match d {
                    Debugger::Gdb => tools.gdb.clone(),
                    Debugger::Lldb => tools.lldb.clone(),
                }?;
                let (exe, plan, quiet) = (&exe, &plan, &quiet);
                let preload = matches!(d, Debugger::Lldb).then_some(quiet.as_path());
                Some(s.spawn(move || {
                    let t = Instant::now();
                    let r = drive::run(*d, &tool, exe, plan, dir, timeout, preload);
                    (*d, r, t.elapsed())
                }))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a debugger thread does not panic"))
            .collect()
    });
    let mut timing = Timing {
        build,
        ..Timing::default()
    };
    let mut results: Vec<CaseResult> = vars
        .iter()
        .map(|v| CaseResult {
            var: v.name.clone(),
            answers: BTreeMap::new(),
            loclist: v.loclist,
        })
        .collect();
    for (d, run, took) in runs {
        timing.debugger.insert(d, took);
        for (i, c) in cases.iter().enumerate() {
            let entry = match &run {
                Err(e) => (Answer::Error(e.clone()), Class::Failed(e.clone())),
                Ok(answers) => {
                    let a = answers[&results[i].var].clone();
                    let nan = c.nan_test();
                    let nan_ref = nan.as_ref().map(|f| f as crate::compare::NanTest);
                    let class = classify(&c.reference, nan_ref, &a);
                    (a, class)
                }
            };
            results[i].answers.insert(d, entry);
        }
    }
    Ok((results, timing))
}
