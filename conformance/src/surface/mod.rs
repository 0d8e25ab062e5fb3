//! The tool surface as a contract (issue 30, work in progress): what a server's tools
//! promise their clients, and how a change to it meets them. `schema.rs` compares two JSON
//! Schemas by meaning and classifies each change by the direction it flows in (a tool's
//! input, which clients send; its output, which clients read).

mod schema;

pub use schema::{compare, normalize, Change, Class, Direction};
