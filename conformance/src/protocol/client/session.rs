//! [`Session`], the client side of one MCP session over stdio: its state and the requests
//! a scenario makes through it (one at a time, pipelined, raw, batched, notifications).
//!
//! Every method here writes through and waits on the loop in `io.rs`; none of them reads
//! the transport directly.

use std::time::Duration;

use serde_json::{json, Value};
use tokio::time::Instant as TokioInstant;

use super::io::{fence_grace, Outstanding, Target};
use super::{BatchExchange, Exchange, Line, Reply, Silence};
use crate::protocol::jsonrpc::IdMatch;
use crate::protocol::revision::Revision;
use crate::protocol::transcript::{Direction, Transcript};
use crate::transport::{HttpFact, ServerCommand, Transport};

/// Timeouts and limits for a session.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// How long to wait for each response (the first request of a session, initialize,
    /// gets three times as long: it waits for the process to start too).
    pub timeout: Duration,
    /// Longest stdout line accepted.
    pub max_line: usize,
    /// How long a server may take to exit after its stdin is closed: what both official
    /// SDK clients give it before SIGTERM (TypeScript SDK `StdioClientTransport.close`,
    /// Python SDK `PROCESS_TERMINATION_TIMEOUT`), so a server slower than that is killed
    /// by the clients people use. Load is answered by scaling, not by this floor: the
    /// revision's shutdown waits at least three times the server's own start-up (a flat
    /// 2 s once drew a false warning on a Python server under load, before that scaling).
    pub shutdown_grace: Duration,
}

impl Default for SessionConfig {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(10),
            max_line: 16 * 1024 * 1024,
            shutdown_grace: Duration::from_secs(2),
        }
    }
}

/// A live session with one server process.
#[derive(Debug)]
pub struct Session {
    pub(super) transport: Transport,
    pub(super) transcript: Transcript,
    pub(super) config: SessionConfig,
    pub(super) next_id: i64,
    pub(super) outstanding: Vec<Outstanding>,
    pub(super) ended: Option<Silence>,
    /// A write was not taken: nothing more is written (see `io.rs`).
    pub(super) stdin_failed: bool,
    /// Lines written, for the bound on unprompted traffic (`io::flood_bound`).
    pub(super) lines_sent: u64,
    /// The `progressToken`s our requests carried: progress for them is not unprompted.
    pub(super) progress_tokens: Vec<Value>,
    /// No request has been waited for yet: the first one waits for the start as well.
    pub(super) starting: bool,
    /// Stdout frames read so far.
    pub(super) frames_read: u64,
    /// `frames_read` when the last request timed out (cleared by a response).
    pub(super) timed_out_at: Option<u64>,
    /// While a batch probe waits: its request seq (an error with a null id answers it) and
    /// the ids answered inside array responses.
    pub(super) batch: Option<(usize, Vec<Value>)>,
    /// In the modern era (2026-07-28), the `_meta` fields every request carries; `None`
    /// for a legacy session, whose handshake fixed them for the process.
    pub(super) modern: Option<Value>,
    /// The next exchange takes an error with a null id as its answer without a fence
    /// behind it (see [`Session::request_http_scoped`]).
    pub(super) unread_unfenced: bool,
}

impl Session {
    /// Spawns the server and starts recording.
    pub fn start(command: &ServerCommand, config: SessionConfig) -> crate::Result<Self> {
        let transport = Transport::start(
            command,
            config.timeout,
            config.max_line,
            Revision::version_header_of,
        )?;
        if !transport.is_remote() && !transport.is_in_process() {
            super::usage::count_process();
        }
        Ok(Self {
            transport,
            transcript: Transcript::default(),
            config,
            next_id: 1,
            outstanding: Vec::new(),
            ended: None,
            stdin_failed: false,
            lines_sent: 0,
            progress_tokens: Vec::new(),
            starting: true,
            frames_read: 0,
            timed_out_at: None,
            batch: None,
            modern: None,
            unread_unfenced: false,
        })
    }

    /// Makes this a modern (2026-07-28) session: from now on every request carries
    /// `meta`'s fields in `params._meta` (index.mdx, Per-request protocol fields), and
    /// the liveness request is `server/discover` (`ping` was removed).
    pub fn speak_modern(&mut self, meta: Value) {
        self.modern = Some(meta);
    }

    /// The `_meta` fields every request of a modern session carries.
    pub fn modern_meta(&self) -> Option<&Value> {
        self.modern.as_ref()
    }

    /// The request that asks only "are you there?": `ping`, or `server/discover` in a
    /// modern session.
    pub fn liveness_method(&self) -> &'static str {
        if self.modern.is_some() {
            "server/discover"
        } else {
            "ping"
        }
    }

    /// The liveness request, waited for like any other.
    pub async fn liveness(&mut self) -> Exchange {
        let method = self.liveness_method();
        self.request(method, None).await
    }

    /// A request as this session sends it: in a modern session the per-request `_meta`
    /// fields are added (fields the message already has win, so a probe can send another
    /// version). Notifications, responses and anything that is not an object pass as they
    /// are.
    pub fn stamp(&self, message: Value) -> Value {
        match &self.modern {
            Some(meta) => stamp_request(meta, message),
            None => message,
        }
    }

    /// Whether this session talks HTTP (Streamable HTTP, or 2024-11-05's HTTP+SSE): no
    /// process of ours is behind it.
    pub fn is_http(&self) -> bool {
        self.transport.is_remote()
    }

    /// Whether the server runs inside this process: no process, exit status or stderr.
    pub fn is_in_process(&self) -> bool {
        self.transport.is_in_process()
    }

    /// The HTTP exchanges of this session so far (none over stdio), and how many more
    /// were not kept.
    pub fn http_facts(&self) -> (Vec<HttpFact>, u64) {
        self.transport.facts()
    }

    /// What the SSE stream showed (2024-11-05 HTTP+SSE only).
    pub fn sse_stream(&self) -> Option<crate::transport::SseStream> {
        self.transport.sse_stream()
    }

    /// The streams of this HTTP session (each request POST's, the GET stream) with the
    /// responses each carried (none over stdio), and how many were not recorded.
    pub fn http_streams(&self) -> (Vec<crate::transport::StreamRecord>, u64) {
        self.transport.streams()
    }

    /// The `Mcp-Session-Id` the server assigned (HTTP only).
    pub fn http_session_id(&self) -> Option<String> {
        self.transport.session_id()
    }

    /// The server's process group while it runs (stdio only): what
    /// [`crate::transport::group_asleep`] looks at.
    pub fn server_group(&self) -> Option<u32> {
        self.transport.process_group()
    }

    /// The per-request timeout.
    pub fn timeout(&self) -> Duration {
        self.config.timeout
    }

    /// Changes the per-request timeout for the requests that follow.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.config.timeout = timeout;
    }

    /// The transcript so far.
    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// Ends the session, returning its transcript (the process is killed on drop).
    pub fn into_transcript(mut self) -> Transcript {
        // Taken, not copied: a transcript may hold megabytes of listings.
        std::mem::take(&mut self.transcript)
    }

    /// Writes a line of the harness's own into the transcript (what it did and why).
    pub(crate) fn harness_note(&mut self, text: &str) {
        self.note(text);
    }

    /// Why the session can no longer talk, if it cannot.
    pub fn ended(&self) -> Option<&Silence> {
        self.ended.as_ref()
    }

    /// Sends a request with the next integer id and waits for its response.
    pub async fn request(&mut self, method: &str, params: Option<Value>) -> Exchange {
        let id = json!(self.next_id);
        self.next_id += 1;
        self.request_with_id(id, method, params).await
    }

    /// Sends a request with a chosen id (any JSON value) and waits for its response.
    pub async fn request_with_id(
        &mut self,
        id: Value,
        method: &str,
        params: Option<Value>,
    ) -> Exchange {
        let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        let message = self.stamp(message);
        let line = message.to_string();
        self.exchange(method, &line, message.clone(), Some(id), false)
            .await
    }

    /// [`Session::request`] where an error with a null or absent id answers it too, with no
    /// fence behind it: over HTTP, the body of a POST's error status answers that POST
    /// (2026-07-28 streamable-http.mdx, Backward Compatibility: a legacy server answers a
    /// modern POST with 400 and an error it could not tie to the request). On stdio it is
    /// [`Session::request`].
    pub async fn request_http_scoped(&mut self, method: &str, params: Option<Value>) -> Exchange {
        if !self.is_http() {
            return self.request(method, params).await;
        }
        let id = json!(self.next_id);
        self.next_id += 1;
        let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        let message = self.stamp(message);
        let line = message.to_string();
        self.unread_unfenced = true;
        let exchange = self
            .exchange(method, &line, message.clone(), Some(id), true)
            .await;
        self.unread_unfenced = false;
        exchange
    }

    /// Writes several messages in one write, without waiting in between (pipelining),
    /// then waits for every request among them. Returns, per message, the exchange of a
    /// request or `None` for a notification. Responses may come in any order.
    pub async fn pipeline(&mut self, messages: &[Value]) -> Vec<Option<Exchange>> {
        let lines: Vec<Line> = messages.iter().cloned().map(Line::Message).collect();
        self.pipeline_lines(&lines).await
    }

    /// [`Session::pipeline`] with raw lines among the messages: a raw line (malformed on
    /// purpose, possibly not UTF-8) is written as is and nothing is awaited for it.
    /// Returns `None` for raw lines and notifications.
    pub async fn pipeline_lines(&mut self, lines: &[Line]) -> Vec<Option<Exchange>> {
        let lines = self.stamp_lines(lines);
        self.pipeline_inner(&lines, false).await.0
    }

    /// [`Session::pipeline`] followed at once by a ping (the fence, in a write of its
    /// own): a request among the messages still unanswered once the ping is answered gets
    /// a short grace (ten times the ping's round trip, 25 to 200 ms) and then counts as passed over
    /// ([`Silence::Overtaken`]), instead of waiting out the timeout. For requests that may
    /// rightly go unanswered (a cancelled one). Returns the exchanges and the ping's.
    pub async fn pipeline_fenced(
        &mut self,
        messages: &[Value],
    ) -> (Vec<Option<Exchange>>, Exchange) {
        let lines: Vec<Line> = messages.iter().cloned().map(Line::Message).collect();
        let lines = self.stamp_lines(&lines);
        let (out, fence) = self.pipeline_inner(&lines, true).await;
        (out, fence.expect("a fence was asked for"))
    }

    fn stamp_lines(&self, lines: &[Line]) -> Vec<Line> {
        lines
            .iter()
            .map(|line| match line {
                Line::Message(message) => Line::Message(self.stamp(message.clone())),
                raw => raw.clone(),
            })
            .collect()
    }

    async fn pipeline_inner(
        &mut self,
        lines: &[Line],
        fenced: bool,
    ) -> (Vec<Option<Exchange>>, Option<Exchange>) {
        let mut seqs = Vec::new();
        let mut joined: Vec<u8> = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                joined.push(b'\n');
            }
            let seq = match line {
                Line::Message(message) => {
                    let text = message.to_string();
                    joined.extend_from_slice(text.as_bytes());
                    self.transcript
                        .push_owned(Direction::Sent, text, Some(message.clone()))
                }
                Line::Raw(bytes) => {
                    joined.extend_from_slice(bytes);
                    self.transcript
                        .push(Direction::Sent, &String::from_utf8_lossy(bytes), None)
                }
            };
            if let Some(id) = line.request_id() {
                self.outstanding.push(Outstanding {
                    id: id.clone(),
                    seq,
                    answered: false,
                    sent: TokioInstant::now(),
                });
            }
            seqs.push(seq);
        }
        if self.ended.is_none() {
            self.lines_sent += lines.len() as u64;
            self.send(&joined).await;
        }
        let fence = if fenced {
            let id = json!(self.next_id);
            self.next_id += 1;
            let method = self.liveness_method();
            let ping = self.stamp(json!({"jsonrpc": "2.0", "id": id, "method": method}));
            let seq = self.transcript.entries().len();
            if self.ended.is_none() {
                let seq = self.write(&ping.to_string(), Some(ping.clone())).await;
                self.outstanding.push(Outstanding {
                    id: id.clone(),
                    seq,
                    answered: false,
                    sent: TokioInstant::now(),
                });
            }
            Some((id, seq, ping))
        } else {
            None
        };
        let deadline = TokioInstant::now() + self.config.timeout;
        let mut out = Vec::new();
        for (line, seq) in lines.iter().zip(seqs) {
            let (Line::Message(message), Some(id)) = (line, line.request_id()) else {
                out.push(None);
                continue;
            };
            let method = message
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let answered = self
                .transcript
                .received()
                .find(|e| e.answers == Some(seq))
                .map(|e| e.seq);
            let reply = match answered {
                Some(rseq) => {
                    let entry = self.transcript.get(rseq);
                    Reply::Response {
                        seq: rseq,
                        message: entry.and_then(|e| e.json.clone()).unwrap_or_default(),
                        id_match: entry.and_then(|e| e.id_match).unwrap_or(IdMatch::Exact),
                        listing_tail: entry.and_then(|e| e.listing_tail.clone()),
                    }
                }
                None => {
                    let target = Target {
                        id: Some(id),
                        seq: Some(seq),
                        accept_unread: false,
                        fence: fence.as_ref().map(|(id, ..)| id.clone()),
                        until_unreadable: false,
                    };
                    match self.pump(deadline, &target).await {
                        Ok(reply) => reply,
                        Err(silence) => Reply::Silent(silence),
                    }
                }
            };
            out.push(Some(Exchange {
                method,
                request_seq: seq,
                request: message.clone(),
                reply,
            }));
        }
        let fence = match fence {
            Some((id, seq, ping)) => Some(self.await_sent(id, seq, ping).await),
            None => None,
        };
        (out, fence)
    }

    /// Waits (the timeout, from now) for the answer to a request already written.
    async fn await_sent(&mut self, id: Value, seq: usize, request: Value) -> Exchange {
        let answered = self.late_answer(seq);
        let reply = match (answered, self.ended.clone()) {
            (Some(rseq), _) => self.response_at(rseq),
            (None, Some(end)) => Reply::Silent(end),
            (None, None) => {
                let target = Target {
                    id: Some(&id),
                    seq: Some(seq),
                    accept_unread: false,
                    fence: None,
                    until_unreadable: false,
                };
                let deadline = TokioInstant::now() + self.config.timeout;
                match self.pump(deadline, &target).await {
                    Ok(reply) => reply,
                    Err(silence) => {
                        self.note_silence(self.liveness_method(), &silence);
                        Reply::Silent(silence)
                    }
                }
            }
        };
        Exchange {
            method: self.liveness_method().into(),
            request_seq: seq,
            request,
            reply,
        }
    }

    /// Starts a new transcript when every request sent has been answered, so a session
    /// that lives for millions of requests (the live fuzz target) keeps bounded memory.
    /// Returns `false`, changing nothing, while a request is still outstanding.
    pub fn forget_history(&mut self) -> bool {
        if self.outstanding.iter().any(|o| !o.answered) || self.batch.is_some() {
            return false;
        }
        self.outstanding.clear();
        self.transcript.clear();
        self.lines_sent = 0;
        true
    }

    /// Lets another part of the run go on with this session: when the server still runs
    /// and every request sent was answered, the history is forgotten
    /// ([`Session::forget_history`]) and the new transcript opens with `note` (where the
    /// session comes from). `false`, changing nothing, otherwise.
    pub fn hand_over(&mut self, note: &str) -> bool {
        if self.exited().is_some() || !self.forget_history() {
            return false;
        }
        self.note(note);
        true
    }

    /// Whether the server process has exited (checked without waiting), as a silence.
    pub fn exited(&mut self) -> Option<Silence> {
        if let Some(end) = &self.ended {
            return Some(end.clone());
        }
        self.transport.try_exit().map(Silence::Exited)
    }

    /// Starts a conversation on this session's server: initialize with `params` and send `notifications/initialized`. Returns the initialize exchange.
    pub async fn handshake(&mut self, params: Value) -> Exchange {
        let init = self.request("initialize", Some(params)).await;
        if init.result().is_some() {
            self.notify("notifications/initialized", None).await;
        }
        init
    }

    /// Sends a raw line (malformed on purpose) and waits for a response with `id`, or
    /// an error response with a null or absent id (the server could not read one).
    ///
    /// A ping follows the line at once, so a server that passes over the line is known
    /// to be silent as soon as the ping is answered, without waiting out the timeout.
    pub async fn request_raw(&mut self, label: &str, line: &str, id: Option<Value>) -> Exchange {
        let request = serde_json::from_str(line).unwrap_or_else(|_| Value::String(line.into()));
        self.exchange(label, line, request, id, true).await
    }

    /// Sends a request written as `line` exactly (a session would stamp or reshape the
    /// message) and waits for the response with `id`, with no fence behind it: for a
    /// well-formed request whose answer is expected, so nothing else reaches the server in
    /// the same read.
    pub async fn request_line(&mut self, label: &str, line: &str, id: Value) -> Exchange {
        let request = serde_json::from_str(line).unwrap_or_else(|_| Value::String(line.into()));
        self.exchange(label, line, request, Some(id), false).await
    }

    /// Sends a JSON-RPC batch of requests (`RPC-BATCH-R2`) followed by a ping, and records
    /// how the batch was answered once the ping is (plus a short grace).
    pub async fn request_batch(&mut self, calls: &[(Value, &str)]) -> BatchExchange {
        let items: Vec<Value> = calls
            .iter()
            .map(|(id, method)| json!({"jsonrpc": "2.0", "id": id, "method": method}))
            .collect();
        self.send_batch(items).await
    }

    /// Sends any JSON array as a batch (empty, or notifications only: `RPC-BATCH-RESPONSE-R2`)
    /// followed by a ping, and records how it was answered once the ping is (plus a short
    /// grace). The requests among the items (those with `method` and `id`) are awaited.
    pub async fn send_batch(&mut self, items: Vec<Value>) -> BatchExchange {
        let ids: Vec<Value> = items
            .iter()
            .filter(|item| item.get("method").is_some())
            .filter_map(|item| item.get("id").cloned())
            .collect();
        let message = Value::Array(items);
        let request_seq = self.write(&message.to_string(), Some(message)).await;
        for id in &ids {
            self.outstanding.push(Outstanding {
                id: id.clone(),
                seq: request_seq,
                answered: false,
                sent: TokioInstant::now(),
            });
        }
        self.batch = Some((request_seq, Vec::new()));
        let sent = TokioInstant::now();
        let fence = self.liveness().await;
        if fence.response().is_some() {
            self.settle(fence_grace(sent.elapsed())).await;
        }
        let in_array = self.batch.take().map(|(_, ids)| ids).unwrap_or_default();
        let separate = self
            .transcript
            .received()
            .filter(|e| e.answers == Some(request_seq))
            .map(|e| e.seq)
            .collect();
        BatchExchange {
            request_seq,
            ids,
            in_array,
            separate,
            fence,
        }
    }

    /// Keeps reading for up to `window` for a response to `x`'s request that came after
    /// its wait ended (a slow answer), and returns that response's transcript seq. A
    /// response already read (while waiting for a later request) counts at once.
    pub async fn await_late(&mut self, x: &Exchange, window: Duration) -> Option<usize> {
        if let Some(seq) = self.late_answer(x.request_seq) {
            return Some(seq);
        }
        let id = x.request.get("id")?.clone();
        let target = Target {
            id: Some(&id),
            seq: Some(x.request_seq),
            accept_unread: false,
            fence: None,
            until_unreadable: false,
        };
        let deadline = TokioInstant::now() + window;
        match self.pump(deadline, &target).await {
            Ok(Reply::Response { seq, .. }) => Some(seq),
            _ => self.late_answer(x.request_seq),
        }
    }

    /// `x`, a request left unanswered when its wait ended, as answered when its response
    /// comes within `window` after all (or came meanwhile); otherwise `x` as it was.
    pub async fn answered_late(&mut self, x: Exchange, window: Duration) -> Exchange {
        match self.await_late(&x, window).await {
            Some(seq) => Exchange {
                reply: self.response_at(seq),
                ..x
            },
            None => x,
        }
    }

    /// The reply the response at transcript `seq` makes.
    fn response_at(&self, seq: usize) -> Reply {
        let entry = self.transcript.get(seq);
        Reply::Response {
            seq,
            message: entry.and_then(|e| e.json.clone()).unwrap_or_default(),
            id_match: entry.and_then(|e| e.id_match).unwrap_or(IdMatch::Exact),
            listing_tail: entry.and_then(|e| e.listing_tail.clone()),
        }
    }

    fn late_answer(&self, request_seq: usize) -> Option<usize> {
        self.transcript
            .received()
            .find(|e| e.answers == Some(request_seq))
            .map(|e| e.seq)
    }

    /// Writes a request (stamped like any other) without waiting for its answer: for a
    /// long-lived request such as `subscriptions/listen`, answered only when it ends. Its
    /// answer, when one comes, is still matched to it. Returns the request's seq.
    pub async fn send_request(&mut self, id: Value, method: &str, params: Value) -> usize {
        let message =
            self.stamp(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let seq = self.write(&message.to_string(), Some(message)).await;
        self.outstanding.push(Outstanding {
            id,
            seq,
            answered: false,
            sent: TokioInstant::now(),
        });
        seq
    }

    /// Sends notifications, then a ping (the fence), then reads for a short grace after the
    /// ping's answer, so a response to one of the notifications (there must be none) is
    /// recorded without waiting out a timeout. Returns the notifications' transcript seqs
    /// and the ping's exchange.
    pub async fn notify_fenced(&mut self, notifications: &[Value]) -> (Vec<usize>, Exchange) {
        let mut seqs = Vec::new();
        for message in notifications {
            seqs.push(
                self.write(&message.to_string(), Some(message.clone()))
                    .await,
            );
        }
        let sent = TokioInstant::now();
        let fence = self.liveness().await;
        if fence.response().is_some() {
            self.settle(fence_grace(sent.elapsed())).await;
        }
        (seqs, fence)
    }

    /// Sends a notification; nothing is awaited.
    pub async fn notify(&mut self, method: &str, params: Option<Value>) {
        let mut message = json!({"jsonrpc": "2.0", "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        let line = message.to_string();
        self.write(&line, Some(message)).await;
    }

    /// Reads whatever arrives during `window` (used to catch stray messages).
    pub async fn settle(&mut self, window: Duration) {
        let deadline = TokioInstant::now() + window;
        let _ = self.pump(deadline, &Target::none()).await;
    }
}

/// `message` with the per-request `_meta` fields `meta` added, as a modern session sends
/// it (see [`Session::stamp`]): fields the message already has win, and notifications,
/// responses and anything that is not an object pass as they are. Stamping twice is
/// stamping once, so a case file of stamped messages replays byte for byte.
pub fn stamp_request(meta: &Value, mut message: Value) -> Value {
    let is_request = message.get("method").is_some() && message.get("id").is_some();
    let Some(object) = message.as_object_mut().filter(|_| is_request) else {
        return message;
    };
    let params = object
        .entry("params")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    let Some(params) = params.as_object_mut() else {
        return message;
    };
    let existing = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    if let (Some(existing), Some(meta)) = (existing.as_object_mut(), meta.as_object()) {
        for (key, value) in meta {
            existing.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    message
}
