//! The size budget of generation: a schema whose smallest instance is huge (`minItems:
//! 1000000`, `minLength` in the millions, nested arrays that multiply) is refused with the
//! reason before anything is built, instead of costing gigabytes and minutes.
//!
//! A tool's schema comes from the server under test, so it may be hostile or merely
//! careless; either way the harness must stay bounded (issue 11: `minItems` of 1,000,000
//! took over 6 GB). The estimate here is a lower bound on the bytes of the smallest
//! instance the generators would build: it reads types the way they do (a schema without
//! `type` is of the types its keywords name), follows `$ref`, `allOf` (the largest part),
//! `anyOf` / `oneOf` (the smallest branch), `enum` / `const` (the smallest value), and
//! stops early (counting what it has) past a fixed depth and number of nodes visited, so
//! it is cheap on any schema. Being a lower bound, it never refuses a schema whose
//! smallest instance fits.

use serde_json::{Map, Value};

use super::pointer::{resolve, RefSyntax};
use super::types::{Dialect, Unsupported};
use super::valid::{ARRAY_WORDS, NUMBER_WORDS, OBJECT_WORDS, STRING_WORDS};

/// Most bytes the smallest generated instance of a tool's schema may take (serialized
/// JSON). Real tool arguments are a few KB; the property phase draws at most 4 KB more
/// per string and a few items more per array beyond the minimum.
pub const MAX_INSTANCE_BYTES: usize = 1 << 20;

/// Most JSON values (nodes) the smallest instance may hold: each generated value is a
/// proptest value tree of its own, so the node count, not the bytes, bounds memory and
/// time (an array of 100,000 small integers is 200 KB but 100,000 trees per case).
pub const MAX_INSTANCE_NODES: usize = 10_000;

/// Deepest schema nesting followed; deeper parts count as empty.
const MAX_DEPTH: usize = 32;
/// Most schema nodes visited per estimate; the rest count as empty.
const MAX_VISITS: usize = 100_000;

/// A lower bound on the smallest instance: serialized bytes and JSON values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Size {
    pub(super) bytes: usize,
    pub(super) nodes: usize,
}

impl Size {
    const fn new(bytes: usize, nodes: usize) -> Self {
        Size { bytes, nodes }
    }

    fn max(self, other: Size) -> Size {
        Size::new(self.bytes.max(other.bytes), self.nodes.max(other.nodes))
    }

    /// The smaller of two alternatives, by how far each goes into the budget (not per
    /// component: a long string and a long array are each over it, their mix is not).
    fn min(self, other: Size) -> Size {
        if other.load() < self.load() {
            other
        } else {
            self
        }
    }

    fn load(self) -> f64 {
        (self.bytes as f64 / MAX_INSTANCE_BYTES as f64)
            .max(self.nodes as f64 / MAX_INSTANCE_NODES as f64)
    }

    fn plus(self, other: Size) -> Size {
        Size::new(
            self.bytes.saturating_add(other.bytes),
            self.nodes.saturating_add(other.nodes),
        )
    }

    fn times(self, n: usize) -> Size {
        Size::new(self.bytes.saturating_mul(n), self.nodes.saturating_mul(n))
    }

    /// One byte less when `any` (a list of n values has n - 1 commas).
    fn less_a_comma(self, any: bool) -> Size {
        Size::new(self.bytes.saturating_sub(usize::from(any)), self.nodes)
    }

    /// Whether it exceeds the budget.
    fn over(self) -> bool {
        self.bytes > MAX_INSTANCE_BYTES || self.nodes > MAX_INSTANCE_NODES
    }
}

/// `Err` with the reason when the smallest instance of `schema` the generators would
/// build is over [`MAX_INSTANCE_BYTES`] or [`MAX_INSTANCE_NODES`].
pub(super) fn within_budget(
    schema: &Value,
    root: &Value,
    dialect: Dialect,
) -> Result<(), Unsupported> {
    let size = smallest(schema, root, dialect);
    if !size.over() {
        return Ok(());
    }
    Err(Unsupported::new(format!(
        "the smallest instance the schema allows is too large to generate: at least {} bytes \
         and {} values, over the budget of {MAX_INSTANCE_BYTES} bytes (1 MiB) and \
         {MAX_INSTANCE_NODES} values",
        size.bytes, size.nodes
    )))
}

/// The lower bound for `schema` (`root` resolves `$ref`).
pub(super) fn smallest(schema: &Value, root: &Value, dialect: Dialect) -> Size {
    let mut estimate = Estimate {
        root,
        dialect,
        visits: 0,
    };
    estimate.schema(schema, 0)
}

struct Estimate<'a> {
    root: &'a Value,
    dialect: Dialect,
    visits: usize,
}

/// Keywords that say an instance is of a type when `type` does not (as the builders read
/// them).
const INFERRED: &[(&[&str], &str)] = &[
    (OBJECT_WORDS, "object"),
    (ARRAY_WORDS, "array"),
    (STRING_WORDS, "string"),
    (NUMBER_WORDS, "number"),
];

impl Estimate<'_> {
    fn schema(&mut self, schema: &Value, depth: usize) -> Size {
        let Value::Object(o) = schema else {
            return Size::new(1, 1);
        };
        if depth > MAX_DEPTH || self.visits >= MAX_VISITS {
            return Size::default();
        }
        self.visits += 1;
        let mut size = Size::new(1, 1);
        if let Some(target) = o
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve(r, self.root, RefSyntax::Uri))
        {
            size = size.max(self.schema(target, depth + 1));
            if self.dialect == Dialect::Draft7 {
                // Draft-07 ignores a `$ref`'s siblings.
                return size;
            }
        }
        if let Some(all) = o.get("allOf").and_then(Value::as_array) {
            for part in all {
                size = size.max(self.schema(part, depth + 1));
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = o.get(key).and_then(Value::as_array) {
                let smallest = branches
                    .iter()
                    .map(|b| self.schema(b, depth + 1))
                    .reduce(Size::min);
                size = size.max(smallest.unwrap_or_default());
            }
        }
        if let Some(c) = o.get("const") {
            size = size.max(value_size(c));
        }
        if let Some(listed) = o.get("enum").and_then(Value::as_array) {
            let smallest = listed.iter().map(value_size).reduce(Size::min);
            size = size.max(smallest.unwrap_or_default());
        }
        size.max(self.typed(o, depth))
    }

    /// The smallest over the types the schema admits.
    fn typed(&mut self, o: &Map<String, Value>, depth: usize) -> Size {
        let mut names: Vec<&str> = match o.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => INFERRED
                .iter()
                .filter(|(words, _)| words.iter().any(|w| o.contains_key(*w)))
                .map(|(_, t)| *t)
                .collect(),
        };
        if names.is_empty() {
            // Any type: a one-digit number is the smallest.
            names.push("number");
        }
        names
            .into_iter()
            .map(|t| match t {
                "string" => Size::new(count(o, "minLength").saturating_add(2), 1),
                "array" => self.array(o, depth),
                "object" => self.object(o, depth),
                "null" | "boolean" => Size::new(4, 1),
                _ => Size::new(1, 1),
            })
            .reduce(Size::min)
            .unwrap_or_default()
    }

    fn array(&mut self, o: &Map<String, Value>, depth: usize) -> Size {
        let min = count(o, "minItems");
        let (prefix, rest) = match (o.get("items"), self.dialect) {
            (Some(Value::Array(tuple)), _) => (tuple.as_slice(), o.get("additionalItems")),
            (rest, Dialect::Draft7) => (&[][..], rest),
            (rest, _) => (
                o.get("prefixItems")
                    .and_then(Value::as_array)
                    .map_or(&[][..], Vec::as_slice),
                rest,
            ),
        };
        let mut size = Size::new(2, 1);
        for item in prefix.iter().take(min) {
            size = size
                .plus(self.schema(item, depth + 1))
                .plus(Size::new(1, 0));
            if size.over() {
                return size;
            }
        }
        let more = min.saturating_sub(prefix.len());
        if more > 0 {
            let item = rest.map_or(Size::new(1, 1), |r| self.schema(r, depth + 1));
            size = size.plus(item.plus(Size::new(1, 0)).times(more));
        }
        // One comma fewer than items.
        size.less_a_comma(min > 0)
    }

    fn object(&mut self, o: &Map<String, Value>, depth: usize) -> Size {
        let props = o.get("properties").and_then(Value::as_object);
        let mut names: Vec<&str> = o
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        names.sort_unstable();
        names.dedup();
        let mut size = Size::new(2, 1);
        for name in &names {
            // "name":value,
            let value = props
                .and_then(|p| p.get(*name))
                .map_or(Size::new(1, 1), |s| self.schema(s, depth + 1));
            size = size.plus(value).plus(Size::new(name.len() + 4, 0));
            if size.over() {
                return size;
            }
        }
        let more = count(o, "minProperties").saturating_sub(names.len());
        // At least `"":0,` each.
        size.plus(Size::new(5, 1).times(more))
            .less_a_comma(!names.is_empty() || more > 0)
    }
}

/// A non-negative integer keyword, saturating (`1e300` counts as huge, not as nothing).
fn count(o: &Map<String, Value>, key: &str) -> usize {
    match o.get(key) {
        Some(Value::Number(n)) => n
            .as_u64()
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
            .or_else(|| {
                n.as_f64().filter(|f| *f > 0.0).map(|f| {
                    if f >= usize::MAX as f64 {
                        usize::MAX
                    } else {
                        f as usize
                    }
                })
            })
            .unwrap_or(0),
        _ => 0,
    }
}

/// The serialized size of a listed value (a lower bound: escapes not counted).
fn value_size(v: &Value) -> Size {
    match v {
        Value::Null | Value::Bool(_) => Size::new(4, 1),
        Value::Number(n) => Size::new(n.to_string().len(), 1),
        Value::String(s) => Size::new(s.len() + 2, 1),
        Value::Array(a) => a
            .iter()
            .fold(Size::new(2, 1), |s, x| {
                s.plus(value_size(x)).plus(Size::new(1, 0))
            })
            .less_a_comma(!a.is_empty()),
        Value::Object(o) => o
            .iter()
            .fold(Size::new(2, 1), |s, (k, x)| {
                s.plus(value_size(x)).plus(Size::new(k.len() + 4, 0))
            })
            .less_a_comma(!o.is_empty()),
    }
}
