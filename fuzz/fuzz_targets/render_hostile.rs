#![no_main]
//! See `mcp_conformance::fuzzing::render_hostile` for the invariant.
libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_conformance::fuzzing::render_hostile(data));
