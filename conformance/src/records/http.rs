//! The HTTP side of a revision's conversation ([`HttpRecord`]): every HTTP exchange of the
//! scripted session, the streams that carried its responses, and what the HTTP probes
//! recorded (`http_probes.rs`).

use super::{HttpModernProbe, HttpProbe, OriginProbe, SseOriginProbe};
use crate::transport::{HttpFact, SseStream, StreamRecord};

/// The HTTP side of a revision's conversation.
#[derive(Debug, Clone, Default)]
pub struct HttpRecord {
    /// Every POST (and the GET and the DELETE) of the scripted session, in the order they
    /// finished (the GET's when its head came).
    pub facts: Vec<HttpFact>,
    /// Exchanges past the cap on kept facts, counted only.
    pub facts_dropped: u64,
    /// The scripted session's streams (each request POST's, the GET stream) and the
    /// responses each carried.
    pub streams: Vec<StreamRecord>,
    /// Streams past the cap, counted only.
    pub streams_dropped: u64,
    /// The HTTP-only probes (`None` in the modern era, which has no session to probe).
    pub probe: Option<HttpProbe>,
    /// The request from a foreign `Origin` (Streamable HTTP).
    pub origin: Option<OriginProbe>,
    /// Over HTTP+SSE, the GET and the POST from a foreign `Origin`.
    pub sse_origin: Option<SseOriginProbe>,
    /// The 2026-07-28 probes (`None` in the legacy era, or when the revision was not
    /// spoken).
    pub modern: Option<HttpModernProbe>,
    /// Over HTTP+SSE (2024-11-05), the SSE stream: its GET, events and endpoint.
    pub sse: Option<SseStream>,
}
