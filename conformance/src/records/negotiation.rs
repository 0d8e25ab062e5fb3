//! What version negotiation learned ([`NegotiationRecord`]): each initialize that asked
//! for a version and what it was answered with, and the server's era.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::protocol::{Exchange, Transcript};

/// A version no server supports: a date before MCP existed.
pub const UNSUPPORTED_VERSION: &str = "1900-01-01";

/// One short session that only initializes.
#[derive(Debug, Clone)]
pub struct VersionProbe {
    /// The version requested.
    pub requested: String,
    /// The initialize exchange.
    pub exchange: Exchange,
    /// Its transcript.
    pub transcript: Transcript,
}

impl VersionProbe {
    /// The version answered, if initialize succeeded with a string version.
    pub fn answered(&self) -> Option<&str> {
        answered(&self.exchange)
    }
}

/// Which eras a server speaks (2026-07-28 versioning.mdx, Terminology and Compatibility
/// Matrix), as the revision runs showed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ServerEra {
    /// Only the `initialize` handshake: `server/discover` failed.
    LegacyOnly,
    /// Only per-request `_meta`: `initialize` is rejected.
    ModernOnly,
    /// Both (`M-DUAL-ERA`).
    DualEra,
}

impl ServerEra {
    /// For the report: "dual-era".
    pub fn describe(self) -> &'static str {
        match self {
            ServerEra::LegacyOnly => "legacy-only",
            ServerEra::ModernOnly => "modern-only",
            ServerEra::DualEra => "dual-era",
        }
    }
}

/// What negotiation probing learned.
#[derive(Debug, Clone, Default)]
pub struct NegotiationRecord {
    /// The server's era, when a modern revision was run (the legacy runs alone cannot
    /// tell a legacy-only server from a dual-era one).
    pub era: Option<ServerEra>,
    /// initialize with [`UNSUPPORTED_VERSION`].
    pub unsupported: Option<VersionProbe>,
    /// Extra probes for answered versions the revision runs did not ask for.
    pub probes: Vec<VersionProbe>,
    /// requested version -> answered version (`None`: no success), from every session.
    pub echoes: BTreeMap<String, Option<String>>,
}

impl NegotiationRecord {
    /// Whether the server answers `version` with itself: it supports it.
    pub fn supports(&self, version: &str) -> Option<bool> {
        self.echoes
            .get(version)
            .map(|answer| answer.as_deref() == Some(version))
    }

    /// The probe that asked for `version`, if an extra one did.
    pub fn probe_for(&self, version: &str) -> Option<&VersionProbe> {
        self.probes.iter().find(|p| p.requested == version)
    }
}

pub(crate) fn answered(exchange: &Exchange) -> Option<&str> {
    exchange
        .result()
        .and_then(|r| r.get("protocolVersion"))
        .and_then(Value::as_str)
}
