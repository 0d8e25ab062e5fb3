//! The human report on stdout, built to be read in ten seconds: a summary first (one line
//! per distinct finding, with the revisions it holds in and, for a finding whose every
//! occurrence shows an answer another finding showed first, "same cause as" that one;
//! then the totals, with the number of root causes when it differs), then each
//! distinct finding once with its evidence, then notes (era, revisions not spoken,
//! coverage lost, baseline) and the per-revision counts. Pass and not-applicable lines
//! only with [`Detail::Verbose`]; [`Detail::Quiet`] is the totals line alone.
//!
//! Deterministic (no durations; colour only when asked) so it can be snapshot and diffed.
//! Long server text is cut with its byte count; the JSON report keeps it whole.

use std::fmt::Write;

use anstyle::{AnsiColor, Style};

use super::escape::escape_server_text;
use super::model::{baselined_part, counted, policy_grade, DistinctFinding, RunReport, Summary};
use super::surface::{change_line, SurfaceReport};
use crate::checks::{CheckResult, Evidence, Status};
use crate::protocol::Direction;
use crate::surface::Class;

/// Longest evidence line printed; the JSON report keeps the whole text.
const MAX_LINE: usize = 400;

/// How much the text report shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Detail {
    /// The totals line alone (`-q`).
    Quiet,
    /// Summary, each distinct finding once, notes (the default).
    #[default]
    Normal,
    /// Also every revision's evidence in full, and the pass and not-applicable lines
    /// (`-v`).
    Verbose,
}

/// How the text report is rendered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextOptions {
    /// How much it shows.
    pub detail: Detail,
    /// ANSI colours on our own words (server text is escaped whatever this says).
    pub color: bool,
}

/// Renders a tool surface section on its own (`mcp-conformance snapshot`); `color`
/// paints breaking changes as failures and those to review as warnings.
pub fn render_surface(surface: &SurfaceReport, color: bool) -> String {
    let mut out = String::new();
    tool_surface(&mut out, surface, Painter(color));
    out.trim_start_matches('\n').to_string()
}

/// Renders the default text report, without colour (for files and snapshots).
pub fn render_text(report: &RunReport) -> String {
    render_text_with(report, TextOptions::default())
}

/// Renders the default text report; `color` adds ANSI colours to our own words.
pub fn render_text_styled(report: &RunReport, color: bool) -> String {
    render_text_with(
        report,
        TextOptions {
            color,
            ..TextOptions::default()
        },
    )
}

/// Renders the text report as `options` say.
pub fn render_text_with(report: &RunReport, options: TextOptions) -> String {
    let mut out = String::new();
    let p = Painter(options.color);
    let findings = report.distinct_findings();
    let totals = totals(report, &findings);
    if options.detail == Detail::Quiet {
        let _ = writeln!(out, "{totals}");
        return out;
    }
    let target = escape_server_text(&report.target.describe());
    let _ = writeln!(
        out,
        "{} {}: {} over {}, seed {}",
        report.tool.name, report.tool.version, target, report.target.transport, report.seed
    );
    if let Some(cut) = &report.incomplete {
        let line = escape_server_text(&cut.describe());
        let _ = writeln!(out, "{}", p.status(&line, Status::Fail));
    }
    let judged = report.all_revisions();
    let _ = writeln!(out);
    summary_lines(&mut out, report, &findings, &judged, p);
    let _ = writeln!(out, "{}", p.bold(&totals));

    if !findings.is_empty() {
        let _ = writeln!(out, "\n{}", p.bold("Findings"));
        let shown = shown_evidence(&findings, options.detail);
        for finding in &findings {
            render_distinct(&mut out, report, finding, &judged, options, &shown);
        }
    }
    if let Some(surface) = &report.surface {
        tool_surface(&mut out, surface, p);
    }
    notes(&mut out, report, p);
    let _ = writeln!(out, "\n{}", p.bold("Revisions"));
    for rev in &report.revisions {
        if report.not_spoken(rev.revision).is_some() {
            let _ = writeln!(
                out,
                "== {}: {}, every check skipped (why: Notes)",
                rev.revision,
                report.not_spoken_by(rev.revision)
            );
            continue;
        }
        let agreement = rev.agreement(|n| escape_server_text(&format!("{n:?}")));
        let _ = writeln!(
            out,
            "== {} ({agreement}): {}",
            rev.revision,
            counts(
                Summary::of(&rev.results),
                report.accepted_failures(Some(rev.revision))
            )
        );
        if options.detail == Detail::Verbose {
            for status in [Status::Skip, Status::Pass] {
                for r in rev.results.iter().filter(|r| r.status == status) {
                    let word = p.status(&format!("{:4}", r.status.as_str()), r.status);
                    let _ = writeln!(
                        out,
                        "{word} {}: {}",
                        r.check,
                        escape_server_text(&r.message)
                    );
                }
            }
        }
    }
    if options.detail != Detail::Verbose && report.summary.pass + report.summary.skip > 0 {
        let _ = writeln!(out, "(pass and not-applicable lines: -v)");
    }
    let _ = writeln!(out, "\n{totals}");
    out
}

/// The totals line: the verdict the exit code gives, the distinct findings (and their
/// root causes, when some share one; and how many the baseline accepts), then every
/// result's count.
fn totals(report: &RunReport, findings: &[DistinctFinding<'_>]) -> String {
    let passed = report.verdict().passed;
    let count = |status: Status, noun: &str| {
        let of_status = findings.iter().filter(|f| f.status == status);
        let all = of_status.clone().count();
        let roots = of_status
            .clone()
            .filter(|f| same_cause_as(f).is_none())
            .count();
        let accepted = of_status
            .filter(|f| baselined(report, f).is_some_and(|b| b.whole))
            .count();
        let mut text = counted(all, noun);
        if roots < all {
            let _ = write!(text, " from {}", counted(roots, "root cause"));
        }
        // A passing run's headline already says how many the baseline accepts.
        if accepted > 0 && !passed {
            let _ = write!(text, " ({accepted} baselined)");
        }
        text
    };
    let mut distinct = if findings.is_empty() {
        "no findings".to_string()
    } else {
        format!(
            "{}, {}",
            count(Status::Fail, "distinct failure"),
            count(Status::Warn, "distinct warning")
        )
    };
    if let Some(surface) = report.surface.as_ref().filter(|s| !s.changes.is_empty()) {
        let _ = write!(distinct, "; tool surface: {}", surface.tally());
    }
    format!(
        "Summary: {}: {distinct}; {} across {}; seed {}",
        report.headline(),
        counts(report.summary, report.accepted_failures(None)),
        counted(report.revisions.len(), "revision"),
        report.seed
    )
}

fn counts(s: Summary, accepted: usize) -> String {
    format!(
        "{} pass, {} fail{}, {} warn, {} skip",
        s.pass,
        s.fail,
        baselined_part(accepted),
        s.warn,
        s.skip
    )
}

/// One line per distinct finding: `FAIL rpc-batch  2025-03-26`.
fn summary_lines(
    out: &mut String,
    report: &RunReport,
    findings: &[DistinctFinding<'_>],
    judged: &[&str],
    p: Painter,
) {
    let width = findings.iter().map(|f| f.check.len()).max().unwrap_or(0);
    for f in findings {
        let mut line = format!(
            "{} {:width$}  {}",
            p.status(&f.status.as_str().to_uppercase(), f.status),
            f.check,
            f.revisions(judged)
        );
        if let Some(grade) = graded(f) {
            let _ = write!(line, "  ({grade})");
        }
        if let Some(roots) = same_cause_as(f) {
            let _ = write!(line, "  (same cause as {})", roots.join(", "));
        }
        if let Some(baselined) = baselined(report, f) {
            let _ = write!(line, "  ({})", baselined.text);
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// The other checks a distinct finding shares its cause with (report/causes.rs), when
/// every occurrence of it is linked to an earlier finding: it is derived, not a root
/// cause of its own. `None` when some occurrence shows an answer first.
fn same_cause_as(f: &DistinctFinding<'_>) -> Option<Vec<&'static str>> {
    let mut roots = Vec::new();
    for (_, r) in &f.occurrences {
        let root = r.same_cause_as?;
        // A link to this check's own finding in an earlier revision names no new cause.
        if root.check != f.check && !roots.contains(&root.check) {
            roots.push(root.check);
        }
    }
    (!roots.is_empty()).then_some(roots)
}

/// The policy that graded the finding down, when every occurrence shares one.
fn graded(f: &DistinctFinding<'_>) -> Option<String> {
    let first = policy_grade(f.occurrences[0].1)?;
    let same = f
        .occurrences
        .iter()
        .all(|(_, r)| policy_grade(r).as_deref() == Some(first.as_str()));
    Some(if same {
        first
    } else {
        format!("{first}, in some revisions")
    })
}

/// How a baseline meets a distinct finding: "baselined: REASON", or "baselined in REV,
/// REV: REASON" when only some occurrences are (`whole` is false).
struct BaselineNote {
    text: String,
    whole: bool,
}

fn baselined(report: &RunReport, f: &DistinctFinding<'_>) -> Option<BaselineNote> {
    let hits: Vec<(&str, &str)> = f
        .occurrences
        .iter()
        .filter_map(|(rev, r)| Some((*rev, report.baselined(rev, r.check)?)))
        .collect();
    let reason = escape_server_text(hits.first()?.1);
    let whole = hits.len() == f.occurrences.len();
    let text = if whole {
        format!("baselined: {reason}")
    } else {
        let revs: Vec<&str> = hits.iter().map(|(rev, _)| *rev).collect();
        format!("baselined in {}: {reason}", revs.join(", "))
    };
    Some(BaselineNote { text, whole })
}

/// The (check, revision) occurrences whose evidence the report prints, in full or as
/// "same in": where a derived finding may point ("the same server answer, shown
/// there"). Every one with [`Detail::Verbose`]; else a finding's first occurrence and
/// those with the same evidence.
fn shown_evidence(findings: &[DistinctFinding<'_>], detail: Detail) -> Vec<(&'static str, String)> {
    let mut shown = Vec::new();
    for f in findings {
        let revisions: Vec<&str> = if detail == Detail::Verbose {
            f.occurrences.iter().map(|(rev, _)| *rev).collect()
        } else {
            let mut printed = f.groups().same;
            printed.insert(0, f.occurrences[0].0);
            printed
        };
        shown.extend(revisions.into_iter().map(|rev| (f.check, rev.to_string())));
    }
    shown
}

fn render_distinct(
    out: &mut String,
    report: &RunReport,
    f: &DistinctFinding<'_>,
    judged: &[&str],
    options: TextOptions,
    shown: &[(&'static str, String)],
) {
    let p = Painter(options.color);
    let (first_rev, first) = f.occurrences[0];
    let word = p.status(&first.status.as_str().to_uppercase(), first.status);
    let _ = writeln!(
        out,
        "{word} {} ({}) [{}]\n     {}",
        f.check,
        f.revisions(judged),
        citation(first),
        first.title
    );
    // What the summary line says after the id, said here after it too.
    if let Some(grade) = graded(f) {
        let _ = writeln!(out, "     ({grade})");
    }
    if let Some(baselined) = baselined(report, f) {
        let _ = writeln!(out, "     ({})", baselined.text);
    }
    // A level or citation that differs in a later revision is said, not hidden.
    for (rev, r) in &f.occurrences[1..] {
        if citation(r) != citation(first) {
            let _ = writeln!(out, "     in {rev}: [{}]", citation(r));
        }
    }
    let several = f.occurrences.len() > 1;
    let prefix = |rev: &str| {
        if several {
            format!("{rev}: ")
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        out,
        "     {}{}",
        prefix(first_rev),
        escape_server_text(&crate::protocol::cut_text(&first.message, MAX_LINE))
    );
    render_evidence_of(out, first, shown);
    let super::model::Groups {
        same,
        same_message,
        other,
    } = f.groups();
    if !same.is_empty() {
        let _ = writeln!(out, "     same in {}", same.join(", "));
    }
    let verbose = options.detail == Detail::Verbose;
    if !same_message.is_empty() {
        let revs: Vec<&str> = same_message.iter().map(|(rev, _)| *rev).collect();
        if verbose {
            for (rev, r) in &same_message {
                let _ = writeln!(out, "     {rev}: the same message; its evidence:");
                render_evidence_of(out, r, shown);
            }
        } else {
            let _ = writeln!(
                out,
                "     same message in {}; its evidence differs (-v or the JSON report)",
                revs.join(", ")
            );
        }
    }
    for (rev, r) in &other {
        let message = crate::protocol::cut_text(&r.message, MAX_LINE);
        let _ = writeln!(out, "     {rev}: {}", escape_server_text(&message));
        if verbose {
            render_evidence_of(out, r, shown);
        }
    }
    if !other.is_empty() && !verbose {
        let _ = writeln!(out, "     (their evidence: -v or the JSON report)");
    }
}

/// `LEVEL REQUIREMENT; source`, the level left out when a policy graded the finding
/// (the status word says that, with the level in the text).
fn citation(r: &CheckResult) -> String {
    if policy_grade(r).is_some() {
        format!("{}; {}", r.requirement, r.source)
    } else {
        format!("{} {}; {}", r.level.as_str(), r.requirement, r.source)
    }
}

/// A finding's evidence, or the pointer to the finding that printed the same server
/// answer. Only a printed answer is pointed at: one the report leaves to `-v` (another
/// revision of the root finding, with other evidence) is printed here instead.
fn render_evidence_of(out: &mut String, r: &CheckResult, shown: &[(&'static str, String)]) {
    let printed = |root: &crate::checks::SameCause| {
        shown
            .iter()
            .any(|(check, rev)| *check == root.check && rev == root.revision)
    };
    match r.same_cause_as {
        Some(root) if printed(&root) => {
            let _ = writeln!(out, "       ** {}", root.describe());
        }
        _ => r.evidence.iter().for_each(|e| render_evidence(out, e)),
    }
}

/// The tool surface section: the heading, each change (breaking ones painted as
/// failures, those to review as warnings), the notes and what to do.
fn tool_surface(out: &mut String, surface: &SurfaceReport, p: Painter) {
    let _ = writeln!(out, "\n{}", p.bold(&escape_server_text(&surface.heading())));
    for change in &surface.changes {
        let line = escape_server_text(&change_line(change));
        let line = match change.class {
            Class::Breaking => p.status(&line, Status::Fail),
            Class::Review => p.status(&line, Status::Warn),
            Class::Compatible => line,
        };
        let _ = writeln!(out, "  {line}");
    }
    for note in surface.notes.iter().chain(&surface.advice()) {
        let _ = writeln!(out, "  note: {}", escape_server_text(note));
    }
}

/// Era, revisions not spoken, coverage lost (one line per distinct gap), baseline.
fn notes(out: &mut String, report: &RunReport, p: Painter) {
    let mut lines = Vec::new();
    lines.extend(report.timing.as_ref().and_then(|t| t.load_note()));
    if let Some(era) = report.era {
        lines.push(format!("The server is {era} (2026-07-28 versioning.mdx)."));
    }
    for n in &report.not_spoken {
        lines.push(format!(
            "{}: {}, every check skipped: {}",
            n.revision,
            report.not_spoken_by(n.revision),
            escape_server_text(&n.reason)
        ));
    }
    // The same tools failing the same way in several revisions: one line.
    let mut gaps: Vec<(Vec<&str>, &super::model::CoverageNote)> = Vec::new();
    for note in &report.coverage {
        match gaps
            .iter_mut()
            .find(|(_, n)| n.tools == note.tools && n.checks_skipped == note.checks_skipped)
        {
            Some((revs, _)) => revs.push(note.revision),
            None => gaps.push((vec![note.revision], note)),
        }
    }
    for (revs, note) in gaps {
        lines.push(escape_server_text(&note.describe_for(&revs.join(", "))));
    }
    // Property names and inputs in a cut note are the server's words.
    lines.extend(
        report
            .budget
            .iter()
            .map(|b| escape_server_text(&b.describe())),
    );
    if let Some(b) = &report.baseline {
        lines.push(format!(
            "Baseline: {}, {}",
            counted(b.baselined.len(), "accepted result"),
            counted(b.stale.len(), "stale entry")
        ));
        let mut todo: Vec<&str> = b
            .baselined
            .iter()
            .filter(|a| a.reason == super::baseline::REASON_PLACEHOLDER)
            .map(|a| a.check.as_str())
            .collect();
        todo.dedup();
        if !todo.is_empty() {
            lines.push(format!(
                "  the reason for {} is still --write-baseline's TODO: give each its own",
                todo.join(", ")
            ));
        }
        for e in &b.stale {
            lines.push(format!(
                "  stale: {} ({}) no longer fails: {}",
                e.check,
                e.revision.as_deref().unwrap_or("every revision"),
                escape_server_text(&e.reason)
            ));
        }
    }
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{}", p.bold("Notes"));
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
}

/// One finding in one revision as the text report shows it (for the test harness's
/// failure messages).
pub fn render_finding(revision: &str, result: &CheckResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} ({revision}) [{}]\n     {}",
        result.status.as_str().to_uppercase(),
        result.check,
        citation(result),
        result.title,
    );
    if let Some(grade) = policy_grade(result) {
        let _ = writeln!(out, "     ({grade})");
    }
    let _ = writeln!(out, "     {}", escape_server_text(&result.message));
    // Alone: its own evidence, never a pointer to a finding printed elsewhere.
    render_evidence_of(&mut out, result, &[]);
    out
}

fn render_evidence(out: &mut String, e: &Evidence) {
    let text = escape_server_text(&crate::protocol::cut_text(&e.text, MAX_LINE));
    let _ = writeln!(out, "       {} {text}", tag(e.direction));
}

fn tag(direction: Direction) -> &'static str {
    match direction {
        Direction::Sent => "->",
        Direction::Received => "<-",
        Direction::Stderr => "stderr:",
        Direction::Harness | Direction::Load => "**",
    }
}

/// A transcript, one escaped line per entry: `->` sent, `<-` received, `stderr:`, and
/// `**` for the harness's own notes. Each line starts with `indent`.
pub fn render_transcript(transcript: &crate::protocol::Transcript, indent: &str) -> String {
    let mut out = String::new();
    for entry in transcript.entries() {
        let _ = writeln!(
            out,
            "{indent}{} {}",
            tag(entry.direction),
            escape_server_text(&entry.text)
        );
    }
    out
}

/// ANSI styles for our own words, when colour is on (only ever around text already
/// escaped: server text cannot add colours of its own).
#[derive(Clone, Copy)]
struct Painter(bool);

impl Painter {
    fn paint(self, text: &str, style: Style) -> String {
        if self.0 {
            format!("{style}{text}{style:#}")
        } else {
            text.to_string()
        }
    }

    fn status(self, text: &str, status: Status) -> String {
        let style = match status {
            Status::Fail => AnsiColor::Red.on_default().bold(),
            Status::Warn => AnsiColor::Yellow.on_default().bold(),
            Status::Skip => Style::new().dimmed(),
            Status::Pass => AnsiColor::Green.on_default(),
        };
        self.paint(text, style)
    }

    fn bold(self, text: &str) -> String {
        self.paint(text, Style::new().bold())
    }
}

#[cfg(test)]
mod tests;
