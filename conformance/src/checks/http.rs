//! Judges for the rules only Streamable HTTP has (transports.mdx 2025-03-26 to
//! 2025-11-25, Security Warning, Sending Messages, Listening for Messages, Multiple
//! Connections, Session Management, Protocol Version Header). Each reads the record's HTTP
//! side ([`crate::records::HttpRecord`]): the scripted session's exchanges and streams,
//! the probe session's deliberately wrong requests, and the foreign-`Origin` request. Over stdio there is no
//! HTTP side, and every judge here skips.

use serde_json::Value;

use super::model::{Ctx, Evidence, Verdict, MAX_EXAMPLES};
use crate::protocol::Rev;
use crate::records::{EraFinding, HttpRecord};
use crate::records::{HttpProbe, ProbeStep, FOREIGN_ORIGIN};
use crate::transport::{is_media, Carried, HttpFact, StreamKind, StreamRecord};

fn http<'a>(ctx: &'a Ctx<'_>) -> Result<&'a HttpRecord, Verdict> {
    ctx.record.http.as_ref().ok_or_else(|| {
        Verdict::Skip(
            "applies to revisions run over Streamable HTTP only; this one ran over stdio".into(),
        )
    })
}

fn probe<'a>(ctx: &'a Ctx<'_>) -> Result<&'a HttpProbe, Verdict> {
    http(ctx)?
        .probe
        .as_ref()
        .ok_or_else(|| Verdict::Skip("the HTTP probes did not run".into()))
}

fn evidence(fact: &HttpFact) -> Vec<Evidence> {
    let mut out = vec![Evidence::note(fact.describe())];
    if !fact.body_head.is_empty() {
        out.push(Evidence::note(format!("body: {}", fact.body_head)));
    }
    out
}

fn is_2xx(fact: &HttpFact) -> bool {
    fact.status.is_some_and(|s| (200..300).contains(&s))
}

/// Every exchange of the record: the scripted session's, then the probe's.
fn all_facts(record: &HttpRecord) -> impl Iterator<Item = &HttpFact> {
    record
        .facts
        .iter()
        .chain(record.probe.iter().flat_map(|p| p.steps().map(|s| &s.fact)))
}

/// Judges `found` offenders among `judged` exchanges.
fn verdict(judged: usize, offenders: Vec<&HttpFact>, what: &str, pass: String) -> Verdict {
    if judged == 0 {
        return Verdict::Skip(format!("no {what} was exchanged"));
    }
    let Some(first) = offenders.first() else {
        return Verdict::Pass(pass);
    };
    let mut evidence: Vec<Evidence> = offenders
        .iter()
        .take(MAX_EXAMPLES)
        .flat_map(|f| evidence(f))
        .collect();
    if offenders.len() > MAX_EXAMPLES {
        evidence.push(Evidence::note(format!(
            "... and {} more",
            offenders.len() - MAX_EXAMPLES
        )));
    }
    Verdict::Violation(
        format!(
            "{} of {judged} {what}s got an answer against the rule; the first: {}",
            offenders.len(),
            first.describe()
        ),
        evidence,
    )
}

/// `LC-HTTP-NOTIF-202`: an accepted notification or response gets 202 with no body.
pub(super) fn notification_202(ctx: &Ctx<'_>) -> Verdict {
    let record = match http(ctx) {
        Ok(r) => r,
        Err(skip) => return skip,
    };
    let judged: Vec<&HttpFact> = all_facts(record)
        .filter(|f| matches!(f.carried, Carried::Notification | Carried::Response))
        .filter(|f| is_2xx(f))
        .collect();
    let offenders = judged
        .iter()
        .copied()
        .filter(|f| f.status != Some(202) || f.has_body())
        .collect();
    verdict(
        judged.len(),
        offenders,
        "accepted notification or response POST",
        format!(
            "{} accepted notification and response POSTs each got 202 with no body",
            judged.len()
        ),
    )
}

/// `LC-HTTP-NOTIF-202`: a request is answered with `application/json` or
/// `text/event-stream`.
pub(super) fn content_type(ctx: &Ctx<'_>) -> Verdict {
    let record = match http(ctx) {
        Ok(r) => r,
        Err(skip) => return skip,
    };
    let judged: Vec<&HttpFact> = all_facts(record)
        .filter(|f| f.carried == Carried::Request && is_2xx(f))
        .collect();
    let offenders = judged
        .iter()
        .copied()
        .filter(|f| {
            let ct = f.content_type.as_deref();
            !is_media(ct, "application/json") && !is_media(ct, "text/event-stream")
        })
        .collect();
    verdict(
        judged.len(),
        offenders,
        "answered request POST",
        format!(
            "{} answered request POSTs each came as application/json or text/event-stream",
            judged.len()
        ),
    )
}

/// A probe step that must have got `want`; `None` when the step did not run.
fn status_rule(step: Option<&ProbeStep>, want: u16, skip: &str) -> Verdict {
    let Some(step) = step else {
        return Verdict::Skip(skip.into());
    };
    let fact = &step.fact;
    match fact.status {
        Some(status) if status == want => {
            Verdict::Pass(format!("{} got {want}: {}", step.purpose, fact.describe()))
        }
        _ => Verdict::Violation(
            format!(
                "{} got {}, not {want}",
                step.purpose,
                fact.status
                    .map_or_else(|| "no response".to_string(), |s| s.to_string())
            ),
            evidence(fact),
        ),
    }
}

/// `LC-HTTP-SESSION`: without `Mcp-Session-Id` after initialize, 400 (SHOULD).
pub(super) fn session_required(ctx: &Ctx<'_>) -> Verdict {
    match probe(ctx) {
        Ok(p) => status_rule(
            p.no_session.as_ref(),
            400,
            "the server assigned no session id, so none is required",
        ),
        Err(skip) => skip,
    }
}

/// `LC-HTTP-SESSION`: a request in a session the server ended gets 404 (MUST); one with
/// an id it never issued should too (by policy: the MUST speaks of ended sessions, so
/// another answer there is a warning).
pub(super) fn session_unknown(ctx: &Ctx<'_>) -> Verdict {
    let p = match probe(ctx) {
        Ok(p) => p,
        Err(skip) => return skip,
    };
    if let Some(step) = &p.deleted_session {
        if step.fact.status != Some(404) {
            return match status_rule(Some(step), 404, "") {
                Verdict::Violation(message, mut evidence) => {
                    if let Some(delete) = &p.delete {
                        let note = format!("after {}: {}", delete.purpose, delete.fact.describe());
                        evidence.insert(0, Evidence::note(note));
                    }
                    Verdict::Violation(message, evidence)
                }
                other => other,
            };
        }
    }
    let Some(step) = &p.unknown_session else {
        return Verdict::Skip("the server assigned no session id".into());
    };
    match status_rule(Some(step), 404, "") {
        Verdict::Violation(message, evidence) => Verdict::Warn(
            format!("{message} (the MUST is for a session the server ended; an id it never issued is judged by policy)"),
            evidence,
        ),
        pass => match &p.deleted_session {
            Some(deleted) => Verdict::Pass(format!(
                "{}; {} got 404 too",
                deleted.purpose,
                step.purpose
            )),
            None => pass,
        },
    }
}

/// `LC-HTTP-VERSION-HEADER`: an invalid `MCP-Protocol-Version` gets 400.
pub(super) fn protocol_version(ctx: &Ctx<'_>) -> Verdict {
    match probe(ctx) {
        Ok(p) => status_rule(
            p.bad_version.as_ref(),
            400,
            "the probe session did not negotiate 2025-06-18 or later",
        ),
        Err(skip) => skip,
    }
}

/// `LC-HTTP-VERSION-HEADER`: a request without `MCP-Protocol-Version` is served (SHOULD:
/// the server assumes 2025-03-26 when it has no other way to know the version, and here
/// it has the one it negotiated). A refusal is the server requiring the header.
pub(super) fn version_absent(ctx: &Ctx<'_>) -> Verdict {
    let p = match probe(ctx) {
        Ok(p) => p,
        Err(skip) => return skip,
    };
    let Some(step) = &p.version_absent else {
        return Verdict::Skip("the probe session did not negotiate 2025-06-18 or later".into());
    };
    let fact = &step.fact;
    match fact.status {
        Some(200..=299) => {
            Verdict::Pass(format!("{} was served: {}", step.purpose, fact.describe()))
        }
        Some(status) => Verdict::Violation(
            format!(
                "{} got {status}: the server requires the header, which a client may leave \
                 out (the server SHOULD then assume 2025-03-26, or use the version it \
                 negotiated)",
                step.purpose
            ),
            evidence(fact),
        ),
        None => Verdict::Skip(format!(
            "{} got no answer to judge: {}",
            step.purpose,
            fact.describe()
        )),
    }
}

/// `LC-HTTP-SESSION`, by policy: a DELETE of a live session gets 2xx (the session ends) or
/// 405 (the server does not let clients end sessions, which it MAY); any other answer
/// leaves the client unable to tell whether the session ended. A 404 (what an ended session
/// MUST get) passes unless the session is known live: the probe session's is when the
/// request in it just before the DELETE was served; the scripted session's never is (the
/// server may have ended it on its own).
pub(super) fn delete_answer(ctx: &Ctx<'_>) -> Verdict {
    let record = match http(ctx) {
        Ok(r) => r,
        Err(skip) => return skip,
    };
    let answered = |f: &&HttpFact| f.method == "DELETE" && f.status.is_some();
    let scripted = record.facts.iter().filter(answered);
    let probed = record.probe.iter().flat_map(|p| &p.delete).map(|s| &s.fact);
    let ends = |f: &HttpFact| is_2xx(f) || f.status == Some(405);
    let mut offenders: Vec<&HttpFact> = scripted
        .clone()
        .filter(|f| !ends(f) && f.status != Some(404))
        .collect();
    let probed: Vec<&HttpFact> = probed.filter(answered).collect();
    // The probe's session is known live when its last request in the session (the ping
    // without the version header, or the first ping) was served; otherwise the server may
    // have ended it, and a 404 is what an ended session MUST get.
    let live = record.probe.as_ref().is_some_and(|p| {
        p.version_absent
            .as_ref()
            .or(p.ping.as_ref())
            .is_some_and(|s| is_2xx(&s.fact))
    });
    offenders.extend(
        probed
            .iter()
            .copied()
            .filter(|f| !ends(f) && (live || f.status != Some(404))),
    );
    let judged = scripted.count() + probed.len();
    verdict(
        judged,
        offenders,
        "session DELETE",
        format!("{judged} session DELETEs each got 2xx or 405"),
    )
}

/// `LC-HTTP-SESSION`: the `Mcp-Session-Id` a server assigns holds only visible ASCII
/// (0x21 to 0x7E).
pub(super) fn session_id_ascii(ctx: &Ctx<'_>) -> Verdict {
    let record = match http(ctx) {
        Ok(r) => r,
        Err(skip) => return skip,
    };
    let judged: Vec<&HttpFact> = all_facts(record)
        .chain(record.origin.iter().map(|o| &o.step.fact))
        .filter(|f| f.session_id.is_some())
        .collect();
    let visible = |id: &str| id.bytes().all(|b| (0x21..=0x7e).contains(&b));
    let offenders: Vec<&HttpFact> = judged
        .iter()
        .copied()
        .filter(|f| !f.session_id.as_deref().is_some_and(visible))
        .collect();
    if let Some(first) = offenders.first() {
        let id = first.session_id.as_deref().unwrap_or_default();
        let mut evidence = evidence(first);
        evidence.push(Evidence::note(format!("Mcp-Session-Id: {id:?}")));
        return Verdict::Violation(
            format!(
                "{} of {} responses that set Mcp-Session-Id set one with a character outside \
                 visible ASCII (0x21-0x7E): {id:?}",
                offenders.len(),
                judged.len()
            ),
            evidence,
        );
    }
    match judged.first() {
        None => Verdict::Skip("the server assigned no session id".into()),
        Some(first) => Verdict::Pass(format!(
            "{} session ids, all visible ASCII, e.g. {:?}",
            judged.len(),
            first.session_id.as_deref().unwrap_or_default()
        )),
    }
}

/// The GET that opened the listen stream (not a resumption GET, which is its POST's).
fn listen_get(record: &HttpRecord) -> Option<&HttpFact> {
    record
        .facts
        .iter()
        .find(|f| f.method == "GET" && !f.resumes())
}

/// The GET stream's fact, and why there is nothing to judge when there is no stream.
fn get_stream_fact(record: &HttpRecord) -> Result<&HttpFact, Verdict> {
    let Some(fact) = listen_get(record) else {
        return Err(Verdict::Skip(
            "no GET stream was opened (the session was not established)".into(),
        ));
    };
    if fact.status == Some(405) {
        return Err(Verdict::Skip(format!(
            "the server offers no GET stream (405 Method Not Allowed, as the spec allows): {}",
            fact.describe()
        )));
    }
    if !record.streams.iter().any(|s| s.kind == StreamKind::Get) {
        return Err(Verdict::Skip(format!(
            "the GET opened no SSE stream: {}",
            fact.describe()
        )));
    }
    Ok(fact)
}

fn ids(ids: &[&Value]) -> String {
    let mut text: Vec<String> = ids
        .iter()
        .take(MAX_EXAMPLES)
        .map(|v| v.to_string())
        .collect();
    if ids.len() > MAX_EXAMPLES {
        text.push(format!("and {} more", ids.len() - MAX_EXAMPLES));
    }
    text.join(", ")
}

/// `LC-HTTP-GET-STREAM`: the GET that opens the listen stream gets `text/event-stream` or
/// 405 Method Not Allowed, nothing else.
pub(super) fn get_answer(ctx: &Ctx<'_>) -> Verdict {
    let record = match http(ctx) {
        Ok(r) => r,
        Err(skip) => return skip,
    };
    let Some(fact) = listen_get(record) else {
        return Verdict::Skip(
            "no GET stream was asked for (the session was not established)".into(),
        );
    };
    let event_stream = is_media(fact.content_type.as_deref(), "text/event-stream");
    match fact.status {
        Some(405) => Verdict::Pass(format!(
            "the GET got 405 (no SSE stream offered): {}",
            fact.describe()
        )),
        Some(200..=299) if event_stream => {
            Verdict::Pass(format!("the GET opened an SSE stream: {}", fact.describe()))
        }
        Some(_) => Verdict::Violation(
            format!(
                "the GET that opens the listen stream got neither text/event-stream nor 405 \
                 Method Not Allowed: {}",
                fact.describe()
            ),
            evidence(fact),
        ),
        None => Verdict::Skip(format!(
            "the GET got no answer to judge: {}",
            fact.describe()
        )),
    }
}

/// `LC-HTTP-GET-STREAM`: no JSON-RPC response on the GET stream unless resuming. The
/// listen stream never resumes anything: a resumption GET (with `Last-Event-ID`) counts
/// as its POST's stream, which [`response_once`] judges.
pub(super) fn get_stream(ctx: &Ctx<'_>) -> Verdict {
    let record = match http(ctx) {
        Ok(r) => r,
        Err(skip) => return skip,
    };
    let fact = match get_stream_fact(record) {
        Ok(f) => f,
        Err(skip) => return skip,
    };
    let responses: Vec<&Value> = record
        .streams
        .iter()
        .filter(|s| s.kind == StreamKind::Get)
        .flat_map(|s| &s.responses)
        .collect();
    if responses.is_empty() {
        return Verdict::Pass(format!(
            "the GET stream carried no JSON-RPC response for the whole session: {}",
            fact.describe()
        ));
    }
    Verdict::Violation(
        format!(
            "{} JSON-RPC responses came on the GET stream (ids {}), which the client never \
             resumed",
            responses.len(),
            ids(&responses)
        ),
        evidence(fact),
    )
}

/// `LC-HTTP-STREAMS`: each request's response arrives once, on the stream of the POST that
/// carried the request, and on no other stream.
pub(super) fn response_once(ctx: &Ctx<'_>) -> Verdict {
    let record = match http(ctx) {
        Ok(r) => r,
        Err(skip) => return skip,
    };
    let posts: Vec<&StreamRecord> = record
        .streams
        .iter()
        .filter(|s| s.kind == StreamKind::Post)
        .collect();
    if posts.is_empty() {
        return Verdict::Skip("no request was POSTed".into());
    }
    let requested: Vec<&Value> = posts.iter().filter_map(|s| s.request_id.as_ref()).collect();
    let mut breaches = Vec::new();
    for stream in &record.streams {
        let own = stream.request_id.as_ref();
        let mine = stream
            .responses
            .iter()
            .filter(|id| Some(*id) == own)
            .count();
        if mine > 1 {
            breaches.push(format!(
                "{} carried its response {mine} times",
                stream.describe()
            ));
        }
        for id in stream.responses.iter().filter(|id| Some(*id) != own) {
            // A response whose id no request had is the JSON-RPC checks' business.
            if requested.contains(&id) {
                breaches.push(format!(
                    "{} carried the response to id {id}",
                    stream.describe()
                ));
            }
        }
    }
    let answered = posts.iter().filter(|s| !s.responses.is_empty()).count();
    if breaches.is_empty() {
        return Verdict::Pass(format!(
            "{answered} of {} request POSTs got their response on their own stream, once, and no \
             other stream carried one",
            posts.len()
        ));
    }
    let mut evidence: Vec<Evidence> = breaches
        .iter()
        .take(MAX_EXAMPLES)
        .map(|b| Evidence::note(b.clone()))
        .collect();
    if breaches.len() > MAX_EXAMPLES {
        evidence.push(Evidence::note(format!(
            "... and {} more",
            breaches.len() - MAX_EXAMPLES
        )));
    }
    Verdict::Violation(
        format!(
            "{} responses arrived twice or on another stream; the first: {}",
            breaches.len(),
            breaches[0]
        ),
        evidence,
    )
}

/// The POST streams that carried events, with the exchanges that opened and resumed each.
fn sse_streams(record: &HttpRecord) -> Vec<(&StreamRecord, Vec<&HttpFact>)> {
    record
        .streams
        .iter()
        .filter(|s| s.kind == StreamKind::Post && (s.primed.is_some() || s.closed_early > 0))
        .map(|s| {
            let facts = record
                .facts
                .iter()
                .filter(|f| f.carried == Carried::Request || f.resumes())
                .filter(|f| f.rpc_id.is_some() && f.rpc_id == s.request_id)
                .collect();
            (s, facts)
        })
        .collect()
}

/// A SHOULD judged over the POST streams: `offends` picks the breaches among `judged`.
fn stream_verdict(
    judged: &[(&StreamRecord, Vec<&HttpFact>)],
    offends: impl Fn(&StreamRecord) -> bool,
    breach: &str,
    pass: String,
) -> Verdict {
    let offenders: Vec<_> = judged.iter().filter(|(s, _)| offends(s)).collect();
    let Some((first, _)) = offenders.first() else {
        return Verdict::Pass(pass);
    };
    let evidence = offenders
        .iter()
        .take(MAX_EXAMPLES)
        .flat_map(|(_, facts)| facts.iter().flat_map(|f| evidence(f)))
        .collect();
    Verdict::Violation(
        format!(
            "{} of {} request streams {breach}; the first: {}",
            offenders.len(),
            judged.len(),
            first.describe()
        ),
        evidence,
    )
}

/// `LC-HTTP-SSE-POLL` (2025-11-25): an SSE stream opens with a priming event, an event id
/// and empty data, so the client can resume it.
pub(super) fn sse_priming(ctx: &Ctx<'_>) -> Verdict {
    let record = match http(ctx) {
        Ok(r) => r,
        Err(skip) => return skip,
    };
    let streams = sse_streams(record);
    if streams.is_empty() {
        return Verdict::Skip("no request was answered with an SSE stream".into());
    }
    stream_verdict(
        &streams,
        |s| s.primed == Some(false),
        "opened without a priming event (an event id and empty data)",
        format!(
            "each of the {} request streams opened with a priming event",
            streams.len()
        ),
    )
}

/// `LC-HTTP-SSE-POLL` (2025-11-25): a server that closes a stream's connection before the
/// response sends a `retry` field first, so the client knows when to reconnect.
pub(super) fn sse_retry(ctx: &Ctx<'_>) -> Verdict {
    let record = match http(ctx) {
        Ok(r) => r,
        Err(skip) => return skip,
    };
    let closed: Vec<_> = sse_streams(record)
        .into_iter()
        .filter(|(s, _)| s.resumed > 0 || s.closed_without_retry > 0)
        .collect();
    if closed.is_empty() {
        return Verdict::Skip(
            "the server closed no stream's connection before its response, after an event id"
                .into(),
        );
    }
    stream_verdict(
        &closed,
        |s| s.closed_without_retry > 0,
        "were closed before the response with no retry field sent first",
        format!(
            "the server sent a retry field before closing each of the {} streams it closed \
             early (the client resumed each)",
            closed.len()
        ),
    )
}

/// `LC-HTTP-SSE-POLL` (2025-03-26, 2025-06-18): the server does not close a request's SSE
/// stream before its response ("SHOULD NOT ... unless the session expires"; polling came
/// in 2025-11-25).
pub(super) fn stream_closed_early(ctx: &Ctx<'_>) -> Verdict {
    let record = match http(ctx) {
        Ok(r) => r,
        Err(skip) => return skip,
    };
    let streams = sse_streams(record);
    if streams.is_empty() {
        return Verdict::Skip("no request was answered with an SSE stream".into());
    }
    stream_verdict(
        &streams,
        |s| s.closed_early > 0,
        "were closed before their response",
        format!(
            "none of the {} request streams was closed before its response",
            streams.len()
        ),
    )
}

/// `LC-HTTP-ORIGIN`: a request from a foreign `Origin` gets 403 (over 2024-11-05's HTTP+SSE
/// see [`super::http_sse::origin`]; 2025-11-25 on: "MUST
/// respond with HTTP 403 Forbidden"; 2025-03-26 and 2025-06-18 only say the server MUST
/// validate it, so any 4xx passes there). By policy a breach fails only on a loopback target, where a web
/// origin is invalid by construction; elsewhere the server decides which origins are
/// valid, and a breach is a warning.
pub(super) fn origin(ctx: &Ctx<'_>) -> Verdict {
    let Some(record) = ctx.record.http.as_ref() else {
        return Verdict::Skip(
            "applies to revisions run over HTTP (Streamable HTTP or HTTP+SSE) only; this one \
             ran over stdio"
                .into(),
        );
    };
    if let Some(probe) = &record.sse_origin {
        return super::http_sse::origin(record, probe);
    }
    let Some(probe) = &record.origin else {
        return Verdict::Skip("the Origin probe did not run".into());
    };
    if let Err(skip) = origin_control(ctx, record) {
        return skip;
    }
    let revision = ctx.record.requested;
    let strict = revision.at_least(Rev::R2025_11_25);
    let fact = &probe.step.fact;
    let status = fact.status;
    let rule = if strict {
        "an invalid Origin MUST get 403 Forbidden"
    } else {
        "the server MUST validate Origin, so a foreign one must be refused (4xx)"
    };
    match status {
        Some(403) => {
            return Verdict::Pass(format!("{FOREIGN_ORIGIN} got 403: {}", fact.describe()))
        }
        Some(s) if !strict && (400..500).contains(&s) => {
            return Verdict::Pass(format!(
                "{FOREIGN_ORIGIN} was refused with {s} ({} names no status): {}",
                revision.id,
                fact.describe()
            ))
        }
        _ => {}
    }
    let got = match status {
        Some(s) if (200..300).contains(&s) => format!("was served ({s})"),
        Some(s) => format!("got {s}"),
        None => "got no response".to_string(),
    };
    let mut evidence = evidence(fact);
    if let Some(delete) = &probe.delete {
        evidence.push(Evidence::note(format!(
            "the session it opened was ended: {}",
            delete.describe()
        )));
    }
    let message = format!("a request with Origin: {FOREIGN_ORIGIN} {got}; {rule}");
    origin_served(message, evidence, probe.loopback)
}

/// A foreign `Origin` served, over either HTTP transport: a breach of the MUST when the
/// target is on this machine (no web origin is valid for it), a warning elsewhere, where
/// which origins are valid is the server's to decide (explain/http-origin.md, Grading).
pub(super) fn origin_served(message: String, evidence: Vec<Evidence>, loopback: bool) -> Verdict {
    if loopback {
        Verdict::Violation(message, evidence)
    } else {
        Verdict::Warn(
            format!(
                "{message} (a warning: the target is not on this machine, and which origins \
                 are valid is the server's to decide; on a loopback server a foreign origin is \
                 invalid by construction)"
            ),
            evidence,
        )
    }
}

/// The same request without the foreign `Origin` was served (the probe session's
/// initialize; in 2026-07-28 the scripted `server/discover`): otherwise a refusal says
/// nothing about `Origin`.
fn origin_control(ctx: &Ctx<'_>, record: &HttpRecord) -> Result<(), Verdict> {
    if ctx.record.requested.modern() {
        let modern = ctx.record.modern.as_ref();
        if modern.is_some_and(|m| m.era == EraFinding::Modern) {
            return Ok(());
        }
        return Err(Verdict::Skip(
            "the server did not answer server/discover as a 2026-07-28 server".into(),
        ));
    }
    let served = record
        .probe
        .as_ref()
        .and_then(|p| p.initialize.as_ref())
        .is_some_and(|s| is_2xx(&s.fact));
    if served {
        Ok(())
    } else {
        Err(Verdict::Skip(
            "the probe session's initialize (without Origin) was not served either".into(),
        ))
    }
}
