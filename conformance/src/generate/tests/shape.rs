//! The fuzzer's compiled shape (`shape.rs`).

use serde_json::json;

use crate::generate::{Compiled, Shape};

#[test]
fn recursive_refs_stay_finite() {
    let schema = json!({
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/node"}},
        "$defs": {"node": {"type": "object", "properties": {
            "next": {"$ref": "#/$defs/node"}, "value": {"type": "integer", "minimum": 3}
        }, "required": ["value"]}}
    });
    let c = Compiled::new(&schema);
    assert_eq!(c.defs.len(), 1);
    let Shape::Object { properties } = &c.defs[0] else {
        panic!("{c:?}")
    };
    assert_eq!(properties[0], ("next".into(), Shape::Ref(0), false));
    assert_eq!(
        properties[1],
        ("value".into(), Shape::Integer { lo: 3, hi: 1003 }, true)
    );
}

#[test]
fn hostile_schemas_compile() {
    for schema in [
        json!(true),
        json!({"type": 7}),
        json!({"$ref": "#/nowhere"}),
        json!({"type": "array", "maxItems": 1e300, "minItems": -1}),
        json!({"type": "number", "minimum": 1e300, "maximum": -1e300}),
        json!({"anyOf": []}),
    ] {
        let _ = Compiled::new(&schema);
    }
}
