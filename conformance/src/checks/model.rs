//! Types of the catalog: checks, levels, verdicts, statuses and evidence.

use serde::Serialize;
use serde_json::Value;

use crate::protocol::{
    Direction, Era, Exchange, Rev, Revision, SchemaSet, Silence, Transcript, REVISIONS,
};
use crate::records::{NegotiationRecord, RevisionRecord};
use crate::rules::CheckId;
use crate::rules::FailureKind;

/// Normative level of a check, as REQUIREMENTS.md states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Level {
    /// RFC 2119 MUST / MUST NOT.
    #[serde(rename = "MUST")]
    Must,
    /// RFC 2119 SHOULD / SHOULD NOT.
    #[serde(rename = "SHOULD")]
    Should,
    /// RFC 2119 MAY (informational).
    #[serde(rename = "MAY")]
    May,
    /// A structural rule of the revision's schema.json; treated as MUST.
    #[serde(rename = "SCHEMA")]
    Schema,
    /// A rule inherited from JSON-RPC 2.0; treated as MUST.
    #[serde(rename = "JSONRPC")]
    JsonRpc,
    /// A suite decision where the spec is open (REQUIREMENTS.md section 10); a warning.
    #[serde(rename = "POLICY")]
    Policy,
}

impl Level {
    /// The status a violation of this level gets.
    pub fn violation_status(self) -> Status {
        match self {
            Level::Must | Level::Schema | Level::JsonRpc => Status::Fail,
            Level::Should | Level::May | Level::Policy => Status::Warn,
        }
    }

    /// Upper-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
            Level::May => "MAY",
            Level::Schema => "SCHEMA",
            Level::JsonRpc => "JSONRPC",
            Level::Policy => "POLICY",
        }
    }
}

/// A check's level in each revision: most checks have one level; a few change with the
/// spec text (a SHOULD that became a MUST). Reports print the level that applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grade {
    /// The same level in every revision.
    Fixed(Level),
    /// `before` up to (not including) `from`, then `level`.
    Changes {
        /// The level before `from`.
        before: Level,
        /// The first revision of the new level.
        from: Rev,
        /// The level from `from` on.
        level: Level,
    },
}

impl Grade {
    /// This grade until `from`, then `later`'s level.
    pub const fn from(self, from: Rev, later: Grade) -> Grade {
        let (Grade::Fixed(before), Grade::Fixed(level)) = (self, later) else {
            panic!("a grade changes once")
        };
        Grade::Changes {
            before,
            from,
            level,
        }
    }

    /// The level in `revision`.
    pub fn level_in(self, revision: &Revision) -> Level {
        match self {
            Grade::Fixed(level) => level,
            Grade::Changes {
                before,
                from,
                level,
            } => {
                if revision.at_least(from) {
                    level
                } else {
                    before
                }
            }
        }
    }

    /// The level in the newest revision (SARIF's rule default).
    pub fn latest(self) -> Level {
        match self {
            Grade::Fixed(level) | Grade::Changes { level, .. } => level,
        }
    }

    /// For listings: "MUST", or "SHOULD<2025-06-18<=MUST".
    pub fn describe(self) -> String {
        match self {
            Grade::Fixed(level) => level.as_str().to_string(),
            Grade::Changes {
                before,
                from,
                level,
            } => format!("{}, {} from {}", before.as_str(), level.as_str(), from.id()),
        }
    }

    /// How a violation is graded across the revisions `applies` names, in words
    /// ("fail in every revision", "warning before 2025-06-18, fail from it").
    pub fn graded(self, applies: Applies) -> String {
        let word = |l: Level| match l.violation_status() {
            Status::Fail => "fail",
            _ => "warning",
        };
        let scope = match applies {
            Applies::All => "in every revision".to_string(),
            Applies::Legacy => "in every handshake revision".to_string(),
            Applies::Modern => "in 2026-07-28".to_string(),
            Applies::Range(first, last) => format!("from {} to {}", first.id(), last.id()),
            Applies::From(first) => format!("from {}", first.id()),
            Applies::Only(only) => format!("in {} only", only.id()),
        };
        match self {
            Grade::Fixed(level) => format!("{} {scope} ({})", word(level), level.as_str()),
            Grade::Changes {
                before,
                from,
                level,
            } => format!(
                "{} ({}) before {}, {} ({}) from it",
                word(before),
                before.as_str(),
                from.id(),
                word(level),
                level.as_str()
            ),
        }
    }
}

/// A citation per revision: the REQUIREMENTS.md id a check implements, or its spec
/// source. Most checks cite one text; a few cite the one of each revision era
/// (`RPC-ERROR-ID-R1R3` before 2025-11-25, where the schema requires `id`;
/// `RPC-ERROR-ID-R4` from it, where the basic page says MUST; a page section that
/// 2025-11-25 renamed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cite {
    /// The same id in every revision.
    One(&'static str),
    /// `before` up to (not including) `from`, then `id`.
    Changes {
        /// The id before `from`.
        before: &'static str,
        /// The first revision of the new id.
        from: Rev,
        /// The id from `from` on.
        id: &'static str,
    },
}

impl Cite {
    /// This id until `from`, then `id`.
    pub const fn from(self, from: Rev, id: &'static str) -> Cite {
        let Cite::One(before) = self else {
            panic!("a citation changes once")
        };
        Cite::Changes { before, from, id }
    }

    /// The id (or source) that applies in `revision`.
    pub fn id_in(self, revision: &Revision) -> &'static str {
        match self {
            Cite::One(id) => id,
            Cite::Changes { before, from, id } => {
                if revision.at_least(from) {
                    id
                } else {
                    before
                }
            }
        }
    }

    /// The id in the newest revision.
    pub fn latest(self) -> &'static str {
        match self {
            Cite::One(id) | Cite::Changes { id, .. } => id,
        }
    }

    /// For listings: "RPC-ERROR-SHAPE", or "RPC-ERROR-ID-R1R3, RPC-ERROR-ID-R4 from 2025-11-25".
    pub fn describe(self) -> String {
        match self {
            Cite::One(id) => id.to_string(),
            Cite::Changes { before, from, id } => format!("{before}, {id} from {}", from.id()),
        }
    }
}

impl Cite {
    /// For texts that hold commas themselves (sources): "X (before 2025-11-25); Y (from
    /// 2025-11-25)", or the one text.
    pub fn describe_eras(self) -> String {
        match self {
            Cite::One(text) => text.to_string(),
            Cite::Changes { before, from, id } => {
                format!("{before} (before {0}); {id} (from {0})", from.id())
            }
        }
    }
}

impl std::fmt::Display for Cite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(&self.describe())
    }
}

impl Serialize for Cite {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.describe())
    }
}

/// Outcome of one check in one revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A MUST, SCHEMA or JSONRPC rule is broken.
    Fail,
    /// A SHOULD or POLICY rule is broken, or a policy downgraded a violation.
    Warn,
    /// Not applicable here, with a reason.
    Skip,
    /// The rule holds.
    Pass,
}

impl Status {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Fail => "fail",
            Status::Warn => "warn",
            Status::Skip => "skip",
            Status::Pass => "pass",
        }
    }
}

/// Which revisions a check applies to.
#[derive(Debug, Clone, Copy)]
pub enum Applies {
    /// Every revision.
    All,
    /// The handshake revisions (2024-11-05 .. 2025-11-25).
    Legacy,
    /// The revisions without a handshake (2026-07-28).
    Modern,
    /// From the first revision to the second, both included.
    Range(Rev, Rev),
    /// This revision and later ones.
    From(Rev),
    /// This revision only.
    Only(Rev),
}

impl Applies {
    /// Whether the check applies to `revision`.
    pub fn includes(self, revision: &Revision) -> bool {
        match self {
            Applies::All => true,
            Applies::Legacy => !revision.modern(),
            Applies::Modern => revision.modern(),
            Applies::Range(first, last) => revision.at_least(first) && revision.rev <= last,
            Applies::From(first) => revision.at_least(first),
            Applies::Only(only) => revision.rev == only,
        }
    }

    /// For listings: "all" or "2025-06-18+".
    pub fn describe(self) -> String {
        match self {
            Applies::All => "all".into(),
            Applies::Legacy => {
                format!(
                    "{} (the handshake revisions)",
                    Revision::span_of(Era::Legacy)
                )
            }
            Applies::Modern => Revision::span_of(Era::Modern),
            Applies::Range(first, last) => format!("{}..{}", first.id(), last.id()),
            Applies::From(first) => format!("{}+", first.id()),
            Applies::Only(only) => only.id().to_string(),
        }
    }
}

/// One line of evidence: a message exchanged, a stderr line, or a harness note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// Who produced it.
    pub direction: Direction,
    /// Its text (server text is escaped by each renderer, not here).
    pub text: String,
}

impl Evidence {
    /// A note written by the harness (an explanation, a schema error).
    pub fn note(text: impl Into<String>) -> Self {
        Self {
            direction: Direction::Harness,
            text: text.into(),
        }
    }

    /// The note of why a request got no response. A wait the machine kept the harness
    /// from judging ([`Silence::Starved`]) is noted as [`Direction::Load`]: a violation
    /// that cites it is reported as not judged ([`judge_all`]).
    pub fn silence(silence: &Silence) -> Self {
        Self {
            direction: match silence {
                Silence::Starved { .. } => Direction::Load,
                _ => Direction::Harness,
            },
            text: silence.describe(),
        }
    }

    /// Whether this is a note that the machine was too loaded to judge a wait.
    pub fn is_load(&self) -> bool {
        self.direction == Direction::Load
    }

    /// The note that the messages after it are a fresh server process's, from its start
    /// (its opening included: `initialize`, or a `server/discover` in 2026-07-28).
    pub fn fresh_process() -> Self {
        Self::note(FRESH_PROCESS)
    }

    /// Whether this is the [`Evidence::fresh_process`] note.
    pub fn is_fresh_process(&self) -> bool {
        self.direction == Direction::Harness && self.text == FRESH_PROCESS
    }
}

const FRESH_PROCESS: &str = "in a fresh server process:";

/// What a judge decided.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// The rule holds; the message says what was seen.
    Pass(String),
    /// The rule is broken; the status follows the check's level in the revision.
    Violation(String, Vec<Evidence>),
    /// A policy of REQUIREMENTS.md section 10 makes this a warning whatever the level.
    Warn(String, Vec<Evidence>),
    /// Not applicable, with the reason.
    Skip(String),
}

/// A check of the catalog: everything about it, in one row.
#[derive(Debug)]
pub struct Check {
    /// Stable kebab-case id; never renamed or reused.
    pub id: CheckId,
    /// One line saying what is required.
    pub title: &'static str,
    /// Normative level, per revision.
    pub level: Grade,
    /// The REQUIREMENTS.md id it implements, per revision.
    pub requirement: Cite,
    /// Revisions it applies to.
    pub applies: Applies,
    /// Spec file and section, per revision: each revision cites its own page.
    pub source: Cite,
    /// The judge.
    pub judge: fn(&Ctx<'_>) -> Verdict,
    /// The failure kinds of the generated phases (property, fuzz) this check reports.
    pub kinds: &'static [FailureKind],
    /// The explanation (`explain/<id>.md`): requirement, grading details, why, fix.
    pub text: &'static str,
}

impl Check {
    /// The level that applies in `revision`.
    pub fn level_in(&self, revision: &Revision) -> Level {
        self.level.level_in(revision)
    }

    /// The REQUIREMENTS.md id that applies in `revision`.
    pub fn requirement_in(&self, revision: &Revision) -> &'static str {
        self.requirement.id_in(revision)
    }

    /// The revisions the check applies to.
    pub fn revisions(&self) -> impl Iterator<Item = &'static Revision> + '_ {
        REVISIONS.iter().filter(|r| self.applies.includes(r))
    }
}

/// The result of one check in one revision, as reported.
#[derive(Debug, Clone, Serialize)]
pub struct CheckResult {
    /// Check id.
    pub check: &'static str,
    /// Check title.
    pub title: &'static str,
    /// The level that applied in this revision.
    pub level: Level,
    /// REQUIREMENTS.md id.
    pub requirement: &'static str,
    /// Spec source.
    pub source: &'static str,
    /// Outcome.
    pub status: Status,
    /// What was seen.
    pub message: String,
    /// The messages that show it.
    pub evidence: Vec<Evidence>,
    /// The earlier finding that shows the same server answer, when one does: the
    /// readable formats print the evidence once, there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_cause_as: Option<SameCause>,
}

/// The finding another one shares its cause with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SameCause {
    /// Its check id.
    pub check: &'static str,
    /// Its revision.
    pub revision: &'static str,
}

impl SameCause {
    /// The line the readable formats print in place of the evidence.
    pub fn describe(&self) -> String {
        format!(
            "same cause as {} ({}): the same server answer, shown there",
            self.check, self.revision
        )
    }
}

/// What a judge may read.
#[derive(Debug)]
pub struct Ctx<'a> {
    /// The revision's conversation.
    pub record: &'a RevisionRecord,
    /// The negotiated revision's profile, when it is one the suite knows.
    pub revision: Option<&'static Revision>,
    /// Schemas of the negotiated revision.
    pub schemas: Option<&'a SchemaSet>,
    /// What version probing learned.
    pub negotiation: &'a NegotiationRecord,
}

/// Most evidence lines of one kind in a finding; the rest is counted, not listed.
pub const MAX_EXAMPLES: usize = 5;
/// stderr lines attached when a server dies or stalls.
pub const STDERR_TAIL: usize = 10;

impl Ctx<'_> {
    /// The revision's transcript.
    pub fn transcript(&self) -> &Transcript {
        &self.record.transcript
    }

    /// Evidence lines for transcript entries; over HTTP each request we sent is followed
    /// by the POST that carried it.
    pub fn evidence(&self, seqs: &[usize]) -> Vec<Evidence> {
        let mut out = Vec::new();
        for entry in seqs.iter().filter_map(|&s| self.transcript().get(s)) {
            out.push(Evidence {
                direction: entry.direction,
                text: entry.text.clone(),
            });
            if entry.direction == Direction::Sent {
                out.extend(super::http_cause::carrying(self, entry));
            }
        }
        out
    }

    /// Evidence for one exchange: request, response or the reason there was none, and
    /// for silence the last stderr lines.
    pub fn exchange_evidence(&self, exchange: &Exchange) -> Vec<Evidence> {
        let mut out = exchange_evidence(self.transcript(), exchange);
        out.extend(super::http_cause::evidence(self, exchange));
        out
    }

    /// `Some(reason)` when the server does not speak this revision's era at all, so no
    /// check of it applies: a legacy-only server in 2026-07-28, or a modern-only one
    /// (whose `initialize` was rejected, as 2026-07-28 allows) in a handshake revision.
    pub fn era_skip(&self) -> Option<String> {
        let record = self.record;
        if let Some(modern) = &record.modern {
            return (!modern.era.speaks()).then(|| {
                format!(
                    "the server does not speak {}: {}",
                    record.requested.id,
                    record.stopped.as_deref().unwrap_or("no modern answer")
                )
            });
        }
        let modern_only = self.negotiation.era == Some(crate::records::ServerEra::ModernOnly);
        (modern_only && record.initialize.result().is_none()).then(|| {
            format!(
                "the server is modern-only (it answers server/discover and rejects initialize): \
                 {} has a handshake; m-init-reject judges the rejection in 2026-07-28",
                record.requested.id
            )
        })
    }

    /// `Some(skip)` when the conversation stopped after initialize.
    pub fn skip_if_stopped(&self) -> Option<Verdict> {
        self.record
            .stopped
            .as_ref()
            .map(|why| Verdict::Skip(format!("not probed: {why}")))
    }

    /// The request a received response answers, if any.
    pub fn request_of(&self, response_seq: usize) -> Option<&Value> {
        let entry = self.transcript().get(response_seq)?;
        self.transcript().get(entry.answers?)?.json.as_deref()
    }
}

/// Evidence lines for transcript entries of any transcript.
pub fn evidence_from(transcript: &Transcript, seqs: &[usize]) -> Vec<Evidence> {
    seqs.iter()
        .filter_map(|&s| transcript.get(s))
        .map(|e| Evidence {
            direction: e.direction,
            text: e.text.clone(),
        })
        .collect()
}

/// Evidence for an exchange of any transcript.
pub fn exchange_evidence(transcript: &Transcript, exchange: &Exchange) -> Vec<Evidence> {
    let mut out = evidence_from(transcript, &exchange.seqs());
    if let Some(silence) = exchange.silence() {
        out.push(Evidence::silence(silence));
    }
    if exchange.silence().is_some_and(|s| s.suggests_trouble()) {
        out.extend(
            transcript
                .stderr_tail(STDERR_TAIL)
                .into_iter()
                .map(|e| Evidence {
                    direction: e.direction,
                    text: e.text.clone(),
                }),
        );
    }
    out
}

/// A generated-phase finding cites the requirement of the rule its first failure broke
/// (the one its message shows): `prop-valid-call-result` failed by a content type the
/// revision lacks cites `TC-CONTENT-VERSION-GATE`, not the outputSchema requirement of its
/// row. `None` when no rule of the rule book judged it (a crash, a stall).
fn cause_requirement(
    catalog: &[Check],
    ctx: &Ctx<'_>,
    check: CheckId,
    revision: &Revision,
) -> Option<&'static str> {
    let rule = ctx
        .record
        .properties
        .as_ref()?
        .failures
        .iter()
        .find(|f| f.check == check)?
        .rule?;
    let rule = catalog.iter().find(|c| c.id == rule)?;
    Some(rule.requirement.id_in(revision))
}

/// Every check of `catalog` skipped for one `reason` (a revision that did not run).
pub fn skip_all(catalog: &[Check], revision: &Revision, reason: &str) -> Vec<CheckResult> {
    catalog
        .iter()
        .map(|check| CheckResult {
            check: check.id.as_str(),
            title: check.title,
            level: check.level_in(revision),
            requirement: check.requirement.id_in(revision),
            source: check.source.id_in(revision),
            status: Status::Skip,
            message: reason.to_string(),
            evidence: Vec::new(),
            same_cause_as: None,
        })
        .collect()
}

/// Why a check of a rule about the server's process skips an in-process server.
pub const NO_PROCESS: &str =
    "applies to servers run as a process: this one ran in-process, with no process of its own";

/// A violation or warning that cites a wait the machine kept the harness from judging
/// ([`Evidence::is_load`]) becomes a skip that says so: load is not a fault. Only the
/// harness writes such evidence, so no server text can turn a finding into a skip.
fn too_loaded(verdict: Verdict) -> Verdict {
    match verdict {
        Verdict::Violation(m, e) | Verdict::Warn(m, e) if e.iter().any(Evidence::is_load) => {
            let load = e
                .iter()
                .find(|x| x.is_load())
                .map_or("", |x| x.text.as_str());
            Verdict::Skip(format!("not judged: {load}. Otherwise: {m}"))
        }
        other => other,
    }
}

/// Judges every applicable check of the catalog for one revision.
pub fn judge_all(catalog: &[Check], ctx: &Ctx<'_>) -> Vec<CheckResult> {
    let revision = ctx.revision.unwrap_or(ctx.record.requested);
    let era_skip = ctx.era_skip();
    catalog
        .iter()
        .map(|check| {
            let verdict = if let Some(reason) = &era_skip {
                Verdict::Skip(reason.clone())
            } else if check.id.needs_process() && ctx.record.in_process {
                Verdict::Skip(NO_PROCESS.into())
            } else if check.applies.includes(revision) {
                (check.judge)(ctx)
            } else {
                Verdict::Skip(format!(
                    "applies to revisions {} only",
                    check.applies.describe()
                ))
            };
            let level = check.level_in(revision);
            let (status, message, evidence) = match too_loaded(verdict) {
                Verdict::Pass(m) => (Status::Pass, m, Vec::new()),
                Verdict::Violation(m, e) => (level.violation_status(), m, e),
                Verdict::Warn(m, e) => (Status::Warn, m, e),
                Verdict::Skip(m) => (Status::Skip, m, Vec::new()),
            };
            let requirement = match status {
                Status::Fail | Status::Warn => cause_requirement(catalog, ctx, check.id, revision),
                Status::Pass | Status::Skip => None,
            };
            CheckResult {
                check: check.id.as_str(),
                title: check.title,
                level,
                requirement: requirement.unwrap_or_else(|| check.requirement.id_in(revision)),
                source: check.source.id_in(revision),
                status,
                message,
                evidence,
                same_cause_as: None,
            }
        })
        .collect()
}
