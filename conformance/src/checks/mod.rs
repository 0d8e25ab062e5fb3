//! The check catalog: each requirement judged on the recorded exchanges.
//!
//! A check is a row of [`CATALOG`]: a stable kebab-case id, the REQUIREMENTS.md id it
//! implements, a level, the revisions it applies to, its spec source, and a judge. A
//! judge reads a [`Ctx`] (one revision's record plus what negotiation learned) and
//! returns a [`Verdict`]; it never talks to a server. Reading the catalog in order
//! should feel like reading the spec's table of contents.
//!
//! What can be judged on one message or one exchange is judged in [`crate::rules`], the
//! rule book: the judges here, the property phase, the live fuzz target and replay all ask it,
//! and a check id exists only as a [`CheckId`] of the catalog.

mod catalog;
mod edges;
mod explain;
mod http;
mod http_cause;
mod http_modern;
mod http_sse;
mod jsonrpc;
mod lifecycle;
pub mod links;
mod model;
mod modern;
mod progress;
mod property;
mod schema;
mod tools;

pub use crate::rules::{Breach, CheckId, FailureKind};
pub use catalog::{find, CATALOG};
pub use explain::{explain, explanation, Explanation};
pub use model::{
    judge_all, skip_all, Applies, Check, CheckResult, Cite, Ctx, Evidence, Grade, Level, SameCause,
    Status, Verdict,
};

#[cfg(test)]
mod tests;
