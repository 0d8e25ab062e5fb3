//! Call results: content types and base64, explained tool errors, results rather than
//! protocol errors, structured content (`tools.mdx`, Tool Result, Output Schema, Structured
//! Content).

use base64::Engine;
use serde_json::Value;

use super::super::model::{Ctx, Verdict};
use super::*;
use crate::protocol::Exchange;
use crate::records::{compile_input_schema, ToolCall, ToolsRecord};
use crate::rules::CheckId;
use crate::rules::{self, TaskSupport};

/// `TC-CONTENT-VERSION-GATE` / `TC-CONTENT-TYPES`: content types the revision has.
pub(in crate::checks) fn content_types(ctx: &Ctx<'_>) -> Verdict {
    let record = match calls(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let rev = revision(ctx);
    let mut bad = Vec::new();
    let mut n = 0;
    for (call, x, result) in answered(record) {
        for item in content(result) {
            n += 1;
            if let Some(b) = rules::content_type(rev, item) {
                bad.push((call, x, b.message));
            }
        }
    }
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{n} content block(s), all of types {} defines",
            rev.id
        ));
    }
    Verdict::Violation(
        format!(
            "{} content block(s) have a type the negotiated revision {} does not define",
            bad.len(),
            rev.id
        ),
        call_failures(ctx, &bad),
    )
}

/// `TC-CONTENT-IMAGE` / `TC-CONTENT-AUDIO` / `TC-CONTENT-RESOURCE`: base64 that decodes,
/// with a mimeType.
pub(in crate::checks) fn content_base64(ctx: &Ctx<'_>) -> Verdict {
    let record = match calls(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let engine = base64::engine::general_purpose::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    let mut bad = Vec::new();
    let mut n = 0;
    for (call, x, result) in answered(record) {
        for item in content(result) {
            let (data, field) = match item.get("type").and_then(Value::as_str) {
                Some("image" | "audio") => (item.get("data"), "data"),
                Some("resource") => match item.pointer("/resource/blob") {
                    Some(blob) => (Some(blob), "resource.blob"),
                    None => continue,
                },
                _ => continue,
            };
            n += 1;
            let ty = item["type"].as_str().unwrap_or_default();
            match data.and_then(Value::as_str) {
                None => bad.push((call, x, format!("{ty} content has no string {field}"))),
                Some(d) if engine.decode(d).is_err() => {
                    bad.push((call, x, format!("{ty} content {field} is not valid base64")))
                }
                Some(_) => {}
            }
            let mime = if ty == "resource" {
                item.pointer("/resource/mimeType")
            } else {
                item.get("mimeType")
            };
            if ty != "resource" && !mime.is_some_and(Value::is_string) {
                bad.push((call, x, format!("{ty} content has no string mimeType")));
            }
        }
    }
    if n == 0 {
        return Verdict::Skip("no image, audio or blob content was returned".into());
    }
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{n} binary content block(s) carry valid base64 and a mimeType"
        ));
    }
    Verdict::Violation(
        format!(
            "{} binary content block(s) are not valid base64 with a mimeType",
            bad.len()
        ),
        call_failures(ctx, &bad),
    )
}

/// Whether a tool result says in text what went wrong.
fn explained(result: &Value) -> bool {
    content(result).any(|c| {
        c.get("text")
            .and_then(Value::as_str)
            .is_some_and(|t| !t.trim().is_empty())
    })
}

/// A tool execution error carries a non-empty explanation: the scripted calls' errors and
/// those generated calls with valid arguments reached (an error path only some inputs
/// reach, such as a division by zero).
pub(in crate::checks) fn error_explained(ctx: &Ctx<'_>) -> Verdict {
    let record = match calls(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let errors: Vec<_> = answered(record)
        .filter(|(_, _, r)| r.get("isError") == Some(&Value::Bool(true)))
        .collect();
    let generated = ctx
        .record
        .properties
        .as_ref()
        .map_or(&[][..], |p| p.tool_errors.as_slice());
    if errors.is_empty() && generated.is_empty() {
        return Verdict::Skip("no call returned a tool execution error".into());
    }
    let bad: Vec<_> = errors
        .iter()
        .filter(|(_, _, r)| !explained(r))
        .map(|(c, x, _)| {
            (
                *c,
                *x,
                "isError: true with no text saying what went wrong".to_string(),
            )
        })
        .collect();
    let bad_generated: Vec<_> = generated.iter().filter(|e| !explained(&e.result)).collect();
    let n = errors.len() + generated.len();
    if bad.is_empty() && bad_generated.is_empty() {
        let of_generated = match generated.len() {
            0 => String::new(),
            g => format!(" ({g} of generated calls)"),
        };
        return Verdict::Pass(format!(
            "{n} tool execution error(s), each explained in text{of_generated}"
        ));
    }
    let mut evidence = call_failures(ctx, &bad);
    evidence.extend(bad_generated.iter().map(|e| {
        Evidence::note(format!(
            "generated call of {:?} with {}: isError: true with no text saying what went wrong: {}",
            e.tool, e.arguments, e.result
        ))
    }));
    Verdict::Violation(
        format!(
            "{} tool execution error(s) carry no explanation; the model needs one to self-correct",
            bad.len() + bad_generated.len()
        ),
        evidence,
    )
}

/// `TC-ERR-EXECUTION` (SHOULD): errors of a tool called with valid arguments come back as
/// `isError` results, not JSON-RPC errors.
pub(in crate::checks) fn execution_errors(ctx: &Ctx<'_>) -> Verdict {
    let record = match calls(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let rev = revision(ctx);
    let made: Vec<_> = record
        .calls
        .iter()
        .filter_map(|c| c.exchange.as_ref().map(|x| (c, x)))
        .collect();
    let bad: Vec<_> = made
        .iter()
        .filter(|(c, x)| rules::valid_call(TaskSupport::of(&c.tool, rev), x.error()).is_some())
        .map(|(c, x)| {
            (
                *c,
                *x,
                format!(
                    "a call with valid arguments ({}) got a JSON-RPC error",
                    c.intent
                ),
            )
        })
        .collect();
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} call(s) with valid arguments got results, not protocol errors",
            made.len()
        ));
    }
    Verdict::Violation(
        format!(
            "{} call(s) with arguments valid for the tool's inputSchema got a JSON-RPC error; errors that \
             originate from the tool SHOULD be reported in the result with isError: true",
            bad.len()
        ),
        call_failures(ctx, &bad),
    )
}

/// Results of tools that declare an outputSchema and did not fail.
fn structured_calls(record: &ToolsRecord) -> Vec<(&ToolCall, &Exchange, &Value)> {
    answered(record)
        .filter(|(c, _, r)| {
            c.tool.get("outputSchema").is_some() && r.get("isError") != Some(&Value::Bool(true))
        })
        .collect()
}

/// The structured-output rule's breaches of `check` among `calls`, and how many calls
/// it judged (those whose outputSchema compiles: one that does not is
/// tool-schema-dialect's finding).
fn structured_breaches<'a>(
    ctx: &Ctx<'_>,
    calls: &[(&'a ToolCall, &'a Exchange, &'a Value)],
    check: CheckId,
) -> (usize, Vec<(&'a ToolCall, &'a Exchange, String)>) {
    let rev = revision(ctx);
    let mut judged = 0;
    let mut bad = Vec::new();
    for (call, x, result) in calls {
        let Some(schema) = call.tool.get("outputSchema") else {
            continue;
        };
        let Ok(validator) = compile_input_schema(schema, rev) else {
            continue;
        };
        judged += 1;
        if let Some(breach) = rules::structured_output(&validator, result) {
            if breach.check == check {
                bad.push((*call, *x, breach.message));
            }
        }
    }
    (judged, bad)
}

/// `TC-OUTPUTSCHEMA-PRESENCE` (MUST; policy A7 exempts isError results).
pub(in crate::checks) fn structured_presence(ctx: &Ctx<'_>) -> Verdict {
    let record = match calls(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let with_schema = structured_calls(record);
    if with_schema.is_empty() {
        return Verdict::Skip("no tool with an outputSchema returned a non-error result".into());
    }
    let (_, bad) = structured_breaches(ctx, &with_schema, CheckId::TcOutputschemaPresence);
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} result(s) of tools with an outputSchema carry structuredContent",
            with_schema.len()
        ));
    }
    Verdict::Violation(
        format!(
            "{} result(s) lack structuredContent although the tool declares an outputSchema",
            bad.len()
        ),
        call_failures(ctx, &bad),
    )
}

/// `TC-OUTPUTSCHEMA-CONFORM` (MUST): structuredContent conforms to the outputSchema.
pub(in crate::checks) fn structured_conform(ctx: &Ctx<'_>) -> Verdict {
    let record = match calls(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let with_content: Vec<_> = structured_calls(record)
        .into_iter()
        .filter(|(_, _, r)| r.get("structuredContent").is_some())
        .collect();
    let (n, bad) = structured_breaches(ctx, &with_content, CheckId::TcOutputschemaConform);
    if n == 0 {
        return Verdict::Skip(
            "no structuredContent to judge against a compilable outputSchema".into(),
        );
    }
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{n} structuredContent value(s) conform to their outputSchema"
        ));
    }
    Verdict::Violation(
        format!(
            "{} structuredContent value(s) do not conform to the tool's outputSchema",
            bad.len()
        ),
        call_failures(ctx, &bad),
    )
}

/// `TC-STRUCTURED-TEXT-MIRROR` (SHOULD, policy A13): a text block parses to the same JSON.
pub(in crate::checks) fn structured_text_mirror(ctx: &Ctx<'_>) -> Verdict {
    let record = match calls(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let with_sc: Vec<_> = answered(record)
        .filter(|(_, _, r)| r.get("structuredContent").is_some())
        .collect();
    if with_sc.is_empty() {
        return Verdict::Skip("no result carried structuredContent".into());
    }
    let bad: Vec<_> = with_sc
        .iter()
        .filter(|(_, _, r)| {
            let sc = &r["structuredContent"];
            !content(r)
                .filter_map(|c| c.get("text").and_then(Value::as_str))
                .any(|t| serde_json::from_str::<Value>(t).is_ok_and(|v| &v == sc))
        })
        .map(|(c, x, _)| {
            (
                *c,
                *x,
                "no text block holds the serialized structuredContent".to_string(),
            )
        })
        .collect();
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} result(s) mirror structuredContent in a text block",
            with_sc.len()
        ));
    }
    Verdict::Violation(
        format!(
            "{} result(s) with structuredContent have no text block holding the same JSON (compared as parsed JSON); \
             a tool returning structured content SHOULD also return it serialized as text",
            bad.len()
        ),
        call_failures(ctx, &bad),
    )
}
