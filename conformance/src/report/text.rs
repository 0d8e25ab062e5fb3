//! The human report on stdout: grouped by revision, failures first, each with the
//! messages that show it. Deterministic (no durations, no colour) so it can be
//! snapshot and diffed.

use std::fmt::Write;

use super::escape::escape_for_terminal;
use super::model::{RunReport, Summary};
use crate::checks::{CheckResult, Evidence, Status};
use crate::protocol::Direction;

/// Longest evidence line printed; the JSON report keeps more.
const MAX_LINE: usize = 1000;

/// Renders the whole report as text.
pub fn render_text(report: &RunReport) -> String {
    let mut out = String::new();
    let target = if report.target.reference {
        "the bundled reference server".to_string()
    } else {
        escape_for_terminal(
            &std::iter::once(report.target.command.as_str())
                .chain(report.target.args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
        )
    };
    let _ = writeln!(
        out,
        "{} {}: {} over {}, seed {}",
        report.tool.name, report.tool.version, target, report.target.transport, report.seed
    );
    for rev in &report.revisions {
        let s = Summary::of(&rev.results);
        let negotiated = rev
            .negotiated
            .as_deref()
            .map_or("nothing".to_string(), |n| {
                escape_for_terminal(&format!("{n:?}"))
            });
        let _ = writeln!(
            out,
            "\n== {} (negotiated {}): {}",
            rev.revision,
            negotiated,
            counts(s)
        );
        for status in [Status::Fail, Status::Warn, Status::Skip, Status::Pass] {
            for r in rev.results.iter().filter(|r| r.status == status) {
                render_result(&mut out, rev.revision, r);
            }
        }
    }
    let _ = writeln!(
        out,
        "\nSummary: {} across {} revision(s); seed {}",
        counts(report.summary),
        report.revisions.len(),
        report.seed
    );
    out
}

fn counts(s: Summary) -> String {
    format!(
        "{} pass, {} fail, {} warn, {} skip",
        s.pass, s.fail, s.warn, s.skip
    )
}

fn render_result(out: &mut String, revision: &str, r: &CheckResult) {
    let message = escape_for_terminal(&r.message);
    match r.status {
        Status::Pass | Status::Skip => {
            let _ = writeln!(out, "{:4} {}: {}", r.status.as_str(), r.check, message);
        }
        Status::Fail | Status::Warn => {
            let _ = writeln!(
                out,
                "{} {} ({revision}) [{} {}; {}]\n     {}\n     {}",
                r.status.as_str().to_uppercase(),
                r.check,
                r.level.as_str(),
                r.requirement,
                r.source,
                r.title,
                message
            );
            for e in &r.evidence {
                render_evidence(out, e);
            }
        }
    }
}

fn render_evidence(out: &mut String, e: &Evidence) {
    let tag = match e.direction {
        Direction::Sent => "->",
        Direction::Received => "<-",
        Direction::Stderr => "stderr:",
        Direction::Harness => "**",
    };
    let text = escape_for_terminal(&crate::protocol::cut_text(&e.text, MAX_LINE));
    let _ = writeln!(out, "       {tag} {text}");
}
