//! The modern-era rules on single messages: one table per rule, each row a message and
//! whether the rule holds. No server is spawned.

use serde_json::{json, Value};

use super::*;

fn holds(b: Option<Breach>) -> bool {
    b.is_none()
}

#[test]
fn result_type_rule() {
    let rows: &[(&str, &str, Value, bool)] = &[
        (
            "complete list",
            "tools/list",
            json!({"resultType": "complete", "tools": []}),
            true,
        ),
        ("missing", "tools/list", json!({"tools": []}), false),
        (
            "input_required on a call",
            "tools/call",
            json!({"resultType": "input_required"}),
            true,
        ),
        (
            "input_required on a list",
            "tools/list",
            json!({"resultType": "input_required"}),
            false,
        ),
        (
            "not a string",
            "tools/call",
            json!({"resultType": 1}),
            false,
        ),
        (
            "unknown value",
            "server/discover",
            json!({"resultType": "task"}),
            false,
        ),
    ];
    for (name, method, result, ok) in rows {
        let b = result_type(method, result);
        assert_eq!(holds(b.clone()), *ok, "{name}: {b:?}");
        if let Some(b) = b {
            assert_eq!(b.check, CheckId::MResulttype);
        }
    }
}

#[test]
fn server_info_rule() {
    let key = META_SERVER_INFO;
    let rows: &[(&str, Value, bool)] = &[
        (
            "present",
            json!({"_meta": {key: {"name": "s", "version": "1"}}}),
            true,
        ),
        ("no _meta", json!({}), false),
        ("no version", json!({"_meta": {key: {"name": "s"}}}), false),
        ("not an object", json!({"_meta": {key: "s 1"}}), false),
    ];
    for (name, result, ok) in rows {
        assert_eq!(holds(server_info("tools/list", result)), *ok, "{name}");
    }
}

#[test]
fn cache_hint_rule() {
    let rows: &[(&str, Value, bool)] = &[
        ("public", json!({"ttlMs": 0, "cacheScope": "public"}), true),
        (
            "private",
            json!({"ttlMs": 60000, "cacheScope": "private"}),
            true,
        ),
        ("no ttlMs", json!({"cacheScope": "public"}), false),
        (
            "negative ttlMs",
            json!({"ttlMs": -1, "cacheScope": "public"}),
            false,
        ),
        (
            "fractional ttlMs",
            json!({"ttlMs": 1.5, "cacheScope": "public"}),
            false,
        ),
        ("no cacheScope", json!({"ttlMs": 1}), false),
        (
            "unknown cacheScope",
            json!({"ttlMs": 1, "cacheScope": "shared"}),
            false,
        ),
    ];
    for (name, result, ok) in rows {
        assert_eq!(holds(cache_hints(result)), *ok, "{name}");
    }
}

#[test]
fn discover_rule() {
    let good = json!({"resultType": "complete", "supportedVersions": ["2026-07-28"],
        "capabilities": {}, "ttlMs": 0, "cacheScope": "public"});
    assert!(holds(discover_result(&good, "2026-07-28")));
    assert!(!holds(discover_result(&good, "2027-01-01")));
    for field in [
        "resultType",
        "supportedVersions",
        "capabilities",
        "ttlMs",
        "cacheScope",
    ] {
        let mut bad = good.clone();
        bad.as_object_mut().unwrap().remove(field);
        assert!(!holds(discover_result(&bad, "2026-07-28")), "{field}");
    }
}

#[test]
fn version_unsupported_rule() {
    let error = |e: Value| json!({"jsonrpc": "2.0", "id": 1, "error": e});
    let rows: &[(&str, Value, bool)] = &[
        (
            "-32022 with data",
            error(json!({"code": -32022, "message": "m",
                "data": {"supported": ["2026-07-28"], "requested": "1900-01-01"}})),
            true,
        ),
        (
            "-32602",
            error(json!({"code": -32602, "message": "m"})),
            false,
        ),
        (
            "-32022 without data",
            error(json!({"code": -32022, "message": "m"})),
            false,
        ),
        (
            "requested echoed wrong",
            error(json!({"code": -32022, "message": "m",
                "data": {"supported": ["2026-07-28"], "requested": "2026-07-28"}})),
            false,
        ),
        (
            "served",
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            false,
        ),
    ];
    for (name, response, ok) in rows {
        assert_eq!(
            holds(version_unsupported_error(response, "1900-01-01")),
            *ok,
            "{name}"
        );
    }
}

#[test]
fn input_required_rules() {
    let elicit =
        json!({"method": "elicitation/create", "params": {"mode": "form", "message": "m"}});
    let rows: &[(&str, Value, bool)] = &[
        (
            "elicitation",
            json!({"resultType": "input_required", "inputRequests": {"a": elicit}}),
            true,
        ),
        (
            "state only",
            json!({"resultType": "input_required", "requestState": "s"}),
            true,
        ),
        ("neither", json!({"resultType": "input_required"}), false),
        (
            "a tools/list request",
            json!({"resultType": "input_required", "inputRequests": {"a": {"method": "tools/list"}}}),
            false,
        ),
        (
            "state not a string",
            json!({"resultType": "input_required", "requestState": 3}),
            false,
        ),
        (
            "requests not an object",
            json!({"resultType": "input_required", "inputRequests": []}),
            false,
        ),
    ];
    for (name, result, ok) in rows {
        assert_eq!(holds(input_required_shape(result)), *ok, "{name}");
    }
    let asking = json!({"inputRequests": {"a": elicit, "b": {"method": "roots/list"}}});
    assert_eq!(
        undeclared_input_requests(&asking, &json!({"elicitation": {}})),
        vec![("b".to_string(), "roots")]
    );
    assert!(
        undeclared_input_requests(&asking, &json!({"elicitation": {}, "roots": {}})).is_empty()
    );
    assert!(holds(required_capabilities_error(
        &json!({"code": -32021, "message": "m", "data": {"requiredCapabilities": {"roots": {}}}})
    )));
    assert!(!holds(required_capabilities_error(
        &json!({"code": -32021, "message": "m"})
    )));
}

#[test]
fn error_code_rule() {
    for (code, ok) in [
        (-32602, true),
        (-32601, true),
        (-32000, true),
        (-32019, true),
        (-32020, true),
        (-32021, true),
        (-32022, true),
        (-32023, false),
        (-32050, false),
        (-32099, false),
        (-32100, true),
        (-32002, false),
        (-32042, false),
        (1, true),
    ] {
        assert_eq!(holds(error_code_range(code)), ok, "{code}");
    }
}

#[test]
fn modern_requests_are_told_by_their_meta() {
    assert!(is_modern_request(
        &json!({"method": "tools/list", "params": {"_meta": {META_VERSION: "2026-07-28"}}})
    ));
    assert!(!is_modern_request(
        &json!({"method": "tools/list", "params": {}})
    ));
    assert!(!is_modern_request(&json!({"method": "ping"})));
}
