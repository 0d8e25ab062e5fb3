//! `notifications/tools/list_changed`: well formed, and sent only when declared
//! (`tools.mdx`, List Changed Notification; REQUIREMENTS.md 10 A12).

use serde_json::Value;

use super::super::model::{exchange_evidence, Ctx, Evidence, Verdict, MAX_EXAMPLES};
use super::*;

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
pub(in crate::checks) fn list_changed_shape(ctx: &Ctx<'_>) -> Verdict {
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
pub(in crate::checks) fn list_changed_declared(ctx: &Ctx<'_>) -> Verdict {
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
