//! Judges for the JSON-RPC base layer (`index.mdx` / `messages.mdx`, `transports.mdx`
//! stdio, JSON-RPC 2.0), applied to every message the server wrote.

use serde_json::Value;

use super::model::{evidence_from, Ctx, Evidence, Verdict, MAX_EXAMPLES};
use crate::protocol::{
    flood_bound, thousands, Entry, Exchange, FrameProblem, IdMatch, MessageKind, Tally,
};
use crate::rules;

fn json_messages<'a>(ctx: &'a Ctx<'_>) -> impl Iterator<Item = (&'a Entry, &'a Value)> {
    ctx.transcript()
        .received()
        .filter(|e| e.problem.is_none())
        .filter_map(|e| e.json.as_deref().map(|j| (e, j)))
}

fn responses<'a>(ctx: &'a Ctx<'_>) -> impl Iterator<Item = (&'a Entry, &'a Value)> {
    json_messages(ctx).filter(|(_, j)| crate::protocol::classify(j) == MessageKind::Response)
}

/// Evidence: each offending entry with the request it answers, first few only.
fn examples(ctx: &Ctx<'_>, seqs: &[usize]) -> Vec<Evidence> {
    let mut out = Vec::new();
    for &seq in seqs.iter().take(MAX_EXAMPLES) {
        if let Some(req) = ctx.transcript().get(seq).and_then(|e| e.answers) {
            out.extend(ctx.evidence(&[req]));
        }
        out.extend(ctx.evidence(&[seq]));
    }
    if seqs.len() > MAX_EXAMPLES {
        out.push(Evidence::note(format!(
            "... and {} more",
            seqs.len() - MAX_EXAMPLES
        )));
    }
    out
}

/// `RPC-STDIO-FRAMING`: nothing but JSON-RPC messages on stdout, UTF-8, within the cap;
/// over HTTP the same of every JSON body and SSE event's data, and the finding names
/// what carried them (a server reached over HTTP has no stdout).
pub(super) fn stdio_framing(ctx: &Ctx<'_>) -> Verdict {
    let revision = ctx.revision.unwrap_or(ctx.record.requested);
    let bad: Vec<(usize, &FrameProblem)> = ctx
        .transcript()
        .received()
        .filter(|e| rules::frame(e.problem.as_ref(), e.json.as_deref(), revision).is_some())
        .filter_map(|e| e.problem.as_ref().map(|p| (e.seq, p)))
        .collect();
    let (carrier, rule) = match ctx.record.http.as_ref() {
        Some(http) if http.sse.is_some() => (
            "SSE event(s)",
            "server messages MUST be JSON-RPC messages, sent as SSE `message` events with the \
             message encoded as JSON in the event data (2024-11-05 transports.mdx, HTTP with SSE)",
        ),
        Some(_) => (
            "HTTP body or SSE event payload(s)",
            "what the server sends in a JSON body or an SSE event's data MUST be a JSON-RPC \
             message (UTF-8, within the line cap)",
        ),
        None => (
            "stdout line(s)",
            "the server MUST NOT write anything to stdout that is not a valid MCP message \
             (logs belong on stderr)",
        ),
    };
    if bad.is_empty() {
        let n = ctx.transcript().received().count();
        return Verdict::Pass(format!("all {n} {carrier} were JSON-RPC messages"));
    }
    let mut kinds: Vec<String> = bad.iter().map(|(_, p)| p.describe()).collect();
    kinds.dedup();
    let seqs: Vec<usize> = bad.iter().map(|(s, _)| *s).collect();
    Verdict::Violation(
        format!(
            "{} {carrier} are not valid MCP messages ({}); {rule}",
            bad.len(),
            kinds.join(", ")
        ),
        examples(ctx, &seqs),
    )
}

/// `RPC-JSONRPC-2.0`: `"jsonrpc": "2.0"` on every message.
pub(super) fn jsonrpc_version(ctx: &Ctx<'_>) -> Verdict {
    let objects = json_messages(ctx).filter(|(_, j)| j.is_object());
    let (mut n, mut bad) = (0, Vec::new());
    for (entry, json) in objects {
        n += 1;
        if rules::jsonrpc_version(json).is_some() {
            bad.push(entry.seq);
        }
    }
    if bad.is_empty() {
        return Verdict::Pass(format!("all {n} message(s) carry \"jsonrpc\": \"2.0\""));
    }
    Verdict::Violation(
        format!("{} message(s) lack \"jsonrpc\": \"2.0\"", bad.len()),
        examples(ctx, &bad),
    )
}

/// `RPC-RESP-EXCLUSIVE`: exactly one of `result` and `error`.
pub(super) fn response_exclusive(ctx: &Ctx<'_>) -> Verdict {
    let (mut n, mut bad) = (0, Vec::new());
    for (entry, json) in responses(ctx) {
        n += 1;
        if rules::response_exclusive(json).is_some() {
            bad.push(entry.seq);
        }
    }
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "all {n} response(s) hold exactly one of result and error"
        ));
    }
    Verdict::Violation(
        format!(
            "{} response(s) hold both result and error, or neither; a response MUST set exactly one",
            bad.len()
        ),
        examples(ctx, &bad),
    )
}

/// `RPC-ID-ECHO`: the response id has the request id's JSON type and value.
pub(super) fn id_echo(ctx: &Ctx<'_>) -> Verdict {
    let loose: Vec<usize> = ctx
        .transcript()
        .received()
        .filter(|e| e.id_match == Some(IdMatch::Loose))
        .map(|e| e.seq)
        .collect();
    if !loose.is_empty() {
        return Verdict::Violation(
            format!(
                "{} response(s) carry the request id in another JSON type or form; a response MUST \
                 carry the same id (same type and value)",
                loose.len()
            ),
            examples(ctx, &loose),
        );
    }
    // A ping probe with an unusual id that got no response while some response answered
    // nothing of ours: the id was mangled beyond recognition.
    let stray: Vec<usize> = ctx
        .transcript()
        .received()
        .filter(|e| e.unsolicited)
        .map(|e| e.seq)
        .collect();
    let lost: Vec<&Exchange> = ctx
        .record
        .pings
        .iter()
        .filter(|p| p.silence().is_some())
        .collect();
    if !lost.is_empty() && !stray.is_empty() {
        let mut evidence: Vec<Evidence> = lost
            .iter()
            .flat_map(|p| ctx.evidence(&[p.request_seq]))
            .collect();
        evidence.extend(ctx.evidence(&stray[..stray.len().min(MAX_EXAMPLES)]));
        return Verdict::Violation(
            format!(
                "{} ping(s) got no response with their id while {} response(s) answered no request \
                 of ours: the id did not come back intact",
                lost.len(),
                stray.len()
            ),
            evidence,
        );
    }
    // Stray responses not taken for answers to notifications/initialized (that check
    // judges those): an id none of our requests had breaks the echo; a second answer to a
    // request already answered is a warning (JSON-RPC: one Response per request).
    let to_initialized = ctx
        .record
        .initialized_seq
        .map(|sent| super::lifecycle::answers_to_initialized(ctx, sent))
        .unwrap_or_default();
    let ours = super::lifecycle::our_request_ids(ctx);
    let (mut unknown, mut twice) = (Vec::new(), Vec::new());
    // Responses to the cancellations of the edge probe are judged there (cancel-ignore-invalid).
    let to_cancellations = super::edges::answers_to_cancellations(ctx);
    let to_cancel = |seq| to_cancellations.contains(&seq);
    for e in ctx.transcript().received().filter(|e| e.unsolicited) {
        if to_initialized.contains(&e.seq) || to_cancel(e.seq) {
            continue;
        }
        let Some(id) = e.json.as_ref().and_then(|j| j.get("id")) else {
            continue;
        };
        if let Some(again) = e
            .json
            .as_ref()
            .and_then(|j| rules::answered_again(j, &ours))
        {
            twice.push((e.seq, again.kind));
        } else if !id.is_null() {
            unknown.push(e.seq);
        }
    }
    if !unknown.is_empty() {
        return Verdict::Violation(
            format!(
                "{} response(s) carry an id that none of our requests had; responses MUST carry \
                 the id of the request they answer",
                unknown.len()
            ),
            examples(ctx, &unknown),
        );
    }
    if !twice.is_empty() {
        let message = format!(
            "{} response(s) answer a request that was already answered; JSON-RPC gives each \
             request one Response",
            twice.len()
        );
        let seqs: Vec<usize> = twice.iter().map(|(seq, _)| *seq).collect();
        // The rule book's grade (a policy warning), the one the property sequences use.
        return if twice.iter().all(|(_, kind)| kind.is_policy_warning()) {
            Verdict::Warn(message, examples(ctx, &seqs))
        } else {
            Verdict::Violation(message, examples(ctx, &seqs))
        };
    }
    let n = ctx
        .transcript()
        .received()
        .filter(|e| e.id_match.is_some())
        .count();
    if n == 0 {
        return Verdict::Skip("no response was received".into());
    }
    Verdict::Pass(format!(
        "{n} response(s) echoed their request id exactly (integer, non-ASCII string, 2^53-1 and digit-string ids probed)"
    ))
}

/// `RPC-ERROR-SHAPE`: integer `code`, string `message`.
pub(super) fn error_shape(ctx: &Ctx<'_>) -> Verdict {
    let (mut n, mut bad) = (0, Vec::new());
    for (entry, json) in responses(ctx) {
        let Some(error) = json.get("error") else {
            continue;
        };
        n += 1;
        if rules::error_shape(error).is_some() {
            bad.push(entry.seq);
        }
    }
    if n == 0 {
        return Verdict::Skip("no error response was received".into());
    }
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "all {n} error(s) have an integer code and a string message"
        ));
    }
    Verdict::Violation(
        format!(
            "{} error response(s) lack an integer `code` or a string `message`; error codes MUST be integers",
            bad.len()
        ),
        examples(ctx, &bad),
    )
}

/// `RPC-ERROR-SHAPE` (schema `Error.message`, SHOULD): an error message is a concise
/// single sentence, not a multi-line or overlong dump.
pub(super) fn error_message(ctx: &Ctx<'_>) -> Verdict {
    let (mut n, mut bad, mut first) = (0, Vec::new(), None);
    for (entry, json) in responses(ctx) {
        let Some(error) = json.get("error") else {
            continue;
        };
        n += 1;
        if let Some(breach) = rules::error_message(error) {
            first.get_or_insert(breach.message);
            bad.push(entry.seq);
        }
    }
    if n == 0 {
        return Verdict::Skip("no error response was received".into());
    }
    match first {
        None => Verdict::Pass(format!(
            "all {n} error message(s) are one line of at most {} characters",
            rules::MAX_ERROR_MESSAGE
        )),
        Some(message) => Verdict::Violation(
            format!(
                "{} error message(s) are not a concise single sentence ({message}); details belong in error.data",
                bad.len()
            ),
            examples(ctx, &bad),
        ),
    }
}

/// `RPC-ERROR-ID`: an error that answers a request whose id could be read carries it.
/// Errors correlated to one of our requests only because they carried no id (the
/// malformed probes accept those) are the ones that can break it; a line that is not JSON
/// or a batch has no id to read.
pub(super) fn error_id(ctx: &Ctx<'_>) -> Verdict {
    let (mut n, mut bad, mut first) = (0, Vec::new(), None);
    for (entry, json) in responses(ctx) {
        if json.get("error").is_none() {
            continue;
        }
        let Some(request) = entry.answers.and_then(|s| ctx.transcript().get(s)) else {
            continue;
        };
        let sent = request
            .json
            .as_ref()
            .filter(|j| j.is_object())
            .and_then(|j| j.get("id"))
            .unwrap_or(&Value::Null);
        if !(sent.is_string() || sent.is_i64() || sent.is_u64()) {
            continue;
        }
        n += 1;
        if let Some(breach) = rules::error_id(sent, json) {
            first.get_or_insert(breach.message);
            bad.push(entry.seq);
        }
    }
    if n == 0 {
        return Verdict::Skip("no error answered a request whose id was readable".into());
    }
    match first {
        None => Verdict::Pass(format!(
            "all {n} error(s) to requests with a readable id carried that id"
        )),
        Some(message) => Verdict::Violation(
            format!(
                "{} error(s) left out the id of a request whose id was readable ({message}); only an \
                 id that could not be read lets an error go without it",
                bad.len()
            ),
            examples(ctx, &bad),
        ),
    }
}

/// How an error probe was answered.
fn expect_error(
    ctx: &Ctx<'_>,
    exchange: Option<&Exchange>,
    code: i64,
    what: &str,
    silence_is_warning: bool,
    holds: fn(&Exchange) -> bool,
) -> Verdict {
    if let Some(skip) = ctx.skip_if_stopped() {
        return skip;
    }
    let Some(exchange) = exchange else {
        return Verdict::Skip(format!(
            "{what} was not sent: the server had stopped answering earlier"
        ));
    };
    let evidence = ctx.exchange_evidence(exchange);
    if let Some(silence) = exchange.silence() {
        let exited = matches!(silence, crate::protocol::Silence::Exited(_));
        let said = ctx.silence_text(exchange).unwrap_or_default();
        if silence_is_warning && !exited {
            return Verdict::Warn(
                format!(
                    "{what} got no response ({said}); expected error {code} (policy A2: silence is a warning)"
                ),
                evidence,
            );
        }
        return Verdict::Violation(format!("{what} got no response: {said}"), evidence);
    }
    if holds(exchange) {
        return Verdict::Pass(format!("{what} got error {code}"));
    }
    match exchange.error_code() {
        Some(c) => Verdict::Violation(format!("{what} got error {c}, expected {code}"), evidence),
        None if exchange.error().is_some() => Verdict::Violation(
            format!("{what} got an error without an integer code, expected {code}"),
            evidence,
        ),
        None => Verdict::Violation(
            format!("{what} got a success result, expected error {code}"),
            evidence,
        ),
    }
}

/// `RPC-ERR-PARSE`: a line that is not JSON gets -32700, and the server lives on.
pub(super) fn parse_error(ctx: &Ctx<'_>) -> Verdict {
    let verdict = expect_error(
        ctx,
        ctx.record.parse_error.as_ref(),
        -32700,
        "a line that is not JSON",
        true,
        |x| x.error_code() == Some(-32700),
    );
    if !matches!(verdict, Verdict::Pass(_) | Verdict::Warn(..)) {
        return verdict;
    }
    match &ctx.record.ping_after_malformed {
        // A ping answered with a line past the depth bound was answered (rpc-stdio-framing
        // judges the line).
        Some(ping) if ping.result().is_none() && !ping.unreadable() => Verdict::Violation(
            "after the malformed-input probes, ping is no longer answered".into(),
            ctx.exchange_evidence(ping),
        ),
        _ => verdict,
    }
}

/// `RPC-ERR-INVALID-REQUEST`: a request object without `method`, and a ping whose id is
/// `true` (section 10 A3), get -32600. The first verdict that is not a pass is the finding.
pub(super) fn invalid_request(ctx: &Ctx<'_>) -> Verdict {
    let probes = [
        (
            ctx.record.invalid_request.as_ref(),
            "a request without `method`",
        ),
        (
            ctx.record.edges.bad_id.as_ref(),
            "a ping with the id `true`",
        ),
    ];
    let verdicts: Vec<Verdict> = probes
        .into_iter()
        .filter(|(exchange, _)| exchange.is_some())
        .map(|(exchange, what)| {
            expect_error(ctx, exchange, -32600, what, true, |x| {
                x.error_code() == Some(-32600)
            })
        })
        .collect();
    let worst = |keep: fn(&Verdict) -> bool| verdicts.iter().find(|v| keep(v)).cloned();
    if let Some(v) = worst(|v| matches!(v, Verdict::Violation(..)))
        .or_else(|| worst(|v| matches!(v, Verdict::Warn(..))))
        .or_else(|| worst(|v| matches!(v, Verdict::Skip(..))))
    {
        return v;
    }
    let passed: Vec<String> = verdicts
        .into_iter()
        .filter_map(|v| match v {
            Verdict::Pass(m) => Some(m),
            _ => None,
        })
        .collect();
    if passed.is_empty() {
        // Neither probe was sent: the same skip as before.
        return expect_error(
            ctx,
            None,
            -32600,
            "a request without `method`",
            true,
            |_| true,
        );
    }
    Verdict::Pass(passed.join("; "))
}

/// `RPC-ERR-METHOD-NOT-FOUND`: an unknown method gets -32601.
pub(super) fn method_not_found(ctx: &Ctx<'_>) -> Verdict {
    expect_error(
        ctx,
        ctx.record.unknown_method.as_ref(),
        -32601,
        "an unknown method",
        false,
        |x| rules::unknown_method(x.error_code(), x.response().is_some()).is_none(),
    )
}

/// JSON-RPC 2.0 section 4: every request gets a response; a server that stalls or exits
/// mid-conversation breaks it. The malformed probes are exempt (their silence is policy).
pub(super) fn response_required(ctx: &Ctx<'_>) -> Verdict {
    let record = ctx.record;
    // The requests after a batch are the batch checks' evidence: a server the batch
    // killed is rpc-batch's or rpc-batch-response's finding, shown with the batch line.
    let exempt = [
        record.parse_error.as_ref(),
        record.invalid_request.as_ref(),
        record.batch.as_ref().map(|b| &b.fence),
        record.edges.empty_batch.as_ref().map(|b| &b.fence),
        record.edges.notification_batch.as_ref().map(|b| &b.fence),
    ];
    let silent: Vec<&Exchange> = record
        .exchanges()
        .filter(|x| {
            !exempt
                .iter()
                .any(|e| e.is_some_and(|e| std::ptr::eq(e, *x)))
        })
        // A session cut for flooding is judged by rpc-traffic-bounded; requests not sent
        // after a stall are not the server's to answer (the two that stalled are listed);
        // a request answered with a line past the depth bound was answered
        // (rpc-stdio-framing judges the line).
        .filter(|x| {
            x.silence().is_some_and(|s| {
                !matches!(
                    s,
                    crate::protocol::Silence::Flooded { .. }
                        | crate::protocol::Silence::Stalled(_)
                        | crate::protocol::Silence::Unreadable { .. }
                )
            })
        })
        .collect();
    if silent.is_empty() {
        let n = record
            .exchanges()
            .filter(|x| {
                x.silence().is_none()
                    || !exempt
                        .iter()
                        .any(|e| e.is_some_and(|e| std::ptr::eq(e, *x)))
            })
            .count();
        // The property phase's processes are the same server: one that fails whatever it
        // is sent there (a plain ping unanswered in a fresh process) breaks this rule,
        // and no input-validation check is to blame (prop-server-survives defers here).
        let phase = record.properties.as_ref();
        if let Some(ii) = phase.and_then(|p| p.input_independent.as_ref()) {
            let seqs: Vec<usize> = (0..ii.transcript.entries().len()).collect();
            let mut evidence = vec![Evidence::note(format!("first seen on {}", ii.first_seen))];
            evidence.push(Evidence::fresh_process());
            evidence.extend(evidence_from(&ii.transcript, &seqs));
            return Verdict::Violation(
                format!(
                    "all {n} request(s) of the scripted conversation were answered, but in the property phase {}",
                    ii.what
                ),
                evidence,
            );
        }
        return Verdict::Pass(format!(
            "all {n} request(s) were answered within the timeout"
        ));
    }
    let first = silent[0];
    let mut evidence = ctx.exchange_evidence(first);
    for x in silent.iter().skip(1).take(MAX_EXAMPLES) {
        evidence.extend(ctx.evidence(&[x.request_seq]));
    }
    let message = format!(
        "{} request(s) got no response, the first ({}) because {}",
        silent.len(),
        first.method,
        ctx.silence_text(first).unwrap_or_default()
    );
    // A tool may legitimately run longer than our timeout: JSON-RPC wants a response, not
    // one within our patience. Only stalls on tools/call, with the server alive, warn.
    let slow_tools_only = silent.iter().all(|x| {
        x.method == "tools/call" && x.silence().is_some_and(crate::protocol::Silence::timed_out)
    });
    if slow_tools_only {
        return Verdict::Warn(
            format!("{message}; a slow tool or a stall (raise --timeout to wait longer, or --deny-tool it)"),
            evidence,
        );
    }
    Verdict::Violation(message, evidence)
}

/// ", and 12 progress notifications for our own progressToken" (empty for none): not
/// unprompted, since a request of ours asked for them, but counted against the bound.
fn own_progress(n: u64) -> String {
    match n {
        0 => String::new(),
        1 => ", and 1 progress notification for our own progressToken".into(),
        n => format!(
            ", and {} progress notifications for our own progressToken",
            thousands(n)
        ),
    }
}

/// Suite policy (progress.mdx, Implementation Notes: "Both parties SHOULD implement rate
/// limiting to prevent flooding"): what the server sends unprompted stays under the
/// session's bound; past it the session was cut, and that is the finding.
pub(super) fn traffic_bounded(ctx: &Ctx<'_>) -> Verdict {
    let transcript = ctx.transcript();
    let seen = transcript.unprompted();
    let dropped = transcript.dropped_summary();
    let Some(cut) = transcript.flood_cut() else {
        let mut message = format!(
            "{} unprompted message(s) on stdout{}, within the bound",
            thousands(seen.unprompted_messages()),
            own_progress(seen.progress)
        );
        if let Some(dropped) = dropped {
            message.push_str(&format!("; {dropped}"));
        }
        return Verdict::Pass(message);
    };
    let mut seqs: Vec<usize> = transcript
        .received()
        .filter(|e| e.answers.is_none() && e.seq < cut)
        .take(MAX_EXAMPLES)
        .map(|e| e.seq)
        .collect();
    seqs.push(cut);
    let mut evidence = ctx.evidence(&seqs);
    evidence.extend(dropped.map(Evidence::note));
    // What no request asked for, and apart from it the progress for our own tokens (they
    // answer a request of ours, but count against the bound all the same).
    let unprompted = Tally {
        progress: 0,
        ..*seen
    };
    let bytes = thousands(seen.bytes);
    let what = match (unprompted.unprompted_messages(), seen.progress) {
        (0, n) => format!(
            "{} progress notification(s) for our own progressToken ({bytes} bytes)",
            thousands(n)
        ),
        (_, n) => format!(
            "{} ({bytes} bytes) that no request of ours asked for{}",
            unprompted.describe(),
            own_progress(n)
        ),
    };
    Verdict::Violation(
        format!(
            "the server sent {what}, past the bound of {} messages plus {} per line of ours: \
             the session was cut",
            thousands(flood_bound(0).0),
            thousands(flood_bound(1).0 - flood_bound(0).0),
        ),
        evidence,
    )
}

/// `RPC-BATCH-R2` (2025-03-26, MUST): a batch is accepted and answered; JSON-RPC 2.0
/// section 6 wants the responses in one array (a SHOULD there, so separate ones warn).
pub(super) fn batch(ctx: &Ctx<'_>) -> Verdict {
    if let Some(skip) = ctx.skip_if_stopped() {
        return skip;
    }
    let Some(batch) = &ctx.record.batch else {
        return Verdict::Skip("the negotiated revision has no batches".into());
    };
    let mut seqs = vec![batch.request_seq];
    seqs.extend(
        ctx.transcript()
            .received()
            .filter(|e| e.answers == Some(batch.request_seq))
            .map(|e| e.seq),
    );
    let mut evidence = ctx.evidence(&seqs);
    evidence.extend(ctx.exchange_evidence(&batch.fence));
    let answered_separately: Vec<&Value> = batch
        .separate
        .iter()
        .filter_map(|&s| ctx.transcript().get(s).and_then(|e| e.json.as_deref()))
        .filter(|m| {
            m.get("result").is_some() && batch.ids.contains(m.get("id").unwrap_or(&Value::Null))
        })
        .collect();
    let n = batch.ids.len();
    // A server that stops answering after the batch: the request after it is this
    // check's evidence (rpc-response-required leaves it here).
    if let Some(silence) = batch.fence_lost() {
        return Verdict::Violation(
            format!(
                "after a batch of {n} ping requests, {} got no response: {}",
                batch.fence.method,
                silence.describe()
            ),
            evidence,
        );
    }
    if batch.in_array.len() == n {
        return Verdict::Pass(format!(
            "a batch of {n} requests was answered with an array of {n} responses"
        ));
    }
    if batch.in_array.len() + answered_separately.len() == n && ctx.record.http.is_some() {
        // Over Streamable HTTP the answer to a POSTed batch may be an SSE stream of
        // separate messages (2025-03-26 transports.mdx, Sending Messages to the Server:
        // "These responses MAY be batched"): a batch there is not owed one array.
        return Verdict::Pass(format!(
            "a batch of {n} requests was answered with {n} responses on its POST's stream (over HTTP they MAY come unbatched)"
        ));
    }
    if batch.in_array.len() + answered_separately.len() == n {
        return Verdict::Warn(
            format!("a batch of {n} requests was answered, but not in one array (JSON-RPC 2.0 section 6: SHOULD)"),
            evidence,
        );
    }
    let what = if batch.separate.is_empty() && batch.in_array.is_empty() {
        "no answer"
    } else {
        "an error or partial answer"
    };
    Verdict::Violation(
        format!(
            "a batch of {n} ping requests got {what}; 2025-03-26 implementations MUST support receiving JSON-RPC batches"
        ),
        evidence,
    )
}
