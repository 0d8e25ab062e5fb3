//! The seam between the session and the ways of reaching a server: [`Connection`], which
//! every transport implements, and [`Transport`], the one place where a target chooses
//! which.
//!
//! The session writes lines and takes [`TransportEvent`]s; it never knows whether a child's
//! pipes, POSTs to a Streamable HTTP endpoint or a 2024-11-05 HTTP+SSE stream carry them.
//! A new transport is one module implementing [`Connection`] plus one arm in
//! [`Transport::start`]. What only some transports have (a process, HTTP exchanges, an SSE
//! stream) are methods whose default says "none here".
//!
//! The async methods return boxed futures: an `async fn` in a trait cannot be called
//! through `dyn` on stable Rust, and one small allocation per line written or event taken
//! is nothing beside the line's own.

use std::future::Future;
use std::ops::{Deref, DerefMut};
use std::pin::Pin;
use std::time::Duration;

use super::fact::HttpFact;
use super::http::HttpTransport;
use super::in_process::InProcessTransport;
use super::legacy_sse::SseTransport;
use super::sse_record::{HttpKind, SseStream};
use super::stdio::{ExitInfo, ServerCommand, StdioTransport, TransportEvent};
use super::streams::StreamRecord;
use crate::errors::Result;

/// A future a [`Connection`] returns, borrowing it.
pub type Pending<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What the session needs of a way of reaching a server: lines in, events out, an end.
pub trait Connection: std::fmt::Debug + Send + Sync {
    /// Writes one line (stdio) or POSTs each of its lines (HTTP) within `timeout`; `false`
    /// when it was not taken (for the caller to report).
    fn send_line<'a>(&'a mut self, line: &'a [u8], timeout: Duration) -> Pending<'a, bool>;

    /// Next event, or `None` once no more can come.
    fn next_event(&mut self) -> Pending<'_, Option<TransportEvent>>;

    /// An event already waiting, without waiting for one.
    fn try_next_event(&mut self) -> Option<TransportEvent>;

    /// Nothing more is sent: stdin is closed (stdio), no more POSTs (HTTP).
    fn close(&mut self);

    /// Ends the session: the process is stopped (after `grace`), the HTTP session DELETEd
    /// or the stream closed. Returns how it ended.
    fn terminate(&mut self, grace: Duration) -> Pending<'_, ExitInfo>;

    /// Whether there is no process of ours behind this connection (HTTP of either kind).
    fn is_remote(&self) -> bool;

    /// Whether the server runs inside this process ([`super::InProcessTransport`]): no
    /// process, exit status or stderr of its own.
    fn is_in_process(&self) -> bool {
        false
    }

    /// The server's process group while it runs (stdio: the server leads a group of its
    /// own).
    fn process_group(&self) -> Option<u32> {
        None
    }

    /// The process's exit, if it exited.
    fn try_exit(&mut self) -> Option<ExitInfo> {
        None
    }

    /// Waits up to `timeout` for the process to exit (at once when there is none).
    fn wait_exit(&mut self, timeout: Duration) -> Pending<'_, Option<ExitInfo>> {
        let _ = timeout;
        Box::pin(std::future::ready(None))
    }

    /// The HTTP exchanges so far, and how many more were not kept.
    fn facts(&self) -> (Vec<HttpFact>, u64) {
        Default::default()
    }

    /// The response streams so far (Streamable HTTP), and how many were not recorded.
    fn streams(&self) -> (Vec<StreamRecord>, u64) {
        Default::default()
    }

    /// The `Mcp-Session-Id` the server assigned (Streamable HTTP).
    fn session_id(&self) -> Option<String> {
        None
    }

    /// What the SSE stream showed (2024-11-05 HTTP+SSE).
    fn sse_stream(&self) -> Option<SseStream> {
        None
    }
}

/// The connection a session talks through, chosen by its target.
#[derive(Debug)]
pub struct Transport(Box<dyn Connection>);

impl Transport {
    /// Starts the server (stdio; a fresh instance in-process) or prepares the HTTP session
    /// (nothing sent yet).
    /// `version_header` says which negotiated versions the HTTP requests that follow the
    /// handshake name in `MCP-Protocol-Version` (the layer above knows the revisions).
    pub fn start(
        command: &ServerCommand,
        timeout: Duration,
        max_line: usize,
        version_header: fn(&str) -> bool,
    ) -> Result<Self> {
        if let Some(server) = &command.in_process {
            return Ok(Self(Box::new(InProcessTransport::start(server, max_line)?)));
        }
        Ok(Self(match (&command.http, command.http_kind) {
            (Some(target), HttpKind::Sse) => {
                Box::new(SseTransport::connect(target, timeout, max_line)?)
            }
            (Some(target), HttpKind::StreamableHttp) => Box::new(
                HttpTransport::connect(target, timeout, max_line)?
                    .with_version_header(version_header),
            ),
            (None, _) => Box::new(StdioTransport::spawn(command, max_line)?),
        }))
    }
}

impl Deref for Transport {
    type Target = dyn Connection;

    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl DerefMut for Transport {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut *self.0
    }
}
