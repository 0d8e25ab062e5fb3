//! The run model every renderer reads. Its JSON form is a stable interface
//! (`schema_version` 1): fields may be added, never renamed.
//!
//! The model is plain data and depends on no other part of `report`: how a baseline met
//! the run is held here as data ([`BaselineOutcome`]), and `baseline.rs` fills it in.

use serde::{Deserialize, Serialize};

use super::surface::SurfaceReport;
use crate::checks::{CheckResult, Level, Status};
use crate::protocol::Direction;
use crate::records::LiveSurface;

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
    /// Transport: "stdio", "streamable-http" or "sse".
    pub transport: &'static str,
    /// Program; over HTTP, the URL (as it always was in the JSON report).
    pub command: String,
    /// Arguments; over HTTP, `--` and the command the run started, if it started one.
    pub args: Vec<String>,
    /// The bundled reference server, when no command was given.
    pub reference: bool,
    /// Over HTTP, the URL alone (any user name and password redacted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
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

impl RevisionReport {
    /// How the revision was agreed, for a heading: "negotiated X" (the version the
    /// initialize handshake answered, passed through `quote`, since the server wrote it),
    /// or "stateless, nothing negotiated" for a revision that negotiates nothing
    /// (2026-07-28: every request names its version).
    pub fn agreement(&self, quote: impl Fn(&str) -> String) -> String {
        let modern = crate::protocol::Revision::find(self.revision).is_some_and(|r| r.modern());
        match self.negotiated.as_deref() {
            Some(_) if modern => "stateless, nothing negotiated".to_string(),
            Some(version) => format!("negotiated {}", quote(version)),
            None => "negotiated nothing".to_string(),
        }
    }
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
    pub baseline: Option<BaselineOutcome>,
    /// Set when the run was cut short (a signal, `--max-time`): what was judged is
    /// reported, and what did not run is listed here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<Incomplete>,
    /// Per revision, the tools whose first call never returned a success and the checks
    /// that cost (a note at the top of the readable reports).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub coverage: Vec<CoverageNote>,
    /// Per revision, what a budget cut in the property phase (`--time-budget`, the
    /// revision's shrink steps): a note at the top of the readable reports.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub budget: Vec<BudgetNote>,
    /// Which eras the server speaks, when a modern revision ran ("legacy-only",
    /// "modern-only", "dual-era").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub era: Option<&'static str>,
    /// Revisions the server does not speak (every check of them skipped): why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_spoken: Vec<NotSpoken>,
    /// Where the time went (measured, so it differs between runs; only the JSON report
    /// carries it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<RunTiming>,
    /// How the tools listed now met the snapshot (`--snapshot`): breaking changes fail
    /// the gate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub surface: Option<SurfaceReport>,
    /// The tools the revisions listed, when the run was asked to keep them
    /// (`RunConfig::surface`): what `surface` is computed from.
    #[serde(skip)]
    pub live_surface: Option<LiveSurface>,
    /// What fails the gate besides unexpected failures (`--strict`, `--strict-baseline`),
    /// so that every headline says what the exit code says.
    #[serde(skip)]
    pub gate_options: GateOptions,
}

/// One check with one status (fail or warn), and where it holds: the text report's unit.
#[derive(Debug, Clone)]
pub struct DistinctFinding<'a> {
    /// Check id.
    pub check: &'static str,
    /// Fail or warn.
    pub status: Status,
    /// Each revision it holds in, with its result there, in report order.
    pub occurrences: Vec<(&'static str, &'a CheckResult)>,
}

/// What two occurrences are compared by: message, evidence and shared cause, with each
/// one's own revision written as `<rev>` (a request that names its revision is the same
/// request).
fn likeness(
    revision: &str,
    r: &CheckResult,
) -> (String, Vec<(Direction, String)>, Option<&'static str>) {
    let norm = |text: &str| text.replace(revision, "<rev>");
    (
        norm(&r.message),
        r.evidence
            .iter()
            .map(|e| (e.direction, norm(&e.text)))
            .collect(),
        r.same_cause_as.map(|c| c.check),
    )
}

/// The occurrences of one distinct finding, grouped by what the report prints of them
/// after the first: the same message and evidence, the same message only, or neither.
pub struct Groups<'a> {
    /// Revisions with the first's message and evidence.
    pub same: Vec<&'a str>,
    /// Revisions with its message, not its evidence.
    pub same_message: Vec<(&'a str, &'a CheckResult)>,
    /// The rest.
    pub other: Vec<(&'a str, &'a CheckResult)>,
}

impl<'a> DistinctFinding<'a> {
    /// Its occurrences after the first, grouped by what a report prints of them.
    pub fn groups(&self) -> Groups<'a> {
        let f = self;
        let (first_rev, first) = f.occurrences[0];
        let base = likeness(first_rev, first);
        let mut g = Groups {
            same: Vec::new(),
            same_message: Vec::new(),
            other: Vec::new(),
        };
        for (rev, r) in &f.occurrences[1..] {
            let like = likeness(rev, r);
            // The same server answer as this check's own earlier finding (report/causes.rs).
            let same_answer = r.same_cause_as.is_some_and(|c| c.check == f.check);
            if like == base || (same_answer && like.0 == base.0) {
                g.same.push(*rev);
            } else if like.0 == base.0 {
                g.same_message.push((*rev, *r));
            } else {
                g.other.push((*rev, *r));
            }
        }
        g
    }
}

impl DistinctFinding<'_> {
    /// The revisions it holds in, comma-separated, or "all" when that is every revision
    /// of `judged` (and there is more than one).
    pub fn revisions(&self, judged: &[&str]) -> String {
        let revs: Vec<&str> = self.occurrences.iter().map(|(rev, _)| *rev).collect();
        if judged.len() > 1 && revs == judged {
            "all".to_string()
        } else {
            revs.join(", ")
        }
    }
}

/// A revision the server does not speak: a legacy-only server in 2026-07-28, a
/// modern-only one in the handshake revisions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotSpoken {
    /// The revision.
    pub revision: &'static str,
    /// What showed it.
    pub reason: String,
    /// Set when the revision was not run at all because the transport it was reached over
    /// does not speak it (e.g. 2024-11-05 over Streamable HTTP): that transport.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transport: Option<&'static str>,
}

/// What a revision could not judge because no call of some tools succeeded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CoverageNote {
    /// The revision.
    pub revision: &'static str,
    /// Each tool whose first call got no successful result, with what it got instead.
    pub tools: Vec<ToolGap>,
    /// Checks skipped for want of a successful call.
    pub checks_skipped: Vec<&'static str>,
}

/// A tool that never returned a success.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolGap {
    /// Its name (server text: escaped by each renderer).
    pub tool: String,
    /// What its call got instead (server text).
    pub got: String,
}

/// What a budget cut in one revision's property phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BudgetNote {
    /// The revision.
    pub revision: &'static str,
    /// What was cut, in words.
    pub what: String,
}

impl BudgetNote {
    /// One line for the readable formats.
    pub fn describe(&self) -> String {
        format!("NOTE {}: {}", self.revision, self.what)
    }
}

impl CoverageNote {
    /// One line for the readable formats (raw server text: each renderer escapes it).
    pub fn describe(&self) -> String {
        self.describe_for(self.revision)
    }

    /// [`describe`](Self::describe) naming `revisions` (several revisions with the same
    /// gap share one line in the text report).
    pub fn describe_for(&self, revisions: &str) -> String {
        let tools: Vec<String> = self
            .tools
            .iter()
            .map(|g| format!("{:?} ({})", g.tool, g.got))
            .collect();
        let mut text = format!(
            "NOTE {}: no call of {} tool(s) returned a success: {}",
            revisions,
            self.tools.len(),
            tools.join(", ")
        );
        text.push_str(&format!(
            "; so these checks were skipped: {}",
            self.checks_skipped.join(", ")
        ));
        text.push_str(
            "; give such tools arguments with --tool-args NAME=JSON or [tools.NAME] arguments",
        );
        text
    }
}

/// Why a run stopped early, and what it did not do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Incomplete {
    /// What cut it ("interrupted by SIGTERM", "--max-time 60 s reached").
    pub reason: String,
    /// Revisions whose conversation did not finish: they have no results.
    pub not_run: Vec<&'static str>,
    /// Whether the version negotiation probes ran (their checks skip when not).
    pub negotiation_ran: bool,
}

impl Incomplete {
    /// One sentence for every format: what cut the run and what it left out.
    pub fn describe(&self) -> String {
        let mut text = format!("INCOMPLETE: {}", self.reason);
        if !self.not_run.is_empty() {
            text.push_str(&format!(
                "; not finished, so not reported: {}",
                self.not_run.join(", ")
            ));
        }
        if !self.negotiation_ran {
            text.push_str("; the version negotiation probes did not run (their checks skip)");
        }
        text
    }
}

/// Wall time and cost of one part of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PartTiming {
    /// Wall time in milliseconds.
    pub wall_ms: u64,
    /// Server processes started.
    pub processes: u64,
    /// Requests sent (our answers to the server's own requests not counted).
    pub requests: u64,
    /// Waits pushed past their timeout by the scheduling lag measured while they waited
    /// (a loaded machine; 0 when idle).
    #[serde(skip_serializing_if = "is_zero")]
    pub stretched: u64,
    /// What those waits were given beyond their timeouts, in all, in milliseconds.
    #[serde(skip_serializing_if = "is_zero")]
    pub stretch_ms: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl PartTiming {
    /// Two parts' costs together (wall times added: for parts that ran one after the
    /// other, or to count work rather than elapsed time).
    pub fn plus(self, other: PartTiming) -> PartTiming {
        PartTiming {
            wall_ms: self.wall_ms + other.wall_ms,
            processes: self.processes + other.processes,
            requests: self.requests + other.requests,
            stretched: self.stretched + other.stretched,
            stretch_ms: self.stretch_ms + other.stretch_ms,
        }
    }
}

/// One revision's time, by phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RevisionTiming {
    /// The revision asked for.
    pub revision: &'static str,
    /// The whole revision (both phases), its processes and requests.
    #[serde(flatten)]
    pub total: PartTiming,
    /// The scripted conversation, shutdown included, in milliseconds.
    pub scripted_ms: u64,
    /// The property phase, in milliseconds (0 when it did not run).
    pub property_ms: u64,
}

/// Where a run's time went.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RunTiming {
    /// The whole run, in milliseconds.
    pub wall_ms: u64,
    /// Revisions run at once (`--jobs`).
    pub jobs: usize,
    /// Server processes started, in all.
    pub processes: u64,
    /// Requests sent, in all.
    pub requests: u64,
    /// Each revision that ran, in report order.
    pub revisions: Vec<RevisionTiming>,
    /// The version negotiation probes.
    pub negotiation: PartTiming,
    /// Judging every check of every revision, in milliseconds.
    pub judging_ms: u64,
    /// Every part's stretched waits together (see [`PartTiming::stretched`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub stretched: u64,
    /// Their time beyond the timeouts, in all, in milliseconds.
    #[serde(skip_serializing_if = "is_zero")]
    pub stretch_ms: u64,
}

impl RunTiming {
    /// The note the readable reports carry when waits were stretched: the machine was
    /// loaded, and timeouts counted the time the harness was given.
    pub fn load_note(&self) -> Option<String> {
        (self.stretched > 0).then(|| {
            // A stretch of a few milliseconds reads as "0.0 s" at one decimal.
            let more = if self.stretch_ms < 1000 {
                format!("{} ms", self.stretch_ms)
            } else {
                format!("{:.1} s", self.stretch_ms as f64 / 1000.0)
            };
            format!(
                "The machine was loaded: {} wait(s) passed their timeout while the harness \
                 was kept from running, and were given {more} more in all, the scheduling \
                 lag measured while they waited (at most {}x a wait; slow is not broken).",
                self.stretched,
                crate::protocol::STRETCH_CAP
            )
        })
    }
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
            incomplete: None,
            coverage: Vec::new(),
            budget: Vec::new(),
            era: None,
            not_spoken: Vec::new(),
            timing: None,
            surface: None,
            live_surface: None,
            gate_options: GateOptions::default(),
        }
    }

    /// Why the server does not speak `revision`, when it does not.
    pub fn not_spoken(&self, revision: &str) -> Option<&str> {
        self.not_spoken
            .iter()
            .find(|n| n.revision == revision)
            .map(|n| n.reason.as_str())
    }

    /// How a revision's not-spoken heading reads: "not spoken by the server", or "not run
    /// over sse" when the transport does not speak it.
    pub fn not_spoken_by(&self, revision: &str) -> String {
        match self
            .not_spoken
            .iter()
            .find(|n| n.revision == revision)
            .and_then(|n| n.transport)
        {
            Some(transport) => format!("not run over {transport}"),
            None => "not spoken by the server".to_string(),
        }
    }

    /// The revisions whose checks were judged: every revision reported but those the
    /// server does not speak.
    pub fn judged_revisions(&self) -> Vec<&'static str> {
        self.revisions
            .iter()
            .map(|r| r.revision)
            .filter(|rev| self.not_spoken(rev).is_none())
            .collect()
    }

    /// What a finding that holds in each of them is said to hold in "all" of: the judged
    /// revisions of a complete run; none of a cut one (it ran some revisions, not all).
    pub fn all_revisions(&self) -> Vec<&'static str> {
        if self.incomplete.is_some() {
            Vec::new()
        } else {
            self.judged_revisions()
        }
    }

    /// Each distinct finding (one check with one status, fail or warn) with the revisions
    /// it holds in: failures first, then warnings, each in the order first met
    /// (revision order, then catalog order).
    pub fn distinct_findings(&self) -> Vec<DistinctFinding<'_>> {
        let mut found: Vec<DistinctFinding<'_>> = Vec::new();
        for status in [Status::Fail, Status::Warn] {
            for rev in &self.revisions {
                for r in rev.results.iter().filter(|r| r.status == status) {
                    match found
                        .iter_mut()
                        .find(|f| f.check == r.check && f.status == status)
                    {
                        Some(f) => f.occurrences.push((rev.revision, r)),
                        None => found.push(DistinctFinding {
                            check: r.check,
                            status,
                            occurrences: vec![(rev.revision, r)],
                        }),
                    }
                }
            }
        }
        found
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

    /// How many failed results the baseline accepts, in `revision` or in every one (JUnit
    /// reports them as skipped, pytest's xfail convention, so the readable reports say
    /// how many of their failures those are).
    pub fn accepted_failures(&self, revision: Option<&str>) -> usize {
        self.revisions
            .iter()
            .filter(|rev| revision.is_none_or(|r| r == rev.revision))
            .flat_map(|rev| rev.results.iter().map(move |r| (rev.revision, r)))
            .filter(|(rev, r)| r.status == Status::Fail && self.baselined(rev, r.check).is_some())
            .count()
    }

    /// The baseline's reason for a finding, if it accepts it.
    pub fn baselined(&self, revision: &str, check: &str) -> Option<&str> {
        self.baseline
            .as_ref()?
            .baselined
            .iter()
            .find(|b| b.revision == revision && b.check == check)
            .map(|b| b.reason.as_str())
    }
}

/// " (3 baselined)" after a count of failures some of which the baseline accepts.
pub(super) fn baselined_part(accepted: usize) -> String {
    if accepted == 0 {
        String::new()
    } else {
        format!(" ({accepted} baselined)")
    }
}

/// A count with its noun in the right number: "1 failure", "2 failures", "3 entries".
pub fn counted(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    match (n.as_str(), noun.strip_suffix('y')) {
        ("1", _) => format!("1 {noun}"),
        (_, Some(stem)) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

/// One accepted finding: a row of a baseline file, and in a report, an entry found stale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaselineEntry {
    /// Check id.
    pub check: String,
    /// Revision, or every revision when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// Why it is accepted for now.
    pub reason: String,
}

/// A finding the baseline accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Baselined {
    /// Revision of the finding.
    pub revision: String,
    /// Check id.
    pub check: String,
    /// Its status (fail or warn).
    pub status: Status,
    /// The baseline's reason.
    pub reason: String,
}

/// How a baseline met a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BaselineOutcome {
    /// Findings the baseline accepts: they do not fail the gate.
    pub baselined: Vec<Baselined>,
    /// Entries that matched no finding: the server improved, or the entry is wrong.
    pub stale: Vec<BaselineEntry>,
}

/// Why a finding's status is milder than its level: a MUST (or a schema or JSON-RPC rule)
/// graded as a warning by a policy of REQUIREMENTS.md section 10. `None` when the status
/// is the one the level gives. The policy is read from the finding's message ("policy
/// A2") or its source ("REQUIREMENTS.md 10 A10") and said with its title ("a MUST,
/// graded a warning by policy A10, Unknown-tool code"); when neither names one, "by
/// this project's policy".
pub fn policy_grade(result: &CheckResult) -> Option<String> {
    if result.status != Status::Warn {
        return None;
    }
    let rule = match result.level {
        Level::Must => "a MUST",
        Level::Schema => "a schema rule",
        Level::JsonRpc => "a JSON-RPC 2.0 rule",
        Level::Should | Level::May | Level::Policy => return None,
    };
    let policy = policy_id(&result.message)
        .or_else(|| policy_id(result.source))
        .map_or(
            "by this project's policy".to_string(),
            |id| match crate::rules::policy_title(id) {
                Some(title) => format!("by policy {id}, {title}"),
                None => format!("by policy {id}"),
            },
        );
    Some(format!("{rule}, graded a warning {policy}"))
}

/// The first policy id ("A10") after "policy " or "REQUIREMENTS.md 10 " in `text`.
fn policy_id(text: &str) -> Option<&str> {
    ["policy ", "REQUIREMENTS.md 10 "].iter().find_map(|mark| {
        let at = text.find(mark)? + mark.len();
        let rest = &text[at..];
        let digits = rest.strip_prefix('A')?;
        let len = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        (len > 0).then(|| &rest[..=len])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_ids_are_read_from_message_or_source() {
        assert_eq!(policy_id("silence (policy A2: a warning)"), Some("A2"));
        assert_eq!(policy_id("tools.mdx; REQUIREMENTS.md 10 A10"), Some("A10"));
        assert_eq!(policy_id("REQUIREMENTS.md 10 A2, A3"), Some("A2"));
        assert_eq!(policy_id("(policy: warning)"), None);
        assert_eq!(policy_id("no policy here"), None);
    }

    #[test]
    fn the_load_note_names_a_short_stretch_in_milliseconds() {
        let timing = |stretched, stretch_ms| RunTiming {
            stretched,
            stretch_ms,
            ..RunTiming::default()
        };
        assert_eq!(timing(0, 0).load_note(), None);
        let short = timing(1, 37).load_note().unwrap();
        assert!(
            short.contains("1 wait(s)") && short.contains("given 37 ms more"),
            "{short}"
        );
        let long = timing(3, 2_450).load_note().unwrap();
        assert!(long.contains("given 2.5 s more"), "{long}");
    }
}

/// What fails the gate besides unexpected failures.
#[derive(Debug, Clone, Copy, Default)]
pub struct GateOptions {
    /// Warnings fail too.
    pub strict: bool,
    /// Stale baseline entries fail too.
    pub strict_baseline: bool,
}

/// The verdict of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gate {
    /// Whether the run passes.
    pub passed: bool,
    /// Why it does not.
    pub reasons: Vec<String>,
}
