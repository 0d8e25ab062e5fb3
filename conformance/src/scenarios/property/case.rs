//! The replayable case file: a failing case, minimal, written out message by message so
//! `mcp-conformance replay` sends exactly the same bytes again.
//!
//! It is a file format, kept apart from the phase that fills it: the property phase and
//! the live fuzz target fill it, the runner saves it, replay reads it, and a saved file
//! must keep reading the same.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::FailureKind;
use crate::transport::ServerCommand;

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
}
