//! The classifier on the changes issue 30 names, each in the direction it names.

use serde_json::json;

use super::*;

fn classes(
    before: Value,
    after: Value,
    direction: Direction,
) -> Vec<(String, &'static str, Class)> {
    compare(&before, &after, direction)
        .into_iter()
        .map(|c| (c.pointer, c.what, c.class))
        .collect()
}

fn object(props: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": props, "required": required})
}

#[test]
fn the_same_schema_spelled_another_way_has_no_change() {
    let a = json!({
        "type": "object",
        "$defs": {"Mode": {"type": "string", "enum": ["a", "b"]}},
        "properties": {"mode": {"$ref": "#/$defs/Mode"}, "n": {"type": ["integer"], "minimum": 0}},
        "required": ["mode", "n"],
        "description": "old words"
    });
    let b = json!({
        "required": ["n", "mode"],
        "properties": {"n": {"minimum": 0, "type": "integer"}, "mode": {"enum": ["b", "a"], "type": "string"}},
        "type": "object",
        "title": "new words"
    });
    assert!(compare(&a, &b, Direction::Input).is_empty());
    // draft-07's `definitions` and `items` array; draft-04's boolean exclusiveMinimum.
    let old = json!({"definitions": {"P": {"type": "number", "minimum": 1, "exclusiveMinimum": true}},
        "type": "array", "items": [{"$ref": "#/definitions/P"}], "additionalItems": false});
    let new = json!({"type": "array", "prefixItems": [{"type": "number", "exclusiveMinimum": 1}], "items": false});
    assert!(
        compare(&old, &new, Direction::Input).is_empty(),
        "{:?}",
        compare(&old, &new, Direction::Input)
    );
}

#[test]
fn a_recursive_reference_is_cut_not_followed() {
    let tree = json!({"$defs": {"N": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/N"}}}}},
        "$ref": "#/$defs/N"});
    assert!(compare(&tree, &tree, Direction::Input).is_empty());
    let normal = normalize(&tree);
    assert_eq!(
        normal.pointer("/properties/kids/items/$ref"),
        Some(&json!("#/$defs/N"))
    );
}

#[test]
fn inputs_narrowed_break_and_widened_are_compatible() {
    let base = object(
        json!({"q": {"type": "string"}, "mode": {"enum": ["a", "b"]}, "n": {"type": "number", "maximum": 10}}),
        &["q"],
    );
    let cases = [
        (
            object(
                json!({"q": {"type": "string"}, "mode": {"enum": ["a", "b"]}, "n": {"type": "number", "maximum": 10}, "limit": {"type": "integer"}}),
                &["q", "limit"][..],
            ),
            vec![
                ("/properties/limit", "property added", Class::Compatible),
                ("/required", "required property added", Class::Breaking),
            ],
        ),
        (
            object(
                json!({"q": {"type": "string"}, "mode": {"enum": ["a"]}, "n": {"type": "number", "maximum": 10}}),
                &["q"][..],
            ),
            vec![(
                "/properties/mode/enum",
                "enum values removed",
                Class::Breaking,
            )],
        ),
        (
            object(
                json!({"q": {"type": "string"}, "mode": {"enum": ["a", "b", "c"]}, "n": {"type": "number", "maximum": 10}}),
                &["q"][..],
            ),
            vec![(
                "/properties/mode/enum",
                "enum values added",
                Class::Compatible,
            )],
        ),
        (
            object(
                json!({"q": {"type": "string"}, "mode": {"enum": ["a", "b"]}, "n": {"type": "integer", "maximum": 10}}),
                &["q"][..],
            ),
            vec![("/properties/n/type", "type narrowed", Class::Breaking)],
        ),
        (
            object(
                json!({"q": {"type": "string"}, "mode": {"enum": ["a", "b"]}, "n": {"type": "number", "maximum": 5}}),
                &["q"][..],
            ),
            vec![(
                "/properties/n/maximum",
                "upper bound tightened",
                Class::Breaking,
            )],
        ),
        (
            object(
                json!({"q": {"type": "string"}, "mode": {"enum": ["a", "b"]}, "n": {"type": "number", "maximum": 50}}),
                &["q"][..],
            ),
            vec![(
                "/properties/n/maximum",
                "upper bound relaxed",
                Class::Compatible,
            )],
        ),
        (
            object(
                json!({"q": {"type": "string", "pattern": "^[a-z]+$"}, "mode": {"enum": ["a", "b"]}, "n": {"type": "number", "maximum": 10}}),
                &["q"][..],
            ),
            vec![("/properties/q/pattern", "pattern changed", Class::Breaking)],
        ),
    ];
    for (after, want) in cases {
        let after = after;
        let got = classes(base.clone(), after.clone(), Direction::Input);
        let want: Vec<(String, &str, Class)> = want
            .into_iter()
            .map(|(p, w, c)| (p.to_string(), w, c))
            .collect();
        assert_eq!(got, want, "{after}");
    }
    let mut closed = base.clone();
    closed["additionalProperties"] = json!(false);
    assert_eq!(
        classes(base.clone(), closed, Direction::Input),
        [(
            "/additionalProperties".to_string(),
            "additional properties closed",
            Class::Breaking
        )]
    );
}

#[test]
fn outputs_break_when_a_client_reads_less_or_something_new() {
    let base = object(
        json!({"a": {"type": "string"}, "b": {"type": "integer"}}),
        &["a", "b"],
    );
    let removed = object(json!({"a": {"type": "string"}}), &["a"]);
    assert_eq!(
        classes(base.clone(), removed, Direction::Output),
        [
            (
                "/properties/b".to_string(),
                "property removed",
                Class::Breaking
            ),
            (
                "/required".to_string(),
                "property no longer required",
                Class::Breaking
            ),
        ]
    );
    let widened = object(
        json!({"a": {"type": "string"}, "b": {"type": ["integer", "string"]}}),
        &["a", "b"],
    );
    assert_eq!(
        classes(base.clone(), widened, Direction::Output),
        [(
            "/properties/b/type".to_string(),
            "type widened",
            Class::Breaking
        )]
    );
    let added = object(
        json!({"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "string"}}),
        &["a", "b", "c"],
    );
    let got = classes(base.clone(), added, Direction::Output);
    assert!(
        got.iter().all(|(_, _, c)| *c == Class::Compatible),
        "{got:?}"
    );
    // A new enum value in an output is a case a client may not handle: review.
    let e = |v: Value| object(json!({"s": {"enum": v}}), &[]);
    assert_eq!(
        classes(e(json!(["x"])), e(json!(["x", "y"])), Direction::Output),
        [(
            "/properties/s/enum".to_string(),
            "enum values added",
            Class::Review
        )]
    );
}

#[test]
fn combinators_are_left_to_review_and_pointers_are_escaped() {
    let a = object(
        json!({"a/b~c": {"oneOf": [{"type": "string"}, {"type": "null"}]}}),
        &[],
    );
    let b = object(json!({"a/b~c": {"oneOf": [{"type": "string"}]}}), &[]);
    assert_eq!(
        classes(a, b, Direction::Input),
        [(
            "/properties/a~1b~0c/oneOf".to_string(),
            "combinator changed (review)",
            Class::Review
        )]
    );
}

#[test]
fn the_same_meaning_in_another_spelling_is_no_change() {
    let none = |a: Value, b: Value, d: Direction| {
        assert_eq!(classes(a.clone(), b.clone(), d), [], "{a} -> {b}")
    };
    let n = |t: Value| object(json!({"n": t}), &[]);
    // integer within number: the same set written twice.
    none(
        n(json!({"type": "number"})),
        n(json!({"type": ["integer", "number"]})),
        Direction::Input,
    );
    // A bound in another number spelling.
    none(
        n(json!({"maximum": 100})),
        n(json!({"maximum": 100.0})),
        Direction::Output,
    );
    // `{}` and `true`, and a schema of annotations only, accept the same.
    none(n(json!({})), n(json!(true)), Direction::Output);
    none(
        n(json!({"description": "any"})),
        n(json!(true)),
        Direction::Input,
    );
    // A `$ref` with a keyword beside it, and the same inline.
    let with_ref = json!({"type": "object", "$defs": {"S": {"type": "string"}},
        "properties": {"s": {"$ref": "#/$defs/S", "maxLength": 3}}});
    let inline = object(json!({"s": {"type": "string", "maxLength": 3}}), &[]);
    none(with_ref, inline, Direction::Input);
}

#[test]
fn an_enum_gaining_integer_beside_number_is_an_added_value_not_a_narrowing() {
    let e = |v: Value| object(json!({"s": {"enum": v}}), &[]);
    assert_eq!(
        classes(
            e(json!(["number", "string"])),
            e(json!(["number", "string", "integer"])),
            Direction::Input
        ),
        [(
            "/properties/s/enum".to_string(),
            "enum values added",
            Class::Compatible
        )]
    );
}

#[test]
fn format_is_to_review_and_const_objects_are_data() {
    let s = |v: Value| object(json!({"s": v}), &[]);
    assert_eq!(
        classes(
            s(json!({"type": "string"})),
            s(json!({"type": "string", "format": "email"})),
            Direction::Input
        ),
        [(
            "/properties/s/format".to_string(),
            "format changed",
            Class::Review
        )]
    );
    let got = classes(
        s(json!({"const": {"title": "a"}})),
        s(json!({"const": {"title": "b"}})),
        Direction::Input,
    );
    assert_eq!(got.len(), 1, "{got:?}");
}

#[test]
fn references_below_a_definition_resolve_and_hostile_ones_stay_bounded() {
    let deep = json!({"type": "object", "$defs": {"A": {"properties": {"y": {"type": "string"}}}},
        "properties": {"x": {"$ref": "#/$defs/A/properties/y"}}});
    assert_eq!(
        normalize(&deep)["properties"]["x"],
        json!({"type": ["string"]})
    );
    // 40 definitions each using the next twice: 2^40 nodes if inlined without a bound.
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/D{}", i + 1);
        defs.insert(
            format!("D{i}"),
            json!({"properties": {"a": {"$ref": next}, "b": {"$ref": next}}}),
        );
    }
    defs.insert("D40".into(), json!({"type": "string"}));
    let bomb = json!({"$defs": defs, "$ref": "#/$defs/D0"});
    // Past the bound the references stay as written: the result is small, and it returns.
    let out = normalize(&bomb).to_string();
    assert!(out.len() < 64 << 20, "{} bytes", out.len());
    assert!(out.contains("\"$ref\""));
}

#[test]
fn keywords_beside_a_ref_add_to_its_target_and_defs_are_never_output() {
    let defs = json!({"A": {"type": "object", "properties": {"a": {"type": "string"}}}});
    let with = |a_type: &str| {
        json!({"$defs": {"A": {"type": "object", "properties": {"a": {"type": a_type}}}},
            "$ref": "#/$defs/A", "properties": {"extra": {"type": "string"}}})
    };
    let _ = defs;
    // The target's properties are not written over by the ones beside the reference.
    let got = classes(with("string"), with("integer"), Direction::Input);
    assert!(
        got.iter()
            .any(|(p, _, c)| p.ends_with("/a/type") && *c == Class::Breaking),
        "{got:?}"
    );
    // A reference to the root copies no `$defs`.
    let recursive = json!({"$defs": {"X": {"type": "string"}}, "type": "object",
        "properties": {"self": {"$ref": "#"}}});
    assert!(!normalize(&recursive).to_string().contains("$defs"));
}
