//! Judges for the edge probes (`scenarios/edges.rs`): malformed initialize, ping before
//! `initialized`, the empty and notification-only batch, cancellations that must be
//! ignored; and the `_meta` key names of everything the server wrote.
//!
//! Apart from the other judges because these read probes that are not part of the main
//! walk (one of them a session of its own), and each must be graded exactly as its spec
//! sentence says, no harder: several are SHOULDs or suite policy.

use serde_json::Value;

use super::model::{evidence_from, exchange_evidence, Ctx, Evidence, Verdict, MAX_EXAMPLES};
use crate::protocol::{BatchExchange, Silence};
use crate::rules::meta::{key_problem, meta_objects, MetaKeyProblem};

/// `LC-INIT-PARAMS-MALFORMED` (policy): an initialize whose params break InitializeRequest
/// gets -32602 (or -32600); a success, another code or silence warns.
pub(super) fn init_params_malformed(ctx: &Ctx<'_>) -> Verdict {
    let Some(early) = &ctx.record.edges.early else {
        return Verdict::Skip("the malformed-initialize session did not run".into());
    };
    let mut bad = Vec::new();
    for m in &early.malformed {
        let x = &m.exchange;
        let what = match (x.silence(), x.error_code(), x.result()) {
            (Some(silence), ..) => format!("{}: no response ({})", m.what, silence.describe()),
            (None, Some(-32602 | -32600), _) => continue,
            (None, Some(code), _) => format!("{}: error {code}", m.what),
            (None, None, Some(_)) => format!("{}: a success result", m.what),
            (None, None, None) => format!("{}: an error without an integer code", m.what),
        };
        bad.push((what, x));
    }
    let probed: Vec<&str> = early.malformed.iter().map(|m| m.what).collect();
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "initialize with {} was refused with -32602 or -32600",
            probed.join(", ")
        ));
    }
    let evidence = bad
        .iter()
        .flat_map(|(_, x)| exchange_evidence(&early.transcript, x))
        .collect();
    let whats: Vec<&str> = bad.iter().map(|(w, _)| w.as_str()).collect();
    Verdict::Violation(
        format!(
            "initialize params that break the InitializeRequest schema should get -32602 \
             (invalid params) or -32600; got {}",
            whats.join("; ")
        ),
        evidence,
    )
}

/// `LC-PING-ANYTIME` (policy): a ping between the initialize response and
/// `notifications/initialized` gets an empty result (ping.mdx: "The receiver MUST respond
/// promptly with an empty response"; lifecycle.mdx allows pings before initialized).
pub(super) fn ping_before_initialized(ctx: &Ctx<'_>) -> Verdict {
    let Some(early) = &ctx.record.edges.early else {
        return Verdict::Skip("the early session did not run".into());
    };
    let Some(ping) = &early.ping else {
        return Verdict::Skip(match early.initialized() {
            None => "initialize did not succeed in the early session".into(),
            Some(_) => "the early session ended before the ping".into(),
        });
    };
    // Whether the result is empty is lc-ping's rule, judged on every ping of the main
    // session: here only whether the ping is answered at all.
    if let Some(result) = ping.result() {
        let shape = if result
            .as_object()
            .is_some_and(|r| r.keys().all(|k| k == "_meta"))
        {
            "an empty result"
        } else {
            "a result (its shape is lc-ping's to judge)"
        };
        return Verdict::Pass(format!(
            "a ping before notifications/initialized was answered with {shape}"
        ));
    }
    let got = match (ping.silence(), ping.error_code()) {
        (Some(silence), _) => format!("no response ({})", silence.describe()),
        (None, Some(code)) => format!("error {code}"),
        (None, None) => "a response with neither result nor error".into(),
    };
    Verdict::Violation(
        format!(
            "a ping between the initialize response and notifications/initialized got {got}; \
             pings are allowed before initialized and the receiver responds promptly with an \
             empty result"
        ),
        exchange_evidence(&early.transcript, ping),
    )
}

/// The answers to a batch probe: seqs of what came back for it, and their messages.
fn batch_answers<'a>(ctx: &'a Ctx<'_>, batch: &BatchExchange) -> Vec<(usize, &'a Value)> {
    ctx.transcript()
        .received()
        .filter(|e| e.answers == Some(batch.request_seq))
        .filter_map(|e| e.json.as_deref().map(|j| (e.seq, j)))
        .collect()
}

/// `RPC-BATCH-RESPONSE-R2` (2025-03-26): JSON-RPC 2.0 section 6 answers an empty array
/// with one Invalid Request error ("MUST be a single Response object"), and a batch of
/// notifications with nothing ("MUST NOT return an empty Array").
pub(super) fn batch_response(ctx: &Ctx<'_>) -> Verdict {
    if let Some(skip) = ctx.skip_if_stopped() {
        return skip;
    }
    let edges = &ctx.record.edges;
    // A batch after which the server answers nothing more (exited, or hung) is this
    // check's finding, not a skip and not the next request's: the line that did it is here.
    if let Some(verdict) = [
        (
            &edges.empty_batch,
            "an empty batch",
            "an empty batch with one -32600 error",
        ),
        (
            &edges.notification_batch,
            "a batch of notifications only",
            "a batch of notifications with nothing",
        ),
    ]
    .into_iter()
    .find_map(|(batch, what, rule)| {
        batch
            .as_ref()
            .and_then(|b| batch_killed(ctx, b, what, rule))
    }) {
        return verdict;
    }
    let (Some(empty), Some(notes)) = (&edges.empty_batch, &edges.notification_batch) else {
        return Verdict::Skip("the empty and notification-only batches were not sent".into());
    };
    // A server that does not process batches at all fails rpc-batch; judging these too
    // would report one missing feature three times.
    let handled = ctx
        .record
        .batch
        .as_ref()
        .is_some_and(|b| b.in_array.len() + b.separate.len() >= b.ids.len());
    if !handled {
        return Verdict::Skip("the server does not process batches (see rpc-batch)".into());
    }
    let mut problems = Vec::new();
    let mut seqs = vec![empty.request_seq];
    let answers = batch_answers(ctx, empty);
    seqs.extend(answers.iter().map(|(s, _)| *s));
    let mut silent_empty = false;
    match answers.as_slice() {
        [] => silent_empty = true,
        [(_, single)] if single.is_object() => {
            let code = single.pointer("/error/code").and_then(Value::as_i64);
            if code != Some(-32600) {
                problems.push(format!(
                    "an empty batch got {} instead of one -32600 error",
                    code.map_or("a response without an error code".into(), |c| format!(
                        "error {c}"
                    ))
                ));
            }
        }
        _ => problems.push(format!(
            "an empty batch got {} answer(s), an array among them; JSON-RPC wants a single \
             Response object (-32600)",
            answers.len()
        )),
    }
    let answered = batch_answers(ctx, notes);
    seqs.push(notes.request_seq);
    seqs.extend(answered.iter().map(|(s, _)| *s));
    if !answered.is_empty() {
        problems.push(format!(
            "a batch of notifications only got {} answer(s); it gets none (notifications are \
             never answered, and an empty array MUST NOT be returned)",
            answered.len()
        ));
    }
    let mut evidence = ctx.evidence(&seqs);
    evidence.extend(ctx.exchange_evidence(&notes.fence));
    if !problems.is_empty() {
        return Verdict::Violation(problems.join("; "), evidence);
    }
    if silent_empty {
        return Verdict::Warn(
            "an empty batch got no response; JSON-RPC answers it with a single -32600 error \
             (policy A2: silence is a warning)"
                .into(),
            evidence,
        );
    }
    Verdict::Pass(
        "an empty batch got one -32600 error, and a batch of notifications got no answer".into(),
    )
}

/// The finding when `batch` left the server answering nothing: the request after it (a
/// liveness request) got no response because the server exited or stopped answering;
/// `rule` is how JSON-RPC answers such a batch.
fn batch_killed(ctx: &Ctx<'_>, batch: &BatchExchange, what: &str, rule: &str) -> Option<Verdict> {
    let silence = batch.fence_lost()?;
    let mut seqs = vec![batch.request_seq];
    seqs.extend(batch_answers(ctx, batch).iter().map(|(s, _)| *s));
    let mut evidence = ctx.evidence(&seqs);
    evidence.extend(ctx.exchange_evidence(&batch.fence));
    Some(Verdict::Violation(
        format!(
            "after {what}, {} got no response: {}; JSON-RPC 2.0 section 6 answers {}, and the \
             server goes on",
            batch.fence.method,
            silence.describe(),
            rule
        ),
        evidence,
    ))
}

/// The transcript seqs of responses taken as answers to the edge probe's cancellations:
/// every response to nothing that came while the probe ran, except a second answer to one
/// of our other requests (the ping behind the cancellations, answered twice: that is
/// rpc-id-echo's, not a response to a notification). A response carrying the id the first
/// cancellation names counts: it may be either, and either is wrong.
pub(super) fn answers_to_cancellations(ctx: &Ctx<'_>) -> Vec<usize> {
    let Some(probe) = &ctx.record.edges.cancel else {
        return Vec::new();
    };
    let cancelled = probe.finished.request.get("id");
    let others: Vec<&Value> = super::lifecycle::our_request_ids(ctx)
        .into_iter()
        .filter(|id| Some(*id) != cancelled)
        .collect();
    ctx.transcript()
        .received()
        .filter(|e| probe.covers(e.seq) && e.unsolicited)
        .filter(|e| {
            e.json
                .as_ref()
                .is_none_or(|j| crate::rules::answered_again(j, &others).is_none())
        })
        .map(|e| e.seq)
        .collect()
}

/// `CANCEL-IGNORE-INVALID`: a cancellation of a request already answered, and a malformed
/// one, are ignored: never answered (notifications MUST NOT be), and the server goes on
/// answering. Stopping after the malformed one only is a warning (a SHOULD).
pub(super) fn cancel_ignored(ctx: &Ctx<'_>) -> Verdict {
    if let Some(skip) = ctx.skip_if_stopped() {
        return skip;
    }
    if let Some(skip) = modern_http_cancel(ctx) {
        return skip;
    }
    let Some(probe) = &ctx.record.edges.cancel else {
        return Verdict::Skip("the cancellation probe was not sent".into());
    };
    let stray = answers_to_cancellations(ctx);
    let mut seqs = probe.finished.seqs();
    seqs.extend(&probe.notifications);
    seqs.extend(stray.iter().take(MAX_EXAMPLES));
    let mut evidence = ctx.evidence(&seqs);
    evidence.extend(ctx.exchange_evidence(&probe.fence));
    if !stray.is_empty() {
        return Verdict::Violation(
            format!(
                "{} response(s) came back for cancellations of a request already answered and \
                 of a malformed one; notifications MUST NOT be answered, and invalid \
                 cancellations SHOULD be ignored",
                stray.len()
            ),
            evidence,
        );
    }
    if let Some(silence) = probe.fence.silence() {
        let exited = matches!(silence, Silence::Exited(_));
        return Verdict::Violation(
            format!(
                "after cancellations of a request already answered and of a malformed one, a \
                 ping got no response ({}); both parties MUST handle a cancellation that \
                 arrives after the response gracefully{}",
                silence.describe(),
                if exited { " (the server exited)" } else { "" }
            ),
            evidence,
        );
    }
    Verdict::Pass(
        "cancellations of a request already answered and of a malformed one were ignored".into(),
    )
}

/// `META-KEY-FORMAT` (MUST) and `META-RESERVED-PREFIX` (reserved, a warning): every `_meta`
/// key the server wrote where the schema puts `_meta`.
pub(super) fn meta_key_format(ctx: &Ctx<'_>) -> Verdict {
    let revision = ctx.revision.unwrap_or(ctx.record.requested);
    let (mut keys, mut malformed, mut reserved) = (0, Vec::new(), Vec::new());
    for entry in ctx.transcript().received().filter(|e| e.problem.is_none()) {
        let Some(message) = &entry.json else { continue };
        for (path, meta) in meta_objects(message) {
            for key in meta.keys() {
                keys += 1;
                match key_problem(key, revision) {
                    None => {}
                    Some(MetaKeyProblem::Malformed(why)) => {
                        malformed.push((entry.seq, format!("{path} key {key:?}: {why}")))
                    }
                    Some(MetaKeyProblem::Reserved) => reserved.push((
                        entry.seq,
                        format!("{path} key {key:?} uses a prefix reserved for MCP"),
                    )),
                }
            }
        }
    }
    // The same key in every listing walk is one finding: each distinct one is named once,
    // with the first message that carries it.
    let evidence = |found: &[(usize, String)]| {
        let mut distinct: Vec<&(usize, String)> = Vec::new();
        for f in found {
            if !distinct.iter().any(|d| d.1 == f.1) {
                distinct.push(f);
            }
        }
        let mut seqs: Vec<usize> = distinct.iter().map(|(s, _)| *s).collect();
        seqs.dedup();
        seqs.truncate(MAX_EXAMPLES);
        let mut out: Vec<Evidence> = distinct
            .iter()
            .take(MAX_EXAMPLES)
            .map(|(_, what)| Evidence::note(what.clone()))
            .collect();
        out.extend(evidence_from(ctx.transcript(), &seqs));
        out
    };
    if let Some((_, first)) = malformed.first() {
        return Verdict::Violation(
            format!(
                "{} _meta key(s) in the server's messages break the key format ({first}); a key is an optional prefix of \
                 dot-separated labels ending in '/', then a name that begins and ends with a \
                 letter or digit",
                malformed.len()
            ),
            evidence(&malformed),
        );
    }
    if let Some((_, first)) = reserved.first() {
        return Verdict::Warn(
            format!(
                "{} _meta key(s) in the server's messages use a prefix reserved for MCP that the spec defines no key \
                 under ({first}); use a prefix of your own, in reverse DNS notation",
                reserved.len()
            ),
            evidence(&reserved),
        );
    }
    if keys == 0 {
        return Verdict::Skip("the server wrote no _meta key".into());
    }
    Verdict::Pass(format!(
        "all {keys} _meta key(s) the server wrote follow the key format"
    ))
}

/// Over 2026-07-28 Streamable HTTP no `notifications/cancelled` reaches the server: the
/// transport closes the request's response stream instead (streamable-http.mdx,
/// Cancellation), so the cancellation probes have nothing to judge.
pub(super) fn modern_http_cancel(ctx: &Ctx<'_>) -> Option<Verdict> {
    (ctx.record.http.is_some() && ctx.record.modern.is_some()).then(|| {
        Verdict::Skip(
            "over 2026-07-28 Streamable HTTP notifications/cancelled is not sent: closing the \
             request's stream is the cancellation (streamable-http.mdx, Cancellation)"
                .into(),
        )
    })
}
