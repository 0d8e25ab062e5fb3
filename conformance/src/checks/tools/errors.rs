//! Error classes of `tools/call`: an unknown tool, a malformed call, `arguments` of the
//! wrong type or left out, invalid arguments (`tools.mdx`, Error Handling; REQUIREMENTS.md
//! 10 A6, A10).

use serde_json::Value;

use super::super::model::{Ctx, Verdict};
use super::*;
use crate::protocol::Exchange;
use crate::records::requires_arguments;
use crate::rules::{self, TaskSupport};

/// `TC-ERR-UNKNOWN-TOOL` (policy A10): an unknown tool is a JSON-RPC error, -32602.
pub(in crate::checks) fn unknown_tool(ctx: &Ctx<'_>) -> Verdict {
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
pub(in crate::checks) fn malformed_call(ctx: &Ctx<'_>) -> Verdict {
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
            // Over 2026-07-28 Streamable HTTP a tools/call without a string name has no
            // Mcp-Name to send: HeaderMismatch (-32020) is the transport's protocol error
            // for that (streamable-http.mdx, Server Validation).
            (Some(-32020), _, _) if ctx.record.http.is_some() => answered += 1,
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
pub(in crate::checks) fn input_validation(ctx: &Ctx<'_>) -> Verdict {
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
        let task = TaskSupport::of(&call.tool, rev);
        let Some(breach) = rules::invalid_arguments(rev, task, x.error(), x.result()) else {
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

/// Why the `arguments` probes were not sent: no call was made, or none was answered.
fn arguments_probes_skipped(ctx: &Ctx<'_>) -> Verdict {
    match calls(ctx) {
        Err(skip) => skip,
        Ok(_) => Verdict::Skip(
            "no called tool answered its valid call, so the arguments probes were not sent".into(),
        ),
    }
}

/// `TC-ERR-MALFORMED` for `arguments`: an `arguments` that is not an object (an array, a
/// string, a number, null) is a protocol error, -32602.
pub(in crate::checks) fn arguments_type(ctx: &Ctx<'_>) -> Verdict {
    let record = match conversation(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    if record.arguments_type.is_empty() {
        return arguments_probes_skipped(ctx);
    }
    let mut fail = Vec::new();
    let mut warn = Vec::new();
    let mut answered = 0;
    for call in &record.arguments_type {
        let Some(x) = call.exchange.as_ref().filter(|x| x.response().is_some()) else {
            continue;
        };
        answered += 1;
        let sent = x
            .request
            .pointer("/params/arguments")
            .unwrap_or(&Value::Null);
        let Some(breach) = rules::arguments_type(sent, x.error(), x.result()) else {
            continue;
        };
        let line = (call, x, format!("{}: {}", call.intent, breach.message));
        if breach.kind.is_policy_warning() {
            warn.push(line);
        } else {
            fail.push(line);
        }
    }
    if !fail.is_empty() {
        return Verdict::Violation(
            format!(
                "{} tools/call request(s) whose arguments is not an object got a result; a request \
                 that breaks the CallToolRequest schema is a protocol error (-32602)",
                fail.len()
            ),
            call_failures(ctx, &fail),
        );
    }
    if !warn.is_empty() {
        return Verdict::Warn(
            format!(
                "{} tools/call request(s) whose arguments is not an object were not refused with \
                 -32602 (\"Invalid params\"): another error code, or null read as no arguments \
                 (policy: warning)",
                warn.len()
            ),
            call_failures(ctx, &warn),
        );
    }
    if answered == 0 {
        return Verdict::Skip(
            "no call with arguments of the wrong type was answered (see rpc-response-required)"
                .into(),
        );
    }
    Verdict::Pass(format!(
        "{answered} call(s) with arguments that is not an object (array, string, number, null) got -32602"
    ))
}

/// The tool `name`'s answer to `"arguments": {}`: the probe made for the comparison, or
/// the tool's valid call when that sent `{}`; with how it was made, in words.
fn empty_arguments_answer<'a>(
    record: &'a ToolsRecord,
    name: &str,
) -> Option<(&'a Exchange, &'static str)> {
    let probe = record
        .arguments_empty
        .as_ref()
        .and_then(|c| c.exchange.as_ref());
    if let Some(x) = probe {
        return Some((x, ", sent right after"));
    }
    record
        .calls
        .iter()
        .filter(|c| c.name == name)
        .filter_map(|c| c.exchange.as_ref())
        .find(|x| x.request.pointer("/params/arguments") == Some(&serde_json::json!({})))
        .map(|x| (x, " (its valid call)"))
}

/// `TC-ARGS-OMITTED`: `arguments` is optional; a call without it is answered and the
/// server lives on. A tool that requires nothing should run; one that requires arguments
/// may refuse in either error class.
pub(in crate::checks) fn arguments_omitted(ctx: &Ctx<'_>) -> Verdict {
    let record = match conversation(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let Some(call) = &record.arguments_omitted else {
        return arguments_probes_skipped(ctx);
    };
    let Some(x) = &call.exchange else {
        return arguments_probes_skipped(ctx);
    };
    let evidence = ctx.exchange_evidence(x);
    if let Some(silence) = x.silence() {
        let kind = if silence.suggests_trouble() {
            rules::FailureKind::Crash
        } else {
            rules::FailureKind::Stall
        };
        let breach = rules::arguments_omitted_unanswered(kind, &silence.describe());
        return Verdict::Violation(
            format!("tools/call of {:?}: {}", call.name, breach.message),
            evidence,
        );
    }
    let needs = requires_arguments(&call.tool);
    let empty = empty_arguments_answer(record, &call.name);
    let empty_message = empty.and_then(|(e, _)| e.response());
    if let Some(breach) = rules::arguments_omitted(x.error(), needs, empty_message) {
        return Verdict::Warn(
            format!(
                "tools/call of {:?} without arguments (they are optional) got {}",
                call.name, breach.message
            ),
            evidence,
        );
    }
    // Refused as `{}` was (the rule book's exception): the tool's error, not the omission's.
    if let (Some(_), false, Some((_, made))) = (x.error(), needs, empty) {
        return Verdict::Pass(format!(
            "tools/call of {:?} without arguments got JSON-RPC error {}, the answer its \
             call with \"arguments\": {{}}{made} got too: the tool's error, not the omission's",
            call.name,
            x.error_code()
                .map_or_else(|| "without a code".into(), |c| c.to_string()),
        ));
    }
    let how = match (x.error_code(), x.result()) {
        (Some(code), _) => format!("JSON-RPC error {code}"),
        (None, Some(r)) if r.get("isError") == Some(&Value::Bool(true)) => {
            "an isError result".into()
        }
        _ => "a result".into(),
    };
    Verdict::Pass(format!(
        "tools/call of {:?} without arguments got {how}{}",
        call.name,
        if needs {
            " (the tool requires arguments)"
        } else {
            ""
        }
    ))
}
