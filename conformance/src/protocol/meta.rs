//! The `_meta` keys MCP reserves (index.mdx, `_meta`; 2026-07-28's per-request protocol
//! fields): named once here, beneath the scenarios that write them and the rules that
//! read them.

/// The `_meta` key of the protocol version (index.mdx, Per-request protocol fields).
pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key of the client's capabilities.
pub const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// The `_meta` key of the client's identity.
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// The `_meta` key a server identifies itself with in results.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// The `_meta` key that ties a notification to its subscription.
pub const META_SUBSCRIPTION: &str = "io.modelcontextprotocol/subscriptionId";
