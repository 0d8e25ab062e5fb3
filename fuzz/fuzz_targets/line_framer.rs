#![no_main]
//! See `mcp_conformance::fuzzing::line_framer` for the invariant.
libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_conformance::fuzzing::line_framer(data));
