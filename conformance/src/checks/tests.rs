//! The catalog's judges on recorded conversations, without a server: one conformant
//! conversation built by hand, and a table of single changes to it with the statuses the
//! checks must then give. Milliseconds to run; the fault table (`tests/faults.rs`) proves
//! the same checks against a real process.

use std::time::Duration;

use serde_json::{json, Value};

use super::{judge_all, CheckId, CheckResult, Ctx, Status, CATALOG};
use crate::protocol::{
    id_match, Direction, Exchange, FrameProblem, IdMatch, Reply, Rev, SchemaSet, Silence,
    Transcript,
};
use crate::records::{NegotiationRecord, ProgressProbe, RevisionRecord, ToolCall, ToolsRecord};

/// Records a conversation the way the client session would.
struct Recorder {
    transcript: Transcript,
    next_id: i64,
}

impl Recorder {
    fn new() -> Self {
        Self {
            transcript: Transcript::default(),
            next_id: 1,
        }
    }

    /// A request and its answer: `answer` is a whole response message (its `id` is filled
    /// in when left out), or `None` for silence.
    fn exchange(&mut self, method: &str, params: Value, answer: Option<Value>) -> Exchange {
        self.exchange_around(method, params, answer, &[], &[])
    }

    /// [`Recorder::exchange`] with notifications the server wrote before and after the
    /// answer.
    fn exchange_around(
        &mut self,
        method: &str,
        params: Value,
        answer: Option<Value>,
        before: &[Value],
        after: &[Value],
    ) -> Exchange {
        let id = json!(self.next_id);
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let request_seq =
            self.transcript
                .push(Direction::Sent, &request.to_string(), Some(request.clone()));
        for note in before {
            self.received(&note.to_string(), None);
        }
        let reply = match answer {
            None => Reply::Silent(Silence::Timeout(Duration::from_secs(1))),
            Some(mut message) => {
                if message.get("id").is_none() {
                    message["id"] = id.clone();
                }
                let seq = self.transcript.push(
                    Direction::Received,
                    &message.to_string(),
                    Some(message.clone()),
                );
                let matched = id_match(&id, &message["id"]).unwrap_or(IdMatch::Loose);
                let entry = self.transcript.get_mut(seq).unwrap();
                entry.answers = Some(request_seq);
                entry.id_match = Some(matched);
                Reply::Response {
                    seq,
                    message: message.into(),
                    id_match: matched,
                    listing_tail: None,
                }
            }
        };
        for note in after {
            self.received(&note.to_string(), None);
        }
        Exchange {
            method: method.to_string(),
            request_seq,
            request,
            reply,
        }
    }

    /// The request without `method` the scripted phase sends, answered by `answer` as it
    /// stands: an error without an id is taken as its answer, as the session does.
    fn invalid_request(&mut self, answer: Value) -> Exchange {
        let id = json!(900_001);
        let request = json!({"jsonrpc": "2.0", "id": id, "params": {}});
        let request_seq =
            self.transcript
                .push(Direction::Sent, &request.to_string(), Some(request.clone()));
        let seq = self.transcript.push(
            Direction::Received,
            &answer.to_string(),
            Some(answer.clone()),
        );
        let matched = match answer.get("id") {
            None | Some(Value::Null) => IdMatch::Unread,
            Some(got) => id_match(&id, got).unwrap_or(IdMatch::Loose),
        };
        let entry = self.transcript.get_mut(seq).unwrap();
        entry.answers = Some(request_seq);
        entry.id_match = Some(matched);
        Exchange {
            method: "request without method".into(),
            request_seq,
            request,
            reply: Reply::Response {
                seq,
                message: answer.into(),
                id_match: matched,
                listing_tail: None,
            },
        }
    }

    /// A line the server wrote on its own.
    fn received(&mut self, line: &str, problem: Option<FrameProblem>) {
        let json = serde_json::from_str(line).ok();
        let seq = self.transcript.push(Direction::Received, line, json);
        self.transcript.get_mut(seq).unwrap().problem = problem;
    }
}

fn result(body: Value) -> Option<Value> {
    Some(json!({"jsonrpc": "2.0", "result": body}))
}

fn error(code: i64) -> Option<Value> {
    Some(json!({"jsonrpc": "2.0", "error": {"code": code, "message": "nope"}}))
}

const ECHO: &str = "echo";

/// The parts of a conversation a row may change before it is recorded.
#[derive(Clone)]
struct Script {
    rev: Rev,
    init: Option<Value>,
    ping: Option<Value>,
    tools: Value,
    call: Option<Value>,
    unknown_method: Option<Value>,
    invalid_cursor: Option<Value>,
    invalid_arguments: Option<Value>,
    arguments_type: Option<Value>,
    arguments_omitted: Option<Value>,
    /// The answer to the same tool's call with `"arguments": {}`, sent for comparison.
    arguments_empty: Option<Option<Value>>,
    invalid_request: Value,
    stray_line: Option<(&'static str, FrameProblem)>,
    /// A response the server wrote late in the session that answers nothing outstanding.
    stray_response: Option<Value>,
    /// The answer to tools/list with `params: {}` and with only `_meta`.
    params_forms: Option<Value>,
    /// The progress notifications for the call with a progressToken: their params, and
    /// whether each comes after the response.
    progress: Vec<(Value, bool)>,
}

/// Progress params for the probe's token.
fn progress(value: u64) -> Value {
    json!({"progressToken": crate::records::PROGRESS_TOKEN, "progress": value, "total": 2})
}

impl Script {
    fn conformant(rev: Rev) -> Self {
        Script {
            rev,
            init: result(json!({
                "protocolVersion": rev.id(),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fixture", "version": "1.0.0"}
            })),
            ping: result(json!({})),
            tools: json!([{
                "name": ECHO,
                "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
                "outputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
            }]),
            call: result(json!({
                "content": [{"type": "text", "text": "{\"text\":\"hi\"}"}],
                "structuredContent": {"text": "hi"}
            })),
            unknown_method: error(-32601),
            invalid_cursor: error(-32602),
            invalid_arguments: result(
                json!({"content": [{"type": "text", "text": "text is required"}], "isError": true}),
            ),
            arguments_type: error(-32602),
            arguments_omitted: result(
                json!({"content": [{"type": "text", "text": "text is required"}], "isError": true}),
            ),
            arguments_empty: None,
            invalid_request: json!({"jsonrpc": "2.0", "id": 900_001,
                "error": {"code": -32600, "message": "Invalid Request"}}),
            stray_line: None,
            stray_response: None,
            params_forms: None,
            progress: vec![(progress(1), false), (progress(2), false)],
        }
    }

    fn record(&self) -> RevisionRecord {
        let mut r = Recorder::new();
        let revision = self.rev.revision();
        let initialize = r.exchange("initialize", json!({}), self.init.clone());
        let pings = vec![r.exchange("ping", json!({}), self.ping.clone())];
        let page = result(json!({"tools": self.tools}));
        let tools_pages = vec![r.exchange("tools/list", json!({}), page.clone())];
        let second_walk = vec![r.exchange("tools/list", json!({}), page)];
        let invalid_cursor = Some(r.exchange(
            "tools/list",
            json!({"cursor": "x"}),
            self.invalid_cursor.clone(),
        ));
        let tool = self.tools[0].clone();
        let call =
            |r: &mut Recorder, arguments: Value, answer: Option<Value>, intent: &str| ToolCall {
                name: ECHO.into(),
                tool: crate::records::ToolDef::new(tool.clone()),
                intent: intent.into(),
                exchange: Some(r.exchange(
                    "tools/call",
                    json!({"name": ECHO, "arguments": arguments}),
                    answer,
                )),
                skipped: None,
            };
        let calls = vec![call(
            &mut r,
            json!({"text": "hi"}),
            self.call.clone(),
            "minimal valid arguments",
        )];
        let invalid_arguments = vec![call(
            &mut r,
            json!({}),
            self.invalid_arguments.clone(),
            "required property \"text\" left out",
        )];
        let arguments_type = vec![call(
            &mut r,
            json!(["hi"]),
            self.arguments_type.clone(),
            "arguments given an array",
        )];
        let params_forms: Vec<Exchange> = [json!({}), json!({"_meta": {"dev.example/x": 1}})]
            .into_iter()
            .map(|params| {
                let answer = self
                    .params_forms
                    .clone()
                    .or_else(|| result(json!({"tools": self.tools})));
                r.exchange("tools/list", params, answer)
            })
            .collect();
        let note = |params: &Value| json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params});
        let (before, after): (Vec<Value>, Vec<Value>) = (
            self.progress
                .iter()
                .filter(|p| !p.1)
                .map(|p| note(&p.0))
                .collect(),
            self.progress
                .iter()
                .filter(|p| p.1)
                .map(|p| note(&p.0))
                .collect(),
        );
        let progress_call = r.exchange_around(
            "tools/call",
            json!({"name": ECHO, "arguments": {"text": "hi"},
                "_meta": {"progressToken": crate::records::PROGRESS_TOKEN}}),
            self.call.clone(),
            &before,
            &after,
        );
        let fence = r.exchange("ping", json!({}), self.ping.clone());
        let progress = Some(ProgressProbe {
            call: ToolCall {
                name: ECHO.into(),
                tool: crate::records::ToolDef::new(tool.clone()),
                intent: "its valid call with a progressToken in _meta".into(),
                exchange: Some(progress_call),
                skipped: None,
            },
            fence,
        });
        let omitted = r.exchange(
            "tools/call",
            json!({"name": ECHO}),
            self.arguments_omitted.clone(),
        );
        let arguments_omitted = Some(ToolCall {
            name: ECHO.into(),
            tool: crate::records::ToolDef::new(tool.clone()),
            intent: "arguments left out".into(),
            exchange: Some(omitted),
            skipped: None,
        });
        let arguments_empty = self.arguments_empty.clone().map(|answer| ToolCall {
            name: ECHO.into(),
            tool: crate::records::ToolDef::new(tool.clone()),
            intent: "arguments given an empty object".into(),
            exchange: Some(r.exchange(
                "tools/call",
                json!({"name": ECHO, "arguments": {}}),
                answer,
            )),
            skipped: None,
        });
        let unknown_method = Some(r.exchange(
            "conformance/unknown",
            json!({}),
            self.unknown_method.clone(),
        ));
        let invalid_request = Some(r.invalid_request(self.invalid_request.clone()));
        if let Some((line, problem)) = &self.stray_line {
            r.received(line, Some(problem.clone()));
        }
        if let Some(response) = &self.stray_response {
            r.received(&response.to_string(), None);
            let seq = r.transcript.entries().len() - 1;
            r.transcript.get_mut(seq).unwrap().unsolicited = true;
        }
        RevisionRecord {
            in_process: false,
            requested: revision,
            negotiated: Some(revision.id.to_string()),
            initialize,
            stopped: None,
            initialized_seq: None,
            pings,
            batch: None,
            tools_pages,
            tools_walk_stopped: None,
            tools: Some(ToolsRecord {
                second_walk,
                invalid_cursor,
                calls,
                unknown_tool: None,
                malformed: Vec::new(),
                invalid_arguments,
                arguments_type,
                arguments_omitted,
                arguments_empty,
                task_calls: Vec::new(),
                params_forms,
                progress,
                answered_slowly: Vec::new(),
            }),
            unknown_method,
            invalid_request,
            parse_error: None,
            ping_after_malformed: None,
            edges: Default::default(),
            shutdown: None,
            properties: None,
            modern: None,
            http: None,
            transcript: r.transcript,
            phases: Default::default(),
        }
    }
}

/// Judges a script and returns each check's status.
fn statuses(script: &Script) -> Vec<(&'static str, Status, String)> {
    judged(script.rev, &script.record())
        .into_iter()
        .map(|r| (r.check, r.status, r.message))
        .collect()
}

/// Every check's result on `record`, judged in `rev`.
fn judged(rev: Rev, record: &RevisionRecord) -> Vec<CheckResult> {
    let schemas = SchemaSet::new(rev.revision()).unwrap();
    let negotiation = NegotiationRecord::default();
    let ctx = Ctx {
        record,
        revision: Some(rev.revision()),
        schemas: Some(&schemas),
        negotiation: &negotiation,
    };
    judge_all(CATALOG, &ctx)
}

/// A change to the conformant conversation and the statuses it must give; every other
/// check must pass or skip.
type Row = (
    &'static str,
    Rev,
    fn(&mut Script),
    &'static [(CheckId, Status)],
);

/// The echo tool requires a task (2025-11-25); `declared`: the server declares
/// task-augmented tools/call. The plain call gets `call`.
fn task_required(s: &mut Script, declared: bool, call: Option<Value>) {
    s.tools[0]["execution"] = json!({"taskSupport": "required"});
    if declared {
        s.init.as_mut().unwrap()["result"]["capabilities"]["tasks"] =
            json!({"requests": {"tools": {"call": {}}}});
    }
    s.call = call;
}

const ROWS: &[Row] = &[
    ("conformant", Rev::R2025_11_25, |_| {}, &[]),
    // index.mdx, General fields: _meta (key format MUST; reserved prefixes, a warning).
    (
        "a tool _meta key with a reverse-DNS prefix",
        Rev::R2025_11_25,
        |s| s.tools[0]["_meta"] = json!({"com.example/tags": ["a"], "": 1}),
        &[],
    ),
    (
        "a tool _meta key that begins with an underscore",
        Rev::R2025_06_18,
        |s| s.tools[0]["_meta"] = json!({"_internal": true}),
        &[(CheckId::MetaKeyFormat, Status::Fail)],
    ),
    (
        "a result _meta key under a prefix reserved in 2025-11-25",
        Rev::R2025_11_25,
        |s| {
            s.call.as_mut().unwrap()["result"]["_meta"] = json!({"io.modelcontextprotocol/x": 1});
        },
        &[(CheckId::MetaKeyFormat, Status::Warn)],
    ),
    (
        "a 2025-06-18-reserved prefix is not reserved in 2025-11-25",
        Rev::R2025_11_25,
        |s| s.tools[0]["_meta"] = json!({"mcp.dev/x": 1}),
        &[],
    ),
    (
        "a 2025-06-18-reserved prefix in 2025-06-18",
        Rev::R2025_06_18,
        |s| s.tools[0]["_meta"] = json!({"mcp.dev/x": 1}),
        &[(CheckId::MetaKeyFormat, Status::Warn)],
    ),
    // Issue 12: a tool that requires a task, refused plainly with -32601, draws nothing.
    (
        "a tool requiring a task refuses a plain call with -32601",
        Rev::R2025_11_25,
        |s| task_required(s, true, error(-32601)),
        &[],
    ),
    (
        "a tool requiring a task answers a plain call with isError",
        Rev::R2025_11_25,
        |s| {
            let refused =
                json!({"content": [{"type": "text", "text": "needs a task"}], "isError": true});
            task_required(s, true, result(refused));
        },
        &[(CheckId::TcTaskRequired, Status::Fail)],
    ),
    (
        "a tool requiring a task refuses a plain call with -32600 (A9)",
        Rev::R2025_11_25,
        |s| task_required(s, true, error(-32600)),
        &[(CheckId::TcTaskRequired, Status::Warn)],
    ),
    (
        "a tool requires a task on a server without the tasks capability",
        Rev::R2025_11_25,
        |s| task_required(s, false, error(-32601)),
        &[(CheckId::ToolTaskSupportDeclared, Status::Warn)],
    ),
    (
        "an error message of two lines",
        Rev::R2025_11_25,
        |s| {
            s.unknown_method = Some(
                json!({"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found\n  at dispatch"}}),
            );
        },
        &[(CheckId::RpcErrorMessage, Status::Warn)],
    ),
    (
        "conformant, oldest revision",
        Rev::R2024_11_05,
        |s| {
            // No outputSchema or structuredContent before 2025-06-18.
            s.tools[0].as_object_mut().unwrap().remove("outputSchema");
            s.call = result(json!({"content": [{"type": "text", "text": "hi"}]}));
        },
        &[],
    ),
    (
        "ping answered with jsonrpc 1.0",
        Rev::R2025_11_25,
        |s| {
            s.ping = Some(json!({"jsonrpc": "1.0", "result": {}}));
        },
        &[(CheckId::RpcJsonrpcVersion, Status::Fail)],
    ),
    (
        "ping answered with result and error",
        Rev::R2025_11_25,
        |s| {
            s.ping =
                Some(json!({"jsonrpc": "2.0", "result": {}, "error": {"code": 1, "message": "x"}}));
        },
        &[(CheckId::RpcRespExclusive, Status::Fail)],
    ),
    (
        "ping answered with a stringified id",
        Rev::R2025_11_25,
        |s| {
            s.ping = Some(json!({"jsonrpc": "2.0", "id": "2", "result": {}}));
        },
        &[(CheckId::RpcIdEcho, Status::Fail)],
    ),
    (
        "an unknown method answered with -32600",
        Rev::R2025_11_25,
        |s| {
            s.unknown_method = error(-32600);
        },
        &[(CheckId::RpcErrMethodNotFound, Status::Fail)],
    ),
    (
        "an error code that is a string",
        Rev::R2025_11_25,
        |s| {
            s.unknown_method =
                Some(json!({"jsonrpc": "2.0", "error": {"code": "-32601", "message": "x"}}));
        },
        &[
            (CheckId::RpcErrorShape, Status::Fail),
            (CheckId::RpcErrMethodNotFound, Status::Fail),
            (CheckId::SchemaServerMessages, Status::Fail),
        ],
    ),
    (
        "a second answer to a request already answered (id 1, initialize)",
        Rev::R2025_11_25,
        |s| {
            s.stray_response = Some(json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
        },
        &[(CheckId::RpcIdEcho, Status::Warn)],
    ),
    (
        "a late response with an id none of our requests had",
        Rev::R2025_11_25,
        |s| {
            s.stray_response = Some(json!({"jsonrpc": "2.0", "id": 424242, "result": {}}));
        },
        &[(CheckId::RpcIdEcho, Status::Fail)],
    ),
    (
        "a log line on stdout",
        Rev::R2025_11_25,
        |s| {
            s.stray_line = Some(("starting up...", FrameProblem::NotJson));
        },
        &[(CheckId::RpcStdioFraming, Status::Fail)],
    ),
    (
        "a server-sent batch in 2025-03-26",
        Rev::R2025_03_26,
        |s| {
            s.tools[0].as_object_mut().unwrap().remove("outputSchema");
            s.call = result(json!({"content": [{"type": "text", "text": "hi"}]}));
            s.stray_line = Some((
                r#"[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}]"#,
                FrameProblem::NotAMessage,
            ));
        },
        &[],
    ),
    (
        "structuredContent missing",
        Rev::R2025_11_25,
        |s| {
            s.call = result(json!({"content": [{"type": "text", "text": "hi"}]}));
        },
        &[(CheckId::TcOutputschemaPresence, Status::Fail)],
    ),
    (
        "structuredContent of the wrong type",
        Rev::R2025_11_25,
        |s| {
            s.call = result(
                json!({"content": [{"type": "text", "text": "{\"text\":1}"}], "structuredContent": {"text": 1}}),
            );
        },
        &[(CheckId::TcOutputschemaConform, Status::Fail)],
    ),
    (
        "a valid call answered with a protocol error",
        Rev::R2025_11_25,
        |s| {
            s.call = error(-32603);
        },
        &[(CheckId::TcErrExecution, Status::Warn)],
    ),
    (
        "invalid arguments accepted",
        Rev::R2025_11_25,
        |s| {
            s.invalid_arguments = result(json!({"content": [{"type": "text", "text": "ok"}]}));
        },
        &[(CheckId::TcErrInputValidation, Status::Fail)],
    ),
    (
        "invalid arguments: -32602 in 2025-11-25 (A6)",
        Rev::R2025_11_25,
        |s| {
            s.invalid_arguments = error(-32602);
        },
        &[(CheckId::TcErrInputValidation, Status::Warn)],
    ),
    (
        "invalid arguments: -32602 in 2025-06-18",
        Rev::R2025_06_18,
        |s| {
            s.invalid_arguments = error(-32602);
        },
        &[],
    ),
    (
        "an invalid request answered without its readable id",
        Rev::R2025_11_25,
        |s| {
            s.invalid_request =
                json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}});
        },
        &[(CheckId::RpcErrorId, Status::Fail)],
    ),
    (
        "an invalid request answered with id null (2025-06-18)",
        Rev::R2025_06_18,
        |s| {
            s.invalid_request = json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32600, "message": "Invalid Request"}});
        },
        &[(CheckId::RpcErrorId, Status::Fail)],
    ),
    (
        "arguments that is an array accepted",
        Rev::R2025_11_25,
        |s| {
            s.arguments_type = result(json!({"content": [{"type": "text", "text": "ok"}]}));
        },
        &[(CheckId::TcErrArgumentsType, Status::Fail)],
    ),
    (
        "arguments that is an array refused with -32603",
        Rev::R2025_11_25,
        |s| {
            s.arguments_type = error(-32603);
        },
        &[(CheckId::TcErrArgumentsType, Status::Warn)],
    ),
    (
        "arguments left out: -32602 for a tool that requires them",
        Rev::R2025_06_18,
        |s| {
            s.arguments_omitted = error(-32602);
        },
        &[],
    ),
    (
        "arguments left out: no answer",
        Rev::R2025_11_25,
        |s| {
            s.arguments_omitted = None;
        },
        // A tools/call that times out is a slow tool or a stall to rpc-response-required.
        &[
            (CheckId::TcArgumentsOmitted, Status::Fail),
            (CheckId::RpcResponseRequired, Status::Warn),
        ],
    ),
    (
        "arguments left out: -32602 for a tool that requires none",
        Rev::R2025_11_25,
        |s| {
            s.tools[0]["inputSchema"]
                .as_object_mut()
                .unwrap()
                .remove("required");
            s.arguments_omitted = error(-32602);
        },
        &[(CheckId::TcArgumentsOmitted, Status::Warn)],
    ),
    (
        "arguments left out and {} both get -32603 for a tool that requires none",
        Rev::R2025_11_25,
        |s| {
            s.tools[0]["inputSchema"]
                .as_object_mut()
                .unwrap()
                .remove("required");
            s.arguments_omitted = error(-32603);
            s.arguments_empty = Some(error(-32603));
        },
        // The tool's error (a backend down), not the omission's.
        &[],
    ),
    (
        "arguments left out gets -32602 where {} gets a result",
        Rev::R2025_11_25,
        |s| {
            s.tools[0]["inputSchema"]
                .as_object_mut()
                .unwrap()
                .remove("required");
            s.arguments_omitted = error(-32602);
            s.arguments_empty = Some(result(json!({"content": []})));
        },
        &[(CheckId::TcArgumentsOmitted, Status::Warn)],
    ),
    (
        "an invalid cursor answered with a page",
        Rev::R2025_11_25,
        |s| {
            s.invalid_cursor = result(json!({"tools": []}));
        },
        &[(CheckId::PagInvalidCursor, Status::Warn)],
    ),
    (
        "an image without base64",
        Rev::R2024_11_05,
        |s| {
            s.tools[0].as_object_mut().unwrap().remove("outputSchema");
            s.call = result(
                json!({"content": [{"type": "image", "data": "not base64!", "mimeType": "image/png"}]}),
            );
        },
        &[(CheckId::TcContentBase64, Status::Fail)],
    ),
    (
        "audio content in 2024-11-05",
        Rev::R2024_11_05,
        |s| {
            s.tools[0].as_object_mut().unwrap().remove("outputSchema");
            s.call = result(
                json!({"content": [{"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}]}),
            );
        },
        &[
            (CheckId::TcContentTypes, Status::Fail),
            (CheckId::SchemaServerMessages, Status::Fail),
        ],
    ),
    (
        "a tool name with a space (2025-11-25)",
        Rev::R2025_11_25,
        |s| {
            s.tools[0]["name"] = json!("my tool");
        },
        &[(CheckId::ToolNameCharset, Status::Warn)],
    ),
    (
        "initialize without serverInfo",
        Rev::R2025_11_25,
        |s| {
            s.init.as_mut().unwrap()["result"]
                .as_object_mut()
                .unwrap()
                .remove("serverInfo");
        },
        &[
            (CheckId::LcInitServerinfo, Status::Fail),
            (CheckId::SchemaServerMessages, Status::Fail),
        ],
    ),
    (
        "ping answered with an error",
        Rev::R2025_11_25,
        |s| {
            s.ping = error(-32603);
        },
        &[(CheckId::LcPing, Status::Fail)],
    ),
    // Inputs a client may legally send (issue 12 sweep).
    (
        "tools/list with optional params refused",
        Rev::R2025_11_25,
        |s| s.params_forms = error(-32602),
        &[(CheckId::TlParamsOptional, Status::Fail)],
    ),
    (
        "no progress at all (it is optional)",
        Rev::R2024_11_05,
        |s| s.progress.clear(),
        &[],
    ),
    (
        "progress with the token stringified",
        Rev::R2025_11_25,
        |s| {
            for (p, _) in &mut s.progress {
                p["progressToken"] = json!(crate::records::PROGRESS_TOKEN.to_string());
            }
        },
        &[(CheckId::ProgTokenActive, Status::Fail)],
    ),
    (
        "progress that goes back",
        Rev::R2025_11_25,
        |s| s.progress = vec![(progress(2), false), (progress(2), false)],
        &[(CheckId::ProgIncreasing, Status::Fail)],
    ),
    (
        "progress after the response",
        Rev::R2025_11_25,
        |s| s.progress[1].1 = true,
        &[(CheckId::ProgStop, Status::Fail)],
    ),
];

#[test]
fn each_change_to_a_conformant_conversation_gives_exactly_its_statuses() {
    let mut problems = Vec::new();
    for (name, rev, change, expected) in ROWS {
        let mut script = Script::conformant(*rev);
        change(&mut script);
        for (check, status, message) in statuses(&script) {
            let want = expected
                .iter()
                .find(|(c, _)| c.as_str() == check)
                .map(|(_, s)| *s);
            let ok = match want {
                Some(s) => status == s,
                None => matches!(status, Status::Pass | Status::Skip),
            };
            if !ok {
                problems.push(format!(
                    "{name}: {check} is {status:?}, expected {}: {message}",
                    want.map_or("pass or skip".into(), |s| format!("{s:?}"))
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_graded_check_reports_the_level_that_applied() {
    let mut script = Script::conformant(Rev::R2025_11_25);
    script.tools[0]["inputSchema"] = json!({"type": "object", "properties": {"n": {"type": 3}}});
    let level = |rev: Rev| {
        let mut s = script.clone();
        s.rev = rev;
        judged(rev, &s.record())
            .into_iter()
            .find(|r| r.check == CheckId::ToolSchemaDialect.as_str())
            .map(|r| (r.level, r.status))
            .unwrap()
    };
    use super::Level;
    assert_eq!(level(Rev::R2025_11_25), (Level::Must, Status::Fail));
    assert_eq!(level(Rev::R2025_06_18), (Level::Policy, Status::Warn));
}

/// A ping the session was cut before (the server flooded it) is rpc-traffic-bounded's to
/// judge: lc-ping leaves it out, and skips when no ping is left; a ping that timed out
/// still fails it.
#[test]
fn lc_ping_leaves_pings_cut_for_flooding_to_the_traffic_bound() {
    let script = Script::conformant(Rev::R2025_11_25);
    let lc_ping = |record: &RevisionRecord| {
        judged(script.rev, record)
            .into_iter()
            .find(|r| r.check == CheckId::LcPing.as_str())
            .map(|r| r.status)
            .unwrap()
    };
    let mut record = script.record();
    let flooded = Silence::Flooded {
        messages: 10_001,
        ours: 3,
        progress: 0,
    };
    record.pings[0].reply = Reply::Silent(flooded);
    assert_eq!(lc_ping(&record), Status::Skip);
    record.pings[0].reply = Reply::Silent(Silence::Timeout(Duration::from_secs(1)));
    assert_eq!(lc_ping(&record), Status::Fail);
}

/// A ping whose wait the machine kept the harness from judging (`Silence::Starved`) is
/// not held against the server: `lc-ping` and `rpc-response-required` skip and say why,
/// naming the lag; the same silence as a plain timeout fails them.
#[test]
fn a_wait_too_loaded_to_judge_is_skipped_not_failed() {
    let script = Script::conformant(Rev::R2025_11_25);
    let result = |record: &RevisionRecord, check: CheckId| {
        judged(script.rev, record)
            .into_iter()
            .find(|r| r.check == check.as_str())
            .unwrap()
    };
    let mut record = script.record();
    record.pings[0].reply = Reply::Silent(Silence::Starved {
        waited: Duration::from_secs(1),
        lag: Duration::from_millis(4_200),
    });
    for check in [CheckId::LcPing, CheckId::RpcResponseRequired] {
        let r = result(&record, check);
        assert_eq!(r.status, Status::Skip, "{check:?}: {}", r.message);
        assert!(r.message.starts_with("not judged: "), "{}", r.message);
        assert!(
            r.message.contains("kept from running for 4.2 s"),
            "{}",
            r.message
        );
    }
    record.pings[0].reply = Reply::Silent(Silence::Timeout(Duration::from_secs(1)));
    for check in [CheckId::LcPing, CheckId::RpcResponseRequired] {
        assert_eq!(result(&record, check).status, Status::Fail, "{check:?}");
    }
}

#[path = "modern_tests.rs"]
mod modern_tests;
