//! The 2026-07-28 Streamable HTTP probes: modern requests whose metadata headers are
//! wrong on purpose (missing, or not matching the body), a method the server does not
//! implement, the requests whose errors must come with 400, a tool parameter header left
//! out or changed, and the legacy traffic (GET, DELETE, a session id) a modern-only server
//! should turn away (streamable-http.mdx, Request Metadata, Server Validation, Backward
//! Compatibility).
//!
//! The session transport always sends what a conformant client sends; these requests are
//! the ones it never would, so they are made here, each a single bounded POST (or GET, or
//! DELETE) whose answer is read only as evidence (as the legacy probes read theirs:
//! `evidence.rs`). There is no session to open: every modern request stands alone.

use std::time::Duration;

use reqwest::header::ACCEPT;
use serde_json::{json, Value};

use super::evidence::read_answer;
use crate::records::{HttpModernProbe, ModernStep, ParamTool};
use crate::transport::{
    error_text, request_headers, Carried, Endpoint, HttpTarget, ToolHeaders, META_VERSION,
    METHOD_HEADER, NAME_HEADER, PARAM_PREFIX, VERSION_HEADER_NAME,
};

/// The method no server implements.
const UNKNOWN_METHOD: &str = "mcp-conformance/no-such-method";
/// The tool no server has (header probes call it, so a server that skips validation
/// runs nothing).
const NO_SUCH_TOOL: &str = "mcp-conformance-no-such-tool";
/// A version no revision has.
const UNSUPPORTED: &str = "1900-01-01";
/// The session id sent to a modern server, which must ignore it.
const STRAY_SESSION: &str = "mcp-conformance-stray-session";
/// A header value that matches no body value.
const MISMATCH: &str = "mcp-conformance-mismatch";

impl HttpModernProbe {
    /// Runs the probes against `target` for `version`; `meta` is the `_meta` a request
    /// carries, `param_tool` the tool for the parameter-header probes. Never fails on what
    /// the server does: that is recorded in the facts.
    pub async fn run(
        target: &HttpTarget,
        version: &str,
        meta: Value,
        param_tool: Option<ParamTool>,
        timeout: Duration,
    ) -> crate::Result<Self> {
        let mut prober = Prober {
            endpoint: Endpoint::of(target, timeout)?,
            titled: Endpoint::titled(target, timeout)?,
            meta,
            next: 0,
        };
        let mut probe = HttpModernProbe::default();
        let step = prober
            .discover("a conformant server/discover", |_| {})
            .await;
        let modern = step.fact.status.is_some_and(|s| (200..300).contains(&s));
        probe.discover = Some(step);
        if !modern {
            return Ok(probe);
        }
        prober.mismatched_headers(&mut probe).await;
        prober.header_spelling(&mut probe).await;
        prober.refused_requests(&mut probe, version).await;
        if let Some(tool) = &param_tool {
            prober.param_headers(&mut probe, tool).await;
        }
        probe.param_tool = param_tool;
        prober.legacy_traffic(&mut probe, version).await;
        Ok(probe)
    }
}

/// What every probe request needs: the endpoint, the `_meta` a request carries, and the
/// count behind the next request's id (the order of the steps numbers them).
struct Prober {
    endpoint: Endpoint,
    /// The endpoint whose client writes header names in title case.
    titled: Endpoint,
    meta: Value,
    next: u32,
}

impl Prober {
    /// A `method` request with `params` and the `_meta` (ids `http-probe-1`, `-2`, ...).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let mut params = params;
        params["_meta"] = self.meta.clone();
        let id = format!("http-probe-{}", self.next);
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    /// POSTs `body` with the metadata headers it mirrors, as `edit` changes them.
    async fn send(
        &self,
        purpose: &'static str,
        body: Value,
        edit: impl Fn(&mut Headers),
    ) -> ModernStep {
        let mut headers = request_headers(&body, &ToolHeaders::default());
        edit(&mut headers);
        post(&self.endpoint, purpose, body, headers, None).await
    }

    /// A `server/discover` whose headers `edit` changes.
    async fn discover(&mut self, purpose: &'static str, edit: impl Fn(&mut Headers)) -> ModernStep {
        let body = self.request("server/discover", json!({}));
        self.send(purpose, body, edit).await
    }

    /// A `tools/call` of a tool no server has, whose headers `edit` changes.
    async fn call_nothing(
        &mut self,
        purpose: &'static str,
        edit: impl Fn(&mut Headers),
    ) -> ModernStep {
        let call = json!({"name": NO_SUCH_TOOL, "arguments": {}});
        let body = self.request("tools/call", call);
        self.send(purpose, body, edit).await
    }

    /// The metadata headers left out or not matching the body (streamable-http.mdx,
    /// Server Validation: 400 with -32020).
    async fn mismatched_headers(&mut self, probe: &mut HttpModernProbe) {
        let purpose = "a request without MCP-Protocol-Version";
        let step = self
            .discover(purpose, |h| remove(h, VERSION_HEADER_NAME))
            .await;
        probe.no_version = Some(step);
        let purpose = "a request whose MCP-Protocol-Version is not its _meta version";
        let step = self
            .discover(purpose, |h| set(h, VERSION_HEADER_NAME, "2025-11-25"))
            .await;
        probe.version_mismatch = Some(step);
        let purpose = "a request without Mcp-Method";
        probe.method_missing = Some(self.discover(purpose, |h| remove(h, METHOD_HEADER)).await);
        let purpose = "a request whose Mcp-Method is not its method";
        let step = self
            .discover(purpose, |h| set(h, METHOD_HEADER, "tools/list"))
            .await;
        probe.method_mismatch = Some(step);
        let purpose = "a tools/call without Mcp-Name";
        probe.name_missing = Some(self.call_nothing(purpose, |h| remove(h, NAME_HEADER)).await);
        let purpose = "a tools/call whose Mcp-Name is not its name";
        let step = self
            .call_nothing(purpose, |h| set(h, NAME_HEADER, MISMATCH))
            .await;
        probe.name_mismatch = Some(step);
    }

    /// Headers spelled another way that means the same: names in title case (header names
    /// are case-insensitive: streamable-http.mdx, Case Sensitivity), and an `Mcp-Name`
    /// value with whitespace around it (not part of the value: RFC 9110, 5.5).
    async fn header_spelling(&mut self, probe: &mut HttpModernProbe) {
        let body = self.request("server/discover", json!({}));
        let headers = request_headers(&body, &ToolHeaders::default());
        let purpose = "a server/discover with its header names in title case (Mcp-Method)";
        probe.titled_discover = Some(titled(
            post(&self.titled, purpose, body, headers, None).await,
        ));
        let body = self.request("tools/call", json!({"name": NO_SUCH_TOOL, "arguments": {}}));
        let headers = request_headers(&body, &ToolHeaders::default());
        let purpose = "a tools/call with its header names in title case (Mcp-Name)";
        probe.titled_call = Some(titled(
            post(&self.titled, purpose, body, headers, None).await,
        ));
        let purpose = "a tools/call whose Mcp-Name value has whitespace around it";
        let padded = format!("  {NO_SUCH_TOOL}\t ");
        let step = self
            .call_nothing(purpose, |h| set(h, NAME_HEADER, &padded))
            .await;
        probe.padded_name = Some(step);
    }

    /// The requests whose errors must come with 400: a method the server does not
    /// implement, an unsupported version, a `_meta` without the version.
    async fn refused_requests(&mut self, probe: &mut HttpModernProbe, version: &str) {
        let body = self.request(UNKNOWN_METHOD, json!({}));
        let purpose = "a method the server does not implement";
        probe.unknown_method = Some(self.send(purpose, body, |_| {}).await);
        let mut body = self.request("tools/list", json!({}));
        body["params"]["_meta"][META_VERSION] = json!(UNSUPPORTED);
        let purpose = "a request for an unsupported version";
        probe.unsupported_version = Some(self.send(purpose, body, |_| {}).await);
        let mut body = self.request("tools/list", json!({}));
        if let Some(meta) = body["params"]["_meta"].as_object_mut() {
            meta.remove(META_VERSION);
        }
        let purpose = "a request whose _meta lacks the protocol version";
        let step = self
            .send(purpose, body, |h| set(h, VERSION_HEADER_NAME, version))
            .await;
        probe.meta_missing = Some(step);
    }

    /// A call of `tool` without its `Mcp-Param-*` headers, and one with values that are
    /// not its arguments (streamable-http.mdx, Custom Headers).
    async fn param_headers(&mut self, probe: &mut HttpModernProbe, tool: &ParamTool) {
        let call = json!({"name": tool.name, "arguments": tool.arguments});
        let without = |h: &mut Headers| h.retain(|(k, _)| !k.starts_with(PARAM_PREFIX));
        let body = self.request("tools/call", call.clone());
        let purpose = "a tools/call without its Mcp-Param-* headers";
        probe.param_missing = Some(self.send(purpose, body, without).await);
        let body = self.request("tools/call", call);
        let purpose = "a tools/call whose Mcp-Param-* values are not its arguments";
        let mismatched = |h: &mut Headers| {
            without(h);
            for name in &tool.headers {
                h.push((format!("{PARAM_PREFIX}{name}"), MISMATCH.into()));
            }
        };
        probe.param_mismatch = Some(self.send(purpose, body, mismatched).await);
    }

    /// The legacy traffic a modern-only server turns away or ignores (streamable-http.mdx,
    /// Backward Compatibility): a session id, a GET, a DELETE.
    async fn legacy_traffic(&mut self, probe: &mut HttpModernProbe, version: &str) {
        let body = self.request("server/discover", json!({}));
        let headers = request_headers(&body, &ToolHeaders::default());
        let purpose = "a request carrying an Mcp-Session-Id";
        let step = post(&self.endpoint, purpose, body, headers, Some(STRAY_SESSION)).await;
        probe.stray_session = Some(step);
        probe.get = Some(bare(&self.endpoint, reqwest::Method::GET, version).await);
        probe.delete = Some(bare(&self.endpoint, reqwest::Method::DELETE, version).await);
    }
}

type Headers = Vec<(String, String)>;

/// A step sent by the title-case client, its recorded header names spelled as that client
/// wrote them (hyper's title case: each `-`-separated word capitalised).
fn titled(mut step: ModernStep) -> ModernStep {
    for (name, _) in &mut step.fact.sent {
        *name = name
            .split('-')
            .map(|word| {
                let mut chars = word.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_uppercase().to_string() + &chars.as_str().to_ascii_lowercase()
                })
            })
            .collect::<Vec<_>>()
            .join("-");
    }
    step
}

fn remove(headers: &mut Headers, name: &str) {
    headers.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
}

fn set(headers: &mut Headers, name: &str, value: &str) {
    remove(headers, name);
    headers.push((name.to_string(), value.to_string()));
}

/// A GET or DELETE with only the version header: the legacy traffic a modern-only server
/// answers 405 (only the head is read).
async fn bare(endpoint: &Endpoint, method: reqwest::Method, version: &str) -> ModernStep {
    let name = if method == reqwest::Method::GET {
        "GET"
    } else {
        "DELETE"
    };
    let (builder, mut sent) = endpoint.request(method, None, None);
    let builder = builder
        .header(VERSION_HEADER_NAME, version)
        .header(ACCEPT, "text/event-stream");
    sent.push((VERSION_HEADER_NAME.into(), version.into()));
    let mut fact = endpoint.fact(name, Carried::Nothing, None);
    fact.sent = sent;
    match tokio::time::timeout(endpoint.timeout, builder.send()).await {
        Ok(Ok(response)) => fact.read_head(&response),
        Ok(Err(e)) => fact.error = Some(error_text(&e)),
        Err(_) => fact.error = Some("no response headers within the timeout".into()),
    }
    ModernStep {
        purpose: if name == "GET" {
            "a GET to the endpoint"
        } else {
            "a DELETE to the endpoint"
        },
        fact,
        error_code: None,
    }
}

/// POSTs one request with exactly `headers` (and `session`, when given) and reads its
/// answer (bounded) into a step.
async fn post(
    endpoint: &Endpoint,
    purpose: &'static str,
    message: Value,
    headers: Headers,
    session: Option<&str>,
) -> ModernStep {
    let rpc = message
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_string);
    let mut fact = endpoint.fact("POST", Carried::Request, rpc);
    let (builder, sent) = endpoint.post_message(session, None, headers, message.to_string());
    fact.sent = sent;
    let step = |fact, error_code| ModernStep {
        purpose,
        fact,
        error_code,
    };
    let timeout = endpoint.timeout;
    let response = match tokio::time::timeout(timeout, builder.send()).await {
        Ok(Ok(response)) => response,
        Ok(Err(e)) => {
            fact.error = Some(error_text(&e));
            return step(fact, None);
        }
        Err(_) => {
            fact.error = Some("no response headers within the timeout".into());
            return step(fact, None);
        }
    };
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let found = read_answer(response, &mut fact, Some(&id), timeout).await;
    let code = found
        .as_ref()
        .and_then(|m| m.pointer("/error/code"))
        .and_then(Value::as_i64);
    step(fact, code)
}
