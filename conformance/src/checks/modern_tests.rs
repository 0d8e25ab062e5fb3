//! The modern-era judges on hand-built records: each probe answered conformantly, then
//! answered the way one reference-server fault answers it.

use serde_json::{json, Value};

use super::super::modern;
use super::{result, Recorder, Script};
use crate::checks::{Ctx, Verdict};
use crate::protocol::META_SERVER_INFO;
use crate::protocol::{Exchange, Rev};
use crate::records::{EraFinding, ModernRecord, NegotiationRecord, RevisionRecord};
use crate::scenarios::request_meta;

const V: &str = "2026-07-28";

fn meta() -> Value {
    json!({"_meta": request_meta(V, json!({}))})
}

fn empty_modern() -> ModernRecord {
    ModernRecord {
        era: EraFinding::Modern,
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
    }
}

/// A 2026-07-28 record whose transcript continues with what `build` records.
fn record(build: impl FnOnce(&mut Recorder, &mut ModernRecord)) -> RevisionRecord {
    let mut record = Script::conformant(Rev::R2026_07_28).record();
    let mut r = Recorder {
        transcript: record.transcript.clone(),
        next_id: 1000,
    };
    let mut modern = empty_modern();
    build(&mut r, &mut modern);
    record.transcript = r.transcript;
    record.modern = Some(modern);
    record
}

fn judge(record: &RevisionRecord, judge: fn(&Ctx<'_>) -> Verdict) -> Verdict {
    let negotiation = NegotiationRecord::default();
    let ctx = Ctx {
        record,
        revision: Some(Rev::R2026_07_28.revision()),
        schemas: None,
        negotiation: &negotiation,
    };
    judge(&ctx)
}

fn passes(v: &Verdict) -> bool {
    matches!(v, Verdict::Pass(_))
}

fn broken(v: &Verdict) -> bool {
    matches!(v, Verdict::Violation(..))
}

fn list(r: &mut Recorder, names: &[&str], hints: bool) -> Exchange {
    let tools: Vec<Value> = names
        .iter()
        .map(|n| json!({"name": n, "inputSchema": {"type": "object"}}))
        .collect();
    let mut body = json!({"resultType": "complete", "tools": tools,
        "_meta": {META_SERVER_INFO: {"name": "s", "version": "1"}}});
    if hints {
        body["ttlMs"] = json!(0);
        body["cacheScope"] = json!("public");
    }
    r.exchange("tools/list", meta(), result(body))
}

#[test]
fn meta_required_wants_32602() {
    let good = record(|r, m| {
        let e = r.exchange("tools/list", json!({}), super::error(-32602));
        m.meta_missing
            .push(("io.modelcontextprotocol/protocolVersion", e));
    });
    assert!(passes(&judge(&good, modern::meta_required)));
    let served = record(|r, m| {
        let e = list(r, &["a"], true);
        m.meta_missing
            .push(("io.modelcontextprotocol/protocolVersion", e));
    });
    assert!(broken(&judge(&served, modern::meta_required)));
    let not_run = record(|_, _| {});
    assert!(matches!(
        judge(&not_run, modern::meta_required),
        Verdict::Skip(_)
    ));
}

#[test]
fn stateless_compares_the_late_walk_with_a_fresh_process() {
    let same = record(|r, m| {
        m.late_walk = vec![list(r, &["a", "b"], true)];
        let mut fresh = Recorder::new();
        let pages = vec![list(&mut fresh, &["b", "a"], true)];
        m.fresh_walk = Some((pages, fresh.transcript));
    });
    assert!(passes(&judge(&same, modern::stateless)));
    let stateful = record(|r, m| {
        m.late_walk = vec![list(r, &["a", "b"], true)];
        let mut fresh = Recorder::new();
        let pages = vec![list(&mut fresh, &["a"], true)];
        m.fresh_walk = Some((pages, fresh.transcript));
    });
    assert!(broken(&judge(&stateful, modern::stateless)));
}

#[test]
fn cache_hints_and_order_read_every_walk() {
    let missing = record(|r, m| m.late_walk = vec![list(r, &["echo"], false)]);
    assert!(broken(&judge(&missing, modern::cache_hints)));
    let shuffled = record(|r, m| m.late_walk = vec![list(r, &["b", "a"], true)]);
    // The conformant script's walks list one tool, "echo": a different set is not
    // compared for order.
    assert!(!broken(&judge(&shuffled, modern::deterministic_order)));
}

#[test]
fn ping_gone_and_error_range() {
    let answered = record(|r, m| m.ping = Some(r.exchange("ping", meta(), result(json!({})))));
    assert!(broken(&judge(&answered, modern::ping_gone)));
    let gone = record(|r, m| m.ping = Some(r.exchange("ping", meta(), super::error(-32601))));
    assert!(passes(&judge(&gone, modern::ping_gone)));
    let reserved = record(|r, _| {
        r.exchange("tools/call", meta(), super::error(-32050));
    });
    assert!(broken(&judge(&reserved, modern::error_range)));
}

#[test]
fn init_reject_names_a_supported_version() {
    let named = record(|_, m| {
        let answer = json!({"jsonrpc": "2.0", "error": {"code": -32602,
            "message": "this server speaks 2026-07-28 only"}});
        let mut own = Recorder::new();
        let x = own.exchange("initialize", json!({}), Some(answer));
        m.initialize = Some((x, own.transcript));
    });
    let mut with_discover = named.clone();
    with_discover.initialize = {
        let mut r = Recorder::new();
        r.exchange(
            "server/discover",
            meta(),
            result(json!({"resultType": "complete", "supportedVersions": [V],
                "capabilities": {}, "ttlMs": 0, "cacheScope": "public"})),
        )
    };
    assert!(passes(&judge(&with_discover, modern::init_reject)));
    let mut unnamed = with_discover.clone();
    if let Some(m) = unnamed.modern.as_mut() {
        let mut r = Recorder::new();
        let x = r.exchange("initialize", json!({}), super::error(-32601));
        m.initialize = Some((x, r.transcript));
    }
    assert!(broken(&judge(&unnamed, modern::init_reject)));
}
