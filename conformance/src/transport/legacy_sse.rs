//! A server reached over 2024-11-05's HTTP+SSE transport (2024-11-05 transports.mdx, HTTP
//! with SSE), presented to the session with the same shape as a stdio child or a
//! Streamable HTTP endpoint: lines go in, events come out, so every scenario and check of
//! 2024-11-05 runs unchanged.
//!
//! The transport opens one GET to the SSE URL the user named (`Accept: text/event-stream`
//! and the user's headers) and waits, bounded by the session timeout, for the `endpoint`
//! event: a URI, resolved against the SSE URL, where every message is POSTed. An endpoint on
//! another scheme, host or port is refused (only the host the user named is contacted; a
//! loopback server that names itself `localhost` is taken at the loopback address given).
//! Server messages come back as `message` events on the GET stream and become
//! [`TransportEvent::Stdout`] frames; the body of a POST's answer is evidence only (servers
//! answer 202 "Accepted"). Each POST is kept as an [`HttpFact`], and the stream's events as
//! [`SseEvent`]s for the `sse-*` checks ([`SseStream`]).
//!
//! A lenient client, so that one broken rule does not hide the others: an event that is not
//! `endpoint` before the endpoint is recorded (the check judges it) and the endpoint is
//! still waited for; a JSON message under another event type is passed on (and judged).
//! Bounded like the HTTP transport: connect and header timeouts, the endpoint waited for at
//! most the timeout, lines and events capped at the line cap (the SSE decoder), frames held
//! to one byte budget, POST bodies read only to a short head. The GET stream may idle
//! (nothing to say is normal); a request that gets no answer is the session's timeout.
//! Ending the transport closes the stream.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use reqwest::header::{HeaderMap, ACCEPT, CACHE_CONTROL, CONTENT_TYPE};
use serde_json::Value;
use tokio::sync::{mpsc, watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::{AbortHandle, JoinSet};
use tokio::time::Instant;

use super::connection::{Connection, Pending};
use super::fact::{error_text, is_media, BODY_HEAD};
use super::fact::{Carried, HttpFact, HttpTarget};
use super::framing::Frame;
use super::http::{client, forward, MAX_IN_FLIGHT};
use super::inbox::Inbox;
use super::sse::SseDecoder;
use super::sse_record::{SseEvent, SseStream, MAX_EVENTS};
use super::stdio::{ExitInfo, TransportEvent};
use crate::errors::{Error, Result};

/// POST facts kept per session; later ones are counted only.
const MAX_FACTS: usize = 4096;
/// Bytes of a POST answer's body read (it carries no message).
const MAX_POST_BODY: usize = 64 * 1024;

#[derive(Debug, Default)]
struct Shared {
    stream: SseStream,
    posts: Vec<HttpFact>,
    posts_dropped: u64,
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    // Every update is a push or one field: a panicking task leaves nothing half-written.
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

/// Where POSTs go, once the stream said.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Endpoint {
    Waiting,
    Ready(reqwest::Url),
    Failed,
}

/// What the stream reader and the POST tasks share.
#[derive(Debug, Clone)]
struct Link {
    client: reqwest::Client,
    headers: HeaderMap,
    timeout: Duration,
    shared: Arc<Mutex<Shared>>,
    tx: mpsc::Sender<TransportEvent>,
    budget: Arc<Semaphore>,
}

impl Link {
    /// Hands a frame to the session within the byte budget; `false` once it is gone.
    async fn forward(&self, frame: Frame) -> bool {
        forward(&self.budget, &self.tx, frame, None).await
    }

    async fn note(&self, note: String) {
        let _ = self.tx.send(TransportEvent::Note(note)).await;
    }

    fn fact(&self, method: &'static str, url: &reqwest::Url, carried: Carried) -> HttpFact {
        // The query's keys are kept, their values (a fresh session id, as a rule) are not:
        // the evidence stays the same from run to run.
        let path = match url.query() {
            Some(query) => {
                let keys: Vec<String> = query
                    .split('&')
                    .map(|kv| match kv.split_once('=') {
                        Some((key, _)) => format!("{key}=…"),
                        None => kv.to_string(),
                    })
                    .collect();
                format!("{}?{}", url.path(), keys.join("&"))
            }
            None => url.path().to_string(),
        };
        HttpFact {
            method,
            path,
            carried,
            rpc_method: None,
            rpc_id: None,
            sent: self
                .headers
                .keys()
                .map(|k| (k.as_str().to_string(), "<redacted>".to_string()))
                .collect(),
            status: None,
            content_type: None,
            session_id: None,
            location: None,
            body_bytes: 0,
            body_head: String::new(),
            error: None,
        }
    }
}

/// A 2024-11-05 HTTP+SSE session with a server, shaped like [`super::StdioTransport`].
#[derive(Debug)]
pub struct SseTransport {
    link: Link,
    endpoint: watch::Receiver<Endpoint>,
    inbox: Inbox,
    in_flight: Arc<Semaphore>,
    posts: JoinSet<()>,
    reader: AbortHandle,
    closed: bool,
}

impl SseTransport {
    /// Opens the SSE stream of `target` (in the background: the endpoint is waited for by
    /// the first write). Needs a Tokio runtime.
    pub fn connect(target: &HttpTarget, timeout: Duration, max_line: usize) -> Result<Self> {
        let url = target.parsed_url()?;
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|e| Error::Runtime(std::io::Error::other(e)))?;
        let (tx, inbox, max_line) = Inbox::channel(max_line);
        let link = Link {
            client: client(target, timeout)?,
            headers: target.header_map()?,
            timeout,
            shared: Arc::default(),
            tx,
            budget: inbox.budget.clone(),
        };
        let (set, endpoint) = watch::channel(Endpoint::Waiting);
        let reader = runtime
            .spawn(read_stream(link.clone(), url, max_line, set))
            .abort_handle();
        Ok(Self {
            link,
            endpoint,
            inbox,
            in_flight: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
            posts: JoinSet::new(),
            reader,
            closed: false,
        })
    }

    /// POSTs each line of `bytes` to the endpoint, waiting (up to `timeout`) for the
    /// endpoint and for each POST's answer head, so messages arrive in the order written.
    /// `false` once closed, or when no endpoint came.
    pub async fn send_line(&mut self, bytes: &[u8], timeout: Duration) -> bool {
        if self.closed {
            return false;
        }
        while self.posts.try_join_next().is_some() {}
        let Some(url) = self.endpoint(timeout).await else {
            return false;
        };
        for piece in bytes.split(|b| *b == b'\n').filter(|p| !p.is_empty()) {
            let slot = tokio::time::timeout(timeout, self.in_flight.clone().acquire_owned());
            let Ok(Ok(permit)) = slot.await else {
                return false;
            };
            let (answered, head) = tokio::sync::oneshot::channel();
            let post = post(self.link.clone(), url.clone(), piece.to_vec(), answered);
            self.posts.spawn(async move {
                let _slot: OwnedSemaphorePermit = permit;
                post.await;
            });
            let _ = tokio::time::timeout(timeout, head).await;
        }
        true
    }

    /// The URI messages are POSTed to, once the stream named it (waited for up to
    /// `timeout`); `None` when no usable endpoint came.
    pub(crate) async fn endpoint(&mut self, timeout: Duration) -> Option<reqwest::Url> {
        let ready =
            tokio::time::timeout(timeout, self.endpoint.wait_for(|e| *e != Endpoint::Waiting));
        match &*ready.await.ok()?.ok()? {
            Endpoint::Ready(url) => Some(url.clone()),
            _ => None,
        }
    }

    /// Next event (`None` never comes: a stream that ends says so with `StdoutClosed`).
    pub async fn next_event(&mut self) -> Option<TransportEvent> {
        self.inbox.next().await
    }

    /// An event already waiting.
    pub fn try_next_event(&mut self) -> Option<TransportEvent> {
        self.inbox.try_next()
    }

    /// Nothing more is POSTed.
    pub fn close(&mut self) {
        self.closed = true;
    }

    /// The POSTs so far (at most [`MAX_FACTS`]), and how many more were not kept.
    pub fn facts(&self) -> (Vec<HttpFact>, u64) {
        let shared = lock(&self.link.shared);
        (shared.posts.clone(), shared.posts_dropped)
    }

    /// What the SSE stream showed so far.
    pub fn stream(&self) -> SseStream {
        lock(&self.link.shared).stream.clone()
    }

    /// Ends the session like a stopped process: the stream is closed, POSTs still running
    /// are dropped, and an exit with no status comes back.
    pub async fn terminate(&mut self) -> ExitInfo {
        self.closed = true;
        self.posts.abort_all();
        self.reader.abort();
        ExitInfo {
            code: None,
            signal: None,
            killed_by_harness: false,
            ended: None,
        }
    }
}

impl Connection for SseTransport {
    fn send_line<'a>(&'a mut self, line: &'a [u8], timeout: Duration) -> Pending<'a, bool> {
        Box::pin(SseTransport::send_line(self, line, timeout))
    }

    fn next_event(&mut self) -> Pending<'_, Option<TransportEvent>> {
        Box::pin(SseTransport::next_event(self))
    }

    fn try_next_event(&mut self) -> Option<TransportEvent> {
        SseTransport::try_next_event(self)
    }

    fn close(&mut self) {
        SseTransport::close(self);
    }

    fn terminate(&mut self, _grace: Duration) -> Pending<'_, ExitInfo> {
        Box::pin(SseTransport::terminate(self))
    }

    fn is_remote(&self) -> bool {
        true
    }

    fn facts(&self) -> (Vec<HttpFact>, u64) {
        SseTransport::facts(self)
    }

    fn sse_stream(&self) -> Option<SseStream> {
        Some(self.stream())
    }
}

impl Drop for SseTransport {
    fn drop(&mut self) {
        // The JoinSet aborts the POSTs; the reader holds the stream open until aborted.
        self.reader.abort();
        self.link.budget.close();
    }
}

/// The endpoint URI resolved against the SSE URL, or why it is not used.
fn resolve(sse: &reqwest::Url, data: &str) -> std::result::Result<reqwest::Url, (String, bool)> {
    let mut url = sse.join(data.trim()).map_err(|e| {
        (
            format!("the endpoint event's data {data:?} is no URI: {e}"),
            false,
        )
    })?;
    // A loopback server naming itself `localhost` while the user named 127.0.0.1 (or the
    // other way round) means the same server: the host the user named is kept.
    if url.host_str() != sse.host_str() && is_loopback(&url) && is_loopback(sse) {
        let _ = url.set_host(sse.host_str());
    }
    let same = url.scheme() == sse.scheme()
        && url.host_str() == sse.host_str()
        && url.port_or_known_default() == sse.port_or_known_default();
    if !same {
        return Err((
            format!(
                "the endpoint {url} is on another host than the SSE URL; only the host given is contacted"
            ),
            true,
        ));
    }
    Ok(url)
}

fn is_loopback(url: &reqwest::Url) -> bool {
    let host = url.host_str().unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn frame_text(frame: &Frame) -> (String, bool) {
    match frame {
        Frame::Line(text) => (
            text.chars().take(BODY_HEAD).collect(),
            serde_json::from_str::<Value>(text).is_ok(),
        ),
        Frame::InvalidUtf8(bytes) => (format!("({} bytes, not UTF-8)", bytes.len()), false),
        Frame::Overlong { length, .. } => (format!("(over {} bytes: cut)", length - 1), false),
    }
}

/// Reads the SSE stream for the life of the transport: the endpoint first, then messages.
async fn read_stream(
    link: Link,
    url: reqwest::Url,
    max_line: usize,
    endpoint: watch::Sender<Endpoint>,
) {
    let deadline = Instant::now() + link.timeout;
    let mut reader = Reader {
        link,
        url,
        endpoint,
        have_endpoint: false,
    };
    let Some(response) = reader.open(deadline).await else {
        return;
    };
    let Some(ended) = reader.read(response, max_line, deadline).await else {
        return;
    };
    reader.finish(ended).await;
}

/// The stream reader: the link, the SSE URL, where the endpoint is announced to the
/// writers, and whether the stream named it yet.
struct Reader {
    link: Link,
    url: reqwest::Url,
    endpoint: watch::Sender<Endpoint>,
    have_endpoint: bool,
}

impl Reader {
    /// The GET of the stream, its head recorded; `None` (the failure recorded and noted)
    /// where it got no answer by `deadline` or the answer is no event stream.
    async fn open(&self, deadline: Instant) -> Option<reqwest::Response> {
        let link = &self.link;
        let timeout = link.timeout;
        let mut fact = link.fact("GET", &self.url, Carried::Nothing);
        let request = link
            .client
            .get(self.url.clone())
            .headers(link.headers.clone())
            .header(ACCEPT, "text/event-stream")
            .header(CACHE_CONTROL, "no-cache");
        let mut response = match tokio::time::timeout_at(deadline, request.send()).await {
            Ok(Ok(response)) => response,
            Ok(Err(e)) => {
                fact.error = Some(error_text(&e));
                let why = self.fail(fact, "the GET of the SSE stream failed".into());
                link.note(why).await;
                return None;
            }
            Err(_) => {
                fact.error = Some(format!(
                    "no response headers within {:.1} s",
                    timeout.as_secs_f64()
                ));
                let why = self.fail(fact, "the GET of the SSE stream got no answer".into());
                link.note(why).await;
                return None;
            }
        };
        fact.read_head(&response);
        let ok = response.status().is_success();
        if !ok || !is_media(fact.content_type.as_deref(), "text/event-stream") {
            if let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(deadline, response.chunk()).await {
                fact.body_bytes = chunk.len();
                fact.body_head =
                    String::from_utf8_lossy(&chunk[..chunk.len().min(BODY_HEAD)]).into();
            }
            let note = fact.describe();
            let why = self.fail(
                fact,
                "the GET of the SSE stream opened no event stream".into(),
            );
            link.note(format!("{note}: {why}")).await;
            return None;
        }
        link.note(fact.describe()).await;
        lock(&link.shared).stream.get = Some(fact);
        Some(response)
    }

    /// Records the GET that opened no stream and why, and tells the writers no endpoint
    /// will come; gives `why` back for the note.
    fn fail(&self, fact: HttpFact, why: String) -> String {
        let mut shared = lock(&self.link.shared);
        shared.stream.get = Some(fact);
        shared.stream.no_endpoint = Some(why.clone());
        self.endpoint.send_replace(Endpoint::Failed);
        why
    }

    /// Reads events until the stream ends, and says how it ended; `None` where reading
    /// stopped first (no endpoint by `deadline`, or the session gone).
    async fn read(
        &mut self,
        mut response: reqwest::Response,
        max_line: usize,
        deadline: Instant,
    ) -> Option<String> {
        let mut decoder = SseDecoder::new(max_line);
        let mut events = Vec::new();
        loop {
            let chunk = if self.have_endpoint {
                // An idle stream is normal once the endpoint came.
                response.chunk().await
            } else {
                match tokio::time::timeout_at(deadline, response.chunk()).await {
                    Ok(read) => read,
                    Err(_) => {
                        self.no_endpoint_in_time().await;
                        return None;
                    }
                }
            };
            let chunk = match chunk {
                Ok(Some(chunk)) => chunk,
                Ok(None) => return Some("the server ended the SSE stream".to_string()),
                Err(e) => return Some(format!("the SSE stream broke: {}", error_text(&e))),
            };
            decoder.push_events(&chunk, &mut events);
            for (event, frame) in events.drain(..) {
                if !self.take(event, frame).await {
                    return None;
                }
            }
        }
    }

    /// Gives up on the endpoint once the timeout passed without it.
    async fn no_endpoint_in_time(&self) {
        let why = format!(
            "no endpoint event within {:.1} s; stopped reading",
            self.link.timeout.as_secs_f64()
        );
        lock(&self.link.shared).stream.no_endpoint = Some(why.clone());
        self.endpoint.send_replace(Endpoint::Failed);
        self.link.note(format!("SSE stream: {why}")).await;
    }

    /// Records one event and acts on it: the first `endpoint` event says where POSTs go, a
    /// message goes to the session; `false` once the session is gone.
    async fn take(&mut self, event: String, frame: Frame) -> bool {
        let (data_head, json) = frame_text(&frame);
        {
            let mut shared = lock(&self.link.shared);
            if shared.stream.events.len() < MAX_EVENTS {
                shared.stream.events.push(SseEvent {
                    event: event.clone(),
                    data_head,
                    json,
                    after_endpoint: self.have_endpoint,
                });
            } else {
                shared.stream.events_dropped += 1;
            }
        }
        if event == "endpoint" {
            if !self.have_endpoint {
                self.have_endpoint = true;
                self.set_endpoint(&frame).await;
            }
            return true;
        }
        // Server messages are `message` events; a JSON message under another type is
        // passed on too (the check judges the type), other events are not messages.
        if event == "message" || json {
            return self.link.forward(frame).await;
        }
        true
    }

    /// The first `endpoint` event: its URI resolved and announced to the writers, or why
    /// it is not used recorded.
    async fn set_endpoint(&self, frame: &Frame) {
        let Frame::Line(data) = frame else {
            let why = "the endpoint event's data is not a URI".to_string();
            lock(&self.link.shared).stream.no_endpoint = Some(why);
            self.endpoint.send_replace(Endpoint::Failed);
            return;
        };
        match resolve(&self.url, data) {
            Ok(post_to) => {
                lock(&self.link.shared).stream.endpoint = Some(post_to.to_string());
                self.link.note(format!("SSE endpoint: {post_to}")).await;
                self.endpoint.send_replace(Endpoint::Ready(post_to));
            }
            Err((why, refused)) => {
                self.link.note(format!("SSE stream: {why}")).await;
                let mut shared = lock(&self.link.shared);
                shared.stream.no_endpoint = Some(why);
                shared.stream.refused = refused;
                drop(shared);
                self.endpoint.send_replace(Endpoint::Failed);
            }
        }
    }

    /// The stream ended (`ended` says how): recorded, the writers told if no endpoint came,
    /// and the session told the stream closed.
    async fn finish(&self, ended: String) {
        {
            let mut shared = lock(&self.link.shared);
            shared.stream.ended = Some(ended.clone());
            if !self.have_endpoint {
                shared.stream.no_endpoint = Some(format!("{ended} before an endpoint event"));
            }
        }
        self.endpoint.send_if_modified(|e| {
            let waiting = *e == Endpoint::Waiting;
            if waiting {
                *e = Endpoint::Failed;
            }
            waiting
        });
        self.link.note(ended).await;
        let _ = self.link.tx.send(TransportEvent::StdoutClosed).await;
    }
}

/// One POST of one message to the endpoint; `answered` is told when its head came (or it
/// failed). Its body is read only as evidence.
async fn post(
    link: Link,
    url: reqwest::Url,
    body: Vec<u8>,
    answered: tokio::sync::oneshot::Sender<()>,
) {
    let message: Option<Value> = serde_json::from_slice(&body).ok();
    let mut fact = link.fact("POST", &url, Carried::of(message.as_ref()));
    fact.rpc_method = message
        .as_ref()
        .and_then(|m| m.get("method"))
        .and_then(Value::as_str)
        .map(str::to_string);
    fact.rpc_id = message
        .as_ref()
        .filter(|m| Carried::of(Some(m)) == Carried::Request)
        .and_then(|m| m.get("id"))
        .cloned();
    let request = link
        .client
        .post(url)
        .headers(link.headers.clone())
        .header(CONTENT_TYPE, "application/json")
        .body(body);
    let timeout = link.timeout;
    match tokio::time::timeout(timeout, request.send()).await {
        Ok(Ok(mut response)) => {
            fact.read_head(&response);
            let _ = answered.send(());
            let deadline = Instant::now() + timeout;
            let mut head = Vec::new();
            while fact.body_bytes < MAX_POST_BODY {
                match tokio::time::timeout_at(deadline, response.chunk()).await {
                    Ok(Ok(Some(chunk))) => {
                        fact.body_bytes += chunk.len();
                        let room = BODY_HEAD.saturating_sub(head.len());
                        head.extend_from_slice(&chunk[..room.min(chunk.len())]);
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
            fact.body_head = String::from_utf8_lossy(&head).into_owned();
        }
        Ok(Err(e)) => fact.error = Some(error_text(&e)),
        Err(_) => {
            fact.error = Some(format!(
                "no response headers within {:.1} s",
                timeout.as_secs_f64()
            ))
        }
    }
    let note = fact.describe();
    {
        let mut shared = lock(&link.shared);
        if shared.posts.len() < MAX_FACTS {
            shared.posts.push(fact);
        } else {
            shared.posts_dropped += 1;
        }
    }
    link.note(note).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_resolves_against_the_sse_url_and_stays_on_its_host() {
        let sse = reqwest::Url::parse("http://127.0.0.1:9/sse").unwrap();
        let ok = resolve(&sse, "/messages?session=1").unwrap();
        assert_eq!(ok.as_str(), "http://127.0.0.1:9/messages?session=1");
        let rel = resolve(&sse, "messages/?id=x").unwrap();
        assert_eq!(rel.as_str(), "http://127.0.0.1:9/messages/?id=x");
        let named = resolve(&sse, "http://localhost:9/m?s=1").unwrap();
        assert_eq!(named.as_str(), "http://127.0.0.1:9/m?s=1");
        for other in [
            "http://evil.test:9/m",
            "http://localhost:10/m",
            "http://127.0.0.1:10/m",
            "https://127.0.0.1:9/m",
        ] {
            let (why, refused) = resolve(&sse, other).unwrap_err();
            assert!(refused, "{other}: {why}");
        }
    }
}
