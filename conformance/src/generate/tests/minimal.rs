//! The minimal instance (`minimal.rs`).

use serde_json::{json, Value};

use crate::generate::minimal_instance;

fn gen(schema: Value) -> Value {
    minimal_instance(&schema, &schema).unwrap()
}

#[test]
fn required_properties_are_filled_by_type() {
    let schema = json!({"type": "object", "properties": {
        "s": {"type": "string", "minLength": 12}, "n": {"type": "integer", "minimum": 3},
        "e": {"enum": ["a", "b"]}, "o": {"type": "number"}},
        "required": ["s", "n", "e"]});
    assert_eq!(gen(schema), json!({"s": "conformancex", "n": 3, "e": "a"}));
}

#[test]
fn refs_unions_and_arrays() {
    let schema = json!({"type": "object", "$defs": {"p": {"type": "array", "minItems": 2,
        "items": {"type": "integer"}, "uniqueItems": true}},
        "properties": {"x": {"$ref": "#/$defs/p"}, "y": {"anyOf": [{"type": "null"}, {"type": "string"}]},
                       "z": {"type": ["null", "boolean"]}},
        "required": ["x", "y", "z"]});
    assert_eq!(gen(schema), json!({"x": [1, 2], "y": null, "z": false}));
}

#[test]
fn exclusive_bounds_and_multiples() {
    assert_eq!(
        gen(json!({"type": "integer", "exclusiveMinimum": 5, "multipleOf": 4})),
        json!(8)
    );
    assert_eq!(gen(json!({"type": "number", "maximum": -2})), json!(-2));
}

#[test]
fn what_cannot_be_generated_says_why() {
    let schema = json!({"type": "string", "pattern": "^[a-z]+$"});
    assert!(minimal_instance(&schema, &schema)
        .unwrap_err()
        .contains("pattern"));
    let schema = json!({"$ref": "#/nowhere"});
    assert!(minimal_instance(&schema, &schema).is_err());
}
