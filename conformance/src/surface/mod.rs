//! The tool surface as a contract (issue 30): what a server's tools promise their clients,
//! kept as a reviewed snapshot and compared with what the server lists now.
//!
//! `listing.rs` merges two walks of one revision's `tools/list` into one map of tools (what
//! the walks disagree on is marked, never snapshotted as it happened to be); `snapshot.rs`
//! is the file, with deterministic bytes; `schema.rs` compares two JSON Schemas by meaning
//! and classifies each change by the direction it flows in; `diff.rs` compares two
//! snapshots tool by tool. Nothing here talks to a server: the conversation that walks the
//! listing is `scenarios::listing`.

mod diff;
mod listing;
mod schema;
mod snapshot;

pub use diff::{diff, updated, SurfaceChange};
pub use listing::{canonical, has_varies, matches, Listing, VARIES};
pub use schema::{compare, normalize, Change, Class, Direction};
pub use snapshot::{Snapshot, FORMAT};
