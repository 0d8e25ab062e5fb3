//! A server reached over Streamable HTTP (transports.mdx, 2025-03-26 to 2025-11-25),
//! presented to the session with the same shape as a stdio child: lines go in, events
//! come out.
//!
//! Each line the session writes is one JSON-RPC message, POSTed to the endpoint with
//! `Accept: application/json, text/event-stream`, the `Mcp-Session-Id` the server gave at
//! initialize, and (from 2025-06-18 on) the negotiated `MCP-Protocol-Version`. What comes
//! back (a JSON body, or an SSE stream of messages) becomes [`TransportEvent::Stdout`]
//! frames in arrival order, so the session loop, every scenario and every check run
//! unchanged. Each POST is also kept as an [`HttpFact`] (method, path, status, content type,
//! the headers that matter, user header values redacted) for evidence and the HTTP checks,
//! and noted in the transcript.
//!
//! Bounded like stdio: a connect timeout and a header timeout of the session timeout, a
//! body (or, on a stream, the gap between events) bounded by it too, bodies and SSE events
//! capped at the session's line cap, at most [`MAX_IN_FLIGHT`] POSTs at once, frames not
//! yet taken by the session held to one byte budget, no redirect followed and no proxy
//! used (only the host the user named is ever contacted). An SSE stream is read until it
//! carries the response to its POST's request; then its POST slot is freed and the rest of
//! the stream (until the server ends it, at most [`DRAIN_BYTES`] and the idle timeout, at
//! most [`MAX_IN_FLIGHT`] such streams at once) is read as evidence: a second copy of the
//! response there is recorded, not passed on. Which stream carried each response, and the
//! GET stream opened once the session is established, are in `streams.rs`. Dropping the
//! transport aborts every POST and the GET stream and DELETEs the session (best effort).
//!
//! A request's stream that the server ends before the response, after an event id, is
//! resumed (2025-03-26 to 2025-11-25, Resumability and Redelivery; 2025-11-25's polling):
//! the client waits the `retry` the stream carried ([`DEFAULT_RETRY`] when none; a retry
//! longer than the session timeout is not waited, and the fact says so), then GETs the
//! endpoint with `Last-Event-ID` and reads that stream as it read the POST's, up to
//! [`MAX_RESUMES`] times per request. What each connection carried counts for the one
//! stream (`streams.rs`), so a response replayed after it was delivered is a second copy.
//! 2026-07-28 removed resumption: its streams are never resumed.
//!
//! A modern request (2026-07-28: its `params._meta` names the protocol version) is POSTed
//! with no session id and with the request metadata headers its body mirrors
//! ([`super::mirror`]: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`).
//! Over modern HTTP `notifications/cancelled` is never POSTed: closing the request's
//! response stream is the cancellation (streamable-http.mdx, Cancellation), so the session's
//! cancellation of request X ends the POST carrying X, and a note says so. A
//! `subscriptions/listen` stream is long-lived: it is read without an idle bound until
//! the session cancels it or the transport ends.

use std::ops::Deref;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use reqwest::header::{HeaderMap, ACCEPT, CONTENT_TYPE};
use serde_json::Value;
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;

use super::connection::{Connection, Pending};
use super::fact::{content_type, error_text, is_media, BODY_HEAD};
use super::fact::{Carried, HttpFact, HttpTarget};
use super::framing::Frame;
use super::inbox::Inbox;
use super::mirror;
use super::sse::SseDecoder;
use super::stdio::{ExitInfo, TransportEvent};
use super::streams::{response_ids, Listen, StreamKind, StreamRecord, MAX_RESPONSES_PER_STREAM};
use crate::errors::{Error, Result};

/// The session header (transports.mdx, Session Management).
pub const SESSION_HEADER: &str = "mcp-session-id";
/// The version header (transports.mdx 2025-06-18, Protocol Version Header).
pub const VERSION_HEADER: &str = "mcp-protocol-version";
/// How long past the timeout a tool call's answer is still taken: a tenth of the timeout,
/// at least a second. A tool that runs as long as the timeout by design
/// (server-everything's ten-second operation at the default `--timeout 10`) answers a few
/// milliseconds past it, and without this window the scheduler would decide, run by run,
/// whether it answered. The session judges its own wait; an HTTP tool call's POST is read
/// this much longer so that a late answer can still arrive.
pub fn late_window(timeout: Duration) -> Duration {
    (timeout / 10).max(Duration::from_secs(1))
}

/// POSTs in flight at once; a write waits (up to the timeout) for a free slot.
pub const MAX_IN_FLIGHT: usize = 16;
/// HTTP facts kept per session; later ones are counted only.
const MAX_FACTS: usize = 4096;
/// Bytes of a POST stream read after its response (evidence of a second copy).
pub const DRAIN_BYTES: usize = 1024 * 1024;
/// Times one POST stream is resumed after the server closed its connection.
pub const MAX_RESUMES: u32 = 16;
/// The wait before resuming when the server sent no `retry` (the SSE standard leaves the
/// default reconnection time to the client).
const DEFAULT_RETRY: Duration = Duration::from_millis(500);
/// The header a resumption names the last event id in.
const LAST_EVENT_ID: &str = "last-event-id";

/// State the POST tasks share with the transport.
#[derive(Debug, Default)]
struct Shared {
    session_id: Option<String>,
    version: Option<String>,
    facts: Vec<HttpFact>,
    facts_dropped: u64,
    streams: Vec<StreamRecord>,
    streams_dropped: u64,
    /// The version of the first modern (2026-07-28) request sent: from then on every POST
    /// gets the metadata headers (and this version when its body names none: "every POST
    /// request ... MUST include an MCP-Protocol-Version header"), and cancellations close
    /// streams.
    modern: Option<String>,
    /// The POSTs sent and not yet kept, by ticket: what each had got so far, so that one
    /// still open when the session ends is kept saying so ([`Endpoint::close_open`]).
    open: Vec<(u64, HttpFact)>,
    next_ticket: u64,
}

/// Why a POST still open at the end of the session got no response (after "got").
pub(super) const STILL_OPEN: &str = "no response before the session was closed: the POST \
     was still open when the client ended the session";

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    // A panicking task cannot leave the state half-written: every update is one field.
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

/// What every request of one transport needs.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    pub(super) client: reqwest::Client,
    pub(crate) url: reqwest::Url,
    pub(super) headers: HeaderMap,
    shared: Arc<Mutex<Shared>>,
    pub(crate) timeout: Duration,
}

impl Endpoint {
    /// The endpoint of `target`, for requests outside a transport (probes).
    pub(crate) fn of(target: &HttpTarget, timeout: Duration) -> Result<Self> {
        Ok(Self {
            client: client(target, timeout)?,
            url: target.parsed_url()?,
            headers: target.header_map()?,
            shared: Arc::default(),
            timeout,
        })
    }

    /// The same endpoint with a client that writes header names in title case
    /// (`Mcp-Method`, `Mcp-Protocol-Version`) rather than in lower case: for the probe that
    /// a server matches header names case-insensitively.
    pub(crate) fn titled(target: &HttpTarget, timeout: Duration) -> Result<Self> {
        Ok(Self {
            client: finish(builder(target, timeout)?.http1_title_case_headers())?,
            ..Self::of(target, timeout)?
        })
    }

    /// A request with the user's headers and the session's, and the facts it records.
    pub(crate) fn request(
        &self,
        method: reqwest::Method,
        session: Option<&str>,
        version: Option<&str>,
    ) -> (reqwest::RequestBuilder, Vec<(String, String)>) {
        let mut builder = self
            .client
            .request(method, self.url.clone())
            .headers(self.headers.clone());
        let mut sent: Vec<(String, String)> = self
            .headers
            .keys()
            .map(|k| (k.as_str().to_string(), "<redacted>".to_string()))
            .collect();
        if let Some(id) = session {
            builder = builder.header(SESSION_HEADER, id);
            sent.push(("Mcp-Session-Id".into(), id.into()));
        }
        if let Some(version) = version {
            builder = builder.header(VERSION_HEADER, version);
            sent.push(("MCP-Protocol-Version".into(), version.into()));
        }
        (builder, sent)
    }

    /// A JSON-RPC message POSTed: [`Endpoint::request`], then `extra` headers, the
    /// `Accept` and `Content-Type` every message carries, and `body`. Returns the builder
    /// and the headers sent, for the record.
    pub(crate) fn post_message(
        &self,
        session: Option<&str>,
        version: Option<&str>,
        extra: impl IntoIterator<Item = (String, String)>,
        body: impl Into<reqwest::Body>,
    ) -> (reqwest::RequestBuilder, Vec<(String, String)>) {
        let (mut builder, mut sent) = self.request(reqwest::Method::POST, session, version);
        for (name, value) in extra {
            builder = builder.header(name.as_str(), value.as_str());
            sent.push((name, value));
        }
        let builder = builder
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json")
            .body(body);
        (builder, sent)
    }

    pub(crate) fn fact(
        &self,
        method: &'static str,
        carried: Carried,
        rpc: Option<String>,
    ) -> HttpFact {
        HttpFact {
            method,
            path: self.url.path().to_string(),
            carried,
            rpc_method: rpc,
            rpc_id: None,
            sent: Vec::new(),
            status: None,
            content_type: None,
            session_id: None,
            location: None,
            body_bytes: 0,
            body_head: String::new(),
            error: None,
        }
    }

    pub(super) fn keep(&self, fact: HttpFact) {
        push_fact(&mut lock(&self.shared), fact);
    }

    /// Registers a POST being sent (its fact so far); the ticket updates or keeps it.
    fn open(&self, fact: &HttpFact) -> u64 {
        let mut shared = lock(&self.shared);
        shared.next_ticket += 1;
        let ticket = shared.next_ticket;
        shared.open.push((ticket, fact.clone()));
        ticket
    }

    /// What an open POST has got so far (its response head).
    fn update_open(&self, ticket: u64, fact: &HttpFact) {
        let mut shared = lock(&self.shared);
        if let Some((_, open)) = shared.open.iter_mut().find(|(t, _)| *t == ticket) {
            *open = fact.clone();
        }
    }

    /// Keeps the fact of POST `ticket`, unless the end of the session already kept it as
    /// still open ([`Endpoint::close_open`]).
    fn keep_post(&self, ticket: Option<u64>, fact: HttpFact) {
        let mut shared = lock(&self.shared);
        if let Some(ticket) = ticket {
            let Some(at) = shared.open.iter().position(|(t, _)| *t == ticket) else {
                return;
            };
            shared.open.remove(at);
        }
        push_fact(&mut shared, fact);
    }

    /// The session ends: every POST still open is kept with [`STILL_OPEN`] (and `how`
    /// the session ended) as its error, so that a request left unanswered says its POST
    /// was cut by the end of the session rather than only "no response".
    fn close_open(&self, how: &str) -> Vec<HttpFact> {
        let mut shared = lock(&self.shared);
        let open = std::mem::take(&mut shared.open);
        let mut closed = Vec::new();
        for (_, mut fact) in open {
            fact.error = Some(format!("{STILL_OPEN} ({how})"));
            closed.push(fact.clone());
            push_fact(&mut shared, fact);
        }
        closed
    }

    /// The session id and negotiated version to send.
    pub(super) fn session(&self) -> (Option<String>, Option<String>) {
        let shared = lock(&self.shared);
        (shared.session_id.clone(), shared.version.clone())
    }

    /// Starts the record of a stream; `None` past the cap (its responses go unrecorded).
    pub(super) fn open_stream(&self, record: StreamRecord) -> Option<usize> {
        let mut shared = lock(&self.shared);
        if shared.streams.len() < MAX_FACTS {
            shared.streams.push(record);
            Some(shared.streams.len() - 1)
        } else {
            shared.streams_dropped += 1;
            None
        }
    }

    /// Updates the record of stream `index`.
    pub(super) fn update_stream(
        &self,
        index: Option<usize>,
        update: impl FnOnce(&mut StreamRecord),
    ) {
        let Some(index) = index else { return };
        if let Some(record) = lock(&self.shared).streams.get_mut(index) {
            update(record);
        }
    }

    /// Records that stream `index` carried responses with `ids`.
    pub(super) fn saw_responses(&self, index: Option<usize>, ids: &[Value]) {
        let Some(index) = index else { return };
        let mut shared = lock(&self.shared);
        let Some(record) = shared.streams.get_mut(index) else {
            return;
        };
        for id in ids {
            if record.responses.len() < MAX_RESPONSES_PER_STREAM {
                record.responses.push(id.clone());
            } else {
                record.responses_dropped += 1;
            }
        }
    }
}

fn push_fact(shared: &mut Shared, fact: HttpFact) {
    if shared.facts.len() < MAX_FACTS {
        shared.facts.push(fact);
    } else {
        shared.facts_dropped += 1;
    }
}

/// Hands a frame to the session within the byte budget; `false` once it is gone. `answers`
/// names the request of the POST whose answer carried the frame, when the frame is a
/// response without a readable id ([`TransportEvent::Answer`]).
pub(super) async fn forward(
    budget: &Semaphore,
    tx: &mpsc::Sender<TransportEvent>,
    frame: Frame,
    answers: Option<Value>,
) -> bool {
    let n = super::stdio::frame_bytes(&frame);
    if !super::stdio::take_budget(budget, n).await {
        return false;
    }
    let event = match answers {
        Some(request) => TransportEvent::Answer { frame, request },
        None => TransportEvent::Stdout(frame),
    };
    tx.send(event).await.is_ok()
}

/// A Streamable HTTP session with a server, shaped like [`super::StdioTransport`].
#[derive(Debug)]
pub struct HttpTransport {
    endpoint: Endpoint,
    tx: mpsc::Sender<TransportEvent>,
    inbox: Inbox,
    budget: Arc<Semaphore>,
    in_flight: Arc<Semaphore>,
    drains: Arc<Semaphore>,
    tasks: JoinSet<()>,
    /// The modern requests in flight, by id: sending on the channel closes the POST's
    /// stream (the cancellation of 2026-07-28 HTTP).
    streams: Vec<(Value, tokio::sync::oneshot::Sender<()>)>,
    max_line: usize,
    /// Which negotiated versions go in [`VERSION_HEADER`]
    /// ([`HttpTransport::with_version_header`]).
    version_header: fn(&str) -> bool,
    closed: bool,
    deleted: bool,
    listening: bool,
}

/// Builds the client: no redirects, no proxy, the connect timeout, and no idle connection
/// kept for reuse: a connection held open between requests pins a worker of a
/// thread-per-connection server (tiny_http, the reference server's, has a race in which
/// a new connection then waits behind the held ones: a request went unanswered for the
/// whole timeout), and a fresh loopback connection per message costs nothing that matters.
/// An `https` target's TLS trusts the platform's roots and its `ca_certs` ([`super::tls`]).
pub(crate) fn client(target: &HttpTarget, timeout: Duration) -> Result<reqwest::Client> {
    finish(builder(target, timeout)?)
}

fn finish(builder: reqwest::ClientBuilder) -> Result<reqwest::Client> {
    builder.build().map_err(|e| Error::BadUrl {
        url: String::new(),
        reason: format!("cannot build an HTTP client: {e}"),
    })
}

/// The settings every client of ours shares: the user's TLS roots, no redirects, no idle
/// connections kept, no proxy, the connect timeout.
fn builder(target: &HttpTarget, timeout: Duration) -> Result<reqwest::ClientBuilder> {
    Ok(reqwest::Client::builder()
        .tls_backend_preconfigured(super::tls::client_config(target)?)
        .redirect(reqwest::redirect::Policy::none())
        .pool_max_idle_per_host(0)
        .no_proxy()
        .connect_timeout(timeout))
}

impl HttpTransport {
    /// A transport for `target` (nothing is sent yet).
    pub fn connect(target: &HttpTarget, timeout: Duration, max_line: usize) -> Result<Self> {
        let url = target.parsed_url()?;
        let headers = target.header_map()?;
        let (tx, inbox, max_line) = Inbox::channel(max_line);
        Ok(Self {
            endpoint: Endpoint {
                client: client(target, timeout)?,
                url,
                headers,
                shared: Arc::default(),
                timeout,
            },
            tx,
            budget: inbox.budget.clone(),
            inbox,
            in_flight: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
            drains: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
            tasks: JoinSet::new(),
            streams: Vec::new(),
            max_line,
            version_header: |_| false,
            closed: false,
            deleted: false,
            listening: false,
        })
    }

    /// Names the negotiated version in [`VERSION_HEADER`] on every request after the
    /// handshake when `rule` says a conversation in that version carries it (from
    /// 2025-06-18 on: the layer above knows the revisions). Without it, none does.
    pub fn with_version_header(mut self, rule: fn(&str) -> bool) -> Self {
        self.version_header = rule;
        self
    }

    /// POSTs each line of `bytes` (pipelined lines are joined by newlines) as one message.
    /// `false` once the transport is closed or no POST slot frees up within `timeout`.
    pub async fn send_line(&mut self, bytes: &[u8], timeout: Duration) -> bool {
        if self.closed {
            return false;
        }
        while self.tasks.try_join_next().is_some() {}
        self.streams.retain(|(_, stream)| !stream.is_closed());
        for piece in bytes.split(|b| *b == b'\n').filter(|p| !p.is_empty()) {
            let message = serde_json::from_slice::<Value>(piece).ok();
            if self.cancel_stream(message.as_ref()).await {
                continue;
            }
            let slot = tokio::time::timeout(timeout, self.in_flight.clone().acquire_owned());
            let Ok(Ok(permit)) = slot.await else {
                return false;
            };
            // A notification or response is answered at once (202): waiting for that keeps
            // it ahead of what we send next (`notifications/initialized` before the first
            // request), as on a pipe. A request is not waited for: its answer may stream.
            let is_request = Carried::of(message.as_ref()) == Carried::Request;
            let initialized = message.as_ref().is_some_and(|m| {
                Carried::of(Some(m)) == Carried::Notification
                    && m.get("method").and_then(Value::as_str) == Some("notifications/initialized")
            });
            let modern = message.as_ref().and_then(mirror::modern_version).is_some();
            let cancel = match message.as_ref().and_then(|m| m.get("id")) {
                Some(id)
                    if is_request && (modern || lock(&self.endpoint.shared).modern.is_some()) =>
                {
                    let (close, closed) = tokio::sync::oneshot::channel();
                    self.streams.push((id.clone(), close));
                    Some(closed)
                }
                _ => None,
            };
            let (accepted, headers) = tokio::sync::oneshot::channel();
            let post = Post {
                endpoint: self.endpoint.clone(),
                body: piece.to_vec(),
                tx: self.tx.clone(),
                budget: self.budget.clone(),
                drains: self.drains.clone(),
                max_line: self.max_line,
                version_header: self.version_header,
                headers: Some(accepted),
                cancel,
                ticket: None,
                resumes: 0,
            };
            self.tasks.spawn(post.run(permit));
            // A listen stream is waited for until its first event (the acknowledgment) has
            // been passed on: over HTTP the next request's answer could otherwise overtake
            // it, which a pipe never lets happen (subscriptions.mdx: it comes first).
            let listens = is_request
                && message
                    .as_ref()
                    .and_then(|m| m.get("method"))
                    .and_then(Value::as_str)
                    == Some("subscriptions/listen");
            if !is_request || listens {
                let _ = tokio::time::timeout(timeout, headers).await;
            }
            if initialized && !std::mem::replace(&mut self.listening, true) {
                // The session is established: open the optional GET stream.
                let listen = Listen {
                    endpoint: self.endpoint.clone(),
                    tx: self.tx.clone(),
                    budget: self.budget.clone(),
                    max_line: self.max_line,
                };
                self.tasks.spawn(listen.run());
            }
        }
        true
    }

    /// Over modern HTTP, a `notifications/cancelled` is not POSTed: the stream of the
    /// request it names is closed instead (2026-07-28 streamable-http.mdx, Cancellation:
    /// "closing the SSE response stream is itself the cancellation signal"). `true` when
    /// `message` was such a cancellation (handled here).
    async fn cancel_stream(&mut self, message: Option<&Value>) -> bool {
        let Some(message) = message else {
            return false;
        };
        let cancels = message.get("method").and_then(Value::as_str)
            == Some("notifications/cancelled")
            && message.get("id").is_none();
        if !cancels || lock(&self.endpoint.shared).modern.is_none() {
            return false;
        }
        let id = message.pointer("/params/requestId").cloned();
        let found = id.as_ref().and_then(|id| {
            let at = self.streams.iter().position(|(open, _)| open == id)?;
            Some(self.streams.remove(at).1)
        });
        let note = match found.map(|stream| stream.send(())) {
            Some(Ok(())) => format!(
                "HTTP: closed the response stream of request {} instead of POSTing \
                 notifications/cancelled (2026-07-28 streamable-http.mdx, Cancellation)",
                id.unwrap_or_default()
            ),
            _ => format!(
                "HTTP: notifications/cancelled for request {} not POSTed (2026-07-28 \
                 streamable-http.mdx, Cancellation); no stream of that request is open",
                id.unwrap_or_default()
            ),
        };
        let _ = self.tx.try_send(TransportEvent::Note(note));
        true
    }

    /// Next event (this transport never ends by itself: `None` never comes).
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

    /// The session id the server assigned, if it did.
    pub fn session_id(&self) -> Option<String> {
        lock(&self.endpoint.shared).session_id.clone()
    }

    /// The HTTP exchanges so far (at most [`MAX_FACTS`]), and how many more were not kept.
    pub fn facts(&self) -> (Vec<HttpFact>, u64) {
        let shared = lock(&self.endpoint.shared);
        (shared.facts.clone(), shared.facts_dropped)
    }

    /// The streams so far (each request POST's, the GET stream) with the responses each
    /// carried, and how many more streams were not recorded.
    pub fn streams(&self) -> (Vec<StreamRecord>, u64) {
        let shared = lock(&self.endpoint.shared);
        (shared.streams.clone(), shared.streams_dropped)
    }

    /// Ends the HTTP session: DELETE with its id (transports.mdx, Session Management; a
    /// 405 says the server does not allow it, which is fine). Returns the DELETE's fact.
    pub async fn delete(&mut self) -> Option<HttpFact> {
        self.closed = true;
        self.tasks.abort_all();
        if std::mem::replace(&mut self.deleted, true) {
            return None;
        }
        let (session, version) = {
            let shared = lock(&self.endpoint.shared);
            (shared.session_id.clone(), shared.version.clone())
        };
        // The POSTs still open are cut here: each is kept saying so.
        let how = if session.is_some() {
            "with DELETE"
        } else {
            "without a session to DELETE"
        };
        for fact in self.endpoint.close_open(how) {
            let _ = self.tx.try_send(TransportEvent::Note(fact.describe()));
        }
        let session = session?;
        let fact = delete(&self.endpoint, &session, version.as_deref()).await;
        self.endpoint.keep(fact.clone());
        let _ = self.tx.try_send(TransportEvent::Note(fact.describe()));
        Some(fact)
    }

    /// Ends the session like a stopped process: DELETE, then an exit with no status.
    pub async fn terminate(&mut self) -> ExitInfo {
        self.delete().await;
        ExitInfo {
            code: None,
            signal: None,
            killed_by_harness: false,
            ended: None,
        }
    }
}

impl Connection for HttpTransport {
    fn send_line<'a>(&'a mut self, line: &'a [u8], timeout: Duration) -> Pending<'a, bool> {
        Box::pin(HttpTransport::send_line(self, line, timeout))
    }

    fn next_event(&mut self) -> Pending<'_, Option<TransportEvent>> {
        Box::pin(HttpTransport::next_event(self))
    }

    fn try_next_event(&mut self) -> Option<TransportEvent> {
        HttpTransport::try_next_event(self)
    }

    fn close(&mut self) {
        HttpTransport::close(self);
    }

    fn terminate(&mut self, _grace: Duration) -> Pending<'_, ExitInfo> {
        Box::pin(HttpTransport::terminate(self))
    }

    fn is_remote(&self) -> bool {
        true
    }

    fn facts(&self) -> (Vec<HttpFact>, u64) {
        HttpTransport::facts(self)
    }

    fn streams(&self) -> (Vec<StreamRecord>, u64) {
        HttpTransport::streams(self)
    }

    fn session_id(&self) -> Option<String> {
        HttpTransport::session_id(self)
    }
}

pub(crate) async fn delete(endpoint: &Endpoint, session: &str, version: Option<&str>) -> HttpFact {
    let (builder, sent) = endpoint.request(reqwest::Method::DELETE, Some(session), version);
    let mut fact = endpoint.fact("DELETE", Carried::Nothing, None);
    fact.sent = sent;
    match tokio::time::timeout(endpoint.timeout, builder.send()).await {
        Ok(Ok(response)) => {
            fact.status = Some(response.status().as_u16());
            fact.content_type = content_type(response.headers());
        }
        Ok(Err(e)) => fact.error = Some(error_text(&e)),
        Err(_) => fact.error = Some("no response within the timeout".into()),
    }
    fact
}

impl Drop for HttpTransport {
    fn drop(&mut self) {
        // JoinSet aborts the POSTs still running. The session is DELETEd in the
        // background, when a runtime is there to do it (bounded by the timeout).
        self.budget.close();
        if self.deleted {
            return;
        }
        let shared = lock(&self.endpoint.shared);
        let (Some(session), version) = (shared.session_id.clone(), shared.version.clone()) else {
            return;
        };
        drop(shared);
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            let endpoint = self.endpoint.clone();
            handle.spawn(async move {
                delete(&endpoint, &session, version.as_deref()).await;
            });
        }
    }
}

/// One POST: send, read the answer into frames, record the fact.
struct Post {
    endpoint: Endpoint,
    body: Vec<u8>,
    tx: mpsc::Sender<TransportEvent>,
    budget: Arc<Semaphore>,
    /// Slots for reading a stream on after its response.
    drains: Arc<Semaphore>,
    max_line: usize,
    /// Which negotiated versions go in [`VERSION_HEADER`].
    version_header: fn(&str) -> bool,
    /// Told when the response headers came (or the POST failed).
    headers: Option<tokio::sync::oneshot::Sender<()>>,
    /// A modern request's cancellation: the stream is closed when this fires.
    cancel: Option<tokio::sync::oneshot::Receiver<()>>,
    /// This POST's entry among the open ones ([`Endpoint::open`]), once sent (then its
    /// resumption GET's).
    ticket: Option<u64>,
    /// Times its stream was resumed.
    resumes: u32,
}

/// Why a modern request's stream was closed by us.
const CANCELLED: &str =
    "the client closed the stream to cancel the request (2026-07-28 Cancellation)";

/// What a POST's message is, read once before it is sent.
struct Shape {
    /// The id of the request it carries (a request only).
    request_id: Option<Value>,
    /// Whether it is the `initialize` request (its answer names the session id and the
    /// negotiated version).
    initialize: bool,
    /// Whether it is a `tools/list` request (its result annotates parameter headers).
    lists_tools: bool,
    /// Whether its stream is a modern `subscriptions/listen` stream, open until cancelled.
    long_lived: bool,
    /// Whether it is a `tools/call`, whose answer is still taken [`late_window`] past the
    /// timeout.
    calls_tool: bool,
    /// Its stream's record, when recorded.
    stream: Option<usize>,
}

/// The session and metadata headers a POST carries.
struct Outgoing {
    session: Option<String>,
    version: Option<String>,
    extra: Vec<(String, String)>,
}

/// A POST's answer being read: what has come, and where the reading stands.
struct Reading {
    response: reqwest::Response,
    fact: HttpFact,
    /// The POST's slot among those in flight, freed once its response came.
    slot: Option<OwnedSemaphorePermit>,
    /// Once the response came on a stream: the slot the rest is read in (`Err`: none was
    /// free, so it is not read).
    drain: Option<std::result::Result<OwnedSemaphorePermit, tokio::sync::TryAcquireError>>,
    /// The decoder of an event stream (`None`: a JSON body).
    decoder: Option<SseDecoder>,
    frames: Vec<Frame>,
    /// Whether the content type is JSON.
    json: bool,
    body_head: Vec<u8>,
    /// A JSON body, as it comes.
    body: Vec<u8>,
    /// How long the stream may be silent.
    idle: Duration,
    deadline: Instant,
    done: bool,
    /// Whether the body arrived whole (its end, or the cap, reached).
    whole: bool,
    /// Bytes read after the response (the drain).
    drained: usize,
    /// Whether the server ended the body (not our cap, timeout or cancellation).
    ended: bool,
    /// Why a stream the server closed early was not resumed, when it was not.
    not_resumed: Option<String>,
}

/// The session is gone (its end of the channel closed): the POST stops, keeping nothing.
struct Gone;

impl Reading {
    fn new(
        response: reqwest::Response,
        fact: HttpFact,
        slot: Option<OwnedSemaphorePermit>,
        long_lived: bool,
        max_line: usize,
        timeout: Duration,
    ) -> Self {
        let sse = is_media(fact.content_type.as_deref(), "text/event-stream");
        let json = is_media(fact.content_type.as_deref(), "application/json");
        let idle = if long_lived {
            // Far enough to be "never" for a run, near enough not to overflow an Instant.
            Duration::from_secs(365 * 24 * 3600)
        } else {
            timeout
        };
        Self {
            response,
            fact,
            slot,
            drain: None,
            decoder: sse.then(|| SseDecoder::new(max_line)),
            frames: Vec::new(),
            json,
            body_head: Vec::new(),
            body: Vec::new(),
            idle,
            deadline: Instant::now() + idle,
            done: false,
            whole: true,
            drained: 0,
            ended: false,
            not_resumed: None,
        }
    }

    /// Counts a chunk (in the body, or in the drain after the response) and keeps the
    /// body's head.
    fn count(&mut self, chunk: &[u8]) {
        if self.drain.is_some() {
            self.drained += chunk.len();
            self.done = self.drained > DRAIN_BYTES;
        } else {
            self.fact.body_bytes += chunk.len();
        }
        if self.body_head.len() < BODY_HEAD {
            let room = BODY_HEAD - self.body_head.len();
            self.body_head
                .extend_from_slice(&chunk[..room.min(chunk.len())]);
        }
    }
}

impl Post {
    /// Sends the POST in `slot`, passes the messages of its answer on, and keeps its fact.
    async fn run(mut self, slot: OwnedSemaphorePermit) {
        let (shape, outgoing, mut fact) = self.shape();
        let timeout = match shape.calls_tool {
            true => self.endpoint.timeout + late_window(self.endpoint.timeout),
            false => self.endpoint.timeout,
        };
        let Some(response) = self.send(&mut fact, outgoing, timeout).await else {
            return self.keep(fact).await;
        };
        self.on_head(&shape, &mut fact, &response);
        let max_line = self.max_line;
        let mut r = Reading::new(
            response,
            fact,
            Some(slot),
            shape.long_lived,
            max_line,
            timeout,
        );
        loop {
            if self.read(&shape, &mut r).await.is_err() || r.drain.is_some() {
                // Gone, or the fact was kept when the response came.
                return;
            }
            let Some(wait) = self.resumable(&shape, &mut r) else {
                break;
            };
            match self.resume(&shape, r, wait).await {
                Some(next) => r = next,
                None => return,
            }
        }
        let _ = self.finish(&shape, r).await;
    }

    /// How long to wait before resuming a stream the server ended before the response to
    /// its request (transports.mdx, Resumability and Redelivery: a GET with
    /// `Last-Event-ID`; 2025-11-25: "The client MUST respect the retry field"); `None`
    /// when it is not resumed: no event id to resume from, a 2026-07-28 request (no
    /// resumption there), or a bound reached (the reading says which).
    fn resumable(&self, shape: &Shape, r: &mut Reading) -> Option<Duration> {
        let decoder = r.decoder.as_ref()?;
        if !r.ended || shape.request_id.is_none() {
            return None;
        }
        self.endpoint
            .update_stream(shape.stream, |s| s.closed_early += 1);
        if lock(&self.endpoint.shared).modern.is_some() {
            return None;
        }
        decoder.last_event_id()?;
        let retry = decoder.retry().map(Duration::from_millis);
        let id = shape.stream;
        self.endpoint.update_stream(id, |s| {
            s.closed_without_retry += u32::from(retry.is_none());
        });
        let wait = retry.unwrap_or(DEFAULT_RETRY);
        let timeout = self.endpoint.timeout;
        r.not_resumed = if self.resumes >= MAX_RESUMES {
            Some(format!(
                "not resumed again: {MAX_RESUMES} resumptions already"
            ))
        } else if wait > timeout {
            Some(format!(
                "not resumed: the server asked for a retry of {} ms, longer than the {:.1} s \
                 the client waits",
                wait.as_millis(),
                timeout.as_secs_f64()
            ))
        } else {
            None
        };
        r.not_resumed.is_none().then_some(wait)
    }

    /// Resumes the stream `r` read: keeps its fact, waits `wait`, and GETs the endpoint
    /// with `Last-Event-ID`. The reading of the new connection, or `None` (its fact kept,
    /// saying why) when the server did not open one.
    async fn resume(&mut self, shape: &Shape, mut r: Reading, wait: Duration) -> Option<Reading> {
        let decoder = r.decoder.take()?.reconnected();
        let last = decoder.last_event_id()?.to_string();
        let rpc = r.fact.rpc_method.clone();
        self.note_priming(shape, Some(&decoder));
        r.fact.body_head = String::from_utf8_lossy(&r.body_head).into_owned();
        r.fact.error = Some(format!(
            "the server closed the connection before the response, after event id {last:?}; \
             resumed after {} ms",
            wait.as_millis()
        ));
        self.keep(r.fact).await;
        self.resumes += 1;
        self.endpoint
            .update_stream(shape.stream, |s| s.resumed += 1);
        tokio::time::sleep(wait).await;
        let (session, version) = self.endpoint.session();
        let (builder, mut sent) =
            self.endpoint
                .request(reqwest::Method::GET, session.as_deref(), version.as_deref());
        let mut fact = self.endpoint.fact("GET", Carried::Nothing, rpc);
        fact.rpc_id = shape.request_id.clone();
        sent.push(("Last-Event-ID".into(), last.clone()));
        fact.sent = sent;
        self.ticket = Some(self.endpoint.open(&fact));
        let builder = builder
            .header(ACCEPT, "text/event-stream")
            .header(LAST_EVENT_ID, last);
        let timeout = self.endpoint.timeout;
        let response = match tokio::time::timeout(timeout, builder.send()).await {
            Ok(Ok(response)) => response,
            Ok(Err(e)) => return self.resume_failed(fact, error_text(&e)).await,
            Err(_) => {
                let why = format!("no response headers within {:.1} s", timeout.as_secs_f64());
                return self.resume_failed(fact, why).await;
            }
        };
        fact.read_head(&response);
        let streams = response.status().as_u16() == 200
            && is_media(fact.content_type.as_deref(), "text/event-stream");
        if !streams {
            let why = "the resumption GET opened no event stream: the request goes unanswered";
            return self.resume_failed(fact, why.into()).await;
        }
        let (max_line, slot) = (self.max_line, r.slot.take());
        let mut next = Reading::new(response, fact, slot, false, max_line, timeout);
        next.decoder = Some(decoder);
        Some(next)
    }

    /// Whether the stream opened with a priming event goes in its record.
    fn note_priming(&self, shape: &Shape, decoder: Option<&SseDecoder>) {
        let primed = decoder.and_then(SseDecoder::primed);
        if primed.is_some() {
            self.endpoint
                .update_stream(shape.stream, |s| s.primed = primed);
        }
    }

    /// A resumption that opened no stream: its fact says why.
    async fn resume_failed(&self, mut fact: HttpFact, why: String) -> Option<Reading> {
        fact.error = Some(why);
        self.keep(fact).await;
        None
    }

    /// What the message is, the headers it goes with, and the fact it starts.
    fn shape(&self) -> (Shape, Outgoing, HttpFact) {
        let message: Option<Value> = serde_json::from_slice(&self.body).ok();
        let carried = Carried::of(message.as_ref());
        let rpc = message
            .as_ref()
            .and_then(|m| m.get("method"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let request_id = message
            .as_ref()
            .filter(|_| carried == Carried::Request)
            .and_then(|m| m.get("id"))
            .cloned();
        let initialize = carried == Carried::Request && rpc.as_deref() == Some("initialize");
        let stream = request_id.as_ref().and_then(|id| {
            let record = StreamRecord::new(StreamKind::Post, Some(id.clone()), rpc.clone());
            self.endpoint.open_stream(record)
        });
        let mut fact = self.endpoint.fact("POST", carried, rpc);
        // The id of any message that has one (a malformed request, our response too), so
        // a finding about it can name the POST that carried it.
        fact.rpc_id = message.as_ref().and_then(|m| m.get("id")).cloned();
        let (outgoing, modern) = self.outgoing(message.as_ref(), carried);
        let shape = Shape {
            request_id,
            initialize,
            lists_tools: rpc_is(&fact, "tools/list"),
            // A listen stream stays open until cancelled (2026-07-28 subscriptions.mdx): no
            // idle bound on it, only the cancellation and the transport's end.
            long_lived: modern && rpc_is(&fact, "subscriptions/listen"),
            calls_tool: carried == Carried::Request && rpc_is(&fact, "tools/call"),
            stream,
        };
        (shape, outgoing, fact)
    }

    /// The headers of `message`: a modern request (or anything sent once the session spoke
    /// 2026-07-28) carries no session id and mirrors its body into the metadata headers;
    /// otherwise the session id and negotiated version. `true` when modern.
    fn outgoing(&self, message: Option<&Value>, carried: Carried) -> (Outgoing, bool) {
        let modern_version = message.and_then(mirror::modern_version);
        let mut shared = lock(&self.endpoint.shared);
        if let (Some(v), Carried::Request) = (modern_version, carried) {
            shared.modern.get_or_insert_with(|| v.to_string());
        }
        let Some(session_version) = shared.modern.clone() else {
            let outgoing = Outgoing {
                session: shared.session_id.clone(),
                version: shared.version.clone(),
                extra: Vec::new(),
            };
            return (outgoing, false);
        };
        let tools = mirror::learned(self.endpoint.url.as_str());
        let mut extra = message
            .map(|m| mirror::request_headers(m, &tools))
            .unwrap_or_default();
        if modern_version.is_none() {
            let name = mirror::VERSION_HEADER_NAME.to_string();
            extra.insert(0, (name, session_version));
        }
        let outgoing = Outgoing {
            session: None,
            version: None,
            extra,
        };
        (outgoing, true)
    }

    /// Sends the POST and waits for its response head; `None` (the fact saying why) when
    /// none came.
    async fn send(
        &mut self,
        fact: &mut HttpFact,
        out: Outgoing,
        timeout: Duration,
    ) -> Option<reqwest::Response> {
        let (builder, sent) = self.endpoint.post_message(
            out.session.as_deref(),
            out.version.as_deref(),
            out.extra,
            self.body.clone(),
        );
        fact.sent = sent;
        self.ticket = Some(self.endpoint.open(fact));
        let sending = tokio::time::timeout(timeout, builder.send());
        let error = match cancelled_or(&mut self.cancel, sending).await {
            Some(Ok(Ok(response))) => return Some(response),
            None => CANCELLED.to_string(),
            Some(Ok(Err(e))) => error_text(&e),
            Some(Err(_)) => format!("no response headers within {:.1} s", timeout.as_secs_f64()),
        };
        fact.error = Some(error);
        None
    }

    /// The response head came: it goes in the fact (and the open POST's), an
    /// `initialize`'s session id is the session's, and the writer waiting for the head is
    /// told (a listen stream's writer waits for its first event instead).
    fn on_head(&mut self, shape: &Shape, fact: &mut HttpFact, response: &reqwest::Response) {
        fact.read_head(response);
        if let Some(ticket) = self.ticket {
            self.endpoint.update_open(ticket, fact);
        }
        if shape.initialize {
            if let Some(id) = &fact.session_id {
                lock(&self.endpoint.shared).session_id = Some(id.clone());
            }
        }
        if !shape.long_lived {
            if let Some(headers) = self.headers.take() {
                let _ = headers.send(());
            }
        }
    }

    /// Reads the answer until it ends, is cut, or (a stream) was drained after its
    /// response, passing its messages on.
    async fn read(&mut self, shape: &Shape, r: &mut Reading) -> std::result::Result<(), Gone> {
        while !r.done {
            let Some(chunk) = self.next_chunk(r).await else {
                break;
            };
            r.count(&chunk);
            if let Some(decoder) = r.decoder.as_mut() {
                let mut frames = std::mem::take(&mut r.frames);
                decoder.push(&chunk, &mut frames);
                if !frames.is_empty() {
                    r.deadline = Instant::now() + r.idle;
                }
                for frame in frames.drain(..) {
                    self.on_event(shape, r, frame).await?;
                }
                r.frames = frames;
            } else {
                self.on_body(r, &chunk).await?;
            }
        }
        Ok(())
    }

    /// The next chunk of the body; `None` (the reading saying why) once there is none.
    async fn next_chunk(&mut self, r: &mut Reading) -> Option<impl Deref<Target = [u8]>> {
        let reading = tokio::time::timeout_at(r.deadline, r.response.chunk());
        match cancelled_or(&mut self.cancel, reading).await {
            None => r.fact.error = Some(CANCELLED.into()),
            Some(Ok(Ok(Some(chunk)))) => return Some(chunk),
            Some(Ok(Ok(None))) => r.ended = true,
            // After the response the rest of the stream is evidence only.
            _ if r.drain.is_some() => {}
            Some(Ok(Err(e))) => {
                r.fact.error = Some(format!("body cut: {}", error_text(&e)));
                r.whole = false;
            }
            Some(Err(_)) => {
                r.whole = false;
                r.fact.error = Some(format!(
                    "no further {} within {:.1} s; stopped reading",
                    if r.decoder.is_some() {
                        "event"
                    } else {
                        "body bytes"
                    },
                    r.idle.as_secs_f64()
                ));
            }
        }
        None
    }

    /// One event of the stream: passed on unless it is a response after this POST's own;
    /// this POST's response keeps the fact and frees the slot, and the rest of the stream
    /// is read on as evidence while a drain slot is free.
    async fn on_event(
        &mut self,
        shape: &Shape,
        r: &mut Reading,
        frame: Frame,
    ) -> std::result::Result<(), Gone> {
        // An event with empty data is no message: from 2025-11-25 on the server SHOULD
        // open a stream with one, an id to resume from (transports.mdx, Sending Messages
        // to the Server, 6: "prime the client to reconnect").
        if matches!(&frame, Frame::Line(text) if text.trim().is_empty()) {
            return Ok(());
        }
        let ids = response_ids(&frame);
        if let Some(ids) = &ids {
            self.endpoint.saw_responses(shape.stream, ids);
            let foreign = ids.iter().any(|id| Some(id) != shape.request_id.as_ref());
            if r.drain.is_some() || (self.resumes > 0 && foreign) {
                // A response after the one this POST's stream carries, or another
                // stream's replayed on its resumption: evidence, not passed on.
                return Ok(());
            }
        }
        // The response to this POST's request, or one with a null id (the answer to a
        // request whose id the server could not read).
        let answers = shape.request_id.as_ref().is_some_and(|id| {
            ids.as_ref()
                .is_some_and(|ids| ids.is_empty() || ids.contains(id))
        });
        if shape.initialize {
            self.learn_version(&frame);
        }
        if shape.lists_tools && answers {
            self.learn_tools(&frame);
        }
        let overlong = matches!(frame, Frame::Overlong { .. });
        let unread = ids.as_ref().is_some_and(Vec::is_empty);
        let hint = shape.request_id.clone().filter(|_| answers && unread);
        if !self.forward(frame, hint).await {
            return Err(Gone);
        }
        if let Some(headers) = self.headers.take() {
            let _ = headers.send(());
        }
        r.done |= overlong;
        if answers && r.drain.is_none() {
            self.note_priming(shape, r.decoder.as_ref());
        }
        if answers && r.drain.is_none() && !r.done {
            // The stream should end with its response (transports.mdx: the server SHOULD
            // close it then). The fact is kept now and the slot freed; what follows is read
            // on while a drain slot is free.
            r.fact.body_head = String::from_utf8_lossy(&r.body_head).into_owned();
            self.keep(r.fact.clone()).await;
            r.slot.take();
            r.drain = Some(self.drains.clone().try_acquire_owned());
            r.done = matches!(r.drain, Some(Err(_)));
            r.deadline = Instant::now() + self.endpoint.timeout;
        }
        Ok(())
    }

    /// A chunk of a JSON body: kept, or (past the line cap) an over-long frame ends it.
    async fn on_body(&self, r: &mut Reading, chunk: &[u8]) -> std::result::Result<(), Gone> {
        let max_line = self.max_line;
        if r.body.len() + chunk.len() <= max_line {
            r.body.extend_from_slice(chunk);
            return Ok(());
        }
        r.body
            .extend_from_slice(&chunk[..(max_line + 1 - r.body.len()).min(chunk.len())]);
        r.body.truncate(256.min(max_line + 1));
        let frame = Frame::Overlong {
            head: std::mem::take(&mut r.body),
            length: max_line + 1,
        };
        if !self.forward(frame, None).await {
            return Err(Gone);
        }
        r.done = true;
        Ok(())
    }

    /// The answer was read without its response on a stream: says why a stream ended
    /// short, passes a JSON body on as one message, and keeps the fact.
    async fn finish(&self, shape: &Shape, r: Reading) -> std::result::Result<(), Gone> {
        let mut fact = r.fact;
        if let (Some(decoder), Some(_), true) = (&r.decoder, &shape.request_id, r.ended) {
            // The stream ended without the response to its request (which would have
            // started the drain): say so, and whether an event was left unfinished.
            fact.error = Some(
                if decoder.buffered() > 0 {
                    "the event stream ended in the middle of an event, before the response \
                     to its request"
                } else {
                    "the event stream ended before the response to its request"
                }
                .into(),
            );
            if let (Some(error), Some(why)) = (fact.error.as_mut(), &r.not_resumed) {
                error.push_str("; ");
                error.push_str(why);
            }
        }
        self.note_priming(shape, r.decoder.as_ref());
        fact.body_head = String::from_utf8_lossy(&r.body_head).into_owned();
        if r.whole && !r.body.iter().all(u8::is_ascii_whitespace) {
            self.pass_body(shape, r.json, r.body).await?;
        }
        self.keep(fact).await;
        Ok(())
    }

    /// A JSON body is one message (or a batch's array). A body under another content type
    /// is passed on when it is JSON anyway (the content type is the HTTP check's
    /// business); an error page is evidence only. A body cut short (the connection closed,
    /// or stalled, mid-body) never comes here: the fact says what happened, and the
    /// request goes unanswered.
    async fn pass_body(
        &self,
        shape: &Shape,
        json: bool,
        body: Vec<u8>,
    ) -> std::result::Result<(), Gone> {
        if !json && serde_json::from_slice::<Value>(&body).is_err() {
            return Ok(());
        }
        let frame = match String::from_utf8(body) {
            Ok(text) => Frame::Line(text.trim().to_string()),
            Err(e) => Frame::InvalidUtf8(e.into_bytes()),
        };
        if shape.initialize {
            self.learn_version(&frame);
        }
        let ids = response_ids(&frame);
        if let Some(ids) = &ids {
            self.endpoint.saw_responses(shape.stream, ids);
        }
        if shape.lists_tools {
            self.learn_tools(&frame);
        }
        // A response with a null id in the body of a POST that carried one request
        // answers that request.
        let unread = ids.as_ref().is_some_and(Vec::is_empty);
        let hint = shape.request_id.clone().filter(|_| unread);
        if !self.forward(frame, hint).await {
            return Err(Gone);
        }
        Ok(())
    }

    /// The `x-mcp-header` annotations of the tools a `tools/list` result lists, for the
    /// `Mcp-Param-*` headers of later calls (streamable-http.mdx, Custom Headers).
    fn learn_tools(&self, frame: &Frame) {
        let Frame::Line(text) = frame else { return };
        let Ok(message) = serde_json::from_str::<Value>(text) else {
            return;
        };
        if let Some(result) = message.get("result") {
            mirror::learn(self.endpoint.url.as_str(), result);
        }
    }

    /// The negotiated version goes in every later request's header when the rule says so
    /// (from 2025-06-18 on).
    fn learn_version(&self, frame: &Frame) {
        let Frame::Line(text) = frame else { return };
        let Ok(message) = serde_json::from_str::<Value>(text) else {
            return;
        };
        if let Some(version) = message
            .pointer("/result/protocolVersion")
            .and_then(Value::as_str)
        {
            if (self.version_header)(version) {
                lock(&self.endpoint.shared).version = Some(version.to_string());
            }
        }
    }

    /// Hands a frame to the session within the byte budget; `false` once it is gone.
    async fn forward(&self, frame: Frame, answers: Option<Value>) -> bool {
        forward(&self.budget, &self.tx, frame, answers).await
    }

    /// Keeps the fact and notes it in the transcript.
    async fn keep(&self, fact: HttpFact) {
        let note = fact.describe();
        self.endpoint.keep_post(self.ticket, fact);
        let _ = self.tx.send(TransportEvent::Note(note)).await;
    }
}

fn rpc_is(fact: &HttpFact, method: &str) -> bool {
    fact.carried == Carried::Request && fact.rpc_method.as_deref() == Some(method)
}

/// `work`'s output, or `None` once `cancel` fires first (a dropped sender is no
/// cancellation: the transport is going away and aborts the task itself).
async fn cancelled_or<T>(
    cancel: &mut Option<tokio::sync::oneshot::Receiver<()>>,
    work: impl std::future::Future<Output = T>,
) -> Option<T> {
    let Some(receiver) = cancel.as_mut() else {
        return Some(work.await);
    };
    tokio::pin!(work);
    let fired = tokio::select! {
        biased;
        fired = receiver => fired.is_ok(),
        out = &mut work => return Some(out),
    };
    if fired {
        return None;
    }
    *cancel = None;
    Some(work.await)
}
