//! The rule book on recorded exchanges: one table per rule family, each row an exchange
//! and the verdict it must get. Milliseconds to run; no server is spawned.

use serde_json::{json, Value};

use super::*;
use crate::protocol::{Rev, SchemaSet};

type Expect = Option<(CheckId, FailureKind)>;
/// A framing row: name, the line's problem, its JSON, the revision, the verdict.
type FrameRow<'a> = (
    &'a str,
    Option<FrameProblem>,
    Option<&'a Value>,
    &'a Revision,
    Expect,
);

fn verdict(b: Option<Breach>) -> Expect {
    b.map(|b| (b.check, b.kind))
}

const OK: Expect = None;

#[test]
fn envelope_rules() {
    use CheckId::*;
    use FailureKind::*;
    let rows: &[(&str, Value, Value, IdMatch, Expect)] = &[
        (
            "a good result",
            json!(1),
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            IdMatch::Exact,
            OK,
        ),
        (
            "a good error",
            json!(1),
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "x"}}),
            IdMatch::Exact,
            OK,
        ),
        (
            "id stringified",
            json!(1),
            json!({"jsonrpc": "2.0", "id": "1", "result": {}}),
            IdMatch::Loose,
            Some((RpcIdEcho, IdNotEchoed)),
        ),
        (
            "jsonrpc 1.0",
            json!(1),
            json!({"jsonrpc": "1.0", "id": 1, "result": {}}),
            IdMatch::Exact,
            Some((RpcJsonrpcVersion, InvalidMessage)),
        ),
        (
            "no jsonrpc",
            json!(1),
            json!({"id": 1, "result": {}}),
            IdMatch::Exact,
            Some((RpcJsonrpcVersion, InvalidMessage)),
        ),
        (
            "result and error",
            json!(1),
            json!({"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "x"}}),
            IdMatch::Exact,
            Some((RpcRespExclusive, InvalidMessage)),
        ),
        (
            "neither",
            json!(1),
            json!({"jsonrpc": "2.0", "id": 1}),
            IdMatch::Exact,
            Some((RpcRespExclusive, InvalidMessage)),
        ),
        (
            "string code",
            json!(1),
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": "-32601", "message": "x"}}),
            IdMatch::Exact,
            Some((RpcErrorShape, InvalidMessage)),
        ),
        (
            "no message",
            json!(1),
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601}}),
            IdMatch::Exact,
            Some((RpcErrorShape, InvalidMessage)),
        ),
        (
            "fractional code",
            json!(1),
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": 1.5, "message": "x"}}),
            IdMatch::Exact,
            Some((RpcErrorShape, InvalidMessage)),
        ),
    ];
    for (name, sent, response, id_match, expect) in rows {
        assert_eq!(
            verdict(envelope(sent, response, *id_match)),
            *expect,
            "{name}"
        );
    }
}

#[test]
fn error_id_rules() {
    let error = |id: Option<Value>| {
        let mut e = json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "x"}});
        if let Some(id) = id {
            e["id"] = id;
        }
        e
    };
    let dropped = Some((CheckId::RpcErrorId, FailureKind::IdNotEchoed));
    let rows: &[(&str, Value, Value, Expect)] = &[
        ("id echoed", json!(900_001), error(Some(json!(900_001))), OK),
        (
            "readable integer id left out",
            json!(900_001),
            error(None),
            dropped,
        ),
        (
            "readable string id sent as null",
            json!("a"),
            error(Some(Value::Null)),
            dropped,
        ),
        ("unreadable: not JSON", Value::Null, error(None), OK),
        (
            "unreadable: a fractional id",
            json!(1.5),
            error(Some(Value::Null)),
            OK,
        ),
        ("unreadable: an object id", json!({"a": 1}), error(None), OK),
        (
            "a result is not an error",
            json!(1),
            json!({"jsonrpc": "2.0", "result": {}}),
            OK,
        ),
    ];
    for (name, sent, response, expect) in rows {
        assert_eq!(verdict(error_id(sent, response)), *expect, "{name}");
    }
}

#[test]
fn framing_rules() {
    let r2 = Rev::R2025_03_26.revision();
    let r3 = Rev::R2025_06_18.revision();
    let batch = json!([{"jsonrpc": "2.0", "method": "notifications/message", "params": {}}]);
    let framing = Some((CheckId::RpcStdioFraming, FailureKind::InvalidMessage));
    let rows: &[FrameRow] = &[
        ("a message", None, None, r3, OK),
        ("not JSON", Some(FrameProblem::NotJson), None, r3, framing),
        ("too deep", Some(FrameProblem::TooDeep), None, r3, framing),
        (
            "invalid UTF-8",
            Some(FrameProblem::InvalidUtf8),
            None,
            r3,
            framing,
        ),
        (
            "over the cap",
            Some(FrameProblem::Overlong { length: 1 << 30 }),
            None,
            r3,
            framing,
        ),
        (
            "a batch where batches exist",
            Some(FrameProblem::NotAMessage),
            Some(&batch),
            r2,
            OK,
        ),
        (
            "a batch where they do not",
            Some(FrameProblem::NotAMessage),
            Some(&batch),
            r3,
            framing,
        ),
        (
            "a number",
            Some(FrameProblem::NotAMessage),
            Some(&json!(3)),
            r2,
            framing,
        ),
    ];
    for (name, problem, json, revision, expect) in rows {
        assert_eq!(
            verdict(frame(problem.as_ref(), *json, revision)),
            *expect,
            "{name}"
        );
    }
}

#[test]
fn probe_answer_rules() {
    use CheckId::*;
    use FailureKind::*;
    let either = Rev::R2025_06_18.revision();
    let tool_error = Rev::R2025_11_25.revision();
    let success = json!({"content": []});
    let is_error = json!({"content": [], "isError": true});
    let e32602 = json!({"code": -32602, "message": "bad"});
    let e32603 = json!({"code": -32603, "message": "bad"});
    let no_code = json!({"message": "bad"});
    let rows: &[(&str, Expect, Expect)] = &[
        (
            "unknown method: -32601",
            verdict(unknown_method(Some(-32601), true)),
            OK,
        ),
        (
            "unknown method: -32600",
            verdict(unknown_method(Some(-32600), true)),
            Some((RpcErrMethodNotFound, UnknownMethodAnswered)),
        ),
        (
            "unknown method: a result",
            verdict(unknown_method(None, true)),
            Some((RpcErrMethodNotFound, UnknownMethodAnswered)),
        ),
        (
            "unknown method: silence",
            verdict(unknown_method(None, false)),
            OK,
        ),
        (
            "invalid args: success",
            verdict(invalid_arguments(either, None, Some(&success))),
            Some((TcErrInputValidation, InvalidAccepted)),
        ),
        (
            "invalid args: isError",
            verdict(invalid_arguments(tool_error, None, Some(&is_error))),
            OK,
        ),
        (
            "invalid args: -32602 before 2025-11-25",
            verdict(invalid_arguments(either, Some(&e32602), None)),
            OK,
        ),
        (
            "invalid args: -32602 from 2025-11-25",
            verdict(invalid_arguments(tool_error, Some(&e32602), None)),
            Some((TcErrInputValidation, WrongErrorClass)),
        ),
        (
            "invalid args: -32603",
            verdict(invalid_arguments(either, Some(&e32603), None)),
            Some((TcErrInputValidation, WrongErrorClass)),
        ),
        (
            "invalid args: no code",
            verdict(invalid_arguments(either, Some(&no_code), None)),
            Some((TcErrInputValidation, WrongErrorClass)),
        ),
        (
            "invalid args: silence",
            verdict(invalid_arguments(either, None, None)),
            OK,
        ),
        (
            "arguments type: -32602",
            verdict(arguments_type(&json!([1]), Some(&e32602), None)),
            OK,
        ),
        (
            "arguments type: -32603",
            verdict(arguments_type(&json!([1]), Some(&e32603), None)),
            Some((TcErrArgumentsType, WrongErrorClass)),
        ),
        (
            "arguments type: no code",
            verdict(arguments_type(&json!([1]), Some(&no_code), None)),
            Some((TcErrArgumentsType, WrongErrorClass)),
        ),
        (
            "arguments type: success",
            verdict(arguments_type(&json!([1]), None, Some(&success))),
            Some((TcErrArgumentsType, InvalidAccepted)),
        ),
        (
            "arguments type: isError",
            verdict(arguments_type(&json!([1]), None, Some(&is_error))),
            Some((TcErrArgumentsType, InvalidAccepted)),
        ),
        (
            "arguments type: null read as absent, isError (policy)",
            verdict(arguments_type(&Value::Null, None, Some(&is_error))),
            Some((TcErrArgumentsType, WrongErrorClass)),
        ),
        (
            "arguments type: null read as absent, success (policy)",
            verdict(arguments_type(&Value::Null, None, Some(&success))),
            Some((TcErrArgumentsType, WrongErrorClass)),
        ),
        (
            "arguments type: silence",
            verdict(arguments_type(&json!([1]), None, None)),
            OK,
        ),
        (
            "arguments omitted: error, arguments required",
            verdict(arguments_omitted(Some(&e32602), true)),
            OK,
        ),
        (
            "arguments omitted: error, nothing required",
            verdict(arguments_omitted(Some(&e32602), false)),
            Some((TcArgumentsOmitted, ProtocolErrorOnValid)),
        ),
        (
            "arguments omitted: a result",
            verdict(arguments_omitted(None, false)),
            OK,
        ),
        ("valid call: result", verdict(valid_call(None)), OK),
        (
            "valid call: error",
            verdict(valid_call(Some(&e32603))),
            Some((TcErrExecution, ProtocolErrorOnValid)),
        ),
        (
            "cursor: -32602",
            verdict(cursor(Some(-32602), None, false)),
            OK,
        ),
        (
            "cursor: -32603",
            verdict(cursor(Some(-32603), None, true)),
            Some((PagInvalidCursor, CursorAnswered)),
        ),
        (
            "cursor: a page, generated",
            verdict(cursor(None, Some(&json!({"tools": []})), true)),
            OK,
        ),
        (
            "cursor: a page, scripted",
            verdict(cursor(None, Some(&json!({"tools": []})), false)),
            Some((PagInvalidCursor, CursorAnswered)),
        ),
        (
            "cursor: not a page",
            verdict(cursor(None, Some(&json!({})), true)),
            Some((PagInvalidCursor, CursorAnswered)),
        ),
    ];
    for (name, got, expect) in rows {
        assert_eq!(got, expect, "{name}");
    }
}

#[test]
fn payload_rules() {
    use CheckId::*;
    use FailureKind::*;
    let schemas = SchemaSet::new(Rev::R2025_06_18.revision()).unwrap();
    let output = jsonschema::validator_for(
        &json!({"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}),
    )
    .unwrap();
    let rows: &[(&str, Expect, Expect)] = &[
        (
            "a call result",
            verdict(result_schema(
                &schemas,
                "tools/call",
                &json!({"content": []}),
            )),
            OK,
        ),
        (
            "content not an array",
            verdict(result_schema(
                &schemas,
                "tools/call",
                &json!({"content": {}}),
            )),
            Some((SchemaServerMessages, InvalidResult)),
        ),
        (
            "a tools page without tools",
            verdict(result_schema(&schemas, "tools/list", &json!({}))),
            Some((SchemaServerMessages, InvalidResult)),
        ),
        (
            "a good progress notification",
            verdict(notification_schema(
                &schemas,
                &json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}}),
            )),
            OK,
        ),
        (
            "a progress notification without progress",
            verdict(notification_schema(
                &schemas,
                &json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1}}),
            )),
            Some((SchemaServerMessages, InvalidResult)),
        ),
        (
            "an unknown notification",
            verdict(notification_schema(
                &schemas,
                &json!({"jsonrpc": "2.0", "method": "x/y"}),
            )),
            OK,
        ),
        (
            "structured: conforms",
            verdict(structured_output(
                &output,
                &json!({"content": [], "structuredContent": {"n": 1}}),
            )),
            OK,
        ),
        (
            "structured: missing",
            verdict(structured_output(&output, &json!({"content": []}))),
            Some((TcOutputschemaPresence, InvalidResult)),
        ),
        (
            "structured: missing on an error result",
            verdict(structured_output(
                &output,
                &json!({"content": [], "isError": true}),
            )),
            OK,
        ),
        (
            "structured: wrong type",
            verdict(structured_output(
                &output,
                &json!({"content": [], "structuredContent": {"n": "1"}}),
            )),
            Some((TcOutputschemaConform, InvalidResult)),
        ),
    ];
    for (name, got, expect) in rows {
        assert_eq!(got, expect, "{name}");
    }
}

#[test]
fn unsolicited_responses() {
    let stray = json!({"jsonrpc": "2.0", "id": 7, "result": {}});
    assert_eq!(
        verdict(unsolicited(&stray, &[])),
        Some((CheckId::RpcIdEcho, FailureKind::InvalidMessage))
    );
    assert_eq!(
        verdict(unsolicited(&stray, &["notifications/initialized"])),
        Some((CheckId::LcInitializedNoReply, FailureKind::InvalidMessage))
    );
}
