#![no_main]
//! See `conformance::fuzzing::render_hostile` for the invariant.
libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::fuzzing::render_hostile(data));
