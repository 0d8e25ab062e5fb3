//! Telling a 2024-11-05 HTTP+SSE server from a Streamable HTTP one when the user did not
//! say (`--url` without `--transport`), as the backwards-compatible clients of 2025-03-26
//! transports.mdx (Backwards Compatibility) do: POST an `initialize` to the URL; if that
//! fails with 400, 404 or 405 (and the body is not a JSON-RPC error, which a Streamable HTTP
//! server refusing the request would send), GET the URL expecting an event stream whose
//! first event is `endpoint`.
//!
//! The same two requests tell a URL at which nothing serves MCP: 404 Not Found to the POST
//! (not a JSON-RPC error) and to the GET is a wrong path, a setup error said at once
//! rather than a minute of findings.
//!
//! Bounded by the timeout at every step; a session a Streamable HTTP server opened for the
//! `initialize` is DELETEd again. Any doubt answers "Streamable HTTP": the run then goes on
//! as before, and its findings show what went wrong.

use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE};
use serde_json::{json, Value};
use tokio::time::Instant;

use crate::transport::{client, is_media, HttpTarget, SseDecoder, SESSION_HEADER};

/// Body bytes read from the POST's answer.
const BODY_CAP: usize = 64 * 1024;

/// What a URL is, to the two requests of the module doc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlKind {
    /// A 2024-11-05 HTTP+SSE stream.
    Sse,
    /// Anything else: Streamable HTTP, or in doubt.
    Streamable,
    /// 404 Not Found to both requests: nothing serves MCP at that path (why, in words).
    Missing(String),
}

/// What `target` is (see the module doc).
pub async fn probe_url(target: &HttpTarget, timeout: Duration) -> UrlKind {
    let (Ok(url), Ok(headers), Ok(client)) = (
        target.parsed_url(),
        target.header_map(),
        client(target, timeout),
    ) else {
        return UrlKind::Streamable;
    };
    let initialize = json!({
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-03-26",
            "capabilities": {},
            "clientInfo": {"name": "mcp-conformance", "version": env!("CARGO_PKG_VERSION")}
        }
    });
    let post = client
        .post(url.clone())
        .headers(headers.clone())
        .header(ACCEPT, "application/json, text/event-stream")
        .header(CONTENT_TYPE, "application/json")
        .body(initialize.to_string());
    let deadline = Instant::now() + timeout;
    let Ok(Ok(mut response)) = tokio::time::timeout_at(deadline, post.send()).await else {
        return UrlKind::Streamable;
    };
    let status = response.status().as_u16();
    if response.status().is_success() {
        if let Some(session) = response.headers().get(SESSION_HEADER).cloned() {
            drop(response);
            let delete = client
                .delete(url)
                .headers(headers)
                .header(SESSION_HEADER, session);
            let _ = tokio::time::timeout(timeout, delete.send()).await;
        }
        return UrlKind::Streamable;
    }
    if !matches!(status, 400 | 404 | 405) {
        return UrlKind::Streamable;
    }
    let mut body = Vec::new();
    while body.len() < BODY_CAP {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => body.extend_from_slice(&chunk),
            _ => break,
        }
    }
    if holds_rpc_error(&body) {
        return UrlKind::Streamable;
    }
    match get_stream(&client, url, headers, timeout).await {
        Got::Endpoint => UrlKind::Sse,
        Got::NotFound if status == 404 => UrlKind::Missing(
            "it answered 404 Not Found to a POST of initialize and to a GET: nothing serves \
             MCP at that path; is the path right? (Streamable HTTP servers often serve /mcp, \
             HTTP+SSE ones /sse)"
                .to_string(),
        ),
        Got::Other | Got::NotFound => UrlKind::Streamable,
    }
}

/// [`probe_url`] again while the answer is [`UrlKind::Missing`], until `patience` has
/// passed: a server this process just started may accept connections before its routes
/// are mounted.
pub async fn probe_url_patiently(
    target: &HttpTarget,
    timeout: Duration,
    patience: Duration,
) -> UrlKind {
    let give_up = Instant::now() + patience;
    loop {
        let kind = probe_url(target, timeout).await;
        if !matches!(kind, UrlKind::Missing(_)) || Instant::now() >= give_up {
            return kind;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Whether a body is a JSON-RPC error, as JSON or as an SSE event's `data:` (a Streamable
/// HTTP server may frame its refusal either way): a server refusing the request, not a
/// path that serves nothing.
fn holds_rpc_error(body: &[u8]) -> bool {
    let is_error = |text: &[u8]| {
        serde_json::from_slice::<Value>(text)
            .is_ok_and(|m| m.get("jsonrpc").is_some() && m.get("error").is_some())
    };
    is_error(body)
        || body.split(|b| *b == b'\n').any(|line| {
            line.strip_prefix(b"data:")
                .is_some_and(|data| is_error(data.trim_ascii()))
        })
}

/// What a GET of the URL gave.
enum Got {
    /// An event stream whose first event is `endpoint`.
    Endpoint,
    /// 404 Not Found.
    NotFound,
    /// Anything else.
    Other,
}

async fn get_stream(
    client: &reqwest::Client,
    url: reqwest::Url,
    headers: reqwest::header::HeaderMap,
    timeout: Duration,
) -> Got {
    let get = client
        .get(url)
        .headers(headers)
        .header(ACCEPT, "text/event-stream");
    let deadline = Instant::now() + timeout;
    let Ok(Ok(mut response)) = tokio::time::timeout_at(deadline, get.send()).await else {
        return Got::Other;
    };
    if response.status() == reqwest::StatusCode::NOT_FOUND {
        return Got::NotFound;
    }
    let content_type = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    if !response.status().is_success() || !is_media(content_type.as_deref(), "text/event-stream") {
        return Got::Other;
    }
    let mut decoder = SseDecoder::new(BODY_CAP);
    let mut events = Vec::new();
    // The stream is dropped (closed) on return: the run opens its own.
    loop {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => {
                decoder.push_events(&chunk, &mut events);
                if let Some((event, _)) = events.first() {
                    return if event == "endpoint" {
                        Got::Endpoint
                    } else {
                        Got::Other
                    };
                }
            }
            _ => return Got::Other,
        }
    }
}
