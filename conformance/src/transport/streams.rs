//! Which stream carried each JSON-RPC response, and the optional GET stream
//! (transports.mdx 2025-03-26 to 2025-11-25, Listening for Messages from the Server,
//! Multiple Connections).
//!
//! Over Streamable HTTP a response must arrive once, on the stream of the POST that
//! carried its request, and never on the GET stream (unless resuming a stream). A POST
//! stream the client resumed (`http.rs`) stays one record: what came on each connection
//! of it counts as carried by that stream. Those rules are about *where* a message came, which the session (it sees one
//! flow of frames, as on stdio) cannot know: so the transport keeps a [`StreamRecord`] per
//! request POST and per GET stream, listing the ids of the responses each carried, for
//! the HTTP checks.
//!
//! The GET stream is opened once the session is established (right after
//! `notifications/initialized` was accepted). 405 means the server offers none, which is
//! a fact, not a fault. An SSE answer is read in the background with the POST streams'
//! bounds (events capped at the line cap, frames held to the session's byte budget) but no
//! idle timeout: a GET stream may stay quiet for as long as it likes. It ends when the
//! server closes it or the session ends (the transport aborts it before its DELETE).
//! Requests and notifications on it are passed to the session like any other frame (a
//! server request there is answered by the session's fixed policy, as on stdio); a
//! response on it is evidence only and is not passed on, so a server that broadcasts a
//! response on two streams cannot make the session see it twice.

use std::sync::Arc;

use reqwest::header::ACCEPT;
use serde_json::Value;
use tokio::sync::{mpsc, Semaphore};

use super::fact::{error_text, is_media, Carried};
use super::framing::Frame;
use super::http::{forward, Endpoint};
use super::sse::SseDecoder;
use super::stdio::TransportEvent;

/// Response ids kept per stream; later ones are counted only.
pub(super) const MAX_RESPONSES_PER_STREAM: usize = 16;

/// Which kind of stream carried messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StreamKind {
    /// The answer to a POST that carried a request.
    Post,
    /// The GET stream the client opened to listen.
    Get,
}

/// One stream of an HTTP session and the responses it carried.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StreamRecord {
    /// POST or GET.
    pub kind: StreamKind,
    /// The id of the request the POST carried (`None` for the GET stream).
    pub request_id: Option<Value>,
    /// The JSON-RPC method the POST carried.
    pub rpc_method: Option<String>,
    /// The ids of the responses the stream carried, in arrival order (at most
    /// `MAX_RESPONSES_PER_STREAM`; a response with a `null` id is not listed: it answers
    /// a message whose id could not be read, which is the JSON-RPC checks' business).
    pub responses: Vec<Value>,
    /// Responses past the cap, counted only.
    pub responses_dropped: u64,
    /// Whether the stream opened with a priming event (an event id and empty data;
    /// 2025-11-25); `None` when it carried no event (a JSON body, or nothing).
    pub primed: Option<bool>,
    /// Times the server closed the stream's connection before the response.
    pub closed_early: u32,
    /// Times the server closed the stream's connection before the response and the client
    /// resumed it (GET with `Last-Event-ID`).
    pub resumed: u32,
    /// Times the server closed the connection before the response with no `retry` field
    /// sent on the stream first.
    pub closed_without_retry: u32,
}

impl StreamRecord {
    pub(super) fn new(kind: StreamKind, request_id: Option<Value>, rpc: Option<String>) -> Self {
        Self {
            kind,
            request_id,
            rpc_method: rpc,
            responses: Vec::new(),
            responses_dropped: 0,
            primed: None,
            closed_early: 0,
            resumed: 0,
            closed_without_retry: 0,
        }
    }

    /// `POST (tools/list, id 3)` or `GET`.
    pub fn describe(&self) -> String {
        match self.kind {
            StreamKind::Get => "the GET stream".into(),
            StreamKind::Post => format!(
                "the POST stream of {} (id {}){}",
                self.rpc_method.as_deref().unwrap_or("a request"),
                self.request_id
                    .as_ref()
                    .map_or_else(|| "none".to_string(), Value::to_string),
                match self.resumed {
                    0 => String::new(),
                    n => format!(", resumed {n} time(s) with Last-Event-ID"),
                }
            ),
        }
    }
}

/// The JSON-RPC responses a frame carries (one message, or a batch's array): `None` when
/// it carries none, else their ids with `null` ids left out.
pub(super) fn response_ids(frame: &Frame) -> Option<Vec<Value>> {
    let Frame::Line(text) = frame else {
        return None;
    };
    let message = serde_json::from_str::<Value>(text).ok()?;
    let messages = match message {
        Value::Array(items) => items,
        other => vec![other],
    };
    let responses: Vec<Value> = messages
        .into_iter()
        .filter(|m| m.get("result").is_some() || m.get("error").is_some())
        .collect();
    if responses.is_empty() {
        return None;
    }
    Some(
        responses
            .into_iter()
            .filter_map(|m| m.get("id").cloned())
            .filter(|id| !id.is_null())
            .collect(),
    )
}

/// The GET stream of one session.
pub(super) struct Listen {
    pub(super) endpoint: Endpoint,
    pub(super) tx: mpsc::Sender<TransportEvent>,
    pub(super) budget: Arc<Semaphore>,
    pub(super) max_line: usize,
}

impl Listen {
    /// Opens the GET stream and reads it until the server ends it (or the task is
    /// aborted at the session's end).
    pub(super) async fn run(self) {
        let (session, version) = self.endpoint.session();
        let (builder, sent) =
            self.endpoint
                .request(reqwest::Method::GET, session.as_deref(), version.as_deref());
        let mut fact = self.endpoint.fact("GET", Carried::Nothing, None);
        fact.sent = sent;
        let builder = builder.header(ACCEPT, "text/event-stream");
        let timeout = self.endpoint.timeout;
        let response = match tokio::time::timeout(timeout, builder.send()).await {
            Ok(Ok(response)) => Some(response),
            Ok(Err(e)) => {
                fact.error = Some(error_text(&e));
                None
            }
            Err(_) => {
                fact.error = Some(format!(
                    "no response headers within {:.1} s",
                    timeout.as_secs_f64()
                ));
                None
            }
        };
        if let Some(response) = &response {
            fact.read_head(response);
        }
        // Kept now: the stream may last until the session ends.
        let note = fact.describe();
        let streams = response
            .as_ref()
            .is_some_and(|r| r.status().as_u16() == 200)
            && is_media(fact.content_type.as_deref(), "text/event-stream");
        self.endpoint.keep(fact);
        let _ = self.tx.send(TransportEvent::Note(note)).await;
        let Some(mut response) = response.filter(|_| streams) else {
            return;
        };
        let stream = self
            .endpoint
            .open_stream(StreamRecord::new(StreamKind::Get, None, None));
        let mut decoder = SseDecoder::new(self.max_line);
        let mut frames = Vec::new();
        // No idle timeout: a GET stream may stay quiet (transports.mdx: the server MAY
        // send requests and notifications on it, whenever it likes).
        while let Ok(Some(chunk)) = response.chunk().await {
            decoder.push(&chunk, &mut frames);
            for frame in frames.drain(..) {
                // A priming event (empty data) is no message (see http.rs).
                if matches!(&frame, Frame::Line(text) if text.trim().is_empty()) {
                    continue;
                }
                if let Some(ids) = response_ids(&frame) {
                    self.endpoint.saw_responses(stream, &ids);
                    let note = format!(
                        "a response (ids: {}) came on the GET stream; not passed on",
                        ids.iter()
                            .map(Value::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    let _ = self.tx.send(TransportEvent::Note(note)).await;
                    continue;
                }
                if !forward(&self.budget, &self.tx, frame, None).await {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_ids_reads_single_messages_and_batches_and_skips_null_ids() {
        let line = |s: &str| Frame::Line(s.into());
        assert_eq!(
            response_ids(&line(r#"{"jsonrpc":"2.0","id":3,"result":{}}"#)),
            Some(vec![Value::from(3)])
        );
        assert_eq!(
            response_ids(&line(
                r#"[{"jsonrpc":"2.0","id":"a","error":{}},{"jsonrpc":"2.0","method":"x"}]"#
            )),
            Some(vec![Value::from("a")])
        );
        assert_eq!(
            response_ids(&line(r#"{"jsonrpc":"2.0","id":null,"error":{}}"#)),
            Some(vec![])
        );
        assert_eq!(
            response_ids(&line(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)),
            None
        );
        assert_eq!(response_ids(&Frame::InvalidUtf8(vec![0xff])), None);
    }
}
