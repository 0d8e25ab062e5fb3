//! Composition: `anyOf`, `oneOf` (exactly one branch matches), `allOf`, `not`, and the
//! `if` / `then` / `else` the generators refuse.

use serde_json::json;

use super::{unsupported_rows, valid_rows, DRAFT2020, DRAFT7, VALID};
use crate::generate::types::is_integer;

#[test]
fn any_one_all_of_and_not() {
    valid_rows(
        "combinators",
        vec![
            (
                json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
                DRAFT7,
                VALID,
            ),
            (
                json!({"oneOf": [
                    {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number", "minimum": 0}}, "required": ["kind", "r"]},
                    {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
                ]}),
                DRAFT2020,
                VALID,
            ),
            // An integer would match both branches.
            (
                json!({"oneOf": [{"type": "number"}, {"type": "integer"}]}),
                DRAFT2020,
                |values| values.iter().all(|v| !is_integer(v)),
            ),
            (
                json!({"allOf": [
                    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                    {"properties": {"b": {"type": "integer", "maximum": 0}}, "required": ["b"]}
                ]}),
                DRAFT2020,
                VALID,
            ),
            (
                json!({"type": "string", "not": {"const": ""}}),
                DRAFT2020,
                VALID,
            ),
            (
                json!({"type": "object", "properties": {"v": {"anyOf": [
                    {"type": "integer", "minimum": 10}, {"type": "array", "items": {"type": "boolean"}, "maxItems": 2}
                ]}}, "required": ["v"]}),
                DRAFT7,
                VALID,
            ),
        ],
    );
}

#[test]
fn composed_schemas_that_cannot_be_generated_say_why() {
    unsupported_rows(vec![
        (
            json!({"type": "integer", "minimum": 0, "maximum": 3, "not": {"minimum": 0}}),
            "`not`",
        ),
        (
            json!({"if": {"type": "string"}, "then": {"minLength": 2}}),
            "`if`",
        ),
    ]);
}
