//! Bytes to and from a server under test.
//!
//! The transport knows nothing of JSON-RPC: it frames stdout into lines, captures stderr,
//! and owns the child process so that it is reaped on every path. Everything a server
//! can do wrong at this layer (invalid UTF-8, an over-long line, exiting) arrives as an
//! event for the layers above to judge, never as a harness error. Over Streamable HTTP
//! ([`HttpTransport`]) the same events come from POST responses, so the layers above do
//! not know which transport they talk through; so do the `message` events of 2024-11-05's
//! HTTP+SSE transport ([`SseTransport`]). Each is one module implementing [`Connection`],
//! and [`Transport::start`] is where a target chooses one (`connection.rs`).

mod asleep;
mod connection;
mod fact;
mod framing;
mod http;
mod in_process;
mod inbox;
mod launch;
mod legacy_sse;
mod mirror;
mod procfs;
mod reaper;
mod sse;
mod sse_record;
mod stdio;
mod streams;
mod tls;

pub use asleep::group_asleep;
pub use connection::{Connection, Pending, Transport};
pub(crate) use fact::{error_text, BODY_HEAD};
pub use fact::{is_media, Carried, HttpFact, HttpTarget};
pub use framing::{Frame, LineFramer};
pub(crate) use http::{client, delete, Endpoint};
pub use http::{late_window, HttpTransport, MAX_IN_FLIGHT, SESSION_HEADER, VERSION_HEADER};
pub(crate) use in_process::panic_message;
pub use in_process::{
    InProcessServer, InProcessTransport, PipeReader, PipeWriter, ServeResult, PIPE_BUFFER,
};
pub use launch::{check_reachable, LaunchedServer};
pub use legacy_sse::SseTransport;
pub use mirror::{
    annotations, decode as decode_header_value, encode as encode_header_value, Annotation,
    ToolHeaders,
};
pub(crate) use mirror::{learned as learned_tool_headers, teach as teach_tool_headers};
pub(crate) use mirror::{
    request_headers, META_VERSION, METHOD_HEADER, NAME_HEADER, PARAM_PREFIX, VERSION_HEADER_NAME,
};
pub use reaper::{adopt_orphans, adopting_orphans};
pub(crate) use sse::SseDecoder;
pub use sse_record::{HttpKind, SseEvent, SseStream};
pub use stdio::{
    marked_processes, ExitInfo, ServerCommand, StdioTransport, TransportEvent, MARKER_VAR,
};
pub use streams::{StreamKind, StreamRecord};
pub use tls::check_tls;
