//! Judges of the modern era (2026-07-28): discovery, the per-request `_meta`, result
//! envelopes, caching hints, statelessness, the removed methods, server-initiated traffic,
//! multi round-trip results, subscriptions, error codes and cancellation.
//!
//! Each reads the revision's record (the probes `scenarios/modern.rs` made) and asks the
//! rule book (`rules/modern.rs`) about single messages. A probe that did not run gives a
//! skip with the reason, never a pass.

use serde_json::Value;

use super::model::{evidence_from, exchange_evidence, Ctx, Evidence, Verdict, MAX_EXAMPLES};
use crate::protocol::{
    Direction, Entry, Exchange, META_CAPABILITIES, META_CLIENT_INFO, META_SUBSCRIPTION,
};
use crate::records::{EraFinding, ModernRecord, LISTEN_ID, UNSUPPORTED_VERSION};
use crate::rules::{self, Breach};

/// The modern record, or the skip when there is none.
fn modern<'a>(ctx: &'a Ctx<'_>) -> Result<&'a ModernRecord, Verdict> {
    ctx.record
        .modern
        .as_ref()
        .ok_or_else(|| Verdict::Skip("no modern conversation was recorded".into()))
}

/// The transcript seq where modern traffic ends: the whole conversation is modern (the
/// legacy `initialize` that tells a dual-era server runs on a process of its own).
fn modern_end(ctx: &Ctx<'_>) -> usize {
    ctx.transcript().entries().len()
}

/// Responses (with the request they answer) to the modern requests of the transcript.
fn modern_responses<'a>(ctx: &'a Ctx<'_>) -> impl Iterator<Item = (&'a Entry, &'a Value)> + 'a {
    let transcript = ctx.transcript();
    transcript.received().filter_map(move |entry| {
        let request = transcript.get(entry.answers?)?.json.as_deref()?;
        rules::is_modern_request(request).then_some((entry, request))
    })
}

fn method_of(request: &Value) -> &str {
    request.get("method").and_then(Value::as_str).unwrap_or("?")
}

/// Collects breaches with their evidence (request and response), keeping the first
/// [`MAX_EXAMPLES`] and counting the rest.
#[derive(Default)]
struct Findings {
    messages: Vec<String>,
    evidence: Vec<Evidence>,
    count: usize,
}

impl Findings {
    fn add(&mut self, message: String, evidence: Vec<Evidence>) {
        self.count += 1;
        if self.count <= MAX_EXAMPLES {
            self.messages.push(message);
            self.evidence.extend(evidence);
        }
    }

    fn breach(&mut self, ctx: &Ctx<'_>, breach: Option<Breach>, seqs: &[usize]) {
        if let Some(b) = breach {
            self.add(b.message, ctx.evidence(seqs));
        }
    }

    fn verdict(self, pass: String) -> Verdict {
        if self.count == 0 {
            return Verdict::Pass(pass);
        }
        let mut message = self.messages.join("; ");
        if self.count > MAX_EXAMPLES {
            message.push_str(&format!(" (and {} more)", self.count - MAX_EXAMPLES));
        }
        Verdict::Violation(message, self.evidence)
    }
}

/// `M-DISCOVER`: `server/discover` answered with a well-formed `DiscoverResult`.
pub(super) fn discover(ctx: &Ctx<'_>) -> Verdict {
    let modern = match modern(ctx) {
        Ok(m) => m,
        Err(skip) => return skip,
    };
    let exchange = &ctx.record.initialize;
    let mut evidence = ctx.exchange_evidence(exchange);
    let Some(result) = exchange.result() else {
        let what = exchange
            .error()
            .map_or_else(|| "no answer".to_string(), |e| format!("the error {e}"));
        if modern.era == EraFinding::ModernWithoutDiscover {
            evidence.extend(
                modern
                    .list_probe
                    .iter()
                    .flat_map(|e| ctx.exchange_evidence(e)),
            );
        }
        return Verdict::Violation(
            format!("server/discover got {what}; every 2026-07-28 server implements it"),
            evidence,
        );
    };
    match rules::discover_result(result, ctx.record.requested.id) {
        None => Verdict::Pass(format!(
            "server/discover answered with supportedVersions {} and caching hints ttlMs {}, \
             cacheScope {}",
            result["supportedVersions"], result["ttlMs"], result["cacheScope"]
        )),
        Some(b) => Verdict::Violation(b.message, evidence),
    }
}

/// `M-SERVERINFO`: every result to a modern request names the server in its `_meta`.
pub(super) fn server_info(ctx: &Ctx<'_>) -> Verdict {
    each_result(ctx, rules::server_info, "name the server in _meta")
}

/// `M-RESULTTYPE`: every result to a modern request has a `resultType` its method allows.
pub(super) fn result_type(ctx: &Ctx<'_>) -> Verdict {
    each_result(ctx, rules::result_type, "carry an allowed resultType")
}

/// Asks `rule` about every result to a modern request (with the request's method); the
/// pass message says all `seen` results `hold`.
fn each_result(ctx: &Ctx<'_>, rule: fn(&str, &Value) -> Option<Breach>, hold: &str) -> Verdict {
    let mut findings = Findings::default();
    let mut seen = 0;
    for (entry, request) in modern_responses(ctx) {
        let Some(result) = entry.json.as_ref().and_then(|m| m.get("result")) else {
            continue;
        };
        seen += 1;
        let seqs = [entry.answers.unwrap_or(entry.seq), entry.seq];
        findings.breach(ctx, rule(method_of(request), result), &seqs);
    }
    if seen == 0 {
        return Verdict::Skip("no modern request got a result".into());
    }
    findings.verdict(format!("all {seen} results {hold}"))
}

/// `M-META-REQUIRED`: a request missing a required `_meta` field gets -32602.
pub(super) fn meta_required(ctx: &Ctx<'_>) -> Verdict {
    let modern = match modern(ctx) {
        Ok(m) => m,
        Err(skip) => return skip,
    };
    if modern.meta_missing.is_empty() {
        return Verdict::Skip("the missing-_meta probes were not sent".into());
    }
    let mut findings = Findings::default();
    for (field, exchange) in &modern.meta_missing {
        if exchange.error_code() == Some(-32602) {
            continue;
        }
        let got = describe_answer(exchange);
        findings.add(
            format!("tools/list without {field} in _meta got {got}, not -32602"),
            ctx.exchange_evidence(exchange),
        );
    }
    findings.verdict(format!(
        "each of {} requests missing a required _meta field got -32602",
        modern.meta_missing.len()
    ))
}

/// `M-META-REQUIRED`, policy A19: a request whose `_meta` has no `clientInfo` (optional:
/// clients SHOULD send it unless configured not to) is served.
pub(super) fn client_info_optional(ctx: &Ctx<'_>) -> Verdict {
    let modern = match modern(ctx) {
        Ok(m) => m,
        Err(skip) => return skip,
    };
    let Some(exchange) = &modern.client_info_absent else {
        return Verdict::Skip("the request without clientInfo was not sent".into());
    };
    let what = format!("server/discover without {META_CLIENT_INFO} in _meta");
    if exchange.result().is_some() {
        return Verdict::Pass(format!("{what} got a result"));
    }
    if modern.era == EraFinding::ModernWithoutDiscover {
        return Verdict::Skip(format!(
            "the server does not implement server/discover, so {what} tells nothing"
        ));
    }
    if exchange.response().is_none() {
        return Verdict::Skip(format!(
            "{what} got {}: a refusal would be an error (rpc-response-required judges silence)",
            describe_answer(exchange)
        ));
    }
    Verdict::Violation(
        format!(
            "{what} got {}: the field is optional (clients SHOULD send it unless configured \
             not to), so a client configured not to is turned away",
            describe_answer(exchange)
        ),
        ctx.exchange_evidence(exchange),
    )
}

fn describe_answer(exchange: &Exchange) -> String {
    if let Some(code) = exchange.error_code() {
        format!("error {code}")
    } else if exchange.result().is_some() {
        "a result".to_string()
    } else if let Some(silence) = exchange.silence() {
        format!("no answer ({})", silence.describe())
    } else {
        "a response with neither result nor error".to_string()
    }
}

/// `M-VERSION-UNSUPPORTED`: an unknown `_meta` protocolVersion gets -32022 with
/// `data.supported` and `data.requested`.
pub(super) fn version_unsupported(ctx: &Ctx<'_>) -> Verdict {
    let modern = match modern(ctx) {
        Ok(m) => m,
        Err(skip) => return skip,
    };
    let Some(exchange) = &modern.unsupported_version else {
        return Verdict::Skip("the unsupported-version probe was not sent".into());
    };
    let evidence = ctx.exchange_evidence(exchange);
    let Some(response) = exchange.response() else {
        return Verdict::Violation(
            format!(
                "a request for version {UNSUPPORTED_VERSION:?} got {}",
                describe_answer(exchange)
            ),
            evidence,
        );
    };
    match rules::version_unsupported_error(response, UNSUPPORTED_VERSION) {
        None => Verdict::Pass(format!(
            "version {UNSUPPORTED_VERSION:?} got -32022 with data {}",
            exchange
                .error()
                .and_then(|e| e.get("data"))
                .unwrap_or(&Value::Null)
        )),
        Some(b) => Verdict::Violation(b.message, evidence),
    }
}

/// The tool-list pages of every walk on the server's process, and of the fresh process.
fn list_walks<'a>(ctx: &'a Ctx<'_>) -> Vec<(&'static str, Vec<&'a Exchange>)> {
    let mut walks = vec![("first walk", ctx.record.tools_pages.iter().collect())];
    if let Some(tools) = &ctx.record.tools {
        if !tools.second_walk.is_empty() {
            walks.push(("second walk", tools.second_walk.iter().collect()));
        }
    }
    if let Some(modern) = &ctx.record.modern {
        if !modern.late_walk.is_empty() {
            walks.push((
                "walk after the other requests",
                modern.late_walk.iter().collect(),
            ));
        }
    }
    walks
}

/// `TL-TTL-NONNEG`, `TL-CACHESCOPE-PAGES`: every tools/list page has caching hints, and
/// the pages of one walk share one `cacheScope`.
pub(super) fn cache_hints(ctx: &Ctx<'_>) -> Verdict {
    let mut findings = Findings::default();
    let mut pages = 0;
    for (name, walk) in list_walks(ctx) {
        let mut scope: Option<&Value> = None;
        for page in walk {
            let Some(result) = page.result() else {
                continue;
            };
            pages += 1;
            if let Some(b) = rules::cache_hints(result) {
                findings.add(
                    format!("{name}: {}", b.message),
                    ctx.exchange_evidence(page),
                );
                continue;
            }
            let this = &result["cacheScope"];
            match scope {
                None => scope = Some(this),
                Some(first) if first != this => findings.add(
                    format!("{name}: a page has cacheScope {this}, an earlier one {first}"),
                    ctx.exchange_evidence(page),
                ),
                Some(_) => {}
            }
        }
    }
    if pages == 0 {
        return Verdict::Skip("no tools/list page was answered".into());
    }
    findings.verdict(format!(
        "all {pages} tools/list pages carry ttlMs and one cacheScope per walk"
    ))
}

/// The tool names of a walk, in order, or `None` when a page was not a result.
fn names(walk: &[&Exchange]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for page in walk {
        page.result()?.get("tools")?.as_array()?;
        crate::records::each_listed_tool(std::slice::from_ref(*page), |t| {
            out.push(
                t.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            );
        });
    }
    Some(out)
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

fn walk_evidence(ctx: &Ctx<'_>, walk: &[&Exchange]) -> Vec<Evidence> {
    walk.iter().flat_map(|e| ctx.exchange_evidence(e)).collect()
}

/// `TL-DETERMINISTIC-ORDER`: two walks of the same set list the tools in the same order.
pub(super) fn deterministic_order(ctx: &Ctx<'_>) -> Verdict {
    let walks = list_walks(ctx);
    let Some((first_name, first)) = walks.first() else {
        return Verdict::Skip("no tools/list walk".into());
    };
    let Some(first_names) = names(first) else {
        return Verdict::Skip("the first tools/list walk did not complete".into());
    };
    let mut compared = 0;
    for (name, walk) in walks.iter().skip(1) {
        let Some(other) = names(walk) else {
            continue;
        };
        if sorted(other.clone()) != sorted(first_names.clone()) {
            continue; // a different set: pag-stable and m-stateless judge that
        }
        compared += 1;
        if other != first_names {
            let mut evidence = walk_evidence(ctx, first);
            evidence.extend(walk_evidence(ctx, walk));
            return Verdict::Violation(
                format!(
                    "the same tools came in a different order: {first_name} {first_names:?}, \
                     {name} {other:?}"
                ),
                evidence,
            );
        }
    }
    if compared == 0 {
        return Verdict::Skip("no second walk listed the same set of tools".into());
    }
    Verdict::Pass(format!(
        "{} walks listed the tools in the same order",
        compared + 1
    ))
}

/// `M-STATELESS`, `TL-CURRENT-SET`: the tools listed on a fresh process are the tools
/// listed after other requests on the same process.
pub(super) fn stateless(ctx: &Ctx<'_>) -> Verdict {
    let modern = match modern(ctx) {
        Ok(m) => m,
        Err(skip) => return skip,
    };
    let Some((fresh, fresh_transcript)) = &modern.fresh_walk else {
        return Verdict::Skip("the fresh-process walk did not run".into());
    };
    let fresh: Vec<&Exchange> = fresh.iter().collect();
    let Some(fresh_names) = names(&fresh) else {
        return Verdict::Skip("the fresh-process tools/list walk did not complete".into());
    };
    let late: Vec<&Exchange> = modern.late_walk.iter().collect();
    let Some(late_names) = names(&late).filter(|_| !late.is_empty()) else {
        return Verdict::Skip("the walk after the other requests did not complete".into());
    };
    if sorted(fresh_names.clone()) == sorted(late_names.clone()) {
        return Verdict::Pass(format!(
            "a fresh process and this one after {} other requests list the same {} tools",
            ctx.transcript()
                .entries()
                .iter()
                .filter(|e| e.direction == Direction::Sent)
                .count(),
            fresh_names.len()
        ));
    }
    let only_late: Vec<&String> = late_names
        .iter()
        .filter(|n| !fresh_names.contains(n))
        .collect();
    let only_fresh: Vec<&String> = fresh_names
        .iter()
        .filter(|n| !late_names.contains(n))
        .collect();
    let mut evidence = vec![Evidence::note("tools/list after the other requests:")];
    evidence.extend(walk_evidence(ctx, &late));
    evidence.push(Evidence::note("tools/list on a fresh process:"));
    for page in &fresh {
        evidence.extend(evidence_from(fresh_transcript, &page.seqs()));
    }
    Verdict::Violation(
        format!(
            "the tool list depends on earlier requests on the connection: after them it also \
             lists {only_late:?} and lacks {only_fresh:?}, compared with a fresh process"
        ),
        evidence,
    )
}

/// `M-PING-GONE`: a modern `ping` gets -32601 (policy: ping was removed).
pub(super) fn ping_gone(ctx: &Ctx<'_>) -> Verdict {
    let modern = match modern(ctx) {
        Ok(m) => m,
        Err(skip) => return skip,
    };
    let Some(ping) = &modern.ping else {
        return Verdict::Skip("the ping probe was not sent".into());
    };
    if ping.error_code() == Some(-32601) {
        return Verdict::Pass("a modern ping got -32601".into());
    }
    Verdict::Violation(
        format!(
            "a modern ping got {}: ping was removed in 2026-07-28, so it is an unknown \
             method (-32601)",
            describe_answer(ping)
        ),
        ctx.exchange_evidence(ping),
    )
}

/// `M-INIT-REJECT`: a modern-only server rejects `initialize` with an error naming the
/// versions it supports.
pub(super) fn init_reject(ctx: &Ctx<'_>) -> Verdict {
    let modern = match modern(ctx) {
        Ok(m) => m,
        Err(skip) => return skip,
    };
    let Some((init, transcript)) = &modern.initialize else {
        return Verdict::Skip("the legacy initialize probe did not run".into());
    };
    if init.result().is_some() {
        return Verdict::Skip(
            "initialize succeeded: a dual-era server, which the rule does not bind".into(),
        );
    }
    let supported: Vec<String> = ctx
        .record
        .init_result()
        .and_then(|r| r.get("supportedVersions"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    if supported.is_empty() {
        return Verdict::Skip("server/discover named no supported versions".into());
    }
    let evidence = exchange_evidence(transcript, init);
    let Some(error) = init.error() else {
        return Verdict::Violation(
            format!(
                "a modern-only server answered initialize with {}",
                describe_answer(init)
            ),
            evidence,
        );
    };
    let text = format!(
        "{} {}",
        error.get("message").and_then(Value::as_str).unwrap_or(""),
        error.get("data").unwrap_or(&Value::Null)
    );
    let named: Vec<&String> = supported
        .iter()
        .filter(|v| text.contains(v.as_str()))
        .collect();
    if named.is_empty() {
        Verdict::Violation(
            format!(
                "the initialize error names none of the supported versions {supported:?} in \
                 its message or data"
            ),
            evidence,
        )
    } else {
        Verdict::Pass(format!("initialize was refused naming {named:?}"))
    }
}

/// The received messages of modern traffic (before the closing `initialize`).
fn modern_received<'a>(ctx: &'a Ctx<'_>) -> impl Iterator<Item = (&'a Entry, &'a Value)> + 'a {
    let end = modern_end(ctx);
    ctx.transcript()
        .received()
        .filter(move |e| e.seq < end)
        .filter_map(|e| Some((e, e.json.as_deref()?)))
}

/// `M-NO-SERVER-REQUESTS`: the server writes no JSON-RPC request in modern traffic.
pub(super) fn no_server_requests(ctx: &Ctx<'_>) -> Verdict {
    let mut findings = Findings::default();
    let mut transcripts = vec![ctx.transcript()];
    if let Some((_, fresh)) = ctx
        .record
        .modern
        .as_ref()
        .and_then(|m| m.fresh_walk.as_ref())
    {
        transcripts.push(fresh);
    }
    let is_request = |m: &Value| m.get("method").is_some() && m.get("id").is_some();
    for (entry, message) in modern_received(ctx) {
        if is_request(message) {
            findings.add(
                format!("the server sent a {} request", method_of(message)),
                ctx.evidence(&[entry.seq]),
            );
        }
    }
    for entry in transcripts[1..].iter().flat_map(|t| t.received()) {
        if entry.json.as_deref().is_some_and(is_request) {
            findings.add(
                format!(
                    "the server sent a {} request (fresh process)",
                    entry.json.as_deref().map_or("?", method_of)
                ),
                vec![Evidence {
                    direction: entry.direction,
                    text: entry.text.clone(),
                }],
            );
        }
    }
    findings.verdict("the server sent no request in modern traffic".into())
}

/// `M-LOGLEVEL`: no `notifications/message` for requests that did not ask for a log level
/// (the suite never sends `io.modelcontextprotocol/logLevel`).
pub(super) fn log_level(ctx: &Ctx<'_>) -> Verdict {
    let mut findings = Findings::default();
    for (entry, message) in modern_received(ctx) {
        if message.get("method").and_then(Value::as_str) == Some("notifications/message") {
            findings.add(
                "the server sent notifications/message although no request asked for a log \
                 level"
                    .into(),
                ctx.evidence(&[entry.seq]),
            );
        }
    }
    findings.verdict("no notifications/message: no request asked for a log level".into())
}

/// `M-CLIENTCAP`: a capability the request did not declare is asked for with -32021 and
/// `data.requiredCapabilities`, never through an `InputRequiredResult`.
pub(super) fn client_capabilities(ctx: &Ctx<'_>) -> Verdict {
    let mut findings = Findings::default();
    let (mut refusals, mut asked) = (0, 0);
    for (entry, request) in modern_responses(ctx) {
        if method_of(request) != "tools/call" {
            continue;
        }
        let Some(message) = entry.json.as_ref() else {
            continue;
        };
        let seqs = [entry.answers.unwrap_or(entry.seq), entry.seq];
        if let Some(error) = message.get("error") {
            if error.get("code").and_then(Value::as_i64) == Some(-32021) {
                refusals += 1;
                findings.breach(ctx, rules::required_capabilities_error(error), &seqs);
            }
            continue;
        }
        let Some(result) = message.get("result") else {
            continue;
        };
        if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
            continue;
        }
        asked += 1;
        let declared = request
            .pointer("/params/_meta")
            .and_then(|m| m.get(META_CAPABILITIES))
            .cloned()
            .unwrap_or(Value::Null);
        let undeclared = rules::undeclared_input_requests(result, &declared);
        if !undeclared.is_empty() {
            let list: Vec<String> = undeclared
                .iter()
                .map(|(key, cap)| format!("{key:?} needs {cap}"))
                .collect();
            findings.add(
                format!(
                    "an InputRequiredResult asks for capabilities the request did not declare \
                     ({}): that gets -32021 with data.requiredCapabilities",
                    list.join(", ")
                ),
                ctx.evidence(&seqs),
            );
        }
    }
    if refusals + asked == 0 {
        return Verdict::Skip("no tool asked for a client capability".into());
    }
    findings.verdict(format!(
        "{refusals} calls refused with -32021 naming requiredCapabilities, {asked} input \
         requests only for declared capabilities"
    ))
}

/// `TC-MRTR-CONTENT`: every `InputRequiredResult` is well formed, and the retry with our
/// answers gets an answer.
pub(super) fn mrtr_shape(ctx: &Ctx<'_>) -> Verdict {
    let mut findings = Findings::default();
    let mut seen = 0;
    for (entry, request) in modern_responses(ctx) {
        let Some(result) = entry.json.as_ref().and_then(|m| m.get("result")) else {
            continue;
        };
        if method_of(request) != "tools/call"
            || result.get("resultType").and_then(Value::as_str) != Some("input_required")
        {
            continue;
        }
        seen += 1;
        let seqs = [entry.answers.unwrap_or(entry.seq), entry.seq];
        findings.breach(ctx, rules::input_required_shape(result), &seqs);
    }
    let probes = ctx.record.modern.as_ref().map_or(&[][..], |m| &m.mrtr[..]);
    let mut retried = 0;
    for probe in probes {
        let Some(retry) = &probe.retry else {
            continue;
        };
        retried += 1;
        if retry.result().is_none() {
            findings.add(
                format!(
                    "the retry of {} with inputResponses got {}, not a result",
                    probe.tool,
                    describe_answer(retry)
                ),
                ctx.exchange_evidence(retry),
            );
        }
    }
    if seen == 0 && retried == 0 {
        return Verdict::Skip("no tool answered with an InputRequiredResult".into());
    }
    findings.verdict(format!(
        "{seen} InputRequiredResults well formed; {retried} retries with inputResponses answered"
    ))
}

/// `LCN-R5-SUBSCRIPTION`: `subscriptions/listen` is acknowledged first, with the listen
/// request's id as subscriptionId, and every notification on it carries that id.
pub(super) fn subscription(ctx: &Ctx<'_>) -> Verdict {
    let modern = match modern(ctx) {
        Ok(m) => m,
        Err(skip) => return skip,
    };
    let Some(probe) = &modern.subscription else {
        return Verdict::Skip(
            "the server does not declare tools.listChanged: no subscription probe".into(),
        );
    };
    let fence_end = probe
        .fence
        .seqs()
        .last()
        .copied()
        .unwrap_or(probe.listen_seq);
    let mut all = vec![probe.listen_seq];
    all.extend(probe.fence.seqs());
    let about_listen: Vec<&Entry> = ctx
        .transcript()
        .received()
        .filter(|e| e.seq > probe.listen_seq && e.seq < modern_end(ctx))
        .filter(|e| e.json.as_deref().is_some_and(mentions_listen))
        .collect();
    let ack = about_listen.first().filter(|e| {
        e.json
            .as_ref()
            .and_then(|m| m.get("method"))
            .and_then(Value::as_str)
            == Some("notifications/subscriptions/acknowledged")
    });
    let mut evidence = ctx.evidence(&all);
    evidence.extend(about_listen.iter().map(|e| Evidence {
        direction: e.direction,
        text: e.text.clone(),
    }));
    let Some(ack) = ack.filter(|e| e.seq < fence_end) else {
        return Verdict::Violation(
            "subscriptions/listen was not acknowledged first with \
             notifications/subscriptions/acknowledged carrying its id as subscriptionId"
                .into(),
            evidence,
        );
    };
    let unmarked: Vec<&Entry> = ctx
        .transcript()
        .received()
        .filter(|e| e.seq > ack.seq && e.seq < modern_end(ctx))
        .filter(|e| {
            e.json.as_ref().is_some_and(|m| {
                m.get("method").and_then(Value::as_str) == Some("notifications/tools/list_changed")
                    && !mentions_listen(m)
            })
        })
        .collect();
    if !unmarked.is_empty() {
        let seqs: Vec<usize> = unmarked.iter().map(|e| e.seq).take(MAX_EXAMPLES).collect();
        return Verdict::Violation(
            "a list_changed notification on the subscription lacks its subscriptionId".into(),
            ctx.evidence(&seqs),
        );
    }
    Verdict::Pass("subscriptions/listen was acknowledged first, with its id".into())
}

/// Whether a message belongs to our subscription: a notification whose `_meta`
/// subscriptionId is the listen id, or a response to the listen request.
fn mentions_listen(message: &Value) -> bool {
    let listen = Value::String(LISTEN_ID.into());
    message.get("id") == Some(&listen)
        || message
            .pointer("/params/_meta")
            .and_then(|m| m.get(META_SUBSCRIPTION))
            == Some(&listen)
}

/// `RPC-ERR-RANGE-R5`: no error code 2026-07-28 forbids or leaves undefined in its range.
pub(super) fn error_range(ctx: &Ctx<'_>) -> Verdict {
    let mut findings = Findings::default();
    let mut errors = 0;
    for (entry, message) in modern_received(ctx) {
        let Some(code) = message.pointer("/error/code").and_then(Value::as_i64) else {
            continue;
        };
        errors += 1;
        let mut seqs: Vec<usize> = entry.answers.into_iter().collect();
        seqs.push(entry.seq);
        findings.breach(ctx, rules::error_code_range(code), &seqs);
    }
    findings.verdict(format!(
        "{errors} errors, none with a reserved or retired code"
    ))
}

/// `CANCEL-STOP-R5-STDIO`: nothing more for a cancelled request. The probe cancels the
/// acknowledged, idle subscription (the liveness request after it was answered, so no
/// message for it was in flight): a response to the listen request after that is a reply
/// to the cancellation; a notification for it is allowed until the liveness request after
/// the cancellation is answered (A15's grace window), never later.
pub(super) fn cancel_r5(ctx: &Ctx<'_>) -> Verdict {
    let modern = match modern(ctx) {
        Ok(m) => m,
        Err(skip) => return skip,
    };
    if let Some(skip) = super::edges::modern_http_cancel(ctx) {
        return skip;
    }
    let Some(probe) = &modern.subscription else {
        return Verdict::Skip(
            "no in-flight request to cancel: the subscription probe needs tools.listChanged".into(),
        );
    };
    if probe.fence.result().is_none() && probe.fence.error().is_none() {
        return Verdict::Skip(
            "the liveness request before the cancellation was not answered".into(),
        );
    }
    let grace_end = probe
        .after_cancel
        .seqs()
        .last()
        .copied()
        .unwrap_or(usize::MAX);
    let late: Vec<usize> = ctx
        .transcript()
        .received()
        .filter(|e| e.seq > probe.cancel_seq && e.seq < modern_end(ctx))
        .filter(|e| {
            e.json.as_ref().is_some_and(|m| {
                mentions_listen(m) && (m.get("method").is_none() || e.seq > grace_end)
            })
        })
        .map(|e| e.seq)
        .take(MAX_EXAMPLES)
        .collect();
    if late.is_empty() {
        return Verdict::Pass(
            "nothing more came for the subscription after notifications/cancelled".into(),
        );
    }
    let mut seqs = vec![probe.cancel_seq];
    seqs.extend(&late);
    Verdict::Violation(
        "the server sent more for the cancelled subscriptions/listen request after \
         notifications/cancelled"
            .into(),
        ctx.evidence(&seqs),
    )
}
