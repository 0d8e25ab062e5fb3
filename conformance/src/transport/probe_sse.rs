//! The foreign-`Origin` probe over 2024-11-05's HTTP+SSE transport.
//!
//! 2024-11-05 transports.mdx, Security Warning: "Servers MUST validate the `Origin` header on
//! all incoming connections to prevent DNS rebinding attacks". HTTP+SSE has two kinds of
//! connection, so both are tried with `Origin: http://mcp-conformance.invalid`: the GET that
//! opens an SSE stream (a session), and a POST of `initialize` to the message endpoint of a
//! stream opened without an `Origin` (the endpoint is only learnt from a stream). The text
//! names no status code: each answer is recorded, and the check (`http-origin`) decides what
//! counts as refused. Apart from the Streamable HTTP probes ([`super::OriginProbe`]) because
//! it needs a stream of its own ([`super::SseTransport`]) to learn where to POST.

use std::time::Duration;

use reqwest::header::{ACCEPT, CACHE_CONTROL};
use serde_json::Value;

use super::fact::{error_text, is_media, Carried, HttpFact, HttpTarget, BODY_HEAD};
use super::http::Endpoint;
use super::legacy_sse::SseTransport;
use super::probe::{is_loopback, post_with, step, ProbeStep, EVIDENCE_CAP, FOREIGN_ORIGIN};

/// The two requests sent over HTTP+SSE with a foreign `Origin`, and what they got.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SseOriginProbe {
    /// The GET of the SSE URL with the foreign `Origin`.
    pub get: ProbeStep,
    /// The POST of `initialize` with the foreign `Origin` to the endpoint of a stream opened
    /// without one (`None` when that stream named no endpoint: see `no_post`).
    pub post: Option<ProbeStep>,
    /// Why the POST was not sent.
    pub no_post: Option<String>,
    /// Whether the target's host is a loopback address or `localhost` (a foreign web origin
    /// is invalid by construction there).
    pub loopback: bool,
}

impl SseOriginProbe {
    /// Whether the GET opened an event stream: a 2xx answer of type `text/event-stream`.
    /// Anything else (another status, another content type, no answer) is a refused stream.
    pub fn get_served(&self) -> bool {
        let fact = &self.get.fact;
        fact.status.is_some_and(|s| (200..300).contains(&s))
            && is_media(fact.content_type.as_deref(), "text/event-stream")
    }

    /// Whether the POST was accepted (a 2xx answer); `None` when it was not sent.
    pub fn post_served(&self) -> Option<bool> {
        let fact = &self.post.as_ref()?.fact;
        Some(fact.status.is_some_and(|s| (200..300).contains(&s)))
    }

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
