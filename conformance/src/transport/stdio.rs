//! A server as a child process speaking over stdin/stdout.
//!
//! The child runs in its own process group so that the whole group (the server and
//! anything it forked, e.g. `npx` -> `node`) can be killed at once: on shutdown, on
//! drop (a panic or Ctrl-C unwinds through here), and when a server ignores a closed
//! stdin. A descendant may leave the group (`setsid()`, a daemon that re-forks), so each
//! server also gets a marker in its environment, inherited by everything it starts: at the
//! end, every process that carries the marker is killed too. A descendant that leaves the
//! group *and* scrubs its environment escapes both; when this process is a child subreaper
//! (see `reaper.rs`) it is re-parented to us once its parent dies, and killed and reaped
//! when the session ends.
//!
//! Two reader tasks turn stdout into [`Frame`]s and stderr into lines; both feed one
//! channel so that their order is kept in the transcript. What they hold (the line being
//! framed plus every frame not yet taken by the session) is bounded in bytes by one
//! budget of the line cap plus [`BUDGET_SLACK`]: a flooding server is slowed by
//! back-pressure instead of growing our memory, whatever the size of its lines.

use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{mpsc, Semaphore};

use super::connection::{Connection, Pending};
use super::framing::{Frame, LineFramer};
use super::reaper;
use crate::errors::{Error, Result};

/// How to start a server.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ServerCommand {
    /// Program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// Working directory, if not ours.
    pub cwd: Option<PathBuf>,
    /// Set when the server is reached over Streamable HTTP: every session talks to this
    /// endpoint, and the program (when there is one) is started once per run by the runner
    /// rather than per session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http: Option<super::HttpTarget>,
    /// With `http`: which HTTP transport the URL speaks (2024-11-05's HTTP+SSE: the URL is
    /// the SSE stream).
    #[serde(default, skip_serializing_if = "is_streamable")]
    pub http_kind: super::HttpKind,
    /// Set when the server is linked into this process: every session constructs a fresh
    /// instance ([`super::InProcessServer`]) instead of starting `program`.
    #[serde(skip)]
    pub in_process: Option<super::InProcessServer>,
}

fn is_streamable(kind: &super::HttpKind) -> bool {
    *kind == super::HttpKind::StreamableHttp
}

impl ServerCommand {
    /// A command from a program and its arguments.
    pub fn new(program: impl Into<String>, args: impl IntoIterator<Item = String>) -> Self {
        Self {
            program: program.into(),
            args: args.into_iter().collect(),
            ..Self::default()
        }
    }

    /// A server reached at `url` (started by nobody, or by `program` when it is set).
    pub fn http(target: super::HttpTarget) -> Self {
        Self {
            http: Some(target),
            ..Self::default()
        }
    }

    /// A server linked into this process (see `in_process.rs` for what a process means
    /// then).
    pub fn in_process(server: super::InProcessServer) -> Self {
        Self {
            in_process: Some(server),
            ..Self::default()
        }
    }

    /// The command as one shell-like line, for reports (the URL first over HTTP; the
    /// server's name in-process).
    pub fn display(&self) -> String {
        if let Some(server) = &self.in_process {
            return format!("in-process: {}", server.name());
        }
        let line = self.display_command();
        match (&self.http, self.program.is_empty()) {
            (Some(http), true) => http.url.clone(),
            (Some(http), false) => format!("{} -- {line}", http.url),
            (None, _) => line,
        }
    }

    fn display_command(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|part| {
                if part.is_empty() || part.contains(|c: char| c.is_whitespace() || c == '"') {
                    format!("{part:?}")
                } else {
                    part.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Something the server did, in the order it happened.
#[derive(Debug)]
pub enum TransportEvent {
    /// A frame from stdout.
    Stdout(Frame),
    /// A line from stderr (lossily decoded, truncated to a bounded length).
    Stderr(String),
    /// stdout reached end of file: the server closed it or exited.
    StdoutClosed,
    /// The server process exited. Its stdout may stay open (a descendant holding the
    /// pipe), so this comes whether or not `StdoutClosed` does; what it wrote before
    /// exiting may still follow.
    Exited,
    /// A fact about the transport for the transcript (an HTTP exchange), not a message.
    Note(String),
    /// A frame from the answer to an HTTP POST that carried exactly one request, `request`
    /// being that request's id, when the frame is a response whose id is null or absent.
    /// Over Streamable HTTP the response to a POSTed request comes in that POST's body or
    /// on its SSE stream (transports.mdx, Sending Messages to the Server), so such a
    /// response answers that request whatever id it shows; the frame is kept as sent, and
    /// the rule book still judges its id (RPC-ERROR-ID).
    Answer {
        /// The frame, as the server sent it.
        frame: Frame,
        /// The id of the request the POST carried.
        request: serde_json::Value,
    },
}

impl TransportEvent {
    /// The frame this event carries, if it carries one.
    pub fn frame(&self) -> Option<&Frame> {
        match self {
            TransportEvent::Stdout(frame) | TransportEvent::Answer { frame, .. } => Some(frame),
            _ => None,
        }
    }
}

/// How and when a server process ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ExitInfo {
    /// Exit code, when it exited normally.
    pub code: Option<i32>,
    /// Signal number, when a signal ended it.
    pub signal: Option<i32>,
    /// Whether the harness killed it (after it ignored a closed stdin, or on a stall).
    pub killed_by_harness: bool,
    /// How an in-process server ended (its serve function returned, failed or panicked),
    /// in place of an exit status: set exactly when the server ran in-process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
}

impl ExitInfo {
    fn from_status(status: ExitStatus, killed_by_harness: bool) -> Self {
        use std::os::unix::process::ExitStatusExt;
        Self {
            code: status.code(),
            signal: status.signal(),
            killed_by_harness,
            ended: None,
        }
    }

    /// "exit status 3" or "killed by signal 9".
    pub fn describe(&self) -> String {
        if let Some(ended) = &self.ended {
            return ended.clone();
        }
        match (self.code, self.signal) {
            (Some(code), _) => format!("exit status {code}"),
            (None, Some(sig)) => format!("killed by signal {sig}"),
            (None, None) => "unknown exit status".to_string(),
        }
    }
}

/// Longest stderr line we keep; the rest is cut (stderr is evidence, not data).
const MAX_STDERR_LINE: usize = 4096;
/// Events buffered between the reader tasks and the session.
const CHANNEL_DEPTH: usize = 256;
/// Bytes read from stdout at a time.
const READ_CHUNK: usize = 64 * 1024;
/// What the readers may hold beyond one line at the cap: a read chunk and a few stderr
/// lines. A line at the cap and the frames queued before it share the budget.
pub const BUDGET_SLACK: usize = 1024 * 1024;

/// The bytes a frame holds, as counted against the readers' budget.
pub(super) fn frame_bytes(frame: &Frame) -> usize {
    match frame {
        Frame::Line(text) => text.len(),
        Frame::InvalidUtf8(bytes) => bytes.len(),
        Frame::Overlong { head, .. } => head.len(),
    }
}

/// Takes `n` bytes from the budget for good (they are given back one by one as the
/// session takes the frames that hold them). `false` once the transport is gone.
pub(super) async fn take_budget(budget: &Semaphore, n: usize) -> bool {
    let Ok(n) = u32::try_from(n) else {
        return false;
    };
    match budget.acquire_many(n).await {
        Ok(permit) => {
            permit.forget();
            true
        }
        Err(_) => false,
    }
}

/// How long ending a server waits, at most, for a killed leader or its killed orphans to
/// be reaped (a SIGKILL takes effect at once; a zombie left over is reaped by the next
/// sweep).
const ORPHAN_REAP_BOUND: Duration = Duration::from_millis(500);

/// The environment variable that marks a server and everything it starts.
pub const MARKER_VAR: &str = "MCP_CONFORMANCE_SERVER";

/// A marker unique to one server process of this harness process.
pub(super) fn new_marker() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Every live process whose environment holds `MARKER_VAR=marker` (Linux `/proc`; none
/// elsewhere). Processes we may not read are not ours to end anyway.
pub fn marked_processes(marker: &str) -> Vec<i32> {
    let wanted = format!("{MARKER_VAR}={marker}");
    let me = std::process::id();
    super::procfs::pids()
        .filter(|&pid| pid != me)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|v| v == wanted.as_bytes()))
        })
        .filter_map(|pid| i32::try_from(pid).ok())
        .collect()
}

/// A running server process and the channel of what it says.
#[derive(Debug)]
pub struct StdioTransport {
    child: Child,
    pid: Option<u32>,
    marker: String,
    stdin: Option<ChildStdin>,
    events: mpsc::Receiver<TransportEvent>,
    /// Bytes the readers may still hold (see the module doc).
    budget: Arc<Semaphore>,
    exit: Option<ExitInfo>,
}

impl StdioTransport {
    /// Starts the server in a new process group and begins reading its output.
    pub fn spawn(command: &ServerCommand, max_line: usize) -> Result<Self> {
        if command.program.is_empty() {
            return Err(Error::NoCommand);
        }
        let marker = new_marker();
        let mut cmd = Command::new(&command.program);
        cmd.args(&command.args)
            .envs(command.env.iter().map(|(k, v)| (k, v)))
            .env(MARKER_VAR, &marker)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        if let Some(cwd) = &command.cwd {
            cmd.current_dir(cwd);
        }
        // Spawned under the orphan sweep's lock: never taken for another server's orphan.
        let mut child =
            reaper::register_spawn(|| cmd.spawn(), Child::id).map_err(|source| Error::Spawn {
                command: command.display(),
                source,
            })?;
        let pid = child.id();
        let (tx, events) = mpsc::channel(CHANNEL_DEPTH);
        let max_line = max_line.clamp(1, Semaphore::MAX_PERMITS - BUDGET_SLACK);
        let budget = Arc::new(Semaphore::new(max_line + BUDGET_SLACK));
        if let Some(stdout) = child.stdout.take() {
            tokio::spawn(read_stdout(stdout, max_line, tx.clone(), budget.clone()));
        }
        if let Some(stderr) = child.stderr.take() {
            tokio::spawn(read_stderr(stderr, tx, budget.clone()));
        }
        let stdin = child.stdin.take();
        Ok(Self {
            child,
            pid,
            marker,
            stdin,
            events,
            budget,
            exit: None,
        })
    }

    /// Writes one line (a newline is appended) within `timeout`.
    ///
    /// Returns `false` when the server no longer reads stdin (closed pipe, or a full
    /// pipe that did not drain in time); that is for the caller to report.
    pub async fn send_line(&mut self, line: &[u8], timeout: Duration) -> bool {
        match self.stdin.as_mut() {
            Some(stdin) => write_line(stdin, line, timeout).await,
            None => false,
        }
    }

    /// Next event, or `None` once both output streams have ended. The process's exit is
    /// an event of its own, seen even while a descendant keeps stdout open.
    pub async fn next_event(&mut self) -> Option<TransportEvent> {
        if self.exit.is_some() {
            let event = self.events.recv().await;
            return self.taken(event);
        }
        tokio::select! {
            biased;
            event = self.events.recv() => self.taken(event),
            status = self.child.wait() => {
                if let Ok(status) = status {
                    self.record_exit(ExitInfo::from_status(status, false));
                }
                Some(TransportEvent::Exited)
            }
        }
    }

    /// An event already waiting, without waiting for one.
    pub fn try_next_event(&mut self) -> Option<TransportEvent> {
        let event = self.events.try_recv().ok();
        self.taken(event)
    }

    /// Gives the bytes of an event the session has taken back to the readers' budget.
    fn taken(&self, event: Option<TransportEvent>) -> Option<TransportEvent> {
        let bytes = match &event {
            Some(TransportEvent::Stderr(line)) => line.len(),
            Some(event) => event.frame().map_or(0, frame_bytes),
            None => 0,
        };
        self.budget.add_permits(bytes);
        event
    }

    /// Closes the server's stdin (the spec's first shutdown step for stdio).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The server's process group: it leads one of its own (`spawn`), whatever it starts
    /// joins it unless it moves itself out. `None` once it was reaped.
    pub fn process_group(&self) -> Option<u32> {
        self.pid.filter(|_| self.exit.is_none())
    }

    /// Whether the process has exited, without waiting.
    pub fn try_exit(&mut self) -> Option<ExitInfo> {
        if self.exit.is_none() {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.record_exit(ExitInfo::from_status(status, false));
            }
        }
        self.exit.clone()
    }

    /// Waits up to `timeout` for the process to exit by itself.
    pub async fn wait_exit(&mut self, timeout: Duration) -> Option<ExitInfo> {
        if self.exit.is_none() {
            if let Ok(Ok(status)) = tokio::time::timeout(timeout, self.child.wait()).await {
                self.record_exit(ExitInfo::from_status(status, false));
            }
        }
        self.exit.clone()
    }

    /// The process was reaped (by tokio): its pid is no longer one of ours.
    fn record_exit(&mut self, exit: ExitInfo) {
        self.exit = Some(exit);
        reaper::reaped(self.pid);
    }

    /// Ends the process: SIGTERM to its group, then SIGKILL after `grace`, then reaps it.
    /// Its orphans (descendants re-parented to us) are killed and reaped after it.
    pub async fn terminate(&mut self, grace: Duration) -> ExitInfo {
        let exit = self.end(grace).await;
        reaper::sweep_orphans(ORPHAN_REAP_BOUND);
        exit
    }

    async fn end(&mut self, grace: Duration) -> ExitInfo {
        if let Some(exit) = self.try_exit() {
            self.kill_group(Signal::SIGKILL); // stray children of an exited leader
            return exit;
        }
        self.close_stdin();
        self.kill_group(Signal::SIGTERM);
        if let Ok(Ok(status)) = tokio::time::timeout(grace, self.child.wait()).await {
            self.kill_group(Signal::SIGKILL);
            let exit = ExitInfo::from_status(status, true);
            self.record_exit(exit.clone());
            return exit;
        }
        self.kill_group(Signal::SIGKILL);
        let _ = self.child.start_kill();
        match tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await {
            Ok(Ok(status)) => self.record_exit(ExitInfo::from_status(status, true)),
            _ => {
                self.exit = Some(ExitInfo {
                    code: None,
                    signal: Some(Signal::SIGKILL as i32),
                    killed_by_harness: true,
                    ended: None,
                })
            }
        }
        self.exit.clone().unwrap_or(ExitInfo {
            code: None,
            signal: None,
            killed_by_harness: true,
            ended: None,
        })
    }

    /// The marker in this server's environment (and its descendants').
    pub fn marker(&self) -> &str {
        &self.marker
    }

    /// Signals the server's process group and every process carrying its marker (those
    /// that left the group).
    fn kill_group(&self, signal: Signal) {
        if let Some(pid) = self.pid.and_then(|p| i32::try_from(p).ok()) {
            // The group may already be gone; that is the outcome we want anyway.
            let _ = killpg(Pid::from_raw(pid), signal);
        }
        for pid in marked_processes(&self.marker) {
            let _ = kill(Pid::from_raw(pid), signal);
        }
    }
}

impl Connection for StdioTransport {
    fn send_line<'a>(&'a mut self, line: &'a [u8], timeout: Duration) -> Pending<'a, bool> {
        Box::pin(StdioTransport::send_line(self, line, timeout))
    }

    fn next_event(&mut self) -> Pending<'_, Option<TransportEvent>> {
        Box::pin(StdioTransport::next_event(self))
    }

    fn try_next_event(&mut self) -> Option<TransportEvent> {
        StdioTransport::try_next_event(self)
    }

    fn close(&mut self) {
        self.close_stdin();
    }

    fn terminate(&mut self, grace: Duration) -> Pending<'_, ExitInfo> {
        Box::pin(StdioTransport::terminate(self, grace))
    }

    fn is_remote(&self) -> bool {
        false
    }

    fn process_group(&self) -> Option<u32> {
        StdioTransport::process_group(self)
    }

    fn try_exit(&mut self) -> Option<ExitInfo> {
        StdioTransport::try_exit(self)
    }

    fn wait_exit(&mut self, timeout: Duration) -> Pending<'_, Option<ExitInfo>> {
        Box::pin(StdioTransport::wait_exit(self, timeout))
    }
}

impl Drop for StdioTransport {
    fn drop(&mut self) {
        // Covers panics, early returns and Ctrl-C: no server (or its children) outlives us.
        // tokio's kill_on_drop then reaps the leader in the background.
        self.kill_group(Signal::SIGKILL);
        // The leader dies at once; reaping it here (bounded) lets its orphans be found by
        // the sweep below, which needs the leader gone for them to be re-parented to us.
        if self.exit.is_none() && reaper::adopting_orphans() {
            let _ = self.child.start_kill();
            let deadline = std::time::Instant::now() + ORPHAN_REAP_BOUND;
            while self.try_exit().is_none() && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        reaper::sweep_orphans(ORPHAN_REAP_BOUND);
        // A reader waiting for budget would wait forever: let it end.
        self.budget.close();
    }
}

/// Writes `line` and a newline to a server's input within `timeout`; `false` when it was
/// not taken. One write for both: a server woken by half a line only goes back to sleep,
/// and a fast server's round trip doubles.
pub(super) async fn write_line(
    input: &mut (impl tokio::io::AsyncWrite + Unpin),
    line: &[u8],
    timeout: Duration,
) -> bool {
    let mut framed = Vec::with_capacity(line.len() + 1);
    framed.extend_from_slice(line);
    framed.push(b'\n');
    let write = async {
        input.write_all(&framed).await?;
        input.flush().await
    };
    matches!(tokio::time::timeout(timeout, write).await, Ok(Ok(())))
}

/// Frames what a server writes (a child's stdout, an in-process server's pipe) into
/// events, within the readers' budget; `StdoutClosed` at its end.
pub(super) async fn read_stdout(
    mut stdout: impl tokio::io::AsyncRead + Unpin,
    max_line: usize,
    tx: mpsc::Sender<TransportEvent>,
    budget: Arc<Semaphore>,
) {
    let mut framer = LineFramer::new(max_line);
    let mut buf = vec![0u8; READ_CHUNK];
    let mut frames = Vec::new();
    loop {
        let n = match stdout.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        // The bytes read count against the budget until the session takes the frames
        // they end up in; newlines and the skipped tail of an over-long line go back
        // at once.
        if !take_budget(&budget, n).await {
            return;
        }
        let before = framer.buffered();
        framer.push(&buf[..n], &mut frames);
        let framed: usize = frames.iter().map(frame_bytes).sum();
        budget.add_permits((before + n).saturating_sub(framer.buffered() + framed));
        for frame in frames.drain(..) {
            if tx.send(TransportEvent::Stdout(frame)).await.is_err() {
                return;
            }
        }
    }
    let held = framer.buffered();
    if let Some(frame) = framer.finish_stream() {
        budget.add_permits(held.saturating_sub(frame_bytes(&frame)));
        let _ = tx.send(TransportEvent::Stdout(frame)).await;
    }
    let _ = tx.send(TransportEvent::StdoutClosed).await;
}

async fn read_stderr(
    mut stderr: tokio::process::ChildStderr,
    tx: mpsc::Sender<TransportEvent>,
    budget: Arc<Semaphore>,
) {
    // stderr lines are evidence only, so they go through the same framer with a small cap.
    let mut framer = LineFramer::new(MAX_STDERR_LINE);
    let mut buf = vec![0u8; 16 * 1024];
    let mut frames = Vec::new();
    let to_text = |frame: Frame| match frame {
        Frame::Line(text) => text,
        Frame::InvalidUtf8(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Frame::Overlong { head, length } => {
            format!(
                "{}... [{length} bytes, cut]",
                String::from_utf8_lossy(&head)
            )
        }
    };
    loop {
        let n = match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        framer.push(&buf[..n], &mut frames);
        for frame in frames.drain(..) {
            let line = to_text(frame);
            if !take_budget(&budget, line.len()).await
                || tx.send(TransportEvent::Stderr(line)).await.is_err()
            {
                return;
            }
        }
    }
    if let Some(frame) = framer.finish_stream() {
        let line = to_text(frame);
        if take_budget(&budget, line.len()).await {
            let _ = tx.send(TransportEvent::Stderr(line)).await;
        }
    }
}
