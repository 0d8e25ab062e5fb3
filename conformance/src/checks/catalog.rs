//! The ordered table of every check, in the order of the spec's chapters.
//!
//! A row is everything about a check: its stable id (which becomes a [`CheckId`] variant, so
//! no other file names a check by string), title, level per revision, the revisions it
//! applies to, the REQUIREMENTS.md id, the spec source, the judge, the failure kinds of
//! the generated phases it reports, and its explanation (`explain/<id>.md`, pulled in at
//! compile time). Ids are stable and never reused.

use super::model::{Applies, Check, Cite, Grade, Level};
use super::rules::FailureKind::*;
use super::{http, jsonrpc, lifecycle, progress, property, schema, tools};
use crate::protocol::Rev::*;

const MUST: Grade = Grade::Fixed(Level::Must);
const SHOULD: Grade = Grade::Fixed(Level::Should);
const SCHEMA: Grade = Grade::Fixed(Level::Schema);
const JSONRPC: Grade = Grade::Fixed(Level::JsonRpc);
const POLICY: Grade = Grade::Fixed(Level::Policy);

/// Declares [`CheckId`] and [`CATALOG`] from one list of rows, so the two cannot drift.
macro_rules! catalog {
    ($( $variant:ident = $id:literal { $($field:ident: $value:expr),* $(,)? } )*) => {
        /// A check's id, typed: the only way to name a check outside this table.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum CheckId {
            $( #[doc = $id] $variant, )*
        }

        impl CheckId {
            /// Every id, in catalog order.
            pub const ALL: &'static [CheckId] = &[$(CheckId::$variant),*];

            /// The stable kebab-case id.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(CheckId::$variant => $id,)*
                }
            }
        }

        /// Every check, in report order.
        pub static CATALOG: &[Check] = &[
            $( Check {
                id: CheckId::$variant,
                text: include_str!(concat!("explain/", $id, ".md")),
                $($field: $value,)*
            }, )*
        ];
    };
}

catalog! {
    // -- Lifecycle (lifecycle.mdx) --
    LcInitResult = "lc-init-result" {
        title: "initialize is answered with protocolVersion and capabilities",
        level: MUST,
        requirement: Cite::One("LC-INIT-RESULT"),
        applies: Applies::Legacy,
        source: "lifecycle.mdx, Initialization",
        judge: lifecycle::init_result,
        kinds: &[],
    }
    LcInitServerinfo = "lc-init-serverinfo" {
        title: "initialize result carries serverInfo with name and version",
        level: MUST,
        requirement: Cite::One("LC-INIT-RESULT"),
        applies: Applies::Legacy,
        source: "lifecycle.mdx, Initialization; schema InitializeResult, Implementation",
        judge: lifecycle::server_info,
        kinds: &[],
    }
    LcVersionEcho = "lc-version-echo" {
        title: "a requested version is answered with itself, or with another version the server supports",
        level: MUST,
        requirement: Cite::One("LC-VERSION-ECHO"),
        applies: Applies::Legacy,
        source: "lifecycle.mdx, Version Negotiation",
        judge: lifecycle::version_echo,
        kinds: &[],
    }
    LcVersionFallback = "lc-version-fallback" {
        title: "an unsupported version is answered with a version the server supports, never echoed",
        level: MUST,
        requirement: Cite::One("LC-VERSION-FALLBACK"),
        applies: Applies::Legacy,
        source: "lifecycle.mdx, Version Negotiation; REQUIREMENTS.md 10 A1",
        judge: lifecycle::version_fallback,
        kinds: &[],
    }
    LcInitializedNoReply = "lc-initialized-no-reply" {
        title: "notifications/initialized (like every notification) gets no response",
        level: MUST,
        requirement: Cite::One("RPC-NOTIF-NO-REPLY"),
        applies: Applies::Legacy,
        source: "index.mdx, Notifications; lifecycle.mdx, Initialization",
        judge: lifecycle::initialized_no_reply,
        kinds: &[],
    }
    LcCapTools = "lc-cap-tools" {
        title: "the tools capability is declared exactly when tools/list works",
        level: MUST,
        requirement: Cite::One("LC-CAP-CONSISTENT"),
        applies: Applies::All,
        source: "tools.mdx, Capabilities; REQUIREMENTS.md 10 A11",
        judge: lifecycle::capability_tools,
        kinds: &[],
    }
    LcPing = "lc-ping" {
        title: "ping is answered promptly with an empty result",
        level: MUST,
        requirement: Cite::One("LC-PING"),
        applies: Applies::Legacy,
        source: "ping.mdx, Behavior Requirements",
        judge: lifecycle::ping,
        kinds: &[],
    }
    LcNoUndeclaredRequests = "lc-no-undeclared-requests" {
        title: "the server sends no requests for client capabilities that were not declared",
        level: SHOULD.from(R2025_06_18, MUST),
        requirement: Cite::One("LC-OPERATION-RESPECT"),
        applies: Applies::Legacy,
        source: "lifecycle.mdx, Operation",
        judge: lifecycle::no_undeclared_requests,
        kinds: &[],
    }
    LcShutdownStdio = "lc-shutdown-stdio" {
        title: "the server exits when its stdin is closed",
        level: SHOULD,
        requirement: Cite::One("LC-SHUTDOWN-STDIO"),
        applies: Applies::All,
        source: "lifecycle.mdx, Shutdown (stdio); 2026-07-28 stdio.mdx (\"SHOULD exit promptly\"), applied by policy",
        judge: lifecycle::shutdown,
        kinds: &[],
    }
    // -- Streamable HTTP (transports.mdx, 2025-03-26 to 2025-11-25); skipped over stdio --
    HttpNotification202 = "http-notification-202" {
        title: "an accepted notification or response POST gets 202 Accepted with no body",
        level: MUST,
        requirement: Cite::One("LC-HTTP-NOTIF-202"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: "transports.mdx, Streamable HTTP, Sending Messages to the Server",
        judge: http::notification_202,
        kinds: &[],
    }
    HttpContentType = "http-content-type" {
        title: "a request POST is answered with application/json or text/event-stream",
        level: MUST,
        requirement: Cite::One("LC-HTTP-NOTIF-202"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: "transports.mdx, Streamable HTTP, Sending Messages to the Server",
        judge: http::content_type,
        kinds: &[],
    }
    HttpSessionRequired = "http-session-required" {
        title: "a request without Mcp-Session-Id after initialize gets 400 Bad Request",
        level: SHOULD,
        requirement: Cite::One("LC-HTTP-SESSION"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: "transports.mdx, Streamable HTTP, Session Management",
        judge: http::session_required,
        kinds: &[],
    }
    HttpSessionUnknown = "http-session-unknown" {
        title: "a request in a session the server ended (or never issued) gets 404 Not Found",
        level: MUST,
        requirement: Cite::One("LC-HTTP-SESSION"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: "transports.mdx, Streamable HTTP, Session Management",
        judge: http::session_unknown,
        kinds: &[],
    }
    HttpProtocolVersion = "http-protocol-version" {
        title: "an invalid MCP-Protocol-Version header gets 400 Bad Request",
        level: MUST,
        requirement: Cite::One("LC-HTTP-VERSION-HEADER"),
        applies: Applies::Range(R2025_06_18, R2025_11_25),
        source: "transports.mdx, Streamable HTTP, Protocol Version Header",
        judge: http::protocol_version,
        kinds: &[],
    }
    // -- JSON-RPC base (index.mdx / messages.mdx, transports.mdx) --
    RpcStdioFraming = "rpc-stdio-framing" {
        title: "stdout carries only newline-delimited JSON-RPC messages in UTF-8",
        level: MUST,
        requirement: Cite::One("RPC-STDIO-FRAMING"),
        applies: Applies::All,
        source: "transports.mdx, stdio",
        judge: jsonrpc::stdio_framing,
        kinds: &[InvalidMessage],
    }
    RpcJsonrpcVersion = "rpc-jsonrpc-version" {
        title: "every message carries \"jsonrpc\": \"2.0\"",
        level: SCHEMA,
        requirement: Cite::One("RPC-JSONRPC-2.0"),
        applies: Applies::All,
        source: "index.mdx, Messages; schema JSONRPC*",
        judge: jsonrpc::jsonrpc_version,
        kinds: &[],
    }
    RpcRespExclusive = "rpc-resp-exclusive" {
        title: "a response holds exactly one of result and error",
        level: MUST,
        requirement: Cite::One("RPC-RESP-EXCLUSIVE"),
        applies: Applies::All,
        source: "index.mdx, Responses; JSON-RPC 2.0, 5",
        judge: jsonrpc::response_exclusive,
        kinds: &[],
    }
    RpcIdEcho = "rpc-id-echo" {
        title: "a response carries its request's id with the same type and value",
        level: MUST,
        requirement: Cite::One("RPC-ID-ECHO"),
        applies: Applies::All,
        source: "index.mdx, Responses",
        judge: jsonrpc::id_echo,
        kinds: &[],
    }
    RpcErrorShape = "rpc-error-shape" {
        title: "an error has an integer code and a string message",
        level: MUST,
        requirement: Cite::One("RPC-ERROR-SHAPE"),
        applies: Applies::All,
        source: "index.mdx, Error Responses; schema Error",
        judge: jsonrpc::error_shape,
        kinds: &[],
    }
    RpcErrorMessage = "rpc-error-message" {
        title: "an error message is a concise single sentence: one line, at most 512 characters",
        level: SHOULD,
        requirement: Cite::One("RPC-ERROR-SHAPE"),
        applies: Applies::All,
        source: "schema Error.message (\"SHOULD be limited to a concise single sentence\")",
        judge: jsonrpc::error_message,
        kinds: &[],
    }
    RpcErrorId = "rpc-error-id" {
        title: "an error to a request whose id was readable carries that id",
        level: SCHEMA.from(R2025_11_25, MUST),
        requirement: Cite::One("RPC-ERROR-ID-R1R3").from(R2025_11_25, "RPC-ERROR-ID-R4"),
        applies: Applies::All,
        source: "2025-11-25 index.mdx, Error Responses; index.mdx, Responses (earlier revisions); schema JSONRPCError.id; REQUIREMENTS.md 10 A2",
        judge: jsonrpc::error_id,
        kinds: &[],
    }
    RpcErrParse = "rpc-err-parse" {
        title: "a line that is not JSON gets -32700 and the server keeps serving",
        level: JSONRPC,
        requirement: Cite::One("RPC-ERR-PARSE"),
        applies: Applies::All,
        source: "JSON-RPC 2.0, 5.1; REQUIREMENTS.md 10 A2",
        judge: jsonrpc::parse_error,
        kinds: &[],
    }
    RpcErrInvalidRequest = "rpc-err-invalid-request" {
        title: "a request object without method gets -32600",
        level: JSONRPC,
        requirement: Cite::One("RPC-ERR-INVALID-REQUEST"),
        applies: Applies::All,
        source: "JSON-RPC 2.0, 5.1; REQUIREMENTS.md 10 A2",
        judge: jsonrpc::invalid_request,
        kinds: &[],
    }
    RpcErrMethodNotFound = "rpc-err-method-not-found" {
        title: "an unknown method gets -32601",
        level: JSONRPC,
        requirement: Cite::One("RPC-ERR-METHOD-NOT-FOUND"),
        applies: Applies::All,
        source: "JSON-RPC 2.0, 5.1",
        judge: jsonrpc::method_not_found,
        kinds: &[],
    }
    RpcBatch = "rpc-batch" {
        title: "a JSON-RPC batch is accepted and answered with an array of responses",
        level: MUST,
        requirement: Cite::One("RPC-BATCH-R2"),
        applies: Applies::Only(R2025_03_26),
        source: "2025-03-26 index.mdx, Batching; JSON-RPC 2.0, 6",
        judge: jsonrpc::batch,
        kinds: &[],
    }
    RpcResponseRequired = "rpc-response-required" {
        title: "every request gets a response within the timeout; the server does not stall or exit",
        level: JSONRPC,
        requirement: Cite::One("JSONRPC-5"),
        applies: Applies::All,
        source: "JSON-RPC 2.0, 5 (\"the Server MUST reply with a Response\")",
        judge: jsonrpc::response_required,
        kinds: &[],
    }
    RpcTrafficBounded = "rpc-traffic-bounded" {
        title: "the server does not flood the client with messages no request asked for",
        level: POLICY,
        requirement: Cite::One("progress.mdx (rate limiting)"),
        applies: Applies::All,
        source: "progress.mdx, Implementation Notes (\"Both parties SHOULD implement rate limiting to prevent flooding\")",
        judge: jsonrpc::traffic_bounded,
        kinds: &[],
    }
    // -- Tools: the listing (tools.mdx, Listing Tools; Tool) --
    ToolInputschemaType = "tool-inputschema-type" {
        title: "every tool has an inputSchema object with \"type\": \"object\" (never null)",
        level: SCHEMA,
        requirement: Cite::One("TOOL-INPUTSCHEMA-REQUIRED"),
        applies: Applies::All,
        source: "tools.mdx, Tool; schema Tool.inputSchema",
        judge: tools::input_schema_type,
        kinds: &[],
    }
    ToolSchemaDialect = "tool-schema-dialect" {
        title: "inputSchema and outputSchema are valid JSON Schemas in their declared or default dialect",
        level: POLICY.from(R2025_11_25, MUST),
        requirement: Cite::One("TOOL-INPUTSCHEMA-DIALECT"),
        applies: Applies::All,
        source: "2025-11-25 index.mdx, JSON Schema Usage; REQUIREMENTS.md 10 A8",
        judge: tools::schema_dialect,
        kinds: &[],
    }
    ToolOutputschemaObject = "tool-outputschema-object" {
        title: "an outputSchema has \"type\": \"object\" at its root",
        level: SCHEMA,
        requirement: Cite::One("TOOL-OUTPUTSCHEMA"),
        applies: Applies::Range(R2025_06_18, R2025_11_25),
        source: "tools.mdx, Output Schema; schema Tool.outputSchema",
        judge: tools::output_schema_object,
        kinds: &[],
    }
    ToolTaskSupportDeclared = "tool-task-support-declared" {
        title: "a tool offers task-augmented calls (taskSupport optional or required) only when the server declares tasks.requests.tools.call",
        level: POLICY,
        requirement: Cite::One("TC-TASK-CAP"),
        applies: Applies::Only(R2025_11_25),
        source: "2025-11-25 tasks.mdx, Tool-Level Negotiation (rule 1); schema ToolExecution.taskSupport",
        judge: tools::task_support_declared,
        kinds: &[],
    }
    // -- Tools: names (2025-11-25 tools.mdx, Tool Names) --
    ToolNameUnique = "tool-name-unique" {
        title: "tool names are unique across all pages",
        level: MUST,
        requirement: Cite::One("TOOL-NAME-UNIQUE"),
        applies: Applies::All,
        source: "tools.mdx (\"uniquely identified by a name\"); REQUIREMENTS.md 10 A14",
        judge: tools::name_unique,
        kinds: &[],
    }
    ToolNameLength = "tool-name-length" {
        title: "tool names are 1 to 128 characters long",
        level: SHOULD,
        requirement: Cite::One("TOOL-NAME-LENGTH"),
        applies: Applies::From(R2025_11_25),
        source: "tools.mdx, Tool Names",
        judge: tools::name_length,
        kinds: &[],
    }
    ToolNameCharset = "tool-name-charset" {
        title: "tool names use only A-Z a-z 0-9 _ - . (no spaces or commas)",
        level: SHOULD,
        requirement: Cite::One("TOOL-NAME-CHARSET"),
        applies: Applies::From(R2025_11_25),
        source: "tools.mdx, Tool Names",
        judge: tools::name_charset,
        kinds: &[],
    }
    ToolNameCase = "tool-name-case" {
        title: "no two tool names are equal but for case",
        level: SHOULD,
        requirement: Cite::One("TOOL-NAME-CASE"),
        applies: Applies::From(R2025_11_25),
        source: "tools.mdx, Tool Names",
        judge: tools::name_case,
        kinds: &[],
    }
    // -- Tools: pagination (pagination.mdx) --
    PagTerminates = "pag-terminates" {
        title: "following nextCursor ends: no repeated cursor, no cycle, within 1000 pages",
        level: POLICY,
        requirement: Cite::One("PAG-TERMINATES"),
        applies: Applies::All,
        source: "pagination.mdx, Response Format",
        judge: tools::pagination_terminates,
        kinds: &[],
    }
    PagInvalidCursor = "pag-invalid-cursor" {
        title: "an invalid cursor gets error -32602",
        level: SHOULD,
        requirement: Cite::One("PAG-INVALID-CURSOR"),
        applies: Applies::All,
        source: "pagination.mdx, Error Handling",
        judge: tools::pagination_invalid_cursor,
        kinds: &[],
    }
    PagStable = "pag-stable" {
        title: "two walks of tools/list give the same tools",
        level: SHOULD,
        requirement: Cite::One("PAG-STABLE"),
        applies: Applies::All,
        source: "pagination.mdx, Implementation Guidelines",
        judge: tools::pagination_stable,
        kinds: &[],
    }
    TlParamsOptional = "tl-params-optional" {
        title: "tools/list with params {} or with params holding only _meta gets a listing",
        level: SCHEMA,
        requirement: Cite::One("TL-PARAMS-OPTIONAL"),
        applies: Applies::Legacy,
        source: "schema ListToolsRequest (params optional; cursor and _meta optional); index.mdx, _meta",
        judge: tools::params_optional,
        kinds: &[],
    }
    // -- Tools: calling (tools.mdx, Calling Tools; Tool Result) --
    TcContentTypes = "tc-content-types" {
        title: "tool results use only the content types the negotiated revision defines",
        level: SCHEMA,
        requirement: Cite::One("TC-CONTENT-VERSION-GATE"),
        applies: Applies::All,
        source: "tools.mdx, Tool Result; schema CallToolResult.content",
        judge: tools::content_types,
        kinds: &[],
    }
    TcContentBase64 = "tc-content-base64" {
        title: "image, audio and blob content is valid base64 with a mimeType",
        level: SCHEMA,
        requirement: Cite::One("TC-CONTENT-IMAGE"),
        applies: Applies::All,
        source: "tools.mdx, Image Content, Audio Content; schema format byte",
        judge: tools::content_base64,
        kinds: &[],
    }
    TcErrorExplained = "tc-error-explained" {
        title: "a tool execution error (isError: true) says what went wrong",
        level: POLICY,
        requirement: Cite::One("TC-ERR-EXECUTION"),
        applies: Applies::All,
        source: "tools.mdx, Error Handling (Tool Execution Errors)",
        judge: tools::error_explained,
        kinds: &[],
    }
    TcErrExecution = "tc-err-execution" {
        title: "a call with valid arguments gets a result; tool failures come back as isError results",
        level: SHOULD,
        requirement: Cite::One("TC-ERR-EXECUTION"),
        applies: Applies::All,
        source: "schema CallToolResult.isError; tools.mdx, Error Handling",
        judge: tools::execution_errors,
        kinds: &[],
    }
    TcOutputschemaPresence = "tc-outputschema-presence" {
        title: "a tool with an outputSchema returns structuredContent (error results exempt)",
        level: MUST,
        requirement: Cite::One("TC-OUTPUTSCHEMA-PRESENCE"),
        applies: Applies::From(R2025_06_18),
        source: "tools.mdx, Output Schema; REQUIREMENTS.md 10 A7",
        judge: tools::structured_presence,
        kinds: &[],
    }
    TcOutputschemaConform = "tc-outputschema-conform" {
        title: "structuredContent conforms to the tool's outputSchema",
        level: MUST,
        requirement: Cite::One("TC-OUTPUTSCHEMA-CONFORM"),
        applies: Applies::From(R2025_06_18),
        source: "tools.mdx, Output Schema",
        judge: tools::structured_conform,
        kinds: &[],
    }
    TcStructuredTextMirror = "tc-structured-text-mirror" {
        title: "structuredContent is also returned serialized in a text block",
        level: SHOULD,
        requirement: Cite::One("TC-STRUCTURED-TEXT-MIRROR"),
        applies: Applies::From(R2025_06_18),
        source: "tools.mdx, Structured Content; REQUIREMENTS.md 10 A13",
        judge: tools::structured_text_mirror,
        kinds: &[],
    }
    // -- Tools: error classes (tools.mdx, Error Handling) --
    TcErrUnknownTool = "tc-err-unknown-tool" {
        title: "an unknown tool gets a JSON-RPC error, -32602",
        level: MUST,
        requirement: Cite::One("TC-ERR-UNKNOWN-TOOL"),
        applies: Applies::All,
        source: "tools.mdx, Error Handling (Protocol Errors); REQUIREMENTS.md 10 A10",
        judge: tools::unknown_tool,
        kinds: &[],
    }
    TcErrMalformed = "tc-err-malformed" {
        title: "tools/call without a string name gets a protocol error (-32602)",
        level: MUST,
        requirement: Cite::One("TC-ERR-MALFORMED"),
        applies: Applies::All,
        source: "2025-11-25 tools.mdx, Error Handling (Malformed requests)",
        judge: tools::malformed_call,
        kinds: &[],
    }
    TcErrArgumentsType = "tc-err-arguments-type" {
        title: "tools/call with arguments that is not an object gets a protocol error (-32602)",
        level: SCHEMA,
        requirement: Cite::One("TC-ERR-MALFORMED"),
        applies: Applies::All,
        source: "schema CallToolRequest.params.arguments; 2025-11-25 tools.mdx, Error Handling (Malformed requests)",
        judge: tools::arguments_type,
        kinds: &[],
    }
    TcArgumentsOmitted = "tc-arguments-omitted" {
        title: "tools/call without arguments (they are optional) is answered, and the server lives on",
        level: MUST,
        requirement: Cite::One("TC-ARGS-OMITTED"),
        applies: Applies::All,
        source: "schema CallToolRequest.params (arguments optional); tools.mdx, Security Considerations; JSON-RPC 2.0, 5",
        judge: tools::arguments_omitted,
        kinds: &[],
    }
    TcErrInputValidation = "tc-err-input-validation" {
        title: "arguments that break the inputSchema are rejected, with the error class the revision expects",
        level: MUST,
        requirement: Cite::One("TC-ERR-INPUT-VALIDATION"),
        applies: Applies::All,
        source: "tools.mdx, Error Handling; Security Considerations (\"Servers MUST validate all tool inputs\"); REQUIREMENTS.md 10 A6",
        judge: tools::input_validation,
        kinds: &[],
    }
    // -- Tools: tasks (2025-11-25 tasks.mdx, Tool-Level Negotiation; experimental) --
    TcTaskRequired = "tc-task-required" {
        title: "a tool with taskSupport \"required\" called without a task gets -32601",
        level: MUST,
        requirement: Cite::One("TC-TASK-REQUIRED"),
        applies: Applies::Only(R2025_11_25),
        source: "2025-11-25 tasks.mdx, Tool-Level Negotiation; Error Handling; REQUIREMENTS.md 10 A9",
        judge: tools::task_required,
        kinds: &[],
    }
    TcTaskForbidden = "tc-task-forbidden" {
        title: "a task-augmented call of a tool without task support gets -32601",
        level: SHOULD,
        requirement: Cite::One("TC-TASK-FORBIDDEN"),
        applies: Applies::Only(R2025_11_25),
        source: "2025-11-25 tasks.mdx, Tool-Level Negotiation",
        judge: tools::task_forbidden,
        kinds: &[],
    }
    TcTaskCreate = "tc-task-create" {
        title: "a task-augmented call of a tool offering tasks gets a CreateTaskResult",
        level: MUST,
        requirement: Cite::One("TC-TASK-CREATE"),
        applies: Applies::Only(R2025_11_25),
        source: "2025-11-25 tasks.mdx, Creating Tasks; Behavior Requirements (Result Retrieval)",
        judge: tools::task_create,
        kinds: &[],
    }
    // -- Tools: list_changed (tools.mdx, List Changed Notification) --
    LcnShape = "lcn-shape" {
        title: "notifications/tools/list_changed is well formed",
        level: SCHEMA,
        requirement: Cite::One("LCN-SHAPE"),
        applies: Applies::All,
        source: "tools.mdx, List Changed Notification; schema ToolListChangedNotification",
        judge: tools::list_changed_shape,
        kinds: &[],
    }
    LcnNotUndeclared = "lcn-not-undeclared" {
        title: "list_changed is sent only with tools.listChanged declared",
        level: SHOULD.from(R2025_06_18, MUST),
        requirement: Cite::One("LCN-NOT-UNDECLARED"),
        applies: Applies::Legacy,
        source: "lifecycle.mdx, Operation; REQUIREMENTS.md 10 A12",
        judge: tools::list_changed_declared,
        kinds: &[],
    }
    // -- Progress (progress.mdx), asked for by a tools/call with a progressToken --
    ProgTokenActive = "prog-token-active" {
        title: "progress notifications name only a progressToken we sent, with its type and value",
        level: MUST,
        requirement: Cite::One("PROG-TOKEN-ACTIVE"),
        applies: Applies::All,
        source: "progress.mdx, Behavior Requirements (\"only reference tokens that were provided in an active request\")",
        judge: progress::token_active,
        kinds: &[],
    }
    ProgIncreasing = "prog-increasing" {
        title: "the progress value increases with each notification",
        level: MUST,
        requirement: Cite::One("PROG-INCREASING"),
        applies: Applies::All,
        source: "progress.mdx, Progress Flow (\"MUST increase with each notification\")",
        judge: progress::increasing,
        kinds: &[],
    }
    ProgStop = "prog-stop" {
        title: "no progress notification for a request after its response",
        level: MUST,
        requirement: Cite::One("PROG-STOP"),
        applies: Applies::All,
        source: "progress.mdx, Implementation Notes (\"MUST stop after completion\")",
        judge: progress::stop,
        kinds: &[],
    }
    // -- Generated cases (property phase; tools.mdx Security Considerations) --
    PropServerSurvives = "prop-server-survives" {
        title: "no generated input (arguments, ids, methods, cursors) crashes or stalls the server",
        level: MUST,
        requirement: Cite::One("TC-VALIDATE-INPUTS"),
        applies: Applies::All,
        source: "tools.mdx, Security Considerations (\"Servers MUST: Validate all tool inputs\")",
        judge: property::server_survives,
        kinds: &[Crash, Stall],
    }
    PropValidCallResult = "prop-valid-call-result" {
        title: "generated valid arguments get results valid for the schema and the tool's outputSchema",
        level: SCHEMA,
        requirement: Cite::One("TC-OUTPUTSCHEMA-CONFORM"),
        applies: Applies::All,
        source: "schema CallToolResult; tools.mdx, Output Schema",
        judge: property::valid_call_result,
        kinds: &[InvalidResult],
    }
    PropValidCallAccepted = "prop-valid-call-accepted" {
        title: "generated valid arguments never get a protocol error",
        level: SHOULD,
        requirement: Cite::One("TC-ERR-EXECUTION"),
        applies: Applies::All,
        source: "schema CallToolResult.isError; tools.mdx, Error Handling",
        judge: property::valid_call_accepted,
        kinds: &[ProtocolErrorOnValid],
    }
    PropInvalidCallRejected = "prop-invalid-call-rejected" {
        title: "generated arguments breaking one rule are rejected, in the revision's error class",
        level: MUST,
        requirement: Cite::One("TC-ERR-INPUT-VALIDATION"),
        applies: Applies::All,
        source: "tools.mdx, Error Handling; Security Considerations; REQUIREMENTS.md 10 A6",
        judge: property::invalid_call_rejected,
        kinds: &[InvalidAccepted, WrongErrorClass],
    }
    PropIdRoundtrip = "prop-id-roundtrip" {
        title: "generated request ids (integers to 2^53-1, negative, zero, Unicode and empty strings) come back exactly",
        level: MUST,
        requirement: Cite::One("RPC-ID-ECHO"),
        applies: Applies::All,
        source: "index.mdx, Responses",
        judge: property::id_roundtrip,
        kinds: &[IdNotEchoed],
    }
    PropUnknownMethod = "prop-unknown-method" {
        title: "generated unknown method names get -32601",
        level: JSONRPC,
        requirement: Cite::One("RPC-ERR-METHOD-NOT-FOUND"),
        applies: Applies::All,
        source: "JSON-RPC 2.0, 5.1",
        judge: property::unknown_method,
        kinds: &[UnknownMethodAnswered],
    }
    PropRandomCursor = "prop-random-cursor" {
        title: "generated cursors get -32602 or a page",
        level: SHOULD,
        requirement: Cite::One("PAG-INVALID-CURSOR"),
        applies: Applies::All,
        source: "pagination.mdx, Error Handling",
        judge: property::random_cursor,
        kinds: &[CursorAnswered],
    }
    SeqPipelined = "seq-pipelined" {
        title: "requests sent together, without waiting, are each answered once with their own id",
        level: JSONRPC,
        requirement: Cite::One("RPC-ID-ECHO"),
        applies: Applies::All,
        source: "JSON-RPC 2.0, 5; index.mdx, Responses",
        judge: property::pipelined,
        kinds: &[PipelineBroken],
    }
    SeqCancel = "seq-cancel" {
        title: "notifications/cancelled (for an in-flight or an unknown request) is handled gracefully",
        level: MUST,
        requirement: Cite::One("CANCEL-RACE"),
        applies: Applies::All,
        source: "cancellation.mdx, Behavior Requirements, Error Handling; REQUIREMENTS.md 10 A15",
        judge: property::cancel,
        kinds: &[CancelMishandled],
    }
    // -- Schema (schema.json) --
    SchemaServerMessages = "schema-server-messages" {
        title: "every result, error, notification and request validates against the revision's schema",
        level: SCHEMA,
        requirement: Cite::One("schema.json"),
        applies: Applies::All,
        source: "schema.json of the negotiated revision",
        judge: schema::server_messages,
        kinds: &[],
    }
}

impl CheckId {
    /// The catalog row of this id.
    pub fn check(self) -> &'static Check {
        &CATALOG[self as usize]
    }

    /// The id named `id`, if the catalog has it.
    pub fn parse(id: &str) -> Option<CheckId> {
        CheckId::ALL.iter().copied().find(|c| c.as_str() == id)
    }
}

impl std::fmt::Display for CheckId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for CheckId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A check by id.
pub fn find(id: &str) -> Option<&'static Check> {
    CheckId::parse(id).map(CheckId::check)
}

/// The check of the catalog that reports a failure kind of the generated phases.
pub fn reported_by(kind: &super::rules::FailureKind) -> Option<CheckId> {
    CATALOG
        .iter()
        .find(|c| c.kinds.contains(kind))
        .map(|c| c.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case_and_in_table_order() {
        let mut ids: Vec<&str> = CATALOG.iter().map(|c| c.id.as_str()).collect();
        for (i, check) in CATALOG.iter().enumerate() {
            assert_eq!(check.id as usize, i, "{}", check.id);
        }
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

    #[test]
    fn every_failure_kind_is_reported_by_exactly_one_check() {
        for kind in super::super::rules::FailureKind::ALL {
            let n = CATALOG.iter().filter(|c| c.kinds.contains(kind)).count();
            assert_eq!(n, 1, "{kind:?}");
        }
    }
}
