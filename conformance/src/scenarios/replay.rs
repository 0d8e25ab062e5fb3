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
    // A server may exit right after its last answer (the live target checks for that).
    let exited_after = session.exited();
    session.kill().await;
    let transcript = session.transcript().clone();
    // The case request is the last request before the closing ping.
    let case_exchange = exchanges.iter().rev().nth(1);
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
        FailureKind::InvalidResult => match invalid_result(case, &transcript, &exchanges)? {
            Some(what) => (true, what),
            // A property case's outputSchema finding: the file does not hold the schema.
            None if case.output_schema.is_none() && case.check == "prop-valid-call-result" => (
                result.is_some(),
                "see the transcript: the result is judged against the tool's outputSchema by a full run"
                    .into(),
            ),
            None => (
                false,
                "every result and notification validates against the revision's schema and the tool's outputSchema"
                    .into(),
            ),
        },
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
    // Ids a malformed frame shows: a lenient server may answer them.
    let shown: Vec<Value> = transcript
        .entries()
        .iter()
        .filter(|e| e.direction == crate::protocol::Direction::Sent && e.json.is_none())
        .filter_map(|e| serde_json::from_str::<Value>(&e.text).ok())
        .filter_map(|v| v.get("id").cloned())
        .collect();
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
        let id = entry.json.as_ref().and_then(|m| m.get("id"));
        if entry.unsolicited && !null_error && !id.is_some_and(|i| shown.contains(i)) {
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

/// The first result or server notification that breaks the revision's schema, or a tool
/// result that breaks the case's `outputSchema`, described.
fn invalid_result(
    case: &CaseFile,
    transcript: &Transcript,
    exchanges: &[Exchange],
) -> crate::Result<Option<String>> {
    let Some(revision) = crate::protocol::Revision::find(&case.revision) else {
        return Ok(None);
    };
    let schemas = crate::protocol::SchemaSet::new(revision)?;
    for x in exchanges {
        let Some(result) = x.result() else { continue };
        let definition = crate::checks::result_definition(&x.method);
        if let Some(v) = schemas.validate(definition, result)?.first() {
            return Ok(Some(format!(
                "{} result breaks {definition} at {:?}: {}",
                x.method, v.instance_path, v.message
            )));
        }
        let failed = result.get("isError") == Some(&Value::Bool(true));
        if let (Some(schema), "tools/call", false) =
            (&case.output_schema, x.method.as_str(), failed)
        {
            let Some(sc) = result.get("structuredContent") else {
                return Ok(Some("a tool result without structuredContent".into()));
            };
            if let Ok(v) = schemas.validate_with(schema, sc) {
                if let Some(first) = v.first() {
                    return Ok(Some(format!(
                        "structuredContent breaks the outputSchema at {:?}: {}",
                        first.instance_path, first.message
                    )));
                }
            }
        }
    }
    let notifications = schemas.union_methods("ServerNotification");
    for entry in transcript.received() {
        let Some(m) = &entry.json else { continue };
        let method = m.get("method").and_then(Value::as_str);
        let known = method.is_some_and(|n| notifications.iter().any(|k| k == n));
        if known && m.get("id").is_none() {
            if let Some(v) = schemas.validate("ServerNotification", m)?.first() {
                return Ok(Some(format!(
                    "a {} notification breaks ServerNotification: {}",
                    method.unwrap_or_default(),
                    v.message
                )));
            }
        }
    }
    Ok(None)
}
