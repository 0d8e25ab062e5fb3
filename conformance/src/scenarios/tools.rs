//! The Tools conversation: a second listing walk, an invalid cursor, a call of every tool
//! the call policy allows (with minimal valid arguments), an unknown tool, malformed
//! calls, calls with arguments that break the tool's own inputSchema, calls whose
//! `arguments` is of the wrong JSON type or left out, (2025-11-25, where the server
//! declares task-augmented tools/call) calls made as tasks, and inputs a client may legally
//! send that a plain conversation never does: `tools/list` with `params: {}` or with only
//! `_meta`, and a call carrying a `progressToken`.
//!
//! It runs only when the server declares the `tools` capability: nothing is reported
//! against a capability a server did not declare.

use std::collections::HashSet;
use std::time::Instant;

use serde_json::{json, Value};

use super::early::{Early, Pace};
use super::policy::CallPolicy;
use super::{slot, slow_answer};
use crate::generate::minimal_instance;
use crate::protocol::{Exchange, Revision, Session, Silence};
use crate::records::{
    compile_input_schema, requires_arguments, ProgressProbe, ToolCall, ToolDef, ToolsRecord,
    INVALID_CURSOR, META_PROBE_KEY, PROGRESS_TOKEN, UNKNOWN_TOOL,
};
use crate::rules::TaskSupport;
use crate::transport::{group_asleep, late_window};

/// Most tools probed with invalid arguments (each probe is a real call).
const MAX_INVALID_PROBES: usize = 32;
/// Most task-augmented calls (each may start a task on the server).
const MAX_TASK_PROBES: usize = 8;
/// The task lifetime the task-augmented calls ask for (tasks.mdx, Creating Tasks).
const TASK_TTL_MS: u64 = 60_000;

/// What the Tools conversation may do besides calling tools.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Most tools/list pages a walk follows.
    pub max_pages: usize,
    /// Whether the server declares task-augmented tools/call in a revision with tasks:
    /// only then are tools called as tasks.
    pub tasks: bool,
    /// Whether the first walk ended (its last page had no `nextCursor`): a second walk of a
    /// listing that did not end would only pay for the page cap again.
    pub listing_ended: bool,
}

/// Most distinct tools called (scripted calls and generated cases): a listing of
/// thousands of tools is judged on its first ones, not paid for with thousands of calls
/// per revision. Tools past it show as skipped, with this reason.
pub const MAX_CALLED_TOOLS: usize = 128;

// A listing too wide for one tree keeps at least this many tools as trees: cutting it
// never costs a call.
const _: () = assert!(MAX_CALLED_TOOLS <= crate::protocol::TREE_TOOLS_AT_LEAST);

/// `arguments` values of the wrong JSON type (CallToolRequest: `arguments` is an object),
/// with what each is.
fn wrong_arguments() -> [(Value, &'static str); 4] {
    [
        (json!(["conformance"]), "an array"),
        (json!("conformance"), "a string"),
        (json!(42), "a number"),
        (Value::Null, "null"),
    ]
}

/// The tool the `arguments` probes call: one the call policy let us call and that
/// answered its valid call (so a slow tool costs nothing twice), preferring one whose
/// inputSchema requires nothing, so that leaving `arguments` out is a valid call. Never a
/// tool that requires a task: it refuses every plain call, whatever its arguments. A tool
/// that answered slowly (`slow`) only when no other did: each probe would wait it out.
fn arguments_probe_tool<'a>(
    calls: &'a [ToolCall],
    revision: &Revision,
    slow: &[String],
) -> Option<&'a ToolCall> {
    let answered = |prompt: bool| {
        calls.iter().filter(move |c| {
            c.exchange.as_ref().is_some_and(|x| x.response().is_some())
                && TaskSupport::of(&c.tool, revision) != TaskSupport::Required
                && (!prompt || !slow.contains(&c.name))
        })
    };
    let pick = |prompt: bool| {
        answered(prompt)
            .find(|c| !requires_arguments(&c.tool))
            .or_else(|| answered(prompt).next())
    };
    pick(true).or_else(|| pick(false))
}

/// Most bytes of tools/list results followed in one walk: a listing is bounded in bytes
/// as well as in pages (a thousand large tools is about 8 MiB).
pub const MAX_LISTING_BYTES: usize = 8 * 1024 * 1024;

/// Walks tools/list following `nextCursor`, at most `max_pages` pages and
/// `MAX_LISTING_BYTES`, stopping at a cursor seen before. Returns the pages and why
/// the walk stopped early, if it did.
pub async fn walk(session: &mut Session, max_pages: usize) -> (Vec<Exchange>, Option<String>) {
    let mut pages = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut params = None;
    let mut bytes = 0usize;
    while pages.len() < max_pages {
        if bytes > MAX_LISTING_BYTES {
            let why = format!(
                "stopped after {} pages holding {bytes} bytes, over the {} MiB bound on a listing",
                pages.len(),
                MAX_LISTING_BYTES >> 20
            );
            return (pages, Some(why));
        }
        let page = session.request("tools/list", params.take()).await;
        bytes += page.result().map_or(0, |r| r.to_string().len());
        let cursor = page
            .result()
            .and_then(|r| r.get("nextCursor"))
            .and_then(Value::as_str)
            .map(str::to_string);
        pages.push(page);
        let Some(cursor) = cursor else {
            return (pages, None);
        };
        if seen.contains(&cursor) {
            return (
                pages,
                Some(format!("cursor {cursor:?} came back a second time")),
            );
        }
        seen.push(cursor.clone());
        // Cursors are opaque: sent back exactly as received (PAG-OPAQUE).
        params = Some(json!({"cursor": cursor}));
    }
    (pages, Some(format!("stopped after {max_pages} pages")))
}

/// Minimal arguments for a tool, validated against its inputSchema.
pub fn valid_arguments(tool: &Value, revision: &Revision) -> Result<Value, String> {
    let (schema, validator) = input_validator(tool, revision)?;
    let args = minimal_instance(schema, schema)?;
    if !args.is_object() {
        return Err("the inputSchema does not describe an object".into());
    }
    match first_error(&validator, &args) {
        None => Ok(args),
        Some(e) => Err(format!(
            "the generated arguments {args} do not satisfy the inputSchema ({e}); not sent"
        )),
    }
}

/// Arguments the user gave for a tool, used only when they satisfy its inputSchema: a
/// call with arguments that do not is no "valid call" to judge the server by.
fn given_arguments(tool: &Value, revision: &Revision, args: &Value) -> Result<Value, String> {
    let (_, validator) = input_validator(tool, revision)?;
    match first_error(&validator, args) {
        None => Ok(args.clone()),
        Some(e) => Err(format!(
            "the arguments given with --tool-args {args} do not satisfy the inputSchema ({e}); not sent"
        )),
    }
}

/// The tool's inputSchema and its compiled validator, or why there is none.
fn input_validator<'t>(
    tool: &'t Value,
    revision: &Revision,
) -> Result<(&'t Value, jsonschema::Validator), String> {
    let schema = tool
        .get("inputSchema")
        .filter(|s| s.is_object())
        .ok_or("the tool has no inputSchema object")?;
    let validator = compile_input_schema(schema, revision)
        .map_err(|e| format!("its inputSchema does not compile: {e}"))?;
    Ok((schema, validator))
}

fn first_error(validator: &jsonschema::Validator, args: &Value) -> Option<String> {
    validator.iter_errors(args).next().map(|e| e.to_string())
}

/// Arguments that break `tool`'s inputSchema, one rule each: a required property left
/// out, and a property of a scalar type given an object (a value no lenient parser
/// coerces). Empty when the schema has nothing to break.
fn invalid_arguments(tool: &Value, valid: &Value) -> Vec<(Value, String)> {
    let mut out = Vec::new();
    let Some(schema) = tool.get("inputSchema") else {
        return out;
    };
    let Some(valid) = valid.as_object() else {
        return out;
    };
    let required = schema.get("required").and_then(Value::as_array);
    if let Some(name) = required.into_iter().flatten().find_map(Value::as_str) {
        let mut args = valid.clone();
        args.remove(name);
        out.push((
            Value::Object(args),
            format!("required property {name:?} left out"),
        ));
    }
    let scalar = |p: &Value| {
        matches!(
            p.get("type").and_then(Value::as_str),
            Some("string" | "number" | "integer" | "boolean")
        )
    };
    let props = schema.get("properties").and_then(Value::as_object);
    if let Some((name, _)) = props.into_iter().flatten().find(|(_, p)| scalar(p)) {
        let mut args = valid.clone();
        args.insert(
            name.clone(),
            json!({"conformance": "a value of the wrong type"}),
        );
        out.push((
            Value::Object(args),
            format!("property {name:?} given an object, not its declared type"),
        ));
    }
    out
}

/// Runs the Tools conversation after a first walk has listed `tools`.
pub async fn converse(
    session: &mut Session,
    revision: &Revision,
    first_walk: &[Exchange],
    (policy, early): (&CallPolicy, &Early),
    limits: Limits,
) -> ToolsRecord {
    let mut talk = Talk {
        session,
        revision,
        record: ToolsRecord::default(),
        early,
    };
    if !talk.listings(limits).await {
        return talk.record;
    }
    talk.call_listed(first_walk, policy).await;
    if talk.session.ended().is_some() {
        return talk.record;
    }
    talk.unknown_and_malformed().await;
    if limits.tasks {
        task_calls(talk.session, revision, &mut talk.record).await;
    }
    talk.arguments_probes().await;
    talk.record
}

/// The Tools conversation under way: its session and what it has recorded so far.
struct Talk<'s> {
    session: &'s mut Session,
    revision: &'s Revision,
    record: ToolsRecord,
    /// Where each tool's pace is told to the property phase.
    early: &'s Early,
}

impl Talk<'_> {
    /// The listing probes: a second walk, an invalid cursor and the optional-params
    /// forms. Returns whether the server is still there.
    async fn listings(&mut self, limits: Limits) -> bool {
        if limits.listing_ended {
            let (second, _) = walk(self.session, limits.max_pages).await;
            self.record.second_walk = second;
        }
        if self.session.ended().is_some() {
            return false;
        }
        self.record.invalid_cursor = Some(
            self.session
                .request("tools/list", Some(json!({"cursor": INVALID_CURSOR})))
                .await,
        );
        // The optional-params forms are a legacy rule (`TL-PARAMS-OPTIONAL`): a modern
        // request always carries params with its `_meta`.
        let forms = if self.session.modern_meta().is_some() {
            Vec::new()
        } else {
            vec![json!({}), json!({"_meta": {META_PROBE_KEY: true}})]
        };
        for params in forms {
            if self.session.ended().is_some() {
                return false;
            }
            let exchange = self.session.request("tools/list", Some(params)).await;
            self.record.params_forms.push(exchange);
        }
        true
    }

    /// Calls each distinct listed tool once, up to [`MAX_CALLED_TOOLS`]; the rest show
    /// as skipped.
    async fn call_listed(&mut self, first_walk: &[Exchange], policy: &CallPolicy) {
        let mut seen_names: HashSet<String> = HashSet::new();
        for shared in ToolDef::listed(first_walk) {
            if self.session.ended().is_some() {
                break;
            }
            let name = shared
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if !seen_names.insert(name.clone()) {
                continue;
            }
            if seen_names.len() > MAX_CALLED_TOOLS {
                self.record.calls.push(ToolCall {
                    name,
                    tool: shared.clone(),
                    intent: String::new(),
                    exchange: None,
                    skipped: Some(format!(
                        "not called: only the first {MAX_CALLED_TOOLS} listed tools are called"
                    )),
                });
                continue;
            }
            let call = self.call_listed_tool(&shared, name, policy).await;
            self.record.calls.push(call);
        }
    }

    /// Calls one listed tool, with the arguments given for it or minimal valid ones (or
    /// says why not), then with arguments that break its inputSchema.
    async fn call_listed_tool(
        &mut self,
        shared: &ToolDef,
        name: String,
        policy: &CallPolicy,
    ) -> ToolCall {
        let tool = &**shared;
        let given = policy.given_arguments(&name);
        let intent = match given {
            Some(_) => "the arguments given with --tool-args",
            None => "minimal arguments valid for its inputSchema",
        };
        let mut call = ToolCall {
            name: name.clone(),
            tool: shared.clone(),
            intent: intent.into(),
            exchange: None,
            skipped: None,
        };
        let args = policy.permits(tool).and_then(|()| match given {
            Some(args) => given_arguments(tool, self.revision, args),
            None => valid_arguments(tool, self.revision),
        });
        match args {
            Err(why) => {
                call.skipped = Some(why);
                self.early.tell(&name, Pace::Prompt);
            }
            Ok(args) => {
                let params = json!({"name": name, "arguments": args});
                let (exchange, answered_slowly) =
                    call_tool_paced(self.session, params, &name, self.early).await;
                if answered_slowly {
                    self.record.answered_slowly.push(name.clone());
                }
                // A tool that outlasted the timeout costs its latency once: its
                // invalid-argument probes would each wait it out again.
                let slow = exchange.silence().is_some_and(Silence::timed_out);
                call.exchange = Some(exchange);
                if !slow {
                    self.invalid_argument_probes(shared, &name, &args).await;
                }
            }
        }
        call
    }

    /// Calls `shared` with arguments that each break one rule of its inputSchema, up to
    /// [`MAX_INVALID_PROBES`] over all tools.
    async fn invalid_argument_probes(&mut self, shared: &ToolDef, name: &str, args: &Value) {
        for (bad, intent) in invalid_arguments(shared, args) {
            if self.record.invalid_arguments.len() >= MAX_INVALID_PROBES
                || self.session.ended().is_some()
            {
                break;
            }
            let params = json!({"name": name, "arguments": bad});
            let exchange = call_tool(self.session, params).await;
            self.record.invalid_arguments.push(ToolCall {
                name: name.to_string(),
                tool: shared.clone(),
                intent,
                exchange: Some(exchange),
                skipped: None,
            });
        }
    }

    /// A call of an unknown tool, then calls without a name or with a name of the wrong
    /// type.
    async fn unknown_and_malformed(&mut self) {
        self.record.unknown_tool =
            Some(call_tool(self.session, json!({"name": UNKNOWN_TOOL, "arguments": {}})).await);
        for params in [
            json!({"arguments": {}}),
            json!({"name": 42, "arguments": {}}),
        ] {
            if self.session.ended().is_some() {
                break;
            }
            self.record
                .malformed
                .push(call_tool(self.session, params).await);
        }
    }

    /// The progress probe and the `arguments` probes (of the wrong JSON type, left out),
    /// on a tool that answered before.
    async fn arguments_probes(&mut self) {
        let Some(tool) = arguments_probe_tool(
            &self.record.calls,
            self.revision,
            &self.record.answered_slowly,
        )
        .cloned() else {
            return;
        };
        let probe = |intent: String, exchange: Exchange| ToolCall {
            name: tool.name.clone(),
            tool: tool.tool.clone(),
            intent,
            exchange: Some(exchange),
            skipped: None,
        };
        if self.session.ended().is_none() {
            self.record.progress = Some(progress_probe(self.session, &tool).await);
        }
        for (arguments, what) in wrong_arguments() {
            if self.session.ended().is_some() {
                return;
            }
            let params = json!({"name": tool.name, "arguments": arguments});
            let exchange = call_tool(self.session, params).await;
            self.record
                .arguments_type
                .push(probe(format!("arguments given {what}"), exchange));
        }
        if self.session.ended().is_some() {
            return;
        }
        let params = json!({"name": tool.name});
        let exchange = call_tool(self.session, params).await;
        let refused = exchange.error().is_some();
        self.record.arguments_omitted = Some(probe("arguments left out".into(), exchange));
        // What `{}` gets, to compare: the valid call already says so when it sent `{}`.
        let sent_empty = tool
            .exchange
            .as_ref()
            .and_then(|x| x.request.pointer("/params/arguments"))
            == Some(&json!({}));
        if refused && !sent_empty && self.session.ended().is_none() {
            let params = json!({"name": tool.name, "arguments": {}});
            let exchange = call_tool(self.session, params).await;
            self.record.arguments_empty =
                Some(probe("arguments given an empty object".into(), exchange));
        }
    }
}

/// A tools/call, lending the revision's job slot while the server sleeps on the answer (a
/// tool that waits on a timer of its own: see `scenarios::slot`). What is sent and how
/// long it is waited for do not change.
async fn call_tool(session: &mut Session, params: Value) -> Exchange {
    call_tool_timed(session, params).await.0
}

/// [`call_tool`], also telling whether the call answered slowly: after more than
/// [`slow_answer`] while its server slept on it (seen asleep, so the slot was lent: the
/// tool waited on a timer or I/O of its own, which a loaded machine's scheduler does not
/// fake), or, where the server's processes cannot be seen (an HTTP endpoint), after more
/// than that at all: a tool that takes about `--timeout` by design would otherwise land on
/// either side of it, and be a slow tool in one revision and a stall in the next.
/// Waiting for the slot back is no part of the answer's time.
///
/// A call unanswered within the timeout is still waited for [`late_window`] (a tenth of
/// it, at least a second): an answer then counts, so a tool that runs exactly as long as
/// the timeout by design is answered in every run, not in those the scheduler favours.
///
/// An HTTP endpoint's wait lends the slot once it has lasted [`slow_answer`]: the call is
/// slow then, whatever the server does, and its revision only waits (as over stdio on a
/// sleeping server), so the next revision starts meanwhile.
async fn call_tool_timed(session: &mut Session, params: Value) -> (Exchange, bool) {
    let server = session.server_group();
    let sent = Instant::now();
    let slow_after = slow_answer(session.timeout());
    let out_of_sight = server.is_none() && session.is_http();
    let asleep = move || match server {
        Some(group) => group_asleep(group),
        None => out_of_sight.then(|| sent.elapsed() >= slow_after),
    };
    let late = late_window(session.timeout());
    let call = async {
        let exchange = session.request("tools/call", Some(params)).await;
        match exchange.silence() {
            Some(silence) if silence.timed_out() && session.ended().is_none() => {
                session.answered_late(exchange, late).await
            }
            _ => exchange,
        }
    };
    let (exchange, lent) = slot::lend_while_timed(asleep, call).await;
    let took = sent.elapsed().saturating_sub(lent.unwrap_or_default());
    let slept = lent.is_some() || server.is_none();
    let slow = slept && exchange.response().is_some() && took > slow_after;
    (exchange, slow)
}

/// [`call_tool_timed`] of a tool's valid call, telling `early` the tool's pace as soon as
/// it is known: [`Pace::Slow`] once the call has gone unanswered for [`slow_answer`] while
/// the slot was lent (its server seen asleep) or its server cannot be seen, which is
/// what makes an answer slow; otherwise how the call ended.
async fn call_tool_paced(
    session: &mut Session,
    params: Value,
    name: &str,
    early: &Early,
) -> (Exchange, bool) {
    let slow_after = slow_answer(session.timeout());
    let seen = session.server_group().is_some();
    let call = call_tool_timed(session, params);
    tokio::pin!(call);
    let watch = async {
        tokio::time::sleep(slow_after).await;
        while seen && !slot::lent() {
            tokio::time::sleep(slot::SAMPLE_EVERY).await;
        }
    };
    let (exchange, slow) = tokio::select! {
        out = &mut call => out,
        () = watch => {
            early.tell(name, Pace::Slow);
            call.await
        }
    };
    let pace = match (slow, exchange.silence().is_some_and(Silence::timed_out)) {
        (true, _) => Pace::Slow,
        (false, true) => Pace::TimedOut,
        (false, false) => Pace::Prompt,
    };
    early.tell(name, pace);
    (exchange, slow)
}

/// The progress probe: `tool`'s valid call again, with `_meta.progressToken`
/// ([`PROGRESS_TOKEN`]), then a ping. The call is one the server answered before, so it
/// costs no timeout; the ping is answered at once by a server that behaves, and whatever
/// progress the server writes after the call's response comes before that answer.
async fn progress_probe(session: &mut Session, tool: &ToolCall) -> ProgressProbe {
    let arguments = tool
        .exchange
        .as_ref()
        .and_then(|x| x.request.pointer("/params/arguments"))
        .cloned()
        .unwrap_or_else(|| json!({}));
    let params = json!({
        "name": tool.name,
        "arguments": arguments,
        "_meta": {"progressToken": PROGRESS_TOKEN},
    });
    let exchange = call_tool(session, params).await;
    let fence = session.liveness().await;
    ProgressProbe {
        call: ToolCall {
            name: tool.name.clone(),
            tool: tool.tool.clone(),
            intent: "its valid call with a progressToken in _meta".into(),
            exchange: Some(exchange),
            skipped: None,
        },
        fence,
    }
}

/// The task-augmented calls: every called tool that offers tasks (`"optional"` or
/// `"required"`), with the arguments of its valid call, and the first tool that answered
/// its valid call without offering them (it SHOULD get -32601). Only tools the call
/// policy let us call, and only on a server that declares task-augmented tools/call.
async fn task_calls(session: &mut Session, revision: &Revision, record: &mut ToolsRecord) {
    let made = || {
        record.calls.iter().filter_map(|c| {
            let x = c.exchange.as_ref().filter(|x| x.response().is_some())?;
            let arguments = x.request.pointer("/params/arguments")?.clone();
            Some((c, arguments, TaskSupport::of(&c.tool, revision)))
        })
    };
    let mut probes: Vec<(&ToolCall, Value, TaskSupport)> = made()
        .filter(|(_, _, support)| *support != TaskSupport::Forbidden)
        .take(MAX_TASK_PROBES - 1)
        .collect();
    probes.extend(made().find(|(_, _, support)| *support == TaskSupport::Forbidden));
    let mut out = Vec::new();
    for (call, arguments, support) in probes {
        if session.ended().is_some() {
            break;
        }
        let params = json!({
            "name": call.name,
            "arguments": arguments,
            "task": {"ttl": TASK_TTL_MS},
        });
        let exchange = call_tool(session, params).await;
        out.push(ToolCall {
            name: call.name.clone(),
            tool: call.tool.clone(),
            intent: format!("a task-augmented call (taskSupport {:?})", support.as_str()),
            exchange: Some(exchange),
            skipped: None,
        });
    }
    record.task_calls = out;
}
