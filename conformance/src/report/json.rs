//! The JSON report (`--format json`), the machine-readable form of the run model.

use serde_json::Value;

use super::escape::escape_server_text;
use super::model::RunReport;

/// Serializes the report, pretty-printed. Every string goes through the one escaping rule
/// for server text: serde_json alone would leave DEL, C1 controls, bidi overrides and line
/// separators raw, for a JSON viewer or a log to show as they please. Our own strings hold
/// none of those, so only server text changes.
pub fn to_json(report: &RunReport) -> crate::Result<String> {
    let mut value = serde_json::to_value(report)?;
    escape_strings(&mut value);
    Ok(serde_json::to_string_pretty(&value)?)
}

/// Escapes every string value of `value` (keys are ours).
pub(crate) fn escape_strings(value: &mut Value) {
    match value {
        Value::String(s) if s.chars().any(super::escape::needs_escape) => {
            *s = escape_server_text(s);
        }
        Value::Array(items) => items.iter_mut().for_each(escape_strings),
        Value::Object(map) => map.values_mut().for_each(escape_strings),
        _ => {}
    }
}
