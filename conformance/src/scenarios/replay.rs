//! Replaying a saved case: the exact messages of a failing property case, sent again to
//! a fresh server process, with a verdict on whether the failure still shows.
//!
//! This is what `mcp-conformance replay FILE` runs. The case file holds the handshake (none
//! in 2026-07-28, whose requests carry their `_meta` instead) and the case's messages
//! (pipelined ones marked), so a server author can reproduce a finding without the
//! generator, the seed or this suite's version. The case's revision says its era.

use serde_json::Value;

use crate::protocol::{
    Exchange, Line, Reply, Revision, SchemaSet, Session, SessionConfig, Silence, Transcript,
};
use crate::records::compile_input_schema;
use crate::records::CaseFile;
use crate::rules::CheckId;
use crate::rules::{self, Breach, FailureKind, TaskSupport};
use crate::transport::ServerCommand;

/// What a replay saw.
#[derive(Debug)]
pub struct ReplayOutcome {
    /// Everything exchanged.
    pub transcript: Transcript,
    /// Whether the recorded failure showed again.
    pub reproduced: bool,
    /// What was observed, in one sentence.
    pub observed: String,
    /// The rule of the rule book the replay found broken, when one judges the case's kind.
    pub rule: Option<CheckId>,
}

/// Sends the case's messages to a fresh `command` process and judges the outcome.
pub async fn replay(
    case: &CaseFile,
    command: &ServerCommand,
    config: &SessionConfig,
) -> crate::Result<ReplayOutcome> {
    let url = command.http.as_ref().map(|t| t.parsed_url()).transpose()?;
    let mut session = Session::start(command, config.clone())?;
    // A modern case has no handshake: its session speaks 2026-07-28 from the first line.
    super::era::replay_era(&mut session, Revision::find(&case.revision));
    // What the run learned from `tools/list` about `Mcp-Param-*` headers, which this
    // process (a fresh `replay`) has not listed; learnt now for an older case file.
    super::replay_headers::prepare(case, &mut session, url.as_ref().map(|u| u.as_str())).await;
    let exchanges = send(case, &mut session).await;
    // A server may exit right after its last answer (the live target checks for that).
    let exited_after = session.exited();
    session.kill().await;
    let seen = Seen::new(session.transcript().clone(), exchanges, exited_after);
    let breach = breach(case, &seen)?;
    let (reproduced, observed) = verdict(case, &seen, &breach);
    Ok(ReplayOutcome {
        transcript: seen.transcript,
        reproduced,
        observed,
        rule: breach.map(|b| b.check),
    })
}

/// Sends the case's messages in order: pipelined ones together with the next message,
/// every other one alone (a request waiting for its answer).
async fn send(case: &CaseFile, session: &mut Session) -> Vec<Exchange> {
    let mut exchanges: Vec<Exchange> = Vec::new();
    let mut group: Vec<Line> = Vec::new();
    for message in &case.messages {
        group.push(message.line());
        if message.pipelined {
            continue;
        }
        let batch = std::mem::take(&mut group);
        let single = match batch.as_slice() {
            [Line::Message(m)] => Some(m.clone()),
            _ => None,
        };
        let Some(m) = single else {
            exchanges.extend(session.pipeline_lines(&batch).await.into_iter().flatten());
            continue;
        };
        let method = m
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        match m.get("id") {
            Some(id) => exchanges.push(
                session
                    .request_with_id(id.clone(), &method, m.get("params").cloned())
                    .await,
            ),
            None => session.notify(&method, m.get("params").cloned()).await,
        }
    }
    exchanges
}

/// What the replay saw, as the verdict reads it.
struct Seen {
    /// Everything exchanged.
    transcript: Transcript,
    /// The requests sent and their answers, in order.
    exchanges: Vec<Exchange>,
    /// How the server died, if it did.
    crashed: Option<Silence>,
    /// Whether a request got no response in time.
    stalled: bool,
}

impl Seen {
    fn new(
        transcript: Transcript,
        exchanges: Vec<Exchange>,
        exited_after: Option<Silence>,
    ) -> Self {
        let silences: Vec<&Silence> = exchanges.iter().filter_map(Exchange::silence).collect();
        let crashed = silences
            .iter()
            .copied()
            .find(|s| {
                matches!(
                    s,
                    Silence::Exited(_) | Silence::StdoutClosed | Silence::WriteFailed
                )
            })
            .cloned()
            .or(exited_after.filter(|s| matches!(s, Silence::Exited(_))));
        let stalled = silences.iter().any(|s| s.timed_out());
        Seen {
            transcript,
            exchanges,
            crashed,
            stalled,
        }
    }

    /// The case request: the last request before the closing ping.
    fn case_exchange(&self) -> Option<&Exchange> {
        self.exchanges.iter().rev().nth(1)
    }
}

/// The rule book's verdict on the case's answer, for the kinds it judges.
fn breach(case: &CaseFile, seen: &Seen) -> crate::Result<Option<Breach>> {
    let (transcript, exchanges) = (&seen.transcript, &seen.exchanges);
    let case_exchange = seen.case_exchange();
    let code = case_exchange.and_then(Exchange::error_code);
    let error = case_exchange.and_then(Exchange::error);
    let result = case_exchange.and_then(Exchange::result);
    let revision = Revision::find(&case.revision);
    let answered = case_exchange.is_some_and(|x| x.response().is_some());
    let breach = match case.kind {
        // A case file does not hold the tool: it is judged as a tool without task
        // support (a tool that requires one draws no such case).
        FailureKind::ProtocolErrorOnValid => rules::valid_call(TaskSupport::Forbidden, error),
        FailureKind::InvalidAccepted | FailureKind::WrongErrorClass => revision
            .and_then(|r| rules::invalid_arguments(r, TaskSupport::Forbidden, error, result)),
        FailureKind::UnknownMethodAnswered => rules::unknown_method(code, answered),
        FailureKind::CursorAnswered => rules::cursor(code, result, true),
        FailureKind::IdNotEchoed => case_exchange
            .and_then(|x| match &x.reply {
                Reply::Response {
                    message, id_match, ..
                } => rules::id_echo(&x.request["id"], message, *id_match),
                _ => None,
            })
            .or_else(|| dropped_error_id(transcript)),
        FailureKind::InvalidResult => invalid_result(case, transcript, exchanges)?,
        FailureKind::InvalidMessage => {
            revision.and_then(|r| invalid_message(r, transcript, exchanges))
        }
        FailureKind::AnsweredAgain => {
            let ours = transcript.request_ids();
            transcript
                .received()
                .filter(|e| e.unsolicited)
                .filter_map(|e| e.json.as_ref())
                .find_map(|m| rules::answered_again(m, &ours))
        }
        _ => None,
    };
    Ok(breach.filter(|b| b.kind == case.kind))
}

/// Whether the case's failure showed again, and what was observed, in one sentence.
fn verdict(case: &CaseFile, seen: &Seen, breach: &Option<Breach>) -> (bool, String) {
    let described = |b: &Option<Breach>, holds: &str| match b {
        Some(b) => (true, b.message.clone()),
        None => (false, holds.to_string()),
    };
    let stalled = seen.stalled;
    match case.kind {
        // A server that panicked in-process may, as a binary, lose only the request whose
        // handler panicked (an SDK that runs each handler in a task of its own): it did not
        // survive the case either.
        FailureKind::Crash => match &seen.crashed {
            Some(s) => (true, s.describe()),
            None if stalled => (
                true,
                "the server did not exit, but a request got no response".into(),
            ),
            None => (false, "the server did not exit".into()),
        },
        FailureKind::Stall => (
            stalled,
            if stalled {
                "a request got no response".into()
            } else {
                "every request was answered".into()
            },
        ),
        FailureKind::ProtocolErrorOnValid => described(breach, "the call got a result"),
        FailureKind::InvalidAccepted | FailureKind::WrongErrorClass => {
            described(breach, "the call was rejected as the revision expects")
        }
        FailureKind::UnknownMethodAnswered => described(breach, "the method got -32601"),
        FailureKind::CursorAnswered => described(breach, "the cursor got -32602 or a page"),
        FailureKind::IdNotEchoed => {
            let lost = seen.case_exchange().is_some_and(|x| x.silence().is_some());
            match (breach, lost) {
                (Some(b), _) => (true, b.message.clone()),
                (None, true) => (true, "no response carried the id".into()),
                (None, false) => (false, "the id came back intact".into()),
            }
        }
        FailureKind::InvalidResult => result_verdict(case, seen, breach),
        FailureKind::InvalidMessage => described(
            breach,
            "every line was a JSON-RPC message and every response answered a request",
        ),
        FailureKind::AnsweredAgain => described(breach, "no request was answered twice"),
        FailureKind::PipelineBroken | FailureKind::CancelMishandled => sequence_verdict(seen),
    }
}

/// The verdict on an invalid result: a schema the replay can judge, or the case's
/// outputSchema finding, which only a full run judges.
fn result_verdict(case: &CaseFile, seen: &Seen, breach: &Option<Breach>) -> (bool, String) {
    let result = seen.case_exchange().and_then(Exchange::result);
    match breach {
        Some(b) => (true, b.message.clone()),
        // A property case's outputSchema finding: the file does not hold the schema.
        None if case.output_schema.is_none()
            && CheckId::parse(&case.check) == Some(CheckId::PropValidCallResult) =>
        (
            result.is_some(),
            "see the transcript: the result is judged against the tool's outputSchema by a full run"
                .into(),
        ),
        None => (
            false,
            "every result and notification validates against the revision's schema and the tool's outputSchema"
                .into(),
        ),
    }
}

/// The verdict on a pipelining or cancellation sequence: every request answered once,
/// by a server still alive.
fn sequence_verdict(seen: &Seen) -> (bool, String) {
    // A second answer to one of ours is the rule book's warning (AnsweredAgain),
    // not a broken sequence.
    let ours = seen.transcript.request_ids();
    let stray = seen.transcript.received().any(|e| {
        e.unsolicited
            && e.json
                .as_ref()
                .is_none_or(|m| rules::answered_again(m, &ours).is_none())
    });
    let bad = seen.crashed.is_some() || seen.stalled || stray;
    (
        bad,
        if bad {
            "a request went unanswered, an answer was unsolicited, or the server died".into()
        } else {
            "every request was answered once".into()
        },
    )
}

/// `RPC-ERROR-ID` for malformed frames (the live target's finding): an error without an
/// id, when every malformed frame sent showed an id the server could read.
fn dropped_error_id(transcript: &Transcript) -> Option<Breach> {
    let frames: Vec<Option<Value>> = transcript
        .entries()
        .iter()
        .filter(|e| e.direction == crate::protocol::Direction::Sent && e.json.is_none())
        .map(|e| rules::readable_frame_id(e.text.as_bytes()))
        .collect();
    if frames.iter().any(Option::is_none) {
        return None;
    }
    let shown = frames.into_iter().flatten().next()?;
    transcript
        .received()
        .filter(|e| e.unsolicited)
        .filter_map(|e| e.json.as_ref())
        .find_map(|m| rules::error_id(&shown, m))
}

/// The first line that is not a valid JSON-RPC message, or response nobody asked for
/// (an error with a null id counts as the answer to a malformed frame).
fn invalid_message(
    revision: &Revision,
    transcript: &Transcript,
    exchanges: &[Exchange],
) -> Option<Breach> {
    // Ids a malformed frame shows: a lenient server may answer them.
    let shown: Vec<Value> = transcript
        .entries()
        .iter()
        .filter(|e| e.direction == crate::protocol::Direction::Sent && e.json.is_none())
        .filter_map(|e| serde_json::from_str::<Value>(&e.text).ok())
        .filter_map(|v| v.get("id").cloned())
        .collect();
    for entry in transcript.received() {
        if let Some(b) = rules::frame(entry.problem.as_ref(), entry.json.as_deref(), revision) {
            return Some(b);
        }
        let Some(m) = entry.json.as_ref() else {
            continue;
        };
        let null_error = m.get("id").is_none_or(Value::is_null) && m.get("error").is_some();
        let id = m.get("id");
        if entry.unsolicited && !null_error && !id.is_some_and(|i| shown.contains(i)) {
            return rules::unsolicited(m, &[]);
        }
    }
    exchanges.iter().find_map(|x| match &x.reply {
        Reply::Response {
            message, id_match, ..
        } => rules::envelope(&x.request["id"], message, *id_match)
            .filter(|b| b.kind == FailureKind::InvalidMessage),
        _ => None,
    })
}

/// The first result or server notification that breaks the revision's schema, or a tool
/// result that breaks the case's `outputSchema`.
fn invalid_result(
    case: &CaseFile,
    transcript: &Transcript,
    exchanges: &[Exchange],
) -> crate::Result<Option<Breach>> {
    let Some(revision) = Revision::find(&case.revision) else {
        return Ok(None);
    };
    let schemas = SchemaSet::new(revision)?;
    let output = case
        .output_schema
        .as_ref()
        .and_then(|s| compile_input_schema(s, revision).ok());
    for x in exchanges {
        let Some(result) = x.result() else { continue };
        if let Some(b) = rules::result_schema(&schemas, &x.method, result) {
            return Ok(Some(Breach {
                message: format!("{} {}", x.method, b.message),
                ..b
            }));
        }
        if let (Some(validator), "tools/call") = (&output, x.method.as_str()) {
            if let Some(b) = rules::structured_output(validator, result) {
                return Ok(Some(b));
            }
        }
    }
    Ok(transcript
        .received()
        .filter_map(|e| e.json.as_ref())
        .find_map(|m| rules::notification_schema(&schemas, m)))
}
