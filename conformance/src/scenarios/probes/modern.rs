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
use crate::transport::{
    error_text, request_headers, Carried, Endpoint, HttpModernProbe, HttpTarget, ModernStep,
    ParamTool, ToolHeaders, META_VERSION, METHOD_HEADER, NAME_HEADER, PARAM_PREFIX,
    VERSION_HEADER_NAME,
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
        let endpoint = Endpoint::of(target, timeout)?;
        let mut probe = HttpModernProbe::default();
        let mut next = 0u32;
        let mut request = |method: &str, params: Value| {
            next += 1;
            let mut params = params;
            params["_meta"] = meta.clone();
            json!({"jsonrpc": "2.0", "id": format!("http-probe-{next}"), "method": method, "params": params})
        };
        let send = |purpose: &'static str, body: Value, edit: &dyn Fn(&mut Headers)| {
            let mut headers = request_headers(&body, &ToolHeaders::default());
            edit(&mut headers);
            post(&endpoint, purpose, body, headers, None)
        };
        let discover = request("server/discover", json!({}));
        let step = send("a conformant server/discover", discover, &|_| {}).await;
        let modern = step.fact.status.is_some_and(|s| (200..300).contains(&s));
        probe.discover = Some(step);
        if !modern {
            return Ok(probe);
        }
        let body = request("server/discover", json!({}));
        probe.no_version = Some(
            send("a request without MCP-Protocol-Version", body, &|h| {
                remove(h, VERSION_HEADER_NAME)
            })
            .await,
        );
        let body = request("server/discover", json!({}));
        probe.version_mismatch = Some(
            send(
                "a request whose MCP-Protocol-Version is not its _meta version",
                body,
                &|h| set(h, VERSION_HEADER_NAME, "2025-11-25"),
            )
            .await,
        );
        let body = request("server/discover", json!({}));
        probe.method_missing = Some(
            send("a request without Mcp-Method", body, &|h| {
                remove(h, METHOD_HEADER)
            })
            .await,
        );
        let body = request("server/discover", json!({}));
        probe.method_mismatch = Some(
            send("a request whose Mcp-Method is not its method", body, &|h| {
                set(h, METHOD_HEADER, "tools/list")
            })
            .await,
        );
        let call = json!({"name": NO_SUCH_TOOL, "arguments": {}});
        let body = request("tools/call", call.clone());
        probe.name_missing = Some(
            send("a tools/call without Mcp-Name", body, &|h| {
                remove(h, NAME_HEADER)
            })
            .await,
        );
        let body = request("tools/call", call);
        probe.name_mismatch = Some(
            send("a tools/call whose Mcp-Name is not its name", body, &|h| {
                set(h, NAME_HEADER, MISMATCH)
            })
            .await,
        );
        let body = request(UNKNOWN_METHOD, json!({}));
        probe.unknown_method =
            Some(send("a method the server does not implement", body, &|_| {}).await);
        let mut body = request("tools/list", json!({}));
        body["params"]["_meta"][META_VERSION] = json!(UNSUPPORTED);
        probe.unsupported_version =
            Some(send("a request for an unsupported version", body, &|_| {}).await);
        let mut body = request("tools/list", json!({}));
        if let Some(meta) = body["params"]["_meta"].as_object_mut() {
            meta.remove(META_VERSION);
        }
        probe.meta_missing = Some(
            send(
                "a request whose _meta lacks the protocol version",
                body,
                &|h| set(h, VERSION_HEADER_NAME, version),
            )
            .await,
        );
        if let Some(tool) = &param_tool {
            let call = json!({"name": tool.name, "arguments": tool.arguments});
            let body = request("tools/call", call.clone());
            probe.param_missing = Some(
                send("a tools/call without its Mcp-Param-* headers", body, &|h| {
                    h.retain(|(k, _)| !k.starts_with(PARAM_PREFIX))
                })
                .await,
            );
            let body = request("tools/call", call);
            let annotated = tool.headers.clone();
            probe.param_mismatch = Some(
                send(
                    "a tools/call whose Mcp-Param-* values are not its arguments",
                    body,
                    &|h| {
                        h.retain(|(k, _)| !k.starts_with(PARAM_PREFIX));
                        for name in &annotated {
                            h.push((format!("{}{name}", PARAM_PREFIX), MISMATCH.into()));
                        }
                    },
                )
                .await,
            );
        }
        probe.param_tool = param_tool;
        let body = request("server/discover", json!({}));
        let headers = request_headers(&body, &ToolHeaders::default());
        probe.stray_session = Some(
            post(
                &endpoint,
                "a request carrying an Mcp-Session-Id",
                body,
                headers,
                Some(STRAY_SESSION),
            )
            .await,
        );
        probe.get = Some(bare(&endpoint, reqwest::Method::GET, version).await);
        probe.delete = Some(bare(&endpoint, reqwest::Method::DELETE, version).await);
        Ok(probe)
    }
}

type Headers = Vec<(String, String)>;

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
