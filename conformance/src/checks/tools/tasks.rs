//! Tool-level task negotiation (2025-11-25 tasks.mdx, Tool-Level Negotiation): the tools'
//! `execution.taskSupport` against the server's `tasks` capability, plain calls of tools
//! that require a task, and task-augmented calls. The rules are the rule book's
//! ([`rules::plain_call_of_task_tool`], [`rules::task_call`]); these judges pick the calls.

use serde_json::Value;

use super::super::model::{Ctx, Verdict};
use super::*;
use crate::rules::{self, TaskSupport};

/// Whether the server declares task-augmented tools/call.
fn declares_task_calls(ctx: &Ctx<'_>) -> bool {
    let capabilities = ctx.record.init_result().and_then(|r| r.get("capabilities"));
    rules::declares_task_calls(capabilities)
}

const NOT_DECLARED_TASKS: &str =
    "the server does not declare tasks.requests.tools.call, so no tool is called as a task";

/// `TC-TASK-CAP` (policy): a tool offers tasks (`taskSupport` `"optional"` or
/// `"required"`) only on a server that declares `tasks.requests.tools.call`; without it
/// clients "MUST NOT attempt to use task augmentation ... regardless of the
/// execution.taskSupport value", so the declaration is dead, and a tool that requires a
/// task cannot be called at all.
pub(in crate::checks) fn task_support_declared(ctx: &Ctx<'_>) -> Verdict {
    let rev = revision(ctx);
    let declared = declares_task_calls(ctx);
    let offering = |t: &Value| TaskSupport::of(t, rev) != TaskSupport::Forbidden;
    match per_tool(ctx, "taskSupport", |t| {
        (offering(t) && !declared).then(|| {
            format!(
                "execution.taskSupport is {:?}, but the server does not declare tasks.requests.tools.call{}",
                TaskSupport::of(t, rev).as_str(),
                if TaskSupport::of(t, rev) == TaskSupport::Required {
                    ": no client may call this tool"
                } else {
                    ""
                }
            )
        })
    }) {
        Err(v) => v,
        Ok((n, bad)) if bad.is_empty() => {
            let mut offer = 0;
            each_listed_tool(&ctx.record.tools_pages, |t| offer += usize::from(offering(t)));
            if offer == 0 {
                Verdict::Pass(format!("{n} tool(s), none offering task-augmented calls"))
            } else {
                Verdict::Pass(format!(
                    "{offer} of {n} tool(s) offer task-augmented calls, and the server declares tasks.requests.tools.call"
                ))
            }
        }
        Ok((n, bad)) => Verdict::Violation(
            format!(
                "{} of {n} tool(s) declare execution.taskSupport without the server's tasks.requests.tools.call capability",
                bad.len()
            ),
            tools_evidence(ctx, &bad),
        ),
    }
}

/// `TC-TASK-REQUIRED` (MUST; policy A9 for -32600): a tool that requires a task, called
/// without one, gets -32601. Judged on the plain calls with valid arguments.
pub(in crate::checks) fn task_required(ctx: &Ctx<'_>) -> Verdict {
    let record = match calls(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    if !declares_task_calls(ctx) {
        return Verdict::Skip(
            "the server does not declare tasks.requests.tools.call, so taskSupport does not apply"
                .into(),
        );
    }
    let rev = revision(ctx);
    let made: Vec<_> = record
        .calls
        .iter()
        .filter(|c| TaskSupport::of(&c.tool, rev) == TaskSupport::Required)
        .filter_map(|c| c.exchange.as_ref().map(|x| (c, x)))
        .filter(|(_, x)| x.response().is_some())
        .collect();
    if made.is_empty() {
        return Verdict::Skip("no called tool requires a task".into());
    }
    let (mut fail, mut warn) = (Vec::new(), Vec::new());
    for (call, x) in &made {
        let Some(breach) = rules::plain_call_of_task_tool(x.error(), x.result()) else {
            continue;
        };
        let line = (
            *call,
            *x,
            format!("called without a task: {}", breach.message),
        );
        if breach.kind.is_policy_warning() {
            warn.push(line);
        } else {
            fail.push(line);
        }
    }
    if !fail.is_empty() {
        return Verdict::Violation(
            format!(
                "{} tool(s) declaring taskSupport \"required\" were called without a task and did not answer -32601",
                fail.len()
            ),
            call_failures(ctx, &fail),
        );
    }
    if !warn.is_empty() {
        return Verdict::Warn(
            format!(
                "{} tool(s) declaring taskSupport \"required\" refused a call without a task with -32600, not -32601 (policy A9: warning)",
                warn.len()
            ),
            call_failures(ctx, &warn),
        );
    }
    Verdict::Pass(format!(
        "{} tool(s) requiring a task refused a plain call with -32601",
        made.len()
    ))
}

/// The task-augmented calls of tools with (`offers`) or without task support.
fn task_verdict<'a>(
    ctx: &'a Ctx<'_>,
    offers: bool,
) -> Result<Vec<(&'a ToolCall, &'a Exchange)>, Verdict> {
    let record = conversation(ctx)?;
    if !declares_task_calls(ctx) {
        return Err(Verdict::Skip(NOT_DECLARED_TASKS.into()));
    }
    let rev = revision(ctx);
    let made: Vec<_> = record
        .task_calls
        .iter()
        .filter(|c| (TaskSupport::of(&c.tool, rev) != TaskSupport::Forbidden) == offers)
        .filter_map(|c| c.exchange.as_ref().map(|x| (c, x)))
        .filter(|(_, x)| x.response().is_some())
        .collect();
    if made.is_empty() {
        return Err(Verdict::Skip(if offers {
            "no called tool offers task-augmented calls".into()
        } else {
            "no tool without task support was called as a task".into()
        }));
    }
    Ok(made)
}

/// Splits the breaches of `made` into failures and policy warnings.
fn task_breaches<'a>(
    made: &[(&'a ToolCall, &'a Exchange)],
    rev: &Revision,
) -> [Vec<(&'a ToolCall, &'a Exchange, String)>; 2] {
    let (mut fail, mut warn) = (Vec::new(), Vec::new());
    for (call, x) in made {
        let support = TaskSupport::of(&call.tool, rev);
        let Some(breach) = rules::task_call(support, x.error(), x.result()) else {
            continue;
        };
        let line = (*call, *x, format!("{}: {}", call.intent, breach.message));
        if breach.kind.is_policy_warning() {
            warn.push(line);
        } else {
            fail.push(line);
        }
    }
    [fail, warn]
}

/// `TC-TASK-FORBIDDEN` (SHOULD): a task-augmented call of a tool without task support
/// gets -32601.
pub(in crate::checks) fn task_forbidden(ctx: &Ctx<'_>) -> Verdict {
    let made = match task_verdict(ctx, false) {
        Ok(m) => m,
        Err(v) => return v,
    };
    let [fail, warn] = task_breaches(&made, revision(ctx));
    let bad: Vec<_> = fail.into_iter().chain(warn).collect();
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} task-augmented call(s) of tools without task support got -32601",
            made.len()
        ));
    }
    Verdict::Violation(
        format!(
            "{} task-augmented call(s) of a tool whose taskSupport is absent or \"forbidden\" did not get -32601",
            bad.len()
        ),
        call_failures(ctx, &bad),
    )
}

/// `TC-TASK-CREATE` (MUST; a refusal is a policy warning): a task-augmented call of a
/// tool offering tasks gets a CreateTaskResult.
pub(in crate::checks) fn task_create(ctx: &Ctx<'_>) -> Verdict {
    let made = match task_verdict(ctx, true) {
        Ok(m) => m,
        Err(v) => return v,
    };
    let [fail, warn] = task_breaches(&made, revision(ctx));
    if !fail.is_empty() {
        return Verdict::Violation(
            format!(
                "{} task-augmented call(s) of tools offering tasks got a tool result, not a CreateTaskResult",
                fail.len()
            ),
            call_failures(ctx, &fail),
        );
    }
    if !warn.is_empty() {
        return Verdict::Warn(
            format!(
                "{} task-augmented call(s) of tools offering tasks were refused with a JSON-RPC error (policy: warning)",
                warn.len()
            ),
            call_failures(ctx, &warn),
        );
    }
    Verdict::Pass(format!(
        "{} task-augmented call(s) of tools offering tasks got a CreateTaskResult",
        made.len()
    ))
}
