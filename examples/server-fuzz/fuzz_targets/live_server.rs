#![no_main]
//! Coverage-guided fuzzing of a running MCP server over stdio: each input becomes one to four
//! JSON-RPC lines (mostly `tools/call` with arguments generated from the tool's
//! `inputSchema`), and an oracle of the spec's MUSTs judges the answers.
//!
//! Environment (read once, before the first input):
//! - `MCP_FUZZ_SERVER`: the server command, split on whitespace (required);
//! - `MCP_FUZZ_REVISION`: the protocol revision (default: the newest);
//! - `MCP_FUZZ_TIMEOUT`: seconds per request (default 2);
//! - `MCP_FUZZ_CALL`: `all`, `read-only` or `none` (which tools may be called; default `all`);
//! - `MCP_FUZZ_DENY`: comma-separated globs of tools never called;
//! - `MCP_FUZZ_CASES`: folder for case files (default `live-cases`);
//! - `MCP_FUZZ_IGNORE`: comma-separated check ids whose findings are known and not
//!   reported (an SDK's bug you cannot fix here, e.g. `rpc-error-id`).

libfuzzer_sys::fuzz_target!(
    init: mcp_conformance::fuzzing::live_server_init(),
    |data: &[u8]| mcp_conformance::fuzzing::live_server(data)
);
