//! What the HTTP transport records and is told: the target (URL, the user's headers and CAs),
//! and one [`HttpFact`] per HTTP exchange, the evidence the HTTP checks judge. Apart from
//! `http.rs` so that the checks and the probes read these types without the client.

use std::path::PathBuf;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE};

use crate::errors::{Error, Result};

/// Body characters kept in a fact as evidence.
pub(crate) const BODY_HEAD: usize = 200;

/// Where a server listens for Streamable HTTP, and the headers to send it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HttpTarget {
    /// The MCP endpoint, e.g. `http://127.0.0.1:8080/mcp`.
    pub url: String,
    /// Headers sent on every request (authorization and the like); their values never
    /// appear in a report.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// PEM files of certificate authorities trusted for an `https` URL besides the
    /// platform's (a private CA, a self-signed server certificate).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ca_certs: Vec<PathBuf>,
}

impl HttpTarget {
    /// The URL, checked: `http` or `https`, with a host.
    pub fn parsed_url(&self) -> Result<reqwest::Url> {
        let bad = |reason: &str| Error::BadUrl {
            url: self.url.clone(),
            reason: reason.to_string(),
        };
        let url = reqwest::Url::parse(&self.url).map_err(|e| bad(&e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(bad("the scheme must be http or https"));
        }
        if url.host_str().is_none() {
            return Err(bad("no host"));
        }
        Ok(url)
    }

    /// The user's headers, checked.
    pub(crate) fn header_map(&self) -> Result<HeaderMap> {
        let mut map = HeaderMap::new();
        for (name, value) in &self.headers {
            let bad = || Error::BadUrl {
                url: self.url.clone(),
                reason: format!("header {name:?} is not a valid HTTP header"),
            };
            let name = HeaderName::from_bytes(name.trim().as_bytes()).map_err(|_| bad())?;
            let mut value = HeaderValue::from_str(value.trim()).map_err(|_| bad())?;
            value.set_sensitive(true);
            map.append(name, value);
        }
        Ok(map)
    }
}

/// What a POST carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Carried {
    /// A request (it has `method` and `id`).
    Request,
    /// A notification.
    Notification,
    /// A response (ours, to a request of the server).
    Response,
    /// Anything else (a batch, a malformed probe).
    Other,
    /// Nothing: a GET or a DELETE.
    Nothing,
}

impl Carried {
    pub(super) fn of(message: Option<&serde_json::Value>) -> Self {
        let Some(object) = message.and_then(serde_json::Value::as_object) else {
            return Carried::Other;
        };
        match (object.contains_key("method"), object.contains_key("id")) {
            (true, true) => Carried::Request,
            (true, false) => Carried::Notification,
            (false, true) if object.contains_key("result") || object.contains_key("error") => {
                Carried::Response
            }
            _ => Carried::Other,
        }
    }
}

/// One HTTP exchange as evidence: what we sent and what came back.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HttpFact {
    /// `POST`, `GET` or `DELETE`.
    pub method: &'static str,
    /// The URL's path.
    pub path: String,
    /// What the body carried.
    pub carried: Carried,
    /// The JSON-RPC method, for a request or notification.
    pub rpc_method: Option<String>,
    /// The JSON-RPC id of the message carried (a request's, a response's, or a malformed
    /// message's that has one).
    pub rpc_id: Option<serde_json::Value>,
    /// The request headers that matter (`Mcp-Session-Id`, `MCP-Protocol-Version`), and the
    /// user's header names with `<redacted>` values.
    pub sent: Vec<(String, String)>,
    /// The status, when a response came.
    pub status: Option<u16>,
    /// The response's `Content-Type`.
    pub content_type: Option<String>,
    /// The `Mcp-Session-Id` the response set, if it set one.
    pub session_id: Option<String>,
    /// The `Location` a redirect named (redirects are never followed).
    pub location: Option<String>,
    /// Body bytes read (a stream is read only up to its response).
    pub body_bytes: usize,
    /// The body's first characters.
    pub body_head: String,
    /// Why no (complete) response was read.
    pub error: Option<String>,
}

impl HttpFact {
    /// Whether this is a GET resuming a stream (it names a `Last-Event-ID`).
    pub fn resumes(&self) -> bool {
        self.sent.iter().any(|(name, _)| name == "Last-Event-ID")
    }

    /// Records what the response's head says: status, content type, session id.
    pub(crate) fn read_head(&mut self, response: &reqwest::Response) {
        self.status = Some(response.status().as_u16());
        self.content_type = content_type(response.headers());
        self.session_id = response
            .headers()
            .get(super::http::SESSION_HEADER)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        self.location = response
            .status()
            .is_redirection()
            .then(|| response.headers().get(reqwest::header::LOCATION))
            .flatten()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    }

    /// One line: `POST /mcp (ping) -> 200 application/json, 36 bytes`.
    pub fn describe(&self) -> String {
        let what = match (&self.rpc_method, self.carried) {
            (Some(m), _) => format!(" ({m})"),
            (None, Carried::Response) => " (a response)".into(),
            (None, Carried::Other) => " (not a message)".into(),
            _ => String::new(),
        };
        let sent = self
            .sent
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>();
        let sent = if sent.is_empty() {
            String::new()
        } else {
            format!(" [{}]", sent.join("; "))
        };
        let got = match self.status {
            Some(status) => format!(
                "{status} {}, {} bytes{}",
                self.content_type.as_deref().unwrap_or("(no content type)"),
                self.body_bytes,
                if self.session_id.is_some() {
                    ", sets Mcp-Session-Id"
                } else {
                    ""
                }
            ),
            None => "no response".into(),
        };
        let error = self
            .error
            .as_deref()
            .map(|e| format!(" ({e})"))
            .unwrap_or_default();
        let location = self
            .location
            .as_deref()
            .map(|l| format!(", Location: {:?}", cut(l, LOCATION_HEAD)))
            .unwrap_or_default();
        format!(
            "HTTP {} {}{what}{sent} -> {got}{location}{error}",
            self.method, self.path
        )
    }

    /// Why this POST's answer carried no JSON-RPC message, when its HTTP side says why:
    /// no answer at all, a redirect (never followed), a status that is not 2xx, a body cut
    /// or stalled, a content type that is neither JSON nor an event stream, or a 2xx with
    /// no body. `None` when the answer was a whole JSON or SSE body (what it held is the
    /// JSON-RPC layer's business). `carries_answer` is false over 2024-11-05's HTTP+SSE,
    /// where responses come on the SSE stream: there only a missing answer, a redirect or
    /// a status that is not 2xx explains a silence.
    pub fn unanswered(&self, carries_answer: bool) -> Option<String> {
        let Some(status) = self.status else {
            return Some(
                self.error
                    .clone()
                    .unwrap_or_else(|| "no HTTP answer".into()),
            );
        };
        if !carries_answer && (200..300).contains(&status) {
            return None;
        }
        let media = ["application/json", "text/event-stream"];
        let why = if (300..400).contains(&status) {
            format!(
                "a {status} redirect{}, not followed (only the URL given is contacted)",
                self.location
                    .as_deref()
                    .map(|l| format!(" to {:?}", cut(l, LOCATION_HEAD)))
                    .unwrap_or_default()
            )
        } else if !(200..300).contains(&status) {
            format!("HTTP status {status}, not 2xx")
        } else if let Some(error) = &self.error {
            error.clone()
        } else if !media
            .iter()
            .any(|m| is_media(self.content_type.as_deref(), m))
        {
            format!(
                "a {status} answer of content type {}, neither application/json nor \
                 text/event-stream: no message read from it",
                self.content_type.as_deref().unwrap_or("(none)")
            )
        } else if self.body_bytes == 0 {
            format!("a {status} answer with an empty body")
        } else {
            return None;
        };
        Some(why)
    }

    /// The body's first characters, escaped (control characters, quotes) and quoted, for
    /// evidence; `None` for an empty body.
    pub fn body_text(&self) -> Option<String> {
        (!self.body_head.is_empty()).then(|| format!("{:?}", self.body_head))
    }

    /// Whether the response had a body.
    pub fn has_body(&self) -> bool {
        self.body_bytes > 0
    }
}

/// Characters of a `Location` shown.
const LOCATION_HEAD: usize = 200;

/// `text` cut to at most `max` bytes (on a character boundary), marked when cut.
fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let end = (0..=max)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}…", &text[..end])
}

pub(super) fn content_type(headers: &HeaderMap) -> Option<String> {
    headers
        .get(CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

pub(crate) fn error_text(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// Whether a content type names `essence` (parameters such as `charset` ignored).
pub fn is_media(content_type: Option<&str>, essence: &str) -> bool {
    content_type.is_some_and(|ct| {
        ct.split(';')
            .next()
            .is_some_and(|e| e.trim().eq_ignore_ascii_case(essence))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(status: Option<u16>, content_type: &str, bytes: usize) -> HttpFact {
        HttpFact {
            method: "POST",
            path: "/mcp".into(),
            carried: Carried::Request,
            rpc_method: Some("tools/list".into()),
            rpc_id: Some(serde_json::json!(3)),
            sent: Vec::new(),
            status,
            content_type: Some(content_type.to_string()).filter(|c| !c.is_empty()),
            session_id: None,
            location: None,
            body_bytes: bytes,
            body_head: String::new(),
            error: None,
        }
    }

    #[test]
    fn an_unanswered_post_says_why_in_http_terms() {
        let mut redirect = post(Some(302), "", 0);
        redirect.location = Some("/elsewhere".into());
        let mut cut = post(Some(200), "application/json", 10);
        cut.error = Some("body cut: connection closed".into());
        let mut none = post(None, "", 0);
        none.error = Some("no response headers within 2.0 s".into());
        let json = post(Some(200), "application/json", 40);
        let sse = post(Some(200), "text/event-stream", 40);
        let rows: &[(&str, &HttpFact, bool, Option<&str>)] = &[
            ("a whole JSON body", &json, true, None),
            ("an SSE body", &sse, true, None),
            (
                "a redirect",
                &redirect,
                true,
                Some(r#"a 302 redirect to "/elsewhere""#),
            ),
            (
                "a 500",
                &post(Some(500), "text/plain", 5),
                true,
                Some("status 500, not 2xx"),
            ),
            (
                "a cut body",
                &cut,
                true,
                Some("body cut: connection closed"),
            ),
            (
                "no answer",
                &none,
                true,
                Some("no response headers within 2.0 s"),
            ),
            (
                "an HTML page",
                &post(Some(200), "text/html", 50),
                true,
                Some("text/html, neither"),
            ),
            (
                "a 202 to a request",
                &post(Some(202), "application/json", 0),
                true,
                Some("empty body"),
            ),
            // HTTP+SSE: the POST's 2xx answer carries no response by design.
            (
                "HTTP+SSE 202",
                &post(Some(202), "text/plain", 8),
                false,
                None,
            ),
            ("HTTP+SSE redirect", &redirect, false, Some("302 redirect")),
            (
                "HTTP+SSE 500",
                &post(Some(500), "text/plain", 5),
                false,
                Some("status 500"),
            ),
        ];
        for (name, fact, carries, want) in rows {
            let got = fact.unanswered(*carries);
            match want {
                None => assert_eq!(got, None, "{name}"),
                Some(want) => assert!(
                    got.as_deref().is_some_and(|g| g.contains(want)),
                    "{name}: {got:?}"
                ),
            }
        }
    }

    #[test]
    fn body_text_escapes_control_characters() {
        let mut fact = post(Some(500), "text/plain", 9);
        fact.body_head = "a\u{1b}[31mb\nc\"d".into();
        assert_eq!(fact.body_text().unwrap(), r#""a\u{1b}[31mb\nc\"d""#);
    }
}
