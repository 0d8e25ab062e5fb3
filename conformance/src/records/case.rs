//! The replayable case file: a failing case, minimal, written out message by message so
//! `mcp-conformance replay` sends exactly the same bytes again.
//!
//! It is a file format, kept apart from the phase that fills it: the property phase and
//! the live fuzz target fill it, the runner saves it, replay reads it, and a saved file
//! must keep reading the same.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::protocol::Revision;
use crate::rules::FailureKind;
use crate::transport::{Annotation, ServerCommand};

/// One message of a replayable case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseMessage {
    /// The JSON-RPC message to send (null when `raw` is set).
    #[serde(default)]
    pub send: Value,
    /// A malformed frame to send instead, byte for byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawFrame>,
    /// Sent in the same write as the next message (pipelining), not waited for.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pipelined: bool,
}

/// The bytes of a malformed frame in a case file: as text when they are UTF-8 (readable),
/// else as hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawFrame {
    /// UTF-8 text.
    Text(String),
    /// Any bytes, two hex digits each.
    Hex(String),
}

impl RawFrame {
    /// The frame for `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        match std::str::from_utf8(bytes) {
            Ok(text) => RawFrame::Text(text.to_string()),
            Err(_) => RawFrame::Hex(bytes.iter().map(|b| format!("{b:02x}")).collect()),
        }
    }

    /// The bytes (hex digits that do not pair up are dropped).
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            RawFrame::Text(text) => text.as_bytes().to_vec(),
            RawFrame::Hex(hex) => hex
                .as_bytes()
                .chunks_exact(2)
                .filter_map(|pair| {
                    let pair = std::str::from_utf8(pair).ok()?;
                    u8::from_str_radix(pair, 16).ok()
                })
                .collect(),
        }
    }
}

impl CaseMessage {
    /// A JSON-RPC message.
    pub fn message(send: Value, pipelined: bool) -> Self {
        Self {
            send,
            raw: None,
            pipelined,
        }
    }

    /// The line this message sends.
    pub fn line(&self) -> crate::protocol::Line {
        match &self.raw {
            Some(raw) => crate::protocol::Line::Raw(raw.bytes()),
            None => crate::protocol::Line::Message(self.send.clone()),
        }
    }
}

/// A failing case, minimal, as a file `mcp-conformance replay` repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseFile {
    /// Format marker.
    pub mcp_conformance_case: u32,
    /// The check that failed.
    pub check: String,
    /// The protocol revision negotiated.
    pub revision: String,
    /// Seed of the run that found it.
    pub seed: u64,
    /// What the case is.
    pub description: String,
    /// The failure seen.
    pub kind: FailureKind,
    /// The server command of the run (replay may override it).
    pub command: ServerCommand,
    /// Messages to send, in order: the handshake (none in 2026-07-28, whose requests carry
    /// the per-request `_meta`), then the case.
    pub messages: Vec<CaseMessage>,
    /// Seconds per request of the run that found it (replay's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<f64>,
    /// The called tool's `outputSchema`, for a finding about `structuredContent`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Over 2026-07-28 HTTP: the `x-mcp-header` annotations of the tools the case calls,
    /// by tool name, as the run learned them from `tools/list`, so that replay sends the
    /// same `Mcp-Param-*` headers without listing the tools first (streamable-http.mdx,
    /// Custom Headers from Tool Parameters).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tool_headers: BTreeMap<String, Vec<Annotation>>,
}

impl CaseFile {
    /// The annotations `command`'s server listed for the tools `messages` call: empty
    /// unless `revision` is modern and the server is reached over HTTP (only there does a
    /// `tools/call` mirror its arguments into headers).
    pub fn tool_headers_of(
        command: &ServerCommand,
        revision: &Revision,
        messages: &[CaseMessage],
    ) -> BTreeMap<String, Vec<Annotation>> {
        let url = command.http.as_ref().and_then(|t| t.parsed_url().ok());
        let Some(url) = url.filter(|_| revision.modern()) else {
            return BTreeMap::new();
        };
        let learned = crate::transport::learned_tool_headers(url.as_str());
        messages
            .iter()
            .filter(|m| m.send.get("method").and_then(Value::as_str) == Some("tools/call"))
            .filter_map(|m| m.send.pointer("/params/name").and_then(Value::as_str))
            .filter(|tool| !learned.of(tool).is_empty())
            .map(|tool| (tool.to_string(), learned.of(tool).to_vec()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::HttpTarget;
    use serde_json::json;

    #[test]
    fn a_modern_http_case_keeps_the_annotations_of_the_tools_it_calls() {
        let url = "http://127.0.0.1:9/case-test";
        let annotation = Annotation {
            header: "Region".into(),
            path: vec!["region".into()],
        };
        crate::transport::teach_tool_headers(url, "query", std::slice::from_ref(&annotation));
        crate::transport::teach_tool_headers(url, "other", std::slice::from_ref(&annotation));
        let command = ServerCommand {
            http: Some(HttpTarget {
                url: url.into(),
                ..HttpTarget::default()
            }),
            ..ServerCommand::default()
        };
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "query", "arguments": {"region": "eu"}}});
        let messages = vec![CaseMessage::message(call, false)];
        let modern = Revision::named("2026-07-28").expect("known");
        let legacy = Revision::named("2025-11-25").expect("known");
        let kept = CaseFile::tool_headers_of(&command, modern, &messages);
        assert_eq!(
            kept,
            BTreeMap::from([("query".to_string(), vec![annotation])])
        );
        // Only a modern request mirrors arguments, and only over HTTP.
        assert!(CaseFile::tool_headers_of(&command, legacy, &messages).is_empty());
        let stdio = ServerCommand::new("server", Vec::new());
        assert!(CaseFile::tool_headers_of(&stdio, modern, &messages).is_empty());
    }
}
