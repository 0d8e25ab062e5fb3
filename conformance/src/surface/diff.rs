//! Two snapshots compared tool by tool, each change classified by what it does to the
//! clients that call the tools (issue 30): [`Class::Breaking`] when a client that worked
//! may fail, [`Class::Review`] when a person must judge (a description is what a model
//! reads: changing it after users approved the tool is how a "rug pull" works),
//! [`Class::Compatible`] otherwise.
//!
//! A revision no longer offered, a tool removed or renamed, `outputSchema` removed and
//! `execution.taskSupport` turned `"required"` break; the schemas' changes are classified
//! keyword by keyword by [`super::compare`]; titles, descriptions, annotations, icons and
//! `_meta` are to review, with the annotation hints compared by their effective values
//! (their defaults per ToolAnnotations). The same change in several revisions is one
//! change naming them all.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::{Map, Value};

use super::listing::{canonical, matches, VARIES};
use super::schema::{compare, Class, Direction};
use super::snapshot::Snapshot;
use crate::protocol::pointer_token;

/// One change between the recorded surface and the live one.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SurfaceChange {
    /// The revisions it is seen in, in order.
    pub revisions: Vec<String>,
    /// The tool it is in (`None`: the revision as a whole).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// RFC 6901 pointer into the snapshot's surface (`/tools/NAME/inputSchema/...`).
    pub pointer: String,
    /// What changed, in words.
    pub what: String,
    /// The value before (`None`: absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    /// The value now (`None`: absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
    /// What it does to clients.
    pub class: Class,
}

/// The annotation hints and their values when absent (2025-03-26 schema.json,
/// ToolAnnotations).
const HINTS: &[(&str, bool)] = &[
    ("readOnlyHint", false),
    ("destructiveHint", true),
    ("idempotentHint", false),
    ("openWorldHint", true),
];

/// Every change from `recorded` to `live` in the revisions of `scope`, breaking first.
/// A revision of `recorded` outside `scope` is not compared (the run did not ask for it).
pub fn diff(recorded: &Snapshot, live: &Snapshot, scope: &[&str]) -> Vec<SurfaceChange> {
    let mut found: Vec<SurfaceChange> = Vec::new();
    // Each change once, by all but its revisions (a map: a listing may hold many tools).
    let mut folded: HashMap<String, usize> = HashMap::new();
    // In date order, each once, whatever order the revisions were asked in.
    let scope: BTreeSet<&str> = scope.iter().copied().collect();
    for revision in scope {
        let mut here = Vec::new();
        match (
            recorded.revisions.get(revision),
            live.revisions.get(revision),
        ) {
            (Some(_), None) => here.push(revision_change(
                "revision no longer offered",
                Class::Breaking,
            )),
            (None, Some(_)) => {
                here.push(revision_change("revision newly offered", Class::Compatible))
            }
            (Some(before), Some(after)) => tools(before, after, &mut here),
            (None, None) => {}
        }
        for mut change in here {
            let key = fold_key(&change);
            match folded.get(&key) {
                Some(&i) => found[i].revisions.push(revision.to_string()),
                None => {
                    change.revisions = vec![revision.to_string()];
                    folded.insert(key, found.len());
                    found.push(change);
                }
            }
        }
    }
    found.sort_by(|a, b| {
        (a.class, &a.tool, &a.pointer, &a.revisions).cmp(&(
            b.class,
            &b.tool,
            &b.pointer,
            &b.revisions,
        ))
    });
    found
}

/// What the snapshot becomes when `live`'s walk of the revisions of `scope` is taken:
/// those revisions from `live` (one it lacks is dropped: no longer offered), the others
/// kept. A tool the comparison finds unchanged keeps its recorded bytes (a set in another
/// order, a place marked as varying that happened to agree this time), so the file moves
/// only where a change is reported, and a snapshot never flaps.
pub fn updated(recorded: &Snapshot, live: &Snapshot, scope: &[&str]) -> Snapshot {
    let mut next = recorded.clone();
    next.revisions.retain(|r, _| !scope.contains(&r.as_str()));
    for (revision, tools) in live
        .revisions
        .iter()
        .filter(|(r, _)| scope.contains(&r.as_str()))
    {
        let kept = recorded.revisions.get(revision);
        let mut merged: BTreeMap<String, Value> = tools
            .iter()
            .map(|(name, now)| {
                let value = match kept.and_then(|k| k.get(name)) {
                    Some(before) if unchanged(before, now) => before.clone(),
                    // Changed: the live definition, with the recorded marks kept.
                    Some(before) => remark(before, now),
                    None => now.clone(),
                };
                (name.clone(), value)
            })
            .collect();
        // A tool the snapshot marks as coming and going stays, listed this time or not.
        for (name, mark) in kept.into_iter().flatten() {
            if mark.as_str() == Some(VARIES) {
                merged.entry(name.clone()).or_insert_with(|| mark.clone());
            }
        }
        next.revisions.insert(revision.clone(), merged);
    }
    next
}

/// `live` with every place `recorded` marks as varying marked still.
fn remark(recorded: &Value, live: &Value) -> Value {
    match (recorded, live) {
        (r, _) if r.as_str() == Some(VARIES) => r.clone(),
        (Value::Object(r), Value::Object(l)) => {
            let mut out: Map<String, Value> = l
                .iter()
                .map(|(k, lv)| {
                    (
                        k.clone(),
                        r.get(k).map_or_else(|| lv.clone(), |rv| remark(rv, lv)),
                    )
                })
                .collect();
            for (k, rv) in r
                .iter()
                .filter(|(k, v)| v.as_str() == Some(VARIES) && !l.contains_key(*k))
            {
                out.insert(k.clone(), rv.clone());
            }
            canonical(&Value::Object(out))
        }
        (_, l) => l.clone(),
    }
}

/// Whether the comparison finds no change between two definitions of one tool.
fn unchanged(before: &Value, after: &Value) -> bool {
    let mut out = Vec::new();
    tool("", before, after, &mut out);
    out.is_empty()
}

/// A change but for its revisions, as one string: the same change in two revisions is one.
fn fold_key(c: &SurfaceChange) -> String {
    serde_json::json!([c.class.name(), c.tool, c.pointer, c.what, c.before, c.after]).to_string()
}

fn revision_change(what: &str, class: Class) -> SurfaceChange {
    SurfaceChange {
        revisions: Vec::new(),
        tool: None,
        pointer: String::new(),
        what: what.into(),
        before: None,
        after: None,
        class,
    }
}

/// A change of `tool`'s field at `pointer` below it.
fn change(
    tool: &str,
    pointer: &str,
    what: impl Into<String>,
    before: Option<&Value>,
    after: Option<&Value>,
    class: Class,
) -> SurfaceChange {
    SurfaceChange {
        revisions: Vec::new(),
        tool: Some(tool.into()),
        pointer: format!("/tools/{}{pointer}", pointer_token(tool)),
        what: what.into(),
        before: before.cloned(),
        after: after.cloned(),
        class,
    }
}

/// Most removed tools times added tools searched for renames: past it none is looked
/// for (each is still reported removed or added).
const MAX_RENAME_PAIRS: usize = 1_000_000;

/// One revision's tools: removed (or renamed), added, changed. A tool the snapshot marks
/// as coming and going ([`VARIES`] for the whole tool) is neither removed nor added.
fn tools(
    before: &BTreeMap<String, Value>,
    after: &BTreeMap<String, Value>,
    out: &mut Vec<SurfaceChange>,
) {
    let varies = |v: &Value| v.as_str() == Some(VARIES);
    let removed: Vec<&String> = before
        .iter()
        .filter(|(n, v)| !after.contains_key(*n) && !varies(v))
        .map(|(n, _)| n)
        .collect();
    let added: Vec<&String> = after.keys().filter(|n| !before.contains_key(*n)).collect();
    let look = removed.len().saturating_mul(added.len().max(removed.len())) <= MAX_RENAME_PAIRS;
    for name in &removed {
        // A tool gone and one come with the same input is the tool renamed: a client
        // calling it by its old name fails all the same, but the reader is told where it
        // went. Only a match that is one of a kind: two candidates name neither.
        let renamed = look
            .then(|| unique_match(&before[*name], &added, after, &removed, before))
            .flatten();
        let what = match renamed {
            Some(new) => format!("tool removed (renamed to {new:?}?)"),
            None => "tool removed".to_string(),
        };
        // The pointer names the tool; its definition is in the snapshot.
        out.push(change(name, "", what, None, None, Class::Breaking));
    }
    for name in added {
        let (what, class) = match varies(&after[name]) {
            true => ("tool listed by one walk of two (new)", Class::Review),
            false => ("tool added", Class::Compatible),
        };
        out.push(change(name, "", what, None, None, class));
    }
    for (name, old) in before {
        if let Some(new) = after.get(name) {
            tool(name, old, new, out);
        }
    }
}

/// The one added tool that `old` was renamed to, if exactly one matches it and no other
/// removed tool matches that one.
fn unique_match<'a>(
    old: &Value,
    added: &[&'a String],
    after: &BTreeMap<String, Value>,
    removed: &[&String],
    before: &BTreeMap<String, Value>,
) -> Option<&'a String> {
    let mut matches = added.iter().filter(|n| same_tool(old, &after[**n]));
    let new = *matches.next()?;
    if matches.next().is_some() {
        return None;
    }
    let rivals = removed
        .iter()
        .filter(|n| same_tool(&before[**n], &after[new]))
        .count();
    (rivals == 1).then_some(new)
}

/// Whether two tools of different names are one renamed: the same input, and either an
/// input with properties (not the `{"type": "object"}` many tools share) or the same
/// description.
fn same_tool(old: &Value, new: &Value) -> bool {
    let schema = old.get("inputSchema");
    let named_inputs = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    schema.is_some()
        && new.get("inputSchema") == schema
        && (named_inputs || old.get("description") == new.get("description"))
}

/// One tool's fields, once the places marked as varying are settled ([`settle`]).
fn tool(name: &str, before: &Value, after: &Value, out: &mut Vec<SurfaceChange>) {
    if matches(before, after) {
        return;
    }
    let (before, after) = settle(name, "", before, after, out);
    let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
        if before != after {
            out.push(change(
                name,
                "",
                "tool replaced",
                Some(&before),
                Some(&after),
                Class::Review,
            ));
        }
        return;
    };
    let keys: BTreeSet<&String> = b.keys().chain(a.keys()).collect();
    for key in keys {
        let (old, new) = (b.get(key), a.get(key));
        if old != new {
            field(
                name,
                key,
                &format!("/{}", pointer_token(key)),
                old,
                new,
                out,
            );
        }
    }
}

/// `before` and `after` with every place marked [`VARIES`] settled: where the snapshot
/// marks it, the live value stands on both sides (anything matches a mark); where only
/// the live listing varies now, the recorded value stands on both sides and the place is
/// reported to review. Every other difference is left for the comparison.
fn settle(
    name: &str,
    at: &str,
    before: &Value,
    after: &Value,
    out: &mut Vec<SurfaceChange>,
) -> (Value, Value) {
    let mark = |v: &Value| v.as_str() == Some(VARIES);
    match (before, after) {
        (b, a) if mark(b) => (a.clone(), a.clone()),
        (b, a) if mark(a) => {
            out.push(varies(name, at, Some(b), a));
            (b.clone(), b.clone())
        }
        (Value::Object(b), Value::Object(a)) => {
            let (mut sb, mut sa) = (Map::new(), Map::new());
            for (key, bv) in b {
                match a.get(key) {
                    Some(av) => {
                        let here = format!("{at}/{}", pointer_token(key));
                        let (x, y) = settle(name, &here, bv, av, out);
                        sb.insert(key.clone(), x);
                        sa.insert(key.clone(), y);
                    }
                    // A mark matches absence too: the walks disagreed on whether it was there.
                    None if mark(bv) => {}
                    None => {
                        sb.insert(key.clone(), bv.clone());
                    }
                }
            }
            for (key, av) in a.iter().filter(|(k, _)| !b.contains_key(*k)) {
                if mark(av) {
                    let here = format!("{at}/{}", pointer_token(key));
                    out.push(varies(name, &here, None, av));
                } else {
                    sa.insert(key.clone(), av.clone());
                }
            }
            (Value::Object(sb), Value::Object(sa))
        }
        (b, a) => (b.clone(), a.clone()),
    }
}

/// A field that now differs between two listings where it did not.
fn varies(name: &str, at: &str, before: Option<&Value>, after: &Value) -> SurfaceChange {
    change(
        name,
        at,
        format!("now differs between two listings ({VARIES:?} in the new snapshot)"),
        before,
        Some(after),
        Class::Review,
    )
}

/// One changed field of a tool.
fn field(
    name: &str,
    key: &str,
    at: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    out: &mut Vec<SurfaceChange>,
) {
    match (key, old, new) {
        ("inputSchema", Some(o), Some(n)) => schema(name, at, o, n, Direction::Input, out),
        ("outputSchema", Some(o), Some(n)) => schema(name, at, o, n, Direction::Output, out),
        ("outputSchema", Some(_), None) => out.push(change(
            name,
            at,
            "outputSchema removed: structured output no longer promised",
            old,
            None,
            Class::Breaking,
        )),
        ("outputSchema", None, Some(_)) => out.push(change(
            name,
            at,
            "outputSchema added",
            None,
            new,
            Class::Compatible,
        )),
        ("annotations", _, _) => annotations(name, at, old, new, out),
        ("execution", _, _) => execution(name, at, old, new, out),
        _ => out.push(change(
            name,
            at,
            format!("{key} {}", moved(old, new)),
            old,
            new,
            Class::Review,
        )),
    }
}

/// "added", "removed" or "changed".
fn moved(old: Option<&Value>, new: Option<&Value>) -> &'static str {
    match (old, new) {
        (None, _) => "added",
        (_, None) => "removed",
        _ => "changed",
    }
}

/// A schema's changes, each at its pointer below the field.
fn schema(
    name: &str,
    at: &str,
    old: &Value,
    new: &Value,
    direction: Direction,
    out: &mut Vec<SurfaceChange>,
) {
    for c in compare(old, new, direction) {
        out.push(change(
            name,
            &format!("{at}{}", c.pointer),
            c.what,
            c.before.as_ref(),
            c.after.as_ref(),
            c.class,
        ));
    }
    wording(name, at, old, new, out);
}

/// The annotations of a schema, which the comparison by meaning leaves out and a model
/// (or a client filling in a form) reads.
const WORDS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// The words inside a schema ([`WORDS`] of the schema and of each subschema): each one
/// changed is to review. Walked where both sides have the same keys.
fn wording(name: &str, at: &str, old: &Value, new: &Value, out: &mut Vec<SurfaceChange>) {
    let (Some(o), Some(n)) = (old.as_object(), new.as_object()) else {
        return;
    };
    for key in WORDS {
        let (b, a) = (o.get(*key), n.get(*key));
        if b != a {
            let what = format!("schema {key} {}", moved(b, a));
            out.push(change(
                name,
                &format!("{at}/{key}"),
                what,
                b,
                a,
                Class::Review,
            ));
        }
    }
    for (key, b) in o {
        let Some(a) = n.get(key) else {
            continue;
        };
        let here = format!("{at}/{}", pointer_token(key));
        match (key.as_str(), b, a) {
            // Values, not schemas.
            (k, _, _) if WORDS.contains(&k) || matches!(k, "enum" | "const") => {}
            // Maps of schemas by name.
            (
                "properties" | "$defs" | "definitions" | "patternProperties" | "dependentSchemas",
                Value::Object(bs),
                Value::Object(as_),
            ) => {
                for (k, x) in bs {
                    if let Some(y) = as_.get(k) {
                        wording(name, &format!("{here}/{}", pointer_token(k)), x, y, out);
                    }
                }
            }
            (_, Value::Array(bs), Value::Array(as_)) => {
                for (i, (x, y)) in bs.iter().zip(as_).enumerate() {
                    wording(name, &format!("{here}/{i}"), x, y, out);
                }
            }
            _ => wording(name, &here, b, a, out),
        }
    }
}

/// The annotations: each hint by its effective value, any other key as itself.
fn annotations(
    name: &str,
    at: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    out: &mut Vec<SurfaceChange>,
) {
    let get = |side: Option<&Value>, key: &str| side.and_then(|a| a.get(key)).cloned();
    let mut keys: BTreeSet<String> = BTreeSet::new();
    for side in [old, new].into_iter().flatten() {
        if let Some(map) = side.as_object() {
            keys.extend(map.keys().cloned());
        }
    }
    for key in keys {
        let (o, n) = (get(old, &key), get(new, &key));
        if o == n {
            continue;
        }
        let here = format!("{at}/{}", pointer_token(&key));
        let what = match HINTS.iter().find(|(hint, _)| *hint == key) {
            Some(&(_, default)) => {
                let effective =
                    |v: &Option<Value>| v.as_ref().and_then(Value::as_bool).unwrap_or(default);
                match (effective(&o), effective(&n)) {
                    (false, true) => format!("{key} turned on"),
                    (true, false) => format!("{key} turned off"),
                    // Written out or left to its default: the same to a client.
                    _ => continue,
                }
            }
            None => format!("annotation {key} {}", moved(o.as_ref(), n.as_ref())),
        };
        out.push(change(
            name,
            &here,
            what,
            o.as_ref(),
            n.as_ref(),
            Class::Review,
        ));
    }
}

/// `execution`: a tool that now requires task-augmented calls refuses every plain call
/// (2025-11-25 tasks.mdx, Tool-Level Negotiation).
fn execution(
    name: &str,
    at: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    out: &mut Vec<SurfaceChange>,
) {
    let support = |side: Option<&Value>| {
        side.and_then(|e| e.get("taskSupport"))
            .and_then(Value::as_str)
            .unwrap_or("forbidden")
            .to_string()
    };
    let (o, n) = (support(old), support(new));
    let class = if n == "required" && o != "required" {
        Class::Breaking
    } else {
        Class::Review
    };
    let what = if o == n {
        format!("execution {}", moved(old, new))
    } else {
        format!("taskSupport {o} became {n}")
    };
    out.push(change(name, at, what, old, new, class));
}

#[cfg(test)]
#[path = "diff/tests.rs"]
mod tests;
