//! The rule book on recorded exchanges: one table per rule family, each row an exchange
//! and the verdict it must get. Milliseconds to run; no server is spawned.

use serde_json::{json, Value};

use super::*;
use crate::protocol::{Rev, SchemaSet};
use crate::rules::*;

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
        (
            "an error with id null taken for the answer to a readable id (its HTTP POST's)",
            json!(7),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32602, "message": "x"}}),
            IdMatch::Unread,
            Some((RpcErrorId, IdNotEchoed)),
        ),
        (
            "an error without an id answering an id that cannot be read",
            json!({"not": "an id"}),
            json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "x"}}),
            IdMatch::Unread,
            OK,
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
    let e32601 = json!({"code": -32601, "message": "needs a task"});
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
            verdict(invalid_arguments(either, F, None, Some(&success))),
            Some((TcErrInputValidation, InvalidAccepted)),
        ),
        (
            "invalid args: isError",
            verdict(invalid_arguments(tool_error, F, None, Some(&is_error))),
            OK,
        ),
        (
            "invalid args: -32602 before 2025-11-25",
            verdict(invalid_arguments(either, F, Some(&e32602), None)),
            OK,
        ),
        (
            "invalid args: -32602 from 2025-11-25",
            verdict(invalid_arguments(tool_error, F, Some(&e32602), None)),
            Some((TcErrInputValidation, WrongErrorClass)),
        ),
        (
            "invalid args: -32603",
            verdict(invalid_arguments(either, F, Some(&e32603), None)),
            Some((TcErrInputValidation, WrongErrorClass)),
        ),
        (
            "invalid args: no code",
            verdict(invalid_arguments(either, F, Some(&no_code), None)),
            Some((TcErrInputValidation, WrongErrorClass)),
        ),
        (
            "invalid args: silence",
            verdict(invalid_arguments(either, F, None, None)),
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
            verdict(arguments_omitted(Some(&e32602), true, None)),
            OK,
        ),
        (
            "arguments omitted: error, nothing required",
            verdict(arguments_omitted(Some(&e32602), false, None)),
            Some((TcArgumentsOmitted, ProtocolErrorOnValid)),
        ),
        (
            "arguments omitted: the same error as for {}",
            verdict(arguments_omitted(
                Some(&e32602),
                false,
                Some(&json!({"jsonrpc": "2.0", "id": 1, "error": e32602})),
            )),
            OK,
        ),
        (
            "arguments omitted: an error where {} gets a result",
            verdict(arguments_omitted(
                Some(&e32602),
                false,
                Some(&json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}})),
            )),
            Some((TcArgumentsOmitted, ProtocolErrorOnValid)),
        ),
        (
            "arguments omitted: a result",
            verdict(arguments_omitted(None, false, None)),
            OK,
        ),
        ("valid call: result", verdict(valid_call(F, None)), OK),
        (
            "valid call of a tool that requires a task, refused plainly",
            verdict(valid_call(TaskSupport::Required, Some(&e32601))),
            OK,
        ),
        (
            "valid call of a tool offering tasks: an error is still one",
            verdict(valid_call(TaskSupport::Optional, Some(&e32601))),
            Some((TcErrExecution, ProtocolErrorOnValid)),
        ),
        (
            "invalid args of a tool that requires a task, refused plainly",
            verdict(invalid_arguments(
                tool_error,
                TaskSupport::Required,
                Some(&e32601),
                None,
            )),
            OK,
        ),
        (
            "invalid args of a tool that requires a task, run anyway",
            verdict(invalid_arguments(
                tool_error,
                TaskSupport::Required,
                None,
                Some(&success),
            )),
            Some((TcErrInputValidation, InvalidAccepted)),
        ),
        (
            "valid call: error",
            verdict(valid_call(F, Some(&e32603))),
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
            "resource_link content in 2025-03-26: the content type is the cause",
            verdict(content_types(
                Rev::R2025_03_26.revision(),
                &json!({"content": [{"type": "text", "text": "x"}, {"type": "resource_link", "uri": "a:b", "name": "n"}]}),
            )),
            Some((TcContentTypes, InvalidResult)),
        ),
        (
            "resource_link content in 2025-06-18",
            verdict(content_types(
                Rev::R2025_06_18.revision(),
                &json!({"content": [{"type": "resource_link", "uri": "a:b", "name": "n"}]}),
            )),
            OK,
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
            "structured: missing on an InputRequiredResult (not the tool's result yet)",
            verdict(structured_output(
                &output,
                &json!({"resultType": "input_required", "inputRequests": {}}),
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

/// One rule for a second answer to one of our ids, whoever asks: a policy warning under
/// rpc-id-echo; an id that is not ours (or null) is not this rule's.
#[test]
fn a_second_answer_to_one_of_our_ids() {
    let again = json!({"jsonrpc": "2.0", "id": "pipe-1", "result": {}});
    let (ours, other) = (json!("pipe-1"), json!(3));
    type Row<'a> = (&'a str, &'a [&'a Value], Option<(CheckId, FailureKind)>);
    let rows: &[Row<'_>] = &[
        (
            "ours",
            &[&other, &ours],
            Some((CheckId::RpcIdEcho, FailureKind::AnsweredAgain)),
        ),
        ("not ours", &[&other], None),
    ];
    for (name, ids, want) in rows {
        assert_eq!(verdict(answered_again(&again, ids)), *want, "{name}");
    }
    let null = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "x"}});
    assert_eq!(verdict(answered_again(&null, &[&Value::Null])), None);
    assert!(FailureKind::AnsweredAgain.is_policy_warning());
}

/// A tool without task support, for the rules that take one.
const F: TaskSupport = TaskSupport::Forbidden;

#[test]
fn tool_level_task_negotiation_rules() {
    use CheckId::*;
    use FailureKind::*;
    let error = |code: i64| json!({"code": code, "message": "x"});
    let (e32600, e32601, e32602) = (error(-32600), error(-32601), error(-32602));
    let no_code = json!({"message": "x"});
    let result = json!({"content": []});
    let is_error = json!({"content": [{"type": "text", "text": "needs a task"}], "isError": true});
    let created = json!({"task": {"taskId": "t", "status": "working"}});
    let rows: &[(&str, Option<Breach>, Expect)] = &[
        (
            "required, plain: -32601",
            plain_call_of_task_tool(Some(&e32601), None),
            OK,
        ),
        (
            "required, plain: -32600 (A9)",
            plain_call_of_task_tool(Some(&e32600), None),
            Some((TcTaskRequired, WrongErrorClass)),
        ),
        (
            "required, plain: -32602",
            plain_call_of_task_tool(Some(&e32602), None),
            Some((TcTaskRequired, InvalidAccepted)),
        ),
        (
            "required, plain: no code",
            plain_call_of_task_tool(Some(&no_code), None),
            Some((TcTaskRequired, InvalidAccepted)),
        ),
        (
            "required, plain: isError (server-everything)",
            plain_call_of_task_tool(None, Some(&is_error)),
            Some((TcTaskRequired, InvalidAccepted)),
        ),
        (
            "required, plain: success",
            plain_call_of_task_tool(None, Some(&result)),
            Some((TcTaskRequired, InvalidAccepted)),
        ),
        (
            "required, plain: silence",
            plain_call_of_task_tool(None, None),
            OK,
        ),
        (
            "forbidden, task: -32601",
            task_call(F, Some(&e32601), None),
            OK,
        ),
        (
            "forbidden, task: -32602",
            task_call(F, Some(&e32602), None),
            Some((TcTaskForbidden, InvalidAccepted)),
        ),
        (
            "forbidden, task ignored: a tool result",
            task_call(F, None, Some(&result)),
            Some((TcTaskForbidden, InvalidAccepted)),
        ),
        (
            "forbidden, task: a CreateTaskResult",
            task_call(F, None, Some(&created)),
            Some((TcTaskForbidden, InvalidAccepted)),
        ),
        (
            "optional, task: a CreateTaskResult",
            task_call(TaskSupport::Optional, None, Some(&created)),
            OK,
        ),
        (
            "required, task: a CreateTaskResult",
            task_call(TaskSupport::Required, None, Some(&created)),
            OK,
        ),
        (
            "required, task ignored: a tool result",
            task_call(TaskSupport::Required, None, Some(&result)),
            Some((TcTaskCreate, InvalidAccepted)),
        ),
        (
            "optional, task ignored: an isError result",
            task_call(TaskSupport::Optional, None, Some(&is_error)),
            Some((TcTaskCreate, InvalidAccepted)),
        ),
        (
            "optional, task refused (policy)",
            task_call(TaskSupport::Optional, Some(&e32601), None),
            Some((TcTaskCreate, WrongErrorClass)),
        ),
        (
            "optional, task: silence",
            task_call(TaskSupport::Optional, None, None),
            OK,
        ),
    ];
    for (name, got, want) in rows {
        assert_eq!(verdict(got.clone()), *want, "{name}");
    }
    // A policy refusal is a warning; the other breaches follow the check's level.
    assert!(FailureKind::WrongErrorClass.is_policy_warning());
}

#[test]
fn task_support_is_read_only_where_the_revision_has_tasks() {
    let tool = |support: &str| json!({"name": "t", "execution": {"taskSupport": support}});
    let r4 = Rev::R2025_11_25.revision();
    let r3 = Rev::R2025_06_18.revision();
    assert_eq!(
        TaskSupport::of(&tool("required"), r4),
        TaskSupport::Required
    );
    assert_eq!(
        TaskSupport::of(&tool("optional"), r4),
        TaskSupport::Optional
    );
    assert_eq!(
        TaskSupport::of(&tool("forbidden"), r4),
        TaskSupport::Forbidden
    );
    assert_eq!(
        TaskSupport::of(&tool("sometimes"), r4),
        TaskSupport::Forbidden
    );
    assert_eq!(
        TaskSupport::of(&json!({"name": "t"}), r4),
        TaskSupport::Forbidden
    );
    assert_eq!(
        TaskSupport::of(&tool("required"), r3),
        TaskSupport::Forbidden
    );
    let declared = json!({"tasks": {"requests": {"tools": {"call": {}}}}});
    assert!(declares_task_calls(Some(&declared)));
    assert!(!declares_task_calls(Some(&json!({"tasks": {"list": {}}}))));
    assert!(!declares_task_calls(None));
}

#[test]
fn error_message_rule() {
    let message = |m: &str| json!({"code": -32602, "message": m});
    assert_eq!(error_message(&message("Unknown tool: x")), None);
    let long_line = "x".repeat(MAX_ERROR_MESSAGE);
    assert_eq!(error_message(&message(&long_line)), None);
    for bad in [
        "Unknown tool: x\nKnown tools: a, b".to_string(),
        "1 validation error\r\n  city".to_string(),
        "x".repeat(MAX_ERROR_MESSAGE + 1),
    ] {
        let breach = error_message(&message(&bad)).expect("a breach");
        assert_eq!(breach.check, CheckId::RpcErrorMessage, "{bad}");
    }
    // Not a string: error_shape's finding, not this rule's.
    assert_eq!(error_message(&json!({"code": 1, "message": 5})), None);
}

#[test]
fn readable_frame_ids() {
    assert_eq!(
        readable_frame_id(br#"{"jsonrpc":"2.0","id":"raw-1"}"#),
        Some(json!("raw-1"))
    );
    assert_eq!(
        readable_frame_id(br#"{"jsonrpc":"2.0","id":7,"method":5}"#),
        Some(json!(7))
    );
    assert_eq!(readable_frame_id(br#"{"jsonrpc":"2.0","id":true}"#), None);
    assert_eq!(readable_frame_id(br#"{"jsonrpc":"2.0","id":"#), None);
    assert_eq!(readable_frame_id(b"\xff{}"), None);
    assert_eq!(readable_frame_id(b"42"), None);
}
