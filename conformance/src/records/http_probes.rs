//! What the HTTP probes recorded, for the HTTP checks: the legacy Streamable HTTP probe
//! session ([`HttpProbe`]), the foreign-`Origin` requests of both eras ([`OriginProbe`],
//! [`SseOriginProbe`]) and the 2026-07-28 probes ([`HttpModernProbe`]). Plain data: each is
//! an [`HttpFact`] per request sent wrong on purpose, with a purpose in words. The probes
//! that send them speak JSON-RPC, so they live with the other conversations
//! (`scenarios/probes/`); what they recorded is here, with the other records.

use serde_json::Value;

use crate::transport::{is_media, HttpFact};

/// The `Origin` of the DNS-rebinding probe: a host that cannot exist (RFC 6761 `.invalid`).
pub const FOREIGN_ORIGIN: &str = "http://mcp-conformance.invalid";

/// A request sent with `Origin: http://mcp-conformance.invalid` (transports.mdx, Security
/// Warning: servers MUST validate `Origin`; from 2025-06-18 an invalid one MUST get 403).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OriginProbe {
    /// The exchange.
    pub step: ProbeStep,
    /// Whether the target's host is a loopback address or `localhost`: a server there is
    /// local, so a foreign web origin is invalid by construction.
    pub loopback: bool,
    /// The DELETE of the session the server opened anyway, if it did.
    pub delete: Option<HttpFact>,
}

/// One probe request and what it got.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ProbeStep {
    /// What the step tries, in words.
    pub purpose: &'static str,
    /// The exchange.
    pub fact: HttpFact,
}

/// Everything the HTTP probe session recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct HttpProbe {
    /// The initialize POST.
    pub initialize: Option<ProbeStep>,
    /// The version the server negotiated.
    pub negotiated: Option<String>,
    /// Whether the server assigned a session id.
    pub session_assigned: bool,
    /// `notifications/initialized`, sent as a conformant client sends it.
    pub initialized: Option<ProbeStep>,
    /// A ping, sent as a conformant client sends it.
    pub ping: Option<ProbeStep>,
    /// A ping without `Mcp-Session-Id` (only when one was assigned).
    pub no_session: Option<ProbeStep>,
    /// A ping with a session id the server never issued (only when one was assigned).
    pub unknown_session: Option<ProbeStep>,
    /// A ping with `MCP-Protocol-Version: not-a-version` (only from 2025-06-18 on).
    pub bad_version: Option<ProbeStep>,
    /// A ping in the session without `MCP-Protocol-Version`, which the server should serve
    /// (assuming 2025-03-26, or the version it negotiated); only when it negotiated
    /// 2025-06-18 or later.
    pub version_absent: Option<ProbeStep>,
    /// The DELETE of the session.
    pub delete: Option<ProbeStep>,
    /// A ping with the deleted session's id (only when the DELETE succeeded).
    pub deleted_session: Option<ProbeStep>,
}

impl HttpProbe {
    /// Every step that ran, in order.
    pub fn steps(&self) -> impl Iterator<Item = &ProbeStep> {
        [
            &self.initialize,
            &self.initialized,
            &self.ping,
            &self.no_session,
            &self.unknown_session,
            &self.bad_version,
            &self.version_absent,
            &self.delete,
            &self.deleted_session,
        ]
        .into_iter()
        .flatten()
    }
}

/// One 2026-07-28 probe request and what it got.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ModernStep {
    /// What the step tries, in words.
    pub purpose: &'static str,
    /// The exchange.
    pub fact: HttpFact,
    /// The JSON-RPC error code of the answer to the request, when it was an error.
    pub error_code: Option<i64>,
}

impl ModernStep {
    /// Whether the answer was `status` with error `code`.
    pub fn got(&self, status: u16, code: i64) -> bool {
        self.fact.status == Some(status) && self.error_code == Some(code)
    }
}

/// A tool whose `inputSchema` marks a parameter with `x-mcp-header`, and the arguments
/// the probe calls it with (only the annotated parameters, each given a value).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ParamTool {
    /// The tool.
    pub name: String,
    /// The arguments.
    pub arguments: Value,
    /// The `x-mcp-header` names of its annotated parameters.
    pub headers: Vec<String>,
}

/// Everything the modern HTTP probes recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct HttpModernProbe {
    /// `server/discover` sent as a conformant client sends it (the others run only when
    /// it got a 2xx answer).
    pub discover: Option<ModernStep>,
    /// Without `MCP-Protocol-Version`.
    pub no_version: Option<ModernStep>,
    /// `MCP-Protocol-Version` naming another version than the body.
    pub version_mismatch: Option<ModernStep>,
    /// Without `Mcp-Method`.
    pub method_missing: Option<ModernStep>,
    /// `Mcp-Method` naming another method than the body.
    pub method_mismatch: Option<ModernStep>,
    /// A `tools/call` without `Mcp-Name`.
    pub name_missing: Option<ModernStep>,
    /// A `tools/call` whose `Mcp-Name` is not the body's name.
    pub name_mismatch: Option<ModernStep>,
    /// `server/discover` with its header names in title case (`Mcp-Method`), not the
    /// lower case of every other request.
    pub titled_discover: Option<ModernStep>,
    /// A `tools/call` of a tool no server has, its header names in title case.
    pub titled_call: Option<ModernStep>,
    /// A `tools/call` whose `Mcp-Name` value has whitespace around it (which is not part of
    /// the value: RFC 9110, 5.5).
    pub padded_name: Option<ModernStep>,
    /// A method the server does not implement.
    pub unknown_method: Option<ModernStep>,
    /// A request for an unsupported version (header and body agree).
    pub unsupported_version: Option<ModernStep>,
    /// A request whose `_meta` lacks the protocol version.
    pub meta_missing: Option<ModernStep>,
    /// The tool the parameter-header probes call, when one is annotated and may be called.
    pub param_tool: Option<ParamTool>,
    /// Its call without its `Mcp-Param-*` headers.
    pub param_missing: Option<ModernStep>,
    /// Its call with `Mcp-Param-*` values that do not match the arguments.
    pub param_mismatch: Option<ModernStep>,
    /// `server/discover` with an `Mcp-Session-Id` (which must be ignored).
    pub stray_session: Option<ModernStep>,
    /// A GET to the endpoint.
    pub get: Option<ModernStep>,
    /// A DELETE to the endpoint.
    pub delete: Option<ModernStep>,
}

impl HttpModernProbe {
    /// Every step that ran, in order.
    pub fn steps(&self) -> impl Iterator<Item = &ModernStep> {
        [
            &self.discover,
            &self.no_version,
            &self.version_mismatch,
            &self.method_missing,
            &self.method_mismatch,
            &self.name_missing,
            &self.name_mismatch,
            &self.titled_discover,
            &self.titled_call,
            &self.padded_name,
            &self.unknown_method,
            &self.unsupported_version,
            &self.meta_missing,
            &self.param_missing,
            &self.param_mismatch,
            &self.stray_session,
            &self.get,
            &self.delete,
        ]
        .into_iter()
        .flatten()
    }
}

/// The two requests sent over HTTP+SSE with a foreign `Origin`, and what they got.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SseOriginProbe {
    /// The GET of the SSE URL with the foreign `Origin`.
    pub get: ProbeStep,
    /// The POST of `initialize` with the foreign `Origin` to the endpoint of a stream opened
    /// without one (`None` when that stream named no endpoint: see `no_post`).
    pub post: Option<ProbeStep>,
    /// Why the POST was not sent.
    pub no_post: Option<String>,
    /// Whether the target's host is a loopback address or `localhost` (a foreign web origin
    /// is invalid by construction there).
    pub loopback: bool,
}

impl SseOriginProbe {
    /// Whether the GET opened an event stream: a 2xx answer of type `text/event-stream`.
    /// Anything else (another status, another content type, no answer) is a refused stream.
    pub fn get_served(&self) -> bool {
        let fact = &self.get.fact;
        fact.status.is_some_and(|s| (200..300).contains(&s))
            && is_media(fact.content_type.as_deref(), "text/event-stream")
    }

    /// Whether the POST was accepted (a 2xx answer); `None` when it was not sent.
    pub fn post_served(&self) -> Option<bool> {
        let fact = &self.post.as_ref()?.fact;
        Some(fact.status.is_some_and(|s| (200..300).contains(&s)))
    }
}
