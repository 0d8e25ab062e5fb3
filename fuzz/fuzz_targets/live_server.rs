#![no_main]
//! See `mcp_conformance::fuzzing::live_server`: set MCP_FUZZ_SERVER to the server command.

// The harness builds many small JSON values per case; mimalloc keeps their cost low (the
// throughput figures in fuzz/README.md are measured with it).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

libfuzzer_sys::fuzz_target!(
    init: mcp_conformance::fuzzing::live_server_init(),
    |data: &[u8]| mcp_conformance::fuzzing::live_server(data)
);
