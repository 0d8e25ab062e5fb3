//! Judge: every message the server sends validates against its revision's schema.json.
//!
//! Payloads are validated (a result against the definition its request method calls
//! for, an error against `Error`, a notification or request against its union member);
//! the envelope (`jsonrpc`, `id`, result-xor-error) is judged by the `rpc-*` checks, so
//! one broken rule shows up once.

use std::collections::BTreeSet;

use serde_json::Value;

use super::model::{Ctx, Evidence, Verdict, MAX_EXAMPLES};
use crate::protocol::{
    classify, result_definition_of, ListingTail, MessageKind, SchemaSet, SchemaViolation,
};

/// What a failing payload probably meant, for mistakes seen in the wild.
fn hints(definition: &str, instance: &Value) -> Vec<&'static str> {
    let mut out = Vec::new();
    if definition == "CallToolResult" {
        if instance.get("toolResult").is_some() && instance.get("content").is_none() {
            out.push(
                "hint: `toolResult` is the pre-2024-11-05 draft shape; a CallToolResult carries a \
                 `content` array (and `structuredContent` from 2025-06-18)",
            );
        }
        if instance.get("isError").is_some_and(Value::is_string) {
            out.push("hint: `isError` is a JSON boolean (true), not the string \"true\"");
        }
    }
    if definition == "ListToolsResult" {
        let tools = instance.get("tools").and_then(Value::as_array);
        if tools
            .into_iter()
            .flatten()
            .any(|t| t.get("inputSchema").is_none())
        {
            out.push(
                "hint: every tool needs an inputSchema; a tool without parameters uses \
                 {\"type\": \"object\", \"additionalProperties\": false}",
            );
        }
    }
    if definition == "InitializeResult" && instance.get("serverInfo").is_none() {
        out.push("hint: serverInfo ({\"name\", \"version\"}) is required in the initialize result");
    }
    out
}

/// `TOOL-EXTRA-FIELDS` (policy): Tool members the negotiated revision does not define are
/// allowed by its open schema and reported as information, never as a finding.
fn newer_tool_fields(ctx: &Ctx<'_>) -> String {
    let Some(revision) = ctx.revision else {
        return String::new();
    };
    let mut extra: BTreeSet<String> = BTreeSet::new();
    crate::records::each_listed_tool(&ctx.record.tools_pages, |t| {
        let keys = t.as_object().into_iter().flat_map(|t| t.keys());
        extra.extend(
            keys.filter(|k| !revision.tool_fields.contains(&k.as_str()))
                .cloned(),
        );
    });
    let extra: Vec<String> = extra.into_iter().collect();
    if extra.is_empty() {
        return String::new();
    }
    format!(
        "; for information: tools carry members {} does not define ({}), which its open Tool schema allows",
        revision.id,
        extra.join(", ")
    )
}

/// The violations of a listing's tail (the tools of a page too wide for one tree, past
/// those its tree holds), each tool validated on its own against `Tool`, at its place in
/// the page; the first few, as for any message.
fn tail_violations(schemas: &SchemaSet, tail: &ListingTail) -> crate::Result<Vec<SchemaViolation>> {
    let mut out = Vec::new();
    for (i, tool) in tail.tools().enumerate() {
        for v in schemas.validate("Tool", &tool)? {
            out.push(SchemaViolation {
                instance_path: format!("/tools/{}{}", tail.kept() + i, v.instance_path),
                message: v.message,
            });
        }
        if out.len() >= MAX_EXAMPLES {
            break;
        }
    }
    Ok(out)
}

/// `schema.json`: results, errors, notifications and requests validate.
pub(super) fn server_messages(ctx: &Ctx<'_>) -> Verdict {
    let Some(schemas) = ctx.schemas else {
        return Verdict::Skip("the negotiated revision is not one the suite knows".into());
    };
    let notifications = schemas.union_methods("ServerNotification");
    let requests = schemas.union_methods("ServerRequest");
    let mut checked = 0;
    let mut failures: Vec<(usize, String, Vec<SchemaViolation>, Vec<&str>)> = Vec::new();
    for entry in ctx.transcript().received().filter(|e| e.problem.is_none()) {
        let Some(message) = entry.json.as_deref() else {
            continue;
        };
        let method = message.get("method").and_then(Value::as_str);
        let (definition, instance) = match classify(message) {
            MessageKind::Response => {
                let Some(request) = ctx.request_of(entry.seq) else {
                    continue;
                };
                match (message.get("result"), message.get("error")) {
                    (Some(result), None) => {
                        let m = request
                            .get("method")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        // A task-augmented call is answered with a CreateTaskResult, or
                        // (the task ignored) with the plain result: tc-task-create and
                        // tc-task-forbidden judge which one came; this check its shape.
                        let task = request.pointer("/params/task").is_some()
                            && result.get("task").is_some()
                            && schemas.has("CreateTaskResult");
                        let definition = if task {
                            "CreateTaskResult"
                        } else {
                            result_definition_of(schemas, m, result)
                        };
                        // The closing legacy initialize of a modern conversation is
                        // answered in the legacy era, which this schema does not define.
                        if !schemas.has(definition) {
                            continue;
                        }
                        (definition.to_string(), result)
                    }
                    (None, Some(error)) => (schemas.error_object().to_string(), error),
                    _ => continue, // both or neither: rpc-resp-exclusive
                }
            }
            MessageKind::Notification
                if method.is_some_and(|m| notifications.iter().any(|n| n == m)) =>
            {
                ("ServerNotification".to_string(), message)
            }
            MessageKind::Request if method.is_some_and(|m| requests.iter().any(|n| n == m)) => {
                ("ServerRequest".to_string(), message)
            }
            _ => continue,
        };
        checked += 1;
        let validated = schemas.validate(&definition, instance).and_then(|mut v| {
            if let Some(tail) = entry.listing_tail.as_deref() {
                v.extend(tail_violations(schemas, tail)?);
            }
            Ok(v)
        });
        match validated {
            Ok(v) if v.is_empty() => {}
            Ok(v) => {
                let hinted = hints(&definition, instance);
                failures.push((entry.seq, definition, v, hinted));
            }
            Err(e) => return Verdict::Skip(format!("schema could not be compiled: {e}")),
        }
    }
    let revision = schemas.revision().id;
    if failures.is_empty() {
        return Verdict::Pass(format!(
            "{checked} message payload(s) validate against the {revision} schema{}",
            newer_tool_fields(ctx)
        ));
    }
    let mut evidence = Vec::new();
    for (seq, definition, violations, hinted) in failures.iter().take(MAX_EXAMPLES) {
        if let Some(req) = ctx.transcript().get(*seq).and_then(|e| e.answers) {
            evidence.extend(ctx.evidence(&[req]));
        }
        evidence.extend(ctx.evidence(&[*seq]));
        for v in violations {
            let at = if v.instance_path.is_empty() {
                "(root)"
            } else {
                &v.instance_path
            };
            evidence.push(Evidence::note(format!(
                "{definition} at {at}: {}",
                v.message
            )));
        }
        evidence.extend(hinted.iter().map(|h| Evidence::note(*h)));
    }
    let names: Vec<&str> = failures.iter().map(|(_, d, _, _)| d.as_str()).collect();
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    Verdict::Violation(
        format!(
            "{} of {checked} message payload(s) do not validate against the {revision} schema ({})",
            failures.len(),
            unique.join(", ")
        ),
        evidence,
    )
}
