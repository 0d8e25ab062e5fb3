//! The client side of one MCP session, over whichever transport its target chooses.
//!
//! A [`Session`] sends requests, waits for the response with the same id (every wait is
//! bounded by the configured timeout), answers requests the server sends us by a fixed
//! policy, and records everything in the [`Transcript`](super::Transcript). It never
//! judges: whatever the server does is recorded for the checks.
//!
//! Policy for server-to-client requests (we declare no client capabilities):
//! `ping` gets an empty result; any other method gets `-32601` (REQUIREMENTS.md
//! `RPC-ERR-METHOD-NOT-FOUND`: a method for a capability that was not declared).
//!
//! The session, file by file: `session.rs` is [`Session`]'s API (requests, pipelining,
//! raw lines, batches, notifications); `io.rs` is the loop under it (writing, reading
//! events, correlating responses with requests, answering the server's requests);
//! `shutdown.rs` ends the process; `skim.rs` and `listing.rs` keep a line too wide
//! for one tree from becoming one; `held.rs` holds identical large responses (and
//! listing tails) once; `exchange.rs` holds what a request gets back ([`Exchange`],
//! [`Reply`], [`Silence`], [`BatchExchange`]) and the [`Line`]s a pipelined write is made
//! of; `usage.rs` counts the processes and requests a part of a run costs.

mod exchange;
mod held;
mod io;
mod lag;
mod listing;
mod session;
mod shutdown;
mod skim;
mod usage;

pub use exchange::{BatchExchange, Exchange, Line, Reply, Silence};
pub use io::flood_bound;
pub use lag::STRETCH_CAP;
pub use listing::{ListingTail, TREE_TOOLS_AT_LEAST};
pub use session::{stamp_request, Session, SessionConfig};
pub use shutdown::{PendingShutdown, ShutdownOutcome};
pub(in crate::protocol) use skim::values_at_most;
pub use usage::{measured, Usage};
