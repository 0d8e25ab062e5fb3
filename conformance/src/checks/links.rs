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
/// The revision a link uses when none is given: the newest with the handshake.
pub fn default_revision() -> &'static str {
    Revision::newest_legacy().id
}

/// Spec files named in sources, and their page under `<SPEC_BASE>/<revision>/`. Which
/// revisions have a page is a fact of the revision ([`Revision::spec_pages`]).
const PAGES: &[(&str, &str)] = &[
    ("index.mdx", "basic"),
    ("messages.mdx", "basic/messages"),
    ("lifecycle.mdx", "basic/lifecycle"),
    ("transports.mdx", "basic/transports"),
    ("ping.mdx", "basic/utilities/ping"),
    ("cancellation.mdx", "basic/utilities/cancellation"),
    ("progress.mdx", "basic/utilities/progress"),
    ("tasks.mdx", "basic/utilities/tasks"),
    ("tools.mdx", "server/tools"),
    ("pagination.mdx", "server/utilities/pagination"),
    ("changelog.mdx", "changelog"),
    ("discover.mdx", "server/discover"),
    ("versioning.mdx", "basic/versioning"),
    ("caching.mdx", "server/utilities/caching"),
    ("mrtr.mdx", "basic/patterns/mrtr"),
    ("subscriptions.mdx", "basic/patterns/subscriptions"),
    ("stdio.mdx", "basic/transports/stdio"),
    ("streamable-http.mdx", "basic/transports/streamable-http"),
];

/// Whether revision `id` has the spec file `file`.
fn has(id: &str, file: &str) -> bool {
    Revision::find(id).is_some_and(|r| r.spec_pages.contains(&file))
}

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
        let Some((_, page)) = PAGES.iter().find(|(f, _)| *f == file) else {
            continue;
        };
        let wanted = named.unwrap_or(revision);
        let at = if has(wanted, file) {
            wanted
        } else {
            // The newest revision that has the page.
            REVISIONS
                .iter()
                .rev()
                .map(|r| r.id)
                .find(|r| has(r, file))
                .unwrap_or_else(default_revision)
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
    fn every_page_a_revision_has_has_a_link_and_is_the_spec_folders() {
        for revision in REVISIONS {
            for file in revision.spec_pages {
                assert!(
                    PAGES.iter().any(|(f, _)| f == file),
                    "{} lists {file}, which has no page link",
                    revision.id
                );
            }
            // The spec folders beside the repository (`../shared/spec/<revision>/`), when
            // they are there: the revision's pages are exactly its `.mdx` files.
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../shared/spec")
                .join(revision.id);
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut on_disk: Vec<String> = entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(".mdx"))
                .collect();
            on_disk.sort();
            let mut listed: Vec<String> =
                revision.spec_pages.iter().map(|p| p.to_string()).collect();
            listed.sort();
            assert_eq!(listed, on_disk, "{}", revision.id);
        }
    }

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
    fn every_linked_page_is_some_revisions() {
        for (file, _) in PAGES {
            assert!(
                REVISIONS.iter().any(|r| r.spec_pages.contains(file)),
                "{file}: no revision has it"
            );
        }
    }
}
