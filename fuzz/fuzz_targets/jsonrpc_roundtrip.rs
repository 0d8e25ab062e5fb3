#![no_main]
//! See `conformance::fuzzing::jsonrpc_roundtrip` for the invariant.
libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::fuzzing::jsonrpc_roundtrip(data));
