//! Judges for the rules only 2026-07-28 Streamable HTTP has (streamable-http.mdx of that
//! revision: Request Metadata, Server Validation, Backward Compatibility). Each reads the
//! modern probes of the record's HTTP side ([`crate::records::HttpModernProbe`]) and,
//! for the error statuses, the scripted session's exchanges too. Over stdio, or when the
//! server does not speak 2026-07-28, every judge here skips.
//!
//! The status and the JSON-RPC error are both what the rules name ("MUST return HTTP
//! status 400 Bad Request and MUST include a JSON-RPC error response" with -32020), so a
//! probe fails on either: a 400 with another error is a server that rejected the request
//! for another reason and never checked the header.

use serde_json::Value;

use super::model::{Ctx, Evidence, Verdict, MAX_EXAMPLES};
use crate::records::{HttpModernProbe, ModernStep};
use crate::transport::{is_media, Carried, HttpFact};

/// HeaderMismatch (streamable-http.mdx, Server Validation).
const HEADER_MISMATCH: i64 = -32020;

fn probe<'a>(ctx: &'a Ctx<'_>) -> Result<&'a HttpModernProbe, Verdict> {
    let http = ctx.record.http.as_ref().ok_or_else(|| {
        Verdict::Skip(
            "applies to revisions run over Streamable HTTP only; this one ran over stdio".into(),
        )
    })?;
    let probe = http
        .modern
        .as_ref()
        .ok_or_else(|| Verdict::Skip("the 2026-07-28 HTTP probes did not run".into()))?;
    match &probe.discover {
        Some(step) if step.fact.status.is_some_and(|s| (200..300).contains(&s)) => Ok(probe),
        Some(step) => Err(Verdict::Skip(format!(
            "a conformant server/discover got no 2xx answer ({}), so the probes stopped",
            step.fact.describe()
        ))),
        None => Err(Verdict::Skip(
            "the 2026-07-28 HTTP probes did not run".into(),
        )),
    }
}

/// Whether the server refused the legacy `initialize` (a modern-only server); `None`
/// when that probe did not run or got no answer.
fn modern_only(ctx: &Ctx<'_>) -> Option<bool> {
    let (init, _) = ctx.record.modern.as_ref()?.initialize.as_ref()?;
    if init.result().is_some() {
        Some(false)
    } else {
        init.error().map(|_| true)
    }
}

fn evidence(fact: &HttpFact) -> Vec<Evidence> {
    let mut out = vec![Evidence::note(fact.describe())];
    if !fact.body_head.is_empty() {
        out.push(Evidence::note(format!("body: {}", fact.body_head)));
    }
    out
}

fn status_text(fact: &HttpFact) -> String {
    fact.status
        .map_or_else(|| "no response".to_string(), |s| s.to_string())
}

fn code_text(code: Option<i64>) -> String {
    code.map_or_else(|| "no JSON-RPC error".to_string(), |c| format!("error {c}"))
}

/// Steps that must each get `status` with error `code`.
fn judge_steps(steps: &[&ModernStep], status: u16, code: i64, pass: String) -> Verdict {
    if steps.is_empty() {
        return Verdict::Skip("no probe of this rule ran".into());
    }
    let found: Vec<&&ModernStep> = steps.iter().filter(|s| !s.got(status, code)).collect();
    let Some(first) = found.first() else {
        return Verdict::Pass(pass);
    };
    let message = format!(
        "{} of {} probes got an answer against the rule; the first, {}, got {} with {}, not {status} with error {code}",
        found.len(),
        steps.len(),
        first.purpose,
        status_text(&first.fact),
        code_text(first.error_code)
    );
    Verdict::Violation(message, steps_evidence(&found))
}

/// Each offending step's purpose and exchange, the first [`MAX_EXAMPLES`] of them.
fn steps_evidence(found: &[&&ModernStep]) -> Vec<Evidence> {
    found
        .iter()
        .take(MAX_EXAMPLES)
        .flat_map(|s| {
            let mut e = vec![Evidence::note(format!("{}:", s.purpose))];
            e.extend(evidence(&s.fact));
            e
        })
        .collect()
}

/// Steps whose headers were right, only spelled another way: each is an offender when it
/// got -32020 (or, for `server/discover`, any answer but 2xx: that request must be served).
fn same_meaning(steps: &[&ModernStep], pass: String) -> Verdict {
    // A step with no answer (the connection failed, or timed out) shows nothing.
    let steps: Vec<&ModernStep> = steps
        .iter()
        .copied()
        .filter(|s| s.fact.status.is_some())
        .collect();
    if steps.is_empty() {
        return Verdict::Skip("no probe of this rule was answered".into());
    }
    let refused = |s: &&&ModernStep| {
        s.error_code == Some(HEADER_MISMATCH)
            || (s.fact.rpc_method.as_deref() == Some("server/discover")
                && s.fact.status.is_some_and(|st| !(200..300).contains(&st)))
    };
    let found: Vec<&&ModernStep> = steps.iter().filter(refused).collect();
    let Some(first) = found.first() else {
        return Verdict::Pass(pass);
    };
    let message = format!(
        "{} of {} requests whose headers match their body were refused; the first, {}, got {} with {}",
        found.len(),
        steps.len(),
        first.purpose,
        status_text(&first.fact),
        code_text(first.error_code)
    );
    Verdict::Violation(message, steps_evidence(&found))
}

/// `M-HTTP-HEADERS`: header names are matched case-insensitively (streamable-http.mdx,
/// Case Sensitivity): requests whose names are in title case are served as the lower-case
/// ones are.
pub(super) fn header_case(ctx: &Ctx<'_>) -> Verdict {
    let p = match probe(ctx) {
        Ok(p) => p,
        Err(skip) => return skip,
    };
    let steps: Vec<&ModernStep> = [&p.titled_discover, &p.titled_call]
        .into_iter()
        .flatten()
        .collect();
    same_meaning(
        &steps,
        format!(
            "{} requests with their header names in title case were served like the lower-case ones",
            steps.len()
        ),
    )
}

/// `M-HTTP-HEADERS`: whitespace around a field value is not part of it (RFC 9110, 5.5:
/// parsers MUST exclude it), so an `Mcp-Name` with whitespace around the body's name
/// matches it.
pub(super) fn name_whitespace(ctx: &Ctx<'_>) -> Verdict {
    let p = match probe(ctx) {
        Ok(p) => p,
        Err(skip) => return skip,
    };
    let steps: Vec<&ModernStep> = p.padded_name.iter().collect();
    same_meaning(
        &steps,
        "a tools/call whose Mcp-Name had whitespace around the name got no -32020".into(),
    )
}

/// `M-HTTP-HEADERS`, `M-HTTP-NO-HEADER-LEGACY`: a missing or mismatched
/// `MCP-Protocol-Version`, `Mcp-Method` or `Mcp-Name` gets 400 with -32020. A request
/// without `MCP-Protocol-Version` is judged only for a modern-only server (one that
/// supports older clients MAY take it for 2025-03-26).
pub(super) fn headers(ctx: &Ctx<'_>) -> Verdict {
    let p = match probe(ctx) {
        Ok(p) => p,
        Err(skip) => return skip,
    };
    let only = modern_only(ctx) == Some(true);
    // A server that also speaks the legacy revisions may take a request whose header names
    // one of them as a legacy request (its body's `_meta` then means nothing to it): a 400
    // of any kind refuses it. Only a modern-only server owes -32020 there.
    let legacy_refusal = |s: &&ModernStep| !only && s.fact.status == Some(400);
    let lenient = p.version_mismatch.as_ref().filter(legacy_refusal).is_some();
    let mismatch = p.version_mismatch.as_ref().filter(|s| !legacy_refusal(s));
    let mut steps: Vec<&ModernStep> = mismatch.into_iter().collect();
    steps.extend(
        [
            &p.method_missing,
            &p.method_mismatch,
            &p.name_missing,
            &p.name_mismatch,
        ]
        .into_iter()
        .flatten(),
    );
    if only {
        steps.extend(&p.no_version);
    }
    let pass = format!(
        "{} requests with a missing or mismatched metadata header each got 400 with -32020{}{}",
        steps.len(),
        if only {
            ""
        } else {
            " (a request without MCP-Protocol-Version is not judged: the server supports older clients, which MAY omit it)"
        },
        if lenient {
            "; a request whose MCP-Protocol-Version names a legacy revision got 400 (the server speaks that revision too, so any refusal does)"
        } else {
            ""
        }
    );
    judge_steps(&steps, 400, HEADER_MISMATCH, pass)
}

/// `M-HTTP-404`: a method the server does not implement gets 404 with -32601.
pub(super) fn not_found(ctx: &Ctx<'_>) -> Verdict {
    let p = match probe(ctx) {
        Ok(p) => p,
        Err(skip) => return skip,
    };
    let steps: Vec<&ModernStep> = p.unknown_method.iter().collect();
    judge_steps(
        &steps,
        404,
        -32601,
        "a method the server does not implement got 404 with -32601".into(),
    )
}

/// The JSON-RPC error code in a fact's body head, when the head holds one.
fn fact_error_code(fact: &HttpFact) -> Option<i64> {
    if let Ok(message) = serde_json::from_str::<Value>(&fact.body_head) {
        return message.pointer("/error/code").and_then(Value::as_i64);
    }
    let after = &fact.body_head[fact.body_head.find("\"error\"")?..];
    let after = &after[after.find("\"code\"")? + "\"code\"".len()..];
    let after = after.trim_start().strip_prefix(':')?.trim_start();
    let end = after
        .char_indices()
        .find(|(i, c)| !(c.is_ascii_digit() || (*i == 0 && *c == '-')))
        .map_or(after.len(), |(i, _)| i);
    after[..end].parse().ok()
}

/// `M-VERSION-UNSUPPORTED`, `M-META-REQUIRED`, `M-CLIENTCAP` on HTTP: -32022, the
/// -32602 of a missing `_meta` field, and -32021 come with 400. Judged on the probes and on
/// every JSON answer of the scripted session that carried -32022 or -32021.
pub(super) fn status(ctx: &Ctx<'_>) -> Verdict {
    let p = match probe(ctx) {
        Ok(p) => p,
        Err(skip) => return skip,
    };
    let mut judged: Vec<(String, &HttpFact, i64)> = Vec::new();
    for step in [&p.unsupported_version, &p.meta_missing]
        .into_iter()
        .flatten()
    {
        if let Some(code @ (-32022 | -32602 | -32021 | HEADER_MISMATCH)) = step.error_code {
            judged.push((step.purpose.to_string(), &step.fact, code));
        }
    }
    let scripted = ctx.record.http.iter().flat_map(|h| h.facts.iter());
    for fact in scripted.filter(|f| f.carried == Carried::Request) {
        if !is_media(fact.content_type.as_deref(), "application/json") {
            continue;
        }
        if let Some(code @ (-32022 | -32021)) = fact_error_code(fact) {
            let what = fact.rpc_method.as_deref().unwrap_or("a request");
            judged.push((format!("{what} of the scripted session"), fact, code));
        }
    }
    if judged.is_empty() {
        return Verdict::Skip(
            "no -32022, -32602 (missing _meta) or -32021 error was answered as JSON".into(),
        );
    }
    let wrong: Vec<&(String, &HttpFact, i64)> = judged
        .iter()
        .filter(|(_, f, _)| f.status != Some(400))
        .collect();
    let Some((purpose, fact, code)) = wrong.first() else {
        return Verdict::Pass(format!(
            "{} answers with -32022, -32602 (missing _meta) or -32021 each came with 400",
            judged.len()
        ));
    };
    let evidence = wrong
        .iter()
        .take(MAX_EXAMPLES)
        .flat_map(|(purpose, f, _)| {
            let mut e = vec![Evidence::note(format!("{purpose}:"))];
            e.extend(evidence(f));
            e
        })
        .collect();
    Verdict::Violation(
        format!(
            "{} of {} answers with one of these errors did not come with 400; the first, {purpose}, got error {code} with HTTP {}",
            wrong.len(),
            judged.len(),
            status_text(fact)
        ),
        evidence,
    )
}

/// `M-HTTP-XMCPHEADER`: a call of a tool with `x-mcp-header` parameters whose
/// `Mcp-Param-*` headers are missing or do not match the arguments gets 400 with -32020.
pub(super) fn param_header(ctx: &Ctx<'_>) -> Verdict {
    let p = match probe(ctx) {
        Ok(p) => p,
        Err(skip) => return skip,
    };
    let Some(tool) = &p.param_tool else {
        return Verdict::Skip(
            "no listed tool that may be called marks a parameter with x-mcp-header".into(),
        );
    };
    let steps: Vec<&ModernStep> = [&p.param_missing, &p.param_mismatch]
        .into_iter()
        .flatten()
        .collect();
    judge_steps(
        &steps,
        400,
        HEADER_MISMATCH,
        format!(
            "calls of {} with its Mcp-Param-* headers missing, then mismatched, each got 400 with -32020",
            tool.name
        ),
    )
}

/// streamable-http.mdx, Backward Compatibility: a server that supports only 2026-07-28
/// answers GET and DELETE with 405, ignores an `Mcp-Session-Id`, and mints or echoes none.
pub(super) fn legacy_traffic(ctx: &Ctx<'_>) -> Verdict {
    let p = match probe(ctx) {
        Ok(p) => p,
        Err(skip) => return skip,
    };
    match modern_only(ctx) {
        Some(true) => {}
        Some(false) => {
            return Verdict::Skip(
                "the server also speaks the initialize-based revisions; the rule binds a server that supports only 2026-07-28".into(),
            )
        }
        None => {
            return Verdict::Skip(
                "the legacy initialize probe got no answer, so whether the server supports only 2026-07-28 is unknown".into(),
            )
        }
    }
    let mut problems: Vec<(String, &HttpFact)> = Vec::new();
    for step in [&p.get, &p.delete].into_iter().flatten() {
        if step.fact.status != Some(405) {
            problems.push((
                format!("{} got {}, not 405", step.purpose, status_text(&step.fact)),
                &step.fact,
            ));
        }
    }
    if let Some(step) = &p.stray_session {
        if !step.fact.status.is_some_and(|s| (200..300).contains(&s)) {
            problems.push((
                format!(
                    "{} got {}: the id is to be ignored",
                    step.purpose,
                    status_text(&step.fact)
                ),
                &step.fact,
            ));
        }
    }
    let scripted = ctx.record.http.iter().flat_map(|h| h.facts.iter());
    let mut answers = scripted.chain(p.steps().map(|s| &s.fact));
    if let Some(fact) = answers.find(|f| f.session_id.is_some()) {
        problems.push((
            "an answer set an Mcp-Session-Id: a 2026-07-28 server mints and echoes none".into(),
            fact,
        ));
    }
    let Some((first, _)) = problems.first() else {
        return Verdict::Pass(
            "GET and DELETE got 405, and no answer minted or echoed a session id".into(),
        );
    };
    let evidence = problems.iter().flat_map(|(_, f)| evidence(f)).collect();
    Verdict::Violation(
        format!("{} (and {} more)", first, problems.len() - 1).replace(" (and 0 more)", ""),
        evidence,
    )
}
