#![no_main]
//! Framing of server stdout is independent of read boundaries and bounded by the cap.
libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::fuzzing::line_framer(data));
