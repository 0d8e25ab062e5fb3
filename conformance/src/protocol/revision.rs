//! Protocol revisions as data.
//!
//! Everything that differs between revisions lives in this one table (the spec's own
//! revision matrix, REQUIREMENTS.md section 1), so checks ask "what does this revision
//! say?" instead of comparing dates. The official `schema.json` of each revision is
//! vendored under `fixtures/schemas/` and embedded here.

/// How a revision wants invalid tool arguments reported (REQUIREMENTS.md
/// `TC-ERR-INPUT-VALIDATION`, section 10 A6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorClass {
    /// A JSON-RPC error or an `isError` result are both acceptable (2024-11-05 .. 2025-06-18).
    Either,
    /// An `isError: true` tool result is expected; a JSON-RPC error is a warning (2025-11-25).
    ToolError,
}

/// One protocol revision and what it contains.
#[derive(Debug)]
pub struct Revision {
    /// The version string sent in `initialize`.
    pub id: &'static str,
    /// The official `schema.json`, embedded.
    pub schema: &'static str,
    /// `true` when the schema is JSON Schema 2020-12 (`$defs`), `false` for draft-07.
    pub draft_2020_12: bool,
    /// Content block types a tool result may carry (`TC-CONTENT-TYPES`).
    pub content_types: &'static [&'static str],
    /// Tool members the revision defines (others are reported by policy, `TOOL-EXTRA-FIELDS`).
    pub tool_fields: &'static [&'static str],
    /// Whether JSON-RPC batches must be accepted (`RPC-BATCH-R2`).
    pub batching: bool,
    /// Expected error class for invalid tool arguments.
    pub invalid_arguments: ErrorClass,
    /// Whether an error response may omit `id` when the request id could not be read
    /// (`RPC-ERROR-ID-R4`).
    pub error_id_optional: bool,
    /// Whether "respect the negotiated version and capabilities" is a MUST (else SHOULD),
    /// `LC-OPERATION-RESPECT`.
    pub operation_rule_is_must: bool,
    /// Whether the tool-name guidance (length, charset) exists (`TOOL-NAME-*`).
    pub tool_name_rules: bool,
    /// Whether `outputSchema` / `structuredContent` exist (`TC-STRUCTURED`).
    pub structured_content: bool,
    /// Schema definition of a success response envelope.
    pub result_envelope: &'static str,
    /// Schema definition of an error response envelope.
    pub error_envelope: &'static str,
}

impl Revision {
    /// The key under which the schema keeps its definitions.
    pub fn defs_key(&self) -> &'static str {
        if self.draft_2020_12 {
            "$defs"
        } else {
            "definitions"
        }
    }

    /// Looks a revision up by its version string.
    pub fn find(id: &str) -> Option<&'static Revision> {
        REVISIONS.iter().find(|r| r.id == id)
    }

    /// Whether this revision is the same as or later than `other` (by table order).
    pub fn at_least(&self, other: &str) -> bool {
        let pos = |id: &str| REVISIONS.iter().position(|r| r.id == id);
        match (pos(self.id), pos(other)) {
            (Some(a), Some(b)) => a >= b,
            _ => false,
        }
    }
}

const TOOL_FIELDS_R1: &[&str] = &["name", "description", "inputSchema"];
const TOOL_FIELDS_R2: &[&str] = &["name", "description", "inputSchema", "annotations"];
const TOOL_FIELDS_R3: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "_meta",
];
const TOOL_FIELDS_R4: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "execution",
    "_meta",
];

/// Every legacy (handshake-based) revision the suite knows, oldest first.
pub static REVISIONS: &[Revision] = &[
    Revision {
        id: "2024-11-05",
        schema: include_str!("../../../fixtures/schemas/2024-11-05/schema.json"),
        draft_2020_12: false,
        content_types: &["text", "image", "resource"],
        tool_fields: TOOL_FIELDS_R1,
        batching: false,
        invalid_arguments: ErrorClass::Either,
        error_id_optional: false,
        operation_rule_is_must: false,
        tool_name_rules: false,
        structured_content: false,
        result_envelope: "JSONRPCResponse",
        error_envelope: "JSONRPCError",
    },
    Revision {
        id: "2025-03-26",
        schema: include_str!("../../../fixtures/schemas/2025-03-26/schema.json"),
        draft_2020_12: false,
        content_types: &["text", "image", "audio", "resource"],
        tool_fields: TOOL_FIELDS_R2,
        batching: true,
        invalid_arguments: ErrorClass::Either,
        error_id_optional: false,
        operation_rule_is_must: false,
        tool_name_rules: false,
        structured_content: false,
        result_envelope: "JSONRPCResponse",
        error_envelope: "JSONRPCError",
    },
    Revision {
        id: "2025-06-18",
        schema: include_str!("../../../fixtures/schemas/2025-06-18/schema.json"),
        draft_2020_12: false,
        content_types: &["text", "image", "audio", "resource_link", "resource"],
        tool_fields: TOOL_FIELDS_R3,
        batching: false,
        invalid_arguments: ErrorClass::Either,
        error_id_optional: false,
        operation_rule_is_must: true,
        tool_name_rules: false,
        structured_content: true,
        result_envelope: "JSONRPCResponse",
        error_envelope: "JSONRPCError",
    },
    Revision {
        id: "2025-11-25",
        schema: include_str!("../../../fixtures/schemas/2025-11-25/schema.json"),
        draft_2020_12: true,
        content_types: &["text", "image", "audio", "resource_link", "resource"],
        tool_fields: TOOL_FIELDS_R4,
        batching: false,
        invalid_arguments: ErrorClass::ToolError,
        error_id_optional: true,
        operation_rule_is_must: true,
        tool_name_rules: true,
        structured_content: true,
        result_envelope: "JSONRPCResultResponse",
        error_envelope: "JSONRPCErrorResponse",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_schema_matches_its_declared_dialect() {
        for rev in REVISIONS {
            let schema: serde_json::Value = serde_json::from_str(rev.schema).expect("valid JSON");
            let dialect = schema["$schema"].as_str().unwrap_or_default();
            assert_eq!(dialect.contains("2020-12"), rev.draft_2020_12, "{}", rev.id);
            assert!(schema.get(rev.defs_key()).is_some(), "{}", rev.id);
            for def in [
                rev.result_envelope,
                rev.error_envelope,
                "InitializeResult",
                "Tool",
            ] {
                assert!(
                    schema[rev.defs_key()].get(def).is_some(),
                    "{} lacks {def}",
                    rev.id
                );
            }
        }
    }

    #[test]
    fn revisions_are_ordered() {
        let r3 = Revision::find("2025-06-18").unwrap();
        assert!(r3.at_least("2025-03-26"));
        assert!(r3.at_least("2025-06-18"));
        assert!(!r3.at_least("2025-11-25"));
    }
}
