//! Validation of server messages against each revision's official `schema.json`.
//!
//! A validator is compiled on first use for one definition of one revision and cached:
//! the root document is the whole embedded schema with a `$ref` to the definition, so
//! internal references resolve as the spec authors wrote them. Formats are treated as
//! annotations (the 2020-12 default), since the schemas' `format` values are not all
//! assertable and a false alarm costs more than a missed format.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use jsonschema::{Draft, Validator};
use serde_json::Value;

use super::revision::Revision;
use crate::errors::{Error, Result};

/// One way a message breaks its schema.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SchemaViolation {
    /// JSON pointer into the message.
    pub instance_path: String,
    /// The validator's explanation.
    pub message: String,
}

/// At most this many violations are kept per message: the first few tell the story.
const MAX_VIOLATIONS: usize = 8;

/// Compiled validators for one revision, built lazily.
pub struct SchemaSet {
    revision: &'static Revision,
    root: Value,
    cache: Mutex<HashMap<String, Arc<Validator>>>,
}

impl std::fmt::Debug for SchemaSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaSet")
            .field("revision", &self.revision.id)
            .finish()
    }
}

/// The schema definition a result must match, by its request's method (a fact of the
/// protocol, used by every phase that judges results).
pub fn result_definition(method: &str) -> &'static str {
    match method {
        "initialize" => "InitializeResult",
        "ping" => "EmptyResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "server/discover" => "DiscoverResult",
        _ => "Result",
    }
}

/// [`result_definition`] for a result as it came: a multi round-trip interim result
/// (`resultType: "input_required"`, 2026-07-28 mrtr.mdx) is an `InputRequiredResult` in
/// the revisions that define one, whatever the method.
pub fn result_definition_of(schemas: &SchemaSet, method: &str, result: &Value) -> &'static str {
    let interim = result.get("resultType").and_then(Value::as_str) == Some("input_required");
    if interim && schemas.has("InputRequiredResult") {
        "InputRequiredResult"
    } else {
        result_definition(method)
    }
}

impl SchemaSet {
    /// Parses the revision's embedded schema.
    pub fn new(revision: &'static Revision) -> Result<Self> {
        let root = serde_json::from_str(revision.schema).map_err(|e| Error::Schema {
            revision: revision.id,
            definition: "(root)".into(),
            message: e.to_string(),
        })?;
        Ok(Self {
            revision,
            root,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The revision these schemas belong to.
    pub fn revision(&self) -> &'static Revision {
        self.revision
    }

    /// Whether the schema defines `definition`.
    pub fn has(&self, definition: &str) -> bool {
        self.root[self.revision.defs_key()]
            .get(definition)
            .is_some()
    }

    /// Method names of the members of a union definition such as `ServerNotification`
    /// (each member's `properties.method.const`).
    pub fn union_methods(&self, union: &str) -> Vec<String> {
        let defs = &self.root[self.revision.defs_key()];
        let members = defs[union]["anyOf"].as_array().cloned().unwrap_or_default();
        members
            .iter()
            .filter_map(|m| m["$ref"].as_str())
            .filter_map(|r| r.rsplit('/').next())
            .filter_map(|name| defs[name]["properties"]["method"]["const"].as_str())
            .map(str::to_string)
            .collect()
    }

    /// The definition of an error object: `Error` where the schema has one, else the
    /// `error` member of `JSONRPCError`.
    pub fn error_object(&self) -> &'static str {
        if self.has("Error") {
            "Error"
        } else {
            "JSONRPCError/properties/error"
        }
    }

    /// Validates `instance` against a definition, or a JSON pointer below one
    /// (`"JSONRPCError/properties/error"`). Returns the violations, empty when valid.
    pub fn validate(&self, definition: &str, instance: &Value) -> Result<Vec<SchemaViolation>> {
        let validator = self.validator(definition)?;
        Ok(validator
            .iter_errors(instance)
            .take(MAX_VIOLATIONS)
            .map(|e| SchemaViolation {
                instance_path: e.instance_path().to_string(),
                message: e.to_string(),
            })
            .collect())
    }

    /// Validates `instance` against an arbitrary schema in this revision's dialect
    /// (used for a tool's own `outputSchema`). `Err` means the schema does not compile.
    pub fn validate_with(
        &self,
        schema: &Value,
        instance: &Value,
    ) -> Result<Vec<SchemaViolation>, String> {
        let validator = self.options().build(schema).map_err(|e| e.to_string())?;
        Ok(validator
            .iter_errors(instance)
            .take(MAX_VIOLATIONS)
            .map(|e| SchemaViolation {
                instance_path: e.instance_path().to_string(),
                message: e.to_string(),
            })
            .collect())
    }

    fn options(&self) -> jsonschema::ValidationOptions<'static> {
        let draft = if self.revision.draft_2020_12 {
            Draft::Draft202012
        } else {
            Draft::Draft7
        };
        jsonschema::options()
            .with_draft(draft)
            .should_validate_formats(false)
    }

    fn validator(&self, definition: &str) -> Result<Arc<Validator>> {
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = cache.get(definition) {
            return Ok(v.clone());
        }
        let mut doc = self.root.clone();
        if let Value::Object(map) = &mut doc {
            map.remove("$schema");
            map.insert(
                "$ref".into(),
                Value::String(format!("#/{}/{}", self.revision.defs_key(), definition)),
            );
        }
        let validator = self.options().build(&doc).map_err(|e| Error::Schema {
            revision: self.revision.id,
            definition: definition.to_string(),
            message: e.to_string(),
        })?;
        let validator = Arc::new(validator);
        cache.insert(definition.to_string(), validator.clone());
        Ok(validator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::REVISIONS;
    use serde_json::json;

    #[test]
    fn initialize_result_without_server_info_is_rejected_in_every_revision() {
        for rev in REVISIONS.iter().filter(|r| !r.modern()) {
            let set = SchemaSet::new(rev).unwrap();
            let good = json!({"protocolVersion": rev.id, "capabilities": {},
                              "serverInfo": {"name": "s", "version": "1"}});
            assert!(
                set.validate("InitializeResult", &good).unwrap().is_empty(),
                "{}",
                rev.id
            );
            let bad = json!({"protocolVersion": rev.id, "capabilities": {}});
            let errors = set.validate("InitializeResult", &bad).unwrap();
            assert!(!errors.is_empty(), "{}", rev.id);
        }
    }

    #[test]
    fn union_methods_are_read_from_the_schema() {
        for rev in REVISIONS {
            let set = SchemaSet::new(rev).unwrap();
            let methods = set.union_methods("ServerNotification");
            assert!(
                methods
                    .iter()
                    .any(|m| m == "notifications/tools/list_changed"),
                "{}",
                rev.id
            );
            // 2026-07-28 removed ping and every server-to-client request.
            assert_eq!(
                set.union_methods("ServerRequest")
                    .iter()
                    .any(|m| m == "ping"),
                !rev.modern(),
                "{}",
                rev.id
            );
            assert!(set.has(set.error_object().split('/').next().unwrap()));
        }
    }

    #[test]
    fn pointer_below_a_definition_compiles() {
        let rev = Revision::find("2024-11-05").unwrap();
        let set = SchemaSet::new(rev).unwrap();
        let bad = json!({"code": "x", "message": "m"});
        assert_eq!(
            set.validate("JSONRPCError/properties/error", &bad)
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn audio_content_is_not_a_2024_11_05_tool_result() {
        let audio =
            json!({"content": [{"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}]});
        let r1 = SchemaSet::new(Revision::find("2024-11-05").unwrap()).unwrap();
        let r2 = SchemaSet::new(Revision::find("2025-03-26").unwrap()).unwrap();
        assert!(!r1.validate("CallToolResult", &audio).unwrap().is_empty());
        assert!(r2.validate("CallToolResult", &audio).unwrap().is_empty());
    }
}
