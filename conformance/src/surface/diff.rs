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

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::listing::{has_varies, matches, VARIES};
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
/// ToolAnnotations), with the word for each hint turned on and off.
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
    for revision in scope {
        let mut here = Vec::new();
        match (
            recorded.revisions.get(*revision),
            live.revisions.get(*revision),
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
            match found.iter_mut().find(|c| same(c, &change)) {
                Some(seen) => seen.revisions.push(revision.to_string()),
                None => {
                    change.revisions = vec![revision.to_string()];
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

/// Whether two changes are the same but for their revisions.
fn same(a: &SurfaceChange, b: &SurfaceChange) -> bool {
    (a.class, &a.tool, &a.pointer, &a.what, &a.before, &a.after)
        == (b.class, &b.tool, &b.pointer, &b.what, &b.before, &b.after)
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

/// One revision's tools: removed, renamed, added, changed.
fn tools(
    before: &BTreeMap<String, Value>,
    after: &BTreeMap<String, Value>,
    out: &mut Vec<SurfaceChange>,
) {
    let removed: Vec<&String> = before.keys().filter(|n| !after.contains_key(*n)).collect();
    let mut added: BTreeSet<&String> = after.keys().filter(|n| !before.contains_key(*n)).collect();
    for name in removed {
        // A tool gone and one come with the same input is the tool renamed: a client
        // calling it by its old name fails all the same, but the reader is told where it went.
        let renamed = added
            .iter()
            .find(|n| same_tool(&before[name], &after[**n]))
            .copied();
        match renamed {
            Some(new) => {
                added.remove(new);
                out.push(change(
                    name,
                    "",
                    format!("tool renamed to {new:?}"),
                    Some(&Value::String(name.clone())),
                    Some(&Value::String(new.clone())),
                    Class::Breaking,
                ));
            }
            // The pointer names the tool; its definition is in the snapshot.
            None => out.push(change(
                name,
                "",
                "tool removed",
                None,
                None,
                Class::Breaking,
            )),
        }
    }
    for name in added {
        out.push(change(
            name,
            "",
            "tool added",
            None,
            None,
            Class::Compatible,
        ));
    }
    for (name, old) in before {
        if let Some(new) = after.get(name) {
            tool(name, old, new, out);
        }
    }
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

/// One tool's fields.
fn tool(name: &str, before: &Value, after: &Value, out: &mut Vec<SurfaceChange>) {
    if matches(before, after) {
        return;
    }
    let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
        // One side is the whole-tool mark, the other a definition.
        out.push(varies(name, "", before, after));
        return;
    };
    let keys: BTreeSet<&String> = b.keys().chain(a.keys()).collect();
    for key in keys {
        let (old, new) = (b.get(key), a.get(key));
        let at = format!("/{}", pointer_token(key));
        match (old, new) {
            (Some(o), Some(n)) if matches(o, n) => continue,
            (Some(o), _) if has_varies(o) => continue,
            (_, Some(n)) if has_varies(n) => {
                out.push(varies(name, &at, old.unwrap_or(&Value::Null), n));
                continue;
            }
            _ => {}
        }
        field(name, key, &at, old, new, out);
    }
}

/// A field that now differs between two listings where it did not.
fn varies(name: &str, at: &str, before: &Value, after: &Value) -> SurfaceChange {
    change(
        name,
        at,
        format!("now differs between two listings ({VARIES:?} in the new snapshot)"),
        Some(before),
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
