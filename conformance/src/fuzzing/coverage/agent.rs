//! The harness's side of the coverage agents: a folder of their own per run (the agents'
//! files, the edge map they write, what each server process says of itself), the
//! environment that makes a Python or Node server load an agent, and the reading of the
//! map around each case.
//!
//! The side channel is a file, not the server's stdout or HTTP body: `map` (64 bytes of
//! header, then [`EDGES`] counters) that the Python agent maps into its memory and writes
//! as lines and branches run, and that the Node agent writes after each case when asked
//! (`SIGUSR2`: V8 gives block counts only on request). Reading it is two `pread`s; no
//! crate and no unsafe code is needed on this side.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::transport::ServerCommand;

/// Edge counters in the map (AFL's size: collisions stay rare for a server's own code).
pub const EDGES: usize = 1 << 16;
/// The map's header: magic, the counting process's pid, the request and answer numbers.
const HEADER: usize = 64;
const MAGIC: &[u8; 8] = b"MCPCOV01";
const OWNER_AT: u64 = 8;
const REQUEST_AT: u64 = 12;
const DONE_AT: u64 = 16;
/// A request's bit asking the Node agent to write its lines file too.
const FULL: u32 = 1 << 31;
/// The variable naming the folder (both agents read it).
const FOLDER_VAR: &str = "MCP_CONFORMANCE_COVERAGE";
/// Folders outside the default scope to count too.
const INCLUDE_VAR: &str = "MCP_CONFORMANCE_COVERAGE_INCLUDE";
/// How long the Node agent may take to answer a request before the case counts no
/// coverage (a stalled server answers nothing; the oracle judges that).
const ANSWER_WAIT: Duration = Duration::from_secs(2);

/// Most status files read, and the most read of each.
const STATUSES: usize = 4096;
const STATUS_BYTES: u64 = 64 << 10;

const PYTHON_AGENT: &str = include_str!("agent.py");
const NODE_AGENT: &str = include_str!("agent.cjs");

/// What a server process's agent said of itself (`agent-PID.json`).
#[derive(Debug, Clone, Deserialize)]
pub struct AgentStatus {
    /// `python` or `node`.
    pub language: String,
    /// The interpreter's version.
    #[serde(default)]
    pub version: String,
    /// The process.
    pub pid: u32,
    /// Its command line (the entry point first).
    #[serde(default)]
    pub argv: Vec<String>,
    /// The interpreter.
    #[serde(default)]
    pub executable: Option<String>,
    /// `owner` (it counts), `extra` (another process counts: this one is not counted),
    /// `launcher` (npm, pipx...: not the server), `refused` (see `error`).
    #[serde(default)]
    pub role: String,
    /// How it counts (`sys.monitoring`, `sys.settrace`, `v8 precise coverage`).
    #[serde(default)]
    pub mode: String,
    /// Why it does not count.
    #[serde(default)]
    pub error: Option<String>,
}

impl AgentStatus {
    /// Language, version and entry point, without the pid.
    fn kind(&self) -> String {
        let entry = self.entry();
        format!("{} {}, {entry}", self.language_name(), self.version)
    }

    fn language_name(&self) -> &str {
        match self.language.as_str() {
            "python" => "Python",
            "node" => "Node",
            other => other,
        }
    }

    /// The entry point, else the interpreter.
    pub fn entry(&self) -> &str {
        self.argv
            .first()
            .filter(|a| !a.is_empty())
            .or(self.executable.as_ref())
            .map_or("?", String::as_str)
    }

    fn describe(&self) -> String {
        let entry = self.entry();
        format!(
            "{} {} (pid {}, {entry})",
            self.language_name(),
            self.version,
            self.pid
        )
    }
}

/// The agents of one run: their folder, removed when this is dropped.
#[derive(Debug)]
pub struct Agent {
    folder: PathBuf,
    map: File,
    include: Vec<PathBuf>,
    /// The process counting now and whether it is Node (its status read once per pid).
    owner: Option<(u32, bool)>,
    request: u32,
    /// Node agents that did not answer a request in time (said once).
    silent: bool,
}

impl Agent {
    /// A fresh folder with both agents and a zeroed map. `include`: folders to count
    /// besides the server's own files (the MCP SDK, say).
    pub fn new(include: &[PathBuf]) -> crate::Result<Self> {
        if let Some(missing) = include.iter().find(|p| !p.exists()) {
            return Err(crate::Error::Coverage(format!(
                "--coverage-include {}: no such file or folder",
                missing.display()
            )));
        }
        let folder = fresh_folder().map_err(|e| crate::Error::Coverage(e.to_string()))?;
        let made = (|| -> std::io::Result<File> {
            std::fs::create_dir_all(folder.join("python"))?;
            std::fs::create_dir_all(folder.join("node"))?;
            std::fs::write(folder.join("python/sitecustomize.py"), PYTHON_AGENT)?;
            std::fs::write(folder.join("node/agent.cjs"), NODE_AGENT)?;
            let map = OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(folder.join("map"))?;
            map.set_len((HEADER + EDGES) as u64)?;
            map.write_all_at(MAGIC, 0)?;
            Ok(map)
        })();
        let map = match made {
            Ok(map) => map,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&folder);
                return Err(crate::Error::Coverage(format!(
                    "make its folder {}: {e}",
                    folder.display()
                )));
            }
        };
        let include = include
            .iter()
            .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
            .collect();
        Ok(Self {
            folder,
            map,
            include,
            owner: None,
            request: 0,
            silent: false,
        })
    }

    /// The folder (agents, map, status files).
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// `command` with the variables that make a Python or Node server load its agent:
    /// our folder first on `PYTHONPATH`, `--require` of the Node agent in `NODE_OPTIONS`
    /// (both inherited by `uv run`, `npx` and what they start), the folder, the scope.
    pub fn wrap(&self, command: &ServerCommand) -> ServerCommand {
        let mut wrapped = command.clone();
        let inherited = |name: &str| {
            command
                .env
                .iter()
                .rev()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .or_else(|| std::env::var(name).ok())
                .filter(|v| !v.is_empty())
        };
        let python = self.folder.join("python").display().to_string();
        let pythonpath = match inherited("PYTHONPATH") {
            Some(rest) => format!("{python}:{rest}"),
            None => python,
        };
        let agent = self.folder.join("node/agent.cjs").display().to_string();
        let require = format!("--require {}", quote_node_option(&agent));
        let node_options = match inherited("NODE_OPTIONS") {
            Some(rest) => format!("{require} {rest}"),
            None => require,
        };
        let include = std::env::join_paths(&self.include)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        wrapped.env.retain(|(k, _)| {
            !matches!(
                k.as_str(),
                "PYTHONPATH" | "NODE_OPTIONS" | FOLDER_VAR | INCLUDE_VAR
            )
        });
        wrapped.env.extend([
            ("PYTHONPATH".to_string(), pythonpath),
            ("NODE_OPTIONS".to_string(), node_options),
            (FOLDER_VAR.to_string(), self.folder.display().to_string()),
            (INCLUDE_VAR.to_string(), include),
        ]);
        wrapped
    }

    /// What every process that loaded an agent said of itself, by pid (the files are the
    /// server's writing: each read up to [`STATUS_BYTES`], at most [`STATUSES`] of them).
    pub fn statuses(&self) -> Vec<AgentStatus> {
        let mut out: Vec<AgentStatus> = std::fs::read_dir(&self.folder)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name.starts_with("agent-") && name.ends_with(".json")
            })
            .take(STATUSES)
            .filter_map(|e| read_status(&e.path()))
            .collect();
        out.sort_by_key(|s| s.pid);
        out
    }

    /// After the server started: the agent that counts, or why none does (a setup error:
    /// `--coverage` never runs blind). `Ok` carries notes for a partial count.
    pub fn loaded(&self) -> Result<(AgentStatus, Vec<String>), String> {
        let statuses = self.statuses();
        if let Some(why) = self.refusal() {
            return Err(why);
        }
        let Some(owner) = statuses.iter().find(|s| s.role == "owner") else {
            return Err(no_agent_message());
        };
        Ok((owner.clone(), partial_notes(&statuses)))
    }

    /// Why an agent said it cannot count, if one did (a server that then failed to start
    /// is better explained by this than by its exit).
    pub fn refusal(&self) -> Option<String> {
        let statuses = self.statuses();
        let refused = statuses.iter().find(|s| s.role == "refused")?;
        Some(format!(
            "the coverage agent cannot count in {}: {}",
            refused.describe(),
            refused.error.as_deref().unwrap_or("no reason given")
        ))
    }

    /// Notes on processes that loaded an agent but are not counted (a server that starts
    /// its work in another Python or Node process): its coverage is partial.
    pub fn partial(&self) -> Vec<String> {
        partial_notes(&self.statuses())
    }

    /// Before a case: the counters to zero, so what the case reads is its own.
    pub fn before_case(&mut self) {
        let _ = self.map.write_all_at(&[0u8; EDGES], HEADER as u64);
    }

    /// After a case: its edge counters (a Node agent asked for them first; a server that
    /// does not answer within a bound gives none).
    pub fn after_case(&mut self, counters: &mut [u8; EDGES]) {
        self.collect(false);
        if self.map.read_exact_at(counters, HEADER as u64).is_err() {
            counters.fill(0);
        }
    }

    /// Asks a Node agent for its lines file (a Python agent keeps its lines in files it
    /// maps); before reading [`super::lines`].
    pub fn flush_lines(&mut self) {
        self.collect(true);
    }

    /// Asks the counting Node process, if any, to write its counters (and with `full`
    /// its lines), and waits for its answer.
    fn collect(&mut self, full: bool) {
        let Some((pid, node)) = self.current_owner() else {
            return;
        };
        if !node {
            return;
        }
        self.request = (self.request + 1) & !FULL;
        let request = self.request | if full { FULL } else { 0 };
        if self
            .map
            .write_all_at(&request.to_le_bytes(), REQUEST_AT)
            .is_err()
        {
            return;
        }
        let Ok(raw) = i32::try_from(pid) else { return };
        let target = nix::unistd::Pid::from_raw(raw);
        if nix::sys::signal::kill(target, nix::sys::signal::Signal::SIGUSR2).is_err() {
            self.owner = None;
            return;
        }
        let started = Instant::now();
        let mut pause = Duration::from_micros(20);
        while started.elapsed() < ANSWER_WAIT {
            if self.read_u32(DONE_AT) == Some(request) {
                return;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(2));
        }
        self.silent = true;
    }

    /// Whether a Node agent let a request go unanswered (a case counted no coverage).
    pub fn missed_answers(&self) -> bool {
        self.silent
    }

    /// The pid in the map's header, once checked to be a process started with our folder
    /// in its environment (a server could write any pid there: never signal another).
    fn current_owner(&mut self) -> Option<(u32, bool)> {
        let pid = self.read_u32(OWNER_AT).filter(|p| *p != 0)?;
        // Checked on every call, not once per pid: an owner that died leaves its pid in the
        // header until the next process claims it, and the pid may be another's by then.
        let wanted = format!("{FOLDER_VAR}={}", self.folder.display());
        let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
        if !environ.split(|b| *b == 0).any(|v| v == wanted.as_bytes()) {
            return None;
        }
        if let Some(known) = self.owner.filter(|(p, _)| *p == pid) {
            return Some(known);
        }
        let status = read_status(&self.folder.join(format!("agent-{pid}.json")))?;
        let known = (pid, status.language == "node");
        self.owner = Some(known);
        Some(known)
    }

    fn read_u32(&self, at: u64) -> Option<u32> {
        let mut word = [0u8; 4];
        self.map.read_exact_at(&mut word, at).ok()?;
        Some(u32::from_le_bytes(word))
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// A status file, read up to [`STATUS_BYTES`].
fn read_status(path: &Path) -> Option<AgentStatus> {
    use std::io::Read;
    let mut bytes = Vec::new();
    File::open(path)
        .ok()?
        .take(STATUS_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    let mut status: AgentStatus = serde_json::from_slice(&bytes).ok()?;
    // Written by the server's process: shown only escaped and cut short.
    let clean = |text: &mut String| {
        let mut shown = crate::report::escape_server_text(text);
        if shown.len() > 200 {
            let cut = (0..=200)
                .rev()
                .find(|&i| shown.is_char_boundary(i))
                .unwrap_or(0);
            shown.truncate(cut);
            shown.push('…');
        }
        *text = shown;
    };
    clean(&mut status.language);
    clean(&mut status.version);
    clean(&mut status.role);
    clean(&mut status.mode);
    status.error.iter_mut().for_each(clean);
    status.argv.truncate(16);
    status.argv.iter_mut().for_each(clean);
    status.executable.iter_mut().for_each(clean);
    Some(status)
}

/// Why no agent counts, when none said anything.
fn no_agent_message() -> String {
    "no coverage agent started in the server's processes. --coverage counts Python (3.10+) \
     and Node (18+) servers started by a command that passes PYTHONPATH and NODE_OPTIONS on \
     to them (python server.py, uv run ..., .venv/bin/NAME, node dist/index.js, npx ...); \
     not `python -I` or `-E`, not a compiled binary (a Rust server: the in-process target, \
     README \"Coverage-guided fuzzing of your server\"), not a server at a --url started by \
     someone else (give its command after --)"
        .to_string()
}

/// One note per kind of uncounted process (its language, version and entry point), with
/// how many there were: a server restarted a hundred times starts a hundred children.
fn partial_notes(statuses: &[AgentStatus]) -> Vec<String> {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for status in statuses.iter().filter(|s| s.role == "extra") {
        let kind = status.kind();
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    kinds
        .into_iter()
        .map(|(kind, n)| {
            let others = match n {
                1 => "another process".to_string(),
                n => format!("{n} other processes"),
            };
            format!(
                "coverage is partial: the server started {others} besides the one counted ({kind}), whose code is not counted"
            )
        })
        .collect()
}

/// A fresh folder for one run's agents: in `/dev/shm` where it is (the map lives in
/// memory, never written back to a disk), else the temporary folder.
fn fresh_folder() -> std::io::Result<PathBuf> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() && is_writable(shm) {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    remove_stale(&base);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let folder = base.join(format!(
        "mcp-conformance-coverage-{}-{n}",
        std::process::id()
    ));
    std::fs::create_dir(&folder)?;
    Ok(folder)
}

/// Removes the folders of runs whose process is gone: a fuzz target ended by libFuzzer's
/// `exit` runs no destructor, so its folder stays behind until the next run.
fn remove_stale(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix("mcp-conformance-coverage-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        let gone = pid.is_some_and(|p| !Path::new(&format!("/proc/{p}")).exists());
        if gone {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

fn is_writable(dir: &Path) -> bool {
    let probe = dir.join(format!(".mcp-conformance-{}", std::process::id()));
    let ok = std::fs::write(&probe, b"").is_ok();
    let _ = std::fs::remove_file(&probe);
    ok
}

/// A path as one `NODE_OPTIONS` word (Node reads double quotes and backslash escapes).
fn quote_node_option(path: &str) -> String {
    if path
        .chars()
        .any(|c| c.is_whitespace() || c == '"' || c == '\\')
    {
        format!("\"{}\"", path.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        path.to_string()
    }
}

/// `command` as the user gave it, without what [`Agent::wrap`] added: what a case file
/// records, so that it replays after the agents' folder is gone.
pub fn unwrapped(command: &ServerCommand) -> ServerCommand {
    let Some(folder) = command
        .env
        .iter()
        .find(|(k, _)| k == FOLDER_VAR)
        .map(|(_, v)| PathBuf::from(v))
    else {
        return command.clone();
    };
    let python = folder.join("python").display().to_string();
    let require = format!(
        "--require {}",
        quote_node_option(&folder.join("node/agent.cjs").display().to_string())
    );
    let mut out = command.clone();
    out.env = command
        .env
        .iter()
        .filter(|(k, _)| k != FOLDER_VAR && k != INCLUDE_VAR)
        .filter_map(|(k, v)| {
            let rest = match k.as_str() {
                "PYTHONPATH" => v.strip_prefix(&python).map(|r| r.trim_start_matches(':')),
                "NODE_OPTIONS" => v.strip_prefix(&require).map(str::trim_start),
                _ => Some(v.as_str()),
            }
            .unwrap_or(v);
            let inherited = std::env::var(k).ok();
            let added = matches!(k.as_str(), "PYTHONPATH" | "NODE_OPTIONS");
            // What came from this process's environment is inherited again on replay.
            let inherited_again = added && inherited.as_deref() == Some(rest);
            (!rest.is_empty() && !inherited_again).then(|| (k.clone(), rest.to_string()))
        })
        .collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(command: &ServerCommand, name: &str) -> Option<String> {
        command
            .env
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    }

    #[test]
    fn a_wrapped_command_loads_the_agents_and_unwraps_to_the_command_given() {
        let agent = Agent::new(&[]).expect("folder");
        let mut command = ServerCommand::new("python", ["server.py".to_string()]);
        command
            .env
            .push(("NODE_OPTIONS".into(), "--max-old-space-size=100".into()));
        let wrapped = agent.wrap(&command);
        let python = agent.folder().join("python").display().to_string();
        assert!(env(&wrapped, "PYTHONPATH").is_some_and(|p| p.starts_with(&python)));
        let require = agent.folder().join("node/agent.cjs").display().to_string();
        assert_eq!(
            env(&wrapped, "NODE_OPTIONS"),
            Some(format!("--require {require} --max-old-space-size=100"))
        );
        assert!(agent.folder().join("python/sitecustomize.py").is_file());
        assert_eq!(unwrapped(&wrapped).env, command.env);
        let folder = agent.folder().to_path_buf();
        drop(agent);
        assert!(!folder.exists(), "the folder goes with the agent");
    }
}
