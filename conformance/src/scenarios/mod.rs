//! Scripted conversations with a server, recorded as facts for the checks.
//!
//! A scenario drives a [`Session`](crate::protocol::Session) and keeps the exchanges a
//! check will need; it never decides whether the server was right. Each revision runs in
//! a fresh server process (`revision.rs`); version negotiation needs a few extra short
//! sessions (`negotiation.rs`).

mod early;
mod edges;
mod era;
mod fuzz;
mod http;
mod listing;
mod modern;
mod negotiation;
mod policy;
mod probes;
pub mod progress;
mod property;
mod replay;
mod replay_headers;
mod revision;
pub mod slot;
mod tools;

pub use early::{Early, Listing, Pace};
pub(crate) use era::{case_line, generated_meta};
pub use fuzz::{fuzz, FuzzBudget, FuzzOutcome};
pub use listing::list_revision;
pub use modern::request_meta;
pub use negotiation::{negotiate, probe_unsupported};
pub use policy::{CallMode, CallPolicy};
pub use probes::{probe_url, probe_url_patiently, UrlKind};
pub(crate) use property::splitmix64;
pub use property::{
    runner_for, Carry, EndGuard, PlanCache, PropertyConfig, PropertyRun, TOOL_CASE_BUDGET,
};
pub use replay::{replay, ReplayOutcome};
pub use revision::{run_revision, RevisionPlan};
pub use tools::{valid_arguments, walk};

use serde_json::{json, Value};

/// A tool answer slower than this (within the timeout) is slow: a tenth of the timeout, at
/// least 1 s, far above any prompt answer even on a loaded machine. A slow tool costs its
/// latency once (its scripted call, or its first generated case), not every time. The
/// same tenth as the window a late tool call's answer still counts in
/// ([`crate::transport::late_window`]).
pub(crate) fn slow_answer(timeout: std::time::Duration) -> std::time::Duration {
    crate::transport::late_window(timeout)
}

/// The client name we announce.
pub const CLIENT_NAME: &str = "mcp-conformance";

/// `initialize` params for a requested version. We declare no client capabilities, so
/// a server must not send us sampling, roots or elicitation requests.
pub fn initialize_params(version: &str) -> Value {
    json!({
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": CLIENT_NAME, "version": env!("CARGO_PKG_VERSION")}
    })
}
