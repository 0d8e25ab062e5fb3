//! A tools/list page too wide to hold as one tree is held as a short tree and a text tail.
//!
//! A listing of 100,000 small tools is 6 MB of text and, parsed into `serde_json::Value`,
//! about 100 MB; a revision keeps several walks of it (the first, the second, the two
//! `params` forms, the property phase's) and a run keeps every revision's record until it
//! judges them, so such a server took the harness past 1.7 GB. Here a response past
//! [`super::skim::VALUE_BUDGET`] values whose `result` holds `tools` keeps its first tools
//! as a tree (the [`TREE_TOOLS_AT_LEAST`] that may be called, then up to [`TREE_BUDGET`]
//! values) and the rest as their JSON text ([`ListingTail`]), parsed one tool at a time by
//! the checks that judge
//! every tool (names, uniqueness, schema shape, schema.json). Identical tails (the same
//! listing walked again, in any revision) are held once.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::held::{key_of, Held};
use super::skim::{values_at_most, VALUE_BUDGET};

/// JSON values the tree part of a cut listing may hold past its first
/// [`TREE_TOOLS_AT_LEAST`] tools: about 256 small tools. Each walk of the listing holds its
/// own tree (a run of five revisions, about 25), so this is kept small.
pub(super) const TREE_BUDGET: usize = 1 << 10;

/// Tools a cut listing keeps as trees whatever their size: the Tools conversation and the
/// property phase call the first 128 listed tools at most
/// (`scenarios::tools::MAX_CALLED_TOOLS`), so cutting never costs a call.
pub const TREE_TOOLS_AT_LEAST: usize = 128;

/// The tools of a cut listing past its tree part, as their JSON text.
#[derive(Debug, PartialEq, Eq)]
pub struct ListingTail {
    /// Listed before the tail: the tools kept in the page's tree.
    kept: usize,
    /// The tail's text: from its first tool's first byte to its last tool's last.
    text: Box<str>,
    /// Each tool's place in `text`.
    spans: Vec<(u32, u32)>,
}

impl ListingTail {
    /// Tools in the tail.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether the tail holds no tool (a cut listing's never does).
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Tools kept in the page's tree before the tail.
    pub fn kept(&self) -> usize {
        self.kept
    }

    /// Each tool of the tail, parsed as it is reached (one tree at a time). A tool that no
    /// longer parses (it cannot: each was read once as JSON) reads as `null`.
    pub fn tools(&self) -> impl Iterator<Item = Value> + '_ {
        self.spans.iter().map(|&(start, end)| {
            let text = &self.text[start as usize..end as usize];
            serde_json::from_str(text).unwrap_or(Value::Null)
        })
    }

    /// One line for reports: how the page was held.
    pub fn describe(&self) -> String {
        format!(
            "{} tools listed on one page; the first {} kept for planning calls, the other {} \
             judged one at a time (a page past {} JSON values is not held as one tree)",
            crate::protocol::thousands((self.kept + self.len()) as u64),
            crate::protocol::thousands(self.kept as u64),
            crate::protocol::thousands(self.len() as u64),
            crate::protocol::thousands(VALUE_BUDGET as u64),
        )
    }
}

/// `text`, a line past the value budget (`skim::is_wide`), as a response whose tool list
/// is cut: the message with the first tools, and the tail. `None` for anything else (not
/// a response, no `result.tools` array, no tool past the tree part): it is parsed whole
/// as before.
pub(super) fn cut(text: &str) -> Option<(Value, Arc<ListingTail>)> {
    let top: Vec<(String, &RawValue)> = entries(text)?;
    if !top.iter().any(|(k, _)| k == "id") {
        return None;
    }
    let result = only(&top, "result")?;
    let members: Vec<(String, &RawValue)> = entries(result.get())?;
    let tools = only(&members, "tools")?;
    let tools: Vec<&RawValue> = serde_json::from_str(tools.get()).ok()?;
    let kept = kept_count(&tools);
    if kept == tools.len() {
        return None;
    }
    let tree: Vec<Value> = tools[..kept]
        .iter()
        .map(|t| parse(t))
        .collect::<Option<_>>()?;
    let result = rebuild(&members, "tools", Value::Array(tree))?;
    let message = rebuild(&top, "result", result)?;
    let tail = tail_of(text, &tools[kept..]);
    Some((message, intern(ListingTail { kept, ..tail })))
}

/// The members of a JSON object, in order, each as its text; `None` if `text` is not one.
fn entries(text: &str) -> Option<Vec<(String, &RawValue)>> {
    serde_json::from_str::<Entries<'_>>(text).ok().map(|e| e.0)
}

/// A JSON object's members in order, repeated ones included (a map type would drop them).
struct Entries<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(EntriesVisitor)
    }
}

struct EntriesVisitor;

impl<'de> serde::de::Visitor<'de> for EntriesVisitor {
    type Value = Entries<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Entries<'de>, A::Error> {
        let mut out = Vec::new();
        while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
            out.push(entry);
        }
        Ok(Entries(out))
    }
}

/// The one member named `key` (a repeated member is not cut: parsed whole, as before).
fn only<'a>(members: &[(String, &'a RawValue)], key: &str) -> Option<&'a RawValue> {
    let mut named = members.iter().filter(|(k, _)| k == key);
    let (_, raw) = named.next()?;
    named.next().is_none().then_some(*raw)
}

/// The object of `members`, with `value` in place of the text of member `key`.
fn rebuild(members: &[(String, &RawValue)], key: &str, value: Value) -> Option<Value> {
    let mut value = Some(value);
    let mut out = Map::new();
    for (name, raw) in members {
        let member = match value.take_if(|_| name == key) {
            Some(v) => v,
            None => parse(raw)?,
        };
        out.insert(name.clone(), member);
    }
    Some(Value::Object(out))
}

fn parse(raw: &RawValue) -> Option<Value> {
    serde_json::from_str(raw.get()).ok()
}

/// How many tools, from the first, are kept as trees: the first [`TREE_TOOLS_AT_LEAST`],
/// then more while all of them hold at most [`TREE_BUDGET`] values.
fn kept_count(tools: &[&RawValue]) -> usize {
    let mut spent = 0usize;
    let mut kept = 0;
    for tool in tools {
        spent += values_at_most(tool.get());
        if spent > TREE_BUDGET && kept >= TREE_TOOLS_AT_LEAST {
            break;
        }
        kept += 1;
    }
    kept
}

/// The tail's text and each tool's span in it (every `&RawValue` here borrows `line`).
fn tail_of(line: &str, tools: &[&RawValue]) -> ListingTail {
    let offset = |raw: &RawValue| raw.get().as_ptr() as usize - line.as_ptr() as usize;
    let start = tools.first().map_or(0, |t| offset(t));
    let end = tools.last().map_or(0, |t| offset(t) + t.get().len());
    let spans = tools
        .iter()
        .map(|t| {
            let at = offset(t) - start;
            // The line is under the line cap, far below 4 GiB.
            (at as u32, (at + t.get().len()) as u32)
        })
        .collect();
    ListingTail {
        kept: 0,
        text: line[start..end].into(),
        spans,
    }
}

/// Tails alive in this process: an identical one is shared instead of held again.
static TAILS: Held<ListingTail> = Held::new();

fn intern(tail: ListingTail) -> Arc<ListingTail> {
    TAILS.share(key_of(&tail.text), tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(n: usize, id: u64) -> String {
        let tools: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"name":"t{i:06}","inputSchema":{{"type":"object"}}}}"#))
            .collect();
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{}],"nextCursor":"c"}}}}"#,
            tools.join(",")
        )
    }

    #[test]
    fn a_wide_listing_keeps_its_first_tools_and_the_rest_as_text() {
        let text = listing(100_000, 7);
        let (message, tail) = cut(&text).expect("cut");
        let kept = message["result"]["tools"].as_array().unwrap().len();
        assert!((TREE_TOOLS_AT_LEAST..1_000).contains(&kept), "{kept}");
        assert_eq!(tail.kept(), kept);
        assert_eq!(kept + tail.len(), 100_000);
        assert_eq!(message["id"], 7);
        assert_eq!(message["result"]["nextCursor"], "c");
        let names: Vec<String> = tail.tools().map(|t| t["name"].to_string()).collect();
        assert_eq!(names.first().unwrap(), &format!("\"t{kept:06}\""));
        assert_eq!(names.last().unwrap(), "\"t099999\"");
        let whole: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            whole["result"]["tools"][kept + 5],
            tail.tools().nth(5).unwrap()
        );
    }

    #[test]
    fn the_same_tail_is_held_once() {
        let (_, a) = cut(&listing(100_000, 1)).unwrap();
        let (_, b) = cut(&listing(100_000, 2)).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
    }

    #[test]
    fn narrow_listings_and_other_messages_are_not_cut() {
        assert!(cut(&listing(100, 1)).is_none());
        let zeros = vec!["0"; VALUE_BUDGET + 1].join(",");
        let other = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"x":[{zeros}]}}}}"#);
        assert!(cut(&other).is_none());
        let note = format!(r#"{{"jsonrpc":"2.0","method":"m","result":{{"tools":[{zeros}]}}}}"#);
        assert!(cut(&note).is_none());
    }
}
