//! Edge probes: inputs a client may send that the main walk does not, whose answer the
//! spec (or JSON-RPC 2.0, which it builds on) still fixes.
//!
//! - A short session of its own, before the main one ever starts judging: `initialize`
//!   with its params malformed (`LC-INIT-PARAMS-MALFORMED`), then a ping between the
//!   initialize response and `notifications/initialized` (`LC-PING-ANYTIME`). Its own
//!   process, because a server may rightly end or refuse a session whose initialize was
//!   malformed, and because the main session must stay a well-behaved client. Over stdio,
//!   a session the server kept healthy (every malformed initialize refused, the real one
//!   and the ping answered) is initialized and goes on as the property phase's first
//!   session: one process start less per revision.
//! - In the main session: an empty batch and a batch of notifications only, in the
//!   revision that has batches (`RPC-BATCH-RESPONSE-R2`); a cancellation of a request
//!   already answered and a malformed one (`CANCEL-IGNORE-INVALID`).
//!
//! Every probe is bounded like the rest of the session: a ping follows whatever may
//! rightly go unanswered (a notification, a batch), so a server that behaves costs a round
//! trip and a short grace, never a timeout.

use serde_json::{json, Value};

use super::initialize_params;
use crate::protocol::{Exchange, Revision, Session, SessionConfig, Transcript};
use crate::records::{CancelProbe, EarlySession, EdgeRecord, MalformedInit, UNKNOWN_NOTIFICATION};
use crate::transport::ServerCommand;

/// The malformed initialize params, each breaking one required member of
/// InitializeRequest (schema.json: protocolVersion, capabilities, clientInfo).
fn malformed_params(version: &str) -> Vec<(&'static str, Option<Value>)> {
    let full = initialize_params(version);
    let without = |key: &str| {
        let mut params = full.clone();
        if let Some(object) = params.as_object_mut() {
            object.remove(key);
        }
        Some(params)
    };
    vec![
        ("params left out", None),
        ("protocolVersion left out", without("protocolVersion")),
        ("capabilities left out", without("capabilities")),
        ("clientInfo left out", without("clientInfo")),
    ]
}

/// Runs the early probes in a fresh process: each malformed initialize in turn while the
/// server refuses them with an error (a success or silence ends the series: the session
/// is then initialized, or in doubt), the well-formed one if all were refused, then a
/// ping before `notifications/initialized`.
///
/// With `keep`, a session left healthy (every malformed initialize refused, the
/// well-formed one answered with `revision`, the ping with a result) is sent
/// `notifications/initialized` and handed back with its history forgotten: the property
/// phase starts on it instead of a fresh process (a Python server's start costs about a
/// second). Its record's transcript ends before that notification.
pub(super) async fn early_session(
    command: &ServerCommand,
    revision: &'static Revision,
    config: &SessionConfig,
    keep: bool,
) -> crate::Result<(EarlySession, Option<Session>)> {
    let mut session = Session::start(command, config.clone())?;
    let mut malformed = Vec::new();
    let mut refused_all = true;
    for (what, params) in malformed_params(revision.id) {
        let exchange = session.request("initialize", params).await;
        let refused = exchange.error().is_some();
        malformed.push(MalformedInit { what, exchange });
        if !refused || session.ended().is_some() {
            refused_all = refused;
            break;
        }
    }
    let mut record = EarlySession {
        malformed,
        initialize: None,
        ping: None,
        transcript: Transcript::default(),
    };
    if refused_all && session.ended().is_none() {
        let params = initialize_params(revision.id);
        record.initialize = Some(session.request("initialize", Some(params)).await);
    }
    if record.initialized().is_some() && session.ended().is_none() {
        record.ping = Some(session.request("ping", None).await);
    }
    let answered = record
        .initialize
        .as_ref()
        .and_then(Exchange::result)
        .and_then(|r| r.get("protocolVersion"))
        .and_then(Value::as_str);
    let healthy = refused_all
        && answered == Some(revision.id)
        && record.ping.as_ref().is_some_and(|p| p.result().is_some());
    if keep && healthy && session.exited().is_none() {
        record.transcript = session.transcript().clone();
        session.notify("notifications/initialized", None).await;
        if session.hand_over(
            "the edge probes' session, initialized and handed to the property phase (its earlier lines are in the edge probes' record)",
        ) {
            return Ok((record, Some(session)));
        }
    }
    session.kill().await;
    record.transcript = session.into_transcript();
    Ok((record, None))
}

/// A ping with the id `true`, sent after the request without `method`: an invalid Request
/// object gets -32600 (`RPC-ERR-INVALID-REQUEST`, section 10 A3); a ping follows it.
pub(super) async fn bad_id(session: &mut Session, edges: &mut EdgeRecord) {
    // The liveness request (ping; server/discover in 2026-07-28, with its `_meta`).
    let method = session.liveness_method();
    let line = session
        .stamp(json!({"jsonrpc": "2.0", "id": true, "method": method}))
        .to_string();
    let label = format!("{method} with id true");
    edges.bad_id = Some(session.request_raw(&label, &line, Some(json!(true))).await);
}

/// The in-session probes, sent after the unknown-method probe.
pub(super) async fn in_session(session: &mut Session, batching: bool, edges: &mut EdgeRecord) {
    if batching {
        edges.empty_batch = Some(session.send_batch(Vec::new()).await);
        if session.ended().is_some() {
            return;
        }
        let note =
            |n: u32| json!({"jsonrpc": "2.0", "method": UNKNOWN_NOTIFICATION, "params": {"n": n}});
        edges.notification_batch = Some(session.send_batch(vec![note(1), note(2)]).await);
        if session.ended().is_some() {
            return;
        }
    }
    // cancellation.mdx, Error Handling: "Invalid cancellation notifications SHOULD be
    // ignored: Unknown request IDs, Already completed requests, Malformed notifications".
    let finished = session.liveness().await;
    let Some(id) = finished.response().and(finished.request.get("id")).cloned() else {
        return;
    };
    // One more ping, answered before the cancellations go out: anything the server still
    // had to say about the first (a second answer to it) is read by then, and is not taken
    // for an answer to a cancellation.
    session.liveness().await;
    let cancel = |request_id: Value, reason: &str| {
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": request_id, "reason": reason}})
    };
    let (notifications, fence) = session
        .notify_fenced(&[
            cancel(id, "conformance probe: a request already answered"),
            // A requestId that is neither a string nor an integer: malformed in every
            // revision (2025-11-25 makes requestId optional, never of another type).
            cancel(json!(true), "conformance probe: a malformed cancellation"),
        ])
        .await;
    edges.cancel = Some(CancelProbe {
        finished,
        notifications,
        fence,
        end: session.transcript().entries().len(),
    });
}
