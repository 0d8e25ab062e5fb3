//! What a revision's conversation over Streamable HTTP records beside its messages: every
//! HTTP exchange of the scripted session (status, content type, headers that matter), and
//! the HTTP-only probes, which run in a short session of their own so that their wrong
//! requests cannot disturb the scripted one. Over 2024-11-05's HTTP+SSE there are no probes:
//! the record holds the POSTs and what the SSE stream showed.

use crate::protocol::{Revision, Session, SessionConfig};
use crate::transport::{HttpFact, HttpKind, HttpProbe, ServerCommand, SseStream};

/// The HTTP side of a revision's conversation.
#[derive(Debug, Clone, Default)]
pub struct HttpRecord {
    /// Every POST (and the DELETE) of the scripted session, in the order they finished.
    pub facts: Vec<HttpFact>,
    /// Exchanges past the cap on kept facts, counted only.
    pub facts_dropped: u64,
    /// The HTTP-only probes (`None` in the modern era, which has no session to probe).
    pub probe: Option<HttpProbe>,
    /// Over HTTP+SSE (2024-11-05), the SSE stream: its GET, events and endpoint.
    pub sse: Option<SseStream>,
}

/// The HTTP record of a finished scripted `session`, plus the probes.
pub(super) async fn record(
    session: &Session,
    command: &ServerCommand,
    revision: &'static Revision,
    config: &SessionConfig,
) -> crate::Result<HttpRecord> {
    let (facts, facts_dropped) = session.http_facts();
    let probe = match (&command.http, revision.modern()) {
        (Some(target), false) if command.http_kind == HttpKind::StreamableHttp => Some(
            HttpProbe::run(
                target,
                revision.id,
                super::initialize_params(revision.id),
                config.timeout,
            )
            .await?,
        ),
        _ => None,
    };
    Ok(HttpRecord {
        facts,
        facts_dropped,
        probe,
        sse: session.sse_stream(),
    })
}
