//! Objects: `properties` and `required`, `patternProperties` and `additionalProperties`,
//! `propertyNames`, `minProperties` / `maxProperties`, and `dependentRequired` /
//! `dependencies` (array form).
//!
//! Optional properties come and go; extra properties are added only where the schema
//! admits them explicitly (`additionalProperties` as a schema), or where `minProperties`
//! asks for more than the declared ones.

use std::collections::HashSet;
use std::sync::Arc;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::string::string_regex;
use serde_json::{json, Map, Value};

use super::flat::Flat;
use super::judge::pattern_matches;
use super::pick::Pick;
use super::types::Unsupported;
use super::valid::{Cx, MAX_DEPTH};

/// The object keywords of a conjunction, gathered.
struct Keywords<'a> {
    /// Every property named in `properties` or `required`, in order of first mention.
    names: Vec<&'a str>,
    /// The names in `properties` (extra properties keep clear of them).
    declared: Arc<Vec<String>>,
    required: Vec<&'a str>,
    /// The largest `minProperties` (0 without one).
    min: usize,
    /// The smallest `maxProperties`.
    max: Option<usize>,
    /// Each property of `dependentRequired` / `dependencies` and those it asks for.
    dependencies: Vec<(&'a str, Vec<&'a str>)>,
}

/// A property the generator can send, with a strategy for its value.
struct Field {
    name: String,
    required: bool,
    strategy: BoxedStrategy<Value>,
}

/// How the dependencies between fields are kept: each trigger with the fields it brings
/// along, and the optional fields never sent (they need one that cannot be generated).
struct Links {
    triggers: Vec<(usize, Vec<usize>)>,
    banned: Vec<usize>,
}

impl<'a> Cx<'a> {
    pub(super) fn object(
        &self,
        flat: &Flat<'a>,
        depth: usize,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
        let keywords = keywords(flat)?;
        let fields = self.fields(flat, &keywords, depth)?;
        let Links { triggers, banned } = links(&fields, &keywords.dependencies)?;
        let Keywords { min, max, .. } = keywords;
        let (extras, open) = self.extras(flat, min > fields.len() - banned.len(), depth);

        let required_count = fields.iter().filter(|f| f.required).count();
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
        let banned_set: HashSet<usize> = banned.iter().copied().collect();
        let optional: Vec<usize> = (0..fields.len())
            .filter(|i| !fields[*i].required && !banned_set.contains(i))
            .collect();
        let extra_count = if extras.is_some() && open {
            Pick::new_weighted(vec![(3, Just(0usize).boxed()), (2, (1usize..=3).boxed())]).boxed()
        } else {
            Just(0usize).boxed()
        };
        let flags = vec(any::<bool>(), optional.len());
        let plan = Plan {
            fields,
            optional,
            triggers,
            min,
            max,
            extras,
        };
        let declared = keywords.declared;
        Ok((flags, extra_count)
            .prop_flat_map(move |(flags, extra_n)| plan.pick(flags, extra_n))
            .prop_map(move |(names, values, extra)| assemble(names, values, extra, &declared))
            .boxed())
    }

    /// The properties that can be generated, each with the strategy for its value; optional
    /// ones are left out past [`MAX_DEPTH`] or where they cannot be built.
    fn fields(
        &self,
        flat: &Flat<'a>,
        keywords: &Keywords<'a>,
        depth: usize,
    ) -> Result<Vec<Field>, Unsupported> {
        let mut fields = Vec::new();
        let required: HashSet<&str> = keywords.required.iter().copied().collect();
        for name in &keywords.names {
            let is_required = required.contains(name);
            if !is_required && depth >= MAX_DEPTH {
                continue;
            }
            let Some(schemas) = self.property_schemas(flat, name)? else {
                if is_required {
                    return Err(Unsupported::new(format!(
                        "required property {name:?} is not allowed by the schema"
                    )));
                }
                continue;
            };
            match self.build(&schemas, depth + 1) {
                Ok(strategy) => fields.push(Field {
                    name: name.to_string(),
                    required: is_required,
                    strategy,
                }),
                Err(e) if is_required => return Err(e),
                Err(_) => {}
            }
        }
        Ok(fields)
    }

    /// The schemas property `name` must satisfy (`properties`, matching
    /// `patternProperties`, else `additionalProperties`), or `None` where the schema forbids
    /// it (`additionalProperties: false`, `propertyNames`).
    fn property_schemas(
        &self,
        flat: &Flat<'a>,
        name: &str,
    ) -> Result<Option<Vec<&'a Value>>, Unsupported> {
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
            match p.get("properties").and_then(|ps| ps.get(name)) {
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
        Ok((!forbidden).then_some(schemas))
    }

    /// A strategy for extra property values, where the schema explicitly admits them, and
    /// whether it does (`additionalProperties` as a schema or `true`).
    fn extras(
        &self,
        flat: &Flat<'a>,
        short: bool,
        depth: usize,
    ) -> (Option<BoxedStrategy<Value>>, bool) {
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
        // for more (`short`; an absent `additionalProperties` admits anything).
        let extras = if !closed && depth < MAX_DEPTH && (!open.is_empty() || short) {
            self.build(&open, depth + 1).ok()
        } else {
            None
        };
        (extras, !open.is_empty())
    }
}

/// The object keywords of `flat`: property names, `required`, the property counts and the
/// dependencies.
fn keywords<'a>(flat: &Flat<'a>) -> Result<Keywords<'a>, Unsupported> {
    // In the order first seen, each once; the sets make that linear (an object of
    // 80,000 properties, 8,000 required, took billions of comparisons as lists).
    let mut names: Vec<&'a str> = Vec::new();
    let mut named: HashSet<&'a str> = HashSet::new();
    for props in flat.words("properties").filter_map(Value::as_object) {
        for name in props.keys() {
            if named.insert(name) {
                names.push(name);
            }
        }
    }
    let declared: Arc<Vec<String>> = Arc::new(names.iter().map(|n| n.to_string()).collect());
    let mut required: Vec<&'a str> = Vec::new();
    let mut requires: HashSet<&'a str> = HashSet::new();
    for r in flat.words("required") {
        let r = r
            .as_array()
            .ok_or_else(|| Unsupported::new("`required` is not an array"))?;
        for name in r {
            let name = name
                .as_str()
                .ok_or_else(|| Unsupported::new("`required` holds a non-string"))?;
            if requires.insert(name) {
                required.push(name);
            }
            if named.insert(name) {
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
    Ok(Keywords {
        names,
        declared,
        required,
        min,
        max,
        dependencies,
    })
}

/// Dependencies must be satisfiable by properties we can generate: each one as indices into
/// `fields`, or its trigger banned where it is optional.
fn links(fields: &[Field], dependencies: &[(&str, Vec<&str>)]) -> Result<Links, Unsupported> {
    let mut triggers: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut banned: Vec<usize> = Vec::new();
    for (trigger, needed) in dependencies {
        let Some(t) = fields.iter().position(|f| f.name == *trigger) else {
            continue;
        };
        let found: Option<Vec<usize>> = needed
            .iter()
            .map(|n| fields.iter().position(|f| f.name == *n))
            .collect();
        match found {
            Some(found) => triggers.push((t, found)),
            None if fields[t].required => {
                return Err(Unsupported::new(format!(
                    "required property {trigger:?} depends on a property that cannot be generated"
                )))
            }
            None => banned.push(t),
        }
    }
    Ok(Links { triggers, banned })
}

/// What one object is drawn from: the fields, which of them are optional, the dependencies,
/// the property counts, and the extra values.
struct Plan {
    fields: Vec<Field>,
    /// Indices of the optional fields not banned, in order.
    optional: Vec<usize>,
    triggers: Vec<(usize, Vec<usize>)>,
    min: usize,
    max: Option<usize>,
    extras: Option<BoxedStrategy<Value>>,
}

/// The chosen names, a strategy for their values, and one for the extra properties.
type Picked = (
    Just<Vec<String>>,
    Vec<BoxedStrategy<Value>>,
    BoxedStrategy<Vec<(String, Value)>>,
);

impl Plan {
    /// The properties sent given the coin `flags` of the optional ones and a wish of
    /// `extra_n` extra ones, kept within the dependencies and the property counts.
    fn pick(&self, flags: Vec<bool>, extra_n: usize) -> Picked {
        let (on, extra_n) = self.switch_on(flags, extra_n);
        let chosen: Vec<String> = self
            .fields
            .iter()
            .zip(&on)
            .filter(|(_, on)| **on)
            .map(|(f, _)| f.name.clone())
            .collect();
        let values: Vec<BoxedStrategy<Value>> = self
            .fields
            .iter()
            .zip(&on)
            .filter(|(_, on)| **on)
            .map(|(f, _)| f.strategy.clone())
            .collect();
        let extra_values = match self.extras.as_ref() {
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
    }

    /// Which fields are on and how many extra properties: the required ones and the flagged
    /// optional ones, closed over the dependencies, then trimmed to `maxProperties` and
    /// filled up to `minProperties` (with optional fields first, extras after).
    fn switch_on(&self, flags: Vec<bool>, mut extra_n: usize) -> (Vec<bool>, usize) {
        let mut on: Vec<bool> = self.fields.iter().map(|f| f.required).collect();
        for (i, flag) in self.optional.iter().zip(flags) {
            on[*i] = flag;
        }
        self.close(&mut on);
        let count = |on: &Vec<bool>, extra: usize| on.iter().filter(|b| **b).count() + extra;
        if let Some(max) = self.max {
            for i in self.optional.iter().rev() {
                if count(&on, extra_n) <= max {
                    break;
                }
                on[*i] = false;
            }
            while count(&on, extra_n) > max && extra_n > 0 {
                extra_n -= 1;
            }
        }
        for i in &self.optional {
            if count(&on, extra_n) >= self.min {
                break;
            }
            on[*i] = true;
            self.close(&mut on);
        }
        let have = count(&on, extra_n);
        if have < self.min {
            extra_n += self.min - have;
        }
        (on, extra_n)
    }

    /// Turns on every field a field that is on depends on, until nothing changes.
    fn close(&self, on: &mut [bool]) {
        loop {
            let mut changed = false;
            for (t, needed) in &self.triggers {
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
        }
    }
}

/// The object of the chosen properties, then the extra ones, each renamed (with `_`s) clear
/// of the properties already there and the declared ones.
fn assemble(
    names: Vec<String>,
    values: Vec<Value>,
    extra: Vec<(String, Value)>,
    declared: &[String],
) -> Value {
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
