//! What each check requires, why it matters, and how to fix a server that fails it.
//!
//! A finding names a check id and a spec section, but a server author in a hurry still has
//! to find the sentence, work out what a client loses, and guess what to change.
//! `mcp-conformance explain ID` prints this table's entry for the id: the normative text,
//! quoted from `shared/spec/<revision>/` with its MUST or SHOULD (and, where the spec is
//! open, the REQUIREMENTS.md section 10 policy), how the suite grades it in each revision,
//! what breaks for clients, and a fix naming the SDK pitfalls seen in `reports/`.
//!
//! The table has one entry per id of [`CATALOG`](crate::checks::CATALOG), in the same
//! order; the tests keep the two in step. The texts are plain text wrapped for a terminal.

/// The explanation of one check, for a server author.
#[derive(Debug)]
pub struct Explanation {
    /// What the spec requires: the normative sentence quoted with its spec file and section,
    /// the suite's policy where the spec leaves the question open, and the grading.
    pub requirement: &'static str,
    /// What breaks for clients and users when a server gets it wrong.
    pub why: &'static str,
    /// What to change in the server, with typical SDK pitfalls and a correct message.
    pub fix: &'static str,
}

/// The explanation of the check `id`, or `None` for an id the catalog does not have.
pub fn explain(id: &str) -> Option<&'static Explanation> {
    EXPLANATIONS
        .iter()
        .find(|(key, _)| *key == id)
        .map(|(_, explanation)| explanation)
}

/// Every check's explanation, keyed by check id, in catalog order.
static EXPLANATIONS: &[(&str, Explanation)] = &[
    // -- Lifecycle --
    (
        "lc-init-result",
        Explanation {
            requirement: r#"lifecycle.mdx, Initialization (every revision): "The server MUST respond with its
own capabilities and information". The schema's InitializeResult requires
protocolVersion (a string), capabilities (an object) and serverInfo (judged by
lc-init-serverinfo). This check wants initialize answered with a result, not an error
or silence, that holds the first two.
Graded: fail in every revision."#,
            why: r#"Nothing else can happen without it: the client reads the negotiated version and
the server's capabilities from this result to decide what it may call. SDK clients
validate the result and abort the connection when it is malformed."#,
            fix: r#"Answer initialize with a result such as
  {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25",
   "capabilities":{"tools":{}},"serverInfo":{"name":"my-server","version":"1.0.0"}}}
capabilities is an object even when empty ({}); declare only what you implement. A
common cause of an error here is a server that rejects a protocolVersion it does not
know instead of negotiating (see lc-version-fallback). When initialize gets no answer,
the report shows the server's last stderr lines."#,
        },
    ),
    (
        "lc-init-serverinfo",
        Explanation {
            requirement: r#"lifecycle.mdx, Initialization: "The server MUST respond with its own
capabilities and information". The schema's InitializeResult lists serverInfo as
required: an Implementation whose name and version are required strings (title is
optional from 2025-06-18; description, icons and websiteUrl from 2025-11-25).
Graded: fail in every revision; skipped when initialize did not succeed."#,
            why: r#"Clients show serverInfo in their UI and logs and use it to tell servers apart.
SDK clients validate the initialize result against the schema, so a missing
serverInfo or a numeric version can make the whole connection fail."#,
            fix: r#"Send "serverInfo": {"name": "my-server", "version": "1.2.3"}, both strings.
Pitfalls: a number for version (1.0 instead of "1.0"); the key misspelled
(server_info, serverinfo) or named clientInfo after copying a client example; a
hand-written result that leaves it out. The SDKs build it from the name and version
given to the server's constructor."#,
        },
    ),
    (
        "lc-version-echo",
        Explanation {
            requirement: r#"lifecycle.mdx, Version Negotiation (every revision): "If the server supports the
requested protocol version, it MUST respond with the same version. Otherwise, the
server MUST respond with another protocol version it supports."
The suite asks for each revision it knows. An answer equal to the request passes. A
different answer passes when a fresh session asking for that answered version gets it
echoed (the server supports it, so it was a legitimate fallback); it fails when the
server does not echo it either, that is, it answered a version it does not support.
Graded: fail in every revision."#,
            why: r#"The client speaks the version in the result from then on. A server that answers a
version it does not implement makes the client expect message shapes (content types,
result fields, error classes) that the server will not produce or accept."#,
            fix: r#"Keep one list of the versions you implement and answer from it:
  if requested in SUPPORTED: answer requested; else: answer the latest in SUPPORTED.
Do not hard-code the answered version in one place and the supported list in another,
and only list a version when the server behaves as that revision says."#,
        },
    ),
    (
        "lc-version-fallback",
        Explanation {
            requirement: r#"lifecycle.mdx, Version Negotiation: "Otherwise, the server MUST respond with
another protocol version it supports. This SHOULD be the latest version supported by
the server." That is a successful result; the client then decides ("If the client
does not support the version in the server's response, it SHOULD disconnect").
Error Handling shows an example initialization error (-32602 "Unsupported protocol
version", with data.supported and data.requested) that contradicts it;
REQUIREMENTS.md section 10 A1 settles it. The suite asks for "1900-01-01" in a
separate session.
Graded (A1): a success with a version the server supports passes; error -32602 with
data.supported is a warning; any other error, silence, "1900-01-01" echoed back, or a
version the server does not support fails."#,
            why: r#"A client that asks for a newer version than the server knows must still be able to
connect by falling back. A server that echoes the unknown version claims a revision
it has never heard of, and the client will speak it; a server that answers with an
error leaves the client to guess which version to retry with."#,
            fix: r#"Never copy params.protocolVersion into the result unchecked (a common pitfall of
hand-written servers). Answer with your latest supported version:
  -> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":
      "1900-01-01","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
  <- {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25",...}}
The TypeScript and Python SDKs already do this (they answer their latest version)."#,
        },
    ),
    (
        "lc-initialized-no-reply",
        Explanation {
            requirement: r#"index.mdx, Notifications (2025-03-26 on): "The receiver MUST NOT send a
response." 2024-11-05 messages.mdx says notifications "do not expect a response", and
JSON-RPC 2.0 section 4.1 makes it a MUST NOT: "The Server MUST NOT reply to a
Notification". The suite sends notifications/initialized and fails on any response
after it that answers none of the suite's requests (an error or result for the
notification, or any other stray response).
Graded: fail in every revision."#,
            why: r#"The client has no request to match the reply to: strict clients treat it as a
protocol error, others log noise, and a reply carrying a guessed id may even be taken
as the answer to a real pending request."#,
            fix: r#"A message without an "id" member is a notification: handle it (or ignore it when
the method is unknown) and write nothing back, not even -32601. Typical bug: a
dispatcher that answers every incoming message, e.g. an "unknown method" error for
notifications/initialized or notifications/cancelled, or {"result":{}} with "id": null.
Test for the absence of the id member, not for a null id: {"id": null, ...} is a
request in JSON-RPC terms."#,
        },
    ),
    (
        "lc-cap-tools",
        Explanation {
            requirement: r#"tools.mdx, Capabilities (every revision): "Servers that support tools MUST
declare the tools capability", e.g. "capabilities": {"tools": {"listChanged": true}}.
REQUIREMENTS.md LC-CAP-CONSISTENT and section 10 A11: the capability is declared
exactly when tools/list works; without it, tools/list should get -32601 (stated
explicitly only from 2026-07-28).
Graded: declared and working passes; tools/list succeeding without the capability
fails; the capability declared while tools/list fails fails; no capability and
-32601 passes; no capability and any other answer is a warning (A11)."#,
            why: r#"A client may skip tools/list when capabilities.tools is absent (only negotiated
capabilities may be used), so the server's tools never appear; one that declares the
capability but fails tools/list shows an error where the user expected tools."#,
            fix: r#"Declare "tools": {} (an object, not true) whenever you answer tools/list, and add
"listChanged": true only if you send notifications/tools/list_changed. The SDKs derive
or check the capability from the handlers you register; hand-written servers and
custom dispatchers are where the two drift apart. A server without tools answers
tools/list with
  {"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}"#,
        },
    ),
    (
        "lc-ping",
        Explanation {
            requirement: r#"ping.mdx, Behavior Requirements: "The receiver MUST respond promptly with an
empty response", shown as {"jsonrpc": "2.0", "id": "123", "result": {}}.
The suite pings with an integer id, a non-ASCII string id and 2^53-1, and accepts a
result object whose only member, if any, is _meta. The schema's EmptyResult is the
open Result type, so a result such as {"status": "ok"} validates against schema.json;
this check follows the prose ("empty") and fails it.
Graded: fail in every revision (an error response or no response fails too)."#,
            why: r#"Clients and proxies ping to tell a live server from a hung one: a server that
errors or never answers gets its connection dropped as stale ("the sender MAY ...
Terminate the connection"), and clients that validate the reply strictly may reject
a result that is not empty."#,
            fix: r#"Answer ping with an empty object, whatever the id type:
  -> {"jsonrpc":"2.0","id":"conformance-ping-é","method":"ping"}
  <- {"jsonrpc":"2.0","id":"conformance-ping-é","result":{}}
Not {"status":"ok"}, "pong", true or null. Do not queue ping behind slow tool calls.
The SDKs answer ping for you."#,
        },
    ),
    (
        "lc-no-undeclared-requests",
        Explanation {
            requirement: r#"lifecycle.mdx, Operation: both parties MUST (SHOULD in 2024-11-05 and
2025-03-26) "Respect the negotiated protocol version" and "Only use capabilities that
were successfully negotiated". Initialization adds: "The server SHOULD NOT send
requests other than pings and logging before receiving the initialized notification."
The suite declares no client capabilities, so any request from the server other than
ping (roots/list, sampling/createMessage, elicitation/create, tasks/...) uses one it
was not given (REQUIREMENTS.md LC-OPERATION-RESPECT). The suite answers such requests
with -32601.
Graded: warning in 2024-11-05 and 2025-03-26, fail from 2025-06-18."#,
            why: r#"A client that did not declare sampling, roots or elicitation has no handler for
them: it answers -32601 or not at all, and a server that waits for that answer (for
instance before listing its tools) hangs or fails in every such client."#,
            fix: r#"Read params.capabilities of the initialize request and send roots/list only when
"roots" is present, sampling/createMessage only with "sampling", elicitation/create
only with "elicitation". The SDKs expose what the client declared (TypeScript:
server.getClientCapabilities(); Python: session.check_client_capability(...)). Fall
back when the capability is absent (e.g. use the working directory when there are no
roots), and never block a tool call on a request the client cannot answer."#,
        },
    ),
    (
        "lc-shutdown-stdio",
        Explanation {
            requirement: r#"The legacy revisions put shutdown on the client: lifecycle.mdx, Shutdown (stdio):
"the client SHOULD initiate shutdown by: First, closing the input stream to the child
process (the server)", then SIGTERM, then SIGKILL; "The server MAY initiate shutdown
by closing its output stream to the client and exiting." The server-side SHOULD comes
from 2026-07-28 stdio.mdx, Shutdown: "Servers SHOULD exit promptly when their
standard input is closed or reads return end-of-file." The suite applies it to every
revision as a policy (REQUIREMENTS.md LC-SHUTDOWN-STDIO). It closes stdin and waits
2 s before SIGTERM.
Graded: warning in every revision."#,
            why: r#"Closing stdin is the only portable "please exit" a client has. A server that
ignores it is killed after a delay and loses whatever it had not flushed, and with a
client that does not escalate it lingers as an orphan process after the app quits."#,
            fix: r#"Treat end-of-file on stdin as shutdown: finish or cancel the work in progress,
flush stdout and exit. Pitfalls: timers and intervals that keep the Node event loop
alive (clear them or unref() them; server-everything keeps running once its demo
timers start), non-daemon threads in Python, a Rust main that awaits a background
task instead of the stdin reader. As a last resort in Node:
  process.stdin.on("end", () => process.exit(0));"#,
        },
    ),
    // -- JSON-RPC base --
    (
        "rpc-stdio-framing",
        Explanation {
            requirement: r#"transports.mdx, stdio (every revision): "Messages are delimited by newlines, and
MUST NOT contain embedded newlines." and "The server MUST NOT write anything to its
stdout that is not a valid MCP message." Logs have their own channel: "The server MAY
write UTF-8 strings to its standard error (stderr) for logging purposes". From
2025-03-26: "JSON-RPC messages MUST be UTF-8 encoded."
The check fails on any stdout line that is not UTF-8, not JSON, or JSON but not a
JSON-RPC message, and on a line longer than --max-line (16 MiB by default; that cap
is the suite's, the spec sets none).
Graded: fail in every revision."#,
            why: r#"A client reads stdout line by line and parses each line as one message. A log
line, a banner or a pretty-printed (multi-line) message is unparseable: clients drop
it, report a parse error or close the connection, and a reply split over several
lines is lost, so its request times out."#,
            fix: r#"Write each message as one line of compact JSON followed by "\n" (JSON.stringify(msg)
without an indent argument, json.dumps(msg) without indent, serde_json::to_string).
Send every log to stderr: in Node console.log writes to stdout, use console.error; in
Python print() writes to stdout, use logging (its default handler writes to stderr)
or print(..., file=sys.stderr); in Rust use eprintln!, and give tracing_subscriber
.with_writer(std::io::stderr) (it writes to stdout by default). Libraries that print
banners or progress bars at startup count too. Write UTF-8 (Python on Windows may
default to a legacy code page when stdout is a pipe)."#,
        },
    ),
    (
        "rpc-jsonrpc-version",
        Explanation {
            requirement: r#"index.mdx, Messages (messages.mdx in 2024-11-05): "All messages between MCP
clients and servers MUST follow the JSON-RPC 2.0 specification", whose request and
response objects carry jsonrpc, "A String specifying the version of the JSON-RPC
protocol. MUST be exactly "2.0"." Every revision's schema.json has
"jsonrpc": {"const": "2.0"} on each JSONRPC message type.
Graded: fail in every revision, for every JSON object the server writes."#,
            why: r#"Clients validate the envelope first: a message without "jsonrpc": "2.0" (or with
2.0 as a number, or "1.0") fails that validation and is typically discarded, leaving
the request it answers pending until it times out."#,
            fix: r#"Add "jsonrpc": "2.0" (a string) to every response and notification you build,
including error responses and notifications written by hand outside the SDK's
serializer, e.g.
  {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#,
        },
    ),
    (
        "rpc-resp-exclusive",
        Explanation {
            requirement: r#"2024-11-05 messages.mdx and 2025-03-26 / 2025-06-18 index.mdx, Responses: "Either
a result or an error MUST be set. A response MUST NOT set both." 2025-11-25
index.mdx splits the rule into two response types ("Result responses MUST include a
result field", "Error responses MUST include an error field"), and JSON-RPC 2.0
section 5 still says "Either the result member or error member MUST be included, but
both members MUST NOT be included." A member present with the value null counts as
present.
Graded: fail in every revision."#,
            why: r#"A client decides success or failure by which member is there. With both, it may
report success and drop the error (or the reverse); with neither, it cannot classify
the message, and the request stays pending until it times out."#,
            fix: r#"Serialize exactly one of the two. Pitfalls: a response struct whose optional
fields serialize as null ("result": null next to "error"); in Rust add
#[serde(skip_serializing_if = "Option::is_none")], in Go use omitempty. In
JavaScript {result: undefined} serializes with no result at all, so a handler that
returns nothing must return {} instead. A successful call with nothing to say answers
"result": {}."#,
        },
    ),
    (
        "rpc-id-echo",
        Explanation {
            requirement: r#"index.mdx, Responses (messages.mdx in 2024-11-05): "Responses MUST include the
same ID as the request they correspond to." (2025-11-25: "Result responses MUST
include the same ID as the request they correspond to", and error responses too,
"except in error cases where the ID could not be read due a malformed request".)
REQUIREMENTS.md RPC-ID-ECHO policy: same JSON type and same value, so the string "5"
is not the integer 5. The suite sends integer ids, the string "conformance-ping-é"
and the integer 9007199254740991 (2^53-1).
Graded: fail in every revision."#,
            why: r#"A client correlates responses by id: a string "5" for request 5, or
9007199254740992 for 9007199254740991, matches nothing, so the request stays pending
until it times out and the reply is discarded as unsolicited."#,
            fix: r#"Keep the id as the JSON value you received and write it back unchanged: in Rust a
serde_json::Value or an enum of i64 and String, not u32 or f64; never turn it into a
string key and back; never re-encode or normalize a string id (é comes back as é, or
as the escape \u00e9, which parses to the same string). 5.0 for 5 is a different
form and fails too."#,
        },
    ),
    (
        "rpc-error-shape",
        Explanation {
            requirement: r#"index.mdx, Responses (messages.mdx in 2024-11-05): "Error codes MUST be
integers." From 2025-03-26 errors "MUST include an error code and message at minimum"
(2025-11-25: "Error responses MUST include an error field with a code and message").
The schema's error object has code of type integer and message of type string ("The
message SHOULD be limited to a concise single sentence"); data is optional and may
be anything.
Graded: fail in every revision; skipped when the server sent no error."#,
            why: r#"Clients branch on the code (-32601: not supported, -32602: bad parameters). A
string code such as "INVALID_PARAMS" or a missing message fails the client's
validation, and the user sees a generic failure instead of the server's explanation."#,
            fix: r#"Answer with an integer code and a string message:
  {"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Unknown tool: foo"}}
The code is a JSON number without fraction or exponent (not "-32602", not -32602.0);
put details (validation errors, a stack trace) in "data". Custom exception
classes that carry a string code, or that serialize the whole exception object as the
error, are the usual cause."#,
        },
    ),
    (
        "rpc-err-parse",
        Explanation {
            requirement: r#"JSON-RPC 2.0 section 5.1: code -32700, "Parse error: Invalid JSON was received by
the server. An error occurred on the server while parsing the JSON text." Every MCP
revision says messages "MUST follow the JSON-RPC 2.0 specification". The id: JSON-RPC
wants null when it could not be read; the 2024-11-05 to 2025-06-18 schemas require an
id and forbid null; 2025-11-25 allows leaving it out. REQUIREMENTS.md section 10 A2
accepts an id of null or no id, and makes silence a warning on stdio.
The suite writes the line {"jsonrpc": "2.0", "method": "ping", "id":  (cut short),
and afterwards a ping, which must still be answered.
Graded: -32700 passes; silence is a warning (A2); another code, a result, exiting, or
no longer answering ping after the malformed probes fails."#,
            why: r#"A client that wrote a broken line (a bug, a truncated write) learns nothing from
silence and waits for its timeout; a server that dies on bad input takes every
pending and later request with it."#,
            fix: r#"When a line does not parse, write
  {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}
and keep reading. The TypeScript and Python SDKs drop such lines silently (see
reports/README.md), which is why most SDK-based servers get this warning; the fix
belongs in the SDK's stdio transport, not in your handlers. Never let a parse error
escape the read loop."#,
        },
    ),
    (
        "rpc-err-invalid-request",
        Explanation {
            requirement: r#"JSON-RPC 2.0 section 5.1: code -32600, "Invalid Request: The JSON sent is not a
valid Request object." A request object without "method" is one. REQUIREMENTS.md
section 10 A2: the id may come back as sent (it is readable here), as null, or not at
all; silence is a warning on stdio.
The suite writes {"jsonrpc":"2.0","id":900001,"params":{}}.
Graded: -32600 passes; silence is a warning (A2); another code, a result or exiting
fails."#,
            why: r#"Without an error the client's broken request (usually a bug on the client side)
hangs until its timeout instead of failing fast with a message that points at the
bug."#,
            fix: r#"Check the envelope before dispatching: "jsonrpc" must be "2.0" and "method" a
string. Answer, echoing the id when it is readable:
  {"jsonrpc":"2.0","id":900001,"error":{"code":-32600,"message":"Invalid Request"}}
The TypeScript and Python SDKs drop such messages without an answer (a warning); the
fix belongs in the transport's message parsing."#,
        },
    ),
    (
        "rpc-err-method-not-found",
        Explanation {
            requirement: r#"JSON-RPC 2.0 section 5.1: code -32601, "Method not found: The method does not
exist / is not available." MCP uses the same code for methods of a capability the
server did not declare (REQUIREMENTS.md RPC-ERR-METHOD-NOT-FOUND).
The suite calls "conformance/none" with params {}.
Graded: fail in every revision unless the answer is -32601 (silence fails too)."#,
            why: r#"-32601 is how a client learns that a method is simply not there and falls back;
another code, a success or silence makes it treat a missing feature as a server
failure, or wait for a timeout."#,
            fix: r#"Route every unknown method to
  {"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found"}}
Pitfalls: a catch-all handler that returns {} or throws an exception the framework
turns into -32603; routing by prefix, so that an unknown "tools/..." method lands in
the tools handler and gets -32602."#,
        },
    ),
    (
        "rpc-batch",
        Explanation {
            requirement: r#"2025-03-26 index.mdx, Batching: "MCP implementations MAY support sending JSON-RPC
batches, but MUST support receiving JSON-RPC batches." 2025-03-26 transports.mdx,
stdio: messages may be "a JSON-RPC batch containing one or more requests and/or
notifications". JSON-RPC 2.0 section 6: "The Server should respond with an Array
containing the corresponding Response objects, after all of the batch Request objects
have been processed." 2025-06-18 removed batching ("Remove support for JSON-RPC
batching"), so the check applies only when 2025-03-26 is negotiated.
The suite sends two pings, ids "batch-1" and "batch-2", as one array on one line.
Graded: one array of both responses passes; both answered as separate messages is a
warning (JSON-RPC says "should"); no answer, an error or a partial answer fails."#,
            why: r#"A server that answers initialize with "2025-03-26" claims that revision, and a
2025-03-26 client may send batches; a server that ignores them leaves every request
in the batch pending until it times out."#,
            fix: r#"If a line parses to an array: an empty array gets a single -32600 error; otherwise
handle each element as a message, collect the responses to its requests
(notifications get none) and write them as one JSON array on one line, or nothing if
there are none. If you cannot support batches, do not negotiate 2025-03-26: when a
client asks for it, answer another version you support (e.g. 2025-06-18), which
version negotiation allows. The current TypeScript and Python SDKs ignore batches
while still accepting 2025-03-26 (see reports/README.md), so SDK-based servers fail
this check."#,
        },
    ),
    (
        "rpc-response-required",
        Explanation {
            requirement: r#"JSON-RPC 2.0 section 5 (Response object): "When a rpc call is made, the Server
MUST reply with a Response, except for in the case of Notifications." Every MCP
revision requires JSON-RPC 2.0. The check fails when a request gets no response
within --timeout (10 s by default) or the server exits mid-conversation. The
malformed probes of rpc-err-parse and rpc-err-invalid-request are exempt (A2 decides
those).
Graded: fail in every revision; a warning when the only unanswered requests are
tools/call that timed out with the server still running (a tool may legitimately run
longer than --timeout)."#,
            why: r#"The client waits for every request until its own timeout: a server that swallows
a request, deadlocks or crashes leaves the user looking at a spinner and then an
error, and once the server is dead every later request fails too."#,
            fix: r#"Make every path of every handler end in a result or an error, exceptions
included: wrap handlers so that a thrown error becomes -32603 with a message. Look at
the stderr lines in the report for a crash (an unhandled promise rejection, a Python
traceback, a Rust panic). Do not run handlers on the thread that reads stdin, so a
slow tool cannot delay a ping. For a tool that really takes long, raise --timeout or
--deny-tool it."#,
        },
    ),
    // -- Tools: the listing --
    (
        "tool-inputschema-type",
        Explanation {
            requirement: r#"Schema Tool.inputSchema (every revision): required, "A JSON Schema object
defining the expected parameters for the tool", whose "type" is the constant
"object". 2025-11-25 tools.mdx, Tool: inputSchema "MUST be a valid JSON Schema object
(not null)"; for tools with no parameters it recommends
{ "type": "object", "additionalProperties": false }.
The check fails a tool whose inputSchema is missing, null, not an object, or has a
"type" other than the string "object" (a missing type, or ["object"], fails too).
Graded: fail in every revision; skipped without the tools capability."#,
            why: r#"Clients hand inputSchema to the model as the function's parameter schema. SDK
clients validate the tools/list result and may reject the whole list for one bad
tool, and LLM function-calling APIs expect an object schema, so a tool without one is
dropped or breaks the request that offers it."#,
            fix: r#"Give every tool an object schema, even a tool without parameters:
  "inputSchema": {"type": "object", "additionalProperties": false}
Pitfalls: leaving it out, or null, for tools without arguments; a schema generated
from a union or a reference whose root is {"anyOf": [...]} or {"$ref": ...} without
"type": "object"; ["object", "null"] as the type. Wrap such schemas in
{"type": "object", "properties": {...}}."#,
        },
    ),
    (
        "tool-schema-dialect",
        Explanation {
            requirement: r#"2025-11-25 index.mdx, JSON Schema Usage: a schema without "$schema" "defaults to
JSON Schema 2020-12"; "Schemas MAY include a $schema field to specify a different
dialect"; and under Schema Validation, "Schemas MUST be valid according to their
declared or default dialect". 2025-11-25 tools.mdx applies this to inputSchema and
outputSchema. Before 2025-11-25 no dialect is specified (REQUIREMENTS.md section 10
A8): the suite assumes draft-07, the dialect of those revisions' own schema.json,
unless "$schema" says otherwise.
The check validates each schema against its dialect's meta-schema (draft-04, -06,
-07, 2019-09 or 2020-12); a "$schema" the suite does not know is not judged.
Graded: fail from 2025-11-25; a warning before (A8)."#,
            why: r#"Clients compile inputSchema to validate arguments and build forms, and pass it to
the model. A schema that is not valid JSON Schema fails to compile, so the client may
drop the tool or call it without any argument validation."#,
            fix: r#"Check your schemas against the meta-schema in a test (Python jsonschema:
Draft202012Validator.check_schema(schema); Node: ajv, Ajv2020 for 2020-12, compiles
only valid schemas). Common mistakes: "required": true on a property (draft-03 style;
"required" is an array of names on the object); "type": "int" or "float" (use
"integer" or "number"); "exclusiveMinimum": true (a boolean in draft-04, a number from
draft-06 on); "properties" given as an array. If your generator writes draft-07, say
so: "$schema": "http://json-schema.org/draft-07/schema#"."#,
        },
    ),
    (
        "tool-outputschema-object",
        Explanation {
            requirement: r#"Schema Tool.outputSchema (2025-06-18 and 2025-11-25): optional, "An optional JSON
Schema object defining the structure of the tool's output returned in the
structuredContent field of a CallToolResult", whose "type" is the constant "object".
tools.mdx, Structured Content: "Structured content is returned as a JSON object in
the structuredContent field of a result." (2026-07-28 allows any JSON Schema; the
suite does not test that revision.)
Graded: fail from 2025-06-18; not applicable before (outputSchema did not exist)."#,
            why: r#"structuredContent is a JSON object in these revisions, so a schema with an array
or scalar root describes output that no conforming result can carry, and clients
that validate the tool list against the schema reject it."#,
            fix: r#"Wrap non-object output in an object and describe that object:
  "outputSchema": {"type": "object", "properties": {"items": {"type": "array"}},
                   "required": ["items"]}
and return {"items": [...]} as structuredContent. The Python SDK does this for a tool
that returns a non-object value: it wraps it as {"result": value}."#,
        },
    ),
    // -- Tools: names --
    (
        "tool-name-unique",
        Explanation {
            requirement: r#"tools.mdx (every revision): "Each tool is uniquely identified by a name";
2025-11-25 tools.mdx, Tool Names: "Tool names SHOULD be unique within a server." The
spec's word is SHOULD (descriptive before 2025-11-25), but REQUIREMENTS.md section 10
A14 reports duplicates as a failure, because a client cannot tell the tools apart.
The check looks across all pages of one tools/list walk.
Graded: fail in every revision."#,
            why: r#"tools/call names the tool and nothing else: with two tools of one name the
client cannot say which it means, a client that indexes tools by name keeps only one
of them, and the model may see a description that does not match what runs."#,
            fix: r#"Make names unique when tools are registered (fail fast on a duplicate). Typical
causes: the same module registered twice; a proxy or aggregator merging several
backends (prefix each backend's tools, e.g. github_create_issue); off-by-one
pagination that repeats the last tool of a page at the start of the next."#,
        },
    ),
    (
        "tool-name-length",
        Explanation {
            requirement: r#"2025-11-25 tools.mdx, Tool Names: "Tool names SHOULD be between 1 and 128
characters in length (inclusive)." The suite counts Unicode characters.
Graded: warning from 2025-11-25 (the guidance did not exist before)."#,
            why: r#"Clients pass tool names to LLM function-calling APIs, which have their own,
often shorter, limits; an empty name cannot be called or displayed, and an over-long
one gets truncated (and may then collide) or the tool is dropped."#,
            fix: r#"Keep names short and descriptive (get_weather, not a sentence); put the
explanation in "description" and a display name in "title" (2025-06-18 on). Names
generated from OpenAPI operation ids or file paths need shortening and
de-duplicating."#,
        },
    ),
    (
        "tool-name-charset",
        Explanation {
            requirement: r#"2025-11-25 tools.mdx, Tool Names: "The following SHOULD be the only allowed
characters: uppercase and lowercase ASCII letters (A-Z, a-z), digits (0-9),
underscore (_), hyphen (-), and dot (.)" and "Tool names SHOULD NOT contain spaces,
commas, or other special characters."
Graded: warning from 2025-11-25."#,
            why: r#"Clients use the name as a function name in LLM APIs and as a key in configuration
and permission rules; spaces, slashes, colons or non-ASCII letters are rejected by
such APIs or rewritten by the client, and a rewritten name may no longer match when
the model calls it."#,
            fix: r#"Use only A-Z a-z 0-9 _ - . (e.g. get_weather, github.create_issue). Replace spaces
and separators such as "/" or ":" (common in proxies that prefix a backend name) with
"_" or ".", transliterate or drop non-ASCII letters, and keep a human-readable
"title" for display."#,
        },
    ),
    (
        "tool-name-case",
        Explanation {
            requirement: r#"2025-11-25 tools.mdx, Tool Names: "Tool names SHOULD be considered
case-sensitive." Note what this does not say: it makes getUser and getuser two
different names, and no sentence of the spec forbids tools whose names differ only in
case (REQUIREMENTS.md TOOL-NAME-CASE calls such tools distinct). The check is the
suite's caution rather than a spec rule: it warns because clients that compare names
without regard to case cannot tell such tools apart.
Graded: warning from 2025-11-25."#,
            why: r#"A client, gateway or permission rule that lowercases names maps both tools to
one, so a call may run the other tool, or an allow-list entry may cover both."#,
            fix: r#"Give tools names that differ by more than case (get_user and get_user_by_email,
not getUser and getuser). If both must exist, this warning is expected; the spec
does not forbid it."#,
        },
    ),
    // -- Tools: pagination --
    (
        "pag-terminates",
        Explanation {
            requirement: r#"pagination.mdx, Response Format: a response carries "An optional nextCursor
field if more results exist"; the schema says of nextCursor "If present, there may be
more results available"; clients SHOULD "Treat a missing nextCursor as the end of
results". That a walk must end is a suite policy (REQUIREMENTS.md PAG-TERMINATES):
the suite follows nextCursor, sending each cursor back verbatim, and stops at a
repeated cursor, a cycle or 1000 pages.
Graded: warning (POLICY) in every revision."#,
            why: r#"A client lists tools by following nextCursor until it is absent; a cursor that
never goes away makes it loop forever (or up to its own page cap), so tools/list
never completes and the server's tools never show up."#,
            fix: r#"Leave nextCursor out on the last page (not null, not "", not the same cursor
again), and make each cursor point just past the page it ends. Pitfalls: always
setting nextCursor; computing the next offset from the page size instead of the
number of items returned; a cursor that encodes the current page instead of the
next one."#,
        },
    ),
    (
        "pag-invalid-cursor",
        Explanation {
            requirement: r#"pagination.mdx, Error Handling (every revision): "Invalid cursors SHOULD result
in an error with code -32602 (Invalid params)." Implementation Guidelines: servers
SHOULD "Handle invalid cursors gracefully".
The suite sends tools/list with the cursor "conformance-invalid-cursor-é".
Graded: warning in every revision when the answer is another error or a page."#,
            why: r#"A cursor the server no longer recognises (after a restart, or from an older
listing) answered with a page makes the client believe it continued where it left
off, so it merges the wrong pages; -32602 tells it to start the listing over."#,
            fix: r#"Decode and check the cursor (e.g. base64 of an offset plus a version or an HMAC)
and answer, when it does not decode:
  {"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid cursor"}}
The high-level servers of both SDKs ignore the cursor and return the full list
(server-everything for TypeScript, MCPServer for Python; see reports/), a warning; a
tools/list handler on the low-level Server API can check it."#,
        },
    ),
    (
        "pag-stable",
        Explanation {
            requirement: r#"pagination.mdx, Implementation Guidelines (every revision): servers SHOULD
"Provide stable cursors". The suite checks a consequence (REQUIREMENTS.md PAG-STABLE
policy): two complete walks of tools/list with nothing in between list the same set
of tool names. A server whose tool set really changes between the two walks warns
here too.
Graded: warning in every revision."#,
            why: r#"Clients page through the list and cache it; if pages are cut from an unordered or
changing collection, a walk skips some tools and repeats others, so the model never
sees some of the server's tools."#,
            fix: r#"Page over a deterministic order (sort by name, or keep registration order) and
let the cursor name a position in that order. Pitfall: rebuilding the list per
request from a Rust HashMap (each new map iterates in its own random order), so
offset cursors land on different tools each time. If the tool set does change,
declare tools.listChanged and send notifications/tools/list_changed."#,
        },
    ),
    // -- Tools: calling --
    (
        "tc-content-types",
        Explanation {
            requirement: r#"Schema CallToolResult.content of the negotiated revision: 2024-11-05 allows
text, image and resource; 2025-03-26 adds audio; 2025-06-18 and 2025-11-25 add
resource_link. A block of another type fails the schema, and lifecycle.mdx,
Operation says to "Respect the negotiated protocol version" (REQUIREMENTS.md
TC-CONTENT-VERSION-GATE).
Graded: fail in every revision."#,
            why: r#"A client speaking an older revision has no code for newer block types: a
resource_link sent to a 2024-11-05 client is dropped or fails the client's result
validation, so the model never sees that part of the answer. Made-up types ("json",
"markdown", "error") are lost in every client."#,
            fix: r#"Choose content by the version negotiated at initialize: before 2025-06-18 send a
link as text or as an embedded resource; for 2024-11-05 send audio as an embedded
resource (blob plus mimeType) or describe it in text. JSON goes in a "text" block
(and in structuredContent from 2025-06-18). server-everything (TypeScript) sends
resource_link in every revision and fails this check in 2024-11-05 and 2025-03-26."#,
        },
    ),
    (
        "tc-content-base64",
        Explanation {
            requirement: r#"Schema ImageContent and AudioContent: data is "The base64-encoded image data"
(audio data) with "format": "byte", and mimeType is required; BlobResourceContents
has blob, "A base64-encoded string representing the binary data of the item" (its
mimeType is optional). JSON Schema validators treat "format" as an annotation by
default, so whether the data decodes is checked by the suite itself (REQUIREMENTS.md
TC-CONTENT-IMAGE policy): standard base64 alphabet, padding optional.
Graded: fail in every revision; skipped when no call returned image, audio or blob
content."#,
            why: r#"Clients decode the data to show the image or play the audio, or pass it to a
model API that rejects undecodable input; without mimeType they cannot tell PNG from
JPEG or WAV from MP3."#,
            fix: r#"Encode the raw bytes with the standard alphabet and put nothing else in the
string:
  {"type": "image", "data": "iVBORw0KGgo...", "mimeType": "image/png"}
Pitfalls: a data URL ("data:image/png;base64,...") in data; Python's
base64.encodebytes, which inserts a newline every 76 characters (use
base64.b64encode(raw).decode("ascii")); the URL-safe alphabet (- and _); hex; a file
path or URL instead of the bytes."#,
        },
    ),
    (
        "tc-error-explained",
        Explanation {
            requirement: r#"No MUST or SHOULD in the spec governs the text of an error result; the check rests
on what isError is for. Schema CallToolResult: errors that originate from the tool
SHOULD be reported in the result with isError true, "Otherwise, the LLM would not be
able to see that an error occurred and self-correct." 2025-11-25 tools.mdx, Error
Handling: "Tool Execution Errors contain actionable feedback that language models
can use to self-correct and retry with adjusted parameters."
The check warns on an isError: true result without a non-blank text block.
Graded: warning (SHOULD level, requirement TC-ERR-EXECUTION) in every revision."#,
            why: r#"The model reads the content to decide what to do next: an error without text only
says that something failed, so the model retries blindly or gives up, and the user
gets no reason either."#,
            fix: r#"Say what went wrong and, when you can, how to make the call succeed:
  {"content": [{"type": "text", "text": "Invalid departure date: must be in the
   future. Current date is 08/08/2025."}], "isError": true}
Pitfalls: catching an exception and returning isError with empty content, or with
only an image or a resource; an exception whose message is empty."#,
        },
    ),
    (
        "tc-err-execution",
        Explanation {
            requirement: r#"Schema CallToolResult (the isError description from 2025-06-18, the type's
description before): "Any errors that originate from the tool SHOULD be reported
inside the result object, with isError set to true, not as an MCP protocol-level
error response." tools.mdx, Error Handling lists "API failures" and "Business logic
errors" (from 2025-11-25 also "Input validation errors") as tool execution errors.
The suite calls each tool with minimal arguments valid for its inputSchema and warns
when the answer is a JSON-RPC error. It cannot tell a tool's error from a server
fault (-32603), so read the message.
Graded: warning in every revision."#,
            why: r#"A JSON-RPC error may never reach the model (2025-11-25: clients "SHOULD provide
tool execution errors to language models" but only "MAY provide protocol errors"),
so the model never learns why the call failed and cannot correct it."#,
            fix: r#"Catch failures inside the tool and return them as a result:
  {"content": [{"type": "text", "text": "GitHub API returned 404 for foo/bar"}],
   "isError": true}
The SDKs' high-level servers (TypeScript McpServer, Python MCPServer) turn an
exception thrown in a tool into such a result; hand-written dispatchers often map it
to -32603 instead. Keep JSON-RPC errors for unknown tools, malformed requests and
faults of the server itself."#,
        },
    ),
    (
        "tc-outputschema-presence",
        Explanation {
            requirement: r#"tools.mdx, Output Schema (2025-06-18 on): "If an output schema is provided:
Servers MUST provide structured results that conform to this schema." Whether an
error result must carry one is unspecified; REQUIREMENTS.md section 10 A7 exempts
isError: true results. The check fails a non-error result of a tool with an
outputSchema when it has no structuredContent.
Graded: fail from 2025-06-18."#,
            why: r#"A client that read the outputSchema expects structuredContent and uses it as
typed data; when it is missing, the client's validation fails (SDK clients check
this) and the call's result is lost."#,
            fix: r#"Return the data typed and as text:
  {"content": [{"type": "text", "text": "{\"temperature\": 22.5}"}],
   "structuredContent": {"temperature": 22.5}}
Pitfalls: a tool that declares an outputSchema (often generated from a return type)
but returns a plain string; a code path (an empty result, a cache hit) that skips the
structured part. If the tool cannot produce the object, return isError: true."#,
        },
    ),
    (
        "tc-outputschema-conform",
        Explanation {
            requirement: r#"tools.mdx, Output Schema (2025-06-18 on): "Servers MUST provide structured
results that conform to this schema." and "Clients SHOULD validate structured results
against this schema." The suite validates structuredContent against the tool's
outputSchema in its declared dialect, or the revision's default (2020-12 from
2025-11-25, draft-07 before). isError: true results are exempt (A7).
Graded: fail from 2025-06-18."#,
            why: r#"Clients are told to validate, so a result that breaks the tool's own schema is
rejected by exactly the clients that take outputSchema seriously, and code generated
from the schema reads missing or mistyped fields."#,
            fix: r#"Generate the schema and the value from one type (a pydantic model, a zod schema, a
Rust struct with schemars) so they cannot drift, and validate structuredContent
against the schema in your tests. Usual mismatches: a required field left out; a
number sent as a string ("22.5"); null for a field typed "string" (use
["string", "null"]); an extra field under "additionalProperties": false."#,
        },
    ),
    (
        "tc-structured-text-mirror",
        Explanation {
            requirement: r#"tools.mdx, Structured Content (2025-06-18 on): "For backwards compatibility, a
tool that returns structured content SHOULD also return the serialized JSON in a
TextContent block." REQUIREMENTS.md section 10 A13: "serialized JSON" is compared as
parsed JSON, not as a string, so key order and whitespace do not matter.
Graded: warning from 2025-06-18."#,
            why: r#"Clients that predate structuredContent, or that give the model only content, see
just the text blocks; if none holds the data, the model gets a summary or nothing
instead of the result."#,
            fix: r#"Add a text block with the same value: JSON.stringify(structured) or
json.dumps(structured). Pitfall seen with the Python SDK (reports/python-sdk.md): a
tool returning a non-object value gets structuredContent {"result": 2} but the text
block "2", which is not the same JSON; return an object (or a model) yourself so the
two agree."#,
        },
    ),
    // -- Tools: error classes --
    (
        "tc-err-unknown-tool",
        Explanation {
            requirement: r#"tools.mdx, Error Handling (every revision) lists "Unknown tools" under "Protocol
Errors: Standard JSON-RPC errors", and every revision's example is
{"code": -32602, "message": "Unknown tool: invalid_tool_name"}. The schema's isError
note adds that "any errors in finding the tool ... should be reported as an MCP error
response". No MUST keyword is involved; the suite grades by REQUIREMENTS.md section 10
A10 and its README. The suite calls "conformance_no_such_tool_7f3a".
Graded: -32602 passes; another JSON-RPC error code is a warning (A10); an isError
result is a warning (widely deployed SDKs answer this way); a success fails."#,
            why: r#"As an isError result, "this tool does not exist" (the client's tool list is stale:
list again) looks like "the tool ran and failed"; a success for a tool that does not
exist makes the model believe an action happened."#,
            fix: r#"Look the name up before dispatching and answer
  {"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: foo"}}
The SDKs' high-level servers return an isError result instead (server-everything on
the TypeScript SDK: "MCP error -32602: Tool ... not found"; MCPServer on the Python
SDK: "Unknown tool: ..."); with them, check the name in your own tools/call handler
or middleware, as mcp-server-time does (see reports/)."#,
        },
    ),
    (
        "tc-err-malformed",
        Explanation {
            requirement: r#"2025-11-25 tools.mdx, Error Handling lists among Protocol Errors "Malformed
requests (requests that fail to satisfy CallToolRequest schema)"; the schema's
CallToolRequest params require "name", a string. Earlier revisions do not name this
case; the suite applies the same rule to every revision (REQUIREMENTS.md
TC-ERR-MALFORMED). It sends tools/call with params {"arguments": {}} and with
{"name": 42, "arguments": {}}.
Graded: -32602 or -32600 passes; another error code is a warning; any result, an
isError result included, fails."#,
            why: r#"A request without a usable name cannot be executed, and a result tells the client
that something ran. The right error lets the client (usually a bug in its own
serialization) fail fast with a clear message."#,
            fix: r#"Validate params before looking up the tool; if "name" is missing or not a string:
  {"jsonrpc":"2.0","id":4,"error":{"code":-32602,
   "message":"Invalid params: name must be a string"}}
server-everything (TypeScript) answers -32603 with a multi-line validation dump (a
warning): map request validation failures to -32602 and keep the message to one
sentence, with details in "data"."#,
        },
    ),
    (
        "tc-err-input-validation",
        Explanation {
            requirement: r#"tools.mdx, Security Considerations (every revision): "Servers MUST: Validate all
tool inputs". How to report a failure changed: 2024-11-05 to 2025-06-18 list "Invalid
arguments" under protocol errors and "Invalid input data" under tool execution
errors; 2025-11-25 lists "Input validation errors (e.g., date in wrong format, value
out of range)" under Tool Execution Errors, and its changelog says they "should be
returned as Tool Execution Errors rather than Protocol Errors".
The suite calls tools with a required property left out, and with a scalar property
given an object. Graded by REQUIREMENTS.md section 10 A6: a success (no isError)
fails in every revision; an isError result passes in every revision; -32602 passes
before 2025-11-25 and is a warning from it; another error code is a warning."#,
            why: r#"A tool that runs with arguments that break its own schema acts on garbage (a
missing path, an object where a number was expected): at best a confusing result, at
worst an action with defaults nobody chose. An isError result with the reason lets
the model correct the call, and from 2025-11-25 clients expect that form."#,
            fix: r#"Validate the arguments against the inputSchema before running the tool, and
return a failure as a result:
  {"content": [{"type": "text", "text": "Missing required argument \"city\""}],
   "isError": true}
The SDKs' high-level servers validate for you (zod in TypeScript, pydantic in Python)
and answer with isError; handlers on low-level APIs, or code that reads arguments
with defaults (args.get("city", "")), are where validation goes missing."#,
        },
    ),
    // -- Tools: list_changed --
    (
        "lcn-shape",
        Explanation {
            requirement: r#"tools.mdx, List Changed Notification: "When the list of available tools changes,
servers that declared the listChanged capability SHOULD send a notification", shown
as {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}. Schema
ToolListChangedNotification: params is optional and, when present, an object (with
an optional _meta); index.mdx: "Notifications MUST NOT include an ID."
The check fails a list_changed message that has an "id" or whose params is not an
object.
Graded: fail in every revision; skipped when the server sent none."#,
            why: r#"With an id it is a request: the client answers it (perhaps with -32601) instead
of refreshing its tool list; params that is not an object fails schema validation
and the notification is dropped. Either way the client keeps showing stale tools."#,
            fix: r#"Send exactly
  {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}
(optionally with "params": {} or {"_meta": {...}}). Pitfalls: sending it through the
code path for requests, which adds an id and waits for a reply; "params": null or []."#,
        },
    ),
    (
        "lcn-not-undeclared",
        Explanation {
            requirement: r#"lifecycle.mdx, Operation: "Only use capabilities that were successfully
negotiated" (MUST from 2025-06-18, SHOULD before). tools.mdx, Capabilities:
"listChanged indicates whether the server will emit notifications when the list of
available tools changes." So a server without "tools": {"listChanged": true} should
not send notifications/tools/list_changed: a rule derived by REQUIREMENTS.md
LCN-NOT-UNDECLARED (the schema itself says the notification "may be issued by servers
without any previous subscription from the client").
Graded (section 10 A12): warning in 2024-11-05 and 2025-03-26, fail from 2025-06-18."#,
            why: r#"A client decides from listChanged whether to watch for updates or to re-list on
its own; a notification from a server that said it would send none may be ignored or
treated as a protocol violation, and the user keeps seeing stale tools."#,
            fix: r#"If the server ever sends list_changed, declare it:
  "capabilities": {"tools": {"listChanged": true}}
and otherwise do not send it. Pitfall: calling sendToolListChanged() (TypeScript) or
send_tool_list_changed() (Python) when tools are registered at startup or after
connecting, while the capabilities are written by hand without listChanged."#,
        },
    ),
    // -- Generated cases (property phase) --
    (
        "prop-server-survives",
        Explanation {
            requirement: r#"tools.mdx, Security Considerations (every revision): "Servers MUST: Validate all
tool inputs". REQUIREMENTS.md TC-VALIDATE-INPUTS makes it the fuzzing target:
arbitrary input must get a result or an error, never a crash or a hang. In the
property phase the suite sends generated tool arguments (valid and invalid), request
ids, unknown method names and cursors, one case at a time, each followed by a ping; a
case after which the server exits, or after which neither the case nor the ping is
answered, is a finding. A tool call that outlasts --timeout while ping is still
answered counts as slow, not as a failure.
Graded: fail in every revision. Each failure is shrunk to a minimal case, confirmed
in a fresh process, and can be repeated with mcp-conformance replay."#,
            why: r#"One bad input, from a model that invents arguments or from a buggy client, takes
the whole server down: every pending request fails and the client has to restart the
process, usually without telling the user why."#,
            fix: r#"Replay the minimal case from the report and read the server's stderr for the
panic, traceback or unhandled rejection. Validate arguments before using them, and
catch everything a tool can throw at the handler boundary, turning it into an isError
result (or -32603 for a fault of the server itself). Typical crashes: reading a
property of a missing argument, unwrap() on a missing field in Rust, unbounded
recursion on deeply nested input, an unhandled promise rejection in Node (which ends
the process), a huge input that blocks the event loop."#,
        },
    ),
    (
        "prop-valid-call-result",
        Explanation {
            requirement: r#"Schema CallToolResult of the negotiated revision, and tools.mdx, Output Schema
(2025-06-18 on): "Servers MUST provide structured results that conform to this
schema." The suite calls each callable tool with arguments generated to satisfy its
inputSchema (each instance is validated before it is sent) and fails when the result
breaks the revision's CallToolResult schema or, for a non-error result, when
structuredContent does not conform to the tool's outputSchema (isError results are
exempt, A7).
Graded: fail in every revision."#,
            why: r#"Clients validate results against the schema and the outputSchema. A result that
breaks them only for some inputs fails exactly when a model passes an unusual but
valid argument, which manual testing rarely tries."#,
            fix: r#"Replay the minimal case to see which input produces the bad result. Usual causes:
a branch for edge values (empty strings, zero, negative numbers, Unicode, empty
arrays) that returns another shape, e.g. structuredContent missing a required field
or holding null, content left out, or a number serialized as a string. See
tc-outputschema-conform and schema-server-messages for the same errors on the
scripted call."#,
        },
    ),
    (
        "prop-valid-call-accepted",
        Explanation {
            requirement: r#"Schema CallToolResult (the isError description from 2025-06-18, the type's
description before): "Any errors that originate from the tool SHOULD be reported
inside the result object, with isError set to true, not as an MCP protocol-level
error response." The suite calls each callable tool with generated arguments that
satisfy its inputSchema and warns when one gets a JSON-RPC error (REQUIREMENTS.md
TC-ERR-EXECUTION).
Graded: warning in every revision."#,
            why: r#"A JSON-RPC error may never reach the model (2025-11-25: clients "SHOULD provide
tool execution errors to language models" but only "MAY provide protocol errors"), so
the model cannot learn why a call with schema-valid arguments failed."#,
            fix: r#"Report failures for particular inputs (not found, rejected by the backend) as
isError results. A -32602 for arguments that satisfy the inputSchema usually means
the handler checks more than the schema says: publish the real constraints in the
schema (minimum, maxLength, pattern, enum) so clients and models can respect them,
and report what remains as an isError result with a reason."#,
        },
    ),
    (
        "prop-invalid-call-rejected",
        Explanation {
            requirement: r#"tools.mdx, Security Considerations (every revision): "Servers MUST: Validate all
tool inputs"; the error class follows REQUIREMENTS.md section 10 A6 (see
tc-err-input-validation: 2025-11-25 lists "Input validation errors" under Tool
Execution Errors). The suite generates arguments that break exactly one rule of the
tool's inputSchema (a type, a required property, a bound, an enum, ...).
Graded: a success result (no isError) fails in every revision; an isError result
passes; -32602 passes before 2025-11-25; any other JSON-RPC error, and from
2025-11-25 any JSON-RPC error at all, is a warning."#,
            why: r#"A tool that runs with arguments its own schema forbids acts on values nobody
checked; the rule a handler forgets (a bound, an enum, a pattern) is the one a model
eventually breaks, and the result is wrong or, for a tool with side effects, harmful."#,
            fix: r#"Validate with a real JSON Schema validator against the very inputSchema you
publish, not a hand-written subset: hand-written checks tend to test presence and type
but miss minimum and maximum, enum, pattern, additionalProperties: false and nested
objects. Replay the minimal case to see the rule it breaks, and answer it with
  {"content": [{"type": "text", "text": "\"count\" must be at least 1"}],
   "isError": true}"#,
        },
    ),
    (
        "prop-id-roundtrip",
        Explanation {
            requirement: r#"index.mdx, Responses (messages.mdx in 2024-11-05): "Responses MUST include the
same ID as the request they correspond to", and JSON-RPC 2.0 section 4: "The Server
MUST reply with the same value in the Response object if included." REQUIREMENTS.md
RPC-ID-ECHO policy: same JSON type and same value. The suite sends pings with
generated ids: integers up to 2^53-1 in magnitude, zero, negative numbers, and strings
of up to 24 arbitrary Unicode characters, the empty string and control characters
included. It fails when the id comes back in another type or value, or when no
response carries it while the server still answers.
Graded: fail in every revision."#,
            why: r#"Clients choose ids freely (counters from 0, negative numbers, UUIDs, other
strings). An id the server cannot carry back breaks that client on every request: the
response matches nothing and the request times out."#,
            fix: r#"Treat the id as opaque JSON and write back exactly what came in. Pitfalls: a
falsy test such as if (!msg.id) or if not msg.get("id") that turns requests with id 0
or "" into notifications; rejecting negative numbers; a string id whose control or
non-BMP characters (emoji) are mangled when written back; ids parsed into a float or
a 32-bit integer."#,
        },
    ),
    (
        "prop-unknown-method",
        Explanation {
            requirement: r#"JSON-RPC 2.0 section 5.1: code -32601, "Method not found: The method does not
exist / is not available." The suite sends requests for generated method names,
"conformance/unknown/" followed by 1 to 40 characters of A-Z a-z 0-9 _ . / -, and
fails on anything but -32601 (REQUIREMENTS.md RPC-ERR-METHOD-NOT-FOUND).
Graded: fail in every revision."#,
            why: r#"-32601 is how a client learns that a method is not there and falls back. A server
whose dispatch answers some unknown names with another error, or runs a handler for
them, misleads every client that probes for optional features."#,
            fix: r#"Dispatch on the exact method string, with an explicit table. Pitfalls: prefix or
substring matching (a name that merely contains "tools/list"); case-insensitive
matching; splitting the method on "/" or "." and walking nested handler objects;
looking handlers up in a plain JavaScript object, where inherited keys resolve (use a
Map or Object.hasOwn). Everything not in the table gets
  {"jsonrpc":"2.0","id":"case","error":{"code":-32601,"message":"Method not found"}}"#,
        },
    ),
    (
        "prop-random-cursor",
        Explanation {
            requirement: r#"pagination.mdx, Error Handling (every revision): "Invalid cursors SHOULD result
in an error with code -32602 (Invalid params)." The suite sends tools/list with
generated cursors (up to 16 arbitrary Unicode characters, or 17 to 200 base64-looking
characters); -32602 or a page of tools passes (a generated string might happen to be
a valid cursor), anything else is a finding (REQUIREMENTS.md PAG-INVALID-CURSOR).
Crashes and stalls are reported by prop-server-survives.
Graded: warning in every revision."#,
            why: r#"Another error code, typically -32603 from a decoder exception, tells the client the
server is broken rather than that its cursor is stale, so it gives up instead of
starting the listing over."#,
            fix: r#"Decode cursors defensively: catch base64, UTF-8 and JSON decoding errors and
out-of-range offsets, and map them all to
  {"jsonrpc":"2.0","id":"case","error":{"code":-32602,"message":"Invalid cursor"}}
(Python's base64.b64decode raises binascii.Error and json.loads raises ValueError;
in Node JSON.parse throws; neither should escape as -32603.)"#,
        },
    ),
    (
        "seq-pipelined",
        Explanation {
            requirement: r#"JSON-RPC 2.0 section 4 (id): "The Server MUST reply with the same value in the
Response object if included"; section 5: "When a rpc call is made, the Server MUST
reply with a Response, except for in the case of Notifications." Neither JSON-RPC nor
MCP asks a client to wait for one response before sending the next request. In a
fresh session the suite writes ping "pipe-1", tools/list "pipe-2" (a ping without the
tools capability) and ping "pipe-3" in one write, then a ping; it fails when a request
is answered not exactly once, an id comes back changed, a response answers no request,
or the last ping goes unanswered.
Graded: fail in every revision."#,
            why: r#"Clients send several requests at once (listing tools, resources and prompts right
after initialize, or calling tools in parallel). A server that handles only the first
message of a read, or answers with the wrong id, leaves the others pending until they
time out."#,
            fix: r#"Read stdin as a stream of lines: one read may hold several messages, or half of
one. Split on "\n", keep the incomplete remainder for the next read, and dispatch
every complete line. Pitfalls: JSON.parse on a whole chunk (it fails when two
messages arrive together); handling one line per data event and dropping the rest of
the buffer; a shared "current request id" that the next request overwrites before
the first response is written."#,
        },
    ),
    (
        "seq-cancel",
        Explanation {
            requirement: r#"cancellation.mdx (every revision), Timing Considerations: a cancellation may
arrive after processing has completed, and "Both parties MUST handle these race
conditions gracefully". Behavior Requirements: receivers SHOULD stop processing, free
resources and "Not send a response for the cancelled request", and MAY ignore a
cancellation whose request is unknown or already completed; Error Handling: "Invalid
cancellation notifications SHOULD be ignored". In a fresh session the suite writes,
in one write, tools/call "cancel-me" (when some tool may be called),
notifications/cancelled for it, and notifications/cancelled for the unknown id
"never-sent", then a ping. REQUIREMENTS.md CANCEL-RACE and section 10 A15: the
cancelled call may be answered or not, but at most once; no response may answer a
notification; the ping must be answered.
Graded: fail in every revision."#,
            why: r#"Clients cancel on timeouts and when the user stops a request, and a cancellation
for a request that just finished is a race every client eventually hits. A server
that crashes, stalls or answers the notification there loses the session or confuses
the client."#,
            fix: r#"Keep a map from in-flight request ids to cancellation handles. On
notifications/cancelled look the id up: if found, signal the handler (an AbortSignal
in Node, cancelling the task in Python asyncio) and drop its response; if not found,
do nothing. Never answer the notification, never throw on an unknown id, and make
sure a cancelled handler cannot write two responses (a "cancelled" error and then its
late result)."#,
        },
    ),
    // -- Schema --
    (
        "schema-server-messages",
        Explanation {
            requirement: r#"index.mdx, Schema (every revision): the TypeScript schema "is the source of truth
for all protocol messages and structures", and the JSON Schema "is automatically
generated from the TypeScript source of truth". The suite validates every payload the
server writes against the negotiated revision's schema.json (vendored in
fixtures/schemas/): a result against the definition its request's method calls for
(InitializeResult, EmptyResult, ListToolsResult, CallToolResult), an error object
against the error definition, server notifications and requests against their
unions. The envelope (jsonrpc, id, result or error) is left to the rpc-* checks. Tool
members the revision does not define are reported for information only
(REQUIREMENTS.md TOOL-EXTRA-FIELDS).
Graded: fail in every revision."#,
            why: r#"Clients parse messages with types generated from the same schema (the SDKs
validate with zod or pydantic models of it); a payload that breaks it is rejected as
a whole, so one bad field in one tool can hide the entire tool list or a call's
result."#,
            fix: r#"Read the schema error in the report: it names the definition and the JSON
pointer. Frequent ones: content missing from a CallToolResult (it is required even
with structuredContent); "isError": "true" as a string; "nextCursor": null instead of
leaving it out; annotations.priority outside 0 to 1; a tool without inputSchema; the
pre-2024-11-05 toolResult shape instead of content. Validate your responses against
the schema.json of each revision you claim, in your own tests."#,
        },
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::{find, CATALOG};

    /// Every text of every entry, with its id and field name, for the text tests.
    fn texts() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
        EXPLANATIONS.iter().flat_map(|(id, e)| {
            [
                (*id, "requirement", e.requirement),
                (*id, "why", e.why),
                (*id, "fix", e.fix),
            ]
        })
    }

    #[test]
    fn every_catalog_check_is_explained() {
        for check in CATALOG {
            assert!(
                explain(check.id).is_some(),
                "no explanation for {}",
                check.id
            );
        }
    }

    #[test]
    fn unknown_ids_are_not_explained() {
        for id in ["", "no-such-check", "LC-PING", "lc-ping ", "LC-INIT-RESULT"] {
            assert!(explain(id).is_none(), "{id:?} has an explanation");
        }
    }

    #[test]
    fn every_entry_is_a_catalog_check_listed_once() {
        let mut ids: Vec<&str> = EXPLANATIONS.iter().map(|(id, _)| *id).collect();
        for id in &ids {
            assert!(find(id).is_some(), "explanation for {id}, not in CATALOG");
        }
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n, "an id is explained twice");
        assert_eq!(n, CATALOG.len());
    }

    #[test]
    fn entries_follow_catalog_order() {
        let explained: Vec<&str> = EXPLANATIONS.iter().map(|(id, _)| *id).collect();
        let catalog: Vec<&str> = CATALOG.iter().map(|c| c.id).collect();
        assert_eq!(explained, catalog);
    }

    #[test]
    fn texts_are_non_empty_and_have_no_trailing_whitespace() {
        for (id, field, text) in texts() {
            assert!(!text.trim().is_empty(), "{id} {field} is empty");
            assert_eq!(text, text.trim(), "{id} {field}: whitespace at either end");
            for line in text.lines() {
                assert_eq!(line, line.trim_end(), "{id} {field}: trailing whitespace");
            }
        }
    }

    /// Printed on a terminal: short lines, no Markdown emphasis or code spans.
    #[test]
    fn texts_are_plain_and_wrapped() {
        for (id, field, text) in texts() {
            for line in text.lines() {
                assert!(
                    line.chars().count() <= 90,
                    "{id} {field}: line longer than 90 characters: {line}"
                );
                assert!(!line.contains("**"), "{id} {field}: Markdown bold: {line}");
                assert!(!line.contains('`'), "{id} {field}: Markdown code: {line}");
            }
        }
    }
}
