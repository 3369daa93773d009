//! Finding LLVM's tools (`opt`, `llvm-stress`, `llvm-reduce`) and running
//! them with a bounded time and memory: a pass that hangs or blows up is a
//! result to report, never a hang of diopter.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The LLVM major version the classic dialect is read as (the `#dbg_value`
/// records LLVM 19 prints).
pub const LLVM_MAJOR: u32 = 19;

/// Why a tool could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error(
        "`{tool}` not found: looked for {looked}; install Debian's LLVM {LLVM_MAJOR} \
         (`apt-get install -y {package}`) or name the program with --{tool} PATH"
    )]
    Missing {
        tool: &'static str,
        looked: String,
        package: &'static str,
    },
    #[error("`{path}` is not usable as `{tool}`: {why}")]
    Unusable {
        tool: &'static str,
        path: String,
        why: String,
    },
}

/// One of the LLVM programs diopter drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Opt,
    Stress,
    Reduce,
    Extract,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Opt => "opt",
            Tool::Stress => "llvm-stress",
            Tool::Reduce => "llvm-reduce",
            Tool::Extract => "llvm-extract",
        }
    }
}

/// A located tool and the version it reports.
#[derive(Clone, Debug)]
pub struct Located {
    pub path: PathBuf,
    pub version: String,
}

fn on_path(name: &str, path: &std::ffi::OsStr) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The first line of `--version` that names a version (`LLVM version 19.1.7`).
fn version_of(path: &Path) -> Result<String, String> {
    let out = run(
        Command::new(path).arg("--version"),
        None,
        Limits {
            time: Duration::from_secs(20),
            memory_mb: 2048,
        },
    )
    .map_err(|e| e.to_string())?;
    if !out.status_ok {
        return Err(format!("`--version` failed: {}", out.stderr_tail()));
    }
    out.stdout
        .lines()
        .find_map(|l| {
            let i = l.find("LLVM version ")?;
            Some(l[i + "LLVM version ".len()..].trim().to_string())
        })
        .ok_or_else(|| "its `--version` names no LLVM version".to_string())
}

/// Finds `tool`: `explicit` when given, else `NAME-19` then `NAME` on PATH.
/// A program found on PATH must report LLVM 19 or later (the record syntax
/// diopter reads); an explicit one is taken at its word.
pub fn locate(tool: Tool, explicit: Option<&Path>) -> Result<Located, ToolError> {
    locate_in(
        tool,
        explicit,
        &std::env::var_os("PATH").unwrap_or_default(),
    )
}

/// [`locate`] with `search` as the PATH.
pub fn locate_in(
    tool: Tool,
    explicit: Option<&Path>,
    search: &std::ffi::OsStr,
) -> Result<Located, ToolError> {
    let name = tool.name();
    if let Some(p) = explicit {
        let version = version_of(p).map_err(|why| ToolError::Unusable {
            tool: name,
            path: p.display().to_string(),
            why,
        })?;
        return Ok(Located {
            path: p.to_path_buf(),
            version,
        });
    }
    let candidates = [format!("{name}-{LLVM_MAJOR}"), name.to_string()];
    let mut unusable = None;
    for c in &candidates {
        if let Some(p) = on_path(c, search) {
            match version_of(&p) {
                Ok(v) if major(&v).is_some_and(|m| m >= LLVM_MAJOR) => {
                    return Ok(Located {
                        path: p,
                        version: v,
                    })
                }
                Ok(v) => {
                    unusable = Some((
                        p,
                        format!("it is LLVM {v}; {LLVM_MAJOR} or later is needed"),
                    ))
                }
                Err(why) => unusable = Some((p, why)),
            }
        }
    }
    if let Some((p, why)) = unusable {
        return Err(ToolError::Unusable {
            tool: name,
            path: p.display().to_string(),
            why,
        });
    }
    Err(ToolError::Missing {
        tool: name,
        looked: candidates.join(", "),
        package: "llvm-19",
    })
}

fn major(version: &str) -> Option<u32> {
    version.split('.').next()?.trim().parse().ok()
}

/// Bounds on one run of a tool.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Duration,
    /// Address-space limit of the child, in MiB (`RLIMIT_AS`).
    pub memory_mb: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: Duration::from_secs(60),
            memory_mb: 4096,
        }
    }
}

/// What a bounded run gave.
#[derive(Clone, Debug)]
pub struct RunOutput {
    pub status_ok: bool,
    /// The exit code, or `None` when a signal ended the program.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl RunOutput {
    /// The last lines of stderr, for a one-line error.
    pub fn stderr_tail(&self) -> String {
        let mut lines: Vec<&str> = self
            .stderr
            .lines()
            .filter(|l| !l.trim().is_empty())
            .collect();
        // A crash prints its cause (`LLVM ERROR: ...`, a failed assertion)
        // before the bug-report banner and the stack dump: the tail of the
        // dump names only frames.
        if let Some(k) = lines.iter().position(|l| {
            l.starts_with("PLEASE submit a bug report") || l.starts_with("Stack dump:")
        }) {
            if k > 0 {
                lines.truncate(k);
            }
        }
        let from = lines.len().saturating_sub(3);
        let t = lines[from..].join(" | ");
        if t.is_empty() {
            match self.code {
                Some(c) => format!("exit status {c}, nothing on stderr"),
                None => "killed by a signal, nothing on stderr".into(),
            }
        } else {
            t
        }
    }
}

/// Why a bounded run gave no output.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("could not start `{program}`: {why}")]
    Spawn { program: String, why: String },
    #[error("`{program}` ran past its time limit of {secs} s and was killed")]
    Timeout { program: String, secs: u64 },
}

/// Most bytes kept of a child's stdout or stderr; the rest is read and
/// dropped, so a program that prints without end cannot exhaust memory.
const MAX_CAPTURE: usize = 64 << 20;

fn drain(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 1 << 16];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = MAX_CAPTURE.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        kept
    })
}

/// Held by whoever forks a child and by whoever asks Z3 anything, so that
/// neither happens while the other does. libz3 (Debian's 4.8.12) registers
/// `scoped_timer::finalize` as a `pthread_atfork` prepare handler: at every
/// fork it stops and deletes the timer threads of its pool, waits for the
/// ones a query holds, and then resets the pool's counters without a lock.
/// A fork while another thread runs a query with a time limit therefore
/// races with that query's timer: a campaign with `--jobs 2` hung with both
/// workers inside the handler when two forked at once, and with forks
/// serialized it still died of a segfault in `malloc` (heap corruption)
/// after ten minutes while one worker forked `opt` and the other validated.
static Z3_OR_FORK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Takes the lock of [`Z3_OR_FORK`]; validation in a campaign or a
/// reduction holds it for the whole of a module's queries.
pub fn z3_or_fork() -> std::sync::MutexGuard<'static, ()> {
    Z3_OR_FORK.lock().unwrap_or_else(|p| p.into_inner())
}

/// Runs `cmd` (stdin from `input`, or none) within `limits`: its own process
/// group, killed whole at the time limit; memory bounded by `RLIMIT_AS`.
pub fn run(cmd: &mut Command, input: Option<&[u8]>, limits: Limits) -> Result<RunOutput, RunError> {
    use std::os::unix::process::CommandExt;
    let program = cmd.get_program().to_string_lossy().into_owned();
    let bytes = limits.memory_mb.saturating_mul(1 << 20);
    cmd.stdin(if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .process_group(0);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork
    // and exec.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = {
        let _one = z3_or_fork();
        cmd.spawn().map_err(|e| RunError::Spawn {
            program: program.clone(),
            why: e.to_string(),
        })?
    };
    let out = drain(child.stdout.take().expect("piped"));
    let err = drain(child.stderr.take().expect("piped"));
    if let (Some(data), Some(mut stdin)) = (input, child.stdin.take()) {
        let data = data.to_vec();
        std::thread::spawn(move || {
            use std::io::Write;
            let _ = stdin.write_all(&data);
        });
    }
    let pid = child.id() as i32;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() >= limits.time => break None,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let Some(status) = status else {
        // SAFETY: signalling our own child's process group.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        let _ = child.wait();
        let _ = out.join();
        let _ = err.join();
        return Err(RunError::Timeout {
            program,
            secs: limits.time.as_secs(),
        });
    };
    let stdout = String::from_utf8_lossy(&out.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    Ok(RunOutput {
        status_ok: status.success(),
        code: status.code(),
        stdout,
        stderr,
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_is_told_by_its_cause_not_by_its_stack_frames() {
        let out = |stderr: &str| RunOutput {
            status_ok: false,
            code: None,
            stdout: String::new(),
            stderr: stderr.into(),
            elapsed: Duration::ZERO,
        };
        let crash = out("LLVM ERROR: Invalid size request on a scalable vector.\n\
             PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/\n\
             Stack dump:\n0.\tProgram arguments: opt-19 -passes=debugify\n \
             #0 0x00007f llvm::sys::PrintStackTrace\n #1 0x00007e SignalHandler\n");
        assert_eq!(
            crash.stderr_tail(),
            "LLVM ERROR: Invalid size request on a scalable vector."
        );
        // No banner: the last lines, as before.
        let plain = out("a\nb\nopt-19: x.ll:3:1: error: expected instruction\n");
        assert_eq!(
            plain.stderr_tail(),
            "a | b | opt-19: x.ll:3:1: error: expected instruction"
        );
        assert_eq!(
            out("").stderr_tail(),
            "killed by a signal, nothing on stderr"
        );
    }
}
