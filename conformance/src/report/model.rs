//! The run model every renderer reads. Its JSON form is a stable interface
//! (`schema_version` 1): fields may be added, never renamed.

use serde::Serialize;

use crate::checks::{CheckResult, Status};

/// The tool that produced the report.
#[derive(Debug, Clone, Serialize)]
pub struct ToolInfo {
    /// Always "mcp-conformance".
    pub name: &'static str,
    /// Crate version.
    pub version: &'static str,
}

impl Default for ToolInfo {
    fn default() -> Self {
        Self {
            name: "mcp-conformance",
            version: env!("CARGO_PKG_VERSION"),
        }
    }
}

/// The server under test.
#[derive(Debug, Clone, Serialize)]
pub struct TargetInfo {
    /// Transport, "stdio".
    pub transport: &'static str,
    /// Program.
    pub command: String,
    /// Arguments.
    pub args: Vec<String>,
    /// The bundled reference server, when no command was given.
    pub reference: bool,
}

impl TargetInfo {
    /// The command line as one string (raw server-chosen text: each renderer escapes it),
    /// or "the bundled reference server".
    pub fn describe(&self) -> String {
        if self.reference {
            return "the bundled reference server".to_string();
        }
        std::iter::once(self.command.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Results of one revision.
#[derive(Debug, Clone, Serialize)]
pub struct RevisionReport {
    /// The revision asked for.
    pub revision: &'static str,
    /// What the server answered (`null` when initialize failed).
    pub negotiated: Option<String>,
    /// One result per check, in catalog order.
    pub results: Vec<CheckResult>,
}

/// Counts by status.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct Summary {
    /// Passed checks.
    pub pass: usize,
    /// Failed checks.
    pub fail: usize,
    /// Warnings.
    pub warn: usize,
    /// Skipped checks.
    pub skip: usize,
}

impl Summary {
    /// Counts the statuses of some results.
    pub fn of<'a>(results: impl IntoIterator<Item = &'a CheckResult>) -> Self {
        let mut s = Self::default();
        for r in results {
            match r.status {
                Status::Pass => s.pass += 1,
                Status::Fail => s.fail += 1,
                Status::Warn => s.warn += 1,
                Status::Skip => s.skip += 1,
            }
        }
        s
    }
}

/// A whole run.
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// Version of this JSON shape.
    pub schema_version: u32,
    /// Who made it.
    pub tool: ToolInfo,
    /// What was tested.
    pub target: TargetInfo,
    /// The seed (replay with `--seed`).
    pub seed: u64,
    /// Per revision, in the order run.
    pub revisions: Vec<RevisionReport>,
    /// Totals over all revisions.
    pub summary: Summary,
    /// How the baseline met the run, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<super::baseline::BaselineOutcome>,
}

impl RunReport {
    /// Builds a report and its summary.
    pub fn new(target: TargetInfo, seed: u64, revisions: Vec<RevisionReport>) -> Self {
        let summary = Summary::of(revisions.iter().flat_map(|r| &r.results));
        Self {
            schema_version: 1,
            tool: ToolInfo::default(),
            target,
            seed,
            revisions,
            summary,
            baseline: None,
        }
    }

    /// Whether any check failed.
    pub fn has_failures(&self) -> bool {
        self.summary.fail > 0
    }

    /// The result of `check` in `revision`, if present.
    pub fn result(&self, revision: &str, check: &str) -> Option<&CheckResult> {
        self.revisions
            .iter()
            .find(|r| r.revision == revision)?
            .results
            .iter()
            .find(|r| r.check == check)
    }
}
