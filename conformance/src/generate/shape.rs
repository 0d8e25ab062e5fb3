//! A schema compiled once into the [`Shape`] the fuzzer's byte-driven builder (`bytes.rs`)
//! walks.
//!
//! Generating from the raw schema would look up a dozen keywords in a map for every value;
//! the live fuzz target runs tens of thousands of cases a second, so a tool's `inputSchema`
//! is read once instead. Only what the builder uses is kept; `$ref`s to the same schema
//! document become indexes, so recursive schemas stay finite.

use serde_json::{Map, Value};

use super::pointer::{resolve, RefSyntax};

/// What to generate for one schema node.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// No constraint the generator knows: any small JSON value.
    Any,
    /// Exactly this value (`const`).
    Const(Value),
    /// One of these (`enum`).
    Enum(Vec<Value>),
    /// One of these shapes (`anyOf`, `oneOf`, a `type` array); `allOf` keeps its first.
    OneOf(Vec<Shape>),
    /// The shape of a `$ref` target, by index into [`Compiled::defs`].
    Ref(usize),
    /// An object.
    Object {
        /// Properties in schema order: name, shape, required.
        properties: Vec<(String, Shape, bool)>,
    },
    /// An array.
    Array {
        /// Its items.
        items: Box<Shape>,
        /// Fewest items.
        min: usize,
        /// Most items (capped).
        max: usize,
    },
    /// A string.
    String {
        /// Fewest characters.
        min: usize,
        /// Most characters (`usize::MAX` when unbounded).
        max: usize,
        /// A format the generator knows.
        format: Format,
    },
    /// An integer in a range.
    Integer {
        /// Least value.
        lo: i64,
        /// Greatest value.
        hi: i64,
        /// The range the schema allows when a bound is missing (up to JavaScript's safe
        /// integers, ±(2^53-1)): `lo..=hi` is only what is drawn most of the time, and now
        /// and then a value from the whole range is, so a server's comparison with a large
        /// constant can be met (`int` in Python and `z.number().int()` write no bounds).
        /// Equal to `(lo, hi)` when the schema gives both.
        wide: (i64, i64),
    },
    /// A number in a range (integers and fractions).
    Number {
        /// Least value.
        lo: i64,
        /// Greatest value.
        hi: i64,
    },
    /// A boolean.
    Boolean,
    /// null.
    Null,
}

/// String formats with a plausible generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// None known.
    None,
    /// `date`.
    Date,
    /// `date-time`.
    DateTime,
    /// `uri`, `url`.
    Uri,
    /// `email`.
    Email,
}

/// A compiled schema: its root shape and the shapes of its `$ref` targets.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The root.
    pub root: Shape,
    /// `$ref` targets, indexed by [`Shape::Ref`].
    pub defs: Vec<Shape>,
}

/// Most `$ref` targets compiled per schema (a bound on hostile schemas).
const MAX_DEFS: usize = 256;

/// How far an integer without a bound reaches: `-1000..=1000` without either, `lo..=lo +
/// 1000` (from 0 for a negative `lo`) without a maximum. The fuzz dictionary writes a
/// literal in the bytes these ranges read (`fuzzing/dictionary.rs`).
pub(crate) const UNBOUNDED: i64 = 1000;

/// The largest integer a JavaScript number holds exactly: how far a missing bound reaches
/// when the whole range is drawn ([`Shape::Integer`]'s `wide`).
pub(crate) const SAFE_INTEGER: i64 = (1 << 53) - 1;

impl Compiled {
    /// Compiles `schema` (`$ref`s resolve against `schema` itself).
    pub fn new(schema: &Value) -> Self {
        let mut c = Compiler {
            root: schema,
            refs: Vec::new(),
            defs: Vec::new(),
        };
        let root = c.shape(schema, 0);
        Compiled { root, defs: c.defs }
    }
}

struct Compiler<'a> {
    root: &'a Value,
    refs: Vec<String>,
    defs: Vec<Shape>,
}

impl Compiler<'_> {
    fn shape(&mut self, schema: &Value, depth: u32) -> Shape {
        // Nesting this deep only happens in hostile schemas.
        if depth > 64 {
            return Shape::Any;
        }
        let Some(obj) = schema.as_object() else {
            return Shape::Any; // `true`, `false` or garbage: anything goes.
        };
        if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
            return self.reference(reference, depth);
        }
        if let Some(c) = obj.get("const") {
            return Shape::Const(c.clone());
        }
        if let Some(options) = obj.get("enum").and_then(Value::as_array) {
            if !options.is_empty() {
                return Shape::Enum(options.clone());
            }
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(branches) = obj.get(key).and_then(Value::as_array) {
                if let Some(first) = branches.first() {
                    if key == "allOf" {
                        return self.shape(first, depth + 1);
                    }
                    let shapes = branches.iter().map(|b| self.shape(b, depth + 1)).collect();
                    return Shape::OneOf(shapes);
                }
            }
        }
        match obj.get("type") {
            Some(Value::String(t)) => self.typed(t, obj, depth),
            Some(Value::Array(types)) if !types.is_empty() => Shape::OneOf(
                types
                    .iter()
                    .map(|t| self.typed(t.as_str().unwrap_or("null"), obj, depth))
                    .collect(),
            ),
            _ => self.typed(infer_type(obj), obj, depth),
        }
    }

    fn reference(&mut self, reference: &str, depth: u32) -> Shape {
        if let Some(i) = self.refs.iter().position(|r| r == reference) {
            return Shape::Ref(i);
        }
        let target = resolve(reference, self.root, RefSyntax::Pointer);
        let (Some(target), true) = (target, self.refs.len() < MAX_DEFS) else {
            return Shape::Any;
        };
        let i = self.refs.len();
        self.refs.push(reference.to_string());
        self.defs.push(Shape::Any); // a placeholder while the target compiles
        let shape = self.shape(target, depth + 1);
        self.defs[i] = shape;
        Shape::Ref(i)
    }

    fn typed(&mut self, ty: &str, obj: &Map<String, Value>, depth: u32) -> Shape {
        let int = |k: &str| obj.get(k).and_then(Value::as_f64);
        let count = |k: &str| {
            obj.get(k)
                .and_then(Value::as_u64)
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
        };
        match ty {
            "object" => {
                let required: std::collections::HashSet<&str> = obj
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let properties = obj
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|props| {
                        props
                            .iter()
                            .map(|(name, s)| {
                                let needed = required.contains(&name.as_str());
                                (name.clone(), self.shape(s, depth + 1), needed)
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                Shape::Object { properties }
            }
            "array" => {
                let min = count("minItems").unwrap_or(0).min(64);
                let max = count("maxItems")
                    .map_or(min + 3, |m| m.max(min))
                    .min(min + 8);
                let items = obj
                    .get("items")
                    .map_or(Shape::Any, |s| self.shape(s, depth + 1));
                Shape::Array {
                    items: Box::new(items),
                    min,
                    max,
                }
            }
            "string" => Shape::String {
                min: count("minLength").unwrap_or(0).min(4096),
                max: count("maxLength").unwrap_or(usize::MAX),
                format: match obj.get("format").and_then(Value::as_str) {
                    Some("date") => Format::Date,
                    Some("date-time") => Format::DateTime,
                    Some("uri" | "url") => Format::Uri,
                    Some("email") => Format::Email,
                    _ => Format::None,
                },
            },
            "integer" | "number" => {
                let min = int("minimum").or(int("exclusiveMinimum").map(|m| m + 1.0));
                let max = int("maximum").or(int("exclusiveMaximum").map(|m| m - 1.0));
                let lo = min.unwrap_or(-UNBOUNDED as f64);
                let hi = max.unwrap_or(lo.max(0.0) + UNBOUNDED as f64);
                // `as` saturates: out-of-range bounds become i64's own.
                let (lo, hi) = (lo.ceil() as i64, hi.floor() as i64);
                let hi = hi.max(lo);
                if ty == "integer" {
                    let wide_lo = min.map_or(-SAFE_INTEGER, |_| lo);
                    let wide_hi = max.map_or(SAFE_INTEGER.max(lo), |_| hi);
                    Shape::Integer {
                        lo,
                        hi,
                        wide: (wide_lo, wide_hi),
                    }
                } else {
                    Shape::Number { lo, hi }
                }
            }
            "boolean" => Shape::Boolean,
            "null" => Shape::Null,
            _ => Shape::Any,
        }
    }
}

/// The type a schema without `type` implies by its keywords.
fn infer_type(obj: &Map<String, Value>) -> &'static str {
    if obj.contains_key("properties") || obj.contains_key("required") {
        "object"
    } else if obj.contains_key("items") {
        "array"
    } else if ["minLength", "maxLength", "pattern", "format"]
        .iter()
        .any(|k| obj.contains_key(*k))
    {
        "string"
    } else if ["minimum", "maximum"].iter().any(|k| obj.contains_key(*k)) {
        "number"
    } else {
        "any"
    }
}
