#![no_main]
//! See `conformance::fuzzing::schema_verdict` for the invariant.
libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::fuzzing::schema_verdict(data));
