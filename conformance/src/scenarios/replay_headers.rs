//! The `Mcp-Param-*` headers of a replayed 2026-07-28 `tools/call` over HTTP.
//!
//! A `tools/call` mirrors each argument its tool's `inputSchema` marks with `x-mcp-header`
//! into a header (streamable-http.mdx, Custom Headers from Tool Parameters), and a client
//! learns those marks from `tools/list`. A fresh `replay` process has listed nothing: the
//! case file carries what the run learned (`tool_headers`). A case file written before that
//! field existed carries nothing, and a replay of it would send a call without its headers,
//! which a conforming server refuses with -32020: not what the run sent. So when the field
//! is empty and the case calls tools, the tools are listed first (pages followed, bounded),
//! as a client would, and the transcript says so.

use serde_json::{json, Value};

use crate::protocol::{Revision, Session};
use crate::records::CaseFile;

/// `tools/list` pages followed at most.
const MAX_PAGES: usize = 16;

/// The tools `case` calls.
fn called_tools(case: &CaseFile) -> Vec<&str> {
    let mut tools: Vec<&str> = case
        .messages
        .iter()
        .filter(|m| m.send.get("method").and_then(Value::as_str) == Some("tools/call"))
        .filter_map(|m| m.send.pointer("/params/name").and_then(Value::as_str))
        .collect();
    tools.sort_unstable();
    tools.dedup();
    tools
}

/// Teaches the transport the annotations of the tools `case` calls: those the case file
/// saved, or, for a case file without them (written before `tool_headers` existed), those
/// `tools/list` shows now. Over stdio, or outside 2026-07-28, nothing is mirrored and
/// nothing is done.
pub(super) async fn prepare(case: &CaseFile, session: &mut Session, url: Option<&str>) {
    let Some(url) = url else { return };
    if !case.tool_headers.is_empty() {
        for (tool, annotations) in &case.tool_headers {
            crate::transport::teach_tool_headers(url, tool, annotations);
        }
        return;
    }
    let modern = Revision::find(&case.revision).is_some_and(Revision::modern);
    let tools = called_tools(case);
    if !modern || tools.is_empty() {
        return;
    }
    session.harness_note(&format!(
        "the case file has no tool_headers (written before the field existed): listing the \
         tools to learn the x-mcp-header annotations of {} (streamable-http.mdx, Custom \
         Headers from Tool Parameters)",
        tools.join(", ")
    ));
    let mut cursor: Option<Value> = None;
    for page in 1..=MAX_PAGES {
        let params = cursor.take().map(|c| json!({"cursor": c}));
        let id = json!(format!("mcp-conformance-replay-tools-list-{page}"));
        let listed = session.request_with_id(id, "tools/list", params).await;
        cursor = listed
            .result()
            .and_then(|r| r.get("nextCursor"))
            .filter(|c| !c.is_null())
            .cloned();
        let learned = crate::transport::learned_tool_headers(url);
        let known = tools.iter().all(|t| !learned.of(t).is_empty());
        if cursor.is_none() || known {
            break;
        }
    }
    let learned = crate::transport::learned_tool_headers(url);
    let found: Vec<String> = tools
        .iter()
        .map(|t| {
            let headers: Vec<String> = learned
                .of(t)
                .iter()
                .map(|a| format!("Mcp-Param-{}", a.header))
                .collect();
            if headers.is_empty() {
                format!("{t}: none")
            } else {
                format!("{t}: {}", headers.join(", "))
            }
        })
        .collect();
    session.harness_note(&format!(
        "tool parameter headers from tools/list: {}",
        found.join("; ")
    ));
}
