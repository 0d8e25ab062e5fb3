//! Objects: `properties` and `required`, `patternProperties` and `additionalProperties`,
//! `propertyNames`, `minProperties` / `maxProperties`, and `dependentRequired` /
//! `dependencies` (array form).
//!
//! Optional properties come and go; extra properties are added only where the schema
//! admits them explicitly (`additionalProperties` as a schema), or where `minProperties`
//! asks for more than the declared ones.

use std::rc::Rc;
use std::sync::Arc;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::string::string_regex;
use serde_json::{json, Map, Value};

use super::flat::Flat;
use super::judge::pattern_matches;
use super::types::Unsupported;
use super::valid::{Cx, MAX_DEPTH};

impl<'a> Cx<'a> {
    pub(super) fn object(
        &self,
        flat: &Flat<'a>,
        depth: usize,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
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
}
