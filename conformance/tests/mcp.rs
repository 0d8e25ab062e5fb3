//! The reference server through the libtest harness, written exactly as the README tells
//! a server author to write `tests/mcp.rs`: one test per (revision, check), so
//! `cargo test --test mcp -- tool-name` filters and `-- --list` lists.

use std::process::ExitCode;

use mcp_conformance::ServerCommand;
use mcp_conformance::Suite;

fn main() -> ExitCode {
    let server = ServerCommand::new(
        env!("CARGO_BIN_EXE_mcp-conformance"),
        ["reference-server".to_string()],
    );
    Suite::new(server).run_tests()
}
