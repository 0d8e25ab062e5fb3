#![no_main]
//! See `conformance::fuzzing::live_server`: set MCP_FUZZ_SERVER to the server command.
libfuzzer_sys::fuzz_target!(
    init: conformance::fuzzing::live_server_init(),
    |data: &[u8]| conformance::fuzzing::live_server(data)
);
