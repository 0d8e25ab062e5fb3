//! Tests of the generators: valid instances validate with the jsonschema crate, invalid
//! variants fail it at their pointer, and what cannot be generated says why.

mod minimal;
mod shape;

use std::cell::Cell;

use jsonschema::Draft;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Number, Value};

use super::decimal::{multiple_of, number_value, SAFE_INTEGER};
use super::strings::translate_pattern;
use super::types::{is_integer, Types};
use super::valid::Cx;
use super::*;

const N: usize = 200;

fn runner(seed: u8) -> TestRunner {
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

fn sample(strategy: &BoxedStrategy<Value>, n: usize, seed: u8) -> Vec<Value> {
    let mut runner = runner(seed);
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

/// The real validator, formats asserted (to prove the generated formats valid).
fn validator(schema: &Value, draft: Draft) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(draft)
        .should_validate_formats(true)
        .build(schema)
        .unwrap()
}

fn dialect(draft: Draft) -> Dialect {
    match draft {
        Draft::Draft7 => Dialect::Draft7,
        _ => Dialect::Draft202012,
    }
}

/// Generates `N` instances and asserts every one validates; returns them. Also counts
/// how often the constructed values, before the judge's last check, were invalid.
fn all_valid(schema: Value, draft: Draft) -> Vec<Value> {
    let v = validator(&schema, draft);
    let strategy = valid_in(&schema, &schema, dialect(draft))
        .unwrap_or_else(|e| panic!("{schema}: unsupported: {e}"));
    let values = sample(&strategy, N, 7);
    for value in &values {
        let errors: Vec<String> = v.iter_errors(value).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{schema}\n{value}\n{errors:?}");
    }
    // Unguarded: what construction alone produced.
    let cx = Cx::new(&schema, dialect(draft));
    let raw = cx.build(&[&schema], 0).unwrap();
    let bad = sample(&raw, N, 7).iter().filter(|x| !v.is_valid(x)).count();
    MISMATCHES.with(|m| {
        let (b, n) = m.get();
        m.set((b + bad, n + N));
    });
    if bad > 0 {
        eprintln!("{schema}: {bad} of {N} constructed values invalid");
    }
    assert!(
        bad * 20 <= N,
        "{schema}: {bad} of {N} constructed values invalid"
    );
    values
}

thread_local! {
    static MISMATCHES: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

fn report(family: &str) {
    let (bad, n) = MISMATCHES.with(Cell::get);
    eprintln!("{family}: {bad} of {n} constructed values invalid before the final check");
}

#[test]
fn objects_nested_required_additional_and_maps() {
    let person = json!({
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
    });
    let values = all_valid(person.clone(), Draft::Draft202012);
    assert!(values.iter().any(|v| v.get("age").is_some()));
    assert!(values.iter().any(|v| v.get("age").is_none()));
    all_valid(person, Draft::Draft7);
    let map = json!({
        "type": "object",
        "additionalProperties": {"type": "string", "maxLength": 8},
        "minProperties": 2,
        "maxProperties": 4
    });
    all_valid(map, Draft::Draft202012);
    let deps = json!({
        "type": "object",
        "properties": {"card": {"type": "string"}, "cvc": {"type": "string"}},
        "dependentRequired": {"card": ["cvc"]}
    });
    let values = all_valid(deps, Draft::Draft202012);
    assert!(values.iter().any(|v| v.get("card").is_some()));
    let deps7 = json!({
        "type": "object",
        "properties": {"card": {"type": "string"}, "cvc": {"type": "string"}},
        "dependencies": {"card": ["cvc"]}
    });
    all_valid(deps7, Draft::Draft7);
    let patterned = json!({
        "type": "object",
        "properties": {"x_a": {"type": "integer"}},
        "patternProperties": {"^x_": {"minimum": 10}},
        "required": ["x_a"],
        "additionalProperties": false
    });
    all_valid(patterned, Draft::Draft202012);
    report("objects");
}

#[test]
fn enums_consts_defaults_and_type_unions() {
    let mixed = json!({"enum": ["a", 1, null, {"k": [1, 2]}, 2.5, true]});
    let values = all_valid(mixed, Draft::Draft202012);
    assert!(values.iter().any(|v| v.is_object()) && values.iter().any(Value::is_null));
    let narrowed = json!({"type": "string", "enum": ["a", 1, "b"]});
    assert!(all_valid(narrowed, Draft::Draft7)
        .iter()
        .all(Value::is_string));
    all_valid(json!({"const": {"fixed": [1, "two"]}}), Draft::Draft202012);
    let union = json!({"type": ["string", "integer", "null"], "minimum": 3, "maxLength": 2});
    let values = all_valid(union, Draft::Draft202012);
    for t in [Types::STRING, Types::INTEGER, Types::NULL] {
        assert!(values.iter().any(|v| Types::of(v) == t));
    }
    let defaulted = json!({"type": "integer", "minimum": 0, "default": 42});
    assert!(all_valid(defaulted, Draft::Draft7).contains(&json!(42)));
    all_valid(json!(true), Draft::Draft202012);
    all_valid(json!({}), Draft::Draft7);
    report("enums");
}

#[test]
fn strings_patterns_and_formats() {
    let code = json!({"type": "string", "pattern": "^[a-z]{3}-[0-9]{2}$"});
    let values = all_valid(code, Draft::Draft202012);
    assert!(values.iter().all(|v| v.as_str().unwrap().len() == 6));
    all_valid(json!({"type": "string", "pattern": "abc"}), Draft::Draft7);
    all_valid(
        json!({"type": "string", "pattern": "^\\w+@\\d{2,3}\\.?\\s?x$"}),
        Draft::Draft202012,
    );
    all_valid(
        json!({"type": "string", "pattern": "^[A-Z][a-z]*$", "minLength": 3, "maxLength": 12}),
        Draft::Draft202012,
    );
    all_valid(
        json!({"type": "string", "minLength": 2, "maxLength": 5}),
        Draft::Draft202012,
    );
    for format in [
        "date-time",
        "date",
        "time",
        "email",
        "uri",
        "uuid",
        "ipv4",
        "ipv6",
        "hostname",
        "uri-reference",
        "json-pointer",
        "duration",
        "regex",
        "idn-hostname",
    ] {
        for draft in [Draft::Draft7, Draft::Draft202012] {
            all_valid(json!({"type": "string", "format": format}), draft);
        }
    }
    all_valid(
        json!({"type": "string", "format": "email", "maxLength": 30}),
        Draft::Draft202012,
    );
    // Unknown formats are annotations: plain strings.
    all_valid(
        json!({"type": "string", "format": "color"}),
        Draft::Draft202012,
    );
    report("strings");
}

#[test]
fn strings_carry_hostile_text_when_the_schema_allows() {
    let values = sample(
        &valid(&json!({"type": "string"}), &json!({})).unwrap(),
        500,
        3,
    );
    let texts: Vec<&str> = values.iter().map(|v| v.as_str().unwrap()).collect();
    assert!(
        texts.iter().any(|s| s.chars().any(|c| c as u32 > 0xFFFF)),
        "no astral"
    );
    assert!(
        texts.iter().any(|s| s.chars().any(|c| (c as u32) < 0x20)),
        "no control"
    );
    assert!(
        texts.iter().any(|s| s.chars().count() > 1000),
        "no long text"
    );
    assert!(texts
        .iter()
        .any(|s| s.chars().all(|c| c.is_ascii_alphanumeric())));
    // A JavaScript server counts UTF-16 units: stay within maxLength there too.
    let short = json!({"type": "string", "maxLength": 5});
    for v in sample(&valid(&short, &short).unwrap(), 500, 3) {
        assert!(v.as_str().unwrap().encode_utf16().count() <= 5, "{v}");
    }
}

#[test]
fn numbers_bounds_and_multiples() {
    let fives = json!({"type": "integer", "exclusiveMinimum": 0, "multipleOf": 5});
    let values = all_valid(fives, Draft::Draft202012);
    assert!(values
        .iter()
        .all(|v| v.as_i64().is_some_and(|i| i > 0 && i % 5 == 0)));
    let halves = json!({"type": "number", "multipleOf": 0.5});
    let values = all_valid(halves, Draft::Draft7);
    assert!(values.iter().any(|v| v.as_f64().unwrap().fract() != 0.0));
    all_valid(
        json!({"type": "number", "multipleOf": 0.01, "minimum": 0, "maximum": 1}),
        Draft::Draft202012,
    );
    all_valid(
        json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
        Draft::Draft202012,
    );
    let wide = all_valid(json!({"type": "integer"}), Draft::Draft202012);
    assert!(wide.iter().any(|v| v.as_i64().unwrap().abs() > 1 << 40));
    assert!(wide
        .iter()
        .all(|v| v.as_i64().unwrap().abs() <= SAFE_INTEGER as i64));
    all_valid(
        json!({"type": "number", "minimum": -1.5, "maximum": 1e300}),
        Draft::Draft202012,
    );
    all_valid(
        json!({"type": "integer", "multipleOf": 0.5, "maximum": -7}),
        Draft::Draft7,
    );
    all_valid(
        json!({"allOf": [{"multipleOf": 4}, {"multipleOf": 6}], "type": "integer"}),
        Draft::Draft202012,
    );
    all_valid(
        json!({"type": "number", "multipleOf": 0.1}),
        Draft::Draft202012,
    );
    report("numbers");
}

#[test]
fn arrays_items_prefix_and_unique() {
    let digits = json!({
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": 9},
        "uniqueItems": true,
        "minItems": 3
    });
    let values = all_valid(digits, Draft::Draft202012);
    assert!(values.iter().all(|v| v.as_array().unwrap().len() >= 3));
    let tuple = json!({
        "type": "array",
        "prefixItems": [{"type": "string"}, {"type": "integer"}],
        "items": {"type": "boolean"},
        "minItems": 1
    });
    let values = all_valid(tuple, Draft::Draft202012);
    assert!(values.iter().any(|v| v.as_array().unwrap().len() > 2));
    let tuple7 = json!({
        "type": "array",
        "items": [{"type": "string"}, {"type": "number"}],
        "additionalItems": false
    });
    all_valid(tuple7, Draft::Draft7);
    let unique_objects = json!({
        "type": "array",
        "items": {"type": "object", "properties": {"id": {"enum": [1, 2, 3, 4]}}, "required": ["id"], "additionalProperties": false},
        "uniqueItems": true,
        "maxItems": 4
    });
    all_valid(unique_objects, Draft::Draft7);
    report("arrays");
}

#[test]
fn refs_to_defs_definitions_and_recursion() {
    let defs = json!({
        "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}},
        "type": "object",
        "properties": {"from": {"$ref": "#/$defs/point"}, "to": {"$ref": "#/$defs/point"}},
        "required": ["from"]
    });
    all_valid(defs, Draft::Draft202012);
    let definitions = json!({
        "definitions": {"color": {"type": "string", "enum": ["red", "green"]}},
        "type": "object",
        "properties": {"fg": {"$ref": "#/definitions/color"}, "bg": {"$ref": "#/definitions/color"}},
        "required": ["fg", "bg"]
    });
    all_valid(definitions, Draft::Draft7);
    let tree = json!({
        "$defs": {"node": {"type": "object", "properties": {
            "value": {"type": "integer"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
        }, "required": ["value"]}},
        "$ref": "#/$defs/node"
    });
    let values = all_valid(tree, Draft::Draft202012);
    assert!(values
        .iter()
        .any(|v| v["children"].as_array().is_some_and(|c| !c.is_empty())));
    let siblings = json!({
        "$defs": {"s": {"type": "string"}},
        "$ref": "#/$defs/s",
        "maxLength": 3
    });
    all_valid(siblings, Draft::Draft202012);
    report("refs");
}

#[test]
fn any_one_all_of_and_not() {
    all_valid(
        json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
        Draft::Draft7,
    );
    let shapes = json!({"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number", "minimum": 0}}, "required": ["kind", "r"]},
        {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
    ]});
    all_valid(shapes, Draft::Draft202012);
    let overlapping = json!({"oneOf": [{"type": "number"}, {"type": "integer"}]});
    let values = all_valid(overlapping, Draft::Draft202012);
    assert!(values.iter().all(|v| !is_integer(v)));
    let merged = json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"properties": {"b": {"type": "integer", "maximum": 0}}, "required": ["b"]}
    ]});
    all_valid(merged, Draft::Draft202012);
    let not_empty = json!({"type": "string", "not": {"const": ""}});
    all_valid(not_empty, Draft::Draft202012);
    let nested_any = json!({"type": "object", "properties": {"v": {"anyOf": [
        {"type": "integer", "minimum": 10}, {"type": "array", "items": {"type": "boolean"}, "maxItems": 2}
    ]}}, "required": ["v"]});
    all_valid(nested_any, Draft::Draft7);
    report("combinators");
}

#[test]
fn without_a_dialect_the_values_satisfy_both_drafts() {
    let schemas = [
        json!({"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "maxLength": 3}),
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "string", "maxLength": 2}}),
        json!({"type": "object", "properties": {"a": {}, "b": {}, "c": {}},
               "dependentRequired": {"a": ["b"]}, "dependencies": {"b": ["c"]}}),
        json!({"type": "object", "minProperties": 3, "properties": {"a": {"type": "integer"}}}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
               "properties": {"path": {"type": "string"}, "dryRun": {"type": "boolean", "default": false},
                              "edits": {"type": "array", "items": {"type": "object",
                                "properties": {"oldText": {"type": "string"}, "newText": {"type": "string"}},
                                "required": ["oldText", "newText"], "additionalProperties": false}}},
               "required": ["path", "edits"], "additionalProperties": false}),
    ];
    for schema in schemas {
        let strategy = valid(&schema, &schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
        let values = sample(&strategy, N, 5);
        for draft in [Draft::Draft7, Draft::Draft202012] {
            let v = validator(&schema, draft);
            for value in &values {
                assert!(v.is_valid(value), "{schema} {draft:?}\n{value}");
            }
        }
    }
}

/// Whether every error of `value` lies at or below `pointer`.
fn errors_at(v: &jsonschema::Validator, value: &Value, pointer: &str) -> Result<(), String> {
    let errors: Vec<(String, String)> = v
        .iter_errors(value)
        .map(|e| (e.instance_path().as_str().to_owned(), e.to_string()))
        .collect();
    if errors.is_empty() {
        return Err(format!("{value} is valid"));
    }
    for (path, e) in &errors {
        let inside =
            pointer.is_empty() || path == pointer || path.starts_with(&format!("{pointer}/"));
        if !inside {
            return Err(format!("{value}: error at {path}, not {pointer}: {e}"));
        }
    }
    Ok(())
}

fn invalid_rules(schema: &Value, draft: Draft) -> Vec<String> {
    let v = validator(schema, draft);
    let variants = invalid_in(schema, schema, dialect(draft)).unwrap();
    for variant in &variants {
        for value in sample(&variant.strategy, 50, 11) {
            if let Err(e) = errors_at(&v, &value, &variant.pointer) {
                panic!("{}: {e}", variant.rule);
            }
        }
    }
    variants.into_iter().map(|v| v.rule).collect()
}

#[test]
fn invalid_variants_break_one_rule_at_their_pointer() {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 20},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "color": {"enum": ["red", "green", "blue"]},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.25},
            "address": {
                "type": "object",
                "properties": {
                    "street": {"type": "string"},
                    "zip": {"type": "string", "pattern": "^[0-9]{5}$"}
                },
                "required": ["zip"],
                "additionalProperties": false
            },
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 4}, "maxItems": 3}
        },
        "required": ["name", "address"],
        "additionalProperties": false
    });
    for draft in [Draft::Draft7, Draft::Draft202012] {
        let rules = invalid_rules(&schema, draft);
        for expected in [
            "(root): missing required property \"name\"",
            "(root): unknown property \"conformance_unknown_property\" (additionalProperties is false)",
            "/name: wrong type (object for string)",
            "/name: shorter than minLength 1",
            "/name: longer than maxLength 20",
            "/age: below minimum 0",
            "/age: above maximum 150",
            "/age: not an integer",
            "/color: value outside enum",
            "/ratio: not above exclusiveMinimum 0",
            "/ratio: not a multiple of 0.25",
            "/address: missing required property \"zip\"",
            "/address: unknown property \"conformance_unknown_property\" (additionalProperties is false)",
            "/address/zip: wrong type (object for string)",
            "/address/zip: does not match pattern \"^[0-9]{5}$\"",
            "/tags: more items than maxItems 3",
            "/tags/0: longer than maxLength 4",
        ] {
            assert!(rules.iter().any(|r| r == expected), "{expected} missing from {rules:#?}");
        }
    }
    let with_refs = json!({
        "$defs": {"zip": {"type": "string", "pattern": "^[0-9]{5}$"}},
        "type": "object",
        "properties": {"home": {"type": "object", "properties": {"zip": {"$ref": "#/$defs/zip"}}, "required": ["zip"]}},
        "required": ["home"]
    });
    let rules = invalid_rules(&with_refs, Draft::Draft202012);
    assert!(
        rules
            .iter()
            .any(|r| r == "/home/zip: wrong type (object for string)"),
        "{rules:?}"
    );
}

#[test]
fn what_cannot_be_generated_says_why() {
    let cases = [
        (
            json!({"type": "integer", "minimum": 0, "maximum": 3, "not": {"minimum": 0}}),
            "`not`",
        ),
        (
            json!({"if": {"type": "string"}, "then": {"minLength": 2}}),
            "`if`",
        ),
        (json!({"$ref": "#/$defs/missing"}), "cannot resolve $ref"),
        (json!({"$ref": "other.json#/x"}), "cannot resolve $ref"),
        (
            json!({"type": "array", "contains": {"type": "integer"}}),
            "`contains`",
        ),
        (
            json!({"type": "string", "pattern": "^(?=a)\\w+$"}),
            "lookarounds",
        ),
        (json!(false), "`false` schema"),
        (
            json!({"type": "string", "minLength": 5, "maxLength": 2}),
            "minLength",
        ),
        (
            json!({"allOf": [{"type": "string"}, {"type": "integer"}]}),
            "nothing in common",
        ),
        (json!({"enum": [1, 2], "type": "string"}), "`enum`"),
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"], "additionalProperties": false}),
            "required property \"b\"",
        ),
        (
            json!({"$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}, "required": ["next"]}}, "$ref": "#/$defs/n"}),
            "nests deeper",
        ),
        (
            json!({"type": "string", "format": "date", "pattern": "^2"}),
            "pattern",
        ),
    ];
    for (schema, why) in cases {
        match valid(&schema, &schema) {
            Ok(_) => panic!("{schema} was accepted"),
            Err(e) => assert!(e.0.contains(why), "{schema}: {e} does not mention {why}"),
        }
    }
    assert!(invalid(&json!(false), &json!(false)).is_err());
}

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

#[test]
fn ecma_patterns_translate_to_generator_syntax() {
    assert_eq!(
        translate_pattern("^[a-z]{3}-\\d{2}$").unwrap(),
        "[a-z]{3}-[0-9]{2}"
    );
    assert_eq!(translate_pattern("[\\w.-]+").unwrap(), "[A-Za-z0-9_.-]+");
    assert_eq!(translate_pattern("a\\/b\\u00e9").unwrap(), "a\\/b\\x{E9}");
    assert!(translate_pattern("(a)\\1").is_err());
    assert!(translate_pattern("\\bword").is_err());
}

#[test]
fn fractional_multiples_agree_in_decimal_and_binary() {
    let n = |x: f64| Number::from_f64(x).unwrap();
    assert_eq!(multiple_of(&n(0.07), 0.01), None); // 0.07 / 0.01 = 7.000000000000001
    assert_eq!(multiple_of(&n(0.5), 0.01), Some(true));
    assert_eq!(multiple_of(&n(0.555), 0.01), Some(false));
    assert_eq!(multiple_of(&Number::from(10), 5.0), Some(true));
    assert_eq!(number_value(-5, 2), json!(-0.05));
    assert_eq!(number_value(300, 2), json!(3));
}
