//! Which tools a run may call (`--call`, `--allow-tool`, `--deny-tool`).
//!
//! Tools on real servers have side effects: deleting files, sending mail. The default is
//! to call every listed tool (stated loudly in the README); `read-only` calls only tools
//! annotated `readOnlyHint: true`; `none` calls nothing. A tool not called shows up as a
//! skip with the reason, never silently.
//!
//! Tools that reject every generated input (a time zone, a repository path) can be given
//! arguments by the user (`--tool-args NAME=JSON`, `[tools.NAME] arguments`): their first
//! call uses those, so the checks that need a successful call are not skipped.

use std::collections::BTreeMap;

use serde_json::Value;

/// The broad rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CallMode {
    /// Call every tool (subject to allow and deny).
    #[default]
    All,
    /// Call only tools annotated `readOnlyHint: true`.
    ReadOnly,
    /// Call no tool.
    None,
}

/// The call policy of a run.
#[derive(Debug, Clone, Default)]
pub struct CallPolicy {
    /// The broad rule.
    pub mode: CallMode,
    /// When not empty, only tools whose name matches one of these globs are called.
    pub allow: Vec<glob::Pattern>,
    /// Tools whose name matches one of these globs are never called.
    pub deny: Vec<glob::Pattern>,
    /// Arguments given by the user for a tool's first call, by tool name.
    pub arguments: BTreeMap<String, Value>,
}

impl CallPolicy {
    /// The arguments the user gave for `name`'s first call, if any.
    pub fn given_arguments(&self, name: &str) -> Option<&Value> {
        self.arguments.get(name)
    }

    /// `Ok` when `tool` may be called, else the reason it is not.
    pub fn permits(&self, tool: &Value) -> Result<(), String> {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
        if self.mode == CallMode::None {
            return Err("not called: --call none".into());
        }
        if let Some(p) = self.deny.iter().find(|p| p.matches(name)) {
            return Err(format!("not called: --deny-tool {}", p.as_str()));
        }
        if !self.allow.is_empty() && !self.allow.iter().any(|p| p.matches(name)) {
            return Err("not called: matches no --allow-tool".into());
        }
        let read_only = tool.pointer("/annotations/readOnlyHint") == Some(&Value::Bool(true));
        if self.mode == CallMode::ReadOnly && !read_only {
            return Err(
                "not called: --call read-only and the tool is not annotated readOnlyHint: true"
                    .into(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn deny_wins_and_read_only_needs_the_hint() {
        let policy = CallPolicy {
            mode: CallMode::ReadOnly,
            allow: vec![glob::Pattern::new("get_*").unwrap()],
            deny: vec![glob::Pattern::new("get_secret").unwrap()],
            ..CallPolicy::default()
        };
        let ro = |name: &str| json!({"name": name, "annotations": {"readOnlyHint": true}});
        assert!(policy.permits(&ro("get_time")).is_ok());
        assert!(policy
            .permits(&ro("get_secret"))
            .unwrap_err()
            .contains("--deny-tool"));
        assert!(policy
            .permits(&ro("delete"))
            .unwrap_err()
            .contains("--allow-tool"));
        assert!(policy
            .permits(&json!({"name": "get_x"}))
            .unwrap_err()
            .contains("read-only"));
    }
}
