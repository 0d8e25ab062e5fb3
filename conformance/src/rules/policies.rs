//! The policies of REQUIREMENTS.md section 10 by id and title: how the spec's open
//! questions are decided. A finding a policy graded down says which one in words (its
//! title), since a bare "policy A10" means nothing to a reader without that file; a
//! test holds each title to the file's own heading.

/// Each policy's id and title, as REQUIREMENTS.md section 10 heads it.
pub const POLICIES: &[(&str, &str)] = &[
    ("A1", "Unsupported version at initialize"),
    ("A2", "id of errors when the id is unknown"),
    ("A3", "Bad request ids"),
    ("A4", "Batch received by an R1 or R3+ server"),
    ("A5", "Requests before initialize, or before `initialized`"),
    ("A6", "Invalid arguments: protocol error or tool error?"),
    ("A7", "outputSchema together with `isError:true`"),
    ("A8", "inputSchema dialect before R4"),
    ("A9", "Task-required tool called without a task"),
    ("A10", "Unknown-tool code"),
    (
        "A11",
        "tools/call or tools/list without the tools capability",
    ),
    (
        "A12",
        "list_changed from an undeclared capability, or before `initialized`",
    ),
    ("A13", "Text mirror of structuredContent"),
    ("A14", "\"Unique\" and \"case-sensitive\" names"),
    ("A15", "Cancellation and response"),
    ("A16", "Draft"),
    ("A17", "Answer to a session DELETE"),
    (
        "A18",
        "A request without `MCP-Protocol-Version` in a session",
    ),
    ("A19", "A request whose `_meta` has no `clientInfo`"),
];

/// The title of policy `id` ("A10": "Unknown-tool code").
pub fn policy_title(id: &str) -> Option<&'static str> {
    POLICIES.iter().find(|(p, _)| *p == id).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each title is how REQUIREMENTS.md heads the policy (`- **A10 Unknown-tool code**`).
    #[test]
    fn titles_are_the_requirements_headings() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/REQUIREMENTS.md");
        let text = std::fs::read_to_string(path).unwrap();
        for (id, title) in POLICIES {
            let heading = format!("- **{id} {title}");
            assert!(
                text.contains(&heading),
                "{heading} is not in REQUIREMENTS.md"
            );
        }
        assert_eq!(policy_title("A10"), Some("Unknown-tool code"));
        assert_eq!(policy_title("A99"), None);
    }
}
