//! The live oracle: what a server MUST do whatever it is sent, judged on the answers to
//! one case. Every rule comes from the rule book [`crate::rules`]; this file only
//! decides which rule applies to which message, and what a silence means (a death, a
//! stall, or a slow tool).

use serde_json::{json, Value};

use super::{Judged, State, CHECK_ID};
use crate::fuzzing::cases::Case;
use crate::protocol::{Exchange, Line, Reply, Session, Silence, Transcript};
use crate::rules::CheckId;
use crate::rules::FailureKind;
use crate::rules::{self, Breach};

/// Requests that run no user code: ping (`server/discover` in 2026-07-28), listing
/// tools, and methods no server has.
const QUICK_METHODS: &[&str] = &[
    "ping",
    "server/discover",
    "tools/list",
    "conformance/unknown",
    "",
    "tools/call/extra",
    "rpc.discover",
];
/// How many timeouts a request that outlasted one may still take to be answered while
/// the server answers ping, before it counts as never answered.
const LATE_FACTOR: u32 = 3;

impl State {
    /// Writes the case and judges what comes back.
    pub(super) async fn exec(&mut self, session: &mut Session, case: &Case) -> Judged {
        self.earlier.unreadable += unreadable_frames(case);
        let exchanges = session.pipeline_lines(&case.lines).await;
        if session.transcript().dropped() > 0 {
            // Past the transcript's budget (a flood of output) bodies are not kept, and
            // nothing may be judged on a missing body: start again on a fresh process.
            self.notes.push(
                "a case produced more output than a transcript keeps; not judged, server restarted"
                    .into(),
            );
            self.notes.dedup();
            return Judged::Slow;
        }
        let judged = self.judge(session, case, &exchanges).await;
        if judged != Judged::Ok {
            return judged;
        }
        if let Some(Silence::Exited(exit)) = session.exited() {
            return Judged::Failed(
                FailureKind::Crash,
                CheckId::PropServerSurvives,
                format!(
                    "the server exited right after answering ({})",
                    exit.describe()
                ),
            );
        }
        judged
    }

    async fn judge(
        &mut self,
        session: &mut Session,
        case: &Case,
        exchanges: &[Option<Exchange>],
    ) -> Judged {
        // Silence first: a dead or stuck server explains everything after it. A request
        // answered with a line too deep to read was answered: the frames judge that line.
        for x in exchanges.iter().flatten() {
            if let Some(silence) = x
                .silence()
                .filter(|s| !matches!(s, Silence::Unreadable { .. }))
            {
                let silence = silence.clone();
                return self.silent(session, case, x, &silence).await;
            }
        }
        for x in exchanges.iter().flatten() {
            if let Some(failed) = self.judge_response(x) {
                return failed;
            }
        }
        self.judge_frames(session.transcript(), case)
    }

    /// Whether `x` is a tools/call without `arguments` (they are optional: the call must
    /// be answered, `TC-ARGS-OMITTED`). Any tool name: a well-formed CallToolRequest
    /// that leaves them out gets an answer, a protocol error for an unknown tool.
    fn omits_arguments(&self, x: &Exchange) -> bool {
        let params = x.request.get("params").filter(|p| p.is_object());
        x.method == "tools/call"
            && params.is_some_and(|p| p.get("arguments").is_none() && p["name"].is_string())
    }

    /// A request got no response in time.
    async fn silent(
        &mut self,
        session: &mut Session,
        case: &Case,
        x: &Exchange,
        silence: &Silence,
    ) -> Judged {
        // A call that leaves `arguments` out and kills or stalls the server breaks the
        // rule that they are optional; any other request, that the server survives.
        let omitted = self.omits_arguments(x);
        let died = |kind: FailureKind, text: String| {
            if omitted {
                let b = rules::arguments_omitted_unanswered(kind, &text);
                return Judged::Failed(b.kind, b.check, format!("{}: {}", what(x), b.message));
            }
            Judged::Failed(
                kind,
                CheckId::PropServerSurvives,
                format!("{}: {text}", what(x)),
            )
        };
        let crash = |exit: String| died(FailureKind::Crash, exit);
        match silence {
            Silence::Exited(exit) => {
                return crash(format!("the server exited ({})", exit.describe()))
            }
            // The machine kept the harness from judging: restart, blame nothing.
            Silence::Starved { .. } => return Judged::Slow,
            Silence::Timeout(_) => {}
            other => return crash(other.describe()),
        }
        let method = session.liveness_method();
        let ping = session.request_with_id(json!(CHECK_ID), method, None).await;
        match ping.silence() {
            Some(Silence::Exited(exit)) => {
                return crash(format!("the server exited ({})", exit.describe()))
            }
            Some(Silence::Starved { .. }) => return Judged::Slow,
            Some(_) => {
                return died(
                    FailureKind::Stall,
                    format!(
                        "{}, and a ping sent after it got none either",
                        silence.describe()
                    ),
                )
            }
            None => {}
        }
        // An error without an id that came after the request answered it: a tool call
        // so answered was refused, not slow.
        if let Some(b) = self.answered_without_id(session.transcript(), case, x) {
            return Judged::Failed(b.kind, b.check, format!("{}: {}", what(x), b.message));
        }
        // More came than this case's unreadable frames can own, but an earlier case's
        // frame (which the server may have passed over unanswered) may own the rest:
        // which request each answers cannot be told, so no verdict, and a fresh process
        // (not a stall after 3 more timeouts, which a fresh process would not reproduce).
        if idless_errors_after(session.transcript(), x) > unreadable_frames(case) {
            return Judged::Slow;
        }
        // The server is alive. Work may take long (a tool, a prompt, a resource): that is
        // no finding, but a tool that outlasted the timeout is not called again (each
        // such case would cost a timeout). Requests that run no user code have no excuse:
        // after more time, they count as never answered.
        if !QUICK_METHODS.contains(&x.method.as_str()) {
            if x.method == "tools/call" {
                if let Some(name) = x.request.pointer("/params/name").and_then(Value::as_str) {
                    if let Some(t) = self.tools.iter_mut().find(|t| t.name == name && t.enabled) {
                        t.enabled = false;
                        self.notes.push(format!(
                            "tool {name:?} outlasted the {:.1} s timeout; not called again",
                            session.timeout().as_secs_f64()
                        ));
                    }
                }
            }
            return Judged::Slow;
        }
        let window = session.timeout() * LATE_FACTOR;
        session.settle(window).await;
        let late = session
            .transcript()
            .received()
            .any(|e| e.answers == Some(x.request_seq));
        if late {
            return Judged::Slow;
        }
        if let Some(b) = self.answered_without_id(session.transcript(), case, x) {
            return Judged::Failed(b.kind, b.check, format!("{}: {}", what(x), b.message));
        }
        Judged::Failed(
            FailureKind::Stall,
            CheckId::PropServerSurvives,
            format!(
                "{}: no response within {:.1} s while the server answers ping",
                what(x),
                (session.timeout() * (LATE_FACTOR + 1)).as_secs_f64(),
            ),
        )
    }

    /// Lines on stdout that are not JSON-RPC messages, and responses nobody asked for.
    fn judge_frames(&mut self, transcript: &Transcript, case: &Case) -> Judged {
        let failed = |b: Breach| Judged::Failed(b.kind, b.check, b.message);
        let tolerated = &case.tolerated;
        for entry in transcript.received() {
            if let Some(b) = rules::frame(
                entry.problem.as_ref(),
                entry.json.as_deref(),
                self.config.revision,
            ) {
                return failed(Breach {
                    message: format!(
                        "the server wrote {}: {}",
                        b.message,
                        crate::protocol::cut_text(&entry.text, 200)
                    ),
                    ..b
                });
            }
            if let Some(message) = entry.json.as_ref().filter(|m| {
                m.get("method")
                    .and_then(Value::as_str)
                    .is_some_and(|n| self.notifications.iter().any(|k| k == n))
            }) {
                if let Some(b) = rules::notification_schema(&self.schemas, message) {
                    return failed(b);
                }
            }
            if !entry.unsolicited {
                continue;
            }
            let Some(message) = entry.json.as_ref() else {
                continue;
            };
            let id = message.get("id").unwrap_or(&Value::Null);
            let is_error = message.get("error").is_some();
            // A malformed frame may be answered with an error whose id is null (the server
            // could not read one) or, by a lenient server, with the id the frame shows.
            // Earlier cases' frames count too (`Earlier`: answered after the ping that
            // closed their case).
            let raw = case.has_raw() || self.earlier.raw();
            if tolerated.contains(id) || self.earlier.tolerated().any(|t| t == id) {
                continue;
            }
            if raw && id.is_null() && is_error {
                // Only a frame whose id could not be read lets an error go without one
                // (2025-11-25 index.mdx, Error Responses; earlier schemas require it),
                // one such error per such frame.
                if self.earlier.unreadable > 0 {
                    self.earlier.unreadable -= 1;
                    continue;
                }
                let shown = readable_frame_ids(case)
                    .into_iter()
                    .chain(
                        self.earlier
                            .tolerated()
                            .filter(|i| i.is_string() || i.is_i64() || i.is_u64())
                            .cloned(),
                    )
                    .next()
                    .unwrap_or(Value::Null);
                if let Some(b) = rules::error_id(&shown, message) {
                    return failed(Breach {
                        message: format!("a malformed frame showing id {shown}: {}", b.message),
                        ..b
                    });
                }
                continue;
            }
            // A second answer to one of our requests is the rule book's policy warning (as
            // rpc-id-echo and the property sequences grade it): not a live finding.
            if rules::answered_again(message, &transcript.request_ids())
                .is_some_and(|b| b.kind.is_policy_warning())
            {
                continue;
            }
            if let Some(b) = rules::unsolicited(message, &case.notifications()) {
                return failed(b);
            }
        }
        Judged::Ok
    }

    /// A request that got no response with its id, where more errors without an id came
    /// after it than earlier cases' unreadable frames still wait for (each may take one;
    /// this case has none), so one of them answers a request of this case: the server
    /// answered, without the id it could read. That is `RPC-ERROR-ID` (rmcp 3.11 answers a
    /// request with non-object `_meta` so), not a stall, and passing over rpc-error-id
    /// passes over it.
    fn answered_without_id(
        &self,
        transcript: &Transcript,
        case: &Case,
        x: &Exchange,
    ) -> Option<Breach> {
        if case.has_raw() {
            return None;
        }
        transcript
            .received()
            .filter(|e| e.seq > x.request_seq && e.unsolicited)
            .filter_map(|e| e.json.as_deref())
            .filter_map(|message| rules::error_id(&x.request["id"], message))
            .nth(self.earlier.unreadable)
    }

    /// The envelope and payload of one response.
    fn judge_response(&self, x: &Exchange) -> Option<Judged> {
        let Reply::Response {
            message, id_match, ..
        } = &x.reply
        else {
            return None;
        };
        let failed = |b: Breach| {
            Some(Judged::Failed(
                b.kind,
                b.check,
                format!("{}: {}", what(x), b.message),
            ))
        };
        if let Some(b) = rules::envelope(&x.request["id"], message, *id_match) {
            return failed(b);
        }
        if x.method.starts_with("tools/") && !self.declared {
            return None;
        }
        if let Some(b) = self.arguments_type(x, message) {
            return failed(b);
        }
        let result = message.get("result")?;
        if let Some(b) = rules::result_schema(&self.schemas, &x.method, result) {
            return failed(b);
        }
        let tool = x.request.pointer("/params/name").and_then(Value::as_str);
        let validator = tool.and_then(|t| self.output.get(t));
        match (validator, x.method.as_str()) {
            (Some(validator), "tools/call") => {
                rules::structured_output(validator, result).and_then(failed)
            }
            _ => None,
        }
    }
}

impl State {
    /// `TC-ERR-MALFORMED` for `arguments`: a call of a listed tool whose `arguments` is not
    /// an object gets a protocol error. Only the failures: the rule's policy warnings
    /// (another error code, null read as no arguments) are the scripted check's.
    fn arguments_type(&self, x: &Exchange, message: &Value) -> Option<Breach> {
        let params = x.request.get("params")?;
        let name = params.get("name").and_then(Value::as_str)?;
        let arguments = params.get("arguments").filter(|a| !a.is_object())?;
        if x.method != "tools/call" || !self.tools.iter().any(|t| t.name == name) {
            return None;
        }
        rules::arguments_type(arguments, message.get("error"), message.get("result"))
            .filter(|b| !b.kind.is_policy_warning())
    }
}

/// Errors without an id the server wrote after `x`'s request.
fn idless_errors_after(transcript: &Transcript, x: &Exchange) -> usize {
    transcript
        .received()
        .filter(|e| e.seq > x.request_seq && e.unsolicited)
        .filter_map(|e| e.json.as_deref())
        .filter(|m| m.get("error").is_some() && m.get("id").is_none_or(Value::is_null))
        .count()
}

/// How many malformed frames of the case show no id a server could read (a line that is
/// not JSON, an id of the wrong type): an error without an id may answer each.
fn unreadable_frames(case: &Case) -> usize {
    case.lines
        .iter()
        .filter(|l| match l {
            Line::Raw(bytes) => rules::readable_frame_id(bytes).is_none(),
            Line::Message(_) => false,
        })
        .count()
}

/// The ids the case's malformed frames show, where a server can read them.
fn readable_frame_ids(case: &Case) -> Vec<Value> {
    case.lines
        .iter()
        .filter_map(|l| match l {
            Line::Raw(bytes) => rules::readable_frame_id(bytes),
            Line::Message(_) => None,
        })
        .collect()
}

/// "tools/call echo (id 1)" for reports.
fn what(x: &Exchange) -> String {
    let tool = x
        .request
        .pointer("/params/name")
        .and_then(Value::as_str)
        .map(|t| format!(" {t:?}"))
        .unwrap_or_default();
    format!("{}{tool} (id {})", x.method, x.request["id"])
}
