//! mcp-conformance: a conformance suite for Model Context Protocol servers.
//!
//! Point it at a server command, run it, and gate on the report:
//!
//! ```no_run
//! # async fn example() -> mcp_conformance::Result<()> {
//! use mcp_conformance::{render_text, run, RunConfig, ServerCommand};
//! let config = RunConfig::new(ServerCommand::new("my-mcp-server", []));
//! let report = run(&config, |_| {}).await?;
//! assert!(!report.has_failures(), "{}", render_text(&report));
//! # Ok(()) }
//! ```
//!
//! From `cargo test`, [`Suite`] turns the same run into one test per (revision, check).
//! Reports render as text, JSON, JUnit, Markdown or SARIF ([`Format`]); a [`Baseline`]
//! lists expected failures and [`GateOptions`] decide what fails the gate.
//!
//! The items above are the public API. The modules below are public only because the
//! `mcp-conformance` binary, the fuzz crate (`fuzz/`) and the suite's own tests need
//! them; they are hidden from the docs and may change in any release. The data flows one
//! way and they show it (no module names one to its right): `transport` (bytes and HTTP to
//! and from a server) -> `protocol` (JSON-RPC, revisions, schemas, the client session) ->
//! `rules` (the rule book: check ids, failure kinds, rules on one message or exchange) ->
//! `records` (what a conversation recorded, as plain data) -> `scenarios` (scripted and
//! generated conversations) -> `checks` (the catalog's judges) -> `report` (one run model,
//! several renderers); `runner` ties them together (README, "The layers").
#![deny(missing_docs)]

#[doc(hidden)]
pub mod checks;
#[doc(hidden)]
pub mod config;
mod errors;
#[doc(hidden)]
pub mod fuzzing;
#[doc(hidden)]
pub mod generate;
#[doc(hidden)]
pub mod harness;
#[doc(hidden)]
pub mod protocol;
#[doc(hidden)]
pub mod records;
#[cfg(feature = "reference")]
pub mod reference;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod rules;
#[doc(hidden)]
pub mod runner;
#[doc(hidden)]
pub mod scenarios;
#[doc(hidden)]
pub mod suggest;
/// The tool surface as a contract: schemas compared by meaning (issue 30, in progress).
pub mod surface;
#[doc(hidden)]
pub mod transport;

pub use checks::{CheckResult, Evidence, Level, Status};
pub use errors::{Error, Result};
#[cfg(feature = "harness")]
pub use harness::Suite;
pub use report::{
    render_text, to_json, to_junit, to_markdown, to_sarif, Baseline, Format, Gate, GateOptions,
    RevisionReport, RunReport, Summary,
};
pub use runner::{run, run_until, RunConfig, RunEvent};
pub use transport::{InProcessServer, ServeResult, ServerCommand};
