//! The last tool schema compiled, kept for the next question about it.
//!
//! The phase asks whether a value is valid for a tool's inputSchema for every valid case
//! it draws and every candidate of a shrink, and which rules an invalid one breaks; a
//! result is judged against the tool's outputSchema. Compiling a schema of thousands of
//! properties took longer than the call it guarded (a shrink step of a 5,000-property
//! tool compiled it twice), and the questions come in runs about one tool and one schema
//! (a property's cases, a shrink's candidates), so the last one compiled is kept: one
//! inputSchema (plain or with formats) and one outputSchema, not one per tool, as a
//! compiled 100,000-member `enum` is megabytes (keeping every tool's, in every revision,
//! raised big-enum-100000's peak from 128 to 159 MB).
//! A run's tools are told apart by name (`plan.rs` keeps the first listing of each).

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

/// The last inputSchema and the last outputSchema compiled, by tool name; `None` kept for
/// one that does not compile.
#[derive(Default)]
pub(super) struct Validators {
    last: [RefCell<Option<Compiled>>; 2],
}

/// One tool's schema, compiled (or not: it does not compile, or there is none).
struct Compiled {
    name: String,
    which: Which,
    validator: Option<Rc<Validator>>,
}

impl Validators {
    /// Lets go of what is kept (a property's cases are done).
    pub(super) fn clear(&self) {
        for slot in &self.last {
            slot.borrow_mut().take();
        }
    }

    /// `tool`'s schema `which`, compiled for `revision` (the first time it is asked for);
    /// `None` when the tool has no such schema or it does not compile.
    pub(super) fn get(
        &self,
        tool: &Value,
        which: Which,
        revision: &Revision,
    ) -> Option<Rc<Validator>> {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
        let slot = &self.last[usize::from(which == Which::Output)];
        let found = slot
            .borrow()
            .as_ref()
            .filter(|c| c.name == name && c.which == which)
            .map(|c| c.validator.clone());
        if let Some(found) = found {
            return found;
        }
        // The one kept before is let go first: two are never held at once.
        slot.borrow_mut().take();
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
        *slot.borrow_mut() = Some(Compiled {
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
    fn the_last_schema_is_kept_and_formats_apart() {
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
        // The one kept is the last: formats again is the same, plain again is compiled anew.
        let strict_again = validators
            .get(&tool, Which::InputFormats, revision)
            .unwrap();
        assert!(Rc::ptr_eq(&strict, &strict_again));
        let plain_again = validators.get(&tool, Which::Input, revision).unwrap();
        assert!(!Rc::ptr_eq(&plain, &plain_again));
        // An outputSchema has its own place; none here.
        assert!(validators.get(&tool, Which::Output, revision).is_none());
        assert!(Rc::ptr_eq(
            &plain_again,
            &validators.get(&tool, Which::Input, revision).unwrap()
        ));
        validators.clear();
        assert!(!Rc::ptr_eq(
            &plain_again,
            &validators.get(&tool, Which::Input, revision).unwrap()
        ));
    }
}
