//! Judges for the rules only Streamable HTTP has (transports.mdx 2025-03-26 to
//! 2025-11-25, Sending Messages, Session Management, Protocol Version Header). Each reads
//! the record's HTTP side ([`crate::scenarios::HttpRecord`]): the scripted session's
//! exchanges and the probe session's deliberately wrong requests. Over stdio there is no
//! HTTP side, and every judge here skips.

use super::model::{Ctx, Evidence, Verdict, MAX_EXAMPLES};
use crate::scenarios::HttpRecord;
use crate::transport::{is_media, Carried, HttpFact, HttpProbe, ProbeStep};

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
            return status_rule(Some(step), 404, "");
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
