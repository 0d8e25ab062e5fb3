//! Invalid variants, across keyword families: each variant's instances fail the real
//! validator at the variant's pointer and nowhere else, and the expected rules are there.

use jsonschema::Draft;
use serde_json::{json, Value};

use super::{invalid_rules, BOTH, DRAFT2020};

fn record() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 20},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "color": {"enum": ["red", "green", "blue"]},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.25},
            "address": {
                "type": "object",
                "properties": {
                    "street": {"type": "string"},
                    "zip": {"type": "string", "pattern": "^[0-9]{5}$"}
                },
                "required": ["zip"],
                "additionalProperties": false
            },
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 4}, "maxItems": 3}
        },
        "required": ["name", "address"],
        "additionalProperties": false
    })
}

#[test]
fn invalid_variants_break_one_rule_at_their_pointer() {
    // (schema, drafts, rules that must be among its variants)
    let rows: Vec<(Value, &[Draft], &[&str])> = vec![
        (
            record(),
            BOTH,
            &[
                // Objects.
                "(root): missing required property \"name\"",
                "(root): unknown property \"conformance_unknown_property\" (additionalProperties is false)",
                "/address: missing required property \"zip\"",
                "/address: unknown property \"conformance_unknown_property\" (additionalProperties is false)",
                // Types and enums.
                "/name: wrong type (object for string)",
                "/age: not an integer",
                "/color: value outside enum",
                "/address/zip: wrong type (object for string)",
                // Strings.
                "/name: shorter than minLength 1",
                "/name: longer than maxLength 20",
                "/address/zip: does not match pattern \"^[0-9]{5}$\"",
                // Numbers.
                "/age: below minimum 0",
                "/age: above maximum 150",
                "/ratio: not above exclusiveMinimum 0",
                "/ratio: not a multiple of 0.25",
                // Arrays.
                "/tags: more items than maxItems 3",
                "/tags/0: longer than maxLength 4",
            ],
        ),
        // Through a `$ref`.
        (
            json!({
                "$defs": {"zip": {"type": "string", "pattern": "^[0-9]{5}$"}},
                "type": "object",
                "properties": {"home": {"type": "object", "properties": {"zip": {"$ref": "#/$defs/zip"}}, "required": ["zip"]}},
                "required": ["home"]
            }),
            DRAFT2020,
            &["/home/zip: wrong type (object for string)"],
        ),
    ];
    for (schema, drafts, expected) in rows {
        for draft in drafts {
            let rules = invalid_rules(&schema, *draft);
            for rule in expected {
                assert!(
                    rules.iter().any(|r| r == rule),
                    "{rule} missing from {rules:#?} ({draft:?})"
                );
            }
        }
    }
}
