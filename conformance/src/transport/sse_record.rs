//! What 2024-11-05's HTTP+SSE transport records for the `sse-*` checks ([`SseStream`]: the
//! GET, the events, the endpoint) and which HTTP transport a URL speaks ([`HttpKind`]).
//! Apart from `legacy_sse.rs` so that the checks read these types without the client.

use super::fact::HttpFact;

/// Events kept per stream; later ones are counted only.
pub(super) const MAX_EVENTS: usize = 4096;

/// Which HTTP transport a URL speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HttpKind {
    /// Streamable HTTP (2025-03-26 on): the URL is the MCP endpoint.
    #[default]
    StreamableHttp,
    /// HTTP+SSE (2024-11-05): the URL is the SSE stream.
    Sse,
}

impl HttpKind {
    /// The name in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            HttpKind::StreamableHttp => "streamable-http",
            HttpKind::Sse => "sse",
        }
    }
}

/// One event of the SSE stream, as evidence.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SseEvent {
    /// Its type (`message` when it named none).
    pub event: String,
    /// Its data's first characters (an over-long or non-UTF-8 event: a description).
    pub data_head: String,
    /// Whether the data is one JSON value.
    pub json: bool,
    /// Whether it came after the `endpoint` event.
    pub after_endpoint: bool,
}

impl SseEvent {
    /// One line: `event: message, data: {"jsonrpc":...`.
    pub fn describe(&self) -> String {
        format!("event: {}, data: {}", self.event, self.data_head)
    }
}

/// What the SSE stream of a session showed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SseStream {
    /// The GET that opened it: status and content type (no response: `status` is `None`
    /// and `error` says why).
    pub get: Option<HttpFact>,
    /// Its events, in order (at most `MAX_EVENTS`).
    pub events: Vec<SseEvent>,
    /// Events past the cap, counted only.
    pub events_dropped: u64,
    /// Where messages were POSTed (the resolved `endpoint` URI).
    pub endpoint: Option<String>,
    /// Why no endpoint was used: none came in time, the stream failed or ended first, or
    /// the endpoint named another host.
    pub no_endpoint: Option<String>,
    /// Whether the endpoint was refused by our policy (another host), not the server's fault.
    pub refused: bool,
    /// How the stream ended, when it did before the session.
    pub ended: Option<String>,
}
