//! The property phase's entry: [`PropertyRun`] walks the planned properties (`plan.rs`:
//! ids, methods, cursors, then valid and invalid arguments per callable tool) case by case.
//!
//! A case that fails is shrunk (`shrink.rs`); a tool that outlasts the timeout, answers
//! slowly, crashes or stalls the server gets no more cases, so one slow tool cannot eat
//! the run. A crash or stall that a fresh process shows on a plain ping too does not
//! depend on the input: it stops the phase, once, and is never shrunk.

use std::cell::Cell;
use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use serde_json::Value;

use super::carry::{Carried, Carry};
use super::env::{
    fatal_kind, open_fresh, probe_checks, probe_tool, Env, Outcome, Probe, ShrinkBudget,
};
use super::plan::{Item, PlanCache, TOOL_CASE_BUDGET};
use super::shrink::{Confirmed, Shrinking, AHEAD_OUTCOME};
use super::validators::Which;
use crate::generate::Interrupt;
use crate::protocol::{Exchange, Revision, SchemaSet, Session, SessionConfig, Silence};
use crate::records::{
    CaseFile, CaseMessage, InputIndependent, PropertyFailure, PropertyRecord, Repeat, SlowCall,
};
use crate::rules::CheckId;
use crate::rules::FailureKind;
use crate::scenarios::early::{Early, Pace};
use crate::scenarios::era;
use crate::scenarios::policy::CallPolicy;
use crate::scenarios::progress::{self, Phase};
use crate::scenarios::slot;
use crate::transport::ServerCommand;

/// Cases per property in the first pass (every property gets them before any gets more).
const FIRST_PASS: u32 = 2;
/// Most time spent generating one tool's arguments (drawing values, not sending them)
/// before its remaining cases are dropped. The generators' size budget keeps each value
/// small; this bounds the sum over many cases of a costly schema.
const MAX_GENERATION_TIME: Duration = Duration::from_secs(10);

/// Budget of the property phase.
#[derive(Debug, Clone)]
pub struct PropertyConfig {
    /// Generated cases per property (per tool for argument properties).
    pub cases: u32,
    /// Most shrink steps per failure.
    pub max_shrink: u32,
    /// Stop starting new cases after this long (per revision). Reports then say so; a
    /// budget cut makes two runs differ, so the default is none.
    pub time_budget: Option<Duration>,
    /// Generated tool calls per revision, shared by all tools ([`TOOL_CASE_BUDGET`]).
    pub tool_case_budget: u32,
    /// Raised when the run is interrupted (the binary's signal handlers): a strategy
    /// build holding the runtime's thread gives up at once, so the signal is heeded.
    pub interrupt: Interrupt,
    /// Whether a slow tool gets its generated cases all the same (the binary sets it when
    /// `--cases` asks for more than its default): by default a slow tool costs its
    /// latency once, one timed call per revision, and gets no cases, or no more once a
    /// case answered slowly.
    pub slow_tools_too: bool,
}

impl Default for PropertyConfig {
    fn default() -> Self {
        Self {
            cases: 32,
            max_shrink: 64,
            time_budget: None,
            tool_case_budget: TOOL_CASE_BUDGET,
            interrupt: Interrupt::default(),
            slow_tools_too: false,
        }
    }
}

/// What a case tells the walk to do next.
enum Flow {
    /// Draw the property's next case.
    Next,
    /// The property has no more cases to run.
    SkipItem,
    /// Stop the phase's generated cases, for this reason.
    Stop(String),
}

/// What the walk keeps across properties.
#[derive(Default)]
struct Walk {
    /// Tools that get no more cases (slow, crashed, stalled, costly to generate for).
    done_tools: Vec<String>,
    /// Properties of no tool (ids, methods, cursors) that crashed or stalled the server:
    /// they get no more cases either (one minimal case says it).
    done_labels: Vec<String>,
    /// Time spent drawing each tool's values.
    generation: Vec<(String, Duration)>,
    /// Tools whose last case answered slowly (see [`Outcome::Lagged`]).
    lagging: Vec<String>,
    /// Tools whose scripted call was not prompt, and whether they get no generated cases
    /// for it.
    paced: Vec<(String, bool)>,
}

impl Walk {
    fn generation_time(&self, tool: &str) -> Duration {
        self.generation
            .iter()
            .find(|(t, _)| t == tool)
            .map_or(Duration::ZERO, |(_, d)| *d)
    }

    fn add_generation_time(&mut self, tool: &str, spent: Duration) {
        match self.generation.iter_mut().find(|(t, _)| t == tool) {
            Some((_, d)) => *d += spent,
            None => self.generation.push((tool.to_string(), spent)),
        }
    }
}

/// The note for a time budget cut: what was not run, and whether every property had its
/// first cases.
fn budget_cut(items: &[Item], pass: u32, at: &str) -> String {
    let rest: u32 = items.iter().map(Item::left).sum();
    let untouched: Vec<&str> = items
        .iter()
        .filter(|i| i.done == 0 && i.n > 0)
        .map(|i| i.label.as_str())
        .collect();
    let first = if pass == 0 && !untouched.is_empty() {
        let shown: Vec<&str> = untouched.iter().take(5).copied().collect();
        let more = untouched.len() - shown.len();
        format!(
            "; {} propert(ies) got no case at all: {}{}",
            untouched.len(),
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        )
    } else {
        format!("; every property had its first {FIRST_PASS} case(s)")
    };
    format!("time budget exhausted before {at}: {rest} generated case(s) not run{first}")
}

/// Everything the property phase needs to know.
pub struct PropertyRun<'a> {
    /// The server.
    pub command: &'a ServerCommand,
    /// Timeouts.
    pub session: &'a SessionConfig,
    /// The negotiated revision.
    pub revision: &'static Revision,
    /// Its schemas.
    pub schemas: &'a SchemaSet,
    /// Tools listed by the scripted walk.
    pub pages: &'a [Exchange],
    /// Whether the server declares tools and its listing worked (cursor and tool probes).
    pub tools: bool,
    /// Which tools may be called.
    pub policy: &'a CallPolicy,
    /// The run's seed.
    pub seed: u64,
    /// Budget.
    pub config: &'a PropertyConfig,
    /// Where the revision's scripted conversation tells each tool's pace, when this phase
    /// runs beside it (`early.rs`): a tool whose scripted call was slow or outlasted the
    /// timeout gets no generated cases (a slow tool costs its latency once, in the
    /// scripted phase, where it is reported). `None`: every tool's cases run.
    pub early: Option<&'a Early>,
    /// Strategies other revisions of the run built, when they are shared.
    pub plans: Option<&'a PlanCache>,
    /// The minimal cases earlier revisions of the run found, and this revision's place in
    /// the run's order: each property tries them first (`carry.rs`).
    pub carry: Option<(&'a Carry, usize)>,
}

impl PropertyRun<'_> {
    /// Runs every property and sequence probe.
    ///
    /// Under a time budget, two passes: first each property's first [`FIRST_PASS`]
    /// case(s), then the rest, so that a cut still leaves every tool with its first cases
    /// (the values do not depend on the order: each property draws from its own seeded
    /// runner). Without one, each property runs all its cases in turn, in plan order.
    pub async fn run(&self) -> PropertyRecord {
        self.run_on(None).await
    }

    /// [`PropertyRun::run`], starting on `opened` (a session of the server already
    /// opened for this revision, every request on it answered) instead of a fresh
    /// process.
    pub async fn run_on(&self, opened: Option<Session>) -> PropertyRecord {
        let started = Instant::now();
        let mut record = PropertyRecord::default();
        let mut env = Env::new(self.command, self.session, self.revision, self.schemas);
        env.session = opened;
        env.shrink_budget = ShrinkBudget::new(self.config.time_budget.map(|b| started + b));
        let mut items = self.plan(&mut record).await;
        progress::enter(Phase::Property);
        let total: u64 = items.iter().map(|i| u64::from(i.n)).sum();
        let report = |items: &[Item]| {
            let done: u64 = items.iter().map(|i| u64::from(i.done)).sum();
            progress::cases(done, total);
        };
        report(&items);
        let mut walk = Walk::default();
        'passes: for pass in 0..2u32 {
            for at in 0..items.len() {
                let first = match self.config.time_budget {
                    Some(_) => FIRST_PASS,
                    None => u32::MAX,
                };
                let upto = if pass == 0 {
                    items[at].n.min(first)
                } else {
                    items[at].n
                };
                // A tool whose scripted call was slow gets no case, carried or generated.
                // A carried finding is the property's: it has no cases left, and the
                // revisions after hear at once that this one is done with it (below), not
                // when the walk ends.
                if pass == 0 && !self.paced_out(&mut items[at], &mut record, &mut walk).await {
                    let carried = self
                        .carried(&mut env, &mut items[at], &mut record, &mut walk)
                        .await;
                    if let Some(Flow::Stop(why)) = carried {
                        self.stop(&items, &mut record, why);
                        break 'passes;
                    }
                }
                while items[at].done < upto {
                    if self
                        .config
                        .time_budget
                        .is_some_and(|b| started.elapsed() > b)
                    {
                        let why = budget_cut(&items, pass, &items[at].label);
                        record.cut.push(why.clone());
                        record.notes.push(why);
                        break 'passes;
                    }
                    // A revision waiting to go on after a lent wait gets a turn between
                    // cases (`slot`).
                    slot::take_turn().await;
                    let flow = self
                        .case(&mut env, &mut items[at], &mut record, &mut walk)
                        .await;
                    report(&items);
                    match flow {
                        Flow::Next => {}
                        Flow::SkipItem => break,
                        Flow::Stop(why) => {
                            self.stop(&items, &mut record, why);
                            break 'passes;
                        }
                    }
                }
                // The next property is most often another tool's: hold no compiled schema
                // across properties.
                env.validators.clear();
                if items[at].left() == 0 {
                    self.carry_done(&items[at].label);
                }
            }
        }
        self.last_answer_survived(&mut env, &mut record).await;
        if let Some(note) = env.shrink_budget.note() {
            record.cut.push(note.clone());
            record.notes.push(note);
        }
        if let Some((carry, order)) = self.carry {
            carry.ended(order);
        }
        record.tool_errors = std::mem::take(&mut env.tool_errors);
        if let Some(mut parked) = env.parked.take() {
            parked.session.kill().await;
        }
        if let Some(mut spare) = env.spare.take() {
            spare.kill().await;
        }
        match &record.input_independent {
            // Each sequence would start a process that fails the same way.
            Some(_) => record.notes.push(
                "the pipelining and cancellation sequences were not sent: the server fails whatever it is sent".into(),
            ),
            None => {
                progress::enter(Phase::Sequences);
                self.sequences(&mut env, &mut record).await;
            }
        }
        if let Some(s) = env.session.as_mut() {
            s.kill().await;
        }
        record
    }

    /// Whether `item`'s tool gets no generated cases because its scripted call was slow
    /// (told by the scripted conversation, waited for if not yet: `early.rs`); the first
    /// of its properties says so in a note. The item is then done. A slow tool keeps its
    /// cases when the run asks for them ([`PropertyConfig::slow_tools_too`]); a note says
    /// so too.
    async fn paced_out(
        &self,
        item: &mut Item,
        record: &mut PropertyRecord,
        walk: &mut Walk,
    ) -> bool {
        let (Some(early), Some(tool)) = (self.early, probe_tool(&item.probe)) else {
            return false;
        };
        let out = match walk.paced.iter().find(|(t, _)| t == tool) {
            Some((_, out)) => *out,
            None => {
                // The scripted call it waits on sleeps: the slot is lent meanwhile.
                let pace = slot::lend_while(|| Some(true), early.pace(tool)).await;
                let out = match pace {
                    Pace::Prompt => false,
                    Pace::Slow => !self.config.slow_tools_too,
                    Pace::TimedOut => true,
                };
                if pace != Pace::Prompt {
                    let note = self.pace_note(pace, out);
                    record.notes.push(format!("tool {tool:?}: {note}"));
                }
                walk.paced.push((tool.to_string(), out));
                out
            }
        };
        if out {
            item.done = item.n;
        }
        out
    }

    /// What the notes say of a tool whose scripted call showed `pace` (not prompt), and
    /// whose generated cases are left `out` or not.
    fn pace_note(&self, pace: Pace, out: bool) -> String {
        let slow = crate::scenarios::slow_answer(self.session.timeout).as_secs_f64();
        let why = match (pace, out) {
            (_, false) => {
                return format!(
                    "its scripted call was still unanswered after {slow:.1} s, and its generated cases run all the same (--cases asks for more than its default)"
                )
            }
            (Pace::TimedOut, true) => "outlasted the timeout".to_string(),
            (_, true) => format!(
                "was still unanswered after {slow:.1} s, its server asleep meanwhile (a timer or I/O of its own) or out of sight"
            ),
        };
        format!(
            "its scripted call {why}, so it gets no generated cases (a slow tool costs its latency once)"
        )
    }

    /// Draws and runs one case of `item`.
    async fn case(
        &self,
        env: &mut Env<'_>,
        item: &mut Item,
        record: &mut PropertyRecord,
        walk: &mut Walk,
    ) -> Flow {
        let mut turn = Turn::new(item, record, walk);
        if let Some(flow) = turn.retired() {
            return flow;
        }
        let Some(mut drawn) = turn.draw().await else {
            return Flow::SkipItem;
        };
        // A failure shrinks along proptest's tree only for arguments that break a rule the
        // validator cannot name (`shrink.rs`); any other case lets the tree go at once.
        let walks_tree = match &turn.item.probe {
            Probe::InvalidCall { tool, .. } => self.rules_broken(env, tool, &drawn.value).is_none(),
            _ => false,
        };
        if !walks_tree {
            drawn.tree = None;
        }
        if let Probe::ValidCall { tool } = &turn.item.probe {
            // Never send "valid" arguments that are not: the generator may be wrong.
            if !self.validates(env, tool, &drawn.value) {
                turn.record.notes.push(format!(
                    "{}: a generated instance did not validate; not sent",
                    turn.item.label
                ));
                return Flow::Next;
            }
        }
        for check in probe_checks(&turn.item.probe) {
            turn.record.count(*check);
        }
        let last = turn.item.left() == 0;
        let after = match drawn.tree {
            None => env.ahead_after(&turn.item.probe),
            Some(_) => None,
        };
        let Some(after) = after else {
            let outcome = env.explore(&turn.item.probe, &drawn.value, last).await;
            return self.judged(env, &mut turn, drawn, outcome, None).await;
        };
        // A call of a prompt tool that outlasts `after` may be a stall: its shrink runs
        // beside the call's wait, used only if the call's verdict is a stall.
        let mut ahead_env = env.ahead();
        let (probe, label) = (turn.item.probe.clone(), turn.item.label.clone());
        let value = drawn.value.clone();
        let started = Cell::new(false);
        let mut ahead: Shrinking<'_> =
            Box::pin(self.shrink_ahead(&mut ahead_env, (&probe, &label), value, after, &started));
        let outcome = {
            let explored = env.explore(&turn.item.probe, &drawn.value, last);
            tokio::pin!(explored);
            let mut shrunk = None;
            let outcome = loop {
                tokio::select! {
                    outcome = &mut explored => break outcome,
                    failure = &mut ahead, if shrunk.is_none() => shrunk = Some(failure),
                }
            };
            if let Some(failure) = shrunk {
                ahead = Box::pin(std::future::ready(failure));
            }
            outcome
        };
        let stalled = matches!(outcome, Outcome::Failed(FailureKind::Stall, _));
        if !stalled || env.parked.is_none() || !started.get() {
            drop(ahead);
            ahead_env.end().await;
            return self.judged(env, &mut turn, drawn, outcome, None).await;
        }
        let flow = self
            .judged(env, &mut turn, drawn, outcome, Some(ahead))
            .await;
        env.absorb(ahead_env).await;
        flow
    }

    /// What the walk makes of a case's outcome; `ahead`, a shrink of the case run beside
    /// its wait, when the outcome is a stall of a call left parked.
    async fn judged(
        &self,
        env: &mut Env<'_>,
        turn: &mut Turn<'_>,
        drawn: Drawn,
        outcome: Outcome,
        ahead: Option<Shrinking<'_>>,
    ) -> Flow {
        if turn.first_lag(&outcome) {
            return Flow::Next;
        }
        match outcome {
            Outcome::Ok => Flow::Next,
            Outcome::Lagged(..) if self.config.slow_tools_too => Flow::Next,
            Outcome::Lagged(took, asleep) => self.lagged(turn, &drawn.value, took, asleep),
            Outcome::Slow(answered_after) => {
                // A slow tool costs its latency once: its other cases are not run.
                turn.retire_slow(drawn.value, answered_after, self.session.timeout)
            }
            failed @ (Outcome::Failed(..) | Outcome::Broke(_)) => {
                self.failed(env, turn, drawn, &failed, ahead).await
            }
        }
    }

    /// A case answered in time, but slowly while the server slept on it, or slowly twice
    /// in a row: the tool's other cases would each cost as much, so it costs its latency
    /// once (or once more), not every time.
    fn lagged(&self, turn: &mut Turn<'_>, value: &Value, took: Duration, asleep: bool) -> Flow {
        if let Some(t) = turn.tool.take() {
            let (answered, why, cost) = match asleep {
                true => (
                    "a case",
                    ", its server asleep meanwhile (waiting on a timer or I/O of its own)",
                    "once",
                ),
                false => ("two cases in a row slowly, the second", "", "twice"),
            };
            turn.record.notes.push(format!(
                "tool {t:?} answered {answered} ({value}) only after {:.2} s (within --timeout {:.1} s){why}; its other generated cases were not run, so a slow tool costs its latency {cost}, not every time",
                took.as_secs_f64(),
                self.session.timeout.as_secs_f64()
            ));
            turn.walk.done_tools.push(t);
        }
        turn.skip_item()
    }

    /// A case that failed: blamed on the server when a fresh process fails a plain ping
    /// too, otherwise shrunk (beside a parked call's late answer, if one is pending).
    async fn failed(
        &self,
        env: &mut Env<'_>,
        turn: &mut Turn<'_>,
        drawn: Drawn,
        failed: &Outcome,
        ahead: Option<Shrinking<'_>>,
    ) -> Flow {
        let (kind, outcome, rule) = failed
            .failed()
            .map(|(k, t, r)| (k, t.to_string(), r))
            .expect("a failed outcome");
        let fatal = matches!(kind, FailureKind::Crash | FailureKind::Stall);
        // The case was never sent when the server had ended after the case before.
        let sent = !std::mem::take(&mut env.unsent);
        let parked = env.parked.take();
        let Drawn { value: drawn, tree } = drawn;
        let suspect = env.suspect.take();
        if fatal && parked.is_none() {
            if let Some(flow) = turn.blame_server(env, &drawn, &outcome).await {
                return flow;
            }
            if let Some(previous) = suspect {
                let current = sent.then_some((&turn.item.probe, &drawn));
                if let Some((probe, failure)) = self
                    .previous_to_blame(env, previous, current, kind, &outcome)
                    .await
                {
                    self.keep_carried(env, &probe, &failure, kind);
                    // The current property's own case passed, or was never sent: it goes
                    // on (unless a stall stops the argument cases, or the property or its
                    // tool was the one retired).
                    return turn
                        .found(failure, kind, true, &probe)
                        .unwrap_or(Flow::Next);
                }
            }
        }
        let probe = &turn.item.probe;
        let label = turn.item.label.as_str();
        if !fatal && turn.record.shrunk_enough(kind.reported_by(), kind) {
            turn.record.repeats.push(Repeat {
                check: kind.reported_by(),
                kind,
                label: label.to_string(),
                input: drawn,
                outcome,
            });
            return turn.skip_item();
        }
        let value = drawn.clone();
        let (failure, late) = match (parked, ahead) {
            (None, _) => {
                let failure = self
                    .shrink(env, probe, label, tree, value, (kind, rule), outcome)
                    .await;
                (Some(failure), None)
            }
            (Some(parked), Some(ahead)) => {
                let (failure, late) = self.shrink_beside(parked, ahead).await;
                let failure = failure.map(|mut f| {
                    f.outcome = f.outcome.replacen(AHEAD_OUTCOME, &outcome, 1);
                    f
                });
                (failure, late)
            }
            (Some(parked), None) => {
                let shrink = self.shrink(env, probe, label, tree, value, (kind, rule), outcome);
                let shrunk = self.shrink_beside(parked, Box::pin(shrink)).await;
                env.after_shrink().await;
                shrunk
            }
        };
        match failure {
            Some(failure) => {
                self.keep_carried(env, probe, &failure, kind);
                turn.failure_found(failure, kind, fatal)
            }
            // The parked call's answer came late: slow, not stalled.
            None => turn.retire_slow(drawn, late, self.session.timeout),
        }
    }

    /// A crash or stall met right after a case answered with no liveness request after
    /// it (`previous`): `None` (the failure stays `current`'s) when `current` alone in a
    /// fresh process fails so; otherwise `previous`'s: shrunk when it fails alone (followed
    /// by a liveness request), else recorded as not reproduced, with `seen`, what the walk
    /// saw. `current` is `None` when it was never sent (the server ended before it went)
    /// or there is none (the walk ended). Whether the next case went out before the exit
    /// was seen is timing: the finding must not depend on it, so a current case that
    /// passes alone and one never sent lead to the same report.
    async fn previous_to_blame(
        &self,
        env: &mut Env<'_>,
        (probe, value): (Probe, Value),
        current: Option<(&Probe, &Value)>,
        kind: FailureKind,
        seen: &str,
    ) -> Option<(Probe, PropertyFailure)> {
        let same = |o: &Outcome| o.failed().is_some_and(|(k, ..)| k == kind);
        if let Some((current, input)) = current {
            if self.confirm(env, current, input, &same).await.0 {
                return None;
            }
        }
        let (reproduced, transcript, said) = self.confirm(env, &probe, &value, &same).await;
        let label = probe.label();
        if let Some((outcome, rule)) = said.filter(|_| reproduced) {
            let failure = self
                .shrink(env, &probe, &label, None, value, (kind, rule), outcome)
                .await;
            return Some((probe, failure));
        }
        let confirmed = Confirmed {
            input: value,
            outcome: seen.to_string(),
            steps: 0,
            transcript,
            reproduced: false,
        };
        let failure = self.failure_of(&probe, &label, (kind, None), confirmed);
        Some((probe, failure))
    }

    /// The walk's last case, answered with no liveness request after it, gets one now: a
    /// crash or stall after that answer is that case's finding (confirmed alone, shrunk;
    /// recorded as not reproduced when it does not fail alone), unless a fresh process
    /// fails a plain liveness request too (then no input is to blame).
    async fn last_answer_survived(&self, env: &mut Env<'_>, record: &mut PropertyRecord) {
        let Some(last) = env.take_unprobed() else {
            return;
        };
        let Some(session) = env.session.as_mut() else {
            return;
        };
        let silence = match session.liveness().await.unanswered().cloned() {
            // The machine kept the harness from judging: no verdict on the server.
            None | Some(Silence::Starved { .. }) => return,
            Some(s) => s,
        };
        let kind = fatal_kind(&silence);
        let seen = format!(
            "{} after the case got no response: {}",
            session.liveness_method(),
            silence.describe()
        );
        if let Some(mut gone) = env.session.take() {
            gone.kill().await;
        }
        if let Some((what, transcript)) = env.input_independent().await {
            record.input_independent = Some(InputIndependent {
                first_seen: format!("{}: {}, {seen}", last.0.label(), last.1),
                what,
                transcript,
            });
            return;
        }
        if let Some((probe, failure)) = self.previous_to_blame(env, last, None, kind, &seen).await {
            self.keep_carried(env, &probe, &failure, kind);
            record.failures.push(failure);
        }
    }

    /// Keeps a minimal case of `probe`'s property for the revisions after (`carry.rs`).
    fn keep_carried(
        &self,
        env: &Env<'_>,
        probe: &Probe,
        failure: &PropertyFailure,
        kind: FailureKind,
    ) {
        if let Some((carry, order)) = self.carry {
            carry.keep(Carried {
                order,
                label: probe.label(),
                kind,
                input: failure.input.clone(),
                revision: self.revision.id,
                latency: env.latency_of(probe_tool(probe)),
            });
        }
    }

    /// The argument cases stop: why, and how many were not run.
    fn stop(&self, items: &[Item], record: &mut PropertyRecord, why: String) {
        let rest: u32 = items.iter().map(Item::left).sum();
        let left = items.iter().filter(|i| i.left() > 0).count();
        let why = format!("{why}: {rest} generated case(s) of {left} propert(ies) not run");
        record.notes.push(why.clone());
        record.stopped = Some(why);
    }

    /// This revision is done with the property `label`: the next may try what it found.
    fn carry_done(&self, label: &str) {
        if let Some((carry, order)) = self.carry {
            carry.done(order, label);
        }
    }

    /// Tries first the minimal cases earlier revisions of the run found for `item`
    /// (`carry.rs`), once the revision before this one is done with it: `Some` when one
    /// failed the same way here, which is the property's finding.
    async fn carried(
        &self,
        env: &mut Env<'_>,
        item: &mut Item,
        record: &mut PropertyRecord,
        walk: &mut Walk,
    ) -> Option<Flow> {
        let (carry, order) = self.carry?;
        if item.done > 0 || item.n == 0 {
            return None;
        }
        // Each case an earlier revision keeps is tried as soon as it is kept, in the order
        // found (the list only grows), until the revision before is done with the
        // property: the same tries, in the same order, as after waiting (`carry.rs`).
        let mut tried = 0;
        loop {
            let settled = carry.settled(order, &item.label);
            let cases = carry.cases_for(order, &item.label);
            for case in cases.into_iter().skip(tried) {
                tried += 1;
                if let Probe::ValidCall { tool } = &item.probe {
                    if !self.validates(env, tool, &case.input) {
                        continue;
                    }
                }
                if let Some(flow) = self.try_carried(env, item, record, walk, case).await {
                    return Some(flow);
                }
            }
            if settled {
                return None;
            }
            let coming = carry.coming(order, &item.label);
            let news = carry.news(order, &item.label, tried, coming);
            let waited = slot::lend_while(|| Some(true), news);
            // A case an earlier revision is confirming is tried in a fresh process:
            // opened while that confirmation waits, not once the case is kept.
            match coming && env.spare.is_none() {
                true => {
                    let (command, config, revision) = (env.command, env.config, env.revision);
                    let (_, spare) = tokio::join!(waited, open_fresh(command, config, revision));
                    env.spare = spare;
                }
                false => waited.await,
            }
        }
    }

    /// One call of a carried minimal case, in a fresh process (a stall waiting the
    /// tool's adaptive wait: the revision that found it confirmed it with the full
    /// timeout); the finding when it fails the same way.
    async fn try_carried(
        &self,
        env: &mut Env<'_>,
        item: &mut Item,
        record: &mut PropertyRecord,
        walk: &mut Walk,
        case: Carried,
    ) -> Option<Flow> {
        let same = |o: &Outcome| o.failed().is_some_and(|(k, ..)| k == case.kind);
        if let (Some(tool), Some(latency)) = (probe_tool(&item.probe), case.latency) {
            env.answered_in_time(tool, latency);
        }
        if case.kind == FailureKind::Stall {
            env.shrink_timeout = Some(env.step_wait(probe_tool(&item.probe)));
            env.warm_next = true;
        }
        let (reproduced, transcript, said) =
            self.confirm(env, &item.probe, &case.input, &same).await;
        env.shrink_timeout = None;
        for check in probe_checks(&item.probe) {
            record.count(*check);
        }
        item.done += 1;
        let (outcome, rule) = said.filter(|_| reproduced)?;
        let confirmed = Confirmed {
            input: case.input,
            outcome,
            steps: 0,
            transcript,
            reproduced,
        };
        let mut failure = self.failure_of(&item.probe, &item.label, (case.kind, rule), confirmed);
        failure.same_as = Some(case.revision);
        let fatal = matches!(case.kind, FailureKind::Crash | FailureKind::Stall);
        Some(Turn::new(item, record, walk).failure_found(failure, case.kind, fatal))
    }

    /// Whether `value` is valid for `tool`'s inputSchema (the last compiled is kept).
    pub(super) fn validates(&self, env: &Env<'_>, tool: &Value, value: &Value) -> bool {
        env.validators
            .get(tool, Which::Input, self.revision)
            .is_some_and(|v| v.is_valid(value))
    }
}

impl PropertyRun<'_> {
    /// `message` as this run's case files write it (a modern request with its `_meta`).
    pub(super) fn case_line(&self, message: Value) -> Value {
        era::case_line(self.revision, message)
    }

    /// The replayable file of a failing case found in this run.
    pub(super) fn case_file(
        &self,
        check: CheckId,
        kind: FailureKind,
        description: String,
        messages: Vec<CaseMessage>,
    ) -> CaseFile {
        let tool_headers = CaseFile::tool_headers_of(self.command, self.revision, &messages);
        CaseFile {
            mcp_conformance_case: 1,
            check: check.as_str().to_string(),
            revision: self.revision.id.to_string(),
            seed: self.seed,
            description,
            kind,
            command: self.command.clone(),
            messages,
            timeout_secs: None,
            output_schema: None,
            tool_headers,
        }
    }
}

/// One drawn case: its value and, for arguments that break a rule the validator cannot
/// name, the tree it shrinks along (`shrink.rs`). Other cases let the tree go as soon as
/// they are drawn: a 5,000-property object's is megabytes.
struct Drawn {
    value: Value,
    tree: Option<Box<dyn ValueTree<Value = Value>>>,
}

/// What one case works on: the property it is drawn from and what the walk keeps.
struct Turn<'t> {
    item: &'t mut Item,
    record: &'t mut PropertyRecord,
    walk: &'t mut Walk,
    /// The tool whose arguments the property draws, if it does.
    tool: Option<String>,
}

impl<'t> Turn<'t> {
    /// A turn of `item`, whose tool (if it draws a tool's arguments) it names.
    fn new(item: &'t mut Item, record: &'t mut PropertyRecord, walk: &'t mut Walk) -> Self {
        let tool = probe_tool(&item.probe).map(str::to_string);
        Turn {
            item,
            record,
            walk,
            tool,
        }
    }
    /// The property has no more cases to run: its tool is retired, or now over the
    /// generation bound.
    fn retired(&mut self) -> Option<Flow> {
        if self.walk.done_labels.contains(&self.item.label) {
            return Some(self.skip_item());
        }
        let t = self.tool.as_ref()?;
        if self.walk.done_tools.contains(t) {
            // A slow, crashing or stalling tool gets no more cases.
            if let Some(slow) = self.record.slow.iter_mut().find(|s| &s.tool == t) {
                slow.cases_not_run += self.item.left();
            }
            return Some(self.skip_item());
        }
        let spent = self.walk.generation_time(t);
        if spent > MAX_GENERATION_TIME {
            self.record.notes.push(format!(
                "tool {t:?}: generating its arguments took {:.1} s, over the {} s bound; its remaining {} case(s) of {} were not generated",
                spent.as_secs_f64(),
                MAX_GENERATION_TIME.as_secs(),
                self.item.left(),
                self.item.label
            ));
            self.walk.done_tools.push(t.clone());
            return Some(self.skip_item());
        }
        None
    }

    /// Draws the case's value, adding the time it took to its tool's generation time;
    /// `None` (and no more cases) when the strategy cannot draw.
    async fn draw(&mut self) -> Option<Drawn> {
        // Generation is bounded per value, but runs on the runtime's one thread: let the
        // signal handlers run between cases.
        tokio::task::yield_now().await;
        let drawing = Instant::now();
        self.item.done += 1;
        let Ok(tree) = self.item.strategy.new_tree(&mut self.item.runner) else {
            self.item.done = self.item.n;
            return None;
        };
        let value = tree.current();
        if let Some(t) = &self.tool {
            self.walk.add_generation_time(t, drawing.elapsed());
        }
        Some(Drawn {
            value,
            tree: Some(tree),
        })
    }

    /// Whether this is the tool's first slow answer in a row, which only counts once the
    /// next is slow too.
    fn first_lag(&mut self, outcome: &Outcome) -> bool {
        let Some(t) = &self.tool else {
            return false;
        };
        // A slow answer counts when the server was seen asleep on it, or when the
        // tool's next case is slow too: one scheduling stall of a loaded machine must
        // not cut a tool's cases (and move the report).
        let lagged = matches!(outcome, Outcome::Lagged(_, false));
        let before = self.walk.lagging.iter().position(|l| l == t);
        match (lagged, before) {
            (true, None) => {
                self.walk.lagging.push(t.clone());
                return true;
            }
            (false, Some(i)) => {
                self.walk.lagging.swap_remove(i);
            }
            _ => {}
        }
        false
    }

    /// Before blaming the input of a crash or stall, asks a fresh process a plain ping:
    /// a server that fails that too fails whatever it is sent, and the phase stops.
    async fn blame_server(
        &mut self,
        env: &mut Env<'_>,
        value: &Value,
        outcome: &str,
    ) -> Option<Flow> {
        let (what, transcript) = env.input_independent().await?;
        for check in probe_checks(&self.item.probe) {
            self.record.uncount(*check);
        }
        let first_seen = format!("{}: {value}, {outcome}", self.item.label);
        self.record.input_independent = Some(InputIndependent {
            first_seen,
            what: what.clone(),
            transcript,
        });
        Some(Flow::Stop(format!(
            "generated cases stopped: {what}, so no input is to blame"
        )))
    }

    /// Records a tool too slow to wait for again; its other cases are not run.
    fn retire_slow(
        &mut self,
        input: Value,
        answered_after: Option<Duration>,
        timeout: Duration,
    ) -> Flow {
        if let Some(t) = self.tool.take() {
            self.record.slow.push(SlowCall {
                tool: t.clone(),
                input,
                answered_after,
                timeout,
                cases_not_run: self.item.left(),
            });
            self.walk.done_tools.push(t);
        }
        self.skip_item()
    }

    /// Records a minimal failing case; a crash or stall retires its tool, and a stall
    /// stops the argument cases.
    fn failure_found(&mut self, failure: PropertyFailure, kind: FailureKind, fatal: bool) -> Flow {
        let probe = self.item.probe.clone();
        match self.found(failure, kind, fatal, &probe) {
            Some(stop) => stop,
            None => self.skip_item(),
        }
    }

    /// Records a minimal failing case of `probe`'s property (this one, or the case's
    /// before it); a crash or stall retires the property's tool, or the property itself
    /// when it has no tool. `Some` when the argument cases stop.
    fn found(
        &mut self,
        failure: PropertyFailure,
        kind: FailureKind,
        fatal: bool,
        probe: &Probe,
    ) -> Option<Flow> {
        self.record.failures.push(failure);
        if fatal {
            // One minimal crash or stall per tool (or property) says it; more would only
            // cost restarts and timeouts.
            match probe_tool(probe) {
                Some(t) => {
                    self.record.notes.push(format!(
                        "tool {t:?}: no more cases after it crashed or stalled the server"
                    ));
                    self.walk.done_tools.push(t.to_string());
                }
                None => self.walk.done_labels.push(probe.label()),
            }
        }
        // Each stall waits out the timeout: the argument cases stop here, and the
        // report says how many were not run.
        (kind == FailureKind::Stall)
            .then(|| Flow::Stop("argument cases stopped after the stall".into()))
    }

    /// The property gets no more cases.
    fn skip_item(&mut self) -> Flow {
        self.item.done = self.item.n;
        Flow::SkipItem
    }
}
