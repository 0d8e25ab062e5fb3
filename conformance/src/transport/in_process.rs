//! A server linked into this process, reached over an in-memory pipe: the whole suite
//! (scripted conversation, property phase, oracle, reports) without building or spawning a
//! binary, and, under cargo-fuzz, with the server's own code instrumented.
//!
//! What a process means here:
//! - **A fresh instance where the suite starts a process.** [`InProcessServer`] holds a
//!   constructor; each session calls it once, on a thread of its own with a runtime of its
//!   own, and hands the server its end of a bounded [`tokio::io::duplex`] pipe. Ending the
//!   session (or dropping it) closes our ends and cancels the server's future, which drops
//!   the instance.
//! - **A thread of its own.** A server that blocks its thread (a sync loop, a deadlock)
//!   only stops answering: our reading runs on another thread and sees a stall after the
//!   usual timeout, never a hang. Such a thread cannot be killed; it is left detached
//!   (its memory kept until the process exits), the one cost of a server that never yields.
//! - **A panic is the server's crash.** It ends the session as an exit ends a process's,
//!   with the panic's message as the evidence ("the server panicked: ..."). Under
//!   cargo-fuzz, libFuzzer's panic hook aborts first, so the crash is recorded with its
//!   input, as any crash in an in-process target.
//! - **A constructor that panics is a setup error** ([`crate::Error::InProcessSetup`]), the
//!   CLI's exit 2, not a finding per check: nothing of the server ran yet.
//! - **No process**: no exit status, no stderr, no process group, and no stdin whose
//!   closing asks a process to exit. Checks of those rules skip with that reason; closing
//!   our end of the pipe is still how a session ends, and what the server writes meanwhile
//!   is read as over stdio.
//!
//! The pipe's buffer is [`PIPE_BUFFER`] each way, and what our reader holds is bounded by
//! the same budget as a child's stdout (`stdio.rs`): memory does not depend on what the
//! server writes.

use std::future::Future;
use std::io::{Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream, ReadHalf, WriteHalf};
use tokio::sync::{mpsc, oneshot, Semaphore};

use super::connection::{Connection, Pending};
use super::stdio::{frame_bytes, read_stdout, write_line, ExitInfo, TransportEvent, BUDGET_SLACK};
use crate::errors::{Error, Result};

/// Bytes each direction of the pipe holds before a writer waits: a Linux pipe's capacity.
pub const PIPE_BUFFER: usize = 64 * 1024;
/// Events buffered between our reader and the session.
const CHANNEL_DEPTH: usize = 256;
/// How long starting a session waits for the constructor to return (it runs on the
/// server's thread, so a constructor that never returns cannot hold us).
const CONSTRUCT_WAIT: Duration = Duration::from_secs(10);

/// What a server's serve function returns: `Err` when it stopped on an error of its own.
pub type ServeResult = std::result::Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// A server's serve future.
type ServeFuture = Pin<Box<dyn Future<Output = ServeResult> + Send>>;
/// An async server: given its end of the pipe, the future that serves it.
type AsyncServe = dyn Fn(DuplexStream) -> ServeFuture + Send + Sync;
/// A blocking server: serves until its input ends, on its own thread.
type BlockingServe = dyn Fn(PipeReader, PipeWriter) -> ServeResult + Send + Sync;

#[derive(Clone)]
enum Serve {
    Async(Arc<AsyncServe>),
    Blocking(Arc<BlockingServe>),
}

/// A server the suite runs inside its own process, a fresh instance per session.
///
/// ```no_run
/// use mcp_conformance::transport::InProcessServer;
/// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
///
/// // A server that answers every line with nothing useful, as a shape to fill in.
/// let server = InProcessServer::new("echo", |stream| async move {
///     let (read, mut write) = tokio::io::split(stream);
///     let mut lines = BufReader::new(read).lines();
///     while let Some(line) = lines.next_line().await? {
///         write.write_all(line.as_bytes()).await?;
///         write.write_all(b"\n").await?;
///     }
///     Ok(())
/// });
/// ```
#[derive(Clone)]
pub struct InProcessServer {
    name: Arc<str>,
    serve: Serve,
}

impl InProcessServer {
    /// An async server (rmcp's `serve` over the stream, or a hand-written loop). `serve`
    /// is the constructor: it is called once per session, and a panic in it (before its
    /// future first runs) is a setup error; the future it returns serves the stream until
    /// the stream ends.
    pub fn new<F, Fut>(name: impl Into<String>, serve: F) -> Self
    where
        F: Fn(DuplexStream) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ServeResult> + Send + 'static,
    {
        let serve: Arc<AsyncServe> = Arc::new(move |stream| Box::pin(serve(stream)));
        Self {
            name: name.into().into(),
            serve: Serve::Async(serve),
        }
    }

    /// A synchronous server over `Read` and `Write` (a `serve(stdin, stdout)` loop): it
    /// runs on its thread until its input ends. The writer may be cloned to other threads
    /// (a reply written later); each `write` is whole.
    pub fn blocking<F>(name: impl Into<String>, serve: F) -> Self
    where
        F: Fn(PipeReader, PipeWriter) -> ServeResult + Send + Sync + 'static,
    {
        Self {
            name: name.into().into(),
            serve: Serve::Blocking(Arc::new(serve)),
        }
    }

    /// The name reports show for the target.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl std::fmt::Debug for InProcessServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InProcessServer")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl PartialEq for InProcessServer {
    /// The same server: the same constructor.
    fn eq(&self, other: &Self) -> bool {
        let same = match (&self.serve, &other.serve) {
            (Serve::Async(a), Serve::Async(b)) => Arc::ptr_eq(a, b),
            (Serve::Blocking(a), Serve::Blocking(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        same && self.name == other.name
    }
}

impl Eq for InProcessServer {}

/// A blocking server's input: our end writes, this end reads (end of file once the
/// session closes its side).
#[derive(Debug)]
pub struct PipeReader {
    half: ReadHalf<DuplexStream>,
    runtime: tokio::runtime::Handle,
}

impl Read for PipeReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.runtime.block_on(self.half.read(buf))
    }
}

/// A blocking server's output; clones share the pipe, each write whole.
#[derive(Debug, Clone)]
pub struct PipeWriter {
    half: Arc<Mutex<WriteHalf<DuplexStream>>>,
    runtime: tokio::runtime::Handle,
}

impl Write for PipeWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        let mut half = self
            .half
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?;
        self.runtime.block_on(half.write_all(buf))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// How a server's thread ended.
type Ended = oneshot::Receiver<String>;

/// A session with an in-process server: our ends of its pipe and how its thread ended.
#[derive(Debug)]
pub struct InProcessTransport {
    input: Option<WriteHalf<DuplexStream>>,
    events: mpsc::Receiver<TransportEvent>,
    budget: Arc<Semaphore>,
    ended: Option<Ended>,
    /// Dropped to cancel the server's future.
    cancel: Option<oneshot::Sender<()>>,
    /// Our reader of the server's output, aborted at the end so the pipe closes.
    reader: tokio::task::JoinHandle<()>,
    exit: Option<ExitInfo>,
}

impl InProcessTransport {
    /// Constructs a fresh instance of `server` on a thread of its own and begins reading
    /// what it writes. A constructor that panics is [`Error::InProcessSetup`].
    pub fn start(server: &InProcessServer, max_line: usize) -> Result<Self> {
        let (ours, theirs) = tokio::io::duplex(PIPE_BUFFER);
        let (output, input) = tokio::io::split(ours);
        let (constructed_tx, constructed) = std::sync::mpsc::channel();
        let (ended_tx, ended) = oneshot::channel();
        let (cancel, cancelled) = oneshot::channel();
        let serve = server.serve.clone();
        let setup = |message: String| Error::InProcessSetup {
            server: server.name().to_string(),
            message,
        };
        std::thread::Builder::new()
            .name(format!("mcp-server {}", server.name()))
            .spawn(move || {
                let outcome = run_server(serve, theirs, cancelled, constructed_tx);
                let _ = ended_tx.send(outcome);
            })
            .map_err(|e| setup(format!("no thread for the server: {e}")))?;
        match constructed.recv_timeout(CONSTRUCT_WAIT) {
            Ok(Ok(())) => {}
            Ok(Err(message)) => return Err(setup(message)),
            Err(_) => return Err(setup("its constructor did not return".into())),
        }
        let (tx, events) = mpsc::channel(CHANNEL_DEPTH);
        let max_line = max_line.clamp(1, Semaphore::MAX_PERMITS - BUDGET_SLACK);
        let budget = Arc::new(Semaphore::new(max_line + BUDGET_SLACK));
        let reader = tokio::spawn(read_stdout(output, max_line, tx, budget.clone()));
        Ok(Self {
            reader,
            input: Some(input),
            events,
            budget,
            ended: Some(ended),
            cancel: Some(cancel),
            exit: None,
        })
    }

    async fn send_line(&mut self, line: &[u8], timeout: Duration) -> bool {
        match self.input.as_mut() {
            Some(input) => write_line(input, line, timeout).await,
            None => false,
        }
    }

    async fn next_event(&mut self) -> Option<TransportEvent> {
        let Some(ended) = self.ended.as_mut() else {
            let event = self.events.recv().await;
            return self.taken(event);
        };
        tokio::select! {
            biased;
            event = self.events.recv() => self.taken(event),
            how = ended => {
                self.record_end(how.unwrap_or_else(|_| "the server's thread ended".into()), false);
                Some(TransportEvent::Exited)
            }
        }
    }

    /// Ends the server's input: after what it holds, its reads see end of file. (Dropping
    /// our half alone would not: the halves share one pipe, open while either lives.)
    fn close_input(&mut self) {
        if let Some(mut input) = self.input.take() {
            // A duplex pipe shuts down at once, never pending.
            let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
            let _ = tokio::io::AsyncWrite::poll_shutdown(Pin::new(&mut input), &mut cx);
        }
    }

    fn taken(&self, event: Option<TransportEvent>) -> Option<TransportEvent> {
        let bytes = event
            .as_ref()
            .and_then(TransportEvent::frame)
            .map_or(0, frame_bytes);
        self.budget.add_permits(bytes);
        event
    }

    /// The server's thread ended (or was left behind): how, as its exit.
    fn record_end(&mut self, how: String, killed_by_harness: bool) -> ExitInfo {
        self.ended = None;
        let exit = ExitInfo {
            code: None,
            signal: None,
            killed_by_harness,
            ended: Some(how),
        };
        self.exit = Some(exit.clone());
        exit
    }

    fn try_exit(&mut self) -> Option<ExitInfo> {
        if let Some(how) = self.ended.as_mut().and_then(|e| e.try_recv().ok()) {
            self.record_end(how, false);
        }
        self.exit.clone()
    }

    async fn wait_exit(&mut self, timeout: Duration) -> Option<ExitInfo> {
        if let Some(ended) = self.ended.as_mut() {
            if let Ok(Ok(how)) = tokio::time::timeout(timeout, ended).await {
                self.record_end(how, false);
            }
        }
        self.exit.clone()
    }

    /// Closes our ends and cancels the server's future, then waits up to `grace` for its
    /// thread to end; a thread that does not (a blocked server) is left behind.
    async fn terminate(&mut self, grace: Duration) -> ExitInfo {
        if let Some(exit) = self.try_exit() {
            return exit;
        }
        self.close_input();
        self.cancel = None;
        self.budget.close();
        self.reader.abort();
        if let Some(exit) = self.wait_exit(grace).await {
            return ExitInfo {
                killed_by_harness: true,
                ..exit
            };
        }
        let how = "stopped by us; its thread never yielded, and was left behind";
        self.record_end(how.into(), true)
    }
}

/// The server's thread: constructs the instance (reporting how that went), then serves
/// until its future ends or is cancelled. Returns how it ended, for the evidence.
fn run_server(
    serve: Serve,
    stream: DuplexStream,
    cancelled: oneshot::Receiver<()>,
    constructed: std::sync::mpsc::Sender<std::result::Result<(), String>>,
) -> String {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            let _ = constructed.send(Err(format!("no runtime for the server: {e}")));
            return String::new();
        }
    };
    let outcome = match serve {
        Serve::Async(serve) => {
            // Inside the runtime: a constructor may spawn its tasks.
            let entered = runtime.enter();
            let constructed_future = catch_unwind(AssertUnwindSafe(|| serve(stream)));
            drop(entered);
            let future = match constructed_future {
                Ok(future) => future,
                Err(panic) => {
                    let message = panic_message(&*panic);
                    let _ = constructed.send(Err(format!("its constructor panicked: {message}")));
                    return String::new();
                }
            };
            let _ = constructed.send(Ok(()));
            catch_unwind(AssertUnwindSafe(|| {
                runtime.block_on(async {
                    tokio::select! {
                        served = future => Some(served),
                        _ = cancelled => None,
                    }
                })
            }))
        }
        Serve::Blocking(serve) => {
            let _ = constructed.send(Ok(()));
            let (read, write) = tokio::io::split(stream);
            let handle = runtime.handle().clone();
            let reader = PipeReader {
                half: read,
                runtime: handle.clone(),
            };
            let writer = PipeWriter {
                half: Arc::new(Mutex::new(write)),
                runtime: handle,
            };
            catch_unwind(AssertUnwindSafe(|| Some(serve(reader, writer))))
        }
    };
    describe(outcome)
}

/// How a serve function ended, as the evidence says it.
fn describe(outcome: std::thread::Result<Option<ServeResult>>) -> String {
    match outcome {
        Ok(Some(Ok(()))) => "its serve function returned".into(),
        Ok(Some(Err(error))) => format!("its serve function failed: {error}"),
        Ok(None) => "stopped by us".into(),
        Err(panic) => format!("the server panicked: {}", panic_message(&*panic)),
    }
}

/// A panic's message, when it has one (`panic!` with a literal or a format).
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    match (panic.downcast_ref::<&str>(), panic.downcast_ref::<String>()) {
        (Some(text), _) => (*text).to_string(),
        (_, Some(text)) => text.clone(),
        _ => "(no message)".into(),
    }
}

impl Connection for InProcessTransport {
    fn send_line<'a>(&'a mut self, line: &'a [u8], timeout: Duration) -> Pending<'a, bool> {
        Box::pin(InProcessTransport::send_line(self, line, timeout))
    }

    fn next_event(&mut self) -> Pending<'_, Option<TransportEvent>> {
        Box::pin(InProcessTransport::next_event(self))
    }

    fn try_next_event(&mut self) -> Option<TransportEvent> {
        let event = self.events.try_recv().ok();
        self.taken(event)
    }

    fn close(&mut self) {
        self.close_input();
    }

    fn terminate(&mut self, grace: Duration) -> Pending<'_, ExitInfo> {
        Box::pin(InProcessTransport::terminate(self, grace))
    }

    fn is_remote(&self) -> bool {
        false
    }

    fn is_in_process(&self) -> bool {
        true
    }

    fn try_exit(&mut self) -> Option<ExitInfo> {
        InProcessTransport::try_exit(self)
    }

    fn wait_exit(&mut self, timeout: Duration) -> Pending<'_, Option<ExitInfo>> {
        Box::pin(InProcessTransport::wait_exit(self, timeout))
    }
}

impl Drop for InProcessTransport {
    fn drop(&mut self) {
        // Closing our ends and the cancel channel ends a server that yields; a reader
        // waiting for budget would wait forever: let it end.
        self.close_input();
        self.budget.close();
        self.reader.abort();
    }
}
