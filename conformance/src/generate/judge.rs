//! The three-valued judge: is a value surely valid, surely invalid, or may validators
//! disagree on it?
//!
//! Every generated value passes it before it leaves, and only "surely" counts. It knows the
//! keywords the generators use (and a few more), errs towards "unknown", and reads the few
//! keywords whose meaning changed between draft-07 and 2020-12 by the [`Dialect`]. Patterns
//! and formats are judged by the validator the harness itself uses.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{json, Map, Number, Value};

use super::decimal::multiple_of;
use super::pointer::{resolve, RefSyntax};
use super::types::{agree, all_of, and, any_of, Dialect, Tri, Types};
use crate::protocol::pointer_token;

/// Judges instances against schemas of one document, for the keywords the generator uses
/// (and a few more), erring towards "unknown".
pub(super) struct Judge {
    pub(super) doc: Arc<dyn SchemaDoc>,
    pub(super) dialect: Dialect,
}

/// A schema document the strategies built from it keep for judging: they outlive the
/// call that built them, so they share the document rather than copy it (a tool's schema
/// may be megabytes, and the caller often holds it already, in the listing).
pub trait SchemaDoc: Send + Sync {
    /// The document's root schema.
    fn schema(&self) -> &Value;
}

impl SchemaDoc for Value {
    fn schema(&self) -> &Value {
        self
    }
}

impl Judge {
    /// The document's root schema.
    pub(super) fn root(&self) -> &Value {
        self.doc.schema()
    }
}

/// A schema a strategy judges its values against, held without copying it where it can
/// be: a place in the judge's document (a schema of a tool may be megabytes: a
/// 100,000-member `enum` was copied once per rule broken), else a value of its own (a
/// patched schema, built for one rule).
#[derive(Clone, Debug)]
pub(super) enum Held {
    /// A JSON pointer into [`Judge::root`].
    At(String),
    /// A schema from outside the document.
    Own(Value),
}

/// The JSON pointer of the object whose members are `target` inside `root` (found by
/// address): a flattened schema's parts are held as their maps.
pub(super) fn pointer_to_object(root: &Value, target: &Map<String, Value>) -> Option<String> {
    pointer_where(
        root,
        &|v| matches!(v, Value::Object(o) if std::ptr::eq(o, target)),
    )
}

/// The JSON pointer of every schema-like node of one document (each object, each object's
/// members, each boolean), by address, found in one walk: a search of the whole document
/// per schema (as [`pointer_to_object`] does) made holding the 80,000 properties of one schema one by one
/// that way took tens of seconds. Scalars other than booleans (an `enum`'s 300,000
/// strings) are not schemas and are left out.
#[derive(Debug, Default)]
pub(super) struct Pointers(HashMap<usize, String>);

impl Pointers {
    pub(super) fn of(root: &Value) -> Self {
        let mut found = HashMap::new();
        let mut stack = vec![(root, String::new())];
        while let Some((value, at)) = stack.pop() {
            match value {
                Value::Object(members) => {
                    for (key, child) in members {
                        stack.push((child, format!("{at}/{}", pointer_token(key))));
                    }
                    found
                        .entry(std::ptr::from_ref(members) as usize)
                        .or_insert_with(|| at.clone());
                }
                Value::Array(items) => {
                    for (i, child) in items.iter().enumerate() {
                        stack.push((child, format!("{at}/{i}")));
                    }
                }
                Value::Bool(_) => {}
                _ => continue,
            }
            found
                .entry(std::ptr::from_ref(value) as usize)
                .or_insert(at);
        }
        Pointers(found)
    }

    /// The JSON pointer of `target` inside the document (found by address, not by
    /// value), if it is in it.
    pub(super) fn to(&self, target: &Value) -> Option<&str> {
        self.0
            .get(&(std::ptr::from_ref(target) as usize))
            .map(String::as_str)
    }
}

/// The JSON pointer of the first value inside `root` that `is` picks.
fn pointer_where(root: &Value, is: &dyn Fn(&Value) -> bool) -> Option<String> {
    if is(root) {
        return Some(String::new());
    }
    match root {
        Value::Object(o) => o.iter().find_map(|(k, v)| {
            pointer_where(v, is).map(|rest| format!("/{}{rest}", pointer_token(k)))
        }),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .find_map(|(i, v)| pointer_where(v, is).map(|rest| format!("/{i}{rest}"))),
        _ => None,
    }
}

impl Judge {
    pub(super) fn check(&self, v: &Value, schema: &Value) -> Tri {
        self.at(v, schema, 0)
    }

    /// [`Judge::check`] against a held schema.
    pub(super) fn check_held(&self, v: &Value, schema: &Held) -> Tri {
        match schema {
            Held::At(pointer) => self.check(v, self.root().pointer(pointer)?),
            Held::Own(schema) => self.check(v, schema),
        }
    }

    /// Every held schema at once.
    pub(super) fn all_held(&self, v: &Value, schemas: &[Held]) -> Tri {
        all_of(schemas.iter().map(|s| self.check_held(v, s)))
    }

    fn at(&self, v: &Value, schema: &Value, depth: usize) -> Tri {
        if depth > 64 {
            return None;
        }
        match schema {
            Value::Bool(b) => Some(*b),
            Value::Object(o) => self.object(v, o, depth),
            _ => None,
        }
    }

    fn object(&self, v: &Value, o: &Map<String, Value>, depth: usize) -> Tri {
        let Some(reference) = o.get("$ref") else {
            return self.keywords(v, o, depth);
        };
        let target = reference
            .as_str()
            .and_then(|r| resolve(r, self.root(), RefSyntax::Uri))?;
        let via_ref = self.at(v, target, depth + 1);
        match self.dialect {
            // Draft-07: a `$ref` makes its siblings be ignored.
            Dialect::Draft7 => via_ref,
            Dialect::Draft202012 => and(via_ref, self.keywords(v, o, depth)),
            Dialect::Unknown => {
                if via_ref == Some(false) {
                    Some(false)
                } else if self.keywords(v, o, depth) == Some(true) {
                    via_ref
                } else {
                    None
                }
            }
        }
    }

    fn keywords(&self, v: &Value, o: &Map<String, Value>, depth: usize) -> Tri {
        let mut acc = Some(true);
        for (key, kv) in o {
            let r = self.keyword(v, o, key, kv, depth);
            acc = and(acc, r);
            if acc == Some(false) {
                break;
            }
        }
        acc
    }

    fn keyword(&self, v: &Value, o: &Map<String, Value>, key: &str, kv: &Value, d: usize) -> Tri {
        let d1 = d + 1;
        match key {
            "type" => Some(Types::parse(kv).ok()?.has(Types::of(v))),
            "enum" => Some(kv.as_array()?.iter().any(|e| json_equal(e, v))),
            "const" => Some(json_equal(kv, v)),
            "allOf" => all_of(kv.as_array()?.iter().map(|s| self.at(v, s, d1))),
            "anyOf" => any_of(kv.as_array()?.iter().map(|s| self.at(v, s, d1))),
            "oneOf" => {
                let (mut yes, mut unknown) = (0, false);
                for s in kv.as_array()? {
                    match self.at(v, s, d1) {
                        Some(true) => yes += 1,
                        None => unknown = true,
                        Some(false) => {}
                    }
                }
                if yes >= 2 {
                    Some(false)
                } else if unknown {
                    None
                } else {
                    Some(yes == 1)
                }
            }
            "not" => self.at(v, kv, d1).map(|b| !b),
            "if" => match self.at(v, kv, d1) {
                Some(true) => o.get("then").map_or(Some(true), |s| self.at(v, s, d1)),
                Some(false) => o.get("else").map_or(Some(true), |s| self.at(v, s, d1)),
                None => None,
            },
            "$dynamicRef" | "$recursiveRef" | "unevaluatedProperties" | "unevaluatedItems" => None,
            _ => match v {
                Value::String(s) => string_keyword(s, key, kv),
                Value::Number(n) => number_keyword(n, key, kv),
                Value::Array(items) => self.array_keyword(items, o, key, kv, d1),
                Value::Object(map) => self.object_keyword(map, o, key, kv, d1),
                _ => Some(true),
            },
        }
    }

    fn array_keyword(
        &self,
        items: &[Value],
        o: &Map<String, Value>,
        key: &str,
        kv: &Value,
        d: usize,
    ) -> Tri {
        let from =
            |start: usize, s: &Value| all_of(items.iter().skip(start).map(|i| self.at(i, s, d)));
        let tuple =
            |schemas: &[Value]| all_of(items.iter().zip(schemas).map(|(i, s)| self.at(i, s, d)));
        let prefix_len = o
            .get("prefixItems")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        match key {
            "items" => match kv {
                Value::Array(schemas) => tuple(schemas),
                schema => match self.dialect {
                    Dialect::Draft7 => from(0, schema),
                    Dialect::Draft202012 => from(prefix_len, schema),
                    Dialect::Unknown => agree(from(0, schema), from(prefix_len, schema)),
                },
            },
            "prefixItems" => {
                let r = tuple(kv.as_array()?);
                match self.dialect {
                    Dialect::Draft7 => Some(true),
                    Dialect::Draft202012 => r,
                    Dialect::Unknown => agree(r, Some(true)),
                }
            }
            "additionalItems" => match o.get("items") {
                Some(Value::Array(schemas)) => {
                    let r = from(schemas.len(), kv);
                    match self.dialect {
                        Dialect::Draft7 => r,
                        Dialect::Draft202012 => Some(true),
                        Dialect::Unknown => agree(r, Some(true)),
                    }
                }
                _ => Some(true),
            },
            "minItems" => Some(items.len() as u64 >= kv.as_u64()?),
            "maxItems" => Some(items.len() as u64 <= kv.as_u64()?),
            "uniqueItems" => {
                if kv.as_bool()? {
                    Some(all_distinct(items))
                } else {
                    Some(true)
                }
            }
            "contains" => {
                if o.contains_key("minContains") || o.contains_key("maxContains") {
                    return None;
                }
                any_of(items.iter().map(|i| self.at(i, kv, d)))
            }
            _ => Some(true),
        }
    }

    fn object_keyword(
        &self,
        map: &Map<String, Value>,
        o: &Map<String, Value>,
        key: &str,
        kv: &Value,
        d: usize,
    ) -> Tri {
        let present = |name: &Value| name.as_str().is_some_and(|n| map.contains_key(n));
        match key {
            "properties" => {
                let mut acc = Some(true);
                for (name, schema) in kv.as_object()? {
                    if let Some(value) = map.get(name) {
                        acc = and(acc, self.at(value, schema, d));
                    }
                }
                acc
            }
            "patternProperties" => {
                let mut acc = Some(true);
                for (pattern, schema) in kv.as_object()? {
                    for (name, value) in map {
                        acc = match pattern_matches(pattern, name) {
                            Some(true) => and(acc, self.at(value, schema, d)),
                            Some(false) => acc,
                            None => and(acc, None),
                        };
                    }
                }
                acc
            }
            "additionalProperties" => {
                let declared = o.get("properties").and_then(Value::as_object);
                let patterns = o.get("patternProperties").and_then(Value::as_object);
                let mut acc = Some(true);
                for (name, value) in map {
                    if declared.is_some_and(|p| p.contains_key(name)) {
                        continue;
                    }
                    let matched = any_of(
                        patterns
                            .into_iter()
                            .flatten()
                            .map(|(p, _)| pattern_matches(p, name)),
                    );
                    acc = match matched {
                        Some(true) => acc,
                        Some(false) => and(acc, self.at(value, kv, d)),
                        None => and(acc, None),
                    };
                }
                acc
            }
            "required" => Some(kv.as_array()?.iter().all(present)),
            "minProperties" => Some(map.len() as u64 >= kv.as_u64()?),
            "maxProperties" => Some(map.len() as u64 <= kv.as_u64()?),
            "propertyNames" => all_of(
                map.keys()
                    .map(|name| self.at(&Value::String(name.clone()), kv, d)),
            ),
            "dependentRequired" => {
                let mut r = Some(true);
                for (trigger, needed) in kv.as_object()? {
                    if map.contains_key(trigger) {
                        r = and(r, Some(needed.as_array()?.iter().all(present)));
                    }
                }
                match self.dialect {
                    Dialect::Draft7 => Some(true),
                    Dialect::Draft202012 => r,
                    Dialect::Unknown => agree(r, Some(true)),
                }
            }
            "dependencies" => {
                let mut r = Some(true);
                for (trigger, needed) in kv.as_object()? {
                    if map.contains_key(trigger) {
                        let one = match needed {
                            Value::Array(names) => Some(names.iter().all(present)),
                            schema => self.at(&Value::Object(map.clone()), schema, d),
                        };
                        r = and(r, one);
                    }
                }
                match self.dialect {
                    Dialect::Draft7 => r,
                    Dialect::Draft202012 => Some(true),
                    Dialect::Unknown => agree(r, Some(true)),
                }
            }
            "dependentSchemas" => {
                let mut r = Some(true);
                for (trigger, schema) in kv.as_object()? {
                    if map.contains_key(trigger) {
                        r = and(r, self.at(&Value::Object(map.clone()), schema, d));
                    }
                }
                match self.dialect {
                    Dialect::Draft7 => Some(true),
                    Dialect::Draft202012 => r,
                    Dialect::Unknown => agree(r, Some(true)),
                }
            }
            _ => Some(true),
        }
    }
}

fn string_keyword(s: &str, key: &str, kv: &Value) -> Tri {
    let (chars, units) = super::strings::lengths(s);
    let (chars, units) = (chars as u64, units as u64);
    match key {
        "minLength" => Some(chars >= kv.as_u64()?),
        // JSON Schema counts code points; a JavaScript server may count UTF-16 units.
        "maxLength" => {
            let max = kv.as_u64()?;
            if chars > max {
                Some(false)
            } else if units <= max {
                Some(true)
            } else {
                None
            }
        }
        "pattern" => pattern_matches(kv.as_str()?, s),
        // A value that fails a format may still be valid where formats are annotations.
        "format" => format_holds(kv.as_str()?, s).then_some(true),
        "contentEncoding" | "contentMediaType" => None,
        _ => Some(true),
    }
}

fn number_keyword(n: &Number, key: &str, kv: &Value) -> Tri {
    let x = n.as_f64()?;
    match key {
        "minimum" => Some(x >= kv.as_f64()?),
        "maximum" => Some(x <= kv.as_f64()?),
        "exclusiveMinimum" => Some(x > kv.as_f64()?),
        "exclusiveMaximum" => Some(x < kv.as_f64()?),
        "multipleOf" => multiple_of(n, kv.as_f64()?),
        _ => Some(true),
    }
}

/// Equality as JSON Schema means it (`1` equals `1.0`).
pub(super) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| json_equal(a, b)))
        }
        _ => a == b,
    }
}

pub(super) fn all_distinct(items: &[Value]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, a)| items[..i].iter().all(|b| !json_equal(a, b)))
}

// Patterns and formats are judged by the validator the harness uses, so "matches" means
// what it will mean there; compiled validators are cached per thread.
thread_local! {
    static COMPILED: RefCell<HashMap<(bool, String), Option<jsonschema::Validator>>> =
        RefCell::new(HashMap::new());
}

fn compiled<R>(format: bool, word: &str, f: impl FnOnce(Option<&jsonschema::Validator>) -> R) -> R {
    COMPILED.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() > 4096 {
            cache.clear();
        }
        let validator = cache.entry((format, word.to_owned())).or_insert_with(|| {
            let schema = if format {
                json!({ "format": word })
            } else {
                json!({ "pattern": word })
            };
            jsonschema::options()
                .should_validate_formats(format)
                .build(&schema)
                .ok()
        });
        f(validator.as_ref())
    })
}

pub(super) fn pattern_matches(pattern: &str, s: &str) -> Tri {
    compiled(false, pattern, |v| {
        v.map(|v| v.is_valid(&Value::String(s.to_owned())))
    })
}

fn format_holds(format: &str, s: &str) -> bool {
    compiled(true, format, |v| {
        v.is_some_and(|v| v.is_valid(&Value::String(s.to_owned())))
    })
}

/// Whether `value` is surely valid against the document `schema` in `dialect`: what every
/// generated value must be before it is sent as valid, and what a shrunk candidate must
/// stay (an empty string where a `format: date` was asked may pass a validator that
/// ignores formats, and still not be surely valid).
pub fn surely_valid(schema: &Value, dialect: Dialect, value: &Value) -> bool {
    let judge = Judge {
        doc: Arc::new(schema.clone()),
        dialect,
    };
    judge.check(value, schema) == Some(true)
}
