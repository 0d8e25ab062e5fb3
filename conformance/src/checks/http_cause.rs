//! Why a request sent over HTTP got no response, told in HTTP terms.
//!
//! Over stdio a silent request is only silence; over HTTP its POST's answer often says
//! why (a redirect, a 5xx, a body cut mid-way, an HTML page, or the POST still open when
//! the session was closed: the transport keeps such a POST's exchange with that cause
//! instead of dropping it, `transport::http` `Endpoint::close_open`), and a finding that says
//! only "no response" hides the cause from the server's author. The checks that judge a
//! silent exchange (rpc-response-required, lc-init-result and alike) add the POST's
//! cause to their message ([`Ctx::silence_text`]) and its exchange (method, path,
//! status, the headers that matter, the body's head escaped) to their evidence
//! ([`evidence`]). The verdicts do not change: the cause is explanation, not a rule.

use serde_json::Value;

use super::model::{Ctx, Evidence};
use crate::protocol::{Entry, Exchange};
use crate::transport::HttpFact;

/// The last exchange of the POST that carried `exchange`'s request (the POST, or the last
/// GET that resumed its stream), when the exchange went unanswered and its HTTP side
/// explains it ([`HttpFact::unanswered`]), and how often the stream was resumed.
fn unanswered_post<'a>(
    ctx: &'a Ctx<'_>,
    exchange: &Exchange,
) -> Option<(&'a HttpFact, String, usize)> {
    exchange.silence()?;
    let id = exchange.request.get("id")?;
    let http = ctx.record.http.as_ref()?;
    let carried = |f: &&HttpFact| {
        (f.method == "POST" || f.resumes())
            && f.rpc_id.as_ref() == Some(id)
            && f.rpc_method.as_deref() == Some(exchange.method.as_str())
    };
    let fact = http.facts.iter().rev().find(carried)?;
    // Over HTTP+SSE responses come on the SSE stream, not in the POST's answer.
    let why = fact.unanswered(http.sse.is_none())?;
    let resumed = http
        .facts
        .iter()
        .filter(carried)
        .filter(|f| f.resumes())
        .count();
    Some((fact, why, resumed))
}

/// The POST that carried the request `id` of `method` (the last, when one id was sent
/// twice). A request without a method (a malformed probe) has none on either side.
fn carrying_post<'a>(ctx: &'a Ctx<'_>, id: &Value, method: &str) -> Option<&'a HttpFact> {
    let http = ctx.record.http.as_ref()?;
    http.facts.iter().rev().find(|f| {
        f.method == "POST"
            && f.rpc_id.as_ref() == Some(id)
            && f.rpc_method.as_deref().unwrap_or_default() == method
    })
}

/// The HTTP exchange that carried a request we sent (`entry`), as evidence: over HTTP a
/// finding names the POST (method, path, status, the headers that matter) beside the
/// message. `None` over stdio, or for a line that is no request.
pub(super) fn carrying(ctx: &Ctx<'_>, entry: &Entry) -> Option<Evidence> {
    let json = entry.json.as_deref()?;
    let id = json.get("id")?;
    let method = json
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let fact = carrying_post(ctx, id, method)?;
    Some(Evidence::note(format!(
        "its HTTP exchange: {}",
        fact.describe()
    )))
}

/// The POST's exchange as evidence: with the cause, when it explains the silence of
/// `exchange`; else the POST that carried the answered request (method, path, status,
/// the headers that matter), so that a finding over HTTP names its HTTP exchange too.
pub(super) fn evidence(ctx: &Ctx<'_>, exchange: &Exchange) -> Vec<Evidence> {
    let Some((fact, why, _)) = unanswered_post(ctx, exchange) else {
        let Some(id) = exchange.request.get("id") else {
            return Vec::new();
        };
        return carrying_post(ctx, id, &exchange.method)
            .map(|fact| Evidence::note(format!("its HTTP exchange: {}", fact.describe())))
            .into_iter()
            .collect();
    };
    let mut out = vec![Evidence::note(format!(
        "its HTTP exchange: {}",
        fact.describe()
    ))];
    if let Some(body) = fact.body_text() {
        out.push(Evidence::note(format!("body: {body}")));
    }
    out.push(Evidence::note(format!(
        "no message could come of it: {why}"
    )));
    out
}

impl Ctx<'_> {
    /// How `exchange` went unanswered (`None` when it was answered): the silence, and
    /// over HTTP what its POST got when that explains it ("no response within 2.0 s; the
    /// POST got a 302 redirect to \"/mcp\", not followed ...").
    pub fn silence_text(&self, exchange: &Exchange) -> Option<String> {
        let silence = exchange.silence()?.describe();
        Some(match unanswered_post(self, exchange) {
            Some((_, why, 0)) => format!("{silence}; its HTTP POST got {why}"),
            Some((_, why, n)) => {
                format!("{silence}; its HTTP POST's stream, resumed {n} time(s), last got {why}")
            }
            None => silence,
        })
    }
}
