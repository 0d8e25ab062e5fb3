//! The tool surface section of a report (`run --snapshot FILE`, `snapshot --check`): the
//! changes between the committed snapshot and what the server lists now, each classified
//! (breaking, to review, compatible), and what every format makes of them. Breaking
//! changes fail the gate ([`RunReport::gate`]); the others are shown and never fail.
//!
//! The lines are built here once, unescaped; each renderer escapes them for its medium.

use std::fmt::Write;

use serde::Serialize;

use super::model::counted;
use crate::protocol::cut_text;
use crate::surface::{Class, SurfaceChange};

/// Longest `before` or `after` value shown in a change's line (the JSON report has all).
const MAX_VALUE: usize = 200;

/// How the tools listed now met the snapshot.
#[derive(Debug, Clone, Serialize)]
pub struct SurfaceReport {
    /// The snapshot file, as named.
    pub snapshot: String,
    /// Every change, breaking first.
    pub changes: Vec<SurfaceChange>,
    /// The revisions compared, in order (those not offered included).
    pub compared: Vec<&'static str>,
    /// The revisions compared that the server does not offer.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_offered: Vec<&'static str>,
    /// What a reader should know: revisions not compared, listings that varied.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The pending snapshot written beside it when the tools differ (`FILE.new`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<String>,
}

impl SurfaceReport {
    /// How many changes are of `class`.
    pub fn count(&self, class: Class) -> usize {
        self.changes.iter().filter(|c| c.class == class).count()
    }

    /// "unchanged", or "2 breaking changes, 1 to review, 3 compatible".
    pub fn tally(&self) -> String {
        if self.changes.is_empty() {
            return "unchanged".to_string();
        }
        let parts: Vec<String> = [Class::Breaking, Class::Review, Class::Compatible]
            .into_iter()
            .map(|class| (class, self.count(class)))
            .filter(|(_, n)| *n > 0)
            .map(|(class, n)| match class {
                Class::Breaking => counted(n, "breaking change"),
                Class::Review => format!("{n} to review"),
                Class::Compatible => format!("{n} compatible"),
            })
            .collect();
        parts.join(", ")
    }

    /// The section's heading line: the file and the tally.
    pub fn heading(&self) -> String {
        let offered: Vec<&str> = self
            .compared
            .iter()
            .copied()
            .filter(|r| !self.not_offered.contains(r))
            .collect();
        let mut revisions = match offered.is_empty() {
            true => "no revision listed".to_string(),
            false => offered.join(", "),
        };
        if !self.not_offered.is_empty() {
            let _ = write!(revisions, "; not offered: {}", self.not_offered.join(", "));
        }
        format!(
            "Tool surface against {}: {} ({revisions})",
            self.snapshot,
            self.tally()
        )
    }

    /// What to do about it, when there is something to do.
    pub fn advice(&self) -> Option<String> {
        let pending = self.pending.as_ref()?;
        Some(format!(
            "{pending} holds the tools listed now: review it, then `mcp-conformance snapshot \
             --accept {}` (or commit it as {})",
            self.snapshot, self.snapshot
        ))
    }
}

/// A change in one line, unescaped: its class, revisions, pointer, words, and values.
pub fn change_line(change: &SurfaceChange) -> String {
    let show = |v: &Option<serde_json::Value>| match v {
        Some(v) => cut_text(&v.to_string(), MAX_VALUE),
        None => "absent".to_string(),
    };
    let values = match (&change.before, &change.after) {
        (None, None) => String::new(),
        (before, after) => format!(": {} -> {}", show(before), show(after)),
    };
    let place = if change.pointer.is_empty() {
        String::new()
    } else {
        format!(" {}", change.pointer)
    };
    format!(
        "{:<10} [{}]{place} {}{values}",
        change.class.name(),
        change.revisions.join(", "),
        change.what
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn change(class: Class) -> SurfaceChange {
        SurfaceChange {
            revisions: vec!["2025-06-18".into(), "2025-11-25".into()],
            tool: Some("echo".into()),
            pointer: "/tools/echo/inputSchema/required".into(),
            what: "required property added".into(),
            before: Some(json!(["text"])),
            after: Some(json!(["text", "lang"])),
            class,
        }
    }

    #[test]
    fn the_tally_counts_each_class_and_says_unchanged_when_nothing_is() {
        let mut report = SurfaceReport {
            snapshot: "tools.json".into(),
            changes: vec![],
            compared: vec!["2025-06-18"],
            not_offered: vec![],
            notes: vec![],
            pending: None,
        };
        assert_eq!(report.tally(), "unchanged");
        report.changes = vec![
            change(Class::Breaking),
            change(Class::Breaking),
            change(Class::Compatible),
        ];
        assert_eq!(report.tally(), "2 breaking changes, 1 compatible");
        assert_eq!(
            report.heading(),
            "Tool surface against tools.json: 2 breaking changes, 1 compatible (2025-06-18)"
        );
    }

    #[test]
    fn a_line_shows_where_what_and_both_values() {
        assert_eq!(
            change_line(&change(Class::Breaking)),
            "breaking   [2025-06-18, 2025-11-25] /tools/echo/inputSchema/required required \
             property added: [\"text\"] -> [\"text\",\"lang\"]"
        );
    }
}
