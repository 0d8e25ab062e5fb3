//! The check catalog: each requirement judged on the recorded exchanges.
//!
//! A check is a row of [`CATALOG`]: a stable kebab-case id, the REQUIREMENTS.md id it
//! implements, a level, the revisions it applies to, its spec source, and a judge. A
//! judge reads a [`Ctx`] (one revision's record plus what negotiation learned) and
//! returns a [`Verdict`]; it never talks to a server. Reading the catalog in order
//! should feel like reading the spec's table of contents.

mod catalog;
mod explain;
mod jsonrpc;
mod lifecycle;
mod model;
mod property;
mod schema;
mod tools;

pub use catalog::{find, CATALOG};
pub use explain::{explain, Explanation};
pub use model::{judge_all, Applies, Check, CheckResult, Ctx, Evidence, Level, Status, Verdict};
pub(crate) use schema::result_definition;
