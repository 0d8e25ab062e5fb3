//! The fuzzer's compiled shape (`shape.rs`) and the byte-driven values built from it
//! (`bytes.rs`).

use serde_json::json;

use crate::generate::{Choices, Compiled, Shape};

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
        (
            "value".into(),
            Shape::Integer {
                lo: 3,
                hi: 1003,
                wide: (3, (1 << 53) - 1)
            },
            true
        )
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

#[test]
fn the_same_bytes_give_the_same_value() {
    let c = Compiled::new(&json!({
        "type": "object",
        "properties": {
            "text": {"type": "string", "maxLength": 40},
            "n": {"type": "number", "minimum": -5, "maximum": 5},
            "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 4}
        },
        "required": ["text"]
    }));
    let mut state = 7u64;
    for len in 0..300 {
        let data: Vec<u8> = (0..len)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 56) as u8
            })
            .collect();
        let value = |data: &[u8]| Choices::new(data).value(&c.root, &c.defs, 0);
        assert_eq!(value(&data), value(&data), "{data:?}");
    }
}
