//! mcp-conformance: a conformance suite for Model Context Protocol servers.
//!
//! The data flows one way and the modules show it:
//! [`transport`] (bytes to and from a server) -> [`protocol`] (JSON-RPC, revisions,
//! schemas, the client session) -> [`scenarios`] (scripted conversations) ->
//! [`checks`] (the catalog, judging the recorded exchanges) -> [`report`] (one run
//! model, several renderers). [`runner`] ties them together.
//!
//! ```no_run
//! # async fn example() -> mcp_conformance::Result<()> {
//! use mcp_conformance::{runner, transport::ServerCommand};
//! let config = runner::RunConfig::new(ServerCommand::new("my-mcp-server", []));
//! let report = runner::run(&config, |_| {}).await?;
//! assert!(!report.has_failures(), "{}", mcp_conformance::report::render_text(&report));
//! # Ok(()) }
//! ```
#![deny(missing_docs)]

pub mod checks;
pub mod config;
mod errors;
#[doc(hidden)]
pub mod fuzzing;
#[doc(hidden)]
pub mod generate;
pub mod harness;
pub mod protocol;
pub mod report;
pub mod runner;
pub mod scenarios;
pub mod transport;

pub use errors::{Error, Result};
