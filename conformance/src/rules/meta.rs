//! `_meta` key names (index.mdx, General fields: `_meta`, from 2025-06-18): the grammar
//! every key must follow, and the prefixes reserved for MCP.
//!
//! Kept in the rule book because any phase that reads a server's results may ask it; the
//! scripted check walks the places where a server writes `_meta` (results, tools, content
//! blocks, notification and request params) and asks [`key_problem`] about each key.

use serde_json::{Map, Value};

use crate::protocol::{Rev, Revision};

/// Keys under a reserved prefix that the spec itself defines (2025-11-25 tasks.mdx): a
/// server may write these.
pub const DEFINED_RESERVED_KEYS: &[&str] = &[
    "io.modelcontextprotocol/related-task",
    "io.modelcontextprotocol/model-immediate-response",
];

/// Keys under the reserved prefix that 2026-07-28 defines (index.mdx, Reserved keys and
/// Per-response protocol fields): a modern server writes `serverInfo` in every result and
/// `subscriptionId` on subscription messages.
pub const MODERN_RESERVED_KEYS: &[&str] = &[
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientInfo",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/logLevel",
    "io.modelcontextprotocol/subscriptionId",
    "io.modelcontextprotocol/serverInfo",
];

/// What is wrong with a `_meta` key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetaKeyProblem {
    /// It breaks the key grammar ("MUST be a series of labels ...", "MUST begin and end
    /// with an alphanumeric character"): the reason in words.
    Malformed(String),
    /// Its prefix is reserved for MCP use and the spec defines no such key.
    Reserved,
}

/// "Labels MUST start with a letter and end with a letter or digit; interior characters
/// can be letters, digits, or hyphens".
fn valid_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    let (Some(first), Some(last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    first.is_ascii_alphabetic()
        && last.is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
}

/// "Unless empty, MUST begin and end with an alphanumeric character; MAY contain hyphens,
/// underscores, dots, and alphanumerics in between".
fn valid_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    let (Some(first), Some(last)) = (bytes.first(), bytes.last()) else {
        return true;
    };
    first.is_ascii_alphanumeric()
        && last.is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Whether a prefix's labels make it reserved. 2025-06-18: any label `modelcontextprotocol`
/// or `mcp` followed by a further label; 2025-11-25: the *second* label is one of them.
/// (Compared by revision order rather than a field of the revision table: the rule
/// changed once, and later revisions keep the 2025-11-25 wording.)
fn reserved(labels: &[&str], revision: &Revision) -> bool {
    let mcp = |l: &&str| *l == "modelcontextprotocol" || *l == "mcp";
    if revision.at_least(Rev::R2025_11_25) {
        labels.get(1).is_some_and(mcp)
    } else {
        labels
            .iter()
            .enumerate()
            .any(|(i, l)| mcp(l) && i + 1 < labels.len())
    }
}

/// The problem with `key` under `revision`'s rules, `None` when it is a valid key.
pub fn key_problem(key: &str, revision: &Revision) -> Option<MetaKeyProblem> {
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        let labels: Vec<&str> = prefix.split('.').collect();
        if let Some(bad) = labels.iter().find(|l| !valid_label(l)) {
            return Some(MetaKeyProblem::Malformed(format!(
                "prefix label {bad:?} does not start with a letter, end with a letter or digit \
                 and hold only letters, digits and hyphens"
            )));
        }
        if !valid_name(name) {
            return Some(MetaKeyProblem::Malformed(format!(
                "name {name:?} after the prefix does not begin and end with a letter or digit \
                 (or holds characters other than letters, digits, '-', '_' and '.')"
            )));
        }
        let defined = DEFINED_RESERVED_KEYS.contains(&key)
            || (revision.modern() && MODERN_RESERVED_KEYS.contains(&key));
        if reserved(&labels, revision) && !defined {
            return Some(MetaKeyProblem::Reserved);
        }
        return None;
    }
    (!valid_name(name)).then(|| {
        MetaKeyProblem::Malformed(
            "the name does not begin and end with a letter or digit (or holds characters other \
             than letters, digits, '-', '_' and '.')"
                .into(),
        )
    })
}

/// The `_meta` objects a server message carries where the schema puts them, each with a
/// path for evidence: `result._meta`, each tool's, each content block's and embedded
/// resource's, and `params._meta` of the server's notifications and requests. Member
/// names inside `structuredContent`, schemas or arguments are data, never `_meta` keys.
pub fn meta_objects(message: &Value) -> Vec<(String, &Map<String, Value>)> {
    fn take<'a>(out: &mut Vec<(String, &'a Map<String, Value>)>, path: String, holder: &'a Value) {
        if let Some(meta) = holder.get("_meta").and_then(Value::as_object) {
            out.push((path, meta));
        }
    }
    let mut out = Vec::new();
    if let Some(result) = message.get("result") {
        take(&mut out, "result._meta".into(), result);
        for list in ["tools", "content"] {
            let items = result.get(list).and_then(Value::as_array);
            for (i, item) in items.into_iter().flatten().enumerate() {
                take(&mut out, format!("result.{list}[{i}]._meta"), item);
                if let Some(resource) = item.get("resource") {
                    take(
                        &mut out,
                        format!("result.{list}[{i}].resource._meta"),
                        resource,
                    );
                }
            }
        }
    }
    if message.get("method").is_some() {
        if let Some(params) = message.get("params") {
            take(&mut out, "params._meta".into(), params);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problem(key: &str, rev: Rev) -> Option<MetaKeyProblem> {
        key_problem(key, rev.revision())
    }

    #[test]
    fn the_key_grammar_of_index_mdx() {
        for key in [
            "",
            "progressToken",
            "a",
            "x-trace_id.v2",
            "com.example/trace",
            "com.example/",
            "a1.b-2/n",
            "io.modelcontextprotocol/related-task",
        ] {
            assert_eq!(problem(key, Rev::R2025_11_25), None, "{key:?}");
        }
        for key in [
            "_fastmcp",
            "trace-",
            "a b",
            "/name",
            "com..example/x",
            "1com.example/x",
            "com.example-/x",
            "com.example/_x",
            "com.example/a/b",
            "caf\u{e9}",
        ] {
            assert!(
                matches!(
                    problem(key, Rev::R2025_06_18),
                    Some(MetaKeyProblem::Malformed(_))
                ),
                "{key:?}"
            );
        }
    }

    #[test]
    fn reserved_prefixes_changed_in_2025_11_25() {
        use MetaKeyProblem::Reserved;
        // 2025-06-18: a label mcp or modelcontextprotocol followed by another label.
        assert_eq!(problem("mcp.dev/x", Rev::R2025_06_18), Some(Reserved));
        assert_eq!(problem("tools.mcp.com/x", Rev::R2025_06_18), Some(Reserved));
        assert_eq!(problem("com.example.mcp/x", Rev::R2025_06_18), None);
        // 2025-11-25: the second label.
        assert_eq!(problem("com.mcp.tools/x", Rev::R2025_11_25), Some(Reserved));
        assert_eq!(
            problem("io.modelcontextprotocol/x", Rev::R2025_11_25),
            Some(Reserved)
        );
        assert_eq!(problem("mcp.dev/x", Rev::R2025_11_25), None);
        assert_eq!(problem("com.example.mcp/x", Rev::R2025_11_25), None);
        assert_eq!(
            problem("io.modelcontextprotocol/related-task", Rev::R2025_11_25),
            None
        );
        assert_eq!(
            problem("io.modelcontextprotocol/serverInfo", Rev::R2026_07_28),
            None
        );
    }

    #[test]
    fn only_the_places_the_schema_puts_meta_are_read() {
        let message = json!({"jsonrpc": "2.0", "id": 1, "result": {
            "_meta": {"a": 1},
            "tools": [{"name": "t", "_meta": {"b": 1},
                "inputSchema": {"type": "object", "properties": {"_meta": {"type": "object"}}}}],
            "content": [{"type": "resource", "_meta": {"c": 1},
                "resource": {"uri": "x:", "text": "", "_meta": {"d": 1}}}],
            "structuredContent": {"_meta": {"_not_a_key": 1}}
        }});
        let paths: Vec<String> = meta_objects(&message).into_iter().map(|(p, _)| p).collect();
        assert_eq!(
            paths,
            [
                "result._meta",
                "result.tools[0]._meta",
                "result.content[0]._meta",
                "result.content[0].resource._meta"
            ]
        );
        let note = json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"_meta": {"e": 1}, "progressToken": 1, "progress": 1}});
        assert_eq!(meta_objects(&note)[0].0, "params._meta");
    }
}
