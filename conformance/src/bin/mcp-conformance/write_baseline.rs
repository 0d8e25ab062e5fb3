//! `run --write-baseline FILE`: the findings that fail the gate, written as a baseline
//! (the format `--baseline` reads), so a project can adopt the suite today and fix its
//! findings one by one. Each entry gets a reason to fill in; an entry the run's own
//! baseline already had keeps its reason. A finding that holds in every revision judged
//! is one entry for every revision; otherwise one entry per revision it holds in.

use std::path::Path;

use mcp_conformance::report::{escape_server_text, RunReport, REASON_PLACEHOLDER};
use mcp_conformance::{Error, Result, Status};

/// Writes the baseline; returns how many entries it has.
pub(crate) fn write_baseline(path: &Path, report: &RunReport, strict: bool) -> Result<usize> {
    let (text, entries) = render(report, strict);
    std::fs::write(path, text).map_err(|source| Error::WriteReport {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(entries)
}

/// A TOML string literal.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// The baseline's text and its number of entries: failures, and warnings when `strict`
/// (what fails the gate).
pub(crate) fn render(report: &RunReport, strict: bool) -> (String, usize) {
    let mut text = String::from(
        "# Expected failures for `mcp-conformance run --baseline FILE`, written by\n\
         # `--write-baseline`. Give each entry its reason; delete an entry once the\n\
         # server is fixed (a stale entry is reported, and fails with --strict-baseline).\n",
    );
    let judged = report.judged_revisions();
    let mut entries = 0;
    for finding in report.distinct_findings() {
        if finding.status == Status::Warn && !strict {
            continue;
        }
        let revisions: Vec<&str> = finding.occurrences.iter().map(|(rev, _)| *rev).collect();
        let everywhere = judged.iter().all(|r| revisions.contains(r));
        let (first_rev, first) = finding.occurrences[0];
        let slots: Vec<Option<&str>> = if everywhere {
            vec![None]
        } else {
            revisions.iter().map(|r| Some(*r)).collect()
        };
        for revision in slots {
            let reason = report
                .baselined(revision.unwrap_or(first_rev), finding.check)
                .unwrap_or(REASON_PLACEHOLDER);
            let message = escape_server_text(&first.message);
            let message: String = message.chars().take(200).collect();
            text.push_str(&format!(
                "\n# {} {}: {}\n[[expected]]\ncheck = {}\n",
                if finding.status == Status::Fail {
                    "FAIL"
                } else {
                    "WARN"
                },
                finding.check,
                message.replace('\n', " "),
                quoted(finding.check)
            ));
            if let Some(r) = revision {
                text.push_str(&format!("revision = {}\n", quoted(r)));
            }
            text.push_str(&format!("reason = {}\n", quoted(reason)));
            entries += 1;
        }
    }
    (text, entries)
}
