//! The Streamable HTTP probes of the initialize era: a short session of their own in which
//! some requests are sent wrong on purpose (no session id, an unknown one, a bad
//! `MCP-Protocol-Version`), recording each exchange for the HTTP checks ([`HttpProbe`]);
//! and, in both eras, one request from a foreign `Origin` ([`OriginProbe`]).
//!
//! The session transport always sends what a conformant client sends; these requests are
//! the ones it never would, so they are made here, each a single bounded POST whose answer
//! is read only as evidence (`evidence.rs`).

use std::time::Duration;

use serde_json::{json, Value};

use super::evidence::{is_loopback, post_with, step};
use crate::protocol::Revision;
use crate::records::{HttpProbe, OriginProbe, FOREIGN_ORIGIN};
use crate::transport::{delete, Endpoint, HttpFact, HttpTarget};

/// A session id no server issued.
const UNKNOWN_SESSION: &str = "mcp-conformance-unknown-session";
/// A version header no revision has.
const BAD_VERSION: &str = "not-a-version";

impl OriginProbe {
    /// POSTs `message` (a request that would succeed: `initialize`, or a modern
    /// `server/discover`) with a foreign `Origin` and the `extra` headers, and DELETEs a
    /// session the server opens in spite of it. Never fails once the target is valid: what
    /// could not be sent is recorded in the fact.
    pub async fn run(
        target: &HttpTarget,
        message: &Value,
        extra: &[(&'static str, String)],
        timeout: Duration,
    ) -> crate::Result<Self> {
        let endpoint = Endpoint::of(target, timeout)?;
        let mut headers = vec![("Origin", FOREIGN_ORIGIN.to_string())];
        headers.extend(extra.iter().cloned());
        let (fact, _) = post_with(&endpoint, message, None, None, &headers).await;
        let delete = match (&fact.session_id, fact.status) {
            (Some(id), Some(200..=299)) => Some(delete(&endpoint, id, None).await),
            _ => None,
        };
        Ok(OriginProbe {
            step: step("a request from a foreign Origin", fact),
            loopback: is_loopback(&endpoint.url),
            delete,
        })
    }
}

impl HttpProbe {
    /// Runs the probe session against `target` for `version` (an initialize-era
    /// revision). `initialize` holds the initialize params. Never fails: what could not be
    /// sent is recorded in the facts.
    pub async fn run(
        target: &HttpTarget,
        version: &str,
        initialize: Value,
        timeout: Duration,
    ) -> crate::Result<Self> {
        let endpoint = Endpoint::of(target, timeout)?;
        let mut probe = HttpProbe::default();
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize});
        let (fact, message) = post(&endpoint, &init, None, None).await;
        let session = fact.session_id.clone();
        probe.session_assigned = session.is_some();
        probe.negotiated = message
            .as_ref()
            .and_then(|m| m.pointer("/result/protocolVersion"))
            .and_then(Value::as_str)
            .map(str::to_string);
        probe.initialize = Some(step("initialize", fact));
        let Some(negotiated) = probe.negotiated.clone() else {
            return Ok(probe);
        };
        // From 2025-06-18 on every request after the handshake names the negotiated version.
        let carries = Revision::version_header_of(&negotiated);
        let header = carries.then_some(negotiated.as_str());
        let s = session.as_deref();
        let notification = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let (fact, _) = post(&endpoint, &notification, s, header).await;
        probe.initialized = Some(step("an accepted notification", fact));
        let ping = |id: u32| json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
        let (fact, _) = post(&endpoint, &ping(2), s, header).await;
        probe.ping = Some(step("a request", fact));
        if session.is_some() {
            let (fact, _) = post(&endpoint, &ping(3), None, header).await;
            probe.no_session = Some(step("a request without Mcp-Session-Id", fact));
            let (fact, _) = post(&endpoint, &ping(4), Some(UNKNOWN_SESSION), header).await;
            probe.unknown_session = Some(step("a request with an unknown session id", fact));
        }
        if Revision::version_header_of(version) && carries {
            let (fact, _) = post(&endpoint, &ping(5), s, Some(BAD_VERSION)).await;
            probe.bad_version = Some(step("a request with an invalid MCP-Protocol-Version", fact));
        }
        if Revision::version_header_of(version) && carries {
            let (fact, _) = post(&endpoint, &ping(7), s, None).await;
            probe.version_absent = Some(step("a request without MCP-Protocol-Version", fact));
        }
        if let Some(id) = s {
            let fact = delete(&endpoint, id, header).await;
            let deleted = fact.status.is_some_and(|st| (200..300).contains(&st));
            probe.delete = Some(step("the DELETE that ends the session", fact));
            if deleted {
                let (fact, _) = post(&endpoint, &ping(6), s, header).await;
                probe.deleted_session = Some(step("a request in the deleted session", fact));
            }
        }
        Ok(probe)
    }
}

/// POSTs one message and reads its answer (bounded) into a fact, with the first JSON-RPC
/// response to it when there is one.
async fn post(
    endpoint: &Endpoint,
    message: &Value,
    session: Option<&str>,
    version: Option<&str>,
) -> (HttpFact, Option<Value>) {
    post_with(endpoint, message, session, version, &[]).await
}
