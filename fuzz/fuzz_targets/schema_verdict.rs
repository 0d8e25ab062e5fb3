#![no_main]
//! See `mcp_conformance::fuzzing::schema_verdict` for the invariant.
libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_conformance::fuzzing::schema_verdict(data));
