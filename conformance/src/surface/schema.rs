//! Two JSON Schemas compared by meaning, each change classified for the clients of a tool.
//!
//! Both sides are first normalized ([`normalize`]): local `$ref`s are inlined (a cycle is
//! cut, never followed), `definitions` and `$defs` are one, draft-07's array `items` is
//! 2020-12's `prefixItems`, draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum` is the
//! numeric form, `type` is a sorted list, and annotations (`title`, `description`,
//! `examples`, `$comment`, `$schema`) are dropped. Key order never matters (the values are
//! compared as JSON). Then the two are walked together, and each keyword that differs is
//! one [`Change`] with its RFC 6901 pointer, before and after.
//!
//! A change is classified by whether it takes something away from a client ([`Class`]):
//! for an input (what clients send) that is a narrowing: a required property added, a type
//! or enum narrowed, a bound tightened, a pattern added, `additionalProperties` closed; for
//! an output (what clients read) a widening: a property removed or no longer required, a
//! type widened, a bound relaxed. The opposite moves are compatible. What cannot be judged
//! keyword by keyword (`oneOf`, `anyOf`, `allOf`, `not`, `if`, `patternProperties`) is
//! left to review, as is an enum value added to an output (a client may switch on it).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::protocol::{pointer_name, pointer_token, string_items};

/// Which way a schema's values flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// A tool's `inputSchema`: clients send values.
    Input,
    /// A tool's `outputSchema`: clients read values.
    Output,
}

/// What a change does to a tool's clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Clients that worked may fail.
    Breaking,
    /// A person must judge (the keyword's meaning cannot be compared mechanically).
    Review,
    /// Clients that worked still work.
    Compatible,
}

impl Class {
    /// The class as reports name it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Breaking => "breaking",
            Class::Review => "review",
            Class::Compatible => "compatible",
        }
    }
}

/// One difference between two schemas.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// RFC 6901 pointer into the (normalized) schema.
    pub pointer: String,
    /// What changed, in words ("required property added").
    pub what: &'static str,
    /// The value before (`None`: absent).
    pub before: Option<Value>,
    /// The value after (`None`: absent).
    pub after: Option<Value>,
    /// What it does to clients.
    pub class: Class,
}

/// Keywords that describe and never constrain.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "examples",
    "$comment",
    "$schema",
    "$id",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Keywords whose change is left to review: their effect is not one keyword's.
const COMBINATORS: &[&str] = &[
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "dependentSchemas",
    "dependentRequired",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "contains",
];

/// Lower bounds: raising one narrows. Upper bounds: lowering one narrows.
const LOWER_BOUNDS: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
    "minContains",
];
const UPPER_BOUNDS: &[&str] = &[
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
    "maxContains",
];

/// Most `$ref`s inlined one inside another: past it a reference is kept as written (a
/// chain of references deeper than any real schema's, and the stack it would take).
const MAX_REF_DEPTH: usize = 32;
/// Most schema nodes one schema may grow to by inlining: past it references are kept as
/// written (30 definitions that each use the next twice would be 2^30 nodes).
const MAX_INLINED_NODES: usize = 100_000;

/// The schema in one spelling (see the module doc).
pub fn normalize(schema: &Value) -> Value {
    let mut inliner = Inliner {
        root: schema,
        defs: definitions(schema),
        seen: Vec::new(),
        nodes: 0,
    };
    let mut out = inliner.inline(schema);
    if let Value::Object(map) = &mut out {
        map.remove("$defs");
        map.remove("definitions");
        if map.is_empty() {
            out = Value::Bool(true);
        }
    }
    out
}

/// The root's `$defs` and `definitions`, merged (2020-12's name wins).
fn definitions(root: &Value) -> Map<String, Value> {
    let mut defs = Map::new();
    for key in ["definitions", "$defs"] {
        if let Some(Value::Object(d)) = root.get(key) {
            defs.extend(d.clone());
        }
    }
    defs
}

/// Inlines local `$ref`s and writes keywords in one spelling, within its bounds.
struct Inliner<'a> {
    root: &'a Value,
    defs: Map<String, Value>,
    /// The references being inlined above: one met again is a cycle, kept as a `$ref`.
    seen: Vec<String>,
    /// Schema nodes written so far.
    nodes: usize,
}

impl Inliner<'_> {
    /// `schema` with its local `$ref`s inlined and its keywords in one spelling; a schema
    /// that constrains nothing (`{}`, or only annotations) is `true`.
    fn inline(&mut self, schema: &Value) -> Value {
        let Value::Object(map) = schema else {
            return schema.clone();
        };
        self.nodes += 1;
        let mut out = match map.get("$ref") {
            Some(Value::String(reference)) => match self.target(reference) {
                Some(Value::Object(target)) => target,
                Some(Value::Bool(true)) => Map::new(),
                Some(other) => return other,
                None => {
                    Map::from_iter([("$ref".to_string(), Value::String(canonical_ref(reference)))])
                }
            },
            _ => Map::new(),
        };
        // Keywords beside a `$ref` apply too (2020-12): merged into the target's, and a
        // keyword both have is kept apart, as `allOf`, not written over.
        let mut beside = Map::new();
        for (key, value) in map {
            // `$defs` are only targets (read from the root as written), never output.
            if matches!(key.as_str(), "$ref" | "$defs" | "definitions")
                || ANNOTATIONS.contains(&key.as_str())
            {
                continue;
            }
            let value = self.keyword(key, value);
            match out.get(key).map(|own| both(key, own, &value)) {
                None => {
                    out.insert(key.clone(), value);
                }
                Some(Some(merged)) => {
                    out.insert(key.clone(), merged);
                }
                Some(None) => {
                    beside.insert(key.clone(), value);
                }
            }
        }
        if !beside.is_empty() {
            respell(&mut beside);
            let all = vec![
                Value::Object(std::mem::take(&mut out)),
                Value::Object(beside),
            ];
            out.insert("allOf".to_string(), Value::Array(all));
        }
        respell(&mut out);
        if out.is_empty() {
            Value::Bool(true)
        } else {
            Value::Object(out)
        }
    }

    /// The inlined target of `reference`; `None` to keep the reference as written (not
    /// local, not found, a cycle, or past the bounds).
    fn target(&mut self, reference: &str) -> Option<Value> {
        let over = self.seen.len() >= MAX_REF_DEPTH || self.nodes >= MAX_INLINED_NODES;
        if over || self.seen.iter().any(|r| r == reference) {
            return None;
        }
        let target = resolve(reference, self.root, &self.defs)?;
        // Charged whole: what inlining copies is at least the target's size.
        self.nodes = self.nodes.saturating_add(size(&target));
        if self.nodes > MAX_INLINED_NODES {
            return None;
        }
        self.seen.push(reference.to_string());
        let inlined = self.inline(&target);
        self.seen.pop();
        Some(inlined)
    }

    /// One keyword's value in one spelling: subschemas inlined, sets sorted, data kept.
    fn keyword(&mut self, key: &str, value: &Value) -> Value {
        match key {
            "properties" | "$defs" | "definitions" | "dependentSchemas" | "patternProperties" => {
                match value {
                    Value::Object(props) => Value::Object(
                        props
                            .iter()
                            .map(|(k, v)| (k.clone(), self.inline(v)))
                            .collect(),
                    ),
                    other => other.clone(),
                }
            }
            "type" => sorted_types(value),
            "required" | "enum" => sorted(value),
            // Values, not schemas: an object here is data.
            "const" => value.clone(),
            _ => match value {
                Value::Object(_) => self.inline(value),
                Value::Array(items) => Value::Array(items.iter().map(|v| self.inline(v)).collect()),
                other => other.clone(),
            },
        }
    }
}

/// One keyword that a `$ref`'s target and a keyword beside it both have, as one, where
/// both applying is one keyword: `properties` (a name in both: `allOf` of its two
/// schemas) and `required` (the union). `None`: kept apart.
fn both(key: &str, own: &Value, beside: &Value) -> Option<Value> {
    match (key, own, beside) {
        ("properties", Value::Object(a), Value::Object(b)) => {
            let mut merged = a.clone();
            for (name, schema) in b {
                let value = match a.get(name) {
                    Some(first) if first != schema => Value::Object(Map::from_iter([(
                        "allOf".to_string(),
                        Value::Array(vec![first.clone(), schema.clone()]),
                    )])),
                    _ => schema.clone(),
                };
                merged.insert(name.clone(), value);
            }
            Some(Value::Object(merged))
        }
        ("required", Value::Array(a), Value::Array(b)) => {
            let mut all = a.clone();
            all.extend(b.iter().filter(|v| !a.contains(v)).cloned());
            Some(sorted(&Value::Array(all)))
        }
        _ => None,
    }
}

/// How many JSON values `value` holds, itself included.
fn size(value: &Value) -> usize {
    1 + match value {
        Value::Object(map) => map.values().map(size).sum(),
        Value::Array(items) => items.iter().map(size).sum(),
        _ => 0,
    }
}

/// The target of a local reference (`#`, `#/$defs/X`, `#/definitions/X`, a pointer
/// below one of them, any pointer into the root).
fn resolve(reference: &str, root: &Value, defs: &Map<String, Value>) -> Option<Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root.clone());
    }
    for prefix in ["/$defs/", "/definitions/"] {
        if let Some(rest) = pointer.strip_prefix(prefix) {
            let (name, below) = rest.split_once('/').map_or((rest, ""), |(n, b)| (n, b));
            let found = defs.get(&pointer_name(name)).and_then(|def| {
                if below.is_empty() {
                    Some(def.clone())
                } else {
                    def.pointer(&format!("/{below}")).cloned()
                }
            });
            if found.is_some() {
                return found;
            }
        }
    }
    root.pointer(pointer).cloned()
}

/// `#/definitions/X` and `#/$defs/X` written one way.
fn canonical_ref(reference: &str) -> String {
    reference.replacen("#/definitions/", "#/$defs/", 1)
}

/// draft-07 and draft-04 spellings in 2020-12's.
fn respell(map: &mut Map<String, Value>) {
    if let Some(Value::Array(_)) = map.get("items") {
        let tuple = map.remove("items").unwrap_or(Value::Null);
        map.insert("prefixItems".to_string(), tuple);
        if let Some(rest) = map.remove("additionalItems") {
            map.insert("items".to_string(), rest);
        }
    }
    for (flag, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if let Some(Value::Bool(exclusive)) = map.get(flag).cloned() {
            map.remove(flag);
            if exclusive {
                if let Some(value) = map.remove(bound) {
                    map.insert(flag.to_string(), value);
                }
            }
        }
    }
}

fn sorted_types(value: &Value) -> Value {
    match value {
        Value::String(t) => Value::Array(vec![Value::String(t.clone())]),
        Value::Array(_) => sorted(value),
        other => other.clone(),
    }
}

fn sorted(value: &Value) -> Value {
    match value {
        Value::Array(items) => {
            let mut items = items.clone();
            items.sort_by_key(|v| v.to_string());
            items.dedup();
            Value::Array(items)
        }
        other => other.clone(),
    }
}

/// Every change from `before` to `after` (both normalized here), classified for
/// `direction`, in pointer order.
pub fn compare(before: &Value, after: &Value, direction: Direction) -> Vec<Change> {
    let mut walk = Walk {
        direction,
        changes: Vec::new(),
    };
    walk.schema("", &normalize(before), &normalize(after));
    walk.changes
}

struct Walk {
    direction: Direction,
    changes: Vec<Change>,
}

impl Walk {
    /// Records a change whose effect on an input is `narrows` (takes something away from
    /// what clients may send) or not; an output's is the opposite.
    fn push(
        &mut self,
        pointer: String,
        what: &'static str,
        before: Option<&Value>,
        after: Option<&Value>,
        narrows: Option<bool>,
    ) {
        let class = match (narrows, self.direction) {
            (None, _) => Class::Review,
            (Some(true), Direction::Input) | (Some(false), Direction::Output) => Class::Breaking,
            (Some(false), Direction::Input) | (Some(true), Direction::Output) => Class::Compatible,
        };
        self.push_class(pointer, what, before, after, class);
    }

    fn push_class(
        &mut self,
        pointer: String,
        what: &'static str,
        before: Option<&Value>,
        after: Option<&Value>,
        class: Class,
    ) {
        self.changes.push(Change {
            pointer,
            what,
            before: before.cloned(),
            after: after.cloned(),
            class,
        });
    }

    fn schema(&mut self, at: &str, before: &Value, after: &Value) {
        if before == after {
            return;
        }
        let (Value::Object(b), Value::Object(a)) = (before, after) else {
            // `true`/`false` schemas or a schema replaced by another shape.
            let narrows = match (before, after) {
                (Value::Bool(true), _) => Some(true),
                (_, Value::Bool(true)) => Some(false),
                _ => None,
            };
            self.push(
                at.to_string(),
                "schema replaced",
                Some(before),
                Some(after),
                narrows,
            );
            return;
        };
        let keys: BTreeSet<&String> = b.keys().chain(a.keys()).collect();
        for key in keys {
            let here = format!("{at}/{}", pointer_token(key));
            let (old, new) = (b.get(key.as_str()), a.get(key.as_str()));
            if old == new {
                continue;
            }
            self.keyword(key, here, old, new);
        }
    }

    fn keyword(&mut self, key: &str, here: String, old: Option<&Value>, new: Option<&Value>) {
        match key {
            "properties" => self.properties(&here, old, new),
            "required" => self.required(&here, old, new),
            "type" | "enum" => self.set(key, here, old, new),
            "const" => self.push(here, "const changed", old, new, const_change(old, new)),
            "pattern" => {
                // Added: narrows; removed: widens; changed: cannot be compared.
                let narrows = match (old, new) {
                    (None, Some(_)) => Some(true),
                    (Some(_), None) => Some(false),
                    _ => None,
                };
                self.push(here, "pattern changed", old, new, narrows);
            }
            // An annotation by default in 2020-12 (the dialect from 2025-11-25), an
            // assertion only where a validator opts in: to review, never breaking.
            "format" => self.push(here, "format changed", old, new, None),
            "additionalProperties" | "items" => self.openness(key, here, old, new),
            k if LOWER_BOUNDS.contains(&k) || UPPER_BOUNDS.contains(&k) => {
                self.bound(k, here, old, new)
            }
            k if COMBINATORS.contains(&k) => {
                self.push(here, "combinator changed (review)", old, new, None);
            }
            "prefixItems" => match (old, new) {
                (Some(Value::Array(o)), Some(Value::Array(n))) if o.len() == n.len() => {
                    for (i, (o, n)) in o.iter().zip(n).enumerate() {
                        self.schema(&format!("{here}/{i}"), o, n);
                    }
                }
                _ => self.push(here, "tuple changed", old, new, None),
            },
            "$ref" => self.push(here, "recursive reference changed", old, new, None),
            _ => self.push(here, "keyword changed", old, new, None),
        }
    }

    /// `type` or `enum`, compared as sets. `integer` is within `number`: ["number"] ->
    /// ["integer"] narrows, and ["number"] -> ["integer", "number"] is no change at all.
    fn set(&mut self, key: &str, here: String, old: Option<&Value>, new: Option<&Value>) {
        let is_type = key == "type";
        let Some(narrows) = set_change(old, new, is_type) else {
            return;
        };
        if is_type {
            let what = words(narrows, ["type narrowed", "type widened", "type changed"]);
            match narrows {
                // Types taken away and others given: clients that sent one of the old
                // ones, or read only those, both break.
                None => self.push_class(here, what, old, new, Class::Breaking),
                _ => self.push(here, what, old, new, narrows),
            }
            return;
        }
        let what = words(
            narrows,
            ["enum values removed", "enum values added", "enum changed"],
        );
        match (self.direction, narrows) {
            // An input's values taken away (others given or not): clients break.
            (Direction::Input, None) => self.push_class(here, what, old, new, Class::Breaking),
            // An output's new enum value is a client's unhandled case: review.
            (Direction::Output, Some(false) | None) => self.push(here, what, old, new, None),
            _ => self.push(here, what, old, new, narrows),
        }
    }

    /// `additionalProperties` or `items`: a subschema on both sides is compared as one;
    /// otherwise what counts is whether more is allowed (absent or not `false`).
    fn openness(&mut self, key: &str, here: String, old: Option<&Value>, new: Option<&Value>) {
        if let (Some(o @ Value::Object(_)), Some(n @ Value::Object(_))) = (old, new) {
            return self.schema(&here, o, n);
        }
        let open = |v: Option<&Value>| v.is_none_or(|v| *v != Value::Bool(false));
        let narrows = match (open(old), open(new)) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        };
        let what = match (key, narrows) {
            ("items", Some(true)) => "further items closed",
            ("items", Some(false)) => "further items allowed",
            (_, Some(true)) => "additional properties closed",
            (_, Some(false)) => "additional properties allowed",
            _ => "additional values changed",
        };
        self.push(here, what, old, new, narrows);
    }

    /// A lower or upper bound.
    fn bound(&mut self, key: &str, here: String, old: Option<&Value>, new: Option<&Value>) {
        let (change, name) = if LOWER_BOUNDS.contains(&key) {
            (bound_change(old, new, |o, n| n > o), "lower bound")
        } else {
            (bound_change(old, new, |o, n| n < o), "upper bound")
        };
        if let Some(narrows) = change {
            let what = bound_words(old, new, narrows, name);
            self.push(here, what, old, new, narrows);
        }
    }

    /// Properties added and removed, and each kept one compared. Whether one is required
    /// is the `required` keyword's change. An added property is compatible either way (an
    /// input a client may leave out, an output a client may ignore); a removed output is
    /// breaking (clients read it), a removed input is for review (an open object may still
    /// take it, ignored).
    fn properties(&mut self, here: &str, old: Option<&Value>, new: Option<&Value>) {
        let props = |v: Option<&Value>| v.and_then(Value::as_object).cloned().unwrap_or_default();
        let (o, n) = (props(old), props(new));
        let names: BTreeSet<&String> = o.keys().chain(n.keys()).collect();
        for name in names {
            let at = format!("{here}/{}", pointer_token(name));
            match (o.get(name.as_str()), n.get(name.as_str())) {
                (Some(b), Some(a)) => self.schema(&at, b, a),
                (None, Some(a)) => {
                    self.push_class(at, "property added", None, Some(a), Class::Compatible)
                }
                (Some(b), None) => {
                    let class = match self.direction {
                        Direction::Input => Class::Review,
                        Direction::Output => Class::Breaking,
                    };
                    self.push_class(at, "property removed", Some(b), None, class);
                }
                (None, None) => {}
            }
        }
    }

    fn required(&mut self, here: &str, old: Option<&Value>, new: Option<&Value>) {
        let names = |v: Option<&Value>| -> BTreeSet<String> {
            string_items(v).map(str::to_string).collect()
        };
        let (o, n) = (names(old), names(new));
        for added in n.difference(&o) {
            let value = Value::String(added.clone());
            self.push(
                here.to_string(),
                "required property added",
                None,
                Some(&value),
                Some(true),
            );
        }
        for removed in o.difference(&n) {
            let value = Value::String(removed.clone());
            self.push(
                here.to_string(),
                "property no longer required",
                Some(&value),
                None,
                Some(false),
            );
        }
    }
}

/// A set keyword (`type`, `enum`): `None` when both say the same, else `Some(Some(true))`
/// when values were only taken away (or the keyword appeared), `Some(Some(false))` when
/// only added (or it went), `Some(None)` when both. With `integer_in_number` (`type`), a
/// set naming `number` names `integer` too.
fn set_change(
    old: Option<&Value>,
    new: Option<&Value>,
    integer_in_number: bool,
) -> Option<Option<bool>> {
    let set = |v: &Value| -> BTreeSet<String> {
        let mut s: BTreeSet<String> = v
            .as_array()
            .map(|a| a.iter().map(Value::to_string).collect())
            .unwrap_or_default();
        if integer_in_number && s.contains("\"number\"") {
            s.insert("\"integer\"".to_string());
        }
        s
    };
    match (old, new) {
        (None, Some(_)) => Some(Some(true)),
        (Some(_), None) => Some(Some(false)),
        (Some(o), Some(n)) => {
            let (o, n) = (set(o), set(n));
            if o == n {
                None
            } else if n.is_subset(&o) {
                Some(Some(true))
            } else if o.is_subset(&n) {
                Some(Some(false))
            } else {
                Some(None)
            }
        }
        (None, None) => None,
    }
}

/// The words for a change that narrows (`Some(true)`), widens (`Some(false)`) or neither.
fn words(narrows: Option<bool>, [narrowed, widened, changed]: [&'static str; 3]) -> &'static str {
    match narrows {
        Some(true) => narrowed,
        Some(false) => widened,
        None => changed,
    }
}

/// "lower bound added", "... removed", "... tightened", "... relaxed".
fn bound_words(
    old: Option<&Value>,
    new: Option<&Value>,
    narrows: Option<bool>,
    bound: &str,
) -> &'static str {
    let lower = bound == "lower bound";
    match (old.is_some(), new.is_some(), narrows, lower) {
        (false, true, _, true) => "lower bound added",
        (false, true, _, false) => "upper bound added",
        (true, false, _, true) => "lower bound removed",
        (true, false, _, false) => "upper bound removed",
        (_, _, Some(true), true) => "lower bound tightened",
        (_, _, Some(true), false) => "upper bound tightened",
        (_, _, Some(false), true) => "lower bound relaxed",
        (_, _, Some(false), false) => "upper bound relaxed",
        (_, _, None, true) => "lower bound changed",
        (_, _, None, false) => "upper bound changed",
    }
}

fn const_change(old: Option<&Value>, new: Option<&Value>) -> Option<bool> {
    match (old, new) {
        (None, Some(_)) => Some(true),
        (Some(_), None) => Some(false),
        _ => None,
    }
}

/// A bound: added narrows, removed widens; changed, `narrower(old, new)` says; `None`
/// when it is the same number (`100` and `100.0` alike). A bound that is not a number is
/// compared as a keyword (`Some(None)`: to review).
fn bound_change(
    old: Option<&Value>,
    new: Option<&Value>,
    narrower: impl Fn(f64, f64) -> bool,
) -> Option<Option<bool>> {
    match (old.map(Value::as_f64), new.map(Value::as_f64)) {
        (None, Some(_)) => Some(Some(true)),
        (Some(_), None) => Some(Some(false)),
        (Some(Some(o)), Some(Some(n))) if o == n => None,
        (Some(Some(o)), Some(Some(n))) => Some(Some(narrower(o, n))),
        (Some(_), Some(_)) => Some(None),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests;
