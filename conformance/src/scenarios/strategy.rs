//! Property-based arguments for `tools/call`: proptest strategies built from a tool's
//! inputSchema, for instances that satisfy it and for instances that break one rule.
//!
//! `arguments.rs` builds one minimal instance; this module explores the schema. It covers
//! what real tool schemas use: `type` (and unions), `properties` / `required` /
//! `additionalProperties` / `patternProperties`, `enum` / `const` / `default` / `examples`,
//! string lengths, `pattern` and the common `format`s, number bounds and `multipleOf`,
//! arrays (`items`, `prefixItems`, `minItems`, `maxItems`, `uniqueItems`), local `$ref`
//! into `$defs` / `definitions`, and `anyOf` / `oneOf` / `allOf` / `not`.
//!
//! Honesty comes first: we never send data as "valid" that is not. Values are constructed to
//! satisfy the schema, and every value passes a three-valued judge of our own before it
//! leaves: "surely valid", "surely invalid", or "validators may
//! disagree" (a `maxLength` counted in UTF-16 units by a JavaScript server, a fractional
//! `multipleOf` checked in binary floating point, a `$ref` sibling that draft-07 ignores).
//! Only "surely" counts. A keyword we cannot honour, or a combination that leaves too few
//! values, is an [`Unsupported`] with the reason, and the caller skips the call.
//!
//! Generated strings are not only tidy words: they sometimes carry control characters,
//! astral-plane characters (U+1F600) and a few KB of text, where the schema allows it,
//! because a server must survive them.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::{Union, ValueTree};
use proptest::string::string_regex;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Map, Number, Value};

/// Why a schema cannot be generated for (an unsupported keyword, an unresolvable `$ref`, an
/// unsatisfiable combination).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl Unsupported {
    fn new(reason: impl Into<String>) -> Self {
        Unsupported(reason.into())
    }
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unsupported {}

/// One invalid variant: the single rule broken and instances that break it.
#[derive(Clone, Debug)]
pub struct InvalidVariant {
    /// What is broken, led by the field's JSON pointer, e.g.
    /// `/address/zip: wrong type (object for string)`; `(root)` for the top level.
    pub rule: String,
    /// JSON pointer of the value that breaks the rule (`""` for the top level). A missing
    /// required or unknown property is reported at the object that holds it, as validators
    /// do.
    pub pointer: String,
    /// Instances that break exactly that rule and otherwise satisfy the schema: the same
    /// instance with a valid value at `pointer` is valid.
    pub strategy: BoxedStrategy<Value>,
}

/// The JSON Schema dialect a schema is validated in. It decides the few keywords whose meaning
/// changed between draft-07 and 2020-12: `$ref` siblings, `items` / `prefixItems`,
/// `dependencies` / `dependentRequired`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Draft-07 (MCP revisions before 2025-11-25).
    Draft7,
    /// 2020-12 (MCP 2025-11-25 and later).
    Draft202012,
    /// Not known: generate what both accept, and judge "surely" only where they agree.
    Unknown,
}

impl Dialect {
    /// The dialect a schema's `$schema` names; [`Dialect::Unknown`] without one.
    pub fn of(root: &Value) -> Dialect {
        match root.get("$schema").and_then(Value::as_str) {
            Some(s) if s.contains("2020-12") => Dialect::Draft202012,
            Some(s) if s.contains("draft-07") || s.contains("draft-06") => Dialect::Draft7,
            _ => Dialect::Unknown,
        }
    }
}

/// A strategy for instances that satisfy `schema` (root is the document for `$ref`
/// resolution), in the dialect its `$schema` names or, without one, in a way that both
/// draft-07 and 2020-12 accept.
pub fn valid(schema: &Value, root: &Value) -> Result<BoxedStrategy<Value>, Unsupported> {
    valid_in(schema, root, Dialect::of(root))
}

/// [`valid`] in a known dialect (what `compile_input_schema` picks for a revision).
pub fn valid_in(
    schema: &Value,
    root: &Value,
    dialect: Dialect,
) -> Result<BoxedStrategy<Value>, Unsupported> {
    let cx = Cx::new(root, dialect);
    let base = cx.build(&[schema], 0)?;
    let judge = cx.judge.clone();
    let schema = schema.clone();
    guard(
        base,
        "generated values fail the schema",
        move |v: &Value| judge.check(v, &schema) == Some(true),
    )
}

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
    let cx = Cx::new(root, dialect);
    // Nothing can be broken alone where nothing valid can be built.
    let _valid = cx.build(&[schema], 0)?;
    let mut out = Vec::new();
    for raw in cx.variants(&[schema], "", 0) {
        let judge = cx.judge.clone();
        let whole = schema.clone();
        let broken = move |v: &Value| judge.check(v, &whole) == Some(false);
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

/// Deepest nesting of objects and arrays generated; a recursive `$ref` stops here.
const MAX_DEPTH: usize = 6;
/// Items generated beyond `minItems`, by depth, so recursive arrays stay small.
const EXTRA_ITEMS: [usize; MAX_DEPTH + 1] = [8, 6, 4, 3, 2, 1, 0];
/// Deepest field an invalid variant is placed in.
const INVALID_DEPTH: usize = 4;
/// Sub-schemas compiled for one schema before giving up.
const BUDGET: usize = 20_000;
/// Samples drawn to decide whether a filter keeps enough values.
const PROBES: u32 = 64;
/// Free strings longer than this are "long" (a few KB at most).
const LONG_MIN: usize = 512;
const LONG_MAX: usize = 4096;
/// Largest integer magnitude generated: JSON integers round-trip everywhere below 2^53.
const SAFE_INTEGER: i128 = (1 << 53) - 1;
/// Largest numerator of a fractional value: at most 15 significant digits survive f64.
const SAFE_DECIMAL: i128 = 999_999_999_999_999;

/// Keywords that constrain an instance in a way the generator does not honour.
const UNSUPPORTED: &[&str] = &[
    "contains",
    "minContains",
    "maxContains",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
    "$recursiveRef",
    "contentEncoding",
    "contentMediaType",
];

/// Keywords that say what an instance's type is when `type` does not.
const OBJECT_WORDS: &[&str] = &[
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "dependencies",
];
const ARRAY_WORDS: &[&str] = &[
    "items",
    "prefixItems",
    "additionalItems",
    "minItems",
    "maxItems",
    "uniqueItems",
];
const STRING_WORDS: &[&str] = &["minLength", "maxLength", "pattern", "format"];
const NUMBER_WORDS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

// ---------------------------------------------------------------------------------------
// Types as a set.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Types(u8);

impl Types {
    const NULL: u8 = 1;
    const BOOLEAN: u8 = 2;
    const INTEGER: u8 = 4;
    /// Numbers with a fractional part; "number" is INTEGER | FRACTION.
    const FRACTION: u8 = 8;
    const STRING: u8 = 16;
    const ARRAY: u8 = 32;
    const OBJECT: u8 = 64;
    const ALL: Types = Types(127);

    fn named(name: &str) -> Result<u8, Unsupported> {
        Ok(match name {
            "null" => Self::NULL,
            "boolean" => Self::BOOLEAN,
            "integer" => Self::INTEGER,
            "number" => Self::INTEGER | Self::FRACTION,
            "string" => Self::STRING,
            "array" => Self::ARRAY,
            "object" => Self::OBJECT,
            other => return Err(Unsupported::new(format!("unknown type {other:?}"))),
        })
    }

    fn parse(value: &Value) -> Result<Types, Unsupported> {
        match value {
            Value::String(name) => Ok(Types(Self::named(name)?)),
            Value::Array(names) => {
                let mut set = 0;
                for name in names {
                    let name = name
                        .as_str()
                        .ok_or_else(|| Unsupported::new("a `type` array holds a non-string"))?;
                    set |= Self::named(name)?;
                }
                Ok(Types(set))
            }
            _ => Err(Unsupported::new("`type` is neither a string nor an array")),
        }
    }

    fn has(self, bits: u8) -> bool {
        self.0 & bits != 0
    }

    fn of(v: &Value) -> u8 {
        match v {
            Value::Null => Self::NULL,
            Value::Bool(_) => Self::BOOLEAN,
            Value::Number(_) if is_integer(v) => Self::INTEGER,
            Value::Number(_) => Self::FRACTION,
            Value::String(_) => Self::STRING,
            Value::Array(_) => Self::ARRAY,
            Value::Object(_) => Self::OBJECT,
        }
    }

    /// The `type` names that make up the set.
    fn names(self) -> Vec<&'static str> {
        [
            (Self::NULL, "null"),
            (Self::BOOLEAN, "boolean"),
            (Self::STRING, "string"),
            (Self::ARRAY, "array"),
            (Self::OBJECT, "object"),
        ]
        .into_iter()
        .filter(|(bits, _)| self.has(*bits))
        .map(|(_, name)| name)
        .chain(match (self.has(Self::INTEGER), self.has(Self::FRACTION)) {
            (_, true) => Some("number"),
            (true, false) => Some("integer"),
            _ => None,
        })
        .collect()
    }

    fn describe(self) -> String {
        self.names().join("|")
    }
}

// ---------------------------------------------------------------------------------------
// The judge: is a value surely valid, surely invalid, or may validators disagree?

/// Three-valued: `Some(true)` surely valid, `Some(false)` surely invalid, `None` unknown.
type Tri = Option<bool>;

fn and(a: Tri, b: Tri) -> Tri {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

fn or(a: Tri, b: Tri) -> Tri {
    match (a, b) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

/// `and` over all answers (stopping at the first "surely not").
fn all_of(answers: impl IntoIterator<Item = Tri>) -> Tri {
    let mut acc = Some(true);
    for a in answers {
        acc = and(acc, a);
        if acc == Some(false) {
            break;
        }
    }
    acc
}

/// `or` over all answers (stopping at the first "surely").
fn any_of(answers: impl IntoIterator<Item = Tri>) -> Tri {
    let mut acc = Some(false);
    for a in answers {
        acc = or(acc, a);
        if acc == Some(true) {
            break;
        }
    }
    acc
}

/// The answer when the two dialects may read a keyword differently.
fn agree(a: Tri, b: Tri) -> Tri {
    if a == b {
        a
    } else {
        None
    }
}

/// Judges instances against schemas of one document, for the keywords the generator uses
/// (and a few more), erring towards "unknown".
struct Judge {
    root: Value,
    dialect: Dialect,
}

impl Judge {
    fn check(&self, v: &Value, schema: &Value) -> Tri {
        self.at(v, schema, 0)
    }

    fn all(&self, v: &Value, schemas: &[Value]) -> Tri {
        all_of(schemas.iter().map(|s| self.check(v, s)))
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
        let target = reference.as_str().and_then(|r| resolve(r, &self.root))?;
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
    let chars = s.chars().count() as u64;
    let units = s.encode_utf16().count() as u64;
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

fn is_integer(v: &Value) -> bool {
    match v {
        Value::Number(n) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// Equality as JSON Schema means it (`1` equals `1.0`).
fn json_equal(a: &Value, b: &Value) -> bool {
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

fn all_distinct(items: &[Value]) -> bool {
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

fn pattern_matches(pattern: &str, s: &str) -> Tri {
    compiled(false, pattern, |v| {
        v.map(|v| v.is_valid(&Value::String(s.to_owned())))
    })
}

fn format_holds(format: &str, s: &str) -> bool {
    compiled(true, format, |v| {
        v.is_some_and(|v| v.is_valid(&Value::String(s.to_owned())))
    })
}

// ---------------------------------------------------------------------------------------
// Decimal arithmetic, as the validator reads numbers (the shortest decimal that round-trips).

/// `x` as `mantissa / 10^scale`, the trailing zeros of the fraction dropped.
fn decimal_of(x: f64) -> Option<(i128, u32)> {
    if !x.is_finite() {
        return None;
    }
    let text = format!("{}", x.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let fraction = fraction.trim_end_matches('0');
    let scale = u32::try_from(fraction.len()).ok().filter(|s| *s <= 30)?;
    let mut mantissa: i128 = 0;
    for c in whole.chars().chain(fraction.chars()) {
        let digit = i128::from(c.to_digit(10)? as u8);
        mantissa = mantissa.checked_mul(10)?.checked_add(digit)?;
    }
    Some((if x < 0.0 { -mantissa } else { mantissa }, scale))
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Whether `x / m` is an integer in decimal reading; `None` past `i128`.
fn divides_exactly(x: f64, m: f64) -> Option<bool> {
    let (xm, xs) = decimal_of(x)?;
    let (mm, ms) = decimal_of(m)?;
    if mm == 0 {
        return None;
    }
    let shared = xs.min(ms);
    let a = xm.checked_mul(10_i128.checked_pow(ms - shared)?)?;
    let b = mm.checked_mul(10_i128.checked_pow(xs - shared)?)?;
    Some(a % b == 0)
}

/// `multipleOf` as validators check it: exactly for integers; for fractions both in decimal
/// (jsonschema) and in binary floating point (ajv, Python), and only an agreement is sure.
fn multiple_of(n: &Number, m: f64) -> Tri {
    if m.is_nan() || m <= 0.0 {
        return None;
    }
    if m.fract() == 0.0 && m <= SAFE_INTEGER as f64 {
        if let Some(i) = n.as_i64() {
            return Some(i % (m as i64) == 0);
        }
        if let Some(u) = n.as_u64() {
            return Some(u % (m as u64) == 0);
        }
    }
    let x = n.as_f64()?;
    if x == 0.0 {
        return Some(true);
    }
    let quotient = x / m;
    let binary = quotient.is_finite() && quotient.fract() == 0.0;
    let decimal = divides_exactly(x, m)?;
    (decimal == binary).then_some(decimal)
}

/// A step `p / q` (reduced) whose multiples are written with `scale` decimals.
#[derive(Clone, Copy, Debug)]
struct Step {
    p: i128,
    q: i128,
}

impl Step {
    const ONE: Step = Step { p: 1, q: 1 };

    fn of(m: f64) -> Option<Step> {
        let (mantissa, scale) = decimal_of(m)?;
        let denominator = 10_i128.checked_pow(scale)?;
        let g = gcd(mantissa, denominator);
        (mantissa > 0).then_some(Step {
            p: mantissa / g,
            q: denominator / g,
        })
    }

    /// The smallest step both `self` and `other` divide: lcm(p) / gcd(q).
    fn lcm(self, other: Step) -> Option<Step> {
        let p = (self.p / gcd(self.p, other.p)).checked_mul(other.p)?;
        let q = gcd(self.q, other.q);
        let g = gcd(p, q);
        Some(Step { p: p / g, q: q / g })
    }

    /// Decimals needed to write every multiple (q only has the factors 2 and 5).
    fn scale(self) -> u32 {
        (0..=30)
            .find(|s| 10_i128.pow(*s) % self.q == 0)
            .unwrap_or(30)
    }
}

// ---------------------------------------------------------------------------------------
// Schema documents: references and flattening.

fn resolve<'a>(reference: &str, root: &'a Value) -> Option<&'a Value> {
    let (base, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    let root_id = root
        .get("$id")
        .and_then(Value::as_str)
        .map(|id| id.trim_end_matches('#'));
    if !base.is_empty() && Some(base) != root_id {
        return None;
    }
    if fragment.is_empty() {
        return Some(root);
    }
    if !fragment.starts_with('/') {
        return None;
    }
    root.pointer(&percent_decode(fragment)?)
}

fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn escape_pointer(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn show(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

/// A conjunction of schemas with `$ref` and `allOf` expanded: the keyword objects that all
/// hold, the `anyOf` / `oneOf` groups still to choose from, and the `not`s.
#[derive(Clone)]
struct Flat<'a> {
    /// The schemas the conjunction stands for (chosen branches included).
    members: Vec<&'a Value>,
    parts: Vec<&'a Map<String, Value>>,
    alternatives: Vec<(bool, &'a [Value])>,
    nots: Vec<&'a Value>,
}

impl<'a> Flat<'a> {
    fn words(&self, key: &str) -> impl Iterator<Item = &'a Value> + '_ {
        let key = key.to_owned();
        self.parts.iter().filter_map(move |p| p.get(&key))
    }

    fn has_any(&self, keys: &[&str]) -> bool {
        self.parts
            .iter()
            .any(|p| keys.iter().any(|k| p.contains_key(*k)))
    }

    fn numbers(&self, key: &str) -> Result<Vec<f64>, Unsupported> {
        self.words(key)
            .map(|v| {
                v.as_f64()
                    .ok_or_else(|| Unsupported::new(format!("`{key}` is not a number")))
            })
            .collect()
    }

    fn counts(&self, key: &str) -> Result<Vec<usize>, Unsupported> {
        self.words(key)
            .map(|v| {
                v.as_u64().map(|n| n as usize).ok_or_else(|| {
                    Unsupported::new(format!("`{key}` is not a non-negative integer"))
                })
            })
            .collect()
    }
}

type Memo = HashMap<(Vec<usize>, usize), Result<BoxedStrategy<Value>, Unsupported>>;

/// One generation: the document, the judge, and compiled sub-strategies.
struct Cx<'a> {
    root: &'a Value,
    dialect: Dialect,
    judge: Arc<Judge>,
    memo: RefCell<Memo>,
    budget: Cell<usize>,
}

impl<'a> Cx<'a> {
    fn new(root: &'a Value, dialect: Dialect) -> Self {
        Cx {
            root,
            dialect,
            judge: Arc::new(Judge {
                root: root.clone(),
                dialect,
            }),
            memo: RefCell::new(HashMap::new()),
            budget: Cell::new(BUDGET),
        }
    }

    /// A fresh context for a schema patched from this one (its own memo).
    fn patched<'p>(&self) -> Cx<'p>
    where
        'a: 'p,
    {
        Cx {
            root: self.root,
            dialect: self.dialect,
            judge: self.judge.clone(),
            memo: RefCell::new(HashMap::new()),
            budget: Cell::new(BUDGET),
        }
    }

    fn flatten(&self, members: &[&'a Value]) -> Result<Flat<'a>, Unsupported> {
        let mut flat = Flat {
            members: members.to_vec(),
            parts: Vec::new(),
            alternatives: Vec::new(),
            nots: Vec::new(),
        };
        let mut hops = 0;
        for m in members {
            self.flatten_into(&mut flat, m, &mut hops)?;
        }
        Ok(flat)
    }

    fn flatten_into(
        &self,
        flat: &mut Flat<'a>,
        schema: &'a Value,
        hops: &mut usize,
    ) -> Result<(), Unsupported> {
        let o = match schema {
            Value::Bool(true) => return Ok(()),
            Value::Bool(false) => return Err(Unsupported::new("a `false` schema admits no value")),
            Value::Object(o) => o,
            _ => {
                return Err(Unsupported::new(
                    "a schema is neither an object nor a boolean",
                ))
            }
        };
        for word in UNSUPPORTED {
            if o.contains_key(*word) {
                return Err(Unsupported::new(format!(
                    "`{word}` is not supported by the generator"
                )));
            }
        }
        if o.contains_key("if") && (o.contains_key("then") || o.contains_key("else")) {
            return Err(Unsupported::new(
                "`if` / `then` / `else` is not supported by the generator",
            ));
        }
        if let Some(Value::Object(deps)) = o.get("dependencies") {
            if deps.values().any(|d| !d.is_array()) {
                return Err(Unsupported::new(
                    "`dependencies` with a schema is not supported by the generator",
                ));
            }
        }
        if let Some(id) = o.get("$id") {
            if !std::ptr::eq(schema, self.root) && Some(id) != self.root.get("$id") {
                return Err(Unsupported::new(
                    "a nested `$id` changes how `$ref` resolves, which is not followed",
                ));
            }
        }
        flat.parts.push(o);
        if let Some(reference) = o.get("$ref") {
            *hops += 1;
            if *hops > 64 {
                return Err(Unsupported::new("`$ref`s loop without reaching a schema"));
            }
            let text = reference
                .as_str()
                .ok_or_else(|| Unsupported::new("`$ref` is not a string"))?;
            let target = resolve(text, self.root).ok_or_else(|| {
                Unsupported::new(format!(
                    "cannot resolve $ref {text:?} (only local JSON-pointer references are followed)"
                ))
            })?;
            self.flatten_into(flat, target, hops)?;
        }
        if let Some(all) = o.get("allOf") {
            let all = all
                .as_array()
                .ok_or_else(|| Unsupported::new("`allOf` is not an array"))?;
            for s in all {
                self.flatten_into(flat, s, hops)?;
            }
        }
        for (word, one) in [("anyOf", false), ("oneOf", true)] {
            if let Some(branches) = o.get(word) {
                match branches.as_array() {
                    Some(b) if !b.is_empty() => flat.alternatives.push((one, b)),
                    _ => {
                        return Err(Unsupported::new(format!(
                            "`{word}` is not a non-empty array"
                        )))
                    }
                }
            }
        }
        if let Some(not) = o.get("not") {
            flat.nots.push(not);
        }
        Ok(())
    }

    /// A strategy for instances of every schema in `members`.
    fn build(
        &self,
        members: &[&'a Value],
        depth: usize,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
        if depth > MAX_DEPTH {
            return Err(Unsupported::new(format!(
                "the schema nests deeper than {MAX_DEPTH} levels"
            )));
        }
        let key = (
            members
                .iter()
                .map(|m| *m as *const Value as usize)
                .collect(),
            depth,
        );
        if let Some(hit) = self.memo.borrow().get(&key) {
            return hit.clone();
        }
        let left = self.budget.get();
        if left == 0 {
            return Err(Unsupported::new("the schema is too large to generate for"));
        }
        self.budget.set(left - 1);
        let result = self
            .flatten(members)
            .and_then(|flat| self.build_flat(flat, depth));
        self.memo.borrow_mut().insert(key, result.clone());
        result
    }

    fn build_flat(
        &self,
        mut flat: Flat<'a>,
        depth: usize,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
        if flat.alternatives.is_empty() {
            return self.leaf(&flat, depth);
        }
        let (one, branches) = flat.alternatives.remove(0);
        let word = if one { "oneOf" } else { "anyOf" };
        let mut options = Vec::new();
        let mut first_error = None;
        for (i, branch) in branches.iter().enumerate() {
            let mut chosen = flat.clone();
            chosen.members.push(branch);
            let built = self
                .flatten_into(&mut chosen, branch, &mut 0)
                .and_then(|()| self.build_flat(chosen, depth));
            let built = match (built, one) {
                (Ok(s), true) => {
                    // oneOf: exactly one branch may match.
                    let others: Vec<Value> = branches
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .map(|(_, b)| b.clone())
                        .collect();
                    let judge = self.judge.clone();
                    guard(
                        s,
                        "the value matches more than one `oneOf` branch",
                        move |v| others.iter().all(|o| judge.check(v, o) == Some(false)),
                    )
                }
                (built, _) => built,
            };
            match built {
                Ok(s) => options.push(s),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        if options.is_empty() {
            let why = first_error.map_or_else(String::new, |e| e.0);
            return Err(Unsupported::new(format!(
                "no `{word}` branch can be generated: {why}"
            )));
        }
        Ok(Union::new(options).boxed())
    }

    /// A conjunction without alternatives.
    fn leaf(&self, flat: &Flat<'a>, depth: usize) -> Result<BoxedStrategy<Value>, Unsupported> {
        let judge = &self.judge;
        let satisfies = |v: &Value| flat.members.iter().all(|m| judge.check(v, m) == Some(true));
        // enum / const: choose among the listed values that satisfy everything else.
        let mut listed: Option<Vec<Value>> = None;
        for p in &flat.parts {
            let mut here = Vec::new();
            if let Some(c) = p.get("const") {
                here.push(c.clone());
            }
            if let Some(e) = p.get("enum") {
                let e = e
                    .as_array()
                    .ok_or_else(|| Unsupported::new("`enum` is not an array"))?;
                if p.contains_key("const") {
                    here.retain(|c| e.iter().any(|x| json_equal(x, c)));
                } else {
                    here.extend(e.iter().cloned());
                }
            }
            if p.contains_key("const") || p.contains_key("enum") {
                listed = Some(match listed {
                    None => here,
                    Some(before) => before
                        .into_iter()
                        .filter(|b| here.iter().any(|h| json_equal(b, h)))
                        .collect(),
                });
            }
        }
        if let Some(listed) = listed {
            let fit: Vec<Value> = listed.into_iter().filter(|v| satisfies(v)).collect();
            if fit.is_empty() {
                return Err(Unsupported::new(
                    "no `enum` / `const` value satisfies the rest of the schema",
                ));
            }
            return Ok(select(fit).boxed());
        }

        let mut types = Types::ALL;
        let mut typed = false;
        for t in flat.words("type") {
            types = Types(types.0 & Types::parse(t)?.0);
            typed = true;
        }
        if !typed {
            let mut inferred = 0;
            for (words, bits) in [
                (OBJECT_WORDS, Types::OBJECT),
                (ARRAY_WORDS, Types::ARRAY),
                (STRING_WORDS, Types::STRING),
                (NUMBER_WORDS, Types::INTEGER | Types::FRACTION),
            ] {
                if flat.has_any(words) {
                    inferred |= bits;
                }
            }
            if inferred != 0 {
                types = Types(inferred);
            }
        }
        if types.0 == 0 {
            return Err(Unsupported::new(
                "the combined `type`s have nothing in common",
            ));
        }

        let mut options: Vec<(u32, BoxedStrategy<Value>)> = Vec::new();
        let mut first_error: Option<Unsupported> = None;
        let mut add = |weight: u32, built: Result<BoxedStrategy<Value>, Unsupported>| match built {
            Ok(s) => options.push((weight, s)),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        };
        if types.has(Types::NULL) {
            add(1, Ok(Just(Value::Null).boxed()));
        }
        if types.has(Types::BOOLEAN) {
            add(2, Ok(any::<bool>().prop_map(Value::Bool).boxed()));
        }
        if types.has(Types::INTEGER | Types::FRACTION) {
            add(4, self.number(flat, !types.has(Types::FRACTION)));
        }
        if types.has(Types::STRING) {
            add(4, self.string(flat));
        }
        if types.has(Types::ARRAY) {
            add(3, self.array(flat, depth));
        }
        if types.has(Types::OBJECT) {
            add(3, self.object(flat, depth));
        }
        // `default` and `examples` are sent now and then, when they are valid.
        let mut known = Vec::new();
        for p in &flat.parts {
            known.extend(p.get("default").cloned());
            if let Some(Value::Array(examples)) = p.get("examples") {
                known.extend(examples.iter().cloned());
            }
        }
        known.retain(|v| satisfies(v));
        if !known.is_empty() {
            options.push((1, select(known).boxed()));
        }
        if options.is_empty() {
            return Err(
                first_error.unwrap_or_else(|| Unsupported::new("no type can be generated for"))
            );
        }
        let strategy = Union::new_weighted(options).boxed();
        if flat.nots.is_empty() {
            return Ok(strategy);
        }
        let nots: Vec<Value> = flat.nots.iter().map(|n| (*n).clone()).collect();
        let judge = self.judge.clone();
        guard(strategy, "`not` excludes the generated values", move |v| {
            nots.iter().all(|n| judge.check(v, n) == Some(false))
        })
    }

    // -------------------------------------------------------------------------------------
    // Numbers.

    fn number(&self, flat: &Flat<'a>, integer: bool) -> Result<BoxedStrategy<Value>, Unsupported> {
        // (bound, exclusive), the tightest of all parts.
        let mut low: Option<(f64, bool)> = None;
        let mut high: Option<(f64, bool)> = None;
        let tighten = |slot: &mut Option<(f64, bool)>, b: f64, exclusive: bool, upper: bool| {
            let tighter = match *slot {
                None => true,
                Some((c, e)) => {
                    if upper {
                        b < c || (b == c && exclusive && !e)
                    } else {
                        b > c || (b == c && exclusive && !e)
                    }
                }
            };
            if tighter {
                *slot = Some((b, exclusive));
            }
        };
        for b in flat.numbers("minimum")? {
            tighten(&mut low, b, false, false);
        }
        for b in flat.numbers("maximum")? {
            tighten(&mut high, b, false, true);
        }
        for (word, upper) in [("exclusiveMinimum", false), ("exclusiveMaximum", true)] {
            for v in flat.words(word) {
                match v {
                    Value::Bool(_) => {
                        return Err(Unsupported::new(format!(
                            "a boolean `{word}` (draft-04) is not supported"
                        )))
                    }
                    v => {
                        let b = v
                            .as_f64()
                            .ok_or_else(|| Unsupported::new(format!("`{word}` is not a number")))?;
                        if upper {
                            tighten(&mut high, b, true, true);
                        } else {
                            tighten(&mut low, b, true, false);
                        }
                    }
                }
            }
        }
        if integer && flat.words("format").any(|f| f.as_str() == Some("int32")) {
            tighten(&mut low, f64::from(i32::MIN), false, false);
            tighten(&mut high, f64::from(i32::MAX), false, true);
        }
        let multiples = flat.numbers("multipleOf")?;
        let steps = if multiples.is_empty() {
            if integer {
                vec![Step::ONE]
            } else {
                [1, 10, 100, 1000]
                    .into_iter()
                    .map(|q| Step { p: 1, q })
                    .collect()
            }
        } else {
            let mut step = if integer { Some(Step::ONE) } else { None };
            for m in &multiples {
                let s = Step::of(*m).ok_or_else(|| {
                    Unsupported::new(format!("`multipleOf` {m} is not a usable positive number"))
                })?;
                step = Some(match step {
                    None => s,
                    Some(t) => t.lcm(s).ok_or_else(|| {
                        Unsupported::new("the `multipleOf`s have no common multiple in range")
                    })?,
                });
            }
            step.into_iter().collect()
        };
        let spec = Arc::new(NumberSpec {
            low,
            high,
            multiples,
        });
        let mut options = Vec::new();
        let mut first_error = None;
        for step in steps {
            match spec.strategy(step) {
                Ok(s) => options.push(s),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        if options.is_empty() {
            return Err(first_error.unwrap_or_else(|| Unsupported::new("no number fits")));
        }
        Ok(Union::new(options).boxed())
    }

    // -------------------------------------------------------------------------------------
    // Strings.

    fn string(&self, flat: &Flat<'a>) -> Result<BoxedStrategy<Value>, Unsupported> {
        let min = flat.counts("minLength")?.into_iter().max().unwrap_or(0);
        let max = flat.counts("maxLength")?.into_iter().min();
        if max.is_some_and(|m| m < min) {
            return Err(Unsupported::new("`minLength` exceeds `maxLength`"));
        }
        let mut patterns: Vec<String> = Vec::new();
        for p in flat.words("pattern") {
            let p = p
                .as_str()
                .ok_or_else(|| Unsupported::new("`pattern` is not a string"))?;
            if !patterns.iter().any(|q| q == p) {
                patterns.push(p.to_owned());
            }
        }
        let mut formats: Vec<&str> = Vec::new();
        for f in flat.words("format").filter_map(Value::as_str) {
            if format_strategy(f).is_some() && !formats.contains(&f) {
                formats.push(f);
            }
        }
        if formats.len() > 1 {
            return Err(Unsupported::new(format!(
                "two different formats ({}) are required at once",
                formats.join(", ")
            )));
        }
        let fits = move |s: &str| {
            s.chars().count() >= min && max.is_none_or(|m| s.encode_utf16().count() <= m)
        };
        if let Some(first) = patterns.first() {
            if let Some(f) = formats.first() {
                return Err(Unsupported::new(format!(
                    "both a `pattern` and the format {f:?} constrain the string"
                )));
            }
            let translated = translate_pattern(first)
                .map_err(|e| Unsupported::new(format!("pattern {first:?}: {e}")))?;
            let base = string_regex(&translated)
                .map_err(|e| Unsupported::new(format!("pattern {first:?}: {e}")))?
                .prop_map(Value::String)
                .boxed();
            return guard(
                base,
                &format!(
                    "strings generated for pattern {first:?} do not match it or its length bounds"
                ),
                move |v| {
                    let s = v.as_str().unwrap_or_default();
                    fits(s) && patterns.iter().all(|p| pattern_matches(p, s) == Some(true))
                },
            );
        }
        if let Some(f) = formats.first() {
            let base = format_strategy(f)
                .unwrap_or_else(|| Just(String::new()).boxed())
                .prop_map(Value::String)
                .boxed();
            if min == 0 && max.is_none() {
                return Ok(base);
            }
            return guard(
                base,
                &format!("format {f:?} with the length bounds"),
                move |v| fits(v.as_str().unwrap_or_default()),
            );
        }
        Ok(free_string(min, max).prop_map(Value::String).boxed())
    }

    // -------------------------------------------------------------------------------------
    // Arrays.

    fn array(&self, flat: &Flat<'a>, depth: usize) -> Result<BoxedStrategy<Value>, Unsupported> {
        let min = flat.counts("minItems")?.into_iter().max().unwrap_or(0);
        let max = flat.counts("maxItems")?.into_iter().min();
        let unique = flat.words("uniqueItems").any(|u| u == &Value::Bool(true));
        if max.is_some_and(|m| m < min) {
            return Err(Unsupported::new("`minItems` exceeds `maxItems`"));
        }
        // Per part: the positional schemas, the schema for the rest, and whether the rest
        // also covers the positional ones (draft-07 ignores `prefixItems`).
        let mut layouts: Vec<(&'a [Value], Option<&'a Value>, bool)> = Vec::new();
        for p in &flat.parts {
            let prefix = p.get("prefixItems").and_then(Value::as_array);
            match p.get("items") {
                Some(Value::Array(tuple)) => {
                    if prefix.is_some() {
                        return Err(Unsupported::new(
                            "both `prefixItems` and an array `items` are given",
                        ));
                    }
                    layouts.push((tuple, p.get("additionalItems"), false));
                }
                rest => {
                    let prefix = match self.dialect {
                        Dialect::Draft7 => &[][..],
                        _ => prefix.map_or(&[][..], Vec::as_slice),
                    };
                    let covers = self.dialect != Dialect::Draft202012 && rest.is_some();
                    layouts.push((prefix, rest, covers));
                }
            }
        }
        let prefix_len = layouts.iter().map(|l| l.0.len()).max().unwrap_or(0);
        let schemas_at = |i: usize| {
            let mut out: Vec<&'a Value> = Vec::new();
            for (prefix, rest, covers) in &layouts {
                if let Some(s) = prefix.get(i) {
                    out.push(s);
                    if *covers {
                        out.extend(rest.iter().copied());
                    }
                } else {
                    out.extend(rest.iter().copied());
                }
            }
            out
        };
        let extra = EXTRA_ITEMS.get(depth).copied().unwrap_or(0);
        let mut upper = min + extra;
        if let Some(m) = max {
            upper = upper.min(m);
        }
        let mut elements = Vec::new();
        for i in 0..upper.max(min) {
            match self.build(&schemas_at(i), depth + 1) {
                Ok(s) => elements.push(s),
                Err(e) if i < min => return Err(e),
                Err(_) => {
                    upper = i;
                    break;
                }
            }
        }
        if !unique {
            return Ok((min..=upper)
                .prop_flat_map(move |n| elements[..n].to_vec())
                .prop_map(Value::Array)
                .boxed());
        }
        if prefix_len == 0 && upper > 0 {
            let item = elements[0].clone();
            let base = (min..=upper)
                .prop_flat_map(move |n| (Just(n), vec(item.clone(), n + 8)))
                .prop_map(|(n, candidates)| {
                    let mut out: Vec<Value> = Vec::new();
                    for c in candidates {
                        if out.len() < n && !out.iter().any(|o| json_equal(o, &c)) {
                            out.push(c);
                        }
                    }
                    Value::Array(out)
                })
                .boxed();
            return guard(
                base,
                "`uniqueItems` with too few distinct values",
                move |v| v.as_array().is_some_and(|a| a.len() >= min),
            );
        }
        let base = (min..=upper)
            .prop_flat_map(move |n| elements[..n].to_vec())
            .prop_map(Value::Array)
            .boxed();
        guard(base, "`uniqueItems` with repeated values", |v| {
            v.as_array().is_some_and(|a| all_distinct(a))
        })
    }

    // -------------------------------------------------------------------------------------
    // Objects.

    fn object(&self, flat: &Flat<'a>, depth: usize) -> Result<BoxedStrategy<Value>, Unsupported> {
        let mut names: Vec<&'a str> = Vec::new();
        for props in flat.words("properties").filter_map(Value::as_object) {
            for name in props.keys() {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        let declared: Arc<Vec<String>> = Arc::new(names.iter().map(|n| n.to_string()).collect());
        let mut required: Vec<&'a str> = Vec::new();
        for r in flat.words("required") {
            let r = r
                .as_array()
                .ok_or_else(|| Unsupported::new("`required` is not an array"))?;
            for name in r {
                let name = name
                    .as_str()
                    .ok_or_else(|| Unsupported::new("`required` holds a non-string"))?;
                if !required.contains(&name) {
                    required.push(name);
                }
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        let min = flat.counts("minProperties")?.into_iter().max().unwrap_or(0);
        let max = flat.counts("maxProperties")?.into_iter().min();
        let mut dependencies: Vec<(&'a str, Vec<&'a str>)> = Vec::new();
        for word in ["dependentRequired", "dependencies"] {
            for deps in flat.words(word).filter_map(Value::as_object) {
                for (trigger, needed) in deps {
                    let needed = needed.as_array().into_iter().flatten();
                    dependencies.push((trigger, needed.filter_map(Value::as_str).collect()));
                }
            }
        }
        if !dependencies.is_empty() && max.is_some() {
            return Err(Unsupported::new(
                "`maxProperties` together with `dependentRequired` is not supported by the generator",
            ));
        }

        // The schemas each property must satisfy.
        let mut fields: Vec<(String, bool, BoxedStrategy<Value>)> = Vec::new();
        for name in &names {
            let is_required = required.contains(name);
            if !is_required && depth >= MAX_DEPTH {
                continue;
            }
            let mut schemas: Vec<&'a Value> = Vec::new();
            let mut forbidden = false;
            for p in &flat.parts {
                let mut matched = false;
                if let Some(Value::Object(patterns)) = p.get("patternProperties") {
                    for (pattern, s) in patterns {
                        match pattern_matches(pattern, name) {
                            Some(true) => {
                                schemas.push(s);
                                matched = true;
                            }
                            Some(false) => {}
                            None => {
                                return Err(Unsupported::new(format!(
                                    "cannot tell whether {name:?} matches patternProperties {pattern:?}"
                                )))
                            }
                        }
                    }
                }
                match p.get("properties").and_then(|ps| ps.get(*name)) {
                    Some(s) => schemas.push(s),
                    None if matched => {}
                    None => match p.get("additionalProperties") {
                        Some(Value::Bool(false)) => forbidden = true,
                        Some(s) => schemas.push(s),
                        None => {}
                    },
                }
                if let Some(names_schema) = p.get("propertyNames") {
                    if self.judge.check(&json!(name), names_schema) != Some(true) {
                        forbidden = true;
                    }
                }
            }
            if forbidden {
                if is_required {
                    return Err(Unsupported::new(format!(
                        "required property {name:?} is not allowed by the schema"
                    )));
                }
                continue;
            }
            match self.build(&schemas, depth + 1) {
                Ok(s) => fields.push((name.to_string(), is_required, s)),
                Err(e) if is_required => return Err(e),
                Err(_) => {}
            }
        }
        // Dependencies must be satisfiable by properties we can generate.
        let mut triggers: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut banned: Vec<usize> = Vec::new();
        for (trigger, needed) in &dependencies {
            let Some(t) = fields.iter().position(|f| f.0 == *trigger) else {
                continue;
            };
            let found: Option<Vec<usize>> = needed
                .iter()
                .map(|n| fields.iter().position(|f| f.0 == *n))
                .collect();
            match found {
                Some(found) => triggers.push((t, found)),
                None if fields[t].1 => {
                    return Err(Unsupported::new(format!(
                    "required property {trigger:?} depends on a property that cannot be generated"
                )))
                }
                None => banned.push(t),
            }
        }

        // Extra properties only where the schema explicitly admits them.
        let open = flat
            .words("additionalProperties")
            .filter(|a| a.is_object() || a == &&Value::Bool(true))
            .collect::<Vec<_>>();
        let closed = flat
            .words("additionalProperties")
            .any(|a| a == &Value::Bool(false))
            || flat.has_any(&["patternProperties", "propertyNames"]);
        // Beyond the declared ones, properties are added now and then where
        // `additionalProperties` is given as a schema, and always when `minProperties` asks
        // for more (an absent `additionalProperties` admits anything).
        let short = min > fields.len() - banned.len();
        let extras = if !closed && depth < MAX_DEPTH && (!open.is_empty() || short) {
            self.build(&open, depth + 1).ok()
        } else {
            None
        };

        let required_count = fields.iter().filter(|f| f.1).count();
        if max.is_some_and(|m| m < required_count) {
            return Err(Unsupported::new(
                "`maxProperties` is below the number of required properties",
            ));
        }
        if extras.is_none() && fields.len() - banned.len() < min {
            return Err(Unsupported::new(
                "`minProperties` asks for more properties than the schema can supply",
            ));
        }
        let optional: Vec<usize> = (0..fields.len())
            .filter(|i| !fields[*i].1 && !banned.contains(i))
            .collect();
        let extra_count = if extras.is_some() && !open.is_empty() {
            Union::new_weighted(vec![(3, Just(0usize).boxed()), (2, (1usize..=3).boxed())]).boxed()
        } else {
            Just(0usize).boxed()
        };
        let fields = Rc::new(fields);
        let extras = Rc::new(extras);
        Ok((vec(any::<bool>(), optional.len()), extra_count)
            .prop_flat_map(move |(flags, mut extra_n)| {
                let mut on: Vec<bool> = fields.iter().map(|f| f.1).collect();
                for (i, flag) in optional.iter().zip(flags) {
                    on[*i] = flag;
                }
                let close = |on: &mut Vec<bool>| loop {
                    let mut changed = false;
                    for (t, needed) in &triggers {
                        if on[*t] {
                            for n in needed {
                                if !on[*n] {
                                    on[*n] = true;
                                    changed = true;
                                }
                            }
                        }
                    }
                    if !changed {
                        break;
                    }
                };
                close(&mut on);
                let count =
                    |on: &Vec<bool>, extra: usize| on.iter().filter(|b| **b).count() + extra;
                if let Some(max) = max {
                    for i in optional.iter().rev() {
                        if count(&on, extra_n) <= max {
                            break;
                        }
                        on[*i] = false;
                    }
                    while count(&on, extra_n) > max && extra_n > 0 {
                        extra_n -= 1;
                    }
                }
                for i in &optional {
                    if count(&on, extra_n) >= min {
                        break;
                    }
                    on[*i] = true;
                    close(&mut on);
                }
                let have = count(&on, extra_n);
                if have < min {
                    extra_n += min - have;
                }
                let chosen: Vec<String> = fields
                    .iter()
                    .zip(&on)
                    .filter(|(_, on)| **on)
                    .map(|(f, _)| f.0.clone())
                    .collect();
                let values: Vec<BoxedStrategy<Value>> = fields
                    .iter()
                    .zip(&on)
                    .filter(|(_, on)| **on)
                    .map(|(f, _)| f.2.clone())
                    .collect();
                let extra_values = match extras.as_ref() {
                    Some(s) if extra_n > 0 => vec(
                        (
                            string_regex("[a-z][a-z0-9_]{0,8}")
                                .map(|r| r.boxed())
                                .unwrap_or_else(|_| Just("extra".to_owned()).boxed()),
                            s.clone(),
                        ),
                        extra_n,
                    )
                    .boxed(),
                    _ => Just(Vec::new()).boxed(),
                };
                (Just(chosen), values, extra_values)
            })
            .prop_map({
                let declared = declared.clone();
                move |(names, values, extra)| {
                    let mut map = Map::new();
                    for (name, value) in names.into_iter().zip(values) {
                        map.insert(name, value);
                    }
                    for (mut name, value) in extra {
                        while map.contains_key(&name) || declared.contains(&name) {
                            name.push('_');
                        }
                        map.insert(name, value);
                    }
                    Value::Object(map)
                }
            })
            .boxed())
    }

    // -------------------------------------------------------------------------------------
    // Invalid variants.

    fn variants(&self, members: &[&'a Value], pointer: &str, depth: usize) -> Vec<Raw> {
        let mut out = Vec::new();
        if depth > INVALID_DEPTH {
            return out;
        }
        let Ok(flat) = self.flatten(members) else {
            return out;
        };
        if !flat.alternatives.is_empty() || !flat.nots.is_empty() {
            return out;
        }
        let Ok(valid_node) = self.build(members, depth) else {
            return out;
        };
        let node: Arc<Vec<Value>> = Arc::new(members.iter().map(|m| (*m).clone()).collect());
        let rule = |what: &str| format!("{}: {what}", show(pointer));
        let mut add = |rule: String, strategy: Result<BoxedStrategy<Value>, Unsupported>| {
            if let Ok(strategy) = strategy {
                out.push(Raw {
                    rule,
                    pointer: pointer.to_owned(),
                    strategy,
                });
            }
        };

        // Wrong type (not at the top: `arguments` is an object by the protocol).
        let mut types: Option<Types> = None;
        for t in flat.words("type") {
            if let Ok(t) = Types::parse(t) {
                types = Some(Types(types.map_or(t.0, |u| u.0 & t.0)));
            }
        }
        if let (Some(t), false) = (types, pointer.is_empty()) {
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
            if let Some((value, name)) = wrong
                .into_iter()
                .find(|(v, _)| !t.has(Types::of(v)) && self.judge.all(v, &node) == Some(false))
            {
                add(
                    rule(&format!("wrong type ({name} for {})", t.describe())),
                    Ok(Just(value).boxed()),
                );
            }
            if t.0 == Types::INTEGER {
                let patched = patch(&flat.parts, &["type"], Some(json!({"type": "number"})));
                add(
                    rule("not an integer"),
                    self.breaking(&patched, depth, &node, |v| !is_integer(v)),
                );
            }
        }

        // Out of range: each bound replaced by its opposite.
        let bounds: [BoundRule; 9] = [
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
        for (word, pick, what, opposite) in bounds {
            let Some(bound) = flat.numbers(word).ok().and_then(pick) else {
                continue;
            };
            let patched = patch(&flat.parts, &[word], Some(opposite(bound)));
            add(
                rule(&format!("{what} {}", number_text(bound))),
                self.breaking(&patched, depth, &node, |_| true),
            );
        }
        if let Some(p) = flat.words("pattern").find_map(Value::as_str) {
            let patched = patch(&flat.parts, &["pattern"], None);
            add(
                rule(&format!("does not match pattern {p:?}")),
                self.breaking(&patched, depth, &node, |_| true),
            );
        }
        if flat.has_any(&["enum", "const"]) {
            // Outside the list but of a listed type, where `type` does not already say.
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
            let patched = patch(&flat.parts, &["enum", "const"], same_type);
            let what = if flat.has_any(&["enum"]) {
                "value outside enum"
            } else {
                "value other than const"
            };
            add(rule(what), self.breaking(&patched, depth, &node, |_| true));
        }

        // Objects: a required property left out, an unknown property added.
        let mut required: Vec<String> = Vec::new();
        for r in flat.words("required").filter_map(Value::as_array) {
            for name in r.iter().filter_map(Value::as_str) {
                if !required.iter().any(|q| q == name) {
                    required.push(name.to_owned());
                }
            }
        }
        for name in &required {
            let patched = patch_each(&flat.parts, |m| {
                if let Some(Value::Array(r)) = m.get_mut("required") {
                    r.retain(|n| n != name.as_str());
                }
            });
            let gone = name.clone();
            let base = valid_node
                .clone()
                .prop_map(move |mut v| {
                    if let Some(o) = v.as_object_mut() {
                        o.shift_remove(&gone);
                    }
                    v
                })
                .boxed();
            add(
                rule(&format!("missing required property {name:?}")),
                self.only_breaking(base, &node, patched),
            );
        }
        if flat
            .words("additionalProperties")
            .any(|a| a == &Value::Bool(false))
        {
            let mut unknown = "conformance_unknown_property".to_owned();
            while flat.words("properties").any(|p| p.get(&unknown).is_some()) {
                unknown.push('_');
            }
            let patched = patch(&flat.parts, &["additionalProperties"], None);
            let added = unknown.clone();
            let base = valid_node
                .clone()
                .prop_map(move |mut v| {
                    if let Some(o) = v.as_object_mut() {
                        o.insert(added.clone(), json!("conformance"));
                    }
                    v
                })
                .boxed();
            add(
                rule(&format!(
                    "unknown property {unknown:?} (additionalProperties is false)"
                )),
                self.only_breaking(base, &node, patched),
            );
        }

        // Nested: a rule broken inside a property, or inside the first array item.
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
        for (slot, schemas) in nested {
            let child_pointer = match &slot {
                Slot::Property(name) => format!("{pointer}/{}", escape_pointer(name)),
                Slot::FirstItem => format!("{pointer}/0"),
            };
            let child_variants = self.variants(&schemas, &child_pointer, depth + 1);
            if child_variants.is_empty() {
                continue;
            }
            let Ok(child_valid) = self.build(&schemas, depth + 1) else {
                continue;
            };
            for child in child_variants {
                let judge = self.judge.clone();
                let node = node.clone();
                let slot = slot.clone();
                let base = (valid_node.clone(), child_valid.clone(), child.strategy).boxed();
                let strategy = guard_map(
                    base,
                    "the parent cannot hold the broken value",
                    move |(parent, good, bad)| {
                        let with_good = slot.put(parent.clone(), good)?;
                        (judge.all(&with_good, &node) == Some(true)).then_some(())?;
                        slot.put(parent, bad)
                    },
                );
                if let Ok(strategy) = strategy {
                    out.push(Raw {
                        rule: child.rule,
                        pointer: child.pointer,
                        strategy,
                    });
                }
            }
        }
        out
    }

    /// `base` kept where it breaks the node but satisfies `patched` (the node without the
    /// rule being broken).
    fn only_breaking(
        &self,
        base: BoxedStrategy<Value>,
        node: &Arc<Vec<Value>>,
        patched: Value,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
        let judge = self.judge.clone();
        let node = node.clone();
        guard(base, "the rule cannot be broken alone", move |v| {
            judge.all(v, &node) == Some(false) && judge.check(v, &patched) == Some(true)
        })
    }

    /// Values valid for `patched` (the node with one rule replaced by its opposite) and
    /// invalid for the node itself.
    fn breaking(
        &self,
        patched: &Value,
        depth: usize,
        node: &Arc<Vec<Value>>,
        extra: fn(&Value) -> bool,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
        let cx = self.patched();
        let base = cx.build(&[patched], depth)?;
        let judge = self.judge.clone();
        let node = node.clone();
        let patched = patched.clone();
        guard(base, "the rule cannot be broken alone", move |v| {
            extra(v) && judge.all(v, &node) == Some(false) && judge.check(v, &patched) == Some(true)
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

/// The conjunction of `parts` with `drop` removed and `add` added, as one schema.
fn patch(parts: &[&Map<String, Value>], drop: &[&str], add: Option<Value>) -> Value {
    let mut all: Vec<Value> = parts
        .iter()
        .map(|p| {
            let mut m = (*p).clone();
            for word in STRUCTURAL.iter().chain(drop) {
                m.shift_remove(*word);
            }
            Value::Object(m)
        })
        .collect();
    all.extend(add);
    json!({ "allOf": all })
}

fn patch_each(
    parts: &[&Map<String, Value>],
    mut edit: impl FnMut(&mut Map<String, Value>),
) -> Value {
    let mut all = Vec::new();
    for p in parts {
        let mut m = (*p).clone();
        for word in STRUCTURAL {
            m.shift_remove(*word);
        }
        edit(&mut m);
        all.push(Value::Object(m));
    }
    json!({ "allOf": all })
}

/// Which bound of several applies.
type BoundPick = fn(Vec<f64>) -> Option<f64>;
/// A bound keyword, how to pick the one that applies, what breaking it is called, and the
/// keyword that asks for its opposite.
type BoundRule = (&'static str, BoundPick, &'static str, fn(f64) -> Value);

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

// ---------------------------------------------------------------------------------------
// Filters that say when they cannot work.

/// `base` filtered by `keep`, or `Unsupported` when a deterministic probe finds that `keep`
/// rejects most values (the filter would spin and the caller should skip instead).
fn guard(
    base: BoxedStrategy<Value>,
    what: &str,
    keep: impl Fn(&Value) -> bool + 'static,
) -> Result<BoxedStrategy<Value>, Unsupported> {
    guard_map(base, what, move |v| keep(&v).then_some(v))
}

fn guard_map<T: fmt::Debug + Clone + 'static>(
    base: BoxedStrategy<T>,
    what: &str,
    keep: impl Fn(T) -> Option<Value> + 'static,
) -> Result<BoxedStrategy<Value>, Unsupported> {
    let keep = Arc::new(keep);
    let mut runner = probe_runner();
    let mut kept = 0;
    for _ in 0..PROBES {
        let tree = base
            .new_tree(&mut runner)
            .map_err(|e| Unsupported::new(format!("{what}: {e}")))?;
        if keep(tree.current()).is_some() {
            kept += 1;
        }
    }
    if kept * 8 < PROBES {
        return Err(Unsupported::new(format!(
            "{what} (only {kept} of {PROBES} generated values qualify)"
        )));
    }
    Ok(base
        .prop_filter_map(what.to_owned(), move |v| keep(v))
        .boxed())
}

fn probe_runner() -> TestRunner {
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[0x5c; 32]),
    )
}

// ---------------------------------------------------------------------------------------
// Numbers, as multiples of a decimal step.

struct NumberSpec {
    low: Option<(f64, bool)>,
    high: Option<(f64, bool)>,
    multiples: Vec<f64>,
}

impl NumberSpec {
    fn in_bounds(&self, x: f64) -> bool {
        self.low
            .is_none_or(|(b, exclusive)| if exclusive { x > b } else { x >= b })
            && self
                .high
                .is_none_or(|(b, exclusive)| if exclusive { x < b } else { x <= b })
    }

    /// The multiples of `step` inside the bounds, as a strategy.
    fn strategy(self: &Arc<Self>, step: Step) -> Result<BoxedStrategy<Value>, Unsupported> {
        let scale = step.scale();
        let unit = step
            .p
            .checked_mul(10_i128.pow(scale) / step.q)
            .ok_or_else(|| Unsupported::new("`multipleOf` is too large"))?;
        let cap = if scale == 0 {
            SAFE_INTEGER
        } else {
            SAFE_DECIMAL
        } / unit;
        if cap == 0 {
            return Err(Unsupported::new(
                "`multipleOf` is too large for a safe JSON number",
            ));
        }
        let value = move |k: i128| number_value(k * unit, scale);
        let x = |k: i128| value(k).as_f64().unwrap_or(f64::NAN);
        let unit_f = unit as f64 / 10f64.powi(scale as i32);
        let estimate = |b: f64| (b / unit_f).clamp(-(cap as f64) - 4.0, cap as f64 + 4.0) as i128;
        let above = |k: i128| {
            self.low
                .is_none_or(|(b, e)| if e { x(k) > b } else { x(k) >= b })
        };
        let below = |k: i128| {
            self.high
                .is_none_or(|(b, e)| if e { x(k) < b } else { x(k) <= b })
        };
        let mut low = self.low.map_or(-cap, |(b, _)| (estimate(b) - 2).max(-cap));
        for _ in 0..16 {
            if low > cap || above(low) {
                break;
            }
            low += 1;
        }
        let mut high = self.high.map_or(cap, |(b, _)| (estimate(b) + 2).min(cap));
        for _ in 0..16 {
            if high < -cap || below(high) {
                break;
            }
            high -= 1;
        }
        if low > high || !above(low) || !below(high) {
            return Err(Unsupported::new(
                "no number satisfies the bounds (and `multipleOf`)",
            ));
        }
        let spec = self.clone();
        let ok = move |k: i128| {
            let v = value(k);
            spec.in_bounds(v.as_f64().unwrap_or(f64::NAN))
                && spec.multiples.iter().all(|m| match &v {
                    Value::Number(n) => multiple_of(n, *m) == Some(true),
                    _ => false,
                })
        };
        let start = 0_i128.clamp(low, high);
        let fallback = (0..4096_i128)
            .flat_map(|j| [start + j, start - j])
            .filter(|k| (low..=high).contains(k))
            .find(|k| ok(*k))
            .ok_or_else(|| {
                Unsupported::new(
                    "no value is a multiple of `multipleOf` in both decimal and binary arithmetic",
                )
            })?;
        // Mostly small values, some anywhere in range, some at the bounds the schema sets.
        let mut ranges: Vec<(u32, BoxedStrategy<i128>)> = vec![(2, (low..=high).boxed())];
        if self.low.is_some() {
            ranges.push((1, (low..=(low + 3).min(high)).boxed()));
        }
        if self.high.is_some() {
            ranges.push((1, ((high - 3).max(low)..=high).boxed()));
        }
        if low <= 100 && high >= -100 {
            ranges.push((5, (low.max(-100)..=high.min(100)).boxed()));
        }
        Ok(Union::new_weighted(ranges)
            .prop_map(move |k| {
                let k = (0..32_i128)
                    .flat_map(|j| [k + j, k - j])
                    .filter(|k| (low..=high).contains(k))
                    .find(|k| ok(*k))
                    .unwrap_or(fallback);
                value(k)
            })
            .boxed())
    }
}

/// `numerator / 10^scale` as JSON: an integer when it is one, else the nearest double.
fn number_value(numerator: i128, scale: u32) -> Value {
    let denominator = 10_i128.pow(scale);
    if numerator % denominator == 0 {
        return json!((numerator / denominator) as i64);
    }
    let digits = numerator.unsigned_abs().to_string();
    let width = scale as usize + 1;
    let padded = format!("{digits:0>width$}");
    let (whole, fraction) = padded.split_at(padded.len() - scale as usize);
    let sign = if numerator < 0 { "-" } else { "" };
    let x: f64 = format!("{sign}{whole}.{fraction}").parse().unwrap_or(0.0);
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

// ---------------------------------------------------------------------------------------
// Strings.

/// Strings of `min..=max` code points (at most `max` UTF-16 units too): mostly words, some
/// with control and astral-plane characters, now and then a few KB long.
///
/// The characters are expanded from one random seed rather than drawn one by one: a few KB
/// of per-character draws would make every sample slow.
fn free_string(min: usize, max: Option<usize>) -> BoxedStrategy<String> {
    let short = max.map_or(min + 24, |m| m.min(min + 24));
    let mut options: Vec<(u32, BoxedStrategy<(usize, bool)>)> = vec![
        (6, (min..=short).prop_map(|n| (n, false)).boxed()),
        (3, (min..=short).prop_map(|n| (n, true)).boxed()),
    ];
    let long_low = min.max(LONG_MIN);
    let long_high = max.map_or(LONG_MAX, |m| m.min(LONG_MAX));
    if long_low <= long_high {
        options.push((1, (long_low..=long_high).prop_map(|n| (n, true)).boxed()));
    }
    (Union::new_weighted(options), any::<u64>())
        .prop_map(move |((n, mixed), seed)| {
            let mut chars = expand_chars(n, mixed, seed);
            if let Some(max) = max {
                // JSON Schema counts code points; keep UTF-16 units within `max` as well.
                let mut units: usize = chars.iter().map(|c| c.len_utf16()).sum();
                for c in chars.iter_mut().rev() {
                    if units <= max {
                        break;
                    }
                    if c.len_utf16() == 2 {
                        *c = 'x';
                        units -= 1;
                    }
                }
            }
            chars.into_iter().collect()
        })
        .boxed()
}

/// `n` characters from `seed`: word characters, or (when `mixed`) also printable ASCII,
/// C0 controls, BMP letters and astral-plane characters (emoji and beyond).
fn expand_chars(n: usize, mixed: bool, seed: u64) -> Vec<char> {
    const WORD: &[u8] =
        b"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_- ";
    let mut state = seed | 1;
    let mut next = move || {
        // xorshift64*: cheap, and deterministic for a seed.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let pick = |r: u64, low: u32, high: u32| {
        char::from_u32(low + (r % u64::from(high - low + 1)) as u32).unwrap_or('?')
    };
    (0..n)
        .map(|_| {
            let r = next();
            let word = char::from(WORD[(r >> 8) as usize % WORD.len()]);
            if !mixed {
                return word;
            }
            match r % 100 {
                0..=39 => pick(r >> 8, 0x20, 0x7e),
                40..=49 => pick(r >> 8, 0x00, 0x1f),
                50..=64 => pick(r >> 8, 0xa0, 0xd7ff),
                65..=74 => pick(r >> 8, 0x1f600, 0x1f64f),
                75..=79 => pick(r >> 8, 0x10000, 0x10ffff),
                _ => word,
            }
        })
        .collect()
}

/// Valid values of the formats real tool schemas use; `None` for the others, which stay
/// annotations.
fn format_strategy(format: &str) -> Option<BoxedStrategy<String>> {
    fn hex(n: usize) -> BoxedStrategy<String> {
        vec(select(b"0123456789abcdef".to_vec()), n)
            .prop_map(|b| String::from_utf8(b).unwrap_or_default())
            .boxed()
    }
    fn regex(r: &str) -> BoxedStrategy<String> {
        string_regex(r)
            .map(|s| s.boxed())
            .unwrap_or_else(|_| Just(String::new()).boxed())
    }
    let date = (1970u32..=2099, 1u32..=12, 1u32..=28)
        .prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"))
        .boxed();
    // Always UTC: RFC 3339 allows "+02:00", but common server-side validators (zod's
    // `datetime()` by default) accept only "Z", and a valid value must be valid there too.
    let offset = Just("Z".to_owned());
    let fraction = Union::new_weighted(vec![
        (2, Just(String::new()).boxed()),
        (1, regex("\\.[0-9]{1,6}")),
    ]);
    let time = (0u32..=23, 0u32..=59, 0u32..=59, fraction, offset)
        .prop_map(|(h, m, s, f, o)| format!("{h:02}:{m:02}:{s:02}{f}{o}"))
        .boxed();
    let host = (
        // No "--" (labels like "xn--" are reserved for IDNA).
        vec(regex("[a-z][a-z0-9]{0,4}(-[a-z0-9]{1,4})?"), 1..=2),
        select(vec!["com", "org", "net", "io", "example"]),
    )
        .prop_map(|(labels, tld)| format!("{}.{tld}", labels.join(".")))
        .boxed();
    let uri = (
        select(vec!["https", "http", "ftp"]),
        host.clone(),
        regex("(/[a-z0-9_-]{1,8}){0,3}"),
        select(vec!["", "?q=1", "?page=2&sort=asc", "#top"]),
    )
        .prop_map(|(scheme, host, path, tail)| format!("{scheme}://{host}{path}{tail}"))
        .boxed();
    Some(match format {
        "date-time" => (date, time).prop_map(|(d, t)| format!("{d}T{t}")).boxed(),
        "date" => date,
        "time" => time,
        "email" | "idn-email" => (regex("[a-z0-9]{1,10}(\\.[a-z0-9]{1,6})?"), host)
            .prop_map(|(local, host)| format!("{local}@{host}"))
            .boxed(),
        "uri" | "url" | "iri" => uri,
        "uri-reference" | "iri-reference" => {
            Union::new(vec![uri, regex("(/[a-z0-9_-]{1,8}){1,3}")]).boxed()
        }
        "uri-template" => uri.prop_map(|u| format!("{u}/{{id}}")).boxed(),
        "uuid" => (
            hex(8),
            hex(4),
            hex(3),
            select(b"89ab".to_vec()),
            hex(3),
            hex(12),
        )
            .prop_map(|(a, b, c, v, d, e)| format!("{a}-{b}-4{c}-{}{d}-{e}", v as char))
            .boxed(),
        "ipv4" => (any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>())
            .prop_map(|(a, b, c, d)| format!("{a}.{b}.{c}.{d}"))
            .boxed(),
        "ipv6" => Union::new(vec![
            vec(any::<u16>(), 8)
                .prop_map(|g| {
                    g.iter()
                        .map(|x| format!("{x:x}"))
                        .collect::<Vec<_>>()
                        .join(":")
                })
                .boxed(),
            select(vec!["::1", "::", "fe80::1", "2001:db8::8a2e:370:7334"])
                .prop_map(str::to_owned)
                .boxed(),
        ])
        .boxed(),
        "hostname" | "idn-hostname" => host,
        "json-pointer" => regex("(/[a-z0-9]{0,6}){0,3}"),
        "relative-json-pointer" => regex("[0-9](/[a-z]{1,4}){0,2}"),
        "duration" => select(vec!["P1D", "PT5M", "P1Y2M3DT4H5M6S", "P2W", "PT36H"])
            .prop_map(str::to_owned)
            .boxed(),
        "regex" => select(vec!["^[a-z]+$", "[0-9]{2,4}", "a|b", ".*"])
            .prop_map(str::to_owned)
            .boxed(),
        _ => return None,
    })
}

/// An ECMA-262 `pattern` rewritten for proptest's generator: anchors dropped (a full
/// generated string matches them at its ends; the judge checks the rest), and the classes
/// whose ECMA meaning is narrower than Rust's (`\d`, `\w`, `\s`, `.`) spelled out in ASCII.
fn translate_pattern(pattern: &str) -> Result<String, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut in_class = false;
    let mut class_start = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c == '\\' {
            let n = *chars.get(i).ok_or("the pattern ends in a lone backslash")?;
            i += 1;
            class_start = false;
            match n {
                'd' => out.push_str(if in_class { "0-9" } else { "[0-9]" }),
                'w' => out.push_str(if in_class {
                    "A-Za-z0-9_"
                } else {
                    "[A-Za-z0-9_]"
                }),
                's' => out.push_str(if in_class {
                    "\\t\\n\\r "
                } else {
                    "[\\t\\n\\r ]"
                }),
                'D' | 'W' | 'S' if in_class => {
                    return Err(format!(
                        "`\\{n}` inside a class is not supported by the generator"
                    ))
                }
                'D' => out.push_str("[^0-9]"),
                'W' => out.push_str("[^A-Za-z0-9_]"),
                'S' => out.push_str("[^\\s\\x{FEFF}]"),
                'b' | 'B' if !in_class => {
                    return Err("word boundaries are not supported by the generator".into())
                }
                'b' => out.push_str("\\x08"),
                '1'..='9' | 'k' => {
                    return Err("backreferences are not supported by the generator".into())
                }
                '0' => out.push_str("\\x00"),
                'v' => out.push_str("\\x0B"),
                'f' | 'n' | 'r' | 't' => {
                    out.push('\\');
                    out.push(n);
                }
                'c' => {
                    let letter = chars
                        .get(i)
                        .filter(|l| l.is_ascii_alphabetic())
                        .ok_or("a bad `\\c` escape")?;
                    i += 1;
                    out.push_str(&format!("\\x{{{:X}}}", (*letter as u32) % 32));
                }
                'x' => {
                    let hex: String = chars
                        .get(i..i + 2)
                        .ok_or("a short `\\x` escape")?
                        .iter()
                        .collect();
                    u32::from_str_radix(&hex, 16).map_err(|_| "a bad `\\x` escape")?;
                    i += 2;
                    out.push_str(&format!("\\x{{{hex}}}"));
                }
                'u' => {
                    let code = if chars.get(i) == Some(&'{') {
                        let end = chars[i..]
                            .iter()
                            .position(|c| *c == '}')
                            .ok_or("a bad `\\u{}` escape")?;
                        let hex: String = chars[i + 1..i + end].iter().collect();
                        i += end + 1;
                        u32::from_str_radix(&hex, 16).map_err(|_| "a bad `\\u` escape")?
                    } else {
                        let hex: String = chars
                            .get(i..i + 4)
                            .ok_or("a short `\\u` escape")?
                            .iter()
                            .collect();
                        i += 4;
                        u32::from_str_radix(&hex, 16).map_err(|_| "a bad `\\u` escape")?
                    };
                    if char::from_u32(code).is_none() {
                        return Err(
                            "a surrogate `\\u` escape is not supported by the generator".into()
                        );
                    }
                    out.push_str(&format!("\\x{{{code:X}}}"));
                }
                'p' | 'P' => {
                    out.push('\\');
                    out.push(n);
                }
                n if n.is_ascii_alphanumeric() => {
                    return Err(format!(
                        "the escape `\\{n}` is not supported by the generator"
                    ))
                }
                n => {
                    let mut buf = [0; 4];
                    if n.is_ascii() {
                        out.push('\\');
                    }
                    out.push_str(n.encode_utf8(&mut buf));
                }
            }
            continue;
        }
        if in_class {
            match c {
                ']' if class_start => return Err("an empty class `[]` matches nothing".into()),
                ']' => in_class = false,
                '[' | '&' | '~' => out.push('\\'),
                '-' if chars.get(i) == Some(&'-') => out.push('\\'),
                _ => {}
            }
            out.push(c);
            class_start = false;
            continue;
        }
        match c {
            '[' => {
                if chars.get(i) == Some(&'^') && chars.get(i + 1) == Some(&']') {
                    out.push_str("(?s:.)");
                    i += 2;
                    continue;
                }
                out.push('[');
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                in_class = true;
                class_start = true;
            }
            '^' | '$' => {}
            '.' => out.push_str("[^\\n\\r\\x{2028}\\x{2029}]"),
            '(' if chars.get(i) == Some(&'?') => {
                let next = chars.get(i + 1).copied();
                let after = chars.get(i + 2).copied();
                if matches!(next, Some('=') | Some('!'))
                    || (next == Some('<') && matches!(after, Some('=') | Some('!')))
                {
                    return Err("lookarounds are not supported by the generator".into());
                }
                out.push(c);
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonschema::Draft;

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
}
