//! The JSON report (`--format json`), the machine-readable form of the run model.

use super::model::RunReport;

/// Serializes the report, pretty-printed. serde_json escapes every control character in
/// server text, so the output is always valid JSON.
pub fn to_json(report: &RunReport) -> crate::Result<String> {
    Ok(serde_json::to_string_pretty(report)?)
}
