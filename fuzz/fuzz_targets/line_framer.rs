#![no_main]
//! See `conformance::fuzzing::line_framer` for the invariant.
libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::fuzzing::line_framer(data));
