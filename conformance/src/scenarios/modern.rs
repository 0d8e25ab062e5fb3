//! The conversation of a modern revision (2026-07-28), which has no handshake.
//!
//! It opens the way 2026-07-28 stdio.mdx (Backward Compatibility) tells a client that
//! speaks both eras to open: `server/discover` with our preferred version in `_meta`.
//! A `DiscoverResult` or a recognised modern error means a modern server; anything else
//! a legacy one, for which the revision is skipped with the answer as the reason. A
//! server that does not implement `server/discover` but answers a modern `tools/list`
//! is modern too (and breaks `M-DISCOVER`). Over HTTP the same opening is the modern POST
//! that streamable-http.mdx, Backward Compatibility, tells a client to try first: an HTTP
//! error whose body is no recognised modern error means a legacy server.
//!
//! After the Tools conversation every request of which carries the per-request `_meta`
//! (the session stamps it), the probes only this era has: a request missing a required
//! `_meta` field, an unsupported version, the removed `ping`, a `subscriptions/listen`
//! when the server offers list changes, the multi round-trip retry of a tool that asked
//! for a client capability, a walk of `tools/list` after all that and one on a fresh
//! process (statelessness: the list must not depend on what came before), and a legacy
//! `initialize` on another fresh process, which tells a dual-era server from a
//! modern-only one (on a fresh process because a server may fix a connection's era at its
//! first request: the Python SDK answers a later `initialize` with -32022).

use serde_json::{json, Value};

use super::{era, tools, CLIENT_NAME};
use crate::protocol::{string_items, Exchange, Revision, Session, SessionConfig, Transcript};
use crate::records::RevisionRecord;
use crate::records::{
    EraFinding, ModernRecord, MrtrProbe, SubscriptionProbe, INPUT_CAPABILITIES, LISTEN_ID,
};
use crate::transport::ServerCommand;

pub use crate::protocol::{META_CAPABILITIES, META_CLIENT_INFO, META_VERSION};
/// The per-request `_meta` fields for `version` with `capabilities` (we declare none
/// unless a probe needs one).
pub fn request_meta(version: &str, capabilities: Value) -> Value {
    json!({
        META_VERSION: version,
        META_CAPABILITIES: capabilities,
        META_CLIENT_INFO: {"name": CLIENT_NAME, "version": env!("CARGO_PKG_VERSION")},
    })
}

/// Opens a modern conversation: returns the opening exchange (`server/discover`) and
/// the record of what it showed.
pub async fn open(session: &mut Session, version: &str) -> (Exchange, ModernRecord) {
    session.speak_modern(request_meta(version, json!({})));
    // Over HTTP a legacy server answers this modern POST with an HTTP error whose body it
    // could not tie to the request: that body is its answer (streamable-http.mdx,
    // Backward Compatibility), read at once rather than waited past.
    let discover = session.request_http_scoped("server/discover", None).await;
    let mut record = ModernRecord {
        era: EraFinding::Legacy(String::new()),
        list_probe: None,
        meta_missing: Vec::new(),
        client_info_absent: None,
        unsupported_version: None,
        ping: None,
        subscription: None,
        mrtr: Vec::new(),
        late_walk: Vec::new(),
        fresh_walk: None,
        initialize: None,
    };
    record.era = match (discover.result(), discover.error()) {
        (Some(result), _) => {
            let versions = strings(result.get("supportedVersions"));
            if versions.is_empty() || versions.iter().any(|v| v == version) {
                EraFinding::Modern
            } else {
                EraFinding::OtherVersions(versions)
            }
        }
        (None, Some(error)) if error.get("code").and_then(Value::as_i64) == Some(-32022) => {
            EraFinding::OtherVersions(strings(error.pointer("/data/supported")))
        }
        (None, Some(error)) => {
            let list = session.request_http_scoped("tools/list", None).await;
            let modern = list.result().is_some_and(|r| r.get("resultType").is_some());
            record.list_probe = Some(list);
            if modern {
                EraFinding::ModernWithoutDiscover
            } else {
                EraFinding::Legacy(format!(
                    "server/discover was answered with the error {} and a modern tools/list \
                     with no modern result: a legacy-only server (2026-07-28 stdio.mdx, \
                     Backward Compatibility)",
                    compact(error)
                ))
            }
        }
        (None, None) => EraFinding::Legacy(format!(
            "server/discover got no answer ({}): a legacy-only server (2026-07-28 \
             stdio.mdx, Backward Compatibility)",
            discover
                .silence()
                .map_or_else(|| "none".to_string(), |s| s.describe())
        )),
    };
    (discover, record)
}

fn strings(value: Option<&Value>) -> Vec<String> {
    string_items(value).map(str::to_string).collect()
}

fn compact(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 200 {
        let cut = (0..=200)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}...", &text[..cut])
    } else {
        text
    }
}

/// The probes only the modern era has, after the Tools conversation and the malformed
/// probes. Each runs only while the server still answers. Returns the fresh walk's
/// session when it is kept for the property phase (see [`fresh_walk`]).
pub async fn probes(
    session: &mut Session,
    record: &mut RevisionRecord,
    command: &ServerCommand,
    config: &SessionConfig,
) -> Option<Session> {
    let version = record.requested.id;
    let mut modern = record.modern.take()?;
    // M-META-REQUIRED: each required field left out in turn (raw lines: the session
    // would stamp the field back in).
    let client_info = json!({"name": CLIENT_NAME, "version": env!("CARGO_PKG_VERSION")});
    for (n, missing) in [META_VERSION, META_CAPABILITIES].into_iter().enumerate() {
        if session.ended().is_some() {
            break;
        }
        let mut meta = request_meta(version, json!({}));
        meta[META_CLIENT_INFO] = client_info.clone();
        if let Some(object) = meta.as_object_mut() {
            object.remove(missing);
        }
        let id = json!(format!("conformance-meta-{}", n + 1));
        let line =
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {"_meta": meta}});
        let label = format!("tools/list without {missing}");
        let exchange = session.request_line(&label, &line.to_string(), id).await;
        modern.meta_missing.push((missing, exchange));
    }
    // A19: clientInfo is optional; a request without it is still served (server/discover:
    // the one request every modern server answers, whatever its tools do).
    if session.ended().is_none() {
        let meta = json!({META_VERSION: version, META_CAPABILITIES: {}});
        let id = json!("conformance-meta-no-client-info");
        let line = json!({"jsonrpc": "2.0", "id": id, "method": "server/discover", "params": {"_meta": meta}});
        let label = format!("server/discover without {META_CLIENT_INFO}");
        modern.client_info_absent = Some(session.request_line(&label, &line.to_string(), id).await);
    }
    if session.ended().is_none() {
        let params = json!({"_meta": {META_VERSION: crate::records::UNSUPPORTED_VERSION}});
        modern.unsupported_version = Some(session.request("tools/list", Some(params)).await);
    }
    if session.ended().is_none() {
        modern.ping = Some(session.request("ping", None).await);
    }
    let lists_changes = record
        .init_result()
        .and_then(|r| r.pointer("/capabilities/tools/listChanged"))
        == Some(&Value::Bool(true));
    if lists_changes && session.ended().is_none() {
        modern.subscription = Some(subscription(session).await);
    }
    if let Some(tools) = &record.tools {
        for call in tools.calls.iter().take(tools::MAX_CALLED_TOOLS) {
            if session.ended().is_some() {
                break;
            }
            let Some(exchange) = &call.exchange else {
                continue;
            };
            if exchange.error_code() != Some(-32021) {
                continue;
            }
            let wanted = exchange
                .error()
                .and_then(|e| e.pointer("/data/requiredCapabilities"))
                .and_then(Value::as_object);
            let declared: serde_json::Map<String, Value> = wanted
                .into_iter()
                .flatten()
                .filter(|(k, _)| INPUT_CAPABILITIES.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if declared.is_empty() {
                continue;
            }
            let declared = Value::Object(declared);
            let Some(arguments) = exchange.request.pointer("/params/arguments").cloned() else {
                continue;
            };
            modern
                .mrtr
                .push(mrtr(session, &call.name, arguments, declared).await);
        }
    }
    if session.ended().is_none() {
        modern.late_walk = tools::walk(session, crate::records::MAX_PAGES).await.0;
    }
    // Over stdio, the fresh walk's process goes on as the property phase's first session.
    let mut spare = None;
    if session.ended().is_none() {
        let keep = !session.is_http();
        let walked = fresh_walk(command, config, record.requested, keep).await;
        (modern.fresh_walk, spare) = walked;
    }
    if session.ended().is_none() {
        modern.initialize = legacy_initialize(command, config).await;
    }
    record.modern = Some(modern);
    spare
}

/// `subscriptions/listen` for tool-list changes, a liveness request (the acknowledgment
/// is written before its answer), then the cancellation and another liveness request.
async fn subscription(session: &mut Session) -> SubscriptionProbe {
    let params = json!({"notifications": {"toolsListChanged": true}});
    let listen_seq = session
        .send_request(json!(LISTEN_ID), "subscriptions/listen", params)
        .await;
    let fence = session.liveness().await;
    session
        .notify(
            "notifications/cancelled",
            Some(json!({"requestId": LISTEN_ID, "reason": "conformance probe done"})),
        )
        .await;
    let cancel_seq = session.transcript().entries().len().saturating_sub(1);
    let after_cancel = session.liveness().await;
    SubscriptionProbe {
        listen_seq,
        fence,
        cancel_seq,
        after_cancel,
    }
}

/// The canned answer to one input request: a decline for elicitation, a fixed message
/// for sampling, no roots.
fn canned_answer(method: &str) -> Value {
    match method {
        "elicitation/create" => json!({"action": "decline"}),
        "sampling/createMessage" => json!({
            "role": "assistant",
            "content": {"type": "text", "text": "mcp-conformance canned answer"},
            "model": "mcp-conformance",
            "stopReason": "endTurn",
        }),
        _ => json!({"roots": []}),
    }
}

async fn mrtr(session: &mut Session, tool: &str, arguments: Value, declared: Value) -> MrtrProbe {
    let meta = json!({META_CAPABILITIES: declared.clone()});
    let params = json!({"name": tool, "arguments": arguments, "_meta": meta});
    let call = session.request("tools/call", Some(params)).await;
    let input_required = call
        .result()
        .filter(|r| r.get("resultType").and_then(Value::as_str) == Some("input_required"));
    let mut retry = None;
    if let Some(result) = input_required {
        let responses: serde_json::Map<String, Value> = result
            .get("inputRequests")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(key, request)| {
                let method = request.get("method").and_then(Value::as_str).unwrap_or("");
                (key.clone(), canned_answer(method))
            })
            .collect();
        let mut params = json!({
            "name": tool,
            "arguments": arguments,
            "inputResponses": responses,
            "_meta": {META_CAPABILITIES: declared.clone()},
        });
        if let Some(state) = result.get("requestState") {
            params["requestState"] = state.clone();
        }
        if session.ended().is_none() {
            retry = Some(session.request("tools/call", Some(params)).await);
        }
    }
    MrtrProbe {
        tool: tool.to_string(),
        declared,
        call,
        retry,
    }
}

/// `initialize` for the newest handshake revision on a fresh process (`M-DUAL-ERA`,
/// `M-INIT-REJECT`).
async fn legacy_initialize(
    command: &ServerCommand,
    config: &SessionConfig,
) -> Option<(Exchange, Transcript)> {
    let mut session = Session::start(command, config.clone()).ok()?;
    let params = super::initialize_params(crate::protocol::Rev::R2025_11_25.id());
    let exchange = session.request("initialize", Some(params)).await;
    session.kill().await;
    Some((exchange, session.into_transcript()))
}

/// One walk of `tools/list` on a fresh process (`M-STATELESS`: a list must not depend
/// on what came before on the connection). With `keep`, a process whose every page was
/// answered with a result is handed back, history forgotten, speaking `revision` as
/// [`era::open`] would: the property phase starts on it instead of a fresh process.
async fn fresh_walk(
    command: &ServerCommand,
    config: &SessionConfig,
    revision: &'static Revision,
    keep: bool,
) -> (Option<(Vec<Exchange>, Transcript)>, Option<Session>) {
    let Ok(mut session) = Session::start(command, config.clone()) else {
        return (None, None);
    };
    session.speak_modern(request_meta(revision.id, json!({})));
    let (pages, _) = tools::walk(&mut session, crate::records::MAX_PAGES).await;
    if keep && !pages.is_empty() && pages.iter().all(|p| p.result().is_some()) {
        let transcript = session.transcript().clone();
        if session.hand_over(
            "the fresh tools/list walk's session, handed to the property phase (its earlier lines are in the walk's record)",
        ) && era::open(&mut session, revision).await.is_ok()
        {
            return (Some((pages, transcript)), Some(session));
        }
    }
    session.kill().await;
    (Some((pages, session.into_transcript())), None)
}
