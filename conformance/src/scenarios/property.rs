//! Property-generated conversations: arguments, ids, method names, cursors and request
//! sequences drawn from proptest strategies, with a fixed seed, shrinking and replay.
//!
//! Scripted scenarios find what we thought of; these find what we did not. Every case
//! is one request (plus a liveness ping) in a session of its own server process, which is
//! restarted whenever a case kills it. A failing case is shrunk with proptest's value
//! trees to the smallest input that fails the same way, confirmed once more in a fresh
//! process, and kept as a [`CaseFile`] that `mcp-conformance replay` repeats exactly.
//!
//! Determinism: each property draws from its own RNG, seeded from the run's seed and the
//! property's label (tool name, rule), so adding a tool does not change another's cases.

use std::time::{Duration, Instant};

use proptest::strategy::{BoxedStrategy, Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::initialize_params;
use super::policy::CallPolicy;
use super::tools::{compile_input_schema, listed_tools};
use crate::checks::rules;
pub use crate::checks::rules::FailureKind;
use crate::checks::CheckId;
use crate::generate as strategy;
use crate::protocol::{
    Exchange, IdMatch, Revision, SchemaSet, Session, SessionConfig, Silence, Transcript,
};
use crate::transport::ServerCommand;

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
}

impl Default for PropertyConfig {
    fn default() -> Self {
        Self {
            cases: 32,
            max_shrink: 64,
            time_budget: None,
        }
    }
}

/// One message of a replayable case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseMessage {
    /// The JSON-RPC message to send (null when `raw` is set).
    #[serde(default)]
    pub send: Value,
    /// A malformed frame to send instead, byte for byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawFrame>,
    /// Sent in the same write as the next message (pipelining), not waited for.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pipelined: bool,
}

/// The bytes of a malformed frame in a case file: as text when they are UTF-8 (readable),
/// else as hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawFrame {
    /// UTF-8 text.
    Text(String),
    /// Any bytes, two hex digits each.
    Hex(String),
}

impl RawFrame {
    /// The frame for `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        match std::str::from_utf8(bytes) {
            Ok(text) => RawFrame::Text(text.to_string()),
            Err(_) => RawFrame::Hex(bytes.iter().map(|b| format!("{b:02x}")).collect()),
        }
    }

    /// The bytes (hex digits that do not pair up are dropped).
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            RawFrame::Text(text) => text.as_bytes().to_vec(),
            RawFrame::Hex(hex) => hex
                .as_bytes()
                .chunks_exact(2)
                .filter_map(|pair| {
                    let pair = std::str::from_utf8(pair).ok()?;
                    u8::from_str_radix(pair, 16).ok()
                })
                .collect(),
        }
    }
}

impl CaseMessage {
    /// A JSON-RPC message.
    pub fn message(send: Value, pipelined: bool) -> Self {
        Self {
            send,
            raw: None,
            pipelined,
        }
    }

    /// The line this message sends.
    pub fn line(&self) -> crate::protocol::Line {
        match &self.raw {
            Some(raw) => crate::protocol::Line::Raw(raw.bytes()),
            None => crate::protocol::Line::Message(self.send.clone()),
        }
    }
}

/// A failing case, minimal, as a file `mcp-conformance replay` repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseFile {
    /// Format marker.
    pub mcp_conformance_case: u32,
    /// The check that failed.
    pub check: String,
    /// The protocol revision negotiated.
    pub revision: String,
    /// Seed of the run that found it.
    pub seed: u64,
    /// What the case is.
    pub description: String,
    /// The failure seen.
    pub kind: FailureKind,
    /// The server command of the run (replay may override it).
    pub command: ServerCommand,
    /// Messages to send, in order: the handshake, then the case.
    pub messages: Vec<CaseMessage>,
    /// Seconds per request of the run that found it (replay's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<f64>,
    /// The called tool's `outputSchema`, for a finding about `structuredContent`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
}

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
    /// The confirming session's transcript (fresh process, minimal case).
    pub transcript: Transcript,
    /// Whether the minimal case failed the same way in the fresh process.
    pub reproduced: bool,
    /// The case, to save and replay.
    pub case: CaseFile,
    /// Where the case was saved, when a cases folder was given.
    pub case_path: Option<std::path::PathBuf>,
}

/// Counts and findings of the property phase.
#[derive(Debug, Clone, Default)]
pub struct PropertyRecord {
    /// Cases run, per check.
    pub cases: Vec<(CheckId, u32)>,
    /// What failed.
    pub failures: Vec<PropertyFailure>,
    /// Things a reader should know (tools skipped, budget exhausted).
    pub notes: Vec<String>,
}

impl PropertyRecord {
    fn count(&mut self, check: CheckId) {
        match self.cases.iter_mut().find(|(c, _)| *c == check) {
            Some((_, n)) => *n += 1,
            None => self.cases.push((check, 1)),
        }
    }

    /// Cases run for a check.
    pub fn cases_for(&self, check: CheckId) -> u32 {
        self.cases
            .iter()
            .find(|(c, _)| *c == check)
            .map_or(0, |(_, n)| *n)
    }
}

/// What one case is.
#[derive(Debug, Clone)]
enum Probe {
    ValidCall { tool: Value },
    InvalidCall { tool: Value, rule: String },
    Id,
    Method,
    Cursor,
}

/// The result of one case.
#[derive(Debug, Clone)]
enum Outcome {
    Ok,
    /// A tool call that outlasted the timeout while the server still answered ping.
    Slow,
    Failed(FailureKind, String),
    /// A rule of the rule book was broken.
    Broke(rules::Breach),
}

impl Outcome {
    /// The failure's kind, description and the rule broken, if the case failed.
    fn failed(&self) -> Option<(FailureKind, &str, Option<CheckId>)> {
        match self {
            Outcome::Ok | Outcome::Slow => None,
            Outcome::Failed(kind, text) => Some((*kind, text, None)),
            Outcome::Broke(b) => Some((b.kind, &b.message, Some(b.check))),
        }
    }
}

/// The server's sessions during the property phase: restarted after every death.
struct Env<'a> {
    command: &'a ServerCommand,
    config: &'a SessionConfig,
    revision: &'static Revision,
    schemas: &'a SchemaSet,
    session: Option<Session>,
    /// Tools that answered some case within the timeout: a later timeout of theirs is an
    /// input-dependent stall, not a slow tool.
    prompt_tools: Vec<String>,
    /// A shorter wait while shrinking a stall (each stalled candidate waits it out).
    shrink_timeout: Option<Duration>,
}

impl Env<'_> {
    async fn fresh(&self) -> Option<Session> {
        let mut session = Session::start(self.command, self.config.clone()).ok()?;
        let init = session.handshake(initialize_params(self.revision.id)).await;
        init.result().is_some().then_some(session)
    }

    async fn session(&mut self) -> Option<&mut Session> {
        if self.session.as_ref().is_none_or(|s| s.ended().is_some()) {
            self.session = self.fresh().await;
        }
        self.session.as_mut()
    }

    /// Sends the case's messages on `session` and judges what came back.
    async fn evaluate_on(
        &mut self,
        session: &mut Session,
        probe: &Probe,
        value: &Value,
    ) -> Outcome {
        let messages = case_messages(probe, value);
        let exchange = match messages.as_slice() {
            [one] => {
                let id = one.get("id").cloned().unwrap_or(Value::Null);
                let method = one["method"].as_str().unwrap_or_default().to_string();
                session
                    .request_with_id(id, &method, one.get("params").cloned())
                    .await
            }
            _ => return Outcome::Ok,
        };
        let outcome = self.judge(probe, value, &exchange, session).await;
        if !matches!(outcome, Outcome::Ok) {
            return outcome;
        }
        // The server still answers after each case.
        let ping = session.request("ping", None).await;
        match ping.silence() {
            None => Outcome::Ok,
            Some(Silence::Exited(exit)) => Outcome::Failed(
                FailureKind::Crash,
                format!("the server exited after the case ({})", exit.describe()),
            ),
            Some(s) => Outcome::Failed(
                FailureKind::Stall,
                format!("ping after the case got no response: {}", s.describe()),
            ),
        }
    }

    async fn evaluate(&mut self, probe: &Probe, value: &Value) -> Outcome {
        let Some(mut session) = self.session().await.map(|_| ()).and(self.session.take()) else {
            return Outcome::Failed(
                FailureKind::Crash,
                "the server could not be restarted".into(),
            );
        };
        session.set_timeout(self.shrink_timeout.unwrap_or(self.config.timeout));
        let outcome = self.evaluate_on(&mut session, probe, value).await;
        self.session = Some(session);
        outcome
    }

    async fn silent(&self, silence: &Silence, session: &mut Session) -> Outcome {
        match silence {
            Silence::Exited(exit) => Outcome::Failed(
                FailureKind::Crash,
                format!("the server exited ({})", exit.describe()),
            ),
            Silence::Timeout(_) => {
                let ping = session.request("ping", None).await;
                match ping.silence() {
                    None => Outcome::Slow,
                    Some(Silence::Exited(exit)) => Outcome::Failed(
                        FailureKind::Crash,
                        format!("the server exited ({})", exit.describe()),
                    ),
                    Some(_) => Outcome::Failed(
                        FailureKind::Stall,
                        format!(
                            "{}, and a ping after it got none either",
                            silence.describe()
                        ),
                    ),
                }
            }
            other => Outcome::Failed(FailureKind::Stall, other.describe()),
        }
    }

    async fn judge(
        &mut self,
        probe: &Probe,
        value: &Value,
        x: &Exchange,
        session: &mut Session,
    ) -> Outcome {
        let tool = match probe {
            Probe::ValidCall { tool } | Probe::InvalidCall { tool, .. } => {
                tool.get("name").and_then(Value::as_str)
            }
            _ => None,
        };
        if let Some(silence) = x.silence() {
            let outcome = self.silent(silence, session).await;
            if let (Outcome::Slow, Some(name)) = (&outcome, tool) {
                if self.prompt_tools.iter().any(|t| t == name) {
                    return Outcome::Failed(
                        FailureKind::Stall,
                        format!(
                            "{}, while the same tool answered other inputs in time (the server still answers ping)",
                            silence.describe()
                        ),
                    );
                }
            }
            if matches!(probe, Probe::Id) && matches!(outcome, Outcome::Slow) {
                return Outcome::Failed(
                    FailureKind::IdNotEchoed,
                    format!("no response carried the id {value}"),
                );
            }
            return outcome;
        }
        if let Some(name) = tool {
            if !self.prompt_tools.iter().any(|t| t == name) {
                self.prompt_tools.push(name.to_string());
            }
        }
        let error_code = x.error_code();
        let result = x.result();
        let breach = match probe {
            Probe::ValidCall { tool } => rules::valid_call(x.error()).or_else(|| {
                let result = result?;
                rules::result_schema(self.schemas, "tools/call", result)
                    .map(|b| rules::Breach {
                        message: b.message.replacen("the result breaks ", "", 1),
                        ..b
                    })
                    .or_else(|| {
                        let schema = tool.get("outputSchema")?;
                        let validator = compile_input_schema(schema, self.revision).ok()?;
                        // Only a conformance breach: a result without structuredContent
                        // is judged by the scripted tc-outputschema-presence.
                        rules::structured_output(&validator, result)
                            .filter(|b| b.check == CheckId::TcOutputschemaConform)
                    })
            }),
            Probe::InvalidCall { .. } => rules::invalid_arguments(self.revision, x.error(), result),
            Probe::Id => match &x.reply {
                crate::protocol::Reply::Response {
                    message, id_match, ..
                } => rules::id_echo(value, message, *id_match),
                _ => None,
            },
            Probe::Method => rules::unknown_method(error_code, x.response().is_some()),
            Probe::Cursor => rules::cursor(error_code, result, true),
        };
        breach.map_or(Outcome::Ok, Outcome::Broke)
    }
}

/// The JSON-RPC messages of a case.
fn case_messages(probe: &Probe, value: &Value) -> Vec<Value> {
    let request = |id: Value, method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    match probe {
        Probe::ValidCall { tool } | Probe::InvalidCall { tool, .. } => {
            let name = tool.get("name").cloned().unwrap_or(Value::Null);
            vec![request(
                json!("case"),
                "tools/call",
                json!({"name": name, "arguments": value}),
            )]
        }
        Probe::Id => vec![json!({"jsonrpc": "2.0", "id": value, "method": "ping"})],
        Probe::Method => vec![request(
            json!("case"),
            value.as_str().unwrap_or_default(),
            json!({}),
        )],
        Probe::Cursor => vec![request(
            json!("case"),
            "tools/list",
            json!({"cursor": value}),
        )],
    }
}

/// The checks a probe's cases count towards.
fn probe_checks(probe: &Probe) -> &'static [CheckId] {
    match probe {
        Probe::ValidCall { .. } => &[CheckId::PropValidCallResult, CheckId::PropValidCallAccepted],
        Probe::InvalidCall { .. } => &[CheckId::PropInvalidCallRejected],
        Probe::Id => &[CheckId::PropIdRoundtrip],
        Probe::Method => &[CheckId::PropUnknownMethod],
        Probe::Cursor => &[CheckId::PropRandomCursor],
    }
}

/// A stable 64-bit FNV-1a hash (std's hasher may change between Rust releases, which
/// would change every seed).
fn fnv1a(seed: u64, label: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.to_le_bytes().iter().chain(label.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The next value of splitmix64 from `state` (a fixed algorithm: seeds stay meaningful
/// across Rust releases).
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A test runner whose RNG depends only on the seed and the label.
pub fn runner_for(seed: u64, label: &str, cases: u32) -> TestRunner {
    let mut state = fnv1a(seed, label);
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_mut(8) {
        chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
    }
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// Ids that must round-trip: integers within ±(2^53-1), zero, negatives, and strings
/// with any Unicode, the empty string included.
fn id_strategy() -> BoxedStrategy<Value> {
    const MAX_SAFE: i64 = (1 << 53) - 1;
    proptest::prop_oneof![
        (-MAX_SAFE..=MAX_SAFE).prop_map(|n| json!(n)),
        proptest::strategy::Just(json!(0)),
        (-1000i64..0).prop_map(|n| json!(n)),
        proptest::string::string_regex("(?s).{0,24}")
            .expect("regex")
            .prop_map(Value::String),
    ]
    .boxed()
}

/// Method names no server implements: a fixed prefix, then random characters.
fn method_strategy() -> BoxedStrategy<Value> {
    proptest::string::string_regex("[A-Za-z0-9_./-]{1,40}")
        .expect("regex")
        .prop_map(|s| Value::String(format!("conformance/unknown/{s}")))
        .boxed()
}

/// Cursors no server issued: any Unicode text, short or long.
fn cursor_strategy() -> BoxedStrategy<Value> {
    proptest::prop_oneof![
        proptest::string::string_regex("(?s).{0,16}").expect("regex"),
        proptest::string::string_regex("[A-Za-z0-9+/=]{17,200}").expect("regex"),
    ]
    .prop_map(Value::String)
    .boxed()
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
}

impl PropertyRun<'_> {
    /// Runs every property and sequence probe.
    pub async fn run(&self) -> PropertyRecord {
        let started = Instant::now();
        let mut record = PropertyRecord::default();
        let mut env = Env {
            command: self.command,
            config: self.session,
            revision: self.revision,
            schemas: self.schemas,
            session: None,
            prompt_tools: Vec::new(),
            shrink_timeout: None,
        };
        let mut plan: Vec<(String, Probe, BoxedStrategy<Value>, u32)> = Vec::new();
        let cases = self.config.cases.max(1);
        plan.push(("ids".into(), Probe::Id, id_strategy(), cases));
        plan.push(("methods".into(), Probe::Method, method_strategy(), cases));
        if self.tools {
            plan.push(("cursors".into(), Probe::Cursor, cursor_strategy(), cases));
        }
        let mut seen = Vec::new();
        for tool in listed_tools(self.pages) {
            let name = tool
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if seen.contains(&name) {
                continue;
            }
            seen.push(name.clone());
            if let Err(why) = self.policy.permits(tool) {
                record.notes.push(format!("tool {name:?}: {why}"));
                continue;
            }
            let object_schema = |s: &&Value| s.get("type") == Some(&Value::String("object".into()));
            let Some(schema) = tool.get("inputSchema").filter(object_schema) else {
                // Arguments are an object: a tool whose inputSchema says otherwise is
                // tool-inputschema-type's finding, not something to generate for.
                record.notes.push(format!(
                    "tool {name:?}: its inputSchema is not an object schema; no arguments generated"
                ));
                continue;
            };
            // The dialect the server's validator uses: the tool's `$schema`, else the
            // revision's default (as `compile_input_schema` decides).
            let dialect = if schema.get("$schema").is_some() {
                strategy::Dialect::of(schema)
            } else if self.revision.draft_2020_12 {
                strategy::Dialect::Draft202012
            } else {
                strategy::Dialect::Draft7
            };
            match strategy::valid_in(schema, schema, dialect) {
                Ok(s) => plan.push((
                    format!("valid {name}"),
                    Probe::ValidCall { tool: tool.clone() },
                    s,
                    cases,
                )),
                Err(e) => record.notes.push(format!(
                    "tool {name:?}: valid arguments not generated: {}",
                    e.0
                )),
            }
            match strategy::invalid_in(schema, schema, dialect) {
                Ok(variants) => {
                    let per = (cases / 4).max(2);
                    for v in variants {
                        let label = format!("invalid {name} {}", v.rule);
                        plan.push((
                            label,
                            Probe::InvalidCall {
                                tool: tool.clone(),
                                rule: v.rule,
                            },
                            v.strategy,
                            per,
                        ));
                    }
                }
                Err(e) => record.notes.push(format!(
                    "tool {name:?}: invalid arguments not generated: {}",
                    e.0
                )),
            }
        }

        let mut slow_tools: Vec<String> = Vec::new();
        'plan: for (label, probe, strategy, n) in &plan {
            let tool_name = match probe {
                Probe::ValidCall { tool } | Probe::InvalidCall { tool, .. } => {
                    tool.get("name").and_then(Value::as_str).map(str::to_string)
                }
                _ => None,
            };
            if tool_name.as_ref().is_some_and(|t| slow_tools.contains(t)) {
                continue;
            }
            let mut runner = runner_for(self.seed, label, *n);
            for _ in 0..*n {
                if self
                    .config
                    .time_budget
                    .is_some_and(|b| started.elapsed() > b)
                {
                    record
                        .notes
                        .push(format!("time budget exhausted; stopped before {label}"));
                    break 'plan;
                }
                let Ok(mut tree) = strategy.new_tree(&mut runner) else {
                    break;
                };
                let value = tree.current();
                if let Probe::ValidCall { tool } = probe {
                    // Never send "valid" arguments that are not: the generator may be wrong.
                    if !self.validates(tool, &value) {
                        record.notes.push(format!(
                            "{label}: a generated instance did not validate; not sent"
                        ));
                        continue;
                    }
                }
                for check in probe_checks(probe) {
                    record.count(*check);
                }
                match env.evaluate(probe, &value).await {
                    Outcome::Ok => {}
                    Outcome::Slow => {
                        if let Some(t) = &tool_name {
                            record.notes.push(format!(
                                "tool {t:?} outlasted the timeout; not called again"
                            ));
                            slow_tools.push(t.clone());
                        }
                        continue 'plan;
                    }
                    failed @ (Outcome::Failed(..) | Outcome::Broke(_)) => {
                        let (kind, outcome, rule) = failed
                            .failed()
                            .map(|(k, t, r)| (k, t.to_string(), r))
                            .expect("a failed outcome");
                        let fatal = matches!(kind, FailureKind::Crash | FailureKind::Stall);
                        let stalled_once = kind == FailureKind::Stall;
                        let failure = self
                            .shrink(
                                &mut env,
                                probe,
                                label,
                                &mut tree,
                                value,
                                (kind, rule),
                                outcome,
                            )
                            .await;
                        record.failures.push(failure);
                        if let (true, Some(t)) = (fatal, &tool_name) {
                            // One minimal crash or stall per tool says it; more would only
                            // cost restarts and timeouts.
                            record.notes.push(format!(
                                "tool {t:?}: no more cases after it crashed or stalled the server"
                            ));
                            slow_tools.push(t.clone());
                        }
                        if stalled_once {
                            record.notes.push("argument cases stopped after a stall: each stall waits out the timeout".into());
                            break 'plan;
                        }
                        continue 'plan;
                    }
                }
            }
        }
        self.sequences(&mut env, &mut record).await;
        if let Some(s) = env.session.as_mut() {
            s.kill().await;
        }
        record
    }

    fn validates(&self, tool: &Value, value: &Value) -> bool {
        let Some(schema) = tool.get("inputSchema") else {
            return false;
        };
        compile_input_schema(schema, self.revision).is_ok_and(|v| v.is_valid(value))
    }

    #[allow(clippy::too_many_arguments)]
    async fn shrink(
        &self,
        env: &mut Env<'_>,
        probe: &Probe,
        label: &str,
        tree: &mut Box<dyn ValueTree<Value = Value>>,
        value: Value,
        (kind, rule): (FailureKind, Option<CheckId>),
        outcome: String,
    ) -> PropertyFailure {
        let mut best = (value, outcome);
        let mut steps = 0;
        let same = |o: &Outcome| o.failed().is_some_and(|(k, ..)| k == kind);
        // Every stalled candidate waits out the timeout: shrink those in fewer steps, with a
        // shorter wait (the tool answers other inputs at once; the confirmation below uses
        // the full timeout again).
        let stall = kind == FailureKind::Stall;
        let max_steps = if stall {
            self.config.max_shrink.min(8)
        } else {
            self.config.max_shrink
        };
        if stall {
            env.shrink_timeout = Some(self.session.timeout.min(Duration::from_secs(1)));
        }
        if tree.simplify() {
            while steps < max_steps {
                steps += 1;
                let candidate = tree.current();
                if let Probe::ValidCall { tool } = probe {
                    if !self.validates(tool, &candidate) {
                        if !tree.complicate() {
                            break;
                        }
                        continue;
                    }
                }
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
        env.shrink_timeout = None;
        // Confirm the minimal case in a fresh process, recording a clean transcript.
        let (input, outcome) = best;
        let mut confirm = env.fresh().await;
        let (reproduced, transcript) = match confirm.as_mut() {
            Some(session) => {
                let o = env.evaluate_on(session, probe, &input).await;
                session.kill().await;
                (same(&o), session.transcript().clone())
            }
            None => (false, Transcript::default()),
        };
        let check = kind.reported_by();
        let description = match probe {
            Probe::ValidCall { .. } => format!("{label}: arguments valid for the inputSchema"),
            Probe::InvalidCall { rule, .. } => {
                format!("{label}: arguments breaking one rule ({rule})")
            }
            _ => label.to_string(),
        };
        let mut messages = vec![
            CaseMessage::message(
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize_params(self.revision.id)}),
                false,
            ),
            CaseMessage::message(
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                false,
            ),
        ];
        messages.extend(
            case_messages(probe, &input)
                .into_iter()
                .map(|send| CaseMessage::message(send, false)),
        );
        messages.push(CaseMessage::message(
            json!({"jsonrpc": "2.0", "id": "after-case", "method": "ping"}),
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
            transcript,
            reproduced,
            case: CaseFile {
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
            },
            case_path: None,
        }
    }

    /// Pipelined requests and a cancellation (not generated: fixed sequences).
    async fn sequences(&self, env: &mut Env<'_>, record: &mut PropertyRecord) {
        let ping = |id: &str| json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
        let middle = if self.tools {
            json!({"jsonrpc": "2.0", "id": "pipe-2", "method": "tools/list"})
        } else {
            ping("pipe-2")
        };
        let pipeline = vec![ping("pipe-1"), middle, ping("pipe-3")];
        let callable = listed_tools(self.pages).into_iter().find(|t| {
            self.policy.permits(t).is_ok()
                && super::tools::valid_arguments(t, self.revision).is_ok()
        });
        let mut cancel = Vec::new();
        if let Some(tool) = callable {
            let args = super::tools::valid_arguments(tool, self.revision).unwrap_or(json!({}));
            cancel.push(
                json!({"jsonrpc": "2.0", "id": "cancel-me", "method": "tools/call",
                "params": {"name": tool["name"], "arguments": args}}),
            );
            cancel.push(
                json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": "cancel-me", "reason": "conformance probe"}}),
            );
        }
        cancel.push(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": "never-sent", "reason": "conformance probe: unknown id"}}),
        );
        for (check, kind, messages) in [
            (CheckId::SeqPipelined, FailureKind::PipelineBroken, pipeline),
            (CheckId::SeqCancel, FailureKind::CancelMishandled, cancel),
        ] {
            record.count(check);
            let Some(mut session) = env.fresh().await else {
                record
                    .notes
                    .push(format!("{check}: the server could not be started"));
                continue;
            };
            // A ping first: whatever the handshake provoked arrives before it, so stray
            // responses counted below are the sequence's own.
            let _ = session.request("ping", None).await;
            let started = session.transcript().entries().len();
            let replies = session.pipeline(&messages).await;
            let after = session.request("ping", None).await;
            let mut problems = Vec::new();
            for (message, reply) in messages.iter().zip(&replies) {
                let Some(x) = reply else { continue };
                let id = &message["id"];
                let answers = session
                    .transcript()
                    .received()
                    .filter(|e| e.answers == Some(x.request_seq))
                    .count();
                // A cancelled request may or may not be answered (races, REQUIREMENTS.md
                // 10 A15); every other request is answered exactly once.
                let cancelled = id == "cancel-me";
                if answers > 1 {
                    problems.push(format!("request {id} was answered {answers} times"));
                } else if answers == 0 && !cancelled {
                    problems.push(format!(
                        "request {id} got no response ({})",
                        x.silence().map(Silence::describe).unwrap_or_default()
                    ));
                } else if x.response().is_some()
                    && x.response().is_some_and(|_| {
                        matches!(
                            x.reply,
                            crate::protocol::Reply::Response {
                                id_match: IdMatch::Loose,
                                ..
                            }
                        )
                    })
                {
                    problems.push(format!("request {id} came back with its id changed"));
                }
            }
            if let Some(silence) = after.silence() {
                problems.push(format!(
                    "a ping after the sequence got no response ({})",
                    silence.describe()
                ));
            }
            let stray = session
                .transcript()
                .received()
                .filter(|e| e.seq >= started && e.unsolicited)
                .count();
            if stray > 0 {
                problems.push(format!(
                    "{stray} response(s) answer no request (a notification answered?)"
                ));
            }
            session.kill().await;
            if problems.is_empty() {
                continue;
            }
            let mut case_messages: Vec<CaseMessage> = vec![
                CaseMessage::message(
                    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize_params(self.revision.id)}),
                    false,
                ),
                CaseMessage::message(
                    json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                    false,
                ),
            ];
            let n = messages.len();
            case_messages.extend(
                messages
                    .iter()
                    .enumerate()
                    .map(|(i, m)| CaseMessage::message(m.clone(), i + 1 < n)),
            );
            case_messages.push(CaseMessage::message(ping("after-sequence"), false));
            let description = format!("{check}: {} message(s) in one write", messages.len());
            record.failures.push(PropertyFailure {
                check,
                rule: None,
                kind,
                description: description.clone(),
                input: Value::Array(messages.clone()),
                outcome: problems.join("; "),
                shrink_steps: 0,
                transcript: session.transcript().clone(),
                reproduced: true,
                case: CaseFile {
                    mcp_conformance_case: 1,
                    check: check.as_str().to_string(),
                    revision: self.revision.id.to_string(),
                    seed: self.seed,
                    description,
                    kind,
                    command: self.command.clone(),
                    messages: case_messages,
                    timeout_secs: None,
                    output_schema: None,
                },
                case_path: None,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_and_label_give_the_same_values() {
        let draw = |seed, label: &str| {
            let mut runner = runner_for(seed, label, 8);
            let s = id_strategy();
            (0..8)
                .map(|_| s.new_tree(&mut runner).unwrap().current())
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(7, "ids"), draw(7, "ids"));
        assert_ne!(draw(7, "ids"), draw(8, "ids"));
        assert_ne!(draw(7, "ids"), draw(7, "cursors"));
    }

    #[test]
    fn generated_methods_are_never_real_ones() {
        let mut runner = runner_for(0, "methods", 64);
        let s = method_strategy();
        for _ in 0..64 {
            let m = s.new_tree(&mut runner).unwrap().current();
            assert!(m.as_str().unwrap().starts_with("conformance/unknown/"));
        }
    }
}
