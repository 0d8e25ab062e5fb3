//! The HTTP-only probes: a short Streamable HTTP session of its own in which some
//! requests are sent wrong on purpose (no session id, an unknown one, a bad
//! `MCP-Protocol-Version`), recording each exchange for the HTTP checks; and, in both
//! eras, one request from a foreign `Origin` ([`OriginProbe`]).
//!
//! The session transport ([`super::HttpTransport`]) always sends what a conformant client
//! sends; these requests are the ones it never would, so they live here, each a single
//! bounded POST whose answer is read only as evidence (at most [`EVIDENCE_CAP`] bytes).

use std::time::Duration;

use serde_json::{json, Value};

use super::fact::{error_text, is_media, Carried, HttpFact, HttpTarget};
use super::framing::Frame;
use super::http::{answers, delete, Endpoint};
use super::sse::SseDecoder;

/// Body bytes a probe reads (it needs the status, the content type and a message).
pub(super) const EVIDENCE_CAP: usize = 64 * 1024;
/// A session id no server issued.
pub const UNKNOWN_SESSION: &str = "mcp-conformance-unknown-session";
/// A version header no revision has.
pub const BAD_VERSION: &str = "not-a-version";
/// The `Origin` of the DNS-rebinding probe: a host that cannot exist (RFC 6761 `.invalid`).
pub const FOREIGN_ORIGIN: &str = "http://mcp-conformance.invalid";

/// A request sent with `Origin: http://mcp-conformance.invalid` (transports.mdx, Security
/// Warning: servers MUST validate `Origin`; from 2025-06-18 an invalid one MUST get 403).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OriginProbe {
    /// The exchange.
    pub step: ProbeStep,
    /// Whether the target's host is a loopback address or `localhost`: a server there is
    /// local, so a foreign web origin is invalid by construction.
    pub loopback: bool,
    /// The DELETE of the session the server opened anyway, if it did.
    pub delete: Option<HttpFact>,
}

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

/// Whether `url` names this machine: `localhost`, 127.0.0.0/8 or `::1`.
pub(super) fn is_loopback(url: &reqwest::Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    match host.parse::<std::net::IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => {
            let host = host.to_ascii_lowercase();
            host == "localhost" || host.ends_with(".localhost")
        }
    }
}

/// One probe request and what it got.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ProbeStep {
    /// What the step tries, in words.
    pub purpose: &'static str,
    /// The exchange.
    pub fact: HttpFact,
}

/// Everything the HTTP probe session recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct HttpProbe {
    /// The initialize POST.
    pub initialize: Option<ProbeStep>,
    /// The version the server negotiated.
    pub negotiated: Option<String>,
    /// Whether the server assigned a session id.
    pub session_assigned: bool,
    /// `notifications/initialized`, sent as a conformant client sends it.
    pub initialized: Option<ProbeStep>,
    /// A ping, sent as a conformant client sends it.
    pub ping: Option<ProbeStep>,
    /// A ping without `Mcp-Session-Id` (only when one was assigned).
    pub no_session: Option<ProbeStep>,
    /// A ping with a session id the server never issued (only when one was assigned).
    pub unknown_session: Option<ProbeStep>,
    /// A ping with `MCP-Protocol-Version: not-a-version` (only from 2025-06-18 on).
    pub bad_version: Option<ProbeStep>,
    /// The DELETE of the session.
    pub delete: Option<ProbeStep>,
    /// A ping with the deleted session's id (only when the DELETE succeeded).
    pub deleted_session: Option<ProbeStep>,
}

impl HttpProbe {
    /// Every step that ran, in order.
    pub fn steps(&self) -> impl Iterator<Item = &ProbeStep> {
        [
            &self.initialize,
            &self.initialized,
            &self.ping,
            &self.no_session,
            &self.unknown_session,
            &self.bad_version,
            &self.delete,
            &self.deleted_session,
        ]
        .into_iter()
        .flatten()
    }

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
        let header = (negotiated.as_str() >= "2025-06-18").then_some(negotiated.as_str());
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
        if version >= "2025-06-18" && negotiated.as_str() >= "2025-06-18" {
            let (fact, _) = post(&endpoint, &ping(5), s, Some(BAD_VERSION)).await;
            probe.bad_version = Some(step("a request with an invalid MCP-Protocol-Version", fact));
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

pub(super) fn step(purpose: &'static str, fact: HttpFact) -> ProbeStep {
    ProbeStep { purpose, fact }
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

/// [`post`] with `extra` headers, recorded in the fact as sent.
pub(super) async fn post_with(
    endpoint: &Endpoint,
    message: &Value,
    session: Option<&str>,
    version: Option<&str>,
    extra: &[(&'static str, String)],
) -> (HttpFact, Option<Value>) {
    let carried = if message.get("id").is_some() {
        Carried::Request
    } else {
        Carried::Notification
    };
    let rpc = message
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_string);
    let mut fact = endpoint.fact("POST", carried, rpc);
    let extra = extra.iter().map(|(n, v)| ((*n).to_string(), v.clone()));
    let (builder, sent) = endpoint.post_message(session, version, extra, message.to_string());
    fact.sent = sent;
    let timeout = endpoint.timeout;
    let response = match tokio::time::timeout(timeout, builder.send()).await {
        Ok(Ok(response)) => response,
        Ok(Err(e)) => {
            fact.error = Some(error_text(&e));
            return (fact, None);
        }
        Err(_) => {
            fact.error = Some("no response headers within the timeout".into());
            return (fact, None);
        }
    };
    let id = message.get("id").cloned();
    let found = read_answer(response, &mut fact, id.as_ref(), timeout).await;
    (fact, found)
}

/// Reads a probe's answer into `fact` (status, content type, body head, at most
/// [`EVIDENCE_CAP`] bytes, bounded by `timeout`), and returns the JSON-RPC response to
/// `id` when it came (the JSON body, or the SSE event that answers `id`).
pub(super) async fn read_answer(
    mut response: reqwest::Response,
    fact: &mut HttpFact,
    id: Option<&Value>,
    timeout: Duration,
) -> Option<Value> {
    fact.read_head(&response);
    let sse = is_media(fact.content_type.as_deref(), "text/event-stream");
    let mut decoder = SseDecoder::new(EVIDENCE_CAP);
    let mut frames = Vec::new();
    let mut body = Vec::new();
    let mut found = None;
    let deadline = tokio::time::Instant::now() + timeout;
    while body.len() < EVIDENCE_CAP && found.is_none() {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => {
                fact.body_bytes += chunk.len();
                body.extend_from_slice(&chunk);
                if sse {
                    decoder.push(&chunk, &mut frames);
                    found = frames
                        .drain(..)
                        .find(|f| id.is_some_and(|id| answers(f, id)))
                        .and_then(|f| match f {
                            Frame::Line(text) => serde_json::from_str(&text).ok(),
                            _ => None,
                        });
                }
            }
            Ok(Ok(None)) => break,
            Ok(Err(e)) => {
                fact.error = Some(format!("body cut: {}", error_text(&e)));
                break;
            }
            Err(_) => {
                fact.error = Some("the body did not end within the timeout".into());
                break;
            }
        }
    }
    body.truncate(EVIDENCE_CAP);
    fact.body_head = String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned();
    if !sse && found.is_none() {
        found = serde_json::from_slice(&body).ok();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_localhost_127_and_ipv6_one() {
        let host = |u: &str| is_loopback(&reqwest::Url::parse(u).unwrap());
        assert!(host("http://127.0.0.1:8080/mcp"));
        assert!(host("http://127.3.4.5/mcp"));
        assert!(host("http://localhost/mcp"));
        assert!(host("http://[::1]:9/mcp"));
        assert!(!host("http://10.0.0.1/mcp"));
        assert!(!host("http://example.com/mcp"));
        assert!(!host("http://localhost.example.com/mcp"));
    }
}
