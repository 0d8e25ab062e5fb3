//! Judges for 2024-11-05's HTTP+SSE transport (2024-11-05 transports.mdx, HTTP with SSE):
//! the stream opens with an `endpoint` event naming where to POST, and server messages
//! come as `message` events; and the foreign-`Origin` requests of `http-origin` over this
//! transport (Security Warning). Each reads the record's SSE side
//! ([`crate::records::HttpRecord::sse`]); over stdio or Streamable HTTP there is none, and
//! the `sse-*` checks skip.

use super::model::{Ctx, Evidence, Verdict, MAX_EXAMPLES};
use crate::records::HttpRecord;
use crate::records::{SseOriginProbe, FOREIGN_ORIGIN};
use crate::transport::{SseEvent, SseStream};

fn stream<'a>(ctx: &'a Ctx<'_>) -> Result<&'a SseStream, Verdict> {
    ctx.record
        .http
        .as_ref()
        .and_then(|h| h.sse.as_ref())
        .ok_or_else(|| {
            let ran = if ctx.record.http.is_some() {
                "Streamable HTTP"
            } else {
                "stdio"
            };
            Verdict::Skip(format!(
                "applies to revisions run over HTTP+SSE (--transport sse) only; this one ran over {ran}"
            ))
        })
}

/// The GET that opened the stream, as evidence.
fn get_evidence(stream: &SseStream) -> Vec<Evidence> {
    stream
        .get
        .iter()
        .flat_map(|get| {
            let mut out = vec![Evidence::note(get.describe())];
            if !get.body_head.is_empty() {
                out.push(Evidence::note(format!("body: {}", get.body_head)));
            }
            out
        })
        .collect()
}

/// `LC-HTTP-SSE`: when a client connects, the server MUST send an `endpoint` event with a
/// URI for its messages (first: the 2025-03-26 backwards-compatibility steps expect it so).
pub(super) fn endpoint_event(ctx: &Ctx<'_>) -> Verdict {
    let stream = match stream(ctx) {
        Ok(s) => s,
        Err(skip) => return skip,
    };
    let mut evidence = get_evidence(stream);
    let first = stream.events.first();
    if let Some(first) = first {
        evidence.push(Evidence::note(format!("first event: {}", first.describe())));
    }
    match (first, &stream.endpoint, &stream.no_endpoint) {
        (Some(first), Some(endpoint), _) if first.event == "endpoint" => Verdict::Pass(format!(
            "the stream's first event was endpoint: messages went to {}",
            // The path only: a query usually holds a fresh session id (the report stays
            // the same from run to run).
            endpoint.split('?').next().unwrap_or(endpoint)
        )),
        // A same-host rule of ours refused it: not the server's fault.
        (Some(first), None, Some(why)) if first.event == "endpoint" && stream.refused => {
            Verdict::Skip(why.clone())
        }
        (Some(first), _, _) if first.event == "endpoint" => Verdict::Violation(
            format!(
                "the endpoint event's data is no URI: {}",
                stream.no_endpoint.as_deref().unwrap_or("unusable")
            ),
            evidence,
        ),
        (Some(first), _, _) => Verdict::Violation(
            format!(
                "the stream's first event was {:?}, not endpoint{}",
                first.event,
                if stream.endpoint.is_some() {
                    " (an endpoint event came later)"
                } else {
                    ""
                }
            ),
            evidence,
        ),
        (None, _, why) => Verdict::Violation(
            format!(
                "no endpoint event: {}",
                why.as_deref()
                    .or(stream.ended.as_deref())
                    .unwrap_or("the stream sent no event")
            ),
            evidence,
        ),
    }
}

/// `LC-HTTP-SSE`: server messages are `message` events whose data is one JSON message.
/// Judged on the events after the endpoint: a JSON value under another event type, or a
/// `message` event whose data is not JSON, is an offender; events of other types whose
/// data is no JSON are not messages (the SSE standard allows any type).
pub(super) fn message_event(ctx: &Ctx<'_>) -> Verdict {
    let stream = match stream(ctx) {
        Ok(s) => s,
        Err(skip) => return skip,
    };
    let judged: Vec<&SseEvent> = stream
        .events
        .iter()
        .filter(|e| e.after_endpoint && e.event != "endpoint")
        .filter(|e| e.event == "message" || e.json)
        .collect();
    if judged.is_empty() {
        return Verdict::Skip("no server message came on the SSE stream".into());
    }
    let offenders: Vec<&&SseEvent> = judged
        .iter()
        .filter(|e| e.event != "message" || !e.json)
        .collect();
    let Some(first) = offenders.first() else {
        return Verdict::Pass(format!(
            "{} server messages each came as a message event with JSON data",
            judged.len()
        ));
    };
    let mut evidence = get_evidence(stream);
    evidence.extend(
        offenders
            .iter()
            .take(MAX_EXAMPLES)
            .map(|e| Evidence::note(e.describe())),
    );
    let what = if first.event == "message" {
        "a message event whose data is not JSON".to_string()
    } else {
        format!("a {:?} event, not message", first.event)
    };
    Verdict::Violation(
        format!(
            "{} of {} server messages on the SSE stream broke the rule; the first: {what}",
            offenders.len(),
            judged.len()
        ),
        evidence,
    )
}

/// `LC-HTTP-ORIGIN` over HTTP+SSE (2024-11-05 transports.mdx, Security Warning: "Servers
/// MUST validate the Origin header on all incoming connections"). The text names no
/// status, so a request from a foreign `Origin` counts as refused when it got a status that
/// is not 2xx or no event stream (GET), and as served when it got a 2xx (POST) or an open
/// event stream (GET); either served is a breach. As over Streamable HTTP, a breach fails on
/// a loopback target and is a warning elsewhere. A request whose control (the same request
/// without the `Origin`, made by the scripted session) was not served either says nothing,
/// and is left out.
pub(super) fn origin(record: &HttpRecord, probe: &SseOriginProbe) -> Verdict {
    let stream = record.sse.as_ref();
    // The scripted session's GET opened a stream, and its initialize POST was accepted.
    let get_control = stream.is_some_and(|s| s.endpoint.is_some());
    let post_control = record.facts.iter().any(|f| {
        f.method == "POST"
            && f.rpc_method.as_deref() == Some("initialize")
            && f.status.is_some_and(|s| (200..300).contains(&s))
    });
    let mut judged = Vec::new();
    if get_control {
        judged.push((&probe.get, probe.get_served()));
    }
    if let (Some(post), Some(served), true) = (&probe.post, probe.post_served(), post_control) {
        judged.push((post, served));
    }
    if judged.is_empty() {
        return Verdict::Skip(format!(
            "neither request could be judged: the scripted session's GET opened no stream or \
             its initialize POST was not accepted{}",
            probe
                .no_post
                .as_deref()
                .map(|why| format!(" (the probe's own stream: {why})"))
                .unwrap_or_default()
        ));
    }
    let mut evidence: Vec<Evidence> = Vec::new();
    for (step, served) in &judged {
        evidence.push(Evidence::note(format!(
            "{} ({}): {}",
            step.purpose,
            if *served { "served" } else { "refused" },
            step.fact.describe()
        )));
        // A refusal's body says why; a served one's is a stream's first event or "Accepted",
        // and an endpoint holds a fresh session id (the report would change run to run).
        if let Some(body) = step.fact.body_text().filter(|_| !served) {
            evidence.push(Evidence::note(format!("body: {body}")));
        }
    }
    let served: Vec<&str> = judged
        .iter()
        .filter(|(_, served)| *served)
        .map(|(step, _)| {
            if step.fact.method == "GET" {
                "the GET opened an event stream"
            } else {
                "the POST was accepted"
            }
        })
        .collect();
    if served.is_empty() {
        let what: Vec<String> = judged.iter().map(|(s, _)| refusal(&s.fact)).collect();
        return Verdict::Pass(format!(
            "requests with Origin: {FOREIGN_ORIGIN} were refused ({}; 2024-11-05 names no \
             status, any refusal passes)",
            what.join("; ")
        ));
    }
    let message = format!(
        "with Origin: {FOREIGN_ORIGIN}, {}; the server MUST validate Origin on all incoming \
         connections (2024-11-05 transports.mdx, Security Warning)",
        served.join(" and ")
    );
    super::http::origin_served(message, evidence, probe.loopback)
}

/// How a request was refused, in a few words.
fn refusal(fact: &crate::transport::HttpFact) -> String {
    let what = if fact.method == "GET" {
        "the GET"
    } else {
        "the POST"
    };
    match (fact.status, &fact.error) {
        (Some(s), _) if !(200..300).contains(&s) => format!("{what} got {s}"),
        (Some(s), _) => format!(
            "{what} got {s} {} (no event stream)",
            fact.content_type.as_deref().unwrap_or("(no content type)")
        ),
        (None, Some(e)) => format!("{what} got no answer: {e}"),
        (None, None) => format!("{what} got no answer"),
    }
}
