//! The minimal instance (`minimal.rs`): exactly which instance, or why none.

use serde_json::{json, Value};

use crate::generate::minimal_instance;

#[test]
fn minimal_instances_are_the_first_that_fit() {
    // (what the row is about, schema, the instance)
    let rows: Vec<(&str, Value, Value)> = vec![
        (
            "required properties are filled by type",
            json!({"type": "object", "properties": {
                "s": {"type": "string", "minLength": 12}, "n": {"type": "integer", "minimum": 3},
                "e": {"enum": ["a", "b"]}, "o": {"type": "number"}},
                "required": ["s", "n", "e"]}),
            json!({"s": "conformancex", "n": 3, "e": "a"}),
        ),
        (
            "refs, unions and unique arrays",
            json!({"type": "object", "$defs": {"p": {"type": "array", "minItems": 2,
                "items": {"type": "integer"}, "uniqueItems": true}},
                "properties": {"x": {"$ref": "#/$defs/p"}, "y": {"anyOf": [{"type": "null"}, {"type": "string"}]},
                               "z": {"type": ["null", "boolean"]}},
                "required": ["x", "y", "z"]}),
            json!({"x": [1, 2], "y": null, "z": false}),
        ),
        (
            "exclusive bounds and multiples",
            json!({"type": "integer", "exclusiveMinimum": 5, "multipleOf": 4}),
            json!(8),
        ),
        (
            "a maximum below 1",
            json!({"type": "number", "maximum": -2}),
            json!(-2),
        ),
    ];
    for (about, schema, expected) in rows {
        assert_eq!(minimal_instance(&schema, &schema), Ok(expected), "{about}");
    }
}

#[test]
fn what_cannot_be_generated_says_why() {
    // (schema, what the reason mentions)
    let rows = [
        (json!({"type": "string", "pattern": "^[a-z]+$"}), "pattern"),
        (json!({"$ref": "#/nowhere"}), "cannot resolve $ref"),
    ];
    for (schema, why) in rows {
        let reason = minimal_instance(&schema, &schema).unwrap_err();
        assert!(reason.contains(why), "{schema}: {reason}");
    }
}
