//! One case against the server: what a case is ([`Probe`]), its messages, and the
//! server's sessions ([`Env`]) that send it and judge what came back.
//!
//! A case that kills or stalls the server costs its session; `Env` restarts the server
//! for the next one. Whether the reply breaks a rule is asked of the rule book
//! ([`crate::rules`]), never restated here; this file only adds what a single
//! exchange cannot say (a crash, a stall, a tool that answered other inputs in time).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::validators::{Validators, Which};
use crate::protocol::{Exchange, Revision, SchemaSet, Session, SessionConfig, Silence, Transcript};
use crate::records::{ToolDef, ToolError, MAX_TOOL_ERRORS};
use crate::rules;
use crate::rules::CheckId;
use crate::rules::FailureKind;
use crate::scenarios::{era, slot, slow_answer};
use crate::transport::{group_asleep, ServerCommand};

/// What one case is.
#[derive(Debug, Clone)]
pub(super) enum Probe {
    // The tool definition, shared by its properties' cases (it may be megabytes).
    ValidCall { tool: ToolDef },
    InvalidCall { tool: ToolDef, rule: String },
    Id,
    Method,
    Cursor,
}

impl Probe {
    /// The property's label, as reports name it ("valid echo", "invalid echo /required").
    pub(super) fn label(&self) -> String {
        let name = |tool: &ToolDef| {
            tool.get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        match self {
            Probe::ValidCall { tool } => format!("valid {}", name(tool)),
            Probe::InvalidCall { tool, rule } => format!("invalid {} {rule}", name(tool)),
            Probe::Id => "ids".into(),
            Probe::Method => "methods".into(),
            Probe::Cursor => "cursors".into(),
        }
    }
}

/// The result of one case.
#[derive(Debug, Clone)]
pub(super) enum Outcome {
    Ok,
    /// A tool call that outlasted the timeout while the server still answered ping: slow,
    /// not broken. Holds how long the answer took when it came late (within the late
    /// window), `None` when it never came and the tool had answered nothing in time.
    Slow(Option<Duration>),
    Failed(FailureKind, String),
    /// A rule of the rule book was broken.
    Broke(rules::Breach),
    /// A tool call answered within the timeout, and well, but slowly (over
    /// [`slow_answer`]), and whether the server was seen asleep on it (the tool waited on a
    /// timer or I/O of its own: no scheduling stall of a loaded machine). Once asleep, or
    /// twice in a row, the tool's other cases are not waited out one by one.
    Lagged(Duration, bool),
}

impl Outcome {
    /// The failure's kind, description and the rule broken, if the case failed.
    pub(super) fn failed(&self) -> Option<(FailureKind, &str, Option<CheckId>)> {
        match self {
            Outcome::Ok | Outcome::Slow(_) | Outcome::Lagged(..) => None,
            Outcome::Failed(kind, text) => Some((*kind, text, None)),
            Outcome::Broke(b) => Some((b.kind, &b.message, Some(b.check))),
        }
    }
}

/// The shortest wait per shrink step, whatever the tool's measured latency: a ping and a
/// prompt answer fit in it many times over, even on a loaded machine.
const MIN_STEP_WAIT: Duration = Duration::from_millis(200);
/// A shrink step waits this many times the tool's slowest prompt answer (at least
/// [`MIN_STEP_WAIT`], at most the timeout).
const STEP_WAIT_FACTOR: u32 = 20;

/// How many times slower than the ping after it a slow tool answer must be to count as
/// the tool's own slowness.
const LAG_RATIO: u32 = 10;

/// A session whose tool call outlasted the timeout while the server still answered ping,
/// kept open so the call's late answer can still be told apart from a stall while the
/// failure is shrunk in other processes (one timeout, not two, before shrinking starts).
pub(super) struct Parked {
    pub(super) session: Session,
    pub(super) exchange: Exchange,
    pub(super) sent: Instant,
}

impl Parked {
    /// Waits up to `window` for the parked call's answer; how long after it was sent the
    /// answer came, if it did.
    pub(super) async fn late_answer(&mut self, window: Duration) -> Option<Duration> {
        let late = self.session.await_late(&self.exchange, window).await;
        late.map(|_| self.sent.elapsed())
    }
}

/// Shrink steps a revision's property phase may spend in all: a server whose every tool
/// fails the same way (thirty tools, each answering a network error) has each failure
/// shrunk until this is spent, and the rest reported as found. A count, not a time, so
/// that the same seed gives the same minimal cases.
pub(super) const SHRINK_STEPS_PER_REVISION: u32 = 256;

/// What a revision's shrinking may still spend: steps (deterministic), and time when
/// `--time-budget` is set (every phase stays inside it, shrinking included).
#[derive(Debug, Clone)]
pub(super) struct ShrinkBudget {
    pub(super) steps_left: u32,
    deadline: Option<Instant>,
    /// Failures whose shrinking a budget cut.
    pub(super) cut: u32,
}

impl ShrinkBudget {
    pub(super) fn new(deadline: Option<Instant>) -> Self {
        ShrinkBudget {
            steps_left: SHRINK_STEPS_PER_REVISION,
            deadline,
            cut: 0,
        }
    }

    pub(super) fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The note a run's record gets when budgets cut some shrinking.
    pub(super) fn note(&self) -> Option<String> {
        (self.cut > 0).then(|| {
            format!(
                "shrinking: {} failure(s) were shrunk less than fully, the revision's budget of \
                 {SHRINK_STEPS_PER_REVISION} shrink steps{} being spent; their inputs are \
                 smaller than found, not minimal",
                self.cut,
                if self.deadline.is_some() {
                    " or its --time-budget"
                } else {
                    ""
                }
            )
        })
    }
}

/// The server's sessions during the property phase: restarted after every death.
pub(super) struct Env<'a> {
    pub(super) command: &'a ServerCommand,
    pub(super) config: &'a SessionConfig,
    pub(super) revision: &'static Revision,
    pub(super) schemas: &'a SchemaSet,
    pub(super) session: Option<Session>,
    /// Tools that answered some case within the timeout, with their slowest such answer:
    /// a later silence of theirs is an input-dependent stall, not a slow tool, and the
    /// latency sets the per-step wait while shrinking a stall.
    pub(super) prompt_tools: Vec<(String, Duration)>,
    /// Tool execution errors of valid calls, for the record.
    pub(super) tool_errors: Vec<ToolError>,
    /// The per-step wait while shrinking a stall (each stalled candidate waits it out);
    /// no late answer is awaited then. The confirmation uses the full timeout again.
    pub(super) shrink_timeout: Option<Duration>,
    /// Whether a tool call that outlasted the timeout (ping answered) gets one more
    /// timeout for its late answer. Off while confirming a shrunk stall: the case that
    /// started the shrink was already given that wait.
    pub(super) await_late: bool,
    /// The session of a call that outlasted the timeout on a tool that answered other
    /// inputs in time: its late answer is awaited while the stall is shrunk.
    pub(super) parked: Option<Parked>,
    /// Set by [`Env::silent`] for [`Env::evaluate`]: park this session, do not end it.
    park: Option<(Exchange, Instant)>,
    /// The last tool schemas compiled, kept for the next case or candidate.
    pub(super) validators: Validators,
    /// Whether a case answered well goes without a liveness request after it: while the
    /// walk explores ([`Env::explore`]), where the answer shows the server alive. Shrinks
    /// and confirmations keep the request, so each candidate's verdict is its own.
    trust_answers: bool,
    /// The last case the current session answered with no liveness request after it: a
    /// crash or stall after its answer shows on the next request.
    unprobed: Option<(Probe, Value)>,
    /// Cases sent on the current session (each gets its own id, [`case_id`]).
    on_session: u32,
    /// Set by [`Env::explore`] when a case met a crash or stall right after an unprobed
    /// case: that case, which may be the one to blame.
    pub(super) suspect: Option<(Probe, Value)>,
    /// Set by [`Env::explore`] when the case it was given was never sent: the server had
    /// ended after answering the case before.
    pub(super) unsent: bool,
    /// What the revision's shrinking may still spend.
    pub(super) shrink_budget: ShrinkBudget,
    /// While a stall is shrunk: a candidate that stalled while its server still answered
    /// the liveness request leaves its session open for the next candidate (with its own
    /// id, so a late answer cannot pass for a later one's), up to [`MAX_STALLS_KEPT`] per
    /// process. A fresh process per stalled candidate would cost a start each (seconds
    /// for a Python server); the minimal case is still confirmed alone in a fresh one.
    pub(super) keep_stalled: bool,
    /// Stalled candidates whose session was kept, since `keep_stalled` was set.
    pub(super) stalls_kept: u32,
    /// Unanswered calls pending on the current session.
    stalled_here: u32,
    /// A fresh process opened while a stall was shrunk, for its confirmation: a process
    /// start (seconds for a Python server) overlaps the shrink instead of following it.
    pub(super) spare: Option<Session>,
    /// Set before a stall's confirmation: the process for what comes after it (the
    /// argument cases stop after a stall, so the sequences) is opened while it waits
    /// out its timeout.
    pub(super) warm_next: bool,
    /// Set by [`Env::silent`]: the case got no answer in time but the liveness request
    /// after it did.
    alive_after_silence: bool,
}

/// Most stalled candidates left pending on one process while a stall is shrunk.
const MAX_STALLS_KEPT: u32 = 16;

impl<'a> Env<'a> {
    /// A new environment for `run`'s server.
    pub(super) fn new(
        command: &'a ServerCommand,
        config: &'a SessionConfig,
        revision: &'static Revision,
        schemas: &'a SchemaSet,
    ) -> Self {
        Env {
            command,
            config,
            revision,
            schemas,
            session: None,
            prompt_tools: Vec::new(),
            tool_errors: Vec::new(),
            shrink_timeout: None,
            await_late: true,
            parked: None,
            park: None,
            validators: Validators::default(),
            trust_answers: false,
            unprobed: None,
            on_session: 0,
            suspect: None,
            unsent: false,
            shrink_budget: ShrinkBudget::new(None),
            keep_stalled: false,
            stalls_kept: 0,
            stalled_here: 0,
            spare: None,
            warm_next: false,
            alive_after_silence: false,
        }
    }

    /// An environment of the same server for a shrink run ahead of a verdict
    /// (`run.rs`, [`PropertyRun::case`](super::PropertyRun)): no session yet, the tools'
    /// learnt latencies and what the revision's shrinking may still spend. Its work is
    /// [`Env::absorb`]ed when the verdict wants it, else [`Env::end`]ed.
    pub(super) fn ahead(&self) -> Env<'a> {
        let mut ahead = Env::new(self.command, self.config, self.revision, self.schemas);
        ahead.prompt_tools = self.prompt_tools.clone();
        ahead.shrink_budget = self.shrink_budget.clone();
        ahead
    }

    /// Takes in what a shrink run ahead ([`Env::ahead`]) spent and learnt: the budget,
    /// the latencies, the tool errors, and the process it opened for what comes next.
    pub(super) async fn absorb(&mut self, mut ahead: Env<'a>) {
        self.shrink_budget = ahead.shrink_budget.clone();
        for (tool, took) in std::mem::take(&mut ahead.prompt_tools) {
            self.answered_in_time(&tool, took);
        }
        for error in std::mem::take(&mut ahead.tool_errors) {
            if self.wants_tool_error(&error.tool) {
                self.tool_errors.push(error);
            }
        }
        if let (None, Some(next)) = (&self.session, ahead.session.take()) {
            if ahead.stalled_here == 0 && next.ended().is_none() {
                self.install(next);
            } else {
                ahead.session = Some(next);
            }
        }
        ahead.end().await;
    }

    /// Resets what a shrink sets while it runs, when it was dropped midway (a parked
    /// call's late answer came), and ends a process left holding stalled candidates.
    pub(super) async fn after_shrink(&mut self) {
        self.shrink_timeout = None;
        self.await_late = true;
        self.keep_stalled = false;
        self.stalls_kept = 0;
        self.warm_next = false;
        self.drop_stalled().await;
    }

    /// Ends every process of an environment no longer wanted.
    pub(super) async fn end(mut self) {
        for mut session in [
            self.session.take(),
            self.spare.take(),
            self.parked.take().map(|p| p.session),
        ]
        .into_iter()
        .flatten()
        {
            session.kill().await;
        }
    }

    /// Whether a failure (a crash, a stall) happens whatever the input: a fresh process is
    /// started and sent a plain liveness request (ping, or `server/discover` in 2026-07-28)
    /// right after it opened (initialize, or nothing in 2026-07-28). `Some` with what
    /// happened and the transcript when that fails too; else the fresh session is kept for
    /// the next case.
    pub(super) async fn input_independent(&mut self) -> Option<(String, Transcript)> {
        if let Some(mut old) = self.session.take() {
            old.kill().await;
        }
        let mut session = match Session::start(self.command, self.config.clone()) {
            Ok(s) => s,
            Err(e) => {
                return Some((
                    format!("a fresh server process could not be started ({e})"),
                    Transcript::default(),
                ))
            }
        };
        let failed = match era::open(&mut session, self.revision).await {
            Err(why) => Some(format!("a fresh server process {why}")),
            Ok(()) => {
                // Answered with a line past the depth bound is answered: rpc-stdio-framing
                // judges the line.
                let ping = session.liveness().await;
                ping.unanswered().map(|s| {
                    format!(
                        "in a fresh server process, a plain {} {} got no response ({})",
                        session.liveness_method(),
                        era::after_opening(self.revision),
                        s.describe()
                    )
                })
            }
        };
        self.unprobed = None;
        self.on_session = 0;
        self.stalled_here = 0;
        match failed {
            Some(what) => {
                session.kill().await;
                Some((what, session.transcript().clone()))
            }
            None => {
                self.session = Some(session);
                None
            }
        }
    }

    /// Ends the current session if calls are left pending on it (stalled candidates of a
    /// shrink): what comes next starts on a process that owes nothing.
    pub(super) async fn drop_stalled(&mut self) {
        if self.stalled_here > 0 {
            if let Some(mut session) = self.session.take() {
                session.kill().await;
            }
            self.stalled_here = 0;
        }
    }

    /// A fresh process, opened for the revision ([`open_fresh`]).
    pub(super) async fn fresh(&self) -> Option<Session> {
        open_fresh(self.command, self.config, self.revision).await
    }

    /// Makes `session` (a fresh process, nothing sent on it but its opening) the one the
    /// next case goes on.
    pub(super) fn install(&mut self, session: Session) {
        self.unprobed = None;
        self.on_session = 0;
        self.stalled_here = 0;
        self.session = Some(session);
    }

    /// A fresh process for a confirmation: the one opened beside the shrink when there
    /// is one and it still runs (`shrink.rs`), else a new one.
    pub(super) async fn fresh_for_confirmation(&mut self) -> Option<Session> {
        match self.spare.take() {
            Some(spare) if spare.ended().is_none() => Some(spare),
            Some(mut gone) => {
                gone.kill().await;
                self.fresh().await
            }
            None => self.fresh().await,
        }
    }

    async fn session(&mut self) -> Option<&mut Session> {
        if self.session.as_ref().is_none_or(|s| s.ended().is_some()) {
            self.unprobed = None;
            self.on_session = 0;
            self.stalled_here = 0;
            self.session = self.fresh().await;
        }
        self.session.as_mut()
    }

    /// Sends the case's messages on `session` (its request with `id`) and judges what
    /// came back.
    pub(super) async fn evaluate_on(
        &mut self,
        session: &mut Session,
        probe: &Probe,
        value: &Value,
        id: Value,
    ) -> Outcome {
        let messages = case_messages(self.revision, probe, value, id);
        let sent = Instant::now();
        let exchange = match messages.as_slice() {
            [one] => {
                let id = one.get("id").cloned().unwrap_or(Value::Null);
                let method = one["method"].as_str().unwrap_or_default().to_string();
                // A case the server sleeps on (a fetch of a URL that never answers) lends
                // the revision's job slot meanwhile (`slot`).
                let server = session.server_group();
                let request = session.request_with_id(id, &method, one.get("params").cloned());
                slot::lend_while_timed(move || server.and_then(group_asleep), request).await
            }
            _ => return Outcome::Ok,
        };
        // Waiting for a slot after the answer came is no part of the server's latency.
        let (exchange, lent) = exchange;
        let sent = sent + lent.unwrap_or_default();
        let outcome = match self.judge(probe, value, &exchange, session, sent).await {
            Outcome::Lagged(took, _) => Outcome::Lagged(took, lent.is_some()),
            other => other,
        };
        if !matches!(outcome, Outcome::Ok | Outcome::Lagged(..)) {
            return outcome;
        }
        if matches!(outcome, Outcome::Ok) && self.trust_answers {
            // The answer shows the server alive: no request of its own (issue 29). An
            // exit already seen is this case's; a later one shows on the next request.
            if let Some(Silence::Exited(exit)) = session.ended() {
                return Outcome::Failed(
                    FailureKind::Crash,
                    format!("the server exited after the case ({})", exit.describe()),
                );
            }
            self.unprobed = Some((probe.clone(), value.clone()));
            return outcome;
        }
        // The server still answers after each case.
        let pinged = Instant::now();
        let ping = session.liveness().await;
        match ping.unanswered() {
            // A slow answer is the tool's only when a ping right after it is answered
            // far faster: a loaded machine slows both, and must not cut a tool's cases.
            None => match outcome {
                Outcome::Lagged(took, _) if pinged.elapsed() * LAG_RATIO >= took => Outcome::Ok,
                other => other,
            },
            Some(Silence::Exited(exit)) => Outcome::Failed(
                FailureKind::Crash,
                format!("the server exited after the case ({})", exit.describe()),
            ),
            Some(s) => Outcome::Failed(
                fatal_kind(s),
                format!(
                    "{} after the case got no response: {}",
                    session.liveness_method(),
                    s.describe()
                ),
            ),
        }
    }

    /// The case the current session answered last with no liveness request after it.
    pub(super) fn take_unprobed(&mut self) -> Option<(Probe, Value)> {
        self.unprobed.take()
    }

    /// [`Env::evaluate`] for a case of the walk, where a case answered well gets no
    /// liveness request after it. A crash or stall this case meets right after such a
    /// case may be that case's: it is left in [`Env::suspect`] for the walk to try alone.
    /// A server that exited after answering it, before this case was sent, fails this
    /// case with that case as the suspect. The `last` case of its property gets the
    /// liveness request all the same: the property is settled before the next revision is
    /// told it is done (`carry.rs`), whatever the timing of the revisions beside it.
    pub(super) async fn explore(&mut self, probe: &Probe, value: &Value, last: bool) -> Outcome {
        let before = self.unprobed.take();
        self.unsent = false;
        if let (Some(previous), Some(ended)) = (
            &before,
            self.session.as_ref().and_then(|s| s.ended().cloned()),
        ) {
            self.suspect = Some(previous.clone());
            self.unsent = true;
            return Outcome::Failed(
                fatal_kind(&ended),
                format!(
                    "the server ended after answering the case before, before this one was sent ({})",
                    ended.describe()
                ),
            );
        }
        self.trust_answers = !last;
        let outcome = self.evaluate(probe, value).await;
        self.trust_answers = false;
        let fatal = outcome
            .failed()
            .is_some_and(|(k, ..)| matches!(k, FailureKind::Crash | FailureKind::Stall));
        if fatal && self.parked.is_none() && self.park.is_none() {
            self.suspect = before;
        }
        outcome
    }

    pub(super) async fn evaluate(&mut self, probe: &Probe, value: &Value) -> Outcome {
        let Some(mut session) = self.session().await.map(|_| ()).and(self.session.take()) else {
            return Outcome::Failed(
                FailureKind::Crash,
                "the server could not be restarted".into(),
            );
        };
        session.set_timeout(self.shrink_timeout.unwrap_or(self.config.timeout));
        self.alive_after_silence = false;
        let id = case_id(self.on_session);
        self.on_session += 1;
        let outcome = self.evaluate_on(&mut session, probe, value, id).await;
        if let Some((exchange, sent)) = self.park.take() {
            // Not ended: its late answer is awaited while the stall is shrunk.
            if let Some(mut before) = self.parked.take() {
                before.session.kill().await;
            }
            self.parked = Some(Parked {
                session,
                exchange,
                sent,
            });
            return outcome;
        }
        let unanswered = matches!(
            outcome,
            Outcome::Slow(None) | Outcome::Failed(FailureKind::Stall, _)
        );
        let alive = std::mem::take(&mut self.alive_after_silence);
        let kept = unanswered
            && self.keep_stalled
            && alive
            && session.ended().is_none()
            && self.stalled_here < MAX_STALLS_KEPT;
        if unanswered && !kept {
            // Its answer may still come, and the first case of a fresh process has the
            // id "case" again: only this ended process could answer it.
            session.kill().await;
        } else {
            if kept {
                self.stalled_here += 1;
                self.stalls_kept += 1;
            }
            self.session = Some(session);
        }
        outcome
    }

    /// A case got no response. A timeout with the server still answering ping is a slow
    /// call, unless the late answer never comes (below): only a server that answers
    /// nothing, ping included, has stalled outright.
    ///
    /// A `prompt` tool (it answered other inputs in time) that outlasts the timeout is a
    /// stall on this input unless its late answer still comes: that wait is not made here
    /// but while the stall is shrunk, on the session parked for it.
    async fn silent(
        &mut self,
        x: &Exchange,
        silence: &Silence,
        session: &mut Session,
        sent: Instant,
        prompt: bool,
    ) -> Outcome {
        let call = x.method == "tools/call";
        match silence {
            Silence::Exited(exit) => Outcome::Failed(
                FailureKind::Crash,
                format!("the server exited ({})", exit.describe()),
            ),
            // The machine kept the harness from judging: no verdict on the server.
            Silence::Starved { .. } => Outcome::Slow(None),
            Silence::Timeout(_) => {
                let ping = session.liveness().await;
                self.alive_after_silence = ping.unanswered().is_none();
                match ping.unanswered() {
                    None if !self.awaits_late() || !call => Outcome::Slow(None),
                    None if prompt => {
                        self.park = Some((x.clone(), sent));
                        Outcome::Failed(
                            FailureKind::Stall,
                            format!(
                                "{}, while the same tool answered other inputs in time (the server still answers {})",
                                silence.describe(),
                                session.liveness_method()
                            ),
                        )
                    }
                    // A slow answer is still an answer: wait one more timeout for it (the
                    // server answers ping meanwhile), and say how long it took.
                    None => {
                        let late = session.await_late(x, self.config.timeout).await;
                        Outcome::Slow(late.map(|_| sent.elapsed()))
                    }
                    Some(Silence::Exited(exit)) => Outcome::Failed(
                        FailureKind::Crash,
                        format!("the server exited ({})", exit.describe()),
                    ),
                    Some(Silence::Starved { .. }) => Outcome::Slow(None),
                    Some(_) => Outcome::Failed(
                        FailureKind::Stall,
                        format!(
                            "{}, and a {} after it got none either",
                            silence.describe(),
                            session.liveness_method()
                        ),
                    ),
                }
            }
            other => Outcome::Failed(FailureKind::Stall, other.describe()),
        }
    }

    fn awaits_late(&self) -> bool {
        self.await_late && self.shrink_timeout.is_none()
    }

    /// Keeps a tool execution error of a valid call: the first of its tool, up to
    /// [`MAX_TOOL_ERRORS`].
    fn keep_tool_error(&mut self, tool: &str, arguments: &Value, result: &Value) {
        if result.get("isError") != Some(&Value::Bool(true)) || !self.wants_tool_error(tool) {
            return;
        }
        self.tool_errors.push(ToolError {
            tool: tool.to_string(),
            arguments: arguments.clone(),
            result: result.clone(),
        });
    }

    /// Whether a tool execution error of `tool` is still kept: the first of its tool,
    /// up to [`MAX_TOOL_ERRORS`].
    fn wants_tool_error(&self, tool: &str) -> bool {
        self.tool_errors.len() < MAX_TOOL_ERRORS && !self.tool_errors.iter().any(|e| e.tool == tool)
    }

    /// The slowest prompt answer of `tool` so far, if it answered any.
    pub(super) fn latency_of(&self, tool: Option<&str>) -> Option<Duration> {
        let tool = tool?;
        self.prompt_tools
            .iter()
            .find_map(|(name, took)| (name == tool).then_some(*took))
    }

    /// `tool` answered other inputs in time, `took` at the slowest (in an earlier
    /// revision of the run, for a carried case: `carry.rs`).
    pub(super) fn answered_in_time(&mut self, tool: &str, took: Duration) {
        match self.prompt_tools.iter_mut().find(|(t, _)| t == tool) {
            Some((_, slowest)) => *slowest = (*slowest).max(took),
            None => self.prompt_tools.push((tool.to_string(), took)),
        }
    }

    /// How long after a walk's case is sent a shrink of it starts beside its wait
    /// (`run.rs`): only a call of a tool that answered other inputs in time (its stall
    /// would be parked), after the tool's learnt wait and at least half the timeout (a
    /// shrink and its confirmation still fit in the two timeouts a stall's verdict waits,
    /// and a call that is merely slow, a fetch that takes 5 s, is mostly answered before
    /// any process is started for it); `None` for any other case, and when that is no
    /// sooner than the timeout.
    pub(super) fn ahead_after(&self, probe: &Probe) -> Option<Duration> {
        let tool = probe_tool(probe);
        self.latency_of(tool)?;
        let after = self.step_wait(tool).max(self.config.timeout / 2);
        (self.awaits_late() && after < self.config.timeout).then_some(after)
    }

    /// The per-step wait while shrinking a stall of `tool`: a multiple of its slowest
    /// prompt answer, within [`MIN_STEP_WAIT`] and the timeout.
    pub(super) fn step_wait(&self, tool: Option<&str>) -> Duration {
        let latency = tool
            .and_then(|t| self.prompt_tools.iter().find(|(name, _)| name == t))
            .map_or(Duration::ZERO, |(_, d)| *d);
        (latency * STEP_WAIT_FACTOR)
            .max(MIN_STEP_WAIT)
            .min(self.config.timeout)
    }

    async fn judge(
        &mut self,
        probe: &Probe,
        value: &Value,
        x: &Exchange,
        session: &mut Session,
        sent: Instant,
    ) -> Outcome {
        // Answered with a line past the depth bound is answered, and nothing of it can be
        // judged here: rpc-stdio-framing judges the line.
        if x.unreadable() {
            return Outcome::Ok;
        }
        let tool = probe_tool(probe);
        if let Some(silence) = x.silence() {
            let prompt = tool.is_some_and(|name| self.prompt_tools.iter().any(|(t, _)| t == name));
            let outcome = self.silent(x, silence, session, sent, prompt).await;
            if let (Outcome::Slow(None), true) = (&outcome, prompt) {
                return Outcome::Failed(
                    FailureKind::Stall,
                    format!(
                        "{}, while the same tool answered other inputs in time (the server still answers {})",
                        silence.describe(),
                        session.liveness_method()
                    ),
                );
            }
            if matches!(probe, Probe::Id) && matches!(outcome, Outcome::Slow(_)) {
                return Outcome::Failed(
                    FailureKind::IdNotEchoed,
                    format!("no response carried the id {value}"),
                );
            }
            return outcome;
        }
        let took = sent.elapsed();
        if let Some(name) = tool {
            self.answered_in_time(name, took);
        }
        let error_code = x.error_code();
        let result = x.result();
        if let (Probe::ValidCall { .. }, Some(result), Some(name)) = (probe, result, tool) {
            self.keep_tool_error(name, value, result);
        }
        let breach = match probe {
            Probe::ValidCall { tool } => {
                rules::valid_call(rules::TaskSupport::of(tool, self.revision), x.error()).or_else(
                    || {
                        let result = result?;
                        rules::content_types(self.revision, result)
                            .or_else(|| rules::result_schema(self.schemas, "tools/call", result))
                            .map(|b| rules::Breach {
                                message: b.message.replacen("the result breaks ", "", 1),
                                ..b
                            })
                            .or_else(|| {
                                let validator =
                                    self.validators.get(tool, Which::Output, self.revision)?;
                                // Only a conformance breach: a result without structuredContent
                                // is judged by the scripted tc-outputschema-presence.
                                rules::structured_output(&validator, result)
                                    .filter(|b| b.check == CheckId::TcOutputschemaConform)
                            })
                    },
                )
            }
            Probe::InvalidCall { tool, .. } => rules::invalid_arguments(
                self.revision,
                rules::TaskSupport::of(tool, self.revision),
                x.error(),
                result,
            ),
            Probe::Id => match &x.reply {
                crate::protocol::Reply::Response {
                    message, id_match, ..
                } => rules::id_echo(value, message, *id_match),
                _ => None,
            },
            Probe::Method => rules::unknown_method(error_code, x.response().is_some()),
            Probe::Cursor => rules::cursor(error_code, result, true),
        };
        match breach {
            Some(b) => Outcome::Broke(b),
            // Slow makes the tool slow when its server was seen asleep on it, else when it
            // happens twice in a row (one scheduling stall of a loaded machine can pass
            // the bound once): the walk decides (`run.rs`).
            None if tool.is_some() && took > slow_answer(self.config.timeout) => {
                Outcome::Lagged(took, false)
            }
            None => Outcome::Ok,
        }
    }
}

/// A fresh process of `command`, opened for `revision`: [`Env::fresh`], as a future that
/// holds no borrow of the environment (so it can be opened while the environment waits on
/// something else). In 2026-07-28, which has no handshake, a liveness request goes first:
/// the first request of a process also waits for it to start (three timeouts), and a
/// case must get one timeout, as after a legacy `initialize` (a stall confirmed in a fresh
/// process would otherwise cost 30 s, not 10).
pub(super) async fn open_fresh(
    command: &ServerCommand,
    config: &SessionConfig,
    revision: &'static Revision,
) -> Option<Session> {
    let mut session = Session::start(command, config.clone()).ok()?;
    era::open(&mut session, revision).await.ok()?;
    if revision.modern() && session.liveness().await.silence().is_some() {
        session.kill().await;
        return None;
    }
    Some(session)
}

/// What a session's ending makes of the case that met it: an exit is a crash, any other
/// silence (stdout closed, a request not read, no answer) a stall.
pub(super) fn fatal_kind(ended: &Silence) -> FailureKind {
    match ended {
        Silence::Exited(_) => FailureKind::Crash,
        _ => FailureKind::Stall,
    }
}

/// The tool a probe calls, if it calls one.
pub(super) fn probe_tool(probe: &Probe) -> Option<&str> {
    probe_tool_def(probe)?.get("name").and_then(Value::as_str)
}

/// The tool a tool-call probe calls.
pub(super) fn probe_tool_def(probe: &Probe) -> Option<&Value> {
    match probe {
        Probe::ValidCall { tool } | Probe::InvalidCall { tool, .. } => Some(tool),
        _ => None,
    }
}

/// The id of the `n`-th case (from 0) sent on one session: `"case"` for the first, as
/// in a fresh process (confirmations, case files), then `"case-2"`, `"case-3"`: no answer
/// to an earlier case, late or sent twice, can pass for a later one's.
pub(super) fn case_id(n: u32) -> Value {
    match n {
        0 => json!("case"),
        n => json!(format!("case-{}", n + 1)),
    }
}

/// The JSON-RPC messages of a case (its request with `id`), as `revision`'s session sends them: the id probe asks
/// the liveness method (ping, or `server/discover` in 2026-07-28, where ping is gone), and
/// a modern request carries the per-request `_meta`.
pub(super) fn case_messages(
    revision: &Revision,
    probe: &Probe,
    value: &Value,
    id: Value,
) -> Vec<Value> {
    let request = |method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let message = match probe {
        Probe::ValidCall { tool } | Probe::InvalidCall { tool, .. } => {
            let name = tool.get("name").cloned().unwrap_or(Value::Null);
            request("tools/call", json!({"name": name, "arguments": value}))
        }
        Probe::Id => era::liveness_request(revision, value.clone()),
        Probe::Method => request(value.as_str().unwrap_or_default(), json!({})),
        Probe::Cursor => request("tools/list", json!({"cursor": value})),
    };
    vec![era::case_line(revision, message)]
}

/// The checks a probe's cases count towards.
pub(super) fn probe_checks(probe: &Probe) -> &'static [CheckId] {
    match probe {
        Probe::ValidCall { .. } => &[CheckId::PropValidCallResult, CheckId::PropValidCallAccepted],
        Probe::InvalidCall { .. } => &[CheckId::PropInvalidCallRejected],
        Probe::Id => &[CheckId::PropIdRoundtrip],
        Probe::Method => &[CheckId::PropUnknownMethod],
        Probe::Cursor => &[CheckId::PropRandomCursor],
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::{ShrinkBudget, SHRINK_STEPS_PER_REVISION};

    #[test]
    fn a_shrink_budget_stops_at_its_deadline_and_says_so() {
        let open = ShrinkBudget::new(None);
        assert!(!open.past_deadline());
        assert_eq!(open.steps_left, SHRINK_STEPS_PER_REVISION);
        assert_eq!(open.note(), None);

        let past = Instant::now()
            .checked_sub(Duration::from_millis(1))
            .unwrap();
        let mut spent = ShrinkBudget::new(Some(past));
        assert!(spent.past_deadline());
        spent.cut = 2;
        let note = spent.note().unwrap();
        assert!(note.contains("2 failure(s)"), "{note}");
        assert!(note.contains("--time-budget"), "{note}");
    }
}
