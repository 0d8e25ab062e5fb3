//! Invalid instances: one variant per rule broken, each instance breaking exactly that rule
//! and otherwise satisfying the schema.
//!
//! A rule is broken by building valid instances of the schema with the rule replaced by its
//! opposite (`minimum` becomes `exclusiveMaximum`, `pattern` is dropped, `enum` becomes "of a
//! listed type"), or by editing a valid instance (a required property left out, an unknown
//! one added), and keeping what the judge finds surely invalid for the original and surely
//! valid for the patched schema. Nested rules are broken inside a property or the first
//! array item of an otherwise valid parent.

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{json, Map, Value};

use super::filter::{guard, guard_map};
use super::flat::Flat;
use super::judge::{pointer_to_object, Held, SchemaDoc};
use super::pointer::{escape_pointer, show};
use super::types::{is_integer, Dialect, InvalidVariant, Types, Unsupported};
use super::valid::Cx;

/// Invalid instances of `schema`, one variant per rule broken (missing required property,
/// wrong type, out of range, unknown property where `additionalProperties` is false, value
/// outside `enum`), at the top level and inside nested objects and arrays. The top level keeps
/// its type, as tool `arguments` is an object by the protocol. `Err` when not even valid
/// instances can be generated; a rule that cannot be broken alone is left out.
pub fn invalid(schema: &Value, root: &Value) -> Result<Vec<InvalidVariant>, Unsupported> {
    invalid_in(schema, root, Dialect::of(root))
}

/// [`invalid`] in a known dialect.
pub fn invalid_in(
    schema: &Value,
    root: &Value,
    dialect: Dialect,
) -> Result<Vec<InvalidVariant>, Unsupported> {
    invalid_at(schema, root, Arc::new(root.clone()), dialect)
}

/// [`invalid_in`] for the root schema of a document the caller shares (not copied).
pub fn invalid_doc(
    doc: Arc<dyn SchemaDoc>,
    dialect: Dialect,
) -> Result<Vec<InvalidVariant>, Unsupported> {
    let root = doc.schema();
    invalid_at(root, root, Arc::clone(&doc), dialect)
}

fn invalid_at(
    schema: &Value,
    root: &Value,
    doc: Arc<dyn SchemaDoc>,
    dialect: Dialect,
) -> Result<Vec<InvalidVariant>, Unsupported> {
    super::budget::within_budget(schema, root, dialect)?;
    let cx = Cx::new(root, doc, dialect);
    // Nothing can be broken alone where nothing valid can be built.
    let _valid = cx.build(&[schema], 0)?;
    let mut out = Vec::new();
    // Held once for every variant (by its place in the document when it is the root).
    let whole = Arc::new(cx.hold(schema));
    for raw in cx.variants(&[schema], "", 0) {
        let judge = cx.judge.clone();
        let whole = whole.clone();
        let broken = move |v: &Value| judge.check_held(v, &whole) == Some(false);
        if let Ok(strategy) = guard(raw.strategy, "the instance is not invalid", broken) {
            out.push(InvalidVariant {
                rule: raw.rule,
                pointer: raw.pointer,
                strategy,
            });
        }
    }
    Ok(out)
}

/// Deepest field an invalid variant is placed in.
const INVALID_DEPTH: usize = 4;

/// The schema node whose rules are being broken, and the variants found for it so far.
struct Node<'f, 'a> {
    /// The node's conjunction, flattened.
    flat: &'f Flat<'a>,
    /// Where the node is in the instance (a JSON pointer).
    pointer: &'f str,
    depth: usize,
    /// The node's schemas, held for judging.
    held: Arc<Vec<Held>>,
    /// Valid instances of the node.
    valid: BoxedStrategy<Value>,
    out: Vec<Raw>,
}

impl Node<'_, '_> {
    /// The rule's name: where it is broken, then what breaking it is.
    fn rule(&self, what: &str) -> String {
        format!("{}: {what}", show(self.pointer))
    }

    /// Keeps a variant breaking `rule` at this node, when its strategy could be built.
    fn add(&mut self, rule: String, strategy: Result<BoxedStrategy<Value>, Unsupported>) {
        if let Ok(strategy) = strategy {
            self.out.push(Raw {
                rule,
                pointer: self.pointer.to_owned(),
                strategy,
            });
        }
    }
}

impl<'a> Cx<'a> {
    fn variants(&self, members: &[&'a Value], pointer: &str, depth: usize) -> Vec<Raw> {
        if depth > INVALID_DEPTH {
            return Vec::new();
        }
        let Ok(flat) = self.flatten(members) else {
            return Vec::new();
        };
        if !flat.alternatives.is_empty() || !flat.nots.is_empty() {
            return Vec::new();
        }
        let Ok(valid) = self.build(members, depth) else {
            return Vec::new();
        };
        let mut node = Node {
            flat: &flat,
            pointer,
            depth,
            held: Arc::new(members.iter().map(|m| self.hold(m)).collect()),
            valid,
            out: Vec::new(),
        };
        let types = declared_types(&flat);
        self.wrong_type(&mut node, types);
        self.out_of_range(&mut node);
        self.unmatched_pattern(&mut node);
        self.outside_list(&mut node, types);
        self.missing_required(&mut node);
        self.unknown_property(&mut node);
        self.nested(&mut node);
        node.out
    }

    /// A value of another type (not at the top: `arguments` is an object by the protocol),
    /// and a fraction where `type` asks for an integer.
    fn wrong_type(&self, node: &mut Node<'_, 'a>, types: Option<Types>) {
        let (Some(t), false) = (types, node.pointer.is_empty()) else {
            return;
        };
        let wrong = [
            (
                json!({"conformance": "a value of the wrong type"}),
                "object",
            ),
            (json!("conformance"), "string"),
            (json!(["conformance"]), "array"),
            (json!(true), "boolean"),
            (json!(7), "integer"),
            (Value::Null, "null"),
        ];
        if let Some((value, name)) = wrong.into_iter().find(|(v, _)| {
            !t.has(Types::of(v)) && self.judge.all_held(v, &node.held) == Some(false)
        }) {
            node.add(
                node.rule(&format!("wrong type ({name} for {})", t.describe())),
                Ok(Just(value).boxed()),
            );
        }
        if t.0 == Types::INTEGER {
            let patched = patch(
                self.root,
                &node.flat.parts,
                &["type"],
                Some(json!({"type": "number"})),
            );
            let strategy = self.breaking(&patched, node.depth, &node.held, |v| !is_integer(v));
            node.add(node.rule("not an integer"), strategy);
        }
    }

    /// Out of range: each bound replaced by its opposite.
    fn out_of_range(&self, node: &mut Node<'_, 'a>) {
        for (word, pick, what, opposite) in BOUNDS {
            let Some(bound) = node.flat.numbers(word).ok().and_then(pick) else {
                continue;
            };
            let patched = patch(self.root, &node.flat.parts, &[word], Some(opposite(bound)));
            let strategy = self.breaking(&patched, node.depth, &node.held, |_| true);
            node.add(
                node.rule(&format!("{what} {}", number_text(bound))),
                strategy,
            );
        }
    }

    /// A string the `pattern` does not match: the pattern dropped.
    fn unmatched_pattern(&self, node: &mut Node<'_, 'a>) {
        if let Some(p) = node.flat.words("pattern").find_map(Value::as_str) {
            let patched = patch(self.root, &node.flat.parts, &["pattern"], None);
            let strategy = self.breaking(&patched, node.depth, &node.held, |_| true);
            node.add(
                node.rule(&format!("does not match pattern {p:?}")),
                strategy,
            );
        }
    }

    /// A value outside `enum` / other than `const`, but of a listed type where `type` does
    /// not already say.
    fn outside_list(&self, node: &mut Node<'_, 'a>, types: Option<Types>) {
        let flat = node.flat;
        if !flat.has_any(&["enum", "const"]) {
            return;
        }
        let listed: Vec<&Value> = flat
            .words("enum")
            .filter_map(Value::as_array)
            .flatten()
            .chain(flat.words("const"))
            .collect();
        let same_type = (types.is_none() && !listed.is_empty()).then(|| {
            let bits = listed.iter().fold(0, |b, v| b | Types::of(v));
            let bits = if bits & Types::FRACTION != 0 {
                bits | Types::INTEGER
            } else {
                bits
            };
            json!({"type": Types(bits).names()})
        });
        let patched = patch(self.root, &flat.parts, &["enum", "const"], same_type);
        let what = if flat.has_any(&["enum"]) {
            "value outside enum"
        } else {
            "value other than const"
        };
        let strategy = self.breaking(&patched, node.depth, &node.held, |_| true);
        node.add(node.rule(what), strategy);
    }

    /// Objects: each required property left out of a valid instance.
    fn missing_required(&self, node: &mut Node<'_, 'a>) {
        let mut required: Vec<String> = Vec::new();
        for r in node.flat.words("required").filter_map(Value::as_array) {
            for name in r.iter().filter_map(Value::as_str) {
                if !required.iter().any(|q| q == name) {
                    required.push(name.to_owned());
                }
            }
        }
        for name in &required {
            let patched = patch_each(self.root, &node.flat.parts, |m| {
                if let Some(Value::Array(r)) = m.get_mut("required") {
                    r.retain(|n| n != name.as_str());
                }
            });
            let gone = name.clone();
            let base = node
                .valid
                .clone()
                .prop_map(move |mut v| {
                    if let Some(o) = v.as_object_mut() {
                        o.shift_remove(&gone);
                    }
                    v
                })
                .boxed();
            let strategy = self.only_breaking(base, &node.held, patched);
            node.add(
                node.rule(&format!("missing required property {name:?}")),
                strategy,
            );
        }
    }

    /// Objects: an unknown property added where `additionalProperties` is false.
    fn unknown_property(&self, node: &mut Node<'_, 'a>) {
        let flat = node.flat;
        if !flat
            .words("additionalProperties")
            .any(|a| a == &Value::Bool(false))
        {
            return;
        }
        let mut unknown = "conformance_unknown_property".to_owned();
        while flat.words("properties").any(|p| p.get(&unknown).is_some()) {
            unknown.push('_');
        }
        let patched = patch(self.root, &flat.parts, &["additionalProperties"], None);
        let added = unknown.clone();
        let base = node
            .valid
            .clone()
            .prop_map(move |mut v| {
                if let Some(o) = v.as_object_mut() {
                    o.insert(added.clone(), json!("conformance"));
                }
                v
            })
            .boxed();
        let strategy = self.only_breaking(base, &node.held, patched);
        node.add(
            node.rule(&format!(
                "unknown property {unknown:?} (additionalProperties is false)"
            )),
            strategy,
        );
    }

    /// Nested: a rule broken inside a property, or inside the first array item, of an
    /// otherwise valid instance of the node.
    fn nested(&self, node: &mut Node<'_, 'a>) {
        for (slot, schemas) in slots(node.flat) {
            let child_pointer = match &slot {
                Slot::Property(name) => format!("{}/{}", node.pointer, escape_pointer(name)),
                Slot::FirstItem => format!("{}/0", node.pointer),
            };
            let child_variants = self.variants(&schemas, &child_pointer, node.depth + 1);
            if child_variants.is_empty() {
                continue;
            }
            let Ok(child_valid) = self.build(&schemas, node.depth + 1) else {
                continue;
            };
            for child in child_variants {
                let judge = self.judge.clone();
                let held = node.held.clone();
                let slot = slot.clone();
                let base = (node.valid.clone(), child_valid.clone(), child.strategy).boxed();
                let strategy = guard_map(
                    base,
                    "the parent cannot hold the broken value",
                    move |(parent, good, bad)| {
                        let with_good = slot.put(parent.clone(), good)?;
                        (judge.all_held(&with_good, &held) == Some(true)).then_some(())?;
                        slot.put(parent, bad)
                    },
                );
                if let Ok(strategy) = strategy {
                    node.out.push(Raw {
                        rule: child.rule,
                        pointer: child.pointer,
                        strategy,
                    });
                }
            }
        }
    }

    /// `base` kept where it breaks the node but satisfies `patched` (the node without the
    /// rule being broken).
    fn only_breaking(
        &self,
        base: BoxedStrategy<Value>,
        node: &Arc<Vec<Held>>,
        patched: Value,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
        let judge = self.judge.clone();
        let node = node.clone();
        guard(base, "the rule cannot be broken alone", move |v| {
            judge.all_held(v, &node) == Some(false) && judge.check(v, &patched) == Some(true)
        })
    }

    /// Values valid for `patched` (the node with one rule replaced by its opposite) and
    /// invalid for the node itself.
    fn breaking(
        &self,
        patched: &Value,
        depth: usize,
        node: &Arc<Vec<Held>>,
        extra: fn(&Value) -> bool,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
        let cx = self.patched();
        let base = cx.build(&[patched], depth)?;
        let judge = self.judge.clone();
        let node = node.clone();
        let patched = patched.clone();
        guard(base, "the rule cannot be broken alone", move |v| {
            extra(v)
                && judge.all_held(v, &node) == Some(false)
                && judge.check(v, &patched) == Some(true)
        })
    }
}

/// Where a nested invalid value goes in its parent.
#[derive(Clone, Debug)]
enum Slot {
    Property(String),
    FirstItem,
}

impl Slot {
    fn put(&self, mut parent: Value, child: Value) -> Option<Value> {
        match (self, &mut parent) {
            (Slot::Property(name), Value::Object(o)) => {
                o.insert(name.clone(), child);
            }
            (Slot::FirstItem, Value::Array(a)) => {
                if a.is_empty() {
                    a.push(child);
                } else {
                    a[0] = child;
                }
            }
            _ => return None,
        }
        Some(parent)
    }
}

/// An invalid variant before the whole-instance check.
struct Raw {
    rule: String,
    pointer: String,
    strategy: BoxedStrategy<Value>,
}

/// Keywords already expanded into a `Flat`'s parts.
const STRUCTURAL: &[&str] = &["$ref", "allOf", "anyOf", "oneOf", "not", "$id", "$schema"];

/// The conjunction of `parts` with `drop` removed and `add` added, as one schema (the
/// parts' nested schemas by reference: [`lean`]).
fn patch(root: &Value, parts: &[&Map<String, Value>], drop: &[&str], add: Option<Value>) -> Value {
    let mut all: Vec<Value> = parts
        .iter()
        .map(|p| Value::Object(lean(root, p, drop)))
        .collect();
    all.extend(add);
    json!({ "allOf": all })
}

/// The conjunction of `parts`, each edited by `edit`, as one schema (the parts' nested
/// schemas by reference: [`lean`]).
fn patch_each(
    root: &Value,
    parts: &[&Map<String, Value>],
    mut edit: impl FnMut(&mut Map<String, Value>),
) -> Value {
    let mut all = Vec::new();
    for p in parts {
        let mut m = lean(root, p, &[]);
        edit(&mut m);
        all.push(Value::Object(m));
    }
    json!({ "allOf": all })
}

/// `part` as a patched schema holds it: without its structural keywords and `drop`, and
/// with each schema nested under `properties`, `patternProperties`, `items` or
/// `additionalProperties` a `$ref` to its place in `root` instead of a copy. A property
/// with a 100,000-member `enum` was copied whole for every rule broken beside it (14 MB a
/// copy); a reference judges and generates the same. A part outside `root` (built for an
/// outer patch) is copied.
fn lean(root: &Value, part: &Map<String, Value>, drop: &[&str]) -> Map<String, Value> {
    let at = pointer_to_object(root, part);
    let reference =
        |pointer: String| json!({ "$ref": format!("#{}", pointer.replace('%', "%25")) });
    part.iter()
        .filter(|(word, _)| !STRUCTURAL.contains(&word.as_str()) && !drop.contains(&word.as_str()))
        .map(|(word, value)| {
            let value = match (&at, word.as_str(), value) {
                (Some(at), "properties" | "patternProperties", Value::Object(schemas)) => {
                    let here = format!("{at}/{}", escape_pointer(word));
                    let by_reference = schemas.iter().map(|(name, schema)| {
                        let schema = match schema {
                            Value::Object(_) => {
                                reference(format!("{here}/{}", escape_pointer(name)))
                            }
                            other => other.clone(),
                        };
                        (name.clone(), schema)
                    });
                    Value::Object(by_reference.collect())
                }
                (Some(at), "items" | "additionalProperties", Value::Object(_)) => {
                    reference(format!("{at}/{}", escape_pointer(word)))
                }
                _ => value.clone(),
            };
            (word.clone(), value)
        })
        .collect()
}

/// The types `type` admits, intersected over the conjunction (`None` where no `type` parses).
fn declared_types(flat: &Flat<'_>) -> Option<Types> {
    let mut types: Option<Types> = None;
    for t in flat.words("type") {
        if let Ok(t) = Types::parse(t) {
            types = Some(Types(types.map_or(t.0, |u| u.0 & t.0)));
        }
    }
    types
}

/// The places a nested rule can be broken, each with the schemas that apply there: every
/// property the node declares (in order), then its first array item.
fn slots<'a>(flat: &Flat<'a>) -> Vec<(Slot, Vec<&'a Value>)> {
    let mut nested: Vec<(Slot, Vec<&'a Value>)> = Vec::new();
    for props in flat.words("properties").filter_map(Value::as_object) {
        for (name, schema) in props {
            match nested
                .iter_mut()
                .find(|(slot, _)| matches!(slot, Slot::Property(n) if n == name))
            {
                Some((_, schemas)) => schemas.push(schema),
                None => nested.push((Slot::Property(name.clone()), vec![schema])),
            }
        }
    }
    let items: Vec<&'a Value> = flat.words("items").filter(|i| !i.is_array()).collect();
    if !items.is_empty() && !flat.has_any(&["prefixItems"]) {
        nested.push((Slot::FirstItem, items));
    }
    nested
}

/// Which bound of several applies.
type BoundPick = fn(Vec<f64>) -> Option<f64>;
/// A bound keyword, how to pick the one that applies, what breaking it is called, and the
/// keyword that asks for its opposite.
type BoundRule = (&'static str, BoundPick, &'static str, fn(f64) -> Value);

/// Out of range: each bound keyword, and the keyword that asks for its opposite.
const BOUNDS: [BoundRule; 9] = [
    (
        "minimum",
        most,
        "below minimum",
        |b| json!({"exclusiveMaximum": b}),
    ),
    (
        "exclusiveMinimum",
        most,
        "not above exclusiveMinimum",
        |b| json!({"maximum": b}),
    ),
    (
        "maximum",
        least,
        "above maximum",
        |b| json!({"exclusiveMinimum": b}),
    ),
    (
        "exclusiveMaximum",
        least,
        "not below exclusiveMaximum",
        |b| json!({"minimum": b}),
    ),
    ("multipleOf", least, "not a multiple of", |_| json!({})),
    (
        "minLength",
        most_positive,
        "shorter than minLength",
        |b| json!({"maxLength": b as u64 - 1}),
    ),
    (
        "maxLength",
        least,
        "longer than maxLength",
        |b| json!({"minLength": b as u64 + 1}),
    ),
    (
        "minItems",
        most_positive,
        "fewer items than minItems",
        |b| json!({"maxItems": b as u64 - 1}),
    ),
    (
        "maxItems",
        least,
        "more items than maxItems",
        |b| json!({"minItems": b as u64 + 1}),
    ),
];

fn most(v: Vec<f64>) -> Option<f64> {
    v.into_iter().reduce(f64::max)
}

fn least(v: Vec<f64>) -> Option<f64> {
    v.into_iter().reduce(f64::min)
}

fn most_positive(v: Vec<f64>) -> Option<f64> {
    most(v).filter(|b| *b > 0.0)
}

fn number_text(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::pointer::{resolve, RefSyntax};

    #[test]
    fn a_patched_part_refers_to_its_nested_schemas_and_they_resolve_to_the_same() {
        let root = json!({
            "type": "object",
            "properties": {
                "big": {"enum": (0..1000).collect::<Vec<_>>()},
                "a/b~c%d": {"type": "string"},
                "yes": true
            },
            "patternProperties": {"^x": {"type": "integer"}},
            "additionalProperties": {"type": "boolean"},
            "required": ["big"],
            "allOf": [{"minProperties": 1}]
        });
        let part = root.as_object().unwrap();
        let lean_part = lean(&root, part, &["required"]);
        assert!(!lean_part.contains_key("required") && !lean_part.contains_key("allOf"));
        assert_eq!(lean_part["type"], "object");
        assert_eq!(lean_part["properties"]["yes"], true);
        for (patched, original) in [
            (&lean_part["properties"]["big"], &root["properties"]["big"]),
            (
                &lean_part["properties"]["a/b~c%d"],
                &root["properties"]["a/b~c%d"],
            ),
            (
                &lean_part["patternProperties"]["^x"],
                &root["patternProperties"]["^x"],
            ),
            (
                &lean_part["additionalProperties"],
                &root["additionalProperties"],
            ),
        ] {
            let reference = patched["$ref"].as_str().unwrap();
            let target = resolve(reference, &root, RefSyntax::Uri).unwrap();
            assert!(std::ptr::eq(target, original), "{reference}");
        }
        let outside = json!({"properties": {"p": {"type": "string"}}});
        let copied = lean(&root, outside.as_object().unwrap(), &[]);
        assert_eq!(Value::Object(copied), outside);
    }
}
