//! Shrinking a failing JSON value to the smallest one that still fails the same way:
//! the one shrinker of the property phase, `mcp-conformance fuzz` and replay's
//! minimisation.
//!
//! proptest's value trees shrink a string or an array one element at a time, which costs
//! a call per element: a 2,594-byte string that stalls a server came out 2,244 bytes long
//! after the 16 steps a stall can afford. Here every pass cuts in logarithmic steps first,
//! as Hypothesis's shrinker and delta debugging (ddmin) do, because each candidate may
//! cost a wait:
//!
//! - strings and arrays: the shortest failing prefix by bisection (a stall on any string
//!   longer than a threshold is cut to threshold + 1 in log2(n) calls), the longest
//!   failing suffix of it likewise, then, in a short one, contiguous chunks removed,
//!   halves first, down to single elements;
//! - each remaining character replaced by the simplest one of its class: the whole string
//!   as `0`s first, then chunks of it as `0` (ASCII), U+0080 (the rest of the BMP) or
//!   U+10000 (above it), so a crash on any astral character ends as that one character;
//! - numbers toward 0, by bisection: a schema bound between stops the search there, as a
//!   value past it is not valid; a fraction is tried as an integer first, and one that
//!   must stay a fraction as a half;
//! - objects lose their optional properties (those whose removal alone keeps the value
//!   valid, which costs no call to find) in contiguous chunks, halves first, down to one
//!   at a time: one by one, a 5,000-property object lost 64 of its thousands of optional
//!   properties in the 64 steps of a budget;
//! - `true` becomes `false`; nested values are visited breadth first, and the passes
//!   repeat until a round changes nothing.
//!
//! Every candidate must pass the caller's `valid` (for valid arguments: the tool's
//! `inputSchema`, so a "valid" case stays valid; `minItems`, `required` and bounds hold by
//! that alone), is evaluated at most once, and the evaluations are bounded by a budget.
//! The order of candidates depends only on the value, so the same failure shrinks to the
//! same minimal case every time.

use std::collections::HashSet;

use serde_json::{Map, Number, Value};

/// The shrunk value and how many candidates were evaluated to reach it.
#[derive(Debug, Clone, PartialEq)]
pub struct Shrunk {
    /// The smallest value found that fails the same way (the start when none did).
    pub value: Value,
    /// Candidates evaluated (each one call to the oracle).
    pub steps: u32,
}

/// Sequences up to this long also lose chunks from inside, not only from either end.
const CHUNKED: usize = 64;

/// One step into a value: a property or an index.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
}

/// The simplest character of `c`'s class: ASCII, the rest of the BMP, above the BMP.
fn class_minimum(c: char) -> char {
    match u32::from(c) {
        0..=0x7f => '0',
        0x80..=0xffff => '\u{80}',
        _ => '\u{10000}',
    }
}

/// Shrinks `start` (which fails) with `fails` as the oracle, evaluating at most `budget`
/// candidates, each of which `valid` accepts.
pub async fn shrink<F>(
    start: Value,
    budget: u32,
    valid: &dyn Fn(&Value) -> bool,
    fails: F,
) -> Shrunk
where
    F: AsyncFnMut(&Value) -> bool,
{
    let mut shrinker = Shrinker {
        best: start,
        valid,
        fails,
        budget,
        steps: 0,
        seen: HashSet::new(),
        done: HashSet::new(),
    };
    shrinker.run().await;
    Shrunk {
        value: shrinker.best,
        steps: shrinker.steps,
    }
}

struct Shrinker<'v, F> {
    best: Value,
    valid: &'v dyn Fn(&Value) -> bool,
    fails: F,
    budget: u32,
    steps: u32,
    /// Candidates already tried (their JSON text), never evaluated twice.
    seen: HashSet<String>,
    /// Nodes already shrunk as far as their passes go (path and value): a later round
    /// skips them unless they changed.
    done: HashSet<String>,
}

impl<F: AsyncFnMut(&Value) -> bool> Shrinker<'_, F> {
    fn exhausted(&self) -> bool {
        self.steps >= self.budget
    }

    /// Rounds of every pass over every node until one changes nothing.
    async fn run(&mut self) {
        loop {
            let before = self.best.clone();
            for path in paths(&self.best) {
                if self.exhausted() {
                    return;
                }
                self.shrink_at(&path).await;
            }
            if self.best == before {
                return;
            }
        }
    }

    /// Evaluates `best` with the node at `path` replaced by `node`; keeps it if it fails.
    async fn attempt(&mut self, path: &[Seg], node: Value) -> bool {
        if self.exhausted() {
            return false;
        }
        let mut candidate = self.best.clone();
        match node_mut(&mut candidate, path) {
            Some(slot) if *slot != node => *slot = node,
            _ => return false,
        }
        if !(self.valid)(&candidate) || !self.seen.insert(candidate.to_string()) {
            return false;
        }
        self.steps += 1;
        if (self.fails)(&candidate).await {
            self.best = candidate;
            return true;
        }
        false
    }

    /// Every pass for the node at `path`, unless it was already shrunk as it is.
    async fn shrink_at(&mut self, path: &[Seg]) {
        let key = |best: &Value| node_at(best, path).map(|node| format!("{path:?} {node}"));
        match key(&self.best) {
            Some(key) if !self.done.contains(&key) => {}
            _ => return,
        }
        self.passes_at(path).await;
        if let Some(key) = key(&self.best).filter(|_| !self.exhausted()) {
            self.done.insert(key);
        }
    }

    async fn passes_at(&mut self, path: &[Seg]) {
        let Some(node) = node_at(&self.best, path).cloned() else {
            return;
        };
        match node {
            Value::Object(map) => self.drop_properties(path, map).await,
            Value::Array(items) => {
                self.shorten(path, items, Value::Array).await;
            }
            Value::String(text) => {
                let chars: Vec<char> = text.chars().collect();
                let chars = self.shorten(path, chars, chars_value).await;
                self.simplify_chars(path, chars).await;
            }
            Value::Number(n) => self.shrink_number(path, &n).await,
            Value::Bool(true) => {
                self.attempt(path, Value::Bool(false)).await;
            }
            Value::Bool(false) | Value::Null => {}
        }
    }

    /// The shortest failing prefix by bisection, then the longest failing suffix of it,
    /// then (when short) contiguous chunks removed. Returns the sequence kept.
    async fn shorten<T: Clone>(
        &mut self,
        path: &[Seg],
        items: Vec<T>,
        rebuild: fn(Vec<T>) -> Value,
    ) -> Vec<T> {
        // `hi`: the shortest prefix known to fail; `lo`: one that did not (or untried 0).
        let (mut lo, mut hi) = (0, items.len());
        while hi > lo + 1 && !self.exhausted() {
            let mid = lo + (hi - lo) / 2;
            if self.attempt(path, rebuild(items[..mid].to_vec())).await {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        if hi == 1 && self.attempt(path, rebuild(Vec::new())).await {
            hi = 0;
        }
        let mut items = items[..hi].to_vec();
        // The longest failing suffix of that prefix, by bisection on where it starts.
        let (mut kept, mut cut) = (0, items.len());
        while cut > kept + 1 && !self.exhausted() {
            let mid = kept + (cut - kept) / 2;
            if self.attempt(path, rebuild(items[mid..].to_vec())).await {
                kept = mid;
            } else {
                cut = mid;
            }
        }
        items.drain(..kept);
        if items.len() <= CHUNKED {
            items = self.remove_chunks(path, items, &rebuild).await;
        }
        items
    }

    /// The properties whose removal alone keeps the value valid (free to find: no call),
    /// removed by delta debugging among themselves, so a required property never splits
    /// a chunk.
    async fn drop_properties(&mut self, path: &[Seg], map: Map<String, Value>) {
        let removable: Vec<String> = map
            .keys()
            .filter(|key| {
                let mut without = self.best.clone();
                if let Some(Value::Object(o)) = node_mut(&mut without, path) {
                    o.shift_remove(key.as_str());
                }
                (self.valid)(&without)
            })
            .cloned()
            .collect();
        let optional: HashSet<String> = removable.iter().cloned().collect();
        let rebuild = move |kept: Vec<String>| {
            let kept: HashSet<String> = kept.into_iter().collect();
            let properties = map
                .iter()
                .filter(|(k, _)| !optional.contains(*k) || kept.contains(*k))
                .map(|(k, v)| (k.clone(), v.clone()));
            Value::Object(properties.collect())
        };
        self.remove_chunks(path, removable, &rebuild).await;
    }

    /// Delta debugging's removals: contiguous chunks, halves first, down to single
    /// elements. For a sequence, only a short one (each removal is a call, and a long one
    /// whose length is what fails would spend the budget on removals that cannot
    /// succeed); for an object, all its optional properties (thousands go in a few
    /// calls).
    async fn remove_chunks<T: Clone>(
        &mut self,
        path: &[Seg],
        mut items: Vec<T>,
        rebuild: &dyn Fn(Vec<T>) -> Value,
    ) -> Vec<T> {
        let mut size = (items.len() / 2).max(1);
        while size > 0 && !self.exhausted() {
            let mut start = 0;
            while start < items.len() && !self.exhausted() {
                let mut fewer = items.clone();
                fewer.drain(start..(start + size).min(items.len()));
                if self.attempt(path, rebuild(fewer.clone())).await {
                    items = fewer;
                } else {
                    start += size;
                }
            }
            size /= 2;
        }
        items
    }

    /// The whole string as `0`s, then chunks of it (halves first) as the simplest
    /// character of each one's class.
    async fn simplify_chars(&mut self, path: &[Seg], mut chars: Vec<char>) {
        if chars.is_empty()
            || self
                .attempt(path, chars_value(vec!['0'; chars.len()]))
                .await
        {
            return;
        }
        let mut size = chars.len();
        while size > 0 && !self.exhausted() {
            for start in (0..chars.len()).step_by(size) {
                let mut simpler = chars.clone();
                let end = (start + size).min(chars.len());
                for c in &mut simpler[start..end] {
                    *c = class_minimum(*c);
                }
                if simpler != chars && self.attempt(path, chars_value(simpler.clone())).await {
                    chars = simpler;
                }
            }
            size /= 2;
        }
    }

    async fn shrink_number(&mut self, path: &[Seg], n: &Number) {
        let integer = match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i128::from(i),
            (_, Some(u), _) => i128::from(u),
            (_, _, Some(f)) => {
                // Integers before fractions: the fraction's integer part, as an integer.
                let whole = f.trunc();
                if whole.abs() >= 9.007_199_254_740_992e15 {
                    return;
                }
                let whole = whole as i64;
                if !self.attempt(path, Value::from(whole)).await {
                    // A fraction it must stay: 0, else the simplest one, a half.
                    if !self.attempt(path, Value::from(0)).await {
                        self.attempt(path, Value::from(0.5_f64.copysign(f))).await;
                    }
                    return;
                }
                i128::from(whole)
            }
            _ => return,
        };
        self.toward_zero(path, integer).await;
    }

    /// 0, else the integer nearest 0 that still fails, by bisection between 0 and `value`
    /// (a bound in between ends it there: past it nothing is valid).
    async fn toward_zero(&mut self, path: &[Seg], value: i128) {
        if value == 0 || self.attempt(path, int_value(0)).await {
            return;
        }
        let (mut passing, mut failing) = (0i128, value);
        while (failing - passing).abs() > 1 && !self.exhausted() {
            let mid = passing + (failing - passing) / 2;
            if self.attempt(path, int_value(mid)).await {
                failing = mid;
            } else {
                passing = mid;
            }
        }
    }
}

fn chars_value(chars: Vec<char>) -> Value {
    Value::String(chars.into_iter().collect())
}

fn int_value(n: i128) -> Value {
    i64::try_from(n)
        .map(Value::from)
        .or_else(|_| u64::try_from(n).map(Value::from))
        .unwrap_or(Value::Null)
}

/// Every node's path, breadth first (the root first, then its children in order).
fn paths(value: &Value) -> Vec<Vec<Seg>> {
    let mut out = vec![Vec::new()];
    let mut next = 0;
    while next < out.len() {
        let path = out[next].clone();
        next += 1;
        match node_at(value, &path) {
            Some(Value::Object(map)) => {
                for key in map.keys() {
                    out.push([path.clone(), vec![Seg::Key(key.clone())]].concat());
                }
            }
            Some(Value::Array(items)) => {
                for i in 0..items.len() {
                    out.push([path.clone(), vec![Seg::Index(i)]].concat());
                }
            }
            _ => {}
        }
    }
    out
}

fn node_at<'a>(value: &'a Value, path: &[Seg]) -> Option<&'a Value> {
    path.iter().try_fold(value, |node, seg| match seg {
        Seg::Key(key) => node.get(key),
        Seg::Index(i) => node.get(i),
    })
}

fn node_mut<'a>(value: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |node, seg| match seg {
        Seg::Key(key) => node.get_mut(key),
        Seg::Index(i) => node.get_mut(i),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Shrinks with a synchronous oracle, counting its calls.
    fn shrunk(
        start: Value,
        valid: &dyn Fn(&Value) -> bool,
        fails: impl Fn(&Value) -> bool,
    ) -> Shrunk {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(shrink(start, 200, valid, async |v: &Value| fails(v)))
    }

    fn any(_: &Value) -> bool {
        true
    }

    fn text(v: &Value, key: &str) -> String {
        v[key].as_str().unwrap_or_default().to_string()
    }

    #[test]
    fn a_long_string_stall_shrinks_to_threshold_plus_one_zeros_in_logarithmic_steps() {
        let long: String = (0..2594)
            .map(|i| char::from_u32(0x61 + (i % 7000)).unwrap_or('x'))
            .collect();
        let got = shrunk(json!({"text": long}), &any, |v| {
            text(v, "text").chars().count() > 1000
        });
        assert_eq!(got.value, json!({"text": "0".repeat(1001)}));
        assert!(got.steps <= 30, "{} steps", got.steps);
    }

    #[test]
    fn a_crash_on_an_astral_character_shrinks_to_that_one_character() {
        let got = shrunk(
            json!({"text": "q\u{ed9f0}囡鄎\u{11}\u{1d}K]"}),
            &any,
            |v| text(v, "text").chars().any(|c| u32::from(c) > 0xffff),
        );
        assert_eq!(got.value, json!({"text": "\u{10000}"}));
    }

    #[test]
    fn a_number_shrinks_to_zero_or_to_the_bound_the_schema_keeps() {
        let got = shrunk(json!({"b": 123456}), &any, |v| {
            v["b"].as_i64().is_some_and(|b| b != 7)
        });
        assert_eq!(got.value, json!({"b": 0}));
        // Valid only from 10: the search stops at the bound.
        let valid = |v: &Value| v["n"].as_i64().is_some_and(|n| n >= 10);
        let got = shrunk(json!({"n": 1000}), &valid, |_| true);
        assert_eq!(got.value, json!({"n": 10}));
        // A fraction becomes an integer first.
        let got = shrunk(json!({"x": 41.75}), &any, |v| {
            v["x"].as_f64().is_some_and(|x| x > 5.0)
        });
        assert_eq!(got.value, json!({"x": 6}));
        // One that must stay a fraction becomes a half.
        let fraction = |v: &Value| v["x"].as_f64().is_some_and(|x| x.fract() != 0.0);
        let got = shrunk(json!({"x": -7.4}), &any, fraction);
        assert_eq!(got.value, json!({"x": -0.5}));
    }

    #[test]
    fn objects_drop_what_is_not_needed_and_arrays_keep_their_minimum() {
        let valid =
            |v: &Value| v.get("id").is_some() && v["tags"].as_array().is_some_and(|t| t.len() >= 2);
        let start = json!({"id": 99, "note": "hello", "deep": {"a": [1, 2, 3]}, "tags": ["x", "y", "z", "w"], "flag": true});
        let got = shrunk(start, &valid, |_| true);
        assert_eq!(got.value, json!({"id": 0, "tags": ["", ""]}));
    }

    #[test]
    fn thousands_of_optional_properties_go_in_a_few_calls() {
        // 2,000 properties, every tenth required; the failure needs only "p1234".
        let start: serde_json::Map<String, Value> =
            (0..2000).map(|i| (format!("p{i}"), json!(0))).collect();
        let valid = |v: &Value| {
            (0..2000)
                .step_by(10)
                .all(|i| v.get(format!("p{i}")).is_some())
        };
        let got = shrunk(Value::Object(start), &valid, |v| v.get("p1234").is_some());
        let kept: Vec<&String> = got.value.as_object().unwrap().keys().collect();
        assert_eq!(kept.len(), 201, "{kept:?}");
        assert!(kept.iter().any(|k| *k == "p1234"));
        // One by one, the 1,799 optional properties would take 1,799 calls.
        assert!(got.steps < 40, "{} steps", got.steps);
    }

    #[test]
    fn the_same_failure_shrinks_to_the_same_case_every_time() {
        let start = json!({"text": "abc\u{1F600}def", "n": 77, "list": [5, 6, 7]});
        let fails =
            |v: &Value| text(v, "text").contains('\u{1F600}') || v["n"].as_i64() == Some(77);
        let first = shrunk(start.clone(), &any, fails);
        assert_eq!(first, shrunk(start, &any, fails));
    }

    #[test]
    fn the_budget_bounds_the_evaluations() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let long = "a".repeat(10_000);
        let got = runtime.block_on(shrink(json!(long), 5, &any, async |_: &Value| true));
        assert_eq!(got.steps, 5);
    }
}
