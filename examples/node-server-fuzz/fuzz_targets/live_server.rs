#![no_main]
//! Coverage-guided fuzzing of a Node MCP server over stdio: each input becomes one to
//! four JSON-RPC lines (mostly `tools/call` with arguments generated from the tool's
//! `inputSchema`), an oracle of the spec's MUSTs judges the answers, and the server's own
//! line and branch counts (the coverage agent of `mcp-conformance fuzz --coverage`, loaded
//! into the server through its environment) reach libFuzzer as extra counters, so inputs that
//! reach new code in your server are kept.
//!
//! The defaults below hold wherever the target runs (ClusterFuzzLite sets no variables of
//! ours); a variable that is set overrides one: `MCP_FUZZ_SERVER`, `MCP_FUZZ_COVERAGE`,
//! `MCP_FUZZ_COVERAGE_INCLUDE` (folders counted besides your own files), `MCP_FUZZ_REVISION`,
//! `MCP_FUZZ_TIMEOUT`, `MCP_FUZZ_CALL`, `MCP_FUZZ_DENY`, `MCP_FUZZ_CASES`, `MCP_FUZZ_IGNORE`.

use std::sync::atomic::AtomicU8;

use mcp_conformance::fuzzing::coverage::EDGES;

/// Where clusterfuzzlite/build.sh puts your server: in `server/` beside this binary
/// (`{exe_dir}`), with its dependencies. Name your entry point here.
const SETTINGS: &[(&str, &str)] = &[
    ("MCP_FUZZ_SERVER", "{exe_dir}/server/node {exe_dir}/server/dist/index.js"),
    ("MCP_FUZZ_COVERAGE", "1"),
];

/// The server's edge counters, where libFuzzer reads counters of its own.
#[link_section = "__libfuzzer_extra_counters"]
static COUNTERS: [AtomicU8; EDGES] = [const { AtomicU8::new(0) }; EDGES];

libfuzzer_sys::fuzz_target!(
    init: mcp_conformance::fuzzing::live_server_init_with(SETTINGS),
    |data: &[u8]| mcp_conformance::fuzzing::live_server_counted(data, &COUNTERS)
);
