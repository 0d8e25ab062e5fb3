//! The session's I/O loop: writing lines, reading transport events until a response (or
//! the deadline, or the server's end), and recording every line in the transcript.
//!
//! Correlation happens here: a response is matched to an outstanding request by exact id
//! first, then loosely; an error with a null id can answer a raw probe or a batch; any
//! other response is marked unsolicited. The server's own requests are answered here by
//! the fixed policy in the module doc (`ping` gets a result, anything else `-32601`).
//!
//! Every wait is bounded twice: by its deadline, checked on every event (a stream of
//! unrelated traffic never extends it), and per session by [`flood_bound`]: past that
//! many unprompted messages the session is cut ([`Silence::Flooded`]). A write the server
//! does not take ends the session at once: nothing more is written to it, so a server
//! that never reads costs one timeout, not one per automatic answer.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::time::Instant as TokioInstant;

use super::{Exchange, ListingTail, Reply, Session, Silence};
use crate::protocol::jsonrpc::{classify, id_match, IdMatch, MessageKind};
use crate::protocol::transcript::{thousands, Direction, FrameProblem, Unprompted};
use crate::transport::{Frame, TransportEvent};

/// A request we sent and are (or were) waiting for.
#[derive(Debug)]
pub(super) struct Outstanding {
    pub(super) id: Value,
    pub(super) seq: usize,
    pub(super) answered: bool,
    /// When it was written (a fence's round trip sets the grace after it).
    pub(super) sent: TokioInstant,
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
    /// Give up at the first line that cannot be read as a message (not JSON, too deep, not
    /// JSON-RPC): it may be the very answer waited for, unreadable.
    pub(super) until_unreadable: bool,
}

/// A wait's deadline, pushed back by the scheduling lag seen since the wait began
/// ([`lag`](super::lag)): a loaded machine is not a slow server.
struct Stretch {
    began: TokioInstant,
    deadline: TokioInstant,
    lost: Duration,
    granted: Duration,
    /// The lag seen since the wait began, when the deadline last passed.
    lag: Duration,
}

impl Stretch {
    fn new(deadline: TokioInstant) -> Self {
        Self {
            began: TokioInstant::now(),
            deadline,
            lost: super::lag::lost(),
            granted: Duration::ZERO,
            lag: Duration::ZERO,
        }
    }

    /// Why the wait ended without a later deadline: a timeout of `timeout`, or, when the
    /// lag passed what a wait is stretched by, a machine too loaded to judge.
    fn silence(&self, timeout: Duration) -> Silence {
        let window = self.deadline.saturating_duration_since(self.began);
        if self.lag > window * super::lag::STRETCH_CAP {
            Silence::Starved {
                waited: window,
                lag: self.lag,
            }
        } else {
            Silence::Timeout(timeout)
        }
    }

    /// The deadline passed: the later one the lag since the wait began allows, if it is
    /// still ahead (each grant counted in the part's usage).
    async fn later(&mut self) -> Option<TokioInstant> {
        let now = TokioInstant::now();
        if now.saturating_duration_since(self.deadline) > super::lag::TICK {
            // The timer itself fired late: the harness may have just been stopped, and
            // the monitor not yet woken to count it.
            tokio::time::sleep(super::lag::TICK * 2).await;
        }
        let lag = super::lag::lost().saturating_sub(self.lost);
        self.lag = lag;
        let window = self.deadline.saturating_duration_since(self.began);
        let allowed = super::lag::stretch(window, lag);
        if allowed <= self.granted || self.deadline + allowed <= TokioInstant::now() {
            return None;
        }
        super::usage::count_stretch(self.granted.is_zero(), allowed - self.granted);
        self.granted = allowed;
        Some(self.deadline + allowed)
    }
}

/// The id of a fence ping is this, then a number.
const FENCE_PREFIX: &str = "fence-";

/// The first request of a session waits this many timeouts (it includes the start).
pub(super) const STARTUP_FACTOR: u32 = 3;

/// How long a request may still be answered after the ping sent behind it was, at most:
/// the grace is ten times the ping's own round trip, at least [`MIN_FENCE_GRACE`], so a
/// server that answers in a millisecond costs 25 ms per fenced probe, and a server slowed
/// by load gets the whole 200 ms.
pub(super) const FENCE_GRACE: Duration = Duration::from_millis(200);
/// The least grace after a fence.
pub(super) const MIN_FENCE_GRACE: Duration = Duration::from_millis(25);

/// The grace after a fence answered `round_trip` after it was sent.
pub(super) fn fence_grace(round_trip: Duration) -> Duration {
    (round_trip * 10).clamp(MIN_FENCE_GRACE, FENCE_GRACE)
}
/// How long output is still read after the server process exited: what it wrote just
/// before exiting may not have been read yet, and a descendant may hold stdout open
/// forever (generous, so machine load cannot lose a last answer).
pub(super) const EXIT_GRACE: Duration = Duration::from_millis(500);

/// Unprompted stdout messages a session takes before it is cut, whatever it sent...
const FLOOD_FLOOR: u64 = 10_000;
/// ...plus this many per line we wrote (progress and log notifications while a tool
/// runs are fine; a stream that never ends is not).
const FLOOD_PER_LINE: u64 = 10;
/// Bytes of unprompted stdout a session takes before it is cut, plus
/// [`FLOOD_BYTES_PER_LINE`] per line we wrote.
const FLOOD_BYTES: u64 = 64 * 1024 * 1024;
/// See [`FLOOD_BYTES`].
const FLOOD_BYTES_PER_LINE: u64 = 256 * 1024;

/// The bound on unprompted traffic after `ours` lines written: (messages, bytes).
pub fn flood_bound(ours: u64) -> (u64, u64) {
    (
        FLOOD_FLOOR.saturating_add(FLOOD_PER_LINE.saturating_mul(ours)),
        FLOOD_BYTES.saturating_add(FLOOD_BYTES_PER_LINE.saturating_mul(ours)),
    )
}

/// How a response found its place.
enum Correlation {
    /// It answers outstanding request `index`, matched this way.
    Outstanding(usize, IdMatch),
    /// An error with a null id taken as the answer of the raw probe waited for.
    Unread,
    /// An error with a null id, for the batch probe at this seq.
    Batch(usize),
    /// It answers nothing outstanding.
    Unsolicited,
}

impl Target<'_> {
    pub(super) fn none() -> Self {
        Target {
            id: None,
            seq: None,
            accept_unread: false,
            fence: None,
            until_unreadable: false,
        }
    }
}

impl Session {
    pub(super) fn note(&mut self, text: &str) {
        self.transcript.push(Direction::Harness, text, None);
    }

    /// The note that `method` got no response, and why: a wait the machine kept the
    /// harness from judging is noted as load ([`Direction::Load`]), not as the server's.
    pub(super) fn note_silence(&mut self, method: &str, silence: &Silence) {
        let direction = match silence {
            Silence::Starved { .. } => Direction::Load,
            _ => Direction::Harness,
        };
        let text = format!("{method}: {}", silence.describe());
        self.transcript.push(direction, &text, None);
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
        let request_seq = self.write(line, Some(request.clone())).await;
        if let Some(id) = &id {
            self.outstanding.push(Outstanding {
                id: id.clone(),
                seq: request_seq,
                answered: false,
                sent: TokioInstant::now(),
            });
        }
        let fence = if accept_unread && self.ended.is_none() && !self.unread_unfenced {
            let fence_id = json!(format!("{FENCE_PREFIX}{}", self.next_id));
            self.next_id += 1;
            let method = self.liveness_method();
            let ping = self.stamp(json!({"jsonrpc": "2.0", "id": fence_id, "method": method}));
            let seq = self.write(&ping.to_string(), Some(ping.clone())).await;
            self.outstanding.push(Outstanding {
                id: fence_id.clone(),
                seq,
                answered: false,
                sent: TokioInstant::now(),
            });
            Some(fence_id)
        } else {
            None
        };
        let reply = if let Some(end) = self.ended.clone() {
            self.note(&format!("{method}: {}", end.describe()));
            silent(end)
        } else {
            // The first request of a session (initialize) waits for the process to start
            // as well: on a loaded machine an interpreter's start alone can take seconds,
            // and a slow start is not a silent server.
            let wait = if std::mem::take(&mut self.starting) {
                self.config.timeout * STARTUP_FACTOR
            } else {
                self.config.timeout
            };
            let deadline = TokioInstant::now() + wait;
            let target = Target {
                id: id.as_ref(),
                seq: Some(request_seq),
                accept_unread,
                fence,
                until_unreadable: false,
            };
            match self.pump(deadline, &target).await {
                Ok(reply) => {
                    self.timed_out_at = None;
                    self.drain_to_fence(&target, deadline).await;
                    reply
                }
                Err(silence @ Silence::Starved { .. }) => {
                    // Says nothing of the server: not counted towards a stall.
                    self.note_silence(method, &silence);
                    silent(silence)
                }
                Err(Silence::Timeout(_)) => {
                    let silence = Silence::Timeout(wait);
                    self.note(&format!("{method}: {}", silence.describe()));
                    // A second timeout with nothing read since the first: the server is
                    // stalled on everything; later steps are not sent (each would only
                    // wait out the timeout again).
                    if self.timed_out_at.replace(self.frames_read) == Some(self.frames_read) {
                        self.ended = Some(Silence::Stalled(self.config.timeout));
                    }
                    silent(silence)
                }
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

    pub(super) async fn write(&mut self, line: &str, json: Option<Value>) -> usize {
        // Everything a scenario sends that expects an answer (our automatic answers to
        // the server's requests do not come through here), not our notifications.
        let notification = json
            .as_ref()
            .is_some_and(|j| j.get("method").is_some() && j.get("id").is_none());
        if !notification {
            super::usage::count_request();
        }
        if let Some(token) = json
            .as_ref()
            .and_then(|j| j.pointer("/params/_meta/progressToken"))
        {
            if !self.progress_tokens.contains(token) {
                self.progress_tokens.push(token.clone());
            }
        }
        let seq = self.transcript.push(Direction::Sent, line, json);
        self.lines_sent += 1;
        self.send(line.as_bytes()).await;
        seq
    }

    /// Writes one line to the server, unless an earlier write failed. (Only the lines
    /// of a scenario count in `lines_sent`: our automatic answers do not raise the
    /// flood bound.)
    pub(super) async fn send(&mut self, bytes: &[u8]) {
        if self.stdin_failed {
            return;
        }
        let sent = self.transport.send_line(bytes, self.config.timeout).await;
        if !sent && self.ended.is_none() {
            self.on_write_failed().await;
        }
    }

    /// The server stopped reading: most often it exited. Nothing more is written to it
    /// (each write would wait the timeout again); read what it left (last stdout lines,
    /// stderr, its exit) so the transcript says so whatever the timing was.
    pub(super) async fn on_write_failed(&mut self) {
        self.stdin_failed = true;
        let deadline = TokioInstant::now() + Duration::from_secs(1);
        // Boxed: pumping may answer a server request, which comes back here.
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
        let unreadable = self.transcript.unprompted().stray;
        let mut stretch = Stretch::new(deadline);
        loop {
            if target.until_unreadable && self.transcript.unprompted().stray > unreadable {
                return Err(Silence::Overtaken);
            }
            if let (false, Some(sent)) = (overtaken, self.fence_answered(target)) {
                overtaken = true;
                let now = TokioInstant::now();
                deadline = deadline.min(now + fence_grace(now - sent));
            }
            if let Some(end) = &self.ended {
                return Err(end.clone());
            }
            // An event already queued needs no timer (most responses after the first),
            // but the deadline holds even while events keep coming.
            let ready = if TokioInstant::now() >= deadline {
                None
            } else if let Some(event) = self.transport.try_next_event() {
                Some(Some(event))
            } else {
                tokio::time::timeout_at(deadline, self.transport.next_event())
                    .await
                    .ok()
            };
            let event = match ready {
                // The process exited and its last output has been read; a descendant
                // may hold stdout open, but nothing it writes answers us.
                None if exited => {
                    self.on_stdout_closed().await;
                    continue;
                }
                None if overtaken => return Err(Silence::Overtaken),
                None => match stretch.later().await {
                    Some(later) => {
                        deadline = later;
                        continue;
                    }
                    None => return Err(stretch.silence(self.config.timeout)),
                },
                Some(None) | Some(Some(TransportEvent::StdoutClosed)) => {
                    self.on_stdout_closed().await;
                    continue;
                }
                Some(Some(TransportEvent::Exited)) => {
                    // What it wrote before exiting may still be in the pipe: read on for
                    // a short grace, not until a descendant lets go of stdout.
                    exited = true;
                    deadline = deadline.min(TokioInstant::now() + EXIT_GRACE);
                    continue;
                }
                Some(Some(event)) => event,
            };
            match event {
                TransportEvent::Stderr(line) => self.record_stderr(line),
                TransportEvent::Note(text) => self.note(&text),
                TransportEvent::StdoutClosed | TransportEvent::Exited => {}
                TransportEvent::Stdout(frame) => {
                    if let Some(reply) = self.on_frame(frame, target, None).await {
                        return Ok(reply);
                    }
                }
                TransportEvent::Answer { frame, request } => {
                    if let Some(reply) = self.on_frame(frame, target, Some(&request)).await {
                        return Ok(reply);
                    }
                }
            }
        }
    }

    /// After a fenced probe got its answer, reads on until the fence is answered too (by
    /// `deadline` at most): whatever the server wrote between the two (a second answer to
    /// the probe, most often) is then recorded within this probe, and cannot be taken for
    /// the answer to the next one, which may accept an error with a null id.
    ///
    /// A server that left an earlier fence unanswered, or answers this one with a line that
    /// cannot be read, is not waited for: it would cost a timeout per probe.
    async fn drain_to_fence(&mut self, target: &Target<'_>, deadline: TokioInstant) {
        let Some(fence) = &target.fence else { return };
        if self.ended.is_some() || self.fence_answered(target).is_some() {
            return;
        }
        let earlier_unanswered = self.outstanding.iter().any(|o| {
            &o.id != fence
                && !o.answered
                && o.id.as_str().is_some_and(|id| id.starts_with(FENCE_PREFIX))
        });
        if earlier_unanswered {
            return;
        }
        let fence_target = Target {
            id: Some(fence),
            seq: None,
            accept_unread: false,
            fence: None,
            until_unreadable: true,
        };
        // Silence here is the next request's to find: no note, no timeout counted.
        let _ = self.pump(deadline, &fence_target).await;
    }

    /// When the target's fence was sent, once it has been answered.
    fn fence_answered(&self, target: &Target<'_>) -> Option<TokioInstant> {
        let fence = target.fence.as_ref()?;
        self.outstanding
            .iter()
            .find(|o| &o.id == fence && o.answered)
            .map(|o| o.sent)
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
                self.record_stderr(line);
            }
        }
        self.note(&silence.describe());
        self.ended = Some(silence);
    }

    pub(super) fn record_stderr(&mut self, line: String) {
        self.transcript
            .push_unprompted(Unprompted::Stderr, Direction::Stderr, line, None);
    }

    /// Records an unprompted stdout line, with its problem if it has one, and cuts the
    /// session once the traffic passes [`flood_bound`]. Returns its seq when kept.
    fn record_unprompted(
        &mut self,
        kind: Unprompted,
        text: String,
        json: Option<Value>,
        problem: Option<FrameProblem>,
    ) -> Option<usize> {
        let seq = self
            .transcript
            .push_unprompted(kind, Direction::Received, text, json);
        if let (Some(seq), Some(problem)) = (seq, problem) {
            self.mark(seq, problem);
        }
        let seen = *self.transcript.unprompted();
        let (messages, bytes) = flood_bound(self.lines_sent);
        if self.ended.is_none() && (seen.stdout_messages() > messages || seen.bytes > bytes) {
            let silence = Silence::Flooded {
                messages: seen.stdout_messages(),
                ours: self.lines_sent,
                progress: seen.progress,
            };
            self.note(&format!(
                "{}: {} ({} bytes); the bound after {} lines of ours is {} messages or {} bytes",
                silence.describe(),
                seen.describe(),
                thousands(seen.bytes),
                thousands(self.lines_sent),
                thousands(messages),
                thousands(bytes)
            ));
            self.transcript.mark_flood_cut();
            self.ended = Some(silence);
        }
        seq
    }

    /// `posted` is the id of the request whose HTTP POST's answer carried the frame, when
    /// the transport says so ([`TransportEvent::Answer`]).
    async fn on_frame(
        &mut self,
        frame: Frame,
        target: &Target<'_>,
        posted: Option<&Value>,
    ) -> Option<Reply> {
        self.frames_read += 1;
        let stray = Unprompted::Stray;
        let text = match frame {
            Frame::Line(text) => text,
            Frame::InvalidUtf8(bytes) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                self.record_unprompted(stray, text, None, Some(FrameProblem::InvalidUtf8));
                return None;
            }
            Frame::Overlong { head, length } => {
                let text = String::from_utf8_lossy(&head).into_owned();
                let problem = FrameProblem::Overlong { length };
                self.record_unprompted(stray, text, None, Some(problem));
                return None;
            }
        };
        if super::skim::is_wide(&text) {
            if super::skim::is_notification(&text) {
                self.on_wide_notification(text);
                return None;
            }
            if let Some((value, tail)) = super::listing::cut(&text) {
                return self.on_response(text, value, Some(tail), target, posted);
            }
        }
        let value = match serde_json::from_str::<Value>(&text) {
            Ok(value) => value,
            Err(e) => {
                // serde_json stops at 128 levels; its error says so only in words.
                if e.to_string().starts_with("recursion limit exceeded") {
                    return self.on_too_deep(text, target);
                }
                self.record_unprompted(stray, text, None, Some(FrameProblem::NotJson));
                return None;
            }
        };
        match classify(&value) {
            MessageKind::NotAMessage => {
                let problem = Some(FrameProblem::NotAMessage);
                self.record_unprompted(stray, text, Some(value), problem);
            }
            MessageKind::Request => {
                let json = Some(value.clone());
                let kept = self.record_unprompted(Unprompted::Request, text, json, None);
                self.answer_server_request(&value, kept.is_some()).await;
            }
            MessageKind::Notification => {
                // Progress for a token of ours answers (in part) a request of ours.
                let token = (value.get("method").and_then(Value::as_str)
                    == Some("notifications/progress"))
                .then(|| value.pointer("/params/progressToken"))
                .flatten();
                let kind = match token {
                    Some(t) if self.progress_tokens.contains(t) => Unprompted::Progress,
                    _ => Unprompted::Notification,
                };
                self.record_unprompted(kind, text, Some(value), None);
            }
            MessageKind::Batch if self.batch.is_some() => {
                let seq =
                    self.transcript
                        .push_owned(Direction::Received, text, Some(value.clone()));
                self.on_batch_response(seq, &value);
            }
            MessageKind::Batch => {
                let problem = Some(FrameProblem::NotAMessage);
                self.record_unprompted(stray, text, Some(value), problem);
            }
            MessageKind::Response => return self.on_response(text, value, None, target, posted),
        }
        None
    }

    /// A notification past the tree budget ([`super::skim`]): recorded and counted as
    /// unprompted, without its tree (the record's summary says how many).
    fn on_wide_notification(&mut self, text: String) {
        self.transcript.count_skimmed(super::skim::VALUE_BUDGET);
        self.record_unprompted(Unprompted::Notification, text, None, None);
    }

    /// A line nested past the depth bound: recorded as unreadable, and when its `id`
    /// (read without the rest: serde skips the deep part without recursing) is that of a
    /// request of ours, that request is answered, unreadably, instead of waiting out the
    /// timeout.
    fn on_too_deep(&mut self, text: String, target: &Target<'_>) -> Option<Reply> {
        #[derive(serde::Deserialize)]
        struct Head {
            id: Option<Value>,
        }
        let id = serde_json::from_str::<Head>(&text).ok().and_then(|h| h.id);
        let problem = Some(FrameProblem::TooDeep);
        // Past the record's budget the line is counted, not kept: the answer still counts.
        let seq = self.record_unprompted(Unprompted::Stray, text, None, problem);
        let id = id?;
        // Only the request waited for, or its fence: another outstanding request marked
        // answered here would wait for a reply nobody keeps for it.
        let is_target = target.id == Some(&id);
        let is_fence = target.fence.as_ref() == Some(&id);
        let request = self.outstanding.iter_mut().find(|o| {
            !o.answered && (is_target || is_fence) && id_match(&o.id, &id) == Some(IdMatch::Exact)
        })?;
        request.answered = true;
        is_target.then_some(Reply::Silent(Silence::Unreadable { seq }))
    }

    /// Records a response where it belongs: with the request it answers (kept in the
    /// record), or as unsolicited traffic (counted, kept while its budget lasts).
    fn on_response(
        &mut self,
        text: String,
        value: Value,
        tail: Option<Arc<ListingTail>>,
        target: &Target<'_>,
        posted: Option<&Value>,
    ) -> Option<Reply> {
        let correlation = self.correlate(&value, target, posted);
        if let Correlation::Unsolicited = correlation {
            // A second response to an id already answered is as unsolicited as a
            // response to an id never sent.
            let kind = Unprompted::Response;
            if let Some(seq) = self.record_unprompted(kind, text, Some(value), None) {
                if let Some(entry) = self.transcript.get_mut(seq) {
                    entry.unsolicited = true;
                }
            }
            return None;
        }
        let value = super::held::share(&text, value);
        let seq = self
            .transcript
            .push_shared(Direction::Received, text, Some(Arc::clone(&value)));
        let (answers, how) = match correlation {
            Correlation::Outstanding(i, how) => (Some(self.outstanding[i].seq), how),
            Correlation::Unread => (target.seq, IdMatch::Unread),
            Correlation::Batch(batch_seq) => (Some(batch_seq), IdMatch::Unread),
            Correlation::Unsolicited => unreachable!("handled above"),
        };
        if let Some(entry) = self.transcript.get_mut(seq) {
            entry.answers = answers;
            entry.id_match = Some(how);
            // The tail goes with the tree: a body past the record's budget keeps neither.
            entry.listing_tail = entry.json.as_ref().and(tail.clone());
        }
        match correlation {
            Correlation::Outstanding(i, how) => {
                let is_target = target.id.is_some_and(|t| t == &self.outstanding[i].id);
                is_target.then_some(Reply::Response {
                    seq,
                    message: value,
                    id_match: how,
                    listing_tail: tail,
                })
            }
            Correlation::Unread => Some(Reply::Response {
                seq,
                message: value,
                id_match: IdMatch::Unread,
                listing_tail: tail,
            }),
            _ => None,
        }
    }

    /// An array from the server answers a batch of ours: each element marks its request.
    fn on_batch_response(&mut self, seq: usize, value: &Value) {
        let Some((batch_seq, ids)) = self.batch.as_mut() else {
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

    /// Finds what a response answers, marking an outstanding request answered. An error
    /// with a null id that came in the answer to the HTTP POST of request `posted`
    /// answers that request (the wait for it ends; RPC-ERROR-ID judges the missing id).
    fn correlate(
        &mut self,
        value: &Value,
        target: &Target<'_>,
        posted: Option<&Value>,
    ) -> Correlation {
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
            return Correlation::Outstanding(i, how);
        }
        let unread_error = got.is_null() && value.get("error").is_some();
        if let Some(posted) = posted.filter(|_| unread_error) {
            if let Some(i) = self
                .outstanding
                .iter()
                .position(|o| !o.answered && &o.id == posted)
            {
                self.outstanding[i].answered = true;
                return Correlation::Outstanding(i, IdMatch::Unread);
            }
        }
        if target.accept_unread && unread_error {
            if let Some(t) = target.id {
                if let Some(o) = self.outstanding.iter_mut().find(|o| &o.id == t) {
                    o.answered = true;
                }
            }
            return Correlation::Unread;
        }
        match &self.batch {
            Some((batch_seq, _)) if unread_error => Correlation::Batch(*batch_seq),
            _ => Correlation::Unsolicited,
        }
    }

    /// Answers a request of the server by the fixed policy; the answer is kept in the
    /// record when the request was (`keep`). Nothing is written once the session ended.
    async fn answer_server_request(&mut self, request: &Value, keep: bool) {
        if self.ended.is_some() || self.stdin_failed {
            return;
        }
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
        let line = reply.to_string();
        if keep {
            let seq = self.transcript.push(Direction::Sent, &line, Some(reply));
            if let Some(entry) = self.transcript.get_mut(seq) {
                entry.auto_reply = true;
            }
        } else {
            let kind = Unprompted::Reply;
            self.transcript
                .push_unprompted(kind, Direction::Sent, line.clone(), None);
        }
        self.send(line.as_bytes()).await;
    }
}
