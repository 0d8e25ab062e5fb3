//! Bytes to and from a server under test.
//!
//! The transport knows nothing of JSON-RPC: it frames stdout into lines, captures stderr,
//! and owns the child process so that it is reaped on every path. Everything a server
//! can do wrong at this layer (invalid UTF-8, an over-long line, exiting) arrives as an
//! event for the layers above to judge, never as a harness error. Over Streamable HTTP
//! ([`HttpTransport`]) the same events come from POST responses, so the layers above do
//! not know which transport they talk through ([`Transport`]); so do the `message` events of
//! 2024-11-05's HTTP+SSE transport ([`SseTransport`]).

mod asleep;
mod detect;
mod fact;
mod framing;
mod http;
mod inbox;
mod launch;
mod legacy_sse;
mod mirror;
mod probe;
mod probe_modern;
mod probe_sse;
mod procfs;
mod reaper;
mod sse;
mod sse_record;
mod stdio;
mod streams;
mod tls;

use std::time::Duration;

pub use asleep::group_asleep;
pub use detect::speaks_sse;
pub use fact::{is_media, Carried, HttpFact, HttpTarget};
pub use framing::{Frame, LineFramer};
pub use http::{HttpTransport, MAX_IN_FLIGHT, SESSION_HEADER, VERSION_HEADER};
pub use launch::LaunchedServer;
pub use legacy_sse::SseTransport;
pub use mirror::{
    annotations, decode as decode_header_value, encode as encode_header_value, Annotation,
    ToolHeaders,
};
pub(crate) use mirror::{learned as learned_tool_headers, teach as teach_tool_headers};
pub use probe::{HttpProbe, OriginProbe, ProbeStep, FOREIGN_ORIGIN};
pub use probe_modern::{HttpModernProbe, ModernStep, ParamTool};
pub use probe_sse::SseOriginProbe;
pub use reaper::{adopt_orphans, adopting_orphans};
pub use sse_record::{HttpKind, SseEvent, SseStream};
pub use stdio::{
    marked_processes, ExitInfo, ServerCommand, StdioTransport, TransportEvent, MARKER_VAR,
};
pub use streams::{StreamKind, StreamRecord};
pub use tls::check_tls;

/// The transport a session talks through.
#[derive(Debug)]
pub enum Transport {
    /// A child process's stdin and stdout.
    Stdio(StdioTransport),
    /// POSTs to a Streamable HTTP endpoint.
    Http(HttpTransport),
    /// 2024-11-05 HTTP+SSE: POSTs to the endpoint an SSE stream named.
    Sse(SseTransport),
}

impl Transport {
    /// Starts the server (stdio) or prepares the HTTP session (nothing sent yet).
    pub fn start(
        command: &ServerCommand,
        timeout: Duration,
        max_line: usize,
    ) -> crate::Result<Self> {
        Ok(match (&command.http, command.http_kind) {
            (Some(target), HttpKind::Sse) => {
                Transport::Sse(SseTransport::connect(target, timeout, max_line)?)
            }
            (Some(target), HttpKind::StreamableHttp) => {
                Transport::Http(HttpTransport::connect(target, timeout, max_line)?)
            }
            (None, _) => Transport::Stdio(StdioTransport::spawn(command, max_line)?),
        })
    }

    /// The HTTP transport, when it is one.
    pub fn http(&self) -> Option<&HttpTransport> {
        match self {
            Transport::Http(http) => Some(http),
            Transport::Stdio(_) | Transport::Sse(_) => None,
        }
    }

    /// The HTTP+SSE transport, when it is one.
    pub fn sse(&self) -> Option<&SseTransport> {
        match self {
            Transport::Sse(sse) => Some(sse),
            Transport::Stdio(_) | Transport::Http(_) => None,
        }
    }

    /// Whether there is no process of ours behind this transport (HTTP of either kind).
    pub fn is_remote(&self) -> bool {
        !matches!(self, Transport::Stdio(_))
    }

    /// Writes one line (stdio) or POSTs each of its lines (HTTP) within `timeout`.
    pub async fn send_line(&mut self, line: &[u8], timeout: Duration) -> bool {
        match self {
            Transport::Stdio(t) => t.send_line(line, timeout).await,
            Transport::Http(t) => t.send_line(line, timeout).await,
            Transport::Sse(t) => t.send_line(line, timeout).await,
        }
    }

    /// Next event.
    pub async fn next_event(&mut self) -> Option<TransportEvent> {
        match self {
            Transport::Stdio(t) => t.next_event().await,
            Transport::Http(t) => t.next_event().await,
            Transport::Sse(t) => t.next_event().await,
        }
    }

    /// An event already waiting.
    pub fn try_next_event(&mut self) -> Option<TransportEvent> {
        match self {
            Transport::Stdio(t) => t.try_next_event(),
            Transport::Http(t) => t.try_next_event(),
            Transport::Sse(t) => t.try_next_event(),
        }
    }

    /// Closes stdin (stdio); stops POSTing (HTTP).
    pub fn close_stdin(&mut self) {
        match self {
            Transport::Stdio(t) => t.close_stdin(),
            Transport::Http(t) => t.close(),
            Transport::Sse(t) => t.close(),
        }
    }

    /// The server's process group (stdio: the server leads a group of its own); `None`
    /// over HTTP, where no process of ours is behind the session.
    pub fn process_group(&self) -> Option<u32> {
        match self {
            Transport::Stdio(t) => t.process_group(),
            Transport::Http(_) | Transport::Sse(_) => None,
        }
    }

    /// The process's exit, if it exited (never over HTTP: there is no process here).
    pub fn try_exit(&mut self) -> Option<ExitInfo> {
        match self {
            Transport::Stdio(t) => t.try_exit(),
            Transport::Http(_) | Transport::Sse(_) => None,
        }
    }

    /// Waits up to `timeout` for the process to exit (HTTP: returns at once).
    pub async fn wait_exit(&mut self, timeout: Duration) -> Option<ExitInfo> {
        match self {
            Transport::Stdio(t) => t.wait_exit(timeout).await,
            Transport::Http(_) | Transport::Sse(_) => None,
        }
    }

    /// Ends the process (stdio), DELETEs the session (HTTP) or closes the stream (SSE).
    pub async fn terminate(&mut self, grace: Duration) -> ExitInfo {
        match self {
            Transport::Stdio(t) => t.terminate(grace).await,
            Transport::Http(t) => t.terminate().await,
            Transport::Sse(t) => t.terminate().await,
        }
    }
}
