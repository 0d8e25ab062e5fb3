#![no_main]
//! See `mcp_conformance::fuzzing::live_server`: set MCP_FUZZ_SERVER to the server command,
//! and MCP_FUZZ_COVERAGE=1 to guide libFuzzer by a Python or Node server's own coverage.

use std::sync::atomic::AtomicU8;

use mcp_conformance::fuzzing::coverage::EDGES;

// The harness builds many small JSON values per case; mimalloc keeps their cost low (the
// throughput figures in fuzz/README.md are measured with it).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The server's edge counters (MCP_FUZZ_COVERAGE=1), where libFuzzer reads counters of its
/// own besides the target's instrumentation.
#[link_section = "__libfuzzer_extra_counters"]
static COUNTERS: [AtomicU8; EDGES] = [const { AtomicU8::new(0) }; EDGES];

libfuzzer_sys::fuzz_target!(
    init: mcp_conformance::fuzzing::live_server_init(),
    |data: &[u8]| mcp_conformance::fuzzing::live_server_counted(data, &COUNTERS)
);
