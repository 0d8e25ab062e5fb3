//! One case against the server: what a case is ([`Probe`]), its messages, and the
//! server's sessions ([`Env`]) that send it and judge what came back.
//!
//! A case that kills or stalls the server costs its session; `Env` restarts the server
//! for the next one. Whether the reply breaks a rule is asked of the rule book
//! ([`crate::checks::rules`]), never restated here; this file only adds what a single
//! exchange cannot say (a crash, a stall, a tool that answered other inputs in time).

use std::time::Duration;

use serde_json::{json, Value};

use super::FailureKind;
use crate::checks::rules;
use crate::checks::CheckId;
use crate::protocol::{Exchange, Revision, SchemaSet, Session, SessionConfig, Silence};
use crate::scenarios::initialize_params;
use crate::scenarios::tools::compile_input_schema;
use crate::transport::ServerCommand;

/// What one case is.
#[derive(Debug, Clone)]
pub(super) enum Probe {
    ValidCall { tool: Value },
    InvalidCall { tool: Value, rule: String },
    Id,
    Method,
    Cursor,
}

/// The result of one case.
#[derive(Debug, Clone)]
pub(super) enum Outcome {
    Ok,
    /// A tool call that outlasted the timeout while the server still answered ping.
    Slow,
    Failed(FailureKind, String),
    /// A rule of the rule book was broken.
    Broke(rules::Breach),
}

impl Outcome {
    /// The failure's kind, description and the rule broken, if the case failed.
    pub(super) fn failed(&self) -> Option<(FailureKind, &str, Option<CheckId>)> {
        match self {
            Outcome::Ok | Outcome::Slow => None,
            Outcome::Failed(kind, text) => Some((*kind, text, None)),
            Outcome::Broke(b) => Some((b.kind, &b.message, Some(b.check))),
        }
    }
}

/// The server's sessions during the property phase: restarted after every death.
pub(super) struct Env<'a> {
    pub(super) command: &'a ServerCommand,
    pub(super) config: &'a SessionConfig,
    pub(super) revision: &'static Revision,
    pub(super) schemas: &'a SchemaSet,
    pub(super) session: Option<Session>,
    /// Tools that answered some case within the timeout: a later timeout of theirs is an
    /// input-dependent stall, not a slow tool.
    pub(super) prompt_tools: Vec<String>,
    /// A shorter wait while shrinking a stall (each stalled candidate waits it out).
    pub(super) shrink_timeout: Option<Duration>,
}

impl Env<'_> {
    pub(super) async fn fresh(&self) -> Option<Session> {
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
    pub(super) async fn evaluate_on(
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

    pub(super) async fn evaluate(&mut self, probe: &Probe, value: &Value) -> Outcome {
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
pub(super) fn case_messages(probe: &Probe, value: &Value) -> Vec<Value> {
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
pub(super) fn probe_checks(probe: &Probe) -> &'static [CheckId] {
    match probe {
        Probe::ValidCall { .. } => &[CheckId::PropValidCallResult, CheckId::PropValidCallAccepted],
        Probe::InvalidCall { .. } => &[CheckId::PropInvalidCallRejected],
        Probe::Id => &[CheckId::PropIdRoundtrip],
        Probe::Method => &[CheckId::PropUnknownMethod],
        Probe::Cursor => &[CheckId::PropRandomCursor],
    }
}
