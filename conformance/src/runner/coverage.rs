//! Coverage that quietly fails, said out loud: when no call of a tool returned a success
//! (the server rejects every generated time zone or repository path), the checks that
//! need a successful result skip, and a skip among fifty passes goes unnoticed. The
//! runner turns each such revision into a note at the top of the report, naming the tools,
//! what they got instead, and the checks that cost.

use serde_json::Value;

use crate::checks::{CheckId, CheckResult, Status};
use crate::protocol::{cut_text, Revision};
use crate::records::RevisionRecord;
use crate::report::{CoverageNote, ToolGap};

/// Checks that judge only successful tool results: they skip when there are none.
const NEED_A_SUCCESS: &[CheckId] = &[
    CheckId::TcContentTypes,
    CheckId::TcOutputschemaPresence,
    CheckId::TcOutputschemaConform,
    CheckId::TcStructuredTextMirror,
];

/// The note for one revision, when some called tool never returned a success and that
/// cost a check (a tool that fails on purpose beside others that succeed costs nothing).
pub(crate) fn note(
    record: &RevisionRecord,
    revision: &'static Revision,
    results: &[CheckResult],
) -> Option<CoverageNote> {
    let tools = record.tools.as_ref()?;
    let gaps: Vec<ToolGap> = tools
        .calls
        .iter()
        .filter_map(|call| {
            let got = match (&call.exchange, &call.skipped) {
                // The call policy's choice is a skip of its own, not a gap.
                (None, Some(why)) if why.starts_with("not called") => return None,
                (None, Some(why)) => format!("not called: {why}"),
                (None, None) => "not called".to_string(),
                (Some(x), _) => match (x.result(), x.error(), x.silence()) {
                    (Some(r), _, _) if r.get("isError") != Some(&Value::Bool(true)) => return None,
                    (Some(r), _, _) => format!("a tool error: {}", first_text(r)),
                    (_, Some(e), _) => format!(
                        "error {}: {}",
                        e.get("code").map_or("?".into(), Value::to_string),
                        e.get("message").and_then(Value::as_str).unwrap_or("")
                    ),
                    (_, _, Some(silence)) => silence.describe(),
                    _ => "no result".to_string(),
                },
            };
            Some(ToolGap {
                tool: call.name.clone(),
                got: cut_text(&got, 160),
            })
        })
        .collect();
    if gaps.is_empty() {
        return None;
    }
    let checks_skipped: Vec<&'static str> = results
        .iter()
        .filter(|r| r.status == Status::Skip)
        .filter_map(|r| NEED_A_SUCCESS.iter().find(|id| id.as_str() == r.check))
        // A check outside its revisions skips for that reason, not for want of a success.
        .filter(|id| id.check().applies.includes(revision))
        .map(|id| id.as_str())
        .collect();
    if checks_skipped.is_empty() {
        return None;
    }
    Some(CoverageNote {
        revision: record.requested.id,
        tools: gaps,
        checks_skipped,
    })
}

fn first_text(result: &Value) -> String {
    result
        .pointer("/content/0/text")
        .and_then(Value::as_str)
        .unwrap_or("no text")
        .to_string()
}
