//! What the edge probes recorded ([`EdgeRecord`]): malformed initialize requests, a
//! ping before `initialized`, empty and notification-only batches, cancellations, an id
//! of the wrong type.

use crate::protocol::{BatchExchange, Exchange, Transcript};

/// What the edge probes recorded; each part is `None` when it was not sent.
#[derive(Debug, Clone, Default)]
pub struct EdgeRecord {
    /// The short session: malformed initialize, then ping before `initialized`.
    pub early: Option<EarlySession>,
    /// `[]`, in revisions with batches.
    pub empty_batch: Option<BatchExchange>,
    /// A batch of two notifications, in revisions with batches.
    pub notification_batch: Option<BatchExchange>,
    /// Cancellations that must be ignored.
    pub cancel: Option<CancelProbe>,
    /// A ping whose id is `true`: neither a string nor an integer (MCP), nor a string,
    /// number or null (JSON-RPC 2.0), so not a valid Request object (section 10 A3).
    pub bad_id: Option<Exchange>,
}

/// One malformed initialize and its answer.
#[derive(Debug, Clone)]
pub struct MalformedInit {
    /// What is wrong with its params ("params left out").
    pub what: &'static str,
    /// The exchange.
    pub exchange: Exchange,
}

/// The short session of the early probes.
#[derive(Debug, Clone)]
pub struct EarlySession {
    /// Malformed initialize requests, in order, until one was not refused with an error.
    pub malformed: Vec<MalformedInit>,
    /// The well-formed initialize sent after every malformed one was refused.
    pub initialize: Option<Exchange>,
    /// The ping sent after a successful initialize, before `notifications/initialized`.
    pub ping: Option<Exchange>,
    /// The whole session.
    pub transcript: Transcript,
}

impl EarlySession {
    /// The initialize that succeeded (a malformed one answered leniently, or the
    /// well-formed one), if one did.
    pub fn initialized(&self) -> Option<&Exchange> {
        self.malformed
            .iter()
            .map(|m| &m.exchange)
            .chain(&self.initialize)
            .find(|x| x.result().is_some())
    }
}

/// Cancellations the server must ignore, and the ping behind them.
#[derive(Debug, Clone)]
pub struct CancelProbe {
    /// A ping, answered before its cancellation was sent.
    pub finished: Exchange,
    /// Transcript seqs of the cancellation of `finished` and of a malformed one.
    pub notifications: Vec<usize>,
    /// The ping sent after them.
    pub fence: Exchange,
    /// One past the last transcript seq of the probe (the fence's grace included).
    pub end: usize,
}

impl CancelProbe {
    /// Whether transcript entry `seq` came while the probe ran (after its cancellations).
    pub fn covers(&self, seq: usize) -> bool {
        self.notifications.first().is_some_and(|&first| seq > first) && seq < self.end
    }
}

/// A notification method no revision defines: a batch of these must get no answer at all.
pub const UNKNOWN_NOTIFICATION: &str = "notifications/conformance/none";
