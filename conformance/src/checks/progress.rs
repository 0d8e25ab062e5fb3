//! Judges for progress notifications (`progress.mdx`): the token, the order of the values,
//! and the end.
//!
//! They exist because a plain conversation never asks for progress, so these MUSTs went
//! unjudged: the Tools conversation makes one call with a `progressToken` in `_meta`
//! (`ProgressProbe`), fenced by a ping. The judges read every `notifications/progress` the
//! server wrote in the revision's session, so progress nobody asked for is caught too.
//! Progress is optional (`PROG-OPTIONAL`): a server that sends none skips, with the reason.

use serde_json::Value;

use super::model::{Ctx, Evidence, Verdict, MAX_EXAMPLES};
use crate::protocol::Direction;

/// One `notifications/progress` the server wrote.
struct Note<'a> {
    seq: usize,
    token: Option<&'a Value>,
    progress: Option<f64>,
}

/// One request of ours that carried a progressToken, and its response's seq.
struct Asked<'a> {
    seq: usize,
    token: &'a Value,
    answered_at: Option<usize>,
}

fn notes<'a>(ctx: &'a Ctx<'_>) -> Vec<Note<'a>> {
    ctx.transcript()
        .received()
        .filter_map(|e| {
            let m = e.json.as_ref()?;
            (m.get("method").and_then(Value::as_str) == Some("notifications/progress")).then(|| {
                Note {
                    seq: e.seq,
                    token: m.pointer("/params/progressToken"),
                    progress: m.pointer("/params/progress").and_then(Value::as_f64),
                }
            })
        })
        .collect()
}

fn asked<'a>(ctx: &'a Ctx<'_>) -> Vec<Asked<'a>> {
    let transcript = ctx.transcript();
    transcript
        .entries()
        .iter()
        .filter(|e| e.direction == Direction::Sent)
        .filter_map(|e| {
            let m = e.json.as_ref()?;
            m.get("id")?;
            let token = m.pointer("/params/_meta/progressToken")?;
            let answered_at = transcript
                .received()
                .find(|r| r.answers == Some(e.seq))
                .map(|r| r.seq);
            Some(Asked {
                seq: e.seq,
                token,
                answered_at,
            })
        })
        .collect()
}

/// The latest request of ours sent before `note` with exactly its token (same JSON type
/// and value, as ids are compared: `RPC-ID-ECHO`).
fn request_of<'a, 'b>(asked: &'b [Asked<'a>], note: &Note<'_>) -> Option<&'b Asked<'a>> {
    asked
        .iter()
        .rev()
        .find(|a| a.seq < note.seq && Some(a.token) == note.token)
}

/// The skip when the server sent no progress at all: it may send none.
fn no_progress(ctx: &Ctx<'_>) -> Verdict {
    if let Some(skip) = ctx.skip_if_stopped() {
        return skip;
    }
    let probed = ctx.record.tools.as_ref().and_then(|t| t.progress.as_ref());
    match probed {
        None => Verdict::Skip(
            "not probed: no tool answered a valid call, so no call carried a progressToken".into(),
        ),
        Some(_) => Verdict::Skip(
            "the server sent no notifications/progress for our progressToken (it MAY send none)"
                .into(),
        ),
    }
}

fn with_examples(ctx: &Ctx<'_>, seqs: &[usize], bad: &[String]) -> Vec<Evidence> {
    let mut out = ctx.evidence(seqs);
    out.extend(bad.iter().take(MAX_EXAMPLES).map(Evidence::note));
    if bad.len() > MAX_EXAMPLES {
        out.push(Evidence::note(format!(
            "... and {} more",
            bad.len() - MAX_EXAMPLES
        )));
    }
    out
}

/// `PROG-TOKEN-ACTIVE`: every progress notification names a progressToken we sent, with
/// the same JSON type and value, in a request sent before it.
pub(super) fn token_active(ctx: &Ctx<'_>) -> Verdict {
    let notes = notes(ctx);
    if notes.is_empty() {
        return no_progress(ctx);
    }
    let asked = asked(ctx);
    let bad: Vec<&Note<'_>> = notes
        .iter()
        .filter(|n| request_of(&asked, n).is_none())
        .collect();
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} progress notification(s), each naming the progressToken of a request we sent",
            notes.len()
        ));
    }
    let sent: Vec<String> = asked.iter().map(|a| a.token.to_string()).collect();
    let mut seqs: Vec<usize> = asked.iter().map(|a| a.seq).take(1).collect();
    seqs.extend(bad.iter().map(|n| n.seq).take(MAX_EXAMPLES));
    let why: Vec<String> = bad
        .iter()
        .map(|n| match n.token {
            Some(t) => format!("progressToken {t} names no request of ours"),
            None => "a progress notification without progressToken".into(),
        })
        .collect();
    Verdict::Violation(
        format!(
            "{} of {} progress notification(s) name a token we never sent (we sent {}); progress \
             MUST only reference tokens provided in an active request",
            bad.len(),
            notes.len(),
            if sent.is_empty() {
                "none".to_string()
            } else {
                sent.join(", ")
            }
        ),
        with_examples(ctx, &seqs, &why),
    )
}

/// `PROG-INCREASING`: for each token, the progress value increases with each notification.
pub(super) fn increasing(ctx: &Ctx<'_>) -> Verdict {
    let notes = notes(ctx);
    if notes.is_empty() {
        return no_progress(ctx);
    }
    let mut bad = Vec::new();
    let mut seqs = Vec::new();
    for (i, later) in notes.iter().enumerate() {
        let earlier = notes[..i]
            .iter()
            .rev()
            .find(|n| n.token == later.token && n.progress.is_some());
        if let (Some(earlier), Some(now)) = (earlier, later.progress) {
            let before = earlier.progress.unwrap_or_default();
            if now <= before {
                bad.push(format!(
                    "progress {now} came after {before} for progressToken {}",
                    later.token.map(Value::to_string).unwrap_or_default()
                ));
                seqs.extend([earlier.seq, later.seq]);
            }
        }
    }
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} progress notification(s); the value increases with each",
            notes.len()
        ));
    }
    seqs.dedup();
    seqs.truncate(2 * MAX_EXAMPLES);
    Verdict::Violation(
        format!(
            "{} progress value(s) did not increase; the progress value MUST increase with each \
             notification",
            bad.len()
        ),
        with_examples(ctx, &seqs, &bad),
    )
}

/// `PROG-STOP`: no progress for a request after its response.
pub(super) fn stop(ctx: &Ctx<'_>) -> Verdict {
    let notes = notes(ctx);
    if notes.is_empty() {
        return no_progress(ctx);
    }
    let asked = asked(ctx);
    let mut bad = Vec::new();
    let mut seqs = Vec::new();
    for note in &notes {
        let Some(request) = request_of(&asked, note) else {
            continue;
        };
        if let Some(answered) = request.answered_at.filter(|&a| a < note.seq) {
            bad.push(format!(
                "progress for progressToken {} after the response to its request",
                request.token
            ));
            seqs.extend([request.seq, answered, note.seq]);
        }
    }
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} progress notification(s), none after its request's response",
            notes.len()
        ));
    }
    seqs.sort_unstable();
    seqs.dedup();
    seqs.truncate(3 * MAX_EXAMPLES);
    Verdict::Violation(
        format!(
            "{} progress notification(s) came after the response to their request; progress \
             notifications MUST stop after completion",
            bad.len()
        ),
        with_examples(ctx, &seqs, &bad),
    )
}
