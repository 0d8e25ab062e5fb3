//! The human report on stdout: grouped by revision, failures first, each with the
//! messages that show it. Deterministic (no durations, no colour) so it can be
//! snapshot and diffed.

use std::fmt::Write;

use super::escape::escape_server_text;
use super::model::{RunReport, Summary};
use crate::checks::{CheckResult, Evidence, Status};
use crate::protocol::Direction;

/// Longest evidence line printed; the JSON report keeps more.
const MAX_LINE: usize = 1000;

/// Renders the whole report as text, without colour (for files and snapshots).
pub fn render_text(report: &RunReport) -> String {
    render_text_styled(report, false)
}

/// ANSI colour for a status word, when colour is on.
fn paint(word: &str, status: Status, color: bool) -> String {
    if !color {
        return word.to_string();
    }
    let code = match status {
        Status::Fail => "31;1",
        Status::Warn => "33;1",
        Status::Skip => "2",
        Status::Pass => "32",
    };
    format!("\u{1b}[{code}m{word}\u{1b}[0m")
}

/// Renders the whole report as text; `color` adds ANSI colours to status words (only ever
/// to our own words: server text is escaped, so it cannot add colours of its own).
pub fn render_text_styled(report: &RunReport, color: bool) -> String {
    let mut out = String::new();
    let target = escape_server_text(&report.target.describe());
    let _ = writeln!(
        out,
        "{} {}: {} over {}, seed {}",
        report.tool.name, report.tool.version, target, report.target.transport, report.seed
    );
    if let Some(cut) = &report.incomplete {
        let line = escape_server_text(&cut.describe());
        let _ = writeln!(out, "{}", paint(&line, Status::Fail, color));
    }
    if let Some(era) = report.era {
        let _ = writeln!(out, "The server is {era} (2026-07-28 versioning.mdx).");
    }
    for note in &report.coverage {
        let _ = writeln!(out, "{}", escape_server_text(&note.describe()));
    }
    for rev in &report.revisions {
        let s = Summary::of(&rev.results);
        let negotiated = rev
            .negotiated
            .as_deref()
            .map_or("nothing".to_string(), |n| {
                escape_server_text(&format!("{n:?}"))
            });
        if let Some(reason) = report.not_spoken(rev.revision) {
            let _ = writeln!(
                out,
                "\n== {}: {}, every check skipped: {}",
                rev.revision,
                report.not_spoken_by(rev.revision),
                escape_server_text(reason)
            );
            continue;
        }
        let _ = writeln!(
            out,
            "\n== {} (negotiated {}): {}",
            rev.revision,
            negotiated,
            counts(s)
        );
        for status in [Status::Fail, Status::Warn, Status::Skip, Status::Pass] {
            for r in rev.results.iter().filter(|r| r.status == status) {
                let baselined = report.baselined(rev.revision, r.check);
                render_result(&mut out, rev.revision, r, baselined, color);
            }
        }
    }
    if let Some(b) = &report.baseline {
        let _ = writeln!(
            out,
            "\nBaseline: {} finding(s) accepted, {} stale entr(y/ies)",
            b.baselined.len(),
            b.stale.len()
        );
        for e in &b.stale {
            let _ = writeln!(
                out,
                "  stale: {} ({}) no longer fails: {}",
                e.check,
                e.revision.as_deref().unwrap_or("every revision"),
                escape_server_text(&e.reason)
            );
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

fn render_result(
    out: &mut String,
    revision: &str,
    r: &CheckResult,
    baselined: Option<&str>,
    color: bool,
) {
    let message = escape_server_text(&r.message);
    match r.status {
        Status::Pass | Status::Skip => {
            let word = paint(&format!("{:4}", r.status.as_str()), r.status, color);
            let _ = writeln!(out, "{word} {}: {}", r.check, message);
        }
        Status::Fail | Status::Warn => {
            let word = paint(&r.status.as_str().to_uppercase(), r.status, color);
            let expected = baselined
                .map(|why| format!(" (baselined: {})", escape_server_text(why)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{word}{expected} {} ({revision}) [{} {}; {}]\n     {}\n     {}",
                r.check,
                r.level.as_str(),
                r.requirement,
                r.source,
                r.title,
                message
            );
            match r.same_cause_as {
                Some(root) => {
                    let _ = writeln!(out, "       ** {}", root.describe());
                }
                None => r.evidence.iter().for_each(|e| render_evidence(out, e)),
            }
        }
    }
}

/// One finding as the text report shows it (for test harness failure messages).
pub fn render_finding(revision: &str, result: &CheckResult) -> String {
    let mut out = String::new();
    render_result(&mut out, revision, result, None, false);
    out
}

fn render_evidence(out: &mut String, e: &Evidence) {
    let tag = match e.direction {
        Direction::Sent => "->",
        Direction::Received => "<-",
        Direction::Stderr => "stderr:",
        Direction::Harness => "**",
    };
    let text = escape_server_text(&crate::protocol::cut_text(&e.text, MAX_LINE));
    let _ = writeln!(out, "       {tag} {text}");
}

/// A transcript, one escaped line per entry: `->` sent, `<-` received, `stderr:`, and
/// `**` for the harness's own notes. Each line starts with `indent`.
pub fn render_transcript(transcript: &crate::protocol::Transcript, indent: &str) -> String {
    use crate::protocol::Direction;
    let mut out = String::new();
    for entry in transcript.entries() {
        let tag = match entry.direction {
            Direction::Sent => "->",
            Direction::Received => "<-",
            Direction::Stderr => "stderr:",
            Direction::Harness => "**",
        };
        out.push_str(&format!(
            "{indent}{tag} {}\n",
            super::escape_server_text(&entry.text)
        ));
    }
    out
}
