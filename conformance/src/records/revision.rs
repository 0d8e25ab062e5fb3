//! What one revision's conversation recorded ([`RevisionRecord`]): the opening, pings,
//! listings, the malformed probes, shutdown, and each phase's own record; plus the fixed
//! probes the conversation sends that judges compare answers against ([`PING_IDS`]).

use std::time::Duration;

use serde_json::Value;

use super::{EdgeRecord, HttpRecord, ModernRecord, PropertyRecord, ToolsRecord};
use crate::protocol::{BatchExchange, Exchange, Revision, Transcript};
use crate::transport::ExitInfo;

/// Ids of the ping probes after the automatic integer one (`RPC-ID-ECHO`): a string with
/// a non-ASCII character, the largest integer every JSON implementation keeps exact, and a
/// string of digits (it must come back a string, not the integer it spells).
pub const PING_IDS: &[&str] = &[
    "\"conformance-ping-\u{e9}\"",
    "9007199254740991",
    "\"4242\"",
];

/// Upper bound on tools/list pages followed (`PAG-TERMINATES`).
pub const MAX_PAGES: usize = 1000;

/// How the server ended after we closed its stdin.
#[derive(Debug, Clone)]
pub struct ShutdownRecord {
    /// Its exit.
    pub exit: ExitInfo,
    /// Set when the server had already stopped talking before we closed stdin.
    pub already_ended: Option<String>,
    /// Whether it exited by itself within the grace period.
    pub voluntary: bool,
    /// How long we waited.
    pub waited: Duration,
    /// When the main session had ended before its stdin could be closed: the fresh
    /// process the shutdown was judged on instead (initialized, pinged, then its stdin
    /// closed), as its transcript.
    pub fresh: Option<crate::protocol::Transcript>,
}

/// Everything one revision's conversation produced.
#[derive(Debug, Clone)]
pub struct RevisionRecord {
    /// The revision we asked for.
    pub requested: &'static Revision,
    /// The opening exchange: `initialize`, or `server/discover` in the modern era.
    pub initialize: Exchange,
    /// `result.protocolVersion` when it was a string.
    pub negotiated: Option<String>,
    /// Why the conversation stopped after initialize, when it did.
    pub stopped: Option<String>,
    /// Transcript seq of our `notifications/initialized`.
    pub initialized_seq: Option<usize>,
    /// Ping probes: automatic integer id first, then [`PING_IDS`].
    pub pings: Vec<Exchange>,
    /// A batch of two pings, in revisions that have batches (2025-03-26).
    pub batch: Option<BatchExchange>,
    /// tools/list pages, following `nextCursor`.
    pub tools_pages: Vec<Exchange>,
    /// Why the tools/list walk stopped early, if it did (repeated cursor, page cap).
    pub tools_walk_stopped: Option<String>,
    /// The Tools conversation, when the server declares the tools capability.
    pub tools: Option<ToolsRecord>,
    /// An unknown method.
    pub unknown_method: Option<Exchange>,
    /// A request object without `method`.
    pub invalid_request: Option<Exchange>,
    /// A line that is not JSON.
    pub parse_error: Option<Exchange>,
    /// A ping after the malformed probes.
    pub ping_after_malformed: Option<Exchange>,
    /// The edge probes (a short session of their own, and a few fenced ones in this one).
    pub edges: EdgeRecord,
    /// The shutdown sequence.
    pub shutdown: Option<ShutdownRecord>,
    /// The property phase (its own server processes), unless disabled.
    pub properties: Option<PropertyRecord>,
    /// What only a modern (2026-07-28) conversation records.
    pub modern: Option<ModernRecord>,
    /// What only a Streamable HTTP conversation records (`None` over stdio).
    pub http: Option<HttpRecord>,
    /// The server ran inside this process: it has no process, so the checks of rules
    /// about one skip.
    pub in_process: bool,
    /// Everything exchanged.
    pub transcript: Transcript,
    /// How long each phase took.
    pub phases: PhaseTimes,
}

/// Wall time of a revision's phases, for the report's timing section.
#[derive(Debug, Clone, Copy, Default)]
pub struct PhaseTimes {
    /// The scripted conversation, shutdown included.
    pub scripted: Duration,
    /// The property phase (zero when it did not run).
    pub properties: Duration,
}

impl RevisionRecord {
    /// Every exchange of ours that expected a response, in order.
    pub fn exchanges(&self) -> impl Iterator<Item = &Exchange> {
        std::iter::once(&self.initialize)
            .chain(&self.pings)
            .chain(self.batch.iter().map(|b| &b.fence))
            .chain(&self.tools_pages)
            .chain(self.tools.iter().flat_map(|t| {
                t.second_walk
                    .iter()
                    .chain(&t.invalid_cursor)
                    .chain(t.calls.iter().filter_map(|c| c.exchange.as_ref()))
                    .chain(
                        t.invalid_arguments
                            .iter()
                            .filter_map(|c| c.exchange.as_ref()),
                    )
                    .chain(&t.unknown_tool)
                    .chain(&t.malformed)
                    .chain(
                        t.arguments_type
                            .iter()
                            .chain(&t.arguments_omitted)
                            .chain(&t.arguments_empty)
                            .chain(t.progress.iter().map(|p| &p.call))
                            .filter_map(|c| c.exchange.as_ref()),
                    )
                    .chain(&t.params_forms)
                    .chain(t.progress.iter().map(|p| &p.fence))
            }))
            .chain(&self.unknown_method)
            .chain(&self.invalid_request)
            .chain(&self.parse_error)
            .chain(&self.ping_after_malformed)
            .chain(
                self.edges
                    .cancel
                    .iter()
                    .flat_map(|c| [&c.finished, &c.fence]),
            )
            .chain(
                [&self.edges.empty_batch, &self.edges.notification_batch]
                    .into_iter()
                    .flatten()
                    .map(|b| &b.fence),
            )
    }

    /// The opening result (initialize's, or server/discover's), when it succeeded.
    pub fn init_result(&self) -> Option<&Value> {
        self.initialize.result()
    }

    /// Whether the server declared the tools capability.
    pub fn declares_tools(&self) -> bool {
        self.init_result()
            .and_then(|r| r.pointer("/capabilities/tools"))
            .is_some_and(Value::is_object)
    }
}

/// A raw line that is not JSON (truncated in the middle of an object).
pub const MALFORMED_JSON: &str = r#"{"jsonrpc": "2.0", "method": "ping", "id": "#;
