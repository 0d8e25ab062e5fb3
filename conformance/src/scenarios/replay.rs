//! Replaying a saved case: the exact messages of a failing property case, sent again to
//! a fresh server process, with a verdict on whether the failure still shows.
//!
//! This is what `mcp-conformance replay FILE` runs. The case file holds the handshake and
//! the case's messages (pipelined ones marked), so a server author can reproduce a finding
//! without the generator, the seed or this suite's version.

use serde_json::Value;

use super::property::{CaseFile, FailureKind};
use crate::protocol::{
    Exchange, FrameProblem, IdMatch, Line, Session, SessionConfig, Silence, Transcript,
};
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
}

/// Sends the case's messages to a fresh `command` process and judges the outcome.
pub async fn replay(
    case: &CaseFile,
    command: &ServerCommand,
    config: &SessionConfig,
) -> crate::Result<ReplayOutcome> {
    let mut session = Session::start(command, config.clone())?;
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
    session.kill().await;
    let transcript = session.transcript().clone();
    // The case request is the last request before the closing ping.
    let case_exchange = exchanges.iter().rev().nth(1);
    let silences: Vec<&Silence> = exchanges.iter().filter_map(Exchange::silence).collect();
    let crashed = silences.iter().find(|s| matches!(s, Silence::Exited(_)));
    let stalled = silences.iter().any(|s| matches!(s, Silence::Timeout(_)));
    let code = case_exchange.and_then(Exchange::error_code);
    let result = case_exchange.and_then(Exchange::result);
    let is_error = result.is_some_and(|r| r.get("isError") == Some(&Value::Bool(true)));
    let (reproduced, observed) = match case.kind {
        FailureKind::Crash => match crashed {
            Some(s) => (true, s.describe()),
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
        FailureKind::ProtocolErrorOnValid => (code.is_some(), format!("error code {code:?}")),
        FailureKind::InvalidAccepted => {
            (result.is_some() && !is_error, format!("result {result:?}"))
        }
        FailureKind::WrongErrorClass => {
            // 2025-11-25 expects an isError result; earlier revisions also accept -32602.
            let either = crate::protocol::Revision::find(&case.revision)
                .is_none_or(|r| r.invalid_arguments == crate::protocol::ErrorClass::Either);
            let wrong = code.is_some_and(|c| !(either && c == -32602));
            (wrong, format!("error code {code:?}"))
        }
        FailureKind::UnknownMethodAnswered => {
            (code != Some(-32601), format!("error code {code:?}"))
        }
        FailureKind::CursorAnswered => (
            code.is_some_and(|c| c != -32602),
            format!("error code {code:?}"),
        ),
        FailureKind::IdNotEchoed => {
            let loose = matches!(
                case_exchange.map(|x| &x.reply),
                Some(crate::protocol::Reply::Response {
                    id_match: IdMatch::Loose,
                    ..
                })
            );
            let lost = case_exchange.is_some_and(|x| x.silence().is_some());
            (
                loose || lost,
                if loose {
                    "the id came back changed".into()
                } else if lost {
                    "no response carried the id".into()
                } else {
                    "the id came back intact".into()
                },
            )
        }
        FailureKind::InvalidResult => (
            result.is_some(),
            "see the transcript: the result is judged against the schemas by a full run".into(),
        ),
        FailureKind::InvalidMessage => match invalid_message(&transcript, &exchanges) {
            Some(what) => (true, what),
            None => (
                false,
                "every line was a JSON-RPC message and every response answered a request".into(),
            ),
        },
        FailureKind::PipelineBroken | FailureKind::CancelMishandled => {
            let stray = transcript.received().any(|e| e.unsolicited);
            let bad = crashed.is_some() || stalled || stray;
            (
                bad,
                if bad {
                    "a request went unanswered, an answer was unsolicited, or the server died"
                        .into()
                } else {
                    "every request was answered once".into()
                },
            )
        }
    };
    Ok(ReplayOutcome {
        transcript,
        reproduced,
        observed,
    })
}

/// The first line that is not a valid JSON-RPC message, or response nobody asked for
/// (an error with a null id counts as the answer to a malformed frame).
fn invalid_message(transcript: &Transcript, exchanges: &[Exchange]) -> Option<String> {
    for entry in transcript.received() {
        if let Some(problem) = &entry.problem {
            if !matches!(problem, FrameProblem::Overlong { .. }) {
                return Some(format!(
                    "a line that is not a JSON-RPC message ({problem:?})"
                ));
            }
        }
        let null_error = entry
            .json
            .as_ref()
            .is_some_and(|m| m.get("id").is_none_or(Value::is_null) && m.get("error").is_some());
        if entry.unsolicited && !null_error {
            return Some("a response that answers no request".into());
        }
    }
    exchanges.iter().find_map(|x| {
        let m = x.response()?;
        if m.get("jsonrpc") != Some(&Value::String("2.0".into())) {
            return Some("a response whose jsonrpc is not \"2.0\"".into());
        }
        if m.get("result").is_some() == m.get("error").is_some() {
            return Some("a response with neither or both of result and error".into());
        }
        let error = m.get("error")?;
        let shaped = error.get("code").is_some_and(Value::is_i64)
            && error.get("message").is_some_and(Value::is_string);
        (!shaped).then(|| format!("an error object without an integer code and a message: {error}"))
    })
}
