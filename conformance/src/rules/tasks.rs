//! Tool-level task negotiation (2025-11-25 tasks.mdx, Tool-Level Negotiation): which calls
//! of a tool must be refused with -32601, and what a task-augmented call must return.
//!
//! Kept beside the rule book's other rules because the scripted phase, the property phase
//! and the live oracle all need to know what a tool's `execution.taskSupport` means: a tool
//! that requires a task refuses every plain call, and that refusal must not read as a
//! protocol error on a valid call anywhere.

use serde_json::Value;

use super::{breach, Breach, CheckId, FailureKind};
use crate::protocol::Revision;

/// How a tool takes task-augmented calls: `Tool.execution.taskSupport` in revisions that
/// have tasks (2025-11-25, experimental), `Forbidden` everywhere else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskSupport {
    /// Absent or `"forbidden"` (the default): the tool is never invoked as a task.
    Forbidden,
    /// `"optional"`: a client may invoke it as a task or as a normal request.
    Optional,
    /// `"required"`: a client must invoke it as a task; a plain call gets -32601.
    Required,
}

impl TaskSupport {
    /// The task support `tool` declares, as the negotiated revision reads it. A value the
    /// schema does not allow counts as the default (the schema check reports it).
    pub fn of(tool: &Value, revision: &Revision) -> TaskSupport {
        if !revision.tasks {
            return TaskSupport::Forbidden;
        }
        match tool
            .pointer("/execution/taskSupport")
            .and_then(Value::as_str)
        {
            Some("optional") => TaskSupport::Optional,
            Some("required") => TaskSupport::Required,
            _ => TaskSupport::Forbidden,
        }
    }

    /// The declared value, for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

/// Whether a server's capabilities declare task-augmented `tools/call`
/// (`tasks.requests.tools.call`, 2025-11-25 tasks.mdx, Server Capabilities).
pub fn declares_task_calls(capabilities: Option<&Value>) -> bool {
    capabilities
        .and_then(|c| c.pointer("/tasks/requests/tools/call"))
        .is_some_and(Value::is_object)
}

fn is_error_result(result: &Value) -> bool {
    result.get("isError") == Some(&Value::Bool(true))
}

/// `TC-TASK-REQUIRED`: a tool declaring `taskSupport: "required"` (on a server that
/// declares task-augmented tools/call) called without a task gets -32601: "Servers MUST
/// return a -32601 (Method not found) error if a client does not attempt to do so".
/// -32600 is a policy warning (REQUIREMENTS.md 10 A9: tasks.mdx, Error Handling, lets a
/// receiver that requires tasks for a whole request type answer -32600); any other error
/// code, and any result (an `isError` one too: the tool ran, or the server answered as
/// if it had), breaks the MUST.
pub fn plain_call_of_task_tool(error: Option<&Value>, result: Option<&Value>) -> Option<Breach> {
    let code = error.and_then(|e| e.get("code")).and_then(Value::as_i64);
    let (kind, message) = match (code, error, result) {
        (Some(-32601), _, _) => return None,
        (Some(-32600), _, _) => (
            FailureKind::WrongErrorClass,
            "JSON-RPC error -32600, where Tool-Level Negotiation says -32601 (policy A9: warning)"
                .to_string(),
        ),
        (Some(code), _, _) => (
            FailureKind::InvalidAccepted,
            format!("JSON-RPC error {code}, not -32601"),
        ),
        (None, Some(_), _) => (
            FailureKind::InvalidAccepted,
            "a JSON-RPC error without an integer code, not -32601".to_string(),
        ),
        (None, None, Some(r)) if is_error_result(r) => (
            FailureKind::InvalidAccepted,
            "an isError result, not the protocol error -32601".to_string(),
        ),
        (None, None, Some(_)) => (
            FailureKind::InvalidAccepted,
            "a success result: the tool ran without the task it requires".to_string(),
        ),
        (None, None, None) => return None,
    };
    breach(CheckId::TcTaskRequired, kind, message)
}

/// A task-augmented tools/call (`params.task`), sent only to a server that declares
/// `tasks.requests.tools.call`:
/// - `TC-TASK-FORBIDDEN`: a tool whose `taskSupport` is absent or `"forbidden"` "SHOULD"
///   get -32601; anything else is a breach of that SHOULD.
/// - `TC-TASK-CREATE`: a tool with `"optional"` or `"required"` gets a `CreateTaskResult`
///   ("Receivers that accept a task-augmented request MUST return a CreateTaskResult"):
///   a result without a `task` (the task was ignored and the tool ran) breaks the MUST; a
///   JSON-RPC error (the server refused a task it offered) is a policy warning. The
///   CreateTaskResult's shape is the schema check's.
pub fn task_call(
    support: TaskSupport,
    error: Option<&Value>,
    result: Option<&Value>,
) -> Option<Breach> {
    let code = error.and_then(|e| e.get("code")).and_then(Value::as_i64);
    if support == TaskSupport::Forbidden {
        let message = match (code, error, result) {
            (Some(-32601), _, _) => return None,
            (Some(code), _, _) => format!("JSON-RPC error {code}, not -32601"),
            (None, Some(_), _) => "a JSON-RPC error without an integer code, not -32601".into(),
            (None, None, Some(r)) if r.get("task").is_some() => {
                "a CreateTaskResult: the tool ran as a task it does not support".into()
            }
            (None, None, Some(_)) => {
                "a tool result: the task was ignored and the tool ran, not -32601".into()
            }
            (None, None, None) => return None,
        };
        return breach(
            CheckId::TcTaskForbidden,
            FailureKind::InvalidAccepted,
            message,
        );
    }
    let (kind, message) = match (error, result) {
        (None, Some(r)) if r.get("task").is_some_and(Value::is_object) => return None,
        (None, Some(r)) => (
            FailureKind::InvalidAccepted,
            format!(
                "{}, not a CreateTaskResult: the task was ignored",
                if is_error_result(r) {
                    "an isError tool result"
                } else {
                    "a tool result"
                }
            ),
        ),
        (Some(e), _) => (
            FailureKind::WrongErrorClass,
            format!(
                "JSON-RPC error {} for a task the tool offers ({:?}) on a server that declares \
                 task-augmented tools/call (policy: warning)",
                super::code_text(e),
                support.as_str()
            ),
        ),
        (None, None) => return None,
    };
    breach(CheckId::TcTaskCreate, kind, message)
}
