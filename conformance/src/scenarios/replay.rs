//! Replaying a saved case: the exact messages of a failing property case, sent again to
//! a fresh server process, with a verdict on whether the failure still shows.
//!
//! This is what `mcp-conformance replay FILE` runs. The case file holds the handshake and
//! the case's messages (pipelined ones marked), so a server author can reproduce a finding
//! without the generator, the seed or this suite's version.

use serde_json::Value;

use super::property::{CaseFile, FailureKind};
use crate::protocol::{Exchange, IdMatch, Session, SessionConfig, Silence, Transcript};
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
    let mut group: Vec<Value> = Vec::new();
    for message in &case.messages {
        group.push(message.send.clone());
        if message.pipelined {
            continue;
        }
        let batch = std::mem::take(&mut group);
        if batch.len() > 1 {
            exchanges.extend(session.pipeline(&batch).await.into_iter().flatten());
            continue;
        }
        let m = &batch[0];
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
