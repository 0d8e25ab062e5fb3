#![no_main]
//! Coverage-guided fuzzing of a Rust MCP server linked into this process: each input becomes
//! one to four JSON-RPC lines, written to a fresh server instance over an in-memory pipe, and
//! the same oracle as `live_server` judges the answers. libFuzzer sees the coverage and the
//! comparisons of the server's own code, so it steers towards the branches of your tools; a
//! panic in the server is a crash, saved with its input.
//!
//! The example server below stands in for yours: replace `server()`'s body with your
//! server's constructor (your crate as a dependency in Cargo.toml), e.g.
//! `InProcessServer::new("my-server", my_server::serve)` for an
//! `async fn serve(stream: DuplexStream) -> Result<(), Box<dyn Error + Send + Sync>>`.
//!
//! Give libFuzzer your server's constants (`mcp-conformance fuzz-dict src >
//! fuzz/server.dict`, then `-- -dict=server.dict`): it cannot learn them from the server's
//! comparisons alone (README, "Fuzzing").
//!
//! Environment: the `MCP_FUZZ_*` variables of `live_server` (revision, timeout, which tools
//! are called, case folder), except `MCP_FUZZ_SERVER`.

use mcp_conformance::InProcessServer;

/// Defaults for the `MCP_FUZZ_*` variables, written here so they hold wherever the target
/// runs (ClusterFuzzLite sets no variables of ours); a variable that is set overrides its
/// default. These two are the example's SDK's (rmcp 3.11), not the example's: REPLACE or
/// drop them with the server.
const SETTINGS: &[(&str, &str)] = &[
    // rmcp answers a malformed request whose id it could read with an error without that
    // id (a MUST of JSON-RPC): the fuzzer finds it on any rmcp server, so pass over it and
    // go on to what is new. Every other finding still ends the run.
    ("MCP_FUZZ_IGNORE", "rpc-error-id"),
    // rmcp serves the stateless 2026-07-28, the default revision, but ends the session on a
    // `notifications/cancelled` there ("ExpectedInitializeRequest"): fuzz 2025-11-25.
    ("MCP_FUZZ_REVISION", "2025-11-25"),
];

/// The server fuzzed: REPLACE THIS with your server's constructor.
fn server() -> InProcessServer {
    InProcessServer::new("example", |stream: tokio::io::DuplexStream| async move {
        use rmcp::ServiceExt;
        let running = example::Example::new().serve(stream).await?;
        running.waiting().await?;
        Ok(())
    })
}

libfuzzer_sys::fuzz_target!(
    init: mcp_conformance::fuzzing::in_process_init_with(server, SETTINGS),
    |data: &[u8]| mcp_conformance::fuzzing::in_process_server(data, server)
);

/// A tiny rmcp server (one tool, `greet`): the example to replace. Fuzzed with `SETTINGS`
/// (rmcp's rpc-error-id passed over, 2025-11-25), it gives no finding, whatever the inputs
/// (CI replays its seeds and generated inputs); under `mcp-conformance run` it fails
/// rpc-error-id, and rpc-batch in 2025-03-26, both rmcp's (README, "In `cargo test`", on a
/// baseline for them).
mod example {
    use rmcp::{
        handler::server::{router::tool::ToolRouter, wrapper::Parameters},
        tool, tool_handler, tool_router, ServerHandler,
    };
    use schemars::JsonSchema;
    use serde::Deserialize;

    /// Arguments of `greet`.
    #[derive(Deserialize, JsonSchema)]
    pub struct GreetArgs {
        /// Who to greet.
        name: String,
    }

    #[derive(Clone)]
    pub struct Example {
        tool_router: ToolRouter<Self>,
    }

    #[tool_router]
    impl Example {
        pub fn new() -> Self {
            Self {
                tool_router: Self::tool_router(),
            }
        }

        #[tool(description = "Greet someone by name")]
        async fn greet(&self, Parameters(args): Parameters<GreetArgs>) -> String {
            format!("Hello, {}!", args.name)
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Example {}
}
