//! Invalid instances: one variant per rule broken, each instance breaking exactly that rule
//! and otherwise satisfying the schema.
//!
//! A rule is broken by building valid instances of the schema with the rule replaced by its
//! opposite (`minimum` becomes `exclusiveMaximum`, `pattern` is dropped, `enum` becomes "of a
//! listed type"), or by editing a valid instance (a required property left out, an unknown
//! one added), and keeping what the judge finds surely invalid for the original and surely
//! valid for the patched schema. Nested rules are broken inside a property or the first
//! array item of an otherwise valid parent.
//!
//! Rules are listed first and built only when kept: building one probes dozens of whole
//! instances, so a schema with thousands of rules and instances of thousands of values is
//! sampled evenly to what the caller's budget of drawn values pays for
//! ([`INVALID_PLAN_VALUES`]), deterministically.

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{json, Map, Value};

use super::filter::{guard, guard_few, guard_map};
use super::flat::Flat;
use super::judge::{pointer_to_object, Held, SchemaDoc};
use super::pointer::show;
use super::types::{is_integer, Dialect, InvalidVariant, Types, Unsupported};
use super::valid::{spread_indexes, Cx};
use crate::protocol::pointer_token;

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
    invalid_at(schema, root, Arc::new(root.clone()), dialect, usize::MAX).map(|i| i.variants)
}

/// [`invalid_in`] for the root schema of a document the caller shares (not copied),
/// building at most as many variants as `budget` generated values pay for
/// ([`INVALID_PLAN_VALUES`]), and saying what it left out.
pub fn invalid_doc(
    doc: Arc<dyn SchemaDoc>,
    dialect: Dialect,
    budget: usize,
) -> Result<Invalids, Unsupported> {
    let root = doc.schema();
    invalid_at(root, root, Arc::clone(&doc), dialect, budget)
}

/// Generated values (JSON values in drawn instances) that building the invalid variants
/// of a revision's tools may draw, shared by the tools. Each variant is probed with
/// [`PROBES_PER_VARIANT`] whole instances before it is kept, so a tool whose instances
/// hold thousands of values and whose rules number in the thousands (5,000 bounded
/// properties: 20,000 rules) would draw billions (it ran for over 10 minutes); past its
/// share of this budget a tool's rules are sampled evenly instead. About 15 s of drawing
/// at most; a tool of a few dozen properties needs a few thousand values and keeps every
/// rule.
pub const INVALID_PLAN_VALUES: usize = 2_000_000;

/// Draws that probe the whole-instance check of a variant already guarded where its rule
/// is broken (it fails there almost never; the probe is to catch one that always does).
const WHOLE_PROBES: u32 = 8;

/// Whole instances drawn to probe one variant: the filter where its rule is broken (a
/// nested rule's filter draws its parent, the whole instance for a property of the top
/// level) and the whole-instance check.
pub const PROBES_PER_VARIANT: usize = (super::filter::PROBES + WHOLE_PROBES) as usize;

/// Instances drawn to estimate how many values an instance holds.
const SIZE_DRAWS: u32 = 8;

/// A schema's invalid variants, and the rules left out when there were too many to build.
#[derive(Clone, Debug)]
pub struct Invalids {
    /// The variants built, in the order of their rules.
    pub variants: Vec<InvalidVariant>,
    /// Rules the schema has that could be broken.
    pub rules: usize,
    /// Rules whose variants were built (all of them unless the budget sampled them, none
    /// when it did not pay for one); a rule that turns out not to be breakable alone drops
    /// out while built.
    pub tried: usize,
    /// The most JSON values an instance held, of a few drawn (what a probe costs).
    pub values: usize,
}

fn invalid_at(
    schema: &Value,
    root: &Value,
    doc: Arc<dyn SchemaDoc>,
    dialect: Dialect,
    budget: usize,
) -> Result<Invalids, Unsupported> {
    super::budget::within_budget(schema, root, dialect)?;
    let cx = Cx::new(root, doc, dialect);
    // Nothing can be broken alone where nothing valid can be built.
    let valid = cx.build(&[schema], 0)?;
    let values = instance_values(&valid);
    let pending = cx.variants(&[schema], "", 0);
    let rules = pending.len();
    let tried = rules.min(budget / (PROBES_PER_VARIANT * values));
    // Held once for every variant (by its place in the document when it is the root).
    let whole = Arc::new(cx.hold(schema));
    let mut variants = Vec::new();
    for p in sampled(pending, tried) {
        if super::interrupt::interrupted() {
            return Err(Unsupported::new(super::interrupt::INTERRUPTED));
        }
        let judge = cx.judge.clone();
        let whole = whole.clone();
        let broken = move |v: &Value| judge.check_held(v, &whole) == Some(false);
        let built = (p.build)()
            .and_then(|raw| guard_few(raw, "the instance is not invalid", broken, WHOLE_PROBES));
        if let Ok(strategy) = built {
            variants.push(InvalidVariant {
                rule: p.rule,
                pointer: p.pointer,
                strategy,
            });
        }
    }
    Ok(Invalids {
        variants,
        rules,
        tried,
        values,
    })
}

/// The most JSON values (at least 1) in a few instances drawn from `valid` with the
/// filters' fixed seed.
fn instance_values(valid: &BoxedStrategy<Value>) -> usize {
    let mut runner = super::filter::probe_runner();
    (0..SIZE_DRAWS)
        .filter_map(|_| valid.new_tree(&mut runner).ok())
        .map(|tree| count_values(&tree.current()))
        .max()
        .unwrap_or(1)
        .max(1)
}

/// JSON values in `v`, itself included.
fn count_values(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count_values).sum(),
        Value::Object(o) => o.values().map(count_values).sum(),
        _ => 0,
    }
}

/// `keep` of `pending`, spread evenly over them in order (all when they are no more): a
/// fixed choice, so the plan stays deterministic.
fn sampled(pending: Vec<Pending<'_>>, keep: usize) -> impl Iterator<Item = Pending<'_>> {
    let mut kept = spread_indexes(pending.len(), keep).peekable();
    pending
        .into_iter()
        .enumerate()
        .filter_map(move |(i, p)| kept.next_if_eq(&i).map(|_| p))
}

/// Deepest field an invalid variant is placed in.
const INVALID_DEPTH: usize = 4;

/// A node's conjunction, as its flattened parts.
type Parts<'a> = Vec<&'a Map<String, Value>>;

/// Builds a rule's strategy (without the whole-instance check) when asked.
type Build<'c> = Box<dyn FnOnce() -> Result<BoxedStrategy<Value>, Unsupported> + 'c>;

/// A rule that can be broken, named, with its strategy not built yet: building probes
/// whole instances, which is what the planning budget bounds, so rules are listed first
/// and only those kept are built.
struct Pending<'c> {
    rule: String,
    pointer: String,
    build: Build<'c>,
}

/// The schema node whose rules are being broken, and the rules found for it so far.
struct Node<'f, 'a, 'c> {
    /// The node's conjunction, flattened.
    flat: &'f Flat<'a>,
    /// Where the node is in the instance (a JSON pointer).
    pointer: &'f str,
    depth: usize,
    /// The node's schemas, held for judging.
    held: Arc<Vec<Held>>,
    /// Valid instances of the node.
    valid: BoxedStrategy<Value>,
    out: Vec<Pending<'c>>,
}

impl<'a, 'c> Node<'_, 'a, 'c> {
    /// What a rule's builder keeps of the node: its parts, depth and held schemas.
    fn parts(&self) -> (Parts<'a>, usize, Arc<Vec<Held>>) {
        (self.flat.parts.clone(), self.depth, self.held.clone())
    }

    /// The rule's name: where it is broken, then what breaking it is.
    fn rule(&self, what: &str) -> String {
        format!("{}: {what}", show(self.pointer))
    }

    /// Lists a rule broken at this node, its strategy built by `build` when asked.
    fn add(
        &mut self,
        rule: String,
        build: impl FnOnce() -> Result<BoxedStrategy<Value>, Unsupported> + 'c,
    ) {
        self.out.push(Pending {
            rule,
            pointer: self.pointer.to_owned(),
            build: Box::new(build),
        });
    }
}

impl<'a> Cx<'a> {
    fn variants<'c>(
        &'c self,
        members: &[&'a Value],
        pointer: &str,
        depth: usize,
    ) -> Vec<Pending<'c>>
    where
        'a: 'c,
    {
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
    fn wrong_type<'c>(&'c self, node: &mut Node<'_, 'a, 'c>, types: Option<Types>) {
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
                move || Ok(Just(value).boxed()),
            );
        }
        if t.0 == Types::INTEGER {
            let (parts, depth, held) = node.parts();
            node.add(node.rule("not an integer"), move || {
                let patched = patch(
                    self.root,
                    &parts,
                    &["type"],
                    Some(json!({"type": "number"})),
                );
                self.breaking(&patched, depth, &held, |v| !is_integer(v))
            });
        }
    }

    /// Out of range: each bound replaced by its opposite.
    fn out_of_range<'c>(&'c self, node: &mut Node<'_, 'a, 'c>) {
        for (word, pick, what, opposite) in BOUNDS {
            let Some(bound) = node.flat.numbers(word).ok().and_then(pick) else {
                continue;
            };
            let (parts, depth, held) = node.parts();
            node.add(
                node.rule(&format!("{what} {}", number_text(bound))),
                move || {
                    let patched = patch(self.root, &parts, &[word], Some(opposite(bound)));
                    self.breaking(&patched, depth, &held, |_| true)
                },
            );
        }
    }

    /// A string the `pattern` does not match: the pattern dropped.
    fn unmatched_pattern<'c>(&'c self, node: &mut Node<'_, 'a, 'c>) {
        if let Some(p) = node.flat.words("pattern").find_map(Value::as_str) {
            let (parts, depth, held) = node.parts();
            node.add(
                node.rule(&format!("does not match pattern {p:?}")),
                move || {
                    let patched = patch(self.root, &parts, &["pattern"], None);
                    self.breaking(&patched, depth, &held, |_| true)
                },
            );
        }
    }

    /// A value outside `enum` / other than `const`, but of a listed type where `type` does
    /// not already say.
    fn outside_list<'c>(&'c self, node: &mut Node<'_, 'a, 'c>, types: Option<Types>) {
        let flat = node.flat;
        if !flat.has_any(&["enum", "const"]) {
            return;
        }
        let what = if flat.has_any(&["enum"]) {
            "value outside enum"
        } else {
            "value other than const"
        };
        let (parts, depth, held) = node.parts();
        node.add(node.rule(what), move || {
            let listed: Vec<&Value> = parts
                .iter()
                .filter_map(|p| p.get("enum"))
                .filter_map(Value::as_array)
                .flatten()
                .chain(parts.iter().filter_map(|p| p.get("const")))
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
            let patched = patch(self.root, &parts, &["enum", "const"], same_type);
            self.breaking(&patched, depth, &held, |_| true)
        });
    }

    /// Objects: each required property left out of a valid instance.
    fn missing_required<'c>(&'c self, node: &mut Node<'_, 'a, 'c>) {
        let mut required: Vec<String> = Vec::new();
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for r in node.flat.words("required").filter_map(Value::as_array) {
            for name in r.iter().filter_map(Value::as_str) {
                if seen.insert(name) {
                    required.push(name.to_owned());
                }
            }
        }
        for name in required {
            let (parts, _, held) = node.parts();
            let valid = node.valid.clone();
            node.add(
                node.rule(&format!("missing required property {name:?}")),
                move || {
                    let patched = patch_each(self.root, &parts, |m| {
                        if let Some(Value::Array(r)) = m.get_mut("required") {
                            r.retain(|n| n != name.as_str());
                        }
                    });
                    let base = valid
                        .prop_map(move |mut v| {
                            if let Some(o) = v.as_object_mut() {
                                o.shift_remove(&name);
                            }
                            v
                        })
                        .boxed();
                    self.only_breaking(base, &held, patched)
                },
            );
        }
    }

    /// Objects: an unknown property added where `additionalProperties` is false.
    fn unknown_property<'c>(&'c self, node: &mut Node<'_, 'a, 'c>) {
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
        let (parts, _, held) = node.parts();
        let valid = node.valid.clone();
        let rule = node.rule(&format!(
            "unknown property {unknown:?} (additionalProperties is false)"
        ));
        node.add(rule, move || {
            let patched = patch(self.root, &parts, &["additionalProperties"], None);
            let base = valid
                .prop_map(move |mut v| {
                    if let Some(o) = v.as_object_mut() {
                        o.insert(unknown.clone(), json!("conformance"));
                    }
                    v
                })
                .boxed();
            self.only_breaking(base, &held, patched)
        });
    }

    /// Nested: a rule broken inside a property, or inside the first array item, of an
    /// otherwise valid instance of the node.
    fn nested<'c>(&'c self, node: &mut Node<'_, 'a, 'c>) {
        for (slot, schemas) in slots(node.flat) {
            let child_pointer = match &slot {
                Slot::Property(name) => format!("{}/{}", node.pointer, pointer_token(name)),
                Slot::FirstItem => format!("{}/0", node.pointer),
            };
            let depth = node.depth + 1;
            let schemas = Arc::new(schemas);
            for child in self.variants(&schemas, &child_pointer, depth) {
                let (_, _, held) = node.parts();
                let (valid, slot, schemas) = (node.valid.clone(), slot.clone(), schemas.clone());
                node.out.push(Pending {
                    rule: child.rule,
                    pointer: child.pointer,
                    build: Box::new(move || {
                        // Memoised: built once for the slot's rules.
                        let child_valid = self.build(&schemas, depth)?;
                        let base = (valid, child_valid, (child.build)()?).boxed();
                        let judge = self.judge.clone();
                        guard_map(
                            base,
                            "the parent cannot hold the broken value",
                            move |(parent, good, bad)| {
                                let with_good = slot.put(parent.clone(), good)?;
                                (judge.all_held(&with_good, &held) == Some(true)).then_some(())?;
                                slot.put(parent, bad)
                            },
                        )
                    }),
                });
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
                    let here = format!("{at}/{}", pointer_token(word));
                    let by_reference = schemas.iter().map(|(name, schema)| {
                        let schema = match schema {
                            Value::Object(_) => {
                                reference(format!("{here}/{}", pointer_token(name)))
                            }
                            other => other.clone(),
                        };
                        (name.clone(), schema)
                    });
                    Value::Object(by_reference.collect())
                }
                (Some(at), "items" | "additionalProperties", Value::Object(_)) => {
                    reference(format!("{at}/{}", pointer_token(word)))
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
    // Each property's place in `nested`: a search of the list per property was quadratic
    // (80,000 properties took most of a minute).
    let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for props in flat.words("properties").filter_map(Value::as_object) {
        for (name, schema) in props {
            match at.get(name.as_str()) {
                Some(&i) => nested[i].1.push(schema),
                None => {
                    at.insert(name, nested.len());
                    nested.push((Slot::Property(name.clone()), vec![schema]));
                }
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

    /// An object of `n` bounded integer properties, the first `required` of them required.
    fn wide(n: usize, required: usize) -> Value {
        let properties: Map<String, Value> = (0..n)
            .map(|i| {
                (
                    format!("p{i:03}"),
                    json!({"type": "integer", "minimum": 0, "maximum": 9}),
                )
            })
            .collect();
        let names: Vec<String> = (0..required).map(|i| format!("p{i:03}")).collect();
        json!({"type": "object", "properties": properties, "required": names, "additionalProperties": false})
    }

    fn rules_of(budget: usize) -> (Invalids, Vec<String>) {
        let doc: Arc<dyn SchemaDoc> = Arc::new(wide(60, 6));
        let built = invalid_doc(doc, Dialect::Draft7, budget).unwrap();
        let rules = built.variants.iter().map(|v| v.rule.clone()).collect();
        (built, rules)
    }

    #[test]
    fn a_budget_too_small_for_every_rule_samples_them_evenly_and_the_same_each_time() {
        let (all, every) = rules_of(usize::MAX);
        // 6 required, 1 unknown, and per property: wrong type, fraction, two bounds.
        assert_eq!((all.rules, all.tried, every.len()), (247, 247, 247));
        let per_variant = PROBES_PER_VARIANT * all.values;
        let (some, sampled_rules) = rules_of(10 * per_variant);
        assert_eq!((some.rules, some.tried), (247, 10));
        assert_eq!(sampled_rules.len(), 10);
        // Spread over the listing order: the first rule, then every 24th or 25th.
        let at: Vec<usize> = (0..10).map(|k| k * 247 / 10).collect();
        let expected: Vec<String> = at.iter().map(|i| every[*i].clone()).collect();
        assert_eq!(sampled_rules, expected);
        assert_eq!(rules_of(10 * per_variant).1, sampled_rules);
        // Less than one variant's worth builds none, and says so.
        let (none, _) = rules_of(per_variant - 1);
        assert_eq!((none.rules, none.tried, none.variants.len()), (247, 0, 0));
    }

    #[test]
    fn sampling_keeps_the_first_and_spreads_the_rest() {
        let picked = |len: usize, keep: usize| -> Vec<usize> {
            let pending: Vec<Pending<'_>> = (0..len)
                .map(|i| Pending {
                    rule: i.to_string(),
                    pointer: String::new(),
                    build: Box::new(|| Err(Unsupported::new("unused"))),
                })
                .collect();
            sampled(pending, keep)
                .map(|p| p.rule.parse().unwrap())
                .collect()
        };
        assert_eq!(picked(10, 3), [0, 3, 6]);
        assert_eq!(picked(4, 4), [0, 1, 2, 3]);
        assert_eq!(picked(4, 9), [0, 1, 2, 3]);
        assert_eq!(picked(5, 0), Vec::<usize>::new());
    }

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
