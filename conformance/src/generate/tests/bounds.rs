//! The size budget (`budget.rs`): a schema whose smallest instance is huge is refused with
//! the sizes, by every generator, before anything is built; one that fits is generated as
//! before; a huge `enum` is sampled, not scanned whole. None of these is timed: before the
//! budget, the refused rows took gigabytes and minutes (issue 11), which a test run shows.

use serde_json::{json, Value};

use super::{runner, sample};
use crate::generate::budget::smallest;
use crate::generate::{
    invalid_in, minimal_instance, valid_in, Dialect, MAX_INSTANCE_BYTES, MAX_INSTANCE_NODES,
};

fn arguments(property: Value) -> Value {
    json!({"type": "object", "properties": {"a": property}, "required": ["a"]})
}

/// Every generator refuses the schema, saying the budget is why.
fn refused(schema: &Value) {
    for dialect in [Dialect::Draft7, Dialect::Draft202012] {
        let why = valid_in(schema, schema, dialect).err().unwrap_or_else(|| {
            panic!("{schema}: valid instances were generated");
        });
        assert!(why.0.contains("too large to generate"), "{schema}: {why}");
        let why = invalid_in(schema, schema, dialect).err().unwrap();
        assert!(why.0.contains("too large to generate"), "{schema}: {why}");
    }
    let why = minimal_instance(schema, schema).unwrap_err();
    assert!(why.contains("too large to generate"), "{schema}: {why}");
}

#[test]
fn schemas_whose_smallest_instance_is_huge_are_refused() {
    for property in [
        json!({"type": "array", "minItems": 1_000_000}),
        json!({"type": "array", "minItems": 100_000}),
        json!({"type": "array", "minItems": 10_001, "items": {"type": "integer"}}),
        // No `type`: the builders read `minItems` as "an array".
        json!({"minItems": 1_000_000}),
        json!({"type": "string", "minLength": 2_000_000}),
        json!({"type": "string", "minLength": 1e300}),
        // Arrays that multiply: 200 x 200 values.
        json!({"type": "array", "minItems": 200,
               "items": {"type": "array", "minItems": 200}}),
        // Through a `$ref` and an `allOf`.
        json!({"allOf": [{"$ref": "#/$defs/big"}]}),
        // Every branch is huge.
        json!({"anyOf": [{"type": "string", "minLength": 5_000_000},
                         {"type": "array", "minItems": 50_000}]}),
        json!({"type": "object", "minProperties": 20_000}),
    ] {
        let mut schema = arguments(property);
        schema["$defs"] = json!({"big": {"type": "array", "minItems": 1_000_000}});
        refused(&schema);
    }
}

#[test]
fn schemas_within_the_budget_are_generated_as_before() {
    for property in [
        json!({"type": "array", "minItems": 500, "items": {"type": "integer"}}),
        // A small branch is enough.
        json!({"anyOf": [{"type": "string", "minLength": 5_000_000}, {"type": "integer"}]}),
        json!({"type": "string", "minLength": 100_000}),
        // A recursive `$ref` ends (at the depth bound), and is small.
        json!({"$ref": "#/$defs/node"}),
    ] {
        let mut schema = arguments(property);
        schema["$defs"] = json!({"node": {"type": "object",
            "properties": {"next": {"$ref": "#/$defs/node"}}}});
        let strategy = valid_in(&schema, &schema, Dialect::Draft202012)
            .unwrap_or_else(|e| panic!("{schema}: {e}"));
        assert_eq!(sample(&strategy, 3, 1).len(), 3);
        minimal_instance(&schema, &schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
    }
}

#[test]
fn a_long_minimal_string_is_built_in_one_pass() {
    // The scripted call's minimal instance of `minLength: 1000000` (under the byte
    // budget): before, each added character recounted the string (minutes of CPU).
    let schema = arguments(json!({"type": "string", "minLength": 1_000_000}));
    let args = minimal_instance(&schema, &schema).unwrap();
    assert_eq!(args["a"].as_str().unwrap().chars().count(), 1_000_000);
}

#[test]
fn the_estimate_is_a_lower_bound_on_what_is_built() {
    for schema in [
        arguments(json!({"type": "array", "minItems": 30,
                         "items": {"type": "object", "required": ["k"],
                                   "properties": {"k": {"type": "string", "minLength": 7}}}})),
        arguments(json!({"enum": ["x", "long value"]})),
        arguments(json!({"type": "string", "minLength": 40})),
    ] {
        let size = smallest(&schema, &schema, Dialect::Draft202012);
        let built = minimal_instance(&schema, &schema).unwrap();
        assert!(
            size.bytes <= built.to_string().len(),
            "{schema}: {size:?} > {built}"
        );
        assert!(size.bytes > 2, "{schema}: {size:?}");
    }
    const { assert!(MAX_INSTANCE_BYTES >= 1 << 20 && MAX_INSTANCE_NODES >= 1000) };
}

#[test]
fn a_huge_enum_is_sampled_not_scanned() {
    // 100,000 members took 66 s and 499 MB (each member checked against the schema,
    // itself a scan of the list).
    let members: Vec<Value> = (0..100_000).map(|i| json!(format!("v{i}"))).collect();
    let schema = arguments(json!({"enum": members}));
    let strategy = valid_in(&schema, &schema, Dialect::Draft202012).unwrap();
    let mut runner = runner(3);
    let mut seen = Vec::new();
    for _ in 0..64 {
        use proptest::strategy::{Strategy, ValueTree};
        let v = strategy.new_tree(&mut runner).unwrap().current();
        assert!(members.contains(&v["a"]), "{v}");
        seen.push(v);
    }
    seen.sort_by_key(Value::to_string);
    seen.dedup();
    assert!(seen.len() > 8, "{seen:?}");
    let variants = invalid_in(&schema, &schema, Dialect::Draft202012).unwrap();
    assert!(
        variants.iter().any(|v| v.rule.contains("outside enum")),
        "{:?}",
        variants.iter().map(|v| &v.rule).collect::<Vec<_>>()
    );
}
