//! Property-generated conversations: arguments, ids, method names, cursors and request
//! sequences drawn from proptest strategies, with a fixed seed, shrinking and replay.
//!
//! Scripted scenarios find what we thought of; these find what we did not. Every case
//! is one request (plus a liveness ping) in a session of the phase's own server process
//! (one a scripted probe left healthy, when there is one), which is restarted whenever a
//! case kills it. A failing case is shrunk by the one shrinker (`crate::generate::shrink`)
//! to the smallest input that fails the same way, confirmed once more in a fresh process,
//! and kept as a [`CaseFile`] that `mcp-conformance replay` repeats exactly; the next
//! revision of the run tries that minimal case first (`carry.rs`).
//!
//! Determinism: each property draws from its own RNG, seeded from the run's seed and the
//! property's label (tool name, rule), so adding a tool does not change another's cases.
//!
//! The phase, file by file: `run.rs` plans the cases and walks them; `env.rs` keeps the
//! server's sessions and evaluates one case (judged by the rule book,
//! [`crate::rules`]); `shrink.rs` minimises a failing case and confirms it;
//! `sequences.rs` sends the fixed pipelining and cancellation sequences; `seeds.rs` makes
//! the seeded runners and the id, method and cursor strategies; the replayable
//! case file and what the phase hands back are records (`crate::records`).

mod carry;
mod env;
mod plan;
mod run;
mod seeds;
mod sequences;
mod shrink;
mod validators;

pub use carry::{Carry, EndGuard};
pub use plan::{PlanCache, TOOL_CASE_BUDGET};
pub use run::{PropertyConfig, PropertyRun};
pub use seeds::runner_for;
pub(crate) use seeds::splitmix64;
