//! The vocabulary every generator shares: why a schema cannot be generated for
//! ([`Unsupported`]), an invalid variant ([`InvalidVariant`]), the dialect a schema is read
//! in ([`Dialect`]), JSON types as a set ([`Types`]), and three-valued answers ([`Tri`]).
//!
//! They live apart from the builders so that the judge, the valid and the invalid builders
//! can all speak of them without depending on one another.

use std::fmt;

use proptest::strategy::BoxedStrategy;
use serde_json::Value;

/// Why a schema cannot be generated for (an unsupported keyword, an unresolvable `$ref`, an
/// unsatisfiable combination).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl Unsupported {
    pub(super) fn new(reason: impl Into<String>) -> Self {
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

// ---------------------------------------------------------------------------------------
// Types as a set.

/// A set of JSON Schema types, as bits; "number" is `INTEGER | FRACTION`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Types(pub(super) u8);

impl Types {
    pub(super) const NULL: u8 = 1;
    pub(super) const BOOLEAN: u8 = 2;
    pub(super) const INTEGER: u8 = 4;
    /// Numbers with a fractional part; "number" is INTEGER | FRACTION.
    pub(super) const FRACTION: u8 = 8;
    pub(super) const STRING: u8 = 16;
    pub(super) const ARRAY: u8 = 32;
    pub(super) const OBJECT: u8 = 64;
    pub(super) const ALL: Types = Types(127);

    pub(super) fn named(name: &str) -> Result<u8, Unsupported> {
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

    pub(super) fn parse(value: &Value) -> Result<Types, Unsupported> {
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

    pub(super) fn has(self, bits: u8) -> bool {
        self.0 & bits != 0
    }

    pub(super) fn of(v: &Value) -> u8 {
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
    pub(super) fn names(self) -> Vec<&'static str> {
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

    pub(super) fn describe(self) -> String {
        self.names().join("|")
    }
}

// ---------------------------------------------------------------------------------------
// Three-valued answers: is a value surely valid, surely invalid, or may validators disagree?

/// Three-valued: `Some(true)` surely valid, `Some(false)` surely invalid, `None` unknown.
pub(super) type Tri = Option<bool>;

pub(super) fn and(a: Tri, b: Tri) -> Tri {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

pub(super) fn or(a: Tri, b: Tri) -> Tri {
    match (a, b) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

/// `and` over all answers (stopping at the first "surely not").
pub(super) fn all_of(answers: impl IntoIterator<Item = Tri>) -> Tri {
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
pub(super) fn any_of(answers: impl IntoIterator<Item = Tri>) -> Tri {
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
pub(super) fn agree(a: Tri, b: Tri) -> Tri {
    if a == b {
        a
    } else {
        None
    }
}

/// Whether `v` is a number without a fractional part (`1.0` is an integer, as JSON Schema
/// reads it).
pub(super) fn is_integer(v: &Value) -> bool {
    match v {
        Value::Number(n) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}
