//! Judges for the Tools chapter (`tools.mdx`, `pagination.mdx`): the listing, tool names,
//! pagination, call results, structured content, error classes and list_changed.
//!
//! Every judge here skips when the server does not declare the `tools` capability:
//! nothing is reported against a capability a server did not declare.

use std::collections::BTreeSet;

use serde_json::Value;

use super::model::{Ctx, Evidence, Verdict, MAX_EXAMPLES};
use crate::protocol::{Exchange, Revision};
use crate::records::{each_listed_tool, listing_cut_note, ToolCall, ToolsRecord};

pub(in crate::checks) mod errors;
pub(in crate::checks) mod list_changed;
pub(in crate::checks) mod listing;
pub(in crate::checks) mod names;
pub(in crate::checks) mod pagination;
pub(in crate::checks) mod results;
pub(in crate::checks) mod tasks;

const NOT_DECLARED: &str = "the server does not declare the tools capability";

/// Whether the first walk listed tools to judge ([`each_listed_tool`] goes over them), or
/// the verdict that says why there are none.
fn listing(ctx: &Ctx<'_>) -> Result<(), Verdict> {
    if let Some(skip) = ctx.skip_if_stopped() {
        return Err(skip);
    }
    if !ctx.record.declares_tools() {
        return Err(Verdict::Skip(NOT_DECLARED.into()));
    }
    if ctx.record.tools_pages.iter().all(|p| p.result().is_none()) {
        return Err(Verdict::Skip("tools/list did not succeed".into()));
    }
    Ok(())
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
        let mut listed = false;
        each_listed_tool(std::slice::from_ref(p), |t| listed |= name_of(t) == first);
        listed
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
    listing(ctx)?;
    let (mut count, mut bad) = (0, Vec::new());
    each_listed_tool(&ctx.record.tools_pages, |t| {
        count += 1;
        if let Some(why) = rule(t) {
            bad.push((name_of(t).to_string(), why));
        }
    });
    if count == 0 {
        return Err(Verdict::Skip(format!(
            "the server lists no tools, so no {what} to judge"
        )));
    }
    Ok((count, bad))
}

/// For a verdict on every tool: the note saying a page was too wide for one tree and its
/// tools were judged one at a time (empty when none was).
fn cut_suffix(ctx: &Ctx<'_>) -> String {
    listing_cut_note(&ctx.record.tools_pages).map_or_else(String::new, |n| format!(" ({n})"))
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
        Ok((n, bad)) if bad.is_empty() => {
            Verdict::Pass(format!("{n} tool(s): {pass}{}", cut_suffix(ctx)))
        }
        Ok((n, bad)) => Verdict::Violation(
            format!("{} of {n} tool(s) {fail}{}", bad.len(), cut_suffix(ctx)),
            tools_evidence(ctx, &bad),
        ),
    }
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
