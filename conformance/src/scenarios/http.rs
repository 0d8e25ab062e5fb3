//! What a revision's conversation over Streamable HTTP records beside its messages: every
//! HTTP exchange of the scripted session (status, content type, headers that matter), the
//! streams that carried its responses, the HTTP-only probes, which run in a short session
//! of their own so that their wrong requests cannot disturb the scripted one, and the
//! foreign-`Origin` request (both eras).

use serde_json::json;

use crate::protocol::{stamp_request, Revision, Session, SessionConfig};
use crate::transport::{
    HttpFact, HttpProbe, OriginProbe, ServerCommand, StreamRecord, VERSION_HEADER,
};

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
    /// The request from a foreign `Origin`.
    pub origin: Option<OriginProbe>,
}

/// The HTTP record of a finished scripted `session`, plus the probes.
pub(super) async fn record(
    session: &Session,
    command: &ServerCommand,
    revision: &'static Revision,
    config: &SessionConfig,
) -> crate::Result<HttpRecord> {
    let (facts, facts_dropped) = session.http_facts();
    let (streams, streams_dropped) = session.http_streams();
    let Some(target) = &command.http else {
        return Ok(HttpRecord {
            facts,
            facts_dropped,
            streams,
            streams_dropped,
            ..HttpRecord::default()
        });
    };
    let probe = match revision.modern() {
        false => Some(
            HttpProbe::run(
                target,
                revision.id,
                super::initialize_params(revision.id),
                config.timeout,
            )
            .await?,
        ),
        true => None,
    };
    Ok(HttpRecord {
        facts,
        facts_dropped,
        streams,
        streams_dropped,
        probe,
        origin: Some(origin(target, revision, config).await?),
    })
}

/// The foreign-`Origin` request: a request the server would otherwise serve (a legacy
/// `initialize`; in the modern era `server/discover` with its `_meta` and headers).
async fn origin(
    target: &crate::transport::HttpTarget,
    revision: &'static Revision,
    config: &SessionConfig,
) -> crate::Result<OriginProbe> {
    let (message, headers) = if revision.modern() {
        let meta = super::request_meta(revision.id, json!({}));
        let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover"});
        (
            stamp_request(&meta, discover),
            vec![
                ("Mcp-Method", "server/discover".to_string()),
                (VERSION_HEADER, revision.id.to_string()),
            ],
        )
    } else {
        let params = super::initialize_params(revision.id);
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params});
        (init, Vec::new())
    };
    OriginProbe::run(target, &message, &headers, config.timeout).await
}
