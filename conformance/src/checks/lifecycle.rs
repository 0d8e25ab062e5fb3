//! Judges for the legacy lifecycle: initialize, version negotiation, initialized,
//! capabilities, ping and stdio shutdown (`lifecycle.mdx`, `ping.mdx`).

use serde_json::Value;

use super::model::{evidence_from, exchange_evidence, Ctx, Evidence, Verdict, MAX_EXAMPLES};
use crate::protocol::{Silence, Transcript};
use crate::records::{ShutdownRecord, UNSUPPORTED_VERSION};

/// `LC-INIT-RESULT`: protocolVersion and capabilities.
pub(super) fn init_result(ctx: &Ctx<'_>) -> Verdict {
    let init = &ctx.record.initialize;
    let evidence = ctx.exchange_evidence(init);
    if let Some(silence) = ctx.silence_text(init) {
        return Verdict::Violation(format!("initialize got no response: {silence}"), evidence);
    }
    if let Some(error) = init.error() {
        return Verdict::Violation(
            format!("initialize was answered with an error: {error}"),
            evidence,
        );
    }
    let Some(result) = init.result() else {
        return Verdict::Violation(
            "the initialize response holds neither result nor error".into(),
            evidence,
        );
    };
    let mut problems = Vec::new();
    if !result.get("protocolVersion").is_some_and(Value::is_string) {
        problems.push("`protocolVersion` is missing or not a string");
    }
    if !result.get("capabilities").is_some_and(Value::is_object) {
        problems.push("`capabilities` is missing or not an object");
    }
    if problems.is_empty() {
        Verdict::Pass(format!(
            "initialize answered with protocolVersion {} and capabilities {}",
            result["protocolVersion"], result["capabilities"]
        ))
    } else {
        Verdict::Violation(
            format!(
                "the initialize result is incomplete: {}",
                problems.join("; ")
            ),
            evidence,
        )
    }
}

/// `LC-INIT-RESULT`: serverInfo with name and version.
pub(super) fn server_info(ctx: &Ctx<'_>) -> Verdict {
    let Some(result) = ctx.record.init_result() else {
        return Verdict::Skip("initialize did not succeed".into());
    };
    let info = result.get("serverInfo");
    let field_ok = |k: &str| info.and_then(|i| i.get(k)).is_some_and(Value::is_string);
    let mut problems = Vec::new();
    if !info.is_some_and(Value::is_object) {
        problems.push("`serverInfo` is missing or not an object".to_string());
    } else {
        for k in ["name", "version"] {
            if !field_ok(k) {
                problems.push(format!("`serverInfo.{k}` is missing or not a string"));
            }
        }
    }
    if problems.is_empty() {
        Verdict::Pass(format!(
            "serverInfo is {}",
            info.cloned().unwrap_or_default()
        ))
    } else {
        Verdict::Violation(
            problems.join("; "),
            ctx.exchange_evidence(&ctx.record.initialize),
        )
    }
}

/// `LC-VERSION-ECHO`: a supported version is answered with itself; a different answer
/// must at least be a version the server supports.
pub(super) fn version_echo(ctx: &Ctx<'_>) -> Verdict {
    let requested = ctx.record.requested.id;
    let Some(answered) = ctx.record.negotiated.as_deref() else {
        return Verdict::Skip("initialize gave no protocolVersion string".into());
    };
    if answered == requested {
        return Verdict::Pass(format!("asked for {requested}, answered {answered}"));
    }
    let mut evidence = ctx.exchange_evidence(&ctx.record.initialize);
    match ctx.negotiation.supports(answered) {
        Some(true) => Verdict::Pass(format!(
            "asked for {requested}, answered {answered}: the server does not support {requested} \
             and falls back to {answered}, which it answers with itself"
        )),
        Some(false) => {
            let again = ctx.negotiation.echoes.get(answered).cloned().flatten();
            if let Some(probe) = ctx.negotiation.probe_for(answered) {
                evidence.push(Evidence::note(format!(
                    "a fresh session asking for {answered:?}:"
                )));
                evidence.extend(exchange_evidence(&probe.transcript, &probe.exchange));
            }
            Verdict::Violation(
                format!(
                    "asked for {requested}, the server answered {answered:?}, a version it does not \
                     support: asked for {answered:?} it answers {}",
                    again.map_or("with no version".to_string(), |v| format!("{v:?}"))
                ),
                evidence,
            )
        }
        None => Verdict::Skip(format!(
            "the server's support of {answered:?} was not probed"
        )),
    }
}

/// `LC-VERSION-FALLBACK`: an unsupported version gets a success with another version the
/// server supports. Section 10 A1: a -32602 error with `data.supported` is a warning.
pub(super) fn version_fallback(ctx: &Ctx<'_>) -> Verdict {
    let Some(probe) = ctx.negotiation.unsupported.as_ref() else {
        return Verdict::Skip("the unsupported-version probe did not run".into());
    };
    let evidence = exchange_evidence(&probe.transcript, &probe.exchange);
    let requested = UNSUPPORTED_VERSION;
    if let Some(silence) = probe.exchange.silence() {
        return Verdict::Violation(
            format!(
                "initialize with unsupported version {requested} got no response: {}",
                silence.describe()
            ),
            evidence,
        );
    }
    if let Some(error) = probe.exchange.error() {
        let code = error.get("code").and_then(Value::as_i64);
        let listed = error
            .pointer("/data/supported")
            .is_some_and(Value::is_array);
        if code == Some(-32602) && listed {
            return Verdict::Warn(
                format!(
                    "initialize with unsupported version {requested} was answered with error -32602 \
                     listing data.supported; the normative text asks for a successful result with a \
                     version the server supports (policy A1: warning)"
                ),
                evidence,
            );
        }
        return Verdict::Violation(
            format!(
                "initialize with unsupported version {requested} was answered with an error; the server \
                 MUST respond with another protocol version it supports"
            ),
            evidence,
        );
    }
    match probe.answered() {
        None => Verdict::Violation("the initialize result has no protocolVersion string".into(), evidence),
        Some(v) if v == requested => Verdict::Violation(
            format!("initialize with unsupported version {requested} was answered with that same version"),
            evidence,
        ),
        Some(v) => match ctx.negotiation.supports(v) {
            Some(true) => Verdict::Pass(format!(
                "asked for unsupported {requested}, answered {v}, a version the server supports"
            )),
            Some(false) => Verdict::Violation(
                format!("asked for unsupported {requested}, answered {v:?}, which the server does not support"),
                evidence,
            ),
            None => Verdict::Skip(format!("the server's support of {v:?} was not probed")),
        },
    }
}

/// `RPC-NOTIF-NO-REPLY` for `notifications/initialized`: no response to a notification.
pub(super) fn initialized_no_reply(ctx: &Ctx<'_>) -> Verdict {
    if let Some(skip) = ctx.skip_if_stopped() {
        return skip;
    }
    let Some(sent) = ctx.record.initialized_seq else {
        return Verdict::Skip("notifications/initialized was not sent".into());
    };
    let stray = answers_to_initialized(ctx, sent);
    if stray.is_empty() {
        return Verdict::Pass(
            "no response to notifications/initialized (stray responses later, if any, are \
             judged by rpc-id-echo)"
                .into(),
        );
    }
    let mut seqs = vec![sent];
    seqs.extend(stray.iter().take(MAX_EXAMPLES));
    Verdict::Violation(
        format!(
            "{} response(s) right after notifications/initialized answer no request of ours; \
             a notification MUST NOT be answered",
            stray.len()
        ),
        ctx.evidence(&seqs),
    )
}

/// Stray responses that can be answers to `notifications/initialized` (sent at `sent`):
/// those that came before the server answered anything we sent after it, and whose id is
/// none of our requests' (a second answer to one of ours is not about the notification).
pub(super) fn answers_to_initialized(ctx: &Ctx<'_>, sent: usize) -> Vec<usize> {
    let transcript = ctx.transcript();
    let next_answer = transcript
        .received()
        .find(|e| e.seq > sent && e.answers.is_some())
        .map_or(usize::MAX, |e| e.seq);
    let ours = our_request_ids(ctx);
    transcript
        .received()
        .filter(|e| e.seq > sent && e.seq < next_answer && e.unsolicited)
        .filter(|e| {
            let id = e.json.as_ref().and_then(|j| j.get("id"));
            !id.is_some_and(|id| ours.contains(&id))
        })
        .map(|e| e.seq)
        .collect()
}

/// The ids of every request we sent in the scripted session: malformed probes (a request
/// without `method`) and the members of batches included, our answers to the server's
/// requests left out.
pub(super) fn our_request_ids<'a>(ctx: &'a Ctx<'_>) -> Vec<&'a Value> {
    ctx.transcript().request_ids()
}

/// `LC-CAP-CONSISTENT` / `LC-CAP-TOOLS`: tools declared exactly when tools/list works.
pub(super) fn capability_tools(ctx: &Ctx<'_>) -> Verdict {
    if let Some(skip) = ctx.skip_if_stopped() {
        return skip;
    }
    let Some(result) = ctx.record.init_result() else {
        return Verdict::Skip("initialize did not succeed".into());
    };
    let Some(first) = ctx.record.tools_pages.first() else {
        return Verdict::Skip("tools/list was not sent".into());
    };
    let declared = result
        .pointer("/capabilities/tools")
        .is_some_and(Value::is_object);
    let mut evidence = ctx.exchange_evidence(&ctx.record.initialize);
    evidence.extend(ctx.exchange_evidence(first));
    if first.silence().is_some() {
        return Verdict::Skip("tools/list got no response (see rpc-response-required)".into());
    }
    match (declared, first.result().is_some(), first.error_code()) {
        (true, true, _) => Verdict::Pass("the tools capability is declared and tools/list works".into()),
        (false, true, _) => Verdict::Violation(
            "tools/list succeeds but capabilities.tools is not declared: servers that support tools \
             MUST declare the tools capability"
                .into(),
            evidence,
        ),
        (true, false, Some(-32601)) => Verdict::Violation(
            "capabilities.tools is declared but tools/list is answered -32601 (method not found)"
                .into(),
            evidence,
        ),
        // A server error (a listing that needs the network, a backend down) is a
        // legitimate protocol error: the method exists, so the capability is not missing.
        (true, false, code) => Verdict::Pass(format!(
            "the tools capability is declared and tools/list exists: it answered {}, a server \
             error, not a missing capability (no listed tool could be judged)",
            code.map_or_else(|| "an error".to_string(), |c| format!("error {c}"))
        )),
        (false, false, Some(-32601)) => {
            Verdict::Pass("no tools capability, and tools/list is answered with -32601".into())
        }
        (false, false, _) => Verdict::Warn(
            "no tools capability; tools/list should then get -32601 (policy A11)".into(),
            evidence,
        ),
    }
}

/// `LC-PING`: ping gets an empty result (only `_meta` allowed).
pub(super) fn ping(ctx: &Ctx<'_>) -> Verdict {
    if let Some(skip) = ctx.skip_if_stopped() {
        return skip;
    }
    // A ping the session was cut before (for flooding) is rpc-traffic-bounded's to judge.
    let pings: Vec<_> = ctx
        .record
        .pings
        .iter()
        .filter(|p| !matches!(p.silence(), Some(Silence::Flooded { .. })))
        .collect();
    if pings.is_empty() && !ctx.record.pings.is_empty() {
        return Verdict::Skip(
            "the session was cut for flooding before any ping was answered \
             (rpc-traffic-bounded judges the flood)"
                .into(),
        );
    }
    let mut bad = Vec::new();
    for ping in pings.iter().copied() {
        let ok = ping
            .result()
            .and_then(Value::as_object)
            .is_some_and(|r| r.keys().all(|k| k == "_meta"));
        if !ok {
            bad.push(ping);
        }
    }
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} ping(s) answered with an empty result",
            pings.len()
        ));
    }
    let evidence = bad
        .iter()
        .take(MAX_EXAMPLES)
        .flat_map(|p| ctx.exchange_evidence(p))
        .collect();
    Verdict::Violation(
        format!(
            "{} of {} ping(s) were not answered with an empty result; the receiver MUST respond \
             promptly with an empty response",
            bad.len(),
            pings.len()
        ),
        evidence,
    )
}

/// `LC-SHUTDOWN-STDIO`: the server exits after its stdin is closed.
pub(super) fn shutdown(ctx: &Ctx<'_>) -> Verdict {
    let Some(shutdown) = &ctx.record.shutdown else {
        if ctx.record.http.is_some() {
            // An HTTP session ends with a DELETE; there is no stdin to close.
            return Verdict::Skip(
                "applies to servers on stdio only: this one was reached over HTTP".into(),
            );
        }
        return Verdict::Skip("the shutdown sequence did not run".into());
    };
    if let Some(fresh) = &shutdown.fresh {
        return fresh_shutdown(shutdown, fresh);
    }
    if let Some(why) = &shutdown.already_ended {
        return Verdict::Skip(format!(
            "the server had stopped before stdin was closed: {why}"
        ));
    }
    if shutdown.voluntary {
        Verdict::Pass(format!(
            "exited after stdin was closed ({})",
            shutdown.exit.describe()
        ))
    } else {
        let last = ctx.transcript().entries().len().saturating_sub(1);
        let mut evidence = ctx.evidence(&[last]);
        evidence.push(Evidence::note(format!(
            "still running when the grace period after closing its stdin ended; then ended by \
             us ({})",
            shutdown.exit.describe()
        )));
        // Our own calls may have started what keeps it alive (a timer, a subscription).
        let mut called: Vec<&str> = ctx
            .record
            .tools
            .iter()
            .flat_map(|t| &t.calls)
            .filter(|c| c.exchange.is_some())
            .map(|c| c.name.as_str())
            .collect();
        called.dedup();
        if !called.is_empty() {
            evidence.push(Evidence::note(format!(
                "tools called in this session before stdin was closed (one that starts a timer or \
                 a background task can keep a server alive): {}",
                called.join(", ")
            )));
        }
        Verdict::Violation(
            "the server kept running after its stdin was closed; servers SHOULD exit promptly"
                .to_string(),
            evidence,
        )
    }
}

/// [`shutdown`] judged on a fresh process: the main session had ended before its stdin
/// could be closed, so the shutdown ran on a process of its own (initialized, pinged).
fn fresh_shutdown(shutdown: &ShutdownRecord, fresh: &Transcript) -> Verdict {
    let why = match &shutdown.already_ended {
        Some(why) => format!("the main session had ended ({why}), so a fresh process"),
        None => "a fresh process".into(),
    };
    if shutdown.voluntary {
        return Verdict::Pass(format!(
            "{why} exited after stdin was closed ({})",
            shutdown.exit.describe()
        ));
    }
    let seqs: Vec<usize> = (0..fresh.entries().len()).collect();
    let mut evidence = vec![Evidence::fresh_process()];
    evidence.extend(evidence_from(fresh, &seqs));
    evidence.push(Evidence::note(format!(
        "still running when the grace period after closing its stdin ended; then ended by us ({})",
        shutdown.exit.describe()
    )));
    Verdict::Violation(
        format!("{why} kept running after its stdin was closed; servers SHOULD exit promptly"),
        evidence,
    )
}

/// `LC-OPERATION-RESPECT`: we declare no client capabilities, so the server may ask us
/// nothing but ping (no roots/list, sampling/createMessage, elicitation/create). A SHOULD
/// in 2024-11-05 and 2025-03-26, a MUST from 2025-06-18.
pub(super) fn no_undeclared_requests(ctx: &Ctx<'_>) -> Verdict {
    let requests: Vec<usize> = ctx
        .transcript()
        .received()
        .filter(|e| {
            e.json.as_ref().is_some_and(|j| {
                crate::protocol::classify(j) == crate::protocol::MessageKind::Request
            })
        })
        .filter(|e| {
            e.json
                .as_ref()
                .and_then(|j| j.get("method"))
                .and_then(Value::as_str)
                != Some("ping")
        })
        .map(|e| e.seq)
        .collect();
    if requests.is_empty() {
        return Verdict::Pass("the server asked the client for nothing it did not declare".into());
    }
    let mut evidence = ctx.exchange_evidence(&ctx.record.initialize);
    for &seq in requests.iter().take(MAX_EXAMPLES) {
        // The request and our fixed-policy reply right after it.
        evidence.extend(ctx.evidence(&[seq, seq + 1]));
    }
    // Requests past the record's budget were counted, not kept.
    let n = requests.len() as u64 + ctx.transcript().unprompted_dropped().requests;
    let message = format!(
        "the server sent {} request(s) for client capabilities the client did not declare (it declared none); \
         only capabilities that were successfully negotiated may be used",
        crate::protocol::thousands(n)
    );
    // A SHOULD before 2025-06-18: the catalog row grades it per revision.
    Verdict::Violation(message, evidence)
}
