//! What only a 2026-07-28 conversation records ([`ModernRecord`]): the era the opening
//! showed, requests with wrong metadata, the subscription and multi round-trip probes,
//! and the stateless walks.

use serde_json::Value;

use crate::protocol::{Exchange, Transcript};

/// The id of our `subscriptions/listen` request.
pub const LISTEN_ID: &str = "conformance-listen";

/// Client capabilities a tool may ask for through an `InputRequiredResult`
/// (mrtr.mdx, Server Requirements: elicitation, sampling, roots).
pub const INPUT_CAPABILITIES: &[&str] = &["elicitation", "sampling", "roots"];

/// What the opening `server/discover` told about the server's era.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EraFinding {
    /// A `DiscoverResult` listing this revision.
    Modern,
    /// `server/discover` failed, but a modern `tools/list` got a modern result.
    ModernWithoutDiscover,
    /// A modern server that does not offer this revision: the versions it named.
    OtherVersions(Vec<String>),
    /// Not a modern server: what it answered.
    Legacy(String),
}

impl EraFinding {
    /// Whether the revision's conversation goes on.
    pub fn speaks(&self) -> bool {
        matches!(self, EraFinding::Modern | EraFinding::ModernWithoutDiscover)
    }
}

/// The `subscriptions/listen` probe.
#[derive(Debug, Clone)]
pub struct SubscriptionProbe {
    /// Transcript seq of the listen request.
    pub listen_seq: usize,
    /// The liveness request after it (the acknowledgment comes before its answer).
    pub fence: Exchange,
    /// Transcript seq of our `notifications/cancelled` for it.
    pub cancel_seq: usize,
    /// The liveness request after the cancellation.
    pub after_cancel: Exchange,
}

/// A multi round-trip probe: a tool that asked for a client capability, called again
/// declaring it, then retried with our answers.
#[derive(Debug, Clone)]
pub struct MrtrProbe {
    /// The tool.
    pub tool: String,
    /// The capabilities declared for it.
    pub declared: Value,
    /// The call declaring them.
    pub call: Exchange,
    /// The retry carrying `inputResponses` (and `requestState`), when the call asked for
    /// input.
    pub retry: Option<Exchange>,
}

/// What only a modern conversation records.
#[derive(Debug, Clone)]
pub struct ModernRecord {
    /// The server's era, as the opening showed it.
    pub era: EraFinding,
    /// The modern `tools/list` sent when `server/discover` failed.
    pub list_probe: Option<Exchange>,
    /// Requests missing a required `_meta` field: the field, and the exchange.
    pub meta_missing: Vec<(&'static str, Exchange)>,
    /// A request whose `_meta` has no `clientInfo`, which is optional.
    pub client_info_absent: Option<Exchange>,
    /// A request for an unsupported version.
    pub unsupported_version: Option<Exchange>,
    /// `ping`, removed in this revision.
    pub ping: Option<Exchange>,
    /// The subscription probe, when the server offers tool-list changes.
    pub subscription: Option<SubscriptionProbe>,
    /// Multi round-trip probes.
    pub mrtr: Vec<MrtrProbe>,
    /// A walk of `tools/list` on this process after every other request (`M-STATELESS`
    /// compares it with the fresh process's walk).
    pub late_walk: Vec<Exchange>,
    /// A walk of `tools/list` on a fresh process, and that process's transcript.
    pub fresh_walk: Option<(Vec<Exchange>, Transcript)>,
    /// A legacy `initialize` on a fresh process, and that process's transcript.
    pub initialize: Option<(Exchange, Transcript)>,
}
