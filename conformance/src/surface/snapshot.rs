//! The snapshot file: a server's tools per revision, as committed bytes a person reviews.
//!
//! The bytes are a function of the surface alone: JSON, two-space indented, a fixed
//! top-level order (`format`, then `surfaces`), each tool definition's keys sorted, tools by
//! name, revisions in date order, and the revisions that list the same tools folded into one
//! surface. The README, "Tool surface snapshots", documents the format.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::listing::{canonical, VARIES};
use crate::protocol::{Revision, REVISIONS};

/// The value of the file's `format` key: what it is and which shape it has.
pub const FORMAT: &str = "mcp-conformance tool surface, format 1";

/// One server's tools, per revision it speaks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    /// Revision id to its tools by name (`BTreeMap`: revision ids are dates, so they sort
    /// in the order they were published).
    pub revisions: BTreeMap<String, BTreeMap<String, Value>>,
}

impl Snapshot {
    /// The revisions that list the same tools, folded: each group's revisions in order,
    /// groups by their first revision.
    pub fn groups(&self) -> Vec<(Vec<&str>, &BTreeMap<String, Value>)> {
        let mut groups: Vec<(Vec<&str>, &BTreeMap<String, Value>)> = Vec::new();
        for (revision, tools) in &self.revisions {
            match groups.iter_mut().find(|(_, t)| *t == tools) {
                Some((revisions, _)) => revisions.push(revision),
                None => groups.push((vec![revision], tools)),
            }
        }
        groups
    }

    /// The file's bytes (ending in a newline).
    pub fn to_bytes(&self) -> Vec<u8> {
        let surfaces: Vec<Value> = self
            .groups()
            .into_iter()
            .map(|(revisions, tools)| {
                let tools: Map<String, Value> = tools
                    .iter()
                    .map(|(name, tool)| (name.clone(), canonical(tool)))
                    .collect();
                json!({"revisions": revisions, "tools": tools})
            })
            .collect();
        let file = json!({"format": FORMAT, "surfaces": surfaces});
        let mut bytes = serde_json::to_vec_pretty(&file).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }

    /// Reads a snapshot file: a missing or malformed one is [`crate::Error::Config`],
    /// naming the file and what is wrong.
    pub fn load(path: &std::path::Path) -> crate::Result<Self> {
        let config_error = |message: String| crate::Error::Config {
            path: path.to_path_buf(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| {
            config_error(if e.kind() == std::io::ErrorKind::NotFound {
                "no such snapshot; take one with `mcp-conformance snapshot FILE`".to_string()
            } else {
                e.to_string()
            })
        })?;
        Self::parse(&text)
            .map_err(|message| config_error(format!("not a tool surface snapshot: {message}")))
    }

    /// Reads a snapshot file's text; `Err` says what is wrong with it.
    pub fn parse(text: &str) -> Result<Self, String> {
        let file: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        match file.get("format").and_then(Value::as_str) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(format!(
                    "its format is {other:?}; this version reads {FORMAT:?}"
                ))
            }
            None => return Err(format!("it has no \"format\": {FORMAT:?}")),
        }
        let surfaces = file
            .get("surfaces")
            .and_then(Value::as_array)
            .ok_or("it has no \"surfaces\" array")?;
        let mut snapshot = Snapshot::default();
        for (i, surface) in surfaces.iter().enumerate() {
            let revisions = surface
                .get("revisions")
                .and_then(Value::as_array)
                .ok_or(format!("surface {i} has no \"revisions\" array"))?;
            let tools = surface
                .get("tools")
                .and_then(Value::as_object)
                .ok_or(format!("surface {i} has no \"tools\" object"))?;
            let tools = read_tools(tools).map_err(|e| format!("surface {i}: {e}"))?;
            for revision in revisions {
                let revision = revision
                    .as_str()
                    .ok_or(format!("surface {i} has a revision that is not a string"))?;
                if Revision::find(revision).is_none() {
                    let known: Vec<&str> = REVISIONS.iter().map(|r| r.id).collect();
                    return Err(format!(
                        "surface {i} names the revision {revision:?}, which is none of {}",
                        known.join(", ")
                    ));
                }
                if snapshot
                    .revisions
                    .insert(revision.to_string(), tools.clone())
                    .is_some()
                {
                    return Err(format!("revision {revision} is in two surfaces"));
                }
            }
        }
        Ok(snapshot)
    }
}

/// A surface's tools, each an object or the whole-tool [`VARIES`] mark.
fn read_tools(tools: &Map<String, Value>) -> Result<BTreeMap<String, Value>, String> {
    let mut out = BTreeMap::new();
    for (name, tool) in tools {
        let whole_mark = tool.as_str() == Some(VARIES);
        if !tool.is_object() && !whole_mark {
            return Err(format!("tool {name:?} is not an object"));
        }
        out.insert(name.clone(), tool.clone());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools(pairs: &[(&str, Value)]) -> BTreeMap<String, Value> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.clone()))
            .collect()
    }

    fn sample() -> Snapshot {
        let old = tools(&[(
            "echo",
            json!({"name": "echo", "inputSchema": {"type": "object"}}),
        )]);
        let new = tools(&[
            (
                "echo",
                json!({"name": "echo", "inputSchema": {"type": "object"}}),
            ),
            (
                "add",
                json!({"name": "add", "inputSchema": {"type": "object"}}),
            ),
        ]);
        let mut snapshot = Snapshot::default();
        for (revision, t) in [
            ("2025-06-18", &new),
            ("2024-11-05", &old),
            ("2025-03-26", &old),
            ("2025-11-25", &new),
        ] {
            snapshot.revisions.insert(revision.into(), t.clone());
        }
        snapshot
    }

    #[test]
    fn revisions_with_the_same_tools_fold_in_date_order() {
        let snapshot = sample();
        let groups: Vec<Vec<&str>> = snapshot.groups().into_iter().map(|(r, _)| r).collect();
        assert_eq!(
            groups,
            [["2024-11-05", "2025-03-26"], ["2025-06-18", "2025-11-25"]]
        );
    }

    #[test]
    fn the_bytes_read_back_as_the_same_snapshot_and_do_not_depend_on_key_order() {
        let snapshot = sample();
        let bytes = snapshot.to_bytes();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.starts_with(
            "{\n  \"format\": \"mcp-conformance tool surface, format 1\",\n  \"surfaces\": ["
        ));
        assert!(text.ends_with("}\n"));
        assert_eq!(Snapshot::parse(&text).unwrap(), snapshot);
        let mut reordered = snapshot.clone();
        reordered.revisions.get_mut("2024-11-05").unwrap().insert(
            "echo".into(),
            serde_json::from_str(r#"{"inputSchema": {"type": "object"}, "name": "echo"}"#).unwrap(),
        );
        assert_eq!(reordered.to_bytes(), bytes);
    }

    #[test]
    fn a_file_of_another_shape_is_refused_with_what_is_wrong() {
        let cases = [
            ("[]", "no \"format\""),
            (r#"{"format": "x"}"#, "this version reads"),
            (&format!(r#"{{"format": "{FORMAT}"}}"#), "no \"surfaces\""),
            (
                &format!(
                    r#"{{"format": "{FORMAT}", "surfaces": [{{"revisions": ["a"], "tools": {{"t": 1}}}}]}}"#
                ),
                "not an object",
            ),
            (
                &format!(
                    r#"{{"format": "{FORMAT}", "surfaces": [{{"revisions": ["2025-06-18"], "tools": {{}}}}, {{"revisions": ["2025-06-18"], "tools": {{}}}}]}}"#
                ),
                "in two surfaces",
            ),
        ];
        let misspelt = format!(
            r#"{{"format": "{FORMAT}", "surfaces": [{{"revisions": ["2099-01-01"], "tools": {{}}}}]}}"#
        );
        for (text, why) in cases
            .into_iter()
            .chain([(misspelt.as_str(), "which is none of")])
        {
            let err = Snapshot::parse(text).unwrap_err();
            assert!(err.contains(why), "{text}: {err}");
        }
    }
}
