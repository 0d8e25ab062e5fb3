// The catalog's one table: a row per check, in the order of the spec's chapters.
//
// Not a module: `include!`d twice, by `rules/ids.rs` (which keeps each row's variant, id,
// kinds, `restates` and `live`, and drops the rest unread) and by `checks/catalog.rs`
// (which builds each row's `Check`, its judge included). So a row is everything about a
// check, and the rule book beneath the checks still names no judge. Names in a row are
// resolved where it is expanded: the levels (`MUST`, `SHOULD.from(..)`), `Applies`,
// `Cite` and the judges in `checks/catalog.rs`, the failure kinds in both.
//
// Fields, in this order:
// - `title`, `level` (per revision: `SHOULD.from(R2025_06_18, MUST)`), `requirement`
//   (REQUIREMENTS.md ids), `applies` (the revisions), `source` (the spec's words),
//   `judge` (a function of `checks/`), `kinds` (the failure kinds of the generated
//   phases it reports);
// - `restates: true` (optional): the check judges whole messages or generated cases by
//   rules other rows state (the schema sweep, the property phase), so its finding on an
//   answer another check already failed is that check's fault seen again (the report's
//   "same cause as");
// - `live: true` (optional): the live fuzz target's oracle reports it;
// - `process: true` (optional): the rule is about the server's process (its exit when
//   its input closes), so an in-process server skips it (`transport/in_process.rs`).
// Its text is `checks/explain/<id>.md`. Ids are stable and never reused.

catalog! {
    // -- Lifecycle (lifecycle.mdx) --
    LcInitResult = "lc-init-result" {
        title: "initialize is answered with protocolVersion and capabilities",
        level: MUST,
        requirement: Cite::One("LC-INIT-RESULT"),
        applies: Applies::Legacy,
        source: Cite::One("lifecycle.mdx, Initialization"),
        judge: lifecycle::init_result,
        kinds: &[],
    }
    LcInitServerinfo = "lc-init-serverinfo" {
        title: "initialize result carries serverInfo with name and version",
        level: MUST,
        requirement: Cite::One("LC-INIT-RESULT"),
        applies: Applies::Legacy,
        source: Cite::One("lifecycle.mdx, Initialization; schema InitializeResult, Implementation"),
        judge: lifecycle::server_info,
        kinds: &[],
    }
    LcVersionEcho = "lc-version-echo" {
        title: "a requested version is answered with itself, or with another version the server supports",
        level: MUST,
        requirement: Cite::One("LC-VERSION-ECHO"),
        applies: Applies::Legacy,
        source: Cite::One("lifecycle.mdx, Version Negotiation"),
        judge: lifecycle::version_echo,
        kinds: &[],
    }
    LcVersionFallback = "lc-version-fallback" {
        title: "an unsupported version is answered with a version the server supports, never echoed",
        level: MUST,
        requirement: Cite::One("LC-VERSION-FALLBACK"),
        applies: Applies::Legacy,
        source: Cite::One("lifecycle.mdx, Version Negotiation; REQUIREMENTS.md 10 A1"),
        judge: lifecycle::version_fallback,
        kinds: &[],
    }
    LcInitParamsMalformed = "lc-init-params-malformed" {
        title: "initialize without params, protocolVersion, capabilities or clientInfo gets -32602 (or -32600)",
        level: POLICY,
        requirement: Cite::One("LC-INIT-PARAMS-MALFORMED"),
        applies: Applies::Legacy,
        source: Cite::One("schema InitializeRequest (params, protocolVersion, capabilities, clientInfo required); JSON-RPC 2.0, 5.1"),
        judge: edges::init_params_malformed,
        kinds: &[],
    }
    LcInitializedNoReply = "lc-initialized-no-reply" {
        title: "notifications/initialized (like every notification) gets no response",
        level: MUST,
        requirement: Cite::One("RPC-NOTIF-NO-REPLY"),
        applies: Applies::Legacy,
        source: Cite::One("index.mdx, Notifications; lifecycle.mdx, Initialization"),
        judge: lifecycle::initialized_no_reply,
        kinds: &[],
        live: true,
    }
    LcCapTools = "lc-cap-tools" {
        title: "the tools capability is declared exactly when tools/list works",
        level: MUST,
        requirement: Cite::One("LC-CAP-CONSISTENT"),
        applies: Applies::All,
        source: Cite::One("tools.mdx, Capabilities; REQUIREMENTS.md 10 A11"),
        judge: lifecycle::capability_tools,
        kinds: &[],
    }
    LcPing = "lc-ping" {
        title: "ping is answered promptly with an empty result",
        level: MUST,
        requirement: Cite::One("LC-PING"),
        applies: Applies::Legacy,
        source: Cite::One("ping.mdx, Behavior Requirements"),
        judge: lifecycle::ping,
        kinds: &[],
    }
    LcPingBeforeInitialized = "lc-ping-before-initialized" {
        title: "a ping between the initialize response and notifications/initialized gets an empty result",
        level: POLICY,
        requirement: Cite::One("LC-PING-ANYTIME"),
        applies: Applies::Legacy,
        source: Cite::One("lifecycle.mdx, Initialization (pings allowed before initialized); ping.mdx, Behavior Requirements"),
        judge: edges::ping_before_initialized,
        kinds: &[],
    }
    LcNoUndeclaredRequests = "lc-no-undeclared-requests" {
        title: "the server sends no requests for client capabilities that were not declared",
        level: SHOULD.from(R2025_06_18, MUST),
        requirement: Cite::One("LC-OPERATION-RESPECT"),
        applies: Applies::Legacy,
        source: Cite::One("lifecycle.mdx, Operation"),
        judge: lifecycle::no_undeclared_requests,
        kinds: &[],
    }
    LcShutdownStdio = "lc-shutdown-stdio" {
        title: "the server exits when its stdin is closed",
        level: SHOULD,
        requirement: Cite::One("LC-SHUTDOWN-STDIO"),
        applies: Applies::All,
        source: Cite::One("lifecycle.mdx, Shutdown (stdio); 2026-07-28 stdio.mdx (\"SHOULD exit promptly\"), applied by policy"),
        judge: lifecycle::shutdown,
        kinds: &[],
        process: true,
    }
    // -- Modern lifecycle and versioning (2026-07-28 index.mdx, versioning.mdx, discover.mdx) --
    MDiscover = "m-discover" {
        title: "server/discover is answered with resultType, supportedVersions naming the revision, capabilities, ttlMs and cacheScope",
        level: MUST,
        requirement: Cite::One("M-DISCOVER"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 discover.mdx; caching.mdx, Cacheable Results"),
        judge: modern::discover,
        kinds: &[],
    }
    MServerinfo = "m-serverinfo" {
        title: "every modern result names the server in _meta io.modelcontextprotocol/serverInfo",
        level: SHOULD,
        requirement: Cite::One("M-SERVERINFO"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 index.mdx, Per-response protocol fields"),
        judge: modern::server_info,
        kinds: &[],
    }
    MMetaRequired = "m-meta-required" {
        title: "a request missing _meta protocolVersion or clientCapabilities gets -32602",
        level: MUST,
        requirement: Cite::One("M-META-REQUIRED"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 index.mdx, Per-request protocol fields; schema RequestParams"),
        judge: modern::meta_required,
        kinds: &[],
    }
    MVersionUnsupported = "m-version-unsupported" {
        title: "an unsupported _meta protocolVersion gets -32022 with data.supported and data.requested",
        level: MUST,
        requirement: Cite::One("M-VERSION-UNSUPPORTED"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 versioning.mdx, Protocol Version Negotiation; schema UnsupportedProtocolVersionError"),
        judge: modern::version_unsupported,
        kinds: &[],
    }
    MResulttype = "m-resulttype" {
        title: "every result has resultType \"complete\" (or \"input_required\" where a multi round-trip is allowed)",
        level: MUST,
        requirement: Cite::One("M-RESULTTYPE"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 index.mdx, ResultType; mrtr.mdx, Supported Requests; schema Result"),
        judge: modern::result_type,
        kinds: &[],
    }
    MPingGone = "m-ping-gone" {
        title: "a modern ping (removed in 2026-07-28) gets -32601",
        level: POLICY,
        requirement: Cite::One("M-PING-GONE"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 changelog.mdx (ping removed); REQUIREMENTS.md 4 M-PING-GONE"),
        judge: modern::ping_gone,
        kinds: &[],
    }
    MInitReject = "m-init-reject" {
        title: "a modern-only server refuses initialize with an error naming the versions it supports",
        level: SHOULD,
        requirement: Cite::One("M-INIT-REJECT"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 versioning.mdx, Backward Compatibility"),
        judge: modern::init_reject,
        kinds: &[],
    }
    MNoServerRequests = "m-no-server-requests" {
        title: "the server writes no JSON-RPC request in modern traffic",
        level: MUST,
        requirement: Cite::One("M-NO-SERVER-REQUESTS"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 stdio.mdx (\"MUST NOT write JSON-RPC requests to stdout\"); mrtr.mdx"),
        judge: modern::no_server_requests,
        kinds: &[],
    }
    MClientinfoOptional = "m-clientinfo-optional" {
        title: "a request whose _meta has no clientInfo (optional) is served",
        level: SHOULD,
        requirement: Cite::One("M-META-REQUIRED"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 index.mdx, Per-request protocol fields; schema RequestMetaObject (clientInfo optional: clients SHOULD send it unless configured not to); REQUIREMENTS.md A19"),
        judge: modern::client_info_optional,
        kinds: &[],
    }
    MLoglevel = "m-loglevel" {
        title: "no notifications/message for a request whose _meta asks for no log level",
        level: MUST,
        requirement: Cite::One("M-LOGLEVEL"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 changelog.mdx (logging/setLevel removed); schema RequestMetaObject logLevel"),
        judge: modern::log_level,
        kinds: &[],
    }
    MClientcap = "m-clientcap" {
        title: "a capability the request did not declare is asked for with -32021 and data.requiredCapabilities, never in an InputRequiredResult",
        level: MUST,
        requirement: Cite::One("M-CLIENTCAP"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 index.mdx, client capabilities; mrtr.mdx, Server Requirements"),
        judge: modern::client_capabilities,
        kinds: &[],
    }
    // -- Streamable HTTP (transports.mdx, 2025-03-26 to 2025-11-25; http-origin also
    //    2026-07-28); skipped over stdio --
    HttpNotification202 = "http-notification-202" {
        title: "an accepted notification or response POST gets 202 Accepted with no body",
        level: MUST,
        requirement: Cite::One("LC-HTTP-NOTIF-202"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Sending Messages to the Server"),
        judge: http::notification_202,
        kinds: &[],
    }
    HttpContentType = "http-content-type" {
        title: "a request POST is answered with application/json or text/event-stream",
        level: MUST,
        requirement: Cite::One("LC-HTTP-NOTIF-202"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Sending Messages to the Server"),
        judge: http::content_type,
        kinds: &[],
    }
    HttpSessionRequired = "http-session-required" {
        title: "a request without Mcp-Session-Id after initialize gets 400 Bad Request",
        level: SHOULD,
        requirement: Cite::One("LC-HTTP-SESSION"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Session Management"),
        judge: http::session_required,
        kinds: &[],
    }
    HttpSessionUnknown = "http-session-unknown" {
        title: "a request in a session the server ended (or never issued) gets 404 Not Found",
        level: MUST,
        requirement: Cite::One("LC-HTTP-SESSION"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Session Management"),
        judge: http::session_unknown,
        kinds: &[],
    }
    HttpProtocolVersion = "http-protocol-version" {
        title: "an invalid MCP-Protocol-Version header gets 400 Bad Request",
        level: MUST,
        requirement: Cite::One("LC-HTTP-VERSION-HEADER"),
        applies: Applies::Range(R2025_06_18, R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Protocol Version Header"),
        judge: http::protocol_version,
        kinds: &[],
    }
    HttpVersionAbsent = "http-version-absent" {
        title: "a request without MCP-Protocol-Version is served (the server assumes 2025-03-26 or the negotiated version)",
        level: SHOULD,
        requirement: Cite::One("LC-HTTP-VERSION-HEADER"),
        applies: Applies::Range(R2025_06_18, R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Protocol Version Header; REQUIREMENTS.md A18"),
        judge: http::version_absent,
        kinds: &[],
    }
    HttpDelete = "http-delete" {
        title: "a DELETE of a live session gets 2xx (ended) or 405 (clients may not end sessions)",
        level: SHOULD,
        requirement: Cite::One("LC-HTTP-SESSION"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Session Management, 5; REQUIREMENTS.md A17"),
        judge: http::delete_answer,
        kinds: &[],
    }
    HttpSessionIdAscii = "http-session-id-ascii" {
        title: "an Mcp-Session-Id holds only visible ASCII (0x21 to 0x7E)",
        level: MUST,
        requirement: Cite::One("LC-HTTP-SESSION"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Session Management"),
        judge: http::session_id_ascii,
        kinds: &[],
    }
    HttpGetAnswer = "http-get-answer" {
        title: "the GET that opens the listen stream gets text/event-stream or 405 Method Not Allowed",
        level: MUST,
        requirement: Cite::One("LC-HTTP-GET-STREAM"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Listening for Messages from the Server, 2"),
        judge: http::get_answer,
        kinds: &[],
    }
    HttpGetStream = "http-get-stream" {
        title: "the GET stream carries no JSON-RPC response (the client never resumes)",
        level: MUST,
        requirement: Cite::One("LC-HTTP-GET-STREAM"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Listening for Messages from the Server"),
        judge: http::get_stream,
        kinds: &[],
    }
    HttpResponseOnce = "http-response-once" {
        title: "each response arrives once, on the stream of the POST that carried its request",
        level: MUST,
        requirement: Cite::One("LC-HTTP-STREAMS"),
        applies: Applies::Range(R2025_03_26, R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Sending Messages to the Server; Multiple Connections"),
        judge: http::response_once,
        kinds: &[],
    }
    HttpSsePriming = "http-sse-priming" {
        title: "a request's SSE stream opens with a priming event (an event id and empty data)",
        level: SHOULD,
        requirement: Cite::One("LC-HTTP-SSE-POLL"),
        applies: Applies::Only(R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Sending Messages to the Server, 6"),
        judge: http::sse_priming,
        kinds: &[],
    }
    HttpSseRetry = "http-sse-retry" {
        title: "a server that closes a stream's connection before the response sends a retry field first",
        level: SHOULD,
        requirement: Cite::One("LC-HTTP-SSE-POLL"),
        applies: Applies::Only(R2025_11_25),
        source: Cite::One("transports.mdx, Streamable HTTP, Sending Messages to the Server, 6"),
        judge: http::sse_retry,
        kinds: &[],
    }
    HttpStreamClosedEarly = "http-stream-closed-early" {
        title: "a request's SSE stream is not closed before its response",
        level: SHOULD,
        requirement: Cite::One("LC-HTTP-SSE-POLL"),
        applies: Applies::Range(R2025_03_26, R2025_06_18),
        source: Cite::One("transports.mdx, Streamable HTTP, Sending Messages to the Server, 6"),
        judge: http::stream_closed_early,
        kinds: &[],
    }
    HttpOrigin = "http-origin" {
        title: "a request from a foreign Origin is refused (with 403 Forbidden from 2025-11-25 on)",
        level: MUST,
        requirement: Cite::One("LC-HTTP-ORIGIN"),
        applies: Applies::All,
        source: Cite::One("transports.mdx, Security Warning (2024-11-05 HTTP with SSE; Streamable HTTP); 2026-07-28 streamable-http.mdx, Security & Endpoint"),
        judge: http::origin,
        kinds: &[],
    }
    // -- Streamable HTTP of 2026-07-28 (streamable-http.mdx); skipped over stdio --
    HttpMHeaders = "http-m-headers" {
        title: "a missing or mismatched MCP-Protocol-Version, Mcp-Method or Mcp-Name header gets 400 with -32020",
        level: MUST,
        requirement: Cite::One("M-HTTP-HEADERS"),
        applies: Applies::Only(R2026_07_28),
        source: Cite::One("2026-07-28 streamable-http.mdx, Protocol Version Header, Standard Request Headers, Server Validation"),
        judge: http_modern::headers,
        kinds: &[],
    }
    HttpMHeaderCase = "http-m-header-case" {
        title: "header names are matched case-insensitively: requests whose names are in title case are served",
        level: MUST,
        requirement: Cite::One("M-HTTP-HEADERS"),
        applies: Applies::Only(R2026_07_28),
        source: Cite::One("2026-07-28 streamable-http.mdx, Case Sensitivity"),
        judge: http_modern::header_case,
        kinds: &[],
    }
    HttpMNameWhitespace = "http-m-name-whitespace" {
        title: "an Mcp-Name with whitespace around the body's name matches it (the whitespace is not part of the value)",
        level: MUST,
        requirement: Cite::One("M-HTTP-HEADERS"),
        applies: Applies::Only(R2026_07_28),
        source: Cite::One("2026-07-28 streamable-http.mdx, Server Validation; RFC 9110, 5.5 Field Values"),
        judge: http_modern::name_whitespace,
        kinds: &[],
    }
    HttpM404 = "http-m-404" {
        title: "a method the server does not implement gets 404 Not Found with -32601",
        level: MUST,
        requirement: Cite::One("M-HTTP-404"),
        applies: Applies::Only(R2026_07_28),
        source: Cite::One("2026-07-28 streamable-http.mdx, Protocol Version Header"),
        judge: http_modern::not_found,
        kinds: &[],
    }
    HttpMStatus = "http-m-status" {
        title: "-32022, -32602 for a missing _meta field, and -32021 come with 400 Bad Request",
        level: MUST,
        requirement: Cite::One("M-VERSION-UNSUPPORTED"),
        applies: Applies::Only(R2026_07_28),
        source: Cite::One("2026-07-28 streamable-http.mdx, Protocol Version Header; index.mdx, Per-request protocol fields; versioning.mdx; REQUIREMENTS.md M-META-REQUIRED, M-CLIENTCAP"),
        judge: http_modern::status,
        kinds: &[],
    }
    HttpMParamHeader = "http-m-param-header" {
        title: "a tools/call whose Mcp-Param-* header is missing or does not match the x-mcp-header argument gets 400 with -32020",
        level: MUST,
        requirement: Cite::One("M-HTTP-XMCPHEADER"),
        applies: Applies::Only(R2026_07_28),
        source: Cite::One("2026-07-28 streamable-http.mdx, Server Behavior for Custom Headers, Server Validation"),
        judge: http_modern::param_header,
        kinds: &[],
    }
    HttpMLegacyTraffic = "http-m-legacy-traffic" {
        title: "a server that supports only 2026-07-28 answers GET and DELETE with 405 and mints or echoes no session id",
        level: SHOULD,
        requirement: Cite::One("M-HTTP-NO-HEADER-LEGACY"),
        applies: Applies::Only(R2026_07_28),
        source: Cite::One("2026-07-28 streamable-http.mdx, Backward Compatibility, Earlier Streamable HTTP Revisions"),
        judge: http_modern::legacy_traffic,
        kinds: &[],
    }
    // -- HTTP+SSE (2024-11-05 transports.mdx, HTTP with SSE); skipped on other transports --
    SseEndpointEvent = "sse-endpoint-event" {
        title: "the SSE stream's first event is endpoint, with the URI to POST messages to",
        level: MUST,
        requirement: Cite::One("LC-HTTP-SSE"),
        applies: Applies::Only(R2024_11_05),
        source: Cite::One("2024-11-05 transports.mdx, HTTP with SSE"),
        judge: http_sse::endpoint_event,
        kinds: &[],
    }
    SseMessageEvent = "sse-message-event" {
        title: "server messages come as SSE message events whose data is one JSON message",
        level: MUST,
        requirement: Cite::One("LC-HTTP-SSE"),
        applies: Applies::Only(R2024_11_05),
        source: Cite::One("2024-11-05 transports.mdx, HTTP with SSE"),
        judge: http_sse::message_event,
        kinds: &[],
    }
    // -- JSON-RPC base (index.mdx / messages.mdx, transports.mdx) --
    RpcStdioFraming = "rpc-stdio-framing" {
        title: "stdout carries only newline-delimited JSON-RPC messages in UTF-8",
        level: MUST,
        requirement: Cite::One("RPC-STDIO-FRAMING"),
        applies: Applies::All,
        source: Cite::One("transports.mdx, stdio"),
        judge: jsonrpc::stdio_framing,
        kinds: &[InvalidMessage],
        live: true,
    }
    RpcJsonrpcVersion = "rpc-jsonrpc-version" {
        title: "every message carries \"jsonrpc\": \"2.0\"",
        level: SCHEMA,
        requirement: Cite::One("RPC-JSONRPC-2.0"),
        applies: Applies::All,
        source: Cite::One("index.mdx, Messages; schema JSONRPC*"),
        judge: jsonrpc::jsonrpc_version,
        kinds: &[],
        live: true,
    }
    RpcRespExclusive = "rpc-resp-exclusive" {
        title: "a response holds exactly one of result and error",
        level: MUST,
        requirement: Cite::One("RPC-RESP-EXCLUSIVE"),
        applies: Applies::All,
        source: Cite::One("index.mdx, Responses; JSON-RPC 2.0, 5"),
        judge: jsonrpc::response_exclusive,
        kinds: &[],
        live: true,
    }
    RpcIdEcho = "rpc-id-echo" {
        title: "a response carries its request's id with the same type and value",
        level: MUST,
        requirement: Cite::One("RPC-ID-ECHO"),
        applies: Applies::All,
        source: Cite::One("index.mdx, Responses"),
        judge: jsonrpc::id_echo,
        kinds: &[AnsweredAgain],
        live: true,
    }
    RpcErrorShape = "rpc-error-shape" {
        title: "an error has an integer code and a string message",
        level: MUST,
        requirement: Cite::One("RPC-ERROR-SHAPE"),
        applies: Applies::All,
        source: Cite::One("index.mdx, Error Responses; schema Error"),
        judge: jsonrpc::error_shape,
        kinds: &[],
        live: true,
    }
    RpcErrorMessage = "rpc-error-message" {
        title: "an error message is a concise single sentence: one line, at most 512 characters",
        level: SHOULD,
        requirement: Cite::One("RPC-ERROR-SHAPE"),
        applies: Applies::All,
        source: Cite::One("schema Error.message (\"SHOULD be limited to a concise single sentence\")"),
        judge: jsonrpc::error_message,
        kinds: &[],
    }
    RpcErrorId = "rpc-error-id" {
        title: "an error to a request whose id was readable carries that id",
        level: SCHEMA.from(R2025_11_25, MUST),
        requirement: Cite::One("RPC-ERROR-ID-R1R3").from(R2025_11_25, "RPC-ERROR-ID-R4"),
        applies: Applies::All,
        source: Cite::One("2025-11-25 index.mdx, Error Responses; index.mdx, Responses (earlier revisions); schema JSONRPCError.id; REQUIREMENTS.md 10 A2"),
        judge: jsonrpc::error_id,
        kinds: &[],
        live: true,
    }
    RpcErrParse = "rpc-err-parse" {
        title: "a line that is not JSON gets -32700 and the server keeps serving",
        level: JSONRPC,
        requirement: Cite::One("RPC-ERR-PARSE"),
        applies: Applies::All,
        source: Cite::One("JSON-RPC 2.0, 5.1; REQUIREMENTS.md 10 A2"),
        judge: jsonrpc::parse_error,
        kinds: &[],
    }
    RpcErrInvalidRequest = "rpc-err-invalid-request" {
        title: "a request object without method, or with an id that is not a string or integer, gets -32600",
        level: JSONRPC,
        requirement: Cite::One("RPC-ERR-INVALID-REQUEST"),
        applies: Applies::All,
        source: Cite::One("JSON-RPC 2.0, 4 and 5.1; index.mdx, Requests; REQUIREMENTS.md 10 A2, A3"),
        judge: jsonrpc::invalid_request,
        kinds: &[],
    }
    RpcErrMethodNotFound = "rpc-err-method-not-found" {
        title: "an unknown method gets -32601",
        level: JSONRPC,
        requirement: Cite::One("RPC-ERR-METHOD-NOT-FOUND"),
        applies: Applies::All,
        source: Cite::One("JSON-RPC 2.0, 5.1"),
        judge: jsonrpc::method_not_found,
        kinds: &[],
    }
    RpcBatch = "rpc-batch" {
        title: "a JSON-RPC batch is accepted and answered with an array of responses",
        level: MUST,
        requirement: Cite::One("RPC-BATCH-R2"),
        applies: Applies::Only(R2025_03_26),
        source: Cite::One("2025-03-26 index.mdx, Batching; JSON-RPC 2.0, 6"),
        judge: jsonrpc::batch,
        kinds: &[],
    }
    RpcBatchResponse = "rpc-batch-response" {
        title: "an empty batch gets one -32600 error; a batch of notifications gets no answer at all",
        level: JSONRPC,
        requirement: Cite::One("RPC-BATCH-RESPONSE-R2"),
        applies: Applies::Only(R2025_03_26),
        source: Cite::One("2025-03-26 index.mdx, Batching; JSON-RPC 2.0, 6 (\"MUST be a single Response object\", \"MUST NOT return an empty Array\"); REQUIREMENTS.md 10 A2"),
        judge: edges::batch_response,
        kinds: &[],
    }
    RpcResponseRequired = "rpc-response-required" {
        title: "every request gets a response within the timeout; the server does not stall or exit",
        level: JSONRPC,
        requirement: Cite::One("JSONRPC-5"),
        applies: Applies::All,
        source: Cite::One("JSON-RPC 2.0, 5 (\"the Server MUST reply with a Response\")"),
        judge: jsonrpc::response_required,
        kinds: &[],
    }
    RpcTrafficBounded = "rpc-traffic-bounded" {
        title: "the server does not flood the client with messages no request asked for",
        level: POLICY,
        requirement: Cite::One("progress.mdx (rate limiting)"),
        applies: Applies::All,
        source: Cite::One("progress.mdx, Implementation Notes (\"Both parties SHOULD implement rate limiting to prevent flooding\")"),
        judge: jsonrpc::traffic_bounded,
        kinds: &[],
    }
    RpcErrRange = "rpc-err-range" {
        title: "no error code -32002 or -32042, and none of -32020..-32099 but the defined -32020, -32021, -32022",
        level: MUST,
        requirement: Cite::One("RPC-ERR-RANGE-R5"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 index.mdx, Error Codes"),
        judge: modern::error_range,
        kinds: &[],
    }
    MetaKeyFormat = "meta-key-format" {
        title: "every _meta key the server writes is an optional prefix of labels and a name that begins and ends alphanumeric",
        level: MUST,
        requirement: Cite::One("META-KEY-FORMAT"),
        applies: Applies::From(R2025_06_18),
        source: Cite::One("index.mdx, General fields: _meta (key name format; reserved prefixes)"),
        judge: edges::meta_key_format,
        kinds: &[],
    }
    // -- Tools: the listing (tools.mdx, Listing Tools; Tool) --
    ToolInputschemaType = "tool-inputschema-type" {
        title: "every tool has an inputSchema object with \"type\": \"object\" (never null)",
        level: SCHEMA,
        requirement: Cite::One("TOOL-INPUTSCHEMA-REQUIRED"),
        applies: Applies::All,
        source: Cite::One("tools.mdx, Tool; schema Tool.inputSchema"),
        judge: tools::listing::input_schema_type,
        kinds: &[],
    }
    ToolSchemaDialect = "tool-schema-dialect" {
        title: "inputSchema and outputSchema are valid JSON Schemas in their declared or default dialect",
        level: POLICY.from(R2025_11_25, MUST),
        requirement: Cite::One("TOOL-INPUTSCHEMA-DIALECT"),
        applies: Applies::All,
        source: Cite::One("schema Tool.inputSchema, Tool.outputSchema; REQUIREMENTS.md 10 A8")
            .from(R2025_11_25, "index.mdx, JSON Schema Usage; REQUIREMENTS.md 10 A8"),
        judge: tools::listing::schema_dialect,
        kinds: &[],
    }
    ToolOutputschemaObject = "tool-outputschema-object" {
        title: "an outputSchema has \"type\": \"object\" at its root",
        level: SCHEMA,
        requirement: Cite::One("TOOL-OUTPUTSCHEMA"),
        applies: Applies::Range(R2025_06_18, R2025_11_25),
        source: Cite::One("tools.mdx, Output Schema; schema Tool.outputSchema"),
        judge: tools::listing::output_schema_object,
        kinds: &[],
    }
    ToolTaskSupportDeclared = "tool-task-support-declared" {
        title: "a tool offers task-augmented calls (taskSupport optional or required) only when the server declares tasks.requests.tools.call",
        level: POLICY,
        requirement: Cite::One("TC-TASK-CAP"),
        applies: Applies::Only(R2025_11_25),
        source: Cite::One("2025-11-25 tasks.mdx, Tool-Level Negotiation (rule 1); schema ToolExecution.taskSupport"),
        judge: tools::tasks::task_support_declared,
        kinds: &[],
    }
    // -- Tools: names (2025-11-25 tools.mdx, Tool Names) --
    ToolNameUnique = "tool-name-unique" {
        title: "tool names are unique across all pages",
        level: MUST,
        requirement: Cite::One("TOOL-NAME-UNIQUE"),
        applies: Applies::All,
        source: Cite::One("tools.mdx (\"uniquely identified by a name\"); REQUIREMENTS.md 10 A14"),
        judge: tools::names::name_unique,
        kinds: &[],
    }
    ToolNameLength = "tool-name-length" {
        title: "tool names are 1 to 128 characters long",
        level: SHOULD,
        requirement: Cite::One("TOOL-NAME-LENGTH"),
        applies: Applies::From(R2025_11_25),
        source: Cite::One("tools.mdx, Tool Names"),
        judge: tools::names::name_length,
        kinds: &[],
    }
    ToolNameCharset = "tool-name-charset" {
        title: "tool names use only A-Z a-z 0-9 _ - . (no spaces or commas)",
        level: SHOULD,
        requirement: Cite::One("TOOL-NAME-CHARSET"),
        applies: Applies::From(R2025_11_25),
        source: Cite::One("tools.mdx, Tool Names"),
        judge: tools::names::name_charset,
        kinds: &[],
    }
    ToolNameCase = "tool-name-case" {
        title: "no two tool names are equal but for case",
        level: SHOULD,
        requirement: Cite::One("TOOL-NAME-CASE"),
        applies: Applies::From(R2025_11_25),
        source: Cite::One("tools.mdx, Tool Names"),
        judge: tools::names::name_case,
        kinds: &[],
    }
    // -- Tools: pagination (pagination.mdx) --
    PagTerminates = "pag-terminates" {
        title: "following nextCursor ends: no repeated cursor, no cycle, within 1000 pages",
        level: POLICY,
        requirement: Cite::One("PAG-TERMINATES"),
        applies: Applies::All,
        source: Cite::One("pagination.mdx, Response Format"),
        judge: tools::pagination::pagination_terminates,
        kinds: &[],
    }
    PagInvalidCursor = "pag-invalid-cursor" {
        title: "an invalid cursor gets error -32602",
        level: SHOULD,
        requirement: Cite::One("PAG-INVALID-CURSOR"),
        applies: Applies::All,
        source: Cite::One("pagination.mdx, Error Handling"),
        judge: tools::pagination::pagination_invalid_cursor,
        kinds: &[],
    }
    PagStable = "pag-stable" {
        title: "two walks of tools/list give the same tools",
        level: SHOULD,
        requirement: Cite::One("PAG-STABLE"),
        applies: Applies::All,
        source: Cite::One("pagination.mdx, Implementation Guidelines"),
        judge: tools::pagination::pagination_stable,
        kinds: &[],
    }
    TlParamsOptional = "tl-params-optional" {
        title: "tools/list with params {} or with params holding only _meta gets a listing",
        level: SCHEMA,
        requirement: Cite::One("TL-PARAMS-OPTIONAL"),
        applies: Applies::Legacy,
        source: Cite::One("schema ListToolsRequest (params optional; cursor and _meta optional); index.mdx, _meta"),
        judge: tools::pagination::params_optional,
        kinds: &[],
    }
    TlCacheHints = "tl-cache-hints" {
        title: "every tools/list page has ttlMs (integer >= 0) and cacheScope, one cacheScope per walk",
        level: MUST,
        requirement: Cite::One("TL-TTL-NONNEG"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 caching.mdx, Cacheable Results, Time-to-Live, Interaction with Pagination"),
        judge: modern::cache_hints,
        kinds: &[],
    }
    TlDeterministicOrder = "tl-deterministic-order" {
        title: "two walks of an unchanged tool set list the tools in the same order",
        level: SHOULD,
        requirement: Cite::One("TL-DETERMINISTIC-ORDER"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 tools.mdx, Listing Tools; changelog.mdx"),
        judge: modern::deterministic_order,
        kinds: &[],
    }
    MStateless = "m-stateless" {
        title: "tools/list on a fresh process lists the tools listed after other requests on a used one",
        level: MUST,
        requirement: Cite::One("M-STATELESS"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 index.mdx, Statelessness; tools.mdx, Capabilities (TL-CURRENT-SET)"),
        judge: modern::stateless,
        kinds: &[],
    }
    // -- Tools: calling (tools.mdx, Calling Tools; Tool Result) --
    TcContentTypes = "tc-content-types" {
        title: "tool results use only the content types the negotiated revision defines",
        level: SCHEMA,
        requirement: Cite::One("TC-CONTENT-VERSION-GATE"),
        applies: Applies::All,
        source: Cite::One("tools.mdx, Tool Result; schema CallToolResult.content"),
        judge: tools::results::content_types,
        kinds: &[],
    }
    TcContentBase64 = "tc-content-base64" {
        title: "image, audio and blob content is valid base64 with a mimeType",
        level: SCHEMA,
        requirement: Cite::One("TC-CONTENT-IMAGE"),
        applies: Applies::All,
        source: Cite::One("tools.mdx, Image Content, Audio Content; schema format byte"),
        judge: tools::results::content_base64,
        kinds: &[],
    }
    TcErrorExplained = "tc-error-explained" {
        title: "a tool execution error (isError: true) says what went wrong",
        level: POLICY,
        requirement: Cite::One("TC-ERR-EXECUTION"),
        applies: Applies::All,
        source: Cite::One("tools.mdx, Error Handling (Tool Execution Errors)"),
        judge: tools::results::error_explained,
        kinds: &[],
    }
    TcErrExecution = "tc-err-execution" {
        title: "a call with valid arguments gets a result; tool failures come back as isError results",
        level: SHOULD,
        requirement: Cite::One("TC-ERR-EXECUTION"),
        applies: Applies::All,
        source: Cite::One("schema CallToolResult.isError; tools.mdx, Error Handling"),
        judge: tools::results::execution_errors,
        kinds: &[],
    }
    TcOutputschemaPresence = "tc-outputschema-presence" {
        title: "a tool with an outputSchema returns structuredContent (error results exempt)",
        level: MUST,
        requirement: Cite::One("TC-OUTPUTSCHEMA-PRESENCE"),
        applies: Applies::From(R2025_06_18),
        source: Cite::One("tools.mdx, Output Schema; REQUIREMENTS.md 10 A7"),
        judge: tools::results::structured_presence,
        kinds: &[],
        live: true,
    }
    TcOutputschemaConform = "tc-outputschema-conform" {
        title: "structuredContent conforms to the tool's outputSchema",
        level: MUST,
        requirement: Cite::One("TC-OUTPUTSCHEMA-CONFORM"),
        applies: Applies::From(R2025_06_18),
        source: Cite::One("tools.mdx, Output Schema"),
        judge: tools::results::structured_conform,
        kinds: &[],
        live: true,
    }
    TcStructuredTextMirror = "tc-structured-text-mirror" {
        title: "structuredContent is also returned serialized in a text block",
        level: SHOULD,
        requirement: Cite::One("TC-STRUCTURED-TEXT-MIRROR"),
        applies: Applies::From(R2025_06_18),
        source: Cite::One("tools.mdx, Structured Content; REQUIREMENTS.md 10 A13"),
        judge: tools::results::structured_text_mirror,
        kinds: &[],
    }
    // -- Tools: error classes (tools.mdx, Error Handling) --
    TcErrUnknownTool = "tc-err-unknown-tool" {
        title: "an unknown tool gets a JSON-RPC error, -32602",
        level: MUST,
        requirement: Cite::One("TC-ERR-UNKNOWN-TOOL"),
        applies: Applies::All,
        source: Cite::One("tools.mdx, Error Handling (Protocol Errors); REQUIREMENTS.md 10 A10"),
        judge: tools::errors::unknown_tool,
        kinds: &[],
    }
    TcErrMalformed = "tc-err-malformed" {
        title: "tools/call without a string name gets a protocol error (-32602)",
        level: MUST,
        requirement: Cite::One("TC-ERR-MALFORMED"),
        applies: Applies::All,
        source: Cite::One("schema CallToolRequest.params.name (required); tools.mdx, Error Handling (Protocol Errors)")
            .from(R2025_11_25, "tools.mdx, Error Handling (Protocol Errors: \"Malformed requests\")"),
        judge: tools::errors::malformed_call,
        kinds: &[],
    }
    TcErrArgumentsType = "tc-err-arguments-type" {
        title: "tools/call with arguments that is not an object gets a protocol error (-32602)",
        level: SCHEMA,
        requirement: Cite::One("TC-ERR-MALFORMED"),
        applies: Applies::All,
        source: Cite::One("schema CallToolRequest.params.arguments; tools.mdx, Error Handling (Protocol Errors: \"Invalid arguments\")")
            .from(R2025_11_25, "schema CallToolRequest.params.arguments; tools.mdx, Error Handling (Protocol Errors: \"Malformed requests\")"),
        judge: tools::errors::arguments_type,
        kinds: &[],
        live: true,
    }
    TcArgumentsOmitted = "tc-arguments-omitted" {
        title: "tools/call without arguments (they are optional) is answered, and the server lives on",
        level: MUST,
        requirement: Cite::One("TC-ARGS-OMITTED"),
        applies: Applies::All,
        source: Cite::One("schema CallToolRequest.params (arguments optional); tools.mdx, Security Considerations; JSON-RPC 2.0, 5"),
        judge: tools::errors::arguments_omitted,
        kinds: &[],
        live: true,
    }
    TcErrInputValidation = "tc-err-input-validation" {
        title: "arguments that break the inputSchema are rejected, with the error class the revision expects",
        level: MUST,
        requirement: Cite::One("TC-ERR-INPUT-VALIDATION"),
        applies: Applies::All,
        source: Cite::One("tools.mdx, Error Handling; Security Considerations (\"Servers MUST validate all tool inputs\"); REQUIREMENTS.md 10 A6"),
        judge: tools::errors::input_validation,
        kinds: &[],
    }
    // -- Tools: multi round-trip requests (2026-07-28 mrtr.mdx) --
    TcMrtrShape = "tc-mrtr-shape" {
        title: "an InputRequiredResult has well-formed inputRequests (elicitation, sampling or roots) and requestState, and a retry with inputResponses is answered",
        level: MUST,
        requirement: Cite::One("TC-MRTR-CONTENT"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 mrtr.mdx, Server Requirements; schema InputRequiredResult"),
        judge: modern::mrtr_shape,
        kinds: &[],
    }
    // -- Tools: tasks (2025-11-25 tasks.mdx, Tool-Level Negotiation; experimental) --
    TcTaskRequired = "tc-task-required" {
        title: "a tool with taskSupport \"required\" called without a task gets -32601",
        level: MUST,
        requirement: Cite::One("TC-TASK-REQUIRED"),
        applies: Applies::Only(R2025_11_25),
        source: Cite::One("2025-11-25 tasks.mdx, Tool-Level Negotiation; Error Handling; REQUIREMENTS.md 10 A9"),
        judge: tools::tasks::task_required,
        kinds: &[],
    }
    TcTaskForbidden = "tc-task-forbidden" {
        title: "a task-augmented call of a tool without task support gets -32601",
        level: SHOULD,
        requirement: Cite::One("TC-TASK-FORBIDDEN"),
        applies: Applies::Only(R2025_11_25),
        source: Cite::One("2025-11-25 tasks.mdx, Tool-Level Negotiation"),
        judge: tools::tasks::task_forbidden,
        kinds: &[],
    }
    TcTaskCreate = "tc-task-create" {
        title: "a task-augmented call of a tool offering tasks gets a CreateTaskResult",
        level: MUST,
        requirement: Cite::One("TC-TASK-CREATE"),
        applies: Applies::Only(R2025_11_25),
        source: Cite::One("2025-11-25 tasks.mdx, Creating Tasks; Behavior Requirements (Result Retrieval)"),
        judge: tools::tasks::task_create,
        kinds: &[],
    }
    // -- Tools: list_changed (tools.mdx, List Changed Notification) --
    LcnShape = "lcn-shape" {
        title: "notifications/tools/list_changed is well formed",
        level: SCHEMA,
        requirement: Cite::One("LCN-SHAPE"),
        applies: Applies::All,
        source: Cite::One("tools.mdx, List Changed Notification; schema ToolListChangedNotification"),
        judge: tools::list_changed::list_changed_shape,
        kinds: &[],
    }
    LcnNotUndeclared = "lcn-not-undeclared" {
        title: "list_changed is sent only with tools.listChanged declared",
        level: SHOULD.from(R2025_06_18, MUST),
        requirement: Cite::One("LCN-NOT-UNDECLARED"),
        applies: Applies::Legacy,
        source: Cite::One("lifecycle.mdx, Operation; REQUIREMENTS.md 10 A12"),
        judge: tools::list_changed::list_changed_declared,
        kinds: &[],
    }
    LcnSubscription = "lcn-subscription" {
        title: "subscriptions/listen is acknowledged first, and its notifications carry its id as subscriptionId",
        level: MUST,
        requirement: Cite::One("LCN-R5-SUBSCRIPTION"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 subscriptions.mdx; tools.mdx, List Changed Notification"),
        judge: modern::subscription,
        kinds: &[],
    }
    // -- Progress (progress.mdx), asked for by a tools/call with a progressToken --
    ProgTokenActive = "prog-token-active" {
        title: "progress notifications name only a progressToken we sent, with its type and value",
        level: MUST,
        requirement: Cite::One("PROG-TOKEN-ACTIVE"),
        applies: Applies::All,
        source: Cite::One("progress.mdx, Behavior Requirements (\"only reference tokens that were provided in an active request\")"),
        judge: progress::token_active,
        kinds: &[],
    }
    ProgIncreasing = "prog-increasing" {
        title: "the progress value increases with each notification",
        level: MUST,
        requirement: Cite::One("PROG-INCREASING"),
        applies: Applies::All,
        source: Cite::One("progress.mdx, Progress Flow (\"MUST increase with each notification\")"),
        judge: progress::increasing,
        kinds: &[],
    }
    ProgStop = "prog-stop" {
        title: "no progress notification for a request after its response",
        level: MUST,
        requirement: Cite::One("PROG-STOP"),
        applies: Applies::All,
        source: Cite::One("progress.mdx, Implementation Notes (\"MUST stop after completion\")"),
        judge: progress::stop,
        kinds: &[],
    }
    CancelR5 = "cancel-r5" {
        title: "nothing more is sent for a cancelled request (stdio), past a grace window",
        level: MUST,
        requirement: Cite::One("CANCEL-STOP-R5-STDIO"),
        applies: Applies::Modern,
        source: Cite::One("2026-07-28 stdio.mdx, Cancellation; cancellation.mdx; REQUIREMENTS.md 10 A15"),
        judge: modern::cancel_r5,
        kinds: &[],
    }
    // -- Cancellation (cancellation.mdx), in the scripted conversation --
    CancelIgnoreInvalid = "cancel-ignore-invalid" {
        title: "a cancellation of a request already answered, or a malformed one, is ignored: no answer, and the server keeps serving",
        level: MUST,
        requirement: Cite::One("CANCEL-IGNORE-INVALID"),
        applies: Applies::All,
        source: Cite::One("cancellation.mdx, Error Handling (\"SHOULD be ignored\"), Behavior Requirements (\"MUST handle these race conditions gracefully\"); index.mdx, Notifications"),
        judge: edges::cancel_ignored,
        kinds: &[],
    }
    // -- Generated cases (property phase; tools.mdx Security Considerations) --
    PropServerSurvives = "prop-server-survives" {
        title: "no generated input (arguments, ids, methods, cursors) crashes or stalls the server",
        level: MUST,
        requirement: Cite::One("TC-VALIDATE-INPUTS"),
        applies: Applies::All,
        source: Cite::One("tools.mdx, Security Considerations (\"Servers MUST: Validate all tool inputs\")"),
        judge: property::server_survives,
        kinds: &[Crash, Stall],
        restates: true,
        live: true,
    }
    PropValidCallResult = "prop-valid-call-result" {
        title: "generated valid arguments get results valid for the schema and the tool's outputSchema",
        level: SCHEMA,
        requirement: Cite::One("TC-OUTPUTSCHEMA-CONFORM"),
        applies: Applies::All,
        source: Cite::One("schema CallToolResult; tools.mdx, Output Schema"),
        judge: property::valid_call_result,
        kinds: &[InvalidResult],
        restates: true,
    }
    PropValidCallAccepted = "prop-valid-call-accepted" {
        title: "generated valid arguments never get a protocol error",
        level: SHOULD,
        requirement: Cite::One("TC-ERR-EXECUTION"),
        applies: Applies::All,
        source: Cite::One("schema CallToolResult.isError; tools.mdx, Error Handling"),
        judge: property::valid_call_accepted,
        kinds: &[ProtocolErrorOnValid],
        restates: true,
    }
    PropInvalidCallRejected = "prop-invalid-call-rejected" {
        title: "generated arguments breaking one rule are rejected, in the revision's error class",
        level: MUST,
        requirement: Cite::One("TC-ERR-INPUT-VALIDATION"),
        applies: Applies::All,
        source: Cite::One("tools.mdx, Error Handling; Security Considerations; REQUIREMENTS.md 10 A6"),
        judge: property::invalid_call_rejected,
        kinds: &[InvalidAccepted, WrongErrorClass],
        restates: true,
    }
    PropIdRoundtrip = "prop-id-roundtrip" {
        title: "generated request ids (integers to 2^53-1, negative, zero, Unicode and empty strings) come back exactly",
        level: MUST,
        requirement: Cite::One("RPC-ID-ECHO"),
        applies: Applies::All,
        source: Cite::One("index.mdx, Responses"),
        judge: property::id_roundtrip,
        kinds: &[IdNotEchoed],
        restates: true,
    }
    PropUnknownMethod = "prop-unknown-method" {
        title: "generated unknown method names get -32601",
        level: JSONRPC,
        requirement: Cite::One("RPC-ERR-METHOD-NOT-FOUND"),
        applies: Applies::All,
        source: Cite::One("JSON-RPC 2.0, 5.1"),
        judge: property::unknown_method,
        kinds: &[UnknownMethodAnswered],
        restates: true,
    }
    PropRandomCursor = "prop-random-cursor" {
        title: "generated cursors get -32602 or a page",
        level: SHOULD,
        requirement: Cite::One("PAG-INVALID-CURSOR"),
        applies: Applies::All,
        source: Cite::One("pagination.mdx, Error Handling"),
        judge: property::random_cursor,
        kinds: &[CursorAnswered],
        restates: true,
    }
    SeqPipelined = "seq-pipelined" {
        title: "requests sent together, without waiting, are each answered once with their own id",
        level: JSONRPC,
        requirement: Cite::One("RPC-ID-ECHO"),
        applies: Applies::All,
        source: Cite::One("JSON-RPC 2.0, 5; index.mdx, Responses"),
        judge: property::pipelined,
        kinds: &[PipelineBroken],
        restates: true,
    }
    SeqCancel = "seq-cancel" {
        title: "notifications/cancelled (for an in-flight or an unknown request) is handled gracefully",
        level: MUST,
        requirement: Cite::One("CANCEL-RACE"),
        applies: Applies::All,
        source: Cite::One("cancellation.mdx, Behavior Requirements, Error Handling; REQUIREMENTS.md 10 A15"),
        judge: property::cancel,
        kinds: &[CancelMishandled],
        restates: true,
    }
    // -- Schema (schema.json) --
    SchemaServerMessages = "schema-server-messages" {
        title: "every result, error, notification and request validates against the revision's schema",
        level: SCHEMA,
        requirement: Cite::One("schema.json"),
        applies: Applies::All,
        source: Cite::One("schema.json of the negotiated revision"),
        judge: schema::server_messages,
        kinds: &[],
        restates: true,
        live: true,
    }
}
