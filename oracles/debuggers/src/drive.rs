//! Driving the debuggers: each one is started once per batch with its
//! script (`runtime/gdb_read.py` in `gdb -batch`, `runtime/lldb_read.py`
//! in `lldb -b`), which runs the batch program and writes one JSON line per
//! variable per stop. A debugger that does not finish within the time
//! limit is killed; one that exits before the last stop, reports a fatal
//! problem, leaves a variable out or writes a line that is not the
//! expected JSON gives an error for the whole batch, never answers.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub const GDB_SCRIPT: &str = include_str!("../runtime/gdb_read.py");
pub const LLDB_SCRIPT: &str = include_str!("../runtime/lldb_read.py");

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Debugger {
    Gdb,
    Lldb,
}

impl Debugger {
    pub const ALL: [Debugger; 2] = [Debugger::Gdb, Debugger::Lldb];
    pub fn name(self) -> &'static str {
        match self {
            Debugger::Gdb => "gdb",
            Debugger::Lldb => "lldb",
        }
    }
}

/// What a debugger shows for one variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Every byte, `None` where it says optimized out or unavailable.
    Bytes(Vec<Option<u8>>),
    /// Its error message for the variable.
    Error(String),
}

/// The variables to read at each stop: (name, bytes).
pub type Plan = Vec<Vec<(String, u64)>>;

#[derive(Deserialize)]
struct Line {
    stop: Option<usize>,
    var: Option<String>,
    bytes: Option<Vec<Option<u8>>>,
    error: Option<String>,
    fatal: Option<String>,
    done: Option<bool>,
}

/// Runs `debugger` (the program `tool`) on `exe` with `plan`, in `dir`;
/// the debugger is started with `preload` as `LD_PRELOAD` (LLDB:
/// [`crate::link::quiet_syslog`]), the program it debugs without.
pub fn run(
    debugger: Debugger,
    tool: &Path,
    exe: &Path,
    plan: &Plan,
    dir: &Path,
    timeout: Duration,
    preload: Option<&Path>,
) -> Result<BTreeMap<String, Answer>, String> {
    let name = debugger.name();
    let io = |e: std::io::Error| format!("{name}: {e}");
    // The debugger runs in `dir`: a relative path given here would be read
    // from there (`diopter debuggers case` passes `target/debuggers/case`).
    let dir = &std::path::absolute(dir).map_err(io)?;
    let exe = &std::path::absolute(exe).map_err(io)?;
    let plan_path = dir.join(format!("{name}.plan.json"));
    let out_path = dir.join(format!("{name}.out.jsonl"));
    let log_path = dir.join(format!("{name}.log"));
    let stops: Vec<Vec<(&str, u64)>> = plan
        .iter()
        .map(|s| s.iter().map(|(n, b)| (n.as_str(), *b)).collect())
        .collect();
    std::fs::write(
        &plan_path,
        serde_json::json!({ "stops": stops }).to_string(),
    )
    .map_err(io)?;
    let _ = std::fs::remove_file(&out_path);
    let mut cmd = Command::new(tool);
    match debugger {
        Debugger::Gdb => {
            let script = dir.join("gdb_read.py");
            std::fs::write(&script, GDB_SCRIPT).map_err(io)?;
            cmd.args(["-nx", "-batch", "-x"]).arg(&script).arg(exe);
        }
        Debugger::Lldb => {
            let script = dir.join("lldb_read.py");
            std::fs::write(&script, LLDB_SCRIPT).map_err(io)?;
            cmd.args(["-b", "--no-lldbinit"]);
            if preload.is_some() {
                cmd.args(["-o", "settings set target.unset-env-vars LD_PRELOAD"]);
            }
            cmd.arg("-o")
                .arg(format!("command script import {}", script.display()));
        }
    }
    if let Some(p) = preload {
        cmd.env("LD_PRELOAD", std::path::absolute(p).map_err(io)?);
    }
    let log = std::fs::File::create(&log_path).map_err(io)?;
    cmd.env("DIOPTER_PLAN", &plan_path)
        .env("DIOPTER_OUT", &out_path)
        .env("DIOPTER_PROGRAM", exe)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(io)?)
        .stderr(log);
    // Its own process group, so that a hung debugger is killed with the
    // program it debugs.
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {name} ({}): {e}", tool.display()))?;
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(io)? {
            break s;
        }
        if start.elapsed() > timeout {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{name} did not finish within {:.0} s and was killed (log: {})",
                timeout.as_secs_f64(),
                log_path.display()
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let text = std::fs::read_to_string(&out_path).unwrap_or_default();
    let answers = parse(name, &text, plan).map_err(|e| {
        format!(
            "{e} ({name} exited with {status}; log: {})",
            log_path.display()
        )
    })?;
    Ok(answers)
}

/// The answers in a script's output, checked against the plan.
pub fn parse(name: &str, text: &str, plan: &Plan) -> Result<BTreeMap<String, Answer>, String> {
    let mut answers = BTreeMap::new();
    let mut done = false;
    for (i, raw) in text.lines().enumerate() {
        let line: Line = serde_json::from_str(raw)
            .map_err(|e| format!("{name}'s output line {}: {e}: {raw:?}", i + 1))?;
        if let Some(f) = line.fatal {
            return Err(format!("{name}: {f}"));
        }
        if line.done == Some(true) {
            done = true;
            continue;
        }
        let (Some(stop), Some(var)) = (line.stop, line.var) else {
            return Err(format!(
                "{name}'s output line {} names no stop and variable: {raw:?}",
                i + 1
            ));
        };
        let Some(want) = plan
            .get(stop)
            .and_then(|s| s.iter().find(|(n, _)| *n == var))
        else {
            return Err(format!(
                "{name}'s output line {} is about {var} at stop {stop}, which the plan does not read there",
                i + 1
            ));
        };
        let answer = match (line.bytes, line.error) {
            (Some(b), None) if b.len() as u64 == want.1 => Answer::Bytes(b),
            (Some(b), None) => {
                return Err(format!(
                    "{name} gives {} bytes of the {}-byte {var}",
                    b.len(),
                    want.1
                ))
            }
            (None, Some(e)) => Answer::Error(e),
            _ => {
                return Err(format!(
                    "{name}'s output line {} has neither bytes nor an error: {raw:?}",
                    i + 1
                ))
            }
        };
        if answers.insert(var.clone(), answer).is_some() {
            return Err(format!("{name} answers twice for {var}"));
        }
    }
    if !done {
        return Err(format!(
            "{name} stopped before the end of the batch ({} of {} variables read)",
            answers.len(),
            plan.iter().map(Vec::len).sum::<usize>()
        ));
    }
    for (n, _) in plan.iter().flatten() {
        if !answers.contains_key(n) {
            return Err(format!("{name} gives no answer for {n}"));
        }
    }
    Ok(answers)
}
