//! `type` (and unions), `enum`, `const`, `default`, and the boolean schemas.

use serde_json::{json, Value};

use super::{unsupported_rows, valid_rows, DRAFT2020, DRAFT7, VALID};
use crate::generate::invalid;
use crate::generate::types::Types;

#[test]
fn enums_consts_defaults_and_type_unions() {
    valid_rows(
        "enums",
        vec![
            (
                json!({"enum": ["a", 1, null, {"k": [1, 2]}, 2.5, true]}),
                DRAFT2020,
                |values| values.iter().any(|v| v.is_object()) && values.iter().any(Value::is_null),
            ),
            // `type` narrows the listed values.
            (
                json!({"type": "string", "enum": ["a", 1, "b"]}),
                DRAFT7,
                |values| values.iter().all(Value::is_string),
            ),
            (json!({"const": {"fixed": [1, "two"]}}), DRAFT2020, VALID),
            // Each type of a union is generated, with the keywords for that type.
            (
                json!({"type": ["string", "integer", "null"], "minimum": 3, "maxLength": 2}),
                DRAFT2020,
                |values| {
                    [Types::STRING, Types::INTEGER, Types::NULL]
                        .into_iter()
                        .all(|t| values.iter().any(|v| Types::of(v) == t))
                },
            ),
            // A valid `default` is sent now and then.
            (
                json!({"type": "integer", "minimum": 0, "default": 42}),
                DRAFT7,
                |values| values.contains(&json!(42)),
            ),
            (json!(true), DRAFT2020, VALID),
            (json!({}), DRAFT7, VALID),
        ],
    );
}

#[test]
fn type_schemas_that_cannot_be_generated_say_why() {
    unsupported_rows(vec![
        (json!(false), "`false` schema"),
        (
            json!({"allOf": [{"type": "string"}, {"type": "integer"}]}),
            "nothing in common",
        ),
        (json!({"enum": [1, 2], "type": "string"}), "`enum`"),
    ]);
    assert!(invalid(&json!(false), &json!(false)).is_err());
}
