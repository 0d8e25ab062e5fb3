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
    init: mcp_conformance::fuzzing::in_process_init(server),
    |data: &[u8]| mcp_conformance::fuzzing::in_process_server(data, server)
);

/// A tiny conformant rmcp server (one tool, `greet`): the example to replace. It must give
/// no finding, whatever the inputs.
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
