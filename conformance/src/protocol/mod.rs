//! JSON-RPC envelope, MCP revisions as data, schema validation, and the client session.
//!
//! This layer turns transport frames into classified messages, correlates responses
//! with our requests by exact id, answers the server's own requests by a fixed policy,
//! and records everything in a transcript that checks later judge.

mod client;
mod jsonrpc;
mod meta;
mod pointer;
mod revision;
mod schema;
mod transcript;

pub use client::{
    flood_bound, measured, stamp_request, BatchExchange, Exchange, Line, ListingTail,
    PendingShutdown, Reply, Session, SessionConfig, ShutdownOutcome, Silence, Usage, STRETCH_CAP,
    TREE_TOOLS_AT_LEAST,
};
pub use jsonrpc::{classify, id_match, IdMatch, MessageKind};
pub use meta::{
    META_CAPABILITIES, META_CLIENT_INFO, META_SERVER_INFO, META_SUBSCRIPTION, META_VERSION,
};
pub use pointer::{pointer_name, pointer_token, string_items};
pub use revision::TransportKind;
pub use revision::{Era, ErrorClass, Rev, Revision, REVISIONS};
pub use schema::{result_definition, result_definition_of, SchemaSet, SchemaViolation};
pub use transcript::{
    cut as cut_text, thousands, Direction, Entry, FrameProblem, Tally, Transcript, Unprompted,
};
