//! Without a `$schema`, values must satisfy draft-07 and 2020-12 alike (`$ref` siblings,
//! `items` / `prefixItems`, `dependencies` / `dependentRequired`).

use jsonschema::Draft;
use serde_json::json;

use super::{sample, validator, N};
use crate::generate::valid;

#[test]
fn without_a_dialect_the_values_satisfy_both_drafts() {
    let schemas = [
        json!({"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "maxLength": 3}),
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "string", "maxLength": 2}}),
        json!({"type": "object", "properties": {"a": {}, "b": {}, "c": {}},
               "dependentRequired": {"a": ["b"]}, "dependencies": {"b": ["c"]}}),
        json!({"type": "object", "minProperties": 3, "properties": {"a": {"type": "integer"}}}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
               "properties": {"path": {"type": "string"}, "dryRun": {"type": "boolean", "default": false},
                              "edits": {"type": "array", "items": {"type": "object",
                                "properties": {"oldText": {"type": "string"}, "newText": {"type": "string"}},
                                "required": ["oldText", "newText"], "additionalProperties": false}}},
               "required": ["path", "edits"], "additionalProperties": false}),
    ];
    for schema in schemas {
        let strategy = valid(&schema, &schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
        let values = sample(&strategy, N, 5);
        for draft in [Draft::Draft7, Draft::Draft202012] {
            let v = validator(&schema, draft);
            for value in &values {
                assert!(v.is_valid(value), "{schema} {draft:?}\n{value}");
            }
        }
    }
}
