//! The foreign-`Origin` probe over 2024-11-05's HTTP+SSE transport.
//!
//! 2024-11-05 transports.mdx, Security Warning: "Servers MUST validate the `Origin` header on
//! all incoming connections to prevent DNS rebinding attacks". HTTP+SSE has two kinds of
//! connection, so both are tried with `Origin: http://mcp-conformance.invalid`: the GET that
//! opens an SSE stream (a session), and a POST of `initialize` to the message endpoint of a
//! stream opened without an `Origin` (the endpoint is only learnt from a stream). The text
//! names no status code: each answer is recorded, and the check (`http-origin`) decides what
//! counts as refused. Apart from the Streamable HTTP probes (`legacy.rs`) because it needs
//! a stream of its own ([`SseTransport`]) to learn where to POST.

use std::time::Duration;

use reqwest::header::{ACCEPT, CACHE_CONTROL};
use serde_json::Value;

use super::evidence::{is_loopback, post_with, step, EVIDENCE_CAP};
use crate::records::{SseOriginProbe, FOREIGN_ORIGIN};
use crate::transport::{
    error_text, Carried, Endpoint, HttpFact, HttpTarget, SseTransport, BODY_HEAD,
};

impl SseOriginProbe {
    /// Sends both requests to `target`; `initialize` is the message POSTed (a request the
    /// server would otherwise serve). Never fails once the target is valid: what could not be
    /// sent is recorded.
    pub async fn run(
        target: &HttpTarget,
        initialize: &Value,
        timeout: Duration,
    ) -> crate::Result<Self> {
        let endpoint = Endpoint::of(target, timeout)?;
        let get = foreign_get(&endpoint).await;
        // The control stream, opened without an Origin, names the endpoint; it is closed
        // (dropped) once the POST is answered.
        let mut control = SseTransport::connect(target, timeout, EVIDENCE_CAP)?;
        let (post, no_post) = match control.endpoint(timeout).await {
            Some(url) => {
                let mut at = endpoint.clone();
                at.url = url;
                let origin = [("Origin", FOREIGN_ORIGIN.to_string())];
                let (fact, _) = post_with(&at, initialize, None, None, &origin).await;
                (Some(step("a POST from a foreign Origin", fact)), None)
            }
            None => (
                None,
                Some(
                    control
                        .stream()
                        .no_endpoint
                        .unwrap_or_else(|| "no endpoint event came".into()),
                ),
            ),
        };
        drop(control);
        Ok(Self {
            get: step("a GET of the SSE stream from a foreign Origin", get),
            post,
            no_post,
            loopback: is_loopback(&endpoint.url),
        })
    }
}

/// The GET of the SSE URL with the foreign `Origin`: its head, and the first chunk of its
/// body as evidence (a stream is never read further).
async fn foreign_get(endpoint: &Endpoint) -> HttpFact {
    let (builder, mut sent) = endpoint.request(reqwest::Method::GET, None, None);
    sent.push(("Origin".into(), FOREIGN_ORIGIN.into()));
    let builder = builder
        .header("Origin", FOREIGN_ORIGIN)
        .header(ACCEPT, "text/event-stream")
        .header(CACHE_CONTROL, "no-cache");
    let mut fact = endpoint.fact("GET", Carried::Nothing, None);
    fact.sent = sent;
    let timeout = endpoint.timeout;
    let mut response = match tokio::time::timeout(timeout, builder.send()).await {
        Ok(Ok(response)) => response,
        Ok(Err(e)) => {
            fact.error = Some(error_text(&e));
            return fact;
        }
        Err(_) => {
            fact.error = Some(format!(
                "no response headers within {:.1} s",
                timeout.as_secs_f64()
            ));
            return fact;
        }
    };
    fact.read_head(&response);
    match tokio::time::timeout(timeout, response.chunk()).await {
        Ok(Ok(Some(chunk))) => {
            fact.body_bytes = chunk.len();
            let head = &chunk[..chunk.len().min(BODY_HEAD)];
            fact.body_head = String::from_utf8_lossy(head).into_owned();
        }
        Ok(Ok(None)) => {}
        Ok(Err(e)) => fact.error = Some(format!("body cut: {}", error_text(&e))),
        Err(_) => fact.error = Some("no body within the timeout".into()),
    }
    fact
}
