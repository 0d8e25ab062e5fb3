//! The ordered table of every check, in the order of the spec's chapters.
//!
//! Ids are stable and never reused. Each names the REQUIREMENTS.md id it implements;
//! `source` is the spec file and section under `shared/spec/<revision>/`.

use super::model::{Applies, Check, Level};
use super::{jsonrpc, lifecycle, schema, tools};

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
        id: "lc-no-undeclared-requests",
        title: "the server sends no requests for client capabilities that were not declared",
        level: Level::Must,
        requirement: "LC-OPERATION-RESPECT",
        applies: Applies::All,
        source: "lifecycle.mdx, Operation",
        judge: lifecycle::no_undeclared_requests,
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
        id: "rpc-batch",
        title: "a JSON-RPC batch is accepted and answered with an array of responses",
        level: Level::Must,
        requirement: "RPC-BATCH-R2",
        applies: Applies::Only("2025-03-26"),
        source: "2025-03-26 index.mdx, Batching; JSON-RPC 2.0, 6",
        judge: jsonrpc::batch,
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
    // -- Tools: the listing (tools.mdx, Listing Tools; Tool) --
    Check {
        id: "tool-inputschema-type",
        title: "every tool has an inputSchema object with \"type\": \"object\" (never null)",
        level: Level::Schema,
        requirement: "TOOL-INPUTSCHEMA-REQUIRED",
        applies: Applies::All,
        source: "tools.mdx, Tool; schema Tool.inputSchema",
        judge: tools::input_schema_type,
    },
    Check {
        id: "tool-schema-dialect",
        title: "inputSchema and outputSchema are valid JSON Schemas in their declared or default dialect",
        level: Level::Must,
        requirement: "TOOL-INPUTSCHEMA-DIALECT",
        applies: Applies::All,
        source: "2025-11-25 index.mdx, JSON Schema Usage; REQUIREMENTS.md 10 A8",
        judge: tools::schema_dialect,
    },
    Check {
        id: "tool-outputschema-object",
        title: "an outputSchema has \"type\": \"object\" at its root",
        level: Level::Schema,
        requirement: "TOOL-OUTPUTSCHEMA",
        applies: Applies::From("2025-06-18"),
        source: "tools.mdx, Output Schema; schema Tool.outputSchema",
        judge: tools::output_schema_object,
    },
    // -- Tools: names (2025-11-25 tools.mdx, Tool Names) --
    Check {
        id: "tool-name-unique",
        title: "tool names are unique across all pages",
        level: Level::Must,
        requirement: "TOOL-NAME-UNIQUE",
        applies: Applies::All,
        source: "tools.mdx (\"uniquely identified by a name\"); REQUIREMENTS.md 10 A14",
        judge: tools::name_unique,
    },
    Check {
        id: "tool-name-length",
        title: "tool names are 1 to 128 characters long",
        level: Level::Should,
        requirement: "TOOL-NAME-LENGTH",
        applies: Applies::From("2025-11-25"),
        source: "tools.mdx, Tool Names",
        judge: tools::name_length,
    },
    Check {
        id: "tool-name-charset",
        title: "tool names use only A-Z a-z 0-9 _ - . (no spaces or commas)",
        level: Level::Should,
        requirement: "TOOL-NAME-CHARSET",
        applies: Applies::From("2025-11-25"),
        source: "tools.mdx, Tool Names",
        judge: tools::name_charset,
    },
    Check {
        id: "tool-name-case",
        title: "no two tool names are equal but for case",
        level: Level::Should,
        requirement: "TOOL-NAME-CASE",
        applies: Applies::From("2025-11-25"),
        source: "tools.mdx, Tool Names",
        judge: tools::name_case,
    },
    // -- Tools: pagination (pagination.mdx) --
    Check {
        id: "pag-terminates",
        title: "following nextCursor ends: no repeated cursor, no cycle, within 1000 pages",
        level: Level::Policy,
        requirement: "PAG-TERMINATES",
        applies: Applies::All,
        source: "pagination.mdx, Response Format",
        judge: tools::pagination_terminates,
    },
    Check {
        id: "pag-invalid-cursor",
        title: "an invalid cursor gets error -32602",
        level: Level::Should,
        requirement: "PAG-INVALID-CURSOR",
        applies: Applies::All,
        source: "pagination.mdx, Error Handling",
        judge: tools::pagination_invalid_cursor,
    },
    Check {
        id: "pag-stable",
        title: "two walks of tools/list give the same tools",
        level: Level::Should,
        requirement: "PAG-STABLE",
        applies: Applies::All,
        source: "pagination.mdx, Implementation Guidelines",
        judge: tools::pagination_stable,
    },
    // -- Tools: calling (tools.mdx, Calling Tools; Tool Result) --
    Check {
        id: "tc-content-types",
        title: "tool results use only the content types the negotiated revision defines",
        level: Level::Schema,
        requirement: "TC-CONTENT-VERSION-GATE",
        applies: Applies::All,
        source: "tools.mdx, Tool Result; schema CallToolResult.content",
        judge: tools::content_types,
    },
    Check {
        id: "tc-content-base64",
        title: "image, audio and blob content is valid base64 with a mimeType",
        level: Level::Schema,
        requirement: "TC-CONTENT-IMAGE",
        applies: Applies::All,
        source: "tools.mdx, Image Content, Audio Content; schema format byte",
        judge: tools::content_base64,
    },
    Check {
        id: "tc-error-explained",
        title: "a tool execution error (isError: true) says what went wrong",
        level: Level::Should,
        requirement: "TC-ERR-EXECUTION",
        applies: Applies::All,
        source: "tools.mdx, Error Handling (Tool Execution Errors)",
        judge: tools::error_explained,
    },
    Check {
        id: "tc-err-execution",
        title: "a call with valid arguments gets a result; tool failures come back as isError results",
        level: Level::Should,
        requirement: "TC-ERR-EXECUTION",
        applies: Applies::All,
        source: "schema CallToolResult.isError; tools.mdx, Error Handling",
        judge: tools::execution_errors,
    },
    Check {
        id: "tc-outputschema-presence",
        title: "a tool with an outputSchema returns structuredContent (error results exempt)",
        level: Level::Must,
        requirement: "TC-OUTPUTSCHEMA-PRESENCE",
        applies: Applies::From("2025-06-18"),
        source: "tools.mdx, Output Schema; REQUIREMENTS.md 10 A7",
        judge: tools::structured_presence,
    },
    Check {
        id: "tc-outputschema-conform",
        title: "structuredContent conforms to the tool's outputSchema",
        level: Level::Must,
        requirement: "TC-OUTPUTSCHEMA-CONFORM",
        applies: Applies::From("2025-06-18"),
        source: "tools.mdx, Output Schema",
        judge: tools::structured_conform,
    },
    Check {
        id: "tc-structured-text-mirror",
        title: "structuredContent is also returned serialized in a text block",
        level: Level::Should,
        requirement: "TC-STRUCTURED-TEXT-MIRROR",
        applies: Applies::From("2025-06-18"),
        source: "tools.mdx, Structured Content; REQUIREMENTS.md 10 A13",
        judge: tools::structured_text_mirror,
    },
    // -- Tools: error classes (tools.mdx, Error Handling) --
    Check {
        id: "tc-err-unknown-tool",
        title: "an unknown tool gets a JSON-RPC error, -32602",
        level: Level::Must,
        requirement: "TC-ERR-UNKNOWN-TOOL",
        applies: Applies::All,
        source: "tools.mdx, Error Handling (Protocol Errors); REQUIREMENTS.md 10 A10",
        judge: tools::unknown_tool,
    },
    Check {
        id: "tc-err-malformed",
        title: "tools/call without a string name gets a protocol error (-32602)",
        level: Level::Must,
        requirement: "TC-ERR-MALFORMED",
        applies: Applies::All,
        source: "2025-11-25 tools.mdx, Error Handling (Malformed requests)",
        judge: tools::malformed_call,
    },
    Check {
        id: "tc-err-input-validation",
        title: "arguments that break the inputSchema are rejected, with the error class the revision expects",
        level: Level::Must,
        requirement: "TC-ERR-INPUT-VALIDATION",
        applies: Applies::All,
        source: "tools.mdx, Error Handling; Security Considerations (\"Servers MUST validate all tool inputs\"); REQUIREMENTS.md 10 A6",
        judge: tools::input_validation,
    },
    // -- Tools: list_changed (tools.mdx, List Changed Notification) --
    Check {
        id: "lcn-shape",
        title: "notifications/tools/list_changed is well formed",
        level: Level::Schema,
        requirement: "LCN-SHAPE",
        applies: Applies::All,
        source: "tools.mdx, List Changed Notification; schema ToolListChangedNotification",
        judge: tools::list_changed_shape,
    },
    Check {
        id: "lcn-not-undeclared",
        title: "list_changed is sent only with tools.listChanged declared",
        level: Level::Must,
        requirement: "LCN-NOT-UNDECLARED",
        applies: Applies::All,
        source: "lifecycle.mdx, Operation; REQUIREMENTS.md 10 A12",
        judge: tools::list_changed_declared,
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
