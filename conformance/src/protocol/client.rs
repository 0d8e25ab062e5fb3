//! The client side of one MCP session over stdio.
//!
//! A [`Session`] sends requests, waits for the response with the same id (every wait is
//! bounded by the configured timeout), answers requests the server sends us by a fixed
//! policy, and records everything in the [`Transcript`]. It never judges: whatever the
//! server does is recorded for the checks.
//!
//! Policy for server-to-client requests (we declare no client capabilities):
//! `ping` gets an empty result; any other method gets `-32601` (REQUIREMENTS.md
//! `RPC-ERR-METHOD-NOT-FOUND`: a method for a capability that was not declared).

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::time::Instant as TokioInstant;

use super::jsonrpc::{classify, id_match, IdMatch, MessageKind};
use super::transcript::{Direction, FrameProblem, Transcript};
use crate::transport::{ExitInfo, Frame, ServerCommand, StdioTransport, TransportEvent};

/// Timeouts and limits for a session.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// How long to wait for each response.
    pub timeout: Duration,
    /// Longest stdout line accepted.
    pub max_line: usize,
    /// How long a server may take to exit after its stdin is closed.
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

/// Why no response came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Silence {
    /// Nothing within the timeout.
    Timeout(Duration),
    /// The server process exited.
    Exited(ExitInfo),
    /// stdout closed, the process still running.
    StdoutClosed,
    /// The server did not read our request (stdin closed or stuck).
    WriteFailed,
    /// No response, and a ping sent right after it was answered first: the server
    /// passed over the request (used for malformed probes, so silence costs no timeout).
    Overtaken,
}

impl Silence {
    /// Whether the server may be dead or stuck (so its last stderr lines are evidence),
    /// as opposed to alive and merely passing over one request.
    pub fn suggests_trouble(&self) -> bool {
        !matches!(self, Silence::Overtaken)
    }

    /// One line for reports.
    pub fn describe(&self) -> String {
        match self {
            Silence::Timeout(d) => format!("no response within {:.1} s", d.as_secs_f64()),
            Silence::Exited(exit) => format!("the server exited ({})", exit.describe()),
            Silence::StdoutClosed => "the server closed its stdout".into(),
            Silence::WriteFailed => "the server did not read its stdin".into(),
            Silence::Overtaken => {
                "no response; a ping sent right after it was answered first".into()
            }
        }
    }
}

/// What came back for one request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A response, correlated to the request.
    Response {
        /// Transcript seq of the response.
        seq: usize,
        /// The response message.
        message: Value,
        /// How its id matched.
        id_match: IdMatch,
    },
    /// No response.
    Silent(Silence),
}

/// One request and its reply.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// The method (or a description for raw probes).
    pub method: String,
    /// Transcript seq of the request line.
    pub request_seq: usize,
    /// The request as sent (a JSON string holding the raw line for raw probes).
    pub request: Value,
    /// What came back.
    pub reply: Reply,
}

impl Exchange {
    /// The response message, if any.
    pub fn response(&self) -> Option<&Value> {
        match &self.reply {
            Reply::Response { message, .. } => Some(message),
            Reply::Silent(_) => None,
        }
    }

    /// `result` of a response that has one.
    pub fn result(&self) -> Option<&Value> {
        self.response().and_then(|m| m.get("result"))
    }

    /// `error` of a response that has one.
    pub fn error(&self) -> Option<&Value> {
        self.response().and_then(|m| m.get("error"))
    }

    /// `error.code` as an integer, if the error has one.
    pub fn error_code(&self) -> Option<i64> {
        self.error()
            .and_then(|e| e.get("code"))
            .and_then(Value::as_i64)
    }

    /// Transcript seqs of the request and its response, for evidence.
    pub fn seqs(&self) -> Vec<usize> {
        match &self.reply {
            Reply::Response { seq, .. } => vec![self.request_seq, *seq],
            Reply::Silent(_) => vec![self.request_seq],
        }
    }

    /// Why there was no response, if there was none.
    pub fn silence(&self) -> Option<&Silence> {
        match &self.reply {
            Reply::Silent(s) => Some(s),
            Reply::Response { .. } => None,
        }
    }
}

/// One line of a pipelined write.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// A JSON-RPC message; a request among them is waited for.
    Message(Value),
    /// Bytes written as they are (a malformed frame); nothing is waited for.
    Raw(Vec<u8>),
}

impl Line {
    /// The id of a request (a message with both `method` and `id`).
    pub fn request_id(&self) -> Option<&Value> {
        match self {
            Line::Message(m) => m.get("id").filter(|_| m.get("method").is_some()),
            Line::Raw(_) => None,
        }
    }
}

/// How a batch of requests was answered.
#[derive(Debug, Clone)]
pub struct BatchExchange {
    /// Transcript seq of the batch line.
    pub request_seq: usize,
    /// The ids of the requests in the batch.
    pub ids: Vec<Value>,
    /// Ids answered inside array responses.
    pub in_array: Vec<Value>,
    /// Transcript seqs of single (non-array) messages answering the batch.
    pub separate: Vec<usize>,
    /// The ping sent after the batch.
    pub fence: Exchange,
}

/// A request we sent and are (or were) waiting for.
#[derive(Debug)]
struct Outstanding {
    id: Value,
    seq: usize,
    answered: bool,
}

/// What a wait is looking for.
struct Target<'a> {
    id: Option<&'a Value>,
    /// Transcript seq of the request, to link a response with an unreadable id to it.
    seq: Option<usize>,
    /// Also accept an error response with a null or absent id.
    accept_unread: bool,
    /// A ping sent right after the request: once it is answered, stop waiting (after a
    /// short grace for responses that are processed out of order).
    fence: Option<Value>,
}

/// How long a request may still be answered after the ping sent behind it was.
const FENCE_GRACE: Duration = Duration::from_millis(200);

impl Target<'_> {
    fn none() -> Self {
        Target {
            id: None,
            seq: None,
            accept_unread: false,
            fence: None,
        }
    }
}

/// A live session with one server process.
#[derive(Debug)]
pub struct Session {
    transport: StdioTransport,
    transcript: Transcript,
    config: SessionConfig,
    next_id: i64,
    outstanding: Vec<Outstanding>,
    ended: Option<Silence>,
    /// While a batch probe waits: its request seq (an error with a null id answers it) and
    /// the ids answered inside array responses.
    batch: Option<(usize, Vec<Value>)>,
}

impl Session {
    /// Spawns the server and starts recording.
    pub fn start(command: &ServerCommand, config: SessionConfig) -> crate::Result<Self> {
        let transport = StdioTransport::spawn(command, config.max_line)?;
        Ok(Self {
            transport,
            transcript: Transcript::default(),
            config,
            next_id: 1,
            outstanding: Vec::new(),
            ended: None,
            batch: None,
        })
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
    pub fn into_transcript(self) -> Transcript {
        self.transcript.clone()
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
        let line = message.to_string();
        self.exchange(method, &line, message.clone(), Some(id), false)
            .await
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
                });
            }
            seqs.push(seq);
        }
        if self.ended.is_none() {
            let sent = self.transport.send_line(&joined, self.config.timeout).await;
            if !sent && self.ended.is_none() {
                self.on_write_failed().await;
            }
        }
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
                        message: entry.and_then(|e| e.json.clone()).unwrap_or(Value::Null),
                        id_match: entry.and_then(|e| e.id_match).unwrap_or(IdMatch::Exact),
                    }
                }
                None => {
                    let target = Target {
                        id: Some(id),
                        seq: Some(seq),
                        accept_unread: false,
                        fence: None,
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
        out
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

    /// Sends a JSON-RPC batch of requests (`RPC-BATCH-R2`) followed by a ping, and records
    /// how the batch was answered once the ping is (plus a short grace).
    pub async fn request_batch(&mut self, calls: &[(Value, &str)]) -> BatchExchange {
        let items: Vec<Value> = calls
            .iter()
            .map(|(id, method)| json!({"jsonrpc": "2.0", "id": id, "method": method}))
            .collect();
        let message = Value::Array(items);
        let request_seq = self.write(&message.to_string(), Some(message), false).await;
        for (id, _) in calls {
            self.outstanding.push(Outstanding {
                id: id.clone(),
                seq: request_seq,
                answered: false,
            });
        }
        self.batch = Some((request_seq, Vec::new()));
        let fence = self.request("ping", None).await;
        if fence.response().is_some() {
            self.settle(FENCE_GRACE).await;
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
            ids: calls.iter().map(|(id, _)| id.clone()).collect(),
            in_array,
            separate,
            fence,
        }
    }

    /// Sends a notification; nothing is awaited.
    pub async fn notify(&mut self, method: &str, params: Option<Value>) {
        let mut message = json!({"jsonrpc": "2.0", "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        let line = message.to_string();
        self.write(&line, Some(message), false).await;
    }

    /// Reads whatever arrives during `window` (used to catch stray messages).
    pub async fn settle(&mut self, window: Duration) {
        let deadline = TokioInstant::now() + window;
        let _ = self.pump(deadline, &Target::none()).await;
    }

    /// Closes stdin and waits up to the shutdown grace for the server to exit by itself,
    /// then terminates its process group. Returns the exit and whether it was voluntary.
    pub async fn shutdown(&mut self) -> (ExitInfo, bool, Duration) {
        let started = Instant::now();
        self.transport.close_stdin();
        let deadline = TokioInstant::now() + self.config.shutdown_grace;
        // Keep draining output so a chatty server is not blocked on a full pipe.
        loop {
            if let Some(exit) = self.transport.try_exit() {
                self.note(&format!(
                    "server exited after stdin closed ({})",
                    exit.describe()
                ));
                return (exit, true, started.elapsed());
            }
            let step = TokioInstant::now() + Duration::from_millis(20);
            let until = step.min(deadline);
            let _ = self.pump(until, &Target::none()).await;
            if TokioInstant::now() >= deadline {
                break;
            }
        }
        let exit = self.transport.terminate(Duration::from_millis(500)).await;
        self.note(&format!(
            "server still running {:.1} s after stdin closed; terminated ({})",
            self.config.shutdown_grace.as_secs_f64(),
            exit.describe()
        ));
        (exit, false, started.elapsed())
    }

    /// Kills the server without the graceful steps (for short probe sessions).
    pub async fn kill(&mut self) {
        let _ = self.transport.terminate(Duration::from_millis(200)).await;
    }

    fn note(&mut self, text: &str) {
        self.transcript.push(Direction::Harness, text, None);
    }

    async fn exchange(
        &mut self,
        method: &str,
        line: &str,
        request: Value,
        id: Option<Value>,
        accept_unread: bool,
    ) -> Exchange {
        let request_seq = self.transcript.entries().len();
        let silent = |s: Silence| Reply::Silent(s);
        if let Some(end) = self.ended.clone() {
            self.transcript.push(
                Direction::Harness,
                &format!("not sent ({}): {line}", end.describe()),
                None,
            );
            return Exchange {
                method: method.into(),
                request_seq,
                request,
                reply: silent(end),
            };
        }
        let request_seq = self.write(line, Some(request.clone()), false).await;
        if let Some(id) = &id {
            self.outstanding.push(Outstanding {
                id: id.clone(),
                seq: request_seq,
                answered: false,
            });
        }
        let fence = if accept_unread && self.ended.is_none() {
            let fence_id = json!(format!("fence-{}", self.next_id));
            self.next_id += 1;
            let ping = json!({"jsonrpc": "2.0", "id": fence_id, "method": "ping"});
            let seq = self
                .write(&ping.to_string(), Some(ping.clone()), false)
                .await;
            self.outstanding.push(Outstanding {
                id: fence_id.clone(),
                seq,
                answered: false,
            });
            Some(fence_id)
        } else {
            None
        };
        let reply = if let Some(end) = self.ended.clone() {
            self.note(&format!("{method}: {}", end.describe()));
            silent(end)
        } else {
            let deadline = TokioInstant::now() + self.config.timeout;
            let target = Target {
                id: id.as_ref(),
                seq: Some(request_seq),
                accept_unread,
                fence,
            };
            match self.pump(deadline, &target).await {
                Ok(reply) => reply,
                Err(silence) => {
                    self.note(&format!("{method}: {}", silence.describe()));
                    silent(silence)
                }
            }
        };
        Exchange {
            method: method.into(),
            request_seq,
            request,
            reply,
        }
    }

    async fn write(&mut self, line: &str, json: Option<Value>, auto_reply: bool) -> usize {
        let seq = self.transcript.push(Direction::Sent, line, json);
        if let Some(entry) = self.transcript.get_mut(seq) {
            entry.auto_reply = auto_reply;
        }
        let sent = self
            .transport
            .send_line(line.as_bytes(), self.config.timeout)
            .await;
        if !sent && self.ended.is_none() {
            self.on_write_failed().await;
        }
        seq
    }

    /// The server stopped reading: most often it exited. Read what it left (last stdout
    /// lines, stderr, its exit) so the transcript says so whatever the timing was.
    async fn on_write_failed(&mut self) {
        let deadline = TokioInstant::now() + Duration::from_secs(1);
        // Boxed: pumping may answer a server request, which writes again.
        let _ = Box::pin(self.pump(deadline, &Target::none())).await;
        if self.ended.is_none() {
            self.ended = Some(match self.transport.try_exit() {
                Some(exit) => Silence::Exited(exit),
                None => Silence::WriteFailed,
            });
        }
    }

    /// Reads events until the target response arrives (`Ok`), or the deadline passes or
    /// the server goes away (`Err`). Everything read is recorded on the way.
    async fn pump(
        &mut self,
        deadline: TokioInstant,
        target: &Target<'_>,
    ) -> Result<Reply, Silence> {
        let mut deadline = deadline;
        let mut overtaken = false;
        loop {
            if !overtaken && self.fence_answered(target) {
                overtaken = true;
                deadline = deadline.min(TokioInstant::now() + FENCE_GRACE);
            }
            if let Some(end) = &self.ended {
                return Err(end.clone());
            }
            // An event already queued needs no timer (most responses after the first).
            let ready = match self.transport.try_next_event() {
                Some(event) => Ok(Some(event)),
                None => tokio::time::timeout_at(deadline, self.transport.next_event()).await,
            };
            let event = match ready {
                Err(_) if overtaken => return Err(Silence::Overtaken),
                Err(_) => return Err(Silence::Timeout(self.config.timeout)),
                Ok(None) | Ok(Some(TransportEvent::StdoutClosed)) => {
                    self.on_stdout_closed().await;
                    continue;
                }
                Ok(Some(event)) => event,
            };
            match event {
                TransportEvent::Stderr(line) => {
                    self.transcript.push(Direction::Stderr, &line, None);
                }
                TransportEvent::StdoutClosed => {}
                TransportEvent::Stdout(frame) => {
                    if let Some(reply) = self.on_frame(frame, target).await {
                        return Ok(reply);
                    }
                }
            }
        }
    }

    fn fence_answered(&self, target: &Target<'_>) -> bool {
        target
            .fence
            .as_ref()
            .is_some_and(|f| self.outstanding.iter().any(|o| &o.id == f && o.answered))
    }

    async fn on_stdout_closed(&mut self) {
        let exit = self.transport.wait_exit(Duration::from_secs(1)).await;
        let silence = match exit {
            Some(exit) => Silence::Exited(exit),
            None => Silence::StdoutClosed,
        };
        // Drain what stderr still holds: the last lines explain a crash. Once the process
        // has exited its stderr closes too, so read until the channel ends (bounded, in
        // case a grandchild keeps the pipe open), not merely until a quiet moment.
        let deadline = TokioInstant::now() + Duration::from_secs(1);
        while let Ok(Some(event)) =
            tokio::time::timeout_at(deadline, self.transport.next_event()).await
        {
            if let TransportEvent::Stderr(line) = event {
                self.transcript.push(Direction::Stderr, &line, None);
            }
        }
        self.note(&silence.describe());
        self.ended = Some(silence);
    }

    async fn on_frame(&mut self, frame: Frame, target: &Target<'_>) -> Option<Reply> {
        let text = match frame {
            Frame::Line(text) => text,
            Frame::InvalidUtf8(bytes) => {
                let seq = self.transcript.push(
                    Direction::Received,
                    &String::from_utf8_lossy(&bytes),
                    None,
                );
                self.mark(seq, FrameProblem::InvalidUtf8);
                return None;
            }
            Frame::Overlong { head, length } => {
                let seq = self.transcript.push(
                    Direction::Received,
                    &String::from_utf8_lossy(&head),
                    None,
                );
                self.mark(seq, FrameProblem::Overlong { length });
                return None;
            }
        };
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            let seq = self.transcript.push(Direction::Received, &text, None);
            self.mark(seq, FrameProblem::NotJson);
            return None;
        };
        let kind = classify(&value);
        let seq = self
            .transcript
            .push_owned(Direction::Received, text, Some(value.clone()));
        match kind {
            MessageKind::NotAMessage => self.mark(seq, FrameProblem::NotAMessage),
            MessageKind::Request => self.answer_server_request(&value).await,
            MessageKind::Notification => {}
            MessageKind::Batch => self.on_batch_response(seq, &value),
            MessageKind::Response => return self.correlate(seq, value, target),
        }
        None
    }

    /// An array from the server answers a batch of ours: each element marks its request.
    fn on_batch_response(&mut self, seq: usize, value: &Value) {
        let Some((batch_seq, ids)) = self.batch.as_mut() else {
            self.mark(seq, FrameProblem::NotAMessage);
            return;
        };
        let batch_seq = *batch_seq;
        for element in value.as_array().into_iter().flatten() {
            let got = element.get("id").cloned().unwrap_or(Value::Null);
            if let Some(o) = self
                .outstanding
                .iter_mut()
                .find(|o| o.seq == batch_seq && !o.answered && o.id == got)
            {
                o.answered = true;
                ids.push(got);
            }
        }
        if let Some(entry) = self.transcript.get_mut(seq) {
            entry.answers = Some(batch_seq);
        }
    }

    fn mark(&mut self, seq: usize, problem: FrameProblem) {
        if let Some(entry) = self.transcript.get_mut(seq) {
            entry.problem = Some(problem);
        }
    }

    fn correlate(&mut self, seq: usize, value: Value, target: &Target<'_>) -> Option<Reply> {
        let got = value.get("id").cloned().unwrap_or(Value::Null);
        // Exact matches first, so a loose match never steals another request's response.
        let found = [IdMatch::Exact, IdMatch::Loose]
            .into_iter()
            .find_map(|want| {
                self.outstanding
                    .iter()
                    .position(|o| !o.answered && id_match(&o.id, &got) == Some(want))
                    .map(|i| (i, want))
            });
        if let Some((i, how)) = found {
            self.outstanding[i].answered = true;
            let request_seq = self.outstanding[i].seq;
            let is_target = target.id.is_some_and(|t| t == &self.outstanding[i].id);
            if let Some(entry) = self.transcript.get_mut(seq) {
                entry.answers = Some(request_seq);
                entry.id_match = Some(how);
            }
            return is_target.then_some(Reply::Response {
                seq,
                message: value,
                id_match: how,
            });
        }
        if target.accept_unread && got.is_null() && value.get("error").is_some() {
            if let Some(entry) = self.transcript.get_mut(seq) {
                entry.answers = target.seq;
                entry.id_match = Some(IdMatch::Unread);
            }
            if let Some(t) = target.id {
                if let Some(o) = self.outstanding.iter_mut().find(|o| &o.id == t) {
                    o.answered = true;
                }
            }
            return Some(Reply::Response {
                seq,
                message: value,
                id_match: IdMatch::Unread,
            });
        }
        if let Some((batch_seq, _)) = &self.batch {
            if got.is_null() && value.get("error").is_some() {
                let batch_seq = *batch_seq;
                if let Some(entry) = self.transcript.get_mut(seq) {
                    entry.answers = Some(batch_seq);
                    entry.id_match = Some(IdMatch::Unread);
                }
                return None;
            }
        }
        if let Some(entry) = self.transcript.get_mut(seq) {
            // A second response to an id already answered is as unsolicited as a response
            // to an id never sent.
            entry.unsolicited = true;
        }
        None
    }

    async fn answer_server_request(&mut self, request: &Value) {
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        let method = request
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let reply = if method == "ping" {
            json!({"jsonrpc": "2.0", "id": id, "result": {}})
        } else {
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601,
                "message": format!("Method not found: the conformance client declared no capability for {method}")}})
        };
        self.write(&reply.to_string(), Some(reply.clone()), true)
            .await;
    }
}
