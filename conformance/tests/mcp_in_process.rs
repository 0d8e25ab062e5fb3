//! The reference server through the libtest harness linked in-process, as the README tells
//! the author of a Rust server to write `tests/mcp.rs`: no binary built or spawned, one
//! test per (revision, check), the checks about a process ignored with their reason.

use std::process::ExitCode;

use mcp_conformance::Suite;

fn main() -> ExitCode {
    let server = mcp_conformance::reference::in_process(None, Default::default());
    Suite::in_process(server).run_tests()
}
