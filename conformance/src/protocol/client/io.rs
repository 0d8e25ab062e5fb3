//! The session's I/O loop: writing lines, reading transport events until a response (or
//! the deadline, or the server's end), and recording every line in the transcript.
//!
//! Correlation happens here: a response is matched to an outstanding request by exact id
//! first, then loosely; an error with a null id can answer a raw probe or a batch; any
//! other response is marked unsolicited. The server's own requests are answered here by
//! the fixed policy in the module doc (`ping` gets a result, anything else `-32601`).

use std::time::Duration;

use serde_json::{json, Value};
use tokio::time::Instant as TokioInstant;

use super::{Exchange, Reply, Session, Silence};
use crate::protocol::jsonrpc::{classify, id_match, IdMatch, MessageKind};
use crate::protocol::transcript::{Direction, FrameProblem};
use crate::transport::{Frame, TransportEvent};

/// A request we sent and are (or were) waiting for.
#[derive(Debug)]
pub(super) struct Outstanding {
    pub(super) id: Value,
    pub(super) seq: usize,
    pub(super) answered: bool,
}

/// What a wait is looking for.
pub(super) struct Target<'a> {
    pub(super) id: Option<&'a Value>,
    /// Transcript seq of the request, to link a response with an unreadable id to it.
    pub(super) seq: Option<usize>,
    /// Also accept an error response with a null or absent id.
    pub(super) accept_unread: bool,
    /// A ping sent right after the request: once it is answered, stop waiting (after a
    /// short grace for responses that are processed out of order).
    pub(super) fence: Option<Value>,
}

/// How long a request may still be answered after the ping sent behind it was.
pub(super) const FENCE_GRACE: Duration = Duration::from_millis(200);
/// How long output is still read after the server process exited: what it wrote just
/// before exiting may not have been read yet, and a descendant may hold stdout open
/// forever (generous, so machine load cannot lose a last answer).
pub(super) const EXIT_GRACE: Duration = Duration::from_millis(500);

impl Target<'_> {
    pub(super) fn none() -> Self {
        Target {
            id: None,
            seq: None,
            accept_unread: false,
            fence: None,
        }
    }
}

impl Session {
    pub(super) fn note(&mut self, text: &str) {
        self.transcript.push(Direction::Harness, text, None);
    }

    pub(super) async fn exchange(
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

    pub(super) async fn write(
        &mut self,
        line: &str,
        json: Option<Value>,
        auto_reply: bool,
    ) -> usize {
        // Everything we send that expects an answer: not our notifications, not our
        // answers to the server's requests.
        let notification = json
            .as_ref()
            .is_some_and(|j| j.get("method").is_some() && j.get("id").is_none());
        if !auto_reply && !notification {
            super::usage::count_request();
        }
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
    pub(super) async fn on_write_failed(&mut self) {
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
    pub(super) async fn pump(
        &mut self,
        deadline: TokioInstant,
        target: &Target<'_>,
    ) -> Result<Reply, Silence> {
        let mut deadline = deadline;
        let mut overtaken = false;
        let mut exited = false;
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
                // The process exited and its last output has been read; a descendant
                // may hold stdout open, but nothing it writes answers us.
                Err(_) if exited => {
                    self.on_stdout_closed().await;
                    continue;
                }
                Err(_) if overtaken => return Err(Silence::Overtaken),
                Err(_) => return Err(Silence::Timeout(self.config.timeout)),
                Ok(None) | Ok(Some(TransportEvent::StdoutClosed)) => {
                    self.on_stdout_closed().await;
                    continue;
                }
                Ok(Some(TransportEvent::Exited)) => {
                    // What it wrote before exiting may still be in the pipe: read on for
                    // a short grace, not until a descendant lets go of stdout.
                    exited = true;
                    deadline = deadline.min(TokioInstant::now() + EXIT_GRACE);
                    continue;
                }
                Ok(Some(event)) => event,
            };
            match event {
                TransportEvent::Stderr(line) => {
                    self.transcript.push(Direction::Stderr, &line, None);
                }
                TransportEvent::StdoutClosed | TransportEvent::Exited => {}
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
        let value = match serde_json::from_str::<Value>(&text) {
            Ok(value) => value,
            Err(e) => {
                // serde_json stops at 128 levels; its error says so only in words.
                let problem = if e.to_string().starts_with("recursion limit exceeded") {
                    FrameProblem::TooDeep
                } else {
                    FrameProblem::NotJson
                };
                let seq = self.transcript.push(Direction::Received, &text, None);
                self.mark(seq, problem);
                return None;
            }
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
