//! Shrinking a failing case to the smallest input that fails the same way, with the one
//! shrinker of `generate::shrink`, then confirming it once more in a fresh server process.
//! A candidate of valid arguments stays surely valid; one of arguments that break one rule
//! breaks that rule and no other (`format`s asserted). proptest's value tree remains only
//! for a schema the harness's validator cannot compile.
//!
//! The confirmed case becomes a [`PropertyFailure`] with its replayable [`CaseFile`].
//! A stall is shrunk in fewer steps, each waiting a multiple of the tool's measured
//! latency rather than the timeout (every stalled candidate waits its wait out), on one
//! process while the server still answers beside its stalled calls (a process start is
//! seconds for a Python server: one per stalled candidate was most of a stall's cost);
//! the confirmation waits the full timeout again, alone in a fresh process started
//! beside the shrink. A shrunk case that does not stall alone is shrunk again with a
//! process per stalled candidate: candidates beside a stalled call may have stalled only
//! for it (a server that runs a tool's calls one at a time). A stall of a tool that answers other inputs
//! is shrunk beside the stalled call's own session, still open: if that call's answer
//! comes within one more timeout, the tool was slow, not stalled, and the shrink is
//! dropped. So telling slow from stalled costs no wait of its own. That shrink starts
//! before the timeout is out, as soon as the call outlasts half of it (or the tool's
//! learnt wait) while its server sleeps on it ([`PropertyRun::shrink_ahead`]), in an
//! environment of its own whose work is taken in only if the call's verdict is a stall:
//! the verdict waits the two timeouts it always did, and the shrink and its confirmation
//! fit inside them.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use jsonschema::error::ValidationErrorKind;
use jsonschema::Validator;

use proptest::strategy::ValueTree;
use serde_json::{json, Value};

use super::env::{
    case_id, case_messages, open_fresh, probe_tool, probe_tool_def, Env, Outcome, Parked, Probe,
    SHRINK_STEPS_PER_REVISION,
};
use super::validators::Which;
use super::PropertyRun;
use crate::generate::{shrink, surely_valid};
use crate::protocol::Transcript;
use crate::records::{CaseFile, CaseMessage, PropertyFailure};
use crate::rules::CheckId;
use crate::rules::FailureKind;
use crate::scenarios::{era, slot};

/// Most shrink steps for a stall (each waits a multiple of the tool's latency): enough to
/// bisect a string of a megabyte from both ends and simplify what is left.
const STALL_STEPS: u32 = 48;

/// Most shrink steps for a failure that is a warning by policy (a wrong error class, an
/// answer sent twice): its minimal case is a courtesy, not the evidence of a failure.
const POLICY_STEPS: u32 = 16;

/// A minimal case as its fresh process saw it.
pub(super) struct Confirmed {
    pub(super) input: Value,
    pub(super) outcome: String,
    pub(super) steps: u32,
    pub(super) transcript: Transcript,
    pub(super) reproduced: bool,
}

/// Which of the two concurrent waits ended first.
enum First {
    Late(Option<Duration>),
    Shrunk(Box<PropertyFailure>),
}

/// A shrink's future, run beside a parked call's late answer ([`PropertyRun::shrink_beside`]).
pub(super) type Shrinking<'f> = Pin<Box<dyn Future<Output = PropertyFailure> + 'f>>;

/// What a shrink run ahead of its verdict ([`PropertyRun::shrink_ahead`]) says in place of
/// the outcome the walk's case will have: replaced by that outcome when it is known.
pub(super) const AHEAD_OUTCOME: &str = "\u{0}the walk's outcome\u{0}";

impl PropertyRun<'_> {
    /// `shrink` (a [`PropertyRun::shrink`]) while waiting, on `parked`, one more timeout
    /// for the stalled call's late answer. Returns the failure, or `None` and how long
    /// the answer took when it came (a slow call, not a stall). A shrink dropped midway
    /// leaves its environment's settings behind: the caller resets them
    /// ([`Env::after_shrink`]).
    pub(super) async fn shrink_beside(
        &self,
        mut parked: Parked,
        shrink: Shrinking<'_>,
    ) -> (Option<PropertyFailure>, Option<Duration>) {
        let window = self.session.timeout;
        let result = {
            let late = parked.late_answer(window);
            tokio::pin!(late);
            let mut shrink = shrink;
            let first = tokio::select! {
                biased;
                answered = &mut late => First::Late(answered),
                failure = &mut shrink => First::Shrunk(Box::new(failure)),
            };
            match first {
                // Answered late: the shrink (dropped here, its processes with it) is moot.
                First::Late(Some(took)) => (None, Some(took)),
                First::Late(None) => (Some(shrink.await), None),
                First::Shrunk(failure) => match late.await {
                    Some(took) => (None, Some(took)),
                    None => (Some(*failure), None),
                },
            }
        };
        parked.session.kill().await;
        let failure = result.0.map(|mut f| {
            f.outcome = format!(
                "{}; the first stalled call's answer did not come in the {:.1} s after its timeout either",
                f.outcome,
                window.as_secs_f64()
            );
            f
        });
        (failure, result.1)
    }

    /// The shrink of a stall the walk's case on a prompt tool (`probe`, `value`) may be
    /// about to show, started `after` the call was sent, in an environment of its own
    /// ([`Env::ahead`]) and on a slot of its own (its waits are not the call's). A stall
    /// is only a stall once the call has outlasted the timeout and its late-answer window
    /// ([`PropertyRun::shrink_beside`]); shrinking meanwhile makes the verdict cost those
    /// two timeouts, not those plus a shrink. Dropped, with its processes, when the call
    /// is answered or fails otherwise.
    ///
    /// It starts (and says so in `started`) only when the call's wait has lent the
    /// revision's slot by then: the server is seen asleep on the call (a timer, I/O, a
    /// lock), so the shrink's processes take no CPU the call needs, and a slow call is
    /// not made slower by it. Else it waits forever, and the verdict goes as before.
    pub(super) async fn shrink_ahead(
        &self,
        env: &mut Env<'_>,
        (probe, label): (&Probe, &str),
        value: Value,
        after: Duration,
        started: &Cell<bool>,
    ) -> PropertyFailure {
        tokio::time::sleep(after).await;
        if !slot::lent() {
            std::future::pending::<()>().await;
        }
        started.set(true);
        let stall = (FailureKind::Stall, None);
        let shrink = self.shrink(env, probe, label, None, value, stall, AHEAD_OUTCOME.into());
        slot::apart(shrink).await
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) async fn shrink(
        &self,
        env: &mut Env<'_>,
        probe: &Probe,
        label: &str,
        tree: Option<Box<dyn ValueTree<Value = Value>>>,
        value: Value,
        (kind, rule): (FailureKind, Option<CheckId>),
        outcome: String,
    ) -> PropertyFailure {
        let original = (value.clone(), outcome.clone());
        let same = |o: &Outcome| o.failed().is_some_and(|(k, ..)| k == kind);
        // Every stalled candidate waits out its wait: shrink those in fewer steps, each
        // waiting a multiple of the tool's measured latency (it answers other inputs
        // promptly), not the timeout. The confirmation below uses the full timeout again.
        let stall = kind == FailureKind::Stall;
        let wanted = match kind {
            FailureKind::Stall => self.config.max_shrink.min(STALL_STEPS),
            k if k.is_policy_warning() => self.config.max_shrink.min(POLICY_STEPS),
            _ => self.config.max_shrink,
        };
        let max_steps = wanted.min(env.shrink_budget.steps_left);
        let (best, mut steps, reused) = self
            .shrink_candidates(env, probe, tree, (value, outcome), max_steps, kind)
            .await;
        let timed_out = env.shrink_budget.past_deadline();
        env.shrink_budget.steps_left = env.shrink_budget.steps_left.saturating_sub(steps);
        let mut shrink_cut = (steps >= max_steps && max_steps < wanted || timed_out).then(|| {
            env.shrink_budget.cut += 1;
            match timed_out {
                true => format!("shrinking stopped after {steps} step(s): --time-budget spent"),
                false => format!(
                    "shrinking stopped after {steps} step(s): the revision's budget of \
                     {SHRINK_STEPS_PER_REVISION} shrink steps was spent"
                ),
            }
        });
        // A candidate's stalled call parked meanwhile belongs to no case of the walk.
        if let Some(mut parked) = env.parked.take() {
            parked.session.kill().await;
        }
        // Confirm the minimal case in a fresh process with the full timeout (no late-answer
        // window: the case that started the shrink had it), recording a clean transcript;
        // the outcome reported is the confirmation's. A stall shrunk with short waits may
        // have reached an input that is merely slow, and any shrink one that fails only
        // after what came before it: then the original input is confirmed instead.
        let (mut input, mut outcome) = best;
        env.warm_next = stall;
        // A stall's confirmation waits out its timeout, the machine idle: the revisions
        // after this one open the process to try the case in meanwhile (`carry.rs`).
        if let (Some((carry, order)), true) = (self.carry, stall) {
            carry.confirming(order, label);
        }
        let (mut reproduced, mut transcript, mut confirmed) =
            self.confirm(env, probe, &input, &same).await;
        if reused && !reproduced && input != original.0 {
            // Candidates tried beside stalled ones may have stalled only for them (a
            // server that runs a tool's calls one at a time): shrink again, each stalled
            // candidate in a process of its own.
            let left = wanted.min(env.shrink_budget.steps_left);
            env.shrink_timeout = Some(env.step_wait(probe_tool(probe)));
            let (again, more) = self
                .shrink_value(
                    env,
                    probe,
                    original.0.clone(),
                    original.1.clone(),
                    left,
                    kind,
                )
                .await;
            env.shrink_timeout = None;
            env.shrink_budget.steps_left = env.shrink_budget.steps_left.saturating_sub(more);
            steps = more;
            (input, outcome) = again;
            env.warm_next = true;
            (reproduced, transcript, confirmed) = self.confirm(env, probe, &input, &same).await;
        }
        if !reproduced && input != original.0 {
            let (again, again_transcript, again_confirmed) =
                self.confirm(env, probe, &original.0, &same).await;
            // Reproduced or not, the input reported is then the one the walk found, with
            // its own confirmation: a shrink whose candidates failed only for what came
            // before them (a rate limit, load, state) reached nothing smaller that fails
            // alone.
            (input, steps, shrink_cut) = (original.0, 0, None);
            (reproduced, transcript) = (again, again_transcript);
            outcome = match again_confirmed.filter(|_| again) {
                Some((text, _)) => text,
                None => original.1,
            };
        } else if let Some((text, _)) = confirmed.filter(|_| reproduced) {
            outcome = text;
        }
        let mut failure = self.failure_of(
            probe,
            label,
            (kind, rule),
            Confirmed {
                input,
                outcome,
                steps,
                transcript,
                reproduced,
            },
        );
        failure.shrink_cut = shrink_cut;
        failure
    }

    /// Shrinks a failing case (`best` so far), a stall on one process while its server
    /// still answers beside the stalled calls, its confirmation's process started
    /// meanwhile (`env.spare`): the smallest failing input with what it said, the
    /// candidates evaluated, and whether stalled candidates shared a process.
    async fn shrink_candidates(
        &self,
        env: &mut Env<'_>,
        probe: &Probe,
        tree: Option<Box<dyn ValueTree<Value = Value>>>,
        (value, outcome): (Value, String),
        max_steps: u32,
        kind: FailureKind,
    ) -> ((Value, String), u32, bool) {
        let stall = kind == FailureKind::Stall;
        let same = |o: &Outcome| o.failed().is_some_and(|(k, ..)| k == kind);
        if stall {
            env.shrink_timeout = Some(env.step_wait(probe_tool(probe)));
        }
        // A stalled candidate leaves its process to the next candidate when the server
        // still answers (`Env::keep_stalled`); the tree's steps keep a process each.
        env.keep_stalled = stall && tree.is_none();
        env.stalls_kept = 0;
        // A stall's confirmation waits its full timeout in a fresh process: that process
        // starts beside the shrink.
        let (command, config, revision) = (env.command, env.config, env.revision);
        let spare = async move {
            match stall {
                true => open_fresh(command, config, revision).await,
                false => None,
            }
        };
        // A tree is kept only for arguments that break a rule the validator cannot name
        // (`run.rs`, `PropertyRun::case`): the tree keeps that rule broken.
        let shrunk = async {
            match tree {
                Some(tree) => {
                    let best = (value, outcome);
                    Self::shrink_tree(env, probe, tree, best, max_steps, &same).await
                }
                None => {
                    self.shrink_value(env, probe, value, outcome, max_steps, kind)
                        .await
                }
            }
        };
        let ((best, steps), spare) = tokio::join!(shrunk, spare);
        // One spare is enough: one opened before (while a revision before this one
        // confirmed a stall, `run.rs`) is kept.
        match (&env.spare, spare) {
            (None, spare) => env.spare = spare,
            (Some(_), Some(mut extra)) => extra.kill().await,
            (Some(_), None) => {}
        }
        env.keep_stalled = false;
        let reused = std::mem::take(&mut env.stalls_kept) > 0;
        env.drop_stalled().await;
        env.shrink_timeout = None;
        (best, steps, reused)
    }

    /// The failure a confirmed minimal case makes: what it was, its evidence, its case file.
    pub(super) fn failure_of(
        &self,
        probe: &Probe,
        label: &str,
        (kind, rule): (FailureKind, Option<CheckId>),
        confirmed: Confirmed,
    ) -> PropertyFailure {
        let Confirmed {
            input,
            outcome,
            steps,
            transcript,
            reproduced,
        } = confirmed;
        let check = kind.reported_by();
        let description = match probe {
            Probe::ValidCall { .. } => format!("{label}: arguments valid for the inputSchema"),
            Probe::InvalidCall { rule, .. } => {
                format!("{label}: arguments breaking one rule ({rule})")
            }
            _ => label.to_string(),
        };
        let mut messages = era::case_opening(self.revision);
        messages.extend(
            case_messages(self.revision, probe, &input, case_id(0))
                .into_iter()
                .map(|send| CaseMessage::message(send, false)),
        );
        messages.push(CaseMessage::message(
            self.case_line(era::liveness_request(self.revision, json!("after-case"))),
            false,
        ));
        PropertyFailure {
            check,
            rule,
            kind,
            description: description.clone(),
            input,
            outcome,
            shrink_steps: steps,
            shrink_cut: None,
            transcript,
            reproduced,
            same_as: None,
            case: CaseFile {
                // A result judged against the tool's outputSchema is judged so again on
                // replay (without it, replay could only say a result came back).
                output_schema: match probe {
                    Probe::ValidCall { tool } if kind == FailureKind::InvalidResult => {
                        tool.get("outputSchema").cloned()
                    }
                    _ => None,
                },
                ..self.case_file(check, kind, description, messages)
            },
            case_path: None,
        }
    }

    /// The one shrinker (`generate::shrink`) on a value: every candidate valid for the
    /// tool's inputSchema when the case was (a "valid" case stays valid), and kept when it
    /// fails with the same kind. Returns the smallest failing value, what its failure
    /// said, and the candidates evaluated.
    async fn shrink_value(
        &self,
        env: &mut Env<'_>,
        probe: &Probe,
        value: Value,
        outcome: String,
        max_steps: u32,
        kind: FailureKind,
    ) -> ((Value, String), u32) {
        // A valid case stays valid: by the server's validator and surely (`generate`'s
        // judge, which also asks what formats and patterns want).
        let schema = match probe {
            Probe::ValidCall { tool } => Some(&tool["inputSchema"]),
            _ => None,
        };
        let dialect = schema.map(|s| self.dialect_of(s));
        // Compiled before the candidates (the shrink's oracle borrows `env`), only the one
        // the probe needs: valid arguments stay valid, invalid ones break the same rules.
        let compiled =
            |which| probe_tool_def(probe).and_then(|t| env.validators.get(t, which, self.revision));
        let (plain, strict) = match probe {
            Probe::ValidCall { .. } => (compiled(Which::Input), None),
            Probe::InvalidCall { .. } => (None, compiled(Which::InputFormats)),
            _ => (None, None),
        };
        // Arguments that break one rule keep breaking that rule, and only it.
        let broken = match probe {
            Probe::InvalidCall { .. } => strict.as_deref().and_then(|v| broken_by(v, &value)),
            _ => None,
        };
        let valid = |candidate: &Value| match (probe, schema, dialect) {
            (Probe::ValidCall { .. }, Some(schema), Some(dialect)) => {
                plain.as_deref().is_some_and(|v| v.is_valid(candidate))
                    && surely_valid(schema, dialect, candidate)
            }
            (Probe::InvalidCall { .. }, ..) => {
                broken.is_some()
                    && strict.as_deref().and_then(|v| broken_by(v, candidate)) == broken
            }
            _ => true,
        };
        let mut said = outcome;
        let mut ran = 0;
        let shrunk = shrink(value, max_steps, &valid, async |candidate: &Value| {
            // Past the --time-budget no candidate is run (each is taken as passing).
            if env.shrink_budget.past_deadline() {
                return false;
            }
            ran += 1;
            let o = env.evaluate(probe, candidate).await;
            match o.failed() {
                Some((k, text, _)) if k == kind => {
                    said = text.to_string();
                    true
                }
                _ => false,
            }
        })
        .await;
        ((shrunk.value, said), ran.min(shrunk.steps))
    }

    /// The rules of the tool's inputSchema `value` breaks (`format`s included: a server
    /// may assert them), as [`broken_by`]; `None` too when the schema does not compile.
    pub(super) fn rules_broken(
        &self,
        env: &Env<'_>,
        tool: &Value,
        value: &Value,
    ) -> Option<Vec<(String, String)>> {
        let validator = env
            .validators
            .get(tool, Which::InputFormats, self.revision)?;
        broken_by(&validator, value)
    }

    /// proptest's value tree, for arguments that break one rule of a schema this
    /// harness's validator cannot compile (the tree keeps the broken rule broken).
    async fn shrink_tree(
        env: &mut Env<'_>,
        probe: &Probe,
        mut tree: Box<dyn ValueTree<Value = Value>>,
        mut best: (Value, String),
        max_steps: u32,
        same: &impl Fn(&Outcome) -> bool,
    ) -> ((Value, String), u32) {
        let mut steps = 0;
        if tree.simplify() {
            while steps < max_steps && !env.shrink_budget.past_deadline() {
                steps += 1;
                let candidate = tree.current();
                let o = env.evaluate(probe, &candidate).await;
                if same(&o) {
                    if let Some((_, text, _)) = o.failed() {
                        best = (candidate, text.to_string());
                    }
                    if !tree.simplify() {
                        break;
                    }
                } else if !tree.complicate() {
                    break;
                }
            }
        }
        (best, steps)
    }

    /// Runs `input` once in a fresh process with the full timeout (the shrink's wait when
    /// one is set): whether it failed the same way, the transcript, and what the failure
    /// said (and the rule it broke).
    pub(super) async fn confirm(
        &self,
        env: &mut Env<'_>,
        probe: &Probe,
        input: &Value,
        same: &impl Fn(&Outcome) -> bool,
    ) -> (bool, Transcript, Option<(String, Option<CheckId>)>) {
        let warm = std::mem::take(&mut env.warm_next) && env.session.is_none();
        let Some(mut session) = env.fresh_for_confirmation().await else {
            return (false, Transcript::default(), None);
        };
        if let Some(wait) = env.shrink_timeout {
            session.set_timeout(wait);
        }
        env.await_late = false;
        // A stall waits out its timeout: the process for what comes next (the
        // sequences: the argument cases stop after a stall) opens meanwhile.
        let (command, config, revision) = (env.command, env.config, env.revision);
        let next = async move {
            match warm {
                true => open_fresh(command, config, revision).await,
                false => None,
            }
        };
        let (o, next) = tokio::join!(
            env.evaluate_on(&mut session, probe, input, case_id(0)),
            next
        );
        if let Some(next) = next {
            env.install(next);
        }
        env.await_late = true;
        session.kill().await;
        let said = o.failed().map(|(_, text, rule)| (text.to_string(), rule));
        (same(&o), session.transcript().clone(), said)
    }
}

/// The rules `value` breaks: where in the value and which keyword of the schema (for
/// `required`, which property: one `required` names many, and a case that left out one
/// must not shrink to one that leaves out all), sorted; `None` when it breaks none.
fn broken_by(validator: &Validator, value: &Value) -> Option<Vec<(String, String)>> {
    let mut broken: Vec<(String, String)> = validator
        .iter_errors(value)
        .map(|e| {
            let mut keyword = e.schema_path().to_string();
            if let ValidationErrorKind::Required { property } = e.kind() {
                keyword = format!("{keyword} {property}");
            }
            (e.instance_path().to_string(), keyword)
        })
        .collect();
    broken.sort();
    broken.dedup();
    (!broken.is_empty()).then_some(broken)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn leaving_out_another_required_property_breaks_another_rule() {
        let schema =
            json!({"type": "object", "required": ["a", "b"], "properties": {"n": {"maximum": 3}}});
        let validator = jsonschema::validator_for(&schema).unwrap();
        let one = broken_by(&validator, &json!({"b": 1, "n": 9})).unwrap();
        assert_eq!(
            broken_by(&validator, &json!({"b": 2, "n": 5})),
            Some(one.clone())
        );
        assert_ne!(broken_by(&validator, &json!({"n": 9})), Some(one));
        assert_eq!(broken_by(&validator, &json!({"a": 1, "b": 1})), None);
    }
}
