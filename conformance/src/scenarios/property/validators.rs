//! The tools' schemas compiled once per property run.
//!
//! The phase asks whether a value is valid for a tool's inputSchema for every valid case
//! it draws and every candidate of a shrink, and which rules an invalid one breaks; a
//! result is judged against the tool's outputSchema. Compiling a schema of thousands of
//! properties took longer than the call it guarded (a shrink step of a 5,000-property
//! tool compiled it twice), so each is compiled the first time it is asked for and kept.
//! A run's tools are told apart by name (`plan.rs` keeps the first listing of each), and
//! there are at most three entries a tool, so the cache is bounded as the tools are.

use std::cell::RefCell;
use std::rc::Rc;

use jsonschema::Validator;
use serde_json::Value;

use crate::protocol::Revision;
use crate::records::{compile_input_schema, compile_input_schema_with};

/// Which of a tool's schemas, compiled how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Which {
    /// The inputSchema, `format`s annotations only (as most servers validate).
    Input,
    /// The inputSchema with `format`s asserted (what a strict server rejects, too).
    InputFormats,
    /// The outputSchema.
    Output,
}

/// Compiled schemas by tool name; `None` kept for a schema that does not compile.
#[derive(Default)]
pub(super) struct Validators {
    compiled: RefCell<Vec<Compiled>>,
}

/// One tool's schema, compiled (or not: it does not compile, or there is none).
struct Compiled {
    name: String,
    which: Which,
    validator: Option<Rc<Validator>>,
}

impl Validators {
    /// `tool`'s schema `which`, compiled for `revision` (the first time it is asked for);
    /// `None` when the tool has no such schema or it does not compile.
    pub(super) fn get(
        &self,
        tool: &Value,
        which: Which,
        revision: &Revision,
    ) -> Option<Rc<Validator>> {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
        let found = self
            .compiled
            .borrow()
            .iter()
            .find(|c| c.name == name && c.which == which)
            .map(|c| c.validator.clone());
        if let Some(found) = found {
            return found;
        }
        let compiled = match which {
            Which::Input => tool
                .get("inputSchema")
                .and_then(|s| compile_input_schema(s, revision).ok()),
            Which::InputFormats => tool
                .get("inputSchema")
                .and_then(|s| compile_input_schema_with(s, revision, true).ok()),
            Which::Output => tool
                .get("outputSchema")
                .and_then(|s| compile_input_schema(s, revision).ok()),
        }
        .map(Rc::new);
        self.compiled.borrow_mut().push(Compiled {
            name: name.to_owned(),
            which,
            validator: compiled.clone(),
        });
        compiled
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_schema_is_compiled_once_and_formats_apart() {
        let revision = Revision::find("2025-06-18").unwrap();
        let tool = json!({
            "name": "t",
            "inputSchema": {"type": "object", "properties": {"d": {"type": "string", "format": "date"}}}
        });
        let validators = Validators::default();
        let plain = validators.get(&tool, Which::Input, revision).unwrap();
        let again = validators.get(&tool, Which::Input, revision).unwrap();
        assert!(Rc::ptr_eq(&plain, &again));
        let strict = validators
            .get(&tool, Which::InputFormats, revision)
            .unwrap();
        assert!(plain.is_valid(&json!({"d": "soon"})));
        assert!(!strict.is_valid(&json!({"d": "soon"})));
        assert!(validators.get(&tool, Which::Output, revision).is_none());
        assert_eq!(validators.compiled.borrow().len(), 3);
    }
}
