//! Telling a 2024-11-05 HTTP+SSE server from a Streamable HTTP one when the user did not
//! say (`--url` without `--transport`), as the backwards-compatible clients of 2025-03-26
//! transports.mdx (Backwards Compatibility) do: POST an `initialize` to the URL; if that
//! fails with 400, 404 or 405 (and the body is not a JSON-RPC error, which a Streamable HTTP
//! server refusing the request would send), GET the URL expecting an event stream whose
//! first event is `endpoint`.
//!
//! Bounded by the timeout at every step; a session a Streamable HTTP server opened for the
//! `initialize` is DELETEd again. Any doubt answers "not SSE": the run then goes on over
//! Streamable HTTP as before, and its findings show what went wrong.

use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE};
use serde_json::{json, Value};
use tokio::time::Instant;

use crate::transport::{client, is_media, HttpTarget, SseDecoder, SESSION_HEADER};

/// Body bytes read from the POST's answer.
const BODY_CAP: usize = 64 * 1024;

/// Whether `target` is an HTTP+SSE stream (see the module doc).
pub async fn speaks_sse(target: &HttpTarget, timeout: Duration) -> bool {
    let (Ok(url), Ok(headers), Ok(client)) = (
        target.parsed_url(),
        target.header_map(),
        client(target, timeout),
    ) else {
        return false;
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
        return false;
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
        return false;
    }
    if !matches!(status, 400 | 404 | 405) {
        return false;
    }
    let mut body = Vec::new();
    while body.len() < BODY_CAP {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => body.extend_from_slice(&chunk),
            _ => break,
        }
    }
    let rpc_error = serde_json::from_slice::<Value>(&body)
        .is_ok_and(|m| m.get("jsonrpc").is_some() && m.get("error").is_some());
    if rpc_error {
        return false;
    }
    first_event_is_endpoint(&client, url, headers, timeout).await
}

async fn first_event_is_endpoint(
    client: &reqwest::Client,
    url: reqwest::Url,
    headers: reqwest::header::HeaderMap,
    timeout: Duration,
) -> bool {
    let get = client
        .get(url)
        .headers(headers)
        .header(ACCEPT, "text/event-stream");
    let deadline = Instant::now() + timeout;
    let Ok(Ok(mut response)) = tokio::time::timeout_at(deadline, get.send()).await else {
        return false;
    };
    let content_type = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    if !response.status().is_success() || !is_media(content_type.as_deref(), "text/event-stream") {
        return false;
    }
    let mut decoder = SseDecoder::new(BODY_CAP);
    let mut events = Vec::new();
    // The stream is dropped (closed) on return: the run opens its own.
    loop {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => {
                decoder.push_events(&chunk, &mut events);
                if let Some((event, _)) = events.first() {
                    return event == "endpoint";
                }
            }
            _ => return false,
        }
    }
}
