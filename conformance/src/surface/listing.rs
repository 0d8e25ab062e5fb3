//! One revision's tools as a snapshot holds them: two walks of `tools/list` merged into one
//! map of tools by name, keys sorted, and every place where the walks disagreed replaced by
//! [`VARIES`]. A listing that changes from walk to walk (a timestamp in a description, a
//! tool that comes and goes) is snapshotted once, with its unstable places marked, instead
//! of making every snapshot differ from the last.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::protocol::pointer_token;

/// What a snapshot holds where two walks of one listing disagreed. Compared with it, any
/// value matches.
pub const VARIES: &str = "(differs between two listings)";

/// One revision's tools, merged from its walks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listing {
    /// Every tool by name, each definition with its keys sorted.
    pub tools: BTreeMap<String, Value>,
    /// Where the two walks disagreed: RFC 6901 pointers (`/tools/NAME/...`).
    pub unstable: Vec<String>,
    /// Names listed more than once in one walk (the first definition is kept).
    pub duplicates: Vec<String>,
    /// How many listed tools had no string `name` (left out).
    pub unnamed: usize,
}

impl Listing {
    /// The listing of `first`'s tools, merged with `second`'s when a second walk was made.
    pub fn merge(first: &[Value], second: Option<&[Value]>) -> Self {
        let mut listing = Listing::default();
        let first = listing.by_name(first);
        let second = second.map(|walk| listing.by_name(walk));
        listing.duplicates.sort();
        listing.duplicates.dedup();
        let Some(second) = second else {
            listing.tools = first;
            return listing;
        };
        let names: std::collections::BTreeSet<&String> =
            first.keys().chain(second.keys()).collect();
        for name in names {
            let at = format!("/tools/{}", pointer_token(name));
            let merged = match (first.get(name), second.get(name)) {
                (Some(a), Some(b)) => merge_values(a, b, &at, &mut listing.unstable),
                _ => {
                    listing.unstable.push(at);
                    Value::String(VARIES.into())
                }
            };
            listing.tools.insert(name.clone(), merged);
        }
        listing
    }

    /// One walk's tools by name, keys sorted; duplicates and nameless tools noted.
    fn by_name(&mut self, tools: &[Value]) -> BTreeMap<String, Value> {
        let mut out = BTreeMap::new();
        for tool in tools {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                self.unnamed += 1;
                continue;
            };
            if out.contains_key(name) {
                self.duplicates.push(name.to_string());
                continue;
            }
            out.insert(name.to_string(), canonical(tool));
        }
        out
    }
}

/// `a` where the walks agree, [`VARIES`] in every place they do not (recorded in
/// `unstable`). Objects are merged key by key; any other value is taken whole.
fn merge_values(a: &Value, b: &Value, at: &str, unstable: &mut Vec<String>) -> Value {
    if a == b || same_items(a, b) {
        return a.clone();
    }
    let (Value::Object(a), Value::Object(b)) = (a, b) else {
        unstable.push(at.to_string());
        return Value::String(VARIES.into());
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out = Map::new();
    for key in keys {
        let here = format!("{at}/{}", pointer_token(key));
        let value = match (a.get(key), b.get(key)) {
            (Some(x), Some(y)) => merge_values(x, y, &here, unstable),
            _ => {
                unstable.push(here);
                Value::String(VARIES.into())
            }
        };
        out.insert(key.clone(), value);
    }
    Value::Object(out)
}

/// Whether two arrays hold the same items in another order (a `required` or `enum` set a
/// server writes from a hash set): one walk's order is kept, not marked as varying.
fn same_items(a: &Value, b: &Value) -> bool {
    let (Value::Array(a), Value::Array(b)) = (a, b) else {
        return false;
    };
    let sorted = |items: &[Value]| {
        let mut texts: Vec<String> = items.iter().map(Value::to_string).collect();
        texts.sort();
        texts
    };
    a.len() == b.len() && sorted(a) == sorted(b)
}

/// `value` with every object's keys in sorted order (the crate keeps insertion order, and
/// a snapshot's bytes must not depend on the server's).
pub fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), canonical(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// Whether `value` holds [`VARIES`] anywhere.
pub fn has_varies(value: &Value) -> bool {
    match value {
        Value::String(s) => s == VARIES,
        Value::Object(map) => map.values().any(has_varies),
        Value::Array(items) => items.iter().any(has_varies),
        _ => false,
    }
}

/// Whether `live` is what `recorded` allows, [`VARIES`] in `recorded` matching anything.
pub fn matches(recorded: &Value, live: &Value) -> bool {
    match (recorded, live) {
        (Value::String(s), _) if s == VARIES => true,
        (Value::Object(r), Value::Object(l)) => {
            r.len() == l.len()
                && r.iter()
                    .all(|(k, rv)| l.get(k).is_some_and(|lv| matches(rv, lv)))
        }
        // Arrays whole: a merge never marks inside one (see `merge_values`).
        _ => recorded == live,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn agreeing_walks_give_the_tools_by_name_with_sorted_keys() {
        let walk = [
            json!({"name": "b", "inputSchema": {"type": "object"}, "description": "B"}),
            json!({"name": "a", "inputSchema": {"type": "object"}}),
        ];
        let listing = Listing::merge(&walk, Some(&walk));
        assert_eq!(listing.tools.keys().collect::<Vec<_>>(), ["a", "b"]);
        let keys: Vec<&String> = listing.tools["b"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["description", "inputSchema", "name"]);
        assert!(listing.unstable.is_empty());
    }

    #[test]
    fn disagreements_are_marked_once_where_they_are() {
        let first = [
            json!({"name": "a", "description": "at 10:00", "inputSchema": {"type": "object"}}),
            json!({"name": "flaky_1"}),
        ];
        let second = [
            json!({"name": "a", "description": "at 10:01", "inputSchema": {"type": "object"}}),
            json!({"name": "flaky_2"}),
        ];
        let listing = Listing::merge(&first, Some(&second));
        assert_eq!(listing.tools["a"]["description"], VARIES);
        assert_eq!(listing.tools["a"]["inputSchema"], json!({"type": "object"}));
        assert_eq!(listing.tools["flaky_1"], VARIES);
        assert_eq!(
            listing.unstable,
            ["/tools/a/description", "/tools/flaky_1", "/tools/flaky_2"]
        );
    }

    #[test]
    fn duplicates_and_nameless_tools_are_noted_not_kept_twice() {
        let walk = [
            json!({"name": "a", "description": "first"}),
            json!({"name": "a", "description": "second"}),
            json!({"description": "no name"}),
        ];
        let listing = Listing::merge(&walk, None);
        assert_eq!(listing.tools["a"]["description"], "first");
        assert_eq!(listing.duplicates, ["a"]);
        assert_eq!(listing.unnamed, 1);
    }

    #[test]
    fn a_varies_mark_matches_anything_and_nothing_else_does() {
        let recorded = json!({"name": "a", "description": VARIES, "n": [1, 2]});
        assert!(matches(
            &recorded,
            &json!({"name": "a", "description": "x", "n": [1, 2]})
        ));
        assert!(!matches(
            &recorded,
            &json!({"name": "a", "description": "x", "n": [2, 1]})
        ));
        assert!(!matches(&recorded, &json!({"name": "a", "n": [1, 2]})));
        assert!(has_varies(&recorded));
        assert!(!has_varies(&json!({"a": ["b"]})));
    }

    #[test]
    fn a_set_in_another_order_is_not_a_disagreement() {
        let first = [json!({"name": "a", "inputSchema": {"required": ["x", "y"]}})];
        let second = [json!({"name": "a", "inputSchema": {"required": ["y", "x"]}})];
        let listing = Listing::merge(&first, Some(&second));
        assert!(listing.unstable.is_empty());
        assert_eq!(
            listing.tools["a"]["inputSchema"]["required"],
            json!(["x", "y"])
        );
    }
}
