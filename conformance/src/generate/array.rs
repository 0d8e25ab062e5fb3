//! Arrays: `items` / `prefixItems` (or draft-07's array `items` and `additionalItems`),
//! `minItems` / `maxItems`, and `uniqueItems` (distinct candidates drawn, then filtered).
//!
//! Items beyond `minItems` shrink with depth, so recursive arrays stay small.

use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::Value;

use super::filter::guard;
use super::flat::Flat;
use super::judge::{all_distinct, json_equal};
use super::types::{Dialect, Unsupported};
use super::valid::{Cx, MAX_DEPTH};

/// Items generated beyond `minItems`, by depth, so recursive arrays stay small.
const EXTRA_ITEMS: [usize; MAX_DEPTH + 1] = [8, 6, 4, 3, 2, 1, 0];

impl<'a> Cx<'a> {
    pub(super) fn array(
        &self,
        flat: &Flat<'a>,
        depth: usize,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
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
}
