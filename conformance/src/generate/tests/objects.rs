//! Object keywords: `properties`, `required`, `additionalProperties`,
//! `patternProperties`, `minProperties` / `maxProperties`, `dependentRequired` /
//! `dependencies`.

use serde_json::{json, Value};

use super::{unsupported_rows, valid_rows, DRAFT2020, DRAFT7, VALID};

fn person() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 20},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "address": {
                "type": "object",
                "properties": {
                    "street": {"type": "string"},
                    "zip": {"type": "string", "pattern": "^[0-9]{5}$"}
                },
                "required": ["zip"],
                "additionalProperties": false
            },
            "tags": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["name", "address"],
        "additionalProperties": false
    })
}

#[test]
fn objects_nested_required_additional_and_maps() {
    valid_rows(
        "objects",
        vec![
            // An optional property is sometimes there and sometimes not.
            (person(), DRAFT2020, |values| {
                values.iter().any(|v| v.get("age").is_some())
                    && values.iter().any(|v| v.get("age").is_none())
            }),
            (person(), DRAFT7, VALID),
            (
                json!({
                    "type": "object",
                    "additionalProperties": {"type": "string", "maxLength": 8},
                    "minProperties": 2,
                    "maxProperties": 4
                }),
                DRAFT2020,
                VALID,
            ),
            (
                json!({
                    "type": "object",
                    "properties": {"card": {"type": "string"}, "cvc": {"type": "string"}},
                    "dependentRequired": {"card": ["cvc"]}
                }),
                DRAFT2020,
                |values| values.iter().any(|v| v.get("card").is_some()),
            ),
            (
                json!({
                    "type": "object",
                    "properties": {"card": {"type": "string"}, "cvc": {"type": "string"}},
                    "dependencies": {"card": ["cvc"]}
                }),
                DRAFT7,
                VALID,
            ),
            (
                json!({
                    "type": "object",
                    "properties": {"x_a": {"type": "integer"}},
                    "patternProperties": {"^x_": {"minimum": 10}},
                    "required": ["x_a"],
                    "additionalProperties": false
                }),
                DRAFT2020,
                VALID,
            ),
        ],
    );
}

#[test]
fn object_schemas_that_cannot_be_generated_say_why() {
    unsupported_rows(vec![(
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"], "additionalProperties": false}),
        "required property \"b\"",
    )]);
}
