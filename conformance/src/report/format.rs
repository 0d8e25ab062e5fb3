//! The report formats, their file names, and one dispatcher so that every front end (the
//! CLI, the libtest harness) renders the same run model the same way.

use super::model::RunReport;

/// A report format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The human report (also printed on stdout).
    Text,
    /// The stable JSON report (`schema_version` 1).
    Json,
    /// JUnit XML: one testsuite per revision, one testcase per check.
    Junit,
    /// Markdown for a GitHub step summary.
    Markdown,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// A shields.io endpoint JSON: each revision's verdict, for a README badge.
    Badge,
}

impl Format {
    /// Every format.
    pub const ALL: &'static [Format] = &[
        Format::Text,
        Format::Json,
        Format::Junit,
        Format::Markdown,
        Format::Sarif,
        Format::Badge,
    ];

    /// The file name used under `--output-dir`.
    pub fn file_name(self) -> &'static str {
        match self {
            Format::Text => "mcp-conformance.txt",
            Format::Json => "mcp-conformance.json",
            Format::Junit => "mcp-conformance.junit.xml",
            Format::Markdown => "mcp-conformance.md",
            Format::Sarif => "mcp-conformance.sarif",
            Format::Badge => "mcp-conformance.badge.json",
        }
    }

    /// Parses a format name as written in the config file.
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// The name used on the command line and in the config file.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Markdown => "markdown",
            Format::Sarif => "sarif",
            Format::Badge => "badge",
        }
    }

    /// Renders a report in this format.
    pub fn render(self, report: &RunReport) -> crate::Result<String> {
        Ok(match self {
            Format::Text => super::text::render_text(report),
            Format::Json => super::json::to_json(report)?,
            Format::Junit => super::junit::to_junit(report)?,
            Format::Markdown => super::markdown::to_markdown(report),
            Format::Sarif => super::sarif::to_sarif(report)?,
            Format::Badge => super::badge::to_badge(report)?,
        })
    }
}
