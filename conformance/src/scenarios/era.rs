//! What a generated conversation needs to know about its revision's era: how a fresh
//! session opens (the legacy `initialize` handshake, or in 2026-07-28 no handshake, only
//! the per-request `_meta` on every request), which request asks "are you there?"
//! (`ping`, or `server/discover` where 2026-07-28 removed ping), and how a case file
//! writes its messages so that replay sends the same bytes again.
//!
//! The property phase, the live fuzz target and replay all open sessions and write case
//! files; keeping the era's part here makes the three open the same way, from the
//! revision table's one fact ([`Revision::modern`]).

use serde_json::{json, Value};

use super::{initialize_params, request_meta};
use crate::protocol::{stamp_request, Revision, Session};
use crate::records::CaseMessage;

/// The `_meta` every request of a generated modern session carries (no client
/// capabilities declared, as in the scripted phase); `None` in the legacy era.
pub fn generated_meta(revision: &Revision) -> Option<Value> {
    revision
        .modern()
        .then(|| request_meta(revision.id, json!({})))
}

/// Opens a fresh `session` for `revision`: the `initialize` handshake in the legacy era
/// (`Err` with what went wrong when it got no result), or, in the modern era, only the
/// `_meta` every later request carries (2026-07-28 has no handshake).
pub async fn open(session: &mut Session, revision: &Revision) -> Result<(), String> {
    if let Some(meta) = generated_meta(revision) {
        session.speak_modern(meta);
        return Ok(());
    }
    let init = session.handshake(initialize_params(revision.id)).await;
    if init.result().is_some() {
        return Ok(());
    }
    Err(match init.silence() {
        Some(s) => format!("did not complete initialize ({})", s.describe()),
        None => "did not complete initialize (it answered with an error)".into(),
    })
}

/// Makes a replayed case's session speak the case's era: a modern case's requests get
/// the `_meta` they already carry (a no-op for a case file written by this suite), and
/// its liveness request is `server/discover`.
pub fn replay_era(session: &mut Session, revision: Option<&Revision>) {
    if let Some(meta) = revision.and_then(generated_meta) {
        session.speak_modern(meta);
    }
}

/// What "right after the session opened" means in messages: "right after initialize",
/// or "as the first request" in the modern era.
pub fn after_opening(revision: &Revision) -> &'static str {
    if revision.modern() {
        "as the first request of a fresh process"
    } else {
        "right after initialize"
    }
}

/// The liveness request of `revision` with `id`.
pub fn liveness_request(revision: &Revision, id: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": revision.liveness_method()})
}

/// The lines a case file opens with: the handshake in the legacy era, none in the modern
/// one.
pub fn case_opening(revision: &Revision) -> Vec<CaseMessage> {
    if revision.modern() {
        return Vec::new();
    }
    vec![
        CaseMessage::message(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize_params(revision.id)}),
            false,
        ),
        CaseMessage::message(
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            false,
        ),
    ]
}

/// `message` as a case file of `revision` writes it: as the session sent it, with the
/// modern `_meta` on a request.
pub fn case_line(revision: &Revision, message: Value) -> Value {
    match generated_meta(revision) {
        Some(meta) => stamp_request(&meta, message),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::META_VERSION;

    fn revision(id: &str) -> &'static Revision {
        Revision::find(id).expect("known revision")
    }

    #[test]
    fn a_modern_case_file_has_no_handshake_and_stamped_requests() {
        let modern = revision("2026-07-28");
        assert!(case_opening(modern).is_empty());
        let line = case_line(modern, liveness_request(modern, json!("after-case")));
        assert_eq!(line["method"], "server/discover");
        assert_eq!(line["params"]["_meta"][META_VERSION], "2026-07-28");
        // Stamping again changes nothing: replay sends the file's bytes.
        let again = case_line(modern, line.clone());
        assert_eq!(again, line);
        // Notifications carry no per-request `_meta`.
        let note = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}});
        assert_eq!(case_line(modern, note.clone()), note);
    }

    #[test]
    fn a_legacy_case_file_opens_with_the_handshake_and_pings() {
        let legacy = revision("2025-11-25");
        let opening = case_opening(legacy);
        assert_eq!(opening.len(), 2);
        assert_eq!(opening[0].send["method"], "initialize");
        let line = case_line(legacy, liveness_request(legacy, json!("after-case")));
        assert_eq!(
            line,
            json!({"jsonrpc": "2.0", "id": "after-case", "method": "ping"})
        );
    }
}
