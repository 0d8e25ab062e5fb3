//! A conjunction of schemas, flattened: `$ref` and `allOf` expanded into the keyword objects
//! that must all hold, with the `anyOf` / `oneOf` groups still to choose from and the
//! `not`s. Every builder (valid and invalid) reads schemas through a [`Flat`].
//!
//! Flattening is also where a keyword the generators do not honour is refused, with the
//! reason, before anything is built.

use serde_json::{Map, Value};

use super::pointer::{resolve, RefSyntax};
use super::types::Unsupported;
use super::valid::Cx;

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

/// A conjunction of schemas with `$ref` and `allOf` expanded: the keyword objects that all
/// hold, the `anyOf` / `oneOf` groups still to choose from, and the `not`s.
#[derive(Clone)]
pub(super) struct Flat<'a> {
    /// The schemas the conjunction stands for (chosen branches included).
    pub(super) members: Vec<&'a Value>,
    /// The keyword objects, each `$ref` target and `allOf` member among them.
    pub(super) parts: Vec<&'a Map<String, Value>>,
    /// `anyOf` (`false`) and `oneOf` (`true`) branches still to choose from.
    pub(super) alternatives: Vec<(bool, &'a [Value])>,
    /// Schemas an instance must not match.
    pub(super) nots: Vec<&'a Value>,
}

impl<'a> Flat<'a> {
    pub(super) fn words(&self, key: &str) -> impl Iterator<Item = &'a Value> + '_ {
        let key = key.to_owned();
        self.parts.iter().filter_map(move |p| p.get(&key))
    }

    pub(super) fn has_any(&self, keys: &[&str]) -> bool {
        self.parts
            .iter()
            .any(|p| keys.iter().any(|k| p.contains_key(*k)))
    }

    pub(super) fn numbers(&self, key: &str) -> Result<Vec<f64>, Unsupported> {
        self.words(key)
            .map(|v| {
                v.as_f64()
                    .ok_or_else(|| Unsupported::new(format!("`{key}` is not a number")))
            })
            .collect()
    }

    pub(super) fn counts(&self, key: &str) -> Result<Vec<usize>, Unsupported> {
        self.words(key)
            .map(|v| {
                v.as_u64().map(|n| n as usize).ok_or_else(|| {
                    Unsupported::new(format!("`{key}` is not a non-negative integer"))
                })
            })
            .collect()
    }
}

impl<'a> Cx<'a> {
    /// The conjunction of `members`, `$ref`s and `allOf`s expanded.
    pub(super) fn flatten(&self, members: &[&'a Value]) -> Result<Flat<'a>, Unsupported> {
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

    /// Adds `schema` to `flat`, following its `$ref` and `allOf`.
    pub(super) fn flatten_into(
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
            let target = resolve(text, self.root, RefSyntax::Uri).ok_or_else(|| {
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
}
