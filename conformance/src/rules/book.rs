//! The rules themselves: JSON-RPC framing and envelopes, errors, results and their
//! schemas, tool calls and cursors, each a pure function returning `Option<Breach>`
//! (see the module above for why they live together).

use jsonschema::Validator;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{CheckId, TaskSupport};
use crate::protocol::{
    classify, result_definition_of, ErrorClass, FrameProblem, IdMatch, MessageKind, Revision,
    SchemaSet,
};

/// How a case of the generated phases went wrong. The kind decides the check that reports
/// it (the catalog row's `kinds`) and which shrunk inputs still count as "failing the same
/// way".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// The server process exited.
    Crash,
    /// Neither the request nor a ping after it was answered.
    Stall,
    /// A call with valid arguments got a JSON-RPC error.
    ProtocolErrorOnValid,
    /// A result broke the revision's schema or the tool's outputSchema.
    InvalidResult,
    /// Arguments that break the inputSchema were accepted with a success result.
    InvalidAccepted,
    /// Invalid arguments got an error class other than the revision expects.
    WrongErrorClass,
    /// A request id did not come back with the same type and value.
    IdNotEchoed,
    /// An unknown method got something other than -32601.
    UnknownMethodAnswered,
    /// A random cursor got something other than -32602 or a page.
    CursorAnswered,
    /// Pipelined requests were not each answered exactly once.
    PipelineBroken,
    /// A cancellation was not handled gracefully.
    CancelMishandled,
    /// The server wrote something that is not a valid JSON-RPC message, or a response no
    /// request asked for (found by the live fuzz target).
    InvalidMessage,
    /// A request of ours was answered more than once ([`answered_again`]).
    AnsweredAgain,
}

impl FailureKind {
    /// Every kind.
    pub const ALL: &'static [FailureKind] = &[
        FailureKind::Crash,
        FailureKind::Stall,
        FailureKind::ProtocolErrorOnValid,
        FailureKind::InvalidResult,
        FailureKind::InvalidAccepted,
        FailureKind::WrongErrorClass,
        FailureKind::IdNotEchoed,
        FailureKind::UnknownMethodAnswered,
        FailureKind::CursorAnswered,
        FailureKind::PipelineBroken,
        FailureKind::CancelMishandled,
        FailureKind::InvalidMessage,
        FailureKind::AnsweredAgain,
    ];

    /// Whether a breach of this kind is a warning whatever the check's level (a policy of
    /// REQUIREMENTS.md section 10: A6 for the error class of invalid arguments; a second
    /// answer to one of our requests, see [`answered_again`]).
    pub fn is_policy_warning(self) -> bool {
        matches!(
            self,
            FailureKind::WrongErrorClass | FailureKind::AnsweredAgain
        )
    }

    /// The catalog check that reports this kind in the generated phases.
    pub fn reported_by(self) -> CheckId {
        CheckId::ALL
            .iter()
            .copied()
            .find(|id| id.kinds().contains(&self))
            .expect("every kind has a row (catalog test)")
    }
}

/// A broken rule: which check it belongs to, how the generated phases classify it, and
/// what was seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breach {
    /// The catalog check whose rule is broken.
    pub check: CheckId,
    /// The failure kind, for shrinking and for the generated phases' report.
    pub kind: FailureKind,
    /// What was seen, in words.
    pub message: String,
}

pub(crate) fn breach(
    check: CheckId,
    kind: FailureKind,
    message: impl Into<String>,
) -> Option<Breach> {
    Some(Breach {
        check,
        kind,
        message: message.into(),
    })
}

fn at(path: &str) -> &str {
    if path.is_empty() {
        "the top level"
    } else {
        path
    }
}

// -- Framing (transports.mdx, stdio) --------------------------------------------------------

/// `RPC-STDIO-FRAMING`: a line on stdout is one JSON-RPC message. In 2025-03-26 a
/// JSON-RPC batch (an array) is a message too: that revision lets implementations send
/// batches (index.mdx, Batching; transports.mdx, stdio).
pub fn frame(
    problem: Option<&FrameProblem>,
    json: Option<&Value>,
    revision: &Revision,
) -> Option<Breach> {
    let problem = problem?;
    if *problem == FrameProblem::NotAMessage
        && revision.batching
        && json.is_some_and(Value::is_array)
    {
        return None;
    }
    breach(
        CheckId::RpcStdioFraming,
        FailureKind::InvalidMessage,
        format!(
            "a line that is not a JSON-RPC message ({})",
            problem.describe()
        ),
    )
}

// -- The envelope (index.mdx, Messages and Responses; JSON-RPC 2.0) --------------------------

/// `RPC-JSONRPC-2.0`: every message object carries `"jsonrpc": "2.0"`.
pub fn jsonrpc_version(message: &Value) -> Option<Breach> {
    if !message.is_object() || message.get("jsonrpc") == Some(&Value::String("2.0".into())) {
        return None;
    }
    breach(
        CheckId::RpcJsonrpcVersion,
        FailureKind::InvalidMessage,
        "the message's jsonrpc is not \"2.0\"",
    )
}

/// `RPC-RESP-EXCLUSIVE`: a response holds exactly one of `result` and `error`.
pub fn response_exclusive(response: &Value) -> Option<Breach> {
    if response.get("result").is_some() != response.get("error").is_some() {
        return None;
    }
    breach(
        CheckId::RpcRespExclusive,
        FailureKind::InvalidMessage,
        "the response has neither or both of result and error",
    )
}

/// `RPC-ID-ECHO`: a response carries its request's id with the same type and value. An
/// error taken as the answer although its id is null or absent (it answered a request
/// whose id the server could not read, or came in the answer to that request's HTTP POST)
/// is [`error_id`]'s to judge: it breaks RPC-ERROR-ID when the id was readable.
pub fn id_echo(sent: &Value, response: &Value, id_match: IdMatch) -> Option<Breach> {
    if id_match == IdMatch::Exact {
        return None;
    }
    if id_match == IdMatch::Unread && response.get("error").is_some() {
        return error_id(sent, response);
    }
    breach(
        CheckId::RpcIdEcho,
        FailureKind::IdNotEchoed,
        format!(
            "sent id {sent}, the response carries id {}",
            response.get("id").unwrap_or(&Value::Null)
        ),
    )
}

/// `RPC-ID-ECHO` (and `RPC-NOTIF-NO-REPLY` when notifications were sent): a response
/// that answers no request. `notified` says whether the exchange held notifications, and
/// whether `notifications/initialized` was one of them.
pub fn unsolicited(response: &Value, notified: &[&str]) -> Option<Breach> {
    let id = response.get("id").unwrap_or(&Value::Null);
    let check = if notified.contains(&"notifications/initialized") {
        CheckId::LcInitializedNoReply
    } else {
        CheckId::RpcIdEcho
    };
    breach(
        check,
        FailureKind::InvalidMessage,
        format!(
            "a response with id {id} answers no request of the case{}",
            if notified.is_empty() {
                ""
            } else {
                " (was a notification answered?)"
            }
        ),
    )
}

/// `RPC-ID-ECHO`: a response that answers none of our outstanding requests but carries
/// the id of one of `ours` (already answered). JSON-RPC 2.0 gives each request one
/// Response; the id itself came back intact, so this is a warning (a policy kind), not the
/// echo's MUST, wherever it is seen: the scripted judge, the property sequences, replay
/// and the live fuzz oracle all ask here. `None` for an id that is not ours (that is
/// [`unsolicited`]'s failure).
pub fn answered_again(response: &Value, ours: &[&Value]) -> Option<Breach> {
    let id = response.get("id").filter(|id| !id.is_null())?;
    if !ours.contains(&id) {
        return None;
    }
    breach(
        CheckId::RpcIdEcho,
        FailureKind::AnsweredAgain,
        format!("request {id} was answered again (JSON-RPC gives each request one Response)"),
    )
}

/// `RPC-ERROR-SHAPE`: an error object has an integer `code` and a string `message`.
pub fn error_shape(error: &Value) -> Option<Breach> {
    let code_ok = error
        .get("code")
        .and_then(Value::as_number)
        .is_some_and(|c| c.is_i64() || c.is_u64());
    let message_ok = error.get("message").is_some_and(Value::is_string);
    if code_ok && message_ok {
        return None;
    }
    breach(
        CheckId::RpcErrorShape,
        FailureKind::InvalidMessage,
        format!("an error object without an integer code and a string message: {error}"),
    )
}

/// `RPC-ERROR-ID`: an error answering a request whose id could be read carries that id.
/// Only an unreadable id (a line that is not JSON, an id that is not a string or an
/// integer) lets the error go without one (2025-11-25 index.mdx, Error Responses; the
/// earlier schemas require `id` on every JSONRPCError; REQUIREMENTS.md 10 A2).
pub fn error_id(sent: &Value, response: &Value) -> Option<Breach> {
    let readable = sent.is_string() || sent.as_i64().is_some() || sent.as_u64().is_some();
    let id = response.get("id").unwrap_or(&Value::Null);
    if !readable || response.get("error").is_none() || !id.is_null() {
        return None;
    }
    breach(
        CheckId::RpcErrorId,
        FailureKind::IdNotEchoed,
        format!(
            "the request's id {sent} was readable, but the error came back {}",
            if response.get("id").is_some() {
                "with id null"
            } else {
                "without an id"
            }
        ),
    )
}

/// The id a malformed frame shows when a server can read it: the frame parses as a JSON
/// object whose `id` is a string or an integer. An error answering such a frame carries
/// that id ([`error_id`]); only a frame without one lets the error go without an id.
pub fn readable_frame_id(frame: &[u8]) -> Option<Value> {
    let message: Value = serde_json::from_slice(frame).ok()?;
    let id = message.get("id")?;
    (id.is_string() || id.is_i64() || id.is_u64()).then(|| id.clone())
}

/// Longest error message the suite still reads as "a concise single sentence": past it,
/// the message is a dump (a stack trace, a serialized object), whatever its line breaks.
pub const MAX_ERROR_MESSAGE: usize = 512;

/// `RPC-ERROR-SHAPE` (schema `Error.message`): "The message SHOULD be limited to a concise
/// single sentence". A message with a line break, or longer than [`MAX_ERROR_MESSAGE`]
/// characters, is not one (a stack trace, a validation dump); the detail belongs in
/// `data`. A message that is not a string is `error_shape`'s finding.
pub fn error_message(error: &Value) -> Option<Breach> {
    let message = error.get("message").and_then(Value::as_str)?;
    let length = message.chars().count();
    let problem = if message.contains(['\n', '\r']) {
        format!(
            "the error message spans {} lines",
            message.lines().count().max(2)
        )
    } else if length > MAX_ERROR_MESSAGE {
        format!("the error message is {length} characters long (more than {MAX_ERROR_MESSAGE})")
    } else {
        return None;
    };
    breach(
        CheckId::RpcErrorMessage,
        FailureKind::InvalidMessage,
        format!(
            "{problem}, not a concise single sentence: {}",
            crate::protocol::cut_text(message, 120)
        ),
    )
}

/// The envelope of one response to `sent`: id, version, result xor error, error shape, in
/// that order (the first broken rule explains the rest).
pub fn envelope(sent: &Value, response: &Value, id_match: IdMatch) -> Option<Breach> {
    id_echo(sent, response, id_match)
        .or_else(|| jsonrpc_version(response))
        .or_else(|| response_exclusive(response))
        .or_else(|| response.get("error").and_then(error_shape))
}

// -- Payloads against the revision's schema.json ---------------------------------------------

/// `schema.json`: a result validates against the definition its request method calls for.
pub fn result_schema(schemas: &SchemaSet, method: &str, result: &Value) -> Option<Breach> {
    let definition = result_definition_of(schemas, method, result);
    let first = schemas
        .validate(definition, result)
        .ok()?
        .into_iter()
        .next()?;
    breach(
        CheckId::SchemaServerMessages,
        FailureKind::InvalidResult,
        format!(
            "the result breaks {definition} at {}: {}",
            at(&first.instance_path),
            first.message
        ),
    )
}

/// `schema.json`: a server notification the revision defines validates against it.
pub fn notification_schema(schemas: &SchemaSet, message: &Value) -> Option<Breach> {
    if classify(message) != MessageKind::Notification {
        return None;
    }
    let method = message.get("method").and_then(Value::as_str)?;
    if !schemas
        .union_methods("ServerNotification")
        .iter()
        .any(|n| n == method)
    {
        return None;
    }
    let first = schemas
        .validate("ServerNotification", message)
        .ok()?
        .into_iter()
        .next()?;
    breach(
        CheckId::SchemaServerMessages,
        FailureKind::InvalidResult,
        format!(
            "a {method} notification breaks ServerNotification at {}: {}",
            at(&first.instance_path),
            first.message
        ),
    )
}

// -- Tool results (tools.mdx, Tool Result, Output Schema) -----------------------------------

/// `TC-CONTENT-VERSION-GATE`: a content block's type is one the negotiated revision defines
/// (`resource_link` first appears in 2025-06-18, `audio` in 2025-03-26).
pub fn content_type(revision: &Revision, item: &Value) -> Option<Breach> {
    let ty = item.get("type").and_then(Value::as_str).unwrap_or("(none)");
    if revision.content_types.contains(&ty) {
        return None;
    }
    breach(
        CheckId::TcContentTypes,
        FailureKind::InvalidResult,
        format!(
            "content type {ty:?} is not one of {} ({:?})",
            revision.id, revision.content_types
        ),
    )
}

/// [`content_type`] over a tool result's `content`: the first block the revision lacks.
/// Asked before the whole result is validated against the schema, so a generated call
/// whose result holds one is reported under its cause, the content type.
pub fn content_types(revision: &Revision, result: &Value) -> Option<Breach> {
    result
        .get("content")
        .and_then(Value::as_array)?
        .iter()
        .find_map(|item| content_type(revision, item))
}

/// `TC-OUTPUTSCHEMA-PRESENCE` and `TC-OUTPUTSCHEMA-CONFORM`: the result of a tool with an
/// outputSchema carries structuredContent that conforms to it. Error results are exempt
/// (REQUIREMENTS.md 10 A7), and so is a 2026-07-28 `InputRequiredResult`: it asks the
/// client for input (mrtr.mdx) and is not the tool's result yet.
pub fn structured_output(output_schema: &Validator, result: &Value) -> Option<Breach> {
    if result.get("isError") == Some(&Value::Bool(true)) {
        return None;
    }
    if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
        return None;
    }
    let Some(content) = result.get("structuredContent") else {
        return breach(
            CheckId::TcOutputschemaPresence,
            FailureKind::InvalidResult,
            "the tool has an outputSchema but the result has no structuredContent",
        );
    };
    let errors: Vec<String> = output_schema
        .iter_errors(content)
        .take(3)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    if errors.is_empty() {
        return None;
    }
    breach(
        CheckId::TcOutputschemaConform,
        FailureKind::InvalidResult,
        format!(
            "structuredContent does not conform to the outputSchema: {}",
            errors.join("; ")
        ),
    )
}

// -- Answers to the suite's probes -----------------------------------------------------------

/// `RPC-ERR-METHOD-NOT-FOUND`: an unknown method gets -32601.
pub fn unknown_method(error_code: Option<i64>, answered: bool) -> Option<Breach> {
    let message = match error_code {
        Some(-32601) => return None,
        Some(code) => format!("error {code}, not -32601"),
        None if answered => "a success result, not -32601".into(),
        None => return None,
    };
    breach(
        CheckId::RpcErrMethodNotFound,
        FailureKind::UnknownMethodAnswered,
        message,
    )
}

/// `TC-ERR-INPUT-VALIDATION`: arguments that break the inputSchema are rejected, in the
/// class the revision expects (REQUIREMENTS.md 10 A6): an `isError` result always; -32602
/// too before 2025-11-25. A success is a violation; another class a policy warning.
/// A tool that requires a task, called without one, is refused before its arguments are
/// read: any JSON-RPC error is that refusal, judged by `tc-task-required` alone.
pub fn invalid_arguments(
    revision: &Revision,
    task: TaskSupport,
    error: Option<&Value>,
    result: Option<&Value>,
) -> Option<Breach> {
    if task == TaskSupport::Required && error.is_some() {
        return None;
    }
    let code = error.and_then(|e| e.get("code")).and_then(Value::as_i64);
    let is_error_result = result.is_some_and(|r| r.get("isError") == Some(&Value::Bool(true)));
    let wrong = |message: String| {
        breach(
            CheckId::TcErrInputValidation,
            FailureKind::WrongErrorClass,
            message,
        )
    };
    match (code, error, result) {
        (None, None, Some(_)) if !is_error_result => breach(
            CheckId::TcErrInputValidation,
            FailureKind::InvalidAccepted,
            "the call succeeded",
        ),
        (Some(-32602), _, _) if revision.invalid_arguments == ErrorClass::Either => None,
        (Some(code), _, _) => wrong(format!(
            "JSON-RPC error {code} where {} expects {}",
            revision.id,
            match revision.invalid_arguments {
                ErrorClass::Either => "-32602 or an isError result",
                ErrorClass::ToolError => "an isError result",
            }
        )),
        // An error whose code is not an integer still rejects the call; the code is
        // rpc-error-shape's finding.
        (None, Some(_), _) => wrong("a JSON-RPC error without an integer code".into()),
        _ => None,
    }
}

/// Whether `error` is 2026-07-28's `MissingRequiredClientCapabilityError`: `-32021` with
/// `data.requiredCapabilities`.
pub fn missing_capability(error: &Value) -> bool {
    error.get("code").and_then(Value::as_i64) == Some(-32021)
        && error
            .pointer("/data/requiredCapabilities")
            .is_some_and(Value::is_object)
}

/// An error's code as written ("-32603"), or "without a code", for messages.
pub(crate) fn code_text(error: &Value) -> String {
    error
        .get("code")
        .map(Value::to_string)
        .unwrap_or_else(|| "without a code".into())
}

/// `TC-ERR-EXECUTION`: a call with arguments valid for the inputSchema gets a result;
/// failures of the tool come back as `isError` results, not JSON-RPC errors. A tool that
/// requires a task, called without one, must be refused with a JSON-RPC error (2025-11-25
/// tasks.mdx, Tool-Level Negotiation): that error is no breach here, and its code is
/// `tc-task-required`'s to judge. Nor is `-32021` naming the client capabilities the
/// call needs (2026-07-28 index.mdx: a server that needs an undeclared capability "MUST
/// return" it): `m-clientcap` judges that answer.
pub fn valid_call(task: TaskSupport, error: Option<&Value>) -> Option<Breach> {
    let error = error.filter(|_| task != TaskSupport::Required)?;
    if missing_capability(error) {
        return None;
    }
    let code = code_text(error);
    breach(
        CheckId::TcErrExecution,
        FailureKind::ProtocolErrorOnValid,
        format!("JSON-RPC error {code}: {error}"),
    )
}

/// `TC-ERR-MALFORMED` for `arguments`: a tools/call whose `arguments` is not an object
/// (CallToolRequest: `arguments` is an object) is a protocol error, -32602 ("Invalid
/// params"). Another error code is a policy warning; any result, an `isError` one too,
/// says the tool ran on a request the schema refuses. `arguments: null` read as "no
/// arguments" is a policy warning too (REQUIREMENTS.md 10 policy, see the explain text):
/// the spec lists malformed requests among protocol errors but no sentence says a server
/// MUST refuse them, and widely deployed SDKs (Python's) accept null for an optional
/// member; an array, a string or a number run as arguments is a failure.
pub fn arguments_type(
    arguments: &Value,
    error: Option<&Value>,
    result: Option<&Value>,
) -> Option<Breach> {
    let code = error.and_then(|e| e.get("code")).and_then(Value::as_i64);
    let (kind, message) = match (code, error, result) {
        (None, None, Some(r)) if arguments.is_null() => (
            FailureKind::WrongErrorClass,
            if r.get("isError") == Some(&Value::Bool(true)) {
                "null read as no arguments (an isError result), not refused with -32602".into()
            } else {
                "null read as no arguments (a result), not refused with -32602".into()
            },
        ),
        (Some(-32602), _, _) => return None,
        (Some(code), _, _) => (
            FailureKind::WrongErrorClass,
            format!("JSON-RPC error {code}, not -32602"),
        ),
        (None, Some(_), _) => (
            FailureKind::WrongErrorClass,
            "a JSON-RPC error without an integer code".into(),
        ),
        (None, None, Some(r)) if r.get("isError") == Some(&Value::Bool(true)) => (
            FailureKind::InvalidAccepted,
            "an isError result, not a protocol error".into(),
        ),
        (None, None, Some(_)) => (FailureKind::InvalidAccepted, "a success result".into()),
        (None, None, None) => return None,
    };
    breach(CheckId::TcErrArgumentsType, kind, message)
}

/// `arguments` is optional in CallToolRequest: a call that leaves it out gets an answer.
/// A JSON-RPC error is a breach only for a tool whose inputSchema requires nothing, where
/// the call is valid as it stands (`needs_arguments` false); a tool that requires some
/// may refuse it in whichever class the revision uses for invalid arguments. `empty` is
/// the same tool's answer to `"arguments": {}`, when known: an error with the same code is
/// the tool's (a backend down, no network), not the omission's, and no breach.
pub fn arguments_omitted(
    error: Option<&Value>,
    needs_arguments: bool,
    empty: Option<&Value>,
) -> Option<Breach> {
    let error = error.filter(|_| !needs_arguments)?;
    let code_of = |e: &Value| e.get("code").and_then(Value::as_i64);
    let empty_error = empty.and_then(|answer| answer.get("error"));
    if empty_error.is_some_and(|e| code_of(e) == code_of(error)) {
        return None;
    }
    let code = code_text(error);
    breach(
        CheckId::TcArgumentsOmitted,
        FailureKind::ProtocolErrorOnValid,
        format!("JSON-RPC error {code} for a tool that requires no arguments"),
    )
}

/// `TC-ARGS-OMITTED`: a call without `arguments` got no answer because the server exited
/// or stopped answering (`what` says which); `kind` is [`FailureKind::Crash`] or
/// [`FailureKind::Stall`].
pub fn arguments_omitted_unanswered(kind: FailureKind, what: &str) -> Breach {
    Breach {
        check: CheckId::TcArgumentsOmitted,
        kind,
        message: format!(
            "a tools/call without arguments (they are optional) got no response: {what}"
        ),
    }
}

/// `PAG-INVALID-CURSOR`: a cursor the server never issued gets -32602. `page_allowed`: a
/// generated cursor may happen to be one the server accepts, so a page is no breach there.
pub fn cursor(
    error_code: Option<i64>,
    result: Option<&Value>,
    page_allowed: bool,
) -> Option<Breach> {
    let is_page = result.is_some_and(|r| r.get("tools").is_some_and(Value::is_array));
    let message = match (error_code, result) {
        (Some(-32602), _) => return None,
        (None, Some(_)) if is_page && page_allowed => return None,
        (Some(code), _) => format!("error {code}, not -32602"),
        (None, Some(_)) if is_page => "a page, not -32602".into(),
        (None, Some(_)) => "a result that is not a page of tools".into(),
        (None, None) => return None,
    };
    breach(
        CheckId::PagInvalidCursor,
        FailureKind::CursorAnswered,
        message,
    )
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
