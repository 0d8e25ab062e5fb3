//! The ordered table of every check, in the order of the spec's chapters.
//!
//! Ids are stable and never reused. Each names the REQUIREMENTS.md id it implements;
//! `source` is the spec file and section under `shared/spec/<revision>/`.

use super::model::{Applies, Check, Level};
use super::{jsonrpc, lifecycle, schema};

/// Every check, in report order.
pub static CATALOG: &[Check] = &[
    // -- Lifecycle (lifecycle.mdx) --
    Check {
        id: "lc-init-result",
        title: "initialize is answered with protocolVersion and capabilities",
        level: Level::Must,
        requirement: "LC-INIT-RESULT",
        applies: Applies::All,
        source: "lifecycle.mdx, Initialization",
        judge: lifecycle::init_result,
    },
    Check {
        id: "lc-init-serverinfo",
        title: "initialize result carries serverInfo with name and version",
        level: Level::Must,
        requirement: "LC-INIT-RESULT",
        applies: Applies::All,
        source: "lifecycle.mdx, Initialization; schema InitializeResult, Implementation",
        judge: lifecycle::server_info,
    },
    Check {
        id: "lc-version-echo",
        title: "a requested version is answered with itself, or with another version the server supports",
        level: Level::Must,
        requirement: "LC-VERSION-ECHO",
        applies: Applies::All,
        source: "lifecycle.mdx, Version Negotiation",
        judge: lifecycle::version_echo,
    },
    Check {
        id: "lc-version-fallback",
        title: "an unsupported version is answered with a version the server supports, never echoed",
        level: Level::Must,
        requirement: "LC-VERSION-FALLBACK",
        applies: Applies::All,
        source: "lifecycle.mdx, Version Negotiation; REQUIREMENTS.md 10 A1",
        judge: lifecycle::version_fallback,
    },
    Check {
        id: "lc-initialized-no-reply",
        title: "notifications/initialized (like every notification) gets no response",
        level: Level::Must,
        requirement: "RPC-NOTIF-NO-REPLY",
        applies: Applies::All,
        source: "index.mdx, Notifications; lifecycle.mdx, Initialization",
        judge: lifecycle::initialized_no_reply,
    },
    Check {
        id: "lc-cap-tools",
        title: "the tools capability is declared exactly when tools/list works",
        level: Level::Must,
        requirement: "LC-CAP-CONSISTENT",
        applies: Applies::All,
        source: "tools.mdx, Capabilities; REQUIREMENTS.md 10 A11",
        judge: lifecycle::capability_tools,
    },
    Check {
        id: "lc-ping",
        title: "ping is answered promptly with an empty result",
        level: Level::Must,
        requirement: "LC-PING",
        applies: Applies::All,
        source: "ping.mdx, Behavior Requirements",
        judge: lifecycle::ping,
    },
    Check {
        id: "lc-shutdown-stdio",
        title: "the server exits when its stdin is closed",
        level: Level::Should,
        requirement: "LC-SHUTDOWN-STDIO",
        applies: Applies::All,
        source: "lifecycle.mdx, Shutdown (stdio)",
        judge: lifecycle::shutdown,
    },
    // -- JSON-RPC base (index.mdx / messages.mdx, transports.mdx) --
    Check {
        id: "rpc-stdio-framing",
        title: "stdout carries only newline-delimited JSON-RPC messages in UTF-8",
        level: Level::Must,
        requirement: "RPC-STDIO-FRAMING",
        applies: Applies::All,
        source: "transports.mdx, stdio",
        judge: jsonrpc::stdio_framing,
    },
    Check {
        id: "rpc-jsonrpc-version",
        title: "every message carries \"jsonrpc\": \"2.0\"",
        level: Level::Schema,
        requirement: "RPC-JSONRPC-2.0",
        applies: Applies::All,
        source: "index.mdx, Messages; schema JSONRPC*",
        judge: jsonrpc::jsonrpc_version,
    },
    Check {
        id: "rpc-resp-exclusive",
        title: "a response holds exactly one of result and error",
        level: Level::Must,
        requirement: "RPC-RESP-EXCLUSIVE",
        applies: Applies::All,
        source: "index.mdx, Responses",
        judge: jsonrpc::response_exclusive,
    },
    Check {
        id: "rpc-id-echo",
        title: "a response carries its request's id with the same type and value",
        level: Level::Must,
        requirement: "RPC-ID-ECHO",
        applies: Applies::All,
        source: "index.mdx, Responses",
        judge: jsonrpc::id_echo,
    },
    Check {
        id: "rpc-error-shape",
        title: "an error has an integer code and a string message",
        level: Level::Must,
        requirement: "RPC-ERROR-SHAPE",
        applies: Applies::All,
        source: "index.mdx, Error Responses; schema Error",
        judge: jsonrpc::error_shape,
    },
    Check {
        id: "rpc-err-parse",
        title: "a line that is not JSON gets -32700 and the server keeps serving",
        level: Level::JsonRpc,
        requirement: "RPC-ERR-PARSE",
        applies: Applies::All,
        source: "JSON-RPC 2.0, 5.1; REQUIREMENTS.md 10 A2",
        judge: jsonrpc::parse_error,
    },
    Check {
        id: "rpc-err-invalid-request",
        title: "a request object without method gets -32600",
        level: Level::JsonRpc,
        requirement: "RPC-ERR-INVALID-REQUEST",
        applies: Applies::All,
        source: "JSON-RPC 2.0, 5.1; REQUIREMENTS.md 10 A2",
        judge: jsonrpc::invalid_request,
    },
    Check {
        id: "rpc-err-method-not-found",
        title: "an unknown method gets -32601",
        level: Level::JsonRpc,
        requirement: "RPC-ERR-METHOD-NOT-FOUND",
        applies: Applies::All,
        source: "JSON-RPC 2.0, 5.1",
        judge: jsonrpc::method_not_found,
    },
    Check {
        id: "rpc-response-required",
        title: "every request gets a response within the timeout; the server does not stall or exit",
        level: Level::JsonRpc,
        requirement: "JSONRPC-4.1",
        applies: Applies::All,
        source: "JSON-RPC 2.0, 4.1 (\"the Server MUST reply with a Response\")",
        judge: jsonrpc::response_required,
    },
    // -- Schema (schema.json) --
    Check {
        id: "schema-server-messages",
        title: "every result, error, notification and request validates against the revision's schema",
        level: Level::Schema,
        requirement: "schema.json",
        applies: Applies::All,
        source: "schema.json of the negotiated revision",
        judge: schema::server_messages,
    },
];

/// A check by id.
pub fn find(id: &str) -> Option<&'static Check> {
    CATALOG.iter().find(|c| c.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case() {
        let mut ids: Vec<&str> = CATALOG.iter().map(|c| c.id).collect();
        for id in &ids {
            assert!(
                id.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{id}"
            );
        }
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate check id");
    }
}
