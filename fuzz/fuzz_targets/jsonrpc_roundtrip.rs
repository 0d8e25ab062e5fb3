#![no_main]
//! See `mcp_conformance::fuzzing::jsonrpc_roundtrip` for the invariant.
libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_conformance::fuzzing::jsonrpc_roundtrip(data));
