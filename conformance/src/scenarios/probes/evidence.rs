//! One bounded POST whose answer is read only as evidence, shared by the HTTP probes: the
//! fact of what was sent and got (status, content type, at most [`EVIDENCE_CAP`] body
//! bytes, bounded by the timeout), and the JSON-RPC response to the request when it came
//! (a JSON body, or the SSE event that answers it).

use std::time::Duration;

use serde_json::Value;

use crate::records::ProbeStep;
use crate::transport::{error_text, is_media, Carried, Endpoint, Frame, HttpFact, SseDecoder};

/// Body bytes a probe reads (it needs the status, the content type and a message).
pub(super) const EVIDENCE_CAP: usize = 64 * 1024;

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

/// A step of a probe: what it tries, and the exchange.
pub(super) fn step(purpose: &'static str, fact: HttpFact) -> ProbeStep {
    ProbeStep { purpose, fact }
}

/// POSTs one message with `extra` headers (recorded in the fact as sent) and reads its
/// answer (bounded) into a fact, with the first JSON-RPC response to it when there is one.
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

/// Whether a frame is the response to `id`.
fn answers(frame: &Frame, id: &Value) -> bool {
    let Frame::Line(text) = frame else {
        return false;
    };
    serde_json::from_str::<Value>(text).is_ok_and(|m| {
        m.get("id") == Some(id) && (m.get("result").is_some() || m.get("error").is_some())
    })
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
