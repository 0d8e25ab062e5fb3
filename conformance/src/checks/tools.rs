//! Judges for the Tools chapter (`tools.mdx`, `pagination.mdx`): the listing, tool names,
//! pagination, call results, structured content, error classes and list_changed.
//!
//! Every judge here skips when the server does not declare the `tools` capability:
//! nothing is reported against a capability a server did not declare.

use std::collections::BTreeSet;

use base64::Engine;
use serde_json::Value;

use super::catalog::CheckId;
use super::model::{exchange_evidence, Ctx, Evidence, Verdict, MAX_EXAMPLES};
use super::rules;
use crate::protocol::{Exchange, Revision};
use crate::scenarios::{compile_input_schema, listed_tools, ToolCall, ToolsRecord};

const NOT_DECLARED: &str = "the server does not declare the tools capability";

/// The tools listed on the first walk, or the verdict that says why there are none.
fn listing<'a>(ctx: &'a Ctx<'_>) -> Result<Vec<&'a Value>, Verdict> {
    if let Some(skip) = ctx.skip_if_stopped() {
        return Err(skip);
    }
    if !ctx.record.declares_tools() {
        return Err(Verdict::Skip(NOT_DECLARED.into()));
    }
    if ctx.record.tools_pages.iter().all(|p| p.result().is_none()) {
        return Err(Verdict::Skip("tools/list did not succeed".into()));
    }
    Ok(listed_tools(&ctx.record.tools_pages))
}

/// The Tools conversation, or why it did not happen.
fn conversation<'a>(ctx: &'a Ctx<'_>) -> Result<&'a ToolsRecord, Verdict> {
    listing(ctx)?;
    ctx.record
        .tools
        .as_ref()
        .ok_or_else(|| Verdict::Skip("the Tools conversation did not run".into()))
}

fn revision(ctx: &Ctx<'_>) -> &'static Revision {
    ctx.revision.unwrap_or(ctx.record.requested)
}

fn name_of(tool: &Value) -> &str {
    tool.get("name")
        .and_then(Value::as_str)
        .unwrap_or("(no name)")
}

/// Evidence for tools found wanting: the tools/list exchange that listed the first one,
/// then a note naming each tool and what is wrong with it.
fn tools_evidence(ctx: &Ctx<'_>, bad: &[(String, String)]) -> Vec<Evidence> {
    let first = bad.first().map(|(n, _)| n.as_str()).unwrap_or_default();
    let page = ctx.record.tools_pages.iter().find(|p| {
        p.result()
            .and_then(|r| r.get("tools"))
            .and_then(Value::as_array)
            .is_some_and(|tools| tools.iter().any(|t| name_of(t) == first))
    });
    let mut out = page.map(|p| ctx.exchange_evidence(p)).unwrap_or_default();
    for (name, why) in bad.iter().take(MAX_EXAMPLES) {
        out.push(Evidence::note(format!("tool {name:?}: {why}")));
    }
    if bad.len() > MAX_EXAMPLES {
        out.push(Evidence::note(format!(
            "... and {} more",
            bad.len() - MAX_EXAMPLES
        )));
    }
    out
}

/// Runs `rule` on every listed tool; `Some(why)` marks a tool that breaks it.
fn per_tool(
    ctx: &Ctx<'_>,
    what: &str,
    rule: impl Fn(&Value) -> Option<String>,
) -> Result<(usize, Vec<(String, String)>), Verdict> {
    let tools = listing(ctx)?;
    let bad = tools
        .iter()
        .filter_map(|t| rule(t).map(|why| (name_of(t).to_string(), why)))
        .collect();
    if tools.is_empty() {
        return Err(Verdict::Skip(format!(
            "the server lists no tools, so no {what} to judge"
        )));
    }
    Ok((tools.len(), bad))
}

fn verdict_per_tool(
    ctx: &Ctx<'_>,
    what: &str,
    rule: impl Fn(&Value) -> Option<String>,
    pass: &str,
    fail: &str,
) -> Verdict {
    match per_tool(ctx, what, rule) {
        Err(v) => v,
        Ok((n, bad)) if bad.is_empty() => Verdict::Pass(format!("{n} tool(s): {pass}")),
        Ok((n, bad)) => Verdict::Violation(
            format!("{} of {n} tool(s) {fail}", bad.len()),
            tools_evidence(ctx, &bad),
        ),
    }
}

/// `TOOL-INPUTSCHEMA-REQUIRED` / `-NOT-NULL`: an object with `"type": "object"`.
pub(super) fn input_schema_type(ctx: &Ctx<'_>) -> Verdict {
    verdict_per_tool(
        ctx,
        "inputSchema",
        |tool| match tool.get("inputSchema") {
            None => Some("has no inputSchema".into()),
            Some(Value::Null) => Some("has inputSchema null".into()),
            Some(s) if !s.is_object() => {
                Some(format!("has an inputSchema that is not an object: {s}"))
            }
            Some(s) if s.get("type") != Some(&Value::String("object".into())) => Some(format!(
                "has inputSchema.type {}, not \"object\"",
                s.get("type")
                    .map_or("missing".to_string(), Value::to_string)
            )),
            Some(_) => None,
        },
        "inputSchema is an object schema with \"type\": \"object\"",
        "lack an inputSchema object with \"type\": \"object\"",
    )
}

/// The meta-schema errors of `schema` in the dialect that applies, or `Err` with a note
/// when the dialect is one we cannot check.
fn meta_errors(schema: &Value, revision: &Revision) -> Result<Option<String>, String> {
    let declared = schema.get("$schema").and_then(Value::as_str);
    let dialect = match declared {
        Some(uri) if uri.contains("draft-07") => "draft-07",
        Some(uri) if uri.contains("2020-12") => "2020-12",
        Some(uri) if uri.contains("2019-09") => "2019-09",
        Some(uri) if uri.contains("draft-06") => "draft-06",
        Some(uri) if uri.contains("draft-04") => "draft-04",
        Some(uri) => {
            return Err(format!(
                "declares $schema {uri:?}, a dialect the suite cannot check"
            ))
        }
        None if revision.draft_2020_12 => "2020-12",
        None => "draft-07",
    };
    let result = match dialect {
        "draft-07" => jsonschema::draft7::meta::validate(schema),
        "2020-12" => jsonschema::draft202012::meta::validate(schema),
        "2019-09" => jsonschema::draft201909::meta::validate(schema),
        "draft-06" => jsonschema::draft6::meta::validate(schema),
        _ => jsonschema::draft4::meta::validate(schema),
    };
    Ok(result.err().map(|e| {
        format!(
            "is not a valid {dialect} schema: {} at {}",
            e,
            e.instance_path()
        )
    }))
}

/// `TOOL-INPUTSCHEMA-DIALECT` (MUST from 2025-11-25; policy A8 warning before): inputSchema
/// and outputSchema are valid in their declared or default dialect.
pub(super) fn schema_dialect(ctx: &Ctx<'_>) -> Verdict {
    let rev = revision(ctx);
    let verdict = verdict_per_tool(
        ctx,
        "schemas",
        |tool| {
            let mut problems = Vec::new();
            for key in ["inputSchema", "outputSchema"] {
                let Some(schema) = tool.get(key).filter(|s| s.is_object()) else {
                    continue;
                };
                match meta_errors(schema, rev) {
                    Ok(None) | Err(_) => {}
                    Ok(Some(e)) => problems.push(format!("{key} {e}")),
                }
            }
            (!problems.is_empty()).then(|| problems.join("; "))
        },
        "inputSchema and outputSchema are valid JSON Schemas in their dialect",
        "have a schema that is not valid in its dialect",
    );
    match verdict {
        // Before 2025-11-25 the dialect is unspecified (REQUIREMENTS.md 10 A8): the
        // catalog grades it a policy warning there; the message says which dialect we assumed.
        Verdict::Violation(m, e) if !rev.draft_2020_12 => Verdict::Violation(
            format!(
                "{m} (draft-07 assumed; the dialect is unspecified before 2025-11-25, policy A8)"
            ),
            e,
        ),
        v => v,
    }
}

/// `TOOL-OUTPUTSCHEMA` (2025-06-18+): an outputSchema has an object root.
pub(super) fn output_schema_object(ctx: &Ctx<'_>) -> Verdict {
    verdict_per_tool(
        ctx,
        "outputSchema",
        |tool| {
            let schema = tool.get("outputSchema")?;
            (schema.get("type") != Some(&Value::String("object".into()))).then(|| {
                format!(
                    "has outputSchema.type {}, not \"object\" (structured content is an object)",
                    schema
                        .get("type")
                        .map_or("missing".to_string(), Value::to_string)
                )
            })
        },
        "every outputSchema has \"type\": \"object\" at its root",
        "have an outputSchema whose root is not \"type\": \"object\"",
    )
}

/// `TOOL-NAME-UNIQUE` (policy A14: duplicates fail): unique across all pages.
pub(super) fn name_unique(ctx: &Ctx<'_>) -> Verdict {
    let tools = match listing(ctx) {
        Ok(t) => t,
        Err(v) => return v,
    };
    let mut seen = BTreeSet::new();
    let mut dupes = Vec::new();
    for tool in &tools {
        let name = name_of(tool).to_string();
        if !seen.insert(name.clone()) {
            dupes.push((name, "is listed more than once".to_string()));
        }
    }
    if dupes.is_empty() {
        return Verdict::Pass(format!(
            "{} tool name(s), all distinct across {} page(s)",
            tools.len(),
            ctx.record.tools_pages.len()
        ));
    }
    let mut evidence: Vec<Evidence> = ctx
        .record
        .tools_pages
        .iter()
        .take(MAX_EXAMPLES)
        .flat_map(|p| ctx.evidence(&p.seqs()))
        .collect();
    evidence.extend(
        dupes
            .iter()
            .map(|(n, why)| Evidence::note(format!("tool {n:?} {why}"))),
    );
    Verdict::Violation(
        format!(
            "{} tool name(s) repeat; each tool is uniquely identified by its name",
            dupes.len()
        ),
        evidence,
    )
}

/// `TOOL-NAME-LENGTH` (2025-11-25+, SHOULD): 1 to 128 characters.
pub(super) fn name_length(ctx: &Ctx<'_>) -> Verdict {
    verdict_per_tool(
        ctx,
        "names",
        |tool| {
            let n = name_of(tool).chars().count();
            (!(1..=128).contains(&n)).then(|| format!("name has {n} characters"))
        },
        "names are 1 to 128 characters long",
        "have names outside 1 to 128 characters; tool names SHOULD be 1-128 characters",
    )
}

/// `TOOL-NAME-CHARSET` (2025-11-25+, SHOULD): only `A-Z a-z 0-9 _ - .`.
pub(super) fn name_charset(ctx: &Ctx<'_>) -> Verdict {
    verdict_per_tool(
        ctx,
        "names",
        |tool| {
            let bad: String = name_of(tool)
                .chars()
                .filter(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
                .collect::<BTreeSet<char>>()
                .into_iter()
                .map(|c| format!("{c:?}"))
                .collect::<Vec<_>>()
                .join(" ");
            (!bad.is_empty()).then(|| format!("name uses {bad}"))
        },
        "names use only A-Z a-z 0-9 _ - .",
        "have names with characters other than A-Z a-z 0-9 _ - . (no spaces or commas)",
    )
}

/// `TOOL-NAME-CASE` (2025-11-25+, SHOULD): names differing only in case confuse clients
/// that compare case-insensitively.
pub(super) fn name_case(ctx: &Ctx<'_>) -> Verdict {
    let tools = match listing(ctx) {
        Ok(t) => t,
        Err(v) => return v,
    };
    let names: BTreeSet<&str> = tools.iter().map(|t| name_of(t)).collect();
    let mut bad = Vec::new();
    let mut seen: Vec<(&str, String)> = Vec::new();
    for name in &names {
        let lower = name.to_lowercase();
        if let Some((other, _)) = seen.iter().find(|(_, l)| *l == lower) {
            bad.push((
                name.to_string(),
                format!("differs from {other:?} only in case"),
            ));
        }
        seen.push((name, lower));
    }
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} distinct name(s), none equal but for case",
            names.len()
        ));
    }
    Verdict::Violation(
        format!("{} tool name(s) equal another but for case; names are case-sensitive and clients may confuse them", bad.len()),
        tools_evidence(ctx, &bad),
    )
}

/// `PAG-TERMINATES` (policy): following `nextCursor` ends.
pub(super) fn pagination_terminates(ctx: &Ctx<'_>) -> Verdict {
    if let Err(v) = listing(ctx) {
        return v;
    }
    let pages = &ctx.record.tools_pages;
    match &ctx.record.tools_walk_stopped {
        None => Verdict::Pass(format!("the listing ended after {} page(s)", pages.len())),
        Some(why) => {
            let mut evidence: Vec<Evidence> = pages
                .iter()
                .rev()
                .take(3)
                .rev()
                .flat_map(|p| ctx.evidence(&p.seqs()))
                .collect();
            evidence.push(Evidence::note(why.clone()));
            Verdict::Violation(
                format!("following nextCursor does not end: {why}"),
                evidence,
            )
        }
    }
}

/// `PAG-INVALID-CURSOR` (SHOULD): an unknown cursor gets -32602.
pub(super) fn pagination_invalid_cursor(ctx: &Ctx<'_>) -> Verdict {
    let record = match conversation(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let Some(x) = &record.invalid_cursor else {
        return Verdict::Skip("the invalid-cursor probe was not sent".into());
    };
    if x.response().is_none() {
        return Verdict::Skip("no response (see rpc-response-required)".into());
    }
    match rules::cursor(x.error_code(), x.result(), false) {
        None => Verdict::Pass("an invalid cursor got -32602".into()),
        Some(breach) => Verdict::Violation(
            format!(
                "an invalid cursor got {}; invalid cursors SHOULD get -32602",
                breach.message
            ),
            ctx.exchange_evidence(x),
        ),
    }
}

fn names(pages: &[Exchange]) -> BTreeSet<String> {
    listed_tools(pages)
        .iter()
        .map(|t| name_of(t).to_string())
        .collect()
}

/// `PAG-STABLE` (SHOULD, policy): two walks give the same set of tools.
pub(super) fn pagination_stable(ctx: &Ctx<'_>) -> Verdict {
    let record = match conversation(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    if record.second_walk.iter().any(|p| p.result().is_none()) {
        return Verdict::Skip("the second walk did not complete".into());
    }
    let (a, b) = (names(&ctx.record.tools_pages), names(&record.second_walk));
    if a == b {
        return Verdict::Pass(format!("two walks listed the same {} tool(s)", a.len()));
    }
    let only_first: Vec<_> = a.difference(&b).cloned().collect();
    let only_second: Vec<_> = b.difference(&a).cloned().collect();
    let mut evidence: Vec<Evidence> = record
        .second_walk
        .iter()
        .take(MAX_EXAMPLES)
        .flat_map(|p| ctx.evidence(&p.seqs()))
        .collect();
    evidence.push(Evidence::note(format!(
        "only in the first walk: {only_first:?}; only in the second: {only_second:?}"
    )));
    Verdict::Violation(
        "two walks of tools/list, with nothing in between, listed different tools; cursors and listings SHOULD be stable".into(),
        evidence,
    )
}

/// Calls that were made and answered with a result.
fn answered(record: &ToolsRecord) -> impl Iterator<Item = (&ToolCall, &Exchange, &Value)> {
    record.calls.iter().filter_map(|c| {
        let x = c.exchange.as_ref()?;
        Some((c, x, x.result()?))
    })
}

/// Skips with the call policy's reasons when no call was made.
fn calls<'a>(ctx: &'a Ctx<'_>) -> Result<&'a ToolsRecord, Verdict> {
    let record = conversation(ctx)?;
    if record.calls.iter().all(|c| c.exchange.is_none()) {
        let reasons: BTreeSet<&str> = record
            .calls
            .iter()
            .filter_map(|c| c.skipped.as_deref())
            .collect();
        return Err(Verdict::Skip(if reasons.is_empty() {
            "no tool was called".into()
        } else {
            format!(
                "no tool was called: {}",
                reasons.into_iter().collect::<Vec<_>>().join("; ")
            )
        }));
    }
    Ok(record)
}

/// Evidence for calls found wanting: each exchange once, then what is wrong with it.
fn call_failures(ctx: &Ctx<'_>, bad: &[(&ToolCall, &Exchange, String)]) -> Vec<Evidence> {
    let mut out = Vec::new();
    let mut shown: Vec<usize> = Vec::new();
    for (call, x, why) in bad {
        if !shown.contains(&x.request_seq) {
            if shown.len() == MAX_EXAMPLES {
                break;
            }
            shown.push(x.request_seq);
            out.extend(ctx.exchange_evidence(x));
        }
        out.push(Evidence::note(format!("tool {:?}: {why}", call.name)));
    }
    let calls: BTreeSet<usize> = bad.iter().map(|(_, x, _)| x.request_seq).collect();
    if calls.len() > shown.len() {
        out.push(Evidence::note(format!(
            "... and {} more call(s)",
            calls.len() - shown.len()
        )));
    }
    out
}

fn content(result: &Value) -> impl Iterator<Item = &Value> {
    result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// `TC-CONTENT-VERSION-GATE` / `TC-CONTENT-TYPES`: content types the revision has.
pub(super) fn content_types(ctx: &Ctx<'_>) -> Verdict {
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
            let ty = item.get("type").and_then(Value::as_str).unwrap_or("(none)");
            if !rev.content_types.contains(&ty) {
                bad.push((
                    call,
                    x,
                    format!(
                        "content type {ty:?} is not one of {} ({:?})",
                        rev.id, rev.content_types
                    ),
                ));
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
pub(super) fn content_base64(ctx: &Ctx<'_>) -> Verdict {
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

/// A tool execution error carries a non-empty explanation.
pub(super) fn error_explained(ctx: &Ctx<'_>) -> Verdict {
    let record = match calls(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let errors: Vec<_> = answered(record)
        .filter(|(_, _, r)| r.get("isError") == Some(&Value::Bool(true)))
        .collect();
    if errors.is_empty() {
        return Verdict::Skip("no call returned a tool execution error".into());
    }
    let bad: Vec<_> = errors
        .iter()
        .filter(|(_, _, r)| {
            !content(r).any(|c| {
                c.get("text")
                    .and_then(Value::as_str)
                    .is_some_and(|t| !t.trim().is_empty())
            })
        })
        .map(|(c, x, _)| {
            (
                *c,
                *x,
                "isError: true with no text saying what went wrong".to_string(),
            )
        })
        .collect();
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} tool execution error(s), each explained in text",
            errors.len()
        ));
    }
    Verdict::Violation(
        format!(
            "{} tool execution error(s) carry no explanation; the model needs one to self-correct",
            bad.len()
        ),
        call_failures(ctx, &bad),
    )
}

/// `TC-ERR-EXECUTION` (SHOULD): errors of a tool called with valid arguments come back as
/// `isError` results, not JSON-RPC errors.
pub(super) fn execution_errors(ctx: &Ctx<'_>) -> Verdict {
    let record = match calls(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let made: Vec<_> = record
        .calls
        .iter()
        .filter_map(|c| c.exchange.as_ref().map(|x| (c, x)))
        .collect();
    let bad: Vec<_> = made
        .iter()
        .filter(|(_, x)| rules::valid_call(x.error()).is_some())
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
pub(super) fn structured_presence(ctx: &Ctx<'_>) -> Verdict {
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
pub(super) fn structured_conform(ctx: &Ctx<'_>) -> Verdict {
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
pub(super) fn structured_text_mirror(ctx: &Ctx<'_>) -> Verdict {
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

/// `TC-ERR-UNKNOWN-TOOL` (policy A10): an unknown tool is a JSON-RPC error, -32602.
pub(super) fn unknown_tool(ctx: &Ctx<'_>) -> Verdict {
    let record = match conversation(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let Some(x) = &record.unknown_tool else {
        return Verdict::Skip("the unknown-tool probe was not sent".into());
    };
    let evidence = ctx.exchange_evidence(x);
    if x.silence().is_some() {
        return Verdict::Skip("no response (see rpc-response-required)".into());
    }
    match (x.error_code(), x.result()) {
        (Some(-32602), _) => Verdict::Pass("an unknown tool got JSON-RPC error -32602".into()),
        (Some(code), _) => Verdict::Warn(format!("an unknown tool got JSON-RPC error {code}; the spec's examples use -32602 (policy A10: warning)"), evidence),
        (None, Some(r)) if r.get("isError") == Some(&Value::Bool(true)) => Verdict::Warn(
            "an unknown tool got an isError result; unknown tools are protocol errors (-32602). Hint: several widely \
             deployed SDKs answer this way, so clients cope, but the spec's Error Handling lists unknown tools under \
             protocol errors"
                .into(),
            evidence,
        ),
        _ => Verdict::Violation("an unknown tool got a success result; unknown tools are protocol errors (-32602)".into(), evidence),
    }
}

/// `TC-ERR-MALFORMED`: tools/call without a string `name` is a protocol error.
pub(super) fn malformed_call(ctx: &Ctx<'_>) -> Verdict {
    let record = match conversation(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    if record.malformed.is_empty() {
        return Verdict::Skip("the malformed-call probes were not sent".into());
    }
    let mut fail = Vec::new();
    let mut warn = Vec::new();
    let mut answered = 0;
    for x in &record.malformed {
        match (x.error_code(), x.result(), x.error()) {
            (Some(-32602 | -32600), _, _) => answered += 1,
            // An error without an integer code is a protocol error all the same; the
            // code's type is rpc-error-shape's finding.
            (Some(_), _, _) | (None, None, Some(_)) => {
                answered += 1;
                warn.push(x);
            }
            (None, Some(_), _) => {
                answered += 1;
                fail.push(x);
            }
            (None, None, None) => {}
        }
    }
    let evidence = |xs: &[&Exchange]| {
        xs.iter()
            .flat_map(|x| ctx.exchange_evidence(x))
            .collect::<Vec<_>>()
    };
    if !fail.is_empty() {
        return Verdict::Violation(
            format!(
                "{} tools/call request(s) without a string name got a result; a malformed request is a protocol error (-32602)",
                fail.len()
            ),
            evidence(&fail),
        );
    }
    if !warn.is_empty() {
        return Verdict::Warn(
            format!("{} tools/call request(s) without a string name got an error other than -32602 or -32600", warn.len()),
            evidence(&warn),
        );
    }
    if answered == 0 {
        return Verdict::Skip(
            "no malformed tools/call request was answered (see rpc-response-required)".into(),
        );
    }
    Verdict::Pass(format!(
        "{answered} malformed tools/call request(s) got -32602 or -32600"
    ))
}

/// `TC-ERR-INPUT-VALIDATION` + `TC-VALIDATE-INPUTS`: arguments that break the inputSchema
/// are rejected, with the error class the revision expects (policy A6).
pub(super) fn input_validation(ctx: &Ctx<'_>) -> Verdict {
    let record = match calls(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let probes: Vec<_> = record
        .invalid_arguments
        .iter()
        .filter_map(|c| c.exchange.as_ref().map(|x| (c, x)))
        .collect();
    if probes.is_empty() {
        return Verdict::Skip("no called tool has a required property to leave out".into());
    }
    let rev = revision(ctx);
    let mut fail = Vec::new();
    let mut warn = Vec::new();
    for (call, x) in &probes {
        let Some(breach) = rules::invalid_arguments(rev, x.error(), x.result()) else {
            continue;
        };
        let line = (*call, *x, format!("{}: {}", call.intent, breach.message));
        if breach.kind.is_policy_warning() {
            warn.push(line);
        } else {
            fail.push(line);
        }
    }
    if !fail.is_empty() {
        return Verdict::Violation(
            format!("{} call(s) with arguments that break the tool's inputSchema succeeded; servers MUST validate all tool inputs", fail.len()),
            call_failures(ctx, &fail),
        );
    }
    if !warn.is_empty() {
        return Verdict::Warn(
            format!("{} invalid-argument call(s) were rejected with another error class than {} expects (policy A6)", warn.len(), rev.id),
            call_failures(ctx, &warn),
        );
    }
    let answered = probes
        .iter()
        .filter(|(_, x)| x.response().is_some())
        .count();
    if answered == 0 {
        return Verdict::Skip(
            "no invalid-argument call was answered (see rpc-response-required)".into(),
        );
    }
    Verdict::Pass(format!(
        "{answered} call(s) with invalid arguments were rejected as {} expects",
        rev.id
    ))
}

/// `notifications/tools/list_changed` messages the server sent.
fn list_changed(ctx: &Ctx<'_>) -> Vec<usize> {
    ctx.transcript()
        .received()
        .filter(|e| {
            e.json
                .as_ref()
                .and_then(|j| j.get("method"))
                .and_then(Value::as_str)
                == Some("notifications/tools/list_changed")
        })
        .map(|e| e.seq)
        .collect()
}

/// `LCN-SHAPE`: a well-formed notification (no id; params absent or an object).
pub(super) fn list_changed_shape(ctx: &Ctx<'_>) -> Verdict {
    if !ctx.record.declares_tools() {
        return Verdict::Skip(NOT_DECLARED.into());
    }
    let sent = list_changed(ctx);
    if sent.is_empty() {
        return Verdict::Skip("the server sent no notifications/tools/list_changed".into());
    }
    let bad: Vec<usize> = sent
        .iter()
        .copied()
        .filter(|&s| {
            let j = ctx.transcript().get(s).and_then(|e| e.json.as_ref());
            j.is_none_or(|j| {
                j.get("id").is_some() || j.get("params").is_some_and(|p| !p.is_object())
            })
        })
        .collect();
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} list_changed notification(s), all well formed",
            sent.len()
        ));
    }
    let mut evidence = ctx.evidence(&bad[..bad.len().min(MAX_EXAMPLES)]);
    evidence.push(Evidence::note("a list_changed notification has no id, and params is absent or an object holding only _meta"));
    Verdict::Violation(
        format!("{} list_changed notification(s) are malformed", bad.len()),
        evidence,
    )
}

/// `LCN-NOT-UNDECLARED` (policy A12): no list_changed without `listChanged: true`; a
/// warning in 2024-11-05 and 2025-03-26, a failure from 2025-06-18 (Operation is a MUST).
pub(super) fn list_changed_declared(ctx: &Ctx<'_>) -> Verdict {
    if !ctx.record.declares_tools() {
        return Verdict::Skip(NOT_DECLARED.into());
    }
    let sent = list_changed(ctx);
    if sent.is_empty() {
        return Verdict::Skip("the server sent no notifications/tools/list_changed".into());
    }
    let declared = ctx
        .record
        .init_result()
        .and_then(|r| r.pointer("/capabilities/tools/listChanged"))
        == Some(&Value::Bool(true));
    if declared {
        return Verdict::Pass("list_changed was sent, and tools.listChanged is declared".into());
    }
    let mut evidence = exchange_evidence(ctx.transcript(), &ctx.record.initialize);
    evidence.extend(ctx.evidence(&sent[..sent.len().min(MAX_EXAMPLES)]));
    let message = format!(
        "{} notifications/tools/list_changed sent without declaring tools.listChanged: true; only negotiated \
         capabilities may be used",
        sent.len()
    );
    // A SHOULD before 2025-06-18 (policy A12): the catalog row grades it per revision.
    Verdict::Violation(message, evidence)
}
