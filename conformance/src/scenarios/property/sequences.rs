//! Fixed request sequences, not generated: pipelined requests in one write
//! (`seq-pipelined`) and a cancellation of a request in flight and of an id never sent
//! (`seq-cancel`).
//!
//! They are sent on the property phase's session when every request in it was answered
//! (a server start can cost a second: Python), else in a fresh server process. A
//! sequence that shows a problem on the shared session is sent again in a fresh process,
//! whose answer is the verdict: what earlier cases left behind never decides it. Nothing
//! is shrunk; a failing sequence is kept whole as a replayable case.

use serde_json::{json, Value};

use super::env::Env;
use super::PropertyRun;
use crate::protocol::{IdMatch, Session, Silence};
use crate::records::listed_tools;
use crate::records::{CaseMessage, PropertyFailure, PropertyRecord};
use crate::rules::FailureKind;
use crate::rules::{self, CheckId};
use crate::scenarios::era;
use crate::scenarios::tools::valid_arguments;

/// A session the sequences may go on with: every request sent on it was answered, its
/// history is forgotten, and the ids of those requests are kept (a late second answer to
/// one of them is an answer again, not a response to nothing).
struct Shared {
    session: Session,
    earlier: Vec<Value>,
}

impl Shared {
    /// `session` as a shared one, if every request on it was answered and it still runs;
    /// else it is ended.
    async fn take(mut session: Session, mut earlier: Vec<Value>, what: &str) -> Option<Shared> {
        earlier.extend(session.transcript().request_ids().into_iter().cloned());
        let lines = session.transcript().entries().len();
        if session.hand_over(&format!(
            "the same server process, after {what} ({lines} transcript line(s) before this one, every request answered)"
        )) {
            return Some(Shared { session, earlier });
        }
        session.kill().await;
        None
    }
}

/// What one sequence showed.
#[derive(Default)]
struct Seen {
    /// Broken rules of the sequence (a request unanswered, an id changed, a stray).
    problems: Vec<String>,
    /// Requests answered more than once (the rule book's warning).
    again: Vec<String>,
}

impl Seen {
    /// Whether the sequence was answered well.
    fn clean(&self) -> bool {
        self.problems.is_empty() && self.again.is_empty()
    }
}

impl PropertyRun<'_> {
    /// Pipelined requests and a cancellation (not generated: fixed sequences).
    pub(super) async fn sequences(&self, env: &mut Env<'_>, record: &mut PropertyRecord) {
        // The liveness request: ping, or `server/discover` in 2026-07-28.
        let ping = |id: &str| era::liveness_request(self.revision, json!(id));
        let middle = if self.tools {
            json!({"jsonrpc": "2.0", "id": "pipe-2", "method": "tools/list"})
        } else {
            ping("pipe-2")
        };
        let pipeline = vec![ping("pipe-1"), middle, ping("pipe-3")];
        let callable = listed_tools(self.pages)
            .into_iter()
            .find(|t| self.policy.permits(t).is_ok() && valid_arguments(t, self.revision).is_ok());
        let mut cancel = Vec::new();
        if let Some(tool) = callable {
            let args = valid_arguments(tool, self.revision).unwrap_or(json!({}));
            cancel.push(
                json!({"jsonrpc": "2.0", "id": "cancel-me", "method": "tools/call",
                "params": {"name": tool["name"], "arguments": args}}),
            );
            cancel.push(
                json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": "cancel-me", "reason": "conformance probe"}}),
            );
        }
        cancel.push(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": "never-sent", "reason": "conformance probe: unknown id"}}),
        );
        let mut shared = match env.session.take() {
            Some(mut session) => {
                // A shrink may have left its short per-step wait on the session.
                session.set_timeout(env.config.timeout);
                Shared::take(session, Vec::new(), "the property phase's cases").await
            }
            None => None,
        };
        for (check, kind, messages) in [
            (CheckId::SeqPipelined, FailureKind::PipelineBroken, pipeline),
            (CheckId::SeqCancel, FailureKind::CancelMishandled, cancel),
        ] {
            record.count(check);
            let mut first_look = None;
            if let Some(Shared {
                mut session,
                earlier,
            }) = shared.take()
            {
                let seen = self
                    .sequence(&mut session, check, &messages, &earlier)
                    .await;
                if seen.clean() {
                    shared = Shared::take(session, earlier, "the pipelined requests").await;
                    continue;
                }
                session.kill().await;
                first_look = Some(seen);
            }
            let Some(mut session) = env.fresh().await else {
                record
                    .notes
                    .push(format!("{check}: the server could not be started"));
                continue;
            };
            let seen = self.sequence(&mut session, check, &messages, &[]).await;
            session.kill().await;
            if seen.clean() {
                if let Some(first) = first_look {
                    let mut shown = first.problems;
                    shown.extend(first.again);
                    record.notes.push(format!(
                        "{check}: on the property phase's process, after its cases: {}; a fresh process answered the sequence well",
                        shown.join("; ")
                    ));
                }
                continue;
            }
            let Seen {
                mut problems,
                again,
            } = seen;
            let kind = if problems.is_empty() {
                FailureKind::AnsweredAgain
            } else {
                kind
            };
            problems.extend(again);
            let mut case_messages = era::case_opening(self.revision);
            let n = messages.len();
            case_messages.extend(
                messages
                    .iter()
                    .enumerate()
                    .map(|(i, m)| CaseMessage::message(self.case_line(m.clone()), i + 1 < n)),
            );
            case_messages.push(CaseMessage::message(
                self.case_line(ping("after-sequence")),
                false,
            ));
            let description = format!("{check}: {} message(s) in one write", messages.len());
            record.failures.push(PropertyFailure {
                check,
                rule: None,
                kind,
                description: description.clone(),
                input: Value::Array(messages.clone()),
                outcome: problems.join("; "),
                shrink_steps: 0,
                shrink_cut: None,
                transcript: session.transcript().clone(),
                reproduced: true,
                same_as: None,
                case: self.case_file(check, kind, description, case_messages),
                case_path: None,
            });
        }
        if let Some(Shared { mut session, .. }) = shared {
            session.kill().await;
        }
    }

    /// Sends one sequence on `session` and judges what came back. `earlier` holds the ids
    /// of requests sent on it before its history was forgotten.
    async fn sequence(
        &self,
        session: &mut Session,
        check: CheckId,
        messages: &[Value],
        earlier: &[Value],
    ) -> Seen {
        // A liveness request first: whatever the handshake provoked arrives before it,
        // so stray responses counted below are the sequence's own.
        let _ = session.liveness().await;
        let started = session.transcript().entries().len();
        // The cancelled request may rightly never be answered: a ping right behind the
        // sequence fences it, so a server that cancels costs no timeout (an answer
        // still has a short grace once the ping is answered). Pipelined requests are
        // each owed an answer, however slow: those wait the timeout out.
        let (replies, after) = if check == CheckId::SeqCancel {
            session.pipeline_fenced(messages).await
        } else {
            let replies = session.pipeline(messages).await;
            (replies, session.liveness().await)
        };
        let mut seen = Seen::default();
        for (message, reply) in messages.iter().zip(&replies) {
            let Some(x) = reply else { continue };
            let id = &message["id"];
            let answers = session
                .transcript()
                .received()
                .filter(|e| e.answers == Some(x.request_seq))
                .count();
            // A cancelled request may or may not be answered (races, REQUIREMENTS.md
            // 10 A15); every other request is answered exactly once.
            let cancelled = id == "cancel-me";
            if answers > 1 {
                // The rule book's warning, as below.
                seen.again
                    .push(format!("request {id} was answered {answers} times"));
            } else if answers == 0 && !cancelled && !x.unreadable() {
                seen.problems.push(format!(
                    "request {id} got no response ({})",
                    x.silence().map(Silence::describe).unwrap_or_default()
                ));
            } else if x.response().is_some()
                && matches!(
                    x.reply,
                    crate::protocol::Reply::Response {
                        id_match: IdMatch::Loose,
                        ..
                    }
                )
            {
                seen.problems
                    .push(format!("request {id} came back with its id changed"));
            }
        }
        if let Some(silence) = after.unanswered() {
            seen.problems.push(format!(
                "a {} after the sequence got no response ({})",
                session.liveness_method(),
                silence.describe()
            ));
        }
        // A stray response with one of our ids answers a request again: the rule
        // book's warning (as rpc-id-echo grades it), not a broken sequence.
        let mut ours = session.transcript().request_ids();
        ours.extend(earlier);
        let mut stray = 0;
        for e in session
            .transcript()
            .received()
            .filter(|e| e.seq >= started && e.unsolicited)
        {
            match e
                .json
                .as_ref()
                .and_then(|m| rules::answered_again(m, &ours))
            {
                Some(breach) => seen.again.push(breach.message),
                None => stray += 1,
            }
        }
        if stray > 0 {
            seen.problems.push(format!(
                "{stray} response(s) answer no request (a notification answered?)"
            ));
        }
        seen
    }
}
