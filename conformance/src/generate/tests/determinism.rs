//! The same seed gives the same values, valid and invalid: reports and replayed cases
//! depend on it.

use serde_json::{json, Value};

use super::sample;
use crate::generate::{invalid, valid};

#[test]
fn the_same_seed_gives_the_same_values() {
    let schema = json!({
        "type": "object",
        "properties": {
            "s": {"type": "string"},
            "n": {"type": "number", "multipleOf": 0.01},
            "when": {"type": "string", "format": "date-time"},
            "list": {"type": "array", "items": {"enum": [1, 2, 3]}, "uniqueItems": true}
        },
        "required": ["s"]
    });
    let first = sample(&valid(&schema, &schema).unwrap(), 100, 42);
    let again = sample(&valid(&schema, &schema).unwrap(), 100, 42);
    let other = sample(&valid(&schema, &schema).unwrap(), 100, 43);
    assert_eq!(first, again);
    assert_ne!(first, other);
    let rules = |s: &Value| -> Vec<(String, Vec<Value>)> {
        invalid(s, s)
            .unwrap()
            .into_iter()
            .map(|v| (v.rule, sample(&v.strategy, 10, 5)))
            .collect()
    };
    assert_eq!(rules(&schema), rules(&schema));
}
