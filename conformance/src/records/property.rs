//! What the property phase hands back: cases run per check, and each failure with its
//! minimal input, confirming transcript and case file.
//!
//! Kept apart from the run: the property checks, the fuzz mode and the runner read a
//! record without needing to know how it was produced.

use std::time::Duration;

use serde_json::Value;

use super::CaseFile;
use crate::protocol::Transcript;
use crate::rules::CheckId;
use crate::rules::FailureKind;

/// A property that failed.
#[derive(Debug, Clone)]
pub struct PropertyFailure {
    /// The check that reports it (the catalog row whose `kinds` hold `kind`).
    pub check: CheckId,
    /// The rule of the rule book that was broken, when one judged it (a crash or a
    /// stall breaks no single rule).
    pub rule: Option<CheckId>,
    /// The failure.
    pub kind: FailureKind,
    /// What was generated ("valid arguments for echo", "invalid: /when/hour out of range").
    pub description: String,
    /// The minimal input.
    pub input: Value,
    /// What happened to it.
    pub outcome: String,
    /// Shrink steps taken.
    pub shrink_steps: u32,
    /// Why the shrinking stopped before it was done, when a budget cut it (the revision's
    /// shrink steps spent, or its --time-budget): the input is then smaller than the one
    /// found, not minimal.
    pub shrink_cut: Option<String>,
    /// The confirming session's transcript (fresh process, minimal case).
    pub transcript: Transcript,
    /// Whether the minimal case failed the same way in the fresh process.
    pub reproduced: bool,
    /// The revision of the run whose minimal case this is, when an earlier revision
    /// found and shrank it and this one only tried it (once, and it failed the same way).
    pub same_as: Option<&'static str>,
    /// The case, to save and replay.
    pub case: CaseFile,
    /// Where the case was saved, when a cases folder was given.
    pub case_path: Option<std::path::PathBuf>,
}

/// A generated call with valid arguments that the tool answered with a tool execution
/// error (`isError: true`): the error paths only some inputs reach (a division by zero),
/// which `tc-error-explained` judges beside the scripted calls' errors.
#[derive(Debug, Clone)]
pub struct ToolError {
    /// The tool.
    pub tool: String,
    /// The arguments it failed on.
    pub arguments: Value,
    /// Its result.
    pub result: Value,
}

/// Tool execution errors a property phase keeps: the first of each tool, up to this many.
pub const MAX_TOOL_ERRORS: usize = 8;

/// A tool call that outlasted the timeout while the server kept answering ping: slow,
/// not broken (a warning). The tool gets no more cases.
#[derive(Debug, Clone)]
pub struct SlowCall {
    /// The tool.
    pub tool: String,
    /// The arguments it was slow on.
    pub input: Value,
    /// How long the answer took, when it came within one more timeout; `None` when it
    /// never came (and the tool had answered nothing in time, so this is no stall).
    pub answered_after: Option<Duration>,
    /// The timeout it outlasted.
    pub timeout: Duration,
    /// The tool's generated cases not run because of it.
    pub cases_not_run: u32,
}

impl SlowCall {
    /// One sentence for reports.
    pub fn describe(&self) -> String {
        let timeout = self.timeout.as_secs_f64();
        let took = match self.answered_after {
            Some(d) => format!(
                "called with arguments {} answered only after {:.2} s, past --timeout {timeout:.1} s",
                self.input,
                d.as_secs_f64()
            ),
            None => format!(
                "called with arguments {} did not answer within --timeout {timeout:.1} s nor in the {timeout:.1} s after it, and answered no other input in time",
                self.input
            ),
        };
        format!(
            "tool {:?} {took}, while the server answered ping meanwhile; its remaining {} generated case(s) were not run",
            self.tool, self.cases_not_run
        )
    }
}

/// A failure that does not depend on the input: the server is gone after initialize, has
/// closed its stdout or answers nothing, whatever it is sent. A fresh process given a
/// plain ping right after initialize failed too, so no generated input is to blame: the
/// phase stops for the revision, nothing is shrunk, and the failure is reported once,
/// under the check about answering at all (not as an input-validation finding).
#[derive(Debug, Clone)]
pub struct InputIndependent {
    /// The generated case that first showed it, and what happened to it.
    pub first_seen: String,
    /// What the fresh process did with the plain ping: the evidence.
    pub what: String,
    /// That fresh process's transcript.
    pub transcript: Transcript,
}

impl InputIndependent {
    /// One sentence for reports.
    pub fn describe(&self) -> String {
        format!(
            "the server fails whatever it is sent: {} (first seen on {})",
            self.what, self.first_seen
        )
    }
}

/// Minimal cases a revision's property phase shrinks and confirms per check and kind of
/// failure (a crash or a stall excepted): a server whose every tool fails the same way
/// has its first ones shrunk, each confirmed in a fresh process, and the rest named as
/// [`Repeat`]s (thirty tools answering a network error must not cost thirty shrinks and
/// thirty processes, nor bury the report).
pub const SHRUNK_PER_KIND: usize = 4;

/// A generated case that failed as [`SHRUNK_PER_KIND`] minimal cases of its check and kind
/// already had: named with its input as drawn, not shrunk or confirmed.
#[derive(Debug, Clone)]
pub struct Repeat {
    /// The check that reports it.
    pub check: CheckId,
    /// The failure.
    pub kind: FailureKind,
    /// The property ("invalid echo", ...).
    pub label: String,
    /// The input as drawn.
    pub input: Value,
    /// What happened to it.
    pub outcome: String,
}

/// Counts and findings of the property phase.
#[derive(Debug, Clone, Default)]
pub struct PropertyRecord {
    /// Cases run, per check.
    pub cases: Vec<(CheckId, u32)>,
    /// Tool execution errors of generated calls with valid arguments (the first of each
    /// tool, at most [`MAX_TOOL_ERRORS`]).
    pub tool_errors: Vec<ToolError>,
    /// What failed.
    pub failures: Vec<PropertyFailure>,
    /// What failed as [`SHRUNK_PER_KIND`] failures before it had (not shrunk).
    pub repeats: Vec<Repeat>,
    /// Things a reader should know (tools skipped, budget exhausted).
    pub notes: Vec<String>,
    /// What a budget cut (`--time-budget`, the revision's shrink steps), in words: also
    /// among `notes`, and shown at the top of the readable reports.
    pub cut: Vec<String>,
    /// Tool calls that were slow, not broken.
    pub slow: Vec<SlowCall>,
    /// Why the argument cases stopped before the plan's end, when they did.
    pub stopped: Option<String>,
    /// Set when the phase stopped on a failure that does not depend on the input.
    pub input_independent: Option<InputIndependent>,
}

impl PropertyRecord {
    pub(crate) fn count(&mut self, check: CheckId) {
        match self.cases.iter_mut().find(|(c, _)| *c == check) {
            Some((_, n)) => *n += 1,
            None => self.cases.push((check, 1)),
        }
    }

    /// Takes back a case counted for `check` (one that showed a failure no input causes:
    /// it judged nothing).
    pub(crate) fn uncount(&mut self, check: CheckId) {
        if let Some((_, n)) = self.cases.iter_mut().find(|(c, _)| *c == check) {
            *n = n.saturating_sub(1);
        }
        self.cases.retain(|(_, n)| *n > 0);
    }

    /// Whether `check` already has its [`SHRUNK_PER_KIND`] minimal cases of `kind`.
    pub(crate) fn shrunk_enough(&self, check: CheckId, kind: FailureKind) -> bool {
        let same = |f: &&PropertyFailure| f.check == check && f.kind == kind;
        self.failures.iter().filter(same).count() >= SHRUNK_PER_KIND
    }

    /// Cases run for a check.
    pub fn cases_for(&self, check: CheckId) -> u32 {
        self.cases
            .iter()
            .find(|(c, _)| *c == check)
            .map_or(0, |(_, n)| *n)
    }
}
