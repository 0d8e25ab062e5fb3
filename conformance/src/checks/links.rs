//! Where on the web a check's source lives: the spec page its `source` names, in the
//! revision a finding was judged in.
//!
//! Reports cite sources as the spec's file names (`tools.mdx, Error Handling`), which is
//! what a reader of the spec repository sees; a reader of a CI dashboard wants a link.
//! One table maps each file to its page, and knows which revision has which page, so a
//! finding in 2024-11-05 links to 2024-11-05's page and a page a revision lacks (tasks
//! before 2025-11-25, the split transports of 2026-07-28) falls back to the newest
//! revision that has it. SARIF rules, the Markdown report and `explain` all ask here.

use crate::protocol::{Revision, REVISIONS};

/// Where the specification lives; page links are `<SPEC_BASE>/<revision>/<page>`.
pub const SPEC_BASE: &str = "https://modelcontextprotocol.io/specification";
/// The revisions' `schema.json` files.
pub const SCHEMA_URI: &str =
    "https://github.com/modelcontextprotocol/modelcontextprotocol/tree/main/schema";
/// The JSON-RPC 2.0 specification, cited by checks that MCP inherits from it.
pub const JSONRPC_URI: &str = "https://www.jsonrpc.org/specification";
/// The revision a link uses when none is given (the newest with the handshake).
pub const DEFAULT_REVISION: &str = "2025-11-25";

const ALL: &[&str] = &[
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];
const HANDSHAKE_ERA: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const FROM_2025_03: &[&str] = &["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
const MODERN: &[&str] = &["2026-07-28"];

/// Spec files named in sources: their page under `<SPEC_BASE>/<revision>/`, and the
/// revisions that have it (as `../shared/spec/<revision>/` holds them).
const PAGES: &[(&str, &str, &[&str])] = &[
    ("index.mdx", "basic", ALL),
    ("messages.mdx", "basic/messages", &["2024-11-05"]),
    ("lifecycle.mdx", "basic/lifecycle", HANDSHAKE_ERA),
    ("transports.mdx", "basic/transports", HANDSHAKE_ERA),
    ("ping.mdx", "basic/utilities/ping", HANDSHAKE_ERA),
    ("cancellation.mdx", "basic/utilities/cancellation", ALL),
    ("progress.mdx", "basic/utilities/progress", ALL),
    ("tasks.mdx", "basic/utilities/tasks", &["2025-11-25"]),
    ("tools.mdx", "server/tools", ALL),
    ("pagination.mdx", "server/utilities/pagination", ALL),
    ("changelog.mdx", "changelog", FROM_2025_03),
    ("discover.mdx", "server/discover", MODERN),
    ("versioning.mdx", "basic/versioning", MODERN),
    ("caching.mdx", "server/utilities/caching", MODERN),
    ("mrtr.mdx", "basic/patterns/mrtr", MODERN),
    ("subscriptions.mdx", "basic/patterns/subscriptions", MODERN),
    ("stdio.mdx", "basic/transports/stdio", MODERN),
    (
        "streamable-http.mdx",
        "basic/transports/streamable-http",
        MODERN,
    ),
];

/// The web page of a check's `source` for a finding judged in `revision`: the first spec
/// file the source names, on the revision that part names (else `revision`, else the
/// newest revision that has the page); failing that the schema, then JSON-RPC 2.0. `None`
/// when the source cites only this project's policies.
pub fn spec_page(source: &str, revision: &str) -> Option<String> {
    let parts = || source.split(';').map(str::trim);
    for part in parts() {
        let (named, rest) = match part.split_once(' ') {
            Some((rev, rest)) if Revision::find(rev).is_some() => (Some(rev), rest),
            _ => (None, part),
        };
        let file = rest.split([',', ' ']).next().unwrap_or_default();
        let Some((_, page, has)) = PAGES.iter().find(|(f, ..)| *f == file) else {
            continue;
        };
        let wanted = named.unwrap_or(revision);
        let at = if has.contains(&wanted) {
            wanted
        } else {
            // The newest revision that has the page.
            REVISIONS
                .iter()
                .rev()
                .map(|r| r.id)
                .find(|r| has.contains(r))
                .unwrap_or(DEFAULT_REVISION)
        };
        return Some(format!("{SPEC_BASE}/{at}/{page}"));
    }
    if parts().any(|p| p.starts_with("schema")) {
        return Some(SCHEMA_URI.to_string());
    }
    if parts().any(|p| p.starts_with("JSON-RPC 2.0")) {
        return Some(JSONRPC_URI.to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_follow_the_file_and_the_revision() {
        let base = SPEC_BASE;
        let cases = [
            (
                "lifecycle.mdx, Version Negotiation; REQUIREMENTS.md 10 A1",
                "2025-11-25",
                format!("{base}/2025-11-25/basic/lifecycle"),
            ),
            (
                "lifecycle.mdx, Version Negotiation",
                "2024-11-05",
                format!("{base}/2024-11-05/basic/lifecycle"),
            ),
            (
                "ping.mdx, Behavior Requirements",
                "2025-06-18",
                format!("{base}/2025-06-18/basic/utilities/ping"),
            ),
            // 2026-07-28 has no ping page: the newest revision that has one.
            (
                "ping.mdx, Behavior Requirements",
                "2026-07-28",
                format!("{base}/2025-11-25/basic/utilities/ping"),
            ),
            (
                "index.mdx, Messages; schema JSONRPC*",
                "2025-11-25",
                format!("{base}/2025-11-25/basic"),
            ),
            (
                "tasks.mdx, Tool-Level Negotiation",
                "2025-03-26",
                format!("{base}/2025-11-25/basic/utilities/tasks"),
            ),
            // A revision named in the source wins over the finding's.
            (
                "2025-03-26 index.mdx, Batching; JSON-RPC 2.0, 6",
                "2025-06-18",
                format!("{base}/2025-03-26/basic"),
            ),
            (
                "streamable-http.mdx, Headers",
                "2026-07-28",
                format!("{base}/2026-07-28/basic/transports/streamable-http"),
            ),
            (
                "schema CallToolResult.isError; tools.mdx, Error Handling",
                "2024-11-05",
                format!("{base}/2024-11-05/server/tools"),
            ),
            (
                "schema.json of the negotiated revision",
                "2025-11-25",
                SCHEMA_URI.to_string(),
            ),
            (
                "JSON-RPC 2.0, 5.1; REQUIREMENTS.md 10 A2",
                "2025-11-25",
                JSONRPC_URI.to_string(),
            ),
        ];
        for (source, revision, uri) in cases {
            assert_eq!(
                spec_page(source, revision).as_deref(),
                Some(uri.as_str()),
                "{source} in {revision}"
            );
        }
        assert_eq!(spec_page("REQUIREMENTS.md 10 A2", "2025-11-25"), None);
    }

    #[test]
    fn every_revision_named_in_the_table_exists() {
        for (file, _, has) in PAGES {
            for revision in *has {
                assert!(Revision::find(revision).is_some(), "{file}: {revision}");
            }
        }
    }
}
