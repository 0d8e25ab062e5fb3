//! Array keywords: `items`, `prefixItems` (and draft-07's array `items` with
//! `additionalItems`), `minItems` / `maxItems`, `uniqueItems`.

use serde_json::json;

use super::{unsupported_rows, valid_rows, DRAFT2020, DRAFT7, VALID};

#[test]
fn arrays_items_prefix_and_unique() {
    valid_rows(
        "arrays",
        vec![
            (
                json!({
                    "type": "array",
                    "items": {"type": "integer", "minimum": 0, "maximum": 9},
                    "uniqueItems": true,
                    "minItems": 3
                }),
                DRAFT2020,
                |values| values.iter().all(|v| v.as_array().unwrap().len() >= 3),
            ),
            // Items go on past the tuple.
            (
                json!({
                    "type": "array",
                    "prefixItems": [{"type": "string"}, {"type": "integer"}],
                    "items": {"type": "boolean"},
                    "minItems": 1
                }),
                DRAFT2020,
                |values| values.iter().any(|v| v.as_array().unwrap().len() > 2),
            ),
            (
                json!({
                    "type": "array",
                    "items": [{"type": "string"}, {"type": "number"}],
                    "additionalItems": false
                }),
                DRAFT7,
                VALID,
            ),
            (
                json!({
                    "type": "array",
                    "items": {"type": "object", "properties": {"id": {"enum": [1, 2, 3, 4]}}, "required": ["id"], "additionalProperties": false},
                    "uniqueItems": true,
                    "maxItems": 4
                }),
                DRAFT7,
                VALID,
            ),
        ],
    );
}

#[test]
fn array_schemas_that_cannot_be_generated_say_why() {
    unsupported_rows(vec![(
        json!({"type": "array", "contains": {"type": "integer"}}),
        "`contains`",
    )]);
}
